//go:build arm64 && gc && !purego

package gcp

import (
	"fmt"
	"math"
	"testing"
)

// The assembly of simd_arm64.s reads and writes without bounds checks, so
// the Go wrappers of simd_arm64.go validate every operand first. These
// tests give each wrapper an operand one element too short (or a leading
// dimension smaller than the width) and require a panic with every buffer,
// including the elements past the short operand, left as it was.
// (simd_test.go compares the kernels' results with the generic ones, and
// simd_arm64_words_test.go checks the hand-encoded instructions.)

// neonCall runs f, which must panic, and checks that bufs did not change.
func neonCall[T Float](t *testing.T, what string, bufs [][]T, f func()) {
	t.Helper()
	saved := make([][]T, len(bufs))
	for i, b := range bufs {
		saved[i] = append([]T(nil), b...)
	}
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return
	}()
	if !panicked {
		t.Errorf("%s: no panic", what)
	}
	for i, b := range bufs {
		for j := range b {
			if math.Float64bits(float64(b[j])) != math.Float64bits(float64(saved[i][j])) {
				t.Errorf("%s: buffer %d element %d changed before the panic", what, i, j)
				break
			}
		}
	}
}

// neonBufs returns n buffers of length size+8 filled with distinct values.
func neonBufs[T Float](n, size int) [][]T {
	bufs := make([][]T, n)
	for i := range bufs {
		bufs[i] = make([]T, size+8)
		for j := range bufs[i] {
			bufs[i][j] = T(1 + i*1000 + j)
		}
	}
	return bufs
}

func neonTestOperandChecks[T Float](t *testing.T) {
	k := kernelsFor[T]()
	if k.name != "neon" {
		t.Fatalf("active kernels are %q, want neon", k.name)
	}
	const m, n, kk = 5, 6, 7
	// Shapes: x m×kk (ld kk), w kk×n, b n, y m×n (ld n); short[i] shortens
	// operand i by one element.
	lens := func(short int) [4]int {
		l := [4]int{m * kk, kk * n, n, m * n}
		if short >= 0 {
			l[short]--
		}
		return l
	}
	for short := 0; short < 4; short++ {
		l := lens(short)
		bufs := neonBufs[T](4, m*n*kk)
		x, w, b, y := bufs[0][:l[0]:l[0]], bufs[1][:l[1]:l[1]], bufs[2][:l[2]:l[2]], bufs[3][:l[3]:l[3]]
		neonCall(t, "linearForward, short operand", bufs, func() { k.linearForward(m, n, kk, x, kk, w, b, y, n, true) })
		// Backward weights: dy as y, x, dw as w, db as b.
		neonCall(t, "linearBackwardWeights, short operand", bufs, func() { k.linearBackwardWeights(m, n, kk, y, n, x, kk, w, b) })
		if short != 2 {
			// Backward input: dy as y, w, dx as x.
			neonCall(t, "linearBackwardInput, short operand", bufs, func() { k.linearBackwardInput(m, n, kk, y, n, w, x, kk) })
		}
	}
	{
		bufs := neonBufs[T](4, m*n*kk)
		x, w, b, y := bufs[0][:m*kk], bufs[1][:kk*n], bufs[2][:n], bufs[3][:m*n]
		neonCall(t, "linearForward, ldy < n", bufs, func() { k.linearForward(m, n, kk, x, kk, w, b, y, n-1, false) })
		neonCall(t, "linearForward, ldx < k", bufs, func() { k.linearForward(m, n, kk, x, kk-1, w, b, y, n, false) })
		neonCall(t, "linearBackwardInput, lddx < k", bufs, func() { k.linearBackwardInput(m, n, kk, y, n, w, x, kk-1) })
	}
	const size = 37
	bufs := neonBufs[T](7, size)
	v := func(i int) []T { return bufs[i][:size] }
	s := func(i int) []T { return bufs[i][: size-1 : size-1] } // capacity cut: reslicing to len(v) must fail
	neonCall(t, "mul", bufs, func() { k.mul(v(0), s(1)) })
	neonCall(t, "mulTo", bufs, func() { k.mulTo(v(0), v(1), s(2)) })
	neonCall(t, "reluBackward", bufs, func() { k.reluBackward(v(0), s(1)) })
	neonCall(t, "tanhBackward", bufs, func() { k.tanhBackward(v(0), s(1)) })
	neonCall(t, "axpy", bufs, func() { k.axpy(2, v(0), s(1)) })
	neonCall(t, "sgd", bufs, func() { k.sgd(v(0), v(1), s(2), 0.1) })
	neonCall(t, "nesterov", bufs, func() { k.nesterov(v(0), v(1), v(2), v(3), s(4), 0.1, 0.9) })
	neonCall(t, "rmsprop", bufs, func() { k.rmsprop(v(0), s(1), v(2), v(3), v(4), 0.1, 0.9, 1e-8) })
	neonCall(t, "adam", bufs, func() { k.adam(v(0), v(1), v(2), v(3), v(4), v(5), s(6), 0.1, 0.9, 0.999, 1e-8) })
	// outputForward: x m×(heads·kk), w heads·kk, b heads, y heads·m, each
	// one element short in turn.
	const heads = 3
	olens := [4]int{m * heads * kk, heads * kk, heads, heads * m}
	for short := 0; short < 4; short++ {
		obufs := neonBufs[T](4, m*heads*kk)
		op := make([][]T, 4)
		for i := range op {
			n := olens[i]
			if i == short {
				n--
			}
			op[i] = obufs[i][:n:n]
		}
		neonCall(t, fmt.Sprintf("outputForward, operand %d short", short), obufs, func() {
			k.outputForward(m, heads, kk, op[0], heads*kk, op[1], op[2], op[3])
		})
	}
	// softplus: x short; dst (float64) must stay as it was too.
	dst := make([]float64, size+8)
	for j := range dst {
		dst[j] = float64(-1 - j)
	}
	neonCall(t, "softplus", bufs, func() { k.softplus(dst[:size], s(0)) })
	for j, d := range dst {
		if d != float64(-1-j) {
			t.Errorf("softplus: dst element %d changed before the panic", j)
			break
		}
	}
	// gcpLoss takes zm, za, zb, zn, y, gm, ga, gb, gn, n = len(y): every
	// other operand one element short in turn, with α learned.
	gbufs := neonBufs[T](9, size)
	for short := 0; short < 9; short++ {
		if short == 4 {
			continue
		}
		op := make([][]T, 9)
		for i := range op {
			op[i] = gbufs[i][:size]
			if i == short {
				op[i] = gbufs[i][: size-1 : size-1]
			}
		}
		neonCall(t, fmt.Sprintf("gcpLoss, operand %d short", short), gbufs, func() {
			k.gcpLoss(op[0], op[1], op[2], op[3], op[4], 0, 1, op[5], op[6], op[7], op[8])
		})
	}
}

