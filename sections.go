package gcp

import (
	"fmt"
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
//  3. write its append and parse functions, beside the concept they store,
//     and its maxLen, and add them to sectionKinds, in tag order;
//  4. add a version-5 golden file that holds the section (testdata).
//
// append writes the payload deterministically, so that a model re-encodes
// to the same bytes, and parse accepts exactly what append writes: every
// field validated as the API that sets it would, a payload of the wrong
// length an ErrFormat.

// Tags of the kinds of section.
const (
	sectionTransform = 1 // the target transform (transform.go)
	sectionEncoding  = 2 // the record encoding (encoding.go)
	sectionConformal = 3 // the conformal calibration (conformal.go)
)

// sectionHeaderLen is the size of a section's tag and length.
const sectionHeaderLen = 6

// extensions is what version 5's sections hold: a model's state beyond
// the fields of version 4. Its zero value is a model with none of it.
type extensions struct {
	transform TargetTransform
	encoding  *Encoding // nil: the inputs are the features as they are
	// conformal is the conformal calibration (conformal.go), nil if none;
	// replaced, never changed in place, so clones share it.
	conformal *conformalScores
}

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
}

// sectionKinds are the kinds of section this package reads and writes,
// in increasing order of their tags.
var sectionKinds = []sectionKind{
	{sectionTransform, "target transform", func(int) int64 { return transformLen }, appendTransform, parseTransform},
	{sectionEncoding, "encoding", maxEncodingLen, appendEncoding, parseEncoding},
	{sectionConformal, "conformal calibration", conformalMaxLen, appendConformal, parseConformal},
}

// maxSectionsLen bounds the total length of the sections of a model with
// the given number of inputs: every kind once, at its largest, and
// foreignSectionsLen for the kinds of newer releases.
func maxSectionsLen(inputs int) int64 {
	n := int64(foreignSectionsLen)
	for _, k := range sectionKinds {
		n += sectionHeaderLen + k.maxLen(inputs)
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
