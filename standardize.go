package gcp

import (
	"fmt"
	"math"

	"github.com/gcpnet/gcp/internal/binfmt"
	"github.com/gcpnet/gcp/internal/robust"
)

// The standardization of a model: the inputs' and the target's centre and
// scale, learned from the training rows, set or read by the caller,
// applied to every row before the networks see it, stored in the file;
// and the ranges of the training inputs, against which a row's distance
// from the data is reported (Prediction.InputZ, OutsideRange).

// setStandardization stores validated maps.
func (m *Model[T]) setStandardization(xMean, xScale []float64, yMean, yScale float64) {
	copy(m.xMean, xMean)
	copy(m.xScale, xScale)
	for j, s := range xScale {
		m.xInvScale[j] = 1 / s
	}
	m.yMean, m.yScale, m.standardized = yMean, yScale, true
}

// SetStandardization sets the affine maps applied to inputs and targets:
// features enter as (x_j − xMean[j])/xScale[j], the target as
// (y − yMean)/yScale, and predictions are mapped back. Fit sets them from
// the training data unless they were set before. It returns ErrShape for
// slices of the wrong length and ErrNonFinite for a non-finite value, a
// scale that is not positive or has no finite reciprocal, or a yScale
// outside [2⁻²⁵⁶, 2²⁵⁶] (robust.TargetScaleOK). It must not run beside
// prediction or any other method on m (see Model). A model whose law is
// the Gaussian copula of one-target models returns an error wrapping
// ErrConfig: its marginals standardize their own inputs and targets.
func (m *Model[T]) SetStandardization(xMean, xScale []float64, yMean, yScale float64) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if m.margins != nil {
		return errCopula("SetStandardization")
	}
	if len(xMean) != m.cfg.Inputs || len(xScale) != m.cfg.Inputs {
		return ErrShape
	}
	if !robust.TargetScaleOK(yScale) || !finite(yMean) {
		return ErrNonFinite
	}
	for j := range xMean {
		// 1/scale must be finite too: a subnormal scale's reciprocal is not.
		if !finite(xMean[j]) || !positiveFinite(xScale[j]) || !positiveFinite(1/xScale[j]) {
			return ErrNonFinite
		}
	}
	m.setStandardization(xMean, xScale, yMean, yScale)
	return nil
}

// Standardization returns copies of the maps set by SetStandardization or
// Fit (identity maps before either), exactly as they were set. A model
// whose law is the Gaussian copula of one-target models returns its first
// marginal's input maps and the identity target map (0, 1): each
// marginal standardizes its own inputs and target, and AutoFit's learn
// their input maps from the same rows.
func (m *Model[T]) Standardization() (xMean, xScale []float64, yMean, yScale float64) {
	if m == nil {
		return nil, nil, 0, 1
	}
	if m.margins != nil {
		xMean, xScale, _, _ = m.margins[0].Standardization()
		return xMean, xScale, 0, 1
	}
	return append([]float64(nil), m.xMean...), append([]float64(nil), m.xScale...), m.yMean, m.yScale
}

// standardizeRows writes rows of x, standardized and bounded (boundRows),
// into dst, and each row's InputZ into z: the largest |u| over its
// standardized features u before the bound (m.k.standardize), a distance
// from the data that the bound must not hide. It returns ErrNonFinite if
// x holds a NaN or ±Inf, or a value that overflows T once standardized
// (a float32 input far outside the training data's range). Checking the
// results finds both: xInvScale is positive and not NaN, so
// (v − xMean)·xInvScale is NaN or ±Inf for every NaN or ±Inf v.
func (m *Model[T]) standardizeRows(dst, x []T, z []float64) error {
	d := m.cfg.Inputs
	z = z[:len(x)/d]
	if !m.k.standardize(dst, x, m.xMean[:d], m.xInvScale[:d], z) {
		return ErrNonFinite
	}
	m.boundRows(dst, z)
	return nil
}

// fitStandardization sets the standardization of every feature and of the
// target to its median and robust scale over the rows of set, and the
// bound on the inputs that the rows call for (learnStandardization), or
// returns learnStandardization's error and leaves m as it was.
func (m *Model[T]) fitStandardization(set rowSet[T]) error {
	if set.ty > 1 {
		return m.fitMultiStandardization(set)
	}
	center, scale, yCenter, yScale, bound, err := learnStandardization(set)
	if err != nil {
		return err
	}
	m.setStandardization(center, scale, yCenter, yScale)
	m.ext.inputBound = bound
	return nil
}

