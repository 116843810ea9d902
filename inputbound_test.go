package gcp

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestBoundedInputClosedForm(t *testing.T) {
	const b = 50
	// ln(1 + |z| − b) = k where |z| = b + e^k − 1: the bounded value is
	// b + k. 1e-15 relative: a few ulps of Log1p and of e^k − 1.
	for _, k := range []float64{1, 2, 5, 0.5} {
		z := b + math.Expm1(k)
		for _, s := range []float64{1, -1} {
			if got, want := boundedInput(s*z, b), s*(b+k); math.Abs(got-want) > 1e-15*math.Abs(want) {
				t.Errorf("boundedInput(%v) = %v, want %v", s*z, got, want)
			}
		}
	}
	// Within the bound every value passes exactly, b itself included.
	for _, z := range []float64{0, 1e-300, -3.5, 49.999, b, -b} {
		if got := boundedInput(z, b); got != z {
			t.Errorf("boundedInput(%v) = %v, want it unchanged", z, got)
		}
	}
	// Continuous with slope 1 at b: f(b + h) = b + ln(1 + h) = b + h − h²/2
	// + O(h³), so (f(b + h) − b)/h lies within h/2 of 1.
	for _, h := range []float64{1e-3, 1e-6} {
		if slope := (boundedInput(b+h, b) - b) / h; math.Abs(slope-1) > h {
			t.Errorf("slope over [b, b+%g] = %v, want 1 within %g", h, slope, h)
		}
	}
	// oes97's largest robust z enters as 50 + ln 2863 ≈ 57.96.
	if got := boundedInput(2912, b); math.Abs(got-57.9596) > 1e-4 {
		t.Errorf("boundedInput(2912) = %v, want 57.9596", got)
	}
	// Strictly increasing across the bound and far beyond it.
	prev := math.Inf(-1)
	for z := -1e6; z <= 1e6; z = nextGrid(z) {
		got := boundedInput(z, b)
		if !(got > prev) {
			t.Fatalf("boundedInput(%v) = %v, not above the previous value %v", z, got, prev)
		}
		prev = got
	}
}

// nextGrid steps through [−1e6, 1e6] finely near the bound and coarsely
// far from it.
func nextGrid(z float64) float64 {
	if math.Abs(math.Abs(z)-50) < 2 {
		return z + 1e-3
	}
	return z + max(1e-3, math.Abs(z)/100)
}

func TestInputBoundFeedsTheBoundedZ(t *testing.T) {
	t.Run("float32", testInputBoundFeedsTheBoundedZ[float32])
	t.Run("float64", testInputBoundFeedsTheBoundedZ[float64])
}

// boundPair returns a model of cfg standardized by centre 0 and scale 1
// for input 0 (so that an input's z is the input itself, and the bounded
// z can be fed to a model without a bound exactly) and (3, 2) for input
// 1, with the bound 50, and its clone without a bound.
func boundPair[T Float](t *testing.T, cfg Config) (bounded, plain *Model[T]) {
	t.Helper()
	plain = mustModel[T](t, cfg)
	if err := plain.SetStandardization([]float64{0, 3}, []float64{1, 2}, 1, 2); err != nil {
		t.Fatal(err)
	}
	bounded = plain.Clone()
	if err := bounded.SetInputBound(50); err != nil {
		t.Fatal(err)
	}
	return bounded, plain
}

