package gcp

import "math"

// The multivariate Student t predictive of a d-dimensional GCP network.
//
// With the normal-Wishart prior NW(m, κ, Ψ, n) on the mean and precision
// of a d-dimensional Gaussian, the predictive of one observation is the
// multivariate t with ν = n − d + 1 degrees of freedom, location m and
// scale S = (κ+1)/(κν)·Ψ; for d = 1 it is the t₂α of Lemma 2.1 and
// Practical approach 2.1 (docs/multivariate.md). The scale is carried by
// its Cholesky factor S = LLᵀ, L lower triangular with a positive
// diagonal, stored packed by rows: L_ij (j ≤ i) at i(i+1)/2 + j. The heads
// output ln L_ii (the log-Cholesky parameterisation), so the gradients
// below are with respect to L_ij off the diagonal and ln L_ii on it.
//
// With e = y − m, z = L⁻¹e, q = zᵀz and u = L⁻ᵀz,
//
//	ℓ = lnΓ((ν+d)/2) − lnΓ(ν/2) − (d/2)·ln(νπ) − Σ ln L_ii − ((ν+d)/2)·ln(1 + q/ν).
//
// To keep every term finite for any finite z, z is scaled by a power of
// two σ ≥ 1 (exactly) so that its largest entry is below 1, and the
// formulas are written in ẑ = z/σ and r = ẑᵀẑ = q/σ².

// mvtPackedLen returns the length d(d+1)/2 of a packed d×d lower-triangular
// matrix.
func mvtPackedLen(d int) int { return d * (d + 1) / 2 }

// mvtStandardize writes ẑ = L⁻¹(y − m)/σ into z by forward substitution,
// with σ = 2^e ≥ 1 the smallest power of two (1 if none is needed) above
// every |z_i|, and returns ln σ, σ, r = ẑᵀẑ and Σ ln L_ii (half the log
// determinant of S). Where L⁻¹(y − m) itself overflows (y a finite point
// beyond 1e308 scales), it solves for (y − m)/2^k instead, 2^k above
// every |y_i| and |m_i|, and σ carries 2^k too: ln σ and r stay exact, and
// σ is +Inf where it passes the largest float64.
func mvtStandardize[T Float](z []float64, y, m, l []T) (lnSigma, sigma, r, lnDiag float64) {
	d := len(y)
	z, m = z[:d], m[:d]
	var big float64
	var e int // z holds L⁻¹(y − m)/2^e
	for pass, f := 0, 1.0; ; pass++ {
		big, lnDiag = 0, 0
		for i := range z {
			row := l[i*(i+1)/2 : i*(i+1)/2+i+1]
			s := float64(y[i])*f - float64(m[i])*f
			for j, v := range row[:i] {
				s -= float64(v) * z[j]
			}
			z[i] = s / float64(row[i])
			big = max(big, math.Abs(z[i]))
			lnDiag += math.Log(float64(row[i]))
		}
		if big <= math.MaxFloat64 || pass == 1 {
			break
		}
		// The substitution overflowed: solve once more for (y − m)/2^e,
		// 2^e above every |y_i| and |m_i|, unless one is NaN or infinite.
		var top float64
		for i := range y {
			top = max(top, math.Abs(float64(y[i])), math.Abs(float64(m[i])))
		}
		if !(top <= math.MaxFloat64) {
			break
		}
		_, e = math.Frexp(top)
		f = math.Ldexp(1, -e)
	}
	sigma = 1
	if big >= 1 {
		_, eb := math.Frexp(big)
		f := math.Ldexp(1, -eb)
		for i := range z {
			z[i] *= f
		}
		e += eb
	}
	if e != 0 {
		sigma = math.Ldexp(1, e)
		lnSigma = float64(e) * math.Ln2
	}
	for _, v := range z {
		r += v * v
	}
	return lnSigma, sigma, r, lnDiag
}

// mvtLog1pQ returns ln(1 + q/ν) for q = σ²r, without overflow: log1p(q/ν)
// where q/ν ≤ 1, and 2 ln σ + ln r − ln ν + log1p(ν/q) beyond, which stays
// finite when q/ν overflows (a far outlier, or ν → 0).
func mvtLog1pQ(nu, lnSigma, sigma, r float64) float64 {
	x := r / nu * sigma * sigma
	if x <= 1 {
		return math.Log1p(x)
	}
	return 2*lnSigma + math.Log(r) - math.Log(nu) + math.Log1p(1/x)
}

// mvtLogNorm returns lnΓ((ν+d)/2) − lnΓ(ν/2) − (d/2)·ln(ν/2), which tends
// to 0 as ν → ∞: with a = ν/2, a sum of log1p(j/a) over the unit steps j
// of the gamma ratio and, for odd d, lnΓ(a+½) − lnΓ(a) − ½ln a for its
// half step, each term free of cancellation (the half step's series from
// a = 10 on).
func mvtLogNorm(d int, nu float64) float64 {
	a := nu / 2
	var s float64
	if d%2 == 1 {
		if a >= gammaAsymMin {
			s = lgammaHalfStepRest(a)
		} else {
			s = lgammaHalfStep(a) - 0.5*math.Log(a)
		}
	}
	for j := mvtFirstStep(d); j < float64(d)/2-0.25; j++ {
		s += math.Log1p(j / a)
	}
	return s
}

