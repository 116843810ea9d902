//go:build gc && !purego

package gcp

import "unsafe"

// gemmTileRows is the height of gemmBcast's tiles. gemmAsm.rows gives no row
// to gemmBcast1 (gemmLoneRows = 0): NEON's gemmBcast takes the rows past
// its whole tiles one at a time itself, and its gemmBcast1 is gemmBcast.
const gemmTileRows, gemmLoneRows = 4, 0

// gemmBcast1F32 is gemmBcastF32 for a single row of C, as simd_amd64.s
// has it: NEON has no kernel of its own for it.
func gemmBcast1F32(n, k int, a *float32, aqs int, b *float32, ldb int, c *float32, bias *float32, flags int) {
	gemmBcastF32(1, n, k, a, 0, aqs, b, ldb, c, 0, bias, flags)
}

// gemmBcast1F64 is gemmBcastF64 for a single row of C.
func gemmBcast1F64(n, k int, a *float64, aqs int, b *float64, ldb int, c *float64, bias *float64, flags int) {
	gemmBcastF64(1, n, k, a, 0, aqs, b, ldb, c, 0, bias, flags)
}

// tanhF32 computes math.Tanh as the generic kernel does, bit for bit:
//
//	for i := range n { x[i] = float32(math.Tanh(float64(x[i]))) }
//
//go:noescape
func tanhF32(n int, x *float32)

// tanhF64 computes math.Tanh as the generic kernel does, bit for bit:
//
//	for i := range n { x[i] = math.Tanh(x[i]) }
//
//go:noescape
func tanhF64(n int, x *float64)

// inPlaceNEON wraps a kernel that rewrites x in place, and finishes its
// own tail, for the kernel table, reporting its writes in race builds.
func inPlaceNEON[T Float](f func(n int, x *T)) func(x []T) {
	return func(x []T) {
		if raceEnabled {
			raceWrite(x)
		}
		f(len(x), ptr(x))
	}
}

// gcpLanes is how many samples gcpLossF64 takes at a time: the two
// float64 of a vector.
const gcpLanes = 2

// softplusKernel returns softplusGeneric in assembly, a closure as
// linearForwardKernel returns: softplusF32 or softplusF64 by name (see
// "Stubs by name" in simd_asm.go). NEON has no wide form.
//
//go:noinline
func softplusKernel[T Float](bool) func(dst []float64, x []T) {
	return func(dst []float64, x []T) {
		n, d, p := softplusOperands(dst, x)
		if unsafe.Sizeof(x[0]) == 4 {
			softplusF32(n, d, (*float32)(p))
		} else {
			softplusF64(n, d, (*float64)(p))
		}
	}
}

// gcpTmpLen is the length of the scratch buffer gcpLossF64 takes: NEON
// keeps every value in its 32 registers and does not use it.
const gcpTmpLen = 1

// gcpLossLanes calls gcpLossF64 (NEON has no wide form) with its scratch
// buffer on the stack, by a direct call, as on amd64.
func gcpLossLanes(_ bool, n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64 {
	var tmp [gcpTmpLen]float64
	return gcpLossF64(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
}
