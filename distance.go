package gcp

import "math"

// The distance of an input row from the training data (Prediction.InputZ)
// for a model whose Encoding has codes: the one-hot inputs of categorical
// columns and the missing indicators. The robust z-score of such an input
// says nothing useful: a level held by a twentieth of the training rows
// has a z of about 4.4, and one held by a thousandth one of 32, while a
// level training never saw, all zeros, has a z of 0. So a code is not
// measured by its z but by how rare its level was: a level the training
// rows held with frequency f is as unusual as the normal z-score whose
// two-sided tail probability is the share of training rows whose level
// was no more frequent than f, and a code no training row had (a level
// never seen, a missing value in a column that had none) is infinitely
// far. The row's distance is the largest of these and of its numeric
// inputs' robust z-scores.

// codeDistances replaces each row's InputZ in z, which the standardization
// kernel set to the largest |u| over all of the row's inputs, with its
// distance for the encoding e: the largest |u| over the numeric values
// and the dates' days only, or the z of the rarest code among the row's
// columns if that is larger. x holds the rows as given, u standardized. It allocates nothing.
func (m *Model[T]) codeDistances(e *Encoding, x, u []T, z []float64) {
	d := m.cfg.Inputs
	for i := range z {
		xi, ui := x[i*d:(i+1)*d], u[i*d:(i+1)*d]
		var big float64
		p := 1.0 // the smallest tail probability of the row's codes
		for c := range e.columns {
			col, start, end := &e.columns[c], e.start[c], e.start[c+1]
			if col.Kind == Categorical {
				p = min(p, m.codeTail(xi, start, end, false))
				continue
			}
			// A number, or a date's days: its weekday's and month's
			// circles lie on every date's.
			big = max(big, math.Abs(float64(ui[start])))
			if col.Missing {
				p = min(p, m.codeTail(xi, end-1, end, true))
			}
		}
		if p < 1 {
			big = max(big, -standardNormalQuantile(p/2))
		}
		if p == 0 {
			big = math.Inf(1)
		}
		z[i] = big
	}
}

// codeTail returns the tail probability of the code x[start:end] of one
// column: the share of the training rows whose level was no more frequent
// than the code's, by the frequencies levelFrequency derives from the
// standardization; 0 for a code no training row had: not one input 1 and
// the others 0, unless zeroKnown (a missing indicator, whose 0 is a value
// present, which the indicator does not measure: 1). A known code of a
// model whose standardization was not learned gives 1: its frequency is
// not known.
func (m *Model[T]) codeTail(x []T, start, end int, zeroKnown bool) float64 {
	hot, ok := hotInput(x[start:end])
	if !ok {
		return 0
	}
	switch {
	case hot < 0 && zeroKnown:
		return 1
	case hot < 0:
		return 0
	case !m.standardized:
		return 1
	}
	hot += start
	f := levelFrequency(m.xMean[hot], m.xScale[hot])
	var tail float64
	for j := start; j < end; j++ {
		if g := levelFrequency(m.xMean[j], m.xScale[j]); g <= f {
			tail += g
		}
	}
	if zeroKnown && 1-f <= f { // the value present, the indicator's other level
		tail += 1 - f
	}
	return min(tail, 1)
}

// levelFrequency returns the share of the standardization's rows in
// which an input that is 0 or 1 was 1, derived from its standardization
// (robust.CenterScale): the median is 0 below a half and 1 above; where
// the quartiles tie (a share below a quarter or above three quarters) the
// scale is the standard deviation √(f(1−f)), which gives f; a constant
// input has scale 1 and its value as its median. Between a quarter and
// three quarters the quartiles are 0 and 1 and the share is not recorded:
// it returns a quarter, a half or three quarters by the median, which
// makes such a common level count as common. Where a quartile falls
// between the last 0 and the first 1 (a share within a row of a quarter
// or three quarters) the scale is a fraction of the interquartile range,
// which reads as a rarer level's; the level then counts as more unusual
// than it was.
func levelFrequency(center, scale float64) float64 {
	switch {
	case scale == 1 && (center == 0 || center == 1):
		return center
	case scale <= 0.5:
		r := math.Sqrt(max(0, 1-4*scale*scale))
		if center < 0.5 {
			return (1 - r) / 2
		}
		return (1 + r) / 2
	case center == 0:
		return 0.25
	case center == 1:
		return 0.75
	}
	return 0.5
}

// unknown reports whether p is the prediction for an input that holds a
// code no training row had, whose calibrated and conformal intervals are
// unknown.
func (p *Prediction) unknown() bool { return math.IsInf(p.InputZ, 1) }

// unknownInterval returns the interval of a prediction whose calibration
// says nothing, (−Inf, +Inf), for a level in (0, 1), and ErrLevel for any
// other.
func unknownInterval(level float64) (lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, ErrLevel
	}
	return math.Inf(-1), math.Inf(1), nil
}
