package gcp

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPersistLayoutVersion5 checks a version-5 file against the layout
// MarshalBinary documents: the sections' length X in the header before
// its CRC, Members (1 allowed) after MCSamples, everything after the
// header shifted by 8 from version 1's offsets (4 more than version 3),
// the sections after the parameters, and 112 + 4D + 32I + N + EP + X
// bytes; and that a model without a section stays in its earlier version.
func TestPersistLayoutVersion5(t *testing.T) {
	for _, members := range []int{1, 3} {
		m := persistFittedV5[float64](t, Config{Inputs: 2, Hidden: []int{3}, Members: members, Seed: 23})
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		d, in, p := len(m.cfg.Hidden), m.cfg.Inputs, len(m.params)
		names := 0
		for _, name := range append([]string{m.targetName}, m.featureNames...) {
			names += 2 + len(name)
		}
		const shift = 8 // the names' and the sections' lengths in the header
		o := persistOffsetsFor(d, in, lossLen+membersLen)
		sections := len(b) - crcLen - (shift + o.params + 17 + 16*in + names + 8*p)
		got := []any{
			le.Uint16(b[8:]), le.Uint32(b[20:]), le.Uint32(b[24:]), le.Uint32(b[28:]) == crc32.Checksum(b[:28], castagnoli),
			le.Uint32(b[shift+o.hidden:]), le.Uint32(b[shift+4+o.mcSamples:]), math.Float64frombits(le.Uint64(b[shift+o.yScale:])),
			sections, b[len(b)-crcLen-sections:][:sections], len(b),
		}
		want := []any{
			uint16(5), uint32(names), uint32(7), true,
			uint32(3), uint32(members), m.yScale,
			7, []byte{sectionTransform, 0, 1, 0, 0, 0, byte(TransformLog)}, 112 + 4*d + 32*in + names + 8*p + 7,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("members %d: version-5 layout (-want +got):\n%s", members, diff)
		}
		if err := m.SetTargetTransform(TransformNone); err != nil {
			t.Fatal(err)
		}
		if b, _ := m.MarshalBinary(); le.Uint16(b[8:]) != uint16(min(members+2, fileVersionMembers)) {
			t.Errorf("members %d without a transform: version %d, want %d", members, le.Uint16(b[8:]), min(members+2, fileVersionMembers))
		}
	}
}

// persistWithSections returns the version-5 model base with its sections
// replaced by sections and X, and both CRCs, set to match; x overrides X
// unless negative.
func persistWithSections(base, sections []byte, x int) []byte {
	h, err := parseHeader(base)
	if err != nil {
		panic(err)
	}
	end := len(base) - crcLen - h.sections
	b := append(slices.Clone(base[:end]), sections...)
	b = append(b, 0, 0, 0, 0)
	if x < 0 {
		x = len(sections)
	}
	le.PutUint32(b[24:], uint32(x))
	return persistFixCRCs(b)
}

// section returns a section of the given tag and payload.
func section(tag uint16, payload ...byte) []byte {
	b := le.AppendUint16(nil, tag)
	b = le.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

// TestUnmarshalRejectsVersion5 checks the sections' checks: each
// malformed file gets its sentinel with both CRCs fixed, and a receiver
// is left as it was.
func TestUnmarshalRejectsVersion5(t *testing.T) {
	m := persistFittedV5[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 24})
	base, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	log := section(sectionTransform, byte(TransformLog))
	if got := persistWithSections(base, log, -1); !bytes.Equal(got, base) {
		t.Fatal("persistWithSections does not rebuild the model it was given")
	}
	long := slices.Clone(log)
	le.PutUint32(long[2:], 2)
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"no section", persistWithSections(base, nil, -1), ErrFormat},
		{"X beyond the limit", persistWithSections(base, log, int(maxSectionsLen(2))+1), ErrFormat},
		{"X beyond the file", persistWithSections(base, log, len(log)+1), ErrTruncated},
		{"unknown tag", persistWithSections(base, section(200, 1, 2, 3), -1), ErrVersion},
		{"unknown tag after a known one", persistWithSections(base, append(slices.Clone(log), section(9)...), -1), ErrVersion},
		{"repeated", persistWithSections(base, append(slices.Clone(log), log...), -1), ErrFormat},
		{"payload longer than the section's limit", persistWithSections(base, section(sectionTransform, 1, 0), -1), ErrFormat},
		{"payload running past the sections", persistWithSections(base, append(long, 0)[:len(log)], -1), ErrFormat},
		{"a section's header cut short", persistWithSections(base, append(slices.Clone(log), 1, 0, 0), -1), ErrFormat},
		{"empty transform", persistWithSections(base, section(sectionTransform), -1), ErrFormat},
		{"transform none", persistWithSections(base, section(sectionTransform, 0), -1), ErrFormat},
		{"transform 2", persistWithSections(base, section(sectionTransform, 2), -1), ErrFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, recv := range []*Model[float64]{{}, m.Clone()} {
				before := recv.Clone()
				err := recv.UnmarshalBinary(tc.data)
				if kind, kerr := persistKind(err); kerr != nil || kind != tc.want {
					t.Errorf("UnmarshalBinary: %v, want %v (%v)", err, tc.want, kerr)
				}
				if _, err := recv.ReadFrom(bytes.NewReader(tc.data)); !errors.Is(err, tc.want) {
					t.Errorf("ReadFrom: %v, want %v", err, tc.want)
				}
				if d := persistDiff(before, recv); d != "" && recv.lay != nil {
					t.Errorf("a failed load changed the receiver (-before +after):\n%s", d)
				}
			}
		})
	}
}

