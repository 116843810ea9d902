package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// randomBatch returns n rows of d standard-normal features and targets.
func randomBatch[T Float](seed uint64, n, d int) (x, y []T) {
	r := rand.New(rand.NewPCG(seed, 7))
	x, y = make([]T, n*d), make([]T, n)
	for i := range x {
		x[i] = T(r.NormFloat64())
	}
	for i := range y {
		y[i] = T(2 * r.NormFloat64())
	}
	return x, y
}

func mustModel[T Float](t testing.TB, cfg Config) *Model[T] {
	t.Helper()
	m, err := New[T](cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustTrainer[T Float](t testing.TB, m *Model[T], cfg TrainConfig) *Trainer[T] {
	t.Helper()
	tr, err := NewTrainer(m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestNetworkGradient checks backpropagation through the whole network
// against central finite differences of the mean GCP loss, in float64, for
// every parameter.
func TestNetworkGradient(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"learned-alpha", Config{Inputs: 3, Hidden: []int{5}, Seed: 1}},
		{"fixed-alpha", Config{Inputs: 3, Hidden: []int{5}, FixedAlpha: 1.5, Seed: 2}},
		{"dropout", Config{Inputs: 3, Hidden: []int{6}, Dropout: 0.3, Seed: 3}},
		{"tanh-deep", Config{Inputs: 2, Hidden: []int{4, 3}, Activation: Tanh, Seed: 4}},
		{"relu-deep-dropout", Config{Inputs: 2, Hidden: []int{5, 4}, Dropout: 0.5, FixedAlpha: 3, Seed: 5}},
		{"gaussian-ml", Config{Inputs: 3, Hidden: []int{5}, Loss: LossGaussianML, Seed: 6}},
		{"dpd", Config{Inputs: 3, Hidden: []int{5, 3}, Loss: LossDPD, DPDGamma: 0.3, Seed: 7}},
		{"ml-bayes", Config{Inputs: 2, Hidden: []int{6}, Loss: LossMLBayes, Dropout: 0.4, Seed: 8}},
		{"ensemble-3", Config{Inputs: 3, Hidden: []int{5}, Members: 3, Seed: 10}},
		{"ensemble-3-deep-dropout", Config{Inputs: 2, Hidden: []int{4, 3}, Dropout: 0.3, Members: 3, Seed: 11}},
		{"ensemble-3-gaussian-ml", Config{Inputs: 3, Hidden: []int{5}, Loss: LossGaussianML, Members: 3, Seed: 12}},
		{"ensemble-2-ml-bayes", Config{Inputs: 2, Hidden: []int{6}, Loss: LossMLBayes, Dropout: 0.4, Members: 2, Seed: 13}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 4
			m := mustModel[float64](t, tc.cfg)
			tr := mustTrainer(t, m, TrainConfig{BatchSize: n, Seed: 9})
			x, y := randomBatch[float64](11, n, tc.cfg.Inputs)
			// Train a little first: at initialization the hidden biases are
			// exactly 0, so a unit whose inputs are all dead ReLUs sits
			// exactly on its kink, where the derivative is one-sided.
			for i := 0; i < 3; i++ {
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.standardizeRows(tr.a.x[:len(x)], x, tr.z); err != nil {
				t.Fatal(err)
			}
			copy(tr.y, y)
			var mask []float64 // the same dropout noise for every evaluation
			if tr.mask != nil {
				mask = tr.mask[:n*m.lay.width(m.lay.last())]
				tr.drawMask(mask)
			}
			tr.gradientMasked(n, mask)
			grad := slices.Clone(tr.grad)
			// Central differences with h = 1e-4 have truncation error
			// O(h^2 L''') of about 1e-8 relative and rounding error
			// eps*|L|/h of about 1e-12; measured at most 1e-8 here, while a
			// sign or chain-rule error is O(1). A ReLU kink closer than h to a
			// pre-activation would break the comparison, which the fixed
			// seeds avoid. The scale floor keeps the relative error
			// meaningful for parameters whose gradient is zero (dead ReLU
			// units, dropped units).
			const h, tol = 1e-4, 1e-6
			gmax := 0.0
			for _, g := range grad {
				gmax = max(gmax, math.Abs(g))
			}
			worst := 0.0
			for i := range m.params {
				orig := m.params[i]
				m.params[i] = orig + h
				_, lp := tr.gradientMasked(n, mask)
				m.params[i] = orig - h
				_, lm := tr.gradientMasked(n, mask)
				m.params[i] = orig
				fd := (lp - lm) / (2 * h)
				rel := math.Abs(fd-grad[i]) / max(math.Abs(grad[i]), 1e-3*gmax)
				worst = max(worst, rel)
				if rel > tol {
					t.Errorf("param %d: backprop %.12g, finite difference %.12g (rel %.2g)", i, grad[i], fd, rel)
				}
			}
			t.Logf("%d parameters, worst relative error %.2g", len(m.params), worst)
		})
	}
}

// trainFew returns a model of type T trained for steps minibatch steps.
func trainFew[T Float](t testing.TB, cfg Config, tc TrainConfig, steps int) *Model[T] {
	m := mustModel[T](t, cfg)
	tr := mustTrainer(t, m, tc)
	x, y := randomBatch[T](5, tc.BatchSize, cfg.Inputs)
	for i := 0; i < steps; i++ {
		if _, err := tr.Step(x, y); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestFloat32MatchesFloat64 trains the same model from the same seed in
// both precisions.
func TestFloat32MatchesFloat64(t *testing.T) {
	cfg := Config{Inputs: 4, Hidden: []int{16}, Seed: 3}
	tc := TrainConfig{BatchSize: 8, LearningRate: 1e-2}
	m32 := trainFew[float32](t, cfg, tc, 20)
	m64 := trainFew[float64](t, cfg, tc, 20)
	x, _ := randomBatch[float64](8, 16, cfg.Inputs)
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	p32, p64 := make([]Prediction, 16), make([]Prediction, 16)
	if err := m32.PredictBatch(m32.NewWorkspace(), x32, p32); err != nil {
		t.Fatal(err)
	}
	if err := m64.PredictBatch(m64.NewWorkspace(), x, p64); err != nil {
		t.Fatal(err)
	}
	// float32 rounds every weight and activation at 6e-8 relative; twenty
	// Adam steps, whose step size lr·m/√v is insensitive to the gradient's
	// scale but not to its sign near zero, amplify that to ~1e-4 at most
	// in these outputs. 1e-3 fails any precision-dependent bug (a float32
	// overflow, a wrong conversion) by orders of magnitude.
	const tol = 1e-3
	worst := 0.0
	for i := range p32 {
		for _, pair := range [][2]float64{
			{p32[i].Mean, p64[i].Mean}, {p32[i].Var, p64[i].Var}, {p32[i].Alpha, p64[i].Alpha},
			{p32[i].Beta, p64[i].Beta}, {p32[i].Nu, p64[i].Nu}, {p32[i].VarCorrected, p64[i].VarCorrected},
		} {
			rel := math.Abs(pair[0]-pair[1]) / max(math.Abs(pair[1]), 1)
			worst = max(worst, rel)
		}
	}
	t.Logf("worst float32/float64 relative difference: %.2g", worst)
	if worst > tol {
		t.Errorf("float32 and float64 differ by %.2g > %g", worst, tol)
	}
}

// TestSeedReproducible checks that a seed fixes the model bit for bit,
// through initialization, dropout and shuffling.
func TestSeedReproducible(t *testing.T) {
	cfg := Config{Inputs: 3, Hidden: []int{8}, Dropout: 0.2, Seed: 42}
	run := func(seed uint64) []float32 {
		c := cfg
		c.Seed = seed
		m := mustModel[float32](t, c)
		tr := mustTrainer(t, m, TrainConfig{BatchSize: 5, Seed: seed})
		x, y := randomBatch[float32](1, 23, 3)
		if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: 3, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		return m.params
	}
	a, b := run(42), run(42)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different parameters (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, run(43)) {
		t.Error("different seeds gave identical parameters")
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{}, "Inputs"},
		{Config{Inputs: -1}, "Inputs"},
		{Config{Inputs: 1 << 20}, "Inputs"},
		{Config{Inputs: 2, Hidden: []int{4, 0}}, "Hidden[1]"},
		{Config{Inputs: 2, Hidden: make([]int, 100)}, "len(Hidden)"},
		{Config{Inputs: 2, Activation: 7}, "Activation"},
		{Config{Inputs: 2, Dropout: 1}, "Dropout"},
		{Config{Inputs: 2, Dropout: math.NaN()}, "Dropout"},
		{Config{Inputs: 2, FixedAlpha: -1}, "FixedAlpha"},
		{Config{Inputs: 2, FixedAlpha: math.Inf(1)}, "FixedAlpha"},
		{Config{Inputs: 2, FixedAlpha: 9.005004792076203e-308}, "FixedAlpha"}, // regression: every prediction of such a model failed
		{Config{Inputs: 2, FixedAlpha: math.Nextafter(minFixedAlpha, 0)}, "FixedAlpha"},
		{Config{Inputs: 60000, Hidden: []int{60000, 60000}}, "parameters"},
		{Config{Inputs: 2, Loss: 4}, "Loss"},
		{Config{Inputs: 2, Loss: -1}, "Loss"},
		{Config{Inputs: 2, Loss: LossGaussianML, FixedAlpha: 2}, "FixedAlpha"},
		{Config{Inputs: 2, DPDGamma: 0.5}, "DPDGamma"},
		{Config{Inputs: 2, Loss: LossDPD, DPDGamma: -1}, "DPDGamma"},
		{Config{Inputs: 2, Loss: LossDPD, DPDGamma: math.NaN()}, "DPDGamma"},
		{Config{Inputs: 2, Loss: LossDPD, DPDGamma: 1e9}, "DPDGamma"},
		{Config{Inputs: 2, MCSamples: 50}, "MCSamples"},
		{Config{Inputs: 2, Loss: LossMLBayes, Dropout: 0.2, MCSamples: -1}, "MCSamples"},
		{Config{Inputs: 2, Loss: LossMLBayes, Dropout: 0.2, MCSamples: 1 << 20}, "MCSamples"},
		{Config{Inputs: 2, Loss: LossMLBayes}, "Dropout"},
	} {
		_, err := New[float32](tc.cfg)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("New(%+v) = %v, want ErrConfig naming %s", tc.cfg, err, tc.field)
		}
	}
	m := mustModel[float64](t, Config{Inputs: 2})
	for _, tc := range []struct {
		cfg   TrainConfig
		field string
	}{
		{TrainConfig{LearningRate: -1}, "LearningRate"},
		{TrainConfig{LearningRate: math.NaN()}, "LearningRate"},
		{TrainConfig{Beta1: 1}, "Beta1"},
		{TrainConfig{Beta2: 2}, "Beta2"},
		{TrainConfig{Rho: -0.5}, "Rho"},
		{TrainConfig{Momentum: 1}, "Momentum"},
		{TrainConfig{WeightDecay: -1}, "WeightDecay"},
		{TrainConfig{ClipNorm: math.Inf(-1)}, "ClipNorm"},
		{TrainConfig{BatchSize: -3}, "BatchSize"},
		{TrainConfig{Optimizer: 9}, "Optimizer"},
	} {
		_, err := NewTrainer(m, tc.cfg)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("NewTrainer(%+v) = %v, want ErrConfig naming %s", tc.cfg, err, tc.field)
		}
	}
}

// TestStepRejectsBadInput checks every error of Step and that none of them
// changes the model or the optimizer.
func TestStepRejectsBadInput(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 3})
	x, y := randomBatch[float32](1, 3, 2)
	if _, err := tr.Step(x, y); err != nil { // give Adam some state
		t.Fatal(err)
	}
	before, state := slices.Clone(m.params), slices.Clone(tr.opt.state[0])
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		x, y []float32
		want error
	}{
		{"empty", nil, nil, ErrBatch},
		{"too-large", make([]float32, 8), make([]float32, 4), ErrBatch},
		{"short-x", x[:5], y, ErrShape},
		{"nan-x", []float32{1, nan, 0, 0, 0, 0}, y, ErrNonFinite},
		{"inf-y", x, []float32{0, inf, 0}, ErrNonFinite},
	} {
		if _, err := tr.Step(tc.x, tc.y); !errors.Is(err, tc.want) {
			t.Errorf("%s: Step = %v, want %v", tc.name, err, tc.want)
		}
	}
	if !cmp.Equal(before, m.params) || !cmp.Equal(state, tr.opt.state[0]) || tr.opt.t != 1 {
		t.Error("a rejected Step changed the model or the optimizer")
	}
}

