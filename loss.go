package gcp

import (
	"fmt"
	"math"
)

// Loss selects what a model learns and how it predicts. GCP is the default;
// the others are the paper's comparators (Sec. 6), built on the same
// networks, optimizers and kernels so that a comparison measures the loss
// and nothing else.
type Loss int

const (
	// LossGCP trains by the GCP update (Eq. (2.10)): four heads
	// give the normal-gamma prior (m, α, β, ν) and the predictive is the
	// Student t t₂α(y | m, β(ν+1)/(να)) with 2α degrees of freedom.
	LossGCP Loss = iota
	// LossGaussianML is the mean–variance network of Nix & Weigend: two
	// heads give m and σ², trained by the Gaussian negative
	// log-likelihood; the predictive is N(m, σ²). The paper's ML.
	LossGaussianML
	// LossDPD has the heads of LossGaussianML but minimizes the density
	// power divergence of Basu et al. (1998) with parameter
	// Config.DPDGamma, which down-weights samples the model finds
	// unlikely and so resists outliers. The paper's DPD.
	LossDPD
	// LossMLBayes trains as LossGaussianML, with dropout, and predicts by
	// MC dropout (Kendall & Gal 2017): the network's output layer runs
	// Config.MCSamples times, under dropout masks drawn from Config.Seed,
	// on hidden layers computed once, and the predictive
	// is the Gaussian with the mixture's mean and variance, split by the
	// law of total variance into Prediction.VarAleatoric (the mean of
	// the σ²) and Prediction.VarEpistemic (the variance of the means).
	// The paper's ML_Bayes.
	LossMLBayes
)

// String returns the loss's name, as the paper writes it.
func (l Loss) String() string {
	switch l {
	case LossGCP:
		return "GCP"
	case LossGaussianML:
		return "ML"
	case LossDPD:
		return "DPD"
	case LossMLBayes:
		return "ML_Bayes"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// gaussian reports whether the loss predicts a Gaussian with heads m and σ².
func (l Loss) gaussian() bool { return l != LossGCP }

// gcpPrior maps the raw head outputs to the prior (paper: Practical approach 2.1):
// m is the identity, β = softplus(zb) and ν = softplus(zn) (Eq. (5.2)),
// and α = 1 + softplus(za), so that V_est stays finite, or the fixed α. It
// also returns α − 1 as the link computes it, softplus(za), which stays
// exact where α itself rounds to 1.
func gcpPrior(zm, za, zb, zn, fixedAlpha float64) (p NormalGamma, alphaMinusOne float64) {
	alpha, alphaMinusOne := fixedAlpha, fixedAlpha-1
	if fixedAlpha == 0 {
		alphaMinusOne = softplus(za)
		alpha = 1 + alphaMinusOne
	}
	return NormalGamma{M: zm, Alpha: alpha, Beta: softplus(zb), Nu: softplus(zn)}, alphaMinusOne
}

// gcpPoint returns the GCP loss of one sample, −ln t₂α(y | m, β(ν+1)/(να)),
// and its gradient with respect to the raw outputs: the GCP gradient
// (Eq. (3.4)–Eq. (3.7), through Lemma 2.1) times the derivative of
// each link, softplus' = sigmoid. With a fixed α, ga is not meaningful.
func gcpPoint(zm, za, zb, zn, y, fixedAlpha float64) (nll, gm, ga, gb, gn float64) {
	p, _ := gcpPrior(zm, za, zb, zn, fixedAlpha)
	dm, da, db, dn := p.Grad(y)
	return -p.LogPredictive(y), dm, da * sigmoid(za), db * sigmoid(zb), dn * sigmoid(zn)
}

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
