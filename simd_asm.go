//go:build (amd64 || arm64) && gc && !purego

package gcp

import "unsafe"

// This file holds what the assembly of both architectures shares: the
// stubs that simd_amd64.s and simd_arm64.s both implement, their Go
// wrappers, and the kernel table they fill; simd_amd64.go and
// simd_arm64.go keep only what one architecture has alone, below this
// file (with the shared stubs they call, in simd_asm_calls.go), and
// simd_install_amd64.go and simd_install_arm64.go install the tables.
//
// Naming, once for all kernels:
//   - xxxF32 and xxxF64 are assembly stubs (a TEXT in simd_amd64.s and
//     simd_arm64.s, or, for a kernel one architecture lacks, a Go function
//     on the other, like gemmBcast1F64 on arm64). They take pointers and
//     lengths, check nothing, and each has the reference Go loop in its
//     doc comment;
//   - the kernel table holds wrappers, generic over the element type and
//     the same for every instruction set: they validate the operands (a
//     short slice panics before the assembly runs), report the assembly's
//     memory accesses in race builds, and call the stub;
//   - xxxGeneric (simd_generic.go) is the pure-Go kernel: the fallback on
//     every other platform and with the purego tag, and the tests' oracle.

// Stubs by name. A func value of an assembly function (the fields of
// asmSet and gemmAsm) is Go's ABI wrapper of it, which takes the
// arguments in registers, stores them again for the stub and makes one
// more call: some 15 instructions a call, which the kernels of a batch do
// not notice and a single-row Predict, with three such calls, did (3,035
// instructions against 2,990 with main's wrappers per type, which called
// their stubs by name). So the wrappers of a Predict's kernels call their
// stubs by name: linearForwardKernel's single rows and
// outputForwardKernel, whose stubs both instruction sets of an
// architecture share, here for both architectures, and softplusKernel,
// whose stubs differ by set, in each architecture's file. They choose
// the stub of their element type by unsafe.Sizeof of an element, 4 for
// float32, a constant in each instantiation of a generic function (one
// per element type), so that the branch is compiled away.
//
// The functions that return these closures are kept from inlining: the
// Go compiler does not inline the calls inside the copy of a closure that
// inlining its function makes (golang/go#81380), and the tables are built
// in asmTable; so each closure is its function's own, with its helpers
// inlined.

// Flags of the matrix kernels; simd_arm64.s tests them by bit number
// (BIAS_BIT, ACCUM_BIT, RELU_BIT).
const (
	gemmBias  = 1 << iota // start every row of C from the vector bias
	gemmAccum             // start from C itself: C += A·B
	gemmReLU              // C = max(C, 0) at the end, NaN kept
)

// one32 and one64 are the A operand of a column sum: a broadcast 1 times a
// row of B is the row itself, exactly (1·b + c rounds once, like b + c), so
// db accumulates exactly as the generic kernel does.
var (
	one32 = float32(1)
	one64 = float64(1)
)

// need panics unless a matrix of rows rows, row stride ld and width cols
// fits in a slice of length n, computing (rows−1)·ld + cols ≤ n without
// overflow. The assembly reads and writes without bounds checks, so every
// kernel validates its operands before calling it.
func need(n, rows, ld, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	if cols > n || rows > 1 && (ld < cols || ld > (n-cols)/(rows-1)) {
		panic("gcp: kernel operand out of range")
	}
}

