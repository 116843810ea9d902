package synth

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGammaMoments: 200,000 draws of the gamma law of shape a have
// mean a and variance a, within 4 standard errors (the sample variance's
// is √((μ₄ − σ⁴)/n) with the law's central fourth moment μ₄ = 3a² + 6a),
// for a below and above 1, the two branches.
func TestGammaMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200000
	for _, a := range []float64{0.3, 2.5} {
		var s, s2 float64
		for range n {
			x := Gamma(r, a)
			s += x / n
			s2 += x * x / n
		}
		v := s2 - s*s
		if math.Abs(s-a) > 4*math.Sqrt(a/n) || math.Abs(v-a) > 4*math.Sqrt((2*a*a+6*a)/n) {
			t.Errorf("shape %v: mean %v, variance %v, want %v and %v", a, s, v, a, a)
		}
	}
}
