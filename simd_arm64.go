//go:build gc && !purego

package gcp

// NEON is part of the arm64 baseline, so the assembly kernels of
// simd_arm64.s need no feature detection: init installs them in every
// build with gc and without the purego tag. tanh stays generic.
func init() {
	k32 := *generic32
	k32.name = "neon"
	k32.linearForward = linearForward32
	k32.linearBackwardWeights = linearBackwardWeights32
	k32.linearBackwardInput = linearBackwardInput32
	k32.mul = mul32
	k32.mulTo = mulTo32
	k32.reluBackward = reluBackward32
	k32.tanhBackward = tanhBackward32
	k32.axpy = axpy32
	k32.scale = scale32
	k32.sumSquares = sumSquares32
	k32.allFinite = allFinite32
	k32.sgd = sgd32
	k32.nesterov = nesterov32
	k32.rmsprop = rmsprop32
	k32.adam = adam32
	k32.gcpLoss = gcpLoss32
	kernels32 = &k32

	k64 := *generic64
	k64.name = "neon"
	k64.linearForward = linearForward64
	k64.linearBackwardWeights = linearBackwardWeights64
	k64.linearBackwardInput = linearBackwardInput64
	k64.mul = mul64
	k64.mulTo = mulTo64
	k64.reluBackward = reluBackward64
	k64.tanhBackward = tanhBackward64
	k64.axpy = axpy64
	k64.scale = scale64
	k64.sumSquares = sumSquares64
	k64.allFinite = allFinite64
	k64.sgd = sgd64
	k64.nesterov = nesterov64
	k64.rmsprop = rmsprop64
	k64.adam = adam64
	k64.gcpLoss = gcpLoss64
	kernels64 = &k64
}

// Flags of the matrix kernels; simd_arm64.s tests them by bit number
// (BIAS_BIT, ACCUM_BIT, RELU_BIT).
const (
	gemmBias  = 1 << iota // start every row of C from the vector bias
	gemmAccum             // start from C itself: C += A·B
	gemmReLU              // C = max(C, 0) at the end, NaN kept
)

// one32 and one64 are the A operand of a column sum: 1·b + c rounds once,
// like b + c, so db accumulates exactly as the generic kernel does.
var (
	one32 = float32(1)
	one64 = float64(1)
)

