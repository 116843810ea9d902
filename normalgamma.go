package gcp

import (
	"math"

	"github.com/gcpnet/gcp/internal/coef"
)

// NormalGamma is the normal-gamma distribution over the mean μ and the
// precision τ of a Gaussian target (paper: Eq. (2.1)). A GCP network
// outputs one per input x. Its predictive distribution for y is the
// non-standardized Student's t-distribution t₂α(y | m, β(ν+1)/(να)), with
// 2α degrees of freedom, location m and squared scale β(ν+1)/(να)
// (paper: Practical approach 2.1).
//
// The zero value is not a valid distribution: Nu, Alpha and Beta must be
// positive. Methods of an invalid NormalGamma return NaN.
type NormalGamma struct {
	M     float64 // location of μ; the predicted mean
	Nu    float64 // ν > 0: pseudo-count of the mean
	Alpha float64 // α > 0: shape of τ; 2α is the predictive's degrees of freedom
	Beta  float64 // β > 0: rate of τ
}

// sigma returns σ = β(ν+1)/ν (paper: Eq. (3.3)), written β(1+1/ν) so
// that it stays finite as ν → 0 until 1/ν itself overflows.
func (p NormalGamma) sigma() float64 { return p.Beta * (1 + 1/p.Nu) }

// logSigma returns ln σ = ln β + ln(1 + 1/ν), finite even where σ
// overflows (ν subnormal, β near MaxFloat64).
func (p NormalGamma) logSigma() float64 {
	if p.Nu >= 1 {
		return logFull(p.Beta) + math.Log1p(1/p.Nu)
	}
	return logFull(p.Beta) + math.Log1p(p.Nu) - logFull(p.Nu)
}

// scale returns the predictive's scale s, s² = β(ν+1)/(να) = σ/α: as
// √(β/α)·√(1 + 1/ν) where σ itself overflows and s² need not (α and β
// both huge, as a huge scale with many degrees of freedom gives,
// MultiPrediction.Marginal).
func (p NormalGamma) scale() float64 {
	if s := p.sigma(); s <= math.MaxFloat64 {
		return math.Sqrt(s / p.Alpha)
	}
	return math.Sqrt(p.Beta/p.Alpha) * math.Sqrt(1+1/p.Nu)
}

// valid reports whether ν, α and β are positive (which excludes NaN).
func (p NormalGamma) valid() bool { return p.Nu > 0 && p.Alpha > 0 && p.Beta > 0 }

// residual returns, for t = (y−m)/√(2σ) and u = t² = (y−m)²/(2σ), the
// quantities w = 1/(1+u), v = u/(1+u), tw = t/(1+u) and ln(1+u). For
// |t| > 1 they are computed as 1/(1+u), 1/(1+1/u), 1/(t+1/t) and, once u
// overflows, 2·ln|t|, so each stays exact for any finite y−m. Working with
// them keeps the gradients finite and accurate in the limit |y−m| → ∞, a
// normal operating point for outliers (paper: Sec. 5.1).
func (p NormalGamma) residual(y float64) (w, v, tw, log1pU float64) {
	t := p.standardize(y, math.Sqrt(2*p.sigma()))
	u := t * t
	if u <= 1 {
		w = 1 / (1 + u)
		return w, u * w, t * w, math.Log1p(u)
	}
	log1pU = math.Log1p(u)
	if math.IsInf(u, 1) {
		log1pU = 2 * math.Log(math.Abs(t))
	}
	return 1 / (1 + u), 1 / (1 + 1/u), 1 / (t + 1/t), log1pU
}

// standardize returns (y−m)/s: 0 for y = m whatever the scale (even one
// that has underflowed to 0), and, when y−m and s have both overflowed,
// the finite limit y/s − m/s rather than ∞/∞.
func (p NormalGamma) standardize(y, s float64) float64 {
	r := y - p.M
	if r == 0 {
		return 0
	}
	if t := r / s; !math.IsNaN(t) {
		return t
	}
	return y/s - p.M/s
}

