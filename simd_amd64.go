//go:build gc && !purego

package gcp

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// outputBackwardF32 is outputBackwardVia's composition in one pass, for m,
// heads ≥ 1 and k ≥ 0, with x, dx, mask and act m rows of heads·k (mask,
// act and colsum may be nil). With mask nil and keep not 0, act must not
// be nil, and the mask is the trainer's, read off x = act·mask
// (kernelSet.outputBackward):
//
//	for i := range m { for h := range heads {
//		d := dy[h*m+i]; db[h] += d
//		for p := range k { j := h*k + p; e := i*heads*k + j
//			dw[j] += d * x[e]             // fused, onto dw
//			s := d * w[j]                 // fused onto 0, as a k = 1 product
//			if mask != nil { s *= mask[e] }
//			if mask == nil && keep != 0 { if x[e] > 0 { s *= keep } else { s *= 0 } }
//			if act != nil && !(act[e] > 0) { s = 0 }
//			dx[e] = s
//			if colsum != nil { colsum[j] += s } } } }
//
//go:noescape
func outputBackwardF32(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float32, keep float32)

// outputBackwardF64 is outputBackwardF32 for float64.
//
//	for i := range m { for h := range heads {
//		d := dy[h*m+i]; db[h] += d
//		for p := range k { j := h*k + p; e := i*heads*k + j
//			dw[j] += d * x[e]             // fused, onto dw
//			s := d * w[j]                 // fused onto 0, as a k = 1 product
//			if mask != nil { s *= mask[e] }
//			if mask == nil && keep != 0 { if x[e] > 0 { s *= keep } else { s *= 0 } }
//			if act != nil && !(act[e] > 0) { s = 0 }
//			dx[e] = s
//			if colsum != nil { colsum[j] += s } } } }
//
//go:noescape
func outputBackwardF64(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float64, keep float64)

// gemmTileRows is the height of gemmBcast's tiles; gemmAsm.rows gives up to
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
// four float64, as the special functions need all sixteen registers; the
// AVX-512 kernel's vectors are twice as long.
const gcpTmpLen = 2 * 124

