// Package gcp implements gradient conjugate prior (GCP) networks: small
// multi-layer perceptrons that map an input x to the four parameters
// (m, α, β, ν) of a normal-gamma prior over the mean and precision of a
// Gaussian target y (Gurevich & Stuke, "Gradient conjugate priors and
// multi-layer neural networks", arXiv:1802.02643,
// https://arxiv.org/abs/1802.02643; Artificial Intelligence 278 (2020)
// 103184). Every prediction carries its own
// uncertainty: a mean, a variance, an outlier-corrected variance, the trust
// signal α, and the full Student-t predictive distribution.
//
// Training is the GCP update: a gradient step on the KL divergence from the
// posterior after observing y, held frozen, to the prior. By the paper's
// Lemma 2.1 that is a step on −ln t₂α(y | m, β(ν+1)/(να)), the log density
// of the Student t with 2α degrees of freedom, location m and squared
// scale β(ν+1)/(να).
//
// Config.Members makes a model an ensemble of GCP networks, whose
// prediction is the mixture of its members' and adds the model's own
// (epistemic) uncertainty to the noise (Prediction.Disagreement).
//
// A model can also take the records of a real table: LearnEncoding
// learns from the training rows how text columns (one-hot, rare levels
// pooled) and missing values (a median and a missing-value indicator)
// become the network's inputs, and the model keeps that Encoding, so that
// PredictRecord predicts from a record of text by column name exactly as
// the gcp command predicts a row of a CSV file (ParseNumber reads the
// numbers, with a decimal point or comma). LearnEncodingColumns and
// EncodeRow do the same, bit for bit, for a table held by column
// (TableColumn), as a reader of a large file holds it: numbers as
// numbers, in a third of the memory of their text. A TargetTransform lets the
// network model ln y for a positive, skewed target; the model's
// predictions answer in the original units, every interval mapped back
// through exp (none below 0) and the mean that of the calibrated
// log-normal predictive (see Prediction.Transform).
//
// Models hold their parameters in one contiguous []float32 or []float64
// buffer. Prediction and training steps allocate nothing, and prediction
// is safe for concurrent use with one Workspace per goroutine.
package gcp

import (
	"fmt"
	"math"
)

// Limits on a model's values that a mistaken or hostile Config or file
// could push to absurd ones.
const (
	// minFixedAlpha is the smallest Config.FixedAlpha. The corrected
	// variance β(ν+1)/((α − A(α))ν) (Definition 3.1) has α − A(α) ≈
	// (4/π)·α² for small α: at 2⁻³² that is about 6.9e-20, so the
	// corrected variance is at most 2⁶⁴ times what a learned α (α > 1,
	// where α − A(α) > 0.53) gives for the same β and ν, which leaves it
	// finite for every network value below 1e30 and target scale the
	// package allows. Below about 1e-154, α − A(α) underflows to 0: a
	// FixedAlpha of 9e-308, which a saved file could hold, made every
	// prediction fail with ErrNonFinite.
	minFixedAlpha = 0x1p-32
	// maxMCMask bounds the MC-dropout masks of a LossMLBayes model,
	// MCSamples × heads × the last hidden width elements, which a model
	// holds beside its parameters (mcDropoutMasks): 2 MiB as float64, so
	// that a small saved model cannot make the loader allocate thousands
	// of times its size. It allows the paper's 50 samples with up to 2621
	// units in the last hidden layer, and 4096 samples with up to 32.
	maxMCMask = 1 << 18
)

