package gcp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// normalScoreRefPrediction returns the Prediction that a row of
// normalscore_ref.csv describes.
func normalScoreRefPrediction(t *testing.T, kind, params string) Prediction {
	t.Helper()
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("normalscore_ref.csv: %v", err)
		}
		return v
	}
	switch kind {
	case "t", "logt":
		f := strings.Split(params, "/")
		p := Prediction{Loss: LossGCP, Mean: parse(f[0]), Alpha: parse(f[1]), Beta: parse(f[2]), Nu: parse(f[3]), Members: 1}
		if kind == "logt" {
			p.Transform, p.ZMean, p.Mean = TransformLog, p.Mean, math.Exp(p.Mean)
		}
		return p
	case "mix":
		p := Prediction{Loss: LossGCP}
		for _, c := range strings.Fields(params) {
			f := strings.Split(c, "/")
			p.Components[p.Members] = Component{parse(f[0]), parse(f[1]), parse(f[2])}
			p.Members++
		}
		return p
	}
	t.Fatalf("normalscore_ref.csv: unknown kind %q", kind)
	return Prediction{}
}

func TestNormalScoreMpmath(t *testing.T) {
	// Against mpmath (testdata/gen_normalscore.py), down to tails of
	// 1e-300. The tails are studentTCDF's, within 3e-13 relative there
	// (its doc), which moves u = Φ⁻¹(q) by 3e-13/(|u|·…) ≤ 3e-13 of
	// itself for |u| ≥ 1; the quantile adds a few ulps. Near the median
	// u has no relative accuracy to speak of (F ≈ ½ holds only absolute
	// accuracy), so the bound is 2e-13·max(|u|, 1).
	rows := readRefCSV(t, "testdata/normalscore_ref.csv")
	seen := map[string]int{}
	for _, rec := range rows {
		p := normalScoreRefPrediction(t, rec[0], rec[1])
		y, _ := strconv.ParseFloat(rec[2], 64)
		want, _ := strconv.ParseFloat(rec[3], 64)
		got := normalScore(&p, y, false)
		if !(math.Abs(got-want) <= 2e-13*max(math.Abs(want), 1)) {
			t.Errorf("%s %s: u(%v) = %.17g, want %.17g (%.2g relative)", rec[0], rec[1], y, got, want, (got-want)/want)
		}
		// The lower tail agrees with CDF where it is not rounded away.
		if f := p.CDF(y); f > 1e-300 && f < 0.5 {
			if u := standardNormalQuantile(f); math.Abs(u-got) > 1e-12*math.Abs(u) {
				t.Errorf("%s %s: u(%v) = %v, Φ⁻¹(CDF) = %v", rec[0], rec[1], y, got, u)
			}
		}
		seen[rec[0]]++
	}
	for _, k := range []string{"t", "logt", "mix"} {
		if seen[k] < 8 {
			t.Errorf("%d rows of kind %s", seen[k], k)
		}
	}
}

func TestNormalScoreFarAndSpecial(t *testing.T) {
	tp := Prediction{Loss: LossGCP, Mean: 0, Alpha: 50, Beta: 25, Nu: 1, Members: 1} // dof 100, scale 1
	// Far beyond float64's tails: ±Inf only where the tail is 0.
	for _, y := range []float64{1e5, 1e300, math.MaxFloat64} {
		if u := normalScore(&tp, y, false); !(u > 38) {
			t.Errorf("u(%v) = %v, want > 38 or +Inf", y, u)
		}
		if u := normalScore(&tp, -y, false); !(u < -38) {
			t.Errorf("u(%v) = %v, want < −38 or −Inf", -y, u)
		}
	}
	// Monotone and antisymmetric about the mean.
	prev := math.Inf(-1)
	for y := -60.0; y <= 60; y += 0.25 {
		u := normalScore(&tp, y, false)
		if u < prev || u != -normalScore(&tp, -y, false) {
			t.Fatalf("u(%v) = %v after %v, u(−y) = %v", y, u, prev, normalScore(&tp, -y, false))
		}
		prev = u
	}
	// The calibrated score is the standardized residual under
	// N(Mean, VarCorrected), finite however far out.
	tp.VarCorrected = 4
	if u := normalScore(&tp, 1e300, true); u != 5e299 {
		t.Errorf("calibrated u(1e300) = %v, want 5e299", u)
	}
	if u := normalScore(&tp, 3, true); u != 1.5 {
		t.Errorf("calibrated u(3) = %v, want 1.5", u)
	}
	// A Gaussian comparator's: (y − m)/√Var.
	g := Prediction{Loss: LossGaussianML, Mean: 1, Var: 0.25, Alpha: math.Inf(1)}
	if u := normalScore(&g, 2, false); u != 2 {
		t.Errorf("Gaussian u(2) = %v, want 2", u)
	}
	// Under the log transform: −Inf at and below 0, NaN for NaN.
	lp := tp
	lp.Transform, lp.ZMean, lp.ZVarCorrected = TransformLog, 0, 4
	for _, y := range []float64{0, -1, math.Inf(-1)} {
		if u := normalScore(&lp, y, false); !math.IsInf(u, -1) {
			t.Errorf("logged u(%v) = %v, want −Inf", y, u)
		}
	}
	if u := normalScore(&lp, math.E*math.E, true); math.Abs(u-1) > 1e-15 {
		t.Errorf("logged calibrated u(e²) = %v, want 1", u)
	}
	for _, p := range []*Prediction{&tp, &lp, &g} {
		for _, cal := range []bool{false, true} {
			if u := normalScore(p, math.NaN(), cal); !math.IsNaN(u) {
				t.Errorf("u(NaN) = %v", u)
			}
		}
	}
	if u := normalScore(&tp, math.Inf(1), false); !math.IsInf(u, 1) {
		t.Errorf("u(+Inf) = %v", u)
	}
	if u := normalScore(&Prediction{Loss: LossGCP}, 1, false); !math.IsNaN(u) {
		t.Errorf("an invalid prediction's u = %v, want NaN", u)
	}
}