// asmSet is one instruction set's assembly kernels for element type T:
// the stubs the wrappers of this file check the operands of and call.
// Each set of simd_amd64.s and simd_arm64.s fills one for float32 and one
// for float64, and asmKernels makes kernel tables of them.
type asmSet[T Float] struct {
	gemm gemmAsm[T]
	// wide selects, where a kernel has them, the stubs named …AVX512 of
	// simd_amd64.s (softplusKernel).
	wide bool
	// outputBackward, if not nil, does outputBackwardVia's passes in one
	// (outputBackwardF32 of simd_amd64.s); NEON composes them.
	outputBackward func(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum *T, keep T)
	elementwise    elementwiseAsm[T]
	lanes          int // the element-wise kernels take n a multiple of lanes (1: any n)
	gcpLoss        func(zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64
}

// asmSets32 and asmSets64 are the sets asmKernels made tables of, for
// the tests of the stubs themselves.
var (
	asmSets32 []*asmSet[float32]
	asmSets64 []*asmSet[float64]
)

// asmKernels returns copies of the generic tables with the kernels of
// s32 and s64 installed, under the name of their instruction set.
func asmKernels(name string, s32 *asmSet[float32], s64 *asmSet[float64]) (*kernelSet[float32], *kernelSet[float64]) {
	asmSets32, asmSets64 = append(asmSets32, s32), append(asmSets64, s64)
	return asmTable(name, generic32, s32), asmTable(name, generic64, s64)
}

func asmTable[T Float](name string, gen *kernelSet[T], s *asmSet[T]) *kernelSet[T] {
	k := *gen
	k.name = name
	k.linearForward = s.gemm.linearForwardKernel()
	k.linearBackwardWeights = s.gemm.linearBackwardWeights
	k.linearBackwardInput = s.gemm.linearBackwardInput
	k.outputForward = outputForwardKernel[T]()
	k.outputBackward = outputBackwardVia(&k)
	k.dropoutMask = dropoutVia(&k)
	if s.outputBackward != nil {
		k.outputBackward = s.outputBackwardKernel
	}
	s.elementwise.install(&k, s.lanes)
	k.gcpLoss = s.gcpLoss
	k.softplus = softplusKernel[T](s.wide)
	return &k
}

// baseSets returns the kernels that simd_amd64.s (AVX2+FMA) and
// simd_arm64.s (NEON) both implement under the same names.
func baseSets() (*asmSet[float32], *asmSet[float64]) {
	loss := gcpAsm{lanes: gcpLanes}
	return &asmSet[float32]{
			gemm: gemmAsm[float32]{bcast: gemmBcastF32, bcast1: gemmBcast1F32, dot: gemmDotF32, tileRows: gemmTileRows, loneRows: gemmLoneRows, one: &one32},
			elementwise: elementwiseAsm[float32]{mulF32, mulToF32, reluBackwardF32, tanhBackwardF32, axpyF32, scaleF32,
				sumSquaresF32, allFiniteF32, sgdF32, nesterovF32, rmspropF32, adamF32},
			lanes:   asmLanes32,
			gcpLoss: loss.loss32,
		}, &asmSet[float64]{
			gemm: gemmAsm[float64]{bcast: gemmBcastF64, bcast1: gemmBcast1F64, dot: gemmDotF64, tileRows: gemmTileRows, loneRows: gemmLoneRows, one: &one64},
			elementwise: elementwiseAsm[float64]{mulF64, mulToF64, reluBackwardF64, tanhBackwardF64, axpyF64, scaleF64,
				sumSquaresF64, allFiniteF64, sgdF64, nesterovF64, rmspropF64, adamF64},
			lanes:   asmLanes64,
			gcpLoss: loss.loss64,
		}
}

// gemmAsm holds one instruction set's matrix kernels for element type T
// (gemmBcastF32 and the others below, or their AVX-512 forms), the
// height of its broadcast kernel's tiles and how many rows past the last
// whole tile go to the one-row kernel instead (see rows), and the
// constant 1 of type T (one32 or one64).
//
// bcast1Wide, if not nil, takes the single rows longer than narrow
// columns, and bcast1 the others: the AVX-512 set's one-row kernel is
// slower than AVX2's for the rows of up to one of its tiles
// (simd_avx512_amd64.go).
type gemmAsm[T Float] struct {
	bcast              func(m, n, k int, a *T, ars, aqs int, b *T, ldb int, c *T, ldc int, bias *T, flags int)
	bcast1             func(n, k int, a *T, aqs int, b *T, ldb int, c *T, bias *T, flags int)
	dot                func(m, n, k int, a *T, lda int, b *T, ldb int, c *T, ldc int, bias *T, flags int)
	tileRows, loneRows int
	one                *T
	bcast1Wide         func(n, k int, a *T, aqs int, b *T, ldb int, c *T, bias *T, flags int)
	narrow             int
}

// single returns the one-row kernel for a row of n columns.
func (g *gemmAsm[T]) single(n int) func(n, k int, a *T, aqs int, b *T, ldb int, c *T, bias *T, flags int) {
	if g.bcast1Wide != nil && n > g.narrow {
		return g.bcast1Wide
	}
	return g.bcast1
}

// rows computes what g.bcast computes, except that the rows past the
// last whole tile of g.tileRows, when there are at most g.loneRows of
// them, go to the one-row kernel (single) one row at a time. A tile does the work of all its
// rows whether or not C has them (it repeats the last), so the 13 inputs
// of the paper's UCI networks made the first layer's weight gradient
// three AVX2 tiles, 18 rows of work, and a minibatch of 32 its forward
// pass six, 36 rows of work. Both kernels compute each element as the
// same chain of fused multiply-adds in q order from the same start, so
// the split changes no bit.
func (g *gemmAsm[T]) rows(m, n, k int, a *T, ars, aqs int, b *T, ldb int, c *T, ldc int, bias *T, flags int) {
	whole := m
	if r := m % g.tileRows; r <= g.loneRows {
		whole = m - r
	}
	if whole > 0 {
		g.bcast(whole, n, k, a, ars, aqs, b, ldb, c, ldc, bias, flags)
	}
	for i := whole; i < m; i++ {
		g.single(n)(n, k, elemAt(a, i*ars), aqs, b, ldb, elemAt(c, i*ldc), bias, flags)
	}
}

// elemAt returns &p[i] for the array p points into.
func elemAt[T Float](p *T, i int) *T {
	return (*T)(unsafe.Add(unsafe.Pointer(p), uintptr(i)*unsafe.Sizeof(*p)))
}

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

// gemmDotF64 is gemmDotF32 for float64.
//
//	for i := range m { for p := range n {
//		s := 0; for j := range k { s += a[i*lda+j] * b[p*ldb+j] }
//		if flags&gemmBias != 0 { s = bias[p] + s }
//		if flags&gemmReLU != 0 { s = max(s, 0) }; c[i*ldc+p] = s } }
//
//go:noescape
func gemmDotF64(m, n, k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)

// linearForwardKernel returns linearForwardGeneric in assembly: a
// closure whose body is the wrapper, so that a call from the kernel table
// is one call, where a method value adds one that copies every argument
// again (about 40 instructions, 5% of a single-row Predict). A single row
// of up to g.narrow columns, a Predict's, goes to gemmBcast1F32 or
// gemmBcast1F64 by name (see "Stubs by name"); wider ones, to the set's
// own one-row kernel if it has one.
//
//go:noinline
func (g *gemmAsm[T]) linearForwardKernel() func(m, n, k int, x []T, ldx int, w, b, y []T, ldy int, relu bool) {
	return func(m, n, k int, x []T, ldx int, w, b, y []T, ldy int, relu bool) {
		flags, ok := linearForwardOperands(m, n, k, x, ldx, w, b, y, ldy, relu)
		if !ok {
			return
		}
		xp, wp, bp, yp := unsafe.SliceData(x), unsafe.SliceData(w), unsafe.SliceData(b), unsafe.SliceData(y)
		switch {
		case n == 1:
			g.dot(m, 1, k, xp, ldx, wp, k, yp, ldy, bp, flags)
		case m == 1 && g.bcast1Wide != nil && n > g.narrow:
			g.bcast1Wide(n, k, xp, 1, wp, n, yp, bp, flags)
		case m == 1 && unsafe.Sizeof(x[0]) == 4:
			a, b, c, bias := unsafe.Pointer(xp), unsafe.Pointer(wp), unsafe.Pointer(yp), unsafe.Pointer(bp)
			gemmBcast1F32(n, k, (*float32)(a), 1, (*float32)(b), n, (*float32)(c), (*float32)(bias), flags)
		case m == 1:
			a, b, c, bias := unsafe.Pointer(xp), unsafe.Pointer(wp), unsafe.Pointer(yp), unsafe.Pointer(bp)
			gemmBcast1F64(n, k, (*float64)(a), 1, (*float64)(b), n, (*float64)(c), (*float64)(bias), flags)
		default:
			g.rows(m, n, k, xp, ldx, 1, wp, n, yp, ldy, bp, flags)
		}
	}
}

// linearBackwardWeights is linearBackwardWeightsGeneric in assembly.
func (g *gemmAsm[T]) linearBackwardWeights(m, n, k int, dy []T, lddy int, x []T, ldx int, dw, db []T) {
	if !linearBackwardWeightsOperands(m, n, k, dy, lddy, x, ldx, dw, db) {
		return
	}
	if db != nil {
		// db += Σ_i dy[i,:]: one row of C, A ≡ 1.
		g.single(n)(n, m, g.one, 0, ptr(dy), lddy, ptr(db), nil, gemmAccum)
	}
	switch {
	case k == 0:
	case n == 1:
		// dw[p] += Σ_i dy[i]·x[i,p]: one row of C.
		g.single(k)(k, m, ptr(dy), lddy, ptr(x), ldx, ptr(dw), nil, gemmAccum)
	default:
		// dw[p,j] += Σ_i x[i,p]·dy[i,j]: A(p, i) = x[i*ldx+p].
		g.rows(k, n, m, ptr(x), 1, ldx, ptr(dy), lddy, ptr(dw), n, nil, gemmAccum)
	}
}

// linearBackwardInput is linearBackwardInputGeneric in assembly.
func (g *gemmAsm[T]) linearBackwardInput(m, n, k int, dy []T, lddy int, w []T, dx []T, lddx int) {
	if !linearBackwardInputOperands(m, n, k, dy, lddy, w, dx, lddx) {
		return
	}
	switch {
	case n == 1:
		// dx[i,p] = dy[i]·w[p]: a product per element, rounded once, as
		// in the generic dot of length 1.
		g.bcast(m, k, 1, ptr(dy), lddy, 0, ptr(w), k, ptr(dx), lddx, nil, 0)
	default:
		g.dot(m, k, n, ptr(dy), lddy, ptr(w), n, ptr(dx), lddx, nil, 0)
	}
}

// linearForwardOperands, linearBackwardWeightsOperands and
// linearBackwardInputOperands validate the operands of a layer kernel's
// assembly as linearForwardGeneric and the others index them, report the
// memory the assembly reads and writes to the race detector in race
// builds, and report whether there is anything to compute.
func linearForwardOperands[T Float](m, n, k int, x []T, ldx int, w, b, y []T, ldy int, relu bool) (flags int, ok bool) {
	if m <= 0 || n <= 0 {
		return 0, false
	}
	need(len(x), m, ldx, k)
	need(len(w), k, n, n)
	need(len(b), 1, n, n)
	need(len(y), m, ldy, n)
	if raceEnabled {
		raceMat(x, m, ldx, k, false)
		raceMat(w, 1, 0, k*n, false)
		raceMat(b, 1, 0, n, false)
		raceMat(y, m, ldy, n, true)
	}
	flags = gemmBias
	if relu {
		flags |= gemmReLU
	}
	return flags, true
}

func linearBackwardWeightsOperands[T Float](m, n, k int, dy []T, lddy int, x []T, ldx int, dw, db []T) bool {
	if m <= 0 || n <= 0 {
		return false
	}
	need(len(dy), m, lddy, n)
	need(len(x), m, ldx, k)
	need(len(dw), k, n, n)
	if db != nil { // nil: no bias gradient
		need(len(db), 1, n, n)
	}
	if raceEnabled {
		raceMat(dy, m, lddy, n, false)
		raceMat(x, m, ldx, k, false)
		raceMat(dw, 1, 0, k*n, true)
		if db != nil {
			raceMat(db, 1, 0, n, true)
		}
	}
	return true
}

func linearBackwardInputOperands[T Float](m, n, k int, dy []T, lddy int, w, dx []T, lddx int) bool {
	if m <= 0 || k <= 0 {
		return false
	}
	need(len(dy), m, lddy, n)
	need(len(w), k, n, n)
	need(len(dx), m, lddx, k)
	if raceEnabled {
		raceMat(dy, m, lddy, n, false)
		raceMat(w, 1, 0, k*n, false)
		raceMat(dx, m, lddx, k, true)
	}
	return true
}

// outputForwardF32 computes, for m ≥ 1 rows and heads ≥ 1 heads, the
// block-diagonal output layer with one unit per head:
//
//	for i := range m { for h := range heads {
//		s := 0; for p := range k { s += x[i*ldx+h*k+p] * w[h*k+p] }
//		y[h*m+i] = b[h] + s } }
//
//go:noescape
func outputForwardF32(m, heads, k int, x *float32, ldx int, w, b, y *float32)

// outputForwardF64 is outputForwardF32 for float64.
//
//	for i := range m { for h := range heads {
//		s := 0; for p := range k { s += x[i*ldx+h*k+p] * w[h*k+p] }
//		y[h*m+i] = b[h] + s } }
//
//go:noescape
func outputForwardF64(m, heads, k int, x *float64, ldx int, w, b, y *float64)

// outputOperands validates the operands of outputForwardGeneric's call
// for the assembly, reports its accesses in race builds, and returns
// whether there is anything to compute.
func outputOperands[T Float](m, heads, k int, x []T, ldx int, w, b, y []T) bool {
	if m <= 0 || heads <= 0 {
		return false
	}
	need(len(x), m, ldx, heads*k)
	need(len(w), 1, 0, heads*k)
	need(len(b), 1, 0, heads)
	need(len(y), 1, 0, heads*m)
	if raceEnabled {
		raceMat(x, m, ldx, heads*k, false)
		raceRead(w[:heads*k], b[:heads])
		raceWrite(y[:heads*m])
	}
	return true
}

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

// outputBackwardKernel is outputBackwardVia's result in one assembly
// kernel. Where keep says that the mask can be read off x under a ReLU
// (see outputBackwardVia), it passes the kernel a nil mask and keep, and
// the kernel does so; else the mask and 0.
func (s *asmSet[T]) outputBackwardKernel(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []T, keep T) {
	if !outputBackwardOperands(m, heads, k, dy, x, w, dw, db, dx, mask, act, colsum) {
		return
	}
	mp := ptr(mask)
	if mask == nil || act == nil {
		keep = 0
	} else if keep != 0 {
		mp = nil
	}
	s.outputBackward(m, heads, k, ptr(dy), ptr(x), ptr(w), ptr(dw), ptr(db), ptr(dx), mp, ptr(act), ptr(colsum), keep)
}

// outputForwardKernel returns outputForwardGeneric in assembly, a closure
// as linearForwardKernel returns: outputForwardF32 or outputForwardF64 by
// name (see "Stubs by name"), in every set (the AVX-512 set keeps AVX2's,
// see avx512Sets).
//
//go:noinline
func outputForwardKernel[T Float]() func(m, heads, k int, x []T, ldx int, w, b, y []T) {
	return func(m, heads, k int, x []T, ldx int, w, b, y []T) {
		if !outputOperands(m, heads, k, x, ldx, w, b, y) {
			return
		}
		xp, wp, bp, yp := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(w)), unsafe.Pointer(unsafe.SliceData(b)), unsafe.Pointer(unsafe.SliceData(y))
		if unsafe.Sizeof(x[0]) == 4 {
			outputForwardF32(m, heads, k, (*float32)(xp), ldx, (*float32)(wp), (*float32)(bp), (*float32)(yp))
		} else {
			outputForwardF64(m, heads, k, (*float64)(xp), ldx, (*float64)(wp), (*float64)(bp), (*float64)(yp))
		}
	}
}

