// Package robust is the standardization the module's models learn from
// their training data: every column centred on its median and divided by
// its interquartile range over a normal's (a standard deviation for
// normal data), which, unlike the mean and the standard deviation,
// ignores the few gross outliers that GCP is built to withstand; and the
// range of target scales whose variances a prediction can map back. The
// root package's Trainer.Fit and AutoFit and package bayes's FitPBP and
// FitSVGD share it.
package robust

import (
	"fmt"
	"math"
	"slices"
)

// iqrPerSD is the interquartile range of a normal distribution in units of
// its standard deviation, 2·Φ⁻¹(¾).
const iqrPerSD = 1.3489795003921634

// CenterScale sorts v and returns its median and a robust scale: the
// interquartile range divided by iqrPerSD, which equals the standard
// deviation for normal data but, like the median, ignores the few gross
// outliers that GCP is built to withstand (with mean and standard
// deviation, one target of 1e300 would crush every other target into a
// sliver of width 1e-299). When more than half the values tie, so that
// the interquartile range is zero, the scale is the standard deviation;
// for a constant column (ConstantSpread) it is 1, which leaves the column
// unscaled. v must not be empty.
func CenterScale(v []float64) (center, scale float64) {
	slices.Sort(v)
	center = Quantile(v, 0.5)
	// Halving the quartiles keeps their difference finite near
	// ±MaxFloat64 and, both scalings being exact for normal quartiles,
	// changes no bit elsewhere; a scale beyond MaxFloat64 is clamped to
	// it.
	scale = min((Quantile(v, 0.75)/2-Quantile(v, 0.25)/2)/(iqrPerSD/2), math.MaxFloat64)
	if ConstantSpread(scale, center, len(v)) {
		scale = stdDev(v)
	}
	if ConstantSpread(scale, center, len(v)) {
		return center, 1
	}
	// A subnormal scale has no finite reciprocal (SetStandardization
	// rejects it): the smallest normal float64 has one, 2¹⁰²², and the
	// column's standardized spread then shrinks below 1 but not to 0.
	return center, max(scale, minNormal)
}

// minNormal is the smallest positive normal float64, 2⁻¹⁰²².
const minNormal = 0x1p-1022

// ConstantSpread reports whether spread, the computed scale of n values
// centred on center, says that they are all equal: it is 0, not finite,
// or at most n·ε·|center| (ε = 2⁻⁵², the float64 machine epsilon). That
// bound is the rounding error of a mean of n equal values c by recursive
// summation, at most (n−1)·u·|c| with u = ε/2 (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., eq. 4.4), plus u·|c| for
// the division by n: a standard deviation about that mean below it cannot
// be told from the rounding. Forty copies of 0.1 have a standard deviation
// of 4e-17 about their computed mean, and 1/4e-17 would turn the next
// input of 0.10001 into a standardized feature of 2.5e11.
func ConstantSpread(spread, center float64, n int) bool {
	return !(spread > 0 && spread <= math.MaxFloat64) || spread <= float64(n)*epsilon*math.Abs(center)
}

// epsilon is the float64 machine epsilon, the gap between 1 and the next
// float64.
const epsilon = 0x1p-52

// Quantile returns the q-quantile of the sorted v by linear
// interpolation between order statistics. The gap between neighbours is
// taken as the difference of their halves, doubled after the product:
// scalings that are exact for normal values, so that they change no bit
// of the result, but keep the gap of −1e308 and 1e308 from overflowing.
func Quantile(v []float64, q float64) float64 {
	h := q * float64(len(v)-1)
	lo := int(h)
	if lo+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[lo] + (h-float64(lo))*(v[lo+1]/2-v[lo]/2)*2
}

// stdDev returns the standard deviation of v. Summing v[i]/n for the mean,
// and taking deviations as differences of halves divided by the largest
// one before squaring, keeps every step finite for values near the float64
// range; a result beyond MaxFloat64 is clamped to it. For n equal values
// the mean is still within n·u of them (ConstantSpread).
func stdDev(v []float64) float64 {
	n := float64(len(v))
	var mean float64
	for _, x := range v {
		mean += x / n
	}
	var big float64
	for _, x := range v {
		big = max(big, math.Abs(x/2-mean/2))
	}
	if big == 0 {
		return 0
	}
	var ss float64
	for _, x := range v {
		r := (x/2 - mean/2) / big
		ss += r * r
	}
	return min(math.Sqrt(ss/n)*big*2, math.MaxFloat64)
}

// Standardizable returns an error unless lo and hi, the smallest and
// largest value of a column, standardized by center and scale as the
// models do it, (v − center)·(1/scale), are finite in T: then every value
// of the column is.
func Standardizable[T float32 | float64](lo, hi, center, scale float64) error {
	inv := 1 / scale
	for _, e := range [...]float64{lo, hi} {
		if z := T((e - center) * inv); z-z != 0 {
			return fmt.Errorf("%g is %v in %T once standardized by its median %g and scale %g", e, z, z, center, scale)
		}
	}
	return nil
}

// TargetScaleOK reports whether s lies in [2⁻²⁵⁶, 2²⁵⁶], the target
// scales that a prediction can map back: its variances are in units of
// s², so s = 1e200 would overflow every one of them and s = 1e-200
// underflow them to 0. Within the range s² lies in [2⁻⁵¹², 2⁵¹²], which
// leaves 2⁵¹⁰ of float64's normal range on either side for the variances
// in standardized units, and a variance floor times s² is still normal.
func TargetScaleOK(s float64) bool { return s >= 0x1p-256 && s <= 0x1p256 }

// CheckTargetScale returns an error saying so if the target scale s is
// not TargetScaleOK; the models wrap it in their ErrNonFinite.
func CheckTargetScale(s float64) error {
	if TargetScaleOK(s) {
		return nil
	}
	return fmt.Errorf("the target's scale %g lies outside [2⁻²⁵⁶, 2²⁵⁶], so its variances would over- or underflow float64: rescale the targets", s)
}
