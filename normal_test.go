package gcp

import (
	"math"
	"testing"
)

// TestStandardNormalQuantile checks Φ⁻¹ against mpmath
// (testdata/gen_normal_quantile.py) from the smallest subnormal
// probability, 2⁻¹⁰⁷⁴, to 1 − 2⁻⁵³. The tolerance, 4e-16 relative
// (about 2 ulps) where |z| ≥ 1 and absolute below: the Halley steps of
// the bulk and the Newton steps of the tail stop at a step of an ulp, and
// z carries the rounding of a few terms of ln Φ near |ln q| ≤ 745, each
// of which moves z by its error over |z|.
// regression: N4 of issue 26 (−Inf below p ≈ 5e-17, 1e-15 off at 1e-16).
func TestStandardNormalQuantile(t *testing.T) {
	checkSpecialRef(t, "standardNormalQuantile", standardNormalQuantile, 4e-16, 1)
}

// TestNormalLogQuantileFar checks Φ⁻¹ of a log probability far below
// float64's range (normalScore's deep rows check it against mpmath): at
// the switch to −√2·√(−lq) (lq = −2⁶⁰) the two sides agree to 2 ulps
// (the start there is exact to within rounding, and the steps leave an
// ulp), it is monotone out to lq = −MaxFloat64, where it is finite, and
// −Inf only at lq = −Inf; ln Φ of its result is lq to 1e-15 relative
// (an ulp of z moves ln Φ by 2 ulps of itself, and erfcx adds 1e-14
// absolute) while z² does not overflow.
func TestNormalLogQuantileFar(t *testing.T) {
	lo, hi := normalLogQuantile(math.Nextafter(-0x1p60, math.Inf(-1))), normalLogQuantile(-0x1p60)
	if math.Abs(lo-hi) > 4.5e-16*math.Abs(hi) {
		t.Errorf("at −2⁶⁰: %.17g below, %.17g at", lo, hi)
	}
	prev := 0.0
	for lq := -1e3; lq > -math.MaxFloat64; lq *= 1.5 {
		z := normalLogQuantile(lq)
		if !(z < prev) || math.IsInf(z, 0) {
			t.Fatalf("z(%v) = %v after %v", lq, z, prev)
		}
		prev = z
		if x := -z / math.Sqrt2; x < 1e150 {
			if lp := math.Log(0.5*erfcx(x)) - x*x; math.Abs(lp-lq) > 1e-15*math.Abs(lq) {
				t.Errorf("ln Φ(z(%v)) = %v", lq, lp)
			}
		}
	}
	if z := normalLogQuantile(-math.MaxFloat64); math.IsInf(z, 0) {
		t.Errorf("z(−MaxFloat64) = %v", z)
	}
	if z := normalLogQuantile(math.Inf(-1)); !math.IsInf(z, -1) {
		t.Errorf("z(−Inf) = %v", z)
	}
}

// TestPredictiveQuantileTails checks the quantiles built on Φ⁻¹, a
// Gaussian prediction's Quantile and CalibratedQuantile for every loss,
// at every probability of the mpmath table
// (testdata/gen_normal_quantile.py), from 2⁻¹⁰⁷⁴ to 1 − 2⁻⁵³: finite, and
// mean + sd·z to within 1e-15·(|mean| + sd·|z|) (z is within 4e-16 of its
// value, TestStandardNormalQuantile, and scaling by sd and adding the
// mean round twice more); for mean 0 the upper tail is the exact mirror
// of the lower one.
// regression: N(0, 1)'s Quantile(1e-17) was −Inf with a nil error (N4 of issue 26).
func TestPredictiveQuantileTails(t *testing.T) {
	refs, err := loadSpecialRefs()
	if err != nil {
		t.Fatal(err)
	}
	rows := append([]specialRef{{x: 1e-17, want: -8.493793224109597, line: "the probe's"}}, refs["standardNormalQuantile"]...)
	for _, ms := range []struct{ mean, sd float64 }{{0, 1}, {3, 2}} {
		v := ms.sd * ms.sd
		quantiles := map[string]func(float64) (float64, error){
			"Gaussian Quantile": Prediction{Loss: LossGaussianML, Mean: ms.mean, Var: v, VarCorrected: v, Alpha: math.Inf(1), Members: 1}.Quantile,
		}
		for _, loss := range []Loss{LossGCP, LossGaussianML, LossMLBayes, LossDPD} {
			p := Prediction{Loss: loss, Mean: ms.mean, Var: 9 * v, VarCorrected: v, Alpha: 1.5, Beta: 1, Nu: 1, Members: 1}
			quantiles[loss.String()+" CalibratedQuantile"] = p.CalibratedQuantile
		}
		for name, q := range quantiles {
			for _, r := range rows {
				got, err := q(r.x)
				want := ms.mean + ms.sd*r.want
				if err != nil || !(math.Abs(got-want) <= 1e-15*(math.Abs(ms.mean)+ms.sd*math.Abs(r.want))) {
					t.Errorf("%s: N(%g, %g²) %s(%g) = %v, %v; want %v", r.line, ms.mean, ms.sd, name, r.x, got, err, want)
				}
				if ms.mean != 0 || r.x <= 0.5 {
					continue
				}
				if lo, _ := q(1 - r.x); got != -lo {
					t.Errorf("N(0, %g²) %s(%g) = %v, not the mirror of %s(%g) = %v", ms.sd, name, r.x, got, name, 1-r.x, lo)
				}
			}
		}
	}
}