// Config is the shape of a model. The zero values of the optional fields
// select the documented defaults.
type Config struct {
	// Inputs is the number of features D of an input row. Required.
	Inputs int
	// Hidden is the number of units of each hidden layer, per head.
	// Default {50}, the paper's architecture (Sec. 6.4).
	Hidden []int
	// Activation of the hidden layers. Default ReLU.
	Activation Activation
	// Dropout is the rate of inverted dropout between the last hidden layer
	// and the output during training, in [0, 1). Default 0.
	Dropout float64
	// FixedAlpha, when > 0, holds α at that value instead of learning it
	// (Sec. 4); the α head is then not built. It must
	// be at least 2⁻³² (about 2.3e-10): the corrected
	// variance divides by α − A(α), about 1.27α² for small α, and below
	// that bound it would overflow where a learned α's does not.
	FixedAlpha float64
	// Seed fixes the initial weights: the same Config gives a bit-identical
	// model. With LossMLBayes it also fixes the MC-dropout masks.
	Seed uint64
	// Loss selects the training objective and the predictive: LossGCP (the
	// default) or one of the paper's comparators.
	Loss Loss
	// DPDGamma is the density power divergence's γ > 0, for LossDPD only.
	// Default 0.5.
	DPDGamma float64
	// MCSamples is the number of MC-dropout passes per prediction, for
	// LossMLBayes only. Default 50, the paper's choice.
	MCSamples int
	// Members is the number K of networks in the model, 1..20: an
	// ensemble of K independently initialized networks of this shape
	// (the conclusion's "ensembles of GCPs capturing both aleatoric and
	// epistemic uncertainty"), stored in one buffer with their heads
	// stacked, so that one matrix product per layer serves all members.
	// Every member trains on every minibatch (Deep Ensembles' recipe,
	// Lakshminarayanan et al. 2017), each under its own dropout mask, and
	// the model predicts the uniform mixture of the members' predictives
	// (Prediction). Default 1, a single network; AutoFit's default is an
	// ensemble of AutoMembers. With LossGaussianML and K = 5 the model is
	// a Deep Ensemble without adversarial training.
	Members int
	// Targets is the number d of targets a row has, 1..16; 0 means 1.
	// With d ≥ 2 the model is the multivariate GCP network (the paper's
	// Sec. 7, item 1): the prior over the mean vector and precision
	// matrix of a d-dimensional Gaussian target is normal-Wishart, and
	// its predictive a multivariate Student t, whose location, Cholesky
	// factor and degrees of freedom three networks per member give
	// (MultiPrediction). It needs a learned α and LossGCP, or
	// LossGaussianML for the comparator: a full-covariance Gaussian
	// network, N(m, LLᵀ) from the same mean and Cholesky heads, trained
	// by maximum likelihood. The GCP model's mean heads follow each
	// target's own marginal t, so that one target's mean is not pulled
	// by the others' residuals, and its Cholesky and ν heads the joint
	// density.
	Targets int
}

// withDefaults returns c with the defaults filled in and Hidden copied.
func (c Config) withDefaults() Config {
	if len(c.Hidden) == 0 {
		c.Hidden = []int{50}
	} else {
		c.Hidden = append([]int(nil), c.Hidden...)
	}
	if c.Loss == LossDPD && c.DPDGamma == 0 {
		c.DPDGamma = defaultDPDGamma
	}
	if c.Loss == LossMLBayes && c.MCSamples == 0 {
		c.MCSamples = defaultMCSamples
	}
	if c.Members == 0 {
		c.Members = 1
	}
	return c
}

// validate reports the first invalid field as an error wrapping ErrConfig.
func (c Config) validate() error {
	if c.Inputs < 1 || c.Inputs > maxWidth {
		return fmt.Errorf("%w: Inputs = %d, want 1..%d", ErrConfig, c.Inputs, maxWidth)
	}
	if len(c.Hidden) > maxDepth {
		return fmt.Errorf("%w: len(Hidden) = %d, want at most %d", ErrConfig, len(c.Hidden), maxDepth)
	}
	for i, h := range c.Hidden {
		if h < 1 || h > maxWidth {
			return fmt.Errorf("%w: Hidden[%d] = %d, want 1..%d", ErrConfig, i, h, maxWidth)
		}
	}
	if c.Members < 1 || c.Members > MaxMembers {
		return fmt.Errorf("%w: Members = %d, want 1..%d", ErrConfig, c.Members, MaxMembers)
	}
	if err := c.validateTargets(); err != nil {
		return err
	}
	if c.Activation != ReLU && c.Activation != Tanh {
		return fmt.Errorf("%w: Activation = %d, want ReLU or Tanh", ErrConfig, int(c.Activation))
	}
	if !(c.Dropout >= 0 && c.Dropout < 1) {
		return fmt.Errorf("%w: Dropout = %v, want [0, 1)", ErrConfig, c.Dropout)
	}
	if !(c.FixedAlpha == 0 || c.FixedAlpha >= minFixedAlpha && c.FixedAlpha <= math.MaxFloat64) {
		return fmt.Errorf("%w: FixedAlpha = %v, want 0 (learned) or a finite α ≥ 2⁻³²", ErrConfig, c.FixedAlpha)
	}
	if c.Loss < LossGCP || c.Loss > LossMLBayes {
		return fmt.Errorf("%w: Loss = %d, want LossGCP, LossGaussianML, LossDPD or LossMLBayes", ErrConfig, int(c.Loss))
	}
	// A field that the loss ignores must stay zero: setting it is a mistake
	// the caller should hear about.
	if c.FixedAlpha != 0 && c.Loss != LossGCP {
		return fmt.Errorf("%w: FixedAlpha = %v applies to LossGCP only, Loss = %v", ErrConfig, c.FixedAlpha, c.Loss)
	}
	if c.Loss == LossDPD {
		if !(c.DPDGamma > 0 && c.DPDGamma <= maxDPDGamma) {
			return fmt.Errorf("%w: DPDGamma = %v, want (0, %d]", ErrConfig, c.DPDGamma, maxDPDGamma)
		}
	} else if c.DPDGamma != 0 {
		return fmt.Errorf("%w: DPDGamma = %v applies to LossDPD only, Loss = %v", ErrConfig, c.DPDGamma, c.Loss)
	}
	if c.Loss == LossMLBayes {
		if c.MCSamples < 1 || c.MCSamples > maxMCSamples {
			return fmt.Errorf("%w: MCSamples = %d, want 1..%d", ErrConfig, c.MCSamples, maxMCSamples)
		}
		if c.Dropout == 0 {
			return fmt.Errorf("%w: Dropout = 0, LossMLBayes needs a dropout rate for its MC samples", ErrConfig)
		}
		if last := len(c.Hidden) - 1; last >= 0 {
			if n := uint64(c.MCSamples) * uint64(c.heads()) * uint64(c.Hidden[last]); n > maxMCMask {
				return fmt.Errorf("%w: MCSamples = %d with Hidden[%d] = %d needs %d MC-dropout mask elements, want at most %d",
					ErrConfig, c.MCSamples, last, c.Hidden[last], n, maxMCMask)
			}
		}
	} else if c.MCSamples != 0 {
		return fmt.Errorf("%w: MCSamples = %d applies to LossMLBayes only, Loss = %v", ErrConfig, c.MCSamples, c.Loss)
	}
	return nil
}

