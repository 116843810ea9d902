package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// randomMultiModel returns a model of cfg with its parameters drawn at
// random (standard deviation 0.4, so that the members differ and the
// Cholesky factors are far from the identity) and a standardization far
// from the identity: each target j centred on 3j − 2 with scale j + 0.5.
func randomMultiModel(t *testing.T, cfg Config) *Model[float64] {
	t.Helper()
	m := mustModel[float64](t, cfg)
	r := rand.New(rand.NewPCG(cfg.Seed, 3))
	for i := range m.params {
		m.params[i] = 0.4 * r.NormFloat64()
	}
	for j := range m.ext.targets.scales {
		m.ext.targets.means[j], m.ext.targets.scales[j] = 3*float64(j)-2, float64(j)+0.5
	}
	m.standardized = true
	return m
}

// fullScale returns LLᵀ of a packed d×d factor l, row-major.
func fullScale(l []float64, d int) []float64 {
	s := make([]float64, d*d)
	for i := range d {
		for j := range d {
			for c := 0; c <= min(i, j); c++ {
				s[i*d+j] += l[i*(i+1)/2+c] * l[j*(j+1)/2+c]
			}
		}
	}
	return s
}

// TestPredictMultiMatchesItsMembers checks a prediction against the
// members' predictives computed by hand (handMember): the density (the
// log of the members' mean t density), the mean, Cov = mean of
// ν/(ν−2)·LLᵀ plus the covariance of the means, CovCorrected with
// LLᵀ/c_d(ν) (c_d itself is checked against mpmath in
// TestMvtCorrectionMatchesMpmath), the epistemic part, correlations,
// Disagreement, the Mahalanobis distance against Σ̃⁻¹ by a linear
// solve, and each target's Marginal (its density that of the univariate
// t of scale² S_ii, or their mixture), for a single network and an
// ensemble, d = 2, 3 and 5.
func TestPredictMultiMatchesItsMembers(t *testing.T) {
	for _, cfg := range []Config{
		{Inputs: 3, Hidden: []int{6}, Targets: 2, Seed: 1},
		{Inputs: 2, Hidden: []int{5, 4}, Targets: 3, Members: 3, Activation: Tanh, Seed: 2},
		{Inputs: 4, Hidden: []int{5}, Targets: 5, Members: 2, Seed: 3},
	} {
		m := randomMultiModel(t, cfg)
		ws := m.NewWorkspace()
		d, K := cfg.Targets, max(cfg.Members, 1)
		r := rand.New(rand.NewPCG(9, 9))
		x, y := make([]float64, cfg.Inputs), make([]float64, d)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		for i := range y {
			y[i] = 3*float64(i) - 2 + r.NormFloat64()
		}
		var p MultiPrediction
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		mean, cov, corr, epi := make([]float64, d), make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
		locs := make([][]float64, K)
		var dens float64
		marg := make([]float64, d) // each target's marginal density
		zz := make([]float64, 1)
		z := make([]float64, d)
		for k := range K {
			loc, l, nu := handMember(t, m, x, k)
			locs[k] = loc
			dens += math.Exp(mvtLogDensity(y, loc, l, nu, z)) / float64(K)
			c, _ := mvtCorrection(d, nu)
			s := fullScale(l, d)
			for i := range d {
				mean[i] += loc[i] / float64(K)
				// The marginal is the 1-D t of the same ν with scale² S_ii.
				marg[i] += math.Exp(mvtLogDensity(y[i:i+1], loc[i:i+1], []float64{math.Sqrt(s[i*d+i])}, nu, zz)) / float64(K)
			}
			for i := range s {
				cov[i] += nu / (nu - 2) * s[i] / float64(K)
				corr[i] += s[i] / c / float64(K)
			}
		}
		for k := range K {
			for i := range d {
				for j := range d {
					e := (locs[k][i] - mean[i]) * (locs[k][j] - mean[j]) / float64(K)
					epi[i*d+j] += e
					cov[i*d+j] += e
					corr[i*d+j] += e
				}
			}
		}
		// Sums of the same terms in other orders: a few ulps of the
		// largest term, 1e-12 relative with room.
		near := func(what string, got, want float64) {
			t.Helper()
			if math.Abs(got-want) > 1e-12*max(math.Abs(want), 1) {
				t.Errorf("d=%d K=%d %s = %.17g, want %.17g", d, K, what, got, want)
			}
		}
		near("LogPDF", p.LogPDF(y), math.Log(dens))
		for i := range d {
			q := p.Marginal(i)
			near("Marginal LogPDF", q.LogPDF(y[i]), math.Log(marg[i]))
			near("Marginal Var", q.Var, cov[i*d+i])
			near("Marginal VarCorrected", q.VarCorrected, corr[i*d+i])
			near("Marginal VarEpistemic", q.VarEpistemic, epi[i*d+i])
			near("Mean", p.Mean(i), mean[i])
			for j := range d {
				near("Cov", p.Cov(i, j), cov[i*d+j])
				near("CovCorrected", p.CovCorrected(i, j), corr[i*d+j])
				near("CovEpistemic", p.CovEpistemic(i, j), epi[i*d+j])
				near("Corr", p.Corr(i, j), corr[i*d+j]/math.Sqrt(corr[i*d+i]*corr[j*d+j]))
			}
		}
		var dis float64
		if K > 1 {
			for i := range d {
				a := cov[i*d+i] - epi[i*d+i]
				dis = max(dis, math.Sqrt(epi[i*d+i]/min(a, m.ext.targets.scales[i]*m.ext.targets.scales[i])))
			}
		}
		near("Disagreement", p.Disagreement(), dis)
		e := make([]float64, d)
		for i := range e {
			e[i] = y[i] - mean[i]
		}
		near("Mahalanobis²", p.Mahalanobis(y)*p.Mahalanobis(y), dot(e, solve(corr, e, d)))
	}
}

