package gcp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/gcpnet/gcp/internal/binfmt"
	"github.com/gcpnet/gcp/internal/robust"
)

// Version 5 of the saved-model format ends with a list of tagged
// sections, so that what a model holds beyond version 4's fields (the
// transform of its target, how it encodes a record of text columns, and
// whatever later releases add) can grow without a new version each time.
// A section is
//
//	offset  size  field
//	0       2     tag, uint16: which kind of section (sectionKinds)
//	2       4     n, uint32: the payload's length in bytes
//	6       n     the payload, in the format of its kind
//
// The sections follow the parameters, in increasing order of their tags,
// each kind at most once, and the model's final CRC-32C covers them. The
// header stores their total length X and parseHeader bounds it by
// maxSectionsLen before anything more is read; each section's n
// must fit in what is left of the X bytes and within its kind's maxLen;
// and each kind checks its payload before it allocates for what the
// payload claims. A tag this package does not know gives ErrVersion: the
// file was written by a newer release, which added a kind of section. A
// section is written only when the model has what it holds, and a model
// that has none of them is written in the lowest earlier version that
// holds it, so that it stays readable by older releases.
//
// To add a kind of section:
//
//  1. give it the next tag in the constants below;
//  2. add a field for what it holds to extensions (zero when the model has
//     none of it, which Clone copies with the struct: make it immutable
//     or deep-copy it there);
//  3. write its append and parse functions, with its payload's format, in this file,
//     and its maxLen, and add them to sectionKinds, in tag order;
//  4. add a version-5 golden file that holds the section (testdata).
//
// append writes the payload deterministically, so that a model re-encodes
// to the same bytes, and parse accepts exactly what append writes: every
// field validated as the API that sets it would, a payload of the wrong
// length an ErrFormat.

// Tags of the kinds of section.
const (
	sectionTransform  = 1 // the target transform (transform.go)
	sectionEncoding   = 2 // the record encoding (encoding.go)
	sectionConformal  = 3 // the conformal calibration (conformal.go)
	sectionTargets    = 4 // several targets' standardization (Config.Targets)
	sectionRegion     = 5 // several targets' joint region (jointRegion)
	sectionTransforms = 6 // several targets' transforms (Model.TargetTransforms)
	sectionInputBound = 7 // the bound on the standardized inputs (Model.InputBound)
	sectionCopula     = 8 // a copula model's R and marginal models (copula_model.go), version 8 only
)

// sectionHeaderLen is the size of a section's tag and length.
const sectionHeaderLen = 6

// sectionKind is one kind of section.
type sectionKind struct {
	tag  uint16
	name string // in errors
	// maxLen bounds the payload of a model with the given number of
	// inputs, so that the header's total length can be checked before the
	// model is read.
	maxLen func(inputs int) int64
	// append appends the payload for e to b, and reports false, b
	// unchanged, when e has nothing for this kind.
	append func(b []byte, e *extensions) ([]byte, bool)
	// parse validates payload and stores what it holds in e; cfg is the
	// model's validated Config.
	parse func(payload []byte, e *extensions, cfg Config) error
	// copula marks the copula section, which only format version 8 holds
	// and whose bound the header's takes only there (maxSectionsLen).
	copula bool
}

// sectionKinds are the kinds of section this package reads and writes,
// in increasing order of their tags.
var sectionKinds = []sectionKind{
	{sectionTransform, "target transform", func(int) int64 { return transformLen }, appendTransform, parseTransform, false},
	{sectionEncoding, "encoding", maxEncodingLen, appendEncoding, parseEncoding, false},
	{sectionConformal, "conformal calibration", conformalMaxLen, appendConformal, parseConformal, false},
	{sectionTargets, "targets", targetsMaxLen, appendTargets, parseTargets, false},
	{sectionRegion, "joint region", regionMaxLen, appendRegion, parseRegion, false},
	{sectionTransforms, "target transforms", func(int) int64 { return maxTargets }, appendTransforms, parseTransforms, false},
	{sectionInputBound, "input bound", func(int) int64 { return inputBoundLen }, appendInputBound, parseInputBound, false},
	{sectionCopula, "copula", copulaMaxLen, appendCopula, parseCopula, true},
}

// maxSectionsLen bounds the total length of the sections of a model with
// the given number of inputs: every kind once, at its largest, and
// foreignSectionsLen for the kinds of newer releases; the copula section
// only where copula is set (a version-8 file: copulaSectionsLen).
func maxSectionsLen(inputs int) int64 { return sectionsLenBound(inputs, false) }

