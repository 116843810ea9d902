package gcp

import "math"

// workspaceRows is how many rows a Workspace predicts at once; PredictBatch
// walks larger batches in chunks of this size.
const workspaceRows = 64

// Workspace holds the buffers of one goroutine's predictions. Create one
// per goroutine with NewWorkspace; a Workspace must not be shared by
// goroutines at the same time.
type Workspace[T Float] struct {
	lay  *layout
	a    *activations[T]
	link []float64 // the softplus heads' links of a chunk: β, ν, then α−1 (or σ²), each for every member
	z    []float64 // the InputZ of each row of a chunk
	// record is PredictRecord's encoded record, allocated by its first call.
	record []T
	// members holds the runs of every member's predictive for the rows
	// of a chunk, a copy of which each loss fills (PredictBatch).
	members memberPredictives
	// margins holds a workspace of each marginal of a model whose law is
	// the Gaussian copula (copula_model.go), with which PredictMulti
	// predicts them; nil for a network model's, whose other fields a
	// copula model's lacks.
	margins []*Workspace[T]
}

// NewWorkspace returns buffers for predicting with m, or with any model of
// the same shape (and, for LossMLBayes, at least as many MC samples). For
// a Model that New did not build (a zero Model) it returns an empty
// Workspace, with which Predict returns ErrShape. For a model whose law
// is the Gaussian copula of one-target models it holds a workspace of
// each, for PredictMulti (Predict returns ErrShape with it, as for every
// model of several targets).
func (m *Model[T]) NewWorkspace() *Workspace[T] {
	if m != nil && m.margins != nil {
		ws := &Workspace[T]{margins: make([]*Workspace[T], len(m.margins))}
		for j, g := range m.margins {
			ws.margins[j] = g.NewWorkspace()
		}
		return ws
	}
	if m == nil || m.lay == nil {
		return &Workspace[T]{}
	}
	// The first layer serves the inputs most training rows held at their
	// centre a row of weights at a time (sparseInputs).
	centred := m.recordedCentredInputs()
	if m.cfg.Loss != LossMLBayes {
		a := newActivations[T](m.lay, workspaceRows, false)
		a.useSparse(m.lay, centred)
		return &Workspace[T]{lay: m.lay, a: a,
			link: make([]float64, (m.lay.heads-m.lay.members)*workspaceRows), z: make([]float64, workspaceRows),
			members: newMemberPredictives(m.lay.members, workspaceRows)}
	}
	// An ML_Bayes prediction runs the hidden layers on one row and the
	// output layer on MCSamples (forwardMC): one row of activations, and
	// outputs and links for every pass.
	s := m.cfg.MCSamples
	a := newActivations[T](m.lay, 1, true)
	a.out = make([]T, m.lay.heads*s)
	a.useSparse(m.lay, centred)
	return &Workspace[T]{lay: m.lay, a: a, link: make([]float64, (m.lay.heads-m.lay.members)*s), z: make([]float64, 1),
		members: newMemberPredictives(m.lay.members, 1)}
}

// fits reports whether ws has the buffers m needs.
func (ws *Workspace[T]) fits(m *Model[T]) bool {
	if ws == nil || !sameShape(ws.lay, m.lay) {
		return false
	}
	// An ML_Bayes Workspace has dropout buffers and outputs for its
	// model's MCSamples passes.
	return m.cfg.Loss != LossMLBayes || (ws.a.drop != nil && len(ws.a.out) >= m.lay.heads*m.cfg.MCSamples)
}

// Predict returns the prediction for one input row x of length Inputs, in
// the target's original units (through the model's TargetTransform, if it
// has one). It returns ErrShape for a wrong length, a workspace of
// another shape or a model New did not build, ErrConfig for a nil model,
// and ErrNonFinite for a NaN or ±Inf in x, or for an input so far outside
// the training data that the network or a variance overflows.
// It allocates nothing.
func (m *Model[T]) Predict(ws *Workspace[T], x []T) (Prediction, error) {
	var out [1]Prediction
	err := m.PredictBatch(ws, x, out[:])
	return out[0], err
}

// PredictBatch writes the prediction for each row of the row-major x
// (len(out) rows of Inputs features) into out. Its errors are those of
// Predict; after an error the contents of out are unspecified. It
// allocates nothing.
func (m *Model[T]) PredictBatch(ws *Workspace[T], x []T, out []Prediction) error {
	if m == nil {
		return ErrConfig
	}
	return m.predictBatch(ws, x, out, m.ext.transform)
}

// predictModeled is PredictBatch without the target transform: its
// predictions are those of the target the network models, in which
// training, validation and calibration score them.
func (m *Model[T]) predictModeled(ws *Workspace[T], x []T, out []Prediction) error {
	if m == nil {
		return ErrConfig
	}
	return m.predictBatch(ws, x, out, TransformNone)
}