func testInputBoundFeedsTheBoundedZ[T Float](t *testing.T) {
	for _, members := range []int{1, 3} {
		bounded, plain := boundPair[T](t, Config{Inputs: 2, Hidden: []int{8}, Members: members, Seed: 31})
		wsB, wsP := bounded.NewWorkspace(), plain.NewWorkspace()
		// A row within the bound predicts exactly as without one; a row
		// beyond it as the model without one predicts at the bounded z,
		// except for InputZ, which reports the z as it is.
		for _, x0 := range []float64{40, -50, 1e4, -1e4, 3e30} {
			x := []T{T(x0), 4}
			z0 := float64(T(x0))
			pb, err := bounded.Predict(wsB, x)
			if err != nil {
				t.Fatalf("members %d, x0 = %g: %v", members, x0, err)
			}
			if !finite(pb.Mean) || !finite(pb.Var) || !finite(pb.VarCorrected) {
				t.Errorf("members %d, x0 = %g: %+v, want finite", members, x0, pb)
			}
			pp, err := plain.Predict(wsP, []T{T(boundedInput(z0, 50)), 4})
			if err != nil {
				t.Fatal(err)
			}
			if want := math.Abs(z0); pb.InputZ != want {
				t.Errorf("members %d, x0 = %g: InputZ %v, want the unbounded %v", members, x0, pb.InputZ, want)
			}
			pp.InputZ = pb.InputZ
			if pb != pp {
				t.Errorf("members %d, x0 = %g: %+v\nwant the bounded row's %+v", members, x0, pb, pp)
			}
		}
	}
}

func TestInputBoundSeveralTargets(t *testing.T) {
	t.Run("float32", testInputBoundSeveralTargets[float32])
	t.Run("float64", testInputBoundSeveralTargets[float64])
}

func testInputBoundSeveralTargets[T Float](t *testing.T) {
	bounded, plain := boundPair[T](t, Config{Inputs: 2, Targets: 2, Hidden: []int{6}, Seed: 32})
	wsB, wsP := bounded.NewWorkspace(), plain.NewWorkspace()
	var pb, pp MultiPrediction
	for _, x0 := range []float64{12, 2e4, -2e4} {
		if err := bounded.PredictMulti(wsB, []T{T(x0), 1}, &pb); err != nil {
			t.Fatal(err)
		}
		if err := plain.PredictMulti(wsP, []T{T(boundedInput(float64(T(x0)), 50)), 1}, &pp); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			for j := range 2 {
				if pb.Mean(i) != pp.Mean(i) || pb.Scale(i, j) != pp.Scale(i, j) {
					t.Errorf("x0 = %g: mean %v, scale %v; want the bounded row's %v, %v", x0, pb.Mean(i), pb.Scale(i, j), pp.Mean(i), pp.Scale(i, j))
				}
			}
		}
		if pb.Nu() != pp.Nu() {
			t.Errorf("x0 = %g: ν %v, want %v", x0, pb.Nu(), pp.Nu())
		}
	}
}

func TestInputBoundTrainsOnTheBoundedZ(t *testing.T) {
	t.Run("float32", testInputBoundTrainsOnTheBoundedZ[float32])
	t.Run("float64", testInputBoundTrainsOnTheBoundedZ[float64])
}

// A training step sees the bounded rows: it leaves the same parameters as
// a step of the model without a bound on the bounded rows.
func testInputBoundTrainsOnTheBoundedZ[T Float](t *testing.T) {
	bounded, plain := boundPair[T](t, Config{Inputs: 2, Hidden: []int{8}, Members: 2, Seed: 33})
	tc := TrainConfig{LearningRate: 1e-3, BatchSize: 4, Seed: 2}
	trB, trP := mustTrainer(t, bounded, tc), mustTrainer(t, plain, tc)
	x := []T{3, 1, 5e3, 2, -70, 0, 0.5, 9}
	xp := make([]T, len(x))
	for i, v := range x {
		xp[i] = v
		if i%2 == 0 {
			xp[i] = T(boundedInput(float64(v), 50))
		}
	}
	y := []T{1, 2, 0.5, -1}
	lb, err := trB.Step(x, y)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := trP.Step(xp, y)
	if err != nil {
		t.Fatal(err)
	}
	if lb != lp {
		t.Errorf("loss %v, want the bounded rows' %v", lb, lp)
	}
	for i := range bounded.params {
		if bounded.params[i] != plain.params[i] {
			t.Fatalf("parameter %d: %v, want the bounded rows' %v", i, bounded.params[i], plain.params[i])
		}
	}
}

