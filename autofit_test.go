package gcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcpnet/gcp/internal/synth"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestAutoFitWorkersBitIdentical checks that the search's result does not
// depend on how many candidates train at once.
func TestAutoFitWorkersBitIdentical(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 300, 0.05, synth.Everywhere)
	// One network, and an ensemble, whose calibration folds train behind
	// it on the other workers.
	for _, members := range []int{1, 3} {
		var got []*Model[float32]
		var res []AutoResult
		for _, workers := range []int{1, 2, 5} {
			m, r, err := AutoFit(Config{Inputs: 1, Hidden: []int{16}, Seed: 3, Members: members}, TrainConfig{Seed: 3}, x, y,
				AutoOptions{MaxEpochs: 27, Seed: 9, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			got, res = append(got, m), append(res, r)
		}
		for i := 1; i < len(got); i++ {
			if !slices.Equal(got[0].params, got[i].params) || !cmp.Equal(res[0], res[i], cmpopts.EquateNaNs()) {
				t.Fatalf("members %d: workers change the result: %+v against %+v", members, res[0], res[i])
			}
		}
		if res[0].Candidates != len(defaultLearningRates)*len(defaultDropouts) || res[0].ValRows != minValidationRows {
			t.Fatalf("result %+v: want the default grid and %d held-out rows", res[0], minValidationRows)
		}
		if res[0].CVRows != len(y) {
			t.Fatalf("members %d: %d cross-fitted rows, want all %d", members, res[0].CVRows, len(y))
		}
	}
}

// TestAutoFitBadInput checks AutoFit's errors.
func TestAutoFitBadInput(t *testing.T) {
	x, y := randomBatch[float64](1, 100, 2)
	cfg := Config{Inputs: 2}
	for _, tc := range []struct {
		name string
		x, y []float64
		cfg  Config
		opt  AutoOptions
		want error
	}{
		{"too few rows", x[:2*(MinAutoFitRows-1)], y[:MinAutoFitRows-1], cfg, AutoOptions{}, ErrTooFewRows},
		{"shape", x[:5], y, cfg, AutoOptions{}, ErrShape},
		{"NaN", append([]float64{math.NaN()}, x[1:]...), y, cfg, AutoOptions{}, ErrNonFinite},
		{"empty grid", x, y, cfg, AutoOptions{LearningRates: []float64{}}, ErrConfig},
		{"share", x, y, cfg, AutoOptions{ValidationShare: 1}, ErrConfig},
		{"negative epochs", x, y, cfg, AutoOptions{MaxEpochs: -1}, ErrConfig},
		{"bad learning rate", x, y, cfg, AutoOptions{LearningRates: []float64{-1}, MaxEpochs: 2}, ErrConfig},
		{"ML_Bayes without dropout", x, y, Config{Inputs: 2, Loss: LossMLBayes, Dropout: 0.1}, AutoOptions{Dropouts: []float64{0}}, ErrConfig},
	} {
		if _, _, err := AutoFit(tc.cfg, TrainConfig{}, tc.x, tc.y, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestAutoFitTooFewRows checks that AutoFit refuses fewer than
// MinAutoFitRows rows with ErrTooFewRows, naming the rows and the
// minimum, and trains nothing.
// regression: gcp train fell back to training 2 rows uncalibrated.
func TestAutoFitTooFewRows(t *testing.T) {
	x, y := randomBatch[float64](1, MinAutoFitRows, 1)
	for _, n := range []int{1, 2, MinAutoFitRows - 1} {
		m, _, err := AutoFit(Config{Inputs: 1}, TrainConfig{}, x[:n], y[:n], AutoOptions{})
		if want := fmt.Sprintf("too few rows: %d, want at least %d", n, MinAutoFitRows); m != nil || !errors.Is(err, ErrTooFewRows) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d rows: %v, %v; want no model and ErrTooFewRows saying %q", n, m, err, want)
		}
	}
}

// countdownContext is a context whose Err reports context.Canceled once
// it has reported nil left times, safe for the search's goroutines; it
// records whether it ever reported the cancel.
type countdownContext struct {
	context.Context
	left     atomic.Int64
	canceled atomic.Bool
}

func newCountdown(left int) *countdownContext {
	c := &countdownContext{Context: context.Background()}
	c.left.Store(int64(left))
	return c
}

func (c *countdownContext) Err() error {
	if c.left.Add(-1) < 0 {
		c.canceled.Store(true)
		return context.Canceled
	}
	return nil
}

// goroutinesSettle fails t unless the number of goroutines comes back to
// at most before within 5 s: a cancelled search must leave none behind.
// (A goroutine counts until it has returned, a little after the
// WaitGroup it signalled let its waiter go, hence the wait.)
func goroutinesSettle(t *testing.T, before int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the search returned, %d before it", runtime.NumGoroutine(), before)
		}
	}
}

// TestAutoFitContextCancel cancels a context at every stage of the
// search (before it, in each round of candidates, in the ensemble of three
// and in the calibration folds, on 2 workers): AutoFitContext must return
// an error matching context.Canceled and no model, or, if no check ever saw
// the cancel, the whole model, and leave no goroutine behind. Every epoch
// of every run is preceded by a check that passed: the candidates train at
// most as many epochs as the checks that passed, so a cancel stops each
// run within the epoch under way.
// regression: AutoFit could not be cancelled (N10 of issue 26).
func TestAutoFitContextCancel(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 90, 0.05, synth.Everywhere)
	opt := AutoOptions{MaxEpochs: 9, Seed: 1, Workers: 2, LearningRates: []float64{1e-3, 3e-3}, Dropouts: []float64{0, 0.1}}
	for _, members := range []int{1, 3} {
		cfg := Config{Inputs: 1, Hidden: []int{4}, Seed: 1, Members: members}
		for left := 0; ; left += 7 {
			before := runtime.NumGoroutine()
			ctx := newCountdown(left)
			m, _, err := AutoFitContext(ctx, cfg, TrainConfig{Seed: 1}, x, y, opt)
			goroutinesSettle(t, before)
			if !ctx.canceled.Load() {
				if err != nil || m == nil {
					t.Fatalf("members %d, never cancelled: %v", members, err)
				}
				break // the search finished before the countdown
			}
			if !errors.Is(err, context.Canceled) || m != nil {
				t.Fatalf("members %d, cancelled after %d checks: model %v, error %v; want none and context.Canceled", members, left, m != nil, err)
			}
		}
	}
	for _, left := range []int{0, 1, 5, 13} { // within the first round
		ctx := newCountdown(left)
		s, err := newSearch(ctx, Config{Inputs: 1, Hidden: []int{4}, Seed: 1}, TrainConfig{Seed: 1}, x, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.choose(); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled after %d checks: %v", left, err)
		}
		epochs := 0
		for _, c := range s.cands {
			if c.run != nil {
				epochs += c.run.stats.Epoch
			}
		}
		if epochs > left {
			t.Errorf("the candidates trained %d epochs on %d checks that passed", epochs, left)
		}
	}
}

