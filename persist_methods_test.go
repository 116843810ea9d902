// FuzzUnmarshal's checks of what a loaded model does (persist_test.go
// checks how it loads), and its seeds of format versions 5 and 6: every method
// that a program calls on a model it loaded, on records built from the
// model's own encoding, and the invariants the package documents for
// them.

package gcp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

// fuzzSeedsV5 returns FuzzUnmarshal's seeds of format version 5, as
// Model[float32] and Model[float64]: one of each kind of section alone
// (a log transform; an encoding with a categorical column with Other and
// a missing indicator and a numeric column with one; a conformal
// calibration of three rows), and all three together, and an encoding
// with a date column (version 6), on a single network and an ensemble. Their shapes are fuzzSeedConfigs', with as many inputs
// as the encoding needs, so that they stay a few hundred bytes.
func fuzzSeedsV5(t testing.TB) [][]byte {
	enc := newEncoding("y", []Column{
		{Name: "c", Kind: Categorical, Levels: []string{"a", "b"}, Other: true, Missing: true},
		{Name: "x", Missing: true, Impute: 2.5},
	})
	dates := newEncoding("y", []Column{{Name: "d", Kind: Date, Missing: true, Impute: 19799}, {Name: "x"}})
	sections := []struct {
		inputs int
		set    func(e *extensions)
	}{
		{dates.Inputs(), func(e *extensions) { e.encoding = dates }},
		{1, func(e *extensions) { e.transform = TransformLog }},
		{enc.Inputs(), func(e *extensions) { e.encoding = enc }},
		{1, func(e *extensions) { e.conformal = thinScores([]float64{0.5, 1, 2}) }},
		{2, func(e *extensions) { e.inputBound = 50 }},
		{enc.Inputs(), func(e *extensions) {
			e.transform, e.encoding, e.conformal = TransformLog, enc, thinScores([]float64{0.25, 3})
		}},
	}
	var seeds [][]byte
	for _, members := range []int{1, 2} {
		for _, s := range sections {
			cfg := Config{Inputs: s.inputs, Hidden: []int{1}, Members: members, Seed: uint64(9 + members)}
			for _, m := range []interface{ encode() []byte }{fuzzSeedV5[float32](t, cfg, s.set), fuzzSeedV5[float64](t, cfg, s.set)} {
				seeds = append(seeds, m.encode())
			}
		}
	}
	return seeds
}

// fuzzSeedV5 returns a new model of shape cfg with the sections set sets.
func fuzzSeedV5[T Float](t testing.TB, cfg Config, set func(*extensions)) *Model[T] {
	m := mustModel[T](t, cfg)
	set(&m.ext)
	if h, _ := parseHeader(m.encode()); h.version < fileVersionSections {
		t.Fatalf("a seed with sections is written in version %d", h.version)
	}
	return m
}

// fuzzRecords returns the records FuzzUnmarshal encodes with a loaded
// model, as the text of each of its columns: for each column a value it
// knows (its first level, or 0.5), a missing value, a value outside what
// it knows (a level no column can hold, which is Other's or none, or a
// number far outside the training range), and text that a numeric column
// refuses.
func fuzzRecords(cols []Column) [][]string {
	records := make([][]string, 4)
	for _, c := range cols {
		known, outside, bad := "0.5", "-1e300", "x"
		switch c.Kind {
		case Date:
			known, outside, bad = "2024-03-17", "9999-12-31T23:59:59.999Z", "03/04/2024"
		case Categorical:
			known, outside, bad = "z", " \x00 ", "1e999"
			if len(c.Levels) > 0 {
				known = c.Levels[0]
			}
		}
		for i, v := range []string{known, "", outside, bad} {
			records[i] = append(records[i], v)
		}
	}
	return records
}

// fuzzColumns returns the columns of m's records: its encoding's, or, for
// a model without names, a numeric column per input.
func fuzzColumns[T Float](m *Model[T]) []Column {
	if e := m.Encoding(); e != nil {
		return e.Columns()
	}
	return make([]Column, m.cfg.Inputs)
}

// fuzzTable returns the record fields as a table of one row: a column of
// numbers where the model's column is numeric and its field a number or
// missing (as ParseNumber reads it), and of text otherwise.
func fuzzTable(cols []Column, fields []string) []TableColumn {
	table := make([]TableColumn, len(fields))
	for c, f := range fields {
		table[c] = TableColumn{Codes: []uint32{0}, Levels: []string{f}}
		if v, missing, err := ParseNumber(f, '.'); err == nil && cols[c].Kind == Numeric {
			if missing {
				v = math.NaN()
			}
			table[c] = TableColumn{Numbers: []float64{v}}
		}
		if cols[c].Kind == Date {
			table[c] = asDates(table[c])
		}
	}
	return table
}

// fuzzRecordSentinels are the errors encoding one of fuzzRecords' records
// may give: text in a numeric column, and a number that overflows.
var fuzzRecordSentinels = []error{ErrNotNumber, ErrNonFinite}

