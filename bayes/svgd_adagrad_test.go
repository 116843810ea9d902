package bayes

import (
	"math"
	"testing"
)

// TestSVGDAdaGrad checks three steps of svgdAdaGrad against the update
// of the authors' code (bayesian_nn.py) written out with its constants:
// at the first step the history is φ², then 0.9·history + 0.1·φ², and θ
// moves by lr·φ/(10⁻⁶ + √history). The direction's components include
// one that is 0 throughout, which must leave its θ as it is, and one
// that changes sign. The two sides do the same few operations, 0.1 once
// as the constant 1 − 0.9: 1e-14 relative covers the rounding.
func TestSVGDAdaGrad(t *testing.T) {
	const lr = 0.05
	phis := [][]float64{{2, -0.5, 0, 1e-3}, {-1, 4, 0, 1e-3}, {0.5, 0.25, 0, -2}}
	theta := []float64{1, -2, 3, 0.5}
	want := append([]float64(nil), theta...)
	hist := make([]float64, len(theta))
	opt := svgdAdaGrad{hist: make([]float64, len(theta))}
	for step, phi := range phis {
		for i, g := range phi {
			if step == 0 {
				hist[i] = g * g
			} else {
				hist[i] = 0.9*hist[i] + 0.1*g*g
			}
			want[i] += lr * g / (1e-6 + math.Sqrt(hist[i]))
		}
		opt.step(theta, phi, lr)
		for i := range theta {
			if !close(theta[i], want[i], 1e-14) {
				t.Errorf("step %d, θ[%d] = %.17g, by the formula %.17g", step+1, i, theta[i], want[i])
			}
		}
	}
	if theta[2] != 3 {
		t.Errorf("a parameter whose direction is always 0 moved to %v", theta[2])
	}
}
