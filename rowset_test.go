package gcp

import (
	"math"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

// TestTrainingLeavesRowsUnchanged checks that AutoFit (its search, an
// ensemble and its calibration folds) and Fit (holding rows out) read the
// caller's rows and never write them: gcp train hands them its encoded
// rows without a copy, and trains on them twice where it compares the log
// of the target with the target as it is.
func TestTrainingLeavesRowsUnchanged(t *testing.T) {
	x32, y32, _ := synth.SinOutliers(7, 200, 0.05, synth.Everywhere)
	x, y := make([]float64, len(x32)), make([]float64, len(y32))
	for i := range x {
		x[i], y[i] = float64(x32[i]), float64(y32[i])
	}
	x0, y0 := slices.Clone(x), slices.Clone(y)
	unchanged := func(what string) {
		t.Helper()
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(x0[i]) || math.Float64bits(y[i]) != math.Float64bits(y0[i]) {
				t.Fatalf("%s wrote row %d: x %v, y %v; was %v, %v", what, i, x[i], y[i], x0[i], y0[i])
			}
		}
	}
	if _, _, err := AutoFit(Config{Inputs: 1, Hidden: []int{8}, Seed: 1, Members: 2}, TrainConfig{Seed: 1}, x, y,
		AutoOptions{MaxEpochs: 4, Seed: 1, LearningRates: []float64{1e-3}, Dropouts: []float64{0, 0.2}}); err != nil {
		t.Fatal(err)
	}
	unchanged("AutoFit")
	m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{8}, Seed: 1})
	if _, err := mustTrainer(t, m, TrainConfig{BatchSize: 16, Seed: 1}).Fit(x, y, FitOptions[float64]{Epochs: 3, ValidationShare: 0.2, Patience: 2}); err != nil {
		t.Fatal(err)
	}
	unchanged("Fit")
}

// TestRowSetTargetsRowMajor checks targets on a subset of rows of two
// targets: each chosen row's pair, in the subset's order.
func TestRowSetTargetsRowMajor(t *testing.T) {
	s := rowSet[float64]{y: []float64{0, 1, 10, 11, 20, 21}, d: 1, ty: 2}
	if got, want := s.subset([]int32{2, 0}).targets(), []float64{20, 21, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("targets = %v, want %v", got, want)
	}
	if got, want := (rowSet[float64]{y: []float64{5, 6, 7}, d: 1}).subset([]int32{1}).targets(), []float64{6}; !slices.Equal(got, want) {
		t.Errorf("one target: targets = %v, want %v", got, want)
	}
}
