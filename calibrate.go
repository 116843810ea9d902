package gcp

import (
	"fmt"
	"math"
	"slices"

	"github.com/gcpnet/gcp/internal/robust"
)

// The calibrated predictive of a Prediction is the Gaussian
// N(Mean, VarCorrected): the outlier-corrected variance Ṽ_est of the
// paper's Definition 3.1 (Eq. (2.18)),
// which estimates the noise of the clean part of the
// data. Where the training targets held outliers, α stays small and the
// Student-t predictive (2α degrees of freedom) has heavy tails and a variance inflated by
// them, so its central intervals are too wide for clean points; the
// corrected variance removes that inflation (Sec. 6.3). On
// clean data α grows, A(α) → 1, and the two predictives agree. Under a
// TargetTransform the Gaussian is that of the modeled target z,
// N(ZMean, ZVarCorrected), and the calibrated predictive of y is its
// image (a log-normal for TransformLog), as Prediction.Transform says.

// CalibratedLogPDF returns the log density of the calibrated predictive
// N(Mean, VarCorrected) at y.
func (p Prediction) CalibratedLogPDF(y float64) float64 {
	if p.given.on() {
		q := p.calibratedLaw()
		return q.CalibratedLogPDF(y)
	}
	if p.Transform != TransformNone {
		return p.transformedLogPDF(y, Prediction.CalibratedLogPDF)
	}
	return normal{p.Mean, p.VarCorrected}.logPDF(y)
}

// CalibratedCDF returns P(Y ≤ y) under the calibrated predictive
// N(Mean, VarCorrected).
func (p Prediction) CalibratedCDF(y float64) float64 {
	if p.given.on() {
		q := p.calibratedLaw()
		return q.CalibratedCDF(y)
	}
	if p.Transform != TransformNone {
		return p.transformedCDF(y, Prediction.CalibratedCDF)
	}
	return normal{p.Mean, p.VarCorrected}.cdf(y)
}

// CalibratedQuantile returns the y with CalibratedCDF(y) = prob, for prob
// in (0, 1); ErrProbability otherwise.
func (p Prediction) CalibratedQuantile(prob float64) (float64, error) {
	if !(prob > 0 && prob < 1) {
		return 0, ErrProbability
	}
	if p.given.on() {
		q := p.calibratedLaw()
		return q.CalibratedQuantile(prob)
	}
	if p.Transform != TransformNone {
		return p.transformedQuantile(prob, Prediction.CalibratedQuantile)
	}
	return normal{p.Mean, p.VarCorrected}.quantile(prob), nil
}

// CalibratedInterval returns the central interval of the calibrated
// predictive N(Mean, VarCorrected) that holds probability level, for
// level in (0, 1); ErrLevel otherwise. Use it, rather than Interval, for
// intervals meant to cover clean targets at their nominal rate when the
// training data may have held outliers. The upper bound mirrors the
// lower one about the mean, as Interval's does, unless a Transform maps
// both bounds back from z.
//
// For an input that holds a code no training row had (InputZ is +Inf: a
// level of a text column that training never saw) the interval is
// unknown, and its bounds are −Inf and +Inf (under a Transform, their
// images: 0 and +Inf for TransformLog). The calibration was measured on
// rows of known levels and says nothing of such a row: on a table whose
// test rows held a colour absent from training, with an effect of its own,
// the 95% intervals of those rows held 24% of their targets.
func (p Prediction) CalibratedInterval(level float64) (lo, hi float64, err error) {
	if p.given.on() {
		q := p.calibratedLaw()
		return q.CalibratedInterval(level)
	}
	if p.Transform != TransformNone {
		return p.transformedInterval(level, Prediction.CalibratedInterval)
	}
	if p.unknown() {
		return unknownInterval(level)
	}
	return centralInterval(level, p.Mean, p.CalibratedQuantile)
}

// scaleVariance returns p with its predictive variance multiplied by c:
// β, and with it Var and VarCorrected, for a GCP prediction; Var and its
// parts for a Gaussian one; for an ensemble the whole mixture, scaled
// about its mean by √c, as mixRows applies the model's VarScale.
func (p Prediction) scaleVariance(c float64) Prediction {
	p.Beta *= c
	p.Var *= c
	p.VarCorrected *= c
	p.VarAleatoric *= c
	p.VarEpistemic *= c
	if comps := p.mixture(); comps != nil {
		r := math.Sqrt(c)
		for i := range comps {
			comps[i].Mean = p.Mean + r*(comps[i].Mean-p.Mean)
			comps[i].Scale *= r
		}
	}
	return p
}

// VarScale returns the factor by which the model multiplies its
// predictive variance: 1 unless Calibrate, SetVarScale or AutoFit set it.
// For a GCP model it scales β, so the Student-t scale, Var, VarCorrected
// and both predictives' intervals widen by its square root alike. A nil
// model's is 1.
func (m *Model[T]) VarScale() float64 {
	if m == nil {
		return 1
	}
	return m.varScale
}

