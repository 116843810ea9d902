package gcp

import "fmt"

// Stack is nets independent multi-layer perceptrons of one shape with one
// scalar output each, in one contiguous parameter buffer: the machinery
// under a Model, for packages that train networks their own way (the
// Bayesian comparators of package bayes). One matrix product per layer
// serves all nets, on the package's SIMD kernels.
//
// The buffer is laid out as a Model's heads are (layout): the first
// layer's weights of all nets side by side in one input-major matrix,
// later layers block-diagonal. Net and SetNet move one net's parameters
// to and from a buffer of its own, in the order of a one-net Stack's:
// for each layer its input-major [inputs × outputs] weights, then its
// biases.
type Stack[T Float] struct {
	lay *layout // all nets
	one *layout // one net alone: the order of Net's buffers
	act Activation
	k   *kernelSet[T]
}

// NewStack returns a Stack of nets networks with inputs inputs, the
// hidden layers hidden and the activation act. Sizes outside the limits
// of Config, no hidden layer, or nets < 1 give an error wrapping
// ErrConfig.
func NewStack[T Float](inputs int, hidden []int, nets int, act Activation) (*Stack[T], error) {
	if len(hidden) == 0 {
		return nil, fmt.Errorf("%w: Stack needs at least one hidden layer", ErrConfig)
	}
	if err := (Config{Inputs: inputs, Hidden: hidden, Activation: act, Members: 1}).validate(); err != nil {
		return nil, err
	}
	if nets < 1 {
		return nil, fmt.Errorf("%w: Stack of %d nets, want at least 1", ErrConfig, nets)
	}
	lay, ok := newLayout(inputs, nets, 1, hidden)
	if !ok {
		return nil, fmt.Errorf("%w: %d nets of Hidden = %v with Inputs = %d need more than %d parameters", ErrConfig, nets, hidden, inputs, maxParams)
	}
	one, _ := newLayout(inputs, 1, 1, hidden) // no larger than lay
	return &Stack[T]{lay: lay, one: one, act: act, k: kernelsFor[T]()}, nil
}

// Params returns the length of a parameter buffer of all nets; each net
// has Params()/nets of them. It is 0 for a Stack NewStack did not build,
// with which every other method returns ErrShape.
func (s *Stack[T]) Params() int {
	if !s.built() {
		return 0
	}
	return s.lay.size
}

// built reports whether NewStack made s.
func (s *Stack[T]) built() bool { return s != nil && s.lay != nil }

// Init fills p (length Params()) with the package's initial weights drawn
// from seed (Glorot-uniform weights, zero biases), the same
// for the same seed. It returns ErrShape for a wrong length.
func (s *Stack[T]) Init(p []T, seed uint64) error {
	if !s.built() || len(p) != s.lay.size {
		return ErrShape
	}
	initParams(s.lay, p, seed)
	return nil
}

// Net copies the parameters of net k out of p (length Params()) into dst
// (length Params()/nets), in the order of a one-net Stack's buffer. It
// returns ErrShape for a wrong length or a k outside [0, nets).
func (s *Stack[T]) Net(p []T, k int, dst []T) error {
	if err := s.checkNet(p, k, dst); err != nil {
		return err
	}
	s.lay.memberSpans(k, func(stacked, single, n int) { copy(dst[single:single+n], p[stacked:stacked+n]) })
	return nil
}

// SetNet copies the parameters of net k from src (length Params()/nets,
// in the order Net writes) into p (length Params()); Net's errors.
func (s *Stack[T]) SetNet(p []T, k int, src []T) error {
	if err := s.checkNet(p, k, src); err != nil {
		return err
	}
	s.lay.memberSpans(k, func(stacked, single, n int) { copy(p[stacked:stacked+n], src[single:single+n]) })
	return nil
}

func (s *Stack[T]) checkNet(p []T, k int, net []T) error {
	if !s.built() || len(p) != s.lay.size || len(net) != s.one.size || k < 0 || k >= s.lay.heads {
		return ErrShape
	}
	return nil
}

// StackPass holds the buffers of a forward and a backward pass of a Stack
// over up to a fixed number of rows, and remembers the last forward pass
// for the backward one. A StackPass must not be used by goroutines at the
// same time; a Stack itself holds no state and may be shared.
type StackPass[T Float] struct {
	lay  *layout
	a, d *activations[T] // the activations, and their gradients
	n    int             // rows of the last successful Forward; 0 before one
}

// NewPass returns the buffers of passes over up to rows rows. It returns
// ErrBatch for rows < 1 or for buffers beyond the package's limit on a
// trainer's (2²⁸ elements), and ErrShape for a Stack NewStack did
// not build.
func (s *Stack[T]) NewPass(rows int) (*StackPass[T], error) {
	if !s.built() {
		return nil, ErrShape
	}
	if rows < 1 || uint64(rows)*2*s.lay.activationsPerRow() > maxBuffer {
		return nil, ErrBatch
	}
	return &StackPass[T]{lay: s.lay, a: newActivations[T](s.lay, rows, false), d: newActivations[T](s.lay, rows, false)}, nil
}

// Forward runs every net with the parameters p (length Params()) on the
// n rows of x (row-major, n × inputs, used as given: no standardization)
// and writes net k's n outputs to out[k·n : (k+1)·n] (len(out) = nets·n).
// It returns ErrShape for a wrong length or a pass made for another
// Stack's shape, ErrBatch for n = 0 or more rows than the pass holds, and
// ErrNonFinite for a NaN or ±Inf in x or in an output. It allocates
// nothing.
func (s *Stack[T]) Forward(ps *StackPass[T], p, x, out []T) error {
	if err := s.checkPass(ps, p); err != nil {
		return err
	}
	ps.n = 0
	d := s.lay.inputs
	n := len(x) / d
	if n*d != len(x) {
		return ErrShape
	}
	if n < 1 || n > ps.a.rows {
		return ErrBatch
	}
	if len(out) != s.lay.heads*n {
		return ErrShape
	}
	if !s.k.allFinite(x) {
		return ErrNonFinite
	}
	copy(ps.a.x, x)
	forward(s.k, s.lay, s.act, p, ps.a, n)
	if !s.k.allFinite(ps.a.out[:len(out)]) {
		return ErrNonFinite
	}
	copy(out, ps.a.out)
	ps.n = n
	return nil
}

// Backward adds to grad (length Params()) the gradient with respect to
// the parameters of Σ dOut·out, out the outputs of the last Forward on ps,
// which must have run with the same p: dOut (length nets·n, net-major as
// out) is the gradient of a loss with respect to the outputs. It returns
// ErrBatch if ps holds no successful Forward, ErrShape for a wrong length,
// and ErrNonFinite for a NaN or ±Inf in dOut. It allocates nothing.
func (s *Stack[T]) Backward(ps *StackPass[T], p, dOut, grad []T) error {
	if err := s.checkPass(ps, p); err != nil {
		return err
	}
	if ps.n == 0 {
		return ErrBatch
	}
	if len(dOut) != s.lay.heads*ps.n || len(grad) != s.lay.size {
		return ErrShape
	}
	if !s.k.allFinite(dOut) {
		return ErrNonFinite
	}
	copy(ps.d.out, dOut)
	backward(s.k, s.lay, s.act, p, ps.a, ps.d, ps.n, nil, 0, grad)
	return nil
}

func (s *Stack[T]) checkPass(ps *StackPass[T], p []T) error {
	if !s.built() || ps == nil || !sameShape(ps.lay, s.lay) || len(p) != s.lay.size {
		return ErrShape
	}
	return nil
}
