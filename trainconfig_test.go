package gcp

import (
	"errors"
	"strings"
	"testing"
)

// TestTrainConfigRepresentable checks that NewTrainer refuses values that
// the model's element type cannot hold, and buffers too large to make.
func TestTrainConfigRepresentable(t *testing.T) {
	m32 := mustModel[float32](t, Config{Inputs: 2, Seed: 1})
	for _, tc := range []struct {
		cfg   TrainConfig
		field string
	}{
		{TrainConfig{LearningRate: 1e39}, "LearningRate"}, // +Inf in float32
		{TrainConfig{Epsilon: 1e-50}, "Epsilon"},          // 0 in float32
		{TrainConfig{Beta2: 0.99999999}, "Beta2"},         // 1 in float32
		{TrainConfig{WeightDecay: 1e300}, "WeightDecay"},
	} {
		if _, err := NewTrainer(m32, tc.cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("NewTrainer[float32](%+v) = %v, want ErrConfig naming %s", tc.cfg, err, tc.field)
		}
	}
	m64 := mustModel[float64](t, Config{Inputs: 2, Seed: 1})
	if _, err := NewTrainer(m64, TrainConfig{Epsilon: 1e-50, Beta2: 0.99999999}); err != nil {
		t.Errorf("float64 represents these values: %v", err)
	}
	wide := mustModel[float32](t, Config{Inputs: 60000, Hidden: []int{1}, Seed: 1})
	if _, err := NewTrainer(wide, TrainConfig{BatchSize: 60000}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "BatchSize") {
		t.Errorf("NewTrainer with 3.6e9-element buffers = %v, want ErrConfig naming BatchSize", err)
	}
}
