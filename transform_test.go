package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestTransformApply(t *testing.T) {
	for _, tc := range []struct {
		tr   TargetTransform
		y, z float64
		err  error
	}{
		{TransformNone, -3.5, -3.5, nil},
		{TransformLog, math.E, 1, nil},
		{TransformLog, 1e-300, math.Log(1e-300), nil},
		{TransformLog, 0, 0, ErrDomain},
		{TransformLog, -1, 0, ErrDomain},
		{TransformLog, math.NaN(), 0, ErrDomain},
		{TargetTransform(7), 1, 0, ErrConfig},
	} {
		z, err := tc.tr.Apply(tc.y)
		if !errors.Is(err, tc.err) || err == nil && z != tc.z {
			t.Errorf("%v.Apply(%g) = %g, %v; want %g, %v", tc.tr, tc.y, z, err, tc.z, tc.err)
		}
	}
}

func TestSkewness(t *testing.T) {
	// A Bernoulli(1/4) sample of four values: skewness
	// (1 − 2p)/√(p(1 − p)) = 2/√3.
	if got, want := skewness([]float64{0, 0, 0, 1}, TransformNone), 2/math.Sqrt(3); math.Abs(got-want) > 1e-15 {
		t.Errorf("skewness of 0, 0, 0, 1 = %v, want 2/√3 = %v", got, want)
	}
	for _, y := range [][]float64{nil, {3}, {2, 2, 2}, {0.1, 0.1, 0.1, 0.1}} {
		if got := skewness(y, TransformNone); got != 0 {
			t.Errorf("skewness of %v = %v, want 0", y, got)
		}
	}
}

// TestChooseTargetTransform checks the auto rule on samples of known
// skewness: the log-normal (σ = 0.5: skewness (e^σ² + 2)√(e^σ² − 1) =
// 1.75, 0 in logs), the exponential (2, and −1.14 in logs: the skewness
// of a Gumbel for the minimum), the normal (0), a sample with a value
// that is not positive, and one whose log is far more skewed than it.
func TestChooseTargetTransform(t *testing.T) {
	const n = 100000
	r := rand.New(rand.NewPCG(3, 4))
	draw := func(f func() float64) []float64 {
		y := make([]float64, n)
		for i := range y {
			y[i] = f()
		}
		return y
	}
	// The sample skewness of n draws has a standard error of about
	// √(6/n) = 0.008 for a normal sample and several times that for
	// these skewed ones (its variance involves the sixth moment); 0.1 is
	// beyond 3 standard errors for each, and far closer than the rule's
	// mark of 1.
	logNormal := draw(func() float64 { return math.Exp(0.5 * r.NormFloat64()) })
	s2 := math.Exp(0.25)
	for _, tc := range []struct {
		name          string
		y             []float64
		want          TargetTransform
		skew, logSkew float64 // NaN: not checked
	}{
		{"log-normal", logNormal, TransformLog, (s2 + 2) * math.Sqrt(s2-1), 0},
		{"exponential", draw(r.ExpFloat64), TransformLog, 2, -1.1395470994046487},
		{"normal", draw(func() float64 { return 10 + r.NormFloat64() }), TransformNone, 0, math.NaN()},
		{"a zero", append([]float64{0}, logNormal...), TransformNone, math.NaN(), math.NaN()},
		{"log more skewed", append(append(repeat([]float64{1}, 90), repeat([]float64{5}, 9)...), 1e-9), TransformNone, math.NaN(), math.NaN()},
	} {
		c := ChooseTargetTransform(tc.y)
		if c.Transform != tc.want {
			t.Errorf("%s: chose %v (%v), want %v", tc.name, c.Transform, c, tc.want)
		}
		if !math.IsNaN(tc.skew) && math.Abs(c.Skew-tc.skew) > 0.1 {
			t.Errorf("%s: skewness %v, want %v", tc.name, c.Skew, tc.skew)
		}
		if !math.IsNaN(tc.logSkew) && math.Abs(c.LogSkew-tc.logSkew) > 0.1 {
			t.Errorf("%s: skewness of the logs %v, want %v", tc.name, c.LogSkew, tc.logSkew)
		}
		if c.String() == "" {
			t.Errorf("%s: empty String", tc.name)
		}
	}
}

// TestTransformTraining checks that a transform set before training
// changes nothing of it, since training works in the modeled units: Fit
// gives the same statistics and parameters, bit for bit, and Calibrate the
// same scales.
func TestTransformTraining(t *testing.T) {
	x, y := randomBatch[float64](8, 96, 3)
	cfg := Config{Inputs: 3, Hidden: []int{5}, Seed: 9}
	var stats [2]EpochStats
	var models [2]*Model[float64]
	for k, tr := range []TargetTransform{TransformNone, TransformLog} {
		m := mustModel[float64](t, cfg)
		if err := m.SetTargetTransform(tr); err != nil {
			t.Fatal(err)
		}
		var err error
		if stats[k], err = mustTrainer(t, m, TrainConfig{BatchSize: 16, Seed: 2}).Fit(x, y, FitOptions[float64]{Epochs: 3, Seed: 3, ValidationShare: 0.25}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := m.Calibrate(x[:30], y[:10]); err != nil {
			t.Fatal(err)
		}
		models[k] = m
	}
	if stats[0] != stats[1] {
		t.Errorf("Fit statistics depend on the transform: %+v and %+v", stats[0], stats[1])
	}
	models[1].ext.transform = TransformNone
	if d := persistDiff(models[0], models[1]); d != "" {
		t.Errorf("the trained models differ (-none +log):\n%s", d)
	}
}

func TestSetTargetTransformErrors(t *testing.T) {
	var nilModel *Model[float64]
	if err := nilModel.SetTargetTransform(TransformLog); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	if got := nilModel.TargetTransform(); got != TransformNone {
		t.Errorf("nil model's transform %v", got)
	}
	m := mustModel[float64](t, Config{Inputs: 1})
	if err := m.SetTargetTransform(TargetTransform(2)); !errors.Is(err, ErrConfig) || m.TargetTransform() != TransformNone {
		t.Errorf("unknown transform: %v, model's %v", err, m.TargetTransform())
	}
}
