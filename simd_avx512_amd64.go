//go:build gc && !purego

package gcp

// avx512Sets returns the AVX-512 kernels of simd_amd64.s (the stubs named
// …AVX512), installed when useAVX512 holds.
func avx512Sets() (*asmSet[float32], *asmSet[float64]) {
	s32, s64 := baseSets()
	// Single rows of at most one AVX-512 tile (256 float32 or 128 float64
	// columns) stay AVX2's: the single-row product of a Predict on the
	// paper's UCI network (13 inputs, 200 columns for the four heads) took
	// 95 ns of CPU time with AVX-512's one tile of 13 ZMM against 75 ns
	// with AVX2's two of 13 YMM; 400 columns took 128 against 208 ns
	// (AMD Zen 4).
	s32.gemm.bcast, s32.gemm.dot = gemmBcastF32AVX512, gemmDotF32AVX512
	s32.gemm.bcast1Wide, s32.gemm.narrow = gemmBcast1F32AVX512, 256
	s64.gemm.bcast, s64.gemm.dot = gemmBcastF64AVX512, gemmDotF64AVX512
	s64.gemm.bcast1Wide, s64.gemm.narrow = gemmBcast1F64AVX512, 128
	// The output layer stays AVX2's outputForward: its dot products of a
	// head's k inputs, with ZMM and a masked last vector, took 30% longer
	// for the k = 50 of the paper's networks (50 rows of 4 heads, as an
	// ML_Bayes prediction's MC passes: 940 against 720 ns of CPU time on
	// AMD Zen 4), the longer horizontal sums outweighing the wider steps.
	s32.outputBackward, s64.outputBackward = outputBackwardF32AVX512, outputBackwardF64AVX512
	s32.elementwise = elementwiseAsm[float32]{mulF32AVX512, mulToF32AVX512, reluBackwardF32AVX512, tanhBackwardF32AVX512,
		axpyF32AVX512, scaleF32AVX512, sumSquaresF32AVX512, allFiniteF32AVX512, sgdF32AVX512, nesterovF32AVX512, rmspropF32AVX512, adamF32AVX512}
	s64.elementwise = elementwiseAsm[float64]{mulF64AVX512, mulToF64AVX512, reluBackwardF64AVX512, tanhBackwardF64AVX512,
		axpyF64AVX512, scaleF64AVX512, sumSquaresF64AVX512, allFiniteF64AVX512, sgdF64AVX512, nesterovF64AVX512, rmspropF64AVX512, adamF64AVX512}
	s32.lanes, s64.lanes = 1, 1     // the AVX-512 element-wise kernels end with a masked vector
	s32.wide, s64.wide = true, true // softplusF32AVX512, softplusF64AVX512
	loss := gcpAsm{wide: true, lanes: 1}
	s32.gcpLoss, s64.gcpLoss = loss.loss32, loss.loss64
	return s32, s64
}

// avx512Tables returns the AVX-512 kernel tables: avx512Sets' kernels,
// the dropout masks, which only this table draws with assembly, and the
// standardization, which NEON leaves to the generic kernel.
func avx512Tables() (*kernelSet[float32], *kernelSet[float64]) {
	s32, s64 := avx512Sets()
	k32, k64 := asmKernels("avx512", s32, s64)
	k32.dropoutMask, k64.dropoutMask = dropoutMaskAVX512[float32], dropoutMaskAVX512[float64]
	k32.standardize, k64.standardize = standardizeKernel[float32](true), standardizeKernel[float64](true)
	return k32, k64
}

