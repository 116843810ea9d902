package gcp

import (
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

// sortedScores sorts the scores s in place and returns the calibration
// a model keeps of them (thinScores), or nil if there are none.
func sortedScores(s []float64) *conformalScores {
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
	r := c.rank(level)
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

// rank returns the rank ⌈(n+1)·level⌉ of the score that bounds level,
// read as quantile reads it; above n, no score bounds it.
func (c *conformalScores) rank(level float64) float64 {
	return math.Ceil(float64(c.n+1) * level * (1 - conformalLevelSlack))
}

// conformalLevelSlack is how far below a level quantile may read it:
// 2⁻⁵⁰, four units in the last place of a level near 1, which covers the
// decimal-to-binary rounding of any level written with up to 15 digits.
// With the rounding of the product (n+1)·level·(1 − 2⁻⁵⁰) the rank is at
// least (n+1)·level·(1 − 2⁻⁴⁹), so the coverage guarantee is level to
// within 2⁻⁴⁹ of itself.
const conformalLevelSlack = 0x1p-50
