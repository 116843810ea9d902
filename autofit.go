package gcp

import (
	"fmt"
	"math"
	"slices"
)

// AutoOptions configures AutoFit. The zero value selects the defaults,
// which are meant for data nobody has tuned for.
type AutoOptions struct {
	// LearningRates and Dropouts span the grid of candidates, every
	// learning rate with every dropout rate. Defaults: learning rates 1e-4,
	// 3e-4, 1e-3 and 3e-3 and dropout rates 0, 0.1, 0.2 and 0.4, which cover
	// the paper's grid (Appendix E) at a coarser step. A single value fixes
	// that hyperparameter. A learning rate must be finite and > 0, a
	// dropout rate in [0, 1), and the grid at most 1024 pairs. For LossMLBayes a dropout of 0 is left out: its MC samples
	// need dropout.
	LearningRates, Dropouts []float64
	// Architectures are the hidden layers of the heads (Config.Hidden)
	// the search tries, the cheapest first; ScaleWeightings the
	// exponents of TrainConfig.ScaleWeighting, a dimension of the grid as
	// the learning rate is. The grid of learning rates, dropout rates and
	// scale weightings is searched with the first architecture; each
	// further one then trains with the winner's settings, and replaces it
	// only where the held-out rows clearly favour it: its NLL, or its
	// squared error without a worse NLL, lower by more than one standard
	// error of the difference (the architecture stage: see AutoFit).
	// Defaults: one hidden layer of 50 units, then one of 100, then two
	// of 50; the exponent ½. A single value fixes that dimension: gcp
	// train's -hidden fixes the architecture, and ScaleWeightings {0}
	// trains by the paper's update alone.
	Architectures   [][]int
	ScaleWeightings []float64
	// TargetTransforms are the target transforms (TargetTransform) the
	// recipe tries: AutoFit takes the targets y in original units, runs
	// the search on each transform's values z = g(y), keeps the first
	// transform unless a later one's winner is clearly better on
	// cross-fitted rows, and trains the ensemble and its calibration for
	// the kept one only (the transform stage: see AutoFit). Default:
	// TransformNone, then TransformLog where ChooseTargetTransform picks
	// it (every target positive and highly skewed), the choice of gcp
	// train's -target-transform auto. A single value fixes the transform;
	// TransformLog needs positive targets. At most one of each. For
	// several targets the screen picks each target's transform on its own,
	// and the recipe compares them target by target (see AutoFit): the
	// default compares, TransformNone alone logs none, and TransformLog
	// alone logs every target the screen picks, without comparing.
	TargetTransforms []TargetTransform
	// Laws are, for several targets, the joint laws the recipe fits and
	// compares (JointLaw): by default, for Config.Loss LossGCP, the joint
	// network's multivariate t and the Gaussian copula of the one-target
	// models, the one of the lower cross-fitted joint NLL kept
	// (AutoResult.Law; see AutoFit), and the joint network alone for the
	// other losses. A single value fixes the law. At most one of each;
	// unused for one target.
	Laws []JointLaw
	// MaxEpochs is the most epochs any candidate trains, at most
	// 2²⁰. Default: enough for about 65,536 minibatch steps, within
	// [100, 2000].
	MaxEpochs int
	// Patience is the early-stopping patience of every candidate, in
	// epochs, at most 2²⁰. Default MaxEpochs/10, at least 20.
	Patience int
	// ValidationShare, in (0, 1), is the share of the training rows held
	// out, drawn with Seed, to stop, select and calibrate on. Default 0.1,
	// at least 30 rows (below 60 rows, half of them); it must leave as
	// many to train on.
	ValidationShare float64
	// Seed fixes which rows are held out and each candidate's shuffles.
	// The candidates' initial weights come from Config.Seed, their dropout
	// masks from TrainConfig.Seed: all candidates start from the same
	// weights, so that the search compares hyperparameters, not draws.
	Seed uint64
	// Workers is how many candidates, calibration folds or ensemble
	// members train at once, at most 1024. Default GOMAXPROCS. The result
	// does not depend on it.
	Workers int
	// Progress, if set, is called after each round of the search, each
	// epoch of an ensemble's run and each epoch of a calibration fold
	// (AutoProgress.Phase says which), from the goroutine that called
	// AutoFit.
	Progress func(AutoProgress)
}

