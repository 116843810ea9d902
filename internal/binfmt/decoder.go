package binfmt

import (
	"fmt"
	"math"
)

// Decoder reads the little-endian fields of a file, or of a part of one,
// in order. Past the end of its data it reads zeros and records an
// ErrFormat that Err returns, the first error it met, so that a parser
// can read a run of fields and check once. A format reads the fields of
// a file whose length Complete has checked without looking (its sizes
// are the header's, which it validated); one whose counts come from the
// data itself, such as a section's, checks Err before it trusts what it
// read.
type Decoder struct {
	data []byte
	off  int
	err  error
}

// NewDecoder returns a Decoder that reads data from offset off on.
func NewDecoder(data []byte, off int) *Decoder { return &Decoder{data: data, off: off} }

// Off returns the offset of the next field, for errors.
func (d *Decoder) Off() int { return d.off }

// Len returns the number of bytes left to read.
func (d *Decoder) Len() int { return len(d.data) - d.off }

// Err returns the first error met: a read past the end, or one that Fail
// recorded.
func (d *Decoder) Err() error { return d.err }

// Fail records err, a field the format found invalid, unless an error is
// recorded already; the reads that follow return zeros.
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// take returns the next n bytes, or nil after an error or past the end.
func (d *Decoder) take(n int) []byte {
	if d.err == nil && (n < 0 || n > d.Len()) {
		d.err = fmt.Errorf("%w: offset %d: %d bytes left, the field needs %d", ErrFormat, d.off, d.Len(), n)
	}
	if d.err != nil {
		return nil
	}
	d.off += n
	return d.data[d.off-n : d.off]
}

// U8 reads a byte.
func (d *Decoder) U8() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

// U16 reads a uint16.
func (d *Decoder) U16() uint16 {
	if b := d.take(2); b != nil {
		return le.Uint16(b)
	}
	return 0
}

// U32 reads a uint32.
func (d *Decoder) U32() uint32 {
	if b := d.take(4); b != nil {
		return le.Uint32(b)
	}
	return 0
}

// U64 reads a uint64.
func (d *Decoder) U64() uint64 {
	if b := d.take(8); b != nil {
		return le.Uint64(b)
	}
	return 0
}

// F64 reads a float64 from its IEEE 754 bits.
func (d *Decoder) F64() float64 { return math.Float64frombits(d.U64()) }

// F32 reads a float32 from its IEEE 754 bits.
func (d *Decoder) F32() float32 { return math.Float32frombits(d.U32()) }

// Bytes reads n bytes, which alias data; nil past the end.
func (d *Decoder) Bytes(n int) []byte { return d.take(n) }