// packedCorr returns the packed lower Cholesky factor of the correlation
// matrix of a random d×d matrix's rows: rows of unit norm.
func packedCorr(r *rand.Rand, d int) []float64 {
	l := make([]float64, mvtPackedLen(d))
	for i := range d {
		row := l[i*(i+1)/2 : i*(i+1)/2+i+1]
		var s float64
		for c := range row {
			row[c] = r.NormFloat64()
			s += row[c] * row[c]
		}
		if row[i] < 0 {
			row[i] = -row[i]
		}
		for c := range row {
			row[c] /= math.Sqrt(s)
		}
	}
	return l
}

// shrinkCorr scales the off-diagonal entries of each row of the packed
// factor l by f and restores the row's unit norm on the diagonal: a
// correlation matrix nearer I, better conditioned.
func shrinkCorr(l []float64, d int, f float64) {
	for i := range d {
		row := l[i*(i+1)/2 : i*(i+1)/2+i+1]
		var s float64
		for c := range row[:i] {
			row[c] *= f
			s += row[c] * row[c]
		}
		row[i] = math.Sqrt(1 - s)
	}
}

// denseCorr returns R = LLᵀ of the packed l, row-major.
func denseCorr(l []float64, d int) []float64 {
	r := make([]float64, d*d)
	for i := range d {
		for j := range d {
			for c := range min(i, j) + 1 {
				r[i*d+j] += l[i*(i+1)/2+c] * l[j*(j+1)/2+c]
			}
		}
	}
	return r
}

// invertDense returns the inverse of the row-major d×d a by Gauss–Jordan
// elimination with partial pivoting, an oracle independent of the
// Cholesky factor.
func invertDense(a []float64, d int) []float64 {
	m := make([]float64, d*2*d)
	for i := range d {
		copy(m[i*2*d:], a[i*d:(i+1)*d])
		m[i*2*d+d+i] = 1
	}
	for c := range d {
		p := c
		for i := c + 1; i < d; i++ {
			if math.Abs(m[i*2*d+c]) > math.Abs(m[p*2*d+c]) {
				p = i
			}
		}
		for k := range 2 * d {
			m[c*2*d+k], m[p*2*d+k] = m[p*2*d+k], m[c*2*d+k]
		}
		piv := m[c*2*d+c]
		for k := range 2 * d {
			m[c*2*d+k] /= piv
		}
		for i := range d {
			if i != c {
				f := m[i*2*d+c]
				for k := range 2 * d {
					m[i*2*d+k] -= f * m[c*2*d+k]
				}
			}
		}
	}
	inv := make([]float64, d*d)
	for i := range d {
		copy(inv[i*d:], m[i*2*d+d:(i+1)*2*d])
	}
	return inv
}

