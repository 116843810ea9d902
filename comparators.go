package gcp

import "math"

// Defaults of the comparators' parameters. The paper does not state its
// DPD parameter; γ = 0.5 is a common choice of Ghosh & Basu (2016) between
// efficiency on clean data (γ → 0 is maximum likelihood) and robustness.
// The paper took 50 MC-dropout samples, after Kendall & Gal
// (Appendix E).
const (
	defaultDPDGamma  = 0.5
	defaultMCSamples = 50
	maxMCSamples     = 1 << 12
	maxDPDGamma      = 100
)

// minVariance is added to σ² = softplus(z) in standardized units, as in
// Lakshminarayanan et al. (2017): it keeps the Gaussian losses and their
// gradients finite where softplus underflows, and a standard deviation of
// 1e-3 of the target's spread is far below anything the data can resolve.
const minVariance = 1e-6

// gaussianVariance maps the raw variance head to σ² = softplus(z) + 1e-6.
func gaussianVariance(zv float64) float64 { return softplus(zv) + minVariance }

// gaussianNLL returns −ln N(y | m, s) and its derivatives with respect to
// m and the variance s.
func gaussianNLL(m, s, y float64) (nll, dm, ds float64) {
	r := y - m
	q := r / s
	return 0.5 * (math.Log(2*math.Pi*s) + r*q), -q, 0.5 * (1 - r*q) / s
}

// gaussianPoint returns the Gaussian negative log-likelihood of one
// sample, which is also what ML minimizes, and its gradient with respect
// to the raw outputs (zm, zv).
func gaussianPoint(zm, zv, y, _ float64) (nll, objective, gm, gv float64) {
	nll, dm, ds := gaussianNLL(zm, gaussianVariance(zv), y)
	return nll, nll, dm, ds * sigmoid(zv)
}

// dpdPoint returns, for one sample, the Gaussian negative log-likelihood
// (what Step reports for every loss), and the density power divergence of
// Basu et al. (1998) with parameter γ and its gradient with respect to the
// raw outputs (zm, zv). For the model f = N(m, s), up to a term free of
// the parameters, the divergence is
//
//	L = ∫ f^{1+γ} − (1 + 1/γ) f(y)^γ
//	  = (2πs)^{−γ/2} ((1+γ)^{−1/2} − (1 + 1/γ) e),   e = exp(−γ r²/(2s)), r = y − m,
//
// with ∂L/∂m = −(2πs)^{−γ/2} (1+γ) e r/s and
// ∂L/∂s = −γ L/(2s) − (2πs)^{−γ/2} (1+γ) e r²/(2s²). An outlier has e → 0
// and contributes only the first, bounded term of ∂L/∂s: that is the
// robustness. e·r and e·r² are taken as 0 once e underflows, where r²
// may have overflowed.
func dpdPoint(zm, zv, y, gamma float64) (nll, objective, gm, gv float64) {
	s := gaussianVariance(zv)
	nll, _, _ = gaussianNLL(zm, s, y)
	r := y - zm
	q := r * r / (2 * s)
	e := math.Exp(-gamma * q)
	c := math.Pow(2*math.Pi*s, -gamma/2)
	l := c * (1/math.Sqrt(1+gamma) - (1+1/gamma)*e)
	var er, eq float64
	if e > 0 {
		er, eq = e*r, e*q
	}
	dm := -c * (1 + gamma) * er / s
	ds := (-gamma*l/2 - c*(1+gamma)*eq) / s
	return nll, l, dm, ds * sigmoid(zv)
}

// gaussianLoss evaluates a Gaussian-family loss point (gaussianPoint or
// dpdPoint, with its parameter) over the rows of the raw outputs zm, zv
// and targets y, writes the objective's gradient times scale into gm and
// gv, and returns the summed negative log-likelihood and objective.
func gaussianLoss[T Float](point func(zm, zv, y, param float64) (nll, objective, gm, gv float64), param float64,
	zm, zv, y []T, scale float64, gm, gv []T) (nll, objective float64) {
	for i := range y {
		l, o, dm, dv := point(float64(zm[i]), float64(zv[i]), float64(y[i]), param)
		nll += l
		objective += o
		gm[i], gv[i] = T(dm*scale), T(dv*scale)
	}
	return nll, objective
}