// learnStandardization returns the median and robust scale
// (robust.CenterScale) of every feature, and of the target, over the
// rows of set, and the bound on the standardized inputs that the rows'
// largest |z| calls for (learnedInputBound). A target scale that predictions cannot map back
// (robust.TargetScaleOK), or a column whose extreme values overflow T
// once standardized, one that spans more than float64's range about its
// median, or a float32 column whose outliers lie beyond float32's range
// in units of its scale, gives an error that wraps ErrNonFinite and names
// the column.
func learnStandardization[T Float](set rowSet[T]) (center, scale []float64, yCenter, yScale, bound float64, err error) {
	center, scale, bound, buf, err := learnFeatureStandardization(set)
	if err != nil {
		return nil, nil, 0, 0, 0, err
	}
	for i := range buf {
		buf[i] = float64(set.y[set.row(i)])
	}
	yCenter, yScale, err = learnTargetStandardization[T](buf)
	if err != nil {
		return nil, nil, 0, 0, 0, err
	}
	return center, scale, yCenter, yScale, bound, nil
}

// learnFeatureStandardization is the features' part of
// learnStandardization, bound included; it also returns a scratch of one
// float64 per row.
func learnFeatureStandardization[T Float](set rowSet[T]) (center, scale []float64, bound float64, buf []float64, err error) {
	n, d := set.len(), set.d
	buf = make([]float64, n)
	center, scale = make([]float64, d), make([]float64, d)
	var reach float64 // the largest |z| of the rows
	for j := 0; j < d; j++ {
		for i := range buf {
			buf[i] = float64(set.x[set.row(i)*d+j])
		}
		center[j], scale[j] = robust.CenterScale(buf)
		if err := robust.Standardizable[T](buf[0], buf[n-1], center[j], scale[j]); err != nil {
			return nil, nil, 0, nil, fmt.Errorf("%w: feature %d: %v", ErrNonFinite, j, err)
		}
		// buf is sorted: its ends lie farthest from the centre.
		reach = max(reach, (center[j]-buf[0])/scale[j], (buf[n-1]-center[j])/scale[j])
	}
	return center, scale, learnedInputBound(reach), buf, nil
}

// learnTargetStandardization returns the median and robust scale of the
// target values in buf, which it reorders, or an error wrapping
// ErrNonFinite for a scale that predictions cannot map back or values
// that overflow T once standardized.
func learnTargetStandardization[T Float](buf []float64) (center, scale float64, err error) {
	center, scale = robust.CenterScale(buf)
	if err := robust.CheckTargetScale(scale); err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrNonFinite, err)
	}
	if err := robust.Standardizable[T](buf[0], buf[len(buf)-1], center, scale); err != nil {
		return 0, 0, fmt.Errorf("%w: the target: %v", ErrNonFinite, err)
	}
	return center, scale, nil
}

// FeatureRanges returns the smallest and largest value of each feature
// over every row passed to Fit or AutoFit (held-out rows included); ok is
// false if the model has no record (it was only stepped, or loaded from
// a file of format version 1 or 2).
func (m *Model[T]) FeatureRanges() (lo, hi []float64, ok bool) {
	if m == nil || m.xMin == nil {
		return nil, nil, false
	}
	return append([]float64(nil), m.xMin...), append([]float64(nil), m.xMax...), true
}

// OutsideRange returns how many features of the input row x lie outside
// the range they had in the training rows (FeatureRanges), and the first
// such feature's index, or −1. For a model with an Encoding, a
// categorical column whose inputs are all 0 counts as one more, its first
// input as its index: every one of its inputs lies in its range, but no
// training row had that code (a level training never saw, in a column
// without the Other input, or a missing value in a column that had none).
// Without a record of the ranges it returns 0 and −1, as it does for a
// nil model. A prediction for such an input is an extrapolation; see
// Prediction.InputZ for how far it reaches.
func (m *Model[T]) OutsideRange(x []T) (count, first int) {
	first = -1
	if m == nil || m.xMin == nil || len(x) != m.cfg.Inputs {
		return 0, first
	}
	for j, v := range x {
		if f := float64(v); f < m.xMin[j] || f > m.xMax[j] {
			if count == 0 {
				first = j
			}
			count++
		}
	}
	e := m.ext.encoding
	if e == nil {
		return count, first
	}
	for c := range e.columns {
		start, end := e.start[c], e.start[c+1]
		if e.columns[c].Kind != Categorical {
			continue
		}
		if hot, ok := hotInput(x[start:end]); hot < 0 && ok {
			if count == 0 || first > start {
				first = start
			}
			count++
		}
	}
	return count, first
}

