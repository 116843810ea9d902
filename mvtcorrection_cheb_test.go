package gcp

import (
	"math"
	"testing"
)

// TestMvtCorrectionChebMatchesSolver compares the interpolated c_d(ν)
// with mvtCorrection's (itself within 2.6e-14 of mpmath,
// TestMvtCorrectionMatchesMpmath) for d = 2…16 on 2,001 values of ν
// spaced evenly in ln ν from 2 to 2e5, and at +Inf. The bound 3e-13
// relative is the measured worst, 1.06e-13, with room
// for another platform's rounding; it is far below anything a prediction
// could show (its network's outputs carry more error than that).
func TestMvtCorrectionChebMatchesSolver(t *testing.T) {
	worst := 0.0
	for d := 2; d <= mvtMaxDim; d++ {
		for i := 0; i <= 2000; i++ {
			nu := 2 * math.Pow(1e5, float64(i)/2000)
			want, _ := mvtCorrection(d, nu)
			got := mvtCorrectionCheb(d, nu)
			rel := math.Abs(got-want) / want
			worst = max(worst, rel)
			if rel > 3e-13 {
				t.Errorf("d=%d ν=%v: %.17g, solver %.17g (rel %.2g)", d, nu, got, want, rel)
			}
		}
		if c := mvtCorrectionCheb(d, math.Inf(1)); c != 1 {
			t.Errorf("d=%d ν=+Inf: %v, want 1", d, c)
		}
	}
	t.Logf("worst relative error %.2g", worst)
}
