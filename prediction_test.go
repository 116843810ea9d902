package gcp

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestPredictionSize holds Prediction's doc to its size on a 64-bit
// platform, counted by hand: Loss and Members, 8 bytes each; 13 float64
// fields, 104; MaxMembers = 20 components of three float64, 480; the
// one-byte Transform padded to 8; the score map of a conditional
// marginal, six float64, 48. 8 + 104 + 8 + 480 + 8 + 48 = 656.
func TestPredictionSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the documented size is that of 64-bit platforms")
	}
	if got := unsafe.Sizeof(Prediction{}); got != 656 {
		t.Errorf("a Prediction is %d bytes, the doc says 656", got)
	}
}

// TestBaseScoreSetForAnotherBase: a baseScore (and the tScore in it) set
// for one base and then for another answers for the second, also where
// the second has no valid score (a mixture with a member of DoF 0, a
// prior that is not valid): NaN, as normalScore gives, not the first
// base's score.
func TestBaseScoreSetForAnotherBase(t *testing.T) {
	mix := Prediction{Loss: LossGCP, Members: 2}
	mix.Components[0] = Component{Mean: 0, Scale: 1, DoF: 4}
	mix.Components[1] = Component{Mean: 1, Scale: 2, DoF: 6}
	single := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 3, Beta: 2, Nu: 1, Members: 1}
	badMix := mix
	badMix.Components[1].DoF = 0
	badSingle := single
	badSingle.Alpha = -1
	for _, c := range []struct {
		name        string
		first, then Prediction
	}{{"mixture", mix, badMix}, {"single network", single, badSingle}} {
		var s baseScore
		s.set(&c.first)
		if got, want := s.at(&c.first, 0.7), normalScore(&c.first, 0.7, false); got != want || math.IsNaN(want) {
			t.Fatalf("%s: score %v, want normalScore's %v, a number", c.name, got, want)
		}
		s.set(&c.then)
		if got, want := s.at(&c.then, 0.7), normalScore(&c.then, 0.7, false); !math.IsNaN(got) || !math.IsNaN(want) {
			t.Errorf("%s set again for an invalid base: score %v, want NaN (normalScore %v)", c.name, got, want)
		}
	}
}

// normalScoreRefPrediction returns the Prediction that a row of
// normalscore_ref.csv describes.
func normalScoreRefPrediction(t *testing.T, kind, params string) Prediction {
	t.Helper()
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("normalscore_ref.csv: %v", err)
		}
		return v
	}
	switch kind {
	case "t", "logt":
		f := strings.Split(params, "/")
		p := Prediction{Loss: LossGCP, Mean: parse(f[0]), Alpha: parse(f[1]), Beta: parse(f[2]), Nu: parse(f[3]), Members: 1}
		if kind == "logt" {
			p.Transform, p.ZMean, p.Mean = TransformLog, p.Mean, math.Exp(p.Mean)
		}
		return p
	case "mix":
		p := Prediction{Loss: LossGCP}
		for _, c := range strings.Fields(params) {
			f := strings.Split(c, "/")
			p.Components[p.Members] = Component{parse(f[0]), parse(f[1]), parse(f[2])}
			p.Members++
		}
		return p
	}
	t.Fatalf("normalscore_ref.csv: unknown kind %q", kind)
	return Prediction{}
}

