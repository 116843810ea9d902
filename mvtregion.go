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
// Consecutive terms differ by the factor x(b+a)/(a+1), which tends to
// (q/2)/(a+1) as ν → ∞. The same terms summed over all a make 1 − t₀, so
// the content P(Q ≤ q) is the series' continuation over a ≥ d/2, which
// keeps its digits where 1 − tail has none (a region of small p).

const (
	// mvtRegionMaxSteps bounds the radius's root solve: safeguarded Newton
	// steps in ln q take about 5–15. Both ends of the curve are nearly
	// straight in ln q (ln tail ≈ −(ν/2)·ln q far out, ln content ≈
	// (d/2)·ln q near 0), so a step may be long: mvtRegionMaxStep lets the
	// solve reach a quantile of 1e2000 (ν = 1e-3), which it returns as
	// +Inf, in a few steps.
	mvtRegionMaxSteps = 200
	mvtRegionMaxStep  = 100
	// mvtRegionStepTol: a Newton step shorter than this in ln q leaves an
	// error of order its square.
	mvtRegionStepTol = 1e-10
	// mvtRegionSmall: below this content, 1 − tail would keep fewer than
	// 13 of its digits, and the content comes from the series'
	// continuation, whose terms fall at last by the factor x = q/(q+ν)
	// (measured there for d ≤ 16: x < 0.57 and at most 62 terms for
	// ν ≥ ½, 231 for ν = 0.01); mvtRegionMaxTerms caps it for ν below
	// that (2624 terms at ν = 1e-3), where 1 − tail stands.
	mvtRegionSmall    = 1e-3
	mvtRegionMaxTerms = 1000
)

// mvtRegionTail returns P(Q > q) for Q = d·F(d, ν) (χ²_d for ν = +Inf), the
// probability that a draw of the t falls outside the ellipsoid through a
// point at squared Mahalanobis distance q, its complement, the content
// P(Q ≤ q), and dens = −dP(Q > q)/d ln q = q·f_Q(q), for q ≥ 0, 1 ≤ d and
// ν > 0. Tail and content both have full relative accuracy (sums of
// positive terms and a Student-t tail), the content from the series'
// continuation where it is below mvtRegionSmall.
func mvtRegionTail(q float64, d int, nu float64) (tail, content, dens float64) {
	if q == 0 {
		return 1, 0, 0
	}
	// x = q/(q+ν), formed so that q + ν cannot overflow, and x·b; for
	// ν = +Inf, x → 0 while x·b → q/2 and (1−x)ᵇ → e^(−q/2).
	x, xb, lead := 0.0, q/2, -q/2 // lead = ln (1−x)ᵇ
	if !math.IsInf(nu, 1) {
		x = 1 / (1 + nu/q)
		xb = x * nu / 2
		lead = -nu / 2 * mvtLog1pQ(nu, 0, 1, q)
	}
	a, term := 0.0, math.Exp(lead)
	if d%2 == 1 {
		// x^½(1−x)ᵇΓ(b+½)/(Γ(b)Γ(3/2)), with Γ(3/2) = √π/2 and
		// Γ(b+½)/(Γ(b)√b) = exp(mvtLogNorm(1, ν)).
		a = 0.5
		term = 2 / math.SqrtPi * math.Sqrt(xb) * math.Exp(lead+mvtLogNorm(1, nu))
		tail = 2 * studentTCDF(-math.Sqrt(q), nu)
	}
	for ; a < float64(d)/2; a++ {
		tail += term
		term *= (xb + x*a) / (a + 1) // x(b+a)/(a+1)
	}
	// term is now the one at a = d/2; dens = (d/2)·term.
	dens = float64(d) / 2 * term
	content = 1 - tail
	if content < mvtRegionSmall {
		var sum float64
		for range mvtRegionMaxTerms {
			sum += term
			if term <= 0x1p-54*sum {
				return tail, sum, dens
			}
			term *= (xb + x*a) / (a + 1)
			a++
		}
	}
	return tail, content, dens
}

// mvtRegionRadius2 returns r² = d·F⁻¹_{d,ν}(p) (the χ²_d quantile for
// ν = +Inf), so that the ellipsoid (y−m)ᵀS⁻¹(y−m) ≤ r² is the central p
// region of the t with scale S, or, with ν = +Inf and S the corrected
// covariance, of the corrected Gaussian. It solves mvtRegionTail = 1 − p
// (or the content = p for p < ½) by safeguarded Newton steps in ln r²; the
// result's relative error is a few times the tail's, 1e-13 against mpmath
// for p in [0.01, 0.999], and 1e-12 against closed forms for p down to
// 1e-300 (d = 1, 2 and 16).
//
// Special cases: 0 for p = 0, +Inf for p = 1 and where r² exceeds the
// largest float64 (ν ≪ 1: the tail falls like q^(−ν/2)), NaN for p outside [0, 1],
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
		tail, content, dens := mvtRegionTail(math.Exp(u), d, nu)
		// f rises with u: ln content − ln p, or ln(1−p) − ln tail.
		f, df := math.Log(content)-target, dens/content
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
	r2 := math.Exp(u)
	if r2 > 1e300 {
		// The bracket may have closed on the largest float64 from below:
		// a quantile beyond it is +Inf.
		if tail, _, _ := mvtRegionTail(math.MaxFloat64, d, nu); tail > 1-p {
			return math.Inf(1)
		}
	}
	return r2
}
