package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestPredictSeveralTargetsFlagsRowsFarFromData: predict's several-target
// output carries one target's row signals, once a row: a row with x2 far
// outside its training range has outside 1 and input_z its robust
// z-score |x2 − median|/scale, from the model's standardization; a row
// with a level never seen has input_z +Inf, outside 1, unseen 1 and
// every target's calibrated interval (−Inf, +Inf); a row with no city,
// which training always had, input_z +Inf and outside 1 but unseen 0; a
// typical row outside 0, unseen 0, finite intervals and an input_z of at
// least its x2's z-score, below 2.
func TestPredictSeveralTargetsFlagsRowsFarFromData(t *testing.T) {
	m, err := gcp.LoadFile[float64](streamFile("multi.gcpm"))
	if err != nil {
		t.Fatal(err)
	}
	cols := m.Encoding().Columns()
	if last := cols[len(cols)-1]; last.Name != "x2" || last.Kind != gcp.Numeric || last.Missing {
		t.Fatalf("the model's last column is %+v, not x2, numeric without missing values: its last input is not x2", last)
	}
	xMean, xScale, _, _ := m.Standardization()
	x2 := len(xMean) - 1
	z := func(v float64) float64 { return math.Abs(v-xMean[x2]) / xScale[x2] }
	stdout, _, err := gcpRun("predict", "-model", streamFile("multi.gcpm"), "-data", streamFile("test_multi.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readPredict(t, stdout)
	for _, c := range []struct {
		name          string
		row           int
		z             float64 // NaN: the typical row
		outside, seen float64
	}{
		{"r0, typical", 0, math.NaN(), 0, 0},
		{"r13, x2 = 25", 13, z(25), 1, 0},
		{"r5, Madrid", 5, math.Inf(1), 1, 1},
		{"r11, no city", 11, math.Inf(1), 1, 0},
	} {
		r := rows[c.row]
		gotZ, outside, unseen := r.num(t, "input_z"), r.num(t, "outside"), r.num(t, "unseen")
		lo, hi := r.num(t, "lo95_cal:a"), r.num(t, "hi95_cal:b")
		switch {
		case outside != c.outside || unseen != c.seen:
			t.Errorf("%s: outside %v, unseen %v; want %v, %v", c.name, outside, unseen, c.outside, c.seen)
		case math.IsNaN(c.z) && !(gotZ >= z(-0.5577) && gotZ < 2 && !math.IsInf(lo, 0) && !math.IsInf(hi, 0)):
			t.Errorf("%s: input_z %v (x2's z %v), lo95_cal:a %v, hi95_cal:b %v: want below 2, at least x2's, finite intervals", c.name, gotZ, z(-0.5577), lo, hi)
		case math.IsInf(c.z, 1) && !(math.IsInf(gotZ, 1) && math.IsInf(lo, -1) && math.IsInf(hi, 1)):
			t.Errorf("%s: input_z %v, lo95_cal:a %v, hi95_cal:b %v: want +Inf, -Inf, +Inf", c.name, gotZ, lo, hi)
		// 1e-12 relative: the command writes the shortest text that reads back.
		case !math.IsNaN(c.z) && !math.IsInf(c.z, 1) && math.Abs(gotZ-c.z) > 1e-12*c.z:
			t.Errorf("%s: input_z %v, want %v", c.name, gotZ, c.z)
		}
	}
	if z(25) < 10 {
		t.Fatalf("x2 = 25 has z %v: not far, the case checks nothing", z(25))
	}
}

// TestFiniteMean: a multivariate t has a mean only for ν > 1, the exp of a
// t of finite ν none, the exp of a Gaussian (a log-normal) one.
func TestFiniteMean(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		nu     float64
		logged bool
		want   bool
	}{{0.5, false, false}, {1, false, false}, {1.01, false, true}, {inf, false, true},
		{4.5, true, false}, {1e6, true, false}, {inf, true, true}} {
		if got := finiteMean(c.nu, c.logged); got != c.want {
			t.Errorf("finiteMean(%v, logged %v) = %v, want %v", c.nu, c.logged, got, c.want)
		}
	}
}

// TestEnergyScoreInfiniteWithoutAMean: the library's golden model of two
// targets with a calibrated region of 4.5 degrees of freedom scores a
// finite, positive energy score until its first target is logged: exp of
// a t has no mean, and the score is +Inf.
func TestEnergyScoreInfiniteWithoutAMean(t *testing.T) {
	m, err := gcp.LoadFile[float64]("../../testdata/model_v7_region_float64.gcpm")
	if err != nil {
		t.Fatal(err)
	}
	score := func() (float64, *gcp.MultiPrediction) {
		var p gcp.MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, 0.1}, &p); err != nil {
			t.Fatal(err)
		}
		return energyScore(&p, []float64{3, 4}, rand.New(rand.NewPCG(1, 2))), &p
	}
	es, p := score()
	if p.RegionNu() != 4.5 {
		t.Fatalf("the golden region's ν is %v, not 4.5", p.RegionNu())
	}
	if !(es > 0 && !math.IsInf(es, 0)) {
		t.Errorf("energy score %v, want finite and positive", es)
	}
	if err := m.SetTargetTransforms([]gcp.TargetTransform{gcp.TransformLog, gcp.TransformNone}); err != nil {
		t.Fatal(err)
	}
	if es, _ := score(); !math.IsInf(es, 1) {
		t.Errorf("a logged target under a t of 4.5 degrees of freedom: energy score %v, want +Inf", es)
	}
}
