package bayes

import (
	"fmt"
	"math"

	"github.com/gcpnet/gcp"
)

// svgdCheckData validates a training set of len(y) rows of inputs
// features, row-major in x.
func svgdCheckData(inputs int, x, y []float64) error {
	if len(y) == 0 {
		return fmt.Errorf("%w: no training rows", gcp.ErrBatch)
	}
	if len(x) != inputs*len(y) {
		return fmt.Errorf("%w: %d input values for %d rows of %d features", gcp.ErrShape, len(x), len(y), inputs)
	}
	for i, v := range x {
		if !svgdFinite(v) {
			return fmt.Errorf("%w: input row %d, feature %d is %g", gcp.ErrNonFinite, i/inputs, i%inputs, v)
		}
	}
	for i, v := range y {
		if !svgdFinite(v) {
			return fmt.Errorf("%w: target %d is %g", gcp.ErrNonFinite, i, v)
		}
	}
	return nil
}

// svgdFinite reports whether v is neither NaN nor infinite.
func svgdFinite(v float64) bool { return v-v == 0 }

// svgdMeanScale returns the mean and the standard deviation, divided by
// the count as np.std does, of v[0], v[stride], …: the authors'
// standardization (bayesian_nn.py), which gives a constant feature the
// scale 1. A deviation of at most n·ε·|mean| counts as constant: it is
// the rounding error of the mean of n equal values (cmd/gcp's meanSD),
// and dividing by it would blow the column up. It returns ok = false
// where the mean or the spread overflows.
func svgdMeanScale(v []float64, stride int) (mean, scale float64, ok bool) {
	n := 0
	for i := 0; i < len(v); i += stride {
		mean += v[i]
		n++
	}
	mean /= float64(n)
	var ss float64
	for i := 0; i < len(v); i += stride {
		ss += (v[i] - mean) * (v[i] - mean)
	}
	scale = math.Sqrt(ss / float64(n))
	if scale <= float64(n)*0x1p-52*math.Abs(mean) {
		scale = 1
	}
	return mean, scale, svgdFinite(mean) && svgdFinite(scale)
}

// learnStandardization sets the model's standardization from the
// training rows (x, y), row-major with Inputs features.
func (m *SVGD) learnStandardization(x, y []float64) error {
	d := m.cfg.Inputs
	m.xMean, m.xScale = make([]float64, d), make([]float64, d)
	for j := range d {
		var ok bool
		if m.xMean[j], m.xScale[j], ok = svgdMeanScale(x[j:], d); !ok {
			return fmt.Errorf("%w: feature %d's mean or spread overflows", gcp.ErrNonFinite, j)
		}
	}
	var ok bool
	if m.yMean, m.yScale, ok = svgdMeanScale(y, 1); !ok {
		return fmt.Errorf("%w: the targets' mean or spread overflows", gcp.ErrNonFinite)
	}
	return nil
}

// standardizeInputs writes the rows of x, standardized, to dst.
func (m *SVGD) standardizeInputs(dst, x []float64) {
	d := m.cfg.Inputs
	for i, v := range x {
		j := i % d
		dst[i] = (v - m.xMean[j]) / m.xScale[j]
	}
}

// standardizeTargets writes the targets y, standardized, to dst.
func (m *SVGD) standardizeTargets(dst, y []float64) {
	for i, v := range y {
		dst[i] = (v - m.yMean) / m.yScale
	}
}
