package gcp

import "math"

// predictCopula is PredictMulti for a model whose law is the Gaussian
// copula of one-target models: each marginal predicts its target into
// p's storage with its own workspace of ws, exactly as its Predict does,
// and p takes R, the calibrated region and the transforms from m.
func (m *Model[T]) predictCopula(ws *Workspace[T], x []T, p *MultiPrediction) error {
	d := len(m.margins)
	if ws == nil || len(ws.margins) != d || len(x) != m.cfg.Inputs {
		return ErrShape
	}
	p.resizeCopula(d)
	for j, g := range m.margins {
		if err := g.PredictBatch(ws.margins[j], x, p.cop.marg[j:j+1]); err != nil {
			p.cop.chol = nil // no half-made copula prediction answers
			return err
		}
	}
	p.loss, p.inputZ, p.regionScale = m.cfg.Loss, p.cop.marg[0].InputZ, m.corrScale
	p.regionNu, p.conformal = math.Inf(1), nil
	if r := m.ext.region; r != nil {
		p.regionNu, p.conformal = r.nu, r.conformal
	}
	p.tr, p.logged = m.ext.transforms, m.ext.transforms != [maxTargets]TargetTransform{}
	p.cop.chol = m.ext.copula.chol
	return nil
}

// resizeCopula makes p hold the copula prediction of d targets, reusing
// its marginals' storage, and that of a Conditional's factor (own), where
// they are large enough. It sets p's members
// to 0, which no network model has, so that a later prediction of the
// joint t into p sizes its slices again (resize).
func (p *MultiPrediction) resizeCopula(d int) {
	p.d, p.members, p.weighted = d, 0, false
	if cap(p.cop.marg) < d {
		p.cop.marg = make([]Prediction, d)
	}
	p.cop.marg = p.cop.marg[:d]
	if nl := mvtPackedLen(d); cap(p.cop.own) < nl {
		p.cop.own = make([]float64, nl) // a Conditional's factor, made here so that it allocates nothing
	}
}
