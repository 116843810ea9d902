//go:build gc && !purego

package gcp

import "golang.org/x/sys/cpu"

// useAVX2FMA reports whether the CPU (and the OS, through XGETBV) supports
// AVX2 and FMA3, the instructions of simd_amd64.s. GODEBUG=cpu.avx2=off
// turns it off, and with it every assembly kernel.
var useAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func init() {
	if useAVX2FMA {
		k32, k64 := asmKernels("avx2fma")
		k32.outputBackward = outputBackward32
		k64.outputBackward = outputBackward64
		kernels32, kernels64 = k32, k64
	}
}

// outputBackwardF32 is outputBackwardVia's composition in one pass, for m,
// heads ≥ 1 and k ≥ 0, with x, dx, mask and act m rows of heads·k (mask,
// act and colsum may be nil):
//
//	for i := range m { for h := range heads {
//		d := dy[h*m+i]; db[h] += d
//		for p := range k { j := h*k + p; e := i*heads*k + j
//			dw[j] += d * x[e]             // fused, onto dw
//			s := d * w[j]                 // fused onto 0, as a k = 1 product
//			if mask != nil { s *= mask[e] }
//			if act != nil && !(act[e] > 0) { s = 0 }
//			dx[e] = s
//			if colsum != nil { colsum[j] += s } } } }
//
//go:noescape
func outputBackwardF32(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float32)

// outputBackwardF64 is outputBackwardF32 for float64.
//
//	for i := range m { for h := range heads {
//		d := dy[h*m+i]; db[h] += d
//		for p := range k { j := h*k + p; e := i*heads*k + j
//			dw[j] += d * x[e]             // fused, onto dw
//			s := d * w[j]                 // fused onto 0, as a k = 1 product
//			if mask != nil { s *= mask[e] }
//			if act != nil && !(act[e] > 0) { s = 0 }
//			dx[e] = s
//			if colsum != nil { colsum[j] += s } } } }
//
//go:noescape
func outputBackwardF64(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float64)

// outputBackwardOperands validates the operands of outputBackwardVia's
// call for the assembly, reports its accesses in race builds, and returns
// whether there is anything to compute.
func outputBackwardOperands[T Float](m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []T) bool {
	if m <= 0 || heads <= 0 {
		return false
	}
	width := heads * k // ≤ len(w), checked first
	need(len(w), 1, 0, width)
	need(len(dw), 1, 0, width)
	need(len(db), 1, 0, heads)
	need(len(dy), heads, m, m)
	need(len(x), m, width, width)
	need(len(dx), m, width, width)
	for _, v := range [][]T{mask, act} {
		if v != nil { // nil: no dropout, or no ReLU
			need(len(v), m, width, width)
		}
	}
	if colsum != nil {
		need(len(colsum), 1, 0, width)
	}
	if raceEnabled {
		raceRead(dy[:heads*m], w[:width])
		raceMat(x, m, width, width, false)
		raceWrite(dw[:width], db[:heads])
		raceMat(dx, m, width, width, true)
		for _, v := range [][]T{mask, act} {
			if v != nil {
				raceMat(v, m, width, width, false)
			}
		}
		if colsum != nil {
			raceWrite(colsum[:width])
		}
	}
	return true
}

// outputBackward32 and outputBackward64 are outputBackwardVia's result in
// assembly.
func outputBackward32(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []float32) {
	if outputBackwardOperands(m, heads, k, dy, x, w, dw, db, dx, mask, act, colsum) {
		outputBackwardF32(m, heads, k, ptr(dy), ptr(x), ptr(w), ptr(dw), ptr(db), ptr(dx), ptr(mask), ptr(act), ptr(colsum))
	}
}

func outputBackward64(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []float64) {
	if outputBackwardOperands(m, heads, k, dy, x, w, dw, db, dx, mask, act, colsum) {
		outputBackwardF64(m, heads, k, ptr(dy), ptr(x), ptr(w), ptr(dw), ptr(db), ptr(dx), ptr(mask), ptr(act), ptr(colsum))
	}
}

// gemmTileRows is the height of gemmBcast's tiles; gemmRows gives up to
// gemmLoneRows rows left over from whole tiles to gemmBcast1 instead, for
// which one row of B's columns, read from L1 or L2, costs 1.2 to 2.3 rows
// of a tile's work (a minibatch of 32 on the paper's UCI networks, one
// network and five), where a tile costs six.
const gemmTileRows, gemmLoneRows = 6, 2

// gemmBcast1F32 is gemmBcastF32 for a single row of C (m = 1), with tiles
// of 64 columns, since one row gives too few independent accumulators in a
// six-row tile:
//
//	for j := range n {
//		s := 0 (or bias[j], or c[j]); for q := range k { s += a[q*aqs] * b[q*ldb+j] }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[j] = s }
//
//go:noescape
func gemmBcast1F32(n, k int, a *float32, aqs int, b *float32, ldb int, c *float32, bias *float32, flags int)

// gemmBcast1F64 is gemmBcast1F32 for float64, with tiles of 32 columns.
//
//	for j := range n {
//		s := 0 (or bias[j], or c[j]); for q := range k { s += a[q*aqs] * b[q*ldb+j] }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[j] = s }
//
//go:noescape
func gemmBcast1F64(n, k int, a *float64, aqs int, b *float64, ldb int, c *float64, bias *float64, flags int)

// gcpLanes is how many samples gcpLossF64 takes at a time: the four
// float64 of a YMM.
const gcpLanes = 4

// gcpTmpLen is the length of gcpLossF64's scratch buffer: 31 vectors of
// four float64, as the special functions need all sixteen registers.
const gcpTmpLen = 124
