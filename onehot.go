package gcp

// sparseInputs is the first layer's plan for inputs that most rows hold
// at their centre, and so at 0 once standardized: the inputs of a text
// column's one-hot code (each level's median is 0, or 1 for a level of
// more than half the rows) and missing-value indicators. A dense product
// multiplies every such 0 by a row of weights; sparseForward and
// sparseBackward instead add one row of weights (one row of the
// gradient) per input that is not 0, as a lookup of the row's level
// does, and leave the other inputs to one dense product. Skipping a
// product 0·w adds nothing but a zero, so the layer's numbers are the
// dense ones up to the order of their sums; any input value is served,
// and a row whose sparse inputs are all nonzero only costs more.
type sparseInputs[T Float] struct {
	sparse []int // the inputs served a row of weights at a time
	dense  []int // the others, in increasing order
	// x and w hold the dense inputs of a pass (rows × len(dense)) and
	// their rows of weights, or of the weight gradient (len(dense) ×
	// width), gathered; nil where the dense inputs are one run of
	// consecutive inputs, whose rows the kernels read where they are.
	x, w []T
}

// newSparseInputs returns the plan for the inputs of which centred marks
// those to serve a row of weights at a time, for passes of up to rows
// rows into a first layer width units wide; or nil, for the dense
// product alone, if fewer than half of the inputs are marked: the
// gathered weights of the others then cost a single row's pass about as
// much as the rows of weights the plan saves.
func newSparseInputs[T Float](centred []bool, rows, width int) *sparseInputs[T] {
	s := &sparseInputs[T]{}
	for j, c := range centred {
		if c {
			s.sparse = append(s.sparse, j)
		} else {
			s.dense = append(s.dense, j)
		}
	}
	if len(s.sparse) == 0 || len(s.sparse) < len(s.dense) {
		return nil
	}
	if nd := len(s.dense); nd > 0 && s.dense[nd-1]-s.dense[0] != nd-1 {
		s.x, s.w = make([]T, rows*nd), make([]T, nd*width)
	}
	return s
}

// gather copies the dense inputs of the n rows of x (d inputs each) into
// s.x and returns them.
func (s *sparseInputs[T]) gather(n, d int, x []T) []T {
	nd := len(s.dense)
	for r := range n {
		for c, j := range s.dense {
			s.x[r*nd+c] = x[r*d+j]
		}
	}
	return s.x[:n*nd]
}

// sparseForward computes the first layer, y = b + x·w (then max(y, 0) if
// relu), on n rows of x (d inputs each) into y (n × width), w holding
// the weights input-major (d × width): the dense inputs by one
// linearForward, then, row by row, one row of w times each sparse input
// that is not 0.
func sparseForward[T Float](k *kernelSet[T], s *sparseInputs[T], n, d, width int, x, w, b, y []T, relu bool) {
	y = y[:n*width]
	switch nd := len(s.dense); {
	case nd == 0:
		for r := range n {
			copy(y[r*width:(r+1)*width], b)
		}
	case s.w == nil:
		k.linearForward(n, width, nd, x[s.dense[0]:], d, w[s.dense[0]*width:], b, y, width, false)
	default:
		for c, j := range s.dense {
			copy(s.w[c*width:(c+1)*width], w[j*width:(j+1)*width])
		}
		k.linearForward(n, width, nd, s.gather(n, d, x), nd, s.w, b, y, width, false)
	}
	for r := range n {
		yr, xr := y[r*width:(r+1)*width], x[r*d:(r+1)*d]
		for _, j := range s.sparse {
			if v := xr[j]; v != 0 {
				k.axpy(v, w[j*width:(j+1)*width], yr)
			}
		}
	}
	switch {
	case !relu:
	case k.allFinite(y):
		k.reluBackward(y, y) // y = 0 where !(y > 0): max(y, 0) for finite y
	default:
		for i, v := range y {
			y[i] = max(v, 0) // NaN stays NaN, as in linearForward
		}
	}
}

// sparseBackward accumulates the first layer's weight gradient dw += xᵀ·dy
// over n rows (d inputs each; dy and dw as y and w of sparseForward), and
// its bias gradient db += the column sums of dy unless db is nil: the
// dense inputs by one linearBackwardWeights, then, row by row, each
// sparse input that is not 0 times the row of dy into its row of dw.
func sparseBackward[T Float](k *kernelSet[T], s *sparseInputs[T], n, d, width int, dy, x, dw, db []T) {
	dy = dy[:n*width]
	if db != nil {
		k.linearBackwardWeights(n, width, 0, dy, width, nil, 0, nil, db)
	}
	switch nd := len(s.dense); {
	case nd == 0:
	case s.w == nil:
		k.linearBackwardWeights(n, width, nd, dy, width, x[s.dense[0]:], d, dw[s.dense[0]*width:(s.dense[0]+nd)*width], nil)
	default:
		clear(s.w)
		k.linearBackwardWeights(n, width, nd, dy, width, s.gather(n, d, x), nd, s.w, nil)
		for c, j := range s.dense {
			k.axpy(1, s.w[c*width:(c+1)*width], dw[j*width:(j+1)*width])
		}
	}
	for r := range n {
		dyr, xr := dy[r*width:(r+1)*width], x[r*d:(r+1)*d]
		for _, j := range s.sparse {
			if v := xr[j]; v != 0 {
				k.axpy(v, dyr, dw[j*width:(j+1)*width])
			}
		}
	}
}
