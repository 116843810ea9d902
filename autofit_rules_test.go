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
	// One row whose squared error explodes (a log-normal mean on a row of
	// large variance): the paired mean of the differences, 1000/8, is
	// one standard error of them, so the one-SE test lets it by; the
	// RMSE, √(1036/36) = 5.4 times the kept model's, does not.
	// regression: oes97's Hand Packers kept a log model of cross-fitted
	// RMSE 6.4e31 against 2,148.
	explodes := slices.Clone(base)
	explodes[3] += 1000
	if transformReplaces(base, base, clearlyLower, explodes) {
		t.Error("transformReplaces kept a transform whose RMSE is 5.4 times the kept model's")
	}
	// Twice the RMSE is the most it accepts: the kept model's squared
	// errors sum to 36, so a row 107 higher (a sum of 143, an RMSE ratio
	// of 1.993) is kept, one 109 higher (145, 2.007) refused; either
	// difference's paired mean is one standard error of them.
	for _, tc := range []struct {
		extra float64
		want  bool
	}{{107, true}, {109, false}} {
		sq := slices.Clone(base)
		sq[3] += tc.extra
		if got := transformReplaces(base, base, clearlyLower, sq); got != tc.want {
			t.Errorf("one row's squared error %v higher: transformReplaces = %v, want %v", tc.extra, got, tc.want)
		}
	}
	// Scores of other rows (a calibration fold that failed in one run
	// only) do not compare: the kept model stays.
	if transformReplaces(base, base, clearlyLower[1:], base[1:]) {
		t.Error("transformReplaces compared scores of different rows")
	}
}
