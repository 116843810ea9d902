package gcp

import "math"

// Prediction is a model's answer for one input, in the target's original
// units: the predictive Student's t-distribution t₂α(y | m, β(ν+1)/(να)),
// with 2α degrees of freedom,
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
//
// A Prediction may be a conditional marginal: MultiPrediction.Marginal of
// a copula prediction's Conditional, the law of a target given others,
// G(y) = Φ((u(y) − μ)/σ), u(y) = Φ⁻¹(F(y)) the normal score of y under
// the target's one-target predictive F (its base), μ and σ ≤ 1 the
// Gaussian copula's conditional mean and standard deviation of that
// score (MultiPrediction.Conditional). Its methods answer for G: LogPDF,
// CDF, Quantile and Interval from the base's score, exact far into the
// tails (a quantile solves u(y) = μ + σΦ⁻¹(q) on the base's score, where
// Φ of it rounds to 0 or 1), CRPS numerically, to about 1e-10 relative
// (+Inf where ν/σ² ≤ ½, as the t's own for ν ≤ ½, and under the log
// transform for a base of finite ν). Mean and Var are G's, by quadrature to
// about 1e-10, also where they barely exist (closed forms for a Gaussian
// base); a base of ν degrees of
// freedom leaves G the moments of order below ν/σ² (Mean NaN and Var
// +Inf where they do not exist).
// VarCorrected and the calibrated predictive are the calibrated
// conditional's, the Gaussian N(c, Ṽσ²) in z, c its centre
// (MultiPrediction.ZMean) and Ṽ the base's corrected variance. Under the
// log transform ZMean and ZVar are G's in z, and Mean, Var and
// VarCorrected the log-normal ones of c and ZVarCorrected, ZVar and
// ZVarCorrected, as Transform says. Alpha, Beta, Nu, Components,
// VarAleatoric, VarEpistemic, Disagreement, Members, InputZ and Prior
// describe the base, the target's unconditional predictive, as Prior
// does an ensemble's.
//
// A Prediction is a value of 656 bytes on 64-bit platforms: it holds the
// MaxMembers components of an ensemble's mixture inline, so that
// predicting allocates nothing. Where copies matter, index a slice of
// predictions or pass a pointer. PredictBatch fills a slice the caller
// owns, one Prediction a row, which the caller can reuse from call to
// call.
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
	// InputZ is the input's distance from the training data, in units of
	// a normal z-score: the largest robust z-score |x_j − center_j|/scale_j
	// of the input's numeric features, with the standardization learned
	// by Fit (the median and a robust standard deviation of each feature).
	// For a model with an Encoding, a text column's one-hot inputs are not
	// measured so, since the z-score of a known but rare level is large
	// and that of a level never seen (all zeros) is 0: a column's level
	// counts as the z whose two-sided normal tail probability is the share
	// of training rows whose level was no more frequent than it (the
	// frequencies derived from the standardization), and InputZ is +Inf
	// for a code no training row had (a level never seen, in a column
	// without the Other input, or a missing value in a column that had
	// none), whose calibrated and conformal intervals are then unknown
	// (CalibratedInterval). Most training inputs have InputZ below 3 or
	// 4; an input far beyond that (or outside Model.FeatureRanges) is an
	// extrapolation, where the network's variances describe nothing it
	// has seen: the model then does not know how wrong it may be, and its
	// uncertainty should not be trusted.
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
	// y is that of z mapped through g⁻¹ (TargetTransform), so
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
	// given is the score map of a conditional marginal
	// (MultiPrediction.Conditional under the copula), zero for every
	// other prediction.
	given scoreMap
}

