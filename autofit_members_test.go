package gcp

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcpnet/gcp/internal/synth"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMemberSpansPredictAsMember checks that the parameters memberSpans
// moves out of an ensemble are a network of their own that computes what
// that member computes inside the ensemble, for every loss's heads and
// for one and two hidden layers, and that the members' spans cover the
// ensemble's buffer once.
func TestMemberSpansPredictAsMember(t *testing.T) {
	const members, rows = 3, 4
	for _, cfg := range []Config{
		{Inputs: 3, Hidden: []int{5}},
		{Inputs: 2, Hidden: []int{4, 3}, Loss: LossGaussianML},
		{Inputs: 2, Hidden: []int{3}, FixedAlpha: 2},
	} {
		cfg.Members, cfg.Seed = members, 7
		ens := mustModel[float64](t, cfg)
		one := cfg
		one.Members = 1
		x, _ := randomBatch[float64](3, rows, cfg.Inputs)
		ea := newActivations[float64](ens.lay, rows, false)
		copy(ea.x, x)
		forward(ens.k, ens.lay, ens.cfg.Activation, ens.params, ea, rows)
		seen := make([]int, len(ens.params))
		for k := range members {
			m := mustModel[float64](t, one)
			covered := 0
			ens.lay.memberSpans(k, func(at, to, n int) {
				if to != covered {
					t.Fatalf("%+v member %d: span at %d of the member, want %d", cfg, k, to, covered)
				}
				covered += n
				copy(m.params[to:to+n], ens.params[at:at+n])
				for i := at; i < at+n; i++ {
					seen[i]++
				}
			})
			if covered != len(m.params) {
				t.Fatalf("%+v member %d: spans cover %d of %d parameters", cfg, k, covered, len(m.params))
			}
			a := newActivations[float64](m.lay, rows, false)
			copy(a.x, x)
			forward(m.k, m.lay, m.cfg.Activation, m.params, a, rows)
			for h := range ens.lay.heads / members {
				// The same products of the same numbers, but a kernel may
				// sum a longer row in another order: 1e-12 is a few
				// hundred roundings of values of order 1.
				got, want := a.head(h, rows), ea.head(ens.lay.head(h, k), rows)
				for i := range got {
					if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
						t.Fatalf("%+v member %d head %d row %d: %v alone, %v in the ensemble", cfg, k, h, i, got[i], want[i])
					}
				}
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("%+v: parameter %d in %d members' spans, want 1", cfg, i, n)
			}
		}
	}
}

// TestSplitRunsTrainAsEnsemble checks that, without dropout, the members
// trained as networks of their own make the ensemble that trains as one
// network, bit for bit, epoch after epoch: its members are independent,
// and the split changes only how the work is divided.
func TestSplitRunsTrainAsEnsemble(t *testing.T) {
	s, win, split, runs := newTestSplitRuns(t, 3)
	defer runs.stop()
	whole, err := s.trainer(win, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := s.runOptions(false)
	o.track = false
	ref, err := newFitRun(whole, s.trainRows, rowSet[float32]{}, o)
	if err != nil {
		t.Fatal(err)
	}
	for e := 1; e <= 3; e++ {
		if err := ref.epoch(); err != nil {
			t.Fatal(err)
		}
		nll, err := runs.epoch(split.m.params)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ref.kept(), split.m.params) {
			t.Fatalf("epoch %d: the members trained apart differ from the ensemble trained whole", e)
		}
		// The ensemble's training NLL is its members' mean, per step; the
		// mean of the members' means differs only by rounding.
		if d := nll - ref.stats.TrainNLL; d > 1e-9 || d < -1e-9 {
			t.Fatalf("epoch %d: training NLL %v, want the ensemble's %v", e, nll, ref.stats.TrainNLL)
		}
	}
}

