package metrics

import (
	"math"
	"slices"

	"github.com/gcpnet/gcp"
)

// PITValues collects the probability integral transform (PIT) values u = F(y)
// of a set of predictions at their outcomes, F a predictive's CDF (for
// example Prediction.CDF or CalibratedCDF), and summarizes how well
// calibrated the predictive is. Where it is, the values are uniform on
// [0, 1]: the histogram is flat, a U shape says the intervals are too
// narrow, a hump that they are too wide, and a slope that the predictions
// are biased. The zero value is an empty collection.
type PITValues struct {
	u []float64
}

// Add records one PIT value. It returns gcp.ErrProbability unless u is in
// [0, 1].
func (h *PITValues) Add(u float64) error {
	if !(u >= 0 && u <= 1) {
		return gcp.ErrProbability
	}
	h.u = append(h.u, u)
	return nil
}

// Len returns how many values Add recorded.
func (h *PITValues) Len() int { return len(h.u) }

// Histogram counts the values in len(counts) equal bins of [0, 1]: bin j
// of B holds the values with j/B ≤ u < (j+1)/B (j/B rounded to float64),
// and the last bin also u = 1. For a calibrated predictive each count is
// about Len()/B.
func (h *PITValues) Histogram(counts []int) {
	clear(counts)
	b := len(counts)
	if b == 0 {
		return
	}
	for _, u := range h.u {
		j := min(int(u*float64(b)), b-1)
		// u·B may round across an edge j/B: compare with the edges
		// themselves.
		if j > 0 && u < float64(j)/float64(b) {
			j--
		} else if j < b-1 && u >= float64(j+1)/float64(b) {
			j++
		}
		counts[j]++
	}
}

// MiscalibrationArea returns the area between the calibration curve and
// its diagonal,
//
//	∫₀¹ |Ĥ(p) − p| dp,
//
// where Ĥ(p) is the share of the outcomes inside their central predictive
// interval of level p, those with |2u − 1| ≤ p: the coverage-against-level
// curve that gcp plot draws. It is 0 for a perfectly calibrated
// predictive, about 0.03 for a calibrated one on 100 outcomes (the
// sampling noise of Ĥ), and at most ½. It is uncertainty-toolbox's
// miscalibration_area with its default prop_type "interval", computed
// exactly from the values rather than on a grid of 100 levels. NaN if no
// value was added.
func (h *PITValues) MiscalibrationArea() float64 {
	n := len(h.u)
	if n == 0 {
		return math.NaN()
	}
	w := make([]float64, n)
	for i, u := range h.u {
		w[i] = math.Abs(2*u - 1)
	}
	slices.Sort(w)
	// Ĥ is k/n on [w[k−1], w[k]), with w[−1] = 0 and w[n] = 1.
	var area, a float64
	for k := 0; k <= n; k++ {
		b := 1.0
		if k < n {
			b = w[k]
		}
		area += absLinearIntegral(float64(k)/float64(n), a, b)
		a = b
	}
	return area
}

// absLinearIntegral returns ∫ₐᵇ |c − p| dp for a ≤ b.
func absLinearIntegral(c, a, b float64) float64 {
	switch {
	case c <= a:
		return ((b-c)*(b-c) - (a-c)*(a-c)) / 2
	case c >= b:
		return ((c-a)*(c-a) - (c-b)*(c-b)) / 2
	}
	return ((c-a)*(c-a) + (b-c)*(b-c)) / 2
}