// Prior returns the normal-gamma prior behind a GCP prediction. For the
// other losses there is none, and the result, with Alpha = +Inf and
// Beta = Nu = 0, is not a valid NormalGamma. For an ensemble it is built
// from the members' mean α, β and ν, and is not its predictive. Under a
// Transform it is the prior of the modeled target z, centred on ZMean.
func (p Prediction) Prior() NormalGamma {
	if p.given.on() {
		return p.base().Prior()
	}
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
	if p.given.on() {
		return p.givenLogPDF(y)
	}
	if p.Transform != TransformNone {
		return p.transformedLogPDF(y, Prediction.LogPDF)
	}
	if c := p.mixture(); c != nil {
		return mixtureLogPDF(c, y)
	}
	if p.Loss.gaussian() {
		return normal{p.Mean, p.Var}.logPDF(y)
	}
	g := p.Prior()
	if s := g.sigma(); g.valid() && !(s <= math.MaxFloat64 && !math.IsInf((y-p.Mean)/math.Sqrt(2*s), 0)) {
		// σ overflows where the t's scale need not (a
		// MultiPrediction.Marginal of a huge scale with many degrees of
		// freedom; Predict refuses it), or y lies so many scales out that
		// NormalGamma.LogPredictive's (y − m)/√(2σ) overflows (10³⁰⁰ at a
		// scale of 10⁻¹⁵⁰), where it gave −Inf for a finite density: the
		// t's density from its scale, as a mixture's member's, formed in
		// logarithms there (p.component's, built here: crps.go, which
		// holds that, refers to this file).
		c := Component{p.Mean, g.scale(), 2 * p.Alpha}
		var d studentTDist
		d.set(c.DoF)
		return c.logDensity(&d, y)
	}
	return g.LogPredictive(y)
}

