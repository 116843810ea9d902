package bayes

import (
	"errors"
	"math"
	"testing"

	"github.com/gcpnet/gcp"
)

// fitBoth fits a small PBP and a small SVGD (5 particles, 50 iterations:
// the emulated CI legs run this) to x, y by rule s and returns their
// predictors, or the errors of the fits.
func fitBoth(s Standardization, x, y []float64) (predict []func([]float64) (gcp.Prediction, error), errs []error) {
	p, err := FitPBP(PBPConfig{Inputs: 1, Hidden: []int{10}, Epochs: 10, Seed: 1, Standardization: s}, x, y)
	errs = append(errs, err)
	if err == nil {
		ws := p.NewWorkspace()
		predict = append(predict, func(x []float64) (gcp.Prediction, error) { return p.Predict(ws, x) })
	}
	v, err := FitSVGD(SVGDConfig{Inputs: 1, Hidden: []int{10}, Particles: 5, Iterations: 50, Seed: 1, Standardization: s}, x, y)
	errs = append(errs, err)
	if err == nil {
		ws := v.NewWorkspace()
		predict = append(predict, func(x []float64) (gcp.Prediction, error) { return v.Predict(ws, x) })
	}
	return predict, errs
}

// TestFitRefusesTargetScale checks that FitPBP and FitSVGD refuse a
// target scale outside [2⁻²⁵⁶, 2²⁵⁶] with gcp.ErrNonFinite, as
// gcp.Trainer.Fit does, by either rule, since the variances in units of
// the scale's square would overflow or underflow; inside it (1e±70) they
// must fit and predict finite values.
// regression: targets near 1e±300 fitted, and every Predict then failed (N5 of issue 26).
func TestFitRefusesTargetScale(t *testing.T) {
	for _, s := range []Standardization{Robust, MeanSD} {
		for _, scale := range []float64{1e300, 1e-300, 1e80, 1e-80} {
			x, y := lineData(60, scale)
			if _, errs := fitBoth(s, x, y); !errors.Is(errs[0], gcp.ErrNonFinite) || !errors.Is(errs[1], gcp.ErrNonFinite) {
				t.Errorf("%v, targets ×%g: FitPBP %v, FitSVGD %v; want gcp.ErrNonFinite", s, scale, errs[0], errs[1])
			}
		}
		for _, scale := range []float64{1e70, 1e-70} {
			x, y := lineData(60, scale)
			predict, errs := fitBoth(s, x, y)
			if errs[0] != nil || errs[1] != nil {
				t.Errorf("%v, targets ×%g: FitPBP %v, FitSVGD %v", s, scale, errs[0], errs[1])
			}
			for _, f := range predict {
				if p, err := f([]float64{0.5}); err != nil || !(math.Abs(p.Mean) < 10*scale) || !(p.Var > 0 && p.Var < math.Inf(1)) {
					t.Errorf("%v, targets ×%g: predicts %+v (%v)", s, scale, p, err)
				}
			}
		}
	}
}

// TestRobustStandardizationIgnoresOutlier puts one target of 1e30 among
// targets of about ±2. With the default Robust rule the target scale is
// the clean targets' (the interquartile range moves by at most one order
// statistic: within 10% here, where MeanSD's is 28 orders of magnitude
// off), for PBP and SVGD alike, and SVGD's predicted means at clean inputs
// stay on the data's scale: within 3 of the line 2x, whose targets span
// [−2, 2] (the outlier still enters its Gaussian likelihood, which widens
// the noise for it and fits the rest less well, so the bound is the data's
// scale, not a fit's accuracy). PBP's moment matching takes a step on the
// outlier's residual of about 7e29 standardized units whatever the scale,
// so its means are not bounded here: the rule cannot make a Gaussian
// likelihood robust.
func TestRobustStandardizationIgnoresOutlier(t *testing.T) {
	x, y := lineData(100, 1)
	_, _, _, clean, _ := Robust.learn(x, y, 1)
	y[37] = 1e30
	for _, c := range []struct {
		s      Standardization
		robust bool
	}{{Robust, true}, {MeanSD, false}} {
		p, err := FitPBP(PBPConfig{Inputs: 1, Hidden: []int{10}, Epochs: 1, Seed: 1, Standardization: c.s}, x, y)
		if err != nil {
			t.Fatal(err)
		}
		v, err := FitSVGD(SVGDConfig{Inputs: 1, Hidden: []int{10}, Particles: 5, Iterations: 300, Seed: 1, Standardization: c.s}, x, y)
		if err != nil {
			t.Fatal(err)
		}
		for name, scale := range map[string]float64{"PBP": p.yScale, "SVGD": v.yScale} {
			if near := math.Abs(scale/clean-1) < 0.1; near != c.robust {
				t.Errorf("%v: %s's target scale is %.3g with the outlier, %.3g without; near: %v, want %v", c.s, name, scale, clean, near, c.robust)
			}
		}
		ws := v.NewWorkspace()
		for _, a := range []float64{-0.5, 0, 0.5} {
			pr, err := v.Predict(ws, []float64{a})
			if err != nil {
				t.Fatal(err)
			}
			if near := math.Abs(pr.Mean-2*a) < 3; near != c.robust {
				t.Errorf("%v: SVGD's mean at x = %v is %.3g with the outlier; near %v: %v, want %v", c.s, a, pr.Mean, 2*a, near, c.robust)
			}
		}
	}
}

// TestStandardizationRules checks what each rule learns on a column with
// known statistics, 1, 2, …, 9 and an outlier of 1000: MeanSD its mean,
// 104.5, and population standard deviation, √(Σ(v−104.5)²/10); Robust its
// median, 5.5, and interquartile range, 7.75 − 3.25 = 4.5, over 1.349; and
// that an unknown rule is gcp.ErrConfig.
func TestStandardizationRules(t *testing.T) {
	v := []float64{1000, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	var ss float64
	for _, x := range v {
		ss += (x - 104.5) * (x - 104.5)
	}
	for _, c := range []struct {
		s             Standardization
		center, scale float64
	}{
		{MeanSD, 104.5, math.Sqrt(ss / 10)},
		{Robust, 5.5, 4.5 / 1.3489795003921634},
	} {
		xc, xs, yc, ys, err := c.s.learn(v, v, 1)
		// A few roundings of sums of ten terms: 1e-14 relative.
		if err != nil || !close(xc[0], c.center, 1e-14) || !close(xs[0], c.scale, 1e-14) || yc != xc[0] || ys != xs[0] {
			t.Errorf("%v: centres %v, %v, scales %v, %v (%v); want %v, %v", c.s, xc[0], yc, xs[0], ys, err, c.center, c.scale)
		}
	}
	if _, err := FitPBP(PBPConfig{Inputs: 1, Standardization: 2}, v, v); !errors.Is(err, gcp.ErrConfig) {
		t.Errorf("FitPBP with Standardization 2 = %v, want gcp.ErrConfig", err)
	}
	if _, err := FitSVGD(SVGDConfig{Inputs: 1, Standardization: -1}, v, v); !errors.Is(err, gcp.ErrConfig) {
		t.Errorf("FitSVGD with Standardization −1 = %v, want gcp.ErrConfig", err)
	}
	if Robust.String() != "robust" || MeanSD.String() != "mean-sd" {
		t.Errorf("names %q, %q", Robust, MeanSD)
	}
}
