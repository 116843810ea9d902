package gcp

import (
	"context"
	"errors"
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
