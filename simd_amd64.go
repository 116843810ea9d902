//go:build gc && !purego

package gcp

import "golang.org/x/sys/cpu"

// useAVX2FMA reports whether the CPU (and the OS, through XGETBV) supports
// AVX2 and FMA3, the instructions of simd_amd64.s. GODEBUG=cpu.avx2=off
// turns it off, and with it every assembly kernel.
var useAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func init() {
	if useAVX2FMA {
		// The element-wise kernels take whole vectors: 8 float32 or 4
		// float64; the generic kernels finish the tails.
		kernels32, kernels64 = asmKernels("avx2fma", 8, 4)
	}
}

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

// gcpLanes is how many samples gcpLossLanes takes at a time: the four
// float64 of a YMM.
const gcpLanes = 4

// gcpTmpLen is the length of gcpLossF64's scratch buffer: 31 vectors of
// four float64.
const gcpTmpLen = 124

// gcpLossF64 is gcpLossGeneric for float64 over n samples, n a multiple of
// 4, with the loss sum accumulated per lane; tmp is scratch of gcpTmpLen
// float64. With fixedAlpha ≠ 0 (it must not be −0), za and ga are not used.
//
//	for i := range n {
//		l, dm, da, db, dn := gcpPoint(zm[i], za[i], zb[i], zn[i], y[i], fixedAlpha)
//		sum += l; gm[i], ga[i], gb[i], gn[i] = scale*dm, scale*da, scale*db, scale*dn }
//
//go:noescape
func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64, tmp *float64) float64

// gcpLossLanes is gcpLossF64 with its scratch buffer on the stack; the
// wrappers of simd_asm.go call it for n a multiple of gcpLanes.
func gcpLossLanes(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64 {
	var tmp [gcpTmpLen]float64
	return gcpLossF64(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
}