// need panics unless a matrix of rows rows, row stride ld and width cols
// fits in a slice of length n. The assembly reads and writes without bounds
// checks, so every kernel validates its operands before calling it.
func need(n, rows, ld, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	// (rows-1)*ld + cols <= n, without overflow.
	if cols > n || rows > 1 && (ld < cols || ld > (n-cols)/(rows-1)) {
		panic("gcp: kernel operand out of range")
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
	if m <= 0 || n <= 0 {
		return
	}
	need(len(x), m, ldx, k)
	need(len(w), k, n, n)
	need(len(b), 1, n, n)
	need(len(y), m, ldy, n)
	flags := gemmBias
	if relu {
		flags |= gemmReLU
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
	if m <= 0 || n <= 0 {
		return
	}
	need(len(dy), m, lddy, n)
	need(len(x), m, ldx, k)
	need(len(dw), k, n, n)
	need(len(db), 1, n, n)
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
	if m <= 0 || k <= 0 {
		return
	}
	need(len(dy), m, lddy, n)
	need(len(w), k, n, n)
	need(len(dx), m, lddx, k)
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
	if m <= 0 || n <= 0 {
		return
	}
	need(len(x), m, ldx, k)
	need(len(w), k, n, n)
	need(len(b), 1, n, n)
	need(len(y), m, ldy, n)
	flags := gemmBias
	if relu {
		flags |= gemmReLU
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
	if m <= 0 || n <= 0 {
		return
	}
	need(len(dy), m, lddy, n)
	need(len(x), m, ldx, k)
	need(len(dw), k, n, n)
	need(len(db), 1, n, n)
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
	if m <= 0 || k <= 0 {
		return
	}
	need(len(dy), m, lddy, n)
	need(len(w), k, n, n)
	need(len(dx), m, lddx, k)
	if n == 1 {
		gemmBcastF64(m, k, 1, ptr(dy), lddy, 0, ptr(w), k, ptr(dx), lddx, nil, 0)
		return
	}
	gemmDotF64(m, k, n, ptr(dy), lddy, ptr(w), n, ptr(dx), lddx, nil, 0)
}

// The element-wise kernels. Each wrapper reslices its operands to the
// length of the first, as the generic kernel does, so a short operand
// panics before the assembly runs.

// mulF32 computes
//
//	for i := range n { x[i] *= y[i] }
//
//go:noescape
func mulF32(x, y *float32, n int)

// mulF64 computes
//
//	for i := range n { x[i] *= y[i] }
//
//go:noescape
func mulF64(x, y *float64, n int)

func mul32(x, y []float32) { y = y[:len(x)]; mulF32(ptr(x), ptr(y), len(x)) }
func mul64(x, y []float64) { y = y[:len(x)]; mulF64(ptr(x), ptr(y), len(x)) }

// mulToF32 computes
//
//	for i := range n { dst[i] = x[i] * y[i] }
//
//go:noescape
func mulToF32(dst, x, y *float32, n int)

// mulToF64 computes
//
//	for i := range n { dst[i] = x[i] * y[i] }
//
//go:noescape
func mulToF64(dst, x, y *float64, n int)

func mulTo32(dst, x, y []float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	mulToF32(ptr(dst), ptr(x), ptr(y), len(dst))
}

func mulTo64(dst, x, y []float64) {
	x, y = x[:len(dst)], y[:len(dst)]
	mulToF64(ptr(dst), ptr(x), ptr(y), len(dst))
}

// reluBackwardF32 computes
//
//	for i := range n { if !(y[i] > 0) { d[i] = 0 } }
//
//go:noescape
func reluBackwardF32(d, y *float32, n int)

// reluBackwardF64 computes
//
//	for i := range n { if !(y[i] > 0) { d[i] = 0 } }
//
//go:noescape
func reluBackwardF64(d, y *float64, n int)

func reluBackward32(d, y []float32) { y = y[:len(d)]; reluBackwardF32(ptr(d), ptr(y), len(d)) }
func reluBackward64(d, y []float64) { y = y[:len(d)]; reluBackwardF64(ptr(d), ptr(y), len(d)) }

// tanhBackwardF32 computes
//
//	for i := range n { d[i] *= 1 - y[i]*y[i] }
//
//go:noescape
func tanhBackwardF32(d, y *float32, n int)

// tanhBackwardF64 computes
//
//	for i := range n { d[i] *= 1 - y[i]*y[i] }
//
//go:noescape
func tanhBackwardF64(d, y *float64, n int)

func tanhBackward32(d, y []float32) { y = y[:len(d)]; tanhBackwardF32(ptr(d), ptr(y), len(d)) }
func tanhBackward64(d, y []float64) { y = y[:len(d)]; tanhBackwardF64(ptr(d), ptr(y), len(d)) }

// axpyF32 computes, with fused multiply-adds,
//
//	for i := range n { y[i] += a * x[i] }
//
//go:noescape
func axpyF32(x, y *float32, n int, a float32)

// axpyF64 computes, with fused multiply-adds,
//
//	for i := range n { y[i] += a * x[i] }
//
//go:noescape
func axpyF64(x, y *float64, n int, a float64)

func axpy32(a float32, x, y []float32) { y = y[:len(x)]; axpyF32(ptr(x), ptr(y), len(x), a) }
func axpy64(a float64, x, y []float64) { y = y[:len(x)]; axpyF64(ptr(x), ptr(y), len(x), a) }

// scaleF32 computes
//
//	for i := range n { x[i] *= a }
//
//go:noescape
func scaleF32(x *float32, n int, a float32)

// scaleF64 computes
//
//	for i := range n { x[i] *= a }
//
//go:noescape
func scaleF64(x *float64, n int, a float64)

func scale32(a float32, x []float32) { scaleF32(ptr(x), len(x), a) }
func scale64(a float64, x []float64) { scaleF64(ptr(x), len(x), a) }

// sumSquaresF32 computes, in float64 and in some order,
//
//	for i := range n { s += float64(x[i]) * float64(x[i]) }; return s
//
//go:noescape
func sumSquaresF32(x *float32, n int) float64

// sumSquaresF64 computes, in some order,
//
//	for i := range n { s += x[i] * x[i] }; return s
//
//go:noescape
func sumSquaresF64(x *float64, n int) float64

func sumSquares32(x []float32) float64 { return sumSquaresF32(ptr(x), len(x)) }
func sumSquares64(x []float64) float64 { return sumSquaresF64(ptr(x), len(x)) }

// allFiniteF32 computes
//
//	for i := range n { s += x[i] - x[i] }; return s == 0
//
//go:noescape
func allFiniteF32(x *float32, n int) bool

// allFiniteF64 computes
//
//	for i := range n { s += x[i] - x[i] }; return s == 0
//
//go:noescape
func allFiniteF64(x *float64, n int) bool

func allFinite32(x []float32) bool { return allFiniteF32(ptr(x), len(x)) }
func allFinite64(x []float64) bool { return allFiniteF64(ptr(x), len(x)) }

// sgdF32 computes
//
//	for i := range n { p2[i] = p[i] - lr*grad[i] }
//
//go:noescape
func sgdF32(p2, p, grad *float32, n int, lr float32)

// sgdF64 computes
//
//	for i := range n { p2[i] = p[i] - lr*grad[i] }
//
//go:noescape
func sgdF64(p2, p, grad *float64, n int, lr float64)

func sgd32(p2, p, g []float32, lr float32) {
	p, g = p[:len(p2)], g[:len(p2)]
	sgdF32(ptr(p2), ptr(p), ptr(g), len(p2), lr)
}

func sgd64(p2, p, g []float64, lr float64) {
	p, g = p[:len(p2)], g[:len(p2)]
	sgdF64(ptr(p2), ptr(p), ptr(g), len(p2), lr)
}

// nesterovF32 computes
//
//	for i := range n {
//		v2[i] = mu*v[i] - lr*grad[i]
//		p2[i] = p[i] + mu*v2[i] - lr*grad[i] }
//
//go:noescape
func nesterovF32(p2, v2, p, v, grad *float32, n int, lr, mu float32)

// nesterovF64 computes
//
//	for i := range n {
//		v2[i] = mu*v[i] - lr*grad[i]
//		p2[i] = p[i] + mu*v2[i] - lr*grad[i] }
//
//go:noescape
func nesterovF64(p2, v2, p, v, grad *float64, n int, lr, mu float64)

func nesterov32(p2, v2, p, v, g []float32, lr, mu float32) {
	v2, p, v, g = v2[:len(p2)], p[:len(p2)], v[:len(p2)], g[:len(p2)]
	nesterovF32(ptr(p2), ptr(v2), ptr(p), ptr(v), ptr(g), len(p2), lr, mu)
}

func nesterov64(p2, v2, p, v, g []float64, lr, mu float64) {
	v2, p, v, g = v2[:len(p2)], p[:len(p2)], v[:len(p2)], g[:len(p2)]
	nesterovF64(ptr(p2), ptr(v2), ptr(p), ptr(v), ptr(g), len(p2), lr, mu)
}

// rmspropF32 computes, with c = 1 - rho,
//
//	for i := range n {
//		a2[i] = rho*a[i] + (c*grad[i])*grad[i]
//		p2[i] = p[i] - lr*grad[i]/(sqrt(a2[i])+eps) }
//
//go:noescape
func rmspropF32(p2, a2, p, a, grad *float32, n int, lr, rho, c, eps float32)

// rmspropF64 computes, with c = 1 - rho,
//
//	for i := range n {
//		a2[i] = rho*a[i] + (c*grad[i])*grad[i]
//		p2[i] = p[i] - lr*grad[i]/(sqrt(a2[i])+eps) }
//
//go:noescape
func rmspropF64(p2, a2, p, a, grad *float64, n int, lr, rho, c, eps float64)

func rmsprop32(p2, a2, p, a, g []float32, lr, rho, eps float32) {
	a2, p, a, g = a2[:len(p2)], p[:len(p2)], a[:len(p2)], g[:len(p2)]
	rmspropF32(ptr(p2), ptr(a2), ptr(p), ptr(a), ptr(g), len(p2), lr, rho, 1-rho, eps)
}

func rmsprop64(p2, a2, p, a, g []float64, lr, rho, eps float64) {
	a2, p, a, g = a2[:len(p2)], p[:len(p2)], a[:len(p2)], g[:len(p2)]
	rmspropF64(ptr(p2), ptr(a2), ptr(p), ptr(a), ptr(g), len(p2), lr, rho, 1-rho, eps)
}

// adamF32 computes, with c1 = 1 - b1 and c2 = 1 - b2,
//
//	for i := range n {
//		m2[i] = b1*m[i] + c1*grad[i]
//		v2[i] = b2*v[i] + (c2*grad[i])*grad[i]
//		p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps) }
//
//go:noescape
func adamF32(p2, m2, v2, p, m, v, grad *float32, n int, lr, b1, b2, c1, c2, eps float32)

// adamF64 computes, with c1 = 1 - b1 and c2 = 1 - b2,
//
//	for i := range n {
//		m2[i] = b1*m[i] + c1*grad[i]
//		v2[i] = b2*v[i] + (c2*grad[i])*grad[i]
//		p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps) }
//
//go:noescape
func adamF64(p2, m2, v2, p, m, v, grad *float64, n int, lr, b1, b2, c1, c2, eps float64)

func adam32(p2, m2, v2, p, m, v, g []float32, lr, b1, b2, eps float32) {
	m2, v2, p, m, v, g = m2[:len(p2)], v2[:len(p2)], p[:len(p2)], m[:len(p2)], v[:len(p2)], g[:len(p2)]
	adamF32(ptr(p2), ptr(m2), ptr(v2), ptr(p), ptr(m), ptr(v), ptr(g), len(p2), lr, b1, b2, 1-b1, 1-b2, eps)
}

func adam64(p2, m2, v2, p, m, v, g []float64, lr, b1, b2, eps float64) {
	m2, v2, p, m, v, g = m2[:len(p2)], v2[:len(p2)], p[:len(p2)], m[:len(p2)], v[:len(p2)], g[:len(p2)]
	adamF64(ptr(p2), ptr(m2), ptr(v2), ptr(p), ptr(m), ptr(v), ptr(g), len(p2), lr, b1, b2, 1-b1, 1-b2, eps)
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
