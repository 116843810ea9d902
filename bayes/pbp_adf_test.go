package bayes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomModel returns an untrained model of shape cfg whose weight means
// and variances are drawn from seed, far from their initial values, so
// that every term of the moment equations matters.
func randomModel(t *testing.T, cfg PBPConfig, seed uint64) *PBP {
	t.Helper()
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	m := newModel(cfg)
	m.initialize()
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range m.mean {
		m.mean[i], m.variance[i] = r.NormFloat64(), 0.05+0.5*r.Float64()
	}
	for j := range m.xScale {
		m.xScale[j] = 1
	}
	m.yScale = 1
	return m
}

// TestADFLinearIsKalman checks PBP's ADF step on a network with no hidden
// layer, y = w·x̃ + noise with x̃ = (x, 1)/√(d+1) and a known noise
// variance σ², against the closed form of the same step: for a linear
// Gaussian model the tilted distribution is Gaussian, and projecting it
// on a factorized Gaussian keeps the Kalman (Bayesian linear regression)
// update's means and the diagonal of its covariance,
//
//	m' = m + v∘x̃ (y − m·x̃)/S,   v' = v − v²∘x̃²/S,   S = σ² + Σ v x̃².
//
// The step runs through adfStep, the code path of training: propagate,
// the gradients of the Gaussian log Z and momentUpdate. Both sides take a
// handful of roundings on values of order 1, so they agree to 1e-14
// relative; 1e-13 allows for the different order of operations.
func TestADFLinearIsKalman(t *testing.T) {
	const d = 3
	for seed := range uint64(5) {
		m := randomModel(t, PBPConfig{Inputs: d, Hidden: []int{}}, seed)
		r := rand.New(rand.NewPCG(seed, 1))
		x := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		y := r.NormFloat64()
		noiseVar := 0.1 + r.Float64()
		a := 3.5 // any shape > 1; the rate fixes b/(a−1) = noiseVar
		b := noiseVar * (a - 1)

		xt := append(append([]float64{}, x...), 1)
		var mu, s float64
		for i := range xt {
			xt[i] /= math.Sqrt(d + 1)
			mu += m.mean[i] * xt[i]
			s += m.variance[i] * xt[i] * xt[i]
		}
		s += noiseVar
		wantM, wantV := make([]float64, d+1), make([]float64, d+1)
		for i := range xt {
			wantM[i] = m.mean[i] + m.variance[i]*xt[i]*(y-mu)/s
			wantV[i] = m.variance[i] - m.variance[i]*m.variance[i]*xt[i]*xt[i]/s
		}

		newTrainer(m).adfStep(x, y, a, b)
		for i := range xt {
			if !close(m.mean[i], wantM[i], 1e-13) || !close(m.variance[i], wantV[i], 1e-13) {
				t.Errorf("seed %d, weight %d: ADF gives N(%.17g, %.17g), Kalman N(%.17g, %.17g)",
					seed, i, m.mean[i], m.variance[i], wantM[i], wantV[i])
			}
		}
	}
}

// TestLogZGradientFiniteDifferences checks backward's gradient of log Z =
// log N(y | μ, σ² + noise) with respect to every weight's mean and
// variance in a network with two hidden layers against central finite
// differences of log Z computed by propagate. The steps are 1e-6 for a
// mean and 1e-6·v for a variance: truncation error O(h²) ≈ 1e-12 and
// rounding error about ulp(log Z)/h ≈ 1e-10, so a tolerance of 1e-7
// absolute plus 1e-6 relative is loose for a correct gradient and far
// below what a wrong term would give.
func TestLogZGradientFiniteDifferences(t *testing.T) {
	m := randomModel(t, PBPConfig{Inputs: 3, Hidden: []int{4, 3}}, 11)
	x, y, noise := []float64{0.3, -1.2, 0.8}, 0.6, 0.25
	tr := newTrainer(m)
	logZ := func() float64 {
		copy(tr.ws.input(m), x)
		mu, s2 := m.propagate(tr.ws)
		s := s2 + noise
		return -0.5 * (math.Log(2*math.Pi*s) + (y-mu)*(y-mu)/s)
	}
	copy(tr.ws.input(m), x)
	mu, s2 := m.propagate(tr.ws)
	tr.backward(y-mu, s2+noise)
	for i := range m.mean {
		for _, which := range []struct {
			name string
			p    *float64
			h    float64
			grad float64
		}{
			{"mean", &m.mean[i], 1e-6, tr.gradM[i]},
			{"variance", &m.variance[i], 1e-6 * m.variance[i], tr.gradV[i]},
		} {
			orig := *which.p
			*which.p = orig + which.h
			up := logZ()
			*which.p = orig - which.h
			down := logZ()
			*which.p = orig
			fd := (up - down) / (2 * which.h)
			if math.Abs(which.grad-fd) > 1e-7+1e-6*math.Abs(fd) {
				t.Errorf("weight %d, ∂log Z/∂%s: backward %.10g, finite differences %.10g", i, which.name, which.grad, fd)
			}
		}
	}
}

// TestGammaUpdateMatchesMoments checks gammaUpdate against the moment
// matching it stands for, computed another way. For Z(a, b) =
// ∫ f(τ) Gamma(τ | a, b) dτ the tilted density f·Gamma/Z has moments
// E[τ] = (a/b)·Z(a+1, b)/Z(a, b) and E[τ²] = (a(a+1)/b²)·Z(a+2, b)/Z(a, b);
// gammaUpdate must return the Gamma with that mean and variance, a' =
// E²/Var and b' = E/Var, for PBP's Z(a, b) = N(r | 0, v + b/(a−1)). The
// two computations share only that Z; 1e-12 relative allows for the
// different roundings of two short formulas.
func TestGammaUpdateMatchesMoments(t *testing.T) {
	z := func(a, b, v, r2 float64) float64 {
		s := v + b/(a-1)
		return math.Exp(-0.5*r2/s) / math.Sqrt(2*math.Pi*s)
	}
	for _, c := range []struct{ a, b, v, r2 float64 }{{6, 6, 0.1, 0.5}, {20, 3, 0.01, 0.02}, {3, 10, 1, 4}, {100, 90, 0.001, 2}} {
		z0 := z(c.a, c.b, c.v, c.r2)
		mean := c.a / c.b * z(c.a+1, c.b, c.v, c.r2) / z0
		second := c.a * (c.a + 1) / (c.b * c.b) * z(c.a+2, c.b, c.v, c.r2) / z0
		variance := second - mean*mean
		gotA, gotB, ok := gammaUpdate(c.a, c.b, c.v, c.r2)
		if !ok || !close(gotA, mean*mean/variance, 1e-12) || !close(gotB, mean/variance, 1e-12) {
			t.Errorf("%+v: gammaUpdate = (%.15g, %.15g, %v), moments give (%.15g, %.15g)", c, gotA, gotB, ok, mean*mean/variance, mean/variance)
		}
	}
}
