package gcp

import "math"

// Student's t distribution with ν > 0 degrees of freedom: CDF and quantile.
//
// For s ≥ 0 write x = ν/(ν+s²) and y = 1 − x = s²/(ν+s²). Then
//
//	P(T > s)   = ½·I_x(ν/2, ½)   (upper tail)
//	P(|T| < s) =   I_y(½, ν/2)   (central probability)
//
// with I the regularized incomplete beta function. Each is evaluated
// directly where it is small and as the complement of the other only where
// it is not, so both keep their relative accuracy; x, y and ln x are formed
// from r = s/√ν without ever computing 1 − x or ν + s² (which overflows for
// large s).

const (
	// studentTLnSqrt2Pi is ln √(2π), the normalizing constant of the normal
	// density.
	studentTLnSqrt2Pi = 0.91893853320467274178032973640561763986139747363778

	// studentTNormalDoF is the number of degrees of freedom above which the
	// standard normal is used. The relative difference between the t and
	// normal tails is about s⁴/(4ν); every s whose normal tail does not
	// underflow has s < 39, so at ν > 1e25 the difference is below 1e-19.
	studentTNormalDoF = 1e25

	// studentTMinDoF is the smallest dof used; smaller positive values are
	// raised to it, which keeps every intermediate (dof/2, ln Γ(dof/2), …)
	// a normal float64. It changes no result: at dof ≤ 1e-300 the CDF of
	// any finite t ≠ 0 is ½ within about 1e-297 and every quantile with
	// p ≠ ½ exceeds the largest float64.
	studentTMinDoF = 1e-300

	// The large-a expansion (incBetaLargeAHalf) is used for a = ν/2 ≥
	// studentTExpansionMinA and τ = ln(1+s²/ν) ≤ studentTExpansionMaxTau:
	// there its terms fall below 2⁻⁵³ of the sum within
	// studentTExpansionTerms terms (they shrink roughly like
	// (n/(π·a))^{2n} and (τ/(2π))^{2n}). Elsewhere the continued fraction is
	// short: a is small, or x ≤ e⁻² is far from the transition at x ≈ 1.
	studentTExpansionMinA   = 15
	studentTExpansionMaxTau = 2
	studentTExpansionTerms  = 30
	// studentTErfcxMin: from √z = 1.25 on, where math.Erfc takes two
	// exponentials, the expansion's erfc(√z) is e^(−z)·erfcxRational(√z),
	// from the exponential it has anyway; below, math.Erfc takes none.
	studentTErfcxMin = 1.25

	// studentTCentralY sets the side: the tail ½·I_x(a, ½) is evaluated
	// directly where y·(a+5/2) > studentTCentralY and the central
	// probability I_y(½, a) elsewhere. The textbook switch for the
	// continued fraction, x = (a+1)/(a+b+2), is y·(a+5/2) = 3/2, where the
	// central probability reaches 0.92 for large a, so the tail formed as
	// its complement would lose a factor 12 of relative accuracy; at ½ it
	// is at most about 0.68 (a factor 2). The continued fraction for the
	// tail still converges in the band between, in at most about 90 terms
	// for a < 15.
	studentTCentralY = 0.5

	// incBetaMaxTerms caps the continued fraction. The Student-t paths
	// converge in at most about 90 terms (the slow and inaccurate region,
	// x near 1 with large a, is handled by the expansion instead); the cap
	// only bounds the work for arguments the callers never pass.
	incBetaMaxTerms = 1000

	// studentTMaxSteps bounds the quantile's root finder. Safeguarded
	// Halley steps from the initial guesses take 1–4 steps; the cap leaves
	// room for the bisection fallback over the whole bracket.
	studentTMaxSteps = 100
	// studentTStepTol: a Halley step shorter than this in ln s leaves an
	// error of order its cube (≈ 1e-21), far below rounding.
	studentTStepTol = 1e-7
)

// studentTCDF returns P(T ≤ t) for a standard Student's t variable with
// dof > 0 degrees of freedom.
//
// It evaluates the tail P(T > |t|) (see studentTProbs) and returns it
// (t < 0) or its complement (t > 0), so the lower tail keeps full relative
// accuracy however small it is. Against 60-digit mpmath references, for dof
// in [0.1, 1e6], the relative error is below 3e-14 (6e-15 measured) where
// the CDF is at least 1e-12. Deeper in the tail it grows with the
// conditioning h = |t|·f(t)/CDF(t) (≈ t² for large dof), which multiplies
// the rounding of t and of the internal arguments: 3e-13 measured at
// CDF = 1e-300 and dof = 1e5.
//
// Special cases: NaN if t or dof is NaN or dof ≤ 0; 0.5 exactly at t = 0;
// 0 and 1 at t = −Inf and +Inf; the standard normal CDF for dof = +Inf (and
// any dof above 1e25, where the two agree to 1e-19).
func studentTCDF(t, dof float64) float64 {
	switch {
	case math.IsNaN(t) || !(dof > 0):
		return math.NaN()
	case t == 0:
		return 0.5
	case math.IsInf(t, -1):
		return 0
	case math.IsInf(t, 1):
		return 1
	}
	var d studentTDist
	d.set(math.Max(dof, studentTMinDoF))
	tail, _ := d.probs(math.Abs(t))
	if t < 0 {
		return tail
	}
	return 1 - tail
}