// maxTargets bounds Config.Targets: the correction c_d is tabulated and
// tested up to d = 16 (mvtMaxDim), and MultiPrediction's methods keep a
// scratch of maxTargets values on the stack.
const maxTargets = mvtMaxDim

// mvNuMin is the least ν of the multivariate t, ν = mvNuMin + softplus(z):
// at ν > 2 the t's own covariance ν/(ν−2)·S exists, as α = 1 + softplus
// keeps the one-dimensional V_est finite (Eq. (5.2)).
const mvNuMin = 2

// validateTargets reports an invalid Targets, or a field that several
// targets do not support, as an error wrapping ErrConfig.
func (c Config) validateTargets() error {
	switch {
	case c.Targets < 0 || c.Targets > maxTargets:
		return fmt.Errorf("%w: Targets = %d, want 0 or 1 (one target) to %d", ErrConfig, c.Targets, maxTargets)
	case c.Targets < 2:
		return nil
	case c.Loss != LossGCP && c.Loss != LossGaussianML:
		return fmt.Errorf("%w: Targets = %d needs LossGCP or LossGaussianML, Loss = %v", ErrConfig, c.Targets, c.Loss)
	case c.FixedAlpha != 0:
		return fmt.Errorf("%w: Targets = %d learns ν, FixedAlpha = %v", ErrConfig, c.Targets, c.FixedAlpha)
	}
	return nil
}

// targets returns the number of targets of a row, at least 1.
func (c Config) targets() int { return max(c.Targets, 1) }

// layout lays out the parameters of the validated c, or reports false if
// they would number more than maxParams.
func (c Config) layout() (*layout, bool) {
	if c.Targets > 1 {
		return multiLayout(c.Inputs, c.Members, c.Targets, c.memberHeads(), c.Hidden)
	}
	return newLayout(c.Inputs, c.Members, c.memberHeads(), c.Hidden)
}

// heads returns the number of raw outputs of all members.
func (c Config) heads() int { return c.Members * c.memberHeads() }

// memberHeads returns the number of head networks of one member: m and
// σ² for the Gaussian losses; the mean, the Cholesky factor and ν for
// several targets (no ν for the Gaussian); else m, β, ν, and α unless
// fixed. Each has one output but the multivariate heads, which have
// several (multiLayout).
func (c Config) memberHeads() int {
	if c.Targets > 1 && c.Loss == LossGaussianML {
		return mvHeadNu
	}
	if c.Targets > 1 {
		return mvHeadKinds
	}
	if c.Loss.gaussian() {
		return 2
	}
	if c.FixedAlpha > 0 {
		return 3
	}
	return 4
}

