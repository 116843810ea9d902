package gcp

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Conformal intervals (Vovk, Gammerman & Shafer 2005; Lei et al. 2018)
// widen or narrow the calibrated interval Mean ± z·√VarCorrected to
// Mean ± q·√VarCorrected, with q an order statistic of the normalized
// residuals |y − Mean|/√VarCorrected of n calibration rows: the
// ⌈(n+1)·level⌉-th smallest (+Inf if that rank exceeds n). If the
// calibration rows and a new row are exchangeable and the model that
// scores them did not train on any of them, the new row's score is
// equally likely to take any rank among the n+1, so the interval holds
// its target with probability at least ⌈(n+1)·level⌉/(n+1) ≥ level
// (split conformal: Lei et al. 2018, Theorem 2.2), whatever the
// distribution of the data and however wrong the model: for heavy-tailed
// noise, outliers in new data as in old, or a misfit variance head. (A
// common factor on every variance, such as the model's calibration
// scales, changes neither the ranks nor the interval.)
//
// A model keeps its calibration scores as M = min(n, maxConformalScores)
// order statistics: the ⌈j·n/M⌉-th smallest for j = 1..M, all of them
// when n ≤ maxConformalScores. The rank r a level needs is answered with
// the stored one at the least rank ⌈j·n/M⌉ ≥ r, which is never below the
// r-th and at most n/M ranks above it, so every level keeps its
// guarantee and the interval is at most that much more conservative.

// maxConformalScores bounds the order statistics a model keeps, 16 KiB:
// beyond it, a level's rank is rounded up by at most n/2048 ranks, less
// than 0.05% of the level.
const maxConformalScores = 2048

// conformalScores is a model's conformal calibration.
type conformalScores struct {
	n int // calibration rows
	// q[j−1] is the ⌈j·n/M⌉-th smallest score, j = 1..M = len(q);
	// ascending, and +Inf where a residual overflowed.
	q []float64
}

// newConformalScores returns the conformal calibration of the predictions
// preds of the targets y, or nil if there are none.
func newConformalScores[T Float](preds []Prediction, y []T) *conformalScores {
	s := make([]float64, 0, len(preds))
	for i, p := range preds {
		if v := math.Abs(float64(y[i])-p.Mean) / math.Sqrt(p.VarCorrected); !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		return nil
	}
	slices.Sort(s)
	return thinScores(s)
}

// thinScores keeps the order statistics of the ascending scores s that a
// model stores.
func thinScores(s []float64) *conformalScores {
	n := len(s)
	m := min(n, maxConformalScores)
	c := &conformalScores{n: n, q: make([]float64, m)}
	for j := 1; j <= m; j++ {
		c.q[j-1] = s[(int64(j)*int64(n)+int64(m)-1)/int64(m)-1] // the ⌈j·n/m⌉-th smallest, in int64 for 32-bit platforms
	}
	return c
}

// quantile returns the score bound of level in (0, 1): the
// ⌈(n+1)·level⌉-th smallest score, or the stored one just above it, and
// +Inf if the rank exceeds n. The level is read to within
// conformalLevelSlack of itself, so that a decimal level takes the rank
// its decimal value does: 0.8 is stored as 0.8000000000000000444, whose
// exact rank among 9 rows is ⌈10·0.8000000000000000444⌉ = 9, not 8.
func (c *conformalScores) quantile(level float64) float64 {
	r := math.Ceil(float64(c.n+1) * level * (1 - conformalLevelSlack))
	if r > float64(c.n) {
		return math.Inf(1)
	}
	// j = ⌊(r−1)·M/n⌋ + 1 is the least j with ⌈j·n/M⌉ ≥ r. The product
	// takes up to 64 bits (n ≤ 2⁵³, M ≤ 2¹¹), beyond int64, so it is
	// formed in 128 bits; the quotient is below M.
	hi, lo := bits.Mul64(uint64(max(1, r))-1, uint64(len(c.q)))
	j, _ := bits.Div64(hi, lo, uint64(c.n))
	return c.q[j]
}

