package gcp

import (
	"fmt"
	"math"
)

// MultiPrediction is a model's answer for one input when the model has
// d ≥ 2 targets (Config.Targets), in the targets' original units: the
// multivariate Student t predictive t_ν(y | m, S) of the normal-Wishart
// GCP network, with ν degrees of freedom, location m and scale matrix S,
// and the estimates derived from it. For an ensemble (Members > 1) the
// predictive is the uniform mixture of the members' t's (a Conditional
// reweights it).
//
// Its covariances come in three kinds, as the one-dimensional
// Prediction's variances do. Cov is the t's own covariance ν/(ν−2)·S.
// CovCorrected is Σ̃ = S/c_d(ν), the covariance of the clean part of the
// data when the training targets held outliers: for a Gaussian truth
// N(μ, Σ), the t that fits it best in expected log density (the GCP
// update's fixed point) has scale c_d(ν)·Σ, where c_d(ν) solves
// E[R/(c·ν + R)] = d/(ν + d) for R chi-square with d degrees of freedom;
// for d = 1 this is the correction A(α) of Definition 3.1. Correlations
// are the same under both, since they differ by a scalar. For an
// ensemble, both add the covariance of the members' means,
// CovEpistemic, to the mean of the members' (the law of total
// covariance).
//
// A model of Loss LossGaussianML predicts the Gaussian N(m, S), the t's
// limit ν = +Inf: Nu is +Inf, Cov and CovCorrected are both S (c_d(∞) =
// 1), LogPDF is the Gaussian's and Inside tests its chi-square
// ellipsoid.
//
// Under target transforms (Model.TargetTransforms) the t is that of the
// targets as the network models them, z_j = g_j(y_j): Nu, Scale,
// CovEpistemic, Disagreement, ZMean and ZCovCorrected describe z, and the
// other methods answer in original units, as a one-target Prediction
// under a Transform does (each says how).
//
// A model whose law is the Gaussian copula of one-target models
// (docs/multivariate.md, Sec. 12) predicts each target by its own
// one-target model, the marginals f_j, F_j, and joins them by the
// correlation matrix R of the normal scores u_j = Φ⁻¹(F_j(y_j)):
// ln p(y) = Σ_j ln f_j(y_j) − ½ ln det R − ½ uᵀ(R⁻¹ − I)u. Its
// calibrated law takes the calibrated marginals (each Marginal's
// calibrated predictive, Gaussian in z) and its region the calibration
// that AutoFit fits to rows the marginals did not train on (RegionScale,
// RegionNu). Each method's doc says how it answers under the copula. Its
// Conditional is again a copula, of the conditional marginals (each a
// Prediction that answers for its target given the others) and their
// correlation, so that every method answers for it as for a prediction.
//
// A MultiPrediction holds slices that PredictMulti sizes on its first
// use and then reuses, so that predicting into the same value again
// allocates nothing. Its methods only read it, so many goroutines may
// read one prediction at once; one goroutine's PredictMulti into it must
// not run beside them. Indices i, j run over 0..Dim()−1; an index out of
// range panics, as a slice index does.
type MultiPrediction struct {
	d, members int
	loss       Loss // the loss of the model that made the prediction
	// mean is the predictive mean, nu each member's ν, corr its c_d(ν)
	// and tfac its ν/(ν−2), loc and chol each member's location and the
	// packed Cholesky factor of its scale S, all in original units.
	mean, nu, corr, tfac, loc, chol []float64
	// cov, corrected and epistemic are an ensemble's covariances, d×d,
	// row-major, and corrChol the packed Cholesky factor of corrected, for
	// the Mahalanobis distance. A single network's are those of its one
	// member, which the methods compute from chol, so that a prediction
	// costs O(d) beyond the network.
	cov, corrected, epistemic []float64
	corrChol                  []float64
	// dis is each target's disagreement (an ensemble's), spread each
	// target's robust scale learned by Fit (its unit), inputZ the input's
	// Prediction.InputZ.
	dis, spread          []float64
	disagreement, inputZ float64
	// weight holds the members' mixture weights where weighted (a
	// Conditional of an ensemble); otherwise each weighs 1/members.
	weight   []float64
	weighted bool
	// regionScale and regionNu are the model's calibrated joint region's
	// scale and degrees of freedom (RegionScale, RegionNu), and conformal
	// the conformal calibration of its Mahalanobis distance, nil if none
	// (the model's, shared and never changed).
	regionScale, regionNu float64
	conformal             *conformalScores
	// tr is each target's transform z = g(y) (the model's
	// TargetTransforms), logged whether any is not TransformNone. The
	// fields above are all of z, the targets as the network models them.
	tr     [maxTargets]TargetTransform
	logged bool
	// cop holds the marginals and R of a model whose law is the Gaussian
	// copula of one-target models (copula.go); zero under the joint t.
	// Under the copula the fields above but d, loss, inputZ, regionScale,
	// regionNu, conformal, tr and logged are unused.
	cop copulaPrediction
}

