package gcp

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestEncodeField checks each column kind's inputs, written out from
// Encoding's documentation, in float32 and float64: a number, a missing
// number with and without an indicator, a level, an unseen level with and
// without a pooled input, a missing level with and without an indicator.
func TestEncodeField(t *testing.T) {
	num := &Column{Name: "n", Missing: true, Impute: 2.5}
	cat := &Column{Name: "c", Kind: Categorical, Levels: []string{"a", "b"}, Other: true, Missing: true}
	closed := &Column{Name: "d", Kind: Categorical, Levels: []string{"a", "b"}}
	for _, tc := range []struct {
		col   *Column // nil: a numeric column without an indicator
		field string
		want  []float64
		note  fieldNote
	}{
		{nil, " 1,5 ", []float64{1.5}, noteNone},
		{nil, "NA", []float64{-7}, noteImputed}, // the center
		{num, "3", []float64{3, 0}, noteNone},
		{num, "", []float64{2.5, 1}, noteNone},
		{cat, " b", []float64{0, 1, 0, 0}, noteNone},
		{cat, "z", []float64{0, 0, 1, 0}, noteUnseen},
		{cat, "?", []float64{0, 0, 0, 1}, noteNone},
		{closed, "z", []float64{0, 0}, noteUnseen},
		{closed, "nan", []float64{0, 0}, noteImputed},
		{closed, "B", []float64{0, 0}, noteUnseen}, // levels are case-sensitive
	} {
		for _, f32 := range []bool{false, true} {
			var got []float64
			var note fieldNote
			var err error
			if f32 {
				x := make([]float32, len(tc.want))
				for i := range x {
					x[i] = 9 // every input is written
				}
				note, err = encodeField(x, tc.col, tc.field, ',', -7)
				got = make([]float64, len(x))
				for i, v := range x {
					got[i] = float64(v)
				}
			} else {
				got = make([]float64, len(tc.want))
				for i := range got {
					got[i] = 9
				}
				note, err = encodeField(got, tc.col, tc.field, ',', -7)
			}
			if err != nil || note != tc.note || !cmp.Equal(got, tc.want) {
				t.Errorf("%+v %q (float32 %v): %v, note %d, %v; want %v, note %d", tc.col, tc.field, f32, got, note, err, tc.want, tc.note)
			}
		}
	}
	if _, err := encodeField(make([]float64, 2), num, "x", '.', 0); !errors.Is(err, ErrNotNumber) {
		t.Errorf("text in a numeric column: %v", err)
	}
	if _, err := encodeField(make([]float64, 1), nil, "Inf", '.', 0); !errors.Is(err, ErrNonFinite) {
		t.Errorf("an infinity: %v", err)
	}
}

// TestEncodingInputs checks the inputs' names and columns of an encoding
// built by hand, and that Columns returns copies.
func TestEncodingInputs(t *testing.T) {
	e := newEncoding("y", []Column{
		{Name: "c", Kind: Categorical, Levels: []string{"x", "y"}, Other: true, Missing: true},
		{Name: "n"},
		{Name: "m", Missing: true},
		{Name: "d", Kind: Categorical, Levels: []string{"only"}},
	})
	wantNames := []string{"c=x", "c=y", "c=(other)", "c=(missing)", "n", "m", "m=(missing)", "d=only"}
	if d := cmp.Diff(wantNames, e.InputNames()); d != "" || e.Inputs() != 8 || e.Target() != "y" || e.plain() {
		t.Errorf("inputs %d, target %q, plain %v, names (-want +got):\n%s", e.Inputs(), e.Target(), e.plain(), d)
	}
	for i, c := range []int{0, 0, 0, 0, 1, 2, 2, 3} {
		if got := e.inputColumn(i); got != c {
			t.Errorf("inputColumn(%d) = %d, want %d", i, got, c)
		}
	}
	e.Columns()[0].Levels[0] = "changed"
	if e.Columns()[0].Levels[0] != "x" || e.Columns()[1].Levels != nil {
		t.Error("Columns shares its levels with the encoding, or gives a numeric column levels")
	}
	if !newEncoding("y", []Column{{Name: "a"}, {Name: "b"}}).plain() {
		t.Error("numeric columns without indicators are not plain")
	}
}

