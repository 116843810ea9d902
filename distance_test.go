package gcp

import (
	"math"
	"testing"

	"github.com/gcpnet/gcp/internal/robust"
)

// TestLevelFrequencyFromStandardization checks that the share of rows in
// which a 0/1 input was 1 is read back from the median and robust scale
// the models learn of it: exactly (to rounding) where the quartiles tie,
// a share below a quarter or above three quarters, and 0 or 1 for a
// constant input; between, where the scale is the interquartile range's,
// the documented quarter, half or three quarters.
func TestLevelFrequencyFromStandardization(t *testing.T) {
	const n = 400
	// 100 and 300 are left out: there a quartile falls between the last
	// 0 and the first 1, and the scale of the interpolated interquartile
	// range reads as a rarer level's (levelFrequency).
	for _, k := range []int{0, 1, 5, 20, 60, 99, 101, 200, 299, 301, 340, 395, 399, 400} {
		v := make([]float64, n)
		for i := range k {
			v[i] = 1
		}
		center, scale := robust.CenterScale(v)
		want := float64(k) / n
		switch {
		case k > 100 && k < 200:
			want = 0.25
		case k == 200:
			want = 0.5
		case k > 200 && k < 300:
			want = 0.75
		}
		// 1e-12: √(1 − 4s²) of a variance computed by the scale's sum
		// over 400 rows, good to a few ulps each.
		if got := levelFrequency(center, scale); math.Abs(got-want) > 1e-12 {
			t.Errorf("%d of %d rows: levelFrequency(%g, %g) = %g, want %g", k, n, center, scale, got, want)
		}
	}
}

