package gcp

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		decimal byte
		v       float64
		missing bool
		err     error
	}{
		{" 1.5 ", '.', 1.5, false, nil},
		{"-2e-3", '.', -2e-3, false, nil},
		{"1,5", ',', 1.5, false, nil},
		{"-0,25e1", ',', -2.5, false, nil},
		{"1.5", ',', 0, false, ErrNotNumber},
		{"1,5", '.', 0, false, ErrNotNumber},
		{"1,2,3", ',', 0, false, ErrNotNumber},
		{"", '.', 0, true, nil},
		{"  ", ',', 0, true, nil},
		{"NA", '.', 0, true, nil},
		{"na", '.', 0, true, nil},
		{"NaN", '.', 0, true, nil},
		{"nan", ',', 0, true, nil},
		{"?", '.', 0, true, nil},
		{"N/A", '.', 0, true, nil}, // regression: issue 32's H2 (NULL, N/A, #N/A, - were text)
		{" n/a", ',', 0, true, nil},
		{"#N/A", '.', 0, true, nil},
		{"NULL", ',', 0, true, nil},
		{"null", '.', 0, true, nil},
		{"-", '.', 0, true, nil},
		{"--", '.', 0, false, ErrNotNumber},
		{"-1", '.', -1, false, nil},
		{"N/A2", '.', 0, false, ErrNotNumber},
		{"Madrid", '.', 0, false, ErrNotNumber},
		{"inf", '.', 0, false, ErrNonFinite},
		{"-Infinity", '.', 0, false, ErrNonFinite},
		{"1e400", '.', 0, false, ErrNonFinite},
	} {
		v, missing, err := ParseNumber(tc.in, tc.decimal)
		if v != tc.v || missing != tc.missing || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("ParseNumber(%q, %q) = %v, %v, %v; want %v, %v, %v", tc.in, tc.decimal, v, missing, err, tc.v, tc.missing, tc.err)
		}
	}
	if a := testing.AllocsPerRun(20, func() { sinkLoss, _, _ = ParseNumber(" 12.25 ", '.') }); a != 0 {
		t.Errorf("ParseNumber allocates %v times", a)
	}
	if v, _, _ := ParseNumber("0.1", '.'); v != 0.1 || math.Signbit(v) {
		t.Error("0.1")
	}
}

// FuzzParseNumber checks ParseNumber's contract on any text: exactly one
// of a finite number, a missing value (v 0) and an error wrapping
// ErrNotNumber or ErrNonFinite (v 0); the missing spellings alone are
// missing, with either mark; with a decimal point it agrees with
// strconv.ParseFloat on the trimmed field; with a decimal comma it reads
// a field as the same field with its comma a point reads with a decimal
// point, and refuses every field with a point; and the shortest text of
// a number reads back as the same number (the text TableColumn.Field
// writes).
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1.5", " -2e-3 ", "1,5", "-0,25e1", "", "NA", "n/a", "#N/A", "NULL", "-", "?", "nan", "inf", "1e400", "0x1p-2", "1_000", "1,2,3", "+.5"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, field string, point bool) {
		decimal := byte(',')
		if point {
			decimal = '.'
		}
		v, missing, err := ParseNumber(field, decimal)
		s := strings.TrimSpace(field)
		folded := strings.ToUpper(s)
		spelled := slices.Contains([]string{"", "?", "-", "NA", "NAN", "N/A", "#N/A", "NULL"}, folded)
		switch {
		case missing != spelled:
			t.Fatalf("%q: missing %v, a missing spelling %v", field, missing, spelled)
		case missing && (v != 0 || err != nil):
			t.Fatalf("%q: missing with %v, %v", field, v, err)
		case err != nil && (v != 0 || errors.Is(err, ErrNotNumber) == errors.Is(err, ErrNonFinite)):
			t.Fatalf("%q: %v with %v, want 0 and ErrNotNumber or ErrNonFinite", field, v, err)
		case err == nil && (math.IsNaN(v) || math.IsInf(v, 0)):
			t.Fatalf("%q: %v, not finite", field, v)
		}
		if _, m2, _ := ParseNumber(field, '.'+','-decimal); m2 != missing {
			t.Fatalf("%q: missing %v with one mark, %v with the other", field, missing, m2)
		}
		if missing {
			return
		}
		want, werr := strconv.ParseFloat(s, 64)
		if decimal == ',' {
			if strings.Contains(s, ".") {
				if err == nil {
					t.Fatalf("%q: %v with a decimal comma", field, v)
				}
				return
			}
			want, werr = strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
		}
		if ok := werr == nil && !math.IsInf(want, 0) && !math.IsNaN(want); ok != (err == nil) || ok && math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("%q: %v, %v; strconv.ParseFloat: %v, %v", field, v, err, want, werr)
		}
		if err != nil {
			return
		}
		text := strconv.FormatFloat(v, 'g', -1, 64)
		if decimal == ',' {
			text = strings.Replace(text, ".", ",", 1)
		}
		if back, _, err := ParseNumber(text, decimal); err != nil || math.Float64bits(back) != math.Float64bits(v) {
			t.Fatalf("%q: %v reads back from %q as %v, %v", field, v, text, back, err)
		}
	})
}
