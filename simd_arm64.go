//go:build gc && !purego

package gcp

// NEON is part of the arm64 baseline, so the assembly kernels of
// simd_arm64.s need no feature detection: init installs them in every
// build with gc and without the purego tag. The element-wise kernels
// finish their own tails, so install gives the generic kernels nothing
// (lanes = 1).
func init() {
	k32 := *generic32
	k32.name = "neon"
	k32.linearForward = linearForward32
	k32.linearBackwardWeights = linearBackwardWeights32
	k32.linearBackwardInput = linearBackwardInput32
	k32.outputForward = outputForward32
	elementwiseAsm[float32]{mulF32, mulToF32, reluBackwardF32, tanhBackwardF32, axpyF32, scaleF32,
		sumSquaresF32, allFiniteF32, sgdF32, nesterovF32, rmspropF32, adamF32}.install(&k32, 1)
	k32.tanh = inPlaceNEON(tanhF32)
	k32.gcpLoss = gcpLoss32
	k32.softplus = softplus32
	kernels32 = &k32

	k64 := *generic64
	k64.name = "neon"
	k64.linearForward = linearForward64
	k64.linearBackwardWeights = linearBackwardWeights64
	k64.linearBackwardInput = linearBackwardInput64
	k64.outputForward = outputForward64
	elementwiseAsm[float64]{mulF64, mulToF64, reluBackwardF64, tanhBackwardF64, axpyF64, scaleF64,
		sumSquaresF64, allFiniteF64, sgdF64, nesterovF64, rmspropF64, adamF64}.install(&k64, 1)
	k64.tanh = inPlaceNEON(tanhF64)
	k64.gcpLoss = gcpLoss64
	k64.softplus = softplus64
	kernels64 = &k64
}

// gemmBcastF32 computes, for a row-major C of m rows (row stride ldc) and n
// columns, with A(i, q) = a[i*ars + q*aqs] and B(q, j) = b[q*ldb + j]:
//
//	for i := range m { for j := range n {
//		s := 0 (or bias[j] with gemmBias, or c[i*ldc+j] with gemmAccum)
//		for q := range k { s += A(i, q) * B(q, j) }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+j] = s } }
//
// It broadcasts A(i, q) over a row of B, four rows of C by sixteen columns
// per tile, with fused multiply-adds.
//
//go:noescape
func gemmBcastF32(m, n, k int, a *float32, ars, aqs int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)

// gemmDotF32 computes C = A·Bᵀ (plus bias) for row-major A (m × k, row
// stride lda), B (n × k, row stride ldb) and C (m × n, row stride ldc), as
// dot products along the contiguous k:
//
//	for i := range m { for p := range n {
//		s := 0; for j := range k { s += a[i*lda+j] * b[p*ldb+j] }
//		if flags&gemmBias != 0 { s = bias[p] + s }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+p] = s } }
//
//go:noescape
func gemmDotF32(m, n, k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)