// copulaSectionsLen is maxSectionsLen for a version-8 file, which holds a
// copula section.
func copulaSectionsLen(inputs int) int64 { return sectionsLenBound(inputs, true) }

// sectionsLenBound is maxSectionsLen, with the copula section's bound if
// copula.
func sectionsLenBound(inputs int, copula bool) int64 {
	n := int64(foreignSectionsLen)
	for _, k := range sectionKinds {
		if !k.copula || copula {
			n += sectionHeaderLen + k.maxLen(inputs)
		}
	}
	return n
}

// foreignSectionsLen is the room maxSectionsLen leaves for sections of
// kinds that a newer release adds, which this one cannot bound by their
// kind: 64 MiB, so that such a file reads as ErrVersion, which says
// what to do, rather than as ErrFormat. A claim up to the bound costs
// nothing until its bytes arrive: UnmarshalBinary has them already, and
// ReadFrom's buffer grows with what the stream delivers.
const foreignSectionsLen = 64 << 20

// appendSections appends the sections of e to b, in tag order.
func appendSections(b []byte, e *extensions) []byte {
	for _, k := range sectionKinds {
		start := len(b)
		b = le.AppendUint16(b, k.tag)
		b = le.AppendUint32(b, 0)
		var ok bool
		if b, ok = k.append(b, e); !ok {
			b = b[:start]
			continue
		}
		le.PutUint32(b[start+2:], uint32(len(b)-start-sectionHeaderLen))
	}
	return b
}

// parseSections parses the sections in data, which starts at offset off
// of the file, into e.
func parseSections(data []byte, off int, e *extensions, cfg Config) error {
	next := 0 // the first index of sectionKinds that may come next
	for len(data) > 0 {
		if len(data) < sectionHeaderLen {
			return fmt.Errorf("%w: offset %d: %d bytes, too few for a section's tag and length", ErrFormat, off, len(data))
		}
		tag, n := le.Uint16(data), le.Uint32(data[2:])
		i := next
		for i < len(sectionKinds) && sectionKinds[i].tag != tag {
			i++
		}
		switch {
		case i == len(sectionKinds) && !knownSection(tag):
			return fmt.Errorf("%w: offset %d: a section of kind %d, unknown to this release (written by a newer one?)", ErrVersion, off, tag)
		case i == len(sectionKinds):
			return fmt.Errorf("%w: offset %d: section %d out of order or repeated", ErrFormat, off, tag)
		case int64(n) > int64(len(data)-sectionHeaderLen):
			return fmt.Errorf("%w: offset %d: %s section of %d bytes, %d left", ErrFormat, off, sectionKinds[i].name, n, len(data)-sectionHeaderLen)
		case int64(n) > sectionKinds[i].maxLen(cfg.Inputs):
			return fmt.Errorf("%w: offset %d: %s section of %d bytes, want at most %d", ErrFormat, off, sectionKinds[i].name, n, sectionKinds[i].maxLen(cfg.Inputs))
		}
		k := sectionKinds[i]
		if err := k.parse(data[sectionHeaderLen:sectionHeaderLen+int(n)], e, cfg); err != nil {
			return fmt.Errorf("offset %d: %s section: %w", off, k.name, err)
		}
		data = data[sectionHeaderLen+int(n):]
		off += sectionHeaderLen + int(n)
		next = i + 1
	}
	return nil
}

// knownSection reports whether tag is one of sectionKinds'.
func knownSection(tag uint16) bool {
	for _, k := range sectionKinds {
		if k.tag == tag {
			return true
		}
	}
	return false
}

// transformLen is the length of the transform section's payload: the
// transform, one byte, never TransformNone (a model without a transform
// has no section).
const transformLen = 1

// appendTransform appends the transform section's payload for e.
func appendTransform(b []byte, e *extensions) ([]byte, bool) {
	if e.transform == TransformNone {
		return b, false
	}
	return append(b, byte(e.transform)), true
}

// parseTransform parses the transform section's payload into e.
func parseTransform(p []byte, e *extensions, _ Config) error {
	if len(p) != transformLen || p[0] == byte(TransformNone) || p[0] > byte(TransformLog) {
		return fmt.Errorf("%w: % x, want one byte: 1 (log)", ErrFormat, p)
	}
	e.transform = TargetTransform(p[0])
	return nil
}

// The conformal section of format version 5 (sectionConformal) holds a
// model's conformal calibration:
//
//	offset  size  field
//	0       8     n, uint64: the calibration rows, 1 to 2⁵³
//	8       8·M   the M = min(n, 2048) order statistics kept, float64,
//	              ascending, each at least 0 (+Inf where a residual
//	              overflowed)
//
// A model without a conformal calibration has no such section.