// LogPredictive returns ln t₂α(y | m, β(ν+1)/(να)), the log density of
// the predictive distribution at y (paper: Eq. (2.11), Practical approach 2.1):
//
//	lnΓ(α+½) − lnΓ(α) − ½ln(2πσ) − (α+½)·ln(1 + (y−m)²/(2σ)).
//
// The gamma ratio is computed as one stable function, not as a difference
// of two log-gammas, so the value keeps its accuracy for α up to 1e6 and
// beyond. By Lemma 2.1, −LogPredictive is the loss whose gradient
// is the GCP update.
func (p NormalGamma) LogPredictive(y float64) float64 {
	if !p.valid() {
		return math.NaN()
	}
	_, _, _, log1pU := p.residual(y)
	return lgammaHalfStep(p.Alpha) - 0.5*(coef.Log2Pi+p.logSigma()) - (p.Alpha+0.5)*log1pU
}

// Grad returns the GCP gradient ∂K/∂(m, α, β, ν) of the KL divergence from
// the posterior after observing y (held frozen) to the prior p (paper:
// Eq. (3.4), Eq. (3.5), Eq. (3.6), Eq. (3.7)). By Lemma 2.1 it
// equals −∇ LogPredictive(y).
//
// With u = (m−y)²/(2σ), the β and ν components share the factor
// g = (α+½)/(1+u) − α, which is evaluated as ½/(1+u) − α·u/(1+u) so that no
// two large terms cancel when α is large, and Ψ(α) − Ψ(α+½) is evaluated
// directly, not as a difference of two digammas.
func (p NormalGamma) Grad(y float64) (dm, dalpha, dbeta, dnu float64) {
	if !p.valid() {
		nan := math.NaN()
		return nan, nan, nan, nan
	}
	w, v, tw, log1pU := p.residual(y)
	a := p.Alpha
	// (α+½)(m−y)/(σ(1+u)) = −(α+½)·t/(1+u)·√2/√σ: finite and accurate
	// for every finite residual, vanishing like 1/|y−m|, and √2/√σ does
	// not overflow for a subnormal σ as √(2/σ) would.
	dm = -(a + 0.5) * (tw * (math.Sqrt2 / math.Sqrt(p.sigma())))
	dalpha = log1pU - digammaHalfStep(a)
	g := 0.5*w - a*v
	dbeta = g / p.Beta
	dnu = -g / (p.Nu * (p.Nu + 1))
	return dm, dalpha, dbeta, dnu
}

// Posterior returns the conjugate-prior (CP) update of p after observing y
// (paper: Eq. (2.7)):
//
//	m' = (νm + y)/(ν+1), ν' = ν+1, α' = α+½, β' = β + ν/(ν+1)·(y−m)²/2.
//
// For an invalid p every field of the result is NaN.
func (p NormalGamma) Posterior(y float64) NormalGamma {
	if !p.valid() {
		nan := math.NaN()
		return NormalGamma{M: nan, Nu: nan, Alpha: nan, Beta: nan}
	}
	r := y - p.M
	return NormalGamma{
		M:     (p.Nu*p.M + y) / (p.Nu + 1),
		Nu:    p.Nu + 1,
		Alpha: p.Alpha + 0.5,
		Beta:  p.Beta + p.Nu/(p.Nu+1)*r*r/2,
	}
}

// KL returns the Kullback–Leibler divergence D_KL(p‖q) between two
// normal-gamma distributions in closed form (paper: Eq. (2.9), with
// p in the role of the primed posterior and q of the prior).
func (p NormalGamma) KL(q NormalGamma) float64 {
	if !p.valid() || !q.valid() {
		return math.NaN()
	}
	// Dividing by β′ inside each product, and squaring (m−m′)·√ν rather
	// than multiplying (m−m′)² by ν, keeps each term finite whenever its
	// value is, and exactly 0 when its factor is (as for q = p).
	d := (q.M - p.M) * math.Sqrt(q.Nu)
	mean := 0.5 * p.Alpha * (d / p.Beta * d)
	nu := 0.5*q.Nu/p.Nu - 0.5*logFull(q.Nu/p.Nu) - 0.5
	lgq, _ := math.Lgamma(q.Alpha)
	lgp, _ := math.Lgamma(p.Alpha)
	gamma := -q.Alpha*logFull(q.Beta/p.Beta) + (lgq - lgp) -
		(q.Alpha-p.Alpha)*digamma(p.Alpha) + p.Alpha*((q.Beta-p.Beta)/p.Beta)
	return mean + nu + gamma
}

// Mean returns the predicted mean m (paper: Eq. (2.17)).
func (p NormalGamma) Mean() float64 {
	if !p.valid() {
		return math.NaN()
	}
	return p.M
}

