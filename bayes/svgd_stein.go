package bayes

import (
	"math"
	"slices"
)

// steinKernel computes the direction of Stein variational gradient
// descent (Liu & Wang 2016, Algorithm 1) for m particles of d parameters
// each, on any target: it sees only the particles and their scores
// ∇ log p, so that the networks' posterior and the tests' Gaussian share
// it. The kernel is the RBF k(x, x′) = exp(−‖x − x′‖²/h) with the
// median heuristic for h (bandwidth).
type steinKernel struct {
	m, d int
	k    []float64 // m × m: the kernel matrix, and first the squared distances
	sq   []float64 // m × m: the squared distances again, sorted for their median
	mix  []float64 // m × d: score − (2/h)·particle, row by row
}

func newSteinKernel(m, d int) *steinKernel {
	return &steinKernel{m: m, d: d, k: make([]float64, m*m), sq: make([]float64, m*m), mix: make([]float64, m*d)}
}

// bandwidth fills s.k with the particles' squared distances and returns
// h = med²/log(m + 1), med² the median of the squared distances (paper:
// Sec. 5; the authors' svgd_kernel, whose h² = ½·med²/log(m+1) with
// k = exp(−dist²/(2h²)) is the same kernel). As in their code (np.median
// of the full squareform matrix) the median runs over all m² entries,
// the m zeros of the diagonal included. A median of 0 (fewer than half
// the pairs apart: a single particle, or coinciding ones) gives h = 1
// instead of the authors' 0, which would make every kernel entry 0/0:
// coinciding particles then have k = 1 and exert no repulsion on each
// other, whatever h is.
func (s *steinKernel) bandwidth(theta []float64) float64 {
	m, d := s.m, s.d
	for i := range m {
		s.k[i*m+i] = 0
		xi := theta[i*d : (i+1)*d]
		for j := i + 1; j < m; j++ {
			v := steinSqDist(xi, theta[j*d:(j+1)*d])
			s.k[i*m+j], s.k[j*m+i] = v, v
		}
	}
	copy(s.sq, s.k)
	slices.Sort(s.sq)
	n := len(s.sq)
	med := s.sq[n/2]
	if n%2 == 0 {
		med = (s.sq[n/2-1] + med) / 2 // np.median's mean of the middle two
	}
	if med == 0 {
		return 1
	}
	return med / math.Log(float64(m+1))
}

// direction writes to phi (m × d) the SVGD direction of every particle i,
//
//	φ(x_i) = (1/m) Σ_j [k(x_j, x_i)·∇log p(x_j) + ∇_{x_j} k(x_j, x_i)],
//
// from the particles theta and their scores (both m × d, row by row), and
// returns the bandwidth h. With ∇_{x_j} k(x_j, x_i) = (2/h)·k_ij·(x_i − x_j)
// both sums are one product with the kernel matrix,
//
//	φ(x_i) = (1/m)·[Σ_j k_ij·(∇log p(x_j) − (2/h)·x_j) + (2/h)·x_i·Σ_j k_ij],
//
// as the authors' svgd_kernel and update compute it (their dxkxy).
func (s *steinKernel) direction(theta, score, phi []float64) float64 {
	m, d := s.m, s.d
	h := s.bandwidth(theta)
	for i, v := range s.k {
		s.k[i] = math.Exp(-v / h)
	}
	c := 2 / h
	for i, v := range score {
		s.mix[i] = v - c*theta[i]
	}
	inv := 1 / float64(m)
	for i := range m {
		row := phi[i*d : (i+1)*d]
		kernelRow := s.k[i*m : (i+1)*m]
		steinCombine(row, kernelRow, s.mix)
		var sum float64
		for _, kij := range kernelRow {
			sum += kij
		}
		xi := theta[i*d : (i+1)*d]
		for p := range row {
			row[p] = (row[p] + c*sum*xi[p]) * inv
		}
	}
	return h
}

// steinCombine sets row = Σ_j w_j·x_j, x_j row j of x (len(w) rows of
// len(row)), adding four rows per pass over row: the product with the
// kernel matrix, the direction's costliest loop after the networks'.
func steinCombine(row, w, x []float64) {
	d := len(row)
	clear(row)
	j := 0
	for ; j+4 <= len(w); j += 4 {
		w0, w1, w2, w3 := w[j], w[j+1], w[j+2], w[j+3]
		x0 := x[j*d : (j+1)*d]
		x1 := x[(j+1)*d : (j+2)*d][:len(x0)]
		x2 := x[(j+2)*d : (j+3)*d][:len(x0)]
		x3 := x[(j+3)*d : (j+4)*d][:len(x0)]
		row := row[:len(x0)]
		for p, v := range x0 {
			row[p] += w0*v + w1*x1[p] + w2*x2[p] + w3*x3[p]
		}
	}
	for ; j < len(w); j++ {
		steinAxpy(w[j], x[j*d:(j+1)*d], row)
	}
}

// steinSqDist returns ‖a − b‖², len(a) = len(b), with four partial sums.
func steinSqDist(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	for len(a) >= 4 && len(b) >= 4 {
		d0, d1, d2, d3 := a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
		a, b = a[4:], b[4:]
	}
	for i, v := range a {
		d := v - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// steinAxpy adds a·x to y, len(y) = len(x).
func steinAxpy(a float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}
