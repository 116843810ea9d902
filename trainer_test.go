package gcp

import (
	"errors"
	"math"
	"testing"
)

// TestTrainerAfterReshape loads a model of another shape into a model a
// trainer was built for: the trainer's buffers no longer fit, and Step
// must say so instead of indexing out of range.
// regression: Step indexed out of range with a trainer built before a load changed the model's shape.
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
