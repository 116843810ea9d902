package gcp

import "math"

// Prediction is a model's answer for one input, in the target's original
// units: the predictive Student's t-distribution t_{2α}(y | m, β(ν+1)/(να))
// and the estimates derived from it (paper: Practical approach 2.1). For the
// comparator losses (Loss other than LossGCP) the predictive is the
// Gaussian N(Mean, Var), its α → ∞ limit: Alpha is +Inf, Beta and Nu are
// 0, and VarCorrected equals Var.
//
// A prediction returned with a nil error has a finite Mean, finite and
// positive Var and VarCorrected (Var is +Inf only for a FixedAlpha ≤ 1,
// where the variance does not exist, or under a TargetTransform, see
// Transform), and a finite scale, so that its
// central intervals are finite (for a FixedAlpha below 1, whose tails are
// very heavy, up to the levels whose quantiles fit in float64).
// Far outside the training data the softplus of the β, ν or α head can
// underflow to 0; each is then floored at 2⁻²⁵⁶ in standardized units,
// which keeps the prediction finite, though no more
// trustworthy than the extrapolation it comes from. Where a variance
// overflows float64 instead, Predict returns ErrNonFinite.
type Prediction struct {
	Loss Loss    // the loss of the model that made the prediction
	Mean float64 // m, the predicted mean (Eq. (2.17))
	// Var is the Student-t variance V_est = β(ν+1)/((α−1)ν)
	// (Eq. (2.17)); +Inf when α ≤ 1. With a learned α it is
	// computed from α−1 as the network outputs it, so it stays finite (if
	// huge) where α is within rounding of 1 and Prior().Var() is +Inf.
	Var float64
	// VarCorrected is Ṽ_est = β(ν+1)/((α−A(α))ν) (Eq. (2.18)),
	// the variance of the clean part of the data when the training targets
	// held outliers.
	VarCorrected float64
	// Alpha is α, a trust signal: it grows without bound on clean data
	// (Theorem 3.2) and stays small where the training set had
	// outliers (Sec. 6.3).
	Alpha float64
	Beta  float64 // β, in squared target units
	Nu    float64 // ν
	// InputZ is the largest robust z-score |x_j − center_j|/scale_j of
	// the input's features, with the standardization learned by Fit (the
	// median and a robust standard deviation of each feature). Most
	// training inputs have InputZ below 3 or 4; an input far beyond that
	// (or outside Model.FeatureRanges) is an extrapolation, where the
	// network's variances describe nothing it has seen: the model then
	// does not know how wrong it may be, and its uncertainty should not
	// be trusted.
	InputZ float64
	// VarAleatoric and VarEpistemic split Var by the law of total
	// variance (Sec. 6.2) for LossMLBayes:
	// the noise of the data, and the model's own uncertainty across its
	// MC-dropout samples. The other losses estimate aleatoric variance
	// only (the paper's Sec. 6): VarAleatoric is Var and VarEpistemic
	// is 0. For an ensemble (Members > 1) VarAleatoric is the mean of the
	// members' aleatoric variances and VarEpistemic adds the variance of
	// their means to the mean of their epistemic ones.
	VarAleatoric, VarEpistemic float64
	// Disagreement is the model's own uncertainty in units of the noise:
	// √(VarEpistemic / min(VarAleatoric, s²)), with s the targets' robust
	// standard deviation learned by Fit (times √VarScale). It is 0 for a
	// single GCP network, which estimates aleatoric uncertainty only, and
	// an ensemble's out-of-distribution signal. Where the training data
	// were dense the members agree to well within the noise (Disagreement
	// well below 1); in gaps and beyond the data each extrapolates its own
	// way, and a Disagreement near or above 1 says: don't trust this
	// prediction. Far outside the data the members' variance heads
	// extrapolate too and VarAleatoric may explode; the targets' spread s
	// then takes its place as the unit, so that the signal keeps growing.
	Disagreement float64
	// Members is the number of networks whose predictives the prediction
	// mixes, Config.Members: 1 for a single network.
	Members int
	// Components holds, for an ensemble (Members > 1), the first Members
	// entries, the members' predictives in original units, each scaled
	// about Mean by the model's VarScale as the whole mixture is; it is
	// zero for a single network. The ensemble's predictive is their
	// uniform mixture: Mean is the mean of their means, Var and
	// VarCorrected the mean of the members' variances plus the variance of
	// their means (the law of total variance), Alpha, Beta and Nu the
	// members' mean values, and LogPDF, CDF, Quantile and Interval those
	// of the mixture.
	Components [MaxMembers]Component
	// Transform is the target transform z = g(y) of the model that made
	// the prediction (Model.TargetTransform); TransformNone for most. Under
	// a transform the network models z: ZMean, ZVar and ZVarCorrected are
	// the Mean, Var and VarCorrected of the predictive of z, and Alpha,
	// Beta, Nu, Components, VarAleatoric, VarEpistemic, Disagreement and
	// Prior describe z too. Every method answers for y: the predictive of
	// y is that of z mapped through g⁻¹ (see transform.go), so
	// that each quantile and interval bound is g⁻¹ of z's, exactly, and
	// LogPDF and CDF are those of y (LogPDF with the Jacobian, so that a
	// mean negative log density is in y's units). Mean, Var and
	// VarCorrected are in y's units as well; for TransformLog:
	//
	//   - Mean is exp(ZMean + ZVarCorrected/2), the mean of the calibrated
	//     predictive, a log-normal: the prediction that minimizes the
	//     expected squared error, which RMSE scores. The Student t's
	//     back-transform has no mean at all (E[e^Z] is infinite for every
	//     finite degree of freedom); its median, and the calibrated one,
	//     is exp(ZMean) = Quantile(0.5) for a single network.
	//   - VarCorrected is the calibrated predictive's variance,
	//     (e^ZVarCorrected − 1)·e^(2·ZMean + ZVarCorrected), and Var the
	//     same expression of ZVar: the variance of a log-normal with the
	//     Student t's variance in z (the log-Student-t has none), +Inf
	//     where that overflows, as it does where α nears 1.
	Transform TargetTransform
	// ZMean, ZVar and ZVarCorrected are the Mean, Var and VarCorrected
	// of the predictive of the modeled target z under a Transform; zero
	// without one.
	ZMean, ZVar, ZVarCorrected float64
}