// conformalLevelSlack is how far below a level quantile may read it:
// 2⁻⁵⁰, four units in the last place of a level near 1, which covers the
// decimal-to-binary rounding of any level written with up to 15 digits.
// With the rounding of the product (n+1)·level·(1 − 2⁻⁵⁰) the rank is at
// least (n+1)·level·(1 − 2⁻⁴⁹), so the coverage guarantee is level to
// within 2⁻⁴⁹ of itself.
const conformalLevelSlack = 0x1p-50

// ConformalInterval returns the conformal interval of the prediction p at
// level in (0, 1): Mean ± q·√VarCorrected, q from the model's conformal
// calibration (see the package's conformal.go for the method); under a
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
// It returns ErrLevel for a level outside (0, 1), ErrNoConformal for a
// model without a conformal calibration (one trained without held-out
// rows, or saved by an older release), and ErrConfig for a nil model.
func (m *Model[T]) ConformalInterval(p Prediction, level float64) (lo, hi float64, err error) {
	switch {
	case m == nil:
		return 0, 0, fmt.Errorf("%w: nil Model", ErrConfig)
	case m.ext.conformal == nil:
		return 0, 0, ErrNoConformal
	case !(level > 0 && level < 1):
		return 0, 0, ErrLevel
	}
	if p.Transform != TransformNone {
		return p.transformedInterval(level, m.ConformalInterval)
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

// The conformal section of format version 5 (sectionConformal) holds a
// model's conformal calibration:
//
//	offset  size  field
//	0       8     n, uint64: the calibration rows, 1 to 2⁵³
//	8       8·M   the M = min(n, 2048) order statistics kept, float64,
//	              ascending, each at least 0 (+Inf where a residual
//	              overflowed)
//
// A model without a conformal calibration has no such section.

// maxConformalRows bounds a conformal calibration's rows, 2⁵³: a count
// float64 holds exactly, so that quantile's rank ⌈(n+1)·level⌉ and its
// test r > n are exact up to the level's own rounding, and far beyond
// any data set (2⁵³ scores alone are 64 PiB). A file that claims more
// was not written by this package.
const maxConformalRows = 1 << 53

// conformalMaxLen bounds the conformal section's payload.
func conformalMaxLen(int) int64 { return 8 + 8*maxConformalScores }

// appendConformal appends the conformal section's payload for e.
func appendConformal(b []byte, e *extensions) ([]byte, bool) {
	c := e.conformal
	if c == nil {
		return b, false
	}
	b = le.AppendUint64(b, uint64(c.n))
	for _, v := range c.q {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	return b, true
}

// parseConformal parses the conformal section's payload into e.
func parseConformal(p []byte, e *extensions, _ Config) error {
	if len(p) < 8 {
		return fmt.Errorf("%w: %d bytes, too few for the number of rows", ErrFormat, len(p))
	}
	n := le.Uint64(p)
	m := min(n, maxConformalScores)
	switch {
	case n == 0 || n > min(maxConformalRows, math.MaxInt):
		return fmt.Errorf("%w: %d calibration rows, want 1 to %d", ErrFormat, n, min(maxConformalRows, math.MaxInt))
	case uint64(len(p)) != 8+8*m:
		return fmt.Errorf("%w: %d bytes for %d rows, want %d", ErrFormat, len(p), n, 8+8*m)
	}
	c := &conformalScores{n: int(n), q: make([]float64, m)}
	for j := range c.q {
		v := math.Float64frombits(le.Uint64(p[8+8*j:]))
		if !(v >= 0) || j > 0 && v < c.q[j-1] {
			return fmt.Errorf("%w: order statistic %d is %v, want ascending values ≥ 0", ErrFormat, j, v)
		}
		c.q[j] = v
	}
	e.conformal = c
	return nil
}
