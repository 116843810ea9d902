package gcp

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

// TestMCMaskBound checks Config's bound on the MC-dropout masks, which an
// ML_Bayes model holds beside its parameters: loading a 24.7 KB file with
// Hidden {1024} and MCSamples 4096 must be cheap and fail with ErrConfig.
// The file is built here, a valid model with MCSamples 64 whose stored
// MCSamples is set to 4096 and whose CRCs are fixed.
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

// TestNilReceivers calls every exported method of a nil *Model and a nil
// *Trainer, found by reflection so that a new one is covered too, with
// zero arguments: none may panic, and every error it returns must match
// ErrConfig.
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
