package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/longtest"
	"github.com/gcpnet/gcp/internal/synth"
)

// TestTargetLattice checks targetLattice on targets whose lattice, or its
// absence, is known by construction.
func TestTargetLattice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(n int, f func() float64) []float64 {
		y := make([]float64, n)
		for i := range y {
			y[i] = f()
		}
		return y
	}
	cases := []struct {
		name string
		y    []float64
		want float64
	}{
		{"scores 3..8", draw(500, func() float64 { return float64(3 + r.IntN(6)) }), 1},
		{"binary", draw(100, func() float64 { return float64(r.IntN(2)) }), 1},
		// Printed with one decimal, as Boston's MEDV: 24.0, 21.6, 34.7.
		{"tenths", draw(500, func() float64 { return float64(50+r.IntN(450)) / 10 }), 0.1},
		// No gap of 0.1 occurs, but every gap is a multiple of it.
		{"tenths without a gap of one", draw(200, func() float64 { return []float64{0, 0.2, 0.5}[r.IntN(3)] }), 0.1},
		{"cents far from zero", draw(3000, func() float64 { return 1e6 + float64(r.IntN(1000))/100 }), 0.01},
		{"negative quarters", draw(300, func() float64 { return -7 + float64(r.IntN(40))/4 }), 0.25},
		// Continuous targets with all their digits: the lattice of their
		// rounding is far finer than the data.
		{"continuous", draw(1000, r.NormFloat64), 0},
		{"integers jittered by 1e-3", draw(500, func() float64 { return float64(r.IntN(6)) + 1e-3*r.NormFloat64() }), 0},
		// As many lattice points as rows at most: 1000 distinct integers
		// spread over 0..1e6 repeat too rarely to count.
		{"sparse integers", draw(1000, func() float64 { return float64(r.IntN(1_000_000)) }), 0},
		{"constant", draw(50, func() float64 { return 3.5 }), 0},
		{"one row", []float64{2}, 0},
	}
	for _, c := range cases {
		got := targetLattice(c.y)
		// The spacing comes from the span divided by the number of lattice
		// points: a few roundings of the span, relative to it.
		if c.want == 0 && got != 0 || c.want != 0 && !(math.Abs(got-c.want) <= 1e-12*c.want*1e6) {
			t.Errorf("%s: targetLattice = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestQuantizedTargetCalibrated trains the default recipe on integer
// scores (synth.Scores) and checks the calibrated predictive on new rows:
// its 95% interval covers 0.93–0.97 of them, and its Gaussian NLL is
// within 0.3 nats of the Student-t's. On such data a continuous
// predictive trained on the raw scores collapses onto the most common
// score (a corrected sd of 0.005 on scores one apart), where the
// calibrated interval covers almost nothing and the Gaussian NLL runs into
// the hundreds. The 0.93–0.97 band is ±2.9 binomial standard errors of
// coverage 0.95 on 5000 rows (±0.0090), plus 0.011 for the calibration's
// own estimation error from 800 training rows.
func TestQuantizedTargetCalibrated(t *testing.T) {
	longtest.Skip(t)
	x, y := synth.Scores(1, 1200)
	m, res, err := AutoFit(Config{Inputs: 3, Seed: 1}, TrainConfig{Seed: 1}, x, y, AutoOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Quantum != 1 {
		t.Errorf("AutoResult.Quantum = %v, want the scores' spacing 1", res.Quantum)
	}
	tx, ty := synth.Scores(2, 5000)
	preds, err := m.predictAll(tx)
	if err != nil {
		t.Fatal(err)
	}
	var in int
	var nllT, nllG float64
	for i, p := range preds {
		v := float64(ty[i])
		if lo, hi, _ := p.CalibratedInterval(0.95); lo <= v && v <= hi {
			in++
		}
		nllT -= p.LogPDF(v)
		nllG -= p.CalibratedLogPDF(v)
	}
	minSD := math.Inf(1)
	for _, p := range preds {
		minSD = min(minSD, math.Sqrt(p.VarCorrected))
	}
	t.Logf("smallest corrected sd %.4g", minSD)
	n := float64(len(ty))
	cover, nllT, nllG := float64(in)/n, nllT/n, nllG/n
	t.Logf("%+v: coverage %.4f, NLL Student-t %.4f, Gaussian %.4f", res, cover, nllT, nllG)
	if !(cover >= 0.93 && cover <= 0.97) {
		t.Errorf("calibrated 95%% interval covers %.4f, want 0.93–0.97", cover)
	}
	if !(nllG-nllT <= 0.3) {
		t.Errorf("Gaussian NLL %.4f exceeds the Student-t's %.4f by more than 0.3", nllG, nllT)
	}
}

// TestColumnLattices: each column of a row-major target matrix gets its
// own lattice spacing, worked by hand: integers step 1, a column on
// multiples of 0.25 step 0.25 (4 points for 5 rows; targetLattice wants
// no more points than rows), and a column off any lattice 0.
func TestColumnLattices(t *testing.T) {
	y := []float64{
		-1, 0.25, 0.1234,
		0, 1, 2.7182,
		1, 0.75, 3.1416,
		1, 0.5, 1.4142,
		0, 0.5, 1.7321,
	}
	got := columnLattices(y, 3)
	if want := []float64{1, 0.25, 0}; !slices.Equal(got, want) {
		t.Errorf("columnLattices = %v, want %v", got, want)
	}
}