// resize makes p hold d targets of members members, reusing its slices
// where they are large enough. A p already of this shape keeps its
// slices as they are, which only resize sets: a stream of predictions by
// one model pays for their set-up once.
func (p *MultiPrediction) resize(d, members int) {
	p.weighted, p.cop.chol = false, nil
	if p.d == d && p.members == members {
		return
	}
	grow := func(s []float64, n int) []float64 {
		if cap(s) < n {
			return make([]float64, n)
		}
		return s[:n]
	}
	nl := mvtPackedLen(d)
	p.d, p.members = d, members
	p.mean, p.nu, p.corr, p.tfac = grow(p.mean, d), grow(p.nu, members), grow(p.corr, members), grow(p.tfac, members)
	p.spread, p.weight = grow(p.spread, d), grow(p.weight, members)
	p.loc, p.chol = grow(p.loc, members*d), grow(p.chol, members*nl)
	if members > 1 {
		p.cov, p.corrected, p.epistemic = grow(p.cov, d*d), grow(p.corrected, d*d), grow(p.epistemic, d*d)
		p.corrChol, p.dis = grow(p.corrChol, nl), grow(p.dis, d)
	}
}

// Dim returns the number of targets d.
func (p *MultiPrediction) Dim() int { return p.d }

// Members returns the number of networks whose predictives the
// prediction mixes: 1 for a single network. Under the copula, whose
// marginals each mix their own model's members, it is the most members
// of a marginal (Marginal(i).Members).
func (p *MultiPrediction) Members() int {
	if p.cop.on() {
		return p.cop.members()
	}
	return p.members
}

// Mean returns the predictive mean of target i: the location m_i of the
// t, for an ensemble the mean of the members' locations. For a target
// under the log transform (TransformLog, Model.TargetTransforms) it is
// Marginal(i).Mean, the mean of the calibrated predictive's log-normal,
// e^(m_i + v_i/2) with v_i = Marginal(i).ZVarCorrected: the t's own
// back-transform has no mean, as for one target (Prediction.Transform).
// Under the copula it is Marginal(i).Mean, target i's one-target model's
// mean.
func (p *MultiPrediction) Mean(i int) float64 {
	if p.cop.on() {
		return p.cop.marg[i].Mean
	}
	if p.tr[i] == TransformLog {
		return math.Exp(p.mean[i] + p.calibratedVar(i)/2)
	}
	return p.mean[i]
}

// calibratedVar returns the variance in z of target i under the
// calibrated predictive as Marginal reports it, its VarCorrected before
// a transform.
func (p *MultiPrediction) calibratedVar(i int) float64 {
	return p.regionScale * regionMarginalFactor(p.regionNu) * p.ZCovCorrected(i, i)
}

// Nu returns the degrees of freedom ν of the t, a trust signal as the
// one-dimensional Prediction's α is (ν = 2α for d = 1): large on clean
// data, small where the training targets held outliers. For an ensemble
// it is the mean of the members' ν (weighted as the mixture is). It is at
// least 2, and +Inf for the Gaussian comparator (LossGaussianML). Under
// the copula it is +Inf: the normal scores u_j = Φ⁻¹(F_j(y_j)) are
// Gaussian, N(0, R) (Scale); each marginal's own trust signal is its
// Marginal(i).Alpha.
func (p *MultiPrediction) Nu() float64 {
	if p.cop.on() {
		return math.Inf(1)
	}
	var s float64
	for k, v := range p.nu {
		if w := p.weightOf(k); w != 0 { // a member of no weight adds nothing, not 0·∞
			s += w * v
		}
	}
	return s / p.weightSum()
}

