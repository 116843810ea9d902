package gcp

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTrainerAfterReshape loads a model of another shape into a model a
// trainer was built for: the trainer's buffers no longer fit, and Step
// must say so instead of indexing out of range.
// regression: Step indexed out of range after a load changed the model's shape.
func TestTrainerAfterReshape(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 2})
	other := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{9}, Seed: 2})
	b, err := other.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step([]float32{1, 2, 3, 4}, []float32{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("Step after a reshape = %v, want ErrShape", err)
	}
}

// TestEnsembleMembersTrainAlone checks Config.Members' training recipe:
// an ensemble whose members start from the weights of K single networks
// and train on the same minibatches ends where the K networks end when
// trained alone, for every loss without MC dropout, and its Step reports
// their mean NLL. Adam's update is per coordinate and the ensemble's
// objective the sum of the members', so each member must get exactly its
// own gradient: a coupling between members (a shared normalization, one
// member's loss leaking into another's heads) moves the parameters by
// far more than the tolerance. The kernels tile the ensemble's wider
// matrices differently, which may change the order of the sums over the
// batch: 1e-10 relative to the parameters' scale after 40 Adam steps.
func TestEnsembleMembersTrainAlone(t *testing.T) {
	for _, loss := range []Loss{LossGCP, LossGaussianML, LossDPD} {
		t.Run(loss.String(), func(t *testing.T) {
			const K, batch = 3, 8
			cfg := Config{Inputs: 3, Hidden: []int{6, 4}, Loss: loss}
			e, singles := ensembleOfSingles(t, cfg, K)
			tc := TrainConfig{BatchSize: batch, LearningRate: 1e-2}
			et := mustTrainer(t, e, tc)
			st := make([]*Trainer[float64], K)
			for k := range st {
				st[k] = mustTrainer(t, singles[k], tc)
			}
			for step := range 40 {
				x, y := randomBatch[float64](uint64(100+step), batch, cfg.Inputs)
				got, err := et.Step(x, y)
				if err != nil {
					t.Fatal(err)
				}
				var want float64
				for _, tr := range st {
					l, err := tr.Step(x, y)
					if err != nil {
						t.Fatal(err)
					}
					want += l / K
				}
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Fatalf("step %d: ensemble NLL %v, members' mean %v", step, got, want)
				}
			}
			check := mustModel[float64](t, Config{Inputs: cfg.Inputs, Hidden: cfg.Hidden, Loss: loss, Members: K})
			for k, s := range singles {
				embedMember(check, s, k)
			}
			var worst, scale float64
			for i, v := range e.params {
				worst = max(worst, math.Abs(v-check.params[i]))
				scale = max(scale, math.Abs(v))
			}
			if worst > 1e-10*scale {
				t.Errorf("members drift from the networks trained alone by %.3g (parameter scale %.3g)", worst, scale)
			}
		})
	}
}

// TestStepRejectsBadInput checks every error of Step and that none of them
// changes the model or the optimizer.
func TestStepRejectsBadInput(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 3})
	x, y := randomBatch[float32](1, 3, 2)
	if _, err := tr.Step(x, y); err != nil { // give Adam some state
		t.Fatal(err)
	}
	before, state := slices.Clone(m.params), slices.Clone(tr.opt.state[0])
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		x, y []float32
		want error
	}{
		{"empty", nil, nil, ErrBatch},
		{"too-large", make([]float32, 8), make([]float32, 4), ErrBatch},
		{"short-x", x[:5], y, ErrShape},
		{"nan-x", []float32{1, nan, 0, 0, 0, 0}, y, ErrNonFinite},
		{"inf-y", x, []float32{0, inf, 0}, ErrNonFinite},
	} {
		if _, err := tr.Step(tc.x, tc.y); !errors.Is(err, tc.want) {
			t.Errorf("%s: Step = %v, want %v", tc.name, err, tc.want)
		}
	}
	if !cmp.Equal(before, m.params) || !cmp.Equal(state, tr.opt.state[0]) || tr.opt.t != 1 {
		t.Error("a rejected Step changed the model or the optimizer")
	}
}