// Prior returns the normal-gamma prior behind a GCP prediction. For the
// other losses there is none, and the result, with Alpha = +Inf and
// Beta = Nu = 0, is not a valid NormalGamma. For an ensemble it is built
// from the members' mean α, β and ν, and is not its predictive. Under a
// Transform it is the prior of the modeled target z, centred on ZMean.
func (p Prediction) Prior() NormalGamma {
	if p.Transform != TransformNone {
		return p.modeled().Prior()
	}
	return NormalGamma{M: p.Mean, Nu: p.Nu, Alpha: p.Alpha, Beta: p.Beta}
}

// mixture returns the members' predictives of an ensemble's prediction,
// and nil for a single network's.
func (p *Prediction) mixture() []Component {
	if p.Members <= 1 || p.Members > MaxMembers {
		return nil
	}
	return p.Components[:p.Members]
}

// LogPDF returns the log density of the predictive distribution at y.
func (p Prediction) LogPDF(y float64) float64 {
	if p.Transform != TransformNone {
		return p.transformedLogPDF(y, Prediction.LogPDF)
	}
	if c := p.mixture(); c != nil {
		return mixtureLogPDF(c, y)
	}
	if p.Loss.gaussian() {
		return normal{p.Mean, p.Var}.logPDF(y)
	}
	return p.Prior().LogPredictive(y)
}

// Interval returns the central predictive interval holding probability
// level, for level in (0, 1); ErrLevel otherwise. For a single network
// the upper bound is the lower one mirrored about the mean, as in
// NormalGamma.Interval; an ensemble's mixture is not symmetric, and its
// bounds are its two quantiles. Under a Transform the bounds are those of
// z mapped back, and the interval is no longer symmetric.
func (p Prediction) Interval(level float64) (lo, hi float64, err error) {
	if p.Transform != TransformNone {
		return p.transformedInterval(level, Prediction.Interval)
	}
	if c := p.mixture(); c != nil {
		if !(level > 0 && level < 1) {
			return 0, 0, ErrLevel
		}
		lo, hi = mixtureInterval(c, level)
		return lo, hi, nil
	}
	return centralInterval(level, p.Mean, p.Quantile)
}