// SetVarScale sets the factor by which the model multiplies its predictive
// variance. It returns ErrNonFinite unless c is positive and finite, and
// ErrConfig for a nil model. It must not run beside prediction or any
// other method on m (see Model). A model whose law is the Gaussian copula
// of one-target models has no predictive variance of its own (its
// marginals' are theirs): it returns an error wrapping ErrConfig.
func (m *Model[T]) SetVarScale(c float64) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if m.margins != nil {
		return errCopula("SetVarScale")
	}
	if !positiveFinite(c) {
		return ErrNonFinite
	}
	m.varScale = c
	return nil
}

// CorrectedScale returns the factor by which the model multiplies its
// corrected variance, on top of VarScale: 1 unless Calibrate,
// SetCorrectedScale or AutoFit set it. It scales VarCorrected, and so the
// calibrated predictive, alone. A nil model's is 1.
func (m *Model[T]) CorrectedScale() float64 {
	if m == nil {
		return 1
	}
	return m.corrScale
}

// SetCorrectedScale sets the factor by which the model multiplies its
// corrected variance. It returns ErrNonFinite unless c is positive and
// finite, and ErrConfig for a nil model. It must not run beside
// prediction or any other method on m (see Model). For a model of
// several targets it is the calibrated joint region's scale
// (MultiPrediction.RegionScale), under the joint t and the copula alike.
func (m *Model[T]) SetCorrectedScale(c float64) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if !positiveFinite(c) {
		return ErrNonFinite
	}
	m.corrScale = c
	return nil
}

// Calibrate fits the model's two calibration factors to the held-out
// row-major inputs x and targets y (rows the model was not trained on),
// sets them and returns them. First VarScale, by maximum likelihood of
// the Student-t predictive (Gaussian for the comparator losses), which
// corrects a model that is over- or under-confident everywhere alike, as
// early stopping on a small validation set may leave it. Then
// CorrectedScale, by the Gaussian likelihood of the calibrated predictive
// N(Mean, VarCorrected) on the points within five of its standard
// deviations, so that gross outliers among the
// held-out targets cannot widen the intervals meant for clean ones. A
// comparator (Loss other than LossGCP) has no corrected variance and
// keeps CorrectedScale. The same rows become the model's conformal
// calibration (Model.ConformalInterval), with the split-conformal
// guarantee if they played no part in training or choosing the model.
// Errors are those of PredictBatch, ErrShape for no rows, and
// ErrNonFinite for a NaN or ±Inf target; on error the model is unchanged.
//
// Calibrate must not run beside prediction, or any other method on m: it
// writes the two factors that every prediction reads, a data race with a
// concurrent Predict (see Model). To recalibrate a model that serves
// predictions, calibrate a Clone and publish it.
//
// A model whose law is the Gaussian copula of one-target models returns
// an error wrapping ErrConfig: its marginals are calibrated each by its
// own.
func (m *Model[T]) Calibrate(x, y []T) (varScale, corrScale float64, err error) {
	if m != nil && m.margins != nil {
		return 0, 0, errCopula("Calibrate")
	}
	if m == nil || m.lay == nil {
		return 0, 0, fmt.Errorf("%w: the model is nil or was not built by New", ErrConfig)
	}
	if len(y) == 0 || len(x) != len(y)*m.cfg.Inputs {
		return 0, 0, ErrShape
	}
	if !m.k.allFinite(y) {
		return 0, 0, ErrNonFinite
	}
	preds, err := m.predictAll(x)
	if err != nil {
		return 0, 0, err
	}
	vs, cs := fitScales(preds, y, m.cfg.Loss.gaussian())
	vs, cs = m.varScale*vs, m.corrScale*cs
	if !positiveFinite(vs) || !positiveFinite(cs) {
		return 0, 0, ErrNonFinite
	}
	m.varScale, m.corrScale = vs, cs
	m.ext.conformal = newConformalScores(preds, y)
	return vs, cs, nil
}

// fitScales fits the two calibration factors to the predictions preds of
// the targets y, as Calibrate describes, and calibrates preds with them:
// first the variance scale, by the likelihood of the predictive (Student
// t, or Gaussian for a comparator), then, for a GCP model, the corrected
// variance's scale, by the sigma-clipped Gaussian likelihood of the
// calibrated predictive. A comparator's corrected scale is 1.
func fitScales[T Float](preds []Prediction, y []T, gaussian bool) (varScale, corrScale float64) {
	varScale, corrScale = calibrateVarScale(preds, y), 1
	for i := range preds {
		preds[i] = preds[i].scaleVariance(varScale)
	}
	if !gaussian {
		corrScale = calibrateCorrected(preds, y)
		for i := range preds {
			preds[i].VarCorrected *= corrScale
		}
	}
	return varScale, corrScale
}