// TestStepRejectsDivergence drives the update to overflow and checks that
// it is refused with the model, the optimizer and the dropout generator
// left exactly as they were.
func TestStepRejectsDivergence(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testStepRejectsDivergence[float32](t, 3e38) })
	t.Run("float64", func(t *testing.T) { testStepRejectsDivergence[float64](t, 1e308) })
}

// testStepRejectsDivergence uses a weight decay near T's largest value:
// the decayed gradient g + decay·p overflows for every weight with
// |p| > 1.2, and each update rule then yields an infinite or NaN
// parameter. Glorot-uniform draws stay within ±1.1 here (the output
// layer's limit √(6/5)), so the test sets one weight to 4.
func testStepRejectsDivergence[T Float](t *testing.T, decay float64) {
	for _, opt := range []Optimizer{SGD, Nesterov, RMSProp, Adam} {
		m := mustModel[T](t, Config{Inputs: 2, Hidden: []int{4}, Dropout: 0.5, Seed: 1})
		m.params[0] = 4
		tr := mustTrainer(t, m, TrainConfig{Optimizer: opt, LearningRate: 1, BatchSize: 3, Seed: 2})
		twin := mustTrainer(t, m.Clone(), TrainConfig{Optimizer: opt, LearningRate: 1, BatchSize: 3, Seed: 2})
		x, y := randomBatch[T](2, 3, 2)
		before := slices.Clone(m.params)
		tr.opt.cfg.WeightDecay = decay
		if _, err := tr.Step(x, y); !errors.Is(err, ErrDiverged) {
			t.Errorf("%v: Step = %v, want ErrDiverged", opt, err)
		}
		if diff := cmp.Diff(before, m.params); diff != "" || tr.opt.t != 0 {
			t.Errorf("%v: a rejected step changed the model:\n%s", opt, diff)
		}
		// After the rejected step the trainer must behave exactly like its
		// twin that never saw it: same dropout mask, same update.
		tr.opt.cfg.WeightDecay = 0
		for _, tt := range []*Trainer[T]{tr, twin} {
			if _, err := tt.Step(x, y); err != nil {
				t.Fatal(err)
			}
		}
		if !cmp.Equal(tr.m.params, twin.m.params) {
			t.Errorf("%v: a rejected step left a trace in the next one", opt)
		}
	}
}

// TestStepAllocatesNothing runs Step at the minibatches of
// BenchmarkStepOverhead on every kernel table the CPU has and on the
// generic one, for a single network and for AutoFit's ensemble (five
// members, two hidden layers, ScaleWeighting): a step must not allocate
// whatever path its kernels take.
func TestStepAllocatesNothing(t *testing.T) {
	ktRun(t, testStepAllocs[float32], testStepAllocs[float64])
	t.Run("generic/float32", func(t *testing.T) { testStepAllocs(t, genericKernelsFor[float32]()) })
	t.Run("generic/float64", func(t *testing.T) { testStepAllocs(t, genericKernelsFor[float64]()) })
}

func testStepAllocs[T Float](t *testing.T, k *kernelSet[T]) {
	for _, c := range []struct {
		cfg Config
		tc  TrainConfig
	}{
		{Config{Inputs: 13, Hidden: []int{50}, Dropout: 0.1, Seed: 1}, TrainConfig{}},
		{Config{Inputs: 13, Hidden: []int{50, 50}, Dropout: 0.1, Members: 5, Seed: 1}, TrainConfig{ScaleWeighting: 0.5}},
	} {
		for _, batch := range stepOverheadBatches {
			m := mustModel[T](t, c.cfg)
			m.k = k // before NewTrainer, whose optimizer takes the model's table
			c.tc.BatchSize = batch
			tr := mustTrainer(t, m, c.tc)
			x, y := randomBatch[T](1, batch, c.cfg.Inputs)
			if a := testing.AllocsPerRun(10, func() {
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("members %d, batch %d: Step allocates %v times per call", c.cfg.Members, batch, a)
			}
		}
	}
}
