package gcp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

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
	inv, _ := invertDenseLogDet(a, d)
	return inv
}

// invertDenseLogDet is invertDense that also returns ln |det a|, the sum
// of the logs of the pivots' magnitudes.
func invertDenseLogDet(a []float64, d int) (inv []float64, logDet float64) {
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
		logDet += math.Log(math.Abs(piv))
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
	inv = make([]float64, d*d)
	for i := range d {
		copy(inv[i*d:], m[i*2*d+d:(i+1)*2*d])
	}
	return inv, logDet
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

func TestCopulaLogDensityHugeScores(t *testing.T) {
	// Scores whose squares overflow (a Gaussian marginal's (y − m)/σ of
	// 1.5e154, where its density is still finite): the bivariate form
	// of ρ = 0.6 scaled by hand, to a few ulps (1e-15 relative: the
	// scaling by 2⁻⁶⁰⁰ is exact and the rest rounds as for small
	// scores); −Inf where the form is below −MaxFloat64; ρ = 0 drops it.
	const rho = 0.6
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	for _, u := range [][]float64{{1.5e154, 1}, {1.5e154, -1.4e154}, {-1e152, 3}, {1e154, 1.2e154}} {
		a, b := u[0]*0x1p-600, u[1]*0x1p-600
		want := -0.5*math.Log(1-rho*rho) - (rho*rho*a*a-2*rho*a*b+rho*rho*b*b)/(2*(1-rho*rho))*0x1p600*0x1p600
		got := copulaLogDensity(l, u)
		if !(math.Abs(got-want) <= 1e-15*math.Abs(want)) && got != want {
			t.Errorf("ln c(%v) = %v, want %v", u, got, want)
		}
	}
	if got := copulaLogDensity(l, []float64{1e200, 0}); !math.IsInf(got, -1) {
		t.Errorf("ln c(1e200, 0) = %v, want −Inf", got)
	}
	if got := copulaLogDensity([]float64{1, 0, 1}, []float64{1e200, -1e300}); got != 0 {
		t.Errorf("R = I: ln c = %v, want 0", got)
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

func TestCopulaLogPDFFarMpmath(t *testing.T) {
	// Each row of normalscore_ref.csv joined to a fixed marginal (the t
	// of 3 dof at u_b, a shallow row) by a copula of ρ = 0.6: the
	// copula's log density against Σ ln f + the bivariate form of the
	// mpmath scores, −½ln(1−ρ²) − (ρ²u_a² − 2ρu_a·u_b + ρ²u_b²)/(2(1−ρ²)).
	// Both sides take the same marginal log densities; the scores' errors
	// (2e-13 relative near the body, below 1e-14 in the far tails,
	// TestNormalScoreMpmath) move each of the form's three terms by twice
	// theirs, so that 4e-13 of the terms' magnitude (plus the rounding of
	// the sum, a few ulps of its largest term) bounds the gap.
	const rho = 0.6
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	rows := readRefCSV(t, "testdata/normalscore_ref.csv")
	b := normalScoreRefPrediction(t, rows[4][0], rows[4][1])
	yb, _ := strconv.ParseFloat(rows[4][2], 64)
	ub, _ := strconv.ParseFloat(rows[4][3], 64)
	deep := 0
	for _, rec := range rows {
		a := normalScoreRefPrediction(t, rec[0], rec[1])
		ya, _ := strconv.ParseFloat(rec[2], 64)
		ua, _ := strconv.ParseFloat(rec[3], 64)
		c := copulaPrediction{marg: []Prediction{a, b}, chol: l}
		fa, fb := a.LogPDF(ya), b.LogPDF(yb)
		form := (rho*rho*ua*ua - 2*rho*ua*ub + rho*rho*ub*ub) / (2 * (1 - rho*rho))
		size := (rho*rho*ua*ua + 2*math.Abs(rho*ua*ub) + rho*rho*ub*ub) / (2 * (1 - rho*rho))
		want := fa + fb - 0.5*math.Log(1-rho*rho) - form
		got := c.logPDF([]float64{ya, yb})
		if !(math.Abs(got-want) <= 4e-13*size+4e-16*max(math.Abs(fa), math.Abs(fb), size, 1)) {
			t.Errorf("%s %s at %v: ln p = %.17g, want %.17g", rec[0], rec[1], ya, got, want)
		}
		if math.Abs(ua) > 37.5 {
			deep++
		}
	}
	if deep < 50 {
		t.Errorf("%d deep rows", deep)
	}
}

func TestCopulaLogPDFFarGaussianClosedForm(t *testing.T) {
	// GCP marginals of dof 2e30 joined by ρ = −0.7 are the bivariate
	// normal, out to where the tails are far below float64's range (a
	// score of 1e6 has a tail of e^(−5e11)), as long as the standardized
	// residuals s stay below 1e7: their log densities and log tails differ
	// from the normal's by about s²/(2ν) ≤ 2.5e-17 of themselves there,
	// below rounding, so 1e-12 relative bounds the gap (the form reaches
	// 1e13; both sides round it to a few ulps). Beyond, the t is no longer
	// Gaussian (s = 5e299 ≫ √ν): finite. Beside them, t's of dof 1e12:
	// finite everywhere, and within 1e-5 relative of the normal where s
	// ≤ 2e3 (their log densities and log tails differ from the normal's
	// by about s⁴/(4ν) ≤ 4, against a form of 5e6 there).
	const rho = -0.7
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	for _, alpha := range []float64{1e30, 5e11} {
		p0 := Prediction{Loss: LossGCP, Mean: 1, Alpha: alpha, Beta: 2 * alpha, Nu: 1, Members: 1}  // scale 2
		p1 := Prediction{Loss: LossGCP, Mean: -3, Alpha: alpha, Beta: alpha / 8, Nu: 1, Members: 1} // scale 0.5
		c := copulaPrediction{marg: []Prediction{p0, p1}, chol: l}
		for _, y := range [][]float64{{2, -1}, {-79, -3}, {81, 18}, {2e3, -500}, {1e3, 1e3}, {-2e6, 5e5}, {1e300, -1e300}} {
			want := bivariateNormalLogPDF(y[0], y[1], 1, -3, 4, 0.25, rho)
			got := c.logPDF(y)
			switch s := max(math.Abs(y[0]-1)/2, math.Abs(y[1]+3)/0.5); {
			case alpha < 1e25 && s > 2e3 || s > 1e7:
				if !finite(got) {
					t.Errorf("α %v: LogPDF(%v) = %v, want finite", alpha, y, got)
				}
			case alpha < 1e25:
				if !(math.Abs(got-want) <= 1e-5*math.Abs(want)) {
					t.Errorf("α %v: LogPDF(%v) = %.17g, want about %.17g", alpha, y, got, want)
				}
			case !(math.Abs(got-want) <= 1e-12*max(1, math.Abs(want))):
				t.Errorf("α %v: LogPDF(%v) = %.17g, want %.17g", alpha, y, got, want)
			}
		}
	}
}
