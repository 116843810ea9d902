package bayes

import "math"

// minVariance is the smallest weight variance an ADF update may leave:
// an update that would go to or below it, or make a mean or a variance
// NaN or infinite, is skipped for that weight, as in the authors' code
// (network.c, do_ADF_update, and network.py, remove_invalid_updates, use
// the same bound 1e-100).
const minVariance = 1e-100

// trainer holds the buffers of ADF updates on one model.
type trainer struct {
	m  *PBP
	ws *PBPWorkspace
	// gradM and gradV hold ∂log Z/∂m and ∂log Z/∂v of every weight, in
	// the order of the model's weight buffers.
	gradM, gradV []float64
	// gMu, gS2 hold ∂log Z/∂(mean, variance) of the current layer's
	// pre-activations; gZm, gZv the gradient with respect to the moments
	// of the layer below's outputs. backward swaps the pairs from layer to
	// layer.
	gMu, gS2, gZm, gZv []float64
}

// newTrainer returns the buffers for ADF updates of m.
func newTrainer(m *PBP) *trainer {
	p, w := m.lay.params(), 0
	for _, u := range m.lay.widths {
		w = max(w, u+1)
	}
	_, v := carve(p, p, w, w, w, w)
	return &trainer{m: m, ws: m.NewWorkspace(), gradM: v[0], gradV: v[1], gMu: v[2], gS2: v[3], gZm: v[4], gZv: v[5]}
}

// gaussianLogZGrad returns the derivatives of log Z = log N(y | mu, s2)
// with respect to mu and s2, given the residual r = y − mu:
// ∂/∂mu = r/s2 and ∂/∂s2 = (r²/s2 − 1)/(2 s2).
func gaussianLogZGrad(r, s2 float64) (dmu, ds2 float64) {
	return r / s2, 0.5 * (r*r/s2 - 1) / s2
}

// momentUpdate returns the mean and variance of the Gaussian that matches
// the first two moments of N(w | m, v)·Z(m, v)/Z, given the derivatives
// gm = ∂log Z/∂m and gv = ∂log Z/∂v (Minka 2001; the PBP paper's ADF
// update of the weights):
//
//	m' = m + v·gm,   v' = v − v²·(gm² − 2·gv).
func momentUpdate(m, v, gm, gv float64) (mNew, vNew float64) {
	return m + v*gm, v - v*v*(gm*gm-2*gv)
}

// gammaUpdate returns the shape and rate of the Gamma whose first two
// moments match those of Gamma(τ | a, b)·Z(a, b)/Z for the marginal
// likelihood of a Gaussian observation whose precision is τ, here at
// residual² r2 and with the other variance v, the PBP paper's update of
// the noise precision γ (and of the prior precision λ, by refinePrior).
// As in the paper, Z(a, b) is approximated by the Gaussian N(r | 0, v +
// b/(a−1)) whose variance is the expected variance; with Z1 = Z(a+1, b)
// and Z2 = Z(a+2, b) the matched moments are
//
//	a' = 1/(Z·Z2/Z1² · (a+1)/a − 1)
//	b' = 1/(Z2/Z1 · (a+1)/b − Z1/Z · a/b),
//
// computed from the logarithms of the Z, whose common factor (2π)^(−½)
// cancels in every ratio. ok is false where the result is not a valid
// Gamma (a' ≤ 1, b' ≤ 0 or either non-finite), which the authors' code
// does not check; the callers then keep the old one.
func gammaUpdate(a, b, v, r2 float64) (aNew, bNew float64, ok bool) {
	logZ := func(s2 float64) float64 { return -0.5 * (math.Log(s2) + r2/s2) }
	l0, l1, l2 := logZ(v+b/(a-1)), logZ(v+b/a), logZ(v+b/(a+1))
	aNew = 1 / (math.Exp(l2-2*l1+l0)*(a+1)/a - 1)
	bNew = 1 / (math.Exp(l2-l1)*(a+1)/b - math.Exp(l1-l0)*a/b)
	ok = aNew > 1 && bNew > 0 && aNew < math.Inf(1) && bNew < math.Inf(1)
	return aNew, bNew, ok
}

// step incorporates the training pair (x, y), x standardized, into the
// posterior: the ADF update of every weight's mean and variance, then of
// the noise precision's Gamma, each computed from the posterior before
// the step (as the authors' code does, network.c do_ADF_update).
func (t *trainer) step(x []float64, y float64) {
	m := t.m
	mu, s2 := t.adfStep(x, y, m.noiseA, m.noiseB)
	r := y - mu
	if a, b, ok := gammaUpdate(m.noiseA, m.noiseB, s2, r*r); ok {
		m.noiseA, m.noiseB = a, b
	}
}

