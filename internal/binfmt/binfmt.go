// Package binfmt is what the module's saved-model formats share: the
// root package's, and package bayes's PBP and SVGD. Each opens with a
// magic and a uint16 format version, then sizes of its own, then a
// CRC-32C (Castagnoli) of the header, so that a flipped bit in a size
// reads as ErrChecksum rather than as a truncation and a reader can
// trust the sizes before it reads the rest; and each ends with a CRC-32C
// of every byte before it. All are little-endian, floats as their IEEE
// 754 bits. The package checks the magic, the version and both CRCs,
// reads a file from a stream without allocating more than the stream
// delivers (Format.ReadOne), and walks the fields (Decoder); each
// format keeps its own fields, limits and documentation.
package binfmt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// The errors of loading a saved model, matchable with errors.Is; the
// returned error wraps one and names the field or offset. The root
// package's init sets them to its gcp.ErrMagic, gcp.ErrVersion,
// gcp.ErrTruncated, gcp.ErrChecksum and gcp.ErrFormat, which it documents
// (declaring them there keeps this package out of its documentation).
var (
	ErrMagic     = errors.New("gcp: not a saved model (bad magic)")
	ErrVersion   = errors.New("gcp: unsupported saved-model format version")
	ErrTruncated = errors.New("gcp: saved model is truncated")
	ErrChecksum  = errors.New("gcp: saved model fails its CRC-32C check")
	ErrFormat    = errors.New("gcp: malformed saved model")
)

// CRCLen is the size of a CRC-32C, the header's and the file's.
const CRCLen = 4

var (
	le         = binary.LittleEndian
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// Format is one saved-model format: the magic it opens with, the
// versions of it this package reads, 1 to MaxVersion, and the length of
// each version's header. The uint16 version follows the magic, so that
// a later version may change everything after it: the version is checked
// before the header's CRC.
type Format struct {
	Magic      string
	MaxVersion uint16
	// HeaderLen returns the length of version v's header, from the magic
	// through its CRC; v is within 1..MaxVersion.
	HeaderLen func(v uint16) int
}

// prefixLen is the length of the magic and the version.
func (f *Format) prefixLen() int { return len(f.Magic) + 2 }

// AppendPrefix appends the magic and version v to b, which the header's
// sizes then follow.
func (f *Format) AppendPrefix(b []byte, v uint16) []byte {
	return le.AppendUint16(append(b, f.Magic...), v)
}

// Header checks the header at the start of data, which may be the
// header alone: the magic (as far as data goes), the version and the
// header's CRC, in this order. It returns the version; the format then
// reads its sizes from data[len(Magic)+2:HeaderLen(v)-CRCLen]. Errors:
// ErrMagic, ErrVersion, ErrTruncated (data ends inside the header) and
// ErrChecksum.
func (f *Format) Header(data []byte) (uint16, error) {
	v, err := f.version(data)
	if err != nil {
		return 0, err
	}
	hl := f.HeaderLen(v)
	if len(data) < hl {
		return 0, fmt.Errorf("%w: %d bytes, the header alone is %d", ErrTruncated, len(data), hl)
	}
	if err := checkCRC(data[:hl]); err != nil {
		return 0, fmt.Errorf("header: %w", err)
	}
	return v, nil
}

// version checks the magic, as far as data goes, and the version that
// follows it, and returns the version.
func (f *Format) version(data []byte) (uint16, error) {
	if n := min(len(data), len(f.Magic)); string(data[:n]) != f.Magic[:n] {
		return 0, fmt.Errorf("%w: data starts with %q, want %q", ErrMagic, data[:n], f.Magic)
	}
	if len(data) < f.prefixLen() {
		return 0, fmt.Errorf("%w: %d bytes, too few for the magic and the version", ErrTruncated, len(data))
	}
	v := le.Uint16(data[len(f.Magic):])
	if v < 1 || v > f.MaxVersion {
		return 0, fmt.Errorf("%w: version %d, this package reads versions 1 to %d", ErrVersion, v, f.MaxVersion)
	}
	return v, nil
}

// Complete checks that data, whose header Header has accepted, is one
// whole file of size bytes: no shorter (ErrTruncated), no longer
// (ErrFormat: bytes after its end) and ending in the CRC-32C of the rest
// (ErrChecksum).
func Complete(data []byte, size int64) error {
	switch n := int64(len(data)); {
	case n < size:
		return fmt.Errorf("%w: %d bytes, the header says %d", ErrTruncated, n, size)
	case n > size:
		return fmt.Errorf("%w: %d bytes after the model's end at %d", ErrFormat, n-size, size)
	}
	return checkCRC(data)
}

// AppendCRC appends the CRC-32C of b to b: after the header's sizes, the
// header's CRC; after the last field, the file's.
func AppendCRC(b []byte) []byte {
	return le.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// checkCRC checks that the last CRCLen bytes of b, which holds at least
// that many, are the CRC-32C of the rest.
func checkCRC(b []byte) error {
	end := len(b) - CRCLen
	if got, want := crc32.Checksum(b[:end], castagnoli), le.Uint32(b[end:]); got != want {
		return fmt.Errorf("%w: CRC of bytes 0..%d is %#08x, stored %#08x", ErrChecksum, end, got, want)
	}
	return nil
}
