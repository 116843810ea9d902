package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// stackShape is the Stack of the tests: two hidden layers, so that both
// the stacked first layer and a block-diagonal one are exercised.
var stackShape = struct {
	inputs int
	hidden []int
	nets   int
}{4, []int{5, 3}, 3}

func mustStack[T Float](t testing.TB, act Activation) *Stack[T] {
	t.Helper()
	s, err := NewStack[T](stackShape.inputs, stackShape.hidden, stackShape.nets, act)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustPass[T Float](t testing.TB, s *Stack[T], rows int) *StackPass[T] {
	t.Helper()
	ps, err := s.NewPass(rows)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// randomFloats returns n standard normal draws from seed.
func randomFloats[T Float](seed uint64, n int) []T {
	r := rand.New(rand.NewPCG(seed, 11))
	v := make([]T, n)
	for i := range v {
		v[i] = T(r.NormFloat64())
	}
	return v
}

// stackLoss returns Σ dOut·out of the Stack's outputs on x.
func stackLoss(t *testing.T, s *Stack[float64], ps *StackPass[float64], p, x, dOut []float64) float64 {
	out := make([]float64, len(dOut))
	if err := s.Forward(ps, p, x, out); err != nil {
		t.Fatal(err)
	}
	var l float64
	for i, v := range out {
		l += dOut[i] * v
	}
	return l
}

// TestStackBackwardFiniteDifferences checks every component of Backward's
// gradient of Σ dOut·out against the central difference
// (L(p + h·e) − L(p − h·e))/(2h). Its truncation error is h²/6·L‴ ≈ 1e-11
// for h = 1e-5 and the smooth tanh; rounding adds about ε·|L|/h ≈ 1e-10;
// 1e-7·(1 + |g|) leaves a margin of 1000 and still catches any wrong
// term. For ReLU the loss is piecewise linear: the difference is exact
// unless a unit's input lies within h of its kink, which the seeded data
// avoid (a crossing would show as an error of order |w|, far above the
// tolerance).
func TestStackBackwardFiniteDifferences(t *testing.T) {
	for _, act := range []Activation{Tanh, ReLU} {
		t.Run(act.String(), func(t *testing.T) {
			s := mustStack[float64](t, act)
			const n = 7
			ps := mustPass(t, s, n)
			p := randomFloats[float64](1, s.Params())
			x := randomFloats[float64](2, n*stackShape.inputs)
			dOut := randomFloats[float64](3, stackShape.nets*n)
			stackLoss(t, s, ps, p, x, dOut)
			grad := make([]float64, s.Params())
			grad[0] = 1 // Backward adds to grad
			if err := s.Backward(ps, p, dOut, grad); err != nil {
				t.Fatal(err)
			}
			grad[0]--
			const h = 1e-5
			for i := range p {
				v := p[i]
				p[i] = v + h
				up := stackLoss(t, s, ps, p, x, dOut)
				p[i] = v - h
				down := stackLoss(t, s, ps, p, x, dOut)
				p[i] = v
				if fd := (up - down) / (2 * h); math.Abs(fd-grad[i]) > 1e-7*(1+math.Abs(grad[i])) {
					t.Errorf("∂L/∂p[%d] = %.12g, finite difference %.12g", i, grad[i], fd)
				}
			}
		})
	}
}

// stackNetLoop is one net run by hand on one row x, from its parameters
// in Net's order: per layer, input-major weights [in × out], then biases;
// every layer but the output one applies act.
func stackNetLoop(q, x []float64, hidden []int, act Activation) float64 {
	in, off := x, 0
	widths := append(append([]int(nil), hidden...), 1)
	for l, w := range widths {
		out := make([]float64, w)
		bias := q[off+len(in)*w:]
		for j := range out {
			s := bias[j]
			for c, v := range in {
				s += v * q[off+c*w+j]
			}
			switch {
			case l == len(hidden):
			case act == ReLU:
				s = max(s, 0)
			default:
				s = math.Tanh(s)
			}
			out[j] = s
		}
		in, off = out, off+len(in)*w+w
	}
	return in[0]
}

// TestStackNetMatchesLoop checks Forward of every net against a plain
// loop over the parameters Net gathers for it: a check of both the
// stacked layout and Net's order. The loop sums in another order and
// without fused products, so the two agree to within a few ulps of the
// terms' magnitude: 1e-12 relative to Σ|terms| ≈ 10.
func TestStackNetMatchesLoop(t *testing.T) {
	for _, act := range []Activation{Tanh, ReLU} {
		s := mustStack[float64](t, act)
		const n = 6
		ps := mustPass(t, s, n)
		p := randomFloats[float64](4, s.Params())
		x := randomFloats[float64](5, n*stackShape.inputs)
		out := make([]float64, stackShape.nets*n)
		if err := s.Forward(ps, p, x, out); err != nil {
			t.Fatal(err)
		}
		q := make([]float64, s.Params()/stackShape.nets)
		for k := range stackShape.nets {
			if err := s.Net(p, k, q); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				want := stackNetLoop(q, x[i*stackShape.inputs:(i+1)*stackShape.inputs], stackShape.hidden, act)
				if got := out[k*n+i]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Errorf("%v: net %d row %d: Forward %.15g, loop %.15g", act, k, i, got, want)
				}
			}
		}
	}
}