// The element-wise kernels and reductions of simd_amd64.s and
// simd_arm64.s. On both, they take n a multiple of asmLanes32 or
// asmLanes64, 32 bytes of elements (an AVX2 vector, two NEON ones), and
// the wrappers of elementwiseAsm.install finish the rest with the generic
// kernels. (The NEON kernels would take any n: their scalar tails then do
// at most the last vector.)
const (
	asmLanes32 = 8
	asmLanes64 = 4
)

// mulF32 computes
//
//	for i := range n { x[i] *= y[i] }
//
//go:noescape
func mulF32(n int, x, y *float32)

// mulF64 computes
//
//	for i := range n { x[i] *= y[i] }
//
//go:noescape
func mulF64(n int, x, y *float64)

// mulToF32 computes
//
//	for i := range n { dst[i] = x[i] * y[i] }
//
//go:noescape
func mulToF32(n int, dst, x, y *float32)

// mulToF64 computes
//
//	for i := range n { dst[i] = x[i] * y[i] }
//
//go:noescape
func mulToF64(n int, dst, x, y *float64)

// reluBackwardF32 computes
//
//	for i := range n { if !(y[i] > 0) { d[i] = 0 } }
//
//go:noescape
func reluBackwardF32(n int, d, y *float32)

// reluBackwardF64 computes
//
//	for i := range n { if !(y[i] > 0) { d[i] = 0 } }
//
//go:noescape
func reluBackwardF64(n int, d, y *float64)

