package gcp

import "math"

// The calibrated joint region of a model of several targets is the
// multivariate t t_ν(m, s·Σ̃): the model's mean m and corrected
// covariance Σ̃, with a scale s and degrees of freedom ν that AutoFit fits
// to rows the model neither trained on nor was chosen by. Under it the
// squared Mahalanobis distance q = (y − m)ᵀΣ̃⁻¹(y − m) of a row is
// s·d·F(d, ν), F the F distribution of d and ν degrees of freedom, and
// its region of probability p is q/s ≤ d·F⁻¹_{d,ν}(p); ν = +Inf is the
// Gaussian N(m, s·Σ̃), whose q/s is χ²_d.
//
// Why two parameters. A single scale on Σ̃ can make one level right,
// not three: on real data the rows' q are heavier-tailed than χ²_d (the
// model's Σ̃ is right for some rows and too small for others), so the
// Gaussian region matched at 95% holds far more than half the rows at
// 50%. The family s·d·F(d, ν) adds exactly one shape parameter, the
// tail's weight, and keeps what the region needs: it is the law of q when
// the truth is a t with Σ̃'s shape, a Gaussian whose scale varies from
// row to row as a scaled inverse χ²_ν (what a model that is right on
// average, but not row by row, looks like), and ν → ∞ gives back the χ²_d
// law of the Gaussian region. Its density is the calibrated predictive
// (MultiPrediction.CalibratedLogPDF), so (s, ν) are fitted by maximum
// likelihood, as the one-target calibration fits its variance factor:
// the density of q under s·d·F(d, ν) is, up to a factor of q alone, that
// of y under t_ν(m, s·Σ̃), and the rows' log-likelihood per row is
//
//	ℓ(s, ν) = lnΓ((ν+d)/2) − lnΓ(ν/2) − (d/2)·ln(ν/2) − (d/2)·ln s
//	          − ((ν+d)/2)·mean ln(1 + q/(s·ν))
//
// less a constant. For a fixed ν its maximum in s is the unique root of
// mean(q/(s·ν + q)) = d/(ν + d) (the left side falls from 1 to 0 as s
// rises), the equation of the correction c_d itself with the empirical
// law of q in place of χ²_d; ν is then chosen by the profile likelihood.
// A quantile match at a few levels would fit those levels alone and
// give no density; the likelihood uses every row and gives the density
// whose regions the command scores at 50%, 90% and 95%, and the conformal
// region (MultiPrediction.ConformalInside) remains for a guarantee at
// one level that holds whatever the law of q.

// Bounds of the calibrated region's degrees of freedom: ν is searched on
// a geometric grid of regionNuSteps points from regionNuMin to
// regionNuMax, refined between the best point's neighbours, and compared
// with the Gaussian ν = +Inf. Below 1/2 the t is heavier-tailed than any
// calibration set of a few hundred rows can tell apart (its 95% radius is
// already 10⁴ times the median's at d = 2); above 1000 its regions differ
// from the Gaussian's by less than 0.5% in radius at every level up to
// 95% and d ≤ 16, less than the scale's own sampling error on any
// calibration set.
const (
	regionNuMin   = 0.5
	regionNuMax   = 1000
	regionNuSteps = 48
)

