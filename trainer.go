package gcp

import "fmt"

// Trainer trains a Model by the GCP update (paper: Eq. (2.10)), or
// by the model's comparator loss, with a minibatch optimizer. It owns every buffer a step needs, so Step
// allocates nothing. A Trainer is not safe for concurrent use, and its
// Step, Fit and FitContext change its model, which must not predict, or
// run any other method, meanwhile (see Model). On a nil
// *Trainer, Step and Fit return ErrConfig and Model returns nil.
type Trainer[T Float] struct {
	m    *Model[T]
	lay  *layout // the shape the buffers were made for
	cfg  TrainConfig
	opt  *optimizer[T]
	a, d *activations[T] // forward buffers, and the gradients flowing back
	y    []T             // standardized targets, row-major for several targets
	z    []float64       // the InputZ of each row, which a step does not use
	mask []T             // dropout mask, BatchSize × width(last), not always written (drawMask)
	grad []T
	// s2, sp1 and sp2 hold one member's squared scales and two of its
	// links for ScaleWeighting; nil without it.
	s2, sp1, sp2 []float64
	src          splitMix // the dropout masks' generator, restored when a step is rejected
	// work and chol are the scratch of the multivariate loss (multiLoss),
	// nil for one target.
	work []float64
	chol []T
}