// tanhBackwardF32 computes
//
//	for i := range n { d[i] *= 1 - y[i]*y[i] }
//
//go:noescape
func tanhBackwardF32(n int, d, y *float32)

// tanhBackwardF64 computes
//
//	for i := range n { d[i] *= 1 - y[i]*y[i] }
//
//go:noescape
func tanhBackwardF64(n int, d, y *float64)

// axpyF32 computes
//
//	for i := range n { y[i] += a * x[i] }
//
//go:noescape
func axpyF32(n int, x, y *float32, a float32)

// axpyF64 computes
//
//	for i := range n { y[i] += a * x[i] }
//
//go:noescape
func axpyF64(n int, x, y *float64, a float64)

// scaleF32 computes
//
//	for i := range n { x[i] *= a }
//
//go:noescape
func scaleF32(n int, x *float32, a float32)

// scaleF64 computes
//
//	for i := range n { x[i] *= a }
//
//go:noescape
func scaleF64(n int, x *float64, a float64)

// sgdF32 computes, reporting whether every value it writes is finite,
//
//	for i := range n { p2[i] = p[i] - lr*gr[i] }
//
//go:noescape
func sgdF32(n int, p2, p, gr *float32, lr float32) bool

// sgdF64 computes, reporting whether every value it writes is finite,
//
//	for i := range n { p2[i] = p[i] - lr*gr[i] }
//
//go:noescape
func sgdF64(n int, p2, p, gr *float64, lr float64) bool

