package gcp

import (
	"math"
	"sync"
)

// The correction c_d(ν) at prediction speed. mvtCorrection solves its
// equation by Newton steps, 0.25–1.7 µs a call at d = 3, more than a
// whole forward pass of a small network; a prediction needs it for each
// member. Predictions have ν ≥ mvNuMin = 2, where c_d is a smooth
// function of w = 2/ν ∈ [0, 1]: 1 − c_d(ν) = w·f(w) with f(w) = A_d(1/w)
// (docs/multivariate.md, Sec. 3) and f(0) = 1. mvtCorrectionCheb splits
// [0, 1] into mvtChebPieces equal pieces, interpolates f on each at
// mvtChebNodes Chebyshev nodes, computed from mvtCorrection the first time
// each d is asked for, and evaluates the piece's interpolant by
// Clenshaw's recurrence, each step b₁ ← fma(2x, b₁, c_j − b₂): a chain
// of 19 fused multiply-adds, the subtraction off it, less than half the
// latency of the unfused 2x·b₁ − b₂ + c_j (which rounds three times; the
// two agree within 3.2e-16 relative, measured over d = 2…16), and the
// same on every GOARCH, where the compiler may or may not fuse an
// unfused form. f's derivatives grow fastest at w = 0 (its expansion
// there is only asymptotic), so pieces converge faster than one interpolant of high degree: measured,
// worst over d = 2…16 and ν = 2…2e5, 1.5e-12 with one piece of 48 nodes,
// 7e-11 with 4 pieces of 20, 1.06e-13 with 8 pieces of 20, which
// TestMvtCorrectionChebMatchesSolver bounds.

const (
	mvtChebNodes  = 20 // Chebyshev nodes per piece
	mvtChebPieces = 8  // equal pieces of w ∈ [0, 1]
)

var (
	mvtChebOnce [mvtMaxDim + 1]sync.Once
	mvtChebCoef [mvtMaxDim + 1][mvtChebPieces][mvtChebNodes]float64
)

// mvtCorrectionCheb returns c_d(ν) for 1 ≤ d ≤ mvtMaxDim and ν ≥ 2
// (+Inf gives 1), from the piecewise Chebyshev interpolant of
// mvtCorrection's.
func mvtCorrectionCheb(d int, nu float64) float64 {
	mvtChebOnce[d].Do(func() { mvtChebFit(d) })
	w := 2 / nu
	u := w * mvtChebPieces
	piece := min(int(u), mvtChebPieces-1)
	x := 2*(u-float64(piece)) - 1
	c := &mvtChebCoef[d][piece]
	var b1, b2 float64
	x2 := 2 * x
	for j := mvtChebNodes - 1; j >= 1; j-- {
		b1, b2 = math.FMA(x2, b1, c[j]-b2), b1
	}
	return 1 - w*math.FMA(x, b1, c[0]-b2)
}

// mvtChebFit sets the Chebyshev coefficients of f(w) = (1 − c_d(2/w))/w on
// each piece of w ∈ [0, 1], as functions of x ∈ [−1, 1] across the piece,
// from f's values at the piece's Chebyshev nodes.
func mvtChebFit(d int) {
	const n = mvtChebNodes
	for piece := range mvtChebPieces {
		var f [n]float64
		for k := range n {
			x := math.Cos(math.Pi * (float64(k) + 0.5) / n)
			w := (float64(piece) + (x+1)/2) / mvtChebPieces
			_, gap := mvtCorrection(d, 2/w)
			f[k] = gap / w
		}
		c := &mvtChebCoef[d][piece]
		for j := range n {
			var s float64
			for k := range n {
				s += f[k] * math.Cos(math.Pi*float64(j)*(float64(k)+0.5)/n)
			}
			c[j] = 2 * s / n
		}
		c[0] /= 2
	}
}
