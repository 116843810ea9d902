package gcp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The radius matches mpmath's quantiles of d·F(d, ν) and χ²_d (solved at
// 40 digits on mpmath's own incomplete beta and gamma functions) for
// d = 1, 2, 3, 5, 16, ν = 0.5 to 300 and +Inf, p = 0.01 to 0.999. The
// tolerance, 1e-12, allows the tail's rounding (about 1e-15) times the
// quantile's conditioning, p·(1−p)/dens, up to a few hundred at p = 0.999
// and ν = 0.5.
func TestMvtRegionRadiusMatchesMpmath(t *testing.T) {
	var worst float64
	for _, r := range mvtRefs(t, "quantile") {
		d, nu, p, want := int(r.num(t, 0)), r.num(t, 1), r.num(t, 2), r.num(t, 3)
		got := mvtRegionRadius2(p, d, nu)
		e := relErr(got, want)
		worst = max(worst, e)
		if !(e <= 1e-12) {
			t.Errorf("%s: r²(p=%g, d=%d, ν=%g) = %.17g, want %.17g", r.line, p, d, nu, got, want)
		}
	}
	t.Logf("worst relative error: %.2g", worst)
}

// For d = 1 the region is the central interval of the Student t: r² is
// the square of the t quantile at (1+p)/2, computed by studentt.go's own
// solver; and the density the tail returns is its derivative in ln q
// (central differences, step h = 1e-5: truncation about 1e-10 relative,
// and the tails, near 1 at small q, round by a few ulps of 1, which the
// difference divides by 2h: about 1e-11 absolute, hence the 1e-10 floor).
func TestMvtRegionTailOneDimAndDensity(t *testing.T) {
	for _, nu := range []float64{0.7, 3, 40, math.Inf(1)} {
		for _, p := range []float64{0.3, 0.8, 0.99} {
			s := studentTQuantile((1+p)/2, nu)
			if got := mvtRegionRadius2(p, 1, nu); relErr(got, s*s) > 1e-12 {
				t.Errorf("ν=%g p=%g: r² = %.17g, t quantile² = %.17g", nu, p, got, s*s)
			}
		}
		for d := 1; d <= 6; d++ {
			for _, q := range []float64{0.1, 2, 30} {
				_, _, dens := mvtRegionTail(q, d, nu)
				const h = 1e-5
				up, _, _ := mvtRegionTail(q*math.Exp(h), d, nu)
				down, _, _ := mvtRegionTail(q*math.Exp(-h), d, nu)
				if fd := (down - up) / (2 * h); math.Abs(dens-fd) > 1e-8*fd+1e-10 {
					t.Errorf("d=%d ν=%g q=%g: dens = %.12g, central difference %.12g", d, nu, q, dens, fd)
				}
			}
		}
	}
	for _, bad := range []struct {
		p  float64
		d  int
		nu float64
	}{{-0.1, 2, 3}, {1.1, 2, 3}, {0.5, 0, 3}, {0.5, 2, 0}, {math.NaN(), 2, 3}} {
		if r := mvtRegionRadius2(bad.p, bad.d, bad.nu); !math.IsNaN(r) {
			t.Errorf("mvtRegionRadius2(%g, %d, %g) = %g, want NaN", bad.p, bad.d, bad.nu, r)
		}
	}
	if mvtRegionRadius2(0, 3, 2) != 0 || !math.IsInf(mvtRegionRadius2(1, 3, 2), 1) {
		t.Error("p = 0 or 1: want 0 and +Inf")
	}
}

// For d = 2 the tail is (1 + q/ν)^(−ν/2), so r² = ν((1−p)^(−2/ν) − 1) in
// closed form, and 2·ln(1/(1−p)) for ν = +Inf: the radius matches it from
// ν = 1e-3 (where it overflows to +Inf) to 1e12 (where it differs from
// the χ² radius by about 2e-12) within 1e-12 relative, the tail's
// rounding times the quantile's conditioning.
func TestMvtRegionRadiusTwoDimClosedForm(t *testing.T) {
	for _, nu := range []float64{1e-3, 0.05, 0.5, 3, 40, 1e6, 1e12, math.Inf(1)} {
		for _, p := range []float64{0.01, 0.5, 0.9, 0.999} {
			want := -2 * math.Log1p(-p)
			if !math.IsInf(nu, 1) {
				want = nu * math.Expm1(-2/nu*math.Log1p(-p))
			}
			got := mvtRegionRadius2(p, 2, nu)
			if math.IsInf(want, 1) && got != want || !math.IsInf(want, 1) && relErr(got, want) > 1e-12 {
				t.Errorf("ν=%g p=%g: r² = %.17g, want %.17g", nu, p, got, want)
			}
		}
	}
}