// nesterovF32 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		v2[i] = mu*v[i] - lr*gr[i]
//		p2[i] = p[i] + mu*v2[i] - lr*gr[i] }
//
//go:noescape
func nesterovF32(n int, p2, v2, p, v, gr *float32, lr, mu float32) bool

// nesterovF64 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		v2[i] = mu*v[i] - lr*gr[i]
//		p2[i] = p[i] + mu*v2[i] - lr*gr[i] }
//
//go:noescape
func nesterovF64(n int, p2, v2, p, v, gr *float64, lr, mu float64) bool

// rmspropF32 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		a2[i] = rho*a[i] + c*gr[i]*gr[i]   // c = 1 − rho
//		p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps) }
//
//go:noescape
func rmspropF32(n int, p2, a2, p, a, gr *float32, lr, rho, c, eps float32) bool

// rmspropF64 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		a2[i] = rho*a[i] + c*gr[i]*gr[i]   // c = 1 − rho
//		p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps) }
//
//go:noescape
func rmspropF64(n int, p2, a2, p, a, gr *float64, lr, rho, c, eps float64) bool

// adamF32 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		m2[i] = b1*m[i] + c1*gr[i]        // c1 = 1 − b1
//		v2[i] = b2*v[i] + c2*gr[i]*gr[i]   // c2 = 1 − b2
//		p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps) }
//
//go:noescape
func adamF32(n int, p2, m2, v2, p, m, v, gr *float32, lr, b1, c1, b2, c2, eps float32) bool

