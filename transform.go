package gcp

import (
	"fmt"
	"math"

	"github.com/gcpnet/gcp/internal/robust"
)

// TargetTransform is a monotone map z = g(y) of the target that a model's
// network works in: the network models z, and the model's predictions
// answer in the target's original units y. A positive target that is
// skewed to the right, such as a price, a duration or a concentration, is
// often close to normal on a log scale, where a symmetric predictive fits
// it; on the original scale the same symmetric predictive puts much of its
// lower tail below 0 and misses the long upper one.
//
// A model's transform (Model.SetTargetTransform) is applied to its
// predictions only. What takes targets to learn from, Trainer.Step,
// Trainer.Fit, AutoFit and Model.Calibrate, takes them transformed: pass
// the values of Apply. Predict, PredictBatch, PredictRecord and the
// methods of the Prediction they return work in original units (see
// Prediction.Transform), so that a program that loads the model needs no
// code of its own for it. The transform is saved with the model, in a
// section of format version 5.
type TargetTransform uint8

const (
	// TransformNone models the target as it is.
	TransformNone TargetTransform = iota
	// TransformLog models z = ln y, for positive targets: the predictive
	// of y is that of z mapped through exp, a log-Student-t (or, for the
	// calibrated predictive and the Gaussian comparators, a log-normal),
	// whose every quantile and interval lies above 0.
	TransformLog
)

// String returns "none" or "log".
func (t TargetTransform) String() string {
	switch t {
	case TransformNone:
		return "none"
	case TransformLog:
		return "log"
	}
	return fmt.Sprintf("TargetTransform(%d)", uint8(t))
}

// Apply returns z = g(y), the target as the network models it. It
// returns an error wrapping ErrDomain for a y outside the transform's
// domain (y ≤ 0 or NaN for TransformLog), and ErrConfig for an unknown
// transform.
func (t TargetTransform) Apply(y float64) (float64, error) {
	switch t {
	case TransformNone:
		return y, nil
	case TransformLog:
		if !(y > 0) {
			return 0, fmt.Errorf("%w: %g, the log transform takes positive targets only", ErrDomain, y)
		}
		return math.Log(y), nil
	}
	return 0, fmt.Errorf("%w: TargetTransform(%d)", ErrConfig, uint8(t))
}

// invert returns y = g⁻¹(z).
func (t TargetTransform) invert(z float64) float64 {
	if t == TransformLog {
		return math.Exp(z)
	}
	return z
}

// forward returns z = g(y) for a y in the transform's domain, and
// false for any other y, outside the support of the predictive.
func (t TargetTransform) forward(y float64) (float64, bool) {
	if t == TransformLog {
		return math.Log(y), y > 0
	}
	return y, true
}

// logJacobian returns ln g′(y) at z = g(y): the term that turns a log
// density of z into one of y, ln f_Y(y) = ln f_Z(g(y)) + ln g′(y). For
// the log transform g′(y) = 1/y, so it is −z.
func (t TargetTransform) logJacobian(z float64) float64 {
	if t == TransformLog {
		return -z
	}
	return 0
}

// autoLogSkew is the skewness above which ChooseTargetTransform picks the
// log transform for positive targets. A skewness of 1 is the usual mark
// of a highly skewed sample (Bulmer, "Principles of Statistics", 1979):
// beyond it a symmetric predictive puts visible mass where the targets
// are not. The log-normal reaches it at σ ≈ 0.32 in log units, where
// y's largest values are about twice its median.
const autoLogSkew = 1

// TransformChoice is what ChooseTargetTransform chose and why.
type TransformChoice struct {
	Transform TargetTransform
	// Positive reports whether every target is above 0, the log
	// transform's domain.
	Positive bool
	// Skew is the targets' sample skewness, m₃/m₂^{3/2}; LogSkew that of
	// their logarithms, NaN unless Positive.
	Skew, LogSkew float64
}

// String says what was chosen and why, in a few words.
func (c TransformChoice) String() string {
	switch {
	case c.Transform == TransformLog:
		return fmt.Sprintf("log: every target is positive and their skewness %.3g is above %d (%.3g after the log)", c.Skew, autoLogSkew, c.LogSkew)
	case !c.Positive:
		return fmt.Sprintf("none: some targets are not positive (skewness %.3g)", c.Skew)
	case c.Skew < autoLogSkew:
		return fmt.Sprintf("none: the targets' skewness %.3g is below %d", c.Skew, autoLogSkew)
	}
	return fmt.Sprintf("none: the targets' skewness %.3g would be %.3g after the log, no more symmetric", c.Skew, c.LogSkew)
}

