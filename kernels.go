package gcp

// kernelSet is the table of kernels for one element type. Models call
// kernels through it once per layer or per buffer, never per element, so
// the indirection costs nothing measurable, and one place decides which
// implementation runs.
type kernelSet[T Float] struct {
	linearForward         func(m, n, k int, x []T, ldx int, w, b, y []T, ldy int, relu bool)
	linearBackwardWeights func(m, n, k int, dy []T, lddy int, x []T, ldx int, dw, db []T)
	linearBackwardInput   func(m, n, k int, dy []T, lddy int, w, dx []T, lddx int)
	tanh                  func(x []T)
	mul                   func(x, y []T)
	mulTo                 func(dst, x, y []T)
	reluBackward          func(d, y []T)
	tanhBackward          func(d, y []T)
	axpy                  func(a T, x, y []T)
	scale                 func(a T, x []T)
	sumSquares            func(x []T) float64
	allFinite             func(x []T) bool
	sgd                   func(p2, p, g []T, lr T)
	nesterov              func(p2, v2, p, v, g []T, lr, mu T)
	rmsprop               func(p2, a2, p, a, g []T, lr, rho, eps T)
	adam                  func(p2, m2, v2, p, m, v, g []T, lr, b1, b2, eps T)
	gcpLoss               func(zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64
}

func genericKernels[T Float]() *kernelSet[T] {
	return &kernelSet[T]{
		linearForward:         linearForwardGeneric[T],
		linearBackwardWeights: linearBackwardWeightsGeneric[T],
		linearBackwardInput:   linearBackwardInputGeneric[T],
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
	}
}

var (
	kernels32 = genericKernels[float32]()
	kernels64 = genericKernels[float64]()
)

// kernelsFor returns the kernel table for T.
func kernelsFor[T Float]() *kernelSet[T] {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return any(kernels32).(*kernelSet[T])
	}
	return any(kernels64).(*kernelSet[T])
}
