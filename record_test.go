package gcp

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encodedModel returns a float64 model trained for a few epochs on
// encodingTable's rows, with their encoding set.
func encodedModel(t testing.TB) (*Model[float64], *Encoding) {
	t.Helper()
	header, rows := encodingTable()
	e, rs, err := LearnEncoding(header, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	m := mustModel[float64](t, Config{Inputs: e.Inputs(), Hidden: []int{4}, Seed: 41})
	if _, err := mustTrainer(t, m, TrainConfig{BatchSize: 4, Seed: 1}).Fit(rs.X, rs.Y, FitOptions[float64]{Epochs: 2, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if err := m.SetEncoding(e); err != nil {
		t.Fatal(err)
	}
	return m, e
}

// TestEncodeRecord checks that a record by name and its fields in order
// encode and predict alike, bit for bit, and the notes of an unseen
// level, a missing value without an indicator and a value outside the
// training range.
func TestEncodeRecord(t *testing.T) {
	m, e := encodedModel(t)
	if d := cmp.Diff(e.InputNames(), func() []string { f, _ := m.FeatureNames(); return f }()); d != "" || m.Encoding() != e {
		t.Errorf("FeatureNames (-want +got):\n%s", d)
	}
	xMean, _, _, _ := m.Standardization()
	ws := m.NewWorkspace()
	for _, tc := range []struct {
		fields []string
		want   []float64 // the inputs; NaN: the standardization's center
		notes  RecordNotes
	}{
		{[]string{"Paris", "33", "2"}, []float64{0, 1, 0, 0, 33, 0, 2}, RecordNotes{}},
		{[]string{"Lyon", "NA", "?"}, []float64{0, 0, 1, 0, 52.5, 1, math.NaN()}, RecordNotes{Unseen: 1, FirstUnseen: 0, Imputed: 1, FirstImputed: 2}},
		{[]string{"", " 1e3 ", "5"}, []float64{0, 0, 0, 1, 1000, 0, 5}, RecordNotes{Outside: 1, FirstOutside: 1}},
	} {
		want := tc.want
		if math.IsNaN(want[6]) {
			want[6] = xMean[6]
		}
		x := make([]float64, 7)
		notes, err := m.EncodeFields(x, tc.fields, '.')
		if err != nil || !cmp.Equal(x, want) || notes != tc.notes {
			t.Errorf("EncodeFields(%q) = %v, %+v, %v; want %v, %+v", tc.fields, x, notes, err, want, tc.notes)
		}
		r := MapRecord{"size": tc.fields[2], "city": tc.fields[0], "age": tc.fields[1], "ignored": "x"}
		xr := make([]float64, 7)
		if notes, err := m.EncodeRecord(xr, r, '.'); err != nil || notes != tc.notes || !cmp.Equal(xr, x, persistBitwise) {
			t.Errorf("EncodeRecord(%v) = %v, %+v, %v; want EncodeFields'", r, xr, notes, err)
		}
		want2, err := m.Predict(ws, x)
		if err != nil {
			t.Fatal(err)
		}
		p, notes, err := m.PredictRecord(m.NewWorkspace(), r)
		if err != nil || notes != tc.notes || !cmp.Equal(p, want2, persistBitwise) {
			t.Errorf("PredictRecord(%v) = %+v, %v; want Predict's %+v", r, p, err, want2)
		}
	}
}

func TestEncodeRecordErrors(t *testing.T) {
	m, _ := encodedModel(t)
	x := make([]float64, 7)
	for _, tc := range []struct {
		name  string
		r     MapRecord
		want  error
		index int
	}{
		{"missing column", MapRecord{"city": "Paris", "size": "1"}, ErrMissingColumn, 1},
		{"text in a numeric column", MapRecord{"city": "Paris", "age": "old", "size": "1"}, ErrNotNumber, 1},
		{"infinite", MapRecord{"city": "Paris", "age": "3", "size": "-inf"}, ErrNonFinite, 2},
	} {
		_, err := m.EncodeRecord(x, tc.r, '.')
		var fe *FieldError
		if !errors.Is(err, tc.want) || !errors.As(err, &fe) || fe.Index != tc.index || fe.Column != []string{"city", "age", "size"}[tc.index] {
			t.Errorf("%s: %v, want a *FieldError for column %d wrapping %v", tc.name, err, tc.index, tc.want)
		}
		if _, _, err := m.PredictRecord(m.NewWorkspace(), tc.r); !errors.Is(err, tc.want) {
			t.Errorf("%s: PredictRecord: %v", tc.name, err)
		}
	}
	if _, err := m.EncodeFields(x, []string{"a", "1"}, '.'); !errors.Is(err, ErrShape) {
		t.Errorf("two fields for three columns: %v", err)
	}
	if _, err := m.EncodeFields(x[:6], []string{"a", "1", "2"}, '.'); !errors.Is(err, ErrShape) {
		t.Errorf("six inputs for seven: %v", err)
	}
	if _, _, err := m.PredictRecord(mustModel[float64](t, Config{Inputs: 2}).NewWorkspace(), MapRecord{}); !errors.Is(err, ErrShape) {
		t.Errorf("another model's workspace: %v", err)
	}
	nameless := mustModel[float64](t, Config{Inputs: 2})
	if _, err := nameless.EncodeRecord(x[:2], MapRecord{}, '.'); !errors.Is(err, ErrConfig) {
		t.Errorf("a model without names: %v", err)
	}
	// A model without names takes its fields by position, and names
	// them by it in errors.
	_, err := nameless.EncodeFields(x[:2], []string{"1", "two"}, '.')
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Index != 1 || err.Error() != `column 2: gcp: not a number: "two"` {
		t.Errorf("a nameless model's error: %v", err)
	}
	var nilModel *Model[float32]
	if _, err := nilModel.EncodeFields(nil, nil, '.'); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	if _, _, err := nilModel.PredictRecord(nil, MapRecord{}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	// regression: a nil Record was dereferenced, a panic.
	if _, err := m.EncodeRecord(x, nil, '.'); !errors.Is(err, ErrConfig) {
		t.Errorf("EncodeRecord of a nil record: %v, want ErrConfig", err)
	}
	if _, _, err := m.PredictRecord(m.NewWorkspace(), nil); !errors.Is(err, ErrConfig) {
		t.Errorf("PredictRecord of a nil record: %v, want ErrConfig", err)
	}
	if nilModel.Encoding() != nil || nameless.Encoding() != nil {
		t.Error("Encoding of a nil or nameless model is not nil")
	}
}

// TestSetEncoding checks SetEncoding's errors, that a plain encoding
// becomes feature names (and the model an earlier format version), and
// that a model with an encoding refuses other names.
func TestSetEncoding(t *testing.T) {
	_, e := encodedModel(t)
	m := mustModel[float32](t, Config{Inputs: 3, Hidden: []int{2}})
	if err := m.SetEncoding(e); !errors.Is(err, ErrShape) || m.Encoding() != nil {
		t.Errorf("an encoding of 7 inputs for 3: %v", err)
	}
	if err := m.SetEncoding(nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil encoding: %v", err)
	}
	plain, _, err := LearnEncoding([]string{"a", "b", "c", "y"}, [][]string{{"1", "2", "3", "4"}}, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetEncoding(plain); err != nil {
		t.Fatal(err)
	}
	names, target := m.FeatureNames()
	b, _ := m.MarshalBinary()
	if !cmp.Equal(names, []string{"a", "b", "c"}) || target != "y" || m.ext.encoding != nil || le.Uint16(b[8:]) != fileVersionData {
		t.Errorf("plain encoding: names %v, %q, stored %v, format version %d; want a, b, c, y, none, 3", names, target, m.ext.encoding, le.Uint16(b[8:]))
	}
	if got := m.Encoding(); got == nil || !cmp.Equal(got.Columns(), plain.Columns()) || got.Target() != "y" {
		t.Errorf("Encoding of a named model: %+v", got)
	}
	wide := mustModel[float32](t, Config{Inputs: 7, Hidden: []int{2}})
	if err := wide.SetEncoding(e); err != nil {
		t.Fatal(err)
	}
	if err := wide.SetFeatureNames(make([]string, 7), ""); !errors.Is(err, ErrConfig) {
		t.Errorf("SetFeatureNames with an encoding: %v", err)
	}
	if b, _ := wide.MarshalBinary(); le.Uint16(b[8:]) != fileVersionSections {
		t.Errorf("a model with an encoding is written in version %d", le.Uint16(b[8:]))
	}
}

// TestPredictRecordAllocs checks that a record's prediction allocates
// nothing once its workspace holds the record's buffer, and that the
// numeric path stays free of allocations beside it.
func TestPredictRecordAllocs(t *testing.T) {
	m, _ := encodedModel(t)
	ws := m.NewWorkspace()
	r := MapRecord{"city": "Madrid", "age": "NA", "size": "3.5"}
	x := []float64{1, 0, 0, 0, 30, 0, 3}
	for name, f := range map[string]func(){
		"PredictRecord": func() { sinkPrediction, _, _ = m.PredictRecord(ws, r) },
		"Predict":       func() { sinkPrediction, _ = m.Predict(ws, x) },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// TestSetEncodingOfACopulaModel: a copula model takes the encoding of its
// targets joined by commas, each marginal the encoding with its own
// target's name, and the model answers for their encoding and names; an
// encoding naming another number of targets is ErrConfig, one of another
// width ErrShape, and the model is then unchanged.
func TestSetEncodingOfACopulaModel(t *testing.T) {
	header, rows := encodingTable()
	learned, _, err := LearnEncoding(header, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	e := newEncoding("a,b", learned.columns)
	margins := []*Model[float64]{
		mustModel[float64](t, Config{Inputs: e.Inputs(), Hidden: []int{4}, Seed: 1}),
		mustModel[float64](t, Config{Inputs: e.Inputs(), Hidden: []int{4}, Seed: 2}),
	}
	m, err := newCopulaModel(margins, []float64{1, 0.6, 0.8}, 1, math.Inf(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetEncoding(newEncoding("a,b,c", learned.columns)); !errors.Is(err, ErrConfig) || m.Encoding() != nil {
		t.Errorf("three targets' encoding for two: %v", err)
	}
	narrow := newEncoding("a,b", learned.columns[:1])
	if err := m.SetEncoding(narrow); !errors.Is(err, ErrShape) || m.Encoding() != nil {
		t.Errorf("an encoding of %d inputs: %v", narrow.Inputs(), err)
	}
	if err := m.SetEncoding(e); err != nil {
		t.Fatal(err)
	}
	if got := m.Encoding(); got == nil || got.Target() != "a,b" || !cmp.Equal(got.Columns(), e.Columns()) {
		t.Errorf("the copula model's encoding %+v", got)
	}
	for j, name := range []string{"a", "b"} {
		if got := m.margins[j].Encoding(); got == nil || got.Target() != name || margins[j].Encoding() != nil {
			t.Errorf("marginal %d's encoding %+v, want target %q (the models passed in unchanged)", j, got, name)
		}
	}
}