// TestAutoFitContextDeadline checks that a deadline stops a search that
// would otherwise run for the bound of 2²⁰ epochs, with an error matching
// context.DeadlineExceeded. regression: N10 of issue 26.
func TestAutoFitContextDeadline(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 90, 0.05, synth.Everywhere)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m, _, err := AutoFitContext(ctx, Config{Inputs: 1, Hidden: []int{4}, Members: 2}, TrainConfig{}, x, y,
		AutoOptions{MaxEpochs: maxEpochs, Patience: maxEpochs})
	if !errors.Is(err, context.DeadlineExceeded) || m != nil {
		t.Errorf("AutoFitContext past its deadline: model %v, error %v; want none and context.DeadlineExceeded", m != nil, err)
	}
	goroutinesSettle(t, before)
}

// TestAutoOptionsRefusesBadGrid checks that a learning rate that is not
// finite and positive, and a dropout rate outside [0, 1), are refused
// with ErrConfig naming the field and its index, before anything trains.
// regression: a learning rate of 0 trained at the default and reported 0 (N7 of issue 26).
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

// TestAutoOptionsKeepsTrainingRows checks that a ValidationShare that
// leaves fewer than minValidationRows rows to train on is refused with
// ErrBatch naming ValidationShare, and that one that leaves exactly that
// many (0.85 of 200: 170 held out, 30 to train) trains.
// regression: ValidationShare 0.99 on 200 rows trained on 2 (N8 of issue 26).
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

