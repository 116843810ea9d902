package binfmt

import (
	"bytes"
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
