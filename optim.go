package gcp

import "math"

// optimizer applies one update rule to a contiguous parameter buffer. It is
// double-buffered: an update is written into spare buffers, checked, and
// only then swapped in, so a rejected update leaves parameters and state
// exactly as they were.
type optimizer[T Float] struct {
	cfg TrainConfig
	k   *kernelSet[T]
	t   int // updates applied, for Adam's bias correction
	// pow1 and pow2 are Beta1ᵗ and Beta2ᵗ, for a float32 model's bias
	// correction (biasPowers).
	pow1, pow2 float64
	next       []T    // candidate parameters
	state, alt [2][]T // current and candidate state (Adam: m, v; RMSProp: mean g²; Nesterov: velocity)
}

func newOptimizer[T Float](k *kernelSet[T], cfg TrainConfig, size int) *optimizer[T] {
	o := &optimizer[T]{cfg: cfg, k: k, next: make([]T, size), pow1: 1, pow2: 1}
	for i := 0; i < cfg.Optimizer.stateBuffers(); i++ {
		o.state[i], o.alt[i] = make([]T, size), make([]T, size)
	}
	return o
}

// update applies weight decay and gradient clipping to g, then computes the
// updated parameters from p. It returns them, to be committed with commit,
// or ErrDiverged (leaving p and the state untouched) if any updated
// parameter or state value is not finite, which the update kernel itself
// reports: a separate check would read every candidate buffer again.
func (o *optimizer[T]) update(p, g []T) ([]T, error) {
	c, k := &o.cfg, o.k
	if c.WeightDecay > 0 {
		k.axpy(T(c.WeightDecay), p, g)
	}
	if c.ClipNorm > 0 {
		if norm := math.Sqrt(k.sumSquares(g)); norm > c.ClipNorm {
			k.scale(T(c.ClipNorm/norm), g)
		}
	}
	lr := T(c.LearningRate)
	var finite bool
	switch c.Optimizer {
	case Adam:
		pow1, pow2 := o.biasPowers()
		corr2 := math.Sqrt(1 - pow2)
		lrT := c.LearningRate * corr2 / (1 - pow1)
		finite = k.adam(o.next, o.alt[0], o.alt[1], p, o.state[0], o.state[1], g, T(lrT), T(c.Beta1), T(c.Beta2), T(c.Epsilon*corr2))
	case RMSProp:
		finite = k.rmsprop(o.next, o.alt[0], p, o.state[0], g, lr, T(c.Rho), T(c.Epsilon))
	case Nesterov:
		finite = k.nesterov(o.next, o.alt[0], p, o.state[0], g, lr, T(c.Momentum))
	case SGD:
		finite = k.sgd(o.next, p, g, lr)
	}
	if !finite {
		return nil, ErrDiverged
	}
	return o.next, nil
}

// biasPowers returns Beta1ᵗ⁺¹ and Beta2ᵗ⁺¹, the powers of Adam's bias
// correction for the next update. A float64 model takes them from
// math.Pow, as it always has; a float32 model from the running products
// pow1 and pow2, a multiplication each where the two math.Pow were a
// fiftieth of a minibatch-32 step (AMD Zen 4). The products' rounding,
// at most (t+1)·2⁻⁵³ relative, stays below that of T(lrT), 2⁻²⁴, for
// the first 2²⁹ updates.
func (o *optimizer[T]) biasPowers() (pow1, pow2 float64) {
	c := &o.cfg
	if _, f32 := any(T(0)).(float32); f32 {
		return o.pow1 * c.Beta1, o.pow2 * c.Beta2
	}
	t := float64(o.t + 1)
	return math.Pow(c.Beta1, t), math.Pow(c.Beta2, t)
}

// commit makes the last update current: the old parameter buffer old
// becomes the spare for the next update.
func (o *optimizer[T]) commit(old []T) {
	o.next = old
	o.state, o.alt = o.alt, o.state
	o.t++
	o.pow1, o.pow2 = o.pow1*o.cfg.Beta1, o.pow2*o.cfg.Beta2
}