// mvtDigammaGap returns ψ((ν+d)/2) − ψ(ν/2) − d/ν, the ν-derivative of
// 2·mvtLogNorm: with a = ν/2, −Σ j/(a(a+j)) over the unit steps j and,
// for odd d, ψ(a+½) − ψ(a) − 1/(2a) for the half step.
func mvtDigammaGap(d int, nu float64) float64 {
	a := nu / 2
	var s float64
	if d%2 == 1 {
		s = digammaHalfStep(a) - 0.5/a
	}
	for j := mvtFirstStep(d); j < float64(d)/2-0.25; j++ {
		s -= j / (a * (a + j))
	}
	return s
}

// mvtFirstStep returns the offset j of the first unit step ln(a+j) of
// lnΓ(a + d/2) − lnΓ(a) after the terms mvtLogNorm treats apart: 1 for
// even d (the step j = 0 cancels against ln a), ½ for odd d (after the
// half step); the steps run up to d/2 − 1.
func mvtFirstStep(d int) float64 {
	if d%2 == 1 {
		return 0.5
	}
	return 1
}

// mvtLogDensity returns ln t_ν(y | m, LLᵀ), the log-density of the
// d-dimensional t at y (d = len(y)), for ν > 0 (+Inf gives the Gaussian
// N(m, LLᵀ)), with z a caller-owned scratch of at least d entries. It
// allocates nothing. For ν ≤ 0 or NaN it returns NaN.
func mvtLogDensity[T Float](y, m, l []T, nu float64, z []float64) float64 {
	if !(nu > 0) {
		return math.NaN()
	}
	lnSigma, sigma, r, lnDiag := mvtStandardize(z, y, m, l)
	return mvtLogDensityOf(len(y), nu, lnSigma, sigma, r, lnDiag)
}

// mvtLogDensityOf assembles ℓ from mvtStandardize's results.
func mvtLogDensityOf(d int, nu, lnSigma, sigma, r, lnDiag float64) float64 {
	const lnSqrt2Pi = 0.91893853320467274178032973640561763986139747363778
	var tail float64 // ((ν+d)/2)·ln(1 + q/ν), q/2 for the Gaussian
	if math.IsInf(nu, 1) {
		tail = sigma * sigma * r / 2
	} else {
		tail = (nu + float64(d)) / 2 * mvtLog1pQ(nu, lnSigma, sigma, r)
	}
	return mvtLogNorm(d, nu) - float64(d)*lnSqrt2Pi - lnDiag - tail
}

// mvtLogDensityGrad returns ℓ = ln t_ν(y | m, LLᵀ) and ∂ℓ/∂ν, and writes
// ∂ℓ/∂m into gm (d entries) and into gl, packed like l, ∂ℓ/∂L_ij off the
// diagonal and ∂ℓ/∂ln L_ii on it. work is a caller-owned scratch of at
// least 2d entries; nothing is allocated. With w = (ν+d)/(ν+q):
//
//	∂ℓ/∂m = w·u,  ∂ℓ/∂L_ij = w·u_i·z_j (i > j),  ∂ℓ/∂ln L_ii = w·L_ii·u_i·z_i − 1,
//	∂ℓ/∂ν = ½[ψ((ν+d)/2) − ψ(ν/2) − d/ν − ln(1 + q/ν) + (ν+d)q/(ν(ν+q))].
//
// They are evaluated through ẑ = z/σ and û = u/σ with w·σ² = (ν+d)/(ν/σ² + r),
// so that they stay finite and accurate as |y − m| → ∞ (they vanish like
// 1/|e|, or tend to the constant −1 on the diagonal), as ν → ∞ (the
// Gaussian gradient; +Inf is allowed and gives ∂ℓ/∂ν = 0) and as ν → 0.
// For ν ≤ 0 or NaN every output is NaN.
func mvtLogDensityGrad[T Float](y, m, l []T, nu float64, work []float64, gm, gl []T) (ll, dnu float64) {
	d := len(y)
	z, u := work[:d], work[d:2*d]
	if !(nu > 0) {
		nan := math.NaN()
		for i := range gm[:d] {
			gm[i] = T(nan)
		}
		for i := range gl[:mvtPackedLen(d)] {
			gl[i] = T(nan)
		}
		return nan, nan
	}
	lnSigma, sigma, r, lnDiag := mvtStandardize(z, y, m, l)
	ll = mvtLogDensityOf(d, nu, lnSigma, sigma, r, lnDiag)
	// û = L⁻ᵀẑ by back substitution; L_ji (j > i) lies down column i.
	for i := d - 1; i >= 0; i-- {
		s := z[i]
		for j := i + 1; j < d; j++ {
			s -= float64(l[j*(j+1)/2+i]) * u[j]
		}
		u[i] = s / float64(l[i*(i+1)/2+i])
	}
	ratio := nu / (sigma * sigma) // ν/σ²
	ws := sigma * sigma           // w·σ², 1·σ² for the Gaussian
	if !math.IsInf(nu, 1) {
		ws = (nu + float64(d)) / (ratio + r)
	}
	for i := range gm[:d] {
		gm[i] = T(ws * u[i] / sigma)
		row := gl[i*(i+1)/2 : i*(i+1)/2+i+1]
		wu := ws * u[i]
		for j := range row[:i] {
			row[j] = T(wu * z[j])
		}
		row[i] = T(wu*float64(l[i*(i+1)/2+i])*z[i] - 1)
	}
	if math.IsInf(nu, 1) {
		return ll, 0
	}
	// (ν+d)q/(ν(ν+q)) = (1 + d/ν)·r/(ν/σ² + r).
	fit := (1 + float64(d)/nu) * r / (ratio + r)
	dnu = 0.5 * (mvtDigammaGap(d, nu) - mvtLog1pQ(nu, lnSigma, sigma, r) + fit)
	return ll, dnu
}
