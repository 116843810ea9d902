package gcp

import (
	"fmt"
	"math"
	"slices"
)

// SetTargetTransform sets the transform through which the predictions of
// a model of one target map back to original units (TargetTransform). It
// returns ErrConfig for a nil model or an unknown transform, and ErrShape
// for a model of several targets, whose transforms SetTargetTransforms
// sets; the model is unchanged on error.
func (m *Model[T]) SetTargetTransform(t TargetTransform) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if t > TransformLog {
		return fmt.Errorf("%w: TargetTransform(%d)", ErrConfig, uint8(t))
	}
	if d := m.cfg.targets(); d > 1 {
		return fmt.Errorf("%w: one target transform for a model of %d targets (SetTargetTransforms)", ErrShape, d)
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

// SetTargetTransforms sets the transform of each target of a model of
// several targets (Config.Targets ≥ 2), trs[j] that of target j, through
// which its predictions (MultiPrediction) map back to original units, as
// SetTargetTransform does for one target: the network models z_j =
// g_j(y_j), so Trainer.Step, Trainer.Fit and Model.Calibrate take each
// target transformed (pass the values of Apply). A nil trs, or one of
// TransformNone alone, sets none. It returns ErrConfig for a nil model or
// an unknown transform, and ErrShape for a model of one target or a trs
// of another length than Config.Targets; the model is unchanged on error.
// A model whose law is the Gaussian copula of one-target models returns
// an error wrapping ErrConfig: its transforms are its marginals'.
func (m *Model[T]) SetTargetTransforms(trs []TargetTransform) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if m.margins != nil {
		return errCopula("SetTargetTransforms")
	}
	if d := m.cfg.targets(); d < 2 || trs != nil && len(trs) != d {
		return fmt.Errorf("%w: %d target transforms for a model of %d targets", ErrShape, len(trs), d)
	}
	for j, t := range trs {
		if t > TransformLog {
			return fmt.Errorf("%w: target %d: TargetTransform(%d)", ErrConfig, j, uint8(t))
		}
	}
	m.ext.transforms = [maxTargets]TargetTransform{}
	copy(m.ext.transforms[:], trs)
	return nil
}

// TargetTransforms returns a copy of each target's transform for a model
// of several targets, nil where none is transformed (and for a model of
// one target, whose transform TargetTransform returns).
func (m *Model[T]) TargetTransforms() []TargetTransform {
	if m == nil || m.ext.transforms == ([maxTargets]TargetTransform{}) {
		return nil
	}
	return slices.Clone(m.ext.transforms[:m.cfg.targets()])
}

// transformBack turns p, a prediction of the modeled target z that passed
// sane, into one in original units under the transform tr, as
// Prediction.Transform documents, and reports whether its mean and
// corrected variance are still finite (a log model's exp can overflow
// where z's are finite). Var may overflow to +Inf: where α nears 1 the
// Student t's variance in z is huge, a normal state on data with
// outliers, and the log-normal stand-in for a variance that the
// log-Student-t does not have at all is then beyond float64.
func transformBack(p *Prediction, tr TargetTransform) bool {
	p.Transform, p.ZMean, p.ZVar, p.ZVarCorrected = tr, p.Mean, p.Var, p.VarCorrected
	// tr is TransformLog, the one transform besides none: the log-normal
	// moments, with e^v − 1 from Expm1 so that a small variance keeps its
	// digits.
	mu := p.ZMean
	p.Mean = math.Exp(mu + p.ZVarCorrected/2)
	p.VarCorrected = expm1Exp(p.ZVarCorrected, 2*mu+p.ZVarCorrected)
	p.Var = expm1Exp(p.ZVar, 2*mu+p.ZVar)
	if math.IsInf(p.ZVar, 1) || math.IsNaN(p.Var) {
		p.Var = math.Inf(1) // no variance in z, or Inf·0: none in y
	}
	return finite(p.Mean) && p.Var > 0 && positiveFinite(p.VarCorrected)
}

// expm1Exp returns (eˣ − 1)·eᵃ, the form of the log-normal's variances
// and covariances, as expTimes does: where eˣ − 1 overflows, as
// (1 − e⁻ˣ)·e^(a+x).
func expm1Exp(x, a float64) float64 {
	if s := math.Expm1(x); !math.IsInf(s, 1) {
		return expTimes(s, a)
	}
	return expTimes(-math.Expm1(-x), a+x)
}

// expTimes returns s·eᵃ: their product where eᵃ and it are normal
// float64s, else through logarithms, so that eᵃ alone leaving the float64
// range (a = 800 with s = 1e-300, a = −750 with s = 5e21) or losing its
// digits as a subnormal does not make a representable value +Inf, 0 or
// inexact.
func expTimes(s, a float64) float64 {
	if e := math.Exp(a); normalFloat(e) {
		if f := s * e; normalFloat(f) || s == 0 {
			return f
		}
	}
	return math.Copysign(math.Exp(a+math.Log(math.Abs(s))), s)
}

// logExpm1 returns ln(eˣ − 1) for x > 0, also where eˣ overflows.
func logExpm1(x float64) float64 {
	if x > 1 {
		return x + math.Log(-math.Expm1(-x))
	}
	return math.Log(math.Expm1(x))
}