// studentTQuantile returns the t with studentTCDF(t, dof) = p, for p in
// (0,1), dof > 0.
//
// By odd symmetry it solves for s > 0 with P(T > s) = q, q = min(p, 1−p);
// 1−p is exact for p > ½ (Sterbenz), so no accuracy is lost above the
// median. See studentTUpperQuantile for the method. Against mpmath, for dof
// in [0.1, 1e6], the relative error is below 1e-13 (2.5e-14 measured) for p
// in [1e-12, 1−1e-12], and 1e-13 measured down to p = 1e-300; the worst
// cases are the heavy tails of dof = 0.1, where a relative error δ of the
// CDF moves the quantile by δ/dof. That includes p next to ½, where the quantile is
// tiny: no absolute floor is needed; only p = ½ itself returns exactly 0.
//
// Special cases: NaN if p or dof is NaN, dof ≤ 0, or p is outside [0, 1];
// −Inf at p = 0 and +Inf at p = 1; 0 at p = ½; the standard normal quantile
// for dof = +Inf (and above 1e25). Quantiles whose magnitude exceeds about
// 1.797e308 (tiny dof) are returned as ±Inf.
func studentTQuantile(p, dof float64) float64 {
	switch {
	case math.IsNaN(p) || !(dof > 0) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	var d studentTDist
	d.set(math.Max(dof, studentTMinDoF))
	if p < 0.5 {
		return -d.upperQuantile(p)
	}
	return d.upperQuantile(1 - p)
}

// studentTDist is Student's t with dof degrees of freedom together with the
// constants that its tail probabilities and density need at every point,
// computed once: the quantile evaluates them at several points, and a
// mixture (mixture.go) at several points for each of its members.
type studentTDist struct {
	dof     float64 // ν ≥ studentTMinDoF
	a       float64 // ν/2
	sqrtDof float64 // √ν
	lnK     float64 // ln K(a) (studentTLnGammaHalfRatio); 0 for the normal
	lnNorm  float64 // ln f(0) = ln K(a) − ln √(2π)
	expand  float64 // Γ(a+½)/(Γ(a)·√(a−¼)), incBetaLargeAHalf's prefactor; 0 until probsAt first needs it …
	peak    float64 // … and f(0) = K(a)/√(2π), set with it
	normal  bool    // ν > studentTNormalDoF: the standard normal is used
}

// set makes d the distribution for dof ≥ studentTMinDoF (including +Inf),
// in place and field by field; every caller sets one so rather than take a
// returned struct. (A struct returned by value is built on the stack and
// copied in 16-byte moves, each of which stalls on the narrower stores of
// the fields before it: such a result took 60 cycles to reach a mixture's
// member.)
func (d *studentTDist) set(dof float64) {
	d.dof, d.a, d.sqrtDof = dof, 0.5*dof, math.Sqrt(dof)
	d.lnK, d.lnNorm, d.expand, d.peak = 0, -studentTLnSqrt2Pi, 0, 0
	if d.normal = dof > studentTNormalDoF; d.normal {
		return
	}
	d.lnK = studentTLnGammaHalfRatio(d.a)
	d.lnNorm += d.lnK
}

// probs returns the upper tail P(T > s) and the central probability
// P(|T| < s) for finite s ≥ 0.
//
// With a = dof/2, the tail ½·I_x(a, ½) is evaluated directly where
// y·(a+5/2) > studentTCentralY and the central probability I_y(½, a)
// elsewhere, each with a relative error of a few 1e-15 at most (plus the
// effect of rounding s); the other is formed as the complement, which costs
// at most a factor of about 2 in relative accuracy where the callers use
// it (the tail always, the central probability when it is below ½).
//
// Methods: for dof > 1e25 the normal tail ½·erfc(s/√2) and erf(s/√2). For
// the tail with a ≥ 15 and τ = −ln x ≤ 2, the asymptotic expansion
// incBetaLargeAHalf. Otherwise the continued fraction incBetaCF, with the
// prefactor x^a·y^b/(a·B(a, b)) written through K(a) =
// Γ(a+½)/(Γ(a)·√a) (studentTLnGammaHalfRatio) so that no two large
// logarithms cancel: the tail as exp(a·ln x + ln K)·√(y/(π·a)), the central
// probability as (2/√π)·r·√a·exp((a+½)·ln x + ln K), r = s/√dof; the only
// large term left is a·ln x, whose rounding is the unavoidable conditioning
// of a tail e^(a·ln x).
func (d *studentTDist) probs(s float64) (tail, central float64) {
	if d.normal {
		z := s / math.Sqrt2
		return 0.5 * math.Erfc(z), math.Erf(z)
	}
	tail, central, _ = d.probsAt(d.betaArgs(s))
	return tail, central
}

// probsAt is probs for a finite dof, given the beta arguments of s (which
// density also returns), and the density f(s) = f(0)·x^(a+½), which it
// takes from the exponential the probabilities need anyway: x^a·K(a) on
// the continued fractions' paths, x^(a−¼) = e^(−z) in the expansion's
// (times x^¾ = √x·√√x there). Its relative error is a few ulps more than
// that exponential's; √x is formed as √y/r beyond r = 1, so that it keeps
// its accuracy where x is subnormal (x itself is not used there).
func (d *studentTDist) probsAt(b studentTBeta) (tail, central, f float64) {
	a, r, x, y, lx := d.a, b.r, b.x, b.y, b.lx
	if y*(a+2.5) > studentTCentralY {
		var i float64
		if a >= studentTExpansionMinA && -lx <= studentTExpansionMaxTau {
			if d.expand == 0 {
				// Computed on first use only: a single CDF often
				// takes another path, and then it would be wasted.
				d.expand, d.peak = studentTExpansionConstants(a, d.lnK)
			}
			sum, ez := incBetaLargeAHalf(a, -lx)
			i = d.expand * sum
			sx := math.Sqrt(x) // x ≥ e⁻² here
			f = d.peak * ez * sx * math.Sqrt(sx)
		} else {
			// x^a·y^½/(a·B(a, ½)) with 1/B(a, ½) = √a·K/√π.
			e, sy := expTaylor(a*lx+d.lnK), math.Sqrt(y)
			i = e * sy / math.Sqrt(math.Pi*a) / incBetaCF(a, 0.5, x)
			sx := math.Sqrt(x)
			if r > 1 {
				sx = sy / r
			}
			f = e * sx * (1 / math.Sqrt(2*math.Pi))
		}
		return 0.5 * i, 1 - i, f
	}
	// 2·y^½·x^a/B(a, ½) with y^½ = r·x^½.
	e := expTaylor((a+0.5)*lx + d.lnK)
	c := 2 / math.SqrtPi * r * math.Sqrt(a) * e / incBetaCF(0.5, a, y)
	return 0.5 * (1 - c), c, e * (1 / math.Sqrt(2*math.Pi))
}

// studentTExpansionConstants returns the prefactor Γ(a+½)/(Γ(a)·√(a−¼)) =
// K(a)/√(1−1/(4a)) of incBetaLargeAHalf and the peak density
// f(0) = K(a)/√(2π), for a ≥ studentTExpansionMinA given lnK = ln K(a),
// without an exponential or a logarithm: ln K(a) = −1/(8a) + 1/(192a³) −
// … lies in [−1/(8a), 0), so |lnK| ≤ 1/120, where the degree-6 Taylor
// polynomial of e^lnK is within |lnK|⁷/7! < 6e-19 relative; the square
// root and the quotients add a few ulps, as the logarithmic form did.
func studentTExpansionConstants(a, lnK float64) (expand, peak float64) {
	k := 1 + lnK*(1+lnK*(1.0/2+lnK*(1.0/6+lnK*(1.0/24+lnK*(1.0/120+lnK/720)))))
	return k / math.Sqrt(1-0.25/a), k * (1 / math.Sqrt(2*math.Pi))
}

// studentTBeta holds the arguments of the incomplete beta function that
// the tail and the density take at a point s ≥ 0: r = s/√ν,
// x = ν/(ν+s²) = 1/(1+r²), y = s²/(ν+s²) = r²/(1+r²) and lx = ln x.
type studentTBeta struct{ r, x, y, lx float64 }

// betaArgs returns the beta arguments of s ≥ 0 for a finite ν, each to a
// few ulps. It never forms ν+s² or 1−x: lx = −log1p(r²) (log1pEstrin,
// whose chain is shorter than math.Log1p's and math.Log's), so that it
// keeps its accuracy when x is within rounding of 1, and beyond r = 1 it
// takes one logarithm where −log1p(1/r²) − 2·ln r took two. The rounding
// of r² moves lx by at most 2⁻⁵³ (half an ulp of r², times x ≤ 2⁻ᵏ for
// r² ≥ 2ᵏ), so lx stays within about an ulp; adding that error back after
// the logarithm could not remove it, since it is below half an ulp of the
// rounded logarithm (TestStudentTLogX). Beyond r = 2⁵⁰⁰, where r² may
// overflow and 1/r² is below the rounding of ln r, lx is −2·ln r. It
// stays finite when x underflows (x and y are then only used as small
// multipliers in the continued fraction), and nothing overflows for any
// finite s.
func (d *studentTDist) betaArgs(s float64) studentTBeta {
	r := s / d.sqrtDof
	if r <= 1 {
		r2 := r * r
		x := 1 / (1 + r2)
		return studentTBeta{r, x, r2 * x, -log1pEstrin(r2)}
	}
	q2 := 1 / r / r // 1/r², underflows harmlessly
	y := 1 / (1 + q2)
	x := q2 * y
	if r > 0x1p500 {
		lr := math.Log(r)
		if math.IsInf(r, 1) {
			lr = math.Log(s) - 0.5*math.Log(d.dof)
		}
		return studentTBeta{r, x, y, -2 * lr}
	}
	return studentTBeta{r, x, y, -log1pEstrin(r * r)}
}

// studentTLnGammaHalfRatio returns ln K(a), K(a) = Γ(a+½)/(Γ(a)·√a), for
// a > 0; K → 1 as a → ∞, and 1/B(a, ½) = √a·K(a)/√π. For a ≥ 10 it is the
// asymptotic series of lgammaHalfStep without its ½·ln a term
// (lgammaHalfStepRest), so nothing cancels and no logarithm is taken (every
// studentTCDF and studentTQuantile call computes it). Below, it lifts a
// to z ≥ 10 as lgammaHalfStep does, which needs no difference of two large
// log-gammas, and takes lgammaHalfStep's three logarithms and the −½·ln a
// as one: ln K(a) = rest(z) + ½·ln(z·a·(den/num)²). The product's
// argument is formed in about 20 roundings, so it costs at most about
// 1e-15 in absolute terms (an ulp of ln a itself for a tiny a), which is
// all the accuracy the exponentials it enters need; one logarithm instead
// of four is what a mixture of small-dof members, which computes it for
// each member, saves.
func studentTLnGammaHalfRatio(a float64) float64 {
	if a >= gammaAsymMin {
		return lgammaHalfStepRest(a)
	}
	z, num, den := lgammaHalfLift(a)
	r := den / num
	return lgammaHalfStepRest(z) + 0.5*math.Log(z*a*r*r)
}

// incBetaCF returns the continued fraction F of DLMF 8.17.22 for the
// regularized incomplete beta function,
//
//	I_x(a, b) = x^a·(1−x)^b / (a·B(a, b)·F),
//	F = 1 + d₁/(1 + d₂/(1 + d₃/(1 + …))),
//	d₂ₘ₊₁ = −(a+m)(a+b+m)·x / ((a+2m)(a+2m+1)),
//	d₂ₘ   =  m(b−m)·x / ((a+2m−1)(a+2m)),
//
// for a, b > 0 and x in [0, 1], evaluated forward by the recurrence of its
// numerators and denominators. It converges geometrically for
// x < (a+1)/(a+b+2) and, more slowly, somewhat beyond; it stops when a
// convergent differs from the one before by at most 2⁻⁵² relative, or
// after incBetaMaxTerms terms. Where studentTProbs uses it (see
// testdata/incbeta_ref.csv) it takes at most about 90 terms and its
// relative error is below 3e-15 (2.4e-15 measured, 9e-16 for the
// recurrence in the dₙ themselves, which divided twice per term). For
// large a and x near 1 the partial denominators 1 + d₁/… nearly cancel
// (d₂ₘ₊₁ ≈ −x ≈ −1): at a = 5e5 it still converges in a few hundred ns
// but loses accuracy (2e-11 at x = 1 − 9e-6), which is why studentTProbs
// uses incBetaLargeAHalf there.
func incBetaCF(a, b, x float64) float64 {
	// The convergents A/B of the equivalent fraction (DLMF 1.12.4 with
	// cₙ = a+n) a·F = a + p₁/((a+1) + p₂/((a+2) + …)), whose partial
	// numerators pₙ = (a+n−1)(a+n)·dₙ are the numerators of the dₙ above,
	// by Aₙ = (a+n)·Aₙ₋₁ + pₙ·Aₙ₋₂ (B alike), started at A₀ = B₀ = 1
	// (A/B = F) and the first term taken exactly, A₁ = (a+1) + p₁/a,
	// B₁ = a+1. No term divides, and its chain is one fused multiply-add
	// (pₙ·Aₙ₋₂ does not depend on the previous term). Convergence is judged
	// by cross-multiplication, |AₙBₙ₋₁ − Aₙ₋₁Bₙ| ≤ 2⁻⁵²·|AₙBₙ₋₁|, so that
	// the result is the only division; it is made after every second term.
	// A and B are rescaled by 2⁻²⁰⁰ or 2²⁰⁰ (exactly) when B leaves
	// [2⁻²⁰⁰, 2²⁰⁰], also after every second term, so that neither they nor
	// their cross products overflow or underflow: a term multiplies them by
	// about 2(a+n), at most 2⁸⁴ for the dof below studentTNormalDoF.
	aPrev, aCur, bPrev, bCur := 1.0, a+1-(a+b)*x, 1.0, a+1 // A₀, A₁ = (a+1) + p₁/a, B₀, B₁
	for m := 1.0; 2*m+1 <= incBetaMaxTerms; m++ {
		// The terms n = 2m and 2m+1 in turn, then one test of both.
		c, p := a+2*m, m*(b-m)*x
		aPrev, aCur = aCur, math.FMA(c, aCur, p*aPrev)
		bPrev, bCur = bCur, math.FMA(c, bCur, p*bPrev)
		c, p = c+1, -(a+m)*(a+b+m)*x
		aPrev, aCur = aCur, math.FMA(c, aCur, p*aPrev)
		bPrev, bCur = bCur, math.FMA(c, bCur, p*bPrev)
		if ab := math.Abs(bCur); ab > 0x1p200 || ab < 0x1p-200 && ab != 0 {
			s := 0x1p-200
			if ab < 0x1p-200 {
				s = 0x1p200
			}
			aPrev, aCur, bPrev, bCur = aPrev*s, aCur*s, bPrev*s, bCur*s
		}
		// A convergent at infinity (B = 0) never stops it: the next terms decide.
		if cross := aCur * bPrev; bCur != 0 && math.Abs(math.FMA(-aPrev, bCur, cross)) <= 0x1p-52*math.Abs(cross) {
			break
		}
	}
	return aCur / bCur
}

// incBetaLargeAHalf returns I_x(a, ½)·Γ(a)·√w/Γ(a+½), w = a − ¼, for
// a ≥ 15 given τ = −ln x in [0, 2], and e^(−z) = x^w, which gives the
// caller the density: the sum below, which the caller
// multiplies by the prefactor studentTDist.expand, a constant of the
// distribution. It is the asymptotic expansion in 1/w² with w = a − ¼ (the
// DiDonato–Morris 1992 expansion for large a and small b, specialized to
// b = ½). Substituting x = e^(−τ) in the beta integral and writing
// 1 − e^(−τ) = τ·e^(−τ/2)·φ(τ)^(−2), φ(τ) = (sinh(τ/2)/(τ/2))^(−½) =
// Σ dₙτ²ⁿ, gives
//
//	I_x(a, ½) = Γ(a+½)/(Γ(a)·√w) · Σₙ dₙ·Γ(½+2n, z)/(Γ(½)·w²ⁿ),  z = w·τ,
//
// with Γ(½, z)/Γ(½) = erfc(√z) and Γ(s+2, z) = s(s+1)Γ(s, z) +
// (z+s+1)·z^s·e^(−z). The sum stops at the first term below 2⁻⁵³ of it.
// The result has a relative error of a few 1e-16 plus about 2z·2⁻⁵³ from
// rounding z (the conditioning of erfc), also for I close to 1, at a cost
// that does not grow with a (50–100 ns here, fewer terms for smaller z;
// the continued fraction is inaccurate here for large a).
func incBetaLargeAHalf(a, tau float64) (sum, ez float64) {
	w := a - 0.25
	z := w * tau
	rz := math.Sqrt(z)
	ez = expTaylor(-z)
	var g float64 // Γ(½, z)/Γ(½) = erfc(√z)
	if rz < studentTErfcxMin {
		g = math.Erfc(rz) // no exponential there
	} else {
		g = ez * erfcxRational(rz)
	}
	// h = z^½·e^(−z)/Γ(½)
	return incBetaLargeAHalfSeries(g, rz*ez*invSqrtPi, z, tau, w), ez
}

// incBetaLargeAHalfScaled returns incBetaLargeAHalf's sum times e^z,
// z = (a − ¼)·τ ≥ studentTErfcxMin², for the log tail
// (studentTDist.logTail), where e^(−z) underflows: the series is linear in
// its two starting terms, each of which holds e^(−z) as a factor.
func incBetaLargeAHalfScaled(a, tau float64) float64 {
	w := a - 0.25
	z := w * tau
	rz := math.Sqrt(z)
	return incBetaLargeAHalfSeries(erfcxRational(rz), rz*invSqrtPi, z, tau, w)
}

// incBetaLargeAHalfSeries sums incBetaLargeAHalf's series from its first
// term g = erfc(√z) and h = z^½·e^(−z)/Γ(½), both times the same factor.
func incBetaLargeAHalfSeries(g, h, z, tau, w float64) (sum float64) {
	tau2, iw2 := tau*tau, 1/(w*w)
	sum = g
	for n, dn := range studentTSinhcCoef[1:] {
		s := 0.5 + 2*float64(n)
		g = (s*(s+1)*g + (z+s+1)*h) * iw2 // Γ(s+2, z)/(Γ(½)·w^(2n+2))
		h *= tau2                         // z^(s+2)·e^(−z)/(Γ(½)·w^(2n+2))
		term := dn * g
		sum += term
		if math.Abs(term) <= 0x1p-53*sum {
			break
		}
	}
	return sum
}

// studentTSinhcCoef holds the Taylor coefficients dₙ of
// (sinh(τ/2)/(τ/2))^(−½) = Σ dₙ·τ²ⁿ, computed once from the series
// sinh(τ/2)/(τ/2) = Σ τ²ᵏ/(4ᵏ(2k+1)!) by the J. C. P. Miller recurrence for
// a power of a series, n·dₙ = Σₖ₌₁ⁿ (α·k − (n−k))·pₖ·dₙ₋ₖ with α = −½.
var studentTSinhcCoef = func() [studentTExpansionTerms]float64 {
	const alpha = -0.5
	var p, d [studentTExpansionTerms]float64
	p[0], d[0] = 1, 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] / (4 * float64(2*k) * float64(2*k+1))
	}
	for n := 1; n < len(d); n++ {
		var s float64
		for k := 1; k <= n; k++ {
			s += (alpha*float64(k) - float64(n-k)) * p[k] * d[n-k]
		}
		d[n] = s / float64(n)
	}
	return d
}()

