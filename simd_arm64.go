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

// gcpChunk is how many float32 samples gcpLossLanes32 converts to float64
// at a time, a multiple of gcpLanes.
const gcpChunk = 64

// gcpLossLanes32 is gcpLossLanes for float32 operands: NEON has no
// float32 form, so the samples go to gcpLossF64 in chunks converted to
// float64, and the gradients come back rounded to float32, as
// gcpLossGeneric[float32] rounds them. za and ga are not read with a
// fixedAlpha other than 0.
func gcpLossLanes32(_ bool, n int, zm, za, zb, zn, y, gm, ga, gb, gn *float32, fixedAlpha, scale float64) float64 {
	in32 := [5][]float32{unsafe.Slice(zm, n), nil, unsafe.Slice(zb, n), unsafe.Slice(zn, n), unsafe.Slice(y, n)}
	out32 := [4][]float32{unsafe.Slice(gm, n), nil, unsafe.Slice(gb, n), unsafe.Slice(gn, n)}
	if fixedAlpha == 0 {
		in32[1], out32[1] = unsafe.Slice(za, n), unsafe.Slice(ga, n)
	}
	sum := 0.0
	var in [5][gcpChunk]float64
	var out [4][gcpChunk]float64
	for s := 0; s < n; s += gcpChunk {
		c := min(gcpChunk, n-s)
		for j, v := range in32 {
			if v == nil {
				continue // za with a fixed α
			}
			for i, z := range v[s : s+c : s+c] {
				in[j][i] = float64(z)
			}
		}
		sum += gcpLossLanes(false, c, &in[0][0], &in[1][0], &in[2][0], &in[3][0], &in[4][0], &out[0][0], &out[1][0], &out[2][0], &out[3][0], fixedAlpha, scale)
		for j, v := range out32 {
			if v == nil {
				continue
			}
			for i := range v[s : s+c : s+c] {
				v[s+i] = float32(out[j][i])
			}
		}
	}
	return sum
}