func TestCopulaBivariateClosedForm(t *testing.T) {
	// The bivariate Gaussian copula density:
	// c(u₁, u₂) = exp(−(ρ²(u₁² + u₂²) − 2ρu₁u₂)/(2(1 − ρ²)))/√(1 − ρ²).
	for _, rho := range []float64{-0.95, -0.3, 0, 0.5, 0.999} {
		l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
		for _, u := range [][2]float64{{0, 0}, {1, -1}, {2.5, 2}, {-7, 30}, {1e-3, 4}} {
			want := -(rho*rho*(u[0]*u[0]+u[1]*u[1])-2*rho*u[0]*u[1])/(2*(1-rho*rho)) - 0.5*math.Log(1-rho*rho)
			got := copulaLogDensity(l, u[:])
			if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("ρ = %v, u = %v: ln c = %.17g, want %.17g", rho, u, got, want)
			}
			q := (u[0]*u[0] - 2*rho*u[0]*u[1] + u[1]*u[1]) / (1 - rho*rho)
			if got := copulaDistance2(l, u[:]); math.Abs(got-q) > 1e-12*max(1, q) {
				t.Errorf("ρ = %v, u = %v: q = %.17g, want %.17g", rho, u, got, q)
			}
		}
	}
}

func TestCopulaDistanceAgainstInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for d := 2; d <= maxTargets; d++ {
		l := packedCorr(r, d)
		shrinkCorr(l, d, 0.8)
		inv := invertDense(denseCorr(l, d), d)
		u := make([]float64, d)
		for i := range u {
			u[i] = 2 * r.NormFloat64()
		}
		var q float64
		for i := range d {
			for j := range d {
				q += u[i] * inv[i*d+j] * u[j]
			}
		}
		if got := copulaDistance2(l, u); math.Abs(got-q) > 1e-9*q {
			t.Errorf("d = %d: q = %v, want %v", d, got, q)
		}
	}
}

func TestCopulaMonteCarlo(t *testing.T) {
	// Under v ∼ N(0, R), q = vᵀR⁻¹v is χ²_d: mean d, variance 2d. And the
	// copula density integrates to 1 against the product of normals:
	// E[c(u)] = 1 for u ∼ N(0, I), whose second moment is finite only
	// for R close enough to I (2R⁻¹ − I positive definite): the check
	// uses a mild R and the sample's own standard error.
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200000
	for _, d := range []int{2, 5} {
		l := packedCorr(r, d)
		shrinkCorr(l, d, 0.3) // towards I: keep (R⁻¹ − I) small enough for E[c²] to exist
		v, u := make([]float64, d), make([]float64, d)
		var sq, sq2, sc, sc2 float64
		for range n {
			for i := range d {
				u[i] = r.NormFloat64()
			}
			for i := range d { // v = Lu
				v[i] = 0
				for c := range i + 1 {
					v[i] += l[i*(i+1)/2+c] * u[c]
				}
			}
			q := copulaDistance2(l, v)
			sq, sq2 = sq+q, sq2+q*q
			c := math.Exp(copulaLogDensity(l, u))
			sc, sc2 = sc+c, sc2+c*c
		}
		mq, mc := sq/n, sc/n
		seq, sec := math.Sqrt((sq2/n-mq*mq)/n), math.Sqrt((sc2/n-mc*mc)/n)
		if math.Abs(mq-float64(d)) > 4*seq {
			t.Errorf("d = %d: mean q = %v ± %v, want %d", d, mq, seq, d)
		}
		if math.Abs(mc-1) > 4*sec {
			t.Errorf("d = %d: E[c(u)] = %v ± %v, want 1", d, mc, sec)
		}
	}
}

func TestCopulaIdentityAndInfinite(t *testing.T) {
	l := []float64{1, 0, 1, 0, 0, 1} // R = I
	u := []float64{1, -40, math.Inf(1)}
	if c := copulaLogDensity(l, u); c != 0 {
		t.Errorf("R = I: ln c = %v, want 0", c)
	}
	if q := copulaDistance2(l, u); !math.IsInf(q, 1) {
		t.Errorf("q = %v, want +Inf", q)
	}
	// Target 2 independent of the correlated pair 0, 1: its infinite
	// score drops out; an infinite score of a correlated target gives −Inf.
	rho := 0.6
	l = []float64{1, rho, math.Sqrt(1 - rho*rho), 0, 0, 1}
	if got, want := copulaLogDensity(l, []float64{1, 2, math.Inf(-1)}), copulaLogDensity(l[:3], []float64{1, 2}); got != want {
		t.Errorf("independent infinite score: ln c = %v, want %v", got, want)
	}
	if c := copulaLogDensity(l, []float64{math.Inf(1), 2, 0}); !math.IsInf(c, -1) {
		t.Errorf("correlated infinite score: ln c = %v, want −Inf", c)
	}
	if c := copulaLogDensity(l, []float64{math.NaN(), 2, 0}); !math.IsNaN(c) {
		t.Errorf("NaN score: ln c = %v", c)
	}
	if q := copulaDistance2(l, []float64{math.Inf(1), math.NaN(), 0}); !math.IsNaN(q) {
		t.Errorf("NaN score: q = %v", q)
	}
}