// adamF64 computes, reporting whether every value it writes is finite,
//
//	for i := range n {
//		m2[i] = b1*m[i] + c1*gr[i]        // c1 = 1 − b1
//		v2[i] = b2*v[i] + c2*gr[i]*gr[i]   // c2 = 1 − b2
//		p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps) }
//
//go:noescape
func adamF64(n int, p2, m2, v2, p, m, v, gr *float64, lr, b1, c1, b2, c2, eps float64) bool

// sumSquaresF32 returns
//
//	for _, v := range x[:n] { s += float64(v) * float64(v) }
//
//go:noescape
func sumSquaresF32(n int, x *float32) float64

// sumSquaresF64 returns
//
//	for _, v := range x[:n] { s += v * v }
//
//go:noescape
func sumSquaresF64(n int, x *float64) float64

// allFiniteF32 reports
//
//	for _, v := range x[:n] { s += v - v }; return s == 0
//
//go:noescape
func allFiniteF32(n int, x *float32) bool

// allFiniteF64 reports
//
//	for _, v := range x[:n] { s += v - v }; return s == 0
//
//go:noescape
func allFiniteF64(n int, x *float64) bool

// elementwiseAsm holds one element type's element-wise assembly kernels.
// install wraps them for the kernel table: the assembly does whole vectors
// of lanes elements, the generic kernel the last len%lanes (none with
// lanes = 1, for kernels that finish their own tails); each wrapper
// reslices its operands as the generic kernel does, so a short operand
// panics before anything is written, and reports the assembly's memory
// accesses in race builds.
type elementwiseAsm[T Float] struct {
	mul          func(n int, x, y *T)
	mulTo        func(n int, dst, x, y *T)
	reluBackward func(n int, d, y *T)
	tanhBackward func(n int, d, y *T)
	axpy         func(n int, x, y *T, a T)
	scale        func(n int, x *T, a T)
	sumSquares   func(n int, x *T) float64
	allFinite    func(n int, x *T) bool
	sgd          func(n int, p2, p, g *T, lr T) bool
	nesterov     func(n int, p2, v2, p, v, g *T, lr, mu T) bool
	rmsprop      func(n int, p2, a2, p, a, g *T, lr, rho, c, eps T) bool
	adam         func(n int, p2, m2, v2, p, m, v, g *T, lr, b1, c1, b2, c2, eps T) bool
}