// upperQuantile returns s > 0 with P(T > s) = q for q in (0, ½) (+Inf if
// s would exceed the largest float64).
//
// The equation is taken in logarithms, G(u) = ±(ln P − ln target) with
// u = ln s, which turns the power-law tails of small dof into near-straight
// lines and makes every tolerance relative. For q < ¼ it is
// ln P(T > s) = ln q; for q ≥ ¼ it is ln P(|T| < s) = ln(1−2q) instead (1−2q
// is exact there), which keeps full relative accuracy of s as q → ½ and
// s → 0. The start is upperQuantileStart's. Each step is
// Halley's method in u on the exact CDF, using the density f: with
// h = s·f/P (times 2 for the central probability) and κ = −s·f′/f =
// (ν+1)·y, G′ = −h and G″ = h·(κ − 1 ∓ h). The step is applied as
// s·exp(Δu), so s itself, not ln s, carries the iterate and the result is
// not limited by the spacing of float64 values near ln s. A bracket
// [lo, hi] is kept from the signs of G; a step that leaves it, or is not
// finite, becomes a bisection in ln s (or a jump to the largest float64,
// which settles the overflow case). The lower end starts below the bound
// s ≥ (1−2q)/(2f(0)), which holds because the density peaks at 0.
// Iteration stops after a Halley step shorter than studentTStepTol, leaving
// the rounding error of the CDF (a few 1e-16, amplified by the conditioning
// 1/h, e.g. 10 for dof = 0.1 in the tails) as the only error.
func (d *studentTDist) upperQuantile(q float64) float64 {
	central := q >= 0.25
	target, sgn := q, 1.0
	if central {
		target, sgn = 1-2*q, -1
	}
	u, uLow := d.upperQuantileStart(q)
	s := math.Min(math.Exp(u), math.MaxFloat64)
	lo, hi := math.Exp(uLow-1), math.Inf(1)
	for range studentTMaxSteps {
		tail, cen := d.probs(s)
		prob := tail
		if central {
			prob = cen
		}
		g := math.Log(prob / target)
		if math.IsInf(g, 1) { // the ratio overflowed for a subnormal target
			g = math.Log(prob) - math.Log(target)
		}
		g *= sgn
		switch {
		case g == 0:
			return s
		case g > 0:
			if s == math.MaxFloat64 {
				return math.Inf(1)
			}
			lo = s
		default:
			hi = s
		}
		lnf, kappa := d.logDensity(s)
		h := math.Exp(math.Log(s) + lnf - math.Log(prob))
		if central {
			h *= 2
		}
		step := g / h
		corr := g * (kappa - 1 - sgn*h) / (2 * h)
		halley := math.Abs(corr) < 0.5
		if halley {
			step /= 1 - corr
		}
		next := math.Min(s*math.Exp(step), math.MaxFloat64)
		if halley && math.Abs(step) <= studentTStepTol {
			// Converged; s is one end of the bracket by now, so the
			// final step may round onto it and is not tested.
			return next
		}
		if !(next > lo && next < hi) {
			if math.IsInf(hi, 1) {
				next = math.MaxFloat64
			} else {
				next = math.Exp(0.5 * (math.Log(lo) + math.Log(hi)))
			}
		}
		s = next
	}
	return s
}

