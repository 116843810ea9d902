package gcp

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

// TestFitContext checks Trainer.FitContext's promises: a cancel during an
// epoch (here from Progress after epoch 3 of 50) stops it after that
// epoch, with its statistics, an error matching context.Canceled and the
// model exactly as three epochs of an uncancelled Fit leave it; with
// early stopping, at the best epoch so far, as when Progress stops; a
// context done before the call changes nothing, not even the
// standardization. regression: N10 of issue 26 (training could not be
// cancelled).
func TestFitContext(t *testing.T) {
	x, y := randomBatch[float64](3, 60, 2)
	cfg, tc := Config{Inputs: 2, Hidden: []int{8}, Seed: 2}, TrainConfig{Seed: 2, BatchSize: 8}
	for _, patience := range []int{0, 100} {
		opt := FitOptions[float64]{Epochs: 50, Seed: 4, Patience: patience, ValidationShare: 0.2}
		ref := mustModel[float64](t, cfg)
		refStats, err := mustTrainer(t, ref, tc).Fit(x, y, FitOptions[float64]{Epochs: 3, Seed: 4, Patience: patience, ValidationShare: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		m := mustModel[float64](t, cfg)
		ctx, cancel := context.WithCancel(context.Background())
		opt.Progress = func(st EpochStats) bool {
			if st.Epoch == 3 {
				cancel()
			}
			return true
		}
		st, err := mustTrainer(t, m, tc).FitContext(ctx, x, y, opt)
		if !errors.Is(err, context.Canceled) || st != refStats {
			t.Errorf("patience %d: cancelled after epoch 3: %+v, %v; want %+v and context.Canceled", patience, st, err, refStats)
		}
		if !slices.Equal(m.params, ref.params) {
			t.Errorf("patience %d: the cancelled model differs from three epochs of Fit", patience)
		}
	}
	m := mustModel[float64](t, cfg)
	before := slices.Clone(m.params)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mustTrainer(t, m, tc).FitContext(ctx, x, y, FitOptions[float64]{Epochs: 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("FitContext with a done context = %v, want context.Canceled", err)
	}
	if !slices.Equal(m.params, before) || m.standardized {
		t.Error("FitContext with a done context changed the model")
	}
}

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
	if got, _ := m.validationScores(m.NewWorkspace(), val, xb, yb); got != st.BestValNLL {
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

// TestFitRejectsBadInput checks every error of Fit and of
// SetStandardization, and that a rejected call leaves the model as it was.
// regression: a scale of 5e-324 (reciprocal +Inf) was accepted and made every Predict fail.
func TestFitRejectsBadInput(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 4})
	x, y := randomBatch[float64](1, 6, 2)
	before := slices.Clone(m.params)
	for _, tc := range []struct {
		name string
		x, y []float64
		opt  FitOptions[float64]
		want error
	}{
		{"no-epochs", x, y, FitOptions[float64]{}, ErrConfig},
		{"empty", nil, nil, FitOptions[float64]{Epochs: 1}, ErrBatch},
		{"ragged", x[:5], y, FitOptions[float64]{Epochs: 1}, ErrShape},
		{"ragged-validation", x, y, FitOptions[float64]{Epochs: 1, ValX: x[:3], ValY: y[:2]}, ErrShape},
		{"nan", append([]float64{math.NaN()}, x[1:]...), y, FitOptions[float64]{Epochs: 1}, ErrNonFinite},
		{"inf-validation", x, y, FitOptions[float64]{Epochs: 1, ValX: x[:2], ValY: []float64{math.Inf(1)}}, ErrNonFinite},
	} {
		if _, err := tr.Fit(tc.x, tc.y, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: Fit = %v, want %v", tc.name, err, tc.want)
		}
	}
	if !slices.Equal(before, m.params) || m.standardized {
		t.Error("a rejected Fit changed the model")
	}
	for _, tc := range []struct {
		name          string
		mean, scale   []float64
		yMean, yScale float64
		want          error
	}{
		{"short", []float64{0}, []float64{1, 1}, 0, 1, ErrShape},
		{"zero-scale", []float64{0, 0}, []float64{1, 0}, 0, 1, ErrNonFinite},
		{"subnormal-scale", []float64{0, 0}, []float64{1, 5e-324}, 0, 1, ErrNonFinite}, // 1/5e-324 = +Inf
		{"nan-mean", []float64{0, math.NaN()}, []float64{1, 1}, 0, 1, ErrNonFinite},
		{"negative-y-scale", []float64{0, 0}, []float64{1, 1}, 0, -1, ErrNonFinite},
		{"inf-y-mean", []float64{0, 0}, []float64{1, 1}, math.Inf(1), 1, ErrNonFinite},
	} {
		if err := m.SetStandardization(tc.mean, tc.scale, tc.yMean, tc.yScale); !errors.Is(err, tc.want) {
			t.Errorf("SetStandardization %s = %v, want %v", tc.name, err, tc.want)
		}
	}
	if m.standardized {
		t.Error("a rejected SetStandardization changed the model")
	}
}

// TestFailedFitLeavesNoTrace checks that a Fit whose first step fails does
// not keep the standardization it learned.
func TestFailedFitLeavesNoTrace(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 4, LearningRate: 1, WeightDecay: 1e308})
	x, y := randomBatch[float64](1, 8, 2)
	if _, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1}); !errors.Is(err, ErrDiverged) {
		t.Fatalf("Fit = %v, want ErrDiverged", err)
	}
	if xm, xs, ym, ys := m.Standardization(); m.standardized || xm[0] != 0 || xs[0] != 1 || ym != 0 || ys != 1 {
		t.Error("a Fit that trained nothing kept its standardization")
	}
}

