package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Activation is the nonlinearity of the hidden layers.
type Activation int

const (
	// ReLU is max(x, 0), the paper's choice (Sec. 6.4).
	ReLU Activation = iota
	// Tanh is the hyperbolic tangent.
	Tanh
)

// String returns the activation's name.
func (a Activation) String() string {
	switch a {
	case ReLU:
		return "relu"
	case Tanh:
		return "tanh"
	}
	return fmt.Sprintf("Activation(%d)", int(a))
}

// The heads of a GCP model, in the order of the raw outputs. α comes last
// so that a model with a fixed α simply has one head fewer. The Gaussian
// losses have two heads, m and the variance, which takes β's place and
// starts, like β, at softplus(z) ≈ 1. An ensemble of K members orders its
// raw outputs head-major: the K members' m heads, then their β heads, and
// so on (layout.head), so that all the softplus heads follow the m heads
// in one run, as they do for a single network.
const (
	headM = iota
	headBeta
	headNu
	headAlpha

	headVar = headBeta
)

// layer is one layer of all heads at once. The first layer stacks the
// heads' weight matrices side by side into one matrix, stored input-major
// as [D × heads·H], so one matrix product serves all heads; later layers
// are block-diagonal, one [H_in × H_out] block per head, and only the
// blocks are stored. (Input-major storage is the transpose of the usual
// [out × in]; see simd_generic.go for why.)
type layer struct {
	blocks int // 1 for the stacked first layer, else the number of heads
	rows   int // outputs per block
	cols   int // inputs per block
	w, b   int // offsets of the weights (blocks × cols × rows, input-major) and biases (blocks × rows)
}

// layout places the independent per-head networks of Practical approach 2.1
// (Eq. (2.16)) in one contiguous parameter buffer.
type layout struct {
	inputs  int
	heads   int     // raw outputs of all members
	members int     // Config.Members
	hidden  []int   // units per hidden layer, per head
	layers  []layer // the hidden layers, then the output layer (rows = 1), or for several targets one output layer per kind of head (multiLayout)
	size    int     // number of parameters
	// outputs is the number of raw outputs of one row, all members: heads
	// for one target. targets is the number of targets, 0 for one.
	outputs, targets int
}

// newLayout lays out the parameters of members networks of memberHeads
// heads each, or reports false if they would number more than maxParams.
// Sizes are summed in uint64, so that no product of widths can overflow
// an int first, even on 32-bit platforms.
func newLayout(inputs, members, memberHeads int, hidden []int) (*layout, bool) {
	heads := members * memberHeads
	l := &layout{inputs: inputs, heads: heads, members: members, hidden: append([]int(nil), hidden...)}
	var size uint64
	add := func(blocks, rows, cols int) bool {
		w := size
		size += uint64(blocks) * uint64(rows) * uint64(cols)
		b := size
		size += uint64(blocks) * uint64(rows)
		if size > maxParams {
			return false
		}
		l.layers = append(l.layers, layer{blocks: blocks, rows: rows, cols: cols, w: int(w), b: int(b)})
		return true
	}
	ok := add(1, heads*hidden[0], inputs)
	for i := 1; ok && i < len(hidden); i++ {
		ok = add(heads, hidden[i], hidden[i-1])
	}
	ok = ok && add(heads, 1, hidden[len(hidden)-1])
	l.size, l.outputs = int(size), heads
	return l, ok
}

// activationsPerRow returns how many buffer elements one row of a forward
// pass needs: the input, every hidden layer and the outputs.
func (l *layout) activationsPerRow() uint64 {
	n := uint64(l.inputs + l.outputs)
	for i := range l.hidden {
		n += uint64(l.width(i))
	}
	return n
}