// persistEncoding returns an encoding of the given width that is not
// plain: a categorical column of one level for one input; else a numeric
// column with missing values and, beyond two inputs, a categorical one:
// of one level for three, and from four on with a missing indicator, an
// input for pooled levels and the rest as levels.
func persistEncoding(inputs int) *Encoding {
	if inputs == 1 {
		return newEncoding("t", []Column{{Name: "only", Kind: Categorical, Levels: []string{"a"}}})
	}
	cols := []Column{{Name: "num", Missing: true, Impute: -1.25}}
	if inputs == 3 {
		cols = append(cols, Column{Name: "städte", Kind: Categorical, Levels: []string{"level_01"}})
	}
	if inputs > 3 {
		c := Column{Name: "städte", Kind: Categorical, Other: true, Missing: true}
		for i := range inputs - 4 {
			c.Levels = append(c.Levels, fmt.Sprintf("level_%02d", i+1))
		}
		cols = append(cols, c)
	}
	return newEncoding("ln_y", cols)
}

// persistEncoded returns persistFittedV5's model with persistEncoding's
// encoding in place of its names.
func persistEncoded[T Float](t testing.TB, cfg Config) *Model[T] {
	t.Helper()
	m := persistFittedV5[T](t, cfg)
	m.featureNames = nil
	if err := m.SetEncoding(persistEncoding(cfg.Inputs)); err != nil {
		t.Fatal(err)
	}
	return m
}

// encodingPayload builds an encoding section by hand, from the layout
// documented in encoding.go: fields are appended as given, a
// string as its uint16 length and bytes, a uint32 or byte as is, a
// float64 as its bits.
func encodingPayload(fields ...any) []byte {
	var b []byte
	for _, f := range fields {
		switch v := f.(type) {
		case string:
			b = append(le.AppendUint16(b, uint16(len(v))), v...)
		case uint32:
			b = le.AppendUint32(b, v)
		case byte:
			b = append(b, v)
		case float64:
			b = le.AppendUint64(b, math.Float64bits(v))
		default:
			panic(f)
		}
	}
	return b
}

