package synth

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCubic(t *testing.T) {
	x, y := Cubic(3, 4000)
	if len(x) != 4000 || len(y) != 4000 {
		t.Fatalf("lengths %d, %d", len(x), len(y))
	}
	var neg int
	var ss float64
	for i, xi := range x {
		if a := math.Abs(float64(xi)); a < 2 || a > 4 {
			t.Fatalf("x = %v outside [-4, -2] ∪ [2, 4]", xi)
		}
		if xi < 0 {
			neg++
		}
		r := (float64(y[i]) - CubicMean(float64(xi))) / CubicSD
		ss += r * r
	}
	// Both halves equally likely: 2000 ± 32 (1 sd); the residuals have
	// unit variance, whose estimate from 4000 draws has sd 0.022.
	if neg < 1870 || neg > 2130 {
		t.Errorf("%d of 4000 inputs negative, want about half", neg)
	}
	if v := ss / 4000; math.Abs(v-1) > 0.09 {
		t.Errorf("residual variance %v in units of CubicSD², want 1", v)
	}
	x2, y2 := Cubic(3, 4000)
	if !slices.Equal(x, x2) || !slices.Equal(y, y2) {
		t.Error("the same seed drew different data")
	}
}

// TestPickFrequencies draws 100,000 indices of weights 1:2:0:7 and checks
// each share against its probability within 4 binomial standard errors
// (at most 0.0058 here); the index of weight 0 must never come.
func TestPickFrequencies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	weights := []float64{1, 2, 0, 7}
	const n = 100000
	var count [4]int
	for range n {
		count[Pick(r, weights)]++
	}
	for k, w := range weights {
		p := w / 10
		if got := float64(count[k]) / n; math.Abs(got-p) > 4*math.Sqrt(p*(1-p)/n) || (w == 0 && count[k] > 0) {
			t.Errorf("index %d: share %.4f, want %.4f", k, got, p)
		}
	}
}
