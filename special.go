package gcp

import (
	"math"

	"github.com/gcpnet/gcp/internal/coef"
)

// This file holds the float64 special functions of the normal-gamma model:
// ψ (paper: Eq. (2.9), Eq. (3.5)), the
// scaled complementary error function behind F (paper: Eq. (3.16)), the
// correction A(α) of Definition 3.1 and the stable link
// functions of the softplus outputs (paper: Eq. (5.2)). Every accuracy
// figure quoted below is asserted by special_test.go against mpmath tables
// in testdata, written by testdata/gen_special.py.

const (
	// gammaAsymMin is where digamma, digammaHalfStep and
	// lgammaHalfStep switch from the upward recurrence to their asymptotic
	// series: for z ≥ 10 the first omitted series term is below 2e-17
	// relative, and the recurrence takes at most 10 steps.
	gammaAsymMin = 10
	// erfcxOverflow bounds the x < 0 branch of erfcx: below it
	// 2·exp(x²) > MaxFloat64 (the threshold is x ≈ −26.63), so the
	// result is +Inf. Returning it directly also keeps expSquare away from
	// |x| > 1.3e154, where x*x overflows and its FMA split gives −Inf.
	erfcxOverflow = -26.7
	// erfcxRationalMin is where erfcxRational's approximations begin
	// (Cody's 0.46875).
	erfcxRationalMin = 0.46875
	// invSqrtPi is 1/√π.
	invSqrtPi = 0.56418958354775628694807945156077
)

// digammaSeries holds B_2k/(2k), k = 1…8, of the asymptotic series
// ψ(z) ~ ln z − 1/(2z) − Σ B_2k/(2k·z^2k) (Abramowitz & Stegun 6.3.18).
var digammaSeries = [...]float64{
	1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760, 1.0 / 12, -3617.0 / 8160,
}

// evalPoly returns Σ c[k]·y^k by Horner's rule.
func evalPoly(c []float64, y float64) float64 {
	s := 0.0
	for k := len(c) - 1; k >= 0; k-- {
		s = s*y + c[k]
	}
	return s
}

// digamma returns the digamma function ψ(x) = Γ'(x)/Γ(x) for every real x;
// the KL divergence of the normal-gamma update and its α-gradient are built
// on it (paper: Eq. (2.9), Eq. (3.5)).
//
// For x > 0 the recurrence ψ(x) = ψ(x+n) − Σ_{k<n} 1/(x+k) lifts the
// argument to z = x+n ≥ 10, where the asymptotic series is
// used. For x < 0 the reflection formula ψ(x) = ψ(1−x) − π·cot(πx)
// is used with cot(πx) = cot(πr), where r = x − round(x) is exact, so values
// next to a pole (x = −3 + 1e-10, say) keep full relative accuracy. The
// error is below 1e-14·max(1, |ψ(x)|) for x > 0 and for non-integer
// x ∈ (−100, 0); special_test.go measures it.
//
// Special cases follow math.Gamma: digamma(±0) = ∓Inf (the one-sided limit
// chosen by the sign of the zero), digamma(x) = NaN for negative integers x
// (the one-sided limits are +Inf and −Inf), digamma(+Inf) = +Inf,
// digamma(−Inf) = NaN and digamma(NaN) = NaN.
func digamma(x float64) float64 {
	switch {
	case x > 0:
		return digammaPositive(x)
	case x == 0:
		return -1 / x
	case x >= -math.MaxFloat64: // finite x < 0
		r := x - math.Round(x)
		if r == 0 {
			return math.NaN()
		}
		return digammaPositive(1-x) - math.Pi/math.Tan(math.Pi*r)
	}
	return math.NaN() // −Inf or NaN
}

// digammaPositive returns ψ(x) for x > 0 (including +Inf) by the upward
// recurrence and the asymptotic series described at digamma.
func digammaPositive(x float64) float64 {
	sum := 0.0 // Σ 1/(x+k) over the steps taken
	for ; x < gammaAsymMin; x++ {
		sum += 1 / x
	}
	u := 1 / (x * x)
	// ln z and the sum are the large terms that cancel near the root
	// x0 ≈ 1.4616; taking their difference first halves the error there.
	return (math.Log(x) - sum) - (0.5/x + u*evalPoly(digammaSeries[:], u))
}