// sameShape reports whether buffers made for layout a serve layout b: the
// same inputs, heads, members and hidden widths. Nil layouts (zero
// values) serve nothing.
func sameShape(a, b *layout) bool {
	if a == nil || b == nil || a.inputs != b.inputs || a.heads != b.heads || a.outputs != b.outputs || a.members != b.members || len(a.hidden) != len(b.hidden) {
		return false
	}
	for i, h := range a.hidden {
		if h != b.hidden[i] {
			return false
		}
	}
	return true
}

// head returns the index among the raw outputs of head h (headM, …) of
// member k.
func (l *layout) head(h, k int) int { return h*l.members + k }

// copyMeanHeads copies the parameters of every member's m head from src
// to dst, both shaped like l's parameters. The m heads are the first
// Members raw outputs (head-major order): their columns come first in
// each input's row of the stacked first layer, and their blocks first in
// each later layer, up to the first output layer: the only one for one
// target, the m heads' own for several (multiLayout).
func copyMeanHeads[T Float](l *layout, dst, src []T) {
	for i, ly := range l.layers[:len(l.hidden)+1] {
		if i == 0 {
			n := l.members * l.hidden[0]
			for j := range ly.cols {
				o := ly.w + j*ly.rows
				copy(dst[o:o+n], src[o:o+n])
			}
			copy(dst[ly.b:ly.b+n], src[ly.b:ly.b+n])
			continue
		}
		w, b := l.members*ly.cols*ly.rows, l.members*ly.rows
		copy(dst[ly.w:ly.w+w], src[ly.w:ly.w+w])
		copy(dst[ly.b:ly.b+b], src[ly.b:ly.b+b])
	}
}

// memberSpans calls f(at, to, n) for every run of n parameters of member
// k of l, a layout of single-target networks, that lies at offset at in
// l's buffers and at offset to in those of the member alone (a layout of
// one member with the same inputs, heads and hidden layers), in the
// order of the latter. The ensemble orders its heads head-major
// (layout.head): in the stacked first layer each input's row holds every
// head's units side by side, and each later layer holds one block a
// head.
func (l *layout) memberSpans(k int, f func(at, to, n int)) {
	heads := l.heads / l.members
	to := 0
	span := func(at, n int) {
		f(at, to, n)
		to += n
	}
	for i, ly := range l.layers {
		units, per := ly.rows, ly.rows*ly.cols // a head's units and weights
		if i == 0 {
			units = l.hidden[0]
			for j := range ly.cols {
				for h := range heads {
					span(ly.w+j*ly.rows+l.head(h, k)*units, units)
				}
			}
		} else {
			for h := range heads {
				span(ly.w+l.head(h, k)*per, per)
			}
		}
		for h := range heads {
			span(ly.b+l.head(h, k)*units, units)
		}
	}
}

// width returns the width of hidden layer i's activations, all heads.
func (l *layout) width(i int) int { return l.heads * l.hidden[i] }

// last returns the index of the last hidden layer.
func (l *layout) last() int { return len(l.hidden) - 1 }

// blockW and blockB return the weights and biases of block h of layer ly
// inside a parameter-shaped buffer (parameters or their gradient).
func blockW[T Float](p []T, ly layer, h int) []T {
	n := ly.rows * ly.cols
	return p[ly.w+h*n : ly.w+(h+1)*n]
}

func blockB[T Float](p []T, ly layer, h int) []T {
	return p[ly.b+h*ly.rows : ly.b+(h+1)*ly.rows]
}

