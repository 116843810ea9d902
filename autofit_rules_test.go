package gcp

import (
	"slices"
	"testing"
)

// TestKeepRules checks the two keep-or-reject rules on per-row scores
// made for them, each difference's mean and standard error worked by
// hand. A costlier architecture replaces the kept model when its NLL is
// clearly lower, or its squared error is and its NLL not clearly higher;
// another target transform only when its NLL is clearly lower and its
// squared error not clearly higher, on the same rows.
func TestKeepRules(t *testing.T) {
	base := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	shift := func(d ...float64) []float64 {
		out := slices.Clone(base)
		for i := range out {
			out[i] += d[i%len(d)]
		}
		return out
	}
	clearlyLower := shift(-0.5)     // differences −0.5 on every row: se 0
	clearlyHigher := shift(0.5)     // +0.5, se 0
	noise := shift(-1.1, 0.9)       // mean −0.1, se 0.38: within one se
	noiseHigher := shift(1.1, -0.9) // mean +0.1, se 0.38
	for _, tc := range []struct {
		name                    string
		nllB, sqB               []float64
		architecture, transform bool
	}{
		{"NLL clearly lower", clearlyLower, base, true, true},
		{"NLL clearly lower, squared error within noise", clearlyLower, noiseHigher, true, true},
		{"NLL clearly lower, squared error clearly higher", clearlyLower, clearlyHigher, true, false},
		{"squared error clearly lower, NLL within noise", noiseHigher, clearlyLower, true, false},
		{"squared error clearly lower, NLL the same", base, clearlyLower, true, false},
		{"squared error clearly lower, NLL clearly higher", clearlyHigher, clearlyLower, false, false},
		{"both within noise", noise, noise, false, false},
		{"both the same", base, base, false, false},
		{"NLL within noise, squared error higher", noise, clearlyHigher, false, false},
	} {
		if got := replaces(base, base, tc.nllB, tc.sqB); got != tc.architecture {
			t.Errorf("%s: replaces = %v, want %v", tc.name, got, tc.architecture)
		}
		if got := transformReplaces(base, base, tc.nllB, tc.sqB); got != tc.transform {
			t.Errorf("%s: transformReplaces = %v, want %v", tc.name, got, tc.transform)
		}
	}
	// Scores of other rows (a calibration fold that failed in one run
	// only) do not compare: the kept model stays.
	if transformReplaces(base, base, clearlyLower[1:], base[1:]) {
		t.Error("transformReplaces compared scores of different rows")
	}
}