// TestSectionKinds checks the mechanism with a second kind of section,
// registered for the test: both are written in tag order, each only when
// the model has it, read back, and refused out of order; the header's
// bound grows with the kinds.
func TestSectionKinds(t *testing.T) {
	saved := sectionKinds
	defer func() { sectionKinds = saved }()
	// The test kind stores three bytes for every model with a transform,
	// and checks them when read.
	payload := []byte{7, 8, 9}
	var parsed int
	sectionKinds = append(slices.Clone(saved), sectionKind{
		tag: 40, name: "test", maxLen: func(int) int64 { return 3 },
		append: func(b []byte, e *extensions) ([]byte, bool) {
			if e.transform == TransformNone {
				return b, false
			}
			return append(b, payload...), true
		},
		parse: func(p []byte, e *extensions, cfg Config) error {
			if !bytes.Equal(p, payload) || cfg.Inputs != 2 {
				return fmt.Errorf("%w: test payload % x", ErrFormat, p)
			}
			parsed++
			return nil
		},
	})
	if got, want := maxSectionsLen(2), foreignSectionsLen+3*sectionHeaderLen+transformLen+maxEncodingLen(2)+conformalMaxLen(2)+sectionHeaderLen+3; got != want {
		t.Errorf("maxSectionsLen = %d, want %d", got, want)
	}
	m := persistFittedV5[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 25})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	log, test := section(sectionTransform, byte(TransformLog)), section(40, payload...)
	h, _ := parseHeader(b)
	if got := b[len(b)-crcLen-h.sections : len(b)-crcLen]; !bytes.Equal(got, append(slices.Clone(log), test...)) {
		t.Fatalf("sections % x, want the transform's and then the test kind's", got)
	}
	var got Model[float64]
	if err := got.UnmarshalBinary(b); err != nil || parsed != 1 {
		t.Fatalf("UnmarshalBinary: %v, test section parsed %d times", err, parsed)
	}
	if d := persistDiff(m, &got); d != "" {
		t.Errorf("round trip differs (-want +got):\n%s", d)
	}
	for name, s := range map[string][]byte{
		"out of order":  append(slices.Clone(test), log...),
		"bad payload":   append(slices.Clone(log), section(40, 7, 8, 0)...),
		"second of one": append(append(slices.Clone(log), test...), test...),
	} {
		if err := got.UnmarshalBinary(persistWithSections(b, s, -1)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	// A model with only the second kind's section would be version 5 as
	// well; without either, it is not.
	if err := got.UnmarshalBinary(persistWithSections(b, test, -1)); err != nil {
		t.Errorf("the test section alone: %v", err)
	}
}

// TestReadFromHugeSectionsClaim feeds ReadFrom a valid version-5 header
// whose sections claim the most the header allows, and 4 KiB: the memory
// it takes must follow what arrived, as TestReadFromHugeClaim checks for
// the parameters.
func TestReadFromHugeSectionsClaim(t *testing.T) {
	m := persistFittedV5[float64](t, Config{Inputs: 2, Hidden: []int{2}, Seed: 26})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	hdr := slices.Clone(b[:headerLenV5])
	le.PutUint32(hdr[24:], uint32(maxSectionsLen(2)))
	hdr = persistFixCRCs(hdr)
	h, err := parseHeader(hdr)
	if err != nil || h.size() < foreignSectionsLen {
		t.Fatalf("the header claims %d bytes (%v), want over %d", h.size(), err, foreignSectionsLen)
	}
	const sent = 4 << 10
	var n int64
	var got Model[float64]
	alloc := persistAllocated(func() {
		n, err = got.ReadFrom(bytes.NewReader(append(hdr, make([]byte, sent)...)))
	})
	// As in TestReadFromHugeClaim: under 4× what arrived, plus the
	// error text and background allocation.
	if !errors.Is(err, ErrTruncated) || n != headerLenV5+sent || alloc > 64<<10 {
		t.Errorf("ReadFrom = %d, %v after allocating %d bytes; want %d, ErrTruncated and at most 64 KiB", n, err, alloc, headerLenV5+sent)
	}
}