// Scale returns entry (i, j) of the t's scale matrix S, for an ensemble
// the mean of the members' S (weighted as the mixture is). Under the
// copula it is R_ij, the covariance of the normal scores' Gaussian
// N(0, R), the copula's latent law (Nu +Inf).
func (p *MultiPrediction) Scale(i, j int) float64 {
	if p.cop.on() {
		return p.cop.corr(i, j)
	}
	var s float64
	for k := range p.members {
		s += p.weightOf(k) * p.memberScale(k, i, j)
	}
	return s / p.weightSum()
}

// weightOf returns member k's weight in the mixture, up to the common
// factor weightSum: 1 unless weighted, so that a mean over the members is
// Σ weightOf(k)·v_k / weightSum().
func (p *MultiPrediction) weightOf(k int) float64 {
	if p.weighted {
		return p.weight[k]
	}
	return 1
}

// weightSum returns the sum of weightOf over the members: their number
// unless weighted, 1 if weighted (the weights are normalised).
func (p *MultiPrediction) weightSum() float64 {
	if p.weighted {
		return 1
	}
	return float64(p.members)
}

// memberScale returns S_ij = Σ_c L_ic·L_jc of member k.
func (p *MultiPrediction) memberScale(k, i, j int) float64 {
	nl := mvtPackedLen(p.d)
	l := p.chol[k*nl : (k+1)*nl]
	li, lj := l[i*(i+1)/2:], l[j*(j+1)/2:]
	var s float64
	for c := range min(i, j) + 1 {
		s += li[c] * lj[c]
	}
	return s
}

// Cov returns entry (i, j) of the predictive covariance: ν/(ν−2)·S_ij,
// for an ensemble the mean of the members' plus CovEpistemic(i, j). For
// targets under the log transform it is in original units, the
// covariance of the log-normal whose logarithms have this covariance C
// and the location m, as for CovCorrected: the log-Student-t has none.
// Under the copula it is R_ij·√(V_i·V_j), V_k = Marginal(k).Var: the
// marginals' variances, in original units, with the copula's
// correlation.
func (p *MultiPrediction) Cov(i, j int) float64 {
	if p.cop.on() {
		return p.cop.cov(i, j, func(q *Prediction) float64 { return q.Var })
	}
	return p.originalCov(i, j, false)
}

// CovCorrected returns entry (i, j) of the corrected covariance
// Σ̃ = S/c_d(ν) (see MultiPrediction), for an ensemble the mean of the
// members' plus CovEpistemic(i, j). For targets under the log transform
// it is in original units, the covariance of the image of the corrected
// Gaussian N(m, Σ̃): Σ̃_ij where neither target is logged,
// e^(m_i + Σ̃_ii/2)·Σ̃_ij where i alone is, and
// e^(m_i + m_j + (Σ̃_ii + Σ̃_jj)/2)·(e^Σ̃_ij − 1) where both are, m the
// location in z (ZMean, ZCovCorrected). Under the copula it is
// R_ij·√(Ṽ_i·Ṽ_j), Ṽ_k = Marginal(k).VarCorrected, the marginals'
// corrected variances (Definition 3.1, calibrated as the one-target
// models calibrate them), in original units: the covariance of the
// Gaussian with the corrected marginals and the copula's dependence
// (docs/multivariate.md, Sec. 12); with one target it is Definition 3.1.
func (p *MultiPrediction) CovCorrected(i, j int) float64 {
	if p.cop.on() {
		return p.cop.cov(i, j, func(q *Prediction) float64 { return q.VarCorrected })
	}
	return p.originalCov(i, j, true)
}

// zCov is Cov of the targets as the network models them, z.
func (p *MultiPrediction) zCov(i, j int) float64 {
	if p.members == 1 {
		return p.tfac[0] * p.memberScale(0, i, j)
	}
	return p.cov[i*p.d+j]
}

// ZMean returns the location of target i as the network models it,
// z_i = g_i(y_i) under a target transform (Model.TargetTransforms): Mean(i)
// for an untransformed target, Marginal(i).ZMean for a logged one. With
// ZCovCorrected it gives the calibrated region in z, an ellipsoid, whose
// image under g⁻¹ is the region in original units: where a caller draws
// it, as gcp plot does. Under the copula it is marginal i's location in
// the target as its model models it, Marginal(i).ZMean under a transform
// and Marginal(i).Mean otherwise (for a Conditional, the calibrated
// conditional's centre, Conditional): with ZCovCorrected, the calibrated
// region in z is again an ellipsoid (the calibrated marginals are
// Gaussian in z, and so is their Gaussian copula).
func (p *MultiPrediction) ZMean(i int) float64 {
	if p.cop.on() {
		return p.cop.modeledMean(i)
	}
	return p.mean[i]
}

