package gcp

import (
	"math"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/longtest"
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

// TestCalibratedIntervalCoverage checks the product's promise on the
// paper's heteroscedastic data with 5% gross outliers in training (Sec.
// 6.3: sd 0.5cos⁴x, outliers from U(−4, 16)): AutoFit with its defaults,
// one network, then the calibrated intervals' coverage of 20,000 clean
// test points at 80, 90 and 95%, averaged over three trainings on three
// draws of the data. With 20,000 points the sampling error of a coverage
// is at most 0.35 points, so what varies is the model: over four draws
// (seeds 1–4, with and without ScaleWeighting) one training's coverage at
// 80% ranged from 0.80 to 0.85, sd about 2 points, and the mean of three
// has an sd of about 1.2. The calibration fits one variance factor, by
// likelihood, to predictions whose variance shape is slightly off, which
// leaves the interval a little conservative at the lower levels: measured
// +2.4, +1.6 and +0.9 points at 80, 90 and 95% on average. The bounds,
// ±3.5, ±2.5 and ±1.5 points, hold that with about 1.2 sd to spare and
// fail an interval that is miscalibrated by the outliers (the Student-t
// intervals, whose α sits near its floor, cover 0.87, 0.98 and 0.999,
// which the test logs).
func TestCalibratedIntervalCoverage(t *testing.T) {
	longtest.Skip(t)
	levels := []float64{0.8, 0.9, 0.95}
	tol := []float64{0.035, 0.025, 0.015}
	mean := make([]float64, len(levels))
	tx, ty, _ := synth.SinOutliers(12, 20000, 0, synth.Everywhere)
	const draws = 3
	for seed := uint64(1); seed <= draws; seed++ {
		x, y, _ := synth.SinOutliers(11+100*(seed-1), 2000, 0.05, synth.Everywhere)
		m, res, err := AutoFit(Config{Inputs: 1, Seed: seed, Members: 1}, TrainConfig{Seed: seed}, x, y, AutoOptions{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("draw %d: AutoFit %+v", seed, res)
		preds, err := m.predictAll(tx)
		if err != nil {
			t.Fatal(err)
		}
		for j, level := range levels {
			var cal, st int
			for i, p := range preds {
				v := float64(ty[i])
				if lo, hi, _ := p.CalibratedInterval(level); lo <= v && v <= hi {
					cal++
				}
				if lo, hi, _ := p.Interval(level); lo <= v && v <= hi {
					st++
				}
			}
			c := float64(cal) / float64(len(ty))
			mean[j] += c / draws
			t.Logf("draw %d, level %.2f: calibrated coverage %.4f, Student-t %.4f", seed, level, c, float64(st)/float64(len(ty)))
		}
	}
	for j, level := range levels {
		if math.Abs(mean[j]-level) > tol[j] {
			t.Errorf("level %.2f: mean calibrated coverage %.4f, want within ±%g", level, mean[j], tol[j])
		}
	}
}

// TestRunnersUp: the candidates the ensemble falls back on are the last
// round's that scored, best held-out NLL first, the winner left out; the
// grid's winner comes first where the architecture stage replaced it,
// and a candidate that failed or never scored is not among them.
func TestRunnersUp(t *testing.T) {
	scored := func(lr, nll float64) *candidate[float64] {
		c := &candidate[float64]{hyper: hyper{lr: lr}, run: &fitRun[float64]{}}
		c.run.stats.BestEpoch, c.run.stats.BestValNLL = 3, nll
		return c
	}
	a, b, c, d := scored(1, 0.5), scored(2, 0.2), scored(3, 0.9), scored(4, 0.3)
	failed := scored(5, 0.1)
	failed.err = ErrDiverged
	never := &candidate[float64]{hyper: hyper{lr: 6}}
	last := []*candidate[float64]{a, b, c, d, failed, never}
	lrs := func(cs []*candidate[float64]) (out []float64) {
		for _, c := range cs {
			out = append(out, c.lr)
		}
		return out
	}
	// b won the grid and kept it: the rest by NLL, d 0.3, a 0.5, c 0.9.
	if got := lrs(runnersUp(b, b, last)); !slices.Equal(got, []float64{4, 1, 3}) {
		t.Errorf("grid winner kept: runners-up %v, want [4 1 3]", got)
	}
	// An architecture of b's settings replaced b: b first, then the rest.
	arch := scored(7, 0.1)
	if got := lrs(runnersUp(b, arch, last)); !slices.Equal(got, []float64{2, 4, 1, 3}) {
		t.Errorf("grid winner replaced: runners-up %v, want [2 4 1 3]", got)
	}
}

// TestSlowerRates: after the runners-up, the ensemble falls back on the
// winner's settings at a third, a ninth and a twenty-seventh of its
// learning rate, its other settings unchanged and untouched, as fresh
// candidates with no run of their own.
func TestSlowerRates(t *testing.T) {
	win := &candidate[float64]{hyper: hyper{lr: 0.003, dropout: 0.4, weighting: 0.5, hidden: []int{50, 50}}, run: &fitRun[float64]{}}
	got := slowerRates(win)
	if len(got) != 3 {
		t.Fatalf("%d slower rates, want 3", len(got))
	}
	for i, c := range got {
		// Successive division rounds at most once a step: 3 ulps.
		want := 0.003 / math.Pow(3, float64(i+1))
		if math.Abs(c.lr-want) > 3*math.Abs(want)*0x1p-52 || c.dropout != 0.4 || c.weighting != 0.5 || !slices.Equal(c.hidden, []int{50, 50}) || c.run != nil {
			t.Errorf("fallback %d: %v (run %v), want lr %g and the winner's other settings", i, c.hyper, c.run, want)
		}
	}
	if win.lr != 0.003 {
		t.Errorf("the winner's rate changed to %g", win.lr)
	}
}