// TestStepRejectsDivergence drives the update to overflow and checks that
// it is refused with the model, the optimizer and the dropout generator
// left exactly as they were.
func TestStepRejectsDivergence(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testStepRejectsDivergence[float32](t, 3e38) })
	t.Run("float64", func(t *testing.T) { testStepRejectsDivergence[float64](t, 1e308) })
}

// testStepRejectsDivergence uses a weight decay near T's largest value:
// the decayed gradient g + decay·p overflows for every weight with
// |p| > 1.2, and each update rule then yields an infinite or NaN
// parameter. Glorot-uniform draws stay within ±1.1 here (the output
// layer's limit √(6/5)), so the test sets one weight to 4.
func testStepRejectsDivergence[T Float](t *testing.T, decay float64) {
	for _, opt := range []Optimizer{SGD, Nesterov, RMSProp, Adam} {
		m := mustModel[T](t, Config{Inputs: 2, Hidden: []int{4}, Dropout: 0.5, Seed: 1})
		m.params[0] = 4
		tr := mustTrainer(t, m, TrainConfig{Optimizer: opt, LearningRate: 1, BatchSize: 3, Seed: 2})
		twin := mustTrainer(t, m.Clone(), TrainConfig{Optimizer: opt, LearningRate: 1, BatchSize: 3, Seed: 2})
		x, y := randomBatch[T](2, 3, 2)
		before := slices.Clone(m.params)
		tr.opt.cfg.WeightDecay = decay
		if _, err := tr.Step(x, y); !errors.Is(err, ErrDiverged) {
			t.Errorf("%v: Step = %v, want ErrDiverged", opt, err)
		}
		if diff := cmp.Diff(before, m.params); diff != "" || tr.opt.t != 0 {
			t.Errorf("%v: a rejected step changed the model:\n%s", opt, diff)
		}
		// After the rejected step the trainer must behave exactly like its
		// twin that never saw it: same dropout mask, same update.
		tr.opt.cfg.WeightDecay = 0
		for _, tt := range []*Trainer[T]{tr, twin} {
			if _, err := tt.Step(x, y); err != nil {
				t.Fatal(err)
			}
		}
		if !cmp.Equal(tr.m.params, twin.m.params) {
			t.Errorf("%v: a rejected step left a trace in the next one", opt)
		}
	}
}

