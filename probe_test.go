package gcp

// Regression tests for the defects an adversarial probe found (issue 11,
// "No silent garbage"): each keeps the probe's minimal reproduction.

import (
	"math"
	"testing"
)

// probeFit trains a fresh Model[T] of cfg on the row-major x and y for
// epochs epochs and returns it.
func probeFit[T Float](t *testing.T, cfg Config, x, y []float64, epochs int) *Model[T] {
	t.Helper()
	m := mustModel[T](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 8, LearningRate: 1e-2})
	if _, err := tr.Fit(convertTo[T](x), convertTo[T](y), FitOptions[T]{Epochs: epochs, Seed: 1}); err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return m
}

// convertTo returns v converted to T.
func convertTo[T Float](v []float64) []T {
	out := make([]T, len(v))
	for i, f := range v {
		out[i] = T(f)
	}
	return out
}

// checkSane fails t unless p, a prediction returned with a nil error, has
// a finite mean, finite positive variances and a finite 95% interval
// around its mean: what Prediction promises.
func checkSane(t *testing.T, p Prediction) {
	t.Helper()
	lo, hi, err := p.Interval(0.95)
	if err != nil || !finite(p.Mean) || !positiveFinite(p.Var) || !positiveFinite(p.VarCorrected) ||
		!finite(lo) || !finite(hi) || !(lo < p.Mean && p.Mean < hi) {
		t.Fatalf("prediction %+v with 95%% interval [%v, %v] (%v): want a finite mean, variances and interval", p, lo, hi, err)
	}
}

// TestFitConstantColumn is defect 1: a column of 40 copies of 0.1 has a
// mean, sum/40, that is not exactly 0.1, and its standard deviation came
// out as 4e-17 instead of 0, so that the column was scaled by 1/4e-17 and
// an input of 0.10001 predicted a mean of 3.5e10 and a NaN interval with
// a nil error. A constant column must keep the scale 1 (robustCenterScale).
func TestFitConstantColumn(t *testing.T) {
	const n = 40
	var x, y []float64
	for i := 0; i < n; i++ {
		v := float64(i) / n
		x = append(x, 0.1, v)
		y = append(y, v+0.01*math.Sin(float64(i)))
	}
	t.Run("float64", func(t *testing.T) { testFitConstantColumn[float64](t, x, y) })
	t.Run("float32", func(t *testing.T) { testFitConstantColumn[float32](t, x, y) })
}

func testFitConstantColumn[T Float](t *testing.T, x, y []float64) {
	m := probeFit[T](t, Config{Inputs: 2, Hidden: []int{8}, Seed: 1}, x, y, 100)
	if _, xs, _, _ := m.Standardization(); xs[0] != 1 {
		t.Errorf("constant column: scale %v, want 1", xs[0])
	}
	p, err := m.Predict(m.NewWorkspace(), []T{0.10001, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, p)
	// y ≈ x1 on [0, 1): a mean beyond [−1, 2] is garbage, not a fit.
	if !(p.Mean > -1 && p.Mean < 2) {
		t.Errorf("mean %v at x1 = 0.5, want about 0.5", p.Mean)
	}
}