// TestEncodingSection checks the encoding section's bytes against the
// documented layout, and that each malformed payload is refused.
func TestEncodingSection(t *testing.T) {
	m := persistEncoded[float64](t, Config{Inputs: 6, Hidden: []int{3}, Seed: 27})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// num: numeric, Missing (2 inputs); städte: levels 01 and 02, Other,
	// Missing (4 inputs).
	good := encodingPayload("ln_y", uint32(2),
		"num", byte(0), byte(flagMissing), -1.25,
		"städte", byte(1), byte(flagMissing|flagOther), uint32(2), "level_01", "level_02")
	transform := section(sectionTransform, byte(TransformLog))
	want := append(slices.Clone(transform), section(sectionEncoding, good...)...)
	h, _ := parseHeader(b)
	if got := b[len(b)-crcLen-h.sections : len(b)-crcLen]; !bytes.Equal(got, want) || h.names != 0 {
		t.Fatalf("sections\n% x\nwant\n% x\n(names %d bytes, want 0)", got, want, h.names)
	}
	var got Model[float64]
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if names, target := got.FeatureNames(); target != "ln_y" || strings.Join(names, "|") != "num|num=(missing)|städte=level_01|städte=level_02|städte=(other)|städte=(missing)" {
		t.Errorf("loaded names %q, %q", names, target)
	}
	long := strings.Repeat("n", maxNameLen+1)
	num := func(flags byte, impute float64) []any { return []any{"num", byte(0), flags, impute} }
	cat := func(name string, flags byte, levels ...string) []any {
		f := []any{name, byte(1), flags, uint32(len(levels))}
		for _, l := range levels {
			f = append(f, l)
		}
		return f
	}
	payload := func(columns uint32, cols ...[]any) []byte {
		f := []any{"t", columns}
		for _, c := range cols {
			f = append(f, c...)
		}
		return encodingPayload(f...)
	}
	okCat := cat("c", flagMissing|flagOther, "a", "b") // with num, 6 inputs
	for _, tc := range []struct {
		name string
		p    []byte
		want error
	}{
		{"good, rebuilt", payload(2, num(flagMissing, -1.25), okCat), nil},
		{"no column", payload(0), ErrFormat},
		{"more columns than inputs", payload(7, num(flagMissing, 0)), ErrFormat},
		{"kind 2", payload(2, num(flagMissing, 0), append([]any{"c", byte(2), byte(0)}, okCat[3:]...)), ErrFormat},
		{"unknown flag", payload(2, num(flagMissing|4, 0), okCat), ErrFormat},
		{"numeric with Other", payload(2, num(flagMissing|flagOther, 0), okCat), ErrFormat},
		{"NaN imputed", payload(2, num(flagMissing, math.NaN()), okCat), ErrNonFinite},
		{"levels out of order", payload(2, num(flagMissing, 0), cat("c", flagMissing|flagOther, "b", "a")), ErrFormat},
		{"repeated level", payload(2, num(flagMissing, 0), cat("c", flagMissing|flagOther, "a", "a")), ErrFormat},
		{"level with spaces", payload(2, num(flagMissing, 0), cat("c", flagMissing|flagOther, " a", "b")), ErrFormat},
		{"missing token as level", payload(2, num(flagMissing, 0), cat("c", flagMissing|flagOther, "NA", "b")), ErrFormat},
		{"more levels than inputs", payload(2, num(flagMissing, 0), cat("c", 0, "a", "b", "c", "d", "e")), ErrFormat},
		{"no level, no Other", payload(1, cat("c", flagMissing)), ErrFormat},
		{"too few inputs", payload(2, num(flagMissing, 0), cat("c", flagOther, "a")), ErrFormat},
		{"bytes after", append(payload(2, num(flagMissing, 0), okCat), 0), ErrFormat},
		{"cut short", payload(2, num(flagMissing, 0), okCat)[:20], ErrFormat},
		{"name too long", payload(2, num(flagMissing, 0), cat(long, flagMissing|flagOther, "a", "b")), ErrFormat},
		{"repeated column", payload(2, num(flagMissing, 0), cat("num", flagMissing|flagOther, "a", "b")), ErrFormat},
		{"empty column name", payload(2, num(flagMissing, 0), cat("", flagMissing|flagOther, "a", "b")), ErrFormat},
		{"plain", payload(6, num(0, 0), []any{"b", byte(0), byte(0)}, []any{"c", byte(0), byte(0)}, []any{"d", byte(0), byte(0)}, []any{"e", byte(0), byte(0)}, []any{"f", byte(0), byte(0)}), ErrFormat},
	} {
		data := persistWithSections(b, append(slices.Clone(transform), section(sectionEncoding, tc.p...)...), -1)
		var got Model[float64]
		err := got.UnmarshalBinary(data)
		if kind, _ := persistKind(err); kind != tc.want && !(tc.want == nil && err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// A names section beside the encoding: one model, one encoding.
	named := m.Clone()
	named.featureNames = []string{"a", "b", "c", "d", "e", "f"}
	if err := new(Model[float64]).UnmarshalBinary(named.encode()); !errors.Is(err, ErrFormat) {
		t.Errorf("names beside an encoding: %v, want ErrFormat", err)
	}
}

// TestMaxEncodingLen checks the bound on the section against encodings
// that each fill their inputs with the longest names.
func TestMaxEncodingLen(t *testing.T) {
	long := func(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat("x", maxNameLen-4) }
	for inputs := 1; inputs <= 6; inputs++ {
		for _, e := range []*Encoding{
			func() *Encoding { // every input a numeric column with Missing: half as many columns
				var cols []Column
				for i := range inputs / 2 {
					cols = append(cols, Column{Name: long(i), Missing: true})
				}
				if inputs%2 == 1 {
					cols = append(cols, Column{Name: long(99), Kind: Categorical, Levels: []string{long(98)}})
				}
				return newEncoding(long(100), cols)
			}(),
			func() *Encoding { // every input a categorical column of one level
				var cols []Column
				for i := range inputs {
					cols = append(cols, Column{Name: long(i), Kind: Categorical, Levels: []string{long(i)}})
				}
				return newEncoding(long(100), cols)
			}(),
		} {
			b, ok := appendEncoding(nil, &extensions{encoding: e})
			if e.Inputs() != inputs || !ok || int64(len(b)) > maxEncodingLen(inputs) {
				t.Errorf("%d inputs: a payload of %d bytes, bound %d", e.Inputs(), len(b), maxEncodingLen(inputs))
			}
		}
	}
}

// A date column becomes its days since 1970-01-01 and its weekday's and
// month's circles, worked by hand: 2024-03-17 is day 19799, a Sunday
// (weekday 6 of 7) in March (month 2 of 12); 2024-03-18 a Monday.
func TestLearnEncodingReadsISODates(t *testing.T) {
	header := []string{"sold", "y"}
	var rows [][]string
	for i, d := range []string{"2024-03-17", "2024-03-18", "", "2024-03-20T12:00:00Z", "2024-03-18"} {
		rows = append(rows, []string{d, fmt.Sprint(i)})
	}
	e, enc, err := LearnEncoding(header, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	cols := e.Columns()
	// The median of 19799, 19800, 19800 and 19802.5 is 19800.
	if len(cols) != 1 || cols[0].Kind != Date || !cols[0].Missing || cols[0].Impute != 19800 || e.Inputs() != 6 {
		t.Fatalf("columns %+v, %d inputs", cols, e.Inputs())
	}
	sun, mar := 2*math.Pi*6/7, 2*math.Pi*2/12
	want := []float64{19799, math.Sin(sun), math.Cos(sun), math.Sin(mar), math.Cos(mar), 0}
	if got := enc.X[:6]; !cmp.Equal(got, want, cmpopts.EquateApprox(0, 1e-15)) { // sin and cos within an ulp of math's
		t.Errorf("2024-03-17: inputs %v, want %v", got, want)
	}
	if got := enc.X[12:18]; !cmp.Equal(got, []float64{19800, 0, 0, 0, 0, 1}) {
		t.Errorf("missing: inputs %v, want the median, zeros and the indicator", got)
	}
	if got := enc.X[18]; got != 19802.5 {
		t.Errorf("2024-03-20T12:00:00Z: days %v, want 19802.5", got)
	}
	names := e.InputNames()
	if names[0] != "sold" || names[1] != "sold=(weekday sin)" || names[5] != "sold=(missing)" {
		t.Errorf("input names %q", names)
	}
	// The columnar form, given the dates as days, learns the same, bit
	// for bit; given them as text, the levels.
	days := []float64{19799, 19800, math.NaN(), 19802.5, 19800}
	y := TableColumn{Numbers: []float64{0, 1, 2, 3, 4}}
	e2, enc2, err := LearnEncodingColumns(header, []TableColumn{{Numbers: days, Dates: true}, y}, nil, "y", '.')
	if err != nil || !cmp.Equal(e2.Columns(), cols) || !cmp.Equal(enc2.X, enc.X) {
		t.Errorf("columnar: %v, %+v, %v", err, e2.Columns(), enc2.X)
	}
	text := TableColumn{Codes: []uint32{0, 1, 2, 3, 1}, Levels: []string{"2024-03-17", "2024-03-18", "", "2024-03-20T12:00:00Z"}}
	if e3, _, err := LearnEncodingColumns(header, []TableColumn{text, y}, nil, "y", '.'); err != nil || e3.Columns()[0].Kind != Categorical {
		t.Errorf("columnar text: %v, %+v", err, e3.Columns())
	}
}

// A model with a date column encodes a record's date text, a table's
// days and a saved-and-loaded copy's alike, and refuses text that is not
// an ISO date.
func TestDateColumnEncodesRecordsAndRoundTrips(t *testing.T) {
	e := newEncoding("y", []Column{{Name: "sold", Kind: Date, Missing: true, Impute: 19000}, {Name: "rooms"}})
	m := mustModel[float64](t, Config{Inputs: e.Inputs(), Hidden: []int{3}, Seed: 5})
	if err := m.SetEncoding(e); err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil || le.Uint16(b[8:]) != fileVersionDates {
		t.Fatalf("MarshalBinary: %v, version %d", err, le.Uint16(b[8:]))
	}
	var back Model[float64]
	if err := back.UnmarshalBinary(b); err != nil || !cmp.Equal(back.Encoding().Columns(), e.Columns()) {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	x1, x2, x3 := make([]float64, 7), make([]float64, 7), make([]float64, 7)
	if _, err := back.EncodeRecord(x1, MapRecord{"sold": "2024-03-17T06:00:00+06:00", "rooms": "3"}, '.'); err != nil {
		t.Fatal(err)
	}
	if _, err := m.EncodeRow(x2, []TableColumn{{Numbers: []float64{19799}, Dates: true}, {Numbers: []float64{3}}}, 0, '.'); err != nil {
		t.Fatal(err)
	}
	if _, err := m.EncodeFields(x3, []string{"2024-03-17", "3"}, '.'); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(x1, x2) || !cmp.Equal(x1, x3) || x1[0] != 19799 {
		t.Errorf("record %v, row %v, fields %v: want the same inputs, day 19799 first", x1, x2, x3)
	}
	_, err = m.EncodeFields(x3, []string{"03/04/2024", "3"}, '.')
	if fe := (*FieldError)(nil); !errors.As(err, &fe) || !errors.Is(err, ErrNotNumber) || fe.Column != "sold" {
		t.Errorf("03/04/2024: %v, want a FieldError on sold wrapping ErrNotNumber", err)
	}
	// A version-5 file cannot hold a date column, nor a version-6 file
	// be without one.
	b5 := persistFixCRCs(append([]byte(nil), b...))
	le.PutUint16(b5[8:], fileVersionSections)
	if err := back.UnmarshalBinary(persistFixCRCs(b5)); !errors.Is(err, ErrFormat) {
		t.Errorf("a date column in version 5: %v, want ErrFormat", err)
	}
}
