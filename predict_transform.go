package gcp

import (
	"fmt"
	"math"
)

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
