package gcp

import "math"

// The Gaussian copula (docs/multivariate.md, Sec. 12): d one-target
// predictives f_j, F_j joined by a correlation matrix R, of density
//
//	ln p(y) = Σ_j ln f_j(y_j) − ½ ln det R − ½ uᵀ(R⁻¹ − I)u,  u_j = Φ⁻¹(F_j(y_j)).
//
// R is held as its packed lower Cholesky factor L (by rows, d(d+1)/2
// values, each row of unit norm, as R's unit diagonal makes it), so that
// ln det R = 2 Σ_i ln L_ii and uᵀR⁻¹u = |L⁻¹u|², one forward substitution.
// Under the law uᵀR⁻¹u is chi-square with d degrees of freedom, which
// gives the copula's regions.

// copulaDistance2 returns q = uᵀR⁻¹u, R = LLᵀ the correlation matrix of
// the packed lower Cholesky factor l, for the normal scores u (len(u) = d
// ≤ maxTargets, len(l) = d(d+1)/2): chi-square with d degrees of freedom
// under the copula. +Inf where a score is infinite, NaN where one is NaN.
func copulaDistance2(l, u []float64) float64 {
	var w [maxTargets]float64
	return copulaSolve(l, u, w[:len(u)])
}

// copulaSolve writes w = L⁻¹u by forward substitution and returns |w|²,
// +Inf where u has an infinite entry (and no NaN).
func copulaSolve(l, u, w []float64) float64 {
	var q float64
	for i, v := range u {
		if math.IsInf(v, 0) {
			q = math.Inf(1)
			continue
		}
		row := l[i*(i+1)/2:]
		s := v
		for c := range i {
			s -= row[c] * w[c]
		}
		w[i] = s / row[i]
		q += w[i] * w[i]
	}
	for _, v := range u {
		if math.IsNaN(v) {
			return v
		}
	}
	return q
}

// copulaLogDensity returns the log density of the Gaussian copula of
// correlation R = LLᵀ (l packed by rows) at the normal scores u,
// −½ ln det R − ½ uᵀ(R⁻¹ − I)u = −Σ_i ln L_ii − ½(|L⁻¹u|² − |u|²): 0
// for R = I. A score of ±Inf (y = ±Inf, normalScore) sends
// it to −Inf where its target is correlated with another, since
// (R⁻¹)_jj > 1 then makes the form grow like u_j²; a target independent of
// all others (row j of L is the unit vector e_j and no later row holds
// column j) drops out of it, and its infinite score with it. NaN where a
// score is NaN.
func copulaLogDensity(l, u []float64) float64 {
	d := len(u)
	var buf, w [maxTargets]float64
	v := buf[:d]
	copy(v, u)
	var big bool
	for j, x := range v {
		switch {
		case math.IsNaN(x):
			return x
		case math.IsInf(x, 0) && !copulaIndependent(l, j, d):
			return math.Inf(-1)
		case math.IsInf(x, 0):
			v[j] = 0
		}
		big = big || math.Abs(v[j]) > 0x1p500
	}
	if big {
		// Scores beyond 2⁵⁰⁰ (a Gaussian marginal's, (y − m)/σ, up to
		// 1.9e154 where its density is still finite) would overflow
		// their squares: the form is taken of 2⁻⁶⁰⁰·u and scaled back,
		// exactly, to ±Inf only where it exceeds float64's range.
		for j := range v {
			v[j] *= 0x1p-600
		}
	}
	q := copulaSolve(l, v, w[:d])
	var s, uu float64
	for i, x := range v {
		s += math.Log(l[i*(i+3)/2])
		uu += x * x
	}
	if big {
		return -s - 0.5*(q-uu)*0x1p600*0x1p600
	}
	return -s - 0.5*(q-uu)
}

// copulaIndependent reports whether target j of the copula of the packed
// factor l (d targets) is uncorrelated with every other: row j of L is
// e_j and column j is 0 below it, so that row and column j of R are e_j.
func copulaIndependent(l []float64, j, d int) bool {
	for i := range d {
		for c := range min(i, j) + 1 {
			if v := l[i*(i+1)/2+c]; (i == j || c == j) && (i == j && c == j) != (v != 0) {
				return false
			}
		}
	}
	return true
}

// copulaScores writes into u (len(u) = len(y) = len(marg)) the normal
// scores of the targets y under the marginal predictions marg, calibrated
// or not (normalScore).
func copulaScores(marg []Prediction, y []float64, calibrated bool, u []float64) {
	for j := range u {
		u[j] = normalScore(&marg[j], y[j], calibrated)
	}
}

// copulaRegionDistance2 returns the squared distance of the targets y
// that the calibrated and conformal regions of a copula model measure,
// q̃ = ũᵀR⁻¹ũ of the calibrated marginals' scores ũ (R = LLᵀ, l packed):
// in the targets as the marginals model them (z = g(y)) the Mahalanobis
// distance under the corrected covariance Σ̃_ij = R_ij·√(Ṽ_i Ṽ_j), as
// the joint t's calibrated region measures it. The recipe fits the
// region's scale and ν (calibrateRegion) to these of rows the marginals
// did not train on, and keeps their square roots as the conformal scores
// (jointConformalScores).
func copulaRegionDistance2(marg []Prediction, l, y []float64) float64 {
	var u [maxTargets]float64
	copulaScores(marg, y, true, u[:len(y)])
	return copulaDistance2(l, u[:len(y)])
}

// copulaPrediction is what a MultiPrediction holds of the Gaussian
// copula of one-target predictions: each target's marginal prediction,
// as its one-target model predicts it, and R's packed factor, the
// model's (shared, never changed), or for a Conditional the conditional
// marginals and the factor of their R′, which it holds in own, the
// MultiPrediction's own storage, reused from call to call. A zero
// copulaPrediction (nil chol) is a MultiPrediction of the joint t.
type copulaPrediction struct {
	marg []Prediction
	chol []float64
	own  []float64
}