// solve returns A⁻¹b for the row-major d×d A by Gaussian elimination with
// partial pivoting, independent of the Cholesky code under test.
func solve(a, b []float64, d int) []float64 {
	m := make([]float64, d*(d+1))
	for i := range d {
		copy(m[i*(d+1):], a[i*d:(i+1)*d])
		m[i*(d+1)+d] = b[i]
	}
	for c := range d {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(m[r*(d+1)+c]) > math.Abs(m[p*(d+1)+c]) {
				p = r
			}
		}
		for j := range d + 1 {
			m[c*(d+1)+j], m[p*(d+1)+j] = m[p*(d+1)+j], m[c*(d+1)+j]
		}
		for r := c + 1; r < d; r++ {
			f := m[r*(d+1)+c] / m[c*(d+1)+c]
			for j := c; j <= d; j++ {
				m[r*(d+1)+j] -= f * m[c*(d+1)+j]
			}
		}
	}
	x := make([]float64, d)
	for i := d - 1; i >= 0; i-- {
		s := m[i*(d+1)+d]
		for j := i + 1; j < d; j++ {
			s -= m[i*(d+1)+j] * x[j]
		}
		x[i] = s / m[i*(d+1)+i]
	}
	return x
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestPredictMultiRegionCoverage draws target vectors from the predictive
// itself and counts how many Inside puts inside the p-region: for a
// single network from the t (y = m + L·g·√(ν/W), g standard normal, W
// chi-square with ν degrees of freedom), for an ensemble from the
// corrected Gaussian N(Mean, CovCorrected), whose region Inside tests.
// The rate must be p within 3 binomial standard errors, for p = 0.5, 0.9
// and 0.95 and d = 2 and 5; so must the rate at which the last target
// falls in its Marginal's central interval (Interval for the t,
// CalibratedInterval for the corrected Gaussian).
func TestPredictMultiRegionCoverage(t *testing.T) {
	const n = 4000
	for _, cfg := range []Config{
		{Inputs: 2, Hidden: []int{4}, Targets: 2, Seed: 4},
		{Inputs: 2, Hidden: []int{4}, Targets: 5, Seed: 5},
		{Inputs: 2, Hidden: []int{4}, Targets: 2, Members: 3, Seed: 6},
		{Inputs: 2, Hidden: []int{4}, Targets: 5, Members: 2, Seed: 7},
	} {
		m := randomMultiModel(t, cfg)
		var p MultiPrediction
		x := []float64{0.3, -0.7}
		if err := m.PredictMulti(m.NewWorkspace(), x, &p); err != nil {
			t.Fatal(err)
		}
		d := cfg.Targets
		loc, l, nu := handMember(t, m, x, 0)
		if cfg.Members > 1 { // the corrected Gaussian of the mixture
			nu = math.Inf(1)
			for i := range d {
				loc[i] = p.Mean(i)
			}
			a := make([]float64, d*d)
			for i := range d {
				for j := range d {
					a[i*d+j] = p.CovCorrected(i, j)
				}
			}
			if !cholesky(l, a, d) {
				t.Fatal("CovCorrected is not positive definite")
			}
		}
		r := rand.New(rand.NewPCG(uint64(d), 11))
		g, y := make([]float64, d), make([]float64, d)
		for _, prob := range []float64{0.5, 0.9, 0.95} {
			in, inMarg := 0, 0
			marg := p.Marginal(d - 1)
			lo, hi, err := marg.Interval(prob)
			if cfg.Members > 1 {
				lo, hi, err = marg.CalibratedInterval(prob)
			}
			if err != nil {
				t.Fatal(err)
			}
			for range n {
				w := 1.0
				if !math.IsInf(nu, 1) {
					w = 2 * gammaVariate(r, nu/2) / nu // chi-square with ν degrees of freedom, over ν
				}
				for i := range g {
					g[i] = r.NormFloat64() / math.Sqrt(w)
				}
				for i := range y {
					y[i] = loc[i]
					for c := 0; c <= i; c++ {
						y[i] += l[i*(i+1)/2+c] * g[c]
					}
				}
				ok, err := p.Inside(y, prob)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					in++
				}
				if y[d-1] >= lo && y[d-1] <= hi {
					inMarg++
				}
			}
			rate, se := float64(in)/n, math.Sqrt(prob*(1-prob)/n)
			if math.Abs(rate-prob) > 3*se {
				t.Errorf("d=%d members=%d p=%v: %v inside, want within %.3f", d, cfg.Members, prob, rate, 3*se)
			}
			if rate := float64(inMarg) / n; math.Abs(rate-prob) > 3*se {
				t.Errorf("d=%d members=%d p=%v: the last target's marginal interval holds %v, want within %.3f", d, cfg.Members, prob, rate, 3*se)
			}
		}
	}
}