// density returns ln f(s) at a finite s ≥ 0 and the beta arguments of s,
// which tail takes to give P(T > s) without computing them again; for the
// normal they are r = s, x = 1 (the limit of ν/(ν+s²)) and y = lx = 0. A
// mixture needs both at each member.
func (d *studentTDist) density(s float64) (lnf float64, b studentTBeta) {
	if d.normal {
		return d.lnNorm - 0.5*s*s, studentTBeta{r: s, x: 1}
	}
	b = d.betaArgs(s)
	return d.lnNorm + (d.a+0.5)*b.lx, b
}

// tail returns P(T > s) given b = density's beta arguments of s, as probs
// would.
func (d *studentTDist) tail(b studentTBeta) float64 {
	if d.normal {
		return 0.5 * math.Erfc(b.r/math.Sqrt2)
	}
	t, _, _ := d.probsAt(b)
	return t
}

// tailDensity returns P(T > s) and the density f(s) given b = density's
// beta arguments of s, the density from the tail's own exponential (see
// probsAt) rather than one of its own.
func (d *studentTDist) tailDensity(b studentTBeta) (tail, f float64) {
	if d.normal {
		return 0.5 * math.Erfc(b.r/math.Sqrt2), math.Exp(d.lnNorm - 0.5*b.r*b.r)
	}
	tail, _, f = d.probsAt(b)
	return tail, f
}