func (e elementwiseAsm[T]) install(k *kernelSet[T], lanes int) {
	whole := func(n int) int { return n &^ (lanes - 1) }
	// inPlace wraps a kernel that updates d from y element by element.
	inPlace := func(asm func(n int, d, y *T), gen func(d, y []T)) func(d, y []T) {
		return func(d, y []T) {
			y = y[:len(d)]
			n := whole(len(d))
			if raceEnabled {
				raceWrite(d[:n])
				raceRead(y[:n])
			}
			if n > 0 {
				asm(n, ptr(d), ptr(y))
			}
			gen(d[n:], y[n:])
		}
	}
	k.mul = inPlace(e.mul, mulGeneric[T])
	k.reluBackward = inPlace(e.reluBackward, reluBackwardGeneric[T])
	k.tanhBackward = inPlace(e.tanhBackward, tanhBackwardGeneric[T])
	k.mulTo = func(dst, x, y []T) {
		x, y = x[:len(dst)], y[:len(dst)]
		n := whole(len(dst))
		if raceEnabled {
			raceWrite(dst[:n])
			raceRead(x[:n], y[:n])
		}
		if n > 0 {
			e.mulTo(n, ptr(dst), ptr(x), ptr(y))
		}
		mulToGeneric(dst[n:], x[n:], y[n:])
	}
	k.axpy = func(a T, x, y []T) {
		y = y[:len(x)]
		n := whole(len(x))
		if raceEnabled {
			raceWrite(y[:n])
			raceRead(x[:n])
		}
		if n > 0 {
			e.axpy(n, ptr(x), ptr(y), a)
		}
		axpyGeneric(a, x[n:], y[n:])
	}
	k.scale = func(a T, x []T) {
		n := whole(len(x))
		if raceEnabled {
			raceWrite(x[:n])
		}
		if n > 0 {
			e.scale(n, ptr(x), a)
		}
		scaleGeneric(a, x[n:])
	}
	k.sumSquares = func(x []T) float64 {
		n := whole(len(x))
		s := 0.0
		if raceEnabled {
			raceRead(x[:n])
		}
		if n > 0 {
			s = e.sumSquares(n, ptr(x))
		}
		return s + sumSquaresGeneric(x[n:])
	}
	k.allFinite = func(x []T) bool {
		n := whole(len(x))
		if raceEnabled {
			raceRead(x[:n])
		}
		return (n == 0 || e.allFinite(n, ptr(x))) && allFiniteGeneric(x[n:])
	}
	// The optimizer steps report whether the assembly's part and the
	// generic tail both wrote only finite values.
	k.sgd = func(p2, p, g []T, lr T) bool {
		p, g = p[:len(p2)], g[:len(p2)]
		n := whole(len(p2))
		if raceEnabled {
			raceWrite(p2[:n])
			raceRead(p[:n], g[:n])
		}
		ok := n == 0 || e.sgd(n, ptr(p2), ptr(p), ptr(g), lr)
		return sgdGeneric(p2[n:], p[n:], g[n:], lr) && ok
	}
	k.nesterov = func(p2, v2, p, v, g []T, lr, mu T) bool {
		v2, p, v, g = v2[:len(p2)], p[:len(p2)], v[:len(p2)], g[:len(p2)]
		n := whole(len(p2))
		if raceEnabled {
			raceWrite(p2[:n], v2[:n])
			raceRead(p[:n], v[:n], g[:n])
		}
		ok := n == 0 || e.nesterov(n, ptr(p2), ptr(v2), ptr(p), ptr(v), ptr(g), lr, mu)
		return nesterovGeneric(p2[n:], v2[n:], p[n:], v[n:], g[n:], lr, mu) && ok
	}
	k.rmsprop = func(p2, a2, p, a, g []T, lr, rho, eps T) bool {
		a2, p, a, g = a2[:len(p2)], p[:len(p2)], a[:len(p2)], g[:len(p2)]
		n := whole(len(p2))
		if raceEnabled {
			raceWrite(p2[:n], a2[:n])
			raceRead(p[:n], a[:n], g[:n])
		}
		ok := n == 0 || e.rmsprop(n, ptr(p2), ptr(a2), ptr(p), ptr(a), ptr(g), lr, rho, 1-rho, eps)
		return rmspropGeneric(p2[n:], a2[n:], p[n:], a[n:], g[n:], lr, rho, eps) && ok
	}
	k.adam = func(p2, m2, v2, p, m, v, g []T, lr, b1, b2, eps T) bool {
		m2, v2, p, m, v, g = m2[:len(p2)], v2[:len(p2)], p[:len(p2)], m[:len(p2)], v[:len(p2)], g[:len(p2)]
		n := whole(len(p2))
		if raceEnabled {
			raceWrite(p2[:n], m2[:n], v2[:n])
			raceRead(p[:n], m[:n], v[:n], g[:n])
		}
		ok := n == 0 || e.adam(n, ptr(p2), ptr(m2), ptr(v2), ptr(p), ptr(m), ptr(v), ptr(g), lr, b1, 1-b1, b2, 1-b2, eps)
		return adamGeneric(p2[n:], m2[n:], v2[n:], p[n:], m[n:], v[n:], g[n:], lr, b1, b2, eps) && ok
	}
}