// TestPredictMultiBadInput checks PredictMulti's and the prediction's
// errors: a model of one target, a wrong row length, a NaN feature, a
// nil prediction, a level outside (0, 1), a target vector of the wrong
// length.
func TestPredictMultiBadInput(t *testing.T) {
	one := mustModel[float64](t, Config{Inputs: 2})
	var p MultiPrediction
	if err := one.PredictMulti(one.NewWorkspace(), []float64{1, 2}, &p); !errors.Is(err, ErrShape) {
		t.Errorf("one target: %v, want ErrShape", err)
	}
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 1})
	ws := m.NewWorkspace()
	for _, c := range []struct {
		x    []float64
		want error
	}{{[]float64{1}, ErrShape}, {[]float64{1, math.NaN()}, ErrNonFinite}} {
		if err := m.PredictMulti(ws, c.x, &p); !errors.Is(err, c.want) {
			t.Errorf("x = %v: %v, want %v", c.x, err, c.want)
		}
	}
	if err := m.PredictMulti(ws, []float64{1, 2}, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil prediction: %v, want ErrConfig", err)
	}
	if err := m.PredictMulti(ws, []float64{1, 2}, &p); err != nil {
		t.Fatal(err)
	}
	for _, prob := range []float64{0, 1, -0.5, math.NaN()} {
		if _, err := p.Inside([]float64{0, 0}, prob); !errors.Is(err, ErrLevel) {
			t.Errorf("Inside at p = %v: %v, want ErrLevel", prob, err)
		}
	}
	if _, err := p.Inside([]float64{0}, 0.9); !errors.Is(err, ErrShape) {
		t.Errorf("Inside of one value: %v, want ErrShape", err)
	}
	if v := p.LogPDF([]float64{0, 0, 0}); !math.IsNaN(v) {
		t.Errorf("LogPDF of three values = %v, want NaN", v)
	}
}