// The defaults of AutoOptions.
var (
	defaultLearningRates   = []float64{1e-4, 3e-4, 1e-3, 3e-3}
	defaultDropouts        = []float64{0, 0.1, 0.2, 0.4}
	defaultArchitectures   = [][]int{{50}, {100}, {50, 50}}
	defaultScaleWeightings = []float64{0.5}
)

// AutoMembers is how many networks AutoFit trains when Config.Members is
// 0: an ensemble of five, Deep Ensembles' choice (Lakshminarayanan et al.
// 2017), the model gcp train makes with no flag. With zero flags on the
// standard UCI splits it beat the single network's NLL on all five data
// sets, by 0.02 to 0.25 nats, and its RMSE on all five
// (the repository's UCI benchmark records, with and without -members 1), and
// only an ensemble can say where the model has not seen data
// (Prediction.Disagreement). New's zero Members stays one network: a
// model built by hand is what its Config says, while AutoFit's zero
// values ask for the recipe. Members: 1 keeps the best single network.
const AutoMembers = 5

const (
	// stepBudget is about how many minibatch steps a candidate may take
	// when MaxEpochs is not set: small data sets get many epochs, large
	// ones few, and every candidate as many updates as the paper's
	// smallest settings give (Appendix E: 700 epochs of
	// minibatch 5 on Boston's 455 rows are 64,000 steps).
	stepBudget    = 65536
	minAutoEpochs = 100
	maxAutoEpochs = 2000
	// minPatience keeps early stopping from ending on the noise of a few
	// epochs.
	minPatience = 20
	// minValidationRows is the smallest validation set from 60 rows on:
	// below about 30 rows a validation NLL is noisy to select on. It is
	// also the fewest rows the candidates may train on there; below 60
	// rows, half the rows each.
	minValidationRows = 30
	// maxCandidates bounds the grid: each candidate holds a model and its
	// trainer until the search prunes it.
	maxCandidates = 1024
	// maxWorkers bounds AutoOptions.Workers: a goroutine each.
	maxWorkers = 1024
	// MinAutoFitRows is the fewest rows AutoFit trains on. From 60 rows
	// it holds out 30, below which a held-out NLL is noisy, and trains on
	// the rest; below 60 it holds out half the rows. On 20 rows the
	// conformal 95% interval is still finite (its rank ⌈21·0.95⌉ = 20 is
	// within the 20 cross-fitted rows); below 19 it could not be. Below
	// 100 rows the calibration cannot be trusted as it stands, and the
	// recipe widens it and says so (AutoResult.SmallData). Fewer give
	// ErrTooFewRows.
	MinAutoFitRows = 20
	// maxAutoSteps is the most minibatch steps an epoch of AutoFit takes
	// when TrainConfig.BatchSize is 0 (autoBatch).
	maxAutoSteps = 1024
	// minCalibrationRows is the fewest held-out rows that calibrate a
	// model by themselves: with twice as many held out (5000 rows and more
	// at the default share), half of them are kept from selection and
	// early stopping and calibrate the returned model itself, in place of
	// the cross-fitted folds (folds). The folds train five more models of
	// the chosen kind, four times the ensemble's work, and more than the
	// search and the ensemble together (57–69% of a fit's work on
	// Kin8nm's and Power's 8,000–9,000 rows); with the architecture
	// stage's deeper heads, six to eleven times more again. On 250 rows a
	// variance factor is known to about 9% (its relative sd is √(2/n) for
	// Gaussian residuals), the interval's width to 4.5%, and a 95%
	// coverage to about 1.4 points; the folds stay for smaller data,
	// where each row counts and training is cheap.
	minCalibrationRows = 250
	// searchHalvings is the number of rounds of successive halving.
	searchHalvings = 3
	// searchEta is successive halving's ratio: each round keeps the best
	// third of the candidates and trains them three times as long.
	searchEta = 3
)

