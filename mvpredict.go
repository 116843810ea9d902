package gcp

import "math"

// PredictMulti writes into p the prediction for one input row x of length
// Inputs of a model of several targets (Config.Targets ≥ 2), in the
// targets' original units. It returns ErrShape for a wrong length, a
// workspace of another shape or a model of one target (which Predict
// serves), ErrConfig for a nil model or prediction, and ErrNonFinite for
// a NaN or ±Inf in x, or for an input so far outside the training data
// that the network or a covariance overflows. It allocates nothing once p
// has held a prediction of this model's shape, and may run on many
// goroutines at once, each with its own Workspace and p.
//
// For a model whose law is the Gaussian copula of one-target models
// (docs/multivariate.md, Sec. 12), each target's one-target model
// predicts it into p, exactly as its own Predict does (Marginal), and p
// answers for the copula as each of MultiPrediction's methods says; its
// errors are those of the marginals' Predict, and ErrShape for a
// workspace that NewWorkspace did not make for a model of its shape.
func (m *Model[T]) PredictMulti(ws *Workspace[T], x []T, p *MultiPrediction) error {
	if m == nil || p == nil {
		return ErrConfig
	}
	if m.margins != nil {
		return m.predictCopula(ws, x, p)
	}
	if len(x) != m.cfg.Inputs || !ws.fits(m) || m.lay.targets < 2 {
		return ErrShape
	}
	a, l := ws.a, m.lay
	if err := m.standardizeRows(a.x[:len(x)], x, ws.z[:1]); err != nil {
		return err
	}
	if e := m.ext.encoding; e != nil {
		m.codeDistances(e, x, a.x[:len(x)], ws.z[:1])
	}
	forward(m.k, l, m.cfg.Activation, m.params, a, 1)
	if !m.k.allFinite(a.out[:l.outputs]) {
		return ErrNonFinite
	}
	d, nl, members := l.targets, mvtPackedLen(l.targets), l.members
	p.resize(d, members)
	p.loss, p.inputZ, p.regionScale = m.cfg.Loss, ws.z[0], m.corrScale
	copy(p.spread, m.ext.targets.scales)
	p.regionNu, p.conformal = math.Inf(1), nil
	p.tr, p.logged = m.ext.transforms, m.ext.transforms != [maxTargets]TargetTransform{}
	if r := m.ext.region; r != nil {
		p.regionNu, p.conformal = r.nu, r.conformal
	}
	out := a.out[:l.outputs]
	cm, cl := l.multiColumn(mvHeadMean, 0), l.multiColumn(mvHeadChol, 0)
	for k := range members {
		// ν/(ν−2) from ν − 2 as the link gives it, floored as the one-target
		// α − 1 is (linkFloor): huge but finite where ν rounds to 2, as
		// training on gross outliers drives it. The Gaussian's ν = +Inf.
		// First, as its heads are (multiForwardOutput).
		p.nu[k], p.tfac[k] = math.Inf(1), 1
		if l.multiNu() {
			gap := max(softplus(float64(out[l.multiColumn(mvHeadNu, k)])), linkFloor)
			p.nu[k] = mvNuMin + gap
			p.tfac[k] = p.nu[k] / gap
		}
		p.corr[k] = mvtCorrectionCheb(d, p.nu[k])
		loc, chol := p.loc[k*d:(k+1)*d], p.chol[k*nl:(k+1)*nl]
		for i := range d {
			loc[i] = m.ext.targets.means[i] + m.ext.targets.scales[i]*float64(out[cm+i])
			o := i * (i + 1) / 2
			for j := range i + 1 {
				v := float64(out[cl+o+j])
				if j == i {
					v = math.Exp(v)
				}
				chol[o+j] = m.ext.targets.scales[i] * v
			}
		}
		cm, cl = cm+d, cl+nl
	}
	if !p.mix() {
		return ErrNonFinite
	}
	return nil
}

