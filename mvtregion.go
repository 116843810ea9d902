package gcp

import "math"

// Prediction regions of the multivariate t predictive and of the corrected
// Gaussian.
//
// For y from the d-dimensional t with ν degrees of freedom, location m and
// scale S = LLᵀ, the squared Mahalanobis distance q = (y−m)ᵀS⁻¹(y−m) is d
// times an F(d, ν) variable, so the ellipsoid q ≤ r² with
// r² = d·F⁻¹_{d,ν}(p) holds probability p; as ν → ∞, q ∼ χ²_d, which is also
// the region of the corrected Gaussian N(m, S/c_d(ν)) in its own
// Mahalanobis distance. With x = q/(q+ν) and b = ν/2,
// P(Q > q) = 1 − I_x(d/2, b), and the recurrence
// I_x(a+1, b) = I_x(a, b) − xᵃ(1−x)ᵇ/(a·B(a, b)) (DLMF 8.17.20) gives it as a
// finite sum of positive terms,
//
//	P(Q > q) = t₀ + Σ_{a} xᵃ(1−x)ᵇ·Γ(a+b)/(Γ(a+1)Γ(b)),
//
// over a = 0, 1, …, d/2 − 1 with t₀ = 0 for even d, and over
// a = ½, 3/2, …, d/2 − 1 with t₀ = P(|T| > √q), T ∼ t_ν, for odd d.
// Consecutive terms differ by the factor x(b+a)/(a+1) =
// (q/2)(1 + 2a/ν)/((1 + q/ν)(a+1)), which is also right for ν = +Inf.

const (
	// mvtRegionMaxSteps bounds the radius's root solve: safeguarded Newton
	// steps in ln q, at most ±mvtRegionMaxStep each, take about 5–15.
	mvtRegionMaxSteps = 200
	mvtRegionMaxStep  = 3
	// mvtRegionStepTol: a Newton step shorter than this in ln q leaves an
	// error of order its square.
	mvtRegionStepTol = 1e-10
)

// mvtRegionTail returns P(Q > q) for Q = d·F(d, ν) (χ²_d for ν = +Inf), the
// probability that a draw of the t falls outside the ellipsoid through a
// point at squared Mahalanobis distance q, and dens = −dP(Q > q)/d ln q =
// q·f_Q(q), for q ≥ 0, 1 ≤ d and ν > 0. The tail has full relative
// accuracy (a sum of positive terms and a Student-t tail); the content
// 1 − tail loses relative accuracy only where it is itself tiny.
func mvtRegionTail(q float64, d int, nu float64) (tail, dens float64) {
	if q == 0 {
		return 1, 0
	}
	inf := math.IsInf(nu, 1)
	lead := -q / 2 // ln (1−x)ᵇ
	onePlus := 1.0 // 1 + q/ν
	if !inf {
		lead = -nu / 2 * math.Log1p(q/nu)
		onePlus = 1 + q/nu
	}
	a, term := 0.0, math.Exp(lead)
	if d%2 == 1 {
		// x^½(1−x)ᵇΓ(b+½)/(Γ(b)Γ(3/2)), with √(xb) = √(q/2)/√(1+q/ν) and
		// Γ(b+½)/(Γ(b)√b) = exp(mvtLogNorm(1, ν)).
		a = 0.5
		term = 2 / math.SqrtPi * math.Sqrt(q/2/onePlus) * math.Exp(lead+mvtLogNorm(1, nu))
		tail = 2 * studentTCDF(-math.Sqrt(q), nu)
	}
	for ; a < float64(d)/2; a++ {
		tail += term
		step := 2 * a / nu
		if inf {
			step = 0
		}
		term *= q / 2 * (1 + step) / onePlus / (a + 1)
	}
	// term is now the one at a = d/2; dens = (d/2)·term.
	return tail, float64(d) / 2 * term
}

// mvtRegionRadius2 returns r² = d·F⁻¹_{d,ν}(p) (the χ²_d quantile for
// ν = +Inf), so that the ellipsoid (y−m)ᵀS⁻¹(y−m) ≤ r² is the central p
// region of the t with scale S, or, with ν = +Inf and S the corrected
// covariance, of the corrected Gaussian. It solves mvtRegionTail = 1 − p
// (or the content = p for p < ½) by safeguarded Newton steps in ln r²; the
// result's relative error is a few times the tail's, 1e-13 against mpmath
// for p in [0.01, 0.999].
//
// Special cases: 0 for p = 0, +Inf for p = 1, NaN for p outside [0, 1],
// ν ≤ 0, NaN or d < 1.
func mvtRegionRadius2(p float64, d int, nu float64) float64 {
	switch {
	case !(p >= 0 && p <= 1) || !(nu > 0) || d < 1:
		return math.NaN()
	case p == 0:
		return 0
	case p == 1:
		return math.Inf(1)
	}
	upper := p >= 0.5
	target := math.Log(p)
	if upper {
		target = math.Log1p(-p)
	}
	u := math.Log(float64(d))
	lo, hi := math.Inf(-1), math.Inf(1)
	for range mvtRegionMaxSteps {
		tail, dens := mvtRegionTail(math.Exp(u), d, nu)
		// f rises with u: ln content − ln p, or ln(1−p) − ln tail.
		f, df := math.Log1p(-tail)-target, dens/(1-tail)
		if upper {
			f, df = target-math.Log(tail), dens/tail
		}
		if f > 0 {
			hi = u
		} else {
			lo = u
		}
		next := safeguardedStep(u, -f/df, mvtRegionMaxStep, lo, hi)
		if math.Abs(next-u) < mvtRegionStepTol || f == 0 {
			u = next
			break
		}
		u = next
	}
	return math.Exp(u)
}