// logTail returns ln P(T > s) for finite s ≥ 0, finite also where the
// tail underflows float64 (a t of large dof a few dozen scales out, one of
// dof ν beyond s^ν ≈ 1e308): probsAt's tail with its exponential's
// argument kept as a logarithm. On the continued fraction's path it is
// a·ln x + ln K + ln(½·√y/(√(π·a)·F)), F the continued fraction; on the
// expansion's, where z = (a − ¼)·τ ≥ studentTErfcxMin², ln(½·expand·S)
// − z, S the series times e^z (incBetaLargeAHalfScaled); for the normal,
// ln(½·erfcx(s/√2)) − s²/2 (−Inf beyond s ≈ 1.9e154, where it is below
// −MaxFloat64). Elsewhere the tail is above about 0.01 and it is the
// logarithm of probsAt's. Each large term is a product of two numbers
// accurate to a few ulps, and the logarithms add a few 1e-16 in absolute
// terms, so the error is a few ulps of ln P where it is large (and a few
// 1e-16 absolute near 0).
func (d *studentTDist) logTail(s float64) float64 {
	if d.normal {
		return normalLogUpperTail(s)
	}
	b := d.betaArgs(s)
	a := d.a
	if !(b.y*(a+2.5) > studentTCentralY) {
		tail, _, _ := d.probsAt(b)
		return math.Log(tail)
	}
	if a >= studentTExpansionMinA && -b.lx <= studentTExpansionMaxTau {
		if z := (a - 0.25) * -b.lx; z >= studentTErfcxMin*studentTErfcxMin {
			if d.expand == 0 {
				d.expand, d.peak = studentTExpansionConstants(a, d.lnK)
			}
			return math.Log(0.5*d.expand*incBetaLargeAHalfScaled(a, -b.lx)) - z
		}
		tail, _, _ := d.probsAt(b)
		return math.Log(tail)
	}
	return a*b.lx + d.lnK + math.Log(0.5*math.Sqrt(b.y/(math.Pi*a))/incBetaCF(a, 0.5, b.x))
}

