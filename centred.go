package gcp

// Which inputs most rows hold at their centre, and so at 0 once
// standardized: those the first layer serves a row of weights at a time
// (sparseInputs) rather than by a dense product. A text column's one-hot
// inputs and the missing-value indicators are such inputs: a level's
// median is 0, or 1 for a level of more than half the rows, and the
// median of a column of 0s and 1s is the value most rows take. The choice
// changes the cost of a pass, never its numbers beyond rounding.

// centredInputs reports, for each input, whether at least half of the
// rows of set hold it at the model's centre (none of an empty set).
func (m *Model[T]) centredInputs(set rowSet[T]) []bool {
	d, n := set.d, set.len()
	count := make([]int, d)
	for i := range n {
		r := set.row(i)
		for j, v := range set.x[r*d : (r+1)*d] {
			if float64(v) == m.xMean[j] {
				count[j]++
			}
		}
	}
	centred := make([]bool, d)
	for j, c := range count {
		centred[j] = n > 0 && 2*c >= n
	}
	return centred
}

// recordedCentredInputs reports, for each input, whether its centre is
// the smallest or the largest value of the recorded training rows
// (FeatureRanges): the centre is their median, so at least half of them
// held it. It returns nil without a record or a standardization.
func (m *Model[T]) recordedCentredInputs() []bool {
	if m.xMin == nil || !m.standardized {
		return nil
	}
	centred := make([]bool, m.cfg.Inputs)
	for j, c := range m.xMean {
		centred[j] = c == m.xMin[j] || c == m.xMax[j]
	}
	return centred
}