// on reports whether the prediction is the copula's.
func (c *copulaPrediction) on() bool { return c.chol != nil }

// corr returns R_ij.
func (c *copulaPrediction) corr(i, j int) float64 {
	li, lj := c.chol[i*(i+1)/2:], c.chol[j*(j+1)/2:]
	var s float64
	for k := range min(i, j) + 1 {
		s += li[k] * lj[k]
	}
	return s
}

// cov returns R_ij·√(v_i·v_j), v_k the variance variance(&marg[k]), the
// square roots apart so that the product stays within float64's range.
func (c *copulaPrediction) cov(i, j int, variance func(*Prediction) float64) float64 {
	if i == j {
		return variance(&c.marg[i])
	}
	return c.corr(i, j) * math.Sqrt(variance(&c.marg[i])) * math.Sqrt(variance(&c.marg[j]))
}

// logPDF returns the copula's log density at y (len(y) = len(marg)),
// Σ_j ln f_j(y_j) − ½ ln det R − ½ uᵀ(R⁻¹ − I)u, with f_j the marginals'
// predictive densities and u_j their scores: −Inf where a marginal's
// density is 0 (an infinite y_j, one outside its transform's domain) and
// NaN for a NaN y_j.
func (c *copulaPrediction) logPDF(y []float64) float64 {
	var u [maxTargets]float64
	var s float64
	for j := range y {
		p := &c.marg[j]
		s += p.LogPDF(y[j])
		u[j] = normalScore(p, y[j], false)
	}
	if math.IsNaN(s) || math.IsInf(s, -1) {
		return s
	}
	return s + copulaLogDensity(c.chol, u[:len(y)])
}

// regionLogPDF returns the log density at z, the targets as the marginals
// model them, of the multivariate t of nu degrees of freedom (the
// Gaussian for +Inf), location the calibrated marginals' means and scale
// scale·Σ̃, Σ̃_ij = R_ij·√(Ṽ_i Ṽ_j): the calibrated region's law, whose
// packed Cholesky factor is row i of R's scaled by √(scale·Ṽ_i).
func (c *copulaPrediction) regionLogPDF(z []float64, scale, nu float64) float64 {
	var m, w [maxTargets]float64
	var l [maxTargets * (maxTargets + 1) / 2]float64
	for i := range z {
		m[i] = c.modeledMean(i)
		f, row := math.Sqrt(scale)*math.Sqrt(modeledCorrected(&c.marg[i])), i*(i+1)/2
		for k := range i + 1 {
			l[row+k] = f * c.chol[row+k]
		}
	}
	return mvtLogDensity(z, m[:len(z)], l[:len(c.chol)], nu, w[:len(z)])
}

// distance2 returns uᵀR⁻¹u of the targets y, u their scores under the
// marginals' predictives (the calibrated region's distance is
// copulaRegionDistance2's).
func (c *copulaPrediction) distance2(y []float64) float64 {
	var u [maxTargets]float64
	copulaScores(c.marg, y, false, u[:len(y)])
	return copulaDistance2(c.chol, u[:len(y)])
}

// members returns the most members of the marginals' mixtures.
func (c *copulaPrediction) members() int {
	k := 1
	for j := range c.marg {
		k = max(k, c.marg[j].Members)
	}
	return k
}

// disagreement returns the largest of the marginals' Disagreement.
func (c *copulaPrediction) disagreement() float64 {
	var s float64
	for j := range c.marg {
		s = max(s, c.marg[j].Disagreement)
	}
	return s
}

// modeledMean returns the location of marginal i in the target as its
// model models it: ZMean under a transform, Mean otherwise.
func (c *copulaPrediction) modeledMean(i int) float64 {
	if c.marg[i].given.on() {
		return c.marg[i].given.centre
	}
	if c.marg[i].Transform != TransformNone {
		return c.marg[i].ZMean
	}
	return c.marg[i].Mean
}

// modeledCorrected returns the calibrated variance of marginal i in the
// target as its model models it: ZVarCorrected under a transform,
// VarCorrected otherwise.
func modeledCorrected(p *Prediction) float64 {
	if p.Transform != TransformNone {
		return p.ZVarCorrected
	}
	return p.VarCorrected
}

// quantiles maps the draw v of the normal scores to the targets in
// place, y_j = F_j⁻¹(Φ(v_j)), F_j the calibrated marginal's CDF if
// calibrated. The calibrated marginal is the Gaussian N(m_j, Ṽ_j) of the
// target as its model models it (z_j = g_j(y_j)), whose F⁻¹(Φ(v)) is
// m_j + √Ṽ_j·v, mapped back through g_j⁻¹: exact however far out v
// lies. Otherwise Φ(v_j) is clamped to the float64s inside (0, 1), so
// that a draw beyond Φ's resolution (v_j above about 8.3, where Φ rounds
// to 1, a chance of 1e-16, or below −38.5) takes the marginal's most
// extreme quantile there rather than failing.
func (c *copulaPrediction) quantiles(v []float64, calibrated bool) {
	for j, x := range v {
		p := &c.marg[j]
		if calibrated {
			v[j] = p.Transform.invert(c.modeledMean(j) + math.Sqrt(modeledCorrected(p))*x)
			continue
		}
		if p.given.on() {
			v[j] = p.givenQuantile(x)
			continue
		}
		prob := 0.5 * math.Erfc(-x/math.Sqrt2)
		v[j], _ = p.Quantile(min(max(prob, math.SmallestNonzeroFloat64), math.Nextafter(1, 0)))
	}
}
