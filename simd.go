package gcp

// kernelSet is the table of kernels for one element type. Models call
// kernels through it once per layer or per buffer, never per element, so
// the indirection costs nothing measurable, and one place decides which
// implementation runs.
type kernelSet[T Float] struct {
	name                  string // the instruction set: "generic", or the assembly's
	linearForward         func(m, n, k int, x []T, ldx int, w, b, y []T, ldy int, relu bool)
	linearBackwardWeights func(m, n, k int, dy []T, lddy int, x []T, ldx int, dw, db []T)
	linearBackwardInput   func(m, n, k int, dy []T, lddy int, w, dx []T, lddx int)
	outputForward         func(m, heads, k int, x []T, ldx int, w, b, y []T)
	outputBackward        func(m, heads, k int, dy, x, w, dw, db, dx, mask, act, colsum []T, keep T) // outputBackwardVia
	tanh                  func(x []T)
	mul                   func(x, y []T)
	mulTo                 func(dst, x, y []T)
	reluBackward          func(d, y []T)
	tanhBackward          func(d, y []T)
	axpy                  func(a T, x, y []T)
	scale                 func(a T, x []T)
	sumSquares            func(x []T) float64
	allFinite             func(x []T) bool
	sgd                   func(p2, p, g []T, lr T) bool // the optimizer steps report whether all they wrote is finite
	nesterov              func(p2, v2, p, v, g []T, lr, mu T) bool
	rmsprop               func(p2, a2, p, a, g []T, lr, rho, eps T) bool
	adam                  func(p2, m2, v2, p, m, v, g []T, lr, b1, b2, eps T) bool
	gcpLoss               func(zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64
	softplus              func(dst []float64, x []T)
	standardize           func(u, x []T, mean, inv, z []float64) bool                        // rows of len(mean) features, len(z) of them
	dropoutMask           func(src *splitMix, p float64, mask, act, drop []T, dropOnly bool) // dropoutVia
}

func genericKernels[T Float]() *kernelSet[T] {
	k := &kernelSet[T]{
		name:                  "generic",
		linearForward:         linearForwardGeneric[T],
		linearBackwardWeights: linearBackwardWeightsGeneric[T],
		linearBackwardInput:   linearBackwardInputGeneric[T],
		outputForward:         outputForwardGeneric[T],
		tanh:                  tanhGeneric[T],
		mul:                   mulGeneric[T],
		mulTo:                 mulToGeneric[T],
		reluBackward:          reluBackwardGeneric[T],
		tanhBackward:          tanhBackwardGeneric[T],
		axpy:                  axpyGeneric[T],
		scale:                 scaleGeneric[T],
		sumSquares:            sumSquaresGeneric[T],
		allFinite:             allFiniteGeneric[T],
		sgd:                   sgdGeneric[T],
		nesterov:              nesterovGeneric[T],
		rmsprop:               rmspropGeneric[T],
		adam:                  adamGeneric[T],
		gcpLoss:               gcpLossGeneric[T],
		softplus:              softplusGeneric[T],
		standardize:           standardizeGeneric[T],
	}
	k.outputBackward = outputBackwardVia(k)
	k.dropoutMask = dropoutVia(k)
	return k
}

// dropoutVia returns the trainer's dropout kernel composed of k's
// kernels: it fills mask with fresh inverted-dropout factors from src
// (dropoutMaskGeneric) and writes drop = act·mask, the dropped-out units,
// by k.mulTo. The AVX-512 table replaces it with one kernel that writes
// both as it draws (dropoutMaskAVX512), so that the mask is not read back
// in a pass of its own. dropOnly tells that the caller will not read the
// mask: a kernel may then leave it as it was (the AVX-512 one does, a
// store saved for each vector of drop) or use it as scratch (this one).
func dropoutVia[T Float](k *kernelSet[T]) func(src *splitMix, p float64, mask, act, drop []T, dropOnly bool) {
	return func(src *splitMix, p float64, mask, act, drop []T, _ bool) {
		dropoutMaskGeneric(src, p, mask)
		k.mulTo(drop[:len(mask)], act[:len(mask)], mask)
	}
}

// outputBackwardVia returns the backward pass of the output layer (see
// outputForwardGeneric) composed of k's kernels, the two of each head and
// two over all of dx:
//
//	for h := range heads {
//		linearBackwardWeights of head h's k weights and bias (dw, db +=)
//		linearBackwardInput of its k inputs (dx =) }
//	if mask != nil { dx *= mask }      // dropout
//	if act != nil { reluBackward(dx, act) }
//	if colsum != nil { colsum += column sums of dx } // the next layer's db
//
// dy holds the heads' output gradients head-major (head h's m at h*m), and
// x, dx, mask and act are m rows of heads·k. The column sums are the bias
// part of linearBackwardWeights alone (k = 0). The generic and NEON
// tables use it; the AVX2 kernel does all of it in one pass, with the same
// arithmetic for every element, so that dx, the 128 KB of a float32
// ensemble of five, is written once instead of written, then read and
// written again, and read again for its sums.
//
// keep, if not 0, tells that mask is the trainer's dropout mask drawn by
// dropoutMask, 0 or keep in every element, and x the units it kept,
// act·mask. Under a ReLU (act not nil) a unit's gradient is then
// keep·dx where 0 < x, the units kept and active (act·keep > 0 only where
// act > 0), and +0 everywhere else, read off x alone (keptBackward): the
// mask and act are not read, which saves two passes through the cache
// in the AVX2 and AVX-512 kernels. Mask-then-ReLU gives the same value
// for every unit kept or inactive; for a unit dropped while active it
// gives (dy·w)·0, ±0 where +0 is taken here (no sum changes), or NaN for
// an infinite dy·w, which makes the step's gradient non-finite anyway
// (dy or w is then infinite, and with it the output layer's dw or the
// parameters).
func outputBackwardVia[T Float](k *kernelSet[T]) func(m, heads, kk int, dy, x, w, dw, db, dx, mask, act, colsum []T, keep T) {
	return func(m, heads, kk int, dy, x, w, dw, db, dx, mask, act, colsum []T, keep T) {
		if m <= 0 {
			return // no rows, and x may be empty
		}
		ld := heads * kk
		for h := 0; h < heads; h++ {
			dyh := dy[h*m : h*m+m]
			k.linearBackwardWeights(m, 1, kk, dyh, 1, x[h*kk:], ld, dw[h*kk:h*kk+kk], db[h:h+1])
			k.linearBackwardInput(m, 1, kk, dyh, 1, w[h*kk:h*kk+kk], dx[h*kk:], ld)
		}
		if keep != 0 && mask != nil && act != nil {
			keptBackward(dx[:m*ld], x[:m*ld], keep)
			mask, act = nil, nil
		}
		k.hiddenBackward(m, ld, dx, mask, act, colsum)
	}
}

// hiddenBackward finishes the gradient dx of the m rows of ld last hidden
// units that an output layer's backward pass wrote: it applies the
// dropout mask and the ReLU's derivative (each if non-nil) and adds the
// column sums of the result, the last hidden layer's bias gradient, to
// colsum (if non-nil).
func (k *kernelSet[T]) hiddenBackward(m, ld int, dx, mask, act, colsum []T) {
	dx = dx[:m*ld]
	if mask != nil {
		k.mul(dx, mask)
	}
	if act != nil {
		k.reluBackward(dx, act)
	}
	if colsum != nil {
		k.linearBackwardWeights(m, ld, 0, dx, ld, nil, 0, nil, colsum)
	}
}

// The pure-Go tables, and the tables models use. The architecture files
// (built with gc and without the purego tag) replace kernels32 and
// kernels64 in their init with copies of the generic tables whose entries
// they implement in assembly, when the CPU has the instructions; with the
// purego tag, on other architectures, or on older CPUs, every entry stays
// generic. The generic tables stay reachable, as the tests' oracle.
var (
	generic32 = genericKernels[float32]()
	generic64 = genericKernels[float64]()
	kernels32 = generic32
	kernels64 = generic64
)

// asmTables32 and asmTables64 are the assembly tables this CPU can run,
// in the order installKernels received them; the tests compare each with
// the generic tables.
var (
	asmTables32 []*kernelSet[float32]
	asmTables64 []*kernelSet[float64]
)

// installKernels adds k32 and k64 to the assembly tables and makes them
// the tables models use: the architecture files call it in their init
// for each instruction set the CPU has, the best last.
func installKernels(k32 *kernelSet[float32], k64 *kernelSet[float64]) {
	asmTables32 = append(asmTables32, k32)
	asmTables64 = append(asmTables64, k64)
	kernels32, kernels64 = k32, k64
}

// kernelsFor returns the kernel table models of element type T use.
func kernelsFor[T Float]() *kernelSet[T] { return pickKernels[T](kernels32, kernels64) }

// genericKernelsFor returns the pure-Go kernel table for T.
func genericKernelsFor[T Float]() *kernelSet[T] { return pickKernels[T](generic32, generic64) }

func pickKernels[T Float](k32 *kernelSet[float32], k64 *kernelSet[float64]) *kernelSet[T] {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return any(k32).(*kernelSet[T])
	}
	return any(k64).(*kernelSet[T])
}