// gcpLossLanes calls gcpLossF64, or gcpLossF64AVX512 if wide, with its
// scratch buffer on the stack. The calls are direct, so that the stubs'
// noescape directives keep the buffer on the stack.
func gcpLossLanes(wide bool, n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64 {
	var tmp [gcpTmpLen]float64
	if wide {
		return gcpLossF64AVX512(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
	}
	return gcpLossF64(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
}

// gcpLossLanes32 is gcpLossLanes for float32 operands: gcpLossF32 or
// gcpLossF32AVX512, which widen them to float64 as they load them and
// round the gradients as they store them.
func gcpLossLanes32(wide bool, n int, zm, za, zb, zn, y, gm, ga, gb, gn *float32, fixedAlpha, scale float64) float64 {
	var tmp [gcpTmpLen]float64
	if wide {
		return gcpLossF32AVX512(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
	}
	return gcpLossF32(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale, &tmp[0])
}

// gcpLossF32 is gcpLossF64 on float32 operands, n a multiple of
// gcpLanes: each sample widened to float64, the same arithmetic, each
// gradient rounded to float32, as gcpLossGeneric[float32] does.
//
//go:noescape
func gcpLossF32(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float32, fixedAlpha, scale float64, tmp *float64) float64

// gcpLossF32AVX512 is gcpLossF64AVX512 on float32 operands, as
// gcpLossF32, for any n.
//
//go:noescape
func gcpLossF32AVX512(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float32, fixedAlpha, scale float64, tmp *float64) float64

// softplusKernel returns softplusGeneric in assembly, a closure as
// linearForwardKernel returns: softplusF32 or softplusF64, or with wide
// softplusF32AVX512 or softplusF64AVX512, by name (see "Stubs by name" in
// simd_asm.go).
//
//go:noinline
func softplusKernel[T Float](wide bool) func(dst []float64, x []T) {
	return func(dst []float64, x []T) {
		n, d, p := softplusOperands(dst, x)
		switch {
		case unsafe.Sizeof(x[0]) == 8 && wide:
			softplusF64AVX512(n, d, (*float64)(p))
		case unsafe.Sizeof(x[0]) == 8:
			softplusF64(n, d, (*float64)(p))
		case wide:
			softplusF32AVX512(n, d, (*float32)(p))
		default:
			softplusF32(n, d, (*float32)(p))
		}
	}
}

// standardizeF32 computes, for rows ≥ 0 rows of d ≥ 1 features, and
// reports whether every u and z is finite,
//
//	for i := range rows { big := uint64(0)
//		for j := range d {
//			s := float32((float64(x[i*d+j]) - mean[j]) * inv[j])
//			u[i*d+j] = s; big = max(big, math.Float64bits(float64(s))&^(1<<63)) }
//		z[i] = math.Float64frombits(big) }
//	return every big < absBitsInf
//
//go:noescape
func standardizeF32(rows, d int, u, x *float32, mean, inv, z *float64) bool

// standardizeF64 is standardizeF32 for float64.
//
//	for i := range rows { big := uint64(0)
//		for j := range d {
//			s := (x[i*d+j] - mean[j]) * inv[j]
//			u[i*d+j] = s; big = max(big, math.Float64bits(s)&^(1<<63)) }
//		z[i] = math.Float64frombits(big) }
//	return every big < absBitsInf
//
//go:noescape
func standardizeF64(rows, d int, u, x *float64, mean, inv, z *float64) bool

// standardizeKernel returns standardizeGeneric in assembly, a closure as
// linearForwardKernel returns: standardizeF32 or standardizeF64, or with
// wide their AVX-512 forms, by name (see "Stubs by name" in simd_asm.go).
// The operands are cut to the rows of z, so that a short one panics
// before the assembly runs.
//
//go:noinline
func standardizeKernel[T Float](wide bool) func(u, x []T, mean, inv, z []float64) bool {
	return func(u, x []T, mean, inv, z []float64) bool {
		rows, d := len(z), len(mean)
		if rows == 0 || d == 0 {
			return true
		}
		u, x, inv = u[:rows*d], x[:rows*d], inv[:d]
		if raceEnabled {
			raceRead(x)
			raceWrite(u)
			raceMat(mean, 1, 0, d, false)
			raceMat(inv, 1, 0, d, false)
			raceMat(z, 1, 0, rows, true)
		}
		up, xp, mp, ip, zp := unsafe.Pointer(unsafe.SliceData(u)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.SliceData(mean), unsafe.SliceData(inv), unsafe.SliceData(z)
		switch {
		case unsafe.Sizeof(x[0]) == 8 && wide:
			return standardizeF64AVX512(rows, d, (*float64)(up), (*float64)(xp), mp, ip, zp)
		case unsafe.Sizeof(x[0]) == 8:
			return standardizeF64(rows, d, (*float64)(up), (*float64)(xp), mp, ip, zp)
		case wide:
			return standardizeF32AVX512(rows, d, (*float32)(up), (*float32)(xp), mp, ip, zp)
		default:
			return standardizeF32(rows, d, (*float32)(up), (*float32)(xp), mp, ip, zp)
		}
	}
}

// gcpLossF64AVX512 is gcpLossF64 with AVX-512, for any n: eight samples
// in the lanes of a ZMM at a time, the last group's lanes past n masked
// off by an opmask register, and tmp twice as long (gcpTmpLen).
//
//go:noescape
func gcpLossF64AVX512(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64, tmp *float64) float64

// standardizeF32AVX512 is standardizeF32 with AVX-512: eight features
// at a time, in float64 lanes, the last d mod 8 masked.
//
//go:noescape
func standardizeF32AVX512(rows, d int, u, x *float32, mean, inv, z *float64) bool

// standardizeF64AVX512 is standardizeF64 with AVX-512, as
// standardizeF32AVX512.
//
//go:noescape
func standardizeF64AVX512(rows, d int, u, x *float64, mean, inv, z *float64) bool

// softplusF32AVX512 is softplusF32 with AVX-512: eight float32 at a time
// in a YMM, converted to a ZMM of float64, within the same 4e-6.
//
//go:noescape
func softplusF32AVX512(n int, dst *float64, x *float32)

// softplusF64AVX512 is softplusF64 with AVX-512: eight float64 at a time,
// within the same 1e-13.
//
//go:noescape
func softplusF64AVX512(n int, dst, x *float64)

// useAVX2FMA reports whether the CPU (and the OS, through XGETBV) supports
// AVX2 and FMA3, the instructions of simd_amd64.s. GODEBUG=cpu.avx2=off
// turns it off, and with it every assembly kernel.
var useAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// useAVX512 reports whether the CPU and the OS support, on top of those,
// the AVX-512 subsets of the kernels named …AVX512 in simd_amd64.s:
// Foundation, with the 128- and 256-bit forms (VL), and the
// double- and quadword (DQ) and byte and word (BW) instructions, which
// every AVX-512 CPU since Skylake-SP and Zen 4 has. GODEBUG=cpu.avx512f=off
// turns it off, and the AVX2 kernels run instead.
var useAVX512 = useAVX2FMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW
