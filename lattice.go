package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
)

// A quantized target takes its values on a lattice a + k·h: integer
// scores (h = 1), prices in cents (h = 0.01), a measurement printed with
// one decimal (h = 0.1). A continuous predictive of such a target has an
// unbounded likelihood: a density can pile up without limit on the
// values that occur, so a network trained by maximum likelihood learns a
// spike on the most common value, with a variance far below the rounding
// the data went through, and a calibrated interval of nearly zero width
// there. AutoFit therefore trains on dequantized targets, y + u with u
// uniform on (−h/2, h/2) and drawn anew at every step (as density models
// of discrete data do, Uria et al. 2013, Theis et al. 2016): their
// density is bounded by 1/h, and their variance about any mean exceeds
// the rounding's h²/12, so the learned variances cannot collapse below
// the quantization. The calibration is fitted to dequantized targets too
// (drawn once from the seed), so that the calibrated predictive describes
// the same variable that the model learned: fitted to the raw scores, it
// shrinks the variance by h²/12 and its central intervals stop short of
// the neighbouring scores (on synth.Scores, a 95% interval covered 0.92
// of new scores so, against 0.97 calibrated on dequantized ones). Where
// h is small against the noise, the added h²/12 is negligible.

// maxLatticeDivisor is the largest j for which targetLattice tries the
// spacing d/j, where d is the smallest gap between distinct values: the
// gaps of {0, 0.2, 0.5} are multiples of 0.1 = 0.2/2, though no gap is
// 0.1 itself.
const maxLatticeDivisor = 10

// latticeTolerance is how far, in units of h, a value may lie from the
// lattice, beyond its rounding, and still count as on it: far below any
// real gap.
const latticeTolerance = 1e-6

// epsilon is the float64 machine epsilon, the gap between 1 and the next
// float64.
const epsilon = 0x1p-52

// maxLatticeRange bounds the largest |target| in units of h: a lattice
// finer than a billionth of the targets' magnitude is the rounding of
// float64 arithmetic, not a quantization of the data.
const maxLatticeRange = 1e9

// targetLattice returns the spacing h of the lattice on which the
// targets y lie, or 0 when they do not lie on one that matters. The
// targets count as quantized when every distinct value lies on a + k·h
// (within its rounding; onLattice), with a the smallest value and h the
// smallest gap between distinct values divided by j = 1, …,
// maxLatticeDivisor (the first j that fits), and the lattice is coarse
// against the data: it has no more points between the smallest and the
// largest target than there are targets, so that values repeat. A
// continuous target printed with all its digits lies on a lattice too,
// but on one too fine to matter, and gets 0; so does a constant target.
func targetLattice[T Float](y []T) float64 {
	u := make([]float64, len(y))
	for i, v := range y {
		u[i] = float64(v)
	}
	slices.Sort(u)
	u = slices.Compact(u)
	if len(u) < 2 {
		return 0
	}
	gap := math.Inf(1)
	for i := 1; i < len(u); i++ {
		gap = min(gap, u[i]-u[i-1])
	}
	span := u[len(u)-1] - u[0]
	for j := 1; j <= maxLatticeDivisor; j++ {
		points := math.Round(span / (gap / float64(j)))
		if !(points <= float64(len(y))) {
			return 0 // finer lattices only have more points
		}
		// The spacing from the whole span, whose rounding is the
		// smallest share of it.
		if h := span / points; onLattice(u, h) {
			return h
		}
	}
	return 0
}

// onLattice reports whether every value of the sorted u lies on
// u[0] + k·h for an integer k, to within latticeTolerance plus the
// rounding of the values, of their differences and of h: a few units of
// ε·max|u| each, which is 8ε·max|u|/h in units of h.
func onLattice(u []float64, h float64) bool {
	big := max(math.Abs(u[0]), math.Abs(u[len(u)-1]))
	if !(big/h <= maxLatticeRange) {
		return false
	}
	tol := latticeTolerance + 8*epsilon*big/h
	for _, v := range u[1:] {
		k := (v - u[0]) / h
		if math.Abs(k-math.Round(k)) > tol {
			return false
		}
	}
	return true
}

// targetLattices returns, for y row-major with d targets a row, each
// target's lattice spacing (targetLattice, 0 for a continuous one), or
// nil when no target is quantized: a model of continuous targets trains
// exactly as it would without the lattice check.
func targetLattices[T Float](y []T, d int) []float64 {
	quanta := make([]float64, d)
	col := make([]T, len(y)/d)
	quantized := false
	for j := range quanta {
		for i := range col {
			col[i] = y[i*d+j]
		}
		quanta[j] = targetLattice(col)
		quantized = quantized || quanta[j] > 0
	}
	if !quantized {
		return nil
	}
	return quanta
}

// dequantize adds to each quantized target of y, row-major with
// len(quanta) targets a row, uniform noise on (−h/2, h/2) for its
// spacing h, drawn from r in the order of the values; a target of
// spacing 0 is left as it is and draws nothing.
func dequantize[T Float](y []T, quanta []float64, r *rand.Rand) {
	d := len(quanta)
	for i := 0; i < len(y); i += d {
		for j, h := range quanta {
			if h > 0 {
				y[i+j] = T(float64(y[i+j]) + h*(r.Float64()-0.5))
			}
		}
	}
}