// ChooseTargetTransform picks a transform for the training targets y, the
// first step of gcp train's -target-transform auto: TransformLog when
// every target is positive, their skewness is at least 1 (the mark of a
// highly skewed sample) and the log makes them more symmetric (|skewness
// of ln y| below the skewness of y); TransformNone otherwise. Skewness
// says when a log scale may help, not that it will: where the recipe
// cross-fits, gcp train then trains the model both ways and keeps the one
// whose cross-fitted NLL in original units (AutoResult.CVNLL plus the
// mean of ln y) is lower. Pass the training rows' targets only, never
// those of rows held out to test on.
func ChooseTargetTransform(y []float64) TransformChoice {
	c := TransformChoice{Positive: len(y) > 0, Skew: skewness(y, TransformNone), LogSkew: math.NaN()}
	for _, v := range y {
		c.Positive = c.Positive && v > 0
	}
	if !c.Positive {
		return c
	}
	c.LogSkew = skewness(y, TransformLog)
	if c.Skew >= autoLogSkew && math.Abs(c.LogSkew) < c.Skew {
		c.Transform = TransformLog
	}
	return c
}

// skewness returns the sample skewness m₃/m₂^{3/2} of t applied to the
// values of y, with moments about the mean: 0 for fewer than two values,
// values that are all equal, or a value that is not finite. Skewness
// does not change with the scale of the values, so they are divided by
// the largest |value| first: every deviation from the mean is then at
// most 2, and its cube neither overflows nor, for values of any
// magnitude, underflows to 0.
func skewness(y []float64, t TargetTransform) float64 {
	n := float64(len(y))
	var scale float64
	for _, v := range y {
		z, _ := t.forward(v)
		scale = max(scale, math.Abs(z))
	}
	if !(scale > 0 && scale <= math.MaxFloat64) {
		return 0
	}
	var mean float64
	for _, v := range y {
		z, _ := t.forward(v)
		mean += z / scale / n
	}
	var m2, m3 float64
	for _, v := range y {
		z, _ := t.forward(v)
		d := z/scale - mean
		m2 += d * d / n
		m3 += d * d * d / n
	}
	if !(m2 > 0) || robust.ConstantSpread(math.Sqrt(m2), mean, len(y)) {
		return 0
	}
	return m3 / (m2 * math.Sqrt(m2))
}

// SetTargetTransform sets the transform through which the model's
// predictions map back to original units (TargetTransform). It returns
// ErrConfig for a nil model or an unknown transform.
func (m *Model[T]) SetTargetTransform(t TargetTransform) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if t > TransformLog {
		return fmt.Errorf("%w: TargetTransform(%d)", ErrConfig, uint8(t))
	}
	m.ext.transform = t
	return nil
}

// TargetTransform returns the model's target transform: TransformNone
// unless SetTargetTransform set another (or m is nil).
func (m *Model[T]) TargetTransform() TargetTransform {
	if m == nil {
		return TransformNone
	}
	return m.ext.transform
}

// transformLen is the length of the transform section's payload: the
// transform, one byte, never TransformNone (a model without a transform
// has no section).
const transformLen = 1

// appendTransform appends the transform section's payload for e.
func appendTransform(b []byte, e *extensions) ([]byte, bool) {
	if e.transform == TransformNone {
		return b, false
	}
	return append(b, byte(e.transform)), true
}

// parseTransform parses the transform section's payload into e.
func parseTransform(p []byte, e *extensions, _ Config) error {
	if len(p) != transformLen || p[0] == byte(TransformNone) || p[0] > byte(TransformLog) {
		return fmt.Errorf("%w: % x, want one byte: 1 (log)", ErrFormat, p)
	}
	e.transform = TargetTransform(p[0])
	return nil
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
		if math.IsNaN(y) {
			return y
		}
		return math.Inf(-1)
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

// transformBack turns p, a prediction of the modeled target z that passed
// sane, into one in original units under the transform tr, as
// Prediction.Transform documents, and reports whether its mean and
// corrected variance are still finite (a log model's exp can overflow
// where z's are finite). Var may overflow to +Inf: where α nears 1 the
// Student t's variance in z is huge, a normal state on data with
// outliers, and the log-normal stand-in for a variance that the
// log-Student-t does not have at all is then beyond float64.
func (m *Model[T]) transformBack(p *Prediction, tr TargetTransform) bool {
	p.Transform, p.ZMean, p.ZVar, p.ZVarCorrected = tr, p.Mean, p.Var, p.VarCorrected
	// tr is TransformLog, the one transform besides none: the log-normal
	// moments, with e^v − 1 from Expm1 so that a small variance keeps its
	// digits.
	mu := p.ZMean
	p.Mean = math.Exp(mu + p.ZVarCorrected/2)
	p.VarCorrected = math.Expm1(p.ZVarCorrected) * math.Exp(2*mu+p.ZVarCorrected)
	p.Var = math.Expm1(p.ZVar) * math.Exp(2*mu+p.ZVar)
	if math.IsInf(p.ZVar, 1) || math.IsNaN(p.Var) {
		p.Var = math.Inf(1) // no variance in z, or Inf·0: none in y
	}
	return finite(p.Mean) && p.Var > 0 && positiveFinite(p.VarCorrected)
}
