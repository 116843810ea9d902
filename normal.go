package gcp

import (
	"math"
)

// normal is the Gaussian N(mean, variance), the predictive of the
// comparator losses: the limit α → ∞ of the Student t.
type normal struct{ mean, variance float64 }

// logPDF returns ln N(y | mean, variance).
func (g normal) logPDF(y float64) float64 {
	nll, _, _ := gaussianNLL(g.mean, g.variance, y)
	return -nll
}

// cdf returns P(Y ≤ y) = erfc(−(y − mean)/√(2·variance))/2, accurate in
// both tails.
func (g normal) cdf(y float64) float64 {
	return 0.5 * math.Erfc(-(y-g.mean)/math.Sqrt(2*g.variance))
}

// normalLogUpperTail returns ln P(Z > s) = ln(½·erfcx(s/√2)) − s²/2 for
// the standard normal Z and s ≥ 0 (erfcx: no cancellation, no
// underflow), finite where the tail underflows float64, down to −Inf
// beyond s ≈ 1.9e154, where it is below −MaxFloat64.
func normalLogUpperTail(s float64) float64 {
	x := s / math.Sqrt2
	return math.Log(0.5*erfcx(x)) - x*x
}

// quantile returns the y with cdf(y) = prob, for prob in (0, 1), as
// mean + sd·z with z = standardNormalQuantile(prob).
func (g normal) quantile(prob float64) float64 {
	return g.mean + math.Sqrt(g.variance)*standardNormalQuantile(prob)
}

// standardNormalQuantile returns Φ⁻¹(prob) for prob in (0, 1), finite
// for every such float64, down to the smallest subnormal 2⁻¹⁰⁷⁴ (where it
// is about −38.47). It works in the lower tail, q = min(prob, 1 − prob)
// (1 − prob is exact for prob ≥ ½, so the upper tail mirrors the lower one
// exactly). Down to q = normalTailMin, math.Erfcinv gives a start good to
// about 1e-9 relative (it computes Erfinv(1 − 2q), which loses the digits
// of 2q, and all of them once 2q < 2⁻⁵³), and two Halley steps on
// Φ(z) = q, with Φ from math.Erfc, accurate relative to q however small,
// make it accurate to a few ulps. Below, it solves on the log scale
// (normalLogQuantile).
func standardNormalQuantile(prob float64) float64 {
	q := min(prob, 1-prob)
	var z float64
	if q < normalTailMin {
		z = normalLogQuantile(logFull(q)) // math.Log flushes a subnormal q
	} else {
		z = -math.Sqrt2 * math.Erfcinv(2*q)
		for i := 0; i < 2 && finite(z); i++ {
			pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
			if pdf == 0 {
				break
			}
			t := (0.5*math.Erfc(-z/math.Sqrt2) - q) / pdf
			z -= t / (1 + z*t/2)
		}
	}
	if prob > 0.5 {
		return -z
	}
	return z
}

// normalTailMin is the lower-tail probability below which
// standardNormalQuantile leaves the Erfcinv start for normalLogQuantile:
// at q = 1e-10 the start has lost about 6 of its digits to 1 − 2q and two
// Halley steps still recover them; by 5e-17 it has lost all and is −Inf.
const normalTailMin = 1e-10

// normalLogQuantile returns the z < 0 with ln Φ(z) = lq, for lq < ln ½,
// by Newton's method on g(z) = ln Φ(z) − lq, with ln Φ(z) = ln(½·erfcx(x))
// − z²/2 and g′(z) = φ(z)/Φ(z) = √(2/π)/erfcx(x), x = −z/√2 (erfcx): no
// term underflows, so a subnormal q is resolved as well as a normal one,
// where Φ and φ themselves would keep only a few bits, and a q far below
// float64's range (a copula's normal score from a log tail, normalScore)
// as well. ln Φ is concave, so the iteration converges monotonically, and
// quadratically, from the start of the tail's asymptotic series,
// −√(−2 lq − ln(−2 lq) − ln 2π), good to about 1e-3 at lq = ln 1e-10.
// Below lq = −2⁶⁰ that start is −√(−2 lq) to within rounding (the two
// logarithms are below 2⁻⁵⁵ of −2 lq, and the series' next term, about
// 1/z², far below), so it is returned as −√2·√(−lq), which needs no
// steps and does not overflow where −2·lq and z² would (below about
// −9e307): −Inf only for lq = −Inf.
func normalLogQuantile(lq float64) float64 {
	if lq < -0x1p60 {
		return -math.Sqrt2 * math.Sqrt(-lq)
	}
	u := -2 * lq
	z := -math.Sqrt(u - math.Log(u) - math.Log(2*math.Pi))
	for range normalTailSteps {
		e := erfcx(-z / math.Sqrt2)
		step := (math.Log(0.5*e) - z*z/2 - lq) * e / math.Sqrt(2/math.Pi)
		z -= step
		if math.Abs(step) <= 0x1p-52*math.Abs(z) {
			break
		}
	}
	return z
}

// normalTailSteps bounds normalLogQuantile's Newton steps: from the
// start's 1e-3 relative error, quadratic convergence needs four to reach
// float64's precision, and one more confirms it.
const normalTailSteps = 8

// gaussianNLL returns −ln N(y | m, s) and its derivatives with respect to
// m and the variance s.
func gaussianNLL(m, s, y float64) (nll, dm, ds float64) {
	r := y - m
	q := r / s
	return 0.5 * (math.Log(2*math.Pi*s) + r*q), -q, 0.5 * (1 - r*q) / s
}
