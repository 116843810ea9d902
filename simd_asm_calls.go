//go:build (amd64 || arm64) && gc && !purego

package gcp

// This file holds the assembly stubs of both architectures that their own
// Go files (simd_amd64.go, simd_arm64.go) call as well as simd_asm.go, and
// the race annotations of every call, so that the architectures' files sit
// below simd_asm.go rather than beside it in a cycle.

import "unsafe"

// ptr returns the address of s's first element without a bounds check; the
// assembly reads through it only where need (or a reslice) has checked.
func ptr[T Float](s []T) *T { return unsafe.SliceData(s) }

// raceMat reports to the race detector, in race builds, the assembly's
// reads (or writes) of rows rows of cols elements, ld apart, of s.
func raceMat[T Float](s []T, rows, ld, cols int, write bool) {
	if !raceEnabled || rows <= 0 || cols <= 0 {
		return
	}
	size := int(unsafe.Sizeof(s[0]))
	for i := 0; i < rows; i++ {
		if p := unsafe.Pointer(&s[i*ld]); write {
			raceWriteRange(p, cols*size)
		} else {
			raceReadRange(p, cols*size)
		}
	}
}

// raceRead and raceWrite report the assembly's accesses to whole vectors.
func raceRead[T Float](s ...[]T) {
	for _, v := range s {
		raceMat(v, 1, 0, len(v), false)
	}
}

func raceWrite[T Float](s ...[]T) {
	for _, v := range s {
		raceMat(v, 1, 0, len(v), true)
	}
}

// gemmBcastF32 computes, for a row-major C of m rows (row stride ldc) and n
// columns, with A(i, q) = a[i*ars + q*aqs] and B(q, j) = b[q*ldb + j]:
//
//	for i := range m { for j := range n {
//		s := 0 (or bias[j] with gemmBias, or c[i*ldc+j] with gemmAccum)
//		for q := range k { s += A(i, q) * B(q, j) }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+j] = s } }
//
// It broadcasts A(i, q) over a row of B, with fused multiply-adds, in
// tiles of several rows of C by sixteen columns (six rows with AVX2, four
// with NEON).
//
//go:noescape
func gemmBcastF32(m, n, k int, a *float32, ars, aqs int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)

// gemmBcastF64 is gemmBcastF32 for float64, with tiles eight columns wide.
//
//	for i := range m { for j := range n {
//		s := 0 (or bias[j] with gemmBias, or c[i*ldc+j] with gemmAccum)
//		for q := range k { s += A(i, q) * B(q, j) }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+j] = s } }
//
//go:noescape
func gemmBcastF64(m, n, k int, a *float64, ars, aqs int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// gcpLossF64 is gcpLossGeneric for float64 over n samples, n a multiple
// of gcpLanes, with the loss sum accumulated per lane; tmp is scratch of
// gcpTmpLen float64 (which NEON does not use). With fixedAlpha ≠ 0 (it
// must not be −0), za and ga are not used.
//
//	for i := range n {
//		l, dm, da, db, dn := gcpPoint(zm[i], za[i], zb[i], zn[i], y[i], fixedAlpha)
//		sum += l; gm[i], ga[i], gb[i], gn[i] = scale*dm, scale*da, scale*db, scale*dn }
//
//go:noescape
func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64, tmp *float64) float64

// softplusF32 computes, to within 4e-6 relative,
//
//	for i := range n { dst[i] = softplus(float64(x[i])) }
//
// The AVX2 kernel computes in float32 (measured 1.8e-7; see SP32_LINK in
// simd_amd64.s), the NEON kernel in float64, with gcpLossF64's exp and ln
// (measured 3.9e-16 over 24M float32 inputs in (−800, 800); see SP_LINK in
// simd_arm64.s).
//
//go:noescape
func softplusF32(n int, dst *float64, x *float32)

// softplusF64 computes, to within 1e-13 relative (measured: AVX2 4.4e-16,
// NEON 3.9e-16),
//
//	for i := range n { dst[i] = softplus(x[i]) }
//
//go:noescape
func softplusF64(n int, dst, x *float64)

// softplusOperands returns the length, dst and x of softplusKernel's call
// of the assembly. x is cut to the length of dst, so that a short x
// panics before the assembly runs, and the assembly's accesses are
// reported in race builds.
func softplusOperands[T Float](dst []float64, x []T) (n int, d *float64, p unsafe.Pointer) {
	x = x[:len(dst)]
	if raceEnabled {
		raceRead(x)
		raceWrite(dst)
	}
	return len(dst), unsafe.SliceData(dst), unsafe.Pointer(unsafe.SliceData(x))
}