// TestZeroValues calls the API on zero values and nil pointers: each call
// returns an error, none panics.
func TestZeroValues(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Seed: 1})
	x := []float32{1, 2}
	var ws Workspace[float32]
	if _, err := m.Predict(&ws, x); !errors.Is(err, ErrShape) {
		t.Errorf("Predict with a zero Workspace = %v, want ErrShape", err)
	}
	var zero Model[float32]
	if _, err := zero.Predict(zero.NewWorkspace(), nil); !errors.Is(err, ErrShape) {
		t.Errorf("zero Model Predict = %v, want ErrShape", err)
	}
	if _, err := zero.Predict(m.NewWorkspace(), x); !errors.Is(err, ErrShape) {
		t.Errorf("zero Model Predict with a real Workspace = %v, want ErrShape", err)
	}
	for name, mm := range map[string]*Model[float32]{"nil": nil, "zero": {}} {
		if _, err := NewTrainer(mm, TrainConfig{}); !errors.Is(err, ErrConfig) {
			t.Errorf("NewTrainer(%s model) = %v, want ErrConfig", name, err)
		}
	}
	var tr Trainer[float32]
	if _, err := tr.Step(x, x[:1]); !errors.Is(err, ErrConfig) {
		t.Errorf("zero Trainer Step = %v, want ErrConfig", err)
	}
	if _, err := tr.Fit(x, x[:1], FitOptions[float32]{Epochs: 1}); !errors.Is(err, ErrConfig) {
		t.Errorf("zero Trainer Fit = %v, want ErrConfig", err)
	}
}