// TestStackNetRoundTrip gathers every net and scatters it into a zeroed
// buffer: the copy must equal the original bit for bit, so the nets'
// spans cover the buffer exactly (an element no net owned would stay 0,
// one owned twice would come from the wrong net).
func TestStackNetRoundTrip(t *testing.T) {
	s := mustStack[float32](t, ReLU)
	p := randomFloats[float32](6, s.Params())
	back := make([]float32, s.Params())
	q := make([]float32, s.Params()/stackShape.nets)
	for k := range stackShape.nets {
		clear(q)
		if err := s.Net(p, k, q); err != nil {
			t.Fatal(err)
		}
		if err := s.SetNet(back, k, q); err != nil {
			t.Fatal(err)
		}
	}
	for i := range p {
		if math.Float32bits(p[i]) != math.Float32bits(back[i]) {
			t.Fatalf("element %d: %v after the round trip, want %v", i, back[i], p[i])
		}
	}
}

// TestStackInit checks that Init is initParams: the same seed gives the
// same weights, another seed others, and biases start at 0.
func TestStackInit(t *testing.T) {
	s := mustStack[float64](t, ReLU)
	a, b, c := make([]float64, s.Params()), make([]float64, s.Params()), make([]float64, s.Params())
	for _, e := range []error{s.Init(a, 9), s.Init(b, 9), s.Init(c, 10)} {
		if e != nil {
			t.Fatal(e)
		}
	}
	want := make([]float64, s.Params())
	initParams(s.lay, want, 9)
	for i := range a {
		if a[i] != b[i] || a[i] != want[i] {
			t.Fatalf("element %d: %v and %v from seed 9, initParams %v", i, a[i], b[i], want[i])
		}
	}
	if a[0] == c[0] {
		t.Errorf("seeds 9 and 10 give the same first weight %v", a[0])
	}
}

// TestStackKernels runs Forward and Backward on the active kernel table
// and on the generic one. Both round each layer's sums in their own order
// with or without fused products; over these few layers of at most 5
// terms the difference stays within 1e-4 (float32) and 1e-12 (float64)
// relative to 1 + |value|, about 100 ulps of the terms' magnitude.
func TestStackKernels(t *testing.T) {
	stackKernels[float32](t, 1e-4)
	stackKernels[float64](t, 1e-12)
}

func stackKernels[T Float](t *testing.T, tol float64) {
	const n = 9
	x := randomFloats[T](7, n*stackShape.inputs)
	dOut := randomFloats[T](9, stackShape.nets*n)
	run := func(k *kernelSet[T]) (out, grad []T) {
		s := mustStack[T](t, ReLU)
		s.k = k
		ps := mustPass(t, s, n)
		p := randomFloats[T](8, s.Params())
		out, grad = make([]T, stackShape.nets*n), make([]T, s.Params())
		if err := s.Forward(ps, p, x, out); err != nil {
			t.Fatal(err)
		}
		if err := s.Backward(ps, p, dOut, grad); err != nil {
			t.Fatal(err)
		}
		return out, grad
	}
	out, grad := run(kernelsFor[T]())
	gOut, gGrad := run(genericKernelsFor[T]())
	for _, c := range []struct {
		name      string
		got, want []T
	}{{"out", out, gOut}, {"grad", grad, gGrad}} {
		for i := range c.got {
			if d := math.Abs(float64(c.got[i] - c.want[i])); d > tol*(1+math.Abs(float64(c.want[i]))) {
				t.Errorf("%T %s[%d]: %s %v, generic %v", c.got[i], c.name, i, kernelsFor[T]().name, c.got[i], c.want[i])
			}
		}
	}
}

