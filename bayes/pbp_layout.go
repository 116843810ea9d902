package bayes

// layout says where each layer's weights and moments live in the model's
// and the workspace's buffers.
//
// Weight layer k = 1..L maps the units of layer k−1 and a constant bias
// input 1 to the units of layer k: layer 0 is the input, layers 1..L−1
// are the hidden ReLU layers and layer L is the single linear output. Its
// weights form a widths[k] × (widths[k−1]+1) row-major matrix, one row per
// unit, the bias weight last in each row, as in the authors' code
// (network.c, init_network); the matrices are stored one after another.
type layout struct {
	widths []int // units of layers 0..L: the inputs, the hidden widths, 1
	wOff   []int // wOff[k−1] is where weight layer k starts; wOff[L] is the weight count
	zOff   []int // zOff[k] is where layer k's moments start in a PBPWorkspace: its units, then the bias slot
}

// newLayout returns the layout of a network with the given inputs and
// hidden widths.
func newLayout(inputs int, hidden []int) layout {
	widths := append(append([]int{inputs}, hidden...), 1)
	l := layout{widths: widths, wOff: make([]int, len(widths)), zOff: make([]int, len(widths)+1)}
	for k := 1; k < len(widths); k++ {
		l.wOff[k] = l.wOff[k-1] + widths[k]*l.fanIn(k)
	}
	for k, w := range widths {
		l.zOff[k+1] = l.zOff[k] + w + 1
	}
	return l
}

// layers returns L, the number of weight layers.
func (l *layout) layers() int { return len(l.widths) - 1 }

// params returns the number of weights, biases included.
func (l *layout) params() int { return l.wOff[l.layers()] }

// moments returns the size of a PBPWorkspace's moment buffers.
func (l *layout) moments() int { return l.zOff[len(l.widths)] }

// fanIn returns the number of inputs of each unit of weight layer k, the
// bias included: the V_{k−1}+1 of the paper's scaling by 1/√(V_{k−1}+1).
func (l *layout) fanIn(k int) int { return l.widths[k-1] + 1 }

// weights returns the bounds of weight layer k in the weight buffers.
func (l *layout) weights(k int) (lo, hi int) { return l.wOff[k-1], l.wOff[k] }

// units returns the bounds of layer k's moments in a PBPWorkspace, the bias
// slot included.
func (l *layout) units(k int) (lo, hi int) { return l.zOff[k], l.zOff[k+1] }

// carve allocates one buffer and cuts it into consecutive slices of the
// given lengths, each with its capacity clipped so that no append can
// run into the next; it returns the whole buffer and the slices.
func carve(sizes ...int) (buf []float64, views [][]float64) {
	total := 0
	for _, n := range sizes {
		total += n
	}
	buf = make([]float64, total)
	views = make([][]float64, len(sizes))
	rest := buf
	for i, n := range sizes {
		views[i], rest = rest[:n:n], rest[n:]
	}
	return buf, views
}