func TestInputBoundPredictAllocatesNothing(t *testing.T) {
	bounded, _ := boundPair[float64](t, Config{Inputs: 2, Hidden: []int{8}, Members: 2, Seed: 34})
	ws := bounded.NewWorkspace()
	x := []float64{1e4, 2}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := bounded.Predict(ws, x); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Predict beyond the bound allocates %v times, want 0", n)
	}
}

func TestSetInputBoundValidates(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{3}})
	for _, b := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := m.SetInputBound(b); !errors.Is(err, ErrNonFinite) {
			t.Errorf("SetInputBound(%v) = %v, want ErrNonFinite", b, err)
		}
	}
	if m.InputBound() != 0 {
		t.Errorf("a refused bound left %v", m.InputBound())
	}
	if err := m.SetInputBound(50); err != nil || m.InputBound() != 50 {
		t.Fatalf("SetInputBound(50): %v, bound %v", err, m.InputBound())
	}
	if c := m.Clone(); c.InputBound() != 50 {
		t.Errorf("Clone's bound %v, want 50", c.InputBound())
	}
	if err := m.SetInputBound(math.Copysign(0, -1)); err != nil || math.Float64bits(m.InputBound()) != 0 {
		t.Errorf("SetInputBound(−0): %v, bound %v, want +0", err, m.InputBound())
	}
	var nilModel *Model[float64]
	if err := nilModel.SetInputBound(1); !errors.Is(err, ErrConfig) || nilModel.InputBound() != 0 {
		t.Errorf("nil model: %v", err)
	}
}

func TestInputBoundFileRoundTrip(t *testing.T) {
	bounded, plain := boundPair[float32](t, Config{Inputs: 2, Hidden: []int{5}, Seed: 35})
	data, err := bounded.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	plainData, err := plain.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The bound alone makes a version-5 file of one section: tag 7, 8
	// bytes, the bound's bits; the model without it stays version 1.
	if v, pv := le.Uint16(data[8:]), le.Uint16(plainData[8:]); v != fileVersionSections || pv != fileVersionGCP {
		t.Errorf("versions %d and %d, want %d with the bound and %d without", v, pv, fileVersionSections, fileVersionGCP)
	}
	section := append(le.AppendUint32(le.AppendUint16(nil, 7), 8), le.AppendUint64(nil, math.Float64bits(50))...)
	if !bytes.Contains(data, section) || bytes.Contains(plainData, section[:6]) {
		t.Errorf("the section % x is not in the bounded file alone", section)
	}
	var back Model[float32]
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if back.InputBound() != 50 {
		t.Errorf("read back with bound %v, want 50", back.InputBound())
	}
	x := []float32{-3e4, 2}
	want, err := bounded.Predict(bounded.NewWorkspace(), x)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := back.Predict(back.NewWorkspace(), x); err != nil || got != want {
		t.Errorf("read back predicts %+v (%v), want %+v", got, err, want)
	}
	if again, err := back.MarshalBinary(); err != nil || !bytes.Equal(again, data) {
		t.Errorf("re-encoding does not reproduce the bytes (%v)", err)
	}
	// A bound the API refuses is refused in a file too.
	for _, b := range []float64{-50, math.NaN(), math.Inf(1)} {
		bad := bounded.Clone()
		bad.ext.inputBound = b
		var m Model[float32]
		if err := m.UnmarshalBinary(bad.encode()); !errors.Is(err, ErrNonFinite) {
			t.Errorf("a file with bound %v: %v, want ErrNonFinite", b, err)
		}
	}
	for _, n := range []int{0, 7, 9} {
		var e extensions
		if err := parseInputBound(make([]byte, n), &e, Config{}); !errors.Is(err, ErrFormat) {
			t.Errorf("a payload of %d bytes: %v, want ErrFormat", n, err)
		}
	}
}