// predictBatch is PredictBatch, mapping the predictions back through the
// transform tr.
func (m *Model[T]) predictBatch(ws *Workspace[T], x []T, out []Prediction, tr TargetTransform) error {
	d := m.cfg.Inputs
	if len(x) != len(out)*d || !ws.fits(m) || m.lay.targets > 1 {
		return ErrShape // PredictMulti answers for several targets
	}
	a, chunk := ws.a, ws.a.rows
	if m.cfg.Loss == LossMLBayes {
		chunk = 1 // one input at a time, its output layer run MCSamples times
	}
	for start := 0; start < len(out); start += chunk {
		n := min(chunk, len(out)-start)
		z := ws.z[:n]
		rows := x[start*d : (start+n)*d]
		if err := m.standardizeRows(a.x[:n*d], rows, z); err != nil {
			return err
		}
		if e := m.ext.encoding; e != nil {
			m.codeDistances(e, rows, a.x[:n*d], z)
		}
		passes := n
		if m.cfg.Loss == LossMLBayes {
			passes = m.cfg.MCSamples
			forwardMC(m.k, m.lay, m.cfg.Activation, m.params, a, passes, m.mcMask)
		} else {
			forward(m.k, m.lay, m.cfg.Activation, m.params, a, n)
		}
		if !m.k.allFinite(a.out[:m.lay.heads*passes]) {
			return ErrNonFinite
		}
		p, ok := ws.members, true // the runs of ws, pointed at others by the loss (on the stack, where that takes no write barrier)
		switch {
		case m.cfg.Loss == LossMLBayes:
			m.mcPredictives(ws, &p)
		case m.cfg.Loss.gaussian():
			m.gaussianPredictives(ws, n, &p)
		default:
			ok = m.gcpPredictives(ws, n, &p)
		}
		if !m.mixRows(&p, z, out[start:start+n]) || !ok {
			return ErrNonFinite
		}
		if tr != TransformNone {
			for i := range out[start : start+n] {
				if !transformBack(&out[start+i], tr) {
					return ErrNonFinite
				}
			}
		}
	}
	return nil
}

// linkFloor is the least value, in standardized units, of a GCP
// prediction's β, ν and α−1, each the softplus of a raw output that
// underflows to 0 far outside the training data. At 2⁻²⁵⁶ it is far below
// any value a fit to standardized data produces, and it keeps every
// quantity derived from it normal: β·yScale² ≥ 2⁻⁷⁶⁸ for the target
// scales robust.TargetScaleOK allows, 1/ν ≤ 2²⁵⁶, and σ/(α−1) finite unless σ
// itself is beyond 2⁷⁶⁸.
const linkFloor = 0x1p-256

// gcpPredictives fills p with the members' predictives of the n rows in
// ws, and reports whether every member's σ is positive and finite, so
// that the scale √(σ/α) of a single network is at most √MaxFloat64 for
// α ≥ 1 and its intervals are finite (an ensemble's members' scales, which
// mixRows checks, are finite only if their σ are). The links are those of
// gcpPrior, with the softplus of every β, ν and α head of every member
// computed by one kernel call and floored at linkFloor; a target
// standardized as (y − yMean)/yScale has the prior (yMean + yScale·m, ν,
// α, yScale²·β). β, ν and α (with a learned α) are those of ws.link, β
// and α in place of their links.
//
// Var, VarCorrected and σ are what NormalGamma's Var, VarCorrected and
// sigma compute of each member's prior, bit for bit, with σ computed once;
// the prior is valid (the methods' NaN otherwise): ν and, with a learned
// α, α−1 are at least linkFloor, a fixed α is positive, and β is too,
// unless varianceUnit underflowed, when every variance is 0 and mixRows
// refuses them alike. Each step is a pass over every member's rows, whose
// divisions and polynomials the core overlaps; with the correction's call
// inside a loop of its own, no other value needs to wait in memory for it
// (Go's calls keep none in registers).
func (m *Model[T]) gcpPredictives(ws *Workspace[T], n int, p *memberPredictives) bool {
	l := m.lay
	kn := l.members * n
	link := ws.link[:(l.heads-l.members)*n]
	m.k.softplus(link, ws.a.out[kn:l.heads*n]) // the heads after the m heads, in order
	for i, v := range link {
		if v < linkFloor { // max(v, linkFloor), NaN kept, without the builtin's care for ±0
			link[i] = linkFloor
		}
	}
	mean, variance, corrected, sigma := p.mean[:kn], p.variance[:kn], p.corrected[:kn], p.sigma[:kn]
	beta, nu := link[:kn], link[kn:2*kn]
	p.aleatoric, p.epistemic, p.beta, p.nu = variance, p.zero, beta, nu
	for j, z := range ws.a.out[:kn] {
		mean[j] = m.yMean + m.yScale*float64(z)
	}
	s2 := m.varianceUnit()
	ok := true
	for j, b := range beta {
		b *= s2
		beta[j] = b
		s := NormalGamma{Nu: nu[j], Beta: b}.sigma()
		sigma[j] = s
		ok = ok && positiveFinite(s)
	}
	alpha := p.alpha[:kn]
	if fixed := m.cfg.FixedAlpha; fixed != 0 {
		gap := correctionGap(fixed)
		for j, s := range sigma {
			alpha[j] = fixed
			variance[j] = NormalGamma{Alpha: fixed}.varOfSigma(s)
			corrected[j] = s / gap
		}
	} else {
		// α = 1 + softplus(za) rounds to 1 once softplus(za) < 1.1e-16, a
		// normal state where the training data had outliers, and σ/(α−1)
		// would be +Inf: divide by the link's α − 1 instead.
		alpha = link[2*kn:]
		p.alpha = alpha
		for j, a := range alpha {
			variance[j] = sigma[j] / a
			alpha[j] = 1 + a
		}
		for j, a := range alpha {
			corrected[j] = sigma[j] / correctionGap(a)
		}
	}
	if l.members > 1 {
		scale := p.scale[:kn]
		for j, s := range sigma {
			scale[j] = math.Sqrt(s / alpha[j]) // NormalGamma.scale
		}
	}
	return ok
}

