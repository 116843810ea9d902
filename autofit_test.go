package gcp

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
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
		{"too few rows", x[:2*40], y[:40], cfg, AutoOptions{}, ErrBatch},
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

// TestAutoFitContextCancel is N10 of issue 26: AutoFit could not be
// cancelled. A context cancelled at every stage of the search (before
// it, in each round of candidates, in the ensemble of three and in the
// calibration folds, on 2 workers) must make AutoFitContext return an
// error matching context.Canceled and no model, or, if no check ever saw
// the cancel, the whole model; and leave no goroutine behind. Every epoch
// of every run is preceded by a check that passed: the candidates train
// at most as many epochs as the checks that passed, so a cancel stops
// each run within the epoch under way. regression: N10 of issue 26.
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
		if _, _, err := s.run(); !errors.Is(err, context.Canceled) {
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

// TestAutoFitTargetTransform checks AutoOptions.TargetTransform on log
// targets: the same fit with and without it trains the same networks, so
// each row's held-out NLL in original units must be its NLL in the
// modeled units plus z = ln y (the log's Jacobian), and the returned
// model must carry the transform.
func TestAutoFitTargetTransform(t *testing.T) {
	x, y, _ := synth.SinOutliers(7, 300, 0, synth.Everywhere)
	z := make([]float64, len(y))
	x64 := make([]float64, len(x))
	for i, v := range y {
		z[i] = float64(v) // the modeled target; the original is e^z
		x64[i] = float64(x[i])
	}
	opt := AutoOptions{MaxEpochs: 20, Seed: 3, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}}}
	cfg := Config{Inputs: 1, Seed: 2, Members: 1}
	_, plain, err := AutoFit(cfg, TrainConfig{Seed: 2}, x64, z, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.TargetTransform = TransformLog
	m, logged, err := AutoFit(cfg, TrainConfig{Seed: 2}, x64, z, opt)
	if err != nil {
		t.Fatal(err)
	}
	if m.TargetTransform() != TransformLog || len(logged.CVNLLs) != len(plain.CVNLLs) || len(plain.CVNLLs) == 0 {
		t.Fatalf("transform %v, %d and %d rows scored", m.TargetTransform(), len(logged.CVNLLs), len(plain.CVNLLs))
	}
	// The rows were scored in the same order, every row once (300 rows:
	// the cross-fit). Each row's difference must be its z, so the sorted
	// differences are the sorted z; a few roundings of values of order 1
	// apart, 1e-12 relative.
	d := make([]float64, len(z))
	for i, v := range plain.CVNLLs {
		d[i] = logged.CVNLLs[i] - v
	}
	slices.Sort(d)
	slices.Sort(z)
	for i := range d {
		if math.Abs(d[i]-z[i]) > 1e-12*max(1, math.Abs(z[i])) {
			t.Fatalf("sorted difference %d: %v, want z = %v", i, d[i], z[i])
		}
	}

}