// adfStep updates every weight's mean and variance for the training pair
// (x, y), x standardized, given the noise precision's Gamma(a, b): log Z
// = log N(y | μ, σ² + b/(a−1)) with (μ, σ²) the network output's moments,
// the noise variance replaced by its expectation as in the paper. It
// returns μ and σ².
func (t *trainer) adfStep(x []float64, y, a, b float64) (mu, s2 float64) {
	copy(t.ws.input(t.m), x)
	mu, s2 = t.m.propagate(t.ws)
	t.backward(y-mu, s2+b/(a-1))
	t.m.applyADF(t.gradM, t.gradV)
	return mu, s2
}

// applyADF updates every weight by momentUpdate from the gradients of
// log Z, skipping the weights whose update is invalid (minVariance).
func (m *PBP) applyADF(gradM, gradV []float64) {
	gradM, gradV = gradM[:len(m.mean)], gradV[:len(m.mean)]
	for i, w := range m.mean {
		mNew, vNew := momentUpdate(w, m.variance[i], gradM[i], gradV[i])
		if vNew > minVariance && vNew < math.Inf(1) && mNew-mNew == 0 {
			m.mean[i], m.variance[i] = mNew, vNew
		}
	}
}

// backward fills gradM and gradV with the gradient of log Z = log N(y |
// μ, s2out) with respect to every weight's mean and variance, where r = y
// − μ and s2out is the output's variance plus the noise variance, from
// the moments of the last propagate in t.ws: PBP's backward pass, the
// chain rule through preactivation (unitGrad) and the ReLUs (reluGrad)
// from the output layer down.
func (t *trainer) backward(r, s2out float64) {
	m, ws, l := t.m, t.ws, &t.m.lay
	gMu, gS2, gZm, gZv := t.gMu, t.gS2, t.gZm, t.gZv
	gMu[0], gS2[0] = gaussianLogZGrad(r, s2out)
	for k := l.layers(); k >= 1; k-- {
		inLo, inHi := l.units(k - 1)
		mIn, vIn := ws.mz[inLo:inHi], ws.vz[inLo:inHi]
		n := len(mIn)
		zm, zv := gZm[:n], gZv[:n]
		clear(zm)
		clear(zv)
		wLo, _ := l.weights(k)
		for j := range l.widths[k] {
			row := wLo + j*n
			unitGrad(gMu[j], gS2[j], m.mean[row:row+n], m.variance[row:row+n], mIn, vIn,
				t.gradM[row:row+n], t.gradV[row:row+n], zm, zv)
		}
		if k == 1 {
			break // the inputs are data: no gradient flows into them
		}
		for i := range n - 1 { // the hidden units of layer k−1, not its bias slot
			o := inLo + i
			zm[i], zv[i] = reluGrad(zm[i], zv[i], ws.mz[o], ws.cdf[o], ws.dens[o])
		}
		gMu, gZm = gZm, gMu
		gS2, gZv = gZv, gS2
	}
}

// unitGrad writes the gradient of log Z with respect to one unit's weight
// means and variances into gw and gv, and adds the gradient with respect
// to the moments of the unit's inputs to gzm and gzv, given the gradient
// (gmu, gs2) with respect to the mean and variance of the unit's
// pre-activation. With n = len(w) it differentiates preactivation:
//
//	∂E[a]/∂m_i = mz_i/√n    ∂Var a/∂m_i = 2 m_i vz_i/n    ∂Var a/∂v_i = (mz_i² + vz_i)/n
//	∂E[a]/∂mz_i = m_i/√n    ∂Var a/∂mz_i = 2 v_i mz_i/n   ∂Var a/∂vz_i = (m_i² + v_i)/n
func unitGrad(gmu, gs2 float64, w, v, mz, vz, gw, gv, gzm, gzv []float64) {
	v, mz, vz, gw, gv, gzm, gzv = v[:len(w)], mz[:len(w)], vz[:len(w)], gw[:len(w)], gv[:len(w)], gzm[:len(w)], gzv[:len(w)]
	n := float64(len(w))
	cm, cv := gmu/math.Sqrt(n), gs2/n
	for i, wi := range w {
		gw[i] = cm*mz[i] + 2*cv*wi*vz[i]
		gv[i] = cv * (mz[i]*mz[i] + vz[i])
		gzm[i] += cm*wi + 2*cv*v[i]*mz[i]
		gzv[i] += cv * (wi*wi + v[i])
	}
}