func TestNormalScoreMpmath(t *testing.T) {
	// Against mpmath (testdata/gen_normalscore.py), in tails down to
	// 1e-300 and, from the logarithm of the tail, far below (the deep
	// rows, |u| > 37.5, out to u = 3.7e7 for a t and 1e150 for the
	// Gaussian). Down to 1e-300 the tails are studentTCDF's, within 3e-13
	// relative there (its doc), which moves u = Φ⁻¹(q) by 3e-13/(|u|·…)
	// ≤ 3e-13 of itself for |u| ≥ 1; the quantile adds a few ulps. Near
	// the median u has no relative accuracy to speak of (F ≈ ½ holds only
	// absolute accuracy), so the bound is 2e-13·max(|u|, 1). Below, ln q
	// is accurate to a few ulps of itself (studentTDist.logTail), and a
	// relative error ε of ln q ≈ −u²/2 moves u by about ε/2 of itself, so
	// the deep rows are held to 1e-14 relative (measured below, logged).
	rows := readRefCSV(t, "testdata/normalscore_ref.csv")
	seen := map[string]int{}
	var worstDeep float64
	for _, rec := range rows {
		p := normalScoreRefPrediction(t, rec[0], rec[1])
		y, _ := strconv.ParseFloat(rec[2], 64)
		want, _ := strconv.ParseFloat(rec[3], 64)
		got := normalScore(&p, y, false)
		tol := 2e-13 * max(math.Abs(want), 1)
		if math.Abs(want) > 37.5 {
			tol = 1e-14 * math.Abs(want)
			worstDeep = max(worstDeep, math.Abs(got-want)/math.Abs(want))
			seen["deep"]++
		}
		if !(math.Abs(got-want) <= tol) {
			t.Errorf("%s %s: u(%v) = %.17g, want %.17g (%.2g relative)", rec[0], rec[1], y, got, want, (got-want)/want)
		}
		// The lower tail agrees with CDF where it is not rounded away.
		if f := p.CDF(y); f > 1e-300 && f < 0.5 {
			if u := standardNormalQuantile(f); math.Abs(u-got) > 1e-12*math.Abs(u) {
				t.Errorf("%s %s: u(%v) = %v, Φ⁻¹(CDF) = %v", rec[0], rec[1], y, got, u)
			}
		}
		seen[rec[0]]++
	}
	for _, k := range []string{"t", "logt", "mix", "deep"} {
		if seen[k] < 8 {
			t.Errorf("%d rows of kind %s", seen[k], k)
		}
	}
	t.Logf("%d deep rows: largest relative error %.2g", seen["deep"], worstDeep)
}

