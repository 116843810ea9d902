// Test helpers shared by the test files of several sources: models and
// trainers built or fitted in one call, random data, and checks of a
// prediction's sanity.

package gcp

import "testing"

// fitFresh trains a fresh Model[T] of cfg on the row-major x and y for
// epochs epochs and returns it.
func fitFresh[T Float](t *testing.T, cfg Config, x, y []float64, epochs int) *Model[T] {
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
	// lo = Mean = hi is allowed: a variance of 1e-80 has a 95% half-width
	// far below half an ulp of the mean.
	if err != nil || !finite(p.Mean) || !positiveFinite(p.Var) || !positiveFinite(p.VarCorrected) ||
		!finite(lo) || !finite(hi) || !(lo <= p.Mean && p.Mean <= hi) {
		t.Fatalf("prediction %+v with 95%% interval [%v, %v] (%v): want a finite mean, variances and interval", p, lo, hi, err)
	}
}

// repeat returns count copies of s, end to end.
func repeat(s []float64, count int) []float64 {
	out := make([]float64, 0, len(s)*count)
	for i := 0; i < count; i++ {
		out = append(out, s...)
	}
	return out
}
