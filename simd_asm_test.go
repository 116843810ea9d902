//go:build (amd64 || arm64) && gc && !purego

package gcp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGemmRowsSame checks, for every instruction set, that gemmAsm.rows,
// which hands the rows past the last whole tile to the single-row kernel,
// writes C bit for bit as one call of the broadcast kernel over all rows
// does, guards included, for every row count up to three tiles and a
// half, both orientations of A (a layer's forward pass and its weight
// gradient), each flag, and operands with NaN and ±Inf: training must not
// change by a bit.
func TestGemmRowsSame(t *testing.T) {
	for i, s := range asmSets32 {
		t.Run(asmTables32[i].name+"/float32", func(t *testing.T) { ktTestGemmRows(t, &s.gemm) })
		t.Run(asmTables64[i].name+"/float64", func(t *testing.T) { ktTestGemmRows(t, &asmSets64[i].gemm) })
	}
}

func ktTestGemmRows[T Float](t *testing.T, g *gemmAsm[T]) {
	r := rand.New(rand.NewPCG(5, 13))
	for m := 1; m <= 3*g.tileRows+g.tileRows/2; m++ {
		for _, n := range []int{1, 7, 16, 33, 200} {
			for _, k := range []int{0, 1, 13, 32} {
				for _, flags := range []int{0, gemmBias, gemmBias | gemmReLU, gemmAccum, gemmAccum | gemmReLU} {
					for _, transposed := range []bool{false, true} {
						name := fmt.Sprintf("m=%d/n=%d/k=%d/flags=%d/transposed=%v", m, n, k, flags, transposed)
						ktCheckGemmRows(t, name, g, r, m, n, k, flags, transposed)
					}
				}
			}
		}
	}
}

func ktCheckGemmRows[T Float](t *testing.T, name string, g *gemmAsm[T], r *rand.Rand, m, n, k, flags int, transposed bool) {
	// A(i, q) = a[i*ars + q*aqs]: row-major with a stride of k+2, or
	// column-major (the weight gradient's xᵀ) with a stride of m+1.
	ars, aqs, aLen := k+2, 1, m*(k+2)
	if transposed {
		ars, aqs, aLen = 1, m+1, max(k, 1)*(m+1)
	}
	ldb, ldc := n+3, n+1
	a, b := make([]T, aLen), make([]T, max(k, 1)*ldb)
	bias := make([]T, n)
	for _, v := range [][]T{a, b, bias} {
		ktFill(r, v, 1) // one in 16 a NaN, ±Inf, ±0, subnormal or extreme
	}
	want := make([]T, m*ldc+ktGuardLen)
	ktFill(r, want, 1)
	for i := m*ldc - 1; i < len(want); i++ {
		want[i] = ktGuard[T](uint16(i))
	}
	got := append([]T(nil), want...)
	var pb *T
	if flags&gemmBias != 0 {
		pb = ptr(bias)
	}
	g.bcast(m, n, k, ptr(a), ars, aqs, ptr(b), ldb, ptr(want), ldc, pb, flags)
	g.rows(m, n, k, ptr(a), ars, aqs, ptr(b), ldb, ptr(got), ldc, pb, flags)
	for i := range want {
		if ktBits(got[i]) != ktBits(want[i]) {
			t.Fatalf("%s: element %d (row %d) is %v, want %v", name, i, i/ldc, got[i], want[i])
		}
	}
}