// Model is a GCP network over element type T: the heads for m, α, β and ν
// (Eq. (2.16)), in one contiguous parameter buffer, and the
// standardization of inputs and target learned by Fit. A model of
// several targets may instead hold one-target models joined by a
// Gaussian copula (copula_model.go), which has no network of its own.
//
// A Model is safe for concurrent prediction, one Workspace per goroutine:
// Predict, PredictBatch and NewWorkspace, and the methods that only read
// it (Config, NumParams, Clone, Standardization, VarScale,
// CorrectedScale, FeatureNames, FeatureRanges, OutsideRange,
// MarshalBinary, WriteTo), may run at the same time as each other. The
// methods that change it (SetStandardization, SetVarScale,
// SetCorrectedScale, Calibrate, SetFeatureNames, UnmarshalBinary,
// ReadFrom, and training by a Trainer: Step, Fit, FitContext) must not
// run at the same time as any other method on the same Model, prediction
// included: every prediction reads what they write. To change a model
// that serves predictions, change a Clone and publish it, for example
// through an atomic.Pointer (see Clone's example).
//
// No method panics on a nil *Model: those that return an error return
// ErrConfig, NumParams returns 0, Config the zero Config, Clone nil,
// NewWorkspace an empty Workspace, Standardization nil maps with the
// identity target map (0, 1), VarScale and CorrectedScale 1,
// FeatureNames and FeatureRanges no names and no ranges, and
// OutsideRange 0 and −1.
type Model[T Float] struct {
	cfg    Config
	lay    *layout
	k      *kernelSet[T]
	params []T
	// mcMask holds the MC-dropout masks of a LossMLBayes model
	// (mcDropoutMasks); read-only once built, so clones share it.
	mcMask []T
	// Standardization: a feature x_j enters the network as
	// (x_j − xMean[j])·xInvScale[j], xInvScale[j] = 1/xScale[j]; the target
	// as (y − yMean)/yScale.
	xMean, xScale, xInvScale []float64
	yMean, yScale            float64
	standardized             bool // set by Fit or SetStandardization
	// varScale multiplies the predictive variance and corrScale, on top
	// of it, the corrected variance (VarScale, CorrectedScale): 1 unless
	// calibrated.
	varScale, corrScale float64
	// What the model remembers of its training data (features.go): the
	// names, nil and "" unless set, and each feature's range over the
	// rows Fit and AutoFit saw, nil if none did.
	featureNames []string
	targetName   string
	xMin, xMax   []float64
	// ext is what format version 5's sections hold (sections.go), such
	// as the target transform.
	ext extensions
	// margins are the d one-target models of a model whose law is the
	// Gaussian copula (copula_model.go, ext.copula R), nil for a network
	// model. Such a model has no network of its own (lay is nil): each
	// marginal predicts its target.
	margins []*Model[T]
}

// New returns a model with the shape of cfg and weights drawn from
// cfg.Seed. An invalid field gives an error that wraps ErrConfig and names
// the field.
func New[T Float](cfg Config) (*Model[T], error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	lay, ok := cfg.layout()
	if !ok {
		return nil, fmt.Errorf("%w: Hidden = %v with Inputs = %d needs more than %d parameters", ErrConfig, cfg.Hidden, cfg.Inputs, maxParams)
	}
	m := newModel[T](cfg, lay)
	initParams(lay, m.params, cfg.Seed)
	return m, nil
}

// newModel returns a model of the validated cfg and its layout, with
// zero parameters and no standardization.
func newModel[T Float](cfg Config, lay *layout) *Model[T] {
	m := &Model[T]{
		cfg: cfg, lay: lay, k: kernelsFor[T](),
		params: make([]T, lay.size),
		xMean:  make([]float64, cfg.Inputs), xScale: make([]float64, cfg.Inputs), xInvScale: make([]float64, cfg.Inputs),
		varScale: 1, corrScale: 1,
	}
	if lay.targets > 1 {
		m.ext.targets = identityTargets(lay.targets)
	}
	m.resetStandardization()
	if cfg.Loss == LossMLBayes {
		m.mcMask = mcDropoutMasks[T](cfg, lay)
	}
	return m
}

// Config returns the model's configuration, defaults filled in. For a
// model whose law is the Gaussian copula of one-target models it is the
// first marginal's with Targets = d (each marginal has its own).
func (m *Model[T]) Config() Config {
	if m == nil {
		return Config{}
	}
	return m.cfg.withDefaults()
}

// NumParams returns the number of parameters; for a model whose law is
// the Gaussian copula of one-target models, the sum of theirs.
func (m *Model[T]) NumParams() int {
	if m == nil {
		return 0
	}
	n := len(m.params)
	for _, g := range m.margins {
		n += g.NumParams()
	}
	return n
}

