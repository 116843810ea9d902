package onese

import (
	"slices"
	"testing"
)

// TestPick checks the one-standard-error rule on per-row NLLs made
// for it: a later model replaces an earlier one only when its mean NLL
// is lower by more than the standard error of their paired differences.
func TestPick(t *testing.T) {
	base := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	shift := func(v []float64, d ...float64) []float64 {
		out := slices.Clone(v)
		for i := range out {
			out[i] += d[i%len(d)]
		}
		return out
	}
	for _, tc := range []struct {
		name string
		nlls [][]float64
		want int
	}{
		// Differences −0.5 on every row: mean −0.5, standard error 0.
		{"clearly better", [][]float64{base, shift(base, -0.5)}, 1},
		// Differences −1.1 and +0.9 alternating: mean −0.1, sd 1.07, se
		// 0.38: within one standard error, the first stays.
		{"noise", [][]float64{base, shift(base, -1.1, 0.9)}, 0},
		{"first best", [][]float64{base, shift(base, 0.2)}, 0},
		{"failed model", [][]float64{base, nil, shift(base, -0.3)}, 2},
		// The third is best, by 0.1 over the second with differences
		// +0.6 and −0.4 (se 0.19): the earlier second is kept; the first
		// is 1.1 worse with se 0.19, and is not.
		{"earliest within", [][]float64{base, shift(base, -1), shift(base, -1.6, -0.6)}, 1},
	} {
		if got := Pick(tc.nlls); got != tc.want {
			t.Errorf("%s: Pick = %d, want %d", tc.name, got, tc.want)
		}
	}
}
