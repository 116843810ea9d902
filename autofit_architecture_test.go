package gcp

import (
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

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