// gaussianVariances returns σ² of the first n raw outputs of every
// member's variance head in ws, gaussianVariance's link with the softplus
// of all of them computed by one kernel call (the AVX2 kernel computes a
// float32 model's in float32, within 4e-6 relative), in ws.link: member
// k's at k·n.
func (m *Model[T]) gaussianVariances(ws *Workspace[T], n int) []float64 {
	l := m.lay
	v := ws.link[:l.members*n]
	m.k.softplus(v, ws.a.out[l.head(headVar, 0)*n:l.heads*n])
	for i := range v {
		v[i] += minVariance
	}
	return v
}

// gaussianPredictives fills p with the members' predictives of the n rows
// in ws of a Gaussian-loss model: each member's N(yMean + yScale·m,
// yScale²·σ²), σ² its variance link (gaussianVariances).
func (m *Model[T]) gaussianPredictives(ws *Workspace[T], n int, p *memberPredictives) {
	v := m.gaussianVariances(ws, n)
	kn := len(v)
	mean, variance, alpha := p.mean[:kn], p.variance[:kn], p.alpha[:kn]
	p.aleatoric, p.corrected, p.epistemic = variance, variance, p.zero
	for j, z := range ws.a.out[:kn] {
		mean[j] = m.yMean + m.yScale*float64(z)
	}
	s2 := m.varianceUnit()
	for j, x := range v {
		variance[j] = s2 * x
		alpha[j] = math.Inf(1)
	}
	m.gaussianScales(p, kn)
}

// gaussianScales sets, for an ensemble, the first kn members' Component
// scales to the standard deviations of their Gaussian predictives.
func (m *Model[T]) gaussianScales(p *memberPredictives, kn int) {
	if m.lay.members > 1 {
		for j, v := range p.variance[:kn] {
			p.scale[j] = math.Sqrt(v)
		}
	}
}

// mcPredictives fills p with the members' predictives of the one input
// whose MCSamples passes' raw outputs are in ws, for a LossMLBayes model:
// by the law of total variance (Sec. 6.2),
// each member's aleatoric variance is the mean of its passes' σ², its
// epistemic one the variance of their means. The variance of the means is
// summed as squared deviations from their mean, which cannot go negative
// as E[m²] − E[m]² can.
func (m *Model[T]) mcPredictives(ws *Workspace[T], p *memberPredictives) {
	l, s := m.lay, m.cfg.MCSamples
	v := m.gaussianVariances(ws, s)
	p.corrected = p.variance
	s2 := m.varianceUnit()
	for k := range l.members {
		zm, vk := ws.a.head(l.head(headM, k), s), v[k*s:(k+1)*s]
		var mean, aleatoric float64
		for i := range zm {
			mean += float64(zm[i])
			aleatoric += vk[i]
		}
		mean /= float64(s)
		var epistemic float64
		for _, z := range zm {
			d := float64(z) - mean
			epistemic += d * d
		}
		p.mean[k] = m.yMean + m.yScale*mean
		p.aleatoric[k], p.epistemic[k] = s2*aleatoric/float64(s), s2*epistemic/float64(s)
		p.variance[k] = p.aleatoric[k] + p.epistemic[k]
		p.alpha[k] = math.Inf(1)
	}
	m.gaussianScales(p, l.members)
}