// NewTrainer returns a trainer for m. An invalid field of cfg gives an
// error that wraps ErrConfig and names the field; so does a value that T
// cannot represent (a float32 Epsilon of 1e-50 is 0) and a BatchSize whose
// buffers would be absurdly large for this model. A model whose law is
// the Gaussian copula of one-target models cannot be trained as a whole
// (its marginals were trained each by its own): an error wrapping
// ErrConfig.
func NewTrainer[T Float](m *Model[T], cfg TrainConfig) (*Trainer[T], error) {
	if m != nil && m.margins != nil {
		return nil, errCopula("NewTrainer")
	}
	if m == nil || m.lay == nil {
		return nil, fmt.Errorf("%w: the model is nil or was not built by New", ErrConfig)
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := validateFor[T](cfg); err != nil {
		return nil, err
	}
	rows := cfg.BatchSize
	if n := uint64(rows) * 2 * m.lay.activationsPerRow(); n > maxBuffer {
		return nil, fmt.Errorf("%w: BatchSize = %d needs %d buffer elements with this model, want at most %d", ErrConfig, rows, n, maxBuffer)
	}
	dropout := m.cfg.Dropout > 0
	t := &Trainer[T]{
		m: m, lay: m.lay, cfg: cfg,
		opt:  newOptimizer(m.k, cfg, len(m.params)),
		a:    newActivations[T](m.lay, rows, dropout),
		d:    newActivations[T](m.lay, rows, false),
		y:    make([]T, rows*m.cfg.targets()),
		z:    make([]float64, rows),
		grad: make([]T, len(m.params)),
		src:  newSplitMix(cfg.Seed, dropoutStream),
	}
	if dropout {
		t.mask = make([]T, rows*m.lay.width(m.lay.last()))
	}
	if d := m.lay.targets; d > 1 {
		if cfg.ScaleWeighting != 0 {
			return nil, fmt.Errorf("%w: ScaleWeighting = %v applies to one target, the model has %d", ErrConfig, cfg.ScaleWeighting, d)
		}
		t.work, t.chol = make([]float64, 2*d), make([]T, mvtPackedLen(d))
	}
	if cfg.ScaleWeighting != 0 {
		t.s2, t.sp1, t.sp2 = make([]float64, rows), make([]float64, rows), make([]float64, rows)
	}
	return t, nil
}

// Model returns the model being trained.
func (t *Trainer[T]) Model() *Model[T] {
	if t == nil {
		return nil
	}
	return t.m
}

// Step performs one update of the model's loss (for LossGCP the GCP
// update) on the minibatch of row-major inputs x (len(y) rows of Inputs
// features) and targets y, in original units (for a model of d ≥ 2
// Targets, y is row-major too, d targets a row, and x has len(y)/d
// rows), and returns the batch's
// mean negative log predictive density in original units before the
// update. It returns ErrBatch for an empty batch or one larger than
// BatchSize, ErrShape for mismatched lengths, ErrNonFinite for a NaN or
// ±Inf in x or y, and ErrDiverged for an update that would make the
// objective, a gradient or a parameter non-finite. (LossDPD's objective
// stays finite for any finite target, so it may step where the density
// of a far outlier underflows and report a mean NLL of +Inf.) It returns ErrShape if
// the model no longer has the shape the trainer was built for (after
// UnmarshalBinary or ReadFrom loaded another). On any error the model and
// the optimizer state are unchanged. Step allocates nothing.
func (t *Trainer[T]) Step(x, y []T) (float64, error) {
	if t == nil || t.m == nil {
		return 0, ErrConfig // a nil or zero Trainer: use NewTrainer
	}
	m := t.m
	n := len(y) / m.cfg.targets()
	if !sameShape(t.lay, m.lay) {
		return 0, ErrShape // the model was reshaped by UnmarshalBinary or ReadFrom
	}
	if n < 1 || n > t.cfg.BatchSize {
		return 0, ErrBatch
	}
	if len(x) != n*m.cfg.Inputs || len(y) != n*m.cfg.targets() {
		return 0, ErrShape
	}
	if !m.k.allFinite(y) {
		return 0, ErrNonFinite
	}
	if err := m.standardizeRows(t.a.x[:len(x)], x, t.z); err != nil {
		return 0, err
	}
	m.standardizeTargets(t.y[:len(y)], y)
	if !m.k.allFinite(t.y[:len(y)]) {
		return 0, ErrNonFinite // a target that overflows T once standardized
	}
	// A non-finite gradient needs no check of its own: every update rule
	// turns it into a non-finite candidate parameter, which update rejects.
	// A rejected step also rewinds the dropout generator, so that it leaves
	// no trace at all.
	src := t.src
	loss, objective := t.gradient(n)
	next, err := t.opt.update(m.params, t.grad)
	if err == nil && !finite(objective) {
		err = ErrDiverged
	}
	if err != nil {
		t.src = src
		return 0, err
	}
	old := m.params
	m.params = next
	t.opt.commit(old)
	return loss + m.logTargetScale(), nil
}

// gradient runs the forward and backward passes over the first n rows of
// t.a.x and t.y, leaves the gradient of the objective with respect to the
// parameters in t.grad, and returns the mean negative log predictive
// density and the mean objective, in standardized units. The two differ
// only for LossDPD.
func (t *Trainer[T]) gradient(n int) (nll, objective float64) {
	var mask []T
	if t.mask != nil {
		mask = t.mask[:n*t.m.lay.width(t.m.lay.last())]
	}
	return t.pass(n, mask, true)
}

// gradientMasked is gradient under the dropout mask given (nil without
// dropout); the finite-difference tests call it to fix the dropout noise.
func (t *Trainer[T]) gradientMasked(n int, mask []T) (nll, objective float64) {
	return t.pass(n, mask, false)
}

// pass is gradient with inverted dropout between the last hidden layer
// and the output (Sec. 6.4) under mask, n × width(last), when it is not
// nil: drawn afresh into mask if draw is set, as drawMask's rule says,
// else the mask as given. The kernel that draws a mask also applies it.
func (t *Trainer[T]) pass(n int, mask []T, draw bool) (nll, objective float64) {
	m := t.m
	k, l := m.k, m.lay
	in := forwardHidden(k, l, m.cfg.Activation, m.params, t.a, n)
	var keep T // the kept units' factor of a mask drawn here, 0 for one given
	if mask != nil {
		drop := t.a.drop[:len(in)]
		if draw {
			t.drawMask(mask, in, drop)
			keep = dropoutKeep[T](m.cfg.Dropout)
		} else {
			k.mulTo(drop, in, mask)
		}
		in = drop
	}
	forwardOutput(k, l, m.params, t.a, n, in)
	nll, objective = t.loss(n)
	clear(t.grad)
	backward(m.k, m.lay, m.cfg.Activation, m.params, t.a, t.d, n, mask, keep, t.grad)
	return nll / float64(n), objective / float64(n)
}

// loss evaluates the model's objective on n rows from the raw outputs in
// t.a.out, writes its gradient with respect to them, divided by n, into
// t.d.out, and returns the summed negative log predictive density and the
// summed objective: the same for all but LossDPD, which minimizes the
// density power divergence of the Gaussian it fits. An ensemble's
// objective is the sum of its members' objectives, so that each member
// gets the gradient it would get alone, and its negative log density the
// members' mean (of each member's own predictive, not the mixture's).
func (t *Trainer[T]) loss(n int) (nll, objective float64) {
	l := t.m.lay
	if l.targets > 1 {
		return multiLoss(l, n, t.a.out, t.y, t.chol, t.work, t.d.out)
	}
	for k := 0; k < l.members; k++ {
		nk, ok := t.memberLoss(n, k)
		nll, objective = nll+nk, objective+ok
	}
	return nll / float64(l.members), objective
}

// memberLoss is loss for the raw outputs of member k alone.
func (t *Trainer[T]) memberLoss(n, k int) (nll, objective float64) {
	a, d, cfg, l := t.a, t.d, &t.m.cfg, t.m.lay
	head := func(h int) int { return l.head(h, k) }
	zm, gm := a.head(head(headM), n), d.head(head(headM), n)
	if cfg.Loss.gaussian() {
		point := gaussianPoint
		if cfg.Loss == LossDPD {
			point = dpdPoint
		}
		zv, gv := a.head(head(headVar), n), d.head(head(headVar), n)
		nll, objective = gaussianLoss(point, cfg.DPDGamma, zm, zv, t.y[:n], 1/float64(n), gm, gv)
		if t.s2 != nil {
			s2 := t.s2[:n]
			for i, z := range zv {
				s2[i] = gaussianVariance(float64(z))
			}
			scaleWeights(s2, t.cfg.ScaleWeighting)
			weightGradients(s2, gm, gv)
		}
		return nll, objective
	}
	fixed := cfg.FixedAlpha
	var za, ga []T
	if fixed == 0 {
		za, ga = a.head(head(headAlpha), n), d.head(head(headAlpha), n)
	}
	zb, gb := a.head(head(headBeta), n), d.head(head(headBeta), n)
	zn, gn := a.head(head(headNu), n), d.head(head(headNu), n)
	nll = t.m.k.gcpLoss(zm, za, zb, zn, t.y[:n], fixed, 1/float64(n), gm, ga, gb, gn)
	if t.s2 != nil {
		t.gcpScales(za, zb, zn, fixed)
		scaleWeights(t.s2[:n], t.cfg.ScaleWeighting)
		weightGradients(t.s2[:n], gm, ga, gb, gn)
	}
	return nll, nll
}

// gcpScales writes into t.s2 the squared scales β(ν+1)/(να) of the
// Student-t predictives of the raw outputs za, zb and zn (za nil with a
// fixed α), through the links of gcpPrior.
func (t *Trainer[T]) gcpScales(za, zb, zn []T, fixedAlpha float64) {
	n := len(zb)
	s2, beta, nu := t.s2[:n], t.sp1[:n], t.sp2[:n]
	t.m.k.softplus(beta, zb)
	t.m.k.softplus(nu, zn)
	if za == nil {
		for i := range s2 {
			s2[i] = beta[i] * (nu[i] + 1) / (nu[i] * fixedAlpha)
		}
		return
	}
	t.m.k.softplus(s2, za)
	for i := range s2 {
		s2[i] = beta[i] * (nu[i] + 1) / (nu[i] * (1 + s2[i]))
	}
}

// drawMask fills mask for inverted dropout: each unit is kept with
// probability 1−p and then scaled by 1/(1−p), so the expected activation
// is unchanged and prediction needs no rescaling. Each 64-bit draw of the
// trainer's splitMix decides four units by its 16-bit quarters (a unit is
// dropped when its quarter is below p·2¹⁶, so p is honoured to 2⁻¹⁶,
// 1.5·10⁻⁵): the generator was most of a large batch's step when every
// unit took a draw of its own, and still a fifth of a minibatch-32 step
// when two units shared one of PCG's draws. It writes act·mask into drop,
// and the mask unless the backward pass reads the units kept off drop:
// under a ReLU with one target (outputBackwardVia's keep), where a kernel
// may leave mask unwritten.
func (t *Trainer[T]) drawMask(mask, act, drop []T) {
	dropOnly := t.m.cfg.Activation == ReLU && t.lay.targets <= 1 // 0 for one target
	t.m.k.dropoutMask(&t.src, t.m.cfg.Dropout, mask, act, drop, dropOnly)
}
