package main

import (
	"math"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/metrics"
)

// TestEvalTallyChunks checks that a tally of rows added in chunks of
// every size holds the measures that the functions over all of them
// return, to the bit: the same sums in the same order.
func TestEvalTallyChunks(t *testing.T) {
	m, err := loadModel(streamFile("mixed.gcpm"))
	if err != nil {
		t.Fatal(err)
	}
	var preds []gcp.Prediction
	var y []float64
	for i := range 23 {
		v := 0.5 + float64(i%5)
		preds = append(preds, gcp.Prediction{Mean: float64(i), Var: 2 * v, VarCorrected: v, Alpha: 3, Beta: 2 * v, Nu: 1, Members: 1})
		y = append(y, float64(i)+math.Sin(float64(i)))
	}
	nll, _ := metrics.MeanNLL(preds, y, metrics.Calibrated)
	crps, _ := metrics.MeanCRPS(preds, y, metrics.StudentT)
	pit, _ := metrics.PIT(preds, y, metrics.StudentT)
	cover, _ := metrics.CentralIntervals(preds, y, 0.9, conformal{m})
	for _, n := range []int{1, 4, 23} {
		tl := newEvalTally(m)
		for i := 0; i < len(y); i += n {
			if err := tl.add(preds[i:min(i+n, len(y))], y[i:min(i+n, len(y))]); err != nil {
				t.Fatal(err)
			}
		}
		// Rows 1, 0 and 2 are the calibrated, Student-t and conformal
		// predictives; level 2 is 0.9.
		if got := tl.nll[1].Value(); got != nll {
			t.Errorf("chunks of %d: NLL %v, want %v", n, got, nll)
		}
		if got := tl.crps[0].Value(); got != crps {
			t.Errorf("chunks of %d: CRPS %v, want %v", n, got, crps)
		}
		if got := tl.pit[0].MiscalibrationArea(); got != pit.MiscalibrationArea() {
			t.Errorf("chunks of %d: miscalibration area %v, want %v", n, got, pit.MiscalibrationArea())
		}
		if got := tl.intervals[2][2].Stats(); got != cover || calibrationLevels[2] != 0.9 {
			t.Errorf("chunks of %d: conformal intervals %+v, want %+v", n, got, cover)
		}
		if len(tl.y) != len(y) || tl.mean[22] != 22 || tl.vc[22] != 2.5 {
			t.Errorf("chunks of %d: %d rows, mean %v, corrected variance %v", n, len(tl.y), tl.mean[22], tl.vc[22])
		}
	}
}