// erfcx returns the scaled complementary error function exp(x²)·erfc(x),
// which gives F(x) = (√π/2)·erfcx(√x)/√x of the paper (Eq. (3.16)) without
// the overflow of exp(x) and the underflow of erfc(√x) for large x.
//
// For 0 ≤ x < 0.46875 it is exp(x²)·math.Erfc(x) with x² split exactly
// into hi + lo (lo by FMA), so the exponential is not spoiled by the
// rounding of x²; from there on it is Cody's rational approximation
// (erfcxRational), which takes no exponential and neither overflows nor
// underflows (erfcx(1e300) = 1/(1e300·√π)); for x < 0 it is
// 2·exp(x²) − erfcx(−x), a difference that never cancels since
// erfcx(−x) ≤ 1 < 2·exp(x²). The relative error is below 1e-14 on
// [−26, +Inf); special_test.go measures it.
//
// Special cases: erfcx(+Inf) = 0, erfcx(x) = +Inf for x < −26.7 (the true
// value overflows) and erfcx(NaN) = NaN.
func erfcx(x float64) float64 {
	switch {
	case x >= erfcxRationalMin:
		return erfcxRational(x)
	case x >= 0:
		return expSquare(x) * math.Erfc(x)
	case x >= erfcxOverflow:
		return 2*expSquare(x) - erfcx(-x)
	case x < erfcxOverflow:
		return math.Inf(1)
	}
	return math.NaN()
}

// erfcxRational returns erfcx(x) = exp(x²)·erfc(x) for x ≥ erfcxRationalMin
// by W. J. Cody's rational Chebyshev approximations (Math. Comp. 23, 1969,
// 631–637, as in his CALERF of SPECFUN, public domain): a ratio of degree
// 8 over 8 in x up to x = 4, and (1/√π − y·P(y)/Q(y))/x, y = 1/x², of
// degree 5 over 5 beyond. Neither takes an exponential: erfcx is it from
// erfcxRationalMin on, and a caller with e^(−x²) at hand
// (incBetaLargeAHalf has e^(−z), x = √z) gets erfc for a product where
// math.Erfc takes two exponentials from x = 1.25 on.
// Its relative error measured against mpmath is below 6.1e-16 on
// [0.47, 40] (6000 points: 6.0e-16 with the polynomials of the first
// range by Estrin's scheme, 7.0e-16 by Horner's rule; special_test.go
// checks the reference rows from 0.47 on).
func erfcxRational(x float64) float64 {
	if x <= 4 {
		// Estrin's scheme, pairs joined with x², x⁴ and x⁸: 4 dependent
		// steps where Horner's rule took 8 multiply-add pairs, on the chain
		// of every Student-t tail of incBetaLargeAHalf from √z = 1.25 on.
		// Every term is positive there, so its rounding is Horner's.
		c, d := &erfcxCodyNum, &erfcxCodyDen
		x2 := x * x
		x4 := x2 * x2
		num := ((c[7] + c[6]*x) + (c[5]+c[4]*x)*x2) + ((c[3]+c[2]*x)+(c[1]+c[0]*x)*x2)*x4 + c[8]*(x4*x4)
		den := ((d[7] + d[6]*x) + (d[5]+d[4]*x)*x2) + ((d[3]+d[2]*x)+(d[1]+d[0]*x)*x2)*x4 + x4*x4
		return num / den
	}
	y := 1 / (x * x)
	num, den := erfcxCodyTailNum[5]*y, y
	for i := range 4 {
		num = (num + erfcxCodyTailNum[i]) * y
		den = (den + erfcxCodyTailDen[i]) * y
	}
	return (invSqrtPi - y*(num+erfcxCodyTailNum[4])/(den+erfcxCodyTailDen[4])) / x
}

// erfcxCodyNum and erfcxCodyDen are the coefficients of Cody's
// approximation of erfcx on [0.46875, 4] (CALERF's C and D), and
// erfcxCodyTailNum and erfcxCodyTailDen those beyond 4 (its P and Q).
var (
	erfcxCodyNum = [...]float64{
		5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
		2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
		2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8,
	}
	erfcxCodyDen = [...]float64{
		1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
		1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
		3.43936767414372164e03, 1.23033935480374942e03,
	}
	erfcxCodyTailNum = [...]float64{
		3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
		1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2,
	}
	erfcxCodyTailDen = [...]float64{
		2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
		6.05183413124413191e-2, 2.33520497626869185e-3,
	}
)