// fuzzMethods checks the methods of m, a model FuzzUnmarshal loaded: each
// of fuzzRecords' records encodes alike through EncodeFields, EncodeRow
// and (for a model with names) EncodeRecord, with the same notes, or
// fails alike with one of fuzzRecordSentinels; PredictRecord returns
// what Predict does on the encoded inputs; and every prediction passes
// fuzzPrediction. A model without names refuses records with ErrConfig.
func fuzzMethods[T Float](t *testing.T, m *Model[T]) {
	cols := fuzzColumns(m)
	ws := m.NewWorkspace()
	named := m.Encoding() != nil
	scored := false
	for _, fields := range fuzzRecords(cols) {
		x := make([]T, m.cfg.Inputs)
		notes, err := m.EncodeFields(x, fields, '.')
		if err != nil && !fuzzIsOneOf(err, fuzzRecordSentinels) {
			t.Fatalf("EncodeFields(%q): %v, want nil or one of %v", fields, err, fuzzRecordSentinels)
		}
		xr := make([]T, m.cfg.Inputs)
		rnotes, rerr := m.EncodeRow(xr, fuzzTable(cols, fields), 0, '.')
		fuzzSameEncoding(t, "EncodeRow", fields, x, xr, notes, rnotes, err, rerr)
		rec := MapRecord{}
		for c, col := range cols {
			rec[col.Name] = fields[c]
		}
		if !named {
			_, rerr := m.EncodeRecord(xr, rec, '.')
			_, _, perr := m.PredictRecord(ws, rec)
			if !errors.Is(rerr, ErrConfig) || !errors.Is(perr, ErrConfig) {
				t.Fatalf("a model without names: EncodeRecord %v, PredictRecord %v; want ErrConfig", rerr, perr)
			}
		} else {
			rnotes, rerr = m.EncodeRecord(xr, rec, '.')
			fuzzSameEncoding(t, "EncodeRecord", fields, x, xr, notes, rnotes, err, rerr)
		}
		if err != nil {
			continue
		}
		p, err := m.Predict(ws, x)
		if err != nil && !errors.Is(err, ErrNonFinite) {
			t.Fatalf("Predict(%v): %v, want nil or ErrNonFinite", x, err)
		}
		if named {
			rp, rnotes, rerr := m.PredictRecord(ws, rec)
			if !errors.Is(rerr, err) || rnotes != notes || rp != p && fmt.Sprint(rp) != fmt.Sprint(p) { // NaN ≠ NaN
				t.Fatalf("PredictRecord(%q) = %+v, %+v, %v; Predict of EncodeFields' inputs %+v, %+v, %v", fields, rp, rnotes, rerr, p, notes, err)
			}
		}
		if err == nil {
			fuzzPrediction(t, m, p, !scored)
			scored = true
		}
	}
}

// fuzzSameEncoding fails the test unless a second way of encoding fields
// (how) gave the inputs x2, notes n2 and error err2 that the first gave:
// x, n and err, the inputs bit for bit, the errors of the same sentinel.
func fuzzSameEncoding[T Float](t *testing.T, how string, fields []string, x, x2 []T, n, n2 RecordNotes, err, err2 error) {
	switch {
	case (err == nil) != (err2 == nil):
		t.Fatalf("%s(%q): %v; EncodeFields: %v", how, fields, err2, err)
	case err != nil:
		for _, s := range fuzzRecordSentinels {
			if errors.Is(err, s) != errors.Is(err2, s) {
				t.Fatalf("%s(%q): %v; EncodeFields: %v", how, fields, err2, err)
			}
		}
	case n != n2 || !slices.EqualFunc(x, x2, func(a, b T) bool { return persistBits(a) == persistBits(b) }):
		t.Fatalf("%s(%q) = %v, %+v; EncodeFields: %v, %+v", how, fields, x2, n2, x, n)
	}
}

// fuzzIsOneOf reports whether err matches one of the sentinels.
func fuzzIsOneOf(err error, sentinels []error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// fuzzLevels are the levels at which FuzzUnmarshal checks a prediction's
// intervals: a narrow one, the usual one, and one near 1.
var fuzzLevels = []float64{0.1, 0.95, 1 - 1e-9}

// fuzzPrediction checks the intervals of p, a prediction that m's Predict
// returned without error. Each is ordered and free of NaN, and contains
// the center of the predictive: Mean, or under a TargetTransform the
// image of ZMean, the median, as every interval is the image of one about
// ZMean. An ensemble's Interval, the central interval of its mixture,
// need not contain the mean, and is checked for order only. The conformal
// interval is ErrNoConformal exactly for a model without a conformal
// calibration. With score set, it also checks the CDF and the CRPS at the
// center (an ensemble's CRPS is a quadrature: once per model;
// TestMixtureCRPSFarOutcome checks it at far outcomes).
func fuzzPrediction[T Float](t *testing.T, m *Model[T], p Prediction, score bool) {
	center := p.Mean
	if p.Transform != TransformNone {
		center = p.Transform.invert(p.ZMean)
	}
	for _, level := range fuzzLevels {
		for _, iv := range []struct {
			name     string
			interval func(float64) (float64, float64, error)
			centered bool
		}{
			{"Interval", p.Interval, p.Members <= 1},
			{"CalibratedInterval", p.CalibratedInterval, true},
			{"ConformalInterval", func(l float64) (float64, float64, error) { return m.ConformalInterval(p, l) }, true},
		} {
			lo, hi, err := iv.interval(level)
			switch {
			case iv.name == "ConformalInterval" && m.ConformalRows() == 0:
				if !errors.Is(err, ErrNoConformal) {
					t.Fatalf("ConformalInterval of a model without a calibration: %v", err)
				}
			case err != nil || !(lo <= hi) || iv.centered && !(lo <= center && center <= hi):
				t.Fatalf("%s(%v) of %+v = [%v, %v], %v; want an interval around %v", iv.name, level, p, lo, hi, err, center)
			}
		}
	}
	if !score {
		return
	}
	if c := p.CDF(center); !(c >= 0 && c <= 1) {
		t.Fatalf("CDF(%v) of %+v = %v", center, p, c)
	}
	if s := p.CRPS(center); !(s >= 0) {
		t.Fatalf("CRPS(%v) of %+v = %v", center, p, s)
	}
}