// TestPredictMultiAllocatesNothing checks that predicting into a
// prediction that has held one allocates nothing, float32 and float64,
// and that LogPDF, Mahalanobis and Inside allocate nothing either, for
// the GCP model and the Gaussian comparator.
func TestPredictMultiAllocatesNothing(t *testing.T) {
	eachMultiLoss(t, Config{Inputs: 13, Hidden: []int{50}, Targets: 3, Members: 2, Seed: 1}, testPredictMultiAllocatesNothing)
}

func testPredictMultiAllocatesNothing(t *testing.T, cfg Config) {
	m32 := mustModel[float32](t, cfg)
	for j := range m32.ext.targets.scales {
		m32.ext.targets.scales[j] = 1
	}
	m := randomMultiModel(t, cfg)
	x := make([]float64, 13)
	x32 := make([]float32, 13)
	y := []float64{0.1, 0.2, 0.3}
	var p, p32 MultiPrediction
	ws, ws32 := m.NewWorkspace(), m32.NewWorkspace()
	if n := testing.AllocsPerRun(50, func() {
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		if err := m32.PredictMulti(ws32, x32, &p32); err != nil {
			t.Fatal(err)
		}
		sinkLoss = p.LogPDF(y) + p.Mahalanobis(y)
		if _, err := p32.Inside(y, 0.9); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

// TestPredictMultiConcurrent predicts from many goroutines at once, each
// with its own Workspace and prediction, and checks every answer against
// the one made alone (run under -race, it also checks that prediction
// only reads the model).
func TestPredictMultiConcurrent(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{5}, Targets: 3, Members: 2, Seed: 8})
	checkPredictMultiConcurrent(t, m, [][]float64{{0, 0}, {1, -1}, {-2, 0.5}, {0.3, 3}}, []float64{-2, 1, 4})
}

// checkPredictMultiConcurrent predicts the rows from 8 goroutines at
// once, each with its own Workspace and prediction, and checks every
// LogPDF at y against the one made alone.
func checkPredictMultiConcurrent(t *testing.T, m *Model[float64], rows [][]float64, y []float64) {
	t.Helper()
	want := make([]float64, len(rows))
	for i, x := range rows {
		var p MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), x, &p); err != nil {
			t.Fatal(err)
		}
		want[i] = p.LogPDF(y)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := m.NewWorkspace()
			var p MultiPrediction
			for r := range 50 {
				i := (g + r) % len(rows)
				if err := m.PredictMulti(ws, rows[i], &p); err != nil {
					t.Error(err)
					return
				}
				if got := p.LogPDF(y); got != want[i] {
					t.Errorf("row %d: LogPDF %v, alone %v", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkPredictMulti measures one prediction of a float32 network with
// D = 13 inputs and H = 50 units: a model of one target by Predict (d1)
// beside one of three targets by PredictMulti (d3), whose target is at
// most twice d1's time.
func BenchmarkPredictMulti(b *testing.B) {
	x := make([]float32, 13)
	for i := range x {
		x[i] = float32(i%5) - 2
	}
	b.Run("d1", func(b *testing.B) {
		m := mustModel[float32](b, Config{Inputs: 13, Hidden: []int{50}, Seed: 1})
		ws := m.NewWorkspace()
		b.ReportAllocs()
		for range b.N {
			p, err := m.Predict(ws, x)
			if err != nil {
				b.Fatal(err)
			}
			sinkLoss = p.Mean
		}
	})
	b.Run("d3", func(b *testing.B) {
		m := mustModel[float32](b, Config{Inputs: 13, Hidden: []int{50}, Targets: 3, Seed: 1})
		ws := m.NewWorkspace()
		var p MultiPrediction
		b.ReportAllocs()
		for range b.N {
			if err := m.PredictMulti(ws, x, &p); err != nil {
				b.Fatal(err)
			}
			sinkLoss = p.Mean(0)
		}
	})
}

// gaussLogDensity returns ln N(y | loc, LLᵀ) for the packed factor l,
// formed from the full matrix by an independent linear solve and the
// determinant Π L_ii², not by the code under test.
func gaussLogDensity(y, loc, l []float64) float64 {
	d := len(y)
	e := make([]float64, d)
	logDet := 0.0
	for i := range d {
		e[i] = y[i] - loc[i]
		logDet += 2 * math.Log(l[i*(i+1)/2+i])
	}
	return -0.5*float64(d)*math.Log(2*math.Pi) - 0.5*logDet - 0.5*dot(e, solve(fullScale(l, d), e, d))
}

// chi2EvenQuantile returns the p-quantile of the chi-square law of an
// even number d of degrees of freedom, by bisection on its closed-form
// tail P(R > r) = e^{−r/2} Σ_{j<d/2} (r/2)^j/j!.
func chi2EvenQuantile(p float64, d int) float64 {
	tail := func(r float64) float64 {
		s, term := 0.0, 1.0
		for j := range d / 2 {
			if j > 0 {
				term *= r / 2 / float64(j)
			}
			s += term
		}
		return math.Exp(-r/2) * s
	}
	lo, hi := 0.0, 1000.0
	for range 200 {
		mid := (lo + hi) / 2
		if tail(mid) > 1-p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TestPredictMultiGaussianComparator checks the prediction of the
// full-covariance Gaussian comparator (Loss = LossGaussianML) against
// its members computed by hand: Nu = +Inf, Cov and CovCorrected both
// LLᵀ (plus the covariance of the means for an ensemble), LogPDF the
// Gaussian's (or the log of the members' mean density), each Marginal
// the Gaussian N(m_i, S_ii) of Loss LossGaussianML, and Inside the
// chi-square ellipsoid, its radius from the closed-form tail of an even
// number of degrees of freedom; for d = 2 and 4, a single network and an
// ensemble.
func TestPredictMultiGaussianComparator(t *testing.T) {
	for _, cfg := range []Config{
		{Inputs: 3, Hidden: []int{6}, Targets: 2, Loss: LossGaussianML, Seed: 1},
		{Inputs: 2, Hidden: []int{5}, Targets: 4, Loss: LossGaussianML, Seed: 2},
		{Inputs: 2, Hidden: []int{5, 4}, Targets: 4, Members: 3, Activation: Tanh, Loss: LossGaussianML, Seed: 3},
	} {
		m := randomMultiModel(t, cfg)
		ws := m.NewWorkspace()
		d, K := cfg.Targets, max(cfg.Members, 1)
		r := rand.New(rand.NewPCG(5, 5))
		var p MultiPrediction
		for range 50 {
			x, y := make([]float64, cfg.Inputs), make([]float64, d)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			for i := range y {
				y[i] = 3*float64(i) - 2 + 2*r.NormFloat64()
			}
			if err := m.PredictMulti(ws, x, &p); err != nil {
				t.Fatal(err)
			}
			mean, cov := make([]float64, d), make([]float64, d*d)
			locs := make([][]float64, K)
			var dens float64
			marg := make([]float64, d)
			for k := range K {
				loc, l, nu := handMember(t, m, x, k)
				if !math.IsInf(nu, 1) {
					t.Fatalf("handMember's ν = %v", nu)
				}
				locs[k] = loc
				dens += math.Exp(gaussLogDensity(y, loc, l)) / float64(K)
				s := fullScale(l, d)
				for i := range d {
					mean[i] += loc[i] / float64(K)
					marg[i] += math.Exp(gaussLogDensity(y[i:i+1], loc[i:i+1], []float64{math.Sqrt(s[i*d+i])})) / float64(K)
				}
				for i := range s {
					cov[i] += s[i] / float64(K)
				}
			}
			for k := range K {
				for i := range d {
					for j := range d {
						cov[i*d+j] += (locs[k][i] - mean[i]) * (locs[k][j] - mean[j]) / float64(K)
					}
				}
			}
			// Sums of the same terms in other orders: a few ulps of the
			// largest term, 1e-12 relative with room.
			near := func(what string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > 1e-12*max(math.Abs(want), 1) {
					t.Fatalf("d=%d K=%d %s = %.17g, want %.17g", d, K, what, got, want)
				}
			}
			if !math.IsInf(p.Nu(), 1) {
				t.Fatalf("Nu = %v, want +Inf", p.Nu())
			}
			near("LogPDF", p.LogPDF(y), math.Log(dens))
			for i := range d {
				q := p.Marginal(i)
				if q.Loss != LossGaussianML || !math.IsInf(q.Alpha, 1) {
					t.Fatalf("Marginal(%d): Loss %v, Alpha %v; want ML, +Inf", i, q.Loss, q.Alpha)
				}
				near("Marginal LogPDF", q.LogPDF(y[i]), math.Log(marg[i]))
				near("Marginal Var", q.Var, cov[i*d+i])
				near("Mean", p.Mean(i), mean[i])
				for j := range d {
					near("Cov", p.Cov(i, j), cov[i*d+j])
					near("CovCorrected", p.CovCorrected(i, j), cov[i*d+j])
				}
			}
			e := make([]float64, d)
			for i := range e {
				e[i] = y[i] - mean[i]
			}
			q := dot(e, solve(cov, e, d))
			near("Mahalanobis²", p.Mahalanobis(y)*p.Mahalanobis(y), q)
			for _, prob := range []float64{0.5, 0.9, 0.95} {
				in, err := p.Inside(y, prob)
				if r2 := chi2EvenQuantile(prob, d); err != nil || in != (q <= r2) {
					t.Fatalf("d=%d K=%d Inside(p=%v) = %v, %v; q = %v against χ² quantile %v", d, K, prob, in, err, q, r2)
				}
			}
		}
	}
}

// TestPredictMultiNuAtItsBound checks a prediction where the ν head's
// softplus underflows, so that ν rounds to its bound 2, as training on
// data with gross outliers drives it: the t's covariance ν/(ν−2)·S is
// then huge but finite (ν − 2 taken from the link, floored at 2⁻²⁵⁶ as
// the one-target α − 1 is), and the corrected covariance is S/c_d(2).
// regression: PredictMulti returned ErrNonFinite there.
func TestPredictMultiNuAtItsBound(t *testing.T) {
	cfg := Config{Inputs: 3, Hidden: []int{6}, Targets: 2, Seed: 1}
	m := randomMultiModel(t, cfg)
	ly := m.lay.layers[len(m.lay.hidden)+mvHeadNu]
	m.params[ly.b] = -800 // softplus(−800) underflows to 0
	x := []float64{0.3, -0.2, 1}
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), x, &p); err != nil {
		t.Fatal(err)
	}
	_, l, _ := handMember(t, m, x, 0)
	s := fullScale(l, 2)
	c, _ := mvtCorrection(2, 2)
	for i := range 2 {
		for j := range 2 {
			// One division and a sum of two products: a few ulps.
			if got, want := p.CovCorrected(i, j), s[i*2+j]/c; math.Abs(got-want) > 1e-13*math.Abs(want) {
				t.Errorf("CovCorrected(%d, %d) = %v, want %v", i, j, got, want)
			}
		}
		if v := p.Cov(i, i); !(v > 1e70*s[i*2+i]) || math.IsInf(v, 0) {
			t.Errorf("Cov(%d, %d) = %v, want huge and finite", i, i, v)
		}
	}
	if p.Nu() != 2 {
		t.Errorf("Nu = %v, want 2", p.Nu())
	}
}