// TestTrainConfigRepresentable checks that NewTrainer refuses values that
// the model's element type cannot hold, and buffers too large to make.
func TestTrainConfigRepresentable(t *testing.T) {
	m32 := mustModel[float32](t, Config{Inputs: 2, Seed: 1})
	for _, tc := range []struct {
		cfg   TrainConfig
		field string
	}{
		{TrainConfig{LearningRate: 1e39}, "LearningRate"}, // +Inf in float32
		{TrainConfig{Epsilon: 1e-50}, "Epsilon"},          // 0 in float32
		{TrainConfig{Beta2: 0.99999999}, "Beta2"},         // 1 in float32
		{TrainConfig{WeightDecay: 1e300}, "WeightDecay"},
	} {
		if _, err := NewTrainer(m32, tc.cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("NewTrainer[float32](%+v) = %v, want ErrConfig naming %s", tc.cfg, err, tc.field)
		}
	}
	m64 := mustModel[float64](t, Config{Inputs: 2, Seed: 1})
	if _, err := NewTrainer(m64, TrainConfig{Epsilon: 1e-50, Beta2: 0.99999999}); err != nil {
		t.Errorf("float64 represents these values: %v", err)
	}
	wide := mustModel[float32](t, Config{Inputs: 60000, Hidden: []int{1}, Seed: 1})
	if _, err := NewTrainer(wide, TrainConfig{BatchSize: 60000}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "BatchSize") {
		t.Errorf("NewTrainer with 3.6e9-element buffers = %v, want ErrConfig naming BatchSize", err)
	}
}