// fitRegion returns the maximum-likelihood scale s and degrees of freedom
// ν (+Inf for the Gaussian) of the law s·d·F(d, ν) of the squared
// Mahalanobis distances q, of targets with d values. A distance of +Inf
// (one whose square overflowed) counts as MaxFloat64, the least it can
// be, so that it weighs as a row at 10³⁰⁸ does: towards heavy tails. With
// no rows, or with distances that no such law fits (none positive, or a
// NaN), it returns 1 and +Inf, the uncalibrated Gaussian region. Where
// the zero distances hold a share z of at least ν/(ν+d) at ν =
// regionNuMin, no t of the searched ν fits either: the scale's equation
// has no root at ν ≤ d·z/(1−z), and as ν falls towards that bound the
// root s falls to 0 and the likelihood grows without bound, towards a
// law no region can use. It then returns the Gaussian's scale mean(q)/d.
func fitRegion(q []float64, d int) (s, nu float64) {
	mean, pos := 0.0, 0
	for _, v := range q {
		mean += min(v, math.MaxFloat64) / float64(len(q))
		if v > 0 {
			pos++
		}
	}
	if !positiveFinite(mean) {
		return 1, math.Inf(1)
	}
	nu = math.Inf(1)
	if float64(len(q)-pos) >= regionNuMin/(regionNuMin+float64(d))*float64(len(q)) {
		return mean / float64(d), nu
	}
	best := regionProfile(q, d, nu, mean/float64(d))
	lo, hi := math.Log(regionNuMin), math.Log(regionNuMax)
	step := (hi - lo) / (regionNuSteps - 1)
	bestK := -1
	for k := range regionNuSteps {
		v := math.Exp(lo + float64(k)*step)
		if l := regionProfile(q, d, v, regionScaleAt(q, d, v, mean)); l > best {
			best, bestK = l, k
		}
	}
	if bestK < 0 {
		return mean / float64(d), math.Inf(1)
	}
	// Golden-section search in ln ν between the best grid point's
	// neighbours, where the profile is unimodal to the grid's resolution.
	a := lo + float64(max(bestK-1, 0))*step
	b := lo + float64(min(bestK+1, regionNuSteps-1))*step
	nll := func(t float64) float64 {
		v := math.Exp(t)
		return -regionProfile(q, d, v, regionScaleAt(q, d, v, mean))
	}
	nu = math.Exp(lo + float64(bestK)*step)
	if t := goldenSection(nll, a, b); -nll(t) > best {
		nu = math.Exp(t)
	}
	return regionScaleAt(q, d, nu, mean), nu
}

// regionProfile returns ℓ(s, ν) of the distances q (fitRegion), for ν =
// +Inf the Gaussian's −(d/2)·ln s − mean(q)/(2s).
func regionProfile(q []float64, d int, nu, s float64) float64 {
	var tail float64
	for _, v := range q {
		v = min(v, math.MaxFloat64) // +Inf as fitRegion counts it
		if math.IsInf(nu, 1) {
			tail += v / (2 * s)
		} else {
			tail += (nu + float64(d)) / 2 * math.Log1p(v/(s*nu))
		}
	}
	return mvtLogNorm(d, nu) - float64(d)/2*math.Log(s) - tail/float64(len(q))
}

// regionScaleAt returns the maximum-likelihood scale s of the law
// s·d·F(d, ν) of the distances q for a fixed ν, the root of
// h(t) = mean(q/(e^t·ν + q)) − d/(ν + d) in t = ln s (mean(q)/d for the
// Gaussian), by Newton steps kept inside a bracket that halves where a
// step would leave it. mean is the distances' mean, the Gaussian's
// s·d, from which the search starts; the bracket widens by steps that
// double, since one far distance can put the mean any number of
// magnitudes above the root. A zero distance adds 0 to h at every s.
func regionScaleAt(q []float64, d int, nu, mean float64) float64 {
	if math.IsInf(nu, 1) {
		return mean / float64(d)
	}
	target := float64(d) / (nu + float64(d))
	h := func(t float64) (v, slope float64) {
		b := math.Exp(t) * nu
		for _, x := range q {
			if x > 0 { // not 0/0 where b underflows
				x = min(x, math.MaxFloat64) // +Inf as fitRegion counts it
				v += x / (b + x)
				slope -= b * x / ((b + x) * (b + x))
			}
		}
		n := float64(len(q))
		return v/n - target, slope / n
	}
	t := math.Log(mean / float64(d))
	lo, hi := t, t
	for step := 2.0; step < 4096; step *= 2 { // past e^±4096, beyond any float64
		if v, _ := h(lo); v > 0 {
			break
		}
		lo -= step
	}
	for step := 2.0; step < 4096; step *= 2 {
		if v, _ := h(hi); v < 0 {
			break
		}
		hi += step
	}
	for range 100 {
		v, slope := h(t)
		if v > 0 {
			lo = t
		} else {
			hi = t
		}
		next := t - v/slope
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-t) < 1e-12 {
			t = next
			break
		}
		t = next
	}
	return math.Exp(t)
}

