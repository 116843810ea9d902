package gcp

import (
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

// TestOneSEPick checks the one-standard-error rule on per-row NLLs made
// for it: a later model replaces an earlier one only when its mean NLL
// is lower by more than the standard error of their paired differences.
func TestOneSEPick(t *testing.T) {
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
		if got := oneSEPick(tc.nlls); got != tc.want {
			t.Errorf("%s: oneSEPick = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestAutoFitArchitectures checks the architecture stage on the paper's
// sine data: a head of one hidden unit cannot follow sin 3x, so the
// second architecture, of 16 units, must replace it; and one
// architecture is the whole grid's.
func TestAutoFitArchitectures(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 400, 0, synth.Everywhere)
	opt := AutoOptions{MaxEpochs: 60, Seed: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}}
	for _, tc := range []struct {
		archs [][]int
		want  []int
		cands int
	}{
		{[][]int{{1}, {16}}, []int{16}, 2},
		{[][]int{{16}}, []int{16}, 1},
	} {
		opt.Architectures = tc.archs
		_, res, err := AutoFit(Config{Inputs: 1, Seed: 1, Members: 1}, TrainConfig{Seed: 1}, x, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Hidden, tc.want) || res.Candidates != tc.cands {
			t.Errorf("architectures %v: chose %v of %d candidates, want %v of %d", tc.archs, res.Hidden, res.Candidates, tc.want, tc.cands)
		}
	}
}