// TestOverflowingInput feeds a float32 model an input that is finite but
// overflows float32 once standardized.
func TestOverflowingInput(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 1, Seed: 1})
	if err := m.SetStandardization([]float64{0}, []float64{1e-10}, 0, 1e-10); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(m.NewWorkspace(), []float32{3e38}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Predict(3e38) = %v, want ErrNonFinite", err)
	}
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 1})
	if _, err := tr.Step([]float32{0}, []float32{3e38}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Step with target 3e38 = %v, want ErrNonFinite", err)
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

func testStandardizeRowsInputZ[T Float](t *testing.T) {
	m := mustModel[T](t, Config{Inputs: 3, Seed: 1})
	if err := m.SetStandardization([]float64{1, -2, 0}, []float64{0.5, 3, 1e-30}, 0, 1); err != nil {
		t.Fatal(err)
	}
	over := 1e10 // ·1e30 overflows float32
	if _, ok := any(T(0)).(float64); ok {
		over = 1e280
	}
	big, inf := T(over), T(math.Inf(1))
	for _, tc := range []struct {
		x  []T
		ok bool
	}{
		{[]T{1, -2, 0}, true},                       // every u 0
		{[]T{-3, 7, T(math.Copysign(0, -1))}, true}, // |u| 8, 3, 0: the largest first
		{[]T{1.25, -11, -2e-30}, true},              // 0.5, 3, 2: the largest second, signs mixed
		{[]T{0, 0, 5e-30}, true},                    // 2, 0.667, 5: the largest last
		{[]T{0, 0, big}, false},                     // overflows T once standardized
		{[]T{inf, 0, 0}, false},
		{[]T{0, -inf, 0}, false},
		{[]T{0, 0, T(math.NaN())}, false},
	} {
		x := append(append([]T{0.5, -1, 0}, tc.x...), 2, 2, 2) // three rows: the case in the middle
		u, z := make([]T, len(x)), make([]float64, 3)
		err := m.standardizeRows(u, x, z)
		if !tc.ok {
			if err != ErrNonFinite {
				t.Errorf("%v: err %v, want ErrNonFinite", tc.x, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.x, err)
		}
		for r := range 3 {
			want := 0.0
			for j := range 3 {
				w := T((float64(x[3*r+j]) - m.xMean[j]) * m.xInvScale[j])
				if u[3*r+j] != w {
					t.Errorf("%v: u[%d] = %v, want %v", tc.x, 3*r+j, u[3*r+j], w)
				}
				want = max(want, math.Abs(float64(w)))
			}
			if math.Float64bits(z[r]) != math.Float64bits(want) {
				t.Errorf("%v: row %d InputZ %v, want %v", tc.x, r, z[r], want)
			}
		}
	}
}

func TestPredictRejectsBadInput(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 3, Seed: 1})
	ws := m.NewWorkspace()
	other := mustModel[float64](t, Config{Inputs: 3, Hidden: []int{7}})
	out := make([]Prediction, 2)
	for _, tc := range []struct {
		name string
		ws   *Workspace[float64]
		x    []float64
		want error
	}{
		{"short", ws, []float64{1, 2}, ErrShape},
		{"nil-workspace", nil, []float64{1, 2, 3}, ErrShape},
		{"other-shape-workspace", other.NewWorkspace(), []float64{1, 2, 3}, ErrShape},
		{"nan", ws, []float64{1, math.NaN(), 3}, ErrNonFinite},
		{"inf", ws, []float64{math.Inf(-1), 2, 3}, ErrNonFinite},
	} {
		if _, err := m.Predict(tc.ws, tc.x); !errors.Is(err, tc.want) {
			t.Errorf("%s: Predict = %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := m.PredictBatch(ws, make([]float64, 5), out); !errors.Is(err, ErrShape) {
		t.Errorf("PredictBatch with 5 values for 2 rows = %v, want ErrShape", err)
	}
	p, err := m.Predict(ws, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []float64{0, 1, -0.5, math.NaN()} {
		if _, _, err := p.Interval(level); !errors.Is(err, ErrLevel) {
			t.Errorf("Interval(%v) = %v, want ErrLevel", level, err)
		}
		if _, err := p.Quantile(level); !errors.Is(err, ErrProbability) {
			t.Errorf("Quantile(%v) = %v, want ErrProbability", level, err)
		}
	}
}

// TestPredictionInOriginalUnits checks that standardization is undone
// exactly: a target standardized as (y − a)/s has the prior
// (a + s·m, ν, α, s²·β) (the normal-gamma family's affine map).
func TestPredictionInOriginalUnits(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{5}, Seed: 4})
	ws := m.NewWorkspace()
	x := []float64{0.3, -1.2}
	raw, err := m.Predict(ws, x)
	if err != nil {
		t.Fatal(err)
	}
	const a, s = 1000, 25
	xs := []float64{0.3*3 + 5, -1.2*3 + 5} // the same network input under x ↦ (x−5)/3
	if err := m.SetStandardization([]float64{5, 5}, []float64{3, 3}, a, s); err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(ws, xs)
	if err != nil {
		t.Fatal(err)
	}
	want := Prediction{Mean: a + s*raw.Mean, Var: s * s * raw.Var, VarCorrected: s * s * raw.VarCorrected,
		Alpha: raw.Alpha, Beta: s * s * raw.Beta, Nu: raw.Nu, VarAleatoric: s * s * raw.Var,
		InputZ: 1.2, Members: 1} // |−1.2| before, |(−1.2·3+5−5)/3| after
	// A few roundings in the affine maps and the network input: 1e-13.
	if diff := cmp.Diff(want, got, cmpRel(1e-13)); diff != "" {
		t.Errorf("prediction after standardization (-want +got):\n%s", diff)
	}
	lo, hi, err := got.Interval(0.9)
	if err != nil {
		t.Fatal(err)
	}
	// The interval holds its level of the predictive mass, and quantiles
	// invert the CDF; both within the Student-t functions' 1e-12.
	if mass := got.CDF(hi) - got.CDF(lo); math.Abs(mass-0.9) > 1e-12 {
		t.Errorf("interval mass %.15g, want 0.9", mass)
	}
	q, err := got.Quantile(0.3)
	if err != nil || math.Abs(got.CDF(q)-0.3) > 1e-12 {
		t.Errorf("CDF(Quantile(0.3)) = %.15g (err %v), want 0.3", got.CDF(q), err)
	}
}

// TestPredictAlphaAtOne checks Var where the learned α rounds to 1: with
// the α head's output fixed at −60, α−1 = softplus(−60) ≈ 8.8e-27 is far
// below half the spacing of float64 at 1, so α = 1 exactly, and Var =
// σ/(α−1) must still be finite, divided by the link's α−1 (to within the
// link kernels' tolerance, simd_test.go's ktSoftplusTol), on every kernel
// table.
func TestPredictAlphaAtOne(t *testing.T) {
	t.Run("float32", testPredictAlphaAtOne[float32])
	t.Run("float64", testPredictAlphaAtOne[float64])
}

func testPredictAlphaAtOne[T Float](t *testing.T) {
	for _, k := range []*kernelSet[T]{kernelsFor[T](), genericKernelsFor[T]()} {
		m := mustModel[T](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 1})
		m.k = k
		out := m.lay.layers[len(m.lay.hidden)]
		clear(blockW(m.params, out, headAlpha))
		blockB(m.params, out, headAlpha)[0] = -60
		p, err := m.Predict(m.NewWorkspace(), []T{0.5, -1})
		if err != nil {
			t.Fatal(err)
		}
		want := p.Prior().sigma() / softplus(-60)
		if p.Alpha != 1 || !(math.Abs(p.Var-want) <= ktSoftplusTol[T]()*want) || !finite(p.VarCorrected) {
			t.Errorf("%s kernels: Alpha %v, Var %v (want %v), VarCorrected %v", k.name, p.Alpha, p.Var, want, p.VarCorrected)
		}
	}
}