// AutoProgress reports AutoFit's progress in each of its phases: a round
// of the search, an epoch of the ensemble, or an epoch of the calibration
// folds (Phase says which).
type AutoProgress struct {
	Phase AutoPhase
	// Transform is the target transform of the run under way: the
	// search runs once for each of AutoOptions.TargetTransforms, the
	// ensemble and the calibration for the one kept.
	Transform TargetTransform
	// Done of Total is how far the phase has come, in its units
	// (AutoPhase).
	Done, Total int
	Round       int     // the search's round, 1-based; 0 in the other phases
	Epochs      int     // the epoch budget of a search round; the ensemble's epoch
	Candidates  int     // candidates trained in a search round
	BestValNLL  float64 // the best held-out NLL of the search or the ensemble so far
	// Marginal is, for several targets, 1 + the index of the target
	// whose one-target recipe made the report (run for the copula law:
	// AutoOptions.Laws), and 0 for the joint network's recipe, which
	// reports first: each recipe's reports come after those of the
	// recipes before it, in the order of the targets, though they train
	// side by side.
	Marginal int
}

// AutoResult describes the model AutoFit returns.
type AutoResult struct {
	LearningRate, Dropout float64
	// Hidden is the chosen architecture, the hidden layers of each head
	// (Config.Hidden), and ScaleWeighting the chosen
	// TrainConfig.ScaleWeighting.
	Hidden         []int
	ScaleWeighting float64
	// Epoch is the epoch whose parameters the model holds, chosen by
	// early stopping; EpochsRun the epochs its run trained in all (for an
	// ensemble, the ensemble's run after the search). An ensemble's mean
	// heads are those of MeanEpoch instead, the epoch of its lowest
	// held-out squared error from Epoch on (0 for a single network, whose
	// heads are all Epoch's).
	Epoch, EpochsRun, MeanEpoch int
	// Diverged names, in the order tried, the settings of the search's
	// winner and runners-up, and then of the winner at a third, a ninth
	// and a twenty-seventh of its learning rate, whose ensemble diverged
	// (a step would have made it non-finite, ErrDiverged) before the
	// ensemble of the settings above trained; nil where the winner's
	// trained. The search's one network of those settings survived its
	// initial weights, and five networks of other weights need not.
	Diverged []string
	// CVNLL estimates the mean negative log predictive density on new
	// data, in original units, and CVCoverage95 the share of new targets
	// inside their central 95% calibrated interval, from CVRows rows that
	// the scoring model neither trained on nor was chosen by, calibrated
	// as the returned model is: with CVFolds = 5, cross-fitted (each row
	// scored by a fold model of the chosen settings that did not train on
	// it), or with CVFolds = 0, on the calibration half of the held-out
	// rows of a large data set (500 held-out rows or more), by the returned
	// model itself. NaN if no model could score them.
	CVNLL, CVCoverage95 float64
	CVRows, CVFolds     int
	// VarScale and CorrectedScale are the calibration factors fitted to
	// those predictions (Model.VarScale, Model.CorrectedScale); 1 if no
	// model could score them. For several targets, CorrectedScale is the
	// scale of the calibrated joint region, a multivariate t
	// (MultiPrediction.RegionScale and RegionNu), and VarScale 1, CVNLL
	// the joint NLL, and CVCoverage95 the share inside the calibrated 95%
	// region, each row judged by a region fitted without it.
	VarScale, CorrectedScale float64
	// RegionNu is, for several targets, the degrees of freedom of the
	// calibrated joint region (MultiPrediction.RegionNu): +Inf where it
	// is the Gaussian, or where no model could score the rows; 0 for one
	// target.
	RegionNu float64
	// TargetScales is, for several targets, the factor by which the
	// calibration multiplied each target's variance, fitted to its own
	// marginal on the rows that calibrate the joint region, as VarScale is
	// for one target (the square of the factor on the target's row of the
	// Cholesky factor, which the model's heads hold), fitted for a target
	// on a lattice by the probability of each value's lattice cell (the
	// value ± half the spacing) rather than by a density; nil for one
	// target, or where no model could score the rows.
	TargetScales []float64
	// SmallData is, when the data had fewer rows than the calibration
	// can be trusted on, that number of rows (100), and 0 otherwise.
	// Below it the variance scale, fitted to so few cross-fitted
	// residuals, is itself uncertain, and the recipe widens the variance
	// (VarScale) to the upper end of the scale's 90% confidence interval:
	// a factor of 1.33 on 50 rows, 1.61 on 20. On synthetic data sets of
	// three shapes the calibrated 95% interval then covered 0.961 of new
	// rows on average at 50 rows and 0.945 at 20, and fewer than 0.90 on
	// 6% of the data sets at 50 rows and 16% at 20: with so few rows, one
	// data set's intervals can still be far off, as a warning should say.
	// The conformal interval keeps its own finite-sample guarantee. For
	// several targets the calibrated joint region's scale is widened in
	// the same way, by the confidence bound of the degrees of freedom
	// the rows give it (d a row for Gaussian targets, fewer for heavy
	// tails), and the conformal joint region is left as it is.
	SmallData int
	// Quantum is the spacing of the lattice the targets lie on, whose
	// training targets were dequantized (see AutoFit), or 0. For several
	// targets it is 0, and Quanta holds each target's spacing in the
	// order of the targets, 0 for a continuous one, each target
	// dequantized on its own; Quanta is nil when no target lies on a
	// lattice, as it is for one target.
	Quantum float64
	Quanta  []float64
	// TrainRows and ValRows are how many rows trained and how many were
	// held out; Candidates how many hyperparameter pairs were tried.
	TrainRows, ValRows, Candidates int
	// Transform is the model's target transform (Model.TargetTransform)
	// and why it was chosen: the targets' skewness and, where the recipe
	// compared more than one transform, the cross-fitted scores of each
	// transform's search winner. The other fields describe the model
	// kept.
	//
	// For several targets, Transform.Transform is TransformLog where any
	// target is logged, and, where the recipe compared the screened
	// targets logged with none, Transform.CVNLL holds the two searches'
	// cross-fitted joint NLLs in original units (CVRMSE is unused, 0);
	// Transforms then says, target by target, which transform the model
	// has (Model.TargetTransforms) and why, with CVNLL and CVRMSE the
	// target's marginal scores under each search's winner.
	Transform  TransformChoice
	Transforms []TransformChoice
	// Law is, for several targets, the model's joint law and why it was
	// chosen (LawChoice): the joint network, or the one-target models of
	// the targets joined by a Gaussian copula. Where it is the copula,
	// Margins holds each target's one-target AutoResult in the order of
	// the targets, what AutoFit of that target alone returns, and of the
	// fields above those of a search (LearningRate, Dropout, Hidden,
	// ScaleWeighting, Epoch, EpochsRun, MeanEpoch, Diverged, Candidates,
	// TargetScales) are zero; CVNLL is the copula's cross-fitted joint
	// NLL, CorrectedScale and RegionNu the scale and degrees of freedom
	// of its calibrated region, fitted to the rows' uᵀR⁻¹u as the joint
	// t's to its distances, CVCoverage95 that region's share, VarScale
	// 1, Quanta, Transform and Transforms gathered from the margins', and
	// TrainRows, ValRows, CVRows, CVFolds and SmallData theirs, which
	// all share. Margins is nil for the joint network.
	Law     LawChoice
	Margins []AutoResult
}

