//go:build gc && !purego

package gcp

import "golang.org/x/sys/cpu"

// useAVX2FMA reports whether the CPU (and the OS, through XGETBV) supports
// AVX2 and FMA3, the instructions of simd_amd64.s. GODEBUG=cpu.avx2=off
// turns it off, and with it every assembly kernel.
var useAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func init() {
	if useAVX2FMA {
		kernels32, kernels64 = asmKernels("avx2fma")
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

// gcpLanes is how many samples gcpLossF64 takes at a time: the four
// float64 of a YMM.
const gcpLanes = 4

// gcpTmpLen is the length of gcpLossF64's scratch buffer: 31 vectors of
// four float64, as the special functions need all sixteen registers.
const gcpTmpLen = 124