// ZCovCorrected returns entry (i, j) of the corrected covariance Σ̃ of
// the targets as the network models them, z: CovCorrected(i, j) where
// neither target is transformed. Under the copula it is R_ij·√(Ṽ_i·Ṽ_j),
// Ṽ_k marginal k's corrected variance in z (Marginal(k).ZVarCorrected
// under a transform, VarCorrected otherwise).
func (p *MultiPrediction) ZCovCorrected(i, j int) float64 {
	if p.cop.on() {
		return p.cop.cov(i, j, modeledCorrected)
	}
	if p.members == 1 {
		return p.memberScale(0, i, j) / p.corr[0]
	}
	return p.corrected[i*p.d+j]
}

// CovEpistemic returns entry (i, j) of the covariance of an ensemble's
// members' means, the model's own (epistemic) uncertainty; 0 for a
// single network. Under the copula its diagonal is each marginal's
// VarEpistemic (of z under a transform), and it is 0 off the diagonal:
// the marginals' ensembles were trained apart, so that no member of one
// is paired with a member of another.
func (p *MultiPrediction) CovEpistemic(i, j int) float64 {
	if p.cop.on() {
		if i != j {
			return 0
		}
		return p.cop.marg[i].VarEpistemic
	}
	if p.members == 1 {
		return 0
	}
	return p.epistemic[i*p.d+j]
}

// Corr returns the predicted correlation of targets i and j,
// CovCorrected(i, j)/√(CovCorrected(i, i)·CovCorrected(j, j)). For a
// single network it is that of S, and of Cov, too. Under log transforms
// it is the correlation in original units, which differs from that of
// the logarithms: (e^Σ̃_ij − 1)/√((e^Σ̃_ii − 1)(e^Σ̃_jj − 1)) for two
// logged targets, Σ̃_ij/√((e^Σ̃_ii − 1)·Σ̃_jj) for a logged i and an
// untransformed j (Σ̃ in z, the locations cancel). Under the copula it is
// R_ij, the correlation of the normal scores (and of CovCorrected and
// Cov, built from it), whatever the transforms: for marginals other
// than Gaussian it is not the Pearson correlation of the targets.
func (p *MultiPrediction) Corr(i, j int) float64 {
	if p.cop.on() {
		return p.cop.corr(i, j)
	}
	if p.tr[i] == TransformLog || p.tr[j] == TransformLog {
		return p.loggedCorr(i, j)
	}
	// The square roots apart: the variances' product leaves the float64
	// range for scales beyond 1e±154.
	return p.CovCorrected(i, j) / (math.Sqrt(p.CovCorrected(i, i)) * math.Sqrt(p.CovCorrected(j, j)))
}

// Disagreement is an ensemble's own uncertainty in units of the noise,
// the largest over the targets of the one-dimensional
// Prediction.Disagreement: √(CovEpistemic(i, i) / min(a_i, s_i²)), a_i the
// mean of the members' Cov(i, i) and s_i target i's robust standard
// deviation learned by Fit. 0 for a single network. Under the copula it
// is the largest of the marginals' Disagreement.
func (p *MultiPrediction) Disagreement() float64 {
	if p.cop.on() {
		return p.cop.disagreement()
	}
	return p.disagreement
}

// LogPDF returns the log density of the predictive at the target vector
// y (len(y) = Dim()): ln t_ν(y | m, S), for an ensemble the log of the
// members' mean density (weighted as the mixture is). Under target
// transforms it is the density in original units, that of z = g(y) times
// the Jacobian Π_j g′_j(y_j) (1/y_j for each logged target), so that a
// mean negative log density is in y's units; −Inf for a y outside a
// transform's domain (a logged target ≤ 0) or with an infinite entry. It
// allocates nothing. A y of the wrong length, or holding NaN, gives NaN.
//
// Under the copula it is ln p(y) = Σ_j ln f_j(y_j) − ½ ln det R −
// ½ uᵀ(R⁻¹ − I)u, u_j = Φ⁻¹(F_j(y_j)), with f_j and F_j the marginals'
// predictives (Marginal(j).LogPDF and CDF, in original units, the
// Jacobians theirs): with R = I the sum of the marginals' log densities.
// The scores come from each marginal's smaller tail, from its logarithm
// where it falls below 1e-300 (normalScore), so that they and the density
// stay finite and accurate however far out a finite y lies.
func (p *MultiPrediction) LogPDF(y []float64) float64 {
	if len(y) != p.d {
		return math.NaN()
	}
	if p.cop.on() {
		return p.cop.logPDF(y)
	}
	var buf [maxTargets]float64
	z, jac, ok := p.toModeled(y, &buf)
	if !ok {
		return outsideDensity(y)
	}
	return p.logPDF(z) + jac
}