// Draws of the t, y = m + Lz·√(ν/W) with z standard normal and W ∼ χ²_ν,
// fall inside the p-region q ≤ r²(p) at rate p, and draws of the Gaussian
// N(m, LLᵀ) inside the χ²_d region (ν = +Inf), within 3 standard errors
// √(p(1−p)/n) for n = 20000 draws (fixed seed), p = 0.5, 0.9, 0.95,
// d = 2 and 5. q is computed by the density's own forward substitution.
func TestMvtRegionCoverageMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 7))
	const n = 20000
	for _, d := range []int{2, 5} {
		for _, nu := range []float64{3, 9, math.Inf(1)} {
			c := randomMvtCase(rng, d, nu, 1)
			ps := []float64{0.5, 0.9, 0.95}
			radius := make([]float64, len(ps))
			for k, p := range ps {
				radius[k] = mvtRegionRadius2(p, d, nu)
			}
			inside := make([]int, len(ps))
			z, y := make([]float64, d), make([]float64, d)
			for range n {
				scale := 1.0
				if !math.IsInf(nu, 1) {
					var w float64
					for range int(nu) {
						g := rng.NormFloat64()
						w += g * g
					}
					scale = math.Sqrt(nu / w)
				}
				for i := range z {
					z[i] = rng.NormFloat64() * scale
				}
				for i := range y {
					y[i] = c.m[i]
					for j := 0; j <= i; j++ {
						y[i] += c.l[i*(i+1)/2+j] * z[j]
					}
				}
				_, sigma, r, _ := mvtStandardize(make([]float64, d), y, c.m, c.l)
				q := sigma * sigma * r
				for k := range ps {
					if q <= radius[k] {
						inside[k]++
					}
				}
			}
			for k, p := range ps {
				rate := float64(inside[k]) / n
				se := math.Sqrt(p * (1 - p) / n)
				t.Logf("d=%d ν=%g p=%g: coverage %.4f (%.1f SE)", d, nu, p, rate, (rate-p)/se)
				if math.Abs(rate-p) > 3*se {
					t.Errorf("d=%d ν=%g p=%g: coverage %.4f, want %g ± %.4f", d, nu, p, rate, p, 3*se)
				}
			}
		}
	}
}

func BenchmarkMvtRegionRadius2(b *testing.B) {
	var sink float64
	for i := range b.N {
		sink += mvtRegionRadius2(0.9, 3, 5+float64(i%4))
	}
	_ = sink
}

// TestMvtRegionRadiusAtSmallLevels checks the radius of regions holding
// little probability, p from 1e-6 to 1e-300, against closed forms: for
// d = 2 the content of q under 2·F(2, ν) is 1 − (1 + q/ν)^(−ν/2), so
// r² = ν·(e^(−(2/ν)·ln(1−p)) − 1), and −2·ln(1−p) for the Gaussian; for
// d = 1 and ν = 1 (Cauchy) r = tan(πp/2), for the Gaussian r = √(2π)·p/2
// to a relative p² (Φ⁻¹ at ½ + p/2); for d = 16 and the Gaussian, y = r²/2
// solves e^(−y)·Σ_{k≥8} y^k/k! = p (the regularized lower gamma function),
// iterated by hand as y = (p·8!·e^y/(1 + y/9 + y²/90 + …))^(1/8) from 0.
// Tolerance 1e-12: the solve's rounding times the conditioning, which at
// small p is 1/(d/2) in ln r².
// regression: the content was formed as 1 − tail, which has no digits
// below 1e-16: r² was 1.1e-16 for every p below it at d = 2 and 0.058 at
// d = 16, and off by 5e-7 at p = 1e-10.
func TestMvtRegionRadiusAtSmallLevels(t *testing.T) {
	check := func(p float64, d int, nu, want float64) {
		t.Helper()
		if got := mvtRegionRadius2(p, d, nu); !(relErr(got, want) <= 1e-12) {
			t.Errorf("p=%g d=%d ν=%g: r² = %.17g, want %.17g", p, d, nu, got, want)
		}
	}
	for _, p := range []float64{1e-6, 1e-10, 1e-100, 1e-300} {
		for _, nu := range []float64{0.5, 3, 1e6} {
			check(p, 2, nu, nu*math.Expm1(-2/nu*math.Log1p(-p)))
		}
		check(p, 2, math.Inf(1), -2*math.Log1p(-p))
		if p >= 1e-100 {
			r := math.Tan(math.Pi * p / 2)
			check(p, 1, 1, r*r)
			r = math.Sqrt(2*math.Pi) * p / 2
			check(p, 1, math.Inf(1), r*r)
		}
		y := 0.0
		for range 50 {
			series, term := 1.0, 1.0 // Σ_{k≥8} y^k/k! = y⁸/8!·(1 + y/9 + y²/90 + …)
			for k := 9.0; term > 1e-18*series; k++ {
				term *= y / k
				series += term
			}
			y = math.Pow(p*40320*math.Exp(y)/series, 1.0/8)
		}
		check(p, 16, math.Inf(1), 2*y)
	}
}