// newTestSplitRuns returns the search of an ensemble of 3 members on
// synthetic rows, its settings, a trainer of the ensemble and the split
// runs of its members on 2 workers, never beyond epoch last.
func newTestSplitRuns(t *testing.T, last int) (*search[float32], *candidate[float32], *Trainer[float32], *splitRuns[float32]) {
	t.Helper()
	x, y, _ := synth.SinOutliers(5, 600, 0.05, synth.Everywhere)
	s, err := newSearch(context.Background(), Config{Inputs: 1, Hidden: []int{8}, Members: 3, Seed: 4}, TrainConfig{Seed: 2, BatchSize: 16}, x, y, AutoOptions{Seed: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	win := &candidate[float32]{hyper: hyper{lr: 3e-3, hidden: []int{8}, weighting: 0.5}}
	ens, err := s.trainer(win, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := s.runOptions(false)
	o.track = false
	runs, err := newSplitRuns(ens.m, func() (*Trainer[float32], error) { return s.trainer(win, 1) }, s.trainRows, o, 2, 2, last)
	if err != nil {
		t.Fatal(err)
	}
	return s, win, ens, runs
}

// TestSplitRunsLeadAtMostOneEpoch checks that the members, which train
// ahead of the ensemble, stop at most memberLead epochs beyond the last
// it asked for, never beyond the last epoch it may ask for, and that stop
// leaves no goroutine behind.
func TestSplitRunsLeadAtMostOneEpoch(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, c := range []struct{ last, asked int }{{10, 2}, {3, 3}, {3, 1}} {
		_, _, _, runs := newTestSplitRuns(t, c.last)
		params := make([]float32, runs.lay.size)
		for range c.asked {
			if _, err := runs.epoch(params); err != nil {
				t.Fatal(err)
			}
		}
		runs.stop()
		for k, r := range runs.runs {
			if e := r.stats.Epoch; e < c.asked || e > min(c.asked+memberLead, c.last) {
				t.Errorf("last %d, %d epochs asked for: member %d stopped after epoch %d, want %d to %d", c.last, c.asked, k+1, e, c.asked, min(c.asked+memberLead, c.last))
			}
		}
	}
	// A worker counts until it has returned past its WaitGroup's Done:
	// give the exiting ones a moment; one that never exits fails.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	if after > before {
		t.Errorf("%d goroutines after stop, %d before", after, before)
	}
}

// TestSplitRunsMemberFailureFailsEpoch checks that a member whose step
// fails (a learning rate that makes its first update infinite) fails the
// ensemble's epoch with its error, naming it, while the others train on.
func TestSplitRunsMemberFailureFailsEpoch(t *testing.T) {
	_, _, _, runs := newTestSplitRuns(t, 5)
	defer runs.stop()
	runs.runs[1].t.opt.cfg.LearningRate = math.Inf(1)
	_, err := runs.epoch(make([]float32, runs.lay.size))
	if !errors.Is(err, ErrDiverged) || !strings.HasPrefix(err.Error(), "member 2: ") {
		t.Fatalf("epoch: %v, want member 2's ErrDiverged", err)
	}
}

// TestAutoFitHeldOutCalibrationWorkersBitIdentical checks that, where
// held-out rows calibrate and the ensemble's members train apart on the
// workers, the model and the result do not depend on how many workers
// there are, with dropout, whose masks each member draws on its own.
func TestAutoFitHeldOutCalibrationWorkersBitIdentical(t *testing.T) {
	x, y, _ := synth.SinOutliers(5, 2*minCalibrationRows*10, 0.05, synth.Everywhere)
	var got []*Model[float32]
	var res []AutoResult
	for _, workers := range []int{1, 2, 3} {
		m, r, err := AutoFit(Config{Inputs: 1, Hidden: []int{8}, Seed: 3, Members: 3}, TrainConfig{Seed: 3}, x, y,
			AutoOptions{MaxEpochs: 4, Seed: 9, Workers: workers, LearningRates: []float64{3e-3}, Dropouts: []float64{0.1}, ScaleWeightings: []float64{0.5}})
		if err != nil {
			t.Fatal(err)
		}
		if r.CVFolds != 0 || r.CVRows != minCalibrationRows {
			t.Fatalf("workers %d: %d folds and %d calibration rows, want held-out calibration on %d rows", workers, r.CVFolds, r.CVRows, minCalibrationRows)
		}
		got, res = append(got, m), append(res, r)
	}
	for i := 1; i < len(got); i++ {
		if !slices.Equal(got[0].params, got[i].params) || !cmp.Equal(res[0], res[i], cmpopts.EquateNaNs()) {
			t.Fatalf("workers change the result: %+v against %+v", res[0], res[i])
		}
	}
}
