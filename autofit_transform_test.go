package gcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcpnet/gcp/internal/synth"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTransformSearchScoresInOriginalUnits checks the search of the
// transform stage on log targets: run on the same values z with and
// without the log, it trains the same networks and folds, so each row's
// cross-fitted NLL in original units must be its NLL in the modeled
// units plus z = ln y (the log's Jacobian), and the model must carry the
// transform.
func TestTransformSearchScoresInOriginalUnits(t *testing.T) {
	x, y, _ := synth.SinOutliers(7, 300, 0, synth.Everywhere)
	z := make([]float64, len(y))
	x64 := make([]float64, len(x))
	for i, v := range y {
		z[i] = float64(v) // the modeled target; the original is e^z
		x64[i] = float64(x[i])
	}
	opt := AutoOptions{MaxEpochs: 20, Seed: 3, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}}}
	cfg := Config{Inputs: 1, Seed: 2, Members: 1}
	plain, err := searchTransform(context.Background(), cfg, TrainConfig{Seed: 2}, x64, z, opt, TransformNone, [maxTargets]TargetTransform{}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	logged, err := searchTransform(context.Background(), cfg, TrainConfig{Seed: 2}, x64, z, opt, TransformLog, [maxTargets]TargetTransform{}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	held := plain.s.crossFitted.y
	if logged.win.run.t.m.TargetTransform() != TransformLog || len(logged.scores.nlls) != len(held) || len(plain.scores.nlls) != len(held) || len(held) != len(z) {
		t.Fatalf("transform %v, %d and %d rows scored, of %d", logged.win.run.t.m.TargetTransform(), len(logged.scores.nlls), len(plain.scores.nlls), len(z))
	}
	// Every row scored once (the cross-fit), in the same order in both:
	// each row's difference must be its z; a few roundings of values of
	// order 1 apart, 1e-12 relative.
	for i, v := range plain.scores.nlls {
		if d := logged.scores.nlls[i] - v; math.Abs(d-held[i]) > 1e-12*max(1, math.Abs(held[i])) {
			t.Fatalf("row %d: difference %v, want z = %v", i, d, held[i])
		}
	}
}

// logNormalRows returns n rows of two inputs in [−1, 1] and a log-normal
// target whose log is linear in them with noise of sd 0.3 to 0.5:
// positive, of skewness about 2.
func logNormalRows(seed uint64, n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	x, y = make([]float64, 2*n), make([]float64, n)
	for i := range n {
		a, b := 2*r.Float64()-1, 2*r.Float64()-1
		x[2*i], x[2*i+1] = a, b
		y[i] = math.Exp(1 + 0.8*a - 0.5*b + (0.3+0.2*math.Abs(a))*r.NormFloat64())
	}
	return x, y
}

// TestAutoFitChoosesTransform checks the transform stage: by default, on
// a positive skewed target, AutoFit searches and cross-fits with and
// without the log, and returns, byte for byte, the model that the kept
// transform alone trains, its cross-fitted NLL that of TransformChoice
// (a single network's calibration folds are those the comparison
// trained); on the same target shifted below 0 it trains once, without
// the log. Progress names each search's transform.
func TestAutoFitChoosesTransform(t *testing.T) {
	x, y := logNormalRows(4, 150)
	cfg := Config{Inputs: 2, Seed: 1, Members: 1}
	var seen []TargetTransform
	opt := AutoOptions{MaxEpochs: 30, Seed: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}},
		Progress: func(r AutoProgress) {
			if len(seen) == 0 || seen[len(seen)-1] != r.Transform {
				seen = append(seen, r.Transform)
			}
		}}
	m, res, err := AutoFit(cfg, TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Transform
	if !c.Compared || c.Transform != m.TargetTransform() || !slices.Equal(seen, []TargetTransform{TransformNone, TransformLog}) {
		t.Fatalf("choice %+v, model's transform %v, progress of %v", c, m.TargetTransform(), seen)
	}
	if c.CVNLL[c.Transform] != res.CVNLL || c.String() == "" {
		t.Errorf("the kept model's NLL %v, the choice's %v (%s)", res.CVNLL, c.CVNLL, c)
	}
	t.Logf("%s", c)
	opt.Progress, opt.TargetTransforms = nil, []TargetTransform{c.Transform}
	alone, res1, err := AutoFit(cfg, TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := m.MarshalBinary()
	b, errB := alone.MarshalBinary()
	if errA != nil || errB != nil || !bytes.Equal(a, b) || res1.Transform.Compared {
		t.Errorf("the model kept differs from the one TargetTransforms {%v} trains (compared: %v)", c.Transform, res1.Transform.Compared)
	}
	shifted := make([]float64, len(y))
	for i, v := range y {
		shifted[i] = v - 2
	}
	m, res, err = AutoFit(cfg, TrainConfig{Seed: 1}, x, shifted, AutoOptions{MaxEpochs: 30, Seed: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}}})
	if err != nil || res.Transform.Compared || m.TargetTransform() != TransformNone || res.Transform.Positive {
		t.Errorf("targets below 0: %+v, model's transform %v (%v)", res.Transform, m.TargetTransform(), err)
	}
}