// mix sets p's mean, and for an ensemble its covariances, the Cholesky
// factor of the corrected covariance and the disagreement, from its
// members' locations, scales, weights, ν and corrections, and reports
// whether all are finite and the corrected covariance positive definite.
func (p *MultiPrediction) mix() bool {
	d, k := p.d, p.weightSum()
	if p.members == 1 {
		copy(p.mean, p.loc)
		for i := range d {
			// zCov(i, i) and ZCovCorrected(i, i), from one S_ii.
			s := p.memberScale(0, i, i)
			if !finite(p.tfac[0]*s) || !finite(s/p.corr[0]) {
				return false
			}
		}
		return true
	}
	clear(p.mean)
	for i, v := range p.loc {
		p.mean[i%d] += p.weightOf(i/d) * v / k
	}
	clear(p.cov)
	clear(p.corrected)
	clear(p.epistemic)
	for c := range p.nu {
		loc, w := p.loc[c*d:(c+1)*d], p.weightOf(c)
		for i := range d {
			for j := range i + 1 {
				s := p.memberScale(c, i, j)
				e := (loc[i] - p.mean[i]) * (loc[j] - p.mean[j])
				p.cov[i*d+j] += w * p.tfac[c] * s / k
				p.corrected[i*d+j] += w * s / p.corr[c] / k
				p.epistemic[i*d+j] += w * e / k
			}
		}
	}
	p.disagreement = 0
	for i := range d {
		for j := range i + 1 {
			p.cov[i*d+j] += p.epistemic[i*d+j]
			p.corrected[i*d+j] += p.epistemic[i*d+j]
			p.cov[j*d+i], p.corrected[j*d+i], p.epistemic[j*d+i] = p.cov[i*d+j], p.corrected[i*d+j], p.epistemic[i*d+j]
		}
		aleatoric := p.cov[i*d+i] - p.epistemic[i*d+i]
		p.dis[i] = math.Sqrt(p.epistemic[i*d+i] / min(aleatoric, p.spread[i]*p.spread[i]))
		p.disagreement = max(p.disagreement, p.dis[i])
	}
	for _, s := range [][]float64{p.mean, p.cov, p.corrected} {
		for _, v := range s {
			if !finite(v) {
				return false
			}
		}
	}
	return cholesky(p.corrChol, p.corrected, d)
}

// cholesky writes into l, packed by rows, the Cholesky factor of the
// row-major d×d symmetric matrix a, and reports whether a is positive
// definite (and every entry of l finite).
func cholesky(l, a []float64, d int) bool {
	for i := range d {
		o := i * (i + 1) / 2
		for j := range i + 1 {
			s := a[i*d+j]
			q := j * (j + 1) / 2
			for c := range j {
				s -= l[o+c] * l[q+c]
			}
			if j < i {
				l[o+j] = s / l[q+j]
				continue
			}
			if !(s > 0) || math.IsInf(s, 1) {
				return false
			}
			l[o+i] = math.Sqrt(s)
		}
	}
	return true
}

// predictMultiSet returns the predictions of the rows of set by a model
// of several targets, in original units.
func predictMultiSet[T Float](m *Model[T], set rowSet[T]) ([]MultiPrediction, error) {
	d, n := m.cfg.Inputs, set.len()
	preds := make([]MultiPrediction, n)
	ws := m.NewWorkspace()
	xb, yb := make([]T, d), make([]T, set.ty)
	for i := range preds {
		set.gather(i, 1, xb, yb)
		if err := m.PredictMulti(ws, xb, &preds[i]); err != nil {
			return nil, err
		}
	}
	return preds, nil
}

// multiRowScores is rowScores for several targets: each row's joint
// negative log density and summed squared error of the predicted means,
// in original units; nil if a row cannot be predicted.
func multiRowScores[T Float](m *Model[T], set rowSet[T]) (nlls, sqErrs []float64) {
	preds, err := predictMultiSet(m, set)
	if err != nil {
		return nil, nil
	}
	d := set.ty
	nlls, sqErrs = make([]float64, len(preds)), make([]float64, len(preds))
	y := make([]float64, d)
	for i := range preds {
		r := set.row(i)
		for j := range y {
			y[j] = float64(set.y[r*d+j])
			e := preds[i].Mean(j) - y[j]
			sqErrs[i] += e * e
		}
		nlls[i] = -preds[i].LogPDF(y)
	}
	return nlls, sqErrs
}
