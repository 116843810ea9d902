package bayes

import (
	"math"
	"slices"
	"testing"
)

// TestSVGDInitParticles checks initParticles on 5 particles of 3 inputs
// and 4 hidden units, on 30 training rows: every bias is exactly 0 (in
// gcp.Stack.Net's order a particle is 3·4 weights, 4 biases, 4·1
// weights, 1 bias, then log γ and log λ), every weight was drawn (none
// is 0), and, as there are fewer than 1000 rows, the subsample that sets
// γ is all of them: log γ must be −log of the particle's mean squared
// residual over the rows, computed here by svgdNetLoop. The sums of 30
// squares in another order differ by a few ulps: 1e-12 absolute on a
// log of order 1. Then setNoise on rows the networks fit exactly (all
// weights 0, targets 0) must keep each γ.
func TestSVGDInitParticles(t *testing.T) {
	const particles, d = 5, 3
	tr := svgdTestTrainer(t, particles, 30)
	p := tr.post.weights
	if p != 3*4+4+4*1+1 {
		t.Fatalf("%d parameters per network, want 21", p)
	}
	rows := len(tr.y)
	for k := range particles {
		row := tr.theta[k*(p+2) : (k+1)*(p+2)]
		for j, v := range row[:p] {
			bias := (j >= 12 && j < 16) || j == 20
			if bias != (v == 0) {
				t.Errorf("particle %d, parameter %d (bias %v) = %v", k, j, bias, v)
			}
		}
		var mse float64
		for i := range rows {
			r := svgdNetLoop(row[:p], tr.x[i*d:(i+1)*d], []int{4}) - tr.y[i]
			mse += r * r / float64(rows)
		}
		if math.Abs(row[p]+math.Log(mse)) > 1e-12 {
			t.Errorf("particle %d: log γ = %.17g, −log(mean squared residual) %.17g", k, row[p], -math.Log(mse))
		}
		if !finite(row[p+1]) {
			t.Errorf("particle %d: log λ = %v", k, row[p+1])
		}
	}
	before := append([]float64(nil), tr.theta...)
	for k := range particles {
		clear(tr.theta[k*(p+2) : k*(p+2)+p])
		copy(before[k*(p+2):k*(p+2)+p], tr.theta[k*(p+2):k*(p+2)+p])
	}
	if err := tr.setNoise(tr.x, make([]float64, rows)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.theta, before) {
		t.Error("setNoise changed γ where every residual is 0")
	}
}
