package gcp

import "math"

// Training a model of several targets: the GCP update on the multivariate
// t. By Lemma 2.1's argument, which does not depend on the dimension, the
// gradient of the KL divergence from the frozen posterior to the
// normal-Wishart prior is −∇ ln p_pred(y), the multivariate t's, in
// whatever coordinates the weights reach it; the heads give it in
// (m, log-Cholesky L, ν) (docs/multivariate.md, Sec. 2 and 5).

// multiLoss is the loss of a model of several targets (Trainer.loss):
// over the n rows of the raw outputs out and the standardized targets y,
// each member's negative log density of the multivariate t (mvtPoint), or
// of the Gaussian N(m, LLᵀ) for the comparator without a ν head,
// the objective their sum, the returned NLL the members' mean. It writes
// the objective's gradient with respect to the raw outputs, divided by
// n, into dout; chol and work are mvtPoint's scratch.
func multiLoss[T Float](l *layout, n int, out, y []T, chol []T, work []float64, dout []T) (nll, objective float64) {
	d, nl, w := l.targets, mvtPackedLen(l.targets), l.outputs
	scale := 1 / float64(n)
	nn := 0 // the ν head's width: none for the Gaussian comparator
	if l.multiNu() {
		nn = 1
	}
	for k := range l.members {
		cm, cl, cn := l.multiColumn(mvHeadMean, k), l.multiColumn(mvHeadChol, k), 0
		if nn > 0 {
			cn = l.multiColumn(mvHeadNu, k)
		}
		for i := range n {
			z, g := out[i*w:(i+1)*w], dout[i*w:(i+1)*w]
			objective += mvtPoint(z[cm:cm+d], z[cl:cl+nl], z[cn:cn+nn], y[i*d:(i+1)*d], scale, chol, work, g[cm:cm+d], g[cl:cl+nl], g[cn:cn+nn])
		}
	}
	return objective / float64(l.members), objective
}

// mvtPoint returns −ln t_ν(y | m, LLᵀ) for one member's raw outputs at
// one row: zm the mean, zl the packed Cholesky factor with ln L_ii on the
// diagonal, zn the ν head (ν = mvNuMin + softplus(zn[0])), or no ν head
// (zn and gn empty) for the Gaussian N(m, LLᵀ), the t with ν = +Inf. It
// writes scale times the gradient of that loss with respect to the raw
// outputs into gl and gn, and into gm for the Gaussian; for the t, gm
// gets scale times the gradient of the targets' marginal losses
// (marginalMeanGrad). The links of m and L_ij are the identity
// and that of L_ii the exponential, for which mvtLogDensityGrad's
// ∂ℓ/∂ln L_ii is already the derivative, and ν's chain factor is
// sigmoid(zn). chol (the factor L) and work (2d) are scratch.
func mvtPoint[T Float](zm, zl, zn []T, y []T, scale float64, chol []T, work []float64, gm, gl, gn []T) float64 {
	for i := range zm {
		o := i * (i + 1) / 2
		copy(chol[o:o+i], zl[o:o+i])
		chol[o+i] = T(math.Exp(float64(zl[o+i])))
	}
	nu := math.Inf(1)
	if len(zn) > 0 {
		nu = mvNuMin + softplus(float64(zn[0]))
	}
	ll, dnu := mvtLogDensityGrad(y, zm, chol[:len(zl)], nu, work, gm, gl)
	if len(zn) > 0 {
		marginalMeanGrad(zm, chol, y, nu, gm)
	}
	for i, v := range gm {
		gm[i] = T(-scale * float64(v))
	}
	for i, v := range gl {
		gl[i] = T(-scale * float64(v))
	}
	for i, v := range zn {
		gn[i] = T(-scale * dnu * sigmoid(float64(v)))
	}
	return -ll
}

// marginalMeanGrad overwrites gm with ∂/∂m_j of Σ_j ln t_ν(y_j | m_j,
// S_jj), the targets' marginal log densities under the multivariate t
// (each a one-dimensional t with the same ν and scale S_jj = Σ_k L_jk²):
// (ν+1)·e_j/(ν·S_jj + e_j²) with e_j = y_j − m_j, each target's mean
// moved by its own residual and its own robust weight. The mean heads
// descend these marginal losses, and the Cholesky and ν heads the joint
// one. The joint gradient w·S⁻¹e fits m_j to y_j less its regression on
// the other targets' residuals; where those are noisy and their means
// still far from right, as early in training or on few rows, the
// regression carries their errors, and the fitted correlations' noise,
// into m_j, and the shared weight w = (ν+d)/(ν+q) discounts a row for
// every target when any is far out. The marginal gradient has the same
// equilibrium, m_j = E[y_j|x] where the t is the truth, and it is that of
// a one-target model's mean. On a synthetic truth of one target nearly
// determined by x and two of pure noise (docs/multivariate.md, Sec. 8)
// the joint gradient left the determined target's error 1.22× a
// one-target model's at the same hyperparameters, the marginal one 1.01×.
func marginalMeanGrad[T Float](zm, chol, y []T, nu float64, gm []T) {
	for j := range zm {
		o := j * (j + 1) / 2
		var s float64
		for _, v := range chol[o : o+j+1] {
			s += float64(v) * float64(v)
		}
		e := float64(y[j]) - float64(zm[j])
		gm[j] = T((nu + 1) * e / (nu*s + e*e))
	}
}

// multiValidationScores is validationScores for a model of several
// targets: the mean joint negative log density of the multivariate t
// (MultiPrediction.LogPDF) over the rows of set, and, as the score of the
// mean heads' epoch (fitRun.meanEpoch), the sum over targets of the log
// of each one's mean squared error. The sum is free of the targets'
// units, and it credits every target's relative improvement alike: a
// target predicted a hundred times more precisely than the others still
// decides the epoch as much as they do, where a sum of squared errors,
// in any units, would let the noisiest targets decide it (on the slump
// data's inner splits that kept the compressive strength's error twice
// the one-target model's). Up to constants it is twice the held-out NLL
// of independent Gaussians whose variances are fitted to those rows.
// Both are NaN if a row cannot be predicted.
func (m *Model[T]) multiValidationScores(ws *Workspace[T], set rowSet[T], xb, yb []T) (nll, sqErr float64) {
	var p MultiPrediction
	var y, sq [maxTargets]float64
	d, ty, n := m.cfg.Inputs, set.ty, set.len()
	for s := 0; s < n; s++ {
		set.gather(s, 1, xb, yb)
		if err := m.PredictMulti(ws, xb[:d], &p); err != nil {
			return math.NaN(), math.NaN()
		}
		for j, v := range yb[:ty] {
			y[j] = float64(v)
			e := p.Mean(j) - y[j]
			sq[j] += e * e
		}
		nll -= p.LogPDF(y[:ty])
	}
	for _, v := range sq[:ty] {
		sqErr += math.Log(v / float64(n))
	}
	return nll / float64(n), sqErr
}
