package gcp

import (
	"math"
	"math/rand/v2"
)

// Sample writes into dst (len(dst) = Dim()) one draw of the predictive,
// with the randomness of r: for the t, m + L·g·√(ν/W) with g standard
// normal, W chi-square with ν degrees of freedom and S = LLᵀ; for an
// ensemble, a member picked by its weight in the mixture, then its t; for
// the Gaussian comparator, m + L·g. Draws feed what has no closed form: a
// score such as the energy score, the law of a function of the targets,
// a simulation. It returns ErrShape for a dst of the wrong length and
// ErrConfig for a nil r, and allocates nothing; many goroutines may draw
// from one prediction at once, each with its own r (a rand.Rand is not
// safe for concurrent use). Under target transforms (Model.TargetTransforms)
// the draw is in original units: a draw of z mapped through g⁻¹.
//
// Under the copula it draws the scores v ∼ N(0, R) and returns
// y_j = F_j⁻¹(Φ(v_j)) by each marginal's Quantile, so that each y_j has
// its marginal's law and the scores of y are v; a score beyond Φ's
// resolution in float64 (above about 8.3, a chance of 1e-16) takes the
// marginal's quantile at the largest probability below 1.
func (p *MultiPrediction) Sample(dst []float64, r *rand.Rand) error {
	if r == nil {
		return ErrConfig
	}
	if len(dst) != p.d {
		return ErrShape
	}
	if p.cop.on() {
		var zero [maxTargets]float64
		drawGaussian(dst, zero[:p.d], p.cop.chol, 1, r)
		p.cop.quantiles(dst, false)
		return nil
	}
	k := p.pick(r)
	nu, nl := p.nu[k], mvtPackedLen(p.d)
	f := 1.0
	if !math.IsInf(nu, 1) {
		f = chiScale(r, nu)
	}
	drawGaussian(dst, p.loc[k*p.d:(k+1)*p.d], p.chol[k*nl:(k+1)*nl], f, r)
	p.toOriginal(dst)
	return nil
}

// SampleCalibrated writes into dst (len(dst) = Dim()) one draw of the
// calibrated predictive, the multivariate t of RegionNu() degrees of
// freedom, location Mean and scale RegionScale·CovCorrected whose regions
// CalibratedInside tests (the Gaussian N(Mean, RegionScale·CovCorrected)
// for RegionNu() = +Inf), Mean and CovCorrected those of z under target
// transforms, the draw mapped back as Sample's. Its errors, allocations
// and goroutines are Sample's.
//
// Under the copula it draws the calibrated marginals' scores from the
// calibrated region's law, v ∼ t_ν(0, s·R) (ν = RegionNu, s =
// RegionScale), and returns y_j = F̃_j⁻¹(Φ(v_j)), F̃_j Marginal(j)'s
// calibrated predictive: in z the multivariate t of ν degrees of freedom,
// location ZMean and scale s·ZCovCorrected, whose regions
// CalibratedInside tests; at s = 1 and ν = +Inf a draw of the law whose
// density CalibratedLogPDF gives.
func (p *MultiPrediction) SampleCalibrated(dst []float64, r *rand.Rand) error {
	if r == nil {
		return ErrConfig
	}
	if len(dst) != p.d {
		return ErrShape
	}
	f := math.Sqrt(p.regionScale)
	if nu := p.regionNu; !math.IsInf(nu, 1) {
		f *= chiScale(r, nu)
	}
	if p.cop.on() {
		var zero [maxTargets]float64
		drawGaussian(dst, zero[:p.d], p.cop.chol, f, r)
		p.cop.quantiles(dst, true)
		return nil
	}
	if p.members == 1 { // Σ̃ = LLᵀ/c
		drawGaussian(dst, p.loc, p.chol, f/math.Sqrt(p.corr[0]), r)
	} else {
		drawGaussian(dst, p.mean, p.corrChol, f, r)
	}
	p.toOriginal(dst)
	return nil
}

// pick returns a member drawn from r by its weight in the mixture, and a
// single network's one member without a draw.
func (p *MultiPrediction) pick(r *rand.Rand) int {
	switch {
	case p.members == 1:
		return 0
	case !p.weighted:
		return r.IntN(p.members)
	}
	u := r.Float64()
	for k, w := range p.weight[:p.members-1] {
		if u -= w; u < 0 {
			return k
		}
	}
	return p.members - 1 // u left over by rounding
}

// drawGaussian writes m + f·L·g into x, g standard normal from r, L packed
// lower triangular of len(x) rows.
func drawGaussian(x, m, l []float64, f float64, r *rand.Rand) {
	var g [maxTargets]float64
	for i := range x {
		g[i] = r.NormFloat64()
	}
	for i := range x {
		row := l[i*(i+1)/2 : i*(i+1)/2+i+1]
		var s float64
		for c, v := range row {
			s += v * g[c]
		}
		x[i] = m[i] + f*s
	}
}

// chiScale returns √(ν/W) for a draw W of the chi-square law of ν > 0
// degrees of freedom from r, W = 2·Gamma(ν/2): the factor on a Gaussian
// draw that makes it a t's. Below ν = 2 it is formed from ln W
// (lnGammaVariate), since W itself underflows: at ν = 0.01 one draw of
// Gamma(ν/2) in 41 is below 2⁻¹⁰⁷⁴, where √(ν/W) is beyond 10¹⁶⁰ but
// mostly below 10³⁰⁸ (the law puts 8.1·10⁻⁴ of its draws beyond), and
// the draw came out ±Inf. It is +Inf only where √(ν/W) is beyond
// float64 itself.
func chiScale(r *rand.Rand, nu float64) float64 {
	if nu >= 2 {
		return math.Sqrt(nu / (2 * gammaVariate(r, nu/2)))
	}
	return math.Exp((math.Log(nu/2) - lnGammaVariate(r, nu/2)) / 2)
}

// lnGammaVariate returns the logarithm of a draw of Gamma(shape, 1),
// shape > 0, the draw's own below 1 (gammaVariate): there a draw of
// shape + 1 times U^(1/shape), whose logarithm ln G + ln U/shape stays
// finite where G·U^(1/shape) underflows (U < 2⁻¹⁰ at shape 0.01).
func lnGammaVariate(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return lnGammaVariate(r, shape+1) + math.Log(r.Float64())/shape
	}
	return math.Log(gammaVariate(r, shape))
}

// gammaVariate returns a draw of Gamma(shape, 1), shape > 0, by Marsaglia
// and Tsang's method (ACM TOMS 26, 2000): for shape ≥ 1 a squeezed
// rejection from a transformed normal, accepting over 95% of its
// proposals; below 1 a draw of shape + 1 times U^(1/shape)
// (lnGammaVariate).
func gammaVariate(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return math.Exp(lnGammaVariate(r, shape))
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := r.Float64(); math.Log(u) < x*x/2+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}