// TestMeanHeadsEpoch checks a run with runOptions.meanHeads
// against scores recorded independently after every epoch: BestEpoch is
// the epoch of the lowest held-out NLL and meanEpoch that of the lowest
// squared error from BestEpoch on, and finish leaves the mean heads of
// meanEpoch's parameters and the other heads of BestEpoch's
// (copyMeanHeads, tested by the forward pass in mlp_test.go). The run
// stops as AutoFit's do, patience epochs after the best NLL.
func TestMeanHeadsEpoch(t *testing.T) {
	const d, patience = 3, 10
	// Data 17 has the squared error's best epoch before the NLL's and a
	// later one after it, the two cases the rule tells apart.
	x, y := randomBatch[float64](17, 120, d)
	train, val, err := holdOut(allRows(x, y, d), 0.25, 6)
	if err != nil {
		t.Fatal(err)
	}
	m := mustModel[float64](t, Config{Inputs: d, Hidden: []int{16}, Members: 2, Seed: 3})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 8, Seed: 3})
	r, err := newFitRun(tr, train, val, runOptions{seed: 7, track: true, meanHeads: true})
	if err != nil {
		t.Fatal(err)
	}
	xb, yb := make([]float64, workspaceRows*d), make([]float64, workspaceRows)
	var nlls, sqErrs []float64
	params := [][]float64{nil} // params[e]: after epoch e
	for e := 1; e <= 3000 && r.stats.Epoch-r.stats.BestEpoch < patience; e++ {
		if err := r.epoch(); err != nil {
			t.Fatal(err)
		}
		nll, sqErr := m.validationScores(m.NewWorkspace(), val, xb, yb)
		nlls, sqErrs = append(nlls, nll), append(sqErrs, sqErr)
		params = append(params, slices.Clone(m.params))
	}
	argmin := func(v []float64) int { return slices.Index(v, slices.Min(v)) + 1 }
	bestNLL := argmin(nlls)
	bestSq := bestNLL - 1 + argmin(sqErrs[bestNLL-1:])
	if r.stats.BestEpoch != bestNLL || r.meanEpoch != bestSq {
		t.Fatalf("BestEpoch %d, meanEpoch %d; the recorded scores' best are %d and %d", r.stats.BestEpoch, r.meanEpoch, bestNLL, bestSq)
	}
	if bestSq <= bestNLL || argmin(sqErrs) >= bestNLL {
		t.Fatalf("the squared error's best epochs (%d overall, %d from the NLL's best on) do not straddle the NLL's %d: the test exercises neither case", argmin(sqErrs), bestSq, bestNLL)
	}
	r.finish()
	want := slices.Clone(params[bestNLL])
	copyMeanHeads(m.lay, want, params[bestSq])
	if !slices.Equal(m.params, want) {
		t.Fatal("the model does not hold the NLL epoch's heads with the squared error epoch's mean heads")
	}
}