// calibrateRegion returns the calibrated region's scale and degrees of
// freedom for the squared Mahalanobis distances q of a model of d targets
// trained on n rows: fitRegion's, the scale widened on small data
// (widenRegion) and clamped to e^±calibrationRange as the one-target
// factors are.
func calibrateRegion(q []float64, d, n int) (s, nu float64) {
	s, nu = fitRegion(q, d)
	s *= widenRegion(len(q), d, n, nu)
	return min(max(s, math.Exp(-calibrationRange)), math.Exp(calibrationRange)), nu
}

// widenRegion returns the factor on the calibrated region's scale of a
// model of d targets trained on n rows, whose scale was fitted to k rows
// with ν degrees of freedom: 1 from trustedRows rows on, and below it the
// one-target widening (widenSmall) with the degrees of freedom the k rows
// give the scale. The scale is fitted by maximum likelihood, and the
// Fisher information of ln s in one row of t_ν(m, s·Σ̃) is
// d·ν/(2(ν + d + 2)) (the score is ((ν+d)/2)·B − d/2 with B ∼ Beta(d/2,
// ν/2)), that of a χ² scale estimate of k_eff degrees of freedom k_eff/2:
// so the k rows know s as a χ² law of k_eff = k·d·ν/(ν + d + 2) degrees of
// freedom knows its scale, and the upper bound at smallDataConfidence is
// k_eff/χ²(k_eff) at 1 − smallDataConfidence. For d = 1 and the Gaussian
// (ν = ∞) this is the one-target law k/χ²(k) itself; d Gaussian targets
// give a row d degrees of freedom, and heavy tails fewer (at ν = 3, d = 2
// a row gives 6/7 of one). The estimate of ν itself, which takes some of
// the rows' information, is not counted: the bound is a little narrow for
// the smallest sets.
func widenRegion(k, d, n int, nu float64) float64 {
	if n >= trustedRows || k == 0 {
		return 1
	}
	eff := float64(k * d)
	if !math.IsInf(nu, 1) {
		eff *= nu / (nu + float64(d) + 2)
	}
	// The χ² quantile's approximation needs at least one degree of
	// freedom; fewer say that the scale is not known at all, and the
	// factor, about 190 at one, meets calibrateRegion's clamp.
	eff = max(eff, 1)
	return eff / chiSquareQuantile(1-smallDataConfidence, eff)
}

// cvCoverage95 returns the share of the rows inside the calibrated 95%
// region when each is judged by a region fitted without it: the rows are
// dealt into calibrationFolds groups by index, and each group's squared
// Mahalanobis distances judged are judged by calibrateRegion of the
// others' distances q (n, the model's training rows, deciding the
// widening). The region fitted to all rows is judged on them too; this
// is what new rows can expect of it. judged are the distances of q's
// rows' targets as observed where q are those of dequantized targets
// (AutoFit's quantized targets), and q itself otherwise.
func cvCoverage95(q, judged []float64, d, n int) float64 {
	in := 0
	rest := make([]float64, 0, len(q))
	for g := range calibrationFolds {
		rest = rest[:0]
		for i, v := range q {
			if i%calibrationFolds != g {
				rest = append(rest, v)
			}
		}
		s, nu := calibrateRegion(rest, d, n)
		r2 := s * mvtRegionRadius2(0.95, d, nu)
		for i := g; i < len(q); i += calibrationFolds {
			if judged[i] <= r2 {
				in++
			}
		}
	}
	return float64(in) / float64(len(q))
}

// jointConformalScores returns the conformal calibration of the joint
// region from the squared Mahalanobis distances q of its calibration
// rows: their distances √q, ascending, of which the model keeps the order
// statistics the one-target calibration keeps; nil for no rows.
func jointConformalScores(q []float64) *conformalScores {
	s := make([]float64, 0, len(q))
	for _, v := range q {
		if !math.IsNaN(v) {
			s = append(s, math.Sqrt(v))
		}
	}
	return sortedScores(s)
}
