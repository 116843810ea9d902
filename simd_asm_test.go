//go:build (amd64 || arm64) && gc && !purego

package gcp

import (
	"fmt"
	"math"
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

// TestGCPLoss32Same checks, for every instruction set, that the float32
// loss kernel, whose assembly (gcpLossLanes32) widens the operands as it
// loads them and rounds the gradients as it stores them, writes what the
// float64 kernel of the same set writes on the operands converted to
// float64, with the gradients then rounded to float32, bit for bit, and
// returns the same sum: every length up to 70, at each offset, a learned
// and a fixed α, with NaN, ±Inf and huge values among the operands.
func TestGCPLoss32Same(t *testing.T) {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e30, -1e30, 0, 40, -800}
	r := rand.New(rand.NewPCG(21, 22))
	for i, k32 := range asmTables32 {
		k64 := asmTables64[i]
		for _, fa := range []float64{0, 2.5} {
			for n := 0; n <= 70; n++ {
				for off := 0; off < 4; off++ {
					what := fmt.Sprintf("%s fixedAlpha=%v n=%d off=%d", k32.name, fa, n, off)
					var in32 [5][]float32
					var in64 [5][]float64
					for j := range in32 {
						in32[j], in64[j] = make([]float32, off+n)[off:], make([]float64, n)
						for i := range in32[j] {
							v := float32(r.NormFloat64() * 3)
							if r.IntN(12) == 0 {
								v = specials[r.IntN(len(specials))]
							}
							in32[j][i], in64[j][i] = v, float64(v)
						}
					}
					var out32 [4][]float32
					var out64 [4][]float64
					for j := range out32 {
						out32[j], out64[j] = make([]float32, off+n)[off:], make([]float64, n)
					}
					sum32 := k32.gcpLoss(in32[0], in32[1], in32[2], in32[3], in32[4], fa, 0.25, out32[0], out32[1], out32[2], out32[3])
					sum64 := k64.gcpLoss(in64[0], in64[1], in64[2], in64[3], in64[4], fa, 0.25, out64[0], out64[1], out64[2], out64[3])
					if !ktSame(sum32, sum64) {
						t.Fatalf("%s: sum %v, float64 kernel %v", what, sum32, sum64)
					}
					for j := range out32 {
						if j == 1 && fa != 0 {
							continue // ga is not written with a fixed α
						}
						for i, v := range out32[j] {
							if !ktSame(v, float32(out64[j][i])) {
								t.Fatalf("%s: output %d sample %d = %v, float64 kernel's rounded %v", what, j, i, v, float32(out64[j][i]))
							}
						}
					}
				}
			}
		}
	}
}