func TestNormalScoreFarAndSpecial(t *testing.T) {
	tp := Prediction{Loss: LossGCP, Mean: 0, Alpha: 50, Beta: 25, Nu: 1, Members: 1} // dof 100, scale 1
	// Far beyond float64's tails, from the tail's logarithm: finite.
	for _, y := range []float64{1e5, 1e300, math.MaxFloat64} {
		if u := normalScore(&tp, y, false); !(u > 38) || math.IsInf(u, 1) {
			t.Errorf("u(%v) = %v, want finite and > 38", y, u)
		}
		if u := normalScore(&tp, -y, false); !(u < -38) || math.IsInf(u, -1) {
			t.Errorf("u(%v) = %v, want finite and < −38", -y, u)
		}
	}
	// Monotone and antisymmetric across the switch to the log tail
	// (scoreLogTailMax) and out to MaxFloat64, for t's of small to
	// huge dof, the normal, and a mixture of them.
	mix := Prediction{Loss: LossGCP, Members: 3}
	mix.Components[0], mix.Components[1], mix.Components[2] = Component{0, 1, 3}, Component{0, 2, 1e12}, Component{0, 0.5, math.Inf(1)}
	far := []*Prediction{&mix}
	for _, alpha := range []float64{0.5, 1.5, 15, 5e3, 5e11, 1e30} {
		far = append(far, &Prediction{Loss: LossGCP, Alpha: alpha, Beta: alpha / 2, Nu: 1, Members: 1})
	}
	for _, p := range far {
		prev := 0.0
		for y := 1.0; y < math.MaxFloat64; y *= 1.01 {
			u := normalScore(p, y, false)
			if !(u >= prev) || math.IsInf(u, 0) || u != -normalScore(p, -y, false) {
				t.Fatalf("α %v: u(%v) = %v after %v, u(−y) = %v", p.Alpha, y, u, prev, normalScore(p, -y, false))
			}
			prev = u
		}
	}
	// Monotone and antisymmetric about the mean.
	prev := math.Inf(-1)
	for y := -60.0; y <= 60; y += 0.25 {
		u := normalScore(&tp, y, false)
		if u < prev || u != -normalScore(&tp, -y, false) {
			t.Fatalf("u(%v) = %v after %v, u(−y) = %v", y, u, prev, normalScore(&tp, -y, false))
		}
		prev = u
	}
	// The calibrated score is the standardized residual under
	// N(Mean, VarCorrected), finite however far out.
	tp.VarCorrected = 4
	if u := normalScore(&tp, 1e300, true); u != 5e299 {
		t.Errorf("calibrated u(1e300) = %v, want 5e299", u)
	}
	if u := normalScore(&tp, 3, true); u != 1.5 {
		t.Errorf("calibrated u(3) = %v, want 1.5", u)
	}
	// A Gaussian comparator's: (y − m)/√Var.
	g := Prediction{Loss: LossGaussianML, Mean: 1, Var: 0.25, Alpha: math.Inf(1)}
	if u := normalScore(&g, 2, false); u != 2 {
		t.Errorf("Gaussian u(2) = %v, want 2", u)
	}
	// Under the log transform: −Inf at and below 0, NaN for NaN.
	lp := tp
	lp.Transform, lp.ZMean, lp.ZVarCorrected = TransformLog, 0, 4
	for _, y := range []float64{0, -1, math.Inf(-1)} {
		if u := normalScore(&lp, y, false); !math.IsInf(u, -1) {
			t.Errorf("logged u(%v) = %v, want −Inf", y, u)
		}
	}
	if u := normalScore(&lp, math.E*math.E, true); math.Abs(u-1) > 1e-15 {
		t.Errorf("logged calibrated u(e²) = %v, want 1", u)
	}
	for _, p := range []*Prediction{&tp, &lp, &g} {
		for _, cal := range []bool{false, true} {
			if u := normalScore(p, math.NaN(), cal); !math.IsNaN(u) {
				t.Errorf("u(NaN) = %v", u)
			}
		}
	}
	if u := normalScore(&tp, math.Inf(1), false); !math.IsInf(u, 1) {
		t.Errorf("u(+Inf) = %v", u)
	}
	if u := normalScore(&Prediction{Loss: LossGCP}, 1, false); !math.IsNaN(u) {
		t.Errorf("an invalid prediction's u = %v, want NaN", u)
	}
}

// BenchmarkNormalScore measures one normal score (normalScore) in the
// ordinary range, |u| < 8 (t's of 6 and 100 dof, a mixture of three, a
// logged t), and far out (tails from 1e-300 down to e^(−1e6), from
// their logarithms), cycling over a few y each.
func BenchmarkNormalScore(b *testing.B) {
	t6 := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 3, Beta: 1.5, Nu: 1, Members: 1}
	t100 := Prediction{Loss: LossGCP, Mean: 0.5, Alpha: 50, Beta: 25, Nu: 1, Members: 1}
	mix := Prediction{Loss: LossGCP, Members: 3}
	mix.Components[0], mix.Components[1], mix.Components[2] = Component{0, 1, 5}, Component{0.5, 2, 30}, Component{-1, 0.5, 3}
	logt := t6
	logt.Transform, logt.ZMean, logt.Mean = TransformLog, 0.5, math.Exp(0.5)
	body := []float64{-9, -3, -1, -0.2, 0.1, 0.7, 2, 4, 12}
	logBody := []float64{1e-4, 0.05, 0.5, 1.3, 2, 6, 40, 300, 1e4}
	for _, c := range []struct {
		name string
		p    *Prediction
		ys   []float64
	}{
		{"t6", &t6, body}, {"t100", &t100, body}, {"mix", &mix, body}, {"logt", &logt, logBody},
		{"far-t6", &t6, []float64{-1e300, 1e200, -1e120, 1e150}},
		{"far-t100", &t100, []float64{-1e5, 1e10, -200, 1e300}},
		{"far-mix", &mix, []float64{-1e300, 1e200, -1e120, 1e150}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				sinkLoss = normalScore(c.p, c.ys[i%len(c.ys)], false)
			}
		})
	}
}
