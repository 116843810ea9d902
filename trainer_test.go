package gcp

import (
	"errors"
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
