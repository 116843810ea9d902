package gcp

import (
	"fmt"
	"math"
)

// TrainConfig configures a Trainer. Zero values select the defaults.
type TrainConfig struct {
	Optimizer    Optimizer // default Adam
	LearningRate float64   // default 1e-3
	Beta1        float64   // Adam's first-moment decay, default 0.9
	Beta2        float64   // Adam's second-moment decay, default 0.999
	Epsilon      float64   // Adam and RMSProp denominator guard, default 1e-8
	Rho          float64   // RMSProp's decay, default 0.9
	Momentum     float64   // Nesterov's momentum, default 0.9
	WeightDecay  float64   // L2 coefficient added to the gradient, default 0
	ClipNorm     float64   // > 0: rescale gradients to at most this L2 norm
	BatchSize    int       // most rows per Step, and Fit's minibatch; default 32
	Seed         uint64    // dropout masks and Fit's shuffling
	// ScaleWeighting, in [0, 1], weights each sample's gradient by its
	// predictive's squared scale to this power, normalized over the
	// minibatch: 0, the default, is the paper's update;
	// ½ lets the mean learn at hard inputs as fast as at easy ones.
	ScaleWeighting float64
}

// defaultBatchSize is TrainConfig.BatchSize's default.
const defaultBatchSize = 32

func (c TrainConfig) withDefaults() TrainConfig {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.LearningRate, 1e-3)
	def(&c.Beta1, 0.9)
	def(&c.Beta2, 0.999)
	def(&c.Epsilon, 1e-8)
	def(&c.Rho, 0.9)
	def(&c.Momentum, 0.9)
	if c.BatchSize == 0 {
		c.BatchSize = defaultBatchSize
	}
	return c
}

func (c TrainConfig) validate() error {
	if c.Optimizer < Adam || c.Optimizer > SGD {
		return fmt.Errorf("%w: Optimizer = %d, want Adam, RMSProp, Nesterov or SGD", ErrConfig, int(c.Optimizer))
	}
	positive := positiveFinite
	nonNegative := func(v float64) bool { return v == 0 || positiveFinite(v) }
	fraction := func(v float64) bool { return v >= 0 && v < 1 }
	for _, f := range [...]struct {
		name string
		v    float64
		ok   func(float64) bool
		want string
	}{
		{"LearningRate", c.LearningRate, positive, "finite and > 0"},
		{"Beta1", c.Beta1, fraction, "in [0, 1)"},
		{"Beta2", c.Beta2, fraction, "in [0, 1)"},
		{"Epsilon", c.Epsilon, positive, "finite and > 0"},
		{"Rho", c.Rho, fraction, "in [0, 1)"},
		{"Momentum", c.Momentum, fraction, "in [0, 1)"},
		{"WeightDecay", c.WeightDecay, nonNegative, "finite and ≥ 0"},
		{"ClipNorm", c.ClipNorm, nonNegative, "finite and ≥ 0"},
	} {
		if !f.ok(f.v) {
			return fmt.Errorf("%w: %s = %v, want %s", ErrConfig, f.name, f.v, f.want)
		}
	}
	if c.BatchSize < 1 || c.BatchSize > maxWidth {
		return fmt.Errorf("%w: BatchSize = %d, want 1..%d", ErrConfig, c.BatchSize, maxWidth)
	}
	return checkScaleWeighting(c.ScaleWeighting)
}

// validateFor checks that T represents the configuration: a float32
// rounds a learning rate of 1e39 to +Inf, an Epsilon of 1e-50 to 0 and a
// Beta2 of 0.99999999 to 1.
func validateFor[T Float](c TrainConfig) error {
	for _, f := range [...]struct {
		name  string
		v     float64
		below float64 // T(v) must be below this
	}{
		{"LearningRate", c.LearningRate, math.Inf(1)},
		{"Epsilon", c.Epsilon, math.Inf(1)},
		{"WeightDecay", c.WeightDecay, math.Inf(1)},
		{"Beta1", c.Beta1, 1},
		{"Beta2", c.Beta2, 1},
		{"Rho", c.Rho, 1},
		{"Momentum", c.Momentum, 1},
	} {
		tv := float64(T(f.v))
		if !(tv < f.below) || (f.v > 0 && tv == 0) {
			return fmt.Errorf("%w: %s = %v is %v in %T", ErrConfig, f.name, f.v, tv, T(0))
		}
	}
	return nil
}

// Optimizer selects the update rule of a Trainer.
type Optimizer int

const (
	// Adam is Kingma & Ba (2015), the paper's most used optimizer
	// (Appendix E).
	Adam Optimizer = iota
	// RMSProp divides the gradient by a running root mean square.
	RMSProp
	// Nesterov is SGD with Nesterov momentum.
	Nesterov
	// SGD is plain gradient descent.
	SGD
)

// String returns the optimizer's name.
func (o Optimizer) String() string {
	switch o {
	case Adam:
		return "adam"
	case RMSProp:
		return "rmsprop"
	case Nesterov:
		return "nesterov"
	case SGD:
		return "sgd"
	}
	return fmt.Sprintf("Optimizer(%d)", int(o))
}

// stateBuffers returns how many parameter-sized state buffers o keeps.
func (o Optimizer) stateBuffers() int {
	switch o {
	case Adam:
		return 2
	case RMSProp, Nesterov:
		return 1
	}
	return 0
}
