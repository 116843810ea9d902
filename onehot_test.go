package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sparseCase is a first layer's inputs for the tests of sparseForward and
// sparseBackward: n rows of d inputs, of which those centred marks are
// mostly 0 (a one-hot level, or a value such as 0.5 or −1.3 now and then,
// every one of them nonzero in the last row), the others dense normal
// draws.
func sparseCase[T Float](seed uint64, n int, centred []bool) []T {
	r := rand.New(rand.NewPCG(seed, 1))
	d := len(centred)
	x := make([]T, n*d)
	for i := range n {
		for j, c := range centred {
			switch {
			case !c:
				x[i*d+j] = T(r.NormFloat64())
			case i == n-1:
				x[i*d+j] = T(1 + r.Float64())
			case r.IntN(4) == 0:
				x[i*d+j] = []T{1, 0.5, -1.3}[r.IntN(3)]
			}
		}
	}
	return x
}

// randomSlice returns n normal draws times scale.
func randomSlice[T Float](seed uint64, n int, scale float64) []T {
	r := rand.New(rand.NewPCG(seed, 2))
	v := make([]T, n)
	for i := range v {
		v[i] = T(scale * r.NormFloat64())
	}
	return v
}

// sparseSplits are the splits the tests run: every input sparse; the
// dense inputs one run at the start; dense inputs between sparse ones
// (gathered); the sparse inputs of two one-hot groups around numeric ones.
var sparseSplits = [][]bool{
	{true, true, true, true, true},
	{false, false, true, true, true, true, true},
	{false, true, true, false, true, true, true, false, true},
	{true, true, true, false, false, true, true, true, true, false},
}

