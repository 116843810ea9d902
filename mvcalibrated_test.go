package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRegionScaleByHand: for q = 1, …, 20 and d = 2 the 95% quantile is
// the 19th value, and χ²₂(0.95) = −2 ln 0.05, so c = 19/(−2 ln 0.05); no
// rows, or a zero quantile, give 1.
func TestRegionScaleByHand(t *testing.T) {
	q := make([]float64, 20)
	for i := range q {
		q[len(q)-1-i] = float64(i + 1) // unsorted
	}
	want := 19 / (-2 * math.Log(0.05))
	if got := regionScale(q, 2); math.Abs(got-want) > 1e-9*want { // the χ² quantile is a numerical inverse
		t.Errorf("regionScale = %v, want %v", got, want)
	}
	if regionScale(nil, 2) != 1 || regionScale([]float64{0, 0}, 2) != 1 {
		t.Error("no rows or a zero quantile: want 1")
	}
}

// TestCVCoverage95OfChiSquare: distances drawn from χ²₃ (the calibrated
// case) are covered at 0.95 within 3 standard errors of 4,000 rows, and
// the scale fitted to them is 1 within 0.1 (the quantile's sampling error
// is about 3%).
func TestCVCoverage95OfChiSquare(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	q := make([]float64, 4000)
	for i := range q {
		for range 3 {
			g := r.NormFloat64()
			q[i] += g * g
		}
	}
	se := math.Sqrt(0.95 * 0.05 / float64(len(q)))
	if got := cvCoverage95(q, 3); math.Abs(got-0.95) > 3*se {
		t.Errorf("cvCoverage95 = %.4f, want 0.95 ± %.4f", got, 3*se)
	}
	if c := regionScale(q, 3); math.Abs(c-1) > 0.1 {
		t.Errorf("regionScale = %v, want 1 ± 0.1", c)
	}
}

// TestCalibratedInsideBadInput: a level outside (0, 1) is ErrLevel, a y of
// the wrong length ErrShape; a model not calibrated has scale 1 and the
// calibrated distance equals Mahalanobis.
func TestCalibratedInsideBadInput(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 1})
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.1, 0.2}, &p); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CalibratedInside([]float64{0, 0}, 1); !errors.Is(err, ErrLevel) {
		t.Errorf("p = 1: err = %v, want ErrLevel", err)
	}
	if _, err := p.CalibratedInside([]float64{0}, 0.5); !errors.Is(err, ErrShape) {
		t.Errorf("one target: err = %v, want ErrShape", err)
	}
	if y := []float64{0.3, -0.2}; p.RegionScale() != 1 || p.CalibratedMahalanobis(y) != p.Mahalanobis(y) {
		t.Errorf("scale %v, distances %v and %v: want 1 and equal", p.RegionScale(), p.CalibratedMahalanobis(y), p.Mahalanobis(y))
	}
}
