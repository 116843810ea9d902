package gcp

// Regression tests for the defects an adversarial probe found (issue 11,
// "No silent garbage"): each keeps the probe's minimal reproduction.

import (
	"errors"
	"math"
	"strings"
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

// TestFitExtremeColumns is defect 10: Fit reported ErrNonFinite on finite
// data. A feature with a subnormal spread got a subnormal scale, whose
// reciprocal is +Inf; a feature of ±1e308 overflowed the median's
// interpolation, −1e308 + ½·(1e308 − (−1e308)). Both must train. A
// feature spanning more than float64's range about its median cannot be
// standardized at all, and the error must say which feature and why.
func TestFitExtremeColumns(t *testing.T) {
	const n = 40
	for _, c := range []struct {
		name string
		x0   func(i int) float64
	}{
		{"subnormal-spread", func(i int) float64 { return float64(i) * 1e-310 }},
		{"plus-minus-1e308", func(i int) float64 { return float64(1-2*(i%2)) * 1e308 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var x, y []float64
			for i := 0; i < n; i++ {
				v := float64(i) / n
				x = append(x, c.x0(i), v)
				y = append(y, v)
			}
			m := probeFit[float64](t, Config{Inputs: 2, Hidden: []int{8}, Seed: 1}, x, y, 20)
			xm, xs, _, _ := m.Standardization()
			if !finite(xm[0]) || !positiveFinite(xs[0]) || !positiveFinite(1/xs[0]) {
				t.Errorf("feature 0: centre %v, scale %v: want finite, with a finite reciprocal", xm[0], xs[0])
			}
			p, err := m.Predict(m.NewWorkspace(), []float64{x[2], x[3]})
			if err != nil {
				t.Fatal(err)
			}
			checkSane(t, p)
		})
	}
	t.Run("wider-than-float64", func(t *testing.T) {
		var x, y []float64
		for i := 0; i < n; i++ {
			x = append(x, math.MaxFloat64)
			y = append(y, float64(i))
		}
		x[0] = -math.MaxFloat64 // 2·MaxFloat64 below the median
		m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{4}})
		tr := mustTrainer(t, m, TrainConfig{})
		_, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1})
		if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "feature 0") || m.standardized {
			t.Fatalf("Fit = %v, standardized %v: want ErrNonFinite naming feature 0, and no standardization", err, m.standardized)
		}
	})
}
