package gcp

import "math"

// The corrected covariance of a multivariate GCP prediction.
//
// For a Gaussian truth N(μ, Σ) in d dimensions and a fixed number ν of
// degrees of freedom, the expected log-density of the multivariate t is
// largest at location μ and scale c_d(ν)·Σ, where c = c_d(ν) solves
//
//	E[R/(cν + R)] = d/(ν + d),   R ∼ χ²_d.
//
// The predictive's scale S therefore estimates c_d(ν)·Σ, and S/c_d(ν) is
// the corrected covariance; A_d(a) = a(1 − c_d(2a)) generalises A(α) of
// Definition 3.1, which is A_1 (docs/multivariate.md derives both). With
// k = d/2, s = cν/2 and T = R/2 ∼ Gamma(k, 1) the equation reads
//
//	h_k(s) = E[s/(s + T)] = e^s s^k Γ(1−k, s) = ν/(ν + d),
//
// and its complement e_k(s) = 1 − h_k(s) = E[T/(s + T)] = (k/s)·h_{k+1}(s).

const (
	// mvtMaxDim is the largest number of targets the correction supports.
	mvtMaxDim = 16
	// mvtCorrAsymMin is where the asymptotic series mvtCorrAsym takes over
	// from the root solve. The root solve forms 1 − c from c, which loses
	// about log10(ν) digits; the series' truncation error at ν = 1e4 is
	// below 2e-21 relative for every d (checked by the generator).
	mvtCorrAsymMin = 1e4
	// mvtGammaMeanSplit: below it h_k comes from h_½ or h_1 by the upward
	// recurrence h_{j+1} = (s/j)(1 − h_j), whose factors 1 − h_j stay
	// above 0.15 there (1 − h_½(2) = 0.157), so a step multiplies the
	// relative error by at most about 6, the first step only; from it on,
	// e_k comes from Legendre's continued fraction, which converges fast
	// for s ≥ 2.
	mvtGammaMeanSplit = 2
	// mvtCorrMaxSteps bounds the root solve; safeguarded Newton steps in
	// ln s take 4–8 from the starting guess.
	mvtCorrMaxSteps = 100
	// mvtCorrStepTol: a Newton step shorter than this in ln s leaves an
	// error of order its square, far below rounding.
	mvtCorrStepTol = 1e-9
	// mvtCFMaxTerms caps the continued fraction, which needs at most
	// about 60 terms at s = 2.
	mvtCFMaxTerms = 500
)

// mvtCorrection returns c_d(ν) and its complement 1 − c_d(ν), each with
// relative error below 1e-9 against mpmath (measured: 2.6e-14 for c,
// 7.5e-12 for 1 − c, which the root solve forms from c below ν = 1e4),
// for 1 ≤ d ≤ mvtMaxDim and ν ≥ 0: the corrected covariance of a
// multivariate t predictive with scale S is S/c_d(ν). For d = 1 it is
// the one-dimensional correction, c_1(2α) = (α − A(α))/α.
//
// Special cases: c_d(0) = max(0, (d−2)/d), c_d(+Inf) = 1, NaN for ν < 0,
// NaN or d outside [1, mvtMaxDim].
func mvtCorrection(d int, nu float64) (c, gap float64) {
	switch {
	case d < 1 || d > mvtMaxDim || !(nu >= 0):
		return math.NaN(), math.NaN()
	case nu == 0:
		c = max(0, float64(d-2)/float64(d))
		return c, 1 - c
	case nu >= mvtCorrAsymMin:
		w := 1 / nu
		co := &mvtCorrAsym[d-1]
		var p float64
		for j := len(co) - 1; j >= 0; j-- {
			p = p*w + co[j]
		}
		gap = p * w
		return 1 - gap, gap
	case d == 1:
		a := nu / 2
		c = correctionGap(a) / a
		return c, correctionA(a) / a
	}
	return mvtCorrectionSolve(d, nu)
}

// mvtCorrectionA returns A_d(a) = a(1 − c_d(2a)), the d-dimensional
// counterpart of A(α) (Definition 3.1): with ν = 2a, the corrected
// covariance is S·a/(a − A_d(a)). A_1 is correctionA.
//
// Special cases: A_d(0) = 0, A_d(+Inf) = 1, NaN where mvtCorrection is.
func mvtCorrectionA(d int, a float64) float64 {
	if math.IsInf(a, 1) && d >= 1 && d <= mvtMaxDim {
		return 1
	}
	_, gap := mvtCorrection(d, 2*a)
	return a * gap
}