// expSquare returns exp(x²) for |x| ≤ 27 with the rounding error of x*x
// compensated: x² = hi + lo exactly (lo from an FMA) and
// exp(x²) = exp(hi)·exp(lo) = exp(hi)·(1+lo), as |lo| < 1e-13. Where
// exp(hi) overflows, the product stays +Inf because 1+lo > 0.
func expSquare(x float64) float64 {
	hi := x * x
	lo := math.FMA(x, x, -hi)
	return math.Exp(hi) * (1 + lo)
}

// correctionA returns A(α) of Definition 3.1, the unique root
// of F(α−A) = α/((2α+1)(α−A)) (paper: Eq. (3.15), Eq. (3.16)). It corrects
// the variance estimate of the GCP update, and it satisfies
// 2α/(2α+3) < A(α) < min(α, 1), A' > 0, the ODE Eq. (3.17) and
// A(α) = α − (4/π)α² + o(α²) as α → 0, A(α) = 1 − 3/(2α) + o(1/α) as α → ∞
// (paper: Lemma 3.1, Eq. (3.18)).
//
// A root solve per call would be far too slow for every corrected
// prediction, so A is read off precomputed approximations of two bounded,
// smooth shapes generated by testdata/gen_correction.py into
// correction_table.go: q(α) = (α−A)/α² below α = 1 (a polynomial in α on
// [0, 1/16], then one polynomial per quarter binade) and p(α) = α(1−A)
// from α = 1 on (one polynomial per quarter binade up to 256, then the
// exact asymptotic series in 1/α). A = α − α²·q or A = 1 − p/α. The
// generator bounds the approximation error by 2e-16; special_test.go
// asserts a relative error below 1e-12 for A and for α−A
// on [1e-9, 1e12] against an independent mpmath table (measured: under
// 2 eps). One call costs a table lookup and a degree-11 polynomial.
//
// Special cases: correctionA(0) = 0, correctionA(+Inf) = 1 and
// correctionA(α) = NaN for α < 0 or NaN.
func correctionA(alpha float64) float64 {
	switch {
	case alpha >= 1:
		return 1 - correctionTail(alpha)
	case alpha > 0:
		return alpha - correctionGapSmall(alpha)
	case alpha == 0:
		return 0
	}
	return math.NaN() // α < 0 or NaN
}

// correctionGap returns α − A(α) with full relative accuracy for all α > 0
// (below 1e-12, see correctionA). For small α it is ≈ (4/π)α² (paper:
// Eq. (3.18)), which alpha − correctionA(alpha) would lose to
// cancellation; here it is α²·q(α) below α = 1 and (α−1) + p(α)/α above,
// a sum of non-negative terms. The normal-gamma code divides by it to
// correct the variance (σ/(α−A), paper: Eq. (3.19)).
//
// Special cases: correctionGap(0) = 0, correctionGap(+Inf) = +Inf and
// correctionGap(α) = NaN for α < 0 or NaN.
func correctionGap(alpha float64) float64 {
	switch {
	case alpha >= 1:
		return (alpha - 1) + correctionTail(alpha)
	case alpha > 0:
		return correctionGapSmall(alpha)
	case alpha == 0:
		return 0
	}
	return math.NaN() // α < 0 or NaN
}

// correctionGapSmall returns α − A(α) = α²·q(α) for 0 < α < 1, from
// corrSmall below corrPieceMin and from the quarter-binade pieces above.
func correctionGapSmall(alpha float64) float64 {
	var q float64
	if alpha < corrPieceMin {
		q = evalPoly(corrSmall[:], alpha*(2/corrPieceMin)-1)
	} else {
		q = correctionPiece(alpha)
	}
	return alpha * alpha * q
}

// correctionTail returns 1 − A(α) = p(α)/α for α ≥ 1 (including +Inf),
// from the quarter-binade pieces below corrAsymMin and from the asymptotic
// series corrAsym in w = 1/α above.
func correctionTail(alpha float64) float64 {
	if alpha >= corrAsymMin {
		w := 1 / alpha
		return w * evalPoly(corrAsym[:], w)
	}
	return correctionPiece(alpha) / alpha
}