// logTailBeyond returns ln P(T > s) for an s beyond MaxFloat64 given
// lnS = ln s (a standardized residual that overflowed): the continued
// fraction's path of logTail in its limit x = ν/s² → 0, y → 1, where the
// fraction is 1 and ln x = ln ν − 2·ln s, so a·ln x + ln K − ln(2·√(π·a))
// (the neglected terms are below ν/s² < 1e-300 of the tail); −Inf for the
// normal, whose log tail is below −s²/2 < −1.6e616.
func (d *studentTDist) logTailBeyond(lnS float64) float64 {
	if d.normal {
		return math.Inf(-1)
	}
	return d.a*(math.Log(d.dof)-2*lnS) + d.lnK - math.Log(2*math.Sqrt(math.Pi*d.a))
}

// logUpper returns ln P(T > t) of d (set for max(ν, studentTMinDoF), ν
// > 0; the normal only for ν = +Inf) at a t that is finite, or ±Inf for a
// standardized residual that overflowed, lnAbsT = ln|t| then (and unused
// otherwise): logTail (logTailBeyond) for t > 0, and ln(1 − P(T > −t)) ≥
// ln ½ otherwise (0 for t = −Inf, within 1e-300). The lower tail
// ln P(T ≤ t) is d.logUpper(−t, lnAbsT).
func (d *studentTDist) logUpper(t, lnAbsT float64) float64 {
	if d.normal && !math.IsInf(d.dof, 1) {
		// The normal stands in for a t of dof above studentTNormalDoF only
		// where the tails are within float64's range (s < 39): ln P
		// differs from the normal's by about s²/(2ν) of itself, which
		// grows without bound. The t's own constants serve any finite dof.
		e := *d
		e.normal = false
		e.lnK = studentTLnGammaHalfRatio(e.a)
		e.lnNorm += e.lnK
		d = &e
	}
	switch {
	case math.IsInf(t, 1):
		return d.logTailBeyond(lnAbsT)
	case math.IsInf(t, -1):
		return 0
	case t > 0:
		return d.logTail(t)
	}
	tail, _ := d.probs(-t)
	return math.Log1p(-tail)
}

