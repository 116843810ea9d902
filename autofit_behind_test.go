package gcp

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

// TestBehindComparesWithTheLeadAtTheSameEpoch checks the rule on
// hand-made learning curves, with a patience of 20 (a stall of 2 epochs)
// and a lead whose best held-out NLL is 2 for its first ten epochs and 1
// for its last ten.
func TestBehindComparesWithTheLeadAtTheSameEpoch(t *testing.T) {
	const patience = 20
	var lead []float64
	for e := 1; e <= 20; e++ {
		lead = append(lead, map[bool]float64{true: 2, false: 1}[e <= 10])
	}
	inf := math.Inf(1)
	for _, tc := range []struct {
		name             string
		lead             []float64
		best             float64
		epoch, bestEpoch int
		want             bool
	}{
		{"behind the lead's 2 at epoch 5 by 0.2, stalled 2 epochs", lead, 2.2, 5, 3, true},
		{"behind its final 1 but within 0.1 of its 2 at epoch 5", lead, 2.05, 5, 3, false},
		{"behind by 0.2 but improved an epoch ago", lead, 2.2, 5, 4, false},
		{"past the lead's last epoch: behind its final 1 by 0.2", lead, 1.2, 30, 20, true},
		{"past the lead's last epoch: within 0.1 of its final 1", lead, 1.05, 30, 20, false},
		{"never scored", lead, inf, 5, 0, true},
		{"a lead that never scored", []float64{inf, inf}, 9, 5, 3, false},
		{"no lead", nil, 9, 5, 3, false},
	} {
		if got := behind(tc.lead, tc.best, tc.epoch, tc.bestEpoch, patience); got != tc.want {
			t.Errorf("%s: behind = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestArchitectureStopsWhenClearlyBehind trains, after a lead of 16
// hidden units on the paper's sine data, a head of one unit, which
// cannot follow sin 3x, once following the lead's learning curve and
// once alone: the follower must stop at the first epoch at which the
// lone run's own curve was more than behindMargin above the lead's at
// that epoch and had not improved for the stall (a tenth of the
// patience), found here by a loop over the two curves, and must have
// trained exactly as the lone run did until then.
func TestArchitectureStopsWhenClearlyBehind(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 400, 0, synth.Everywhere)
	opt := AutoOptions{MaxEpochs: 200, Seed: 2, LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{16}, {1}}}
	s, err := newSearch(context.Background(), Config{Inputs: 1, Seed: 1, Members: 1}, TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	lead := s.cands[0]
	s.train([]*candidate[float32]{lead}, s.maxEpochs)
	h := lead.hyper
	h.hidden = []int{1}
	follow, alone := &candidate[float32]{hyper: h, lead: lead.curve}, &candidate[float32]{hyper: h}
	s.train([]*candidate[float32]{follow, alone}, s.maxEpochs)
	if follow.err != nil || alone.err != nil {
		t.Fatal(follow.err, alone.err)
	}
	stall := s.patience / 10
	want, bestEpoch := len(alone.curve), 0
	for e := 1; e <= len(alone.curve); e++ {
		if e == 1 || alone.curve[e-1] < alone.curve[e-2] {
			bestEpoch = e
		}
		lead := lead.curve[min(e, len(lead.curve))-1]
		if e-bestEpoch >= stall && alone.curve[e-1] > lead+0.1 {
			want = e
			break
		}
	}
	if want == len(alone.curve) {
		t.Fatalf("the one-unit head was never clearly behind the lead (curves %v and %v): the test proves nothing", alone.curve, lead.curve)
	}
	if got := follow.run.stats.Epoch; got != want || !follow.done {
		t.Errorf("the follower stopped at epoch %d (done %v), want %d; alone it ran %d", got, follow.done, want, len(alone.curve))
	}
	if !slices.Equal(follow.curve, alone.curve[:min(want, len(follow.curve))]) {
		t.Errorf("the follower's curve %v is not the lone run's %v up to its stop", follow.curve, alone.curve[:want])
	}
}

// TestAutoFitArchitectureStageWorkersBitIdentical checks that the
// architecture stage, whose candidates may stop as behind the winner,
// returns the same model whatever the workers.
func TestAutoFitArchitectureStageWorkersBitIdentical(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 300, 0, synth.Everywhere)
	opt := AutoOptions{MaxEpochs: 60, Seed: 2, LearningRates: []float64{1e-3, 3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{16}, {1}, {2}}}
	var got []*Model[float32]
	for _, workers := range []int{1, 2, 3} {
		opt.Workers = workers
		m, _, err := AutoFit(Config{Inputs: 1, Seed: 1, Members: 1}, TrainConfig{Seed: 1}, x, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	for i := 1; i < len(got); i++ {
		if !slices.Equal(got[0].params, got[i].params) {
			t.Fatalf("workers change the model")
		}
	}
}