// The golden files written before the bound existed load without one; the
// golden file with the section predicts, beyond the bound, what its model
// without the bound predicts at the bounded z.
func TestGoldenInputBound(t *testing.T) {
	for _, g := range goldenFiles {
		data, err := os.ReadFile(filepath.Join("testdata", g.name))
		if err != nil {
			t.Fatal(err)
		}
		var m Model[float64]
		if err := m.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		want := 0.0
		if g.name == "model_v5_bound_float64.gcpm" {
			want = 50
		}
		if m.InputBound() != want {
			t.Errorf("%s: bound %v, want %v", g.name, m.InputBound(), want)
		}
		if want == 0 {
			continue
		}
		plain := m.Clone()
		if err := plain.SetInputBound(0); err != nil {
			t.Fatal(err)
		}
		x := []float64{1e4, 0.25}
		z := (x[0] - m.xMean[0]) / m.xScale[0]
		xb := []float64{m.xMean[0] + boundedInput(z, 50)*m.xScale[0], x[1]}
		got, err := m.Predict(m.NewWorkspace(), x)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := plain.Predict(plain.NewWorkspace(), xb)
		if err != nil {
			t.Fatal(err)
		}
		// xb's z differs from the bounded z by the rounding of the affine
		// map and its inverse, a few ulps of 58: 1e-12 relative is ample.
		for _, f := range [][2]float64{{got.Mean, ref.Mean}, {got.Var, ref.Var}, {got.Alpha, ref.Alpha}, {got.Beta, ref.Beta}} {
			if math.Abs(f[0]-f[1]) > 1e-12*math.Abs(f[1]) {
				t.Errorf("%s: %+v\nwant the bounded row's %+v", g.name, got, ref)
				break
			}
		}
	}
}

// heavyTailedCounts returns n rows of three count features, each
// 10·e^{3N(0,1)} rounded (a log-normal of σ = 3, whose robust z-scores
// reach the thousands, as oes97's employment counts do), and a target
// ln(1 + x₀) plus normal noise of scale 0.5.
func heavyTailedCounts[T Float](seed uint64, n int) (x, y []T) {
	r := rand.New(rand.NewPCG(seed, 7))
	x, y = make([]T, 3*n), make([]T, n)
	for i := range y {
		for j := range 3 {
			x[3*i+j] = T(math.Round(10 * math.Exp(3*r.NormFloat64())))
		}
		y[i] = T(math.Log1p(float64(x[3*i])) + 0.5*r.NormFloat64())
	}
	return x, y
}

// regression: on heavy-tailed count features the robust z-scores reached
// the thousands, a fresh ensemble's α underflowed and the recipe's first
// epoch diverged at a learning rate of 1.1e-4.
func TestFitTrainsOnHeavyTailedCounts(t *testing.T) {
	x, y := heavyTailedCounts[float64](3, 300)
	m := mustModel[float64](t, Config{Inputs: 3, Hidden: []int{50}, Members: 5, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 1.11e-4, ScaleWeighting: 0.5, Seed: 2})
	stats, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 5, Seed: 3})
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	if !finite(stats.TrainNLL) {
		t.Errorf("training NLL %v", stats.TrainNLL)
	}
	if m.InputBound() != 50 {
		t.Errorf("bound %v, want 50 for rows beyond it", m.InputBound())
	}
	// Rows within the bound give a model without one, as before.
	xs, ys := persistData[float64](4, 64, 3)
	plain := mustModel[float64](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 1})
	if _, err := mustTrainer(t, plain, TrainConfig{LearningRate: 1e-3, Seed: 2}).Fit(xs, ys, FitOptions[float64]{Epochs: 1, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if plain.InputBound() != 0 {
		t.Errorf("bound %v for rows within it, want none", plain.InputBound())
	}
}