// unitRoundoff returns u, half the machine epsilon of T.
func unitRoundoff[T Float]() float64 {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

// gammaBound returns γ_m = m·u/(1 − m·u), the bound on the relative
// rounding error of a sum of m products in T (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., Lemma 3.1 and Eq. (3.5)),
// however the sum is ordered or fused.
func gammaBound[T Float](m int) float64 {
	mu := float64(m) * unitRoundoff[T]()
	return mu / (1 - mu)
}

// TestSparseLayerMatchesDense checks the first layer served a row of
// weights per nonzero sparse input against the generic dense kernels, for
// every split: the outputs, with and without ReLU, and the weight and
// bias gradients accumulated on top of a gradient already held. Each is
// the same sum of m terms in both (d + 1 for an output, n + 1 for a
// gradient), differently ordered, so each differs from the exact sum by
// at most γ_m times the sum of the terms' magnitudes, and from the other
// by twice that (ReLU moves no two values further apart). A skipped or
// doubled input moves a value by a whole term, far more.
func TestSparseLayerMatchesDense(t *testing.T) {
	t.Run("float64", testSparseLayer[float64])
	t.Run("float32", testSparseLayer[float32])
}

func testSparseLayer[T Float](t *testing.T) {
	const n, width = 7, 24
	gen, k := genericKernels[T](), kernelsFor[T]()
	near := func(what string, got, want T, terms int, mag float64) {
		if diff := math.Abs(float64(got - want)); diff > 2*gammaBound[T](terms)*mag {
			t.Fatalf("%s: %v, dense %v: differ by %g > 2γ·%g", what, got, want, diff, mag)
		}
	}
	for c, centred := range sparseSplits {
		d := len(centred)
		x, s := sparseCase[T](uint64(c), n, centred), newSparseInputs[T](centred, n, width)
		w, b := randomSlice[T](uint64(c)+10, d*width, 1), randomSlice[T](uint64(c)+20, width, 1)
		for _, relu := range []bool{false, true} {
			want, got := make([]T, n*width), make([]T, n*width)
			gen.linearForward(n, width, d, x, d, w, b, want, width, relu)
			sparseForward(k, s, n, d, width, x, w, b, got, relu)
			for i := range got {
				r, o := i/width, i%width
				mag := math.Abs(float64(b[o]))
				for j := range d {
					mag += math.Abs(float64(x[r*d+j]) * float64(w[j*width+o]))
				}
				near(fmt.Sprintf("split %d, relu %v, output %d of row %d", c, relu, o, r), got[i], want[i], d+1, mag)
			}
		}

		dy := randomSlice[T](uint64(c)+30, n*width, 1)
		wantW, wantB := randomSlice[T](uint64(c)+40, d*width, 1), randomSlice[T](uint64(c)+50, width, 1)
		gotW, gotB := slices.Clone(wantW), slices.Clone(wantB)
		mags := make([]float64, (d+1)*width) // the bias gradient's last
		for i, v := range wantW {
			mags[i] = math.Abs(float64(v))
		}
		for o, v := range wantB {
			mags[d*width+o] = math.Abs(float64(v))
		}
		for r := range n {
			for o := range width {
				mags[d*width+o] += math.Abs(float64(dy[r*width+o]))
				for j := range d {
					mags[j*width+o] += math.Abs(float64(x[r*d+j]) * float64(dy[r*width+o]))
				}
			}
		}
		gen.linearBackwardWeights(n, width, d, dy, width, x, d, wantW, wantB)
		sparseBackward(k, s, n, d, width, dy, x, gotW, gotB)
		got, want := append(gotW, gotB...), append(wantW, wantB...)
		for i, v := range got {
			near(fmt.Sprintf("split %d, gradient %d", c, i), v, want[i], n+1, mags[i])
		}
		// Without db the bias gradient is left as it was.
		sparseBackward(k, s, n, d, width, dy, x, gotW, nil)
		if !slices.Equal(gotB, wantB) {
			t.Fatalf("split %d: bias gradient changed to %v without db, want %v", c, gotB, wantB)
		}
	}
}

// TestSparseForwardKeepsNaN checks ReLU on outputs that are not finite:
// NaN stays NaN and +Inf stays +Inf, as in the dense kernel, so that
// Predict and Step see an overflow (a ReLU that mapped NaN to 0 would hide
// it); −Inf and negative outputs become 0. The bias brings them in.
func TestSparseForwardKeepsNaN(t *testing.T) {
	centred := []bool{false, true, true}
	const width = 4
	x := []float64{1, 0, 0}
	w := make([]float64, len(centred)*width)
	b := []float64{math.NaN(), -2, math.Inf(1), math.Inf(-1)}
	y := make([]float64, width)
	sparseForward(kernels64, newSparseInputs[float64](centred, 1, width), 1, len(centred), width, x, w, b, y, true)
	if !math.IsNaN(y[0]) || y[1] != 0 || !math.IsInf(y[2], 1) || y[3] != 0 {
		t.Fatalf("outputs %v: want NaN, 0, +Inf, 0", y)
	}
}

// TestNewSparseInputs checks the plans: none when no input, or fewer than
// half of them, is marked; the dense inputs read where they are when they
// are one run, gathered when sparse inputs lie between them.
func TestNewSparseInputs(t *testing.T) {
	for _, c := range []struct {
		centred        []bool
		none, gathered bool
	}{
		{centred: []bool{false, false, false}, none: true},
		{centred: []bool{false, true, false}, none: true},
		{centred: []bool{}, none: true},
		{centred: []bool{true, true}},
		{centred: []bool{false, false, true, true}},
		{centred: []bool{true, true, false, false}},
		{centred: []bool{false, true, true, false}, gathered: true},
	} {
		s := newSparseInputs[float64](c.centred, 3, 5)
		if (s == nil) != c.none {
			t.Fatalf("%v: plan %v, want none %v", c.centred, s, c.none)
		}
		if s == nil {
			continue
		}
		if gathered := s.x != nil; gathered != c.gathered || len(s.x) != 3*len(s.dense) && gathered {
			t.Fatalf("%v: gathered inputs of length %d, want gathered %v", c.centred, len(s.x), c.gathered)
		}
		for _, j := range s.sparse {
			if !c.centred[j] {
				t.Fatalf("%v: input %d served sparse", c.centred, j)
			}
		}
		if len(s.sparse)+len(s.dense) != len(c.centred) {
			t.Fatalf("%v: sparse %v and dense %v do not cover the inputs", c.centred, s.sparse, s.dense)
		}
	}
}

// oneHotBatch returns rows rows of the one-hot-heavy shape of a house
// table with a date: 10 numeric inputs and text columns of 30, 65 and 20
// levels (125 inputs), each row holding one level of each, drawn
// uniformly, and normal targets.
func oneHotBatch(rows int) (x, y []float64, centred []bool) {
	r := rand.New(rand.NewPCG(7, 7))
	groups := []int{30, 65, 20}
	d := 10 + 30 + 65 + 20
	x, y = make([]float64, rows*d), make([]float64, rows)
	for i := range rows {
		xi := x[i*d : (i+1)*d]
		for j := range 10 {
			xi[j] = r.NormFloat64()
		}
		o := 10
		for _, g := range groups {
			xi[o+r.IntN(g)] = 1
			o += g
		}
		y[i] = r.NormFloat64()
	}
	centred = make([]bool, d)
	for j := 10; j < d; j++ {
		centred[j] = true
	}
	return x, y, centred
}

// BenchmarkOneHotInputs measures Step (minibatch 32, gcp train's) and a
// single-row Predict on the one-hot-heavy shape of oneHotBatch, hidden
// 50, for one network and an ensemble of five, with its one-hot inputs
// served a row of weights at a time (path=sparse) and by the dense
// product (path=dense).
func BenchmarkOneHotInputs(b *testing.B) {
	x, y, centred := oneHotBatch(32)
	d := len(centred)
	measure := func(b *testing.B, op func() error) {
		b.ReportAllocs()
		b.ResetTimer()
		cpu := benchCPU(b)
		for range b.N {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
		cpu()
	}
	for _, members := range []int{1, 5} {
		for _, path := range []string{"sparse", "dense"} {
			name := fmt.Sprintf("members%d/path=%s", members, path)
			cfg := Config{Inputs: d, Hidden: []int{50}, Members: members, Dropout: 0.1, Seed: 1}
			plan := centred
			if path == "dense" {
				plan = nil
			}
			b.Run("Step/"+name, func(b *testing.B) {
				m := mustModel[float64](b, cfg)
				tr := mustTrainer(b, m, TrainConfig{BatchSize: 32, LearningRate: 1e-4})
				tr.a.useSparse(m.lay, plan)
				measure(b, func() error { _, err := tr.Step(x, y); return err })
			})
			b.Run("Predict/"+name, func(b *testing.B) {
				m := mustModel[float64](b, cfg)
				ws := m.NewWorkspace()
				ws.a.useSparse(m.lay, plan)
				measure(b, func() error { _, err := m.Predict(ws, x[:d]); return err })
			})
		}
	}
}
