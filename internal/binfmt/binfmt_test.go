package binfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
)

// The tests use a toy format of two versions. Version 1's header is the
// magic, the version, the body's length n (uint32) and the header CRC;
// version 2 adds a uint32 flags field before the CRC. The body is n bytes
// and the file ends with the CRC of everything before it.
var toy = Format{
	Magic:      "TOY\x89\r\n\x1a\n",
	MaxVersion: 2,
	HeaderLen: func(v uint16) int {
		if v == 2 {
			return 22
		}
		return 18
	},
}

// toyCRC appends the CRC-32C of b to b, computed by hash/crc32 rather
// than by the package, little-endian.
func toyCRC(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// toyFile returns a file of the toy format of version v with a body of n
// bytes, claiming claim bytes of body in the header; the encoder is the
// test's own, independent of the package's.
func toyFile(v uint16, n int, claim uint32) []byte {
	b := []byte(toy.Magic)
	b = binary.LittleEndian.AppendUint16(b, v)
	b = binary.LittleEndian.AppendUint32(b, claim)
	if v == 2 {
		b = binary.LittleEndian.AppendUint32(b, 0xdeadbeef)
	}
	b = toyCRC(b)
	for i := range n {
		b = append(b, byte(3*i+1))
	}
	return toyCRC(b)
}

// toySize is the toy format's size function for ReadOne: the header's
// checks, then the length of the whole file.
func toySize(head []byte) (int64, error) {
	if _, err := toy.Header(head); err != nil {
		return 0, err
	}
	n := binary.LittleEndian.Uint32(head[len(toy.Magic)+2:])
	return int64(toy.HeaderLen(binary.LittleEndian.Uint16(head[len(toy.Magic):]))) + int64(n) + CRCLen, nil
}

// toyDecode checks a whole toy file, as a format's UnmarshalBinary would.
func toyDecode(data []byte) error {
	size, err := toySize(data)
	if err != nil {
		return err
	}
	return Complete(data, size)
}

// TestCRC checks AppendCRC against the CRC-32C check value of
// "123456789", 0xe3069283 (the Castagnoli polynomial's published check
// value), stored little-endian.
func TestCRC(t *testing.T) {
	got := AppendCRC([]byte("123456789"))
	if want := append([]byte("123456789"), 0x83, 0x92, 0x06, 0xe3); !bytes.Equal(got, want) {
		t.Errorf("AppendCRC = % x, want % x", got, want)
	}
	if err := checkCRC(got); err != nil {
		t.Errorf("checkCRC of AppendCRC's output: %v", err)
	}
	got[3] ^= 1
	if err := checkCRC(got); !errors.Is(err, ErrChecksum) {
		t.Errorf("checkCRC after a flipped bit: %v, want ErrChecksum", err)
	}
}

// TestAppendPrefix checks that the encoder's prefix and CRC give the
// bytes of the test's own encoder.
func TestAppendPrefix(t *testing.T) {
	for _, v := range []uint16{1, 2} {
		want := toyFile(v, 0, 0)[:toy.HeaderLen(v)]
		b := toy.AppendPrefix(nil, v)
		b = binary.LittleEndian.AppendUint32(b, 0)
		if v == 2 {
			b = binary.LittleEndian.AppendUint32(b, 0xdeadbeef)
		}
		if b = AppendCRC(b); !bytes.Equal(b, want) {
			t.Errorf("version %d: header % x, want % x", v, b, want)
		}
	}
}

// TestHeader checks every way a header can fail, in the order Header
// checks them, and that a valid one of either version passes, alone or
// followed by the rest of the file.
func TestHeader(t *testing.T) {
	for _, v := range []uint16{1, 2} {
		file := toyFile(v, 5, 5)
		hl := toy.HeaderLen(v)
		for k := 0; k <= len(file); k++ {
			got, err := toy.Header(file[:k])
			switch {
			case k < hl && !errors.Is(err, ErrTruncated):
				t.Errorf("version %d, first %d bytes: %v, want ErrTruncated", v, k, err)
			case k >= hl && (err != nil || got != v):
				t.Errorf("version %d, first %d bytes: %d, %v; want %d, nil", v, k, got, err, v)
			}
		}
		// A flipped bit in the magic is ErrMagic, in the version
		// ErrVersion (the version field's low bits give 0 or 3; the
		// others a version far beyond 2), and in the sizes or the CRC
		// ErrChecksum.
		for i := range 8 * hl {
			c := bytes.Clone(file)
			c[i/8] ^= 1 << (i % 8)
			want := ErrChecksum
			switch {
			case i/8 < len(toy.Magic):
				want = ErrMagic
			case i/8 < len(toy.Magic)+2:
				want = ErrVersion
			}
			if _, err := toy.Header(c); !errors.Is(err, want) {
				t.Errorf("version %d, bit %d flipped: %v, want %v", v, i, err, want)
			}
		}
	}
	for _, v := range []uint16{0, 3, 0xffff} {
		b := binary.LittleEndian.AppendUint16([]byte(toy.Magic), v)
		if _, err := toy.Header(b); !errors.Is(err, ErrVersion) {
			t.Errorf("version %d: %v, want ErrVersion", v, err)
		}
	}
	// A short prefix of something else is ErrMagic, not ErrTruncated.
	if _, err := toy.Header([]byte("TOX")); !errors.Is(err, ErrMagic) {
		t.Errorf("\"TOX\": %v, want ErrMagic", err)
	}
}

// TestComplete checks that Complete accepts exactly a whole file: one byte
// short at any length is ErrTruncated, one byte more ErrFormat, a
// flipped bit after the header ErrChecksum.
func TestComplete(t *testing.T) {
	file := toyFile(1, 40, 40)
	size := int64(len(file))
	if err := Complete(file, size); err != nil {
		t.Fatalf("Complete of a whole file: %v", err)
	}
	for k := range file {
		if err := Complete(file[:k], size); !errors.Is(err, ErrTruncated) {
			t.Errorf("first %d of %d bytes: %v, want ErrTruncated", k, size, err)
		}
	}
	if err := Complete(append(bytes.Clone(file), 0), size); !errors.Is(err, ErrFormat) {
		t.Errorf("a byte after the end: %v, want ErrFormat", err)
	}
	for i := 8 * toy.HeaderLen(1); i < 8*len(file); i++ {
		c := bytes.Clone(file)
		c[i/8] ^= 1 << (i % 8)
		if err := Complete(c, size); !errors.Is(err, ErrChecksum) {
			t.Errorf("bit %d flipped: %v, want ErrChecksum", i, err)
		}
	}
}