// TestAutoOptionsBounded checks that every count in AutoOptions and
// FitOptions has an upper bound, and that a value beyond it is refused at
// once with ErrConfig naming the field: a call still running after 5 s
// fails the test.
// regression: MaxEpochs 1 << 40 was accepted and never returned (N10 of issue 26).
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

// TestAutoFitProgress checks what AutoFit reports through Progress: the
// search's three rounds, then for an ensemble each epoch of its run, then
// the calibration folds' epochs up to five times the returned epoch, each
// phase's Done never going back, all of it on the goroutine that called
// AutoFit.
func TestAutoFitProgress(t *testing.T) {
	caller := goroutineID()
	x, y, _ := synth.SinOutliers(6, 200, 0.05, synth.Everywhere)
	for _, members := range []int{1, 2} {
		var rounds []AutoProgress
		_, res, err := AutoFit(Config{Inputs: 1, Hidden: []int{8}, Seed: 4, Members: members}, TrainConfig{Seed: 4}, x, y,
			AutoOptions{MaxEpochs: 27, Seed: 5, Workers: 2, LearningRates: []float64{1e-3, 3e-3}, Dropouts: []float64{0},
				Progress: func(r AutoProgress) {
					if id := goroutineID(); id != caller {
						t.Errorf("Progress called on goroutine %s, AutoFit on %s", id, caller)
					}
					rounds = append(rounds, r)
				}})
		if err != nil {
			t.Fatal(err)
		}
		want := []AutoPhase{PhaseSearch, PhaseEnsemble, PhaseCalibration}
		if members == 1 {
			want = []AutoPhase{PhaseSearch, PhaseCalibration}
		}
		var phases []AutoPhase
		last := map[AutoPhase]AutoProgress{}
		for i, r := range rounds {
			if len(phases) == 0 || phases[len(phases)-1] != r.Phase {
				phases = append(phases, r.Phase)
			}
			if p, ok := last[r.Phase]; ok && (r.Done < p.Done || r.Total != p.Total) {
				t.Errorf("members %d: round %d %+v goes back from %+v", members, i, r, p)
			}
			last[r.Phase] = r
		}
		if len(phases) != len(want) {
			t.Fatalf("members %d: phases %v, want %v", members, phases, want)
		}
		for i := range want {
			if phases[i] != want[i] {
				t.Fatalf("members %d: phases %v, want %v", members, phases, want)
			}
		}
		if s := last[PhaseSearch]; s.Done != 3 || s.Total != 3 || s.Round != 3 {
			t.Errorf("members %d: last search round %+v, want 3 of 3", members, s)
		}
		if members > 1 {
			if e := last[PhaseEnsemble]; e.Done != res.EpochsRun || e.Total != 27 {
				t.Errorf("members %d: last ensemble epoch %+v, want %d of at most 27", members, e, res.EpochsRun)
			}
		}
		if c := last[PhaseCalibration]; c.Done != c.Total || c.Total != calibrationFolds*max(1, res.Epoch) {
			t.Errorf("members %d: last calibration round %+v, want %d of %d fold epochs", members, c, calibrationFolds*res.Epoch, calibrationFolds*res.Epoch)
		}
	}
}

// goroutineID returns the number of the calling goroutine, from the first
// line of its stack trace ("goroutine 7 [running]:").
func goroutineID() string {
	var buf [64]byte
	f := strings.Fields(string(buf[:runtime.Stack(buf[:], false)]))
	return f[1]
}
