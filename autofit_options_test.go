package gcp

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestAutoOptionsRefusesBadGrid reproduces N7 of issue 26:
// AutoOptions{LearningRates: []float64{0}} trained at TrainConfig's
// default 1e-3 but reported a learning rate of 0. A learning rate that is
// not finite and positive, and a dropout rate outside [0, 1), must be
// refused with ErrConfig naming the field and its index, before anything
// trains. regression: N7 of issue 26.
func TestAutoOptionsRefusesBadGrid(t *testing.T) {
	x, y := randomBatch[float64](1, 100, 2)
	for _, c := range []struct {
		opt  AutoOptions
		name string
	}{
		{AutoOptions{LearningRates: []float64{0}}, "LearningRates[0]"},
		{AutoOptions{LearningRates: []float64{1e-3, math.NaN()}}, "LearningRates[1]"},
		{AutoOptions{LearningRates: []float64{math.Inf(1)}}, "LearningRates[0]"},
		{AutoOptions{LearningRates: []float64{-1e-3}}, "LearningRates[0]"},
		{AutoOptions{Dropouts: []float64{0.1, 1}}, "Dropouts[1]"},
		{AutoOptions{Dropouts: []float64{-0.1}}, "Dropouts[0]"},
		{AutoOptions{Dropouts: []float64{math.NaN()}}, "Dropouts[0]"},
	} {
		c.opt.MaxEpochs = 2
		_, _, err := AutoFit(Config{Inputs: 2, Hidden: []int{4}}, TrainConfig{}, x, y, c.opt)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "AutoOptions."+c.name) {
			t.Errorf("%+v: error %v, want ErrConfig naming AutoOptions.%s", c.opt, err, c.name)
		}
	}
}

// TestAutoOptionsKeepsTrainingRows reproduces N8 of issue 26:
// ValidationShare 0.99 on 200 rows trained on 2 rows, though AutoFit says
// it needs 30 to train. A share that leaves fewer than minValidationRows
// rows to train on must be refused with ErrBatch naming
// ValidationShare; one that leaves exactly that many (0.85 of 200: 170
// held out, 30 to train) trains. regression: N8 of issue 26.
func TestAutoOptionsKeepsTrainingRows(t *testing.T) {
	x, y := randomBatch[float64](1, 200, 2)
	cfg := Config{Inputs: 2, Hidden: []int{4}}
	for _, share := range []float64{0.99, 0.86} {
		_, _, err := AutoFit(cfg, TrainConfig{}, x, y, AutoOptions{ValidationShare: share, MaxEpochs: 2})
		if !errors.Is(err, ErrBatch) || !strings.Contains(err.Error(), "ValidationShare") {
			t.Errorf("ValidationShare %v of 200 rows: error %v, want ErrBatch naming ValidationShare", share, err)
		}
	}
	_, res, err := AutoFit(cfg, TrainConfig{}, x, y, AutoOptions{ValidationShare: 0.85, MaxEpochs: 2, LearningRates: []float64{1e-3}, Dropouts: []float64{0}})
	if err != nil || res.TrainRows != minValidationRows {
		t.Errorf("ValidationShare 0.85 of 200 rows: %d training rows (%v), want %d", res.TrainRows, err, minValidationRows)
	}
}

// TestAutoOptionsBounded reproduces the bounds half of N10 of issue 26:
// AutoFit accepted any MaxEpochs, and 1 << 40 never returned. Every count
// in AutoOptions and FitOptions has an upper bound, and a value beyond it
// is refused with ErrConfig naming the field, at once: on main the first
// case trained for ever, so a call still running after 5 s fails the
// test. regression: N10 of issue 26.
func TestAutoOptionsBounded(t *testing.T) {
	x, y := randomBatch[float64](1, 100, 2)
	cfg := Config{Inputs: 2, Hidden: []int{4}}
	grid := make([]float64, 33)
	for i := range grid {
		grid[i] = float64(i+1) * 1e-4
	}
	for _, c := range []struct {
		opt  AutoOptions
		name string
	}{
		{AutoOptions{MaxEpochs: math.MaxInt}, "MaxEpochs"},
		{AutoOptions{MaxEpochs: maxEpochs + 1}, "MaxEpochs"},
		{AutoOptions{Patience: maxEpochs + 1}, "Patience"},
		{AutoOptions{Workers: maxWorkers + 1}, "Workers"},
		{AutoOptions{LearningRates: grid, Dropouts: grid}, "33 learning rates × 33 dropout rates"},
		{AutoOptions{MaxEpochs: -1}, "MaxEpochs"},
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := AutoFit(cfg, TrainConfig{}, x, y, c.opt)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.name) {
				t.Errorf("%s: error %v, want ErrConfig naming it", c.name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("AutoFit with %s out of bounds still running after 5 s", c.name)
		}
	}
	m := mustModel[float64](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{})
	for _, opt := range []FitOptions[float64]{{Epochs: maxEpochs + 1}, {Epochs: math.MaxInt}, {Epochs: 3, Patience: maxEpochs + 1, ValidationShare: 0.2}} {
		if _, err := tr.Fit(x, y, opt); !errors.Is(err, ErrConfig) {
			t.Errorf("Fit with Epochs %d, Patience %d: error %v, want ErrConfig", opt.Epochs, opt.Patience, err)
		}
	}
}