// dropoutMaskAVX512 is dropoutVia with the AVX-512 kernels for whole
// groups of 32 units, which draw eight numbers at a time, the generator's
// counters for the next eight draws in eight lanes, each stepping eight
// draws at once, and write each vector of the mask and of drop = act·mask
// as they make it: the same numbers, the same mask, the same products,
// bit for bit; with dropOnly, drop alone. The last len(mask) mod 32 units
// go to dropoutMaskGeneric and mulToGeneric, from the state after the
// last group.
func dropoutMaskAVX512[T Float](src *splitMix, p float64, mask, act, drop []T, dropOnly bool) {
	n := len(mask)
	act, drop = act[:n], drop[:n]
	groups := n / 32
	if groups > 0 {
		if raceEnabled {
			raceWrite(mask[:32*groups], drop[:32*groups])
			raceRead(act[:32*groups])
		}
		cut := uint64(p * (1 << 16)) // as dropoutMaskGeneric's
		switch m := any(mask).(type) {
		case []float32:
			a, d := any(act).([]float32), any(drop).([]float32)
			dropoutMaskF32AVX512(groups, maskPtr(m, dropOnly), src.s, cut, float32(1/(1-p)), &a[0], &d[0])
		case []float64:
			a, d := any(act).([]float64), any(drop).([]float64)
			dropoutMaskF64AVX512(groups, maskPtr(m, dropOnly), src.s, cut, 1/(1-p), &a[0], &d[0])
		}
		src.s += uint64(8*groups) * splitMixGamma
	}
	tail := mask[32*groups:]
	dropoutMaskGeneric(src, p, tail)
	mulToGeneric(drop[32*groups:], act[32*groups:], tail)
}

// maskPtr returns &mask[0], or nil with dropOnly, for dropoutMaskF32AVX512
// and dropoutMaskF64AVX512.
func maskPtr[T Float](mask []T, dropOnly bool) *T {
	if dropOnly {
		return nil
	}
	return &mask[0]
}

// dropoutMaskF32AVX512 writes groups·32 units of dropoutMaskGeneric's
// mask, each group from eight draws of the splitMix of state state, cut
// is dropoutMaskGeneric's (a unit is dropped where its quarter of a draw
// is below it), keep is 1/(1−p); and the same units of drop, act·mask,
// from as many units of act; a nil mask is not written. It leaves the
// generator to its caller, which advances it by the 8·groups draws.
//
//go:noescape
func dropoutMaskF32AVX512(groups int, mask *float32, state, cut uint64, keep float32, act, drop *float32)

// dropoutMaskF64AVX512 is dropoutMaskF32AVX512 for float64 masks.
//
//go:noescape
func dropoutMaskF64AVX512(groups int, mask *float64, state, cut uint64, keep float64, act, drop *float64)

// gemmBcastF32AVX512 is gemmBcastF32 with AVX-512: tiles of six rows by
// four ZMM (64 columns), and the columns left over in one tile of as many
// vectors as they need, the last masked.
//
//go:noescape
func gemmBcastF32AVX512(m, n, k int, a *float32, ars, aqs int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)