// logPDF is LogPDF at the targets z as the network models them.
func (p *MultiPrediction) logPDF(y []float64) float64 {
	var z [maxTargets]float64
	nl := mvtPackedLen(p.d)
	return p.mixLog(func(k int) float64 {
		return mvtLogDensity(y, p.loc[k*p.d:(k+1)*p.d], p.chol[k*nl:(k+1)*nl], p.nu[k], z[:p.d])
	})
}

// mixLog returns the log of the members' mean density, weighted as the
// mixture is, from each member's log density member(k): Σ_k w_k e^{l_k}
// over Σ_k w_k, kept as e^top·sum and rescaled when top rises, so that
// no member's density underflows the sum. A member of density 0 (l_k =
// −Inf: a weight that underflowed, a Gaussian's tail beyond the doubles)
// adds nothing, and −Inf is the answer where every member's is.
func (p *MultiPrediction) mixLog(member func(k int) float64) float64 {
	top, sum := math.Inf(-1), 0.0
	for k := range p.members {
		l := member(k) + math.Log(p.weightOf(k))
		switch {
		case l > top:
			sum = sum*math.Exp(top-l) + 1
			top = l
		case !math.IsInf(l, -1): // NaN goes on into the sum
			sum += math.Exp(l - top)
		}
	}
	return top + math.Log(sum/p.weightSum())
}

// Mahalanobis returns the Mahalanobis distance of the target vector y
// (len(y) = Dim()) from the mean under the corrected covariance,
// √((y − m)ᵀ Σ̃⁻¹ (y − m)). Where the predictive is the corrected Gaussian
// N(m, Σ̃), its square is chi-square with d degrees of freedom. Under
// target transforms it is the distance of z = g(y), where the model is
// the t, and +Inf for a y outside a transform's domain or with an
// infinite entry. A y of the wrong length, or holding NaN, gives NaN.
//
// Under the copula it is √q, q = uᵀR⁻¹u of the marginals' normal scores
// u_j = Φ⁻¹(F_j(y_j)) (as LogPDF's), chi-square with d degrees of
// freedom under the law; +Inf where a score is infinite. The calibrated
// and conformal regions measure the calibrated marginals' scores instead
// (CalibratedMahalanobis).
func (p *MultiPrediction) Mahalanobis(y []float64) float64 {
	if len(y) != p.d {
		return math.NaN()
	}
	if p.cop.on() {
		return math.Sqrt(p.cop.distance2(y))
	}
	var buf [maxTargets]float64
	zy, _, ok := p.toModeled(y, &buf)
	if !ok {
		return -outsideDensity(y) // +Inf, or NaN for a y holding NaN
	}
	var z [maxTargets]float64
	if p.members == 1 { // Σ̃ = S/c: its factor is L/√c
		_, sigma, r, _ := mvtStandardize(z[:p.d], zy, p.loc, p.chol)
		return sigma * math.Sqrt(r*p.corr[0])
	}
	_, sigma, r, _ := mvtStandardize(z[:p.d], zy, p.mean, p.corrChol)
	return sigma * math.Sqrt(r)
}

// Inside reports whether the target vector y (len(y) = Dim()) lies inside
// the predictive's central p-region, the ellipsoid that holds probability
// p: for a single network that of the t, (y − m)ᵀS⁻¹(y − m) ≤ d·F⁻¹(p)
// with F the F distribution of d and ν degrees of freedom; for an
// ensemble, whose mixture has no ellipsoidal region, that of the
// corrected Gaussian N(Mean, CovCorrected), a squared Mahalanobis distance
// below the chi-square quantile χ²_d(p). Under target transforms the
// region is that of z = g(y) mapped back, with the same probability: y
// is inside when g(y) is, and a y outside a transform's domain never is.
// It returns ErrLevel for p outside (0, 1) and ErrShape for a y of the
// wrong length. Under the copula the region is q ≤ χ²_d(p), q the square
// of Mahalanobis(y): it holds probability p under the law, and is no
// longer an ellipsoid in y (unless every marginal is Gaussian).
func (p *MultiPrediction) Inside(y []float64, prob float64) (bool, error) {
	if err := p.checkRegion(y, prob); err != nil {
		return false, err
	}
	if p.cop.on() {
		return p.cop.distance2(y) <= mvtRegionRadius2(prob, p.d, math.Inf(1)), nil
	}
	if p.members > 1 {
		q := p.Mahalanobis(y)
		return q*q <= mvtRegionRadius2(prob, p.d, math.Inf(1)), nil
	}
	var buf [maxTargets]float64
	y, _, ok := p.toModeled(y, &buf)
	if !ok {
		return false, nil
	}
	var z [maxTargets]float64
	_, sigma, r, _ := mvtStandardize(z[:p.d], y, p.loc, p.chol)
	return sigma*sigma*r <= mvtRegionRadius2(prob, p.d, p.nu[0]), nil
}

