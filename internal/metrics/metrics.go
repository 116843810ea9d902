// Package metrics scores a model's predictions on a test set by the
// measures of the paper's Sec. 6.4 (RMSE, and the curve of
// RMSE versus rejection with its AUC) and by the measures of the
// predictive distribution that the field reads: the mean negative log
// predictive density, the mean CRPS, the coverage, width and interval
// score of central intervals, and the PIT values with their histogram and
// miscalibration area. MeanStd aggregates a measure over folds.
package metrics

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/gcpnet/gcp"
)

// Sentinel errors.
var (
	// ErrLength reports slices of different lengths.
	ErrLength = errors.New("metrics: slices differ in length")
	// ErrTooFew reports fewer points than the measure needs: one for
	// RMSE, NLL, coverage and MeanStd, two for AUC.
	ErrTooFew = errors.New("metrics: too few points")
	// ErrNaN reports a NaN among the values to score.
	ErrNaN = errors.New("metrics: NaN value")
)

// RMSE returns the root mean squared error √(Σ(pred_i − y_i)²/N).
func RMSE(pred, y []float64) (float64, error) {
	if err := check(len(y), 1, pred, y); err != nil {
		return 0, err
	}
	var ss float64
	for i, p := range pred {
		d := p - y[i]
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(y))), nil
}

// AUC returns the paper's area under the RMSE-versus-rejection curve
// (Sec. 6.4), the curve RMSECurve returns:
//
//	AUC = 1/(N−1) · Σ_{n=0}^{N−2} (RMSE(n) + RMSE(n+1))/2,
//
// the area under the piecewise linear curve through (n, RMSE(n)),
// n = 0..N−1, divided by its width N−1. A low AUC means that the points
// the model is surest about are the ones it predicts best. N must be at
// least 2.
func AUC(pred, y, variance []float64) (float64, error) {
	if err := check(len(y), 2, pred, y, variance); err != nil {
		return 0, err
	}
	curve, err := RMSECurve(pred, y, variance)
	if err != nil {
		return 0, err
	}
	var area float64
	for n := 0; n+1 < len(curve); n++ {
		area += (curve[n] + curve[n+1]) / 2
	}
	return area / float64(len(curve)-1), nil
}

// RMSECurve returns the paper's curve RMSE(n), n = 0..N−1, of the N test
// points (Sec. 6.4, Fig. 6.3): the
// points are ordered by variance, ascending, and RMSE(n) is the RMSE of
// the N−n points with the lowest variance, those left when the n with
// the highest variance are removed. Points with equal variance keep their
// order in the arguments. variance may hold +Inf (a Student-t variance
// with α ≤ 1).
func RMSECurve(pred, y, variance []float64) ([]float64, error) {
	n := len(y)
	if err := check(n, 1, pred, y, variance); err != nil {
		return nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(variance[a], variance[b]) })
	// prefix[k] is the sum of the k smallest-variance squared errors, so
	// RMSE(n) = √(prefix[N−n]/(N−n)).
	prefix := make([]float64, n+1)
	for k, i := range order {
		d := pred[i] - y[i]
		prefix[k+1] = prefix[k] + d*d
	}
	curve := make([]float64, n)
	for removed := range curve {
		kept := n - removed
		curve[removed] = math.Sqrt(prefix[kept] / float64(kept))
	}
	return curve, nil
}

// Predictive names which predictive distribution of a gcp.Prediction a
// measure reads.
type Predictive int

const (
	// StudentT is the model's own predictive: the Student-t of a GCP
	// model, the Gaussian of a comparator (Prediction.LogPDF, Interval).
	StudentT Predictive = iota
	// Calibrated is N(Mean, VarCorrected), the predictive of the
	// outlier-corrected variance (Prediction.CalibratedLogPDF,
	// CalibratedInterval).
	Calibrated
)

// String returns the predictive's short name.
func (k Predictive) String() string {
	if k == Calibrated {
		return "calibrated"
	}
	return "student-t"
}