// gemmBcastF64AVX512 is gemmBcastF64 with AVX-512, as gemmBcastF32AVX512.
//
//go:noescape
func gemmBcastF64AVX512(m, n, k int, a *float64, ars, aqs int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// gemmBcast1F32AVX512 is gemmBcast1F32 with AVX-512: tiles of 16 ZMM (256
// columns), then one tile of the vectors the columns left need, the last
// masked.
//
//go:noescape
func gemmBcast1F32AVX512(n, k int, a *float32, aqs int, b *float32, ldb int, c *float32, bias *float32, flags int)

// gemmBcast1F64AVX512 is gemmBcast1F64 with AVX-512, as gemmBcast1F32AVX512.
//
//go:noescape
func gemmBcast1F64AVX512(n, k int, a *float64, aqs int, b *float64, ldb int, c *float64, bias *float64, flags int)

// gemmDotF32AVX512 is gemmDotF32 with AVX-512 (ZMM accumulators).
//
//go:noescape
func gemmDotF32AVX512(m, n, k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)

// gemmDotF64AVX512 is gemmDotF64 with AVX-512 (ZMM accumulators).
//
//go:noescape
func gemmDotF64AVX512(m, n, k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// outputBackwardF32AVX512 is outputBackwardF32 with AVX-512: ZMM, and each
// head's last k mod 16 columns a masked vector.
//
//go:noescape
func outputBackwardF32AVX512(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float32, keep float32)

// outputBackwardF64AVX512 is outputBackwardF64 with AVX-512: ZMM, and each
// head's last k mod 8 columns a masked vector.
//
//go:noescape
func outputBackwardF64AVX512(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *float64, keep float64)

// The element-wise kernels with AVX-512: each computes what the AVX2
// kernel of its name without AVX512 does (simd_asm.go), with ZMM vectors,
// for any n: the last n mod 16 float32 or n mod 8 float64 go as one
// vector masked by an opmask register, whose loads read none of the
// lanes past n and whose stores write none.

// mulF32AVX512 is mulF32 for any n, with AVX-512.
//
//go:noescape
func mulF32AVX512(n int, x, y *float32)

// mulToF32AVX512 is mulToF32 for any n, with AVX-512.
//
//go:noescape
func mulToF32AVX512(n int, dst, x, y *float32)

// reluBackwardF32AVX512 is reluBackwardF32 for any n, with AVX-512.
//
//go:noescape
func reluBackwardF32AVX512(n int, d, y *float32)

// tanhBackwardF32AVX512 is tanhBackwardF32 for any n, with AVX-512.
//
//go:noescape
func tanhBackwardF32AVX512(n int, d, y *float32)

// axpyF32AVX512 is axpyF32 for any n, with AVX-512.
//
//go:noescape
func axpyF32AVX512(n int, x, y *float32, a float32)

// scaleF32AVX512 is scaleF32 for any n, with AVX-512.
//
//go:noescape
func scaleF32AVX512(n int, x *float32, a float32)

// sgdF32AVX512 is sgdF32 for any n, with AVX-512.
//
//go:noescape
func sgdF32AVX512(n int, p2, p, gr *float32, lr float32) bool

// nesterovF32AVX512 is nesterovF32 for any n, with AVX-512.
//
//go:noescape
func nesterovF32AVX512(n int, p2, v2, p, v, gr *float32, lr, mu float32) bool

// rmspropF32AVX512 is rmspropF32 for any n, with AVX-512.
//
//go:noescape
func rmspropF32AVX512(n int, p2, a2, p, a, gr *float32, lr, rho, c, eps float32) bool

// adamF32AVX512 is adamF32 for any n, with AVX-512.
//
//go:noescape
func adamF32AVX512(n int, p2, m2, v2, p, m, v, gr *float32, lr, b1, c1, b2, c2, eps float32) bool

// sumSquaresF32AVX512 is sumSquaresF32 for any n, with AVX-512.
//
//go:noescape
func sumSquaresF32AVX512(n int, x *float32) float64

// allFiniteF32AVX512 is allFiniteF32 for any n, with AVX-512.
//
//go:noescape
func allFiniteF32AVX512(n int, x *float32) bool

// mulF64AVX512 is mulF64 for any n, with AVX-512.
//
//go:noescape
func mulF64AVX512(n int, x, y *float64)

// mulToF64AVX512 is mulToF64 for any n, with AVX-512.
//
//go:noescape
func mulToF64AVX512(n int, dst, x, y *float64)

// reluBackwardF64AVX512 is reluBackwardF64 for any n, with AVX-512.
//
//go:noescape
func reluBackwardF64AVX512(n int, d, y *float64)

// tanhBackwardF64AVX512 is tanhBackwardF64 for any n, with AVX-512.
//
//go:noescape
func tanhBackwardF64AVX512(n int, d, y *float64)

// axpyF64AVX512 is axpyF64 for any n, with AVX-512.
//
//go:noescape
func axpyF64AVX512(n int, x, y *float64, a float64)

// scaleF64AVX512 is scaleF64 for any n, with AVX-512.
//
//go:noescape
func scaleF64AVX512(n int, x *float64, a float64)

// sgdF64AVX512 is sgdF64 for any n, with AVX-512.
//
//go:noescape
func sgdF64AVX512(n int, p2, p, gr *float64, lr float64) bool

// nesterovF64AVX512 is nesterovF64 for any n, with AVX-512.
//
//go:noescape
func nesterovF64AVX512(n int, p2, v2, p, v, gr *float64, lr, mu float64) bool

// rmspropF64AVX512 is rmspropF64 for any n, with AVX-512.
//
//go:noescape
func rmspropF64AVX512(n int, p2, a2, p, a, gr *float64, lr, rho, c, eps float64) bool

// adamF64AVX512 is adamF64 for any n, with AVX-512.
//
//go:noescape
func adamF64AVX512(n int, p2, m2, v2, p, m, v, gr *float64, lr, b1, c1, b2, c2, eps float64) bool

// sumSquaresF64AVX512 is sumSquaresF64 for any n, with AVX-512.
//
//go:noescape
func sumSquaresF64AVX512(n int, x *float64) float64

// allFiniteF64AVX512 is allFiniteF64 for any n, with AVX-512.
//
//go:noescape
func allFiniteF64AVX512(n int, x *float64) bool