// JointLaw is the law of a model of several targets.
type JointLaw uint8

const (
	// LawJoint is the joint network's: the multivariate Student t of the
	// normal-Wishart GCP network (docs/multivariate.md), or for
	// LossGaussianML the full-covariance Gaussian.
	LawJoint JointLaw = iota
	// LawCopula is each target's one-target model, joined by a Gaussian
	// copula of a constant correlation matrix R (docs/multivariate.md,
	// Sec. 12): every marginal that of its one-target model.
	LawCopula
)

// String returns "joint" or "copula".
func (l JointLaw) String() string {
	switch l {
	case LawJoint:
		return "joint"
	case LawCopula:
		return "copula"
	}
	return fmt.Sprintf("JointLaw(%d)", uint8(l))
}

// LawChoice says which joint law AutoFit gave a model of several
// targets, and why (AutoResult.Law).
type LawChoice struct {
	Law JointLaw
	// Compared reports that both laws were fitted and scored on the same
	// CVRows rows that calibrate them, cross-fitted (or the calibration
	// half of a large hold-out), and Law kept as the one of the lower
	// joint NLL there, except that the joint network is kept only where
	// no target's RMSE there is more than 5% above the copula's, whose
	// means are the one-target models' own. CVNLL holds each law's joint
	// NLL, in original units, indexed by law: the joint network's (its
	// AutoResult.CVNLL), and the copula's, its marginals' NLLs (each
	// one-target AutoResult.CVNLL's rows) less Gain. CVRMSE holds each
	// law's RMSE of every target there, in original units, indexed by
	// law and then target; nil where the laws were not compared.
	Compared bool
	CVNLL    [2]float64
	CVRMSE   [2][]float64
	CVRows   int
	// Shrinkage is the copula's λ, R = (1−λ)·C + λ·I with C the
	// correlation of the rows' normal scores, chosen by five-fold
	// cross-validation of the copula's likelihood on them; Gain is G,
	// the mean log density of the copula at a row's normal scores,
	// estimated by nested cross-validation (each fold scored under an R
	// and a λ fitted to the others): what the copula adds to the product
	// of its marginals, in nats a row. Both 0 where no copula was fitted.
	Shrinkage, Gain float64
	// Failed is, where one law could not be fitted or the laws not
	// compared (a target's one-target recipe, or the joint network's,
	// failed; no row was calibrated by every recipe; the copula model
	// could not be built), why; Law is then the other, or the joint
	// network where both were fitted. Empty otherwise.
	Failed string
}

// jointMeanTolerance is how much larger than its one-target model's a
// target's cross-fitted RMSE under the joint network may be for the
// joint network to be kept: 5%, what issue 34 allows a joint model's
// means to lose against one model per target. The copula's means are the
// one-target models' own, so the copula never loses them; the joint
// network, whose shared trunk and heads trade one target's mean against
// the joint density, may (on oes97, up to 10% on the test rows of a
// split where its joint NLL was lower).
const jointMeanTolerance = 1.05

// String says which law was kept and why, in a sentence.
func (c LawChoice) String() string {
	switch {
	case c.Failed != "":
		return fmt.Sprintf("the %s law: the other could not be fitted (%s)", c.Law, c.Failed)
	case !c.Compared:
		return fmt.Sprintf("the %s law, fixed", c.Law)
	}
	why := "the lower kept"
	worst, at := c.worstRMSERatio()
	if c.Law == LawCopula && c.CVNLL[LawJoint] <= c.CVNLL[LawCopula] {
		why = fmt.Sprintf("the copula kept: the joint network's means of target %d are %.4g× the one-target model's RMSE, above %.3g×", at, worst, jointMeanTolerance)
	}
	return fmt.Sprintf("the %s law: cross-fitted joint NLL %.4g under the joint network, %.4g under the Gaussian copula of the one-target models (on %d rows; λ %.3g, the copula's gain %.4g nats a row; the joint network's RMSE at most %.4g× the one-target models'), %s",
		c.Law, c.CVNLL[LawJoint], c.CVNLL[LawCopula], c.CVRows, c.Shrinkage, c.Gain, worst, why)
}

// worstRMSERatio returns the largest ratio over the targets of the joint
// network's CVRMSE to the copula's, and its target (NaN and −1 where
// none was scored; a NaN ratio is the largest, and equal RMSEs, 0 or
// +Inf under both laws too, are a ratio of 1).
func (c LawChoice) worstRMSERatio() (float64, int) {
	worst, at := math.NaN(), -1
	for j, e := range c.CVRMSE[LawJoint] {
		r := e / c.CVRMSE[LawCopula][j]
		if e == c.CVRMSE[LawCopula][j] { // 0/0 and Inf/Inf too: the same means
			r = 1
		}
		if at < 0 || !math.IsNaN(worst) && !(r <= worst) {
			worst, at = r, j
		}
	}
	return worst, at
}