// tails returns the lower tail P(T ≤ t) and the upper tail P(T > t) of d
// (set for max(ν, studentTMinDoF), ν > 0), each evaluated where it is
// small as the tail studentTCDF evaluates, and the other as its
// complement: lower is studentTCDF(t, ν) exactly. NaN for a NaN t.
func (d *studentTDist) tails(t float64) (lower, upper float64) {
	switch {
	case math.IsNaN(t):
		return math.NaN(), math.NaN()
	case t == 0:
		return 0.5, 0.5
	case math.IsInf(t, -1):
		return 0, 1
	case math.IsInf(t, 1):
		return 1, 0
	}
	tail, _ := d.probs(math.Abs(t))
	if t < 0 {
		return tail, 1 - tail
	}
	return 1 - tail, tail
}

// upperQuantileStart returns the starting point u ≈ ln s of upperQuantile
// for P(T > s) = q, q in (0, ½), and the lower bound uLow on ln s that
// follows from P(|T| < s) ≤ 2·f(0)·s (the density peaks at 0). The start is
// Hill's approximation (studentTHillGuess) for dof ≥ 1, the normal quantile
// for dof > 1e25, and for dof < 1 the power-law tail bound (q < ¼) or uLow
// (q ≥ ¼); it is never below uLow (nor NaN).
func (d *studentTDist) upperQuantileStart(q float64) (u, uLow float64) {
	uLow = math.Log((1-2*q)/2) - d.lnNorm
	switch {
	case d.normal:
		u = math.Log(studentTNormalTailGuess(q))
	case d.dof >= 1:
		u = math.Log(studentTHillGuess(q, d.dof))
	case q >= 0.25:
		u = uLow
	default:
		// P(T > s) < f(0)·ν^((ν+1)/2)·s^(−ν)/ν, the tail of the bounding
		// power law, so this is an upper bound on ln s.
		u = (d.lnNorm + 0.5*(d.dof-1)*math.Log(d.dof) - math.Log(q)) / d.dof
	}
	if !(u >= uLow) { // also replaces a NaN guess
		u = uLow
	}
	return u, uLow
}

