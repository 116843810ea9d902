package bayes

import (
	"math/rand/v2"
	"testing"
)

// svgdBenchTrainer returns a trainer with initialized particles on
// random standardized data of rows rows and the paper's UCI shape for
// Boston (13 features, 50 hidden units, 20 particles, minibatch 100).
func svgdBenchTrainer(b *testing.B, rows int) *svgdTrainer {
	const d = 13
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, rows*d), make([]float64, rows)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = r.NormFloat64()
	}
	cfg := SVGDConfig{Inputs: d}.withDefaults()
	stack, err := cfg.validate()
	if err != nil {
		b.Fatal(err)
	}
	t, err := newSVGDTrainer(&SVGD{cfg: cfg, stack: stack}, x, y)
	if err != nil {
		b.Fatal(err)
	}
	if err := t.initParticles(rand.New(rand.NewPCG(3, 4))); err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkSVGDStep measures one SVGD iteration on Boston's shape, and
// its parts: the log posterior's gradient (the Stack's forward and
// backward passes), the Stein direction, and the AdaGrad update.
func BenchmarkSVGDStep(b *testing.B) {
	t := svgdBenchTrainer(b, 480)
	b.Run("step", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := t.step(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("score", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := t.post.score(t.theta, t.xb, t.yb, len(t.y), t.score); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("direction", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			t.stein.direction(t.theta, t.score, t.phi)
		}
	})
	b.Run("adagrad", func(b *testing.B) {
		b.ReportAllocs()
		theta := append([]float64(nil), t.theta...)
		for i := 0; i < b.N; i++ {
			t.opt.step(theta, t.phi, 1e-9)
		}
	})
}
