package bayes

import (
	"math"
	"testing"
)

// simpson integrates f over [a, b] by the composite Simpson rule with n
// (even) intervals.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	sum := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(a+float64(i)*h)
	}
	return sum * h / 3
}

// TestReLUMomentsQuadrature checks reluMoments against numerical
// quadrature of the definitions E[z] = ∫max(0, μ+σt)φ(t)dt and Var z =
// ∫(max(0, μ+σt) − E[z])²φ(t)dt, over t from the kink at −α and below it,
// each by Simpson's rule with steps of 1e-4 over 40 standard deviations.
// Simpson's error there is of order (h·|α|)⁴ < 1e-12 relative, and every
// integrand is of one sign, so the reference is good to about 1e-13; the
// variance of max(0, a) is a sum of non-negative terms, free of the
// cancellation in E[z²] − E[z]². The tolerance, 1e-10 relative, leaves
// room for reluMoments' own cancellation for α < 0, about α⁴ ulps (5e-13
// at α = −8).
func TestReLUMomentsQuadrature(t *testing.T) {
	const sigma = 0.7
	for _, alpha := range []float64{-8, -4, -2, -1, -0.3, 0, 0.3, 1, 2, 4, 8} {
		mu := alpha * sigma
		relu := func(t float64) float64 { return max(0, mu+sigma*t) }
		kink := -alpha
		n := 400000
		mean := simpson(func(t float64) float64 { return relu(t) * stdNormal(t) }, kink, max(kink, 0)+40, n)
		sq := func(t float64) float64 { d := relu(t) - mean; return d * d * stdNormal(t) }
		variance := simpson(sq, kink, max(kink, 0)+40, n) + simpson(sq, min(kink, 0)-40, kink, n)
		gotMean, gotVar, _, _ := reluMoments(mu, sigma*sigma)
		if e := math.Abs(gotMean-mean) / mean; e > 1e-10 {
			t.Errorf("α = %g: mean %.17g, quadrature %.17g (relative error %.2g)", alpha, gotMean, mean, e)
		}
		if e := math.Abs(gotVar-variance) / variance; e > 1e-10 {
			t.Errorf("α = %g: variance %.17g, quadrature %.17g (relative error %.2g)", alpha, gotVar, variance, e)
		}
	}
}

// TestReLUMomentsTails checks that the moments stay finite, non-negative
// and within the bounds that hold for any a: 0 ≤ E[z] with E[z] ≥ μ, and
// Var z ≤ Var a since max(0, ·) is 1-Lipschitz, far into both tails,
// where the quadrature above cannot follow them.
func TestReLUMomentsTails(t *testing.T) {
	for _, alpha := range []float64{-1e6, -40, -38.5, -30, -20, 20, 30, 1e6} {
		for _, s2 := range []float64{1e-200, 1e-6, 1, 1e6} {
			mu := alpha * math.Sqrt(s2)
			m, v, cdf, dens := reluMoments(mu, s2)
			ok := m >= 0 && m >= mu && v >= 0 && v <= s2*(1+1e-15) && cdf >= 0 && cdf <= 1 && dens >= 0 && finite(dens)
			if !ok {
				t.Errorf("reluMoments(%g, %g) = %g, %g, %g, %g", mu, s2, m, v, cdf, dens)
			}
		}
	}
	if m, v, cdf, dens := reluMoments(-2, 0); m != 0 || v != 0 || cdf != 0 || dens != 0 {
		t.Errorf("reluMoments(-2, 0) = %g, %g, %g, %g, want all 0", m, v, cdf, dens)
	}
	if m, v, cdf, dens := reluMoments(2, 0); m != 2 || v != 0 || cdf != 1 || dens != 0 {
		t.Errorf("reluMoments(2, 0) = %g, %g, %g, %g, want 2, 0, 1, 0", m, v, cdf, dens)
	}
}

// TestReLUGradFiniteDifferences checks reluGrad's four partial derivatives
// against central differences of reluMoments with step h = 1e-5 (times σ²
// for the variance): their truncation error is O(h²) ≈ 1e-10 and their
// rounding error about ulp/h ≈ 1e-11, so 1e-7 absolute plus relative
// leaves a wide margin while a wrong term is off by O(1).
func TestReLUGradFiniteDifferences(t *testing.T) {
	for _, mu := range []float64{-3, -0.7, 0, 0.4, 2.5} {
		for _, s2 := range []float64{0.2, 1, 3} {
			m, _, cdf, dens := reluMoments(mu, s2)
			for out, pick := range []string{"mean", "variance"} {
				gm, gv := 1.0, 0.0
				if out == 1 {
					gm, gv = 0, 1
				}
				gmu, gs2 := reluGrad(gm, gv, m, cdf, dens)
				at := func(mu, s2 float64) float64 {
					mm, vv, _, _ := reluMoments(mu, s2)
					return []float64{mm, vv}[out]
				}
				const h = 1e-5
				fdMu := (at(mu+h, s2) - at(mu-h, s2)) / (2 * h)
				fdS2 := (at(mu, s2*(1+h)) - at(mu, s2*(1-h))) / (2 * h * s2)
				if math.Abs(gmu-fdMu) > 1e-7*(1+math.Abs(fdMu)) || math.Abs(gs2-fdS2) > 1e-7*(1+math.Abs(fdS2)) {
					t.Errorf("μ = %g, σ² = %g, d%s: reluGrad (%.10g, %.10g), finite differences (%.10g, %.10g)",
						mu, s2, pick, gmu, gs2, fdMu, fdS2)
				}
			}
		}
	}
}