// correctionPiece evaluates the polynomial of the quarter-binade piece that
// holds α ∈ [corrPieceMin, corrAsymMin). The piece index and the local
// coordinate y ∈ [−1, 1) are read exactly from the bits of α.
//
// The polynomial goes by Estrin's scheme, pairs c[2i] + c[2i+1]·y joined
// with y² and then y⁴: its longest chain of dependent operations is 8 long
// instead of Horner's 22, which matters because every corrected
// prediction waits for A(α) after the links. For |y| ≤ 1 its rounding
// error is bounded like Horner's, by a few units of roundoff of
// Σ |c[k]|·|y|^k.
func correctionPiece(alpha float64) float64 {
	b := math.Float64bits(alpha)
	y := float64(b&corrPieceMask)*corrPieceScale - 1
	c := &corrPieces[b>>corrPieceShift-corrPieceBase]
	y2 := y * y
	y4 := y2 * y2
	p0 := (c[0] + c[1]*y) + (c[2]+c[3]*y)*y2
	p1 := (c[4] + c[5]*y) + (c[6]+c[7]*y)*y2
	p2 := (c[8] + c[9]*y) + (c[10]+c[11]*y)*y2
	return p0 + (p1+p2*y4)*y4
}

// digammaHalfStep returns ψ(x+½) − ψ(x) for x ≥ 0, the digamma part of the
// α-gradient of the KL divergence (paper: Eq. (3.5)); it runs for every
// training sample.
//
// It is not a difference of two digamma calls, which would cancel for large
// x (the result is ≈ 1/(2x)). For x ≥ 10 it is the asymptotic series
// coef.DigammaHalf, which has no log term; below, the recurrence
// ψ(x+½) − ψ(x) = [ψ(z+½) − ψ(z)] + Σ_{k<n} 1/((x+k)(2(x+k)+1)), z = x+n,
// adds only positive terms, accumulated as one fraction. The relative error
// is below 1e-14 for x ∈ [1e-8, 1e300]; special_test.go measures it.
//
// Special cases: digammaHalfStep(±0) = +Inf, digammaHalfStep(+Inf) = 0 and
// digammaHalfStep(x) = NaN for x < 0 or NaN.
func digammaHalfStep(x float64) float64 {
	switch {
	case x == 0:
		return math.Inf(1) // for −0 too; the recurrence would give −Inf
	case !(x > 0):
		return math.NaN()
	}
	num, den := 0.0, 1.0 // num/den = Σ 1/((x+k)(2(x+k)+1)) over the steps taken
	for ; x < gammaAsymMin; x++ {
		d := x * (2*x + 1)
		num = num*d + den
		den *= d
	}
	u := 1 / (x * x)
	return 0.5/x + u*evalPoly(coef.DigammaHalf[:], u) + num/den
}

// lgammaHalfStep returns lnΓ(x+½) − lnΓ(x) for x ≥ 0, the log of the
// gamma-function ratio in the Student-t predictive density (paper: Eq. (2.11),
// Eq. (1.1)).
//
// The difference of two math.Lgamma calls cancels: at x = 1e6 both terms
// are ≈ 1.3e7 and only about 10 digits of the result ≈ 6.9 survive. For
// x ≥ 10 it is the asymptotic series ½ln x + Σ d_k·x^(1−2k)
// (coef.LgammaHalf). Below, the recurrence
// lnΓ(x+½) − lnΓ(x) = [lnΓ(z+½) − lnΓ(z)] − ln Π_{k<n} (x+k+½)/(x+k),
// z = x+n ≥ 10, is used with the product taken as one ratio and the factor
// 1/x split off as + ln x, so that tiny x cannot overflow it. The error is
// below 1e-14·max(1, |value|) for x ∈ [1e-8, 1e300]; special_test.go
// measures it.
//
// Special cases: lgammaHalfStep(±0) = −Inf, lgammaHalfStep(+Inf) = +Inf and
// lgammaHalfStep(x) = NaN for x < 0 or NaN.
func lgammaHalfStep(x float64) float64 {
	if !(x >= 0) {
		return math.NaN()
	}
	if x >= gammaAsymMin {
		return lgammaHalfStepSeries(x)
	}
	z, num, den := lgammaHalfLift(x)
	return lgammaHalfStepSeries(z) - math.Log(num/den) + math.Log(x)
}

// lgammaHalfLift returns z = x+n ≥ gammaAsymMin for 0 ≤ x < gammaAsymMin,
// and num/den = Π_{k<n} (x+k+½)/(x+k) without the k = 0 denominator x, so
// that lnΓ(x+½) − lnΓ(x) = [lnΓ(z+½) − lnΓ(z)] − ln(num/den) + ln x.
func lgammaHalfLift(x float64) (z, num, den float64) {
	num, den = x+0.5, 1.0
	for z = x + 1; z < gammaAsymMin; z++ {
		num *= z + 0.5
		den *= z
	}
	return z, num, den
}

