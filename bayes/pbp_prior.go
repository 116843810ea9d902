package bayes

// maxCavityVariance is the largest cavity variance for which refinePrior
// refines a weight's prior factor, as in the authors' code (prior.py and
// network.c, refine_prior: v_w_cav < 1e6). A weight the data have barely
// moved has a cavity close to the flat distribution; its factor is left
// as it is.
const maxCavityVariance = 1e6

// refinePrior refines the approximate prior factor of every weight by
// expectation propagation, the PBP paper's update of the prior factors
// after each pass over the data. Each weight's factor approximates
// ∫N(w | 0, 1/λ)·Gamma(λ | a, b) dλ by a Gaussian in w times a Gamma in λ,
// stored by its natural parameters (mHat, vHat, aHat, bHat); the Gamma
// posterior of λ, (priorA, priorB), is the product of all the factors'
// Gammas and the Gamma(6, 6) prior.
//
// For each weight in turn, in the order of the weight buffers (the
// authors' order: layer by layer, row by row), the factor is divided out
// of the posterior (the cavity), the exact factor is put in its place, the
// result is projected back by moment matching (momentUpdate for the
// weight, gammaUpdate for λ, the same updates as ADF's with y = 0 and the
// weight in the place of the network output) and the new factor is the
// ratio of the new posterior to the cavity. A weight whose cavity is not
// a proper distribution (variance ≤ 0 or above maxCavityVariance, a Gamma
// with shape ≤ 1 or rate ≤ 0) is skipped, as in the authors' code; so is
// one whose update would not be a valid Gaussian and Gamma, which that
// code does not check.
func (m *PBP) refinePrior() {
	for i, w := range m.mean {
		vNat, mNat := 1/m.variance[i], w/m.variance[i]
		vCavNat, mCavNat := vNat-m.vHat[i], mNat-m.mHat[i]
		vCav, mCav := 1/vCavNat, mCavNat/vCavNat
		aCav, bCav := m.priorA-m.aHat[i], m.priorB+m.bHat[i]
		if !(vCav > 0 && vCav < maxCavityVariance && aCav > 1 && bCav > 0) {
			continue
		}
		gm, gv := gaussianLogZGrad(-mCav, vCav+bCav/(aCav-1))
		mNew, vNew := momentUpdate(mCav, vCav, gm, gv)
		aNew, bNew, ok := gammaUpdate(aCav, bCav, vCav, mCav*mCav)
		if !ok || !(vNew > minVariance) || mNew-mNew != 0 {
			continue
		}
		m.mHat[i], m.vHat[i] = mNew/vNew-mCavNat, 1/vNew-vCavNat
		m.aHat[i], m.bHat[i] = aNew-aCav, bCav-bNew
		m.mean[i], m.variance[i] = mNew, vNew
		m.priorA, m.priorB = aNew, bNew
	}
}
