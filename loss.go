package gcp

import "fmt"

// Loss selects what a model learns and how it predicts. GCP is the default;
// the others are the paper's comparators (Sec. 6), built on the same
// networks, optimizers and kernels so that a comparison measures the loss
// and nothing else.
type Loss int

const (
	// LossGCP trains by the GCP update (Eq. (2.10)): four heads
	// give the normal-gamma prior (m, α, β, ν) and the predictive is the
	// Student t t_{2α}(y | m, β(ν+1)/(να)).
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

// gcpPoint returns the GCP loss of one sample, −ln t_{2α}(y | m, β(ν+1)/(να)),
// and its gradient with respect to the raw outputs: the GCP gradient
// (Eq. (3.4)–Eq. (3.7), through Lemma 2.1) times the derivative of
// each link, softplus' = sigmoid. With a fixed α, ga is not meaningful.
func gcpPoint(zm, za, zb, zn, y, fixedAlpha float64) (nll, gm, ga, gb, gn float64) {
	p, _ := gcpPrior(zm, za, zb, zn, fixedAlpha)
	dm, da, db, dn := p.Grad(y)
	return -p.LogPredictive(y), dm, da * sigmoid(za), db * sigmoid(zb), dn * sigmoid(zn)
}
