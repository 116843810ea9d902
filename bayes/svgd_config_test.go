package bayes

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestSVGDConfigDefaults checks withDefaults against the documented
// defaults, the authors' values written out (M = 20, n_hidden = 50,
// batch_size = 100, master_stepsize = 1e-3, and 3000 iterations), for a
// nil and for an empty Hidden alike, and that the caller's Hidden is
// copied; and that validate builds the particles' networks: for 3 inputs
// and 50 hidden units a network has (3+1)·50 + (50+1)·1 = 251
// parameters, 20 of them 5020.
func TestSVGDConfigDefaults(t *testing.T) {
	for _, hidden := range [][]int{nil, {}} {
		c := SVGDConfig{Inputs: 3, Hidden: hidden}.withDefaults()
		if len(c.Hidden) != 1 || c.Hidden[0] != 50 || c.Particles != 20 || c.BatchSize != 100 || c.LearningRate != 1e-3 || c.Iterations != 3000 {
			t.Errorf("Hidden %#v and zero fields give %+v; want Hidden [50], 20 particles, batches of 100, rate 1e-3, 3000 iterations", hidden, c)
		}
		stack, err := c.validate()
		if err != nil {
			t.Fatal(err)
		}
		if stack.Params() != 5020 {
			t.Errorf("the defaults' Stack has %d parameters, want 20 × 251 = 5020", stack.Params())
		}
	}
	if !hiddenCopied(func(h []int) []int { return SVGDConfig{Inputs: 1, Hidden: h}.withDefaults().Hidden }) {
		t.Error("a change to the caller's Hidden reached the configuration")
	}
}

// TestSVGDConfigLimits checks validate at both sides of each documented
// limit: Particles 1..gcp.MaxMembers (20), LearningRate in (0, 1],
// Iterations 1..2²⁴, BatchSize 1..2¹⁶; an error wraps gcp.ErrConfig and
// names the field.
func TestSVGDConfigLimits(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(*SVGDConfig)
		ok    bool
	}{
		{"Particles", func(c *SVGDConfig) { c.Particles = 20 }, true},
		{"Particles", func(c *SVGDConfig) { c.Particles = 21 }, false},
		{"LearningRate", func(c *SVGDConfig) { c.LearningRate = 1 }, true},
		{"LearningRate", func(c *SVGDConfig) { c.LearningRate = math.Nextafter(1, 2) }, false},
		{"Iterations", func(c *SVGDConfig) { c.Iterations = 1 << 24 }, true},
		{"Iterations", func(c *SVGDConfig) { c.Iterations = 1<<24 + 1 }, false},
		{"BatchSize", func(c *SVGDConfig) { c.BatchSize = 1 << 16 }, true},
		{"BatchSize", func(c *SVGDConfig) { c.BatchSize = 1<<16 + 1 }, false},
	} {
		cfg := SVGDConfig{Inputs: 2, Hidden: []int{3}}.withDefaults()
		c.set(&cfg)
		_, err := cfg.validate()
		if c.ok && err != nil {
			t.Errorf("%+v: %v, want valid", cfg, err)
		}
		if !c.ok && (!errors.Is(err, gcp.ErrConfig) || !strings.Contains(err.Error(), c.field)) {
			t.Errorf("%+v: %v, want gcp.ErrConfig naming %s", cfg, err, c.field)
		}
	}
}
