package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMultiTallyCoverage: the tally's joint coverages are the shares of
// rows whose calibrated Mahalanobis distance lies within the radius of
// the calibrated t of two targets, the closed form pairRadius2 (checked
// by Monte Carlo in TestPairRadiusCoversMonteCarlo), and each
// target's cov95-cal the share within Φ⁻¹(0.975) calibrated standard
// deviations of the mean; its N and RMSE are the rows'.
func TestMultiTallyCoverage(t *testing.T) {
	dir, model, _ := trainTwoTargets(t)
	data := twoTargetCSV(t, dir, 300, 5)
	preds, tab := libraryPredictions(t, model, data)
	tally := newMultiTally([]string{"a", "b"})
	joint, cov := make([]float64, len(jointLevels)), make([]float64, 2)
	var sq float64
	for i := range preds {
		p := &preds[i]
		y := []float64{must(tab.Number(i, 2)), must(tab.Number(i, 3))}
		tally.add(p, y)
		m := p.CalibratedMahalanobis(y)
		for k, l := range jointLevels {
			if m*m <= pairRadius2(p.RegionNu(), l) {
				joint[k]++
			}
		}
		for j := range cov {
			q := p.Marginal(j)
			if math.Abs(y[j]-q.Mean) <= 1.959963984540054*math.Sqrt(q.VarCorrected) {
				cov[j]++
			}
		}
		sq += (p.Mean(1) - y[1]) * (p.Mean(1) - y[1])
	}
	// Counts compare exactly: a row within rounding of a region's
	// boundary, where the library's quantile and the closed form could
	// disagree, has probability about 1e-13 here.
	for k := range joint {
		if tally.joint[k] != joint[k] {
			t.Errorf("joint region %v holds %v rows, want %v", jointLevels[k], tally.joint[k], joint[k])
		}
	}
	for j := range cov {
		if tally.cov[j] != cov[j] {
			t.Errorf("target %d: %v rows inside the calibrated 95%% interval, want %v", j, tally.cov[j], cov[j])
		}
	}
	// 1e-12 relative: the same sum in the same order, up to rounding.
	if got := math.Sqrt(tally.sq[1] / float64(tally.rows)); tally.rows != 300 || math.Abs(got-math.Sqrt(sq/300)) > 1e-12*got {
		t.Errorf("N %d and RMSE:b %v, want 300 and %v", tally.rows, got, math.Sqrt(sq/300))
	}
}

// TestEvalSeveralTargetsLeavesUnseenRowsOut: rows with a code no training
// row had (a level never seen, a text cell missing where training had
// none) are left out of the densities, intervals and regions, as for one
// target: NLL:t, cov95-cal:t, joint-NLL and the joint coverages equal
// those of the file without them, and unseen-rows counts them; the
// rows' errors still count in N and RMSE.
func TestEvalSeveralTargetsLeavesUnseenRowsOut(t *testing.T) {
	b, err := os.ReadFile(streamFile("test_multi.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, "Madrid") && !strings.Contains(line, "Berlin") && !strings.HasPrefix(line, "r11,") { // r11 has no city
			kept = append(kept, line)
		}
	}
	known := filepath.Join(t.TempDir(), "known.csv")
	if err := os.WriteFile(known, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := func(data string) map[string]string {
		out, _, err := gcpRun("eval", "-model", streamFile("multi.gcpm"), "-data", data)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			k, v, _ := strings.Cut(line, " ")
			got[k] = v
		}
		return got
	}
	all, sub := lines(streamFile("test_multi.csv")), lines(known)
	if all["N"] != "30" || sub["N"] != "27" || all["unseen-rows"] != "3" || sub["unseen-rows"] != "" || all["RMSE:a"] == sub["RMSE:a"] {
		t.Errorf("N %s and %s, unseen-rows %q and %q, RMSE:a %s and %s: want 30 and 27, 3 and none, RMSEs apart",
			all["N"], sub["N"], all["unseen-rows"], sub["unseen-rows"], all["RMSE:a"], sub["RMSE:a"])
	}
	for _, k := range []string{"NLL:a", "NLL:b", "cov95-cal:a", "cov95-cal:b", "joint-NLL", "joint-cov50-cal", "joint-cov90-cal", "joint-cov95-cal"} {
		if all[k] != sub[k] {
			t.Errorf("%s: %s with the unseen rows, %s without", k, all[k], sub[k])
		}
	}
}
