package gcp

// splitMix is Vigna's SplitMix64 generator, the source of a Trainer's
// dropout masks: the state is a counter that each draw advances by the
// golden-ratio increment splitMixGamma, and the output is the counter
// through Stafford's "Mix13" finalizer (two multiplications, three
// xor-shifts). It passes BigCrush, and since a draw is a function of the
// draw's index alone, eight lanes of a vector kernel each take every
// eighth draw by adding 8·splitMixGamma, with no chain of 128-bit
// products from one draw to the next: PCG's step was most of the mask's
// time in the AVX-512 kernel, a tenth of a minibatch-32 step. Its period
// of 2⁶⁴ draws is far beyond any training run.
type splitMix struct{ s uint64 }

// splitMixGamma is SplitMix64's increment, the odd integer nearest
// 2⁶⁴/φ.
const splitMixGamma = 0x9e3779b97f4a7c15

// newSplitMix returns the generator for the seed and a stream word (one
// of mlp.go's): the state is the two mixed together, so that seeds and
// streams a unit apart start at unrelated places of the sequence.
func newSplitMix(seed, stream uint64) splitMix {
	return splitMix{splitMixOut(splitMixOut(stream) ^ seed)}
}

// next returns the state after g and its output, as pcg.next.
func (g splitMix) next() (splitMix, uint64) {
	g.s += splitMixGamma
	return g, splitMixOut(g.s)
}

// splitMixOut is the finalizer: the output of the state z.
func splitMixOut(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