// The second PCG words of the package's generators, one per purpose, so
// that a seed alone fixes every random draw and the same seed given to
// Config, TrainConfig and FitOptions (as one usually does) still gives
// independent weights, dropout masks and shuffles: with one word for all,
// the three would replay the same numbers. The words are the fractional
// bits of the golden ratio, √2, √3, √5, √7, √11, √17, √19 and √23.
const (
	initStream          = 0x9e3779b97f4a7c15 // initial weights
	mcDropoutStream     = 0x6a09e667f3bcc908 // ML_Bayes's MC-dropout masks
	dropoutStream       = 0xbb67ae8584caa73b // a Trainer's dropout masks
	shuffleStream       = 0x3c6ef372fe94f82b // Fit's order of the data
	holdOutStream       = 0xa54ff53a5f1d36f1 // the rows Fit's ValidationShare holds out
	searchStream        = 0x510e527fade682d1 // AutoFit's seeds of each candidate
	crossFitStream      = 0x1f83d9abfb41bd6b // AutoFit's calibration folds
	dequantizeStream    = 0x5be0cd19137e2179 // AutoFit's noise on quantized targets
	memberDropoutStream = 0xcbbb9d5dc1059ed8 // the seeds of the dropout masks of AutoFit's ensemble members trained apart
)

// initParams draws the weights from the seed, Glorot-uniform in every
// layer (fan-in and fan-out counted per head), and zeroes the biases: the
// defaults of the Keras and Lasagne dense layers the paper's experiments
// were most likely run with. With zero output biases β and ν start near
// the regime the paper analyses (Eq. (5.1), Eq. (5.2)): ln 2
// ≈ 1 at a zero hidden layer, spread over about 0.3–3 across inputs by
// the output weights. docs/reproduction.md ("Table 6.1") records what
// it changed against He-normal weights.
func initParams[T Float](l *layout, p []T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, initStream))
	clear(p)
	for i, ly := range l.layers {
		fanIn, fanOut := float64(ly.cols), float64(ly.rows)
		if i == 0 {
			fanOut = float64(l.hidden[0])
		}
		limit := math.Sqrt(6 / (fanIn + fanOut))
		w := p[ly.w:ly.b]
		for j := range w {
			w[j] = T(limit * (2*r.Float64() - 1))
		}
	}
}

// activations holds the buffers of a forward pass over up to rows rows. The
// same shape serves for the gradients of a backward pass.
type activations[T Float] struct {
	rows int
	x    []T   // rows × inputs, standardized
	act  [][]T // hidden layer i: rows × width(i), all heads side by side
	drop []T   // rows × width(last): the last hidden layer after dropout
	out  []T   // the raw outputs of a pass over n rows, head-major: head h's at h·n (row-major for several targets)
	// sparse, if not nil, computes the first layer a row of weights per
	// input that is not 0 for the inputs most rows hold at 0
	// (sparseInputs); its numbers are the dense kernels' up to rounding.
	sparse *sparseInputs[T]
}

func newActivations[T Float](l *layout, rows int, dropout bool) *activations[T] {
	a := &activations[T]{rows: rows, x: make([]T, rows*l.inputs), out: make([]T, l.outputs*rows)}
	for i := range l.hidden {
		a.act = append(a.act, make([]T, rows*l.width(i)))
	}
	if dropout {
		a.drop = make([]T, rows*l.width(l.last()))
	}
	return a
}

// useSparse makes the first layer of a's passes serve the inputs that
// centred marks a row of weights at a time (sparseInputs), or none if
// centred marks none.
func (a *activations[T]) useSparse(l *layout, centred []bool) {
	a.sparse = newSparseInputs[T](centred, a.rows, l.width(0))
}

// head returns the raw outputs of head h of a pass over n rows.
func (a *activations[T]) head(h, n int) []T { return a.out[h*n : h*n+n] }

// forward runs the network with parameters p on the first n rows of a.x and
// leaves the raw head outputs in a.out, head h's in a.head(h, n). (A
// trainer runs the two halves itself, with dropout between them.)
func forward[T Float](k *kernelSet[T], l *layout, act Activation, p []T, a *activations[T], n int) {
	forwardOutput(k, l, p, a, n, forwardHidden(k, l, act, p, a, n))
}

