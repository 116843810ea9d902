package bayes

import (
	"slices"
	"testing"
)

// TestLayout checks newLayout's offsets against counts written out by
// hand. For 3 inputs and hidden widths {4, 2} the weight layers are a
// 4 × (3+1), a 2 × (4+1) and a 1 × (2+1) matrix, 16, 10 and 3 weights,
// so they start at 0, 16 and 26 and there are 29 in all; the workspace
// holds each layer's units and its bias slot, 3+1, 4+1, 2+1 and 1+1
// values starting at 0, 4, 9 and 12, 14 in all. A network with no
// hidden layer has the 2+1 weights of one row and the 3 + 2 moments of
// its input and output.
func TestLayout(t *testing.T) {
	type bounds [2]int
	for _, c := range []struct {
		inputs          int
		hidden          []int
		weights, units  []bounds // of layers 1..L, and 0..L
		fanIn           []int    // of layers 1..L
		params, moments int
	}{
		{3, []int{4, 2}, []bounds{{0, 16}, {16, 26}, {26, 29}}, []bounds{{0, 4}, {4, 9}, {9, 12}, {12, 14}}, []int{4, 5, 3}, 29, 14},
		{2, []int{}, []bounds{{0, 3}}, []bounds{{0, 3}, {3, 5}}, []int{3}, 3, 5},
	} {
		l := newLayout(c.inputs, c.hidden)
		if l.layers() != len(c.weights) || l.params() != c.params || l.moments() != c.moments {
			t.Errorf("%d inputs, hidden %v: %d layers, %d params, %d moments; want %d, %d, %d",
				c.inputs, c.hidden, l.layers(), l.params(), l.moments(), len(c.weights), c.params, c.moments)
			continue
		}
		for k := 1; k <= l.layers(); k++ {
			if lo, hi := l.weights(k); (bounds{lo, hi}) != c.weights[k-1] || l.fanIn(k) != c.fanIn[k-1] {
				t.Errorf("%d inputs, hidden %v, layer %d: weights [%d, %d), fan-in %d; want %v, %d",
					c.inputs, c.hidden, k, lo, hi, l.fanIn(k), c.weights[k-1], c.fanIn[k-1])
			}
		}
		for k := 0; k <= l.layers(); k++ {
			if lo, hi := l.units(k); (bounds{lo, hi}) != c.units[k] {
				t.Errorf("%d inputs, hidden %v, layer %d: units [%d, %d), want %v", c.inputs, c.hidden, k, lo, hi, c.units[k])
			}
		}
	}
}

// TestCarve checks that carve's views are consecutive pieces of one
// buffer of the summed length, each as long as asked and with no room
// to grow: an append to one must leave the next untouched.
func TestCarve(t *testing.T) {
	buf, v := carve(2, 0, 3)
	if len(buf) != 5 || len(v) != 3 {
		t.Fatalf("carve(2, 0, 3): buffer of %d, %d views; want 5 and 3", len(buf), len(v))
	}
	for i, n := range []int{2, 0, 3} {
		if len(v[i]) != n || cap(v[i]) != n {
			t.Errorf("view %d: len %d, cap %d; want %d, %d", i, len(v[i]), cap(v[i]), n, n)
		}
	}
	for i := range buf {
		buf[i] = float64(i + 1)
	}
	if !slices.Equal(v[0], []float64{1, 2}) || !slices.Equal(v[2], []float64{3, 4, 5}) {
		t.Errorf("views %v, %v of buffer %v; want its first 2 and last 3 values", v[0], v[2], buf)
	}
	_ = append(v[0], -1)
	_ = append(v[1], -1)
	if buf[2] != 3 {
		t.Error("appending to a view overwrote the next one")
	}
}