// gcpAsm is an instruction set's GCP loss kernel: gcpLossF64 (wide
// false) or the AVX-512 gcpLoss512F64 (wide true), through gcpLossLanes,
// which takes n a multiple of lanes (1: any n), and their float32 forms
// through gcpLossLanes32.
type gcpAsm struct {
	wide  bool
	lanes int
}

// loss64 is gcpLossGeneric for float64.
func (g gcpAsm) loss64(zm, za, zb, zn, y []float64, fixedAlpha, scale float64, gm, ga, gb, gn []float64) float64 {
	return gcpLossVia(g, gcpLossLanes, zm, za, zb, zn, y, fixedAlpha, scale, gm, ga, gb, gn)
}

// loss32 is gcpLossGeneric for float32. The generic kernel computes in
// float64 and rounds the gradients to float32; so does gcpLossLanes32.
func (g gcpAsm) loss32(zm, za, zb, zn, y []float32, fixedAlpha, scale float64, gm, ga, gb, gn []float32) float64 {
	return gcpLossVia(g, gcpLossLanes32, zm, za, zb, zn, y, fixedAlpha, scale, gm, ga, gb, gn)
}

// gcpLossVia is gcpLossGeneric with the assembly's lanes for the whole
// groups of g.lanes samples, and the generic kernel for the last
// len(y)%g.lanes.
func gcpLossVia[T Float](g gcpAsm, lanes func(wide bool, n int, zm, za, zb, zn, y, gm, ga, gb, gn *T, fixedAlpha, scale float64) float64,
	zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64 {
	n := len(y)
	zm, zb, zn, gm, gb, gn = zm[:n], zb[:n], zn[:n], gm[:n], gb[:n], gn[:n]
	learned := fixedAlpha == 0
	if learned {
		za, ga = za[:n], ga[:n]
		fixedAlpha = 0 // not −0: the assembly tests the bits
	}
	nv := n - n%g.lanes
	sum := 0.0
	if nv > 0 {
		if raceEnabled {
			raceRead(zm[:nv], zb[:nv], zn[:nv], y[:nv])
			raceWrite(gm[:nv], gb[:nv], gn[:nv])
			if learned {
				raceRead(za[:nv])
				raceWrite(ga[:nv])
			}
		}
		sum = lanes(g.wide, nv, ptr(zm), ptr(za), ptr(zb), ptr(zn), ptr(y), ptr(gm), ptr(ga), ptr(gb), ptr(gn), fixedAlpha, scale)
	}
	return sum + gcpLossTail(nv, zm, za, zb, zn, y, fixedAlpha, scale, gm, ga, gb, gn)
}

// gcpLossTail returns gcpLossGeneric over the samples from nv on, which the
// assembly leaves, and 0 when there are none.
func gcpLossTail[T Float](nv int, zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64 {
	if nv == len(y) {
		return 0
	}
	if fixedAlpha == 0 {
		za, ga = za[nv:], ga[nv:]
	}
	return gcpLossGeneric(zm[nv:], za, zb[nv:], zn[nv:], y[nv:], fixedAlpha, scale, gm[nv:], ga, gb[nv:], gn[nv:])
}