// lgammaHalfStepSeries returns lnΓ(z+½) − lnΓ(z) for z ≥ 10 (including
// +Inf) from the asymptotic series coef.LgammaHalf.
func lgammaHalfStepSeries(z float64) float64 {
	return 0.5*math.Log(z) + lgammaHalfStepRest(z)
}

// lgammaHalfStepRest returns lnΓ(z+½) − lnΓ(z) − ½·ln z for z ≥ 10
// (including +Inf), the series coef.LgammaHalf without its logarithm.
func lgammaHalfStepRest(z float64) float64 {
	r := 1 / z
	return r * estrin8(&coef.LgammaHalf, r*r)
}

// estrin8 returns Σ c[k]·u^k by Estrin's scheme, pairs c[2i] + c[2i+1]·u
// joined with u² and then u⁴: its longest chain of dependent operations is
// 3 multiply-adds deep instead of Horner's 8, which matters where a caller
// waits for it (a mixture, mixture.go, does at every member's
// lgammaHalfStepRest). Where each term is below a tenth of the one before
// (lgammaHalfStepRest's u ≤ 0.01: below a twentieth), its rounding is
// Horner's, a few ulps of the sum.
func estrin8(c *[8]float64, u float64) float64 {
	u2 := u * u
	p0 := (c[0] + c[1]*u) + (c[2]+c[3]*u)*u2
	p1 := (c[4] + c[5]*u) + (c[6]+c[7]*u)*u2
	return p0 + p1*(u2*u2)
}

// softplus returns ln(1+eˣ), the link that keeps β and ν positive (paper:
// Eq. (5.2)). It is x + log1p(e^−x) for x > 0 and log1p(eˣ) otherwise,
// so e^±x never overflows: softplus(1000) = 1000 and softplus(−1000)
// underflows to 0, never NaN. Relative error below 1e-15 (measured by
// special_test.go).
//
// Special cases: softplus(+Inf) = +Inf, softplus(−Inf) = 0 and
// softplus(NaN) = NaN.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(expFull(x))
}

// sigmoid returns 1/(1+e^−x), the derivative of softplus, which the
// gradients of the softplus links need. It is 1/(1+e^−x) for x ≥ 0 and
// eˣ/(1+eˣ) otherwise, so e^±x never overflows and small results keep
// full relative accuracy: sigmoid(1000) = 1, sigmoid(−1000) underflows to
// 0. Relative error below 1e-15 (measured by special_test.go).
//
// Special cases: sigmoid(+Inf) = 1, sigmoid(−Inf) = 0 and
// sigmoid(NaN) = NaN.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := expFull(x)
	return e / (1 + e)
}