// Interval returns the central predictive interval holding probability
// level, for level in (0, 1); ErrLevel otherwise. For a single network
// the upper bound is the lower one mirrored about the mean, as in
// NormalGamma.Interval; an ensemble's mixture is not symmetric, and its
// bounds are its two quantiles. Under a Transform the bounds are those of
// z mapped back, and the interval is no longer symmetric.
func (p Prediction) Interval(level float64) (lo, hi float64, err error) {
	if p.given.on() {
		return p.givenInterval(level)
	}
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
	if p.given.on() {
		return p.givenCDF(y)
	}
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
	if p.given.on() {
		return p.givenQuantile(standardNormalQuantile(prob)), nil
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

// A prediction of a model with a TargetTransform z = g(y): the network's
// predictive is that of z, and the predictive of y is its image under
// g⁻¹. Since g is increasing, P(Y ≤ y) = P(Z ≤ g(y)): the CDF of y is z's
// at g(y), the quantile of y at any probability is g⁻¹ of z's, and so is
// every bound of a central interval; the density of y is z's at g(y)
// times g′(y). The methods below apply these identities to the
// prediction's predictive of z (modeled), for each predictive (the
// Student t or mixture, and the calibrated one).

// modeled returns p's predictive of the modeled target z, with Mean, Var
// and VarCorrected those of z and no transform.
func (p Prediction) modeled() Prediction {
	p.Mean, p.Var, p.VarCorrected = p.ZMean, p.ZVar, p.ZVarCorrected
	p.Transform, p.ZMean, p.ZVar, p.ZVarCorrected = TransformNone, 0, 0, 0
	return p
}

// transformedLogPDF returns the log density of y under the predictive
// whose log density of z is logPDF: logPDF(g(y)) + ln g′(y), −Inf outside
// the transform's domain and NaN for a NaN y.
func (p Prediction) transformedLogPDF(y float64, logPDF func(Prediction, float64) float64) float64 {
	z, ok := p.Transform.forward(y)
	if !ok {
		return outside(y)
	}
	return logPDF(p.modeled(), z) + p.Transform.logJacobian(z)
}

// transformedCDF returns P(Y ≤ y) under the predictive whose CDF of z is
// cdf: cdf(g(y)), 0 below the transform's domain and NaN for a NaN y.
func (p Prediction) transformedCDF(y float64, cdf func(Prediction, float64) float64) float64 {
	z, ok := p.Transform.forward(y)
	if !ok {
		if math.IsNaN(y) {
			return y
		}
		return 0
	}
	return cdf(p.modeled(), z)
}

// transformedQuantile returns g⁻¹ of the quantile of z that quantile
// returns.
func (p Prediction) transformedQuantile(prob float64, quantile func(Prediction, float64) (float64, error)) (float64, error) {
	z, err := quantile(p.modeled(), prob)
	return p.Transform.invert(z), err
}

// transformedInterval returns g⁻¹ of both bounds of the interval of z
// that interval returns.
func (p Prediction) transformedInterval(level float64, interval func(Prediction, float64) (float64, float64, error)) (lo, hi float64, err error) {
	lo, hi, err = interval(p.modeled(), level)
	if err != nil {
		return 0, 0, err
	}
	return p.Transform.invert(lo), p.Transform.invert(hi), nil
}

// normalScore returns the normal score u = Φ⁻¹(F(y)) of y under the
// predictive of p, F the calibrated predictive's CDF
// (Prediction.CalibratedCDF) if calibrated and Prediction.CDF otherwise.
//
// It forms u from the smaller of the two tail probabilities, the lower
// tail F(y) (u = Φ⁻¹(F)) or the upper tail 1 − F(y) evaluated as such
// (u = −Φ⁻¹(1 − F)), so that it stays finite and keeps its relative
// accuracy far into either tail, where F itself rounds to 1: a Student
// t's tail keeps its relative accuracy down to 1e-300 (studentTCDF), a
// mixture's tail is the mean of its members' tails, and under a Transform
// y goes through it as Prediction.CDF's does. Below scoreLogTailMax it
// takes the tail's logarithm instead (studentTLogTailScore,
// mixtureLogTailScore), which stays finite where the tail underflows
// float64 (a t of large dof a few dozen scales out, one of dof ν beyond
// |t|^ν ≈ 1e308, and even where (y − m)/σ overflows), with the inverse
// from a log probability (normalLogQuantile): a few ulps of u against
// mpmath out to u = 3.7e7 (testdata/normalscore_ref.csv). Where the
// predictive is Gaussian (the calibrated one, a comparator loss's single
// network, or a t of dof +Inf in the far tails), Φ⁻¹(F(y)) is the
// standardized residual (y − m)/σ exactly, and that is what it returns.
// It is ±Inf only for y = ±Inf (and for a mixture of normals whose log
// tail is below −MaxFloat64, where its log density is −Inf too), −Inf for
// a y below a transform's domain, and NaN for a NaN y or an invalid
// prediction.
func normalScore(p *Prediction, y float64, calibrated bool) float64 {
	if p.given.on() {
		if calibrated {
			q := p.calibratedLaw()
			return normalScore(&q, y, true)
		}
		return p.givenScore(y)
	}
	if p.Transform != TransformNone {
		z, ok := p.Transform.forward(y)
		if !ok {
			return outside(y)
		}
		q := p.modeled()
		return normalScore(&q, z, calibrated)
	}
	if calibrated {
		return Component{Mean: p.Mean, Scale: math.Sqrt(p.VarCorrected)}.standardize(y)
	}
	switch c := p.mixture(); {
	case c == nil && p.Loss.gaussian():
		return Component{Mean: p.Mean, Scale: math.Sqrt(p.Var)}.standardize(y)
	case c == nil:
		var s tScore
		s.set(p)
		return s.at(y)
	case !positiveDoF(c):
		return math.NaN()
	default:
		// One score sets one t for each member in turn (memberT), not a
		// baseScore's MaxMembers of them, 1.3 KB to zero at every call.
		var d [1]studentTDist
		return mixtureScore(c, d[:], y)
	}
}

// baseScore is what the normal score (normalScore) of a base, a
// prediction of no transform and no map, takes at every point, prepared
// once: its Student t's constants (studentTDist.set, an lgamma ratio for
// each member) and its prior and scale. A conditional marginal's
// quadratures and roots evaluate the score at hundreds of points. It holds
// no pointer to the base, which its methods are given instead, so that a
// base on the caller's stack stays there.
type baseScore struct {
	// t is a single network's t.
	t tScore
	// valid is false for a mixture with a member of no positive DoF,
	// whose score is NaN.
	valid bool
	// d holds the t of each member of a mixture.
	d [MaxMembers]studentTDist
}

// set prepares s for the base b.
func (s *baseScore) set(b *Prediction) {
	c := b.mixture()
	s.valid = c != nil && positiveDoF(c)
	switch {
	case c == nil && !b.Loss.gaussian():
		s.t.set(b)
	case s.valid:
		for i, ci := range c {
			s.d[i].set(math.Max(ci.DoF, studentTMinDoF))
		}
	}
}

// at returns the normal score of y under the base b that s was set for,
// as normalScore describes it.
func (s *baseScore) at(b *Prediction, y float64) float64 {
	switch c := b.mixture(); {
	case c == nil && b.Loss.gaussian():
		return Component{Mean: b.Mean, Scale: math.Sqrt(b.Var)}.standardize(y)
	case c == nil:
		return s.t.at(y)
	case !s.valid:
		return math.NaN()
	default:
		return mixtureScore(c, s.d[:len(c)], y)
	}
}

// positiveDoF reports whether each member of c has positive DoF; a
// mixture's score is NaN otherwise.
func positiveDoF(c []Component) bool {
	for _, ci := range c {
		if !(ci.DoF > 0) {
			return false
		}
	}
	return true
}

// memberT returns the t of member i of the mixture c: d[i] where d
// holds each member's, prepared once (baseScore); otherwise (d holds one,
// and a mixture has two members at least) d[0], set for member i here
// (normalScore's single score).
func memberT(c []Component, d []studentTDist, i int) *studentTDist {
	if len(d) == len(c) {
		return &d[i]
	}
	d[0].set(math.Max(c[i].DoF, studentTMinDoF))
	return &d[0]
}

// mixtureScore returns the normal score of y under the uniform mixture
// of the components c, whose t's d holds (memberT), from the mean
// of the members' tails, or of their logarithms (mixtureLogTailScore)
// where the smaller is below scoreLogTailMax.
func mixtureScore(c []Component, d []studentTDist, y float64) float64 {
	var lo, up float64
	for i, ci := range c {
		l, u := memberT(c, d, i).tails(ci.standardize(y))
		lo, up = lo+l, up+u
	}
	lo, up = lo/float64(len(c)), up/float64(len(c))
	if min(lo, up) < scoreLogTailMax && !math.IsInf(y, 0) {
		return mixtureLogTailScore(c, d, y, lo <= up)
	}
	return scoreOfTails(lo, up)
}

// tScore is what the normal score of a single network's t takes at every
// point, prepared once: its prior, the prior's scale and the t's
// constants.
type tScore struct {
	// valid is false for an invalid prior, whose score is NaN.
	valid bool
	g     NormalGamma
	scale float64
	d     studentTDist
}

// set prepares s for the single network's prediction b (no transform, no
// map).
func (s *tScore) set(b *Prediction) {
	if s.g = b.Prior(); !s.g.valid() {
		s.valid = false
		return
	}
	s.valid, s.scale = true, s.g.scale()
	s.d.set(math.Max(2*b.Alpha, studentTMinDoF))
}

// at returns the normal score of y under the t that s was set for.
func (s *tScore) at(y float64) float64 {
	if !s.valid {
		return math.NaN()
	}
	t := s.g.standardize(y, s.scale)
	lo, up := s.d.tails(t)
	if min(lo, up) < scoreLogTailMax && !math.IsInf(y, 0) {
		return studentTLogTailScore(&s.d, t, logAbsStandardized(t, y, s.g.M, s.scale))
	}
	return scoreOfTails(lo, up)
}

// logAbsStandardized returns ln|t| for t = (y − m)/scale (finite y, m) if
// t overflowed to ±Inf, from the halved difference, which does not; 0
// (unused) otherwise.
func logAbsStandardized(t, y, m, scale float64) float64 {
	if !math.IsInf(t, 0) {
		return 0
	}
	return math.Log(math.Abs(0.5*y-0.5*m)) + math.Ln2 - math.Log(scale)
}

// scoreLogTailMax is the tail probability below which normalScore forms
// the score from the tail's logarithm (normalLogQuantile): above it the
// tail itself keeps its relative accuracy (studentTCDF's, down to 1e-300)
// and is what the ordinary range takes; below, it soon underflows float64,
// and its logarithm stays finite out to y = ±MaxFloat64.
const scoreLogTailMax = 1e-300

// studentTLogTailScore returns the normal score Φ⁻¹(F(t)) of a finite t
// under the standard Student t d from the log of its smaller tail
// (studentTDist.logUpper; lnAbsT = ln|t| where t overflowed),
// −Φ⁻¹(P(T > t)) for t > 0: t itself for the normal (dof +Inf), exactly.
func studentTLogTailScore(d *studentTDist, t, lnAbsT float64) float64 {
	switch {
	case math.IsInf(d.dof, 1):
		return t
	case t < 0:
		return normalLogQuantile(d.logUpper(-t, lnAbsT))
	}
	return -normalLogQuantile(d.logUpper(t, lnAbsT))
}

// mixtureLogTailScore returns the normal score of a finite y under the
// uniform mixture of the components c, whose t's d holds (memberT),
// from the log of its lower tail (if lower) or its upper tail,
// ln((1/K)·Σ_k P_k), by a running log-sum-exp of the members' log tails
// (studentTDist.logUpper), so that no member's tail underflows.
func mixtureLogTailScore(c []Component, d []studentTDist, y float64, lower bool) float64 {
	m, sum := math.Inf(-1), 0.0 // ln P = m + ln(sum)
	for i, ci := range c {
		t := ci.standardize(y)
		lnAbsT := logAbsStandardized(t, y, ci.Mean, ci.Scale)
		if lower {
			t = -t
		}
		l := memberT(c, d, i).logUpper(t, lnAbsT)
		switch {
		case math.IsInf(l, -1):
		case l > m:
			sum = sum*math.Exp(m-l) + 1
			m = l
		default:
			sum += math.Exp(l - m)
		}
	}
	lp := m + math.Log(sum) - math.Log(float64(len(c)))
	if lower {
		return normalLogQuantile(lp)
	}
	return -normalLogQuantile(lp)
}

// scoreOfTails returns Φ⁻¹ of the lower tail lo of a distribution whose
// upper tail is up, from the smaller of the two: Φ⁻¹(lo) or −Φ⁻¹(up),
// −Inf or +Inf where that is 0.
func scoreOfTails(lo, up float64) float64 {
	switch {
	case math.IsNaN(lo) || math.IsNaN(up):
		return math.NaN()
	case lo <= up && lo == 0:
		return math.Inf(-1)
	case lo <= up:
		return standardNormalQuantile(lo)
	case up == 0:
		return math.Inf(1)
	}
	return -standardNormalQuantile(up)
}

// A conditional marginal (docs/multivariate.md, Sec. 12): under the
// Gaussian copula, given the normal scores of other targets, a target's
// score u = Φ⁻¹(F(y)) is Gaussian N(μ, σ²), σ ≤ 1, so that its law is
//
//	G(y) = Φ((u(y) − μ)/σ),  ln g(y) = ln f(y) − ln σ − ½(u′² − u²),  u′ = (u − μ)/σ,
//
// F, f the unconditional marginal (the base). A Prediction holds G in
// its scoreMap: the map (μ, σ) on the base's score, the base's own
// location and variances (what G's fields overwrite) and the calibrated
// conditional's centre. Its methods answer for G from the base's score,
// which stays finite and accurate far into either tail (normalScore), so
// that G does too however far out μ lies.

// scoreMap is what a Prediction holds of a conditional marginal; its zero
// value (sigma 0) is none, every prediction that Predict makes.
type scoreMap struct {
	// mu and sigma map the base's score u to G's, (u − mu)/sigma.
	mu, sigma float64
	// centre is the calibrated conditional's location in z (the target
	// as its model models it): its calibrated predictive is
	// N(centre, ZVarCorrected) under a transform, N(centre, VarCorrected)
	// otherwise.
	centre float64
	// mean, vr and vc are the base's Mean, Var and VarCorrected in z
	// (its ZMean, ZVar and ZVarCorrected under a transform), which G's
	// fields overwrite.
	mean, vr, vc float64
}

// on reports whether the prediction is a conditional marginal.
func (s *scoreMap) on() bool { return s.sigma != 0 }

// base returns the unconditional marginal of the conditional marginal p
// in z: its law, with no transform and no map.
func (p *Prediction) base() Prediction {
	q := *p
	q.Mean, q.Var, q.VarCorrected = p.given.mean, p.given.vr, p.given.vc
	q.Transform, q.ZMean, q.ZVar, q.ZVarCorrected = TransformNone, 0, 0, 0
	q.given = scoreMap{}
	return q
}

// calibratedLaw returns the calibrated predictive of the conditional
// marginal p as a Prediction of no map whose calibrated methods answer for
// it: the Gaussian N(centre, ZVarCorrected) in z (VarCorrected without a
// transform), mapped back through the transform.
func (p *Prediction) calibratedLaw() Prediction {
	q := *p
	q.given = scoreMap{}
	if q.Transform != TransformNone {
		q.ZMean = p.given.centre
	} else {
		q.Mean = p.given.centre
	}
	return q
}

// givenAt returns y as the base models it, z = g(y), and the base, or
// false for a y outside the transform's domain or NaN, where the score
// and the log density are outside(y).
func (p *Prediction) givenAt(y float64) (z float64, b Prediction, ok bool) {
	if z, ok = p.Transform.forward(y); ok {
		b = p.base()
	}
	return z, b, ok
}

// outside returns the normal score and log density of a y outside a
// transform's domain, of a transformed prediction or a conditional
// marginal: −Inf, or NaN for a NaN y.
func outside(y float64) float64 {
	if math.IsNaN(y) {
		return y
	}
	return math.Inf(-1)
}

// givenScore returns G's normal score (u(y) − μ)/σ at y, u the base's.
func (p *Prediction) givenScore(y float64) float64 {
	z, b, ok := p.givenAt(y)
	if !ok {
		return outside(y)
	}
	return (normalScore(&b, z, false) - p.given.mu) / p.given.sigma
}

// givenLogPDF is LogPDF of a conditional marginal: ln f(z) − ln σ −
// ½(u′ − u)(u′ + u) + ln g′(y), f the base's density in z.
func (p *Prediction) givenLogPDF(y float64) float64 {
	z, b, ok := p.givenAt(y)
	if !ok {
		return outside(y)
	}
	lnf := b.LogPDF(z)
	u := normalScore(&b, z, false)
	if math.IsInf(lnf, -1) || math.IsInf(u, 0) {
		return math.Inf(-1)
	}
	v := (u - p.given.mu) / p.given.sigma
	return lnf - math.Log(p.given.sigma) - 0.5*(v-u)*(v+u) + p.Transform.logJacobian(z)
}

// givenCDF is CDF of a conditional marginal, Φ of its score.
func (p *Prediction) givenCDF(y float64) float64 {
	return 0.5 * math.Erfc(-p.givenScore(y)/math.Sqrt2)
}

// givenQuantile is the quantile of a conditional marginal at the score v
// of its own (the probability Φ(v)): the y whose base score is μ + σ·v,
// solved on the base's score (scoreRoot), so that it is exact where Φ(v)
// or Φ(μ + σ·v) rounds to 0 or 1.
func (p *Prediction) givenQuantile(v float64) float64 {
	b := p.base()
	var s baseScore
	s.set(&b)
	return p.Transform.invert(scoreRoot(&b, &s, p.given.mu+p.given.sigma*v))
}

// givenInterval is Interval of a conditional marginal: its quantiles at
// the scores ∓Φ⁻¹((1 − level)/2), each formed from the lower tail, so
// that neither rounds.
func (p *Prediction) givenInterval(level float64) (lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, ErrLevel
	}
	v := standardNormalQuantile((1 - level) / 2)
	return p.givenQuantile(v), p.givenQuantile(-v), nil
}

// scoreRoot returns the z at which the score s.at(b, z) of b, a
// prediction of no transform and no map, is w (s set for b): m + σ·w
// exactly for a Gaussian b, N(m, σ²); otherwise by Newton's method on the
// score, whose derivative du/dz = f(z)/φ(u) is formed in logarithms,
// safeguarded by a bracket that bisection in float64 order (bisectFloat)
// narrows where a step leaves it or does not halve it, so that it
// converges over any range of magnitudes (a t's tail at a score of 40 lies
// beyond 10¹⁰⁰ scales for a few degrees of freedom). It starts at b's
// quantile at Φ(w), clamped to the float64s inside (0, 1), and widens the
// bracket from there in steps that grow fourfold. It returns ±MaxFloat64
// where w lies beyond the score of the largest float64.
func scoreRoot(b *Prediction, s *baseScore, w float64) float64 {
	if b.mixture() == nil && b.Loss.gaussian() {
		return b.Mean + math.Sqrt(b.Var)*w
	}
	score := func(z float64) float64 { return s.at(b, z) }
	slope := func(z, u float64) float64 { // du/dz = f(z)/φ(u)
		return math.Exp(b.LogPDF(z) + 0.5*u*u + 0.5*math.Log(2*math.Pi))
	}
	prob := min(max(0.5*math.Erfc(-w/math.Sqrt2), math.SmallestNonzeroFloat64), math.Nextafter(1, 0))
	z, _ := b.Quantile(prob)
	if !finite(z) {
		z = b.Mean
	}
	u := score(z)
	if u == w {
		return z
	}
	// The bracket lo < root ≤ hi, widened from z.
	step := math.Sqrt(b.VarCorrected)
	if d := slope(z, u); d > 0 && finite(d) {
		step = min(step, 2*math.Abs(w-u)/d) // a Newton step from a good start
	}
	step = max(step, 0x1p-52*math.Abs(z)) // at least an ulp or two of z
	lo, hi := z, z
	for dir := math.Copysign(1, w-u); ; step *= 4 {
		next := z + dir*step
		if math.IsInf(next, 0) {
			next = math.Copysign(math.MaxFloat64, dir)
		}
		un := score(next)
		if dir > 0 {
			lo, hi = z, next
		} else {
			lo, hi = next, z
		}
		if (un-w)*dir >= 0 || math.IsNaN(un) {
			break
		}
		if math.Abs(next) == math.MaxFloat64 {
			return next
		}
		z, u = next, un
	}
	// Safeguarded Newton from the bracket's end last evaluated.
	dxOld, dx, tiny := math.Inf(1), math.Inf(1), 0x1p-52*math.Sqrt(b.VarCorrected)
	for range scoreRootSteps {
		d := slope(z, u)
		next := z - (u-w)/d
		if !(next > lo && next < hi) || !(math.Abs(next-z) < 0.5*math.Abs(dxOld)) {
			next = bisectFloat(lo, hi)
			if next == lo || next == hi {
				break
			}
		}
		dxOld, dx = dx, next-z
		z, u = next, score(next)
		switch {
		case u < w:
			lo = z
		case u > w:
			hi = z
		default:
			return z
		}
		if math.Abs(dx) <= 0x1p-52*(math.Abs(z)+tiny) || math.IsNaN(u) {
			break
		}
	}
	return z
}

// scoreRootSteps bounds scoreRoot's steps: bisection in float64 order
// halves the float64s in the bracket, 2⁶⁴ at most, so that 64 of them
// close any bracket, and Newton's steps converge quadratically in between.
const scoreRootSteps = 200