// TestAutoFitTransformErrors checks that AutoFit refuses, before training,
// a target transform named twice or unknown (ErrConfig) and the log of a
// target that is not positive (ErrDomain, naming it).
func TestAutoFitTransformErrors(t *testing.T) {
	x, y := logNormalRows(4, 100)
	y[7] = 0
	for _, tc := range []struct {
		trs  []TargetTransform
		want error
	}{
		{[]TargetTransform{TransformLog, TransformLog}, ErrConfig},
		{[]TargetTransform{TransformLog + 1}, ErrConfig},
		{[]TargetTransform{}, ErrConfig},
		{[]TargetTransform{TransformLog}, ErrDomain},
		{[]TargetTransform{TransformNone, TransformLog}, ErrDomain},
	} {
		m, _, err := AutoFit(Config{Inputs: 2}, TrainConfig{}, x, y, AutoOptions{TargetTransforms: tc.trs, Progress: func(AutoProgress) { t.Fatal("trained") }})
		if !errors.Is(err, tc.want) || m != nil {
			t.Errorf("%v: %v, want %v", tc.trs, err, tc.want)
		}
		if tc.want == ErrDomain && !strings.Contains(err.Error(), "y[7]") {
			t.Errorf("%v: %v does not name y[7]", tc.trs, err)
		}
	}
}

// TestAutoFitTransformWorkersBitIdentical checks that the transform
// stage, whose searches and single-network folds run before the kept
// transform's ensemble and its folds, returns the same model and result
// whatever the number of workers.
func TestAutoFitTransformWorkersBitIdentical(t *testing.T) {
	x, y := logNormalRows(6, 150)
	var got [][]byte
	var res []AutoResult
	for _, workers := range []int{1, 2, 4} {
		m, r, err := AutoFit(Config{Inputs: 2, Seed: 1, Members: 2}, TrainConfig{Seed: 1}, x, y,
			AutoOptions{MaxEpochs: 24, Seed: 5, Workers: workers, LearningRates: []float64{1e-3, 3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}, {12}}})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Transform.Compared {
			t.Fatalf("workers %d: the transforms were not compared: %+v", workers, r.Transform)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, res = append(got, b), append(res, r)
	}
	for i := 1; i < len(got); i++ {
		if !bytes.Equal(got[0], got[i]) || !cmp.Equal(res[0], res[i], cmpopts.EquateNaNs()) {
			t.Fatalf("workers change the result: %+v against %+v", res[0], res[i])
		}
	}
}

// TestAutoFitTransformProgressInOrder checks Progress where the
// transforms' searches train at once and an ensemble follows: every
// round reaches the goroutine that called AutoFit, each transform's
// search and folds in turn as if they had run one after the other, then
// the kept transform's ensemble and its calibration folds.
func TestAutoFitTransformProgressInOrder(t *testing.T) {
	// regression: the kept transform's ensemble reported to the ended searches' relay and hung.
	x, y := logNormalRows(4, 150)
	type span struct {
		tr    TargetTransform
		phase AutoPhase
	}
	var spans []span
	var caller string
	var callers []string
	type outcome struct {
		res AutoResult
		err error
	}
	done := make(chan outcome)
	go func() {
		caller = goroutineID()
		_, res, err := AutoFit(Config{Inputs: 2, Seed: 1, Members: 2}, TrainConfig{Seed: 1}, x, y,
			AutoOptions{MaxEpochs: 12, Seed: 2, Workers: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}},
				Progress: func(r AutoProgress) {
					callers = append(callers, goroutineID())
					if s := (span{r.Transform, r.Phase}); len(spans) == 0 || spans[len(spans)-1] != s {
						spans = append(spans, s)
					}
				}})
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(2 * time.Minute): // a few seconds' work, on a busy machine
		t.Fatalf("AutoFit did not return; progress so far %v", spans)
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	kept := o.res.Transform.Transform
	want := []span{{TransformNone, PhaseSearch}, {TransformNone, PhaseCalibration}, {TransformLog, PhaseSearch}, {TransformLog, PhaseCalibration}, {kept, PhaseEnsemble}, {kept, PhaseCalibration}}
	if !o.res.Transform.Compared || !slices.Equal(spans, want) {
		t.Errorf("progress %v, want %v (compared: %v)", spans, want, o.res.Transform.Compared)
	}
	for _, id := range callers {
		if id != caller {
			t.Fatalf("Progress called on goroutine %s, AutoFit on %s", id, caller)
		}
	}
}