func TestNEONOperandChecks(t *testing.T) {
	t.Run("float32", neonTestOperandChecks[float32])
	t.Run("float64", neonTestOperandChecks[float64])
}

// TestNEONGemmFlags covers what the layer kernels never ask of the matrix
// kernels but their contract allows: gemmBias and gemmReLU on an
// accumulating call, and strided A in both directions.
func TestNEONGemmFlags(t *testing.T) {
	const m, n, k = 6, 19, 5
	a := make([]float64, m*k*3)
	b := make([]float64, k*n)
	bias := make([]float64, n)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	for i := range bias {
		bias[i] = float64(i) - 9
	}
	for _, flags := range []int{0, gemmBias, gemmAccum, gemmBias | gemmReLU, gemmAccum | gemmReLU} {
		for _, strides := range [][2]int{{k, 1}, {1, m}, {3 * k, 3}} {
			ars, aqs := strides[0], strides[1]
			c := make([]float64, m*n)
			want := make([]float64, m*n)
			for i := range c {
				c[i] = float64(i%3) - 1
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var s float64
					switch {
					case flags&gemmAccum != 0:
						s = c[i*n+j]
					case flags&gemmBias != 0:
						s = bias[j]
					}
					for q := 0; q < k; q++ {
						s += a[i*ars+q*aqs] * b[q*n+j] // small integers: exact in any order
					}
					if flags&gemmReLU != 0 {
						s = max(s, 0)
					}
					want[i*n+j] = s
				}
			}
			gemmBcastF64(m, n, k, &a[0], ars, aqs, &b[0], n, &c[0], n, &bias[0], flags)
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("flags %b, strides %v: c[%d] = %v, want %v", flags, strides, i, c[i], want[i])
				}
			}
		}
	}
}
