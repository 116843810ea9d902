// Package onese is the one-standard-error rule of model selection
// (Breiman et al., "Classification and Regression Trees", 1984): among
// models scored on the same held-out rows, keep the simplest one whose
// mean loss is within one standard error of the best's, so that the noise
// of a finite validation set does not pick a costlier or riskier model
// that the data do not clearly favour. AutoFit uses it to choose the
// architecture and the target transform.
package onese

import "math"

// Pick returns the index of the first of the models, ordered from the
// simplest, whose per-row losses on the same rows are losses[i] (nil for
// a model that failed) and whose mean is within one standard error of the
// best model's: the standard error of the mean of the paired per-row
// differences between the two. The first model must have a loss for
// every row, and so must any other that is not nil.
func Pick(losses [][]float64) int {
	best := 0
	for i, v := range losses {
		if v != nil && mean(v) < mean(losses[best]) {
			best = i
		}
	}
	d := make([]float64, len(losses[best]))
	for i, v := range losses[:best] {
		if v == nil {
			continue
		}
		for j := range v {
			d[j] = v[j] - losses[best][j]
		}
		md := mean(d)
		var ss float64
		for _, x := range d {
			ss += (x - md) * (x - md)
		}
		if se := math.Sqrt(ss / float64(len(d)-1) / float64(len(d))); md <= se {
			return i
		}
	}
	return best
}

// mean returns the mean of v.
func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