// forwardMC runs the network on the one row in a.x under each of the s
// dropout masks (s × width(last)) and leaves the raw outputs of pass r in
// row r of a.out's heads, as forward on s copies of the row would. The
// masks sit between the last hidden layer and the output, so the hidden
// layers run once, and pass r's output, b + Σ (mask_r·h)·w, is computed as
// b + Σ mask_r·(h·w): one product of the hidden units h with the output
// weights w, then one output layer with the masks as its inputs.
func forwardMC[T Float](k *kernelSet[T], l *layout, act Activation, p []T, a *activations[T], s int, masks []T) {
	h := forwardHidden(k, l, act, p, a, 1)
	ly := l.layers[len(l.hidden)]
	hw := a.drop[:len(h)]
	k.mulTo(hw, h, p[ly.w:ly.b])
	k.outputForward(s, l.heads, ly.cols, masks, len(h), hw, p[ly.b:ly.b+l.heads], a.out[:l.heads*s])
}

// forwardHidden runs the hidden layers on the first n rows of a.x and
// returns the last one's activations, n × width(last).
func forwardHidden[T Float](k *kernelSet[T], l *layout, act Activation, p []T, a *activations[T], n int) []T {
	relu := act == ReLU
	in, ldIn := a.x, l.inputs
	for i, ly := range l.layers[:len(l.hidden)] {
		out, ldOut := a.act[i], l.width(i)
		if i == 0 && a.sparse != nil {
			sparseForward(k, a.sparse, n, ldIn, ly.rows, in, blockW(p, ly, 0), blockB(p, ly, 0), out, relu)
		} else {
			for h := 0; h < ly.blocks; h++ {
				k.linearForward(n, ly.rows, ly.cols, in[h*ly.cols:], ldIn, blockW(p, ly, h), blockB(p, ly, h), out[h*ly.rows:], ldOut, relu)
			}
		}
		if !relu {
			k.tanh(out[:n*ldOut])
		}
		in, ldIn = out, ldOut
	}
	return in[:n*ldIn]
}

// forwardOutput runs the output layer of every head on the n rows of in
// (n × width(last)) into a.out.
func forwardOutput[T Float](k *kernelSet[T], l *layout, p []T, a *activations[T], n int, in []T) {
	if l.targets > 1 {
		multiForwardOutput(k, l, p, a.out[:n*l.outputs], n, in)
		return
	}
	ly := l.layers[len(l.hidden)]
	k.outputForward(n, l.heads, ly.cols, in, l.width(l.last()), p[ly.w:ly.b], p[ly.b:ly.b+l.heads], a.out[:l.heads*n])
}

// backward accumulates into g the gradient of a loss with respect to the
// parameters p, given its gradient with respect to the raw outputs in
// d.out, after a forward pass over the same n rows of a with the same mask.
// d.act receives the gradients with respect to the hidden activations.
// keep, if not 0, tells that mask was drawn by the kernels' dropoutMask
// with that factor for the units kept (kernelSet.outputBackward).
func backward[T Float](k *kernelSet[T], l *layout, act Activation, p []T, a, d *activations[T], n int, mask []T, keep T, g []T) {
	last := l.last()
	src := a.act[last]
	if mask != nil {
		src = a.drop
	}
	// With ReLU, outputBackward also applies the last hidden layer's
	// derivative and sums the result into that layer's bias gradient
	// (contiguous over its blocks), which its linearBackwardWeights then
	// leaves (db nil): one pass over d.act[last] instead of three.
	var relu, dbLast []T
	if act == ReLU {
		hl := l.layers[last]
		relu, dbLast = a.act[last], g[hl.b:hl.b+l.width(last)]
	}
	if l.targets > 1 {
		multiOutputBackward(k, l, p, d.out[:n*l.outputs], n, src, d.act[last], g, mask, relu, dbLast)
	} else {
		ly := l.layers[last+1]
		k.outputBackward(n, l.heads, ly.cols, d.out[:l.heads*n], src, p[ly.w:ly.b], g[ly.w:ly.b], g[ly.b:ly.b+l.heads], d.act[last], mask, relu, dbLast, keep)
	}
	for i := last; i >= 0; i-- {
		w := l.width(i)
		dy := d.act[i][:n*w]
		switch {
		case act != ReLU:
			k.tanhBackward(dy, a.act[i])
		case i < last:
			k.reluBackward(dy, a.act[i])
		}
		in, ldIn := a.x, l.inputs
		if i > 0 {
			in, ldIn = a.act[i-1], l.width(i-1)
		}
		ly := l.layers[i]
		for h := 0; h < ly.blocks; h++ {
			db := blockB(g, ly, h)
			if i == last && dbLast != nil {
				db = nil
			}
			if i == 0 && a.sparse != nil {
				sparseBackward(k, a.sparse, n, ldIn, ly.rows, dy, in, blockW(g, ly, 0), db)
				continue
			}
			k.linearBackwardWeights(n, ly.rows, ly.cols, dy[h*ly.rows:], w, in[h*ly.cols:], ldIn, blockW(g, ly, h), db)
			if i > 0 {
				k.linearBackwardInput(n, ly.rows, ly.cols, dy[h*ly.rows:], w, blockW(p, ly, h), d.act[i-1][h*ly.cols:], ldIn)
			}
		}
	}
}

