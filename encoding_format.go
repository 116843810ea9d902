package gcp

import (
	"fmt"
	"math"
	"strings"

	"github.com/gcpnet/gcp/internal/binfmt"
)

// The encoding section of a saved model (sections.go) holds its
// Encoding; a model whose encoding is plain (numeric columns without
// missing values) keeps its feature names instead and has none. The
// payload, little-endian:
//
//	size  field
//	2+n   the target's name: a uint16 byte count n and UTF-8 bytes
//	4     C, uint32: the number of columns, 1..Inputs
//	per column:
//	2+n   its name, as the target's
//	1     Kind: 0 numeric, 1 categorical
//	1     flags: 1 Missing, 2 Other (categorical only)
//	8     numeric with Missing: Impute, float64, finite
//	4     categorical: L, uint32, the number of Levels
//	2+n   categorical: each level, as the target's name, in
//	      increasing byte order
//
// The columns' inputs must add up to the model's Inputs, and the names
// section of such a model is empty: the inputs' names come from the
// encoding.

// Flags of a column in the encoding section.
const (
	flagMissing = 1
	flagOther   = 2
)

// maxEncodingLen bounds the encoding section of a model with the given
// number of inputs: every column and every level is at least one input,
// and each has a name of at most maxNameLen bytes; a column adds 14 bytes
// of kind, flags and Impute or L.
func maxEncodingLen(inputs int) int64 {
	name := int64(2 + maxNameLen)
	return name + 4 + int64(inputs)*(name+14) + int64(inputs)*name
}

// appendEncoding appends the encoding section's payload for e.
func appendEncoding(b []byte, e *extensions) ([]byte, bool) {
	enc := e.encoding
	if enc == nil {
		return b, false
	}
	b = appendName(b, enc.target)
	b = le.AppendUint32(b, uint32(len(enc.columns)))
	for _, c := range enc.columns {
		b = appendName(b, c.Name)
		var flags byte
		if c.Missing {
			flags |= flagMissing
		}
		if c.Other {
			flags |= flagOther
		}
		b = append(b, byte(c.Kind), flags)
		if c.Kind == Numeric {
			if c.Missing {
				b = le.AppendUint64(b, math.Float64bits(c.Impute))
			}
			continue
		}
		b = le.AppendUint32(b, uint32(len(c.Levels)))
		for _, l := range c.Levels {
			b = appendName(b, l)
		}
	}
	return b, true
}

// appendName appends s as a uint16 byte count and its bytes.
func appendName(b []byte, s string) []byte {
	return append(le.AppendUint16(b, uint16(len(s))), s...)
}

// parseEncoding parses the encoding section's payload into e, checking
// that it holds what LearnEncoding can learn for a model of cfg.
func parseEncoding(p []byte, e *extensions, cfg Config) error {
	r := binfmt.NewDecoder(p, 0)
	target := readName(r)
	n := r.U32()
	if r.Err() == nil && (n < 1 || int64(n) > int64(cfg.Inputs)) {
		return fmt.Errorf("%w: %d columns for %d inputs", ErrFormat, n, cfg.Inputs)
	}
	// Each column takes at least 4 bytes: no more are allocated than the
	// payload can hold.
	columns := make([]Column, 0, min(int(n), r.Len()/4))
	width := 0
	for r.Err() == nil && len(columns) < int(n) {
		c := Column{Name: readName(r)}
		kind, flags := r.U8(), r.U8()
		c.Kind, c.Missing, c.Other = ColumnKind(kind), flags&flagMissing != 0, flags&flagOther != 0
		switch {
		case r.Err() != nil:
		case kind > byte(Categorical) || flags > flagMissing|flagOther || c.Kind == Numeric && c.Other:
			return fmt.Errorf("%w: column %d: kind %d, flags %d", ErrFormat, len(columns), kind, flags)
		case c.Kind == Numeric && c.Missing:
			if c.Impute = r.F64(); r.Err() == nil && !finite(c.Impute) {
				return fmt.Errorf("%w: column %d: imputed value %v", ErrNonFinite, len(columns), c.Impute)
			}
		case c.Kind == Categorical:
			if err := c.parseLevels(r, cfg.Inputs-width); err != nil {
				return fmt.Errorf("column %d: %w", len(columns), err)
			}
		}
		width += c.width()
		columns = append(columns, c)
	}
	switch {
	case r.Err() != nil:
		return r.Err()
	case r.Len() > 0:
		return fmt.Errorf("%w: %d bytes after the encoding", ErrFormat, r.Len())
	case width != cfg.Inputs:
		return fmt.Errorf("%w: the columns make %d inputs, the model has %d", ErrFormat, width, cfg.Inputs)
	}
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.Name
	}
	if err := checkNames(names, target); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	enc := newEncoding(target, columns)
	if enc.plain() {
		return fmt.Errorf("%w: a plain encoding, which a model holds as its feature names", ErrFormat)
	}
	e.encoding = enc
	return nil
}

// parseLevels reads the levels of a categorical column, which has at most
// room inputs left, into c.
func (c *Column) parseLevels(r *binfmt.Decoder, room int) error {
	n := r.U32()
	if r.Err() != nil {
		return nil
	}
	if int64(n) > int64(room) || n == 0 && !c.Other {
		return fmt.Errorf("%w: %d levels with %d inputs left", ErrFormat, n, room)
	}
	c.Levels = make([]string, 0, min(int(n), r.Len()/2)) // each level takes at least 2 bytes
	for r.Err() == nil && len(c.Levels) < int(n) {
		l := readName(r)
		if r.Err() == nil && (l != strings.TrimSpace(l) || isMissing(l) || len(c.Levels) > 0 && c.Levels[len(c.Levels)-1] >= l) {
			return fmt.Errorf("%w: level %q: want levels in increasing order, without surrounding spaces, none a missing value", ErrFormat, l)
		}
		c.Levels = append(c.Levels, l)
	}
	return nil
}

// readName reads a uint16 byte count and that many bytes, at most
// maxNameLen.
func readName(d *binfmt.Decoder) string {
	n := int(d.U16())
	if n > maxNameLen {
		d.Fail(fmt.Errorf("%w: a name of %d bytes, want at most %d", ErrFormat, n, maxNameLen))
	}
	return string(d.Bytes(n))
}