// cmpRel compares float64s to a relative tolerance.
func cmpRel(tol float64) cmp.Option {
	return cmp.Comparer(func(a, b float64) bool {
		return a == b || math.Abs(a-b) <= tol*max(math.Abs(a), math.Abs(b))
	})
}

// TestConcurrentPredict predicts from one model on many goroutines, each
// with its own Workspace, and compares with serial results; under -race it
// also checks that prediction does not write shared state.
func TestConcurrentPredict(t *testing.T) {
	for _, members := range []int{1, 5} {
		t.Run(fmt.Sprintf("members=%d", members), func(t *testing.T) { testConcurrentPredict(t, members) })
	}
}

func testConcurrentPredict(t *testing.T, members int) {
	m := trainFew[float32](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 2, Members: members}, TrainConfig{BatchSize: 4}, 5)
	x, _ := randomBatch[float32](3, 100, 3)
	want := make([]Prediction, 100)
	if err := m.PredictBatch(m.NewWorkspace(), x, want); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := m.NewWorkspace()
			for i := 0; i < 100; i++ {
				p, err := m.Predict(ws, x[i*3:i*3+3])
				if err != nil || p != want[i] {
					errs <- errors.New("concurrent prediction differs from serial")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

var sinkLoss float64
var sinkPrediction Prediction

func testAllocs[T Float](t *testing.T, loss Loss, members int) {
	m := mustModel[T](t, Config{Inputs: 5, Hidden: []int{16}, Dropout: 0.1, Loss: loss, Seed: 1, Members: members})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 8})
	weighted := mustTrainer(t, m, TrainConfig{BatchSize: 8, ScaleWeighting: 0.5})
	x, y := randomBatch[T](1, 8, 5)
	ws := m.NewWorkspace()
	xb, _ := randomBatch[T](2, 150, 5) // more rows than a workspace holds
	out := make([]Prediction, 150)
	must := func(err error) {
		if err != nil {
			t.Fatal(err) // an early error return would allocate nothing
		}
	}
	bad := slices.Clone(x[:5])
	bad[2] = T(math.NaN())
	badY := slices.Clone(y)
	badY[3] = T(math.Inf(1))
	rejects := func(err, want error) {
		if !errors.Is(err, want) {
			t.Fatalf("got %v, want %v", err, want)
		}
	}
	for name, f := range map[string]func(){
		// Error paths return bare sentinels: no allocation either.
		"Predict-NaN":   func() { _, err := m.Predict(ws, bad); rejects(err, ErrNonFinite) },
		"Predict-short": func() { _, err := m.Predict(ws, x[:4]); rejects(err, ErrShape) },
		"Step-empty":    func() { _, err := tr.Step(nil, nil); rejects(err, ErrBatch) },
		"Step-mismatch": func() { _, err := tr.Step(x, bad[:1]); rejects(err, ErrShape) },
		"Step-NaN":      func() { _, err := tr.Step(x, badY); rejects(err, ErrNonFinite) },
		"Quantile-bad":  func() { _, err := sinkPrediction.Quantile(2); rejects(err, ErrProbability) },
		"Step": func() {
			var err error
			sinkLoss, err = tr.Step(x, y)
			must(err)
		},
		"Step-ScaleWeighting": func() {
			var err error
			sinkLoss, err = weighted.Step(x, y)
			must(err)
		},
		"Predict": func() {
			var err error
			sinkPrediction, err = m.Predict(ws, x[:5])
			must(err)
		},
		"PredictBatch": func() { must(m.PredictBatch(ws, xb, out)) },
		"Interval": func() {
			var err error
			sinkLoss, _, err = sinkPrediction.Interval(0.95)
			must(err)
		},
		"Quantile": func() {
			var err error
			sinkLoss, err = sinkPrediction.Quantile(0.9)
			must(err)
		},
		"LogPDF-CDF": func() { sinkLoss = sinkPrediction.LogPDF(0.5) + sinkPrediction.CDF(0.5) },
	} {
		if a := testing.AllocsPerRun(50, f); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

func TestAllocs(t *testing.T) {
	for _, loss := range allLosses {
		for _, k := range []int{1, 3} {
			name := fmt.Sprintf("%v/members=%d", loss, k)
			t.Run(name+"/float32", func(t *testing.T) { testAllocs[float32](t, loss, k) })
			t.Run(name+"/float64", func(t *testing.T) { testAllocs[float64](t, loss, k) })
		}
	}
}

// allLosses are the losses a Config can select.
var allLosses = []Loss{LossGCP, LossGaussianML, LossDPD, LossMLBayes}

// TestMCMaskBound checks Config's bound on the MC-dropout masks: an
// ML_Bayes model holds MCSamples dropout masks of the last hidden layer's width, which no limit covered, so a
// 24.7 KB file (Hidden {1024}, MCSamples 4096) made the loader allocate
// 200 MB. Config bounds the masks at maxMCMask elements, and loading that
// file must be cheap and fail with ErrConfig. The file is built here, a
// valid model with MCSamples 64 whose stored MCSamples is set to 4096 and
// whose CRCs are fixed; it was FuzzUnmarshal's largest corpus entry, 100
// times the size of its seeds, too large for the engine to minimize what
// it mutates from it.
// regression: a 24.7 KB file made the loader allocate 200 MB (issue 11).
func TestMCMaskBound(t *testing.T) {
	cfg := Config{Inputs: 1, Hidden: []int{1024}, Loss: LossMLBayes, Dropout: 0.5, MCSamples: 4096}
	if _, err := New[float32](cfg); !errors.Is(err, ErrConfig) {
		t.Errorf("New with %d mask elements = %v, want ErrConfig", 4096*2*1024, err)
	}
	ok := cfg
	ok.Hidden, ok.MCSamples = []int{maxMCMask / 2 / 64}, 64 // exactly maxMCMask
	if _, err := New[float32](ok); err != nil {
		t.Errorf("New with maxMCMask mask elements: %v", err)
	}
	ok.Hidden, ok.MCSamples = []int{1024}, 64
	data := mustModel[float32](t, ok).encode()
	le.PutUint32(data[headerLen+4*len(ok.Hidden)+35:], 4096) // MCSamples, at the offset fuzzMCMask reads
	data = persistFixCRCs(data)
	var m Model[float64]
	var err error
	// The bound of FuzzUnmarshal for a model without masks.
	if alloc := persistAllocated(func() { err = m.UnmarshalBinary(data) }); alloc > 20*uint64(len(data))+64<<10 {
		t.Errorf("loading %d bytes allocated %d", len(data), alloc)
	}
	if !errors.Is(err, ErrConfig) {
		t.Errorf("UnmarshalBinary = %v, want ErrConfig", err)
	}
}

// TestNilReceivers calls the methods of a nil *Model and a nil *Trainer:
// Predict, NewWorkspace, Clone, NumParams, Config, UnmarshalBinary and Step
// panicked there, while MarshalBinary and NewTrainer returned ErrConfig.
// Every exported
// method, found by reflection so that a new one is covered too, is called
// on a nil receiver with zero arguments: none may panic, and every error
// it returns must match ErrConfig.
// regression: methods of a nil *Model or *Trainer panicked (issue 11).
func TestNilReceivers(t *testing.T) {
	for _, recv := range []any{(*Model[float64])(nil), (*Model[float32])(nil), (*Trainer[float64])(nil), (*Trainer[float32])(nil)} {
		v := reflect.ValueOf(recv)
		for i := 0; i < v.NumMethod(); i++ {
			name := fmt.Sprintf("(%T).%s", recv, v.Type().Method(i).Name)
			method := v.Method(i)
			args := make([]reflect.Value, method.Type().NumIn())
			for j := range args {
				args[j] = reflect.Zero(method.Type().In(j))
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panics: %v", name, r)
					}
				}()
				out := method.Call(args)
				if n := len(out); n > 0 && out[n-1].Type() == reflect.TypeFor[error]() {
					if err, _ := out[n-1].Interface().(error); !errors.Is(err, ErrConfig) {
						t.Errorf("%s = %v, want ErrConfig", name, err)
					}
				}
			}()
		}
	}
	var m *Model[float64]
	if _, err := m.Predict(m.NewWorkspace(), []float64{1}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil Model: Predict with its own Workspace = %v, want ErrConfig", err)
	}
	if c := m.Clone(); c != nil || m.NumParams() != 0 {
		t.Errorf("nil Model: Clone %v, NumParams %d, want nil and 0", c, m.NumParams())
	}
}

