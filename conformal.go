package gcp

import (
	"fmt"
	"math"
)

// newConformalScores returns the conformal calibration of the predictions
// preds of the targets y, or nil if there are none.
func newConformalScores[T Float](preds []Prediction, y []T) *conformalScores {
	s := make([]float64, 0, len(preds))
	for i, p := range preds {
		if v := math.Abs(float64(y[i])-p.Mean) / math.Sqrt(p.VarCorrected); !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	return sortedScores(s)
}

// ConformalInterval returns the conformal interval of the prediction p at
// level in (0, 1): Mean ± q·√VarCorrected, q the ⌈(n+1)·level⌉-th
// smallest of the normalized residuals |y − Mean|/√VarCorrected of the n
// rows of the model's conformal calibration (of many rows the model keeps
// a subset, and q is its score just above that rank); under a
// TargetTransform, the interval ZMean ± q·√ZVarCorrected of the modeled
// target mapped back, as the scores are of the modeled target. It is
// ±Inf when level is so high that the calibration rows cannot bound it
// (⌈(n+1)·level⌉ > n: with 99 rows, any level above 0.99).
//
// What it guarantees depends on where the calibration came from.
// Calibrate takes it from rows the model did not train on: then a new row
// exchangeable with those rows is inside with probability at least level
// (the split-conformal guarantee), provided the rows played no part in
// training or choosing the model. AutoFit takes it from its cross-fitted
// predictions, each row scored by a fold model that did not train on it:
// the guarantee holds exactly for a fold model and its held-out rows
// (given the hyperparameters, which the search chose on the same rows),
// and the returned model, fitted with the same settings on more rows,
// keeps it to the extent that its normalized residuals on new data are no
// larger than the fold models' on their held-out rows. That is the "CV"
// method of Barber et al. (2021), not their CV+, whose bound of 1 − 2α
// needs the fold models themselves at prediction time.
//
// For an input that holds a code no training row had (InputZ +Inf) the
// interval is unknown, as CalibratedInterval's is, and its bounds are
// −Inf and +Inf: the calibration rows held no such code.
//
// It returns ErrLevel for a level outside (0, 1), ErrNoConformal for a
// model without a conformal calibration (one trained without held-out
// rows, or saved by an older release) and for a conditional marginal
// (MultiPrediction.Conditional under the copula: the scores are of
// residuals that no other target's value had conditioned, so their
// guarantee does not hold for it), and ErrConfig for a nil model.
func (m *Model[T]) ConformalInterval(p Prediction, level float64) (lo, hi float64, err error) {
	switch {
	case m == nil:
		return 0, 0, fmt.Errorf("%w: nil Model", ErrConfig)
	case m.ext.conformal == nil:
		return 0, 0, ErrNoConformal
	case p.given.on():
		return 0, 0, fmt.Errorf("%w: for a conditional marginal", ErrNoConformal)
	case !(level > 0 && level < 1):
		return 0, 0, ErrLevel
	}
	if p.Transform != TransformNone {
		return p.transformedInterval(level, m.ConformalInterval)
	}
	if p.unknown() {
		return unknownInterval(level)
	}
	half := m.ext.conformal.quantile(level) * math.Sqrt(p.VarCorrected)
	return p.Mean - half, p.Mean + half, nil
}

// ConformalRows returns the number of calibration rows of the model's
// conformal calibration, 0 if it has none.
func (m *Model[T]) ConformalRows() int {
	if m == nil || m.ext.conformal == nil {
		return 0
	}
	return m.ext.conformal.n
}