func (k Predictive) logPDF(p gcp.Prediction, y float64) float64 {
	if k == Calibrated {
		return p.CalibratedLogPDF(y)
	}
	return p.LogPDF(y)
}

// Interval returns the central interval of probability level of the
// predictive k of p.
func (k Predictive) Interval(p gcp.Prediction, level float64) (lo, hi float64, err error) {
	if k == Calibrated {
		return p.CalibratedInterval(level)
	}
	return p.Interval(level)
}

func (k Predictive) cdf(p gcp.Prediction, y float64) float64 {
	if k == Calibrated {
		return p.CalibratedCDF(y)
	}
	return p.CDF(y)
}

func (k Predictive) crps(p gcp.Prediction, y float64) float64 {
	if k == Calibrated {
		return p.CalibratedCRPS(y)
	}
	return p.CRPS(y)
}

// Intervals gives a prediction's central interval at a level: a
// Predictive's, or another kind, such as a model's conformal intervals.
type Intervals interface {
	Interval(p gcp.Prediction, level float64) (lo, hi float64, err error)
}

// MeanNLL returns the mean negative log predictive density −(1/N)·Σ ln
// p_i(y_i) of the targets under the predictions' predictive k, in the
// units of the targets: rescaling the targets by s adds ln s.
func MeanNLL(pred []gcp.Prediction, y []float64, k Predictive) (float64, error) {
	var m Mean
	if err := m.AddNLL(pred, y, k); err != nil {
		return 0, err
	}
	return m.Value(), nil
}

// Mean is the running mean of a measure of predictions added a chunk at
// a time, for a test set too large to hold its predictions: the same sum
// in the same order as MeanNLL's and MeanCRPS's over the whole set, which
// use it. The zero value is empty.
type Mean struct {
	sum float64
	n   int
}

// AddNLL adds the negative log densities of the targets y under the
// predictions' predictive k, as MeanNLL; it returns MeanNLL's errors,
// and adds nothing then.
func (m *Mean) AddNLL(pred []gcp.Prediction, y []float64, k Predictive) error {
	return m.add(pred, y, func(p gcp.Prediction, y float64) float64 { return -k.logPDF(p, y) })
}

// AddCRPS adds the CRPS of the predictions' predictive k at the targets
// y, as MeanCRPS; it returns MeanCRPS's errors, and adds nothing then.
func (m *Mean) AddCRPS(pred []gcp.Prediction, y []float64, k Predictive) error {
	return m.add(pred, y, k.crps)
}

// Value returns the mean of the values added: NaN for none.
func (m *Mean) Value() float64 { return m.sum / float64(m.n) }

// add adds score over the predictions and their targets, or returns
// ErrLength, ErrTooFew or ErrNaN for targets it cannot score.
func (m *Mean) add(pred []gcp.Prediction, y []float64, score func(gcp.Prediction, float64) float64) error {
	if err := checkPredictions(pred, y); err != nil {
		return err
	}
	for i, p := range pred {
		m.sum += score(p, y[i])
	}
	m.n += len(y)
	return nil
}

// checkPredictions returns ErrTooFew for no targets, ErrNaN for a NaN
// one, and ErrLength unless there is a prediction for each.
func checkPredictions(pred []gcp.Prediction, y []float64) error {
	if err := check(len(y), 1, y); err != nil {
		return err
	}
	if len(pred) != len(y) {
		return ErrLength
	}
	return nil
}

// IntervalStats describes a test set's central intervals of one level.
type IntervalStats struct {
	// Coverage is the share of targets inside their interval, ends
	// included: close to the level for a calibrated model.
	Coverage float64
	// Width is the intervals' mean width.
	Width float64
	// Score is the mean interval score (IntervalScore), which adds to
	// the width 2/(1 − level) times each miss's distance: lower is better.
	Score float64
}

// CentralIntervals returns the coverage, mean width and mean interval
// score of the central intervals of probability level that k gives the
// predictions, against the targets y. A level outside (0, 1) gives
// gcp.ErrLevel.
func CentralIntervals(pred []gcp.Prediction, y []float64, level float64, k Intervals) (IntervalStats, error) {
	var t IntervalTally
	if err := t.Add(pred, y, level, k); err != nil {
		return IntervalStats{}, err
	}
	return t.Stats(), nil
}