// centralInterval returns the central interval holding probability level
// of a distribution symmetric about mean with the quantile function q:
// q((1−level)/2) and its mirror image about mean, which stays exact where
// 1 − (1−level)/2 would round to 1 (level = math.Nextafter(1, 0)). It
// returns ErrLevel for a level outside (0, 1).
func centralInterval(level, mean float64, q func(float64) (float64, error)) (lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, ErrLevel
	}
	lo, _ = q((1 - level) / 2)
	return lo, mean + (mean - lo), nil
}

// CDF returns the predictive probability P(Y ≤ y).
func (p Prediction) CDF(y float64) float64 {
	if p.Transform != TransformNone {
		return p.transformedCDF(y, Prediction.CDF)
	}
	if c := p.mixture(); c != nil {
		return mixtureCDF(c, y)
	}
	if p.Loss.gaussian() {
		return normal{p.Mean, p.Var}.cdf(y)
	}
	return p.Prior().CDF(y)
}

// Quantile returns the y with CDF(y) = prob, for prob in (0, 1);
// ErrProbability otherwise.
func (p Prediction) Quantile(prob float64) (float64, error) {
	if !(prob > 0 && prob < 1) {
		return 0, ErrProbability
	}
	if p.Transform != TransformNone {
		return p.transformedQuantile(prob, Prediction.Quantile)
	}
	if c := p.mixture(); c != nil {
		return mixtureQuantile(c, prob), nil
	}
	if p.Loss.gaussian() {
		return normal{p.Mean, p.Var}.quantile(prob), nil
	}
	return p.Prior().Quantile(prob), nil
}

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
}

// NewWorkspace returns buffers for predicting with m, or with any model of
// the same shape (and, for LossMLBayes, at least as many MC samples). For
// a Model that New did not build (a zero Model) it returns an empty
// Workspace, with which Predict returns ErrShape.
func (m *Model[T]) NewWorkspace() *Workspace[T] {
	if m == nil || m.lay == nil {
		return &Workspace[T]{}
	}
	if m.cfg.Loss != LossMLBayes {
		return &Workspace[T]{lay: m.lay, a: newActivations[T](m.lay, workspaceRows, false),
			link: make([]float64, (m.lay.heads-m.lay.members)*workspaceRows), z: make([]float64, workspaceRows),
			members: newMemberPredictives(m.lay.members, workspaceRows)}
	}
	// An ML_Bayes prediction runs the hidden layers on one row and the
	// output layer on MCSamples (forwardMC): one row of activations, and
	// outputs and links for every pass.
	s := m.cfg.MCSamples
	a := newActivations[T](m.lay, 1, true)
	a.out = make([]T, m.lay.heads*s)
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
	if len(x) != len(out)*d || !ws.fits(m) {
		return ErrShape
	}
	a, chunk := ws.a, ws.a.rows
	if m.cfg.Loss == LossMLBayes {
		chunk = 1 // one input at a time, its output layer run MCSamples times
	}
	for start := 0; start < len(out); start += chunk {
		n := min(chunk, len(out)-start)
		z := ws.z[:n]
		if err := m.standardizeRows(a.x[:n*d], x[start*d:(start+n)*d], z); err != nil {
			return err
		}
		passes := n
		if m.cfg.Loss == LossMLBayes {
			passes = m.cfg.MCSamples
			forwardMC(m.k, m.lay, m.cfg.Activation, m.params, a, passes, m.mcMask)
		} else {
			forward(m.k, m.lay, m.cfg.Activation, m.params, a, n, nil)
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
				if !m.transformBack(&out[start+i], tr) {
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

// varianceUnit is what a variance in standardized units is multiplied by
// to give it in original units: yScale², times the calibration VarScale.
func (m *Model[T]) varianceUnit() float64 { return m.yScale * m.yScale * m.varScale }
