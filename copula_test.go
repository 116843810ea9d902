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
	// Against mpmath (testdata/gen_normalscore.py), in tails down to
	// 1e-300 and, from the logarithm of the tail, far below (the deep
	// rows, |u| > 37.5, out to u = 3.7e7 for a t and 1e150 for the
	// Gaussian). Down to 1e-300 the tails are studentTCDF's, within 3e-13
	// relative there (its doc), which moves u = Φ⁻¹(q) by 3e-13/(|u|·…)
	// ≤ 3e-13 of itself for |u| ≥ 1; the quantile adds a few ulps. Near
	// the median u has no relative accuracy to speak of (F ≈ ½ holds only
	// absolute accuracy), so the bound is 2e-13·max(|u|, 1). Below, ln q
	// is accurate to a few ulps of itself (studentTDist.logTail), and a
	// relative error ε of ln q ≈ −u²/2 moves u by about ε/2 of itself, so
	// the deep rows are held to 1e-14 relative (measured below, logged).
	rows := readRefCSV(t, "testdata/normalscore_ref.csv")
	seen := map[string]int{}
	var worstDeep float64
	for _, rec := range rows {
		p := normalScoreRefPrediction(t, rec[0], rec[1])
		y, _ := strconv.ParseFloat(rec[2], 64)
		want, _ := strconv.ParseFloat(rec[3], 64)
		got := normalScore(&p, y, false)
		tol := 2e-13 * max(math.Abs(want), 1)
		if math.Abs(want) > 37.5 {
			tol = 1e-14 * math.Abs(want)
			worstDeep = max(worstDeep, math.Abs(got-want)/math.Abs(want))
			seen["deep"]++
		}
		if !(math.Abs(got-want) <= tol) {
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
	for _, k := range []string{"t", "logt", "mix", "deep"} {
		if seen[k] < 8 {
			t.Errorf("%d rows of kind %s", seen[k], k)
		}
	}
	t.Logf("%d deep rows: largest relative error %.2g", seen["deep"], worstDeep)
}

func TestNormalScoreFarAndSpecial(t *testing.T) {
	tp := Prediction{Loss: LossGCP, Mean: 0, Alpha: 50, Beta: 25, Nu: 1, Members: 1} // dof 100, scale 1
	// Far beyond float64's tails, from the tail's logarithm: finite.
	for _, y := range []float64{1e5, 1e300, math.MaxFloat64} {
		if u := normalScore(&tp, y, false); !(u > 38) || math.IsInf(u, 1) {
			t.Errorf("u(%v) = %v, want finite and > 38", y, u)
		}
		if u := normalScore(&tp, -y, false); !(u < -38) || math.IsInf(u, -1) {
			t.Errorf("u(%v) = %v, want finite and < −38", -y, u)
		}
	}
	// Monotone and antisymmetric across the switch to the log tail
	// (scoreLogTailMax) and out to MaxFloat64, for t's of small to
	// huge dof, the normal, and a mixture of them.
	mix := Prediction{Loss: LossGCP, Members: 3}
	mix.Components[0], mix.Components[1], mix.Components[2] = Component{0, 1, 3}, Component{0, 2, 1e12}, Component{0, 0.5, math.Inf(1)}
	far := []*Prediction{&mix}
	for _, alpha := range []float64{0.5, 1.5, 15, 5e3, 5e11, 1e30} {
		far = append(far, &Prediction{Loss: LossGCP, Alpha: alpha, Beta: alpha / 2, Nu: 1, Members: 1})
	}
	for _, p := range far {
		prev := 0.0
		for y := 1.0; y < math.MaxFloat64; y *= 1.01 {
			u := normalScore(p, y, false)
			if !(u >= prev) || math.IsInf(u, 0) || u != -normalScore(p, -y, false) {
				t.Fatalf("α %v: u(%v) = %v after %v, u(−y) = %v", p.Alpha, y, u, prev, normalScore(p, -y, false))
			}
			prev = u
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

// BenchmarkNormalScore measures one normal score (normalScore) in the
// ordinary range, |u| < 8 (t's of 6 and 100 dof, a mixture of three, a
// logged t), and far out (tails from 1e-300 down to e^(−1e6), from
// their logarithms), cycling over a few y each.
func BenchmarkNormalScore(b *testing.B) {
	t6 := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 3, Beta: 1.5, Nu: 1, Members: 1}
	t100 := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 50, Beta: 25, Nu: 1, Members: 1}
	mix := Prediction{Loss: LossGCP, Members: 3}
	mix.Components[0], mix.Components[1], mix.Components[2] = Component{0, 1, 5}, Component{0.5, 2, 30}, Component{-1, 0.5, 3}
	logt := t6
	logt.Transform, logt.ZMean, logt.Mean = TransformLog, 0.5, math.Exp(0.5)
	body := []float64{-9, -3, -1, -0.2, 0.1, 0.7, 2, 4, 12}
	logBody := []float64{1e-4, 0.05, 0.5, 1.3, 2, 6, 40, 300, 1e4}
	for _, c := range []struct {
		name string
		p    *Prediction
		ys   []float64
	}{
		{"t6", &t6, body}, {"t100", &t100, body}, {"mix", &mix, body}, {"logt", &logt, logBody},
		{"far-t6", &t6, []float64{-1e300, 1e200, -1e120, 1e150}},
		{"far-t100", &t100, []float64{-1e5, 1e10, -200, 1e300}},
		{"far-mix", &mix, []float64{-1e300, 1e200, -1e120, 1e150}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				sinkLoss = normalScore(c.p, c.ys[i%len(c.ys)], false)
			}
		})
	}
}