// TestNormalPredictive checks the Gaussian predictive of the comparators
// against closed forms and tabulated values of Φ (Abramowitz & Stegun
// 26.2; Φ(−10) and Φ⁻¹(1e-10) to 16 digits from mpmath).
func TestNormalPredictive(t *testing.T) {
	p := Prediction{Loss: LossGaussianML, Mean: 3, Var: 4, VarCorrected: 4, Alpha: math.Inf(1)}
	rel := func(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
	const z975 = 1.959963984540054 // Φ⁻¹(0.975)
	checks := []struct {
		name      string
		got, want float64
		tol       float64 // a few ulps, or erfc's documented accuracy
	}{
		{"CDF(m)", p.CDF(3), 0.5, 1e-16},
		{"CDF(m+z975·sd)", p.CDF(3 + 2*z975), 0.975, 1e-15},
		{"CDF(m−10 sd)", p.CDF(3 - 20), 7.619853024160527e-24, 1e-13},
		{"LogPDF(m)", p.LogPDF(3), -0.5 * math.Log(2*math.Pi*4), 1e-15},
		{"LogPDF(m+2)", p.LogPDF(5), -0.5*math.Log(2*math.Pi*4) - 0.5, 1e-15},
	}
	q, err := p.Quantile(1e-10)
	checks = append(checks, struct {
		name      string
		got, want float64
		tol       float64
	}{"Quantile(1e-10)", q, 3 + 2*-6.361340902404056, 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, err := p.Interval(0.95)
	if err != nil {
		t.Fatal(err)
	}
	checks = append(checks, struct {
		name      string
		got, want float64
		tol       float64
	}{"Interval(0.95).lo", lo, 3 - 2*z975, 1e-14}, struct {
		name      string
		got, want float64
		tol       float64
	}{"Interval(0.95).hi", hi, 3 + 2*z975, 1e-14})
	for _, c := range checks {
		if r := rel(c.got, c.want); !(r <= c.tol) {
			t.Errorf("%s = %.17g, want %.17g (rel %.2g)", c.name, c.got, c.want, r)
		}
	}
	for _, prob := range []float64{1e-300, 1e-20, 0.01, 0.3, 0.5, 0.9, 1 - 1e-12} {
		q, err := p.Quantile(prob)
		if err != nil {
			t.Fatal(err)
		}
		// The round trip's error is the CDF's slope times the quantile's
		// rounding: a few ulps relative in the lower tail; in the upper
		// tail 1 − prob itself carries ulps of 1.
		if got := p.CDF(q); math.Abs(got-prob) > 1e-13*min(prob, 1-prob)+1e-16 {
			t.Errorf("CDF(Quantile(%g)) = %g", prob, got)
		}
	}
	if _, err := p.Quantile(1); err == nil {
		t.Error("Quantile(1) gives no error")
	}
	if _, _, err := p.Interval(1); err == nil {
		t.Error("Interval(1) gives no error")
	}
}

// TestNormalLogUpperTail checks ln P(Z > s) against ln(½·erfc(s/√2))
// where math.Erfc is accurate and far from underflow (s ≤ 20: a few ulps
// of the tail, 1e-14 of its logarithm), and beyond, where the tail
// underflows, against the asymptotic series ln φ(s) − ln s +
// ln(1 − 1/s² + 3/s⁴ − 15/s⁶ + 105/s⁸), whose error is below the next
// term, 945/s¹⁰ (1e-13 at s = 30).
func TestNormalLogUpperTail(t *testing.T) {
	for _, s := range []float64{0, 0.5, 1, 3, 8, 20} {
		want := math.Log(0.5 * math.Erfc(s/math.Sqrt2))
		if got := normalLogUpperTail(s); math.Abs(got-want) > 1e-14*max(1, math.Abs(want)) {
			t.Errorf("s %v: %.17g, want %.17g", s, got, want)
		}
	}
	for _, s := range []float64{30, 40, 100, 1e3, 1e10, 1e150} {
		s2 := 1 / (s * s)
		series := 1 - s2 + 3*s2*s2 - 15*s2*s2*s2 + 105*s2*s2*s2*s2
		want := -s*s/2 - 0.5*math.Log(2*math.Pi) - math.Log(s) + math.Log(series)
		if got := normalLogUpperTail(s); math.Abs(got-want) > 1e-13*math.Abs(want) {
			t.Errorf("s %v: %.17g, want %.17g", s, got, want)
		}
	}
}
