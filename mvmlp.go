package gcp

// The network of a model with d ≥ 2 targets (Config.Targets). Each member
// has three head networks, the counterparts of the one-dimensional
// model's four (Practical approach 2.1): one for the mean vector m (d
// outputs), one for the Cholesky factor L of the multivariate t's scale
// S = LLᵀ (d(d+1)/2 outputs, packed by rows: ln L_ii on the diagonal,
// L_ij below it) and one for its degrees of freedom ν (one output,
// ν = mvNuMin + softplus). κ has no head: it enters the predictive only
// through S, so a head for it would add the flat direction of the
// paper's Remark 2.1, item 3, and nothing else (docs/multivariate.md,
// Sec. 5). The hidden layers are those of the one-dimensional model with
// three heads per member; only the output layer differs, one
// block-diagonal layer per kind of head with as many rows per block as
// that head has outputs, so that one call of the layer kernels serves
// each block. The raw outputs of a pass are row-major, one row of
// layout.outputs per input: the members' mean heads, then their Cholesky
// heads, then their ν heads, each member's outputs side by side.

// The kinds of head of a multivariate member, in the order of the blocks
// of the hidden layers and of the raw outputs.
const (
	mvHeadMean = iota
	mvHeadChol
	mvHeadNu
	mvHeadKinds
)

// multiRows returns the outputs per member of each kind of head for d
// targets: d means, d(d+1)/2 Cholesky entries and one ν.
func multiRows(d int) [mvHeadKinds]int { return [...]int{d, mvtPackedLen(d), 1} }

// multiLayout lays out members networks of kinds heads for targets
// targets: newLayout's hidden layers, then one output layer per kind of
// head, members blocks of multiRows rows each. kinds is mvHeadKinds for
// the GCP model, or mvHeadNu for the Gaussian comparator, which has no
// ν head.
func multiLayout(inputs, members, targets, kinds int, hidden []int) (*layout, bool) {
	l, ok := newLayout(inputs, members, kinds, hidden)
	if !ok {
		return l, false
	}
	out := l.layers[len(l.hidden)]
	l.layers = l.layers[:len(l.hidden)]
	size, outputs := uint64(out.w), 0
	rows := multiRows(targets)
	for _, rows := range rows[:kinds] {
		w := size
		size += uint64(members) * uint64(rows) * uint64(out.cols)
		b := size
		size += uint64(members) * uint64(rows)
		l.layers = append(l.layers, layer{blocks: members, rows: rows, cols: out.cols, w: int(w), b: int(b)})
		outputs += members * rows
	}
	l.size, l.outputs, l.targets = int(size), outputs, targets
	return l, size <= maxParams
}

// multiNu reports whether the layout has a ν head, which the Gaussian
// comparator's lacks.
func (l *layout) multiNu() bool { return len(l.layers)-len(l.hidden) > mvHeadNu }

// multiColumn returns the column of the raw outputs where member k's head
// of kind c begins.
func (l *layout) multiColumn(c, k int) int {
	col := 0
	for _, ly := range l.layers[len(l.hidden) : len(l.hidden)+c] {
		col += ly.blocks * ly.rows
	}
	return col + k*l.layers[len(l.hidden)+c].rows
}
