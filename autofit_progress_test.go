package gcp

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/synth"
)

// TestAutoFitProgress checks what AutoFit reports through Progress: the
// search's three rounds, then for an ensemble each epoch of its run, then
// the calibration folds' epochs up to five times the returned epoch, each
// phase's Done never going back, all of it on the goroutine that called
// AutoFit.
func TestAutoFitProgress(t *testing.T) {
	caller := goroutineID()
	x, y, _ := synth.SinOutliers(6, 200, 0.05, synth.Everywhere)
	for _, members := range []int{1, 2} {
		var rounds []AutoRound
		_, res, err := AutoFit(Config{Inputs: 1, Hidden: []int{8}, Seed: 4, Members: members}, TrainConfig{Seed: 4}, x, y,
			AutoOptions{MaxEpochs: 27, Seed: 5, Workers: 2, LearningRates: []float64{1e-3, 3e-3}, Dropouts: []float64{0},
				Progress: func(r AutoRound) {
					if id := goroutineID(); id != caller {
						t.Errorf("Progress called on goroutine %s, AutoFit on %s", id, caller)
					}
					rounds = append(rounds, r)
				}})
		if err != nil {
			t.Fatal(err)
		}
		want := []AutoPhase{PhaseSearch, PhaseEnsemble, PhaseCalibration}
		if members == 1 {
			want = []AutoPhase{PhaseSearch, PhaseCalibration}
		}
		var phases []AutoPhase
		last := map[AutoPhase]AutoRound{}
		for i, r := range rounds {
			if len(phases) == 0 || phases[len(phases)-1] != r.Phase {
				phases = append(phases, r.Phase)
			}
			if p, ok := last[r.Phase]; ok && (r.Done < p.Done || r.Total != p.Total) {
				t.Errorf("members %d: round %d %+v goes back from %+v", members, i, r, p)
			}
			last[r.Phase] = r
		}
		if len(phases) != len(want) {
			t.Fatalf("members %d: phases %v, want %v", members, phases, want)
		}
		for i := range want {
			if phases[i] != want[i] {
				t.Fatalf("members %d: phases %v, want %v", members, phases, want)
			}
		}
		if s := last[PhaseSearch]; s.Done != 3 || s.Total != 3 || s.Round != 3 {
			t.Errorf("members %d: last search round %+v, want 3 of 3", members, s)
		}
		if members > 1 {
			if e := last[PhaseEnsemble]; e.Done != res.EpochsRun || e.Total != 27 {
				t.Errorf("members %d: last ensemble epoch %+v, want %d of at most 27", members, e, res.EpochsRun)
			}
		}
		if c := last[PhaseCalibration]; c.Done != c.Total || c.Total != calibrationFolds*max(1, res.Epoch) {
			t.Errorf("members %d: last calibration round %+v, want %d of %d fold epochs", members, c, calibrationFolds*res.Epoch, calibrationFolds*res.Epoch)
		}
	}
}

// goroutineID returns the number of the calling goroutine, from the first
// line of its stack trace ("goroutine 7 [running]:").
func goroutineID() string {
	var buf [64]byte
	f := strings.Fields(string(buf[:runtime.Stack(buf[:], false)]))
	return f[1]
}
