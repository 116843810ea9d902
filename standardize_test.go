package gcp

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutOfRangeSignal checks both signals against their definitions: the
// ranges Fit records are the columns' extremes over every row it was
// given (held-out rows included), OutsideRange counts the features beyond
// them, and InputZ is max_j |x_j − median_j|/scale_j with the learned
// standardization.
func TestOutOfRangeSignal(t *testing.T) {
	x := []float64{
		0, 10,
		1, 20,
		2, 30,
		3, 40,
		4, 50,
		5, 60,
	}
	y := []float64{1, 2, 3, 4, 5, 6}
	m := mustModel[float64](t, Config{Inputs: 2, Seed: 1})
	if _, _, ok := m.FeatureRanges(); ok {
		t.Fatal("a new model has ranges")
	}
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 2})
	if _, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1, ValidationShare: 0.34, Patience: 1}); err != nil {
		t.Fatal(err)
	}
	lo, hi, ok := m.FeatureRanges()
	if !ok || !slices.Equal(lo, []float64{0, 10}) || !slices.Equal(hi, []float64{5, 60}) {
		t.Fatalf("FeatureRanges = %v, %v, %t; want [0 10], [5 60]", lo, hi, ok)
	}
	xm, xs, _, _ := m.Standardization()
	for _, tc := range []struct {
		x              []float64
		outside, first int
	}{
		{[]float64{2.5, 35}, 0, -1},
		{[]float64{0, 60}, 0, -1}, // the range's ends are inside
		{[]float64{-0.5, 35}, 1, 0},
		{[]float64{2.5, 1e6}, 1, 1},
		{[]float64{-1e6, -1e6}, 2, 0},
	} {
		n, first := m.OutsideRange(tc.x)
		if n != tc.outside || first != tc.first {
			t.Errorf("OutsideRange(%v) = %d, %d; want %d, %d", tc.x, n, first, tc.outside, tc.first)
		}
		p, err := m.Predict(m.NewWorkspace(), tc.x)
		if err != nil {
			t.Fatal(err)
		}
		want := max(math.Abs(tc.x[0]-xm[0])/xs[0], math.Abs(tc.x[1]-xm[1])/xs[1])
		if math.Abs(p.InputZ-want) > 1e-12*want {
			t.Errorf("InputZ(%v) = %v, want %v", tc.x, p.InputZ, want)
		}
	}
}

func TestStandardizationRoundTrip(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Seed: 1})
	mean, scale := []float64{1.5, -2}, []float64{49, 0.1}
	if err := m.SetStandardization(mean, scale, 3, 7); err != nil {
		t.Fatal(err)
	}
	gm, gs, ym, ys := m.Standardization()
	if !cmp.Equal(gm, mean) || !cmp.Equal(gs, scale) || ym != 3 || ys != 7 {
		t.Errorf("Standardization() = %v %v %v %v, want what was set", gm, gs, ym, ys)
	}
}

// TestStandardizeRowsInputZ checks standardizeRows row by row against its
// definition: each u is (x − mean)/scale rounded to T, each row's InputZ
// the largest math.Abs of its u (−0 and +0 alike), and a row with a NaN,
// ±Inf, or a value that overflows T once standardized is refused. Exact:
// the maximum of rounded values is one of them.
func TestStandardizeRowsInputZ(t *testing.T) {
	t.Run("float32", testStandardizeRowsInputZ[float32])
	t.Run("float64", testStandardizeRowsInputZ[float64])
}