// Clone returns a deep copy of the model. It may run beside prediction.
// Train or calibrate a clone in the background and publish it (for
// example through an atomic.Pointer) to serve predictions while the
// model changes: the methods that change a model must not run beside
// prediction (see Model).
func (m *Model[T]) Clone() *Model[T] {
	if m == nil {
		return nil
	}
	c := *m
	c.cfg = m.cfg.withDefaults()
	c.params = append([]T(nil), m.params...)
	c.xMean = append([]float64(nil), m.xMean...)
	c.xScale = append([]float64(nil), m.xScale...)
	c.xInvScale = append([]float64(nil), m.xInvScale...)
	c.featureNames = append([]string(nil), m.featureNames...)
	c.xMin, c.xMax = append([]float64(nil), m.xMin...), append([]float64(nil), m.xMax...)
	if m.xMin == nil {
		c.xMin, c.xMax = nil, nil
	}
	if m.margins != nil {
		c.margins = make([]*Model[T], len(m.margins))
		for j, g := range m.margins {
			c.margins[j] = g.Clone()
		}
	}
	return &c
}

// mcDropoutMasks returns the MCSamples inverted-dropout masks of a
// LossMLBayes model, one row of width(last) each, drawn from cfg.Seed: the
// same masks serve every input, so a prediction is reproducible and does
// not depend on the batch it is part of. Each draw decides two units by
// its 32-bit halves, as when the saved models were written: a model
// read back predicts what it predicted.
func mcDropoutMasks[T Float](cfg Config, l *layout) []T {
	mask := make([]T, cfg.MCSamples*l.width(l.last()))
	src := newPCG(cfg.Seed, mcDropoutStream)
	dropoutMask32(&src, cfg.Dropout, mask)
	return mask
}

// resetStandardization sets the identity maps of a new model: centres 0,
// scales 1, not yet standardized, no bound on the inputs.
func (m *Model[T]) resetStandardization() {
	clear(m.xMean)
	for j := range m.xScale {
		m.xScale[j], m.xInvScale[j] = 1, 1
	}
	m.yMean, m.yScale, m.standardized = 0, 1, false
	m.ext.inputBound = 0
	if t := m.ext.targets; t != nil {
		m.ext.targets = identityTargets(len(t.scales))
	}
}

// extensions is what version 5's sections hold: a model's state beyond
// the fields of version 4. Its zero value is a model with none of it.
type extensions struct {
	transform TargetTransform
	encoding  *Encoding // nil: the inputs are the features as they are
	// conformal is the conformal calibration (conformal.go), nil if none;
	// replaced, never changed in place, so clones share it.
	conformal *conformalScores
	// targets standardizes each of several targets; nil for one target.
	// Replaced, never changed in place, so clones share it.
	targets *targetMaps
	// region is the calibrated and conformal joint region of several
	// targets beyond its scale (corrScale); nil for the Gaussian region and
	// no conformal calibration. Replaced, never changed in place.
	region *jointRegion
	// transforms is each of several targets' transform
	// (Model.TargetTransforms), all TransformNone where none is.
	transforms [maxTargets]TargetTransform
	// inputBound is the bound on the standardized inputs (inputbound.go),
	// 0 for none.
	inputBound float64
	// copula is the Gaussian copula of a model of several targets whose
	// law joins one-target models (Model.margins), nil for a network
	// model. Replaced, never changed in place.
	copula *copulaLaw
}

// copulaLaw is what a copula model keeps of its law beside its marginal
// models: R, the copula's correlation matrix, as its packed lower
// Cholesky factor (copula.go), by rows, d(d+1)/2 values, each row of
// unit norm.
type copulaLaw struct {
	chol []float64
	// files are the marginals' saved files, each a whole model: set only
	// on the copy of a model that is being written (copulaFile) and on
	// the one being read (decode), nil on a model.
	files [][]byte
}

// jointRegion is what a model of several targets keeps of its joint
// region's calibration besides the scale: the calibrated t's degrees of
// freedom (calibrateRegion; +Inf for the Gaussian) and the conformal
// calibration of the Mahalanobis distance under Σ̃, nil if none.
type jointRegion struct {
	nu        float64
	conformal *conformalScores
}

// targetMaps are the standardization of several targets: the j-th enters
// the network as (y_j − means[j])/scales[j].
type targetMaps struct{ means, scales []float64 }

// identityTargets returns the identity maps of d targets.
func identityTargets(d int) *targetMaps {
	t := &targetMaps{means: make([]float64, d), scales: make([]float64, d)}
	for j := range t.scales {
		t.scales[j] = 1
	}
	return t
}
