package gcp

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		if got := e.InputColumn(i); got != c {
			t.Errorf("InputColumn(%d) = %d, want %d", i, got, c)
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
