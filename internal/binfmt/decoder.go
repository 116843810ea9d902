package binfmt

import "math"

// Decoder reads the little-endian fields of a file in order, from an
// offset on. It does not check bounds: a format reads with it only what
// Complete has shown data to hold, and checks a length read from the
// data before it reads that many bytes.
type Decoder struct {
	data []byte
	off  int
}

// NewDecoder returns a Decoder that reads data from offset off on.
func NewDecoder(data []byte, off int) *Decoder { return &Decoder{data: data, off: off} }

// Off returns the offset of the next field, for errors.
func (d *Decoder) Off() int { return d.off }

// U8 reads a byte.
func (d *Decoder) U8() byte {
	d.off++
	return d.data[d.off-1]
}

// U16 reads a uint16.
func (d *Decoder) U16() uint16 {
	d.off += 2
	return le.Uint16(d.data[d.off-2:])
}

// U32 reads a uint32.
func (d *Decoder) U32() uint32 {
	d.off += 4
	return le.Uint32(d.data[d.off-4:])
}

// U64 reads a uint64.
func (d *Decoder) U64() uint64 {
	d.off += 8
	return le.Uint64(d.data[d.off-8:])
}

// F64 reads a float64 from its IEEE 754 bits.
func (d *Decoder) F64() float64 { return math.Float64frombits(d.U64()) }

// F32 reads a float32 from its IEEE 754 bits.
func (d *Decoder) F32() float32 { return math.Float32frombits(d.U32()) }

// Bytes reads n bytes, which alias data.
func (d *Decoder) Bytes(n int) []byte {
	d.off += n
	return d.data[d.off-n : d.off]
}
