package bayes

import "math"

// invSqrt2Pi is 1/√(2π), the standard normal density at 0.
const invSqrt2Pi = 0.3989422804014326779399460599343818684758586311649346576659258296

// reluMoments returns the mean and variance of z = max(0, a) for a
// Gaussian pre-activation a ~ N(mu, s2), the moments PBP propagates
// through a ReLU unit (the PBP paper's forward pass), together with the two
// factors their derivatives need: cdf = Φ(α) and dens = φ(α)/σ, where
// σ = √s2 and α = mu/σ. With h(α) = αΦ(α) + φ(α),
//
//	E[z]  = σ·h(α)
//	Var z = s2·g(α),  g(α) = (α²+1)Φ(α) + αφ(α) − h(α)².
//
// For α ≥ 0, g is evaluated in the form 1 − Q + α²Q − αφ − (φ − αQ)²,
// Q = Φ(−α), which follows from Φ = 1 − Q and does not cancel as α grows
// (g → 1). For α < 0 the direct form loses about α⁴ ulps to cancellation
// as g → 0, at most 2⁻³⁰ relative where φ(α) is still above 1e-300; a
// result below 0 from that rounding is clamped to 0. The authors' code
// (network.c, forward_PBP) switches to an asymptotic series of φ/Φ below
// α = −30 instead; Φ from math.Erfc keeps its relative accuracy in the
// tail, so no switch is needed here.
//
// s2 = 0 (a deterministic a) gives the moments of max(0, mu), cdf 1 or 0
// and dens 0; the network never produces it, since every weight
// variance stays above minVariance.
func reluMoments(mu, s2 float64) (mean, variance, cdf, dens float64) {
	if !(s2 > 0) {
		if mu > 0 {
			return mu, 0, 1, 0
		}
		return 0, 0, 0, 0
	}
	sigma := math.Sqrt(s2)
	alpha := mu / sigma
	pdf := invSqrt2Pi * math.Exp(-0.5*alpha*alpha)
	var g float64
	if alpha >= 0 {
		q := 0.5 * math.Erfc(alpha/math.Sqrt2) // Φ(−α) ≤ ½, so cdf = 1 − q loses nothing
		r := pdf - alpha*q
		cdf = 1 - q
		g = 1 - q + alpha*alpha*q - alpha*pdf - r*r
	} else {
		cdf = 0.5 * math.Erfc(-alpha/math.Sqrt2)
		h := alpha*cdf + pdf
		g = max((alpha*alpha+1)*cdf+alpha*pdf-h*h, 0)
	}
	return sigma * (alpha*cdf + pdf), s2 * g, cdf, pdf / sigma
}

// reluGrad maps the gradient (gm, gv) of a function with respect to a
// ReLU unit's output mean and variance to its gradient with respect to the
// unit's pre-activation mean and variance, by the chain rule through
// reluMoments. Gaussian integration by parts (∂E[f(a)]/∂mu = E[f'(a)],
// ∂E[f(a)]/∂s2 = E[f″(a)]/2) gives the four partial derivatives
//
//	∂E[z]/∂mu = Φ(α)                 ∂E[z]/∂s2 = φ(α)/(2σ)
//	∂Var z/∂mu = 2E[z](1 − Φ(α))     ∂Var z/∂s2 = Φ(α) − E[z]·φ(α)/σ
//
// from the output mean and the factors cdf and dens that reluMoments
// returned. They are the derivatives the authors' code (network.c,
// backward_PBP) computes through α and φ/Φ, in closed form.
func reluGrad(gm, gv, mean, cdf, dens float64) (gmu, gs2 float64) {
	gmu = gm*cdf + gv*2*mean*(1-cdf)
	gs2 = gm*0.5*dens + gv*(cdf-mean*dens)
	return gmu, gs2
}