// validate checks the options after their defaults are filled in and
// returns an error wrapping ErrConfig that names the first bad field: an
// empty or oversized grid, a scale weighting outside [0, 1], a learning
// rate that is not finite and positive (0 would train at TrainConfig's
// default and report 0), a dropout rate outside [0, 1), an unknown or
// repeated target transform, a ValidationShare outside (0, 1), and a
// MaxEpochs, Patience or Workers below 0 or above its bound.
func (o AutoOptions) validate() error {
	if len(o.LearningRates) == 0 || len(o.Dropouts) == 0 || len(o.Architectures) == 0 || len(o.ScaleWeightings) == 0 ||
		o.TargetTransforms != nil && len(o.TargetTransforms) == 0 || o.Laws != nil && len(o.Laws) == 0 {
		return fmt.Errorf("%w: AutoOptions: an empty grid", ErrConfig)
	}
	// Each factor is at most maxCandidates, so that the product of four
	// cannot overflow an int before the comparison.
	n := 1
	for _, k := range [...]int{len(o.LearningRates), len(o.Dropouts), len(o.Architectures), len(o.ScaleWeightings)} {
		if n = n * min(k, maxCandidates+1); n > maxCandidates {
			return fmt.Errorf("%w: AutoOptions: %d learning rates × %d dropout rates × %d architectures × %d scale weightings, want at most %d candidates",
				ErrConfig, len(o.LearningRates), len(o.Dropouts), len(o.Architectures), len(o.ScaleWeightings), maxCandidates)
		}
	}
	for i, l := range o.Laws {
		if l > LawCopula || slices.Contains(o.Laws[:i], l) {
			return fmt.Errorf("%w: AutoOptions.Laws[%d] = %v, want joint or copula, each once", ErrConfig, i, l)
		}
	}
	for i, t := range o.TargetTransforms {
		if t > TransformLog || slices.Contains(o.TargetTransforms[:i], t) {
			return fmt.Errorf("%w: AutoOptions.TargetTransforms[%d] = %v, want none or log, each once", ErrConfig, i, t)
		}
	}
	for i, b := range o.ScaleWeightings {
		if err := checkScaleWeighting(b); err != nil {
			return fmt.Errorf("AutoOptions.ScaleWeightings[%d]: %w", i, err)
		}
	}
	for i, lr := range o.LearningRates {
		if !positiveFinite(lr) {
			return fmt.Errorf("%w: AutoOptions.LearningRates[%d] = %v, want finite and > 0", ErrConfig, i, lr)
		}
	}
	for i, p := range o.Dropouts {
		if !(p >= 0 && p < 1) {
			return fmt.Errorf("%w: AutoOptions.Dropouts[%d] = %v, want [0, 1)", ErrConfig, i, p)
		}
	}
	if !(o.ValidationShare > 0 && o.ValidationShare < 1) {
		return fmt.Errorf("%w: AutoOptions.ValidationShare = %v, want (0, 1)", ErrConfig, o.ValidationShare)
	}
	for _, f := range [...]struct {
		name   string
		v, max int
	}{{"MaxEpochs", o.MaxEpochs, maxEpochs}, {"Patience", o.Patience, maxEpochs}, {"Workers", o.Workers, maxWorkers}} {
		if f.v < 0 || f.v > f.max {
			return fmt.Errorf("%w: AutoOptions.%s = %d, want 0..%d", ErrConfig, f.name, f.v, f.max)
		}
	}
	return nil
}

// AutoPhase names a stage of AutoFit, as AutoProgress reports it.
type AutoPhase int

const (
	// PhaseSearch is a round of the successive-halving search: Done of
	// Total rounds.
	PhaseSearch AutoPhase = iota
	// PhaseEnsemble is an epoch of the ensemble's run (Config.Members >
	// 1), while the calibration folds train behind it: Done epochs of at
	// most Total, which early stopping usually cuts short.
	PhaseEnsemble
	// PhaseCalibration is the cross-fitted calibration: Done of the Total
	// epochs its five fold models train, once Total is known (after the
	// search for a single network, after the ensemble's run for an
	// ensemble, which the folds have followed some way already). Where
	// the recipe compares target transforms, each transform's search is
	// followed by the single-network folds that score its winner, which
	// are a single network's calibration too.
	PhaseCalibration
)

// String returns the phase's name: "search", "ensemble" or "calibration".
func (p AutoPhase) String() string {
	switch p {
	case PhaseEnsemble:
		return "ensemble"
	case PhaseCalibration:
		return "calibration"
	}
	return "search"
}