// gemmBcastF64 is gemmBcastF32 for float64, with tiles of four rows by
// eight columns:
//
//	for i := range m { for j := range n {
//		s := 0 (or bias[j] with gemmBias, or c[i*ldc+j] with gemmAccum)
//		for q := range k { s += A(i, q) * B(q, j) }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+j] = s } }
//
//go:noescape
func gemmBcastF64(m, n, k int, a *float64, ars, aqs int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// gemmDotF64 is gemmDotF32 for float64:
//
//	for i := range m { for p := range n {
//		s := 0; for j := range k { s += a[i*lda+j] * b[p*ldb+j] }
//		if flags&gemmBias != 0 { s = bias[p] + s }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+p] = s } }
//
//go:noescape
func gemmDotF64(m, n, k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// linearForward32 is linearForwardGeneric for float32 in assembly.
func linearForward32(m, n, k int, x []float32, ldx int, w, b, y []float32, ldy int, relu bool) {
	flags, ok := linearForwardOperands(m, n, k, x, ldx, w, b, y, ldy, relu)
	if !ok {
		return
	}
	if n == 1 {
		gemmDotF32(m, 1, k, ptr(x), ldx, ptr(w), k, ptr(y), ldy, ptr(b), flags)
		return
	}
	gemmBcastF32(m, n, k, ptr(x), ldx, 1, ptr(w), n, ptr(y), ldy, ptr(b), flags)
}

// linearBackwardWeights32 is linearBackwardWeightsGeneric for float32 in
// assembly.
func linearBackwardWeights32(m, n, k int, dy []float32, lddy int, x []float32, ldx int, dw, db []float32) {
	if !linearBackwardWeightsOperands(m, n, k, dy, lddy, x, ldx, dw, db) {
		return
	}
	// db += Σ_i dy[i,:]: one row of C, A ≡ 1.
	gemmBcastF32(1, n, m, &one32, 0, 0, ptr(dy), lddy, ptr(db), 0, nil, gemmAccum)
	switch {
	case k == 0:
	case n == 1:
		// dw[p] += Σ_i dy[i]·x[i,p]: one row of C.
		gemmBcastF32(1, k, m, ptr(dy), 0, lddy, ptr(x), ldx, ptr(dw), 0, nil, gemmAccum)
	default:
		// dw[p,j] += Σ_i x[i,p]·dy[i,j]: A(p, i) = x[i*ldx+p].
		gemmBcastF32(k, n, m, ptr(x), 1, ldx, ptr(dy), lddy, ptr(dw), n, nil, gemmAccum)
	}
}

// linearBackwardInput32 is linearBackwardInputGeneric for float32 in
// assembly.
func linearBackwardInput32(m, n, k int, dy []float32, lddy int, w []float32, dx []float32, lddx int) {
	if !linearBackwardInputOperands(m, n, k, dy, lddy, w, dx, lddx) {
		return
	}
	if n == 1 {
		// dx[i,p] = dy[i]·w[p]: one product per element, added to +0 like
		// the generic dot of length 1.
		gemmBcastF32(m, k, 1, ptr(dy), lddy, 0, ptr(w), k, ptr(dx), lddx, nil, 0)
		return
	}
	gemmDotF32(m, k, n, ptr(dy), lddy, ptr(w), n, ptr(dx), lddx, nil, 0)
}

// linearForward64 is linearForwardGeneric for float64 in assembly.
func linearForward64(m, n, k int, x []float64, ldx int, w, b, y []float64, ldy int, relu bool) {
	flags, ok := linearForwardOperands(m, n, k, x, ldx, w, b, y, ldy, relu)
	if !ok {
		return
	}
	if n == 1 {
		gemmDotF64(m, 1, k, ptr(x), ldx, ptr(w), k, ptr(y), ldy, ptr(b), flags)
		return
	}
	gemmBcastF64(m, n, k, ptr(x), ldx, 1, ptr(w), n, ptr(y), ldy, ptr(b), flags)
}

// linearBackwardWeights64 is linearBackwardWeightsGeneric for float64 in
// assembly.
func linearBackwardWeights64(m, n, k int, dy []float64, lddy int, x []float64, ldx int, dw, db []float64) {
	if !linearBackwardWeightsOperands(m, n, k, dy, lddy, x, ldx, dw, db) {
		return
	}
	gemmBcastF64(1, n, m, &one64, 0, 0, ptr(dy), lddy, ptr(db), 0, nil, gemmAccum)
	switch {
	case k == 0:
	case n == 1:
		gemmBcastF64(1, k, m, ptr(dy), 0, lddy, ptr(x), ldx, ptr(dw), 0, nil, gemmAccum)
	default:
		gemmBcastF64(k, n, m, ptr(x), 1, ldx, ptr(dy), lddy, ptr(dw), n, nil, gemmAccum)
	}
}

// linearBackwardInput64 is linearBackwardInputGeneric for float64 in
// assembly.
func linearBackwardInput64(m, n, k int, dy []float64, lddy int, w []float64, dx []float64, lddx int) {
	if !linearBackwardInputOperands(m, n, k, dy, lddy, w, dx, lddx) {
		return
	}
	if n == 1 {
		gemmBcastF64(m, k, 1, ptr(dy), lddy, 0, ptr(w), k, ptr(dx), lddx, nil, 0)
		return
	}
	gemmDotF64(m, k, n, ptr(dy), lddy, ptr(w), n, ptr(dx), lddx, nil, 0)
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

// gcpLanes is how many samples gcpLossF64 takes at a time: the two float64
// of a vector.
const gcpLanes = 2

// gcpLossF64 is gcpLossGeneric for float64 over n samples, n even, with the
// loss sum accumulated per lane. With fixedAlpha ≠ 0 (it must not be −0),
// za and ga are not used.
//
//	for i := range n {
//		l, dm, da, db, dn := gcpPoint(zm[i], za[i], zb[i], zn[i], y[i], fixedAlpha)
//		sum += l; gm[i], ga[i], gb[i], gn[i] = scale*dm, scale*da, scale*db, scale*dn }
//
//go:noescape
func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64

// gcpLossLanes is gcpLossF64, which needs no scratch buffer: the wrappers
// of simd_asm.go call it for n a multiple of gcpLanes.
func gcpLossLanes(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64 {
	return gcpLossF64(n, zm, za, zb, zn, y, gm, ga, gb, gn, fixedAlpha, scale)
}