// mvtCorrectionSolve solves h_k(s) = ν/(ν+d) for s = cν/2 by safeguarded
// Newton steps in u = ln s, for 0 < ν < mvtCorrAsymMin. The equation is
// taken on the smaller side of h + e = 1 (ln h against ln(ν/(ν+d)) or
// ln e against ln(d/(ν+d))), where each side is known to full relative
// accuracy, and both are nearly linear in u at the ends (h ∝ s or √s as
// s → 0, e ≈ k/s as s → ∞). Their slopes come from
// dh/d ln s = k·h − s·e. Since 0 < c < 1, s lies below ν/2.
func mvtCorrectionSolve(d int, nu float64) (c, gap float64) {
	k, fd := float64(d)/2, float64(d)
	small := nu <= fd // h = ν/(ν+d) ≤ ½
	target := math.Log(fd / (nu + fd))
	if small {
		target = math.Log(nu / (nu + fd))
	}
	c0 := (nu + max(fd-2, 0)) / (nu + fd) // exact at both ends for d ≥ 3
	u := math.Log(c0 * nu / 2)
	lo, hi := math.Inf(-1), math.Log(nu/2)
	for range mvtCorrMaxSteps {
		s := math.Exp(u)
		h, e := mvtGammaMean(d, s)
		slope := k*h - s*e
		// f rises with u on either side (e falls, so its sign is flipped).
		f, df := math.Log(h)-target, slope/h
		if !small {
			f, df = target-math.Log(e), slope/e
		}
		if f > 0 {
			hi = u
		} else {
			lo = u
		}
		next := safeguardedStep(u, -f/df, 2, lo, hi)
		if math.Abs(next-u) < mvtCorrStepTol || f == 0 {
			u = next
			break
		}
		u = next
	}
	c = 2 * math.Exp(u) / nu
	return c, 1 - c
}

// mvtGammaMean returns h = E[s/(s+T)] and e = E[T/(s+T)] = 1 − h for
// T ∼ Gamma(d/2, 1) and s > 0, the smaller of the two with full relative
// accuracy: h from mvtGammaMeanUp below mvtGammaMeanSplit, and e from
// mvtGammaMeanCF above it.
func mvtGammaMean(d int, s float64) (h, e float64) {
	if s >= mvtGammaMeanSplit {
		k := float64(d) / 2
		e = k / s * mvtGammaMeanCF(k+1, s)
		return 1 - e, e
	}
	h = mvtGammaMeanUp(d, s)
	return h, 1 - h
}

// mvtGammaMeanUp returns h_k(s), k = d/2, from h_½(s) = √(πs)·erfcx(√s)
// or h_1(s) = s·eˢ·E₁(s) by the recurrence h_{j+1} = (s/j)(1 − h_j), the
// form of Γ(a+1, s) = aΓ(a, s) + sᵃe⁻ˢ that never subtracts two close
// numbers while h_j stays away from 1 (s below a few).
func mvtGammaMeanUp(d int, s float64) float64 {
	j, h := 1.0, 0.0
	if d%2 == 1 {
		r := math.Sqrt(s)
		j, h = 0.5, math.Sqrt(math.Pi)*r*erfcx(r)
	} else {
		h = s * expE1(s)
	}
	for ; j < float64(d)/2; j++ {
		h = s / j * (1 - h)
	}
	return h
}

// mvtGammaMeanCF returns h_m(s) = eˢ sᵐ Γ(1−m, s) for s ≥ 2 from
// Legendre's continued fraction for the upper incomplete gamma function
// (DLMF 8.9.2, even form), which for a = 1 − m reads
//
//	h_m(s) = s/(s+m − 1·m/(s+m+2 − 2(m+1)/(s+m+4 − …))),
//
// evaluated by the modified Lentz method until a factor is within 2⁻⁵³
// of 1.
func mvtGammaMeanCF(m, s float64) float64 {
	const tiny = 1e-300
	b := s + m
	cc, dd := 1/tiny, 1/b
	f := dd
	for i := 1.0; i < mvtCFMaxTerms; i++ {
		an := -i * (i - 1 + m)
		b += 2
		dd = an*dd + b
		if math.Abs(dd) < tiny {
			dd = tiny
		}
		cc = b + an/cc
		if math.Abs(cc) < tiny {
			cc = tiny
		}
		dd = 1 / dd
		del := dd * cc
		f *= del
		if math.Abs(del-1) <= 0x1p-53 {
			break
		}
	}
	return s * f
}

// expE1 returns eˢ·E₁(s) for 0 < s < mvtGammaMeanSplit from the power
// series E₁(s) = −γ − ln s − Σ_{j≥1} (−s)ʲ/(j·j!) (DLMF 6.6.2). At s = 2
// the sum cancels to about a twentieth of its largest term, so the result
// keeps about 15 digits.
func expE1(s float64) float64 {
	var sum float64
	term := 1.0
	for j := 1.0; j < 60; j++ {
		term *= -s / j
		t := term / j
		sum += t
		if math.Abs(t) <= 0x1p-55*math.Abs(sum) {
			break
		}
	}
	const eulerGamma = 0.57721566490153286060651209008240243104215933593992
	return math.Exp(s) * (-eulerGamma - math.Log(s) - sum)
}

// safeguardedStep returns the next iterate of a Newton solve at u with the
// proposed step (NaN allowed), the step clipped to ±maxStep and, where it
// would leave the bracket (lo, hi) of the root, replaced by the midpoint
// between u and the bound it crosses. A side not yet found is infinite;
// the clip keeps the iterate finite until it is.
func safeguardedStep(u, step, maxStep, lo, hi float64) float64 {
	if math.IsNaN(step) {
		step = maxStep // only from a degenerate slope; the bracket decides
		if u >= hi {
			step = -maxStep
		}
	}
	next := u + max(-maxStep, min(maxStep, step))
	switch {
	case next >= hi:
		return (u + hi) / 2
	case next <= lo:
		return (u + lo) / 2
	}
	return next
}
