package gcp

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestEarlyStoppingRestoresBestEpoch trains a wide network on 60 noisy
// rows, where the validation NLL must turn as the variance heads overfit,
// and checks the three promises of Patience: training stops Patience
// epochs after the best one, BestEpoch is the epoch of the lowest ValNLL,
// and the model holds that epoch's parameters bit for bit (so it scores
// exactly BestValNLL again).
func TestEarlyStoppingRestoresBestEpoch(t *testing.T) {
	x, y := randomBatch[float64](3, 60, 4)
	m := mustModel[float64](t, Config{Inputs: 4, Hidden: []int{64}, Seed: 2})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 8, Seed: 2})
	const patience, epochs = 15, 2000
	var nll []float64
	var params [][]float64
	opt := FitOptions[float64]{Epochs: epochs, Seed: 4, ValidationShare: 0.25, Patience: patience,
		Progress: func(st EpochStats) bool {
			nll = append(nll, st.ValNLL)
			params = append(params, slices.Clone(m.params))
			return true
		}}
	st, err := tr.Fit(x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for e, v := range nll {
		if v < nll[best] {
			best = e
		}
	}
	t.Logf("stopped after epoch %d of %d; best epoch %d, ValNLL %.4f, last %.4f", st.Epoch, epochs, st.BestEpoch, st.BestValNLL, nll[len(nll)-1])
	if st.Epoch >= epochs || st.Epoch != st.BestEpoch+patience {
		t.Fatalf("stopped after epoch %d, want BestEpoch %d + Patience %d < %d", st.Epoch, st.BestEpoch, patience, epochs)
	}
	if st.BestEpoch != best+1 || st.BestValNLL != nll[best] {
		t.Fatalf("BestEpoch %d with %v; the lowest ValNLL is epoch %d's %v", st.BestEpoch, st.BestValNLL, best+1, nll[best])
	}
	if !(nll[len(nll)-1] > st.BestValNLL) {
		t.Fatalf("the validation NLL never turned (last %v, best %v): the test does not exercise early stopping", nll[len(nll)-1], st.BestValNLL)
	}
	if !slices.Equal(m.params, params[best]) {
		t.Fatal("the model does not hold the best epoch's parameters")
	}
	_, val, err := holdOut(allRows(x, y, 4), 0.25, 4)
	if err != nil {
		t.Fatal(err)
	}
	xb, yb := make([]float64, workspaceRows*4), make([]float64, workspaceRows)
	if got := m.meanNLL(m.NewWorkspace(), val, xb, yb); got != st.BestValNLL {
		t.Fatalf("restored model scores %v on the held-out rows, want BestValNLL %v exactly", got, st.BestValNLL)
	}
}

// TestFitValidationOptions checks the errors of the new FitOptions.
func TestFitValidationOptions(t *testing.T) {
	x, y := randomBatch[float32](1, 10, 2)
	for _, tc := range []struct {
		name string
		opt  FitOptions[float32]
		want error
	}{
		{"patience without validation", FitOptions[float32]{Epochs: 3, Patience: 2}, ErrConfig},
		{"negative patience", FitOptions[float32]{Epochs: 3, Patience: -1, ValidationShare: 0.2}, ErrConfig},
		{"share 1", FitOptions[float32]{Epochs: 3, ValidationShare: 1}, ErrConfig},
		{"share NaN", FitOptions[float32]{Epochs: 3, ValidationShare: math.NaN()}, ErrConfig},
		{"share leaves no row", FitOptions[float32]{Epochs: 3, ValidationShare: 0.99}, ErrBatch},
	} {
		m := mustModel[float32](t, Config{Inputs: 2, Seed: 1})
		before := slices.Clone(m.params)
		tr := mustTrainer(t, m, TrainConfig{})
		if _, err := tr.Fit(x, y, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if !slices.Equal(before, m.params) || m.standardized {
			t.Errorf("%s: the model changed", tc.name)
		}
	}
}