// hotInput returns the index of the input of the code x that is 1, or −1
// if all are 0, and false if x is not such a code: an input neither 0 nor
// 1, or more than one 1.
func hotInput[T Float](x []T) (hot int, ok bool) {
	hot = -1
	for j, v := range x {
		switch {
		case v == 1 && hot < 0:
			hot = j
		case v != 0:
			return -1, false
		}
	}
	return hot, true
}

// extendRanges widens the recorded feature ranges to cover the row-major
// rows x.
func (m *Model[T]) extendRanges(x []T) {
	d := m.cfg.Inputs
	if m.xMin == nil {
		m.xMin, m.xMax = make([]float64, d), make([]float64, d)
		for j := range m.xMin {
			m.xMin[j], m.xMax[j] = math.Inf(1), math.Inf(-1)
		}
	}
	for r := 0; r+d <= len(x); r += d {
		for j, v := range x[r : r+d] {
			m.xMin[j] = min(m.xMin[j], float64(v))
			m.xMax[j] = max(m.xMax[j], float64(v))
		}
	}
}

// decodeStandardization reads the standardization into m, which holds the
// identity maps. A set standardization goes through SetStandardization,
// so a saved model holds exactly what the API accepts and derives; an
// unset one must be the identity bit for bit, so that the model re-encodes
// to the same bytes.
func decodeStandardization[T Float](d *binfmt.Decoder, m *Model[T], set bool) error {
	start := d.Off()
	yMean, yScale := d.F64(), d.F64()
	xMean, xScale := make([]float64, m.cfg.Inputs), make([]float64, m.cfg.Inputs)
	for _, s := range [][]float64{xMean, xScale} {
		for j := range s {
			s[j] = d.F64()
		}
	}
	if set {
		if err := m.SetStandardization(xMean, xScale, yMean, yScale); err != nil {
			return fmt.Errorf("offsets %d..%d: standardization: %w", start, d.Off(), err)
		}
		return nil
	}
	identity := math.Float64bits(yMean) == 0 && yScale == 1
	for j, s := range xScale {
		identity = identity && math.Float64bits(xMean[j]) == 0 && s == 1
	}
	if !identity {
		return fmt.Errorf("%w: offsets %d..%d: standardization is not set but is not the identity", ErrFormat, start, d.Off())
	}
	return nil
}

// standardizeTargets writes the standardized targets of y into dst: with
// one target (y − yMean)/yScale, with several the j-th of each row
// (y_j − yMeans[j])/yScales[j].
func (m *Model[T]) standardizeTargets(dst, y []T) {
	if t := m.ext.targets; t != nil {
		d := len(t.scales)
		for i, v := range y {
			j := i % d
			dst[i] = T((float64(v) - t.means[j]) / t.scales[j])
		}
		return
	}
	for i, v := range y {
		dst[i] = T((float64(v) - m.yMean) / m.yScale)
	}
}

// logTargetScale returns the log of the Jacobian of the targets'
// standardization, which turns a negative log density in standardized
// units into one in original units: ln yScale, or Σ_j ln yScales[j].
func (m *Model[T]) logTargetScale() float64 {
	if m.ext.targets == nil {
		return math.Log(m.yScale)
	}
	var s float64
	for _, v := range m.ext.targets.scales {
		s += math.Log(v)
	}
	return s
}

// fitMultiStandardization is fitStandardization for a set of several
// targets per row: the features' maps and bound as for one target, and
// each target's median and robust scale (learnTargetStandardization).
func (m *Model[T]) fitMultiStandardization(set rowSet[T]) error {
	center, scale, bound, targets, err := learnMultiStandardization(set)
	if err != nil {
		return err
	}
	m.setStandardization(center, scale, 0, 1)
	m.ext.targets, m.ext.inputBound = targets, bound
	return nil
}

// learnMultiStandardization returns the median and robust scale of every
// feature and the inputs' bound (learnFeatureStandardization), and those
// of each target (learnTargetStandardization), over the rows of set,
// which hold several targets a row.
func learnMultiStandardization[T Float](set rowSet[T]) (center, scale []float64, bound float64, targets *targetMaps, err error) {
	center, scale, bound, buf, err := learnFeatureStandardization(set)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	d := set.ty
	targets = &targetMaps{means: make([]float64, d), scales: make([]float64, d)}
	for j := range d {
		for i := range buf {
			buf[i] = float64(set.y[set.row(i)*d+j])
		}
		if targets.means[j], targets.scales[j], err = learnTargetStandardization[T](buf); err != nil {
			return nil, nil, 0, nil, fmt.Errorf("target %d: %w", j, err)
		}
	}
	return center, scale, bound, targets, nil
}