// TestEnsembleConfig checks Members' validation and defaults.
func TestEnsembleConfig(t *testing.T) {
	for _, k := range []int{-1, MaxMembers + 1} {
		if _, err := New[float32](Config{Inputs: 2, Members: k}); !errors.Is(err, ErrConfig) {
			t.Errorf("Members = %d: got %v, want ErrConfig", k, err)
		}
	}
	one := mustModel[float32](t, Config{Inputs: 2})
	if got := one.Config().Members; got != 1 {
		t.Errorf("default Members = %d, want 1", got)
	}
	five := mustModel[float32](t, Config{Inputs: 2, Members: 5})
	if got, want := five.NumParams(), 5*one.NumParams(); got != want {
		t.Errorf("5 members have %d parameters, want 5 × %d", got, one.NumParams())
	}
	// A workspace of a single network does not serve an ensemble of the
	// same total width.
	wide := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Members: 2, Loss: LossGaussianML})
	narrow := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}})
	if _, err := wide.Predict(narrow.NewWorkspace(), []float32{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("a 4-head single network's workspace for 2 members of 2 heads: got %v, want ErrShape", err)
	}
}

// TestEnsembleOneMemberUnchanged checks that Members: 1 is today's model:
// the same parameters, predictions and saved bytes as a Config without
// Members, for every loss.
func TestEnsembleOneMemberUnchanged(t *testing.T) {
	for _, loss := range allLosses {
		cfg := Config{Inputs: 3, Hidden: []int{5}, Loss: loss, Seed: 4}
		if loss == LossMLBayes {
			cfg.Dropout = 0.3
		}
		a := trainFew[float64](t, cfg, TrainConfig{BatchSize: 4, Seed: 2}, 5)
		cfg.Members = 1
		b := trainFew[float64](t, cfg, TrainConfig{BatchSize: 4, Seed: 2}, 5)
		ba, _ := a.MarshalBinary()
		bb, _ := b.MarshalBinary()
		if string(ba) != string(bb) {
			t.Errorf("%v: Members 1 saves other bytes than Members 0", loss)
		}
		x, _ := randomBatch[float64](9, 3, 3)
		pa, pb := make([]Prediction, 3), make([]Prediction, 3)
		if err := a.PredictBatch(a.NewWorkspace(), x, pa); err != nil {
			t.Fatal(err)
		}
		if err := b.PredictBatch(b.NewWorkspace(), x, pb); err != nil {
			t.Fatal(err)
		}
		for i := range pa {
			if pa[i] != pb[i] || pa[i].Members != 1 || pa[i].Components != [MaxMembers]Component{} {
				t.Errorf("%v row %d: %+v and %+v", loss, i, pa[i], pb[i])
			}
		}
	}
}