// logDensity returns ln f(s) for the density f at s ≥ 0 and
// κ = −s·f′(s)/f(s) = (ν+1)s²/(ν+s²) (s² for the normal), for the
// quantile's Halley steps. The error of ln f is a few ulps of ln f(0) and
// of (ν+1)/2·ln(1+s²/ν).
func (d *studentTDist) logDensity(s float64) (lnf, kappa float64) {
	lnf, b := d.density(s)
	if d.normal {
		return lnf, s * s
	}
	return lnf, (d.dof + 1) * b.y
}

// studentTHillGuess returns G. W. Hill's approximation (1970, CACM
// Algorithm 396) to the s with P(T > s) = q, for q in (0, ½) and dof ≥ 1:
// exact for dof = 1 and 2, otherwise a normal-based expansion in the body
// and a power-law expansion in the far tail. For q ≥ 1e-12 its relative
// error measures below 4e-5 from dof = 2.5 on (1e-5 to 1e-6 typical) but up
// to 0.2 just above dof = 1. It is only a starting point for the Halley
// iteration; in extreme corners (tiny q with dof near 1) it may be Inf or
// NaN, and the caller clamps it.
func studentTHillGuess(q, dof float64) float64 {
	switch dof {
	case 1:
		return 1 / math.Tan(math.Pi*q)
	case 2:
		return (1 - 2*q) / math.Sqrt(2*q*(1-q))
	}
	a := 1 / (dof - 0.5)
	b := 48 / (a * a)
	c := ((20700*a/b-98)*a-16)*a + 96.36
	d := ((94.5/(b+c)-3)/b + 1) * math.Sqrt(a*math.Pi/2) * dof
	y := math.Pow(2*d*q, 2/dof)
	if y > 0.05+a {
		x := -studentTNormalTailGuess(q)
		y = x * x
		if dof < 5 {
			c += 0.3 * (dof - 4.5) * (x + 0.6)
		}
		c += (((0.05*d*x-5)*x-7)*x-2)*x + b
		y = (((((0.4*y+6.3)*y+36)*y+94.5)/c-y-3)/b + 1) * x
		y = math.Expm1(a * y * y)
	} else {
		y = ((1/(((dof+6)/(dof*y)-0.089*d-0.822)*(dof+2)*3)+0.5/(dof+4))*y-1)*(dof+1)/(dof+2) + 1/y
	}
	return math.Sqrt(dof * y)
}

// studentTNormalTailGuess returns an approximation to the z with
// P(Z > z) = q for a standard normal Z and q in (0, ½): √2·erfinv(1−2q)
// while 1−2q keeps enough digits (q > 1e-10, relative error below 1e-6),
// and below that the asymptotic relation −2·ln q = z² + ln(2π·z²) −
// 2·ln(1 − 1/z² + 3/z⁴), solved for z² by two fixed-point steps from
// z² = −2·ln q − ln(−4π·ln q) (relative error below 5e-6). It is only a
// starting point: the quantile refines it on the exact tail.
func studentTNormalTailGuess(q float64) float64 {
	if q > 1e-10 {
		return math.Sqrt2 * math.Erfinv(1-2*q)
	}
	y := -2 * math.Log(q)
	z2 := y - math.Log(2*math.Pi*y)
	for range 2 {
		z2 = y - math.Log(2*math.Pi*z2) + 2*math.Log1p((3/z2-1)/z2)
	}
	return math.Sqrt(z2)
}