// maxConformalRows bounds a conformal calibration's rows, 2⁵³: a count
// float64 holds exactly, so that quantile's rank ⌈(n+1)·level⌉ and its
// test r > n are exact up to the level's own rounding, and far beyond
// any data set (2⁵³ scores alone are 64 PiB). A file that claims more
// was not written by this package.
const maxConformalRows = 1 << 53

// conformalMaxLen bounds the conformal section's payload.
func conformalMaxLen(int) int64 { return 8 + 8*maxConformalScores }

// appendConformal appends the conformal section's payload for e.
func appendConformal(b []byte, e *extensions) ([]byte, bool) {
	if e.conformal == nil {
		return b, false
	}
	return appendScores(b, e.conformal), true
}

// appendScores appends the conformal calibration c in the conformal
// section's format.
func appendScores(b []byte, c *conformalScores) []byte {
	b = le.AppendUint64(b, uint64(c.n))
	for _, v := range c.q {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// parseConformal parses the conformal section's payload into e.
func parseConformal(p []byte, e *extensions, _ Config) (err error) {
	e.conformal, err = parseScores(p)
	return err
}

// parseScores parses a conformal calibration in the conformal section's
// format, which p holds exactly.
func parseScores(p []byte) (*conformalScores, error) {
	if len(p) < 8 {
		return nil, fmt.Errorf("%w: %d bytes, too few for the number of rows", ErrFormat, len(p))
	}
	n := le.Uint64(p)
	m := min(n, maxConformalScores)
	switch {
	case n == 0 || n > min(maxConformalRows, math.MaxInt):
		return nil, fmt.Errorf("%w: %d calibration rows, want 1 to %d", ErrFormat, n, min(maxConformalRows, math.MaxInt))
	case uint64(len(p)) != 8+8*m:
		return nil, fmt.Errorf("%w: %d bytes for %d rows, want %d", ErrFormat, len(p), n, 8+8*m)
	}
	c := &conformalScores{n: int(n), q: make([]float64, m)}
	for j := range c.q {
		v := math.Float64frombits(le.Uint64(p[8+8*j:]))
		if !(v >= 0) || j > 0 && v < c.q[j-1] {
			return nil, fmt.Errorf("%w: order statistic %d is %v, want ascending values ≥ 0", ErrFormat, j, v)
		}
		c.q[j] = v
	}
	return c, nil
}

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
//	1     Kind: 0 numeric, 1 categorical, 2 date (version 6 only)
//	1     flags: 1 Missing, 2 Other (categorical only)
//	8     numeric or date with Missing: Impute, float64, finite
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
		if c.Kind != Categorical {
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
		case kind > byte(Date) || flags > flagMissing|flagOther || c.Kind != Categorical && c.Other:
			return fmt.Errorf("%w: column %d: kind %d, flags %d", ErrFormat, len(columns), kind, flags)
		case c.Kind != Categorical && c.Missing:
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

var le = binary.LittleEndian

// The targets section (sectionTargets) holds the standardization of a
// model of d ≥ 2 targets (Config.Targets), which only format version 7
// has:
//
//	offset  size  field
//	0       4     d, uint32: the number of targets, 2 to 16
//	4       8·d   each target's centre, float64, finite
//	4+8d    8·d   each target's scale, float64, positive with a finite
//	              reciprocal (as SetStandardization's yScale)
//
// The parameter count of the header depends on d, so the loader finds
// this section (peekTargets) before it lays the parameters out; version 7
// makes a release that knows no several targets refuse the file with
// ErrVersion rather than misread it.

// targetsMaxLen bounds the targets section's payload.
func targetsMaxLen(int) int64 { return 4 + 16*maxTargets }

// appendTargets appends the targets section's payload for e.
func appendTargets(b []byte, e *extensions) ([]byte, bool) {
	t := e.targets
	if t == nil {
		return b, false
	}
	b = le.AppendUint32(b, uint32(len(t.scales)))
	for _, s := range [][]float64{t.means, t.scales} {
		for _, v := range s {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b, true
}

// parseTargets parses the targets section's payload into e; cfg.Targets
// is what peekTargets found in it.
func parseTargets(p []byte, e *extensions, cfg Config) error {
	if len(p) < 4 {
		return fmt.Errorf("%w: %d bytes, too few for the number of targets", ErrFormat, len(p))
	}
	d := le.Uint32(p)
	if cfg.Targets < 2 || d != uint32(cfg.Targets) || len(p) != 4+16*cfg.Targets {
		return fmt.Errorf("%w: %d bytes for %d targets in a model of Targets = %d", ErrFormat, len(p), d, cfg.Targets)
	}
	t := &targetMaps{means: make([]float64, d), scales: make([]float64, d)}
	for j := range t.means {
		t.means[j] = math.Float64frombits(le.Uint64(p[4+8*j:]))
		t.scales[j] = math.Float64frombits(le.Uint64(p[4+8*(int(d)+j):]))
		if !finite(t.means[j]) || !robust.TargetScaleOK(t.scales[j]) {
			return fmt.Errorf("%w: target %d: centre %v, scale %v", ErrNonFinite, j, t.means[j], t.scales[j])
		}
	}
	e.targets = t
	return nil
}

// peekTargets returns the number of targets that the targets section
// among the sections in data says, or 0 if there is none or the
// sections are malformed (which parseSections then reports).
func peekTargets(data []byte) int {
	for len(data) >= sectionHeaderLen {
		tag, n := le.Uint16(data), le.Uint32(data[2:])
		if int64(n) > int64(len(data)-sectionHeaderLen) {
			return 0
		}
		if tag == sectionTargets && n >= 4 {
			return int(min(le.Uint32(data[sectionHeaderLen:]), maxTargets+1))
		}
		data = data[sectionHeaderLen+int(n):]
	}
	return 0
}

// The joint-region section (sectionRegion) holds what a model of d ≥ 2
// targets keeps of its joint region's calibration beyond the scale,
// which the calibration scales' field holds (jointRegion):
//
//	offset  size  field
//	0       8     ν, float64: the calibrated t's degrees of freedom,
//	              positive, +Inf for the Gaussian
//	8       …     optional: the conformal calibration of the Mahalanobis
//	              distance, in the conformal section's format
//
// A model without it (every file written before it existed) has the
// Gaussian calibrated region and no conformal region, as those files
// had. Only a version-7 file, whose targets section it follows, holds it.

// regionMaxLen bounds the joint-region section's payload.
func regionMaxLen(inputs int) int64 { return 8 + conformalMaxLen(inputs) }

// appendRegion appends the joint-region section's payload for e.
func appendRegion(b []byte, e *extensions) ([]byte, bool) {
	r := e.region
	if r == nil {
		return b, false
	}
	b = le.AppendUint64(b, math.Float64bits(r.nu))
	if r.conformal != nil {
		b = appendScores(b, r.conformal)
	}
	return b, true
}

// parseRegion parses the joint-region section's payload into e.
func parseRegion(p []byte, e *extensions, cfg Config) error {
	if cfg.Targets < 2 || len(p) < 8 {
		return fmt.Errorf("%w: %d bytes in a model of Targets = %d, want 8 or more and several targets", ErrFormat, len(p), cfg.Targets)
	}
	r := &jointRegion{nu: math.Float64frombits(le.Uint64(p))}
	if !(r.nu > 0) {
		return fmt.Errorf("%w: degrees of freedom %v, want positive", ErrFormat, r.nu)
	}
	if len(p) > 8 {
		c, err := parseScores(p[8:])
		if err != nil {
			return fmt.Errorf("conformal calibration: %w", err)
		}
		r.conformal = c
	}
	e.region = r
	return nil
}

// The target-transforms section (sectionTransforms) holds the transform
// of each target of a model of d ≥ 2 targets (Model.TargetTransforms):
//
//	offset  size  field
//	0       d     each target's transform, one byte: 0 (none) or 1 (log),
//	              at least one of them 1
//
// A model whose targets are all untransformed has no such section, and
// is written byte for byte as before it existed; a release that does not
// know it refuses a file that has it with ErrVersion, rather than answer
// in the units of the logarithms.

// appendTransforms appends the target-transforms section's payload for e.
func appendTransforms(b []byte, e *extensions) ([]byte, bool) {
	if e.transforms == ([maxTargets]TargetTransform{}) || e.targets == nil {
		return b, false
	}
	for _, t := range e.transforms[:len(e.targets.scales)] {
		b = append(b, byte(t))
	}
	return b, true
}

// parseTransforms parses the target-transforms section's payload into e.
func parseTransforms(p []byte, e *extensions, cfg Config) error {
	if cfg.Targets < 2 || len(p) != cfg.Targets {
		return fmt.Errorf("%w: %d bytes in a model of Targets = %d, want one a target", ErrFormat, len(p), cfg.Targets)
	}
	var trs [maxTargets]TargetTransform
	logged := false
	for j, b := range p {
		if b > byte(TransformLog) {
			return fmt.Errorf("%w: target %d: transform %d, want 0 (none) or 1 (log)", ErrFormat, j, b)
		}
		trs[j], logged = TargetTransform(b), logged || b != byte(TransformNone)
	}
	if !logged {
		return fmt.Errorf("%w: % x: no target transformed, which a file holds as no section", ErrFormat, p)
	}
	e.transforms = trs
	return nil
}

// The input-bound section (sectionInputBound) holds the bound on a
// model's standardized inputs (Model.InputBound):
//
//	offset  size  field
//	0       8     the bound, float64, positive and finite
//
// A model without a bound has no such section, and is written byte for
// byte as before it existed; a release that does not know it refuses a
// file that has it with ErrVersion, rather than feed its network inputs
// it was not trained on.

// inputBoundLen is the length of the input-bound section's payload.
const inputBoundLen = 8

// appendInputBound appends the input-bound section's payload for e.
func appendInputBound(b []byte, e *extensions) ([]byte, bool) {
	if e.inputBound == 0 {
		return b, false
	}
	return le.AppendUint64(b, math.Float64bits(e.inputBound)), true
}

// parseInputBound parses the input-bound section's payload into e.
func parseInputBound(p []byte, e *extensions, _ Config) error {
	if len(p) != inputBoundLen {
		return fmt.Errorf("%w: %d bytes, want %d", ErrFormat, len(p), inputBoundLen)
	}
	b := math.Float64frombits(le.Uint64(p))
	if !positiveFinite(b) {
		return fmt.Errorf("%w: input bound %v, want a positive finite value", ErrNonFinite, b)
	}
	e.inputBound = b
	return nil
}

// The copula section (sectionCopula) holds what a model whose law is the
// Gaussian copula of one-target models (copula_model.go) keeps beside
// its Config, the scale of its calibrated region (the calibration
// scales' field, as CorrectedScale) and its region's ν and conformal
// calibration (the joint-region section): R and the marginal models.
//
//	offset  size  field
//	0       8·P   R's packed lower Cholesky factor, by rows, P = d(d+1)/2
//	              float64 values, d = Targets: finite, the diagonal
//	              positive, each row of norm 1 within 1e-12
//	8·P     …     each of the d marginals in turn: n, uint64, and n bytes,
//	              the marginal's own saved model, complete (a one-target
//	              model of this version or an earlier one, with its own
//	              header and CRC)
//
// Only a version-8 file holds it, and a version-8 file always does:
// beside it the file has the targets section (the identity maps) and
// possibly the joint-region section, no parameters (P = 0 in the header),
// the identity standardization, VarScale 1, and no ranges or names (the
// marginals hold theirs). A release that knows no copula refuses the
// file by its version with ErrVersion.

// copulaMaxLen bounds the copula section's payload at what its length
// field holds, 4 GiB: sixteen marginals of the largest model the limits
// allow would need more (2 GiB of parameters each), so that no tighter
// bound follows from them; each marginal is bounded by its own header
// when it is read.
func copulaMaxLen(int) int64 { return math.MaxUint32 }

// appendCopula appends the copula section's payload for e.
func appendCopula(b []byte, e *extensions) ([]byte, bool) {
	c := e.copula
	if c == nil {
		return b, false
	}
	for _, v := range c.chol {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	for _, f := range c.files {
		b = le.AppendUint64(b, uint64(len(f)))
		b = append(b, f...)
	}
	return b, true
}

// parseCopula parses the copula section's payload into e: R's factor,
// validated, and the marginals' files, sub-slices of p that decode reads
// as models.
func parseCopula(p []byte, e *extensions, cfg Config) error {
	d := cfg.Targets
	nl := mvtPackedLen(d)
	if d < 2 || len(p) < 8*nl {
		return fmt.Errorf("%w: %d bytes in a model of Targets = %d, want R's factor and %d marginals", ErrFormat, len(p), d, d)
	}
	c := &copulaLaw{chol: make([]float64, nl), files: make([][]byte, d)}
	for i := range c.chol {
		c.chol[i] = math.Float64frombits(le.Uint64(p[8*i:]))
	}
	if err := checkCopulaFactor(c.chol, d); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	p = p[8*nl:]
	for j := range c.files {
		if len(p) < 8 {
			return fmt.Errorf("%w: %d bytes left, too few for marginal %d's length", ErrFormat, len(p), j)
		}
		n := le.Uint64(p)
		if n > uint64(len(p)-8) {
			return fmt.Errorf("%w: marginal %d of %d bytes, %d left", ErrFormat, j, n, len(p)-8)
		}
		c.files[j], p = p[8:8+n], p[8+n:]
	}
	if len(p) > 0 {
		return fmt.Errorf("%w: %d bytes after the marginals", ErrFormat, len(p))
	}
	e.copula = c
	return nil
}