// TestStackErrors feeds every method bad arguments: each must return its
// sentinel error, never panic.
func TestStackErrors(t *testing.T) {
	for _, c := range []struct {
		inputs int
		hidden []int
		nets   int
		act    Activation
	}{{0, []int{3}, 1, ReLU}, {2, nil, 1, ReLU}, {2, []int{0}, 1, ReLU}, {2, []int{3}, 0, ReLU}, {2, []int{3}, 1, Activation(7)}, {maxWidth, []int{maxWidth}, 1, ReLU}} {
		if _, err := NewStack[float64](c.inputs, c.hidden, c.nets, c.act); !errors.Is(err, ErrConfig) {
			t.Errorf("NewStack(%d, %v, %d, %v): %v, want ErrConfig", c.inputs, c.hidden, c.nets, c.act, err)
		}
	}
	s := mustStack[float64](t, ReLU)
	const n = 4
	ps := mustPass(t, s, n)
	other, err := NewStack[float64](stackShape.inputs, []int{6}, stackShape.nets, ReLU)
	if err != nil {
		t.Fatal(err)
	}
	foreign := mustPass(t, other, n)
	p := make([]float64, s.Params())
	x := randomFloats[float64](1, n*stackShape.inputs)
	out := make([]float64, stackShape.nets*n)
	grad := make([]float64, s.Params())
	q := make([]float64, s.Params()/stackShape.nets)
	nan := append([]float64(nil), x...)
	nan[2] = math.NaN()
	huge := make([]float64, s.Params())
	for i := range huge {
		huge[i] = 1e200 // overflows in the second layer
	}
	var zero Stack[float64]
	check := func(name string, err, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	_, err = s.NewPass(0)
	check("NewPass(0)", err, ErrBatch)
	_, err = zero.NewPass(1)
	check("zero NewPass", err, ErrShape)
	check("Backward before Forward", s.Backward(ps, p, out, grad), ErrBatch)
	check("Forward nil pass", s.Forward(nil, p, x, out), ErrShape)
	check("Forward foreign pass", s.Forward(foreign, p, x, out), ErrShape)
	check("Forward short p", s.Forward(ps, p[1:], x, out), ErrShape)
	check("Forward ragged x", s.Forward(ps, p, x[1:], out), ErrShape)
	check("Forward no rows", s.Forward(ps, p, nil, out[:0]), ErrBatch)
	check("Forward too many rows", s.Forward(ps, p, append(x, x...), make([]float64, 2*len(out))), ErrBatch)
	check("Forward short out", s.Forward(ps, p, x, out[1:]), ErrShape)
	check("Forward NaN x", s.Forward(ps, p, nan, out), ErrNonFinite)
	check("Forward overflow", s.Forward(ps, huge, x, out), ErrNonFinite)
	check("Backward after failed Forward", s.Backward(ps, p, out, grad), ErrBatch)
	check("Forward", s.Forward(ps, p, x, out), nil)
	check("Backward short dOut", s.Backward(ps, p, out[1:], grad), ErrShape)
	check("Backward short grad", s.Backward(ps, p, out, grad[1:]), ErrShape)
	check("Backward NaN dOut", s.Backward(ps, p, nan[:len(out)], grad), ErrNonFinite)
	check("Backward", s.Backward(ps, p, out, grad), nil)
	check("zero Forward", zero.Forward(ps, p, x, out), ErrShape)
	check("Init short", s.Init(p[1:], 1), ErrShape)
	check("zero Init", zero.Init(p, 1), ErrShape)
	check("Net k < 0", s.Net(p, -1, q), ErrShape)
	check("Net k = nets", s.Net(p, stackShape.nets, q), ErrShape)
	check("Net short dst", s.Net(p, 0, q[1:]), ErrShape)
	check("SetNet short p", s.SetNet(p[1:], 0, q), ErrShape)
	check("zero Net", zero.Net(p, 0, q), ErrShape)
	if zero.Params() != 0 {
		t.Errorf("zero Stack has %d parameters", zero.Params())
	}
}

// TestStackAllocs checks that Forward, Backward, Net and SetNet allocate
// nothing.
func TestStackAllocs(t *testing.T) {
	s := mustStack[float64](t, ReLU)
	const n = 5
	ps := mustPass(t, s, n)
	p := randomFloats[float64](1, s.Params())
	x := randomFloats[float64](2, n*stackShape.inputs)
	out := make([]float64, stackShape.nets*n)
	grad := make([]float64, s.Params())
	q := make([]float64, s.Params()/stackShape.nets)
	for name, f := range map[string]func() error{
		"Forward+Backward": func() error {
			if err := s.Forward(ps, p, x, out); err != nil {
				return err
			}
			return s.Backward(ps, p, out, grad)
		},
		"Net+SetNet": func() error {
			if err := s.Net(p, 1, q); err != nil {
				return err
			}
			return s.SetNet(p, 1, q)
		},
	} {
		if a := testing.AllocsPerRun(50, func() {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// BenchmarkStack measures one forward and backward pass of SVGD's
// networks: 20 nets of the paper's UCI shape (D = 13, H = 50) on a
// minibatch of 100 rows, in float64.
func BenchmarkStack(b *testing.B) {
	const nets, rows, inputs, hidden = 20, 100, 13, 50
	for _, im := range benchImpls[float64]() {
		b.Run(im.name, func(b *testing.B) {
			s, err := NewStack[float64](inputs, []int{hidden}, nets, ReLU)
			if err != nil {
				b.Fatal(err)
			}
			s.k = im.k
			ps := mustPass(b, s, rows)
			p := make([]float64, s.Params())
			if err := s.Init(p, 1); err != nil {
				b.Fatal(err)
			}
			x := randomFloats[float64](2, rows*inputs)
			dOut := randomFloats[float64](3, nets*rows)
			out := make([]float64, nets*rows)
			grad := make([]float64, s.Params())
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Forward(ps, p, x, out); err != nil {
					b.Fatal(err)
				}
				if err := s.Backward(ps, p, dOut, grad); err != nil {
					b.Fatal(err)
				}
			}
			reportSamples(b, rows)
		})
	}
}
