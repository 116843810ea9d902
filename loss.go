package gcp

// gcpPrior maps the raw head outputs to the prior (paper: apprGeneral):
// m is the identity, β = softplus(zb) and ν = softplus(zn) (eqBetaSoftplus),
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
// (eqDKmPure–eqDKnuPure, through Lemma lNablawKy) times the derivative of
// each link, softplus' = sigmoid. With a fixed α, ga is not meaningful.
func gcpPoint(zm, za, zb, zn, y, fixedAlpha float64) (nll, gm, ga, gb, gn float64) {
	p, _ := gcpPrior(zm, za, zb, zn, fixedAlpha)
	dm, da, db, dn := p.Grad(y)
	return -p.LogPredictive(y), dm, da * sigmoid(za), db * sigmoid(zb), dn * sigmoid(zn)
}