// Marginal returns the predictive of target i alone as a one-dimensional
// Prediction, so that every method of one target applies to it: its
// intervals, quantiles, CRPS and the calibrated predictive
// N(Mean, VarCorrected). The marginal of a multivariate t is the
// univariate t with the same ν, location m_i and squared scale S_ii;
// Prediction holds it as Alpha = ν/2 (2α degrees of freedom),
// Nu = 1 (the normal-Wishart κ, fixed by convention, as it has no head)
// and Beta = S_ii·ν/4, so that β(ν+1)/(να) = S_ii (where S_ii·ν/4
// overflows, Nu is the power of two κ that keeps Beta = S_ii·ν·κ/(2(1+κ))
// finite, the same t). VarCorrected is
// RegionScale()·CovCorrected(i, i)·k, the d-dimensional correction
// S_ii/c_d(ν) (not the one-dimensional A(α)) times the joint region's
// calibration scale, and k = (t_ν(0.975)/z(0.975))² for the calibrated
// region's RegionNu() = ν (1 for the Gaussian), so that its calibrated
// 95% interval is the calibrated region's marginal's, a t of ν degrees of
// freedom (the calibrated interval is Gaussian, and matches it at 95%,
// the level the command reports). The Gaussian comparator's marginal is N(m_i, S_ii),
// a Prediction of Loss LossGaussianML as its one-target model gives. For
// an ensemble the Components are the members' marginals, and Var,
// VarCorrected, VarAleatoric, VarEpistemic and Disagreement those of the
// mixture, as in one dimension.
//
// A Conditional of an ensemble weighs its members unequally, which a
// one-dimensional Prediction (a uniform mixture) cannot hold: its
// marginal is then one t (Members 1) of the mixture's ν (Nu), mean and
// variance Var, the moment-matched approximation of the weighted mixture,
// with the mixture's exact VarCorrected, VarEpistemic and Disagreement;
// for the Gaussian comparator the Gaussian N(Mean, Var).
//
// For a target under a transform (Model.TargetTransforms) the marginal
// carries it (Prediction.Transform): the t of z_i above mapped back, with
// ZMean, ZVar and ZVarCorrected those of z_i, and its methods answering
// in original units as a one-target model's of that transform do.
//
// Under the copula it is target i's one-target model's prediction
// exactly, bit for bit what that model's Predict gives (the copula
// leaves every marginal as it is); for a Conditional, target i's
// conditional marginal (Prediction says how it answers).
func (p *MultiPrediction) Marginal(i int) Prediction {
	if p.cop.on() {
		return p.cop.marg[i]
	}
	q := p.marginal(i)
	if p.tr[i] != TransformNone {
		transformBack(&q, p.tr[i])
	}
	return q
}

