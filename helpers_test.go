// Test helpers shared by the test files of several sources: models and
// trainers built or fitted in one call, random data, and checks of a
// prediction's sanity.

package gcp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fitFresh trains a fresh Model[T] of cfg on the row-major x and y for
// epochs epochs and returns it.
func fitFresh[T Float](t *testing.T, cfg Config, x, y []float64, epochs int) *Model[T] {
	t.Helper()
	m := mustModel[T](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 8, LearningRate: 1e-2})
	if _, err := tr.Fit(convertTo[T](x), convertTo[T](y), FitOptions[T]{Epochs: epochs, Seed: 1}); err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return m
}

// convertTo returns v converted to T.
func convertTo[T Float](v []float64) []T {
	out := make([]T, len(v))
	for i, f := range v {
		out[i] = T(f)
	}
	return out
}

// checkSane fails t unless p, a prediction returned with a nil error, has
// a finite mean, finite positive variances and a finite 95% interval
// around its mean: what Prediction promises.
func checkSane(t *testing.T, p Prediction) {
	t.Helper()
	lo, hi, err := p.Interval(0.95)
	// lo = Mean = hi is allowed: a variance of 1e-80 has a 95% half-width
	// far below half an ulp of the mean.
	if err != nil || !finite(p.Mean) || !positiveFinite(p.Var) || !positiveFinite(p.VarCorrected) ||
		!finite(lo) || !finite(hi) || !(lo <= p.Mean && p.Mean <= hi) {
		t.Fatalf("prediction %+v with 95%% interval [%v, %v] (%v): want a finite mean, variances and interval", p, lo, hi, err)
	}
}

// repeat returns count copies of s, end to end.
func repeat(s []float64, count int) []float64 {
	out := make([]float64, 0, len(s)*count)
	for i := 0; i < count; i++ {
		out = append(out, s...)
	}
	return out
}

// embedMember copies the parameters of the single network s into member
// k of the ensemble e, a model of the same Config but for Members: in the
// stacked first layer, s's head h occupies the columns of e's head
// e.lay.head(h, k); in the later, block-diagonal layers, its block.
func embedMember[T Float](e, s *Model[T], k int) {
	el, sl := e.lay, s.lay
	for i, ly := range sl.layers {
		ely := el.layers[i]
		if i > 0 {
			for h := range sl.heads {
				copy(blockW(e.params, ely, el.head(h, k)), blockW(s.params, ly, h))
				copy(blockB(e.params, ely, el.head(h, k)), blockB(s.params, ly, h))
			}
			continue
		}
		u := sl.hidden[0]
		for h := range sl.heads {
			at := el.head(h, k) * u
			for j := range sl.inputs { // input-major: row j holds every head's units
				copy(e.params[ely.w+j*ely.rows+at:][:u], s.params[ly.w+j*ly.rows+h*u:][:u])
			}
			copy(e.params[ely.b+at:][:u], s.params[ly.b+h*u:][:u])
		}
	}
}

// ensembleOfSingles returns K single networks of cfg, seeded 1..K, and
// the ensemble of K members holding exactly their parameters, all with
// the same standardization.
func ensembleOfSingles(t *testing.T, cfg Config, members int) (*Model[float64], []*Model[float64]) {
	t.Helper()
	ecfg := cfg
	ecfg.Members = members
	e := mustModel[float64](t, ecfg)
	xm, xs := make([]float64, cfg.Inputs), make([]float64, cfg.Inputs)
	for j := range xm {
		xm[j], xs[j] = 0.1*float64(j), 1+0.5*float64(j)
	}
	singles := make([]*Model[float64], members)
	for k := range singles {
		c := cfg
		c.Seed = uint64(k + 1)
		singles[k] = mustModel[float64](t, c)
		embedMember(e, singles[k], k)
	}
	for _, m := range append([]*Model[float64]{e}, singles...) {
		if err := m.SetStandardization(xm, xs, 0.5, 2); err != nil {
			t.Fatal(err)
		}
	}
	return e, singles
}

// ngEps is the unit roundoff of float64.
const ngEps = 0x1p-52

// fitSynthetic trains a float32 GCP network on one input, with the
// hyperparameters the synthetic tests share.
func fitSynthetic(t *testing.T, x, y []float32) *Model[float32] {
	t.Helper()
	m := mustModel[float32](t, Config{Inputs: 1, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 32, Seed: 1})
	if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: 1500, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return m
}

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

// cmpRel compares float64s to a relative tolerance, and Predictions
// with their unexported score map (zero but for a conditional marginal).
func cmpRel(tol float64) cmp.Option {
	return cmp.Options{cmp.Comparer(func(a, b float64) bool {
		return a == b || math.Abs(a-b) <= tol*max(math.Abs(a), math.Abs(b))
	}), cmp.AllowUnexported(Prediction{}, scoreMap{})}
}

// allLosses are the losses a Config can select.
var allLosses = []Loss{LossGCP, LossGaussianML, LossDPD, LossMLBayes}

var sinkLoss float64

var sinkPrediction Prediction

// checkParamGradient compares grad, the gradient of an objective with
// respect to the parameters p, with central differences of step h of
// eval, the objective at the current p, and reports each parameter whose
// relative error is above tol, what names the gradient (such as
// "backprop"). The error is relative to |grad[i]|, floored at 1e-3 of the
// largest |grad|, so that the zero gradients of dead or dropped units stay
// meaningful. It logs the worst error and leaves p as it found it.
func checkParamGradient(t *testing.T, what string, p, grad []float64, h, tol float64, eval func() float64) {
	t.Helper()
	gmax := 0.0
	for _, g := range grad {
		gmax = max(gmax, math.Abs(g))
	}
	worst := 0.0
	for i := range p {
		orig := p[i]
		p[i] = orig + h
		fp := eval()
		p[i] = orig - h
		fm := eval()
		p[i] = orig
		fd := (fp - fm) / (2 * h)
		rel := math.Abs(fd-grad[i]) / max(math.Abs(grad[i]), 1e-3*gmax)
		worst = max(worst, rel)
		if rel > tol {
			t.Errorf("param %d: %s %.12g, finite difference %.12g (rel %.2g)", i, what, grad[i], fd, rel)
		}
	}
	t.Logf("%d parameters, worst relative error %.2g", len(p), worst)
}