// multiForwardOutput runs the output layers of a multivariate model on the
// n rows of in (n × width(last)) into out (n × outputs, row-major), the
// last kind of head first. For a single row, the Cholesky and mean layers
// of a few outputs are each one dependent chain of FMAs per output
// (gemmBcast1), and with the ν heads done before them, PredictMulti's
// dependent scalar work on ν (its link and correction, which it does
// first) overlaps their chains: 2% of PredictMulti at d = 3, measured.
func multiForwardOutput[T Float](k *kernelSet[T], l *layout, p, out []T, n int, in []T) {
	h, ld := l.hidden[l.last()], l.width(l.last())
	heads := l.layers[len(l.hidden):]
	col := l.outputs // where the columns of the heads after c begin
	for c := len(heads) - 1; c >= 0; c-- {
		ly := heads[c]
		col -= ly.blocks * ly.rows
		for j := range ly.blocks {
			b := c*l.members + j // the block of the last hidden layer
			k.linearForward(n, ly.rows, ly.cols, in[b*h:], ld, blockW(p, ly, j), blockB(p, ly, j), out[col+j*ly.rows:], l.outputs, false)
		}
	}
}

// multiOutputBackward is the backward pass of multiForwardOutput: it
// accumulates the output layers' gradients into g, given the gradient dy
// with respect to the raw outputs, and writes into dx the gradient with
// respect to the last hidden layer's units (inputs x), finished as
// outputBackward finishes it (kernelSet.hiddenBackward).
func multiOutputBackward[T Float](k *kernelSet[T], l *layout, p, dy []T, n int, x, dx, g, mask, act, colsum []T) {
	h, ld := l.hidden[l.last()], l.width(l.last())
	col := 0
	for c, ly := range l.layers[len(l.hidden):] {
		for j := range ly.blocks {
			b := c*l.members + j
			k.linearBackwardWeights(n, ly.rows, ly.cols, dy[col:], l.outputs, x[b*h:], ld, blockW(g, ly, j), blockB(g, ly, j))
			k.linearBackwardInput(n, ly.rows, ly.cols, dy[col:], l.outputs, blockW(p, ly, j), dx[b*h:], ld)
			col += ly.rows
		}
	}
	k.hiddenBackward(n, ld, dx, mask, act, colsum)
}

// Limits on a model's shape. They keep a mistaken or hostile Config from
// asking for an absurd allocation.
const (
	maxWidth  = 1 << 16 // inputs or units per hidden layer
	maxDepth  = 64      // hidden layers
	maxParams = 1 << 28 // parameters in all
	maxBuffer = 1 << 28 // elements of a trainer's per-batch buffers
)
