package binfmt

import (
	"bytes"
	"errors"
	"testing"
)

// TestDecoder reads fields from hand-written little-endian bytes, so
// that the test holds on a big-endian machine too: 1.0 is 0x3ff0000000000000
// as a float64 and 0x3f800000 as a float32.
func TestDecoder(t *testing.T) {
	data := []byte{
		0xee,       // skipped: the decoder starts at offset 1
		0x7f,       // U8
		0x02, 0x01, // U16 0x0102
		0x04, 0x03, 0x02, 0x01, // U32 0x01020304
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // U64
		0, 0, 0, 0, 0, 0, 0xf0, 0x3f, // F64 1.0
		0, 0, 0x80, 0x3f, // F32 1.0
		'a', 'b', 'c', // Bytes(3)
	}
	d := NewDecoder(data, 1)
	// The calls run in the table's order, left to right (the Go spec's
	// order of evaluation).
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"U8", d.U8(), byte(0x7f)},
		{"U16", d.U16(), uint16(0x0102)},
		{"U32", d.U32(), uint32(0x01020304)},
		{"U64", d.U64(), uint64(0x0102030405060708)},
		{"F64", d.F64(), 1.0},
		{"F32", d.F32(), float32(1)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if off := d.Off(); off != len(data)-3 {
		t.Errorf("Off = %d before the last 3 bytes, want %d", off, len(data)-3)
	}
	if got := d.Bytes(3); !bytes.Equal(got, []byte("abc")) {
		t.Errorf("Bytes(3) = %q, want \"abc\"", got)
	}
	if d.Off() != len(data) {
		t.Errorf("Off = %d at the end, want %d", d.Off(), len(data))
	}
}

// TestDecoderPastEnd reads past the end of the data at every offset
// with every kind of field: the read returns zero, Err an ErrFormat, and
// every later read zero without moving on, however short its field.
func TestDecoderPastEnd(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, c := range []struct {
		name string
		size int
		read func(d *Decoder) bool // reports whether the value is zero
	}{
		{"U8", 1, func(d *Decoder) bool { return d.U8() == 0 }},
		{"U16", 2, func(d *Decoder) bool { return d.U16() == 0 }},
		{"U32", 4, func(d *Decoder) bool { return d.U32() == 0 }},
		{"U64", 8, func(d *Decoder) bool { return d.U64() == 0 }},
		{"F64", 8, func(d *Decoder) bool { return d.F64() == 0 }},
		{"F32", 4, func(d *Decoder) bool { return d.F32() == 0 }},
		{"Bytes(3)", 3, func(d *Decoder) bool { return d.Bytes(3) == nil }},
	} {
		for off := len(data) - c.size + 1; off <= len(data); off++ {
			d := NewDecoder(data, off)
			if zero := c.read(d); !zero || !errors.Is(d.Err(), ErrFormat) {
				t.Errorf("%s at offset %d of %d: zero %t, Err %v; want zero and ErrFormat", c.name, off, len(data), zero, d.Err())
			}
			if d.U8() != 0 || d.Off() != off || d.Len() != len(data)-off {
				t.Errorf("%s at offset %d: after the error U8 read data or moved to %d", c.name, off, d.Off())
			}
		}
		// The data's bytes are all nonzero, so no field of them is zero.
		if d := NewDecoder(data, len(data)-c.size); c.read(d) || d.Err() != nil || d.Len() != 0 {
			t.Errorf("%s of the last %d bytes: read zero, or Err %v, %d left; want a value, nil, 0", c.name, c.size, d.Err(), d.Len())
		}
	}
	if d := NewDecoder(data, 0); d.Bytes(-1) != nil || !errors.Is(d.Err(), ErrFormat) {
		t.Errorf("Bytes(-1): Err %v, want ErrFormat", d.Err())
	}
}

// TestDecoderFail checks that Fail keeps the first error and stops the
// reads.
func TestDecoderFail(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	d := NewDecoder([]byte{1, 2, 3}, 0)
	d.Fail(first)
	d.Fail(second)
	if d.U8() != 0 || d.Err() != first {
		t.Errorf("after Fail: U8 read data or Err = %v, want first", d.Err())
	}
	d = NewDecoder(nil, 0)
	d.U8()
	d.Fail(second)
	if !errors.Is(d.Err(), ErrFormat) {
		t.Errorf("Fail after a read past the end: Err = %v, want the ErrFormat first met", d.Err())
	}
}