// colourModel returns an untrained model of the given number of targets
// of the encoding of a numeric column x and a text column colour with the
// levels A, B and C held by 160, 30 and 10 of 200 rows, with the
// standardization and ranges learned from those rows, in which x runs
// over −2..2.
func colourModel(t *testing.T, targets int) *Model[float64] {
	t.Helper()
	enc := newEncoding("y", []Column{{Name: "x"}, {Name: "colour", Kind: Categorical, Levels: []string{"A", "B", "C"}}})
	m := mustModel[float64](t, Config{Inputs: enc.Inputs(), Hidden: []int{4}, Seed: 1, Targets: targets})
	const n = 200
	x, y := make([]float64, 0, 4*n), make([]float64, n*targets)
	for i := range n {
		code := [3]float64{1, 0, 0}
		switch {
		case i >= 190:
			code = [3]float64{0, 0, 1}
		case i >= 160:
			code = [3]float64{0, 1, 0}
		}
		x = append(x, -2+4*float64(i%41)/40)
		x = append(x, code[:]...)
		for j := range targets {
			y[i*targets+j] = float64(i * (j + 1))
		}
	}
	set := rowSet[float64]{x: x, y: y, d: 4}
	if targets > 1 {
		set.ty = targets
	}
	if err := m.fitStandardization(set); err != nil {
		t.Fatal(err)
	}
	m.extendRanges(x)
	if err := m.SetEncoding(enc); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInputZMeasuresLevelsByTheirRarity checks the distance of rows with
// each level against the normal z of the share of training rows whose
// level was no rarer (worked by hand: A, held by 80%, has all the rows
// and z 0; B 15% + C 5% = 20%, z = Φ⁻¹(0.9); C 5%, z = Φ⁻¹(0.975)), a
// numeric value's robust z where it is larger, and +Inf for a level
// never seen (all zeros) or a code that is no level's; and the same for
// a model of two targets, whose every marginal carries the row's
// distance. Before, the one-hot inputs' own z-scores made C the farthest
// row (z 4.4) and the unseen level the nearest (0), and a model of
// several targets measured its rows so until PredictMulti measured codes
// as Predict does.
func TestInputZMeasuresLevelsByTheirRarity(t *testing.T) {
	m, multi := colourModel(t, 1), colourModel(t, 2)
	xMean, xScale, _, _ := m.Standardization()
	numericZ := math.Abs(3-xMean[0]) / xScale[0]
	ws, wsMulti := m.NewWorkspace(), multi.NewWorkspace()
	var mp MultiPrediction
	for _, c := range []struct {
		name string
		x    []float64
		want float64
	}{
		{"A", []float64{xMean[0], 1, 0, 0}, 0},
		{"B", []float64{xMean[0], 0, 1, 0}, 1.2815515655446004},
		{"C", []float64{xMean[0], 0, 0, 1}, 1.959963984540054},
		{"C, x far out", []float64{3, 0, 0, 1}, numericZ},
		{"unseen", []float64{xMean[0], 0, 0, 0}, math.Inf(1)},
		{"two levels", []float64{xMean[0], 1, 1, 0}, math.Inf(1)},
		{"half a level", []float64{xMean[0], 0.5, 0.5, 0}, math.Inf(1)},
	} {
		p, err := m.Predict(ws, c.x)
		if err != nil {
			t.Fatal(err)
		}
		if err := multi.PredictMulti(wsMulti, c.x, &mp); err != nil {
			t.Fatal(err)
		}
		// 1e-12: the frequencies are read back through a square root of
		// the standard deviations (TestLevelFrequencyFromStandardization),
		// their sum for A is 1 to rounding, and the normal quantile is
		// good to a few ulps.
		for what, z := range map[string]float64{"Predict": p.InputZ, "PredictMulti's marginal a": mp.Marginal(0).InputZ, "PredictMulti's marginal b": mp.Marginal(1).InputZ} {
			if !(z == c.want || math.Abs(z-c.want) <= 1e-12*max(1, c.want)) {
				t.Errorf("%s: %s: InputZ = %v, want %v", c.name, what, z, c.want)
			}
		}
	}
	if numericZ <= 1.96 {
		t.Fatalf("x = 3 has z %g, not beyond level C's: the case checks nothing", numericZ)
	}
}

// TestUnseenLevelIntervalsUnknown checks that a prediction for a level
// never seen has the calibrated and conformal intervals (−Inf, +Inf),
// their images under the log transform (0, +Inf), and ErrLevel for a bad
// level still; a known level's stay finite.
func TestUnseenLevelIntervalsUnknown(t *testing.T) {
	m := colourModel(t, 1)
	calib, y := make([]Prediction, 100), make([]float64, 100)
	for i := range calib {
		calib[i], y[i] = Prediction{VarCorrected: 1}, float64(i%10)/5
	}
	m.ext.conformal = newConformalScores(calib, y)
	ws := m.NewWorkspace()
	known, err := m.Predict(ws, []float64{0, 1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	unseen, err := m.Predict(ws, []float64{0, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	logUnseen := unseen
	logUnseen.Transform, logUnseen.ZMean, logUnseen.ZVarCorrected = TransformLog, unseen.Mean, unseen.VarCorrected
	inf := math.Inf(1)
	for _, c := range []struct {
		name           string
		interval       func(Prediction, float64) (float64, float64, error)
		p              Prediction
		wantLo, wantHi float64
	}{
		{"calibrated", Prediction.CalibratedInterval, unseen, -inf, inf},
		{"conformal", m.ConformalInterval, unseen, -inf, inf},
		{"calibrated, log", Prediction.CalibratedInterval, logUnseen, 0, inf},
		{"conformal, log", m.ConformalInterval, logUnseen, 0, inf},
	} {
		lo, hi, err := c.interval(c.p, 0.95)
		if err != nil || lo != c.wantLo || hi != c.wantHi {
			t.Errorf("%s: (%v, %v, %v), want (%v, %v)", c.name, lo, hi, err, c.wantLo, c.wantHi)
		}
		if _, _, err := c.interval(c.p, 1); err != ErrLevel {
			t.Errorf("%s at level 1: %v, want ErrLevel", c.name, err)
		}
		lo, hi, err = c.interval(known, 0.95)
		if err != nil || !finite(lo) || !finite(hi) {
			t.Errorf("%s of a known level: (%v, %v, %v), want finite bounds", c.name, lo, hi, err)
		}
	}
}

// TestOutsideRangeCountsUnseenLevels checks that a text column whose
// inputs are all 0 counts as outside the training data, its first input
// the index, beside a numeric value outside its range.
func TestOutsideRangeCountsUnseenLevels(t *testing.T) {
	m := colourModel(t, 1)
	for _, c := range []struct {
		x            []float64
		count, first int
	}{
		{[]float64{0, 0, 1, 0}, 0, -1},
		{[]float64{0, 0, 0, 0}, 1, 1},
		{[]float64{3, 0, 0, 0}, 2, 0},
		{[]float64{3, 1, 0, 0}, 1, 0},
	} {
		if count, first := m.OutsideRange(c.x); count != c.count || first != c.first {
			t.Errorf("OutsideRange(%v) = %d, %d, want %d, %d", c.x, count, first, c.count, c.first)
		}
	}
}

// TestPredictWithCodesAllocatesNothing checks that the distance of a
// model with text columns keeps Predict free of allocations.
func TestPredictWithCodesAllocatesNothing(t *testing.T) {
	m := colourModel(t, 1)
	ws, x := m.NewWorkspace(), []float64{0, 0, 1, 0}
	if n := testing.AllocsPerRun(20, func() { _, _ = m.Predict(ws, x) }); n != 0 {
		t.Errorf("Predict allocates %v times, want 0", n)
	}
}

// TestInputZOfMissingIndicator checks a numeric column with a missing
// indicator: a missing value counts by how rare missing values were (10%
// of the rows, against 90% present: z = Φ⁻¹(0.95), worked by hand from
// the indicator's standard deviation √(0.1·0.9) = 0.3), a present one by
// its robust z-score alone, and an indicator neither 0 nor 1 as a code no
// training row had.
func TestInputZOfMissingIndicator(t *testing.T) {
	enc := newEncoding("y", []Column{{Name: "x", Missing: true, Impute: 0}})
	m := mustModel[float64](t, Config{Inputs: enc.Inputs(), Hidden: []int{4}, Seed: 1})
	if err := m.SetStandardization([]float64{0, 0}, []float64{2, 0.3}, 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.SetEncoding(enc); err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{0, 1}, 1.6448536269514722},
		{[]float64{3, 0}, 1.5},
		{[]float64{0, 0.5}, math.Inf(1)},
	} {
		p, err := m.Predict(ws, c.x)
		if err != nil {
			t.Fatal(err)
		}
		// 1e-12: as in TestInputZMeasuresLevelsByTheirRarity.
		if !(p.InputZ == c.want || math.Abs(p.InputZ-c.want) <= 1e-12*c.want) {
			t.Errorf("x %v: InputZ = %v, want %v", c.x, p.InputZ, c.want)
		}
	}
}

// TestInputZOfDateColumn checks that a date column counts by the robust
// z-score of its days alone: its weekday's and month's sines and cosines
// lie on the circles of every date, however their z-scores fall.
func TestInputZOfDateColumn(t *testing.T) {
	enc := newEncoding("y", []Column{{Name: "d", Kind: Date}})
	m := mustModel[float64](t, Config{Inputs: enc.Inputs(), Hidden: []int{4}, Seed: 1})
	if err := m.SetStandardization([]float64{19000, 0, 0, 0, 0}, []float64{100, 0.01, 0.01, 0.01, 0.01}, 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.SetEncoding(enc); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(m.NewWorkspace(), []float64{19250, 1, 0, -1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if p.InputZ != 2.5 {
		t.Errorf("InputZ = %v, want 2.5, the days' z-score", p.InputZ)
	}
}
