package gcp

import (
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// pathologicalCase is a training set that breaks naive code, and what a
// trained model must predict for its first input row.
type pathologicalCase struct {
	name string
	x, y []float64
	// check judges the prediction for the first row; nil accepts any
	// finite prediction.
	check func(p Prediction) bool
	want  string
}

// repeat returns count copies of s, end to end.
func repeat(s []float64, count int) []float64 {
	out := make([]float64, 0, len(s)*count)
	for i := 0; i < count; i++ {
		out = append(out, s...)
	}
	return out
}

func pathologicalCases() []pathologicalCase {
	const n, d = 200, 3
	x, y := randomBatch[float64](1, n, d) // y ~ N(0, 4), independent of x
	constant := repeat([]float64{7}, n)
	huge := slices.Clone(y)
	for i := range huge {
		huge[i] *= 1e30
	}
	outlier := slices.Clone(y)
	outlier[17] = 1e300
	dupX, dupY := repeat(x[:10*d], 20), repeat(y[:10], 20)
	return []pathologicalCase{
		// Adam's steps are about lr = 1e-2 long whatever the gradient, so
		// once the variance has collapsed the last iterate wanders around
		// 7 by up to about lr: 0.0100 (float64) and 0.0077 (float32)
		// measured, 2·lr allowed.
		{"constant-targets", x, constant,
			func(p Prediction) bool { return math.Abs(p.Mean-7) < 2e-2 && p.VarCorrected < 1e-3 },
			"mean within 0.02 of 7 and a variance below 1e-3"},
		{"targets-1e30", x, huge,
			func(p Prediction) bool {
				return math.Abs(p.Mean) < 1e31 && p.VarCorrected > 1e58 && p.VarCorrected < 1e62
			},
			"a mean and variance on the data's scale (sd 2e30)"},
		{"one-sample", x[:d], y[:1],
			func(p Prediction) bool { return math.Abs(p.Mean-y[0]) < 1e-2 },
			"the sample's target"},
		{"duplicated-rows", dupX, dupY, nil, "finite"},
		{"outlier-1e300", x, outlier,
			func(p Prediction) bool { return math.Abs(p.Mean) < 2 && p.VarCorrected < 20 },
			"the clean data's scale (mean 0, sd 2), not the outlier's"},
		{"all-zero-features", make([]float64, n*d), y,
			func(p Prediction) bool { return math.Abs(p.Mean) < 0.5 && math.Abs(p.VarCorrected-4) < 1.5 },
			"the targets' mean 0 and variance 4, up to sampling noise"},
	}
}

// fitPathological trains a small model of type T on c and checks that
// training either succeeds with finite parameters and a sane prediction,
// or fails with wantErr leaving the model as it was.
func fitPathological[T Float](t *testing.T, c pathologicalCase, wantErr error) {
	x, y := make([]T, len(c.x)), make([]T, len(c.y))
	for i, v := range c.x {
		x[i] = T(v)
	}
	for i, v := range c.y {
		y[i] = T(v)
	}
	m := mustModel[T](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 1})
	before := slices.Clone(m.params)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 16, LearningRate: 1e-2})
	_, err := tr.Fit(x, y, FitOptions[T]{Epochs: 300})
	if wantErr != nil {
		if !errors.Is(err, wantErr) || !slices.Equal(before, m.params) {
			t.Fatalf("Fit = %v, want %v with the model unchanged", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	if !m.k.allFinite(m.params) {
		t.Fatal("training left a non-finite parameter")
	}
	p, err := m.Predict(m.NewWorkspace(), x[:3])
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{p.Mean, p.VarCorrected, p.Alpha, p.Beta, p.Nu} {
		if !finite(v) {
			t.Fatalf("prediction %+v is not finite", p)
		}
	}
	if c.check != nil && !c.check(p) {
		t.Errorf("prediction %+v, want %s", p, c.want)
	}
}

// TestPathologicalData trains on data sets that break naive code. Every
// one must train to finite parameters and a prediction on the data's own
// scale, or fail with an error and an unchanged model: a target of 1e300
// does not exist in float32, so there it is refused as non-finite input.
func TestPathologicalData(t *testing.T) {
	for _, c := range pathologicalCases() {
		t.Run(c.name+"/float64", func(t *testing.T) { fitPathological[float64](t, c, nil) })
		var err32 error
		if c.name == "outlier-1e300" {
			err32 = ErrNonFinite
		}
		t.Run(c.name+"/float32", func(t *testing.T) { fitPathological[float32](t, c, err32) })
	}
}

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

// TestTrainerAfterReshape loads a model of another shape into a model a
// trainer was built for: the trainer's buffers no longer fit, and Step
// must say so instead of indexing out of range.
func TestTrainerAfterReshape(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 2})
	other := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{9}, Seed: 2})
	b, err := other.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step([]float32{1, 2, 3, 4}, []float32{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("Step after a reshape = %v, want ErrShape", err)
	}
}