// marginal is Marginal of target i as the network models it, z_i.
func (p *MultiPrediction) marginal(i int) Prediction {
	q := Prediction{Loss: p.loss, Mean: p.mean[i], Var: p.zCov(i, i), VarCorrected: p.calibratedVar(i),
		Nu: 1, InputZ: p.inputZ, Members: p.members, Alpha: p.Nu() / 2}
	if p.loss == LossGaussianML {
		q.Nu = 0 // as a one-target Gaussian model's Prediction: α = +Inf, β = ν = 0
	}
	if p.weighted {
		q.Members = 1
		if p.loss == LossGCP { // t variance ν/(ν−2)·β(ν_κ+1)/(ν_κ·α) = Var with ν_κ = 1, α = ν/2
			q.Beta = q.Var * (q.Alpha - 1) / 2
			if math.IsInf(q.Beta, 1) { // β = Var·(α−1)·κ/(1+κ) for a smaller κ
				k := farKappa(q.Var, q.Alpha-1)
				q.Nu = math.Ldexp(1, -k)
				q.Beta = scaledProduct(q.Var, q.Alpha-1, k) / (1 + q.Nu)
			}
		}
		q.VarEpistemic, q.Disagreement = p.CovEpistemic(i, i), p.dis[i]
		q.VarAleatoric = q.Var - q.VarEpistemic
		return q
	}
	for k, nu := range p.nu {
		s := p.memberScale(k, i, i)
		if p.loss == LossGCP {
			q.Beta += s * nu / 4 / float64(p.members)
		}
		if p.members > 1 {
			q.Components[k] = Component{Mean: p.loc[k*p.d+i], Scale: math.Sqrt(s), DoF: nu}
		}
	}
	if math.IsInf(q.Beta, 1) {
		p.farMarginalPrior(i, &q)
	}
	q.VarEpistemic = p.CovEpistemic(i, i)
	q.VarAleatoric = q.Var - q.VarEpistemic
	if p.members > 1 {
		q.Disagreement = p.dis[i]
	}
	return q
}

// The marginal's normal-gamma holds the t's squared scale S_ii as
// β(κ+1)/(κα), α = ν/2, with the pseudo-count κ (Prediction.Nu) 1 by
// convention: β = S_ii·ν/4. That overflows where S_ii·ν/4 does while both
// are finite (a huge scale with many degrees of freedom: S_ii = 10³⁰⁰ at
// ν = 10¹⁰), and every interval, quantile, CDF, density and CRPS of the
// marginal then came out ±Inf, 0.5 or −Inf. Any κ gives the same t, with
// β = S_ii·α·κ/(1+κ): there κ is the power of two 2⁻ᵏ that brings β
// back below 2¹⁰⁰⁰ (and NormalGamma's scale is formed without the
// overflowing σ = S_ii·α). Only where S_ii·ν is beyond 2²⁰²³ (both
// beyond 10³⁰⁴) does β stay +Inf.

// farMarginalPrior sets β and κ of the marginal q of target i, whose β
// at κ = 1 overflowed (a single network's or an unweighted ensemble's,
// β the members' mean).
func (p *MultiPrediction) farMarginalPrior(i int, q *Prediction) {
	k := 0
	for m, nu := range p.nu {
		k = max(k, farKappa(p.memberScale(m, i, i), nu))
	}
	q.Nu, q.Beta = math.Ldexp(1, -k), 0
	for m, nu := range p.nu { // β = S·ν·κ/(2(1+κ)), over the members
		q.Beta += scaledProduct(p.memberScale(m, i, i), nu, k) / (2 * (1 + q.Nu)) / float64(p.members)
	}
}

// farKappa returns the k ≤ 1023 for which a·b·2⁻ᵏ, a and b positive and
// finite, is below 2¹⁰⁰², and 0 where a·b is.
func farKappa(a, b float64) int {
	return min(1023, max(0, math.Ilogb(a)+math.Ilogb(b)-1000))
}

// scaledProduct returns a·b·2⁻ᵏ, the power of two applied to the larger
// factor, so that neither it nor the product overflows or underflows on
// the way.
func scaledProduct(a, b float64, k int) float64 {
	if a < b {
		a, b = b, a
	}
	return math.Ldexp(a, -k) * b
}

// regionMarginalFactor returns (t_ν(0.975)/z(0.975))², the factor on the
// variance of a Gaussian whose central 95% interval is that of a t of ν
// degrees of freedom with the same scale: 1 for ν = +Inf, exactly, so
// that a model without a fitted ν predicts what it did.
func regionMarginalFactor(nu float64) float64 {
	if math.IsInf(nu, 1) {
		return 1
	}
	r := studentTQuantile(0.975, nu) / standardNormalQuantile(0.975)
	return r * r
}

// checkRegion returns ErrLevel for a level prob outside (0, 1) and
// ErrShape for a target vector y of the wrong length.
func (p *MultiPrediction) checkRegion(y []float64, prob float64) error {
	if !(prob > 0 && prob < 1) {
		return fmt.Errorf("%w: p = %v", ErrLevel, prob)
	}
	if len(y) != p.d {
		return fmt.Errorf("%w: %d targets, the prediction has %d", ErrShape, len(y), p.d)
	}
	return nil
}