// TestAutoFitTransformCancel cancels AutoFit while both transforms'
// searches train at once, at every seventh check of the context: each
// time it returns context.Canceled and no model, its Progress rounds
// (some held for the later transform) reach the caller, and no goroutine
// is left behind.
func TestAutoFitTransformCancel(t *testing.T) {
	x, y := logNormalRows(4, 150)
	opt := AutoOptions{MaxEpochs: 12, Seed: 2, Workers: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{8}},
		Progress: func(AutoProgress) {}}
	for left := 0; ; left += 7 {
		before := runtime.NumGoroutine()
		ctx := newCountdown(left)
		m, res, err := AutoFitContext(ctx, Config{Inputs: 2, Seed: 1, Members: 2}, TrainConfig{Seed: 1}, x, y, opt)
		goroutinesSettle(t, before)
		if !ctx.canceled.Load() {
			if err != nil || m == nil || !res.Transform.Compared {
				t.Fatalf("never cancelled: %v (compared: %v)", err, res.Transform.Compared)
			}
			t.Logf("the fit finished within %d checks", left)
			return
		}
		if !errors.Is(err, context.Canceled) || m != nil {
			t.Fatalf("cancelled after %d checks: model %v, error %v; want none and context.Canceled", left, m != nil, err)
		}
	}
}

// TestFinishFirstFallsBack checks the transform stage's last step: the
// model of the transform the held-out scores kept trains first; where it
// fails, the next fit's model is used and the kept one's failure is
// returned with it; where every one fails, the kept one's error is the
// error; and a done context ends the loop at once.
func TestFinishFirstFallsBack(t *testing.T) {
	fits := []*transformFit[float64]{{}, {}, {}}
	want := &Model[float64]{}
	failing := func(fail ...int) func(f *transformFit[float64]) (*Model[float64], AutoResult, error) {
		return func(f *transformFit[float64]) (*Model[float64], AutoResult, error) {
			i := slices.Index(fits, f)
			if slices.Contains(fail, i) {
				return nil, AutoResult{}, fmt.Errorf("fit %d: %w", i, ErrDiverged)
			}
			return want, AutoResult{EpochsRun: i}, nil
		}
	}
	ctx := context.Background()
	used, m, res, keptErr, err := finishFirst(ctx, fits, 1, failing())
	if used != fits[1] || m != want || res.EpochsRun != 1 || keptErr != nil || err != nil {
		t.Errorf("kept fit trains: used %d, %v, %v", slices.Index(fits, used), keptErr, err)
	}
	used, _, res, keptErr, err = finishFirst(ctx, fits, 1, failing(1))
	if used != fits[0] || res.EpochsRun != 0 || !errors.Is(keptErr, ErrDiverged) || !strings.HasPrefix(keptErr.Error(), "fit 1:") || err != nil {
		t.Errorf("kept fit fails: used %d (want the first of the others, 0), kept error %v, error %v", slices.Index(fits, used), keptErr, err)
	}
	used, _, _, _, err = finishFirst(ctx, fits, 1, failing(0, 1, 2))
	if used != nil || !errors.Is(err, ErrDiverged) || !strings.HasPrefix(err.Error(), "fit 1:") {
		t.Errorf("every fit fails: used %d, error %v, want the kept fit's", slices.Index(fits, used), err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	calls := 0
	_, _, _, _, err = finishFirst(done, fits, 0, func(*transformFit[float64]) (*Model[float64], AutoResult, error) {
		calls++
		return nil, AutoResult{}, done.Err()
	})
	if calls != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %d calls, error %v", calls, err)
	}
}

// TestTransformChoiceSaysFallBack checks that a transform used because
// the favoured one's model failed to train says so, rather than read as
// the scores' choice.
func TestTransformChoiceSaysFallBack(t *testing.T) {
	c := TransformChoice{Transform: TransformLog, Positive: true, Skew: 5.36, LogSkew: 0.633, Compared: true,
		CVNLL: [2]float64{9.356, 8.7}, CVRMSE: [2]float64{1685, math.Inf(1)}, Failed: "the ensemble diverged"}
	want := "log, though the held-out scores favoured none, whose model failed to train (the ensemble diverged): held-out NLL 8.7 on the log scale, 9.356 without; RMSE +Inf and 1685"
	if got := c.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	c.Transform, c.Failed = TransformNone, "x"
	if got := c.String(); !strings.HasPrefix(got, "none, though the held-out scores favoured log, whose model failed to train (x)") {
		t.Errorf("String() = %q", got)
	}
}
