package gcp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gaussianScores draws n rows of N(0, R) (R dense d×d, row-major) from
// seed: normal scores of a Gaussian copula with correlation R.
func gaussianScores(r []float64, d, n int, seed uint64) []float64 {
	l, ok := copulaCholesky(r, d)
	if !ok {
		panic("R is not positive definite")
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	u, e := make([]float64, n*d), make([]float64, d)
	for i := range n {
		for j := range e {
			e[j] = rng.NormFloat64()
		}
		for a := range d {
			var s float64
			for b := range a + 1 {
				s += l[a*(a+1)/2+b] * e[b]
			}
			u[i*d+a] = s
		}
	}
	return u
}

// logDet returns ln det of the dense d×d positive definite matrix r.
func logDet(t *testing.T, r []float64, d int) float64 {
	l, ok := copulaCholesky(r, d)
	if !ok {
		t.Fatal("not positive definite")
	}
	var s float64
	for i := range d {
		s += 2 * math.Log(l[i*(i+1)/2+i])
	}
	return s
}

// meanSE returns the mean of v and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x / float64(len(v))
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

var truthR3 = []float64{
	1, 0.6, -0.3,
	0.6, 1, 0.2,
	-0.3, 0.2, 1,
}

// TestFitCopulaRecoversR draws 4000 rows of a Gaussian copula with a
// known R (d = 3, correlations 0.6, −0.3, 0.2) and checks the fitted R
// within 4 standard errors of a sample correlation, (1−ρ²)/√n, each row
// of its Cholesky factor of unit norm, and the shrinkage at most 0.05
// (on so many rows the correlation is known well).
func TestFitCopulaRecoversR(t *testing.T) {
	const d, n = 3, 4000
	fit := fitCopula(gaussianScores(truthR3, d, n, 7), n, d)
	if fit.lambda > 0.05 {
		t.Errorf("λ = %v, want ≤ 0.05", fit.lambda)
	}
	if len(fit.chol) != mvtPackedLen(d) {
		t.Fatalf("%d packed values, want %d", len(fit.chol), mvtPackedLen(d))
	}
	r := denseCorr(fit.chol, d)
	for a := range d {
		if math.Abs(r[a*d+a]-1) > 1e-12 {
			t.Errorf("R[%d][%d] = %v, want 1", a, a, r[a*d+a])
		}
		for b := range a {
			rho := truthR3[a*d+b]
			if se := (1 - rho*rho) / math.Sqrt(n); math.Abs(r[a*d+b]-rho) > 4*se {
				t.Errorf("R[%d][%d] = %.4f, want %.4f within %.4f", a, b, r[a*d+b], rho, 4*se)
			}
		}
	}
}

// TestFitCopulaGainIsTheExpectedLogDensity checks the nested
// cross-validated G against the expected copula log density of the
// truth, −½ ln det R (E uᵀR⁻¹u = d = E uᵀu), within 3 standard errors of
// the rows' mean: for the R above on 3000 rows, and for independent
// targets (R = I, G = 0) on 3000 and on 60 rows, where G must not be
// optimistic: the plain cross-validated score at the chosen λ is a
// maximum over the grid.
func TestFitCopulaGainIsTheExpectedLogDensity(t *testing.T) {
	id := []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	for _, c := range []struct {
		r    []float64
		n    int
		seed uint64
	}{{truthR3, 3000, 11}, {id, 3000, 12}, {id, 60, 13}} {
		const d = 3
		fit := fitCopula(gaussianScores(c.r, d, c.n, c.seed), c.n, d)
		want := -0.5 * logDet(t, c.r, d)
		mean, se := meanSE(fit.rowGain)
		if math.Abs(mean-fit.gain) > 1e-12 {
			t.Errorf("gain %v, the rows' mean %v", fit.gain, mean)
		}
		if math.Abs(fit.gain-want) > 3*se+1e-9 {
			t.Errorf("n %d: G = %.4f ± %.4f, want %.4f", c.n, fit.gain, se, want)
		}
	}
}

// TestFitCopulaShrinksIndependentTargets fits 200 data sets of 30 rows of
// 5 independent targets: the cross-validation should mostly refuse the
// noise of their sample correlations (λ = 1 on most sets, mean λ above
// 0.7), and the nested G should be at most 0 on average (it cannot gain
// on independent targets; an optimistic estimate would be positive).
func TestFitCopulaShrinksIndependentTargets(t *testing.T) {
	const d, n, sets = 5, 30, 200
	id := make([]float64, d*d)
	for i := range d {
		id[i*d+i] = 1
	}
	var lams, gains []float64
	ones := 0
	for s := range sets {
		fit := fitCopula(gaussianScores(id, d, n, uint64(100+s)), n, d)
		lams, gains = append(lams, fit.lambda), append(gains, fit.gain)
		if fit.lambda == 1 {
			ones++
		}
	}
	lam, _ := meanSE(lams)
	g, se := meanSE(gains)
	if lam < 0.7 || ones < sets/2 {
		t.Errorf("mean λ %.3f, λ = 1 on %d of %d sets: want above 0.7 and on most", lam, ones, sets)
	}
	if g > 2*se {
		t.Errorf("mean G %.4f ± %.4f, want ≤ 0", g, se)
	}
	t.Logf("mean λ %.3f (λ = 1 on %d of %d), mean G %.4f ± %.4f", lam, ones, sets, g, se)
}

// TestFitCopulaDegenerateScores checks what the fit makes of scores that
// are not a sample of a copula: infinite and NaN scores (clamped, NaN as
// 0), a constant column (its row of R that of I), fewer rows than
// targets (C singular: λ > 0, R positive definite) and no, one or two
// rows (R = I, λ = 1, G = 0). R's Cholesky factor is finite, of unit
// rows, in every case, and G finite.
func TestFitCopulaDegenerateScores(t *testing.T) {
	const d = 3
	base := gaussianScores(truthR3, d, 50, 3)
	inf := append([]float64(nil), base...)
	inf[0], inf[4], inf[8], inf[10] = math.Inf(1), math.Inf(-1), math.NaN(), 1e300
	constant := append([]float64(nil), base...)
	for i := 0; i < len(constant); i += d {
		constant[i+1] = 0.7
	}
	few := gaussianScores([]float64{
		1, 0.5, 0.5, 0.5, 0.5, 0.5,
		0.5, 1, 0.5, 0.5, 0.5, 0.5,
		0.5, 0.5, 1, 0.5, 0.5, 0.5,
		0.5, 0.5, 0.5, 1, 0.5, 0.5,
		0.5, 0.5, 0.5, 0.5, 1, 0.5,
		0.5, 0.5, 0.5, 0.5, 0.5, 1,
	}, 6, 4, 5)
	for _, c := range []struct {
		name string
		u    []float64
		n, d int
	}{
		{"infinite and NaN scores", inf, 50, d},
		{"a constant column", constant, 50, d},
		{"4 rows of 6 targets", few, 4, 6},
		{"no rows", nil, 0, d},
		{"one row", base[:d], 1, d},
		{"two rows", base[:2*d], 2, d},
	} {
		fit := fitCopula(c.u, c.n, c.d)
		r := denseCorr(fit.chol, c.d)
		for i, v := range fit.chol {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: chol[%d] = %v", c.name, i, v)
			}
		}
		for a := range c.d {
			if math.Abs(r[a*c.d+a]-1) > 1e-12 {
				t.Errorf("%s: R[%d][%d] = %v, want 1", c.name, a, a, r[a*c.d+a])
			}
		}
		if math.IsNaN(fit.gain) || math.IsInf(fit.gain, 0) || len(fit.rowGain) != c.n {
			t.Errorf("%s: G = %v over %d rows", c.name, fit.gain, len(fit.rowGain))
		}
		switch {
		case c.n <= 2:
			if fit.lambda != 1 || fit.gain != 0 {
				t.Errorf("%s: λ %v, G %v, want 1 and 0", c.name, fit.lambda, fit.gain)
			}
		case c.n < c.d:
			if fit.lambda == 0 {
				t.Errorf("%s: λ = 0 for a singular C", c.name)
			}
		case c.name == "a constant column":
			if math.Abs(r[0*d+1]) > 1e-12 || math.Abs(r[2*d+1]) > 1e-12 {
				t.Errorf("%s: R's constant column %v, %v, want 0", c.name, r[1], r[2*d+1])
			}
		}
	}
}