// The targets of a MultiPrediction under target transforms
// (Model.TargetTransforms): the network models z_j = g_j(y_j), each g_j
// increasing, so a target vector y maps to z = g(y) one column at a time,
// and a density of z turns into one of y with the Jacobian Π_j g′_j(y_j),
// the map being diagonal. The methods that take a y map it into z
// (toModeled), those that draw map their draws back (toOriginal), and the
// covariances in original units are the log-normal ones (originalCov).

// toModeled returns the target vector y (len(y) = Dim()) as the network
// models it, z_j = g_j(y_j), in buf (y itself when no target is
// transformed), the log of the Jacobian Σ_j ln g′_j(y_j), and false for
// a y outside a transform's domain or with an infinite z_j: infinitely
// far from the mean, of density 0, outside every region, where the
// standardization of two infinite entries would give ∞ − ∞ = NaN.
func (p *MultiPrediction) toModeled(y []float64, buf *[maxTargets]float64) (z []float64, logJac float64, ok bool) {
	if !p.logged {
		for _, v := range y {
			if math.IsInf(v, 0) {
				return y, 0, false
			}
		}
		return y, 0, true
	}
	z, ok = buf[:len(y)], true
	for j, v := range y {
		var in bool
		z[j], in = p.tr[j].forward(v)
		ok = ok && in && !math.IsInf(z[j], 0)
		logJac += p.tr[j].logJacobian(z[j])
	}
	return z, logJac, ok
}

// toOriginal maps a draw z of the targets as the network models them
// back to original units in place, y_j = g_j⁻¹(z_j).
func (p *MultiPrediction) toOriginal(z []float64) {
	if !p.logged {
		return
	}
	for j, v := range z {
		z[j] = p.tr[j].invert(v)
	}
}

// outsideDensity returns the log density at a y outside a transform's
// domain: −Inf, or NaN where y holds a NaN, as one target's LogPDF.
func outsideDensity(y []float64) float64 {
	for _, v := range y {
		if math.IsNaN(v) {
			return v
		}
	}
	return math.Inf(-1)
}

// originalCov returns entry (i, j) of the covariance in original units
// of the Gaussian N(m, C) in z mapped through the targets' transforms, C
// the t's covariance (zCov) or, if corrected, Σ̃ (ZCovCorrected): C_ij
// where neither target is transformed; e^(m_i + C_ii/2)·C_ij where i
// alone is logged; e^(m_i + m_j + (C_ii + C_jj)/2)·(e^C_ij − 1) where
// both are (the log-normal's, whose diagonal is Prediction.Var's under
// TransformLog).
func (p *MultiPrediction) originalCov(i, j int, corrected bool) float64 {
	c := p.zCov
	if corrected {
		c = p.ZCovCorrected
	}
	cij := c(i, j)
	if !p.logged || p.tr[i] == TransformNone && p.tr[j] == TransformNone {
		return cij
	}
	var a float64
	for _, k := range [2]int{i, j} {
		if p.tr[k] == TransformLog {
			a += p.mean[k] + c(k, k)/2
		}
	}
	return p.logNormalCov(i, j, cij, a)
}

// logNormalCov returns e^a·(e^cij − 1) where targets i and j are both
// logged and e^a·cij otherwise, each kept finite and exact where e^a or
// e^cij − 1 alone leaves the float64 range (expm1Exp, expTimes).
func (p *MultiPrediction) logNormalCov(i, j int, cij, a float64) float64 {
	if p.tr[i] == TransformLog && p.tr[j] == TransformLog {
		return expm1Exp(cij, a)
	}
	return expTimes(cij, a)
}

// loggedCorr is Corr where target i or j is logged: the covariance in
// original units over the two standard deviations, in which the
// locations and the factors e^(Σ̃_kk/2) cancel, formed in logarithms, so
// that it stays within [−1, 1] where the covariances themselves
// overflow (a location of 700, a variance of 1e4 in z) or underflow.
func (p *MultiPrediction) loggedCorr(i, j int) float64 {
	if i == j {
		return 1
	}
	// lnSD is the log of target k's standard deviation less the
	// cancelling m_k + Σ̃_kk/2.
	lnSD := func(k int) float64 {
		c := p.ZCovCorrected(k, k)
		if p.tr[k] == TransformLog {
			return logExpm1(c) / 2
		}
		return math.Log(c) / 2
	}
	return p.logNormalCov(i, j, p.ZCovCorrected(i, j), -lnSD(i)-lnSD(j))
}
