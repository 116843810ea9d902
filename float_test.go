package gcp

import (
	"math"
	"testing"
)

// TestFiniteByComparison checks finite and positiveFinite at the edges of
// the float64 range, where a test of v−v would differ: the largest finite
// value, the smallest subnormal, both zeros, the infinities and NaN.
func TestFiniteByComparison(t *testing.T) {
	for _, c := range []struct {
		v                float64
		finite, positive bool
	}{
		{0, true, false},
		{math.Copysign(0, -1), true, false},
		{math.SmallestNonzeroFloat64, true, true},
		{-math.SmallestNonzeroFloat64, true, false},
		{math.MaxFloat64, true, true},
		{-math.MaxFloat64, true, false},
		{math.Inf(1), false, false},
		{math.Inf(-1), false, false},
		{math.NaN(), false, false},
	} {
		if got := finite(c.v); got != c.finite {
			t.Errorf("finite(%g) = %v, want %v", c.v, got, c.finite)
		}
		if got := positiveFinite(c.v); got != c.positive {
			t.Errorf("positiveFinite(%g) = %v, want %v", c.v, got, c.positive)
		}
	}
}
