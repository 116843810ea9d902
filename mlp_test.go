package gcp

import (
	"math"
	"testing"
)

// TestDropoutMask checks the mask's statistics: a share p of zeros and, by
// inverted dropout, a mean of 1. Over n = 200000 units the share of zeros
// has standard deviation √(p(1−p)/n) ≈ 0.001 for p = 0.3; 5 of those
// bound it, and the mean 1/(1−p)·(share kept) inherits the same bound.
func TestDropoutMask(t *testing.T) {
	const p, n = 0.3, 200000
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Dropout: p, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 1, Seed: 3})
	mask := make([]float32, n)
	tr.drawMask(mask)
	var zeros int
	var sum float64
	for _, v := range mask {
		if v == 0 {
			zeros++
		}
		sum += float64(v)
	}
	tol := 5 * math.Sqrt(p*(1-p)/n)
	if share := float64(zeros) / n; math.Abs(share-p) > tol {
		t.Errorf("dropped share %.4f, want %.2f ± %.4f", share, p, tol)
	}
	if mean := sum / n; math.Abs(mean-1) > tol/(1-p) {
		t.Errorf("mask mean %.4f, want 1 ± %.4f", mean, tol/(1-p))
	}
}