// Var returns the Student-t variance V_est = β(ν+1)/((α−1)ν) of the
// predictive distribution (paper: Eq. (2.17)), and +Inf when
// α ≤ 1, where that variance does not exist.
func (p NormalGamma) Var() float64 {
	if !p.valid() {
		return math.NaN()
	}
	return p.varOfSigma(p.sigma())
}

// varOfSigma returns Var of a valid p whose σ is sigma.
func (p NormalGamma) varOfSigma(sigma float64) float64 {
	if p.Alpha <= 1 {
		return math.Inf(1)
	}
	return sigma / (p.Alpha - 1)
}

// VarCorrected returns the outlier-corrected variance
// Ṽ_est = β(ν+1)/((α−A(α))ν) (paper: Eq. (2.18), Eq. (4.5)),
// with A from Definition 3.1. It recovers the variance of the clean
// Gaussian part of the data when outliers keep α finite
// (Corollary 4.1). α−A(α) is evaluated directly, since
// for small α it is ≈ (4/π)α² and a subtraction would cancel.
func (p NormalGamma) VarCorrected() float64 {
	if !p.valid() {
		return math.NaN()
	}
	return p.sigma() / correctionGap(p.Alpha)
}

// CDF returns the predictive distribution function P(Y ≤ y) of
// t₂α(y | m, β(ν+1)/(να)).
func (p NormalGamma) CDF(y float64) float64 {
	if !p.valid() {
		return math.NaN()
	}
	return studentTCDF(p.standardize(y, p.scale()), 2*p.Alpha)
}

// Quantile returns the y with CDF(y) = prob for prob in (0, 1); it returns
// ∓Inf at prob = 0 and 1, and NaN outside [0, 1].
func (p NormalGamma) Quantile(prob float64) float64 {
	return p.M + p.deviation(prob)
}

// deviation returns Quantile(prob) − M: the scale times the standard
// Student-t quantile, 0 at the median also when the scale has overflowed,
// and NaN for an invalid p.
func (p NormalGamma) deviation(prob float64) float64 {
	if !p.valid() {
		return math.NaN()
	}
	q := studentTQuantile(prob, 2*p.Alpha)
	if q == 0 {
		return 0
	}
	return p.scale() * q
}

// Interval returns the central interval that holds the predictive
// probability mass level, for level in (0, 1). It returns ErrLevel
// otherwise. The upper bound is the lower one mirrored about M, as the
// predictive is symmetric: as Quantile(1 − tail) it would lose the tail to
// rounding, and at level = 1 − 2⁻⁵³ become Quantile(1) = +Inf.
func (p NormalGamma) Interval(level float64) (lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, ErrLevel
	}
	d := p.deviation((1 - level) / 2)
	return p.M + d, p.M - d, nil
}

// GCPStep returns the prior after one parameter-level GCP update with
// learning rate lr on the observation y (paper: Eq. (3.2)):
// every parameter moves by −lr·∂K/∂(·). To hold α fixed, as in Sec.
// Sec. 4 (Eq. (4.1)), set Alpha of the
// result back to p.Alpha.
//
// A step that would take ν, α or β to zero or below instead halves that
// parameter, so the iterate stays a valid distribution; with a learning
// rate small enough for the dynamics of Sec. 3 this never
// happens. A step that would make a parameter infinite, or is undefined
// (an infinite gradient at extreme parameters times lr = 0), leaves it
// where it is.
func (p NormalGamma) GCPStep(y, lr float64) NormalGamma {
	dm, da, db, dn := p.Grad(y)
	m := p.M - lr*dm
	if !finite(m) {
		m = p.M
	}
	return NormalGamma{
		M:     m,
		Alpha: positiveStep(p.Alpha, lr*da),
		Beta:  positiveStep(p.Beta, lr*db),
		Nu:    positiveStep(p.Nu, lr*dn),
	}
}

// positiveStep returns x − d when that is positive and finite, x halved
// (but not to zero) when it is not positive, and x otherwise.
func positiveStep(x, d float64) float64 {
	switch n := x - d; {
	case n > 0 && n <= math.MaxFloat64:
		return n
	case n <= 0:
		return max(x/2, math.SmallestNonzeroFloat64)
	}
	return x
}
