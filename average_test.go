package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestParamAverage feeds paramAverage a random sequence of parameter
// vectors and compares it with its definition evaluated directly: the
// mean of the vectors so far, until the horizon, then the exponential
// moving average with weight 1/horizon.
func TestParamAverage(t *testing.T) {
	const n, horizon, steps = 37, 100, 250
	r := rand.New(rand.NewPCG(1, 2))
	k := kernelsFor[float64]()
	p := make([]float64, n)
	a := newParamAverage(k, p, 7) // an epoch of 7 steps: the horizon is minAverageSteps
	want := make([]float64, n)
	for s := 1; s <= steps; s++ {
		for i := range p {
			p[i] = r.NormFloat64() + float64(s)/10 // a drifting walk
		}
		a.update(p)
		for i, v := range p {
			if s <= horizon {
				want[i] += (v - want[i]) / float64(s) // the running mean
			} else {
				want[i] = want[i]*(1-1.0/horizon) + v/horizon
			}
		}
		// scale-then-axpy against the direct formula: a few roundings of
		// values of order 25 per step, accumulated over at most 250 steps
		// but damped by the average's own weights: well under 1e-12.
		for i := range want {
			if d := math.Abs(a.avg[i] - want[i]); d > 1e-12 {
				t.Fatalf("step %d, element %d: average %v, want %v", s, i, a.avg[i], want[i])
			}
		}
	}
	avg, last := slices.Clone(a.avg), slices.Clone(p)
	a.swap(p)
	if !slices.Equal(p, avg) {
		t.Fatal("swap did not put the average into the parameters")
	}
	a.swap(p)
	if !slices.Equal(p, last) || !slices.Equal(a.avg, avg) {
		t.Fatal("a second swap did not restore the parameters and the average")
	}
}

// TestFitAverage checks that Fit with Average returns the mean of the
// parameters its steps produced: with one step an epoch, the run without
// averaging reports every step's parameters through Progress, and the
// same run with averaging, whose steps are the same, must end at their
// mean (fewer steps than minAverageSteps: a plain mean).
func TestFitAverage(t *testing.T) {
	const n, epochs = 16, 40
	x, y := randomBatch[float64](3, n, 2)
	run := func(average bool, progress func(m *Model[float64])) *Model[float64] {
		m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{6}, Seed: 4})
		tr := mustTrainer(t, m, TrainConfig{BatchSize: n, Seed: 5})
		opt := FitOptions[float64]{Epochs: epochs, Seed: 6, Average: average}
		if progress != nil {
			opt.Progress = func(EpochStats) bool { progress(m); return true }
		}
		if _, err := tr.Fit(x, y, opt); err != nil {
			t.Fatal(err)
		}
		return m
	}
	var mean []float64
	steps := 0
	plain := run(false, func(m *Model[float64]) {
		if mean == nil {
			mean = make([]float64, len(m.params))
		}
		steps++
		for i, v := range m.params {
			mean[i] += (v - mean[i]) / float64(steps)
		}
	})
	avg := run(true, nil)
	// The same recurrence in the same order, by scale and axpy instead of
	// one update: roundings of order 1e-16 times the parameters' size.
	for i, v := range avg.params {
		if d := math.Abs(v - mean[i]); d > 1e-13*max(1, math.Abs(mean[i])) {
			t.Fatalf("parameter %d: averaged Fit %v, mean of the steps %v", i, v, mean[i])
		}
	}
	if slices.Equal(avg.params, plain.params) {
		t.Fatal("averaging returned the last step's parameters")
	}
}
