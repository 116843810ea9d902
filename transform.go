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
// predictions only. Trainer.Step, Trainer.Fit and Model.Calibrate take
// the targets transformed: pass the values of Apply. AutoFit takes them
// in original units and applies the transforms it trains with
// (AutoOptions.TargetTransforms) itself. Predict, PredictBatch, PredictRecord and the
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
		return logFull(y), nil
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
		return logFull(y), y > 0
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

// TransformChoice is which target transform was chosen and why: by
// ChooseTargetTransform from the targets' skewness alone, or by AutoFit
// (AutoResult.Transform), which where the skewness makes the log a
// candidate searches both ways and compares the winners on held-out
// rows.
type TransformChoice struct {
	Transform TargetTransform
	// Positive reports whether every target is above 0, the log
	// transform's domain.
	Positive bool
	// Skew is the targets' sample skewness, m₃/m₂^{3/2}; LogSkew that of
	// their logarithms, NaN unless Positive.
	Skew, LogSkew float64
	// Compared reports that AutoFit searched both without and with the
	// log and kept Transform by the held-out scores of each search's
	// winner (see AutoFit); CVNLL and CVRMSE are then each winner's
	// cross-fitted, calibrated NLL and RMSE in original units, indexed by
	// transform: CVNLL[TransformLog] is the log's. The winner is a single
	// network, so for an ensemble these are not the returned model's
	// AutoResult.CVNLL.
	Compared      bool
	CVNLL, CVRMSE [2]float64
	// Failed is, where the held-out scores kept the other transform and
	// its model then failed to train (every ensemble of its search's
	// settings diverged), that failure; Transform is then the transform
	// whose model did train, though its scores lost. Empty otherwise.
	Failed string
}

// String says what was chosen and why, in a few words.
func (c TransformChoice) String() string {
	switch {
	case c.Compared && c.Failed != "":
		favoured := TransformLog
		if c.Transform == TransformLog {
			favoured = TransformNone
		}
		return fmt.Sprintf("%s, though the held-out scores favoured %s, whose model failed to train (%s): held-out NLL %.4g on the log scale, %.4g without; RMSE %.4g and %.4g",
			c.Transform, favoured, c.Failed, c.CVNLL[TransformLog], c.CVNLL[TransformNone], c.CVRMSE[TransformLog], c.CVRMSE[TransformNone])
	case c.Compared && c.Transform == TransformLog:
		return fmt.Sprintf("log: every target is positive, of skewness %.3g (%.3g after the log); held-out NLL %.4g on the log scale, %.4g without; RMSE %.4g and %.4g",
			c.Skew, c.LogSkew, c.CVNLL[TransformLog], c.CVNLL[TransformNone], c.CVRMSE[TransformLog], c.CVRMSE[TransformNone])
	case c.Compared:
		return fmt.Sprintf("none: the targets are positive, of skewness %.3g (%.3g after the log), but on a log scale their held-out NLL (%.4g against %.4g) is not lower by more than a standard error, or their RMSE (%.4g against %.4g) is higher by as much or more than twice as high",
			c.Skew, c.LogSkew, c.CVNLL[TransformLog], c.CVNLL[TransformNone], c.CVRMSE[TransformLog], c.CVRMSE[TransformNone])
	case c.Transform != c.screen():
		return fmt.Sprintf("%s: the targets' skewness %.3g (%.3g after the log)", c.Transform, c.Skew, c.LogSkew)
	case c.Transform == TransformLog:
		return fmt.Sprintf("log: every target is positive and their skewness %.3g is above %d (%.3g after the log)", c.Skew, autoLogSkew, c.LogSkew)
	case !c.Positive:
		return fmt.Sprintf("none: some targets are not positive (skewness %.3g)", c.Skew)
	case c.Skew < autoLogSkew:
		return fmt.Sprintf("none: the targets' skewness %.3g is below %d", c.Skew, autoLogSkew)
	}
	return fmt.Sprintf("none: the targets' skewness %.3g would be %.3g after the log, no more symmetric", c.Skew, c.LogSkew)
}

// screen returns the transform the targets' skewness picks
// (ChooseTargetTransform).
func (c TransformChoice) screen() TargetTransform {
	if c.Positive && c.Skew >= autoLogSkew && math.Abs(c.LogSkew) < c.Skew {
		return TransformLog
	}
	return TransformNone
}

// ChooseTargetTransform picks a transform for the training targets y from
// their skewness alone: TransformLog when every target is positive, their
// skewness is at least 1 (the mark of a highly skewed sample) and the log
// makes them more symmetric (|skewness of ln y| below the skewness of y);
// TransformNone otherwise. Skewness says when a log scale may help, not
// that it will: AutoFit's default takes it as a screen, and searches
// both ways where it picks the log (AutoOptions.TargetTransforms).
// It is the whole choice for a model trained without held-out rows to
// compare on, by Fit. Pass the training rows' targets only, never those
// of rows held out to test on.
func ChooseTargetTransform(y []float64) TransformChoice {
	return chooseTransform(y)
}

// chooseTransform is ChooseTargetTransform for targets of any Float type,
// whose skewness it computes in float64.
func chooseTransform[T Float](y []T) TransformChoice {
	c := TransformChoice{Positive: len(y) > 0, Skew: skewness(y, TransformNone), LogSkew: math.NaN()}
	for _, v := range y {
		c.Positive = c.Positive && v > 0
	}
	if !c.Positive {
		return c
	}
	c.LogSkew = skewness(y, TransformLog)
	c.Transform = c.screen()
	return c
}

// skewness returns the sample skewness m₃/m₂^{3/2} of t applied to the
// values of y, with moments about the mean: 0 for fewer than two values,
// values that are all equal, or a value that is not finite. Skewness
// does not change with the scale of the values, so they are divided by
// the largest |value| first: every deviation from the mean is then at
// most 2, and its cube neither overflows nor, for values of any
// magnitude, underflows to 0.
func skewness[T Float](y []T, t TargetTransform) float64 {
	n := float64(len(y))
	var scale float64
	for _, v := range y {
		z, _ := t.forward(float64(v))
		scale = max(scale, math.Abs(z))
	}
	if !(scale > 0 && scale <= math.MaxFloat64) {
		return 0
	}
	var mean float64
	for _, v := range y {
		z, _ := t.forward(float64(v))
		mean += z / scale / n
	}
	var m2, m3 float64
	for _, v := range y {
		z, _ := t.forward(float64(v))
		d := z/scale - mean
		m2 += d * d / n
		m3 += d * d * d / n
	}
	if !(m2 > 0) || robust.ConstantSpread(math.Sqrt(m2), mean, len(y)) {
		return 0
	}
	return m3 / (m2 * math.Sqrt(m2))
}