// calibrateVarScale returns the factor c on the predictive variance of
// preds that maximizes the likelihood of the targets y, found by golden-
// section search on ln c over [−calibrationRange, calibrationRange]. The
// negative log likelihood is convex in ln c for a Gaussian predictive and
// unimodal in practice for the Student-t; the bracket caps the correction
// at a factor of e^±calibrationRange, so one wild validation point cannot
// send it to 0 or ∞.
func calibrateVarScale[T Float](preds []Prediction, y []T) float64 {
	nll := func(u float64) float64 {
		c := math.Exp(u)
		var s float64
		for i, p := range preds {
			s -= p.scaleVariance(c).LogPDF(float64(y[i]))
		}
		return s
	}
	return math.Exp(goldenSection(nll, -calibrationRange, calibrationRange))
}

// goldenSection returns the midpoint of the bracket, narrowed to 1e-6, in
// which golden-section search on [lo, hi] finds the minimum of f, a NaN
// of f counting as larger than any number.
func goldenSection(f func(float64) float64, lo, hi float64) float64 {
	const invPhi = 0.6180339887498949 // (√5 − 1)/2
	a, b := hi-invPhi*(hi-lo), lo+invPhi*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > 1e-6 {
		if fa <= fb || math.IsNaN(fb) {
			hi, b, fb = b, a, fa
			a = hi - invPhi*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + invPhi*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}

// calibrateCorrected returns the factor c on the corrected variances of
// preds that makes the calibrated predictive N(Mean, c·VarCorrected) fit
// the clean part of the targets y: the Gaussian maximum-likelihood
// c = mean z² of the standardized squared residuals z² =
// (y−Mean)²/VarCorrected, taken over the points within
// outlierSigma standard deviations (sigma clipping). It starts from the
// median of z² over its value for a standard normal, which a minority of
// gross outliers cannot move far, and alternates clipping and refitting
// until the kept set stops changing. Residuals of a few standard
// deviations, as heavy-tailed clean data has, stay in the fit, so its
// intervals keep their coverage there; gross outliers, which the
// calibrated predictive leaves out by design, do not inflate it.
func calibrateCorrected[T Float](preds []Prediction, y []T) float64 {
	z2 := make([]float64, 0, len(preds))
	for i, p := range preds {
		r := float64(y[i]) - p.Mean
		if v := r * r / p.VarCorrected; finite(v) {
			z2 = append(z2, v)
		}
	}
	if len(z2) == 0 {
		return 1
	}
	sorted := slices.Clone(z2)
	slices.Sort(sorted)
	c := robust.Quantile(sorted, 0.5) / chiSquare1Median
	for range 50 {
		var sum float64
		var kept int
		for _, v := range z2 {
			if v <= outlierSigma*outlierSigma*c {
				sum, kept = sum+v, kept+1
			}
		}
		next := sum / float64(kept)
		if kept == 0 || !positiveFinite(next) {
			break
		}
		if next == c {
			break
		}
		c = next
	}
	if !positiveFinite(c) {
		return 1
	}
	return c
}

// chiSquare1Median is the median of a χ² variable with one degree of
// freedom, (Φ⁻¹(¾))²: the median of z² for standard normal z.
const chiSquare1Median = 0.45493642311957283

// outlierSigma is the cut of calibrateCorrected's sigma clipping: a clean
// Gaussian point lies beyond 5 standard deviations with probability
// 5.7e-7, so the clip removes gross outliers and nothing else.
const outlierSigma = 5

// calibrationRange bounds |ln c| of the variance scale: a factor of
// e^4.6 ≈ 100 either way, far beyond what a trained model needs.
const calibrationRange = 4.6

// predictAll returns the predictions of the row-major rows x, of the
// target the network models (TargetTransform).
func (m *Model[T]) predictAll(x []T) ([]Prediction, error) {
	preds := make([]Prediction, len(x)/m.cfg.Inputs)
	if err := m.predictModeled(m.NewWorkspace(), x, preds); err != nil {
		return nil, err
	}
	return preds, nil
}

// predictSet returns the predictions of the rows of set, of the target the
// network models (TargetTransform), gathered workspaceRows at a time.
func (m *Model[T]) predictSet(set rowSet[T]) ([]Prediction, error) {
	d, n := m.cfg.Inputs, set.len()
	preds := make([]Prediction, n)
	ws := m.NewWorkspace()
	xb, yb := make([]T, workspaceRows*d), make([]T, workspaceRows)
	for s := 0; s < n; s += workspaceRows {
		k := min(workspaceRows, n-s)
		set.gather(s, k, xb, yb)
		if err := m.predictModeled(ws, xb[:k*d], preds[s:s+k]); err != nil {
			return nil, err
		}
	}
	return preds, nil
}