// TestHotSwap exercises the documented pattern for training while serving:
// goroutines predict from the model an atomic.Pointer holds, while a
// trainer trains a clone and publishes it. Under -race it shows that
// prediction never reads what training writes.
func TestHotSwap(t *testing.T) {
	var live atomic.Pointer[Model[float32]]
	live.Store(mustModel[float32](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 1}))
	x, y := randomBatch[float32](2, 32, 3)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := live.Load().NewWorkspace() // fits every model of the same shape
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p, err := live.Load().Predict(ws, x[(i%32)*3:(i%32)*3+3])
				if err != nil || !finite(p.Mean) || !finite(p.VarCorrected) {
					errs <- errors.New("prediction during a swap failed")
					return
				}
			}
		}()
	}
	for swap := 0; swap < 10; swap++ {
		next := live.Load().Clone()
		tr := mustTrainer(t, next, TrainConfig{BatchSize: 32})
		for s := 0; s < 5; s++ {
			if _, err := tr.Step(x, y); err != nil {
				t.Fatal(err)
			}
		}
		live.Store(next)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// FuzzNormalGamma calls every NormalGamma method on arbitrary values. No
// call may panic, and for a valid prior (finite m, finite positive ν, α, β)
// and a finite y no result may be NaN: the extremes (α → ∞, ν → 0,
// |y − m| → ∞, overflow of σ) give limits such as ±Inf or 0 instead. KL is
// excepted when the posterior's β′ = β + ν(y−m)²/(2(ν+1)) overflows, where
// its closed form meets ∞ − ∞.
func FuzzNormalGamma(f *testing.F) {
	f.Add(0.0, 1.0, 2.0, 1.0, 0.5, 0.1)
	f.Add(1e308, 1e-308, 1e6, 1e308, -1e308, 1e300)
	f.Add(0.0, 1e-300, 1e-300, 1e-300, 1e300, 1.0)
	f.Add(-3.0, 1e300, 1e300, 5e-324, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, m, nu, alpha, beta, y, lr float64) {
		p := NormalGamma{M: m, Nu: nu, Alpha: alpha, Beta: beta}
		lp := p.LogPredictive(y)
		dm, da, db, dn := p.Grad(y)
		post := p.Posterior(y)
		kl := post.KL(p)
		step := p.GCPStep(y, lr)
		v, vc := p.Var(), p.VarCorrected()
		c, q := p.CDF(y), p.Quantile(0.3)
		_, _, _ = p.Interval(0.9)
		ok := finite(m) && finite(y) && positiveFinite(nu) && positiveFinite(alpha) && positiveFinite(beta)
		if !ok {
			return
		}
		for name, r := range map[string]float64{"LogPredictive": lp, "∂m": dm, "∂α": da, "∂β": db, "∂ν": dn,
			"Var": v, "VarCorrected": vc, "CDF": c, "Quantile": q, "Posterior.M": post.M, "Posterior.Beta": post.Beta} {
			if math.IsNaN(r) {
				t.Fatalf("%s(%+v, y=%g) = NaN", name, p, y)
			}
		}
		if math.IsNaN(kl) && finite(post.Beta) {
			t.Fatalf("KL(%+v ‖ %+v) = NaN", post, p)
		}
		if c < 0 || c > 1 {
			t.Fatalf("CDF(%+v, %g) = %g", p, y, c)
		}
		if lr >= 0 && finite(lr) && !(step.Nu > 0 && step.Alpha > 0 && step.Beta > 0 && !math.IsNaN(step.M)) {
			t.Fatalf("GCPStep(%+v, y=%g, lr=%g) = %+v leaves the domain", p, y, lr, step)
		}
	})
}

// TestDropoutMask checks the mask's statistics: a share p of zeros and, by
// inverted dropout, a mean of 1. Over n = 200000 units the share of zeros
// has standard deviation √(p(1−p)/n) ≈ 0.001 for p = 0.3; 5 of those
// bound it, and the mean 1/(1−p)·(share kept) inherits the same bound.
func TestDropoutMask(t *testing.T) {
	const p, n = 0.3, 200000
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Dropout: p, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 1, Seed: 3})
	mask := make([]float32, n)
	tr.drawMask(mask)
	var zeros int
	var sum float64
	for _, v := range mask {
		if v == 0 {
			zeros++
		}
		sum += float64(v)
	}
	tol := 5 * math.Sqrt(p*(1-p)/n)
	if share := float64(zeros) / n; math.Abs(share-p) > tol {
		t.Errorf("dropped share %.4f, want %.2f ± %.4f", share, p, tol)
	}
	if mean := sum / n; math.Abs(mean-1) > tol/(1-p) {
		t.Errorf("mask mean %.4f, want 1 ± %.4f", mean, tol/(1-p))
	}
}
