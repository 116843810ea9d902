package metrics

import (
	"errors"

	"github.com/gcpnet/gcp"
)

// ErrBounds reports an interval whose lower bound lies above its upper
// one (or either is NaN): no interval, and no score.
var ErrBounds = errors.New("metrics: interval's lower bound above its upper")

// IntervalScore returns the interval score (Winkler 1972; Gneiting &
// Raftery 2007, Sec. 6.2) of the central interval [lo, hi] of probability
// level at the outcome y: the interval's width, plus 2/(1 − level) times
// the distance by which y falls outside it,
//
//	(hi − lo) + (2/α)·(lo − y)·1{y < lo} + (2/α)·(y − hi)·1{y > hi},
//
// α = 1 − level. It is a proper score for central intervals: in
// expectation it is least for the predictive's true (1 − α/2)- and
// α/2-quantiles, so it rewards narrow intervals only as far as they keep
// their coverage. Lower is better; its mean over a test set is in the
// target's units. It returns gcp.ErrLevel for a level outside (0, 1) and
// ErrBounds unless lo ≤ hi; an infinite bound gives +Inf, as a NaN y
// gives NaN.
func IntervalScore(lo, hi, level, y float64) (float64, error) {
	if !(level > 0 && level < 1) {
		return 0, gcp.ErrLevel
	}
	if !(lo <= hi) {
		return 0, ErrBounds
	}
	s := hi - lo
	switch penalty := 2 / (1 - level); {
	case y < lo:
		s += penalty * (lo - y)
	case y > hi:
		s += penalty * (y - hi)
	}
	return s, nil
}