// logFull returns ln x like math.Log, but also for subnormal x, which it
// scales into the normal range first: math.Log's amd64 assembly returns
// about −709 for every subnormal input (Go 1.26) where the true value goes
// down to −744.44.
func logFull(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// expTaylor returns eˣ to about an ulp (measured against mpmath: 0.87
// eps, math.Exp's 0.95) for x in (−708, 709), and math.Exp's value
// elsewhere (and for NaN). It is for the dependent chains of the Student-t
// tail (incBetaLargeAHalf, probsAt), where math.Exp's own chain (a Taylor
// polynomial of x/16 squared four times, about 80 cycles on amd64) was the
// longest link: here 2ᵏ·eʳ, k = round(x/ln 2), r = x − k·ln 2 by Cody and
// Waite's two-part reduction (W. J. Cody and W. Waite, Software Manual for
// the Elementary Functions, 1980: k·ln2Hi is exact, so r carries only the
// rounding of k·ln2Lo), and eʳ − 1, |r| ≤ 0.3466, by its Taylor polynomial
// of degree 13, within |r|¹⁴/14!·e^|r| < 6e-18 relative, by Estrin's
// scheme (pairs joined with r², r⁴ and r⁸, 5 dependent steps): about 50
// cycles. Its terms decrease, so its rounding is about an ulp of eʳ − 1,
// at most 0.42 of eʳ, and the 1 is added last: 0.5 ulp more.
func expTaylor(x float64) float64 {
	if !(x > -708 && x < 709) {
		return math.Exp(x)
	}
	const round = 0x1.8p52 // adding it rounds |v| < 2⁵¹ to an integer
	k := x*(1/math.Ln2) + round - round
	r := (x - k*ln2Hi) - k*ln2Lo
	r2 := r * r
	r4 := r2 * r2
	c := &expTaylorCoef
	p0 := r + (c[2]+c[3]*r)*r2
	p1 := (c[4] + c[5]*r) + (c[6]+c[7]*r)*r2
	p2 := (c[8] + c[9]*r) + (c[10]+c[11]*r)*r2
	p3 := c[12] + c[13]*r
	q := (p0 + p1*r4) + (p2+p3*r4)*(r4*r4) // eʳ − 1, |q| ≤ 0.42
	return (1 + q) * math.Float64frombits(uint64(int64(k)+1023)<<52)
}

// log1pEstrin returns ln(1+x) as math.Log1p does, by fdlibm's algorithm
// (Sun Microsystems, 1993, as in FreeBSD's s_log1p.c and Go's
// math/log1p.go, which claims an error below 1 ulp): 1+x = 2ᵏ·(1+f) with
// 1+f in [√2/2, √2) and the rounding of 1+x carried as c/(1+x); with
// s = f/(2+f), ln(1+f) = f − (f²/2 − s·(f²/2 + R(s²))), R the minimax
// polynomial Lp1…Lp7. Here R goes by Estrin's scheme, 4 dependent steps
// where Horner's rule took 7 multiply-add pairs (R enters the result only
// through s·R, below 1e-3 of it, so its rounding does not show), and the
// shortcuts for tiny f and the branch between k = 0 and k ≠ 0 are left
// out (the general formula gives the same values there): about 50 cycles
// of dependent chain where math.Log1p takes about 75 and math.Log about
// 85. It is for the chains of the Student-t tail (betaArgs) and of the
// mixture's root finder (local, refine). Measured against mpmath: 0.94
// eps, as math.Log1p. Unlike math.Log1p it returns +0 for −0.
func log1pEstrin(x float64) float64 {
	const (
		sqrt2M1     = 4.142135623730950488017e-01  // √2 − 1
		sqrt2HalfM1 = -2.928932188134524755992e-01 // √2/2 − 1
		lp1         = 6.666666666666735130e-01
		lp2         = 3.999999999940941908e-01
		lp3         = 2.857142874366239149e-01
		lp4         = 2.222219843214978396e-01
		lp5         = 1.818357216161805012e-01
		lp6         = 1.531383769920937332e-01
		lp7         = 1.479819860511658591e-01
	)
	switch {
	case !(x >= -1): // also NaN
		return math.NaN()
	case x == -1:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	f, c, k := x, 0.0, 0.0
	if !(x > sqrt2HalfM1 && x < sqrt2M1) {
		u := x
		if x < 0x1p53 {
			u = 1 + x
			if u >= 2 { // c = 1+x − u, exactly, by the larger of the two
				c = (1 - (u - x)) / u
			} else {
				c = (x - (u - 1)) / u
			}
		}
		iu := math.Float64bits(u)
		k = float64(int64(iu>>52) - 1023)
		if iu &= 1<<52 - 1; iu < 0x0006a09e667f3bcd { // the mantissa of √2
			u = math.Float64frombits(iu | 0x3ff0000000000000)
		} else {
			k++
			u = math.Float64frombits(iu | 0x3fe0000000000000) // u/2
		}
		f = u - 1
	}
	hfsq := 0.5 * f * f
	s := f / (2 + f)
	z := s * s
	z2 := z * z
	r := z * ((lp1 + lp2*z) + (lp3+lp4*z)*z2 + ((lp5+lp6*z)+lp7*z2)*(z2*z2))
	return k*ln2Hi - ((hfsq - (s*(hfsq+r) + (k*ln2Lo + c))) - f)
}

// ln2Hi + ln2Lo is ln 2 split as fdlibm's exp and log1p split it, for
// Cody and Waite's reduction in expTaylor and log1pEstrin: ln2Hi has 32
// significant bits (its low 21 are zero), so k·ln2Hi is exact for |k| <
// 2²¹.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10 // ln 2 − ln2Hi
)

// expTaylorCoef holds 1/n!, n = 0…13, the Taylor coefficients of eʳ.
var expTaylorCoef = func() (c [14]float64) {
	c[0] = 1
	for n := 1; n < len(c); n++ {
		c[n] = c[n-1] / float64(n)
	}
	return c
}()

// expFull returns eˣ like math.Exp, but also where the result is
// subnormal (x < −708.4), which math.Exp flushes to zero on arm64 (Go
// 1.26): there it squares e^(x/2), which is normal, so the result is
// rounded once into the subnormal range (halving x is exact, where adding
// a multiple of ln 2 would not be).
func expFull(x float64) float64 {
	if x < -708 {
		e := math.Exp(0.5 * x)
		return e * e
	}
	return math.Exp(x)
}