// IntervalTally holds the running sums of CentralIntervals over
// predictions added a chunk at a time, for a test set too large to hold
// its predictions: the same sums in the same order. The zero value is
// empty.
type IntervalTally struct {
	inside, n    int
	width, score float64
}

// Add adds the central intervals of probability level that k gives the
// predictions, against the targets y; it returns CentralIntervals'
// errors, and then may have added some of them.
func (t *IntervalTally) Add(pred []gcp.Prediction, y []float64, level float64, k Intervals) error {
	if err := checkPredictions(pred, y); err != nil {
		return err
	}
	for i, p := range pred {
		lo, hi, err := k.Interval(p, level)
		if err != nil {
			return err
		}
		score, err := IntervalScore(lo, hi, level, y[i])
		if err != nil {
			return err
		}
		if lo <= y[i] && y[i] <= hi {
			t.inside++
		}
		t.width += hi - lo
		t.score += score
		t.n++
	}
	return nil
}

// Stats returns the coverage, mean width and mean interval score of the
// intervals added: NaN for none.
func (t *IntervalTally) Stats() IntervalStats {
	n := float64(t.n)
	return IntervalStats{Coverage: float64(t.inside) / n, Width: t.width / n, Score: t.score / n}
}

// Coverage returns the fraction of targets that fall inside the central
// interval of probability level of k, ends included, and the intervals'
// mean width: CentralIntervals' Coverage and Width.
func Coverage(pred []gcp.Prediction, y []float64, level float64, k Intervals) (cover, width float64, err error) {
	s, err := CentralIntervals(pred, y, level, k)
	return s.Coverage, s.Width, err
}

// MeanCRPS returns the mean continuous ranked probability score of the
// predictions' predictive k at the targets (gcp.Prediction.CRPS), in the
// units of the targets; +Inf if a predictive's tails are too heavy for
// its CRPS to exist.
func MeanCRPS(pred []gcp.Prediction, y []float64, k Predictive) (float64, error) {
	var m Mean
	if err := m.AddCRPS(pred, y, k); err != nil {
		return 0, err
	}
	return m.Value(), nil
}

// PIT returns the probability integral transform values F(y) of the
// targets under the predictions' predictive k, collected for their
// histogram and miscalibration area.
func PIT(pred []gcp.Prediction, y []float64, k Predictive) (*PITValues, error) {
	h := new(PITValues)
	if err := AddPIT(h, pred, y, k); err != nil {
		return nil, err
	}
	return h, nil
}

// AddPIT adds to h the PIT values of the targets y under the
// predictions' predictive k, as PIT collects them, for a test set added a
// chunk at a time; it returns PIT's errors.
func AddPIT(h *PITValues, pred []gcp.Prediction, y []float64, k Predictive) error {
	if err := checkPredictions(pred, y); err != nil {
		return err
	}
	for i, p := range pred {
		if err := h.Add(k.cdf(p, y[i])); err != nil {
			return err
		}
	}
	return nil
}

// MeanStd returns the mean of a measure over folds and its sample
// standard deviation √(Σ(x_i − mean)²/(K−1)), the "mean ± std" of the
// paper's tables. For a single fold the standard deviation is NaN, since
// one value says nothing about the spread.
func MeanStd(x []float64) (mean, std float64, err error) {
	if err := check(len(x), 1, x); err != nil {
		return 0, 0, err
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		d := v - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(x)-1)), nil
}

// check returns ErrLength unless every slice has length n, ErrTooFew if
// n < least, and ErrNaN if a slice holds a NaN.
func check(n, least int, s ...[]float64) error {
	for _, v := range s {
		if len(v) != n {
			return ErrLength
		}
	}
	if n < least {
		return ErrTooFew
	}
	for _, v := range s {
		if slices.ContainsFunc(v, math.IsNaN) {
			return ErrNaN
		}
	}
	return nil
}
