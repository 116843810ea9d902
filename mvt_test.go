package gcp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// mvtCase is one point of the multivariate t: y, m, packed L and ν.
type mvtCase struct {
	y, m, l []float64
	nu      float64
}

// randomMvtCase draws a well-conditioned case: L_ii ∈ [0.5, 2], |L_ij| ≤ 0.7,
// m ∈ [−2, 2]ᵈ and y within spread of m.
func randomMvtCase(rng *rand.Rand, d int, nu, spread float64) mvtCase {
	c := mvtCase{y: make([]float64, d), m: make([]float64, d), l: make([]float64, mvtPackedLen(d)), nu: nu}
	for i := range d {
		for j := 0; j <= i; j++ {
			v := 1.4*rng.Float64() - 0.7
			if i == j {
				v = 0.5 + 1.5*rng.Float64()
			}
			c.l[i*(i+1)/2+j] = v
		}
		c.m[i] = 4*rng.Float64() - 2
		c.y[i] = c.m[i] + spread*(2*rng.Float64()-1)
	}
	return c
}

// grad returns ℓ, ∂ℓ/∂ν, ∂ℓ/∂m and the packed ∂ℓ/∂(L_ij, ln L_ii).
func (c mvtCase) grad() (ll, dnu float64, gm, gl []float64) {
	d := len(c.y)
	gm, gl = make([]float64, d), make([]float64, mvtPackedLen(d))
	ll, dnu = mvtLogDensityGrad(c.y, c.m, c.l, c.nu, make([]float64, 2*d), gm, gl)
	return ll, dnu, gm, gl
}

// at returns ℓ at the case with one parameter moved: which is "m", "l"
// (L_ij off the diagonal, ln L_ii on it, index k packed) or "nu".
func (c mvtCase) at(which string, k int, delta float64) float64 {
	m, l, nu := append([]float64(nil), c.m...), append([]float64(nil), c.l...), c.nu
	switch which {
	case "m":
		m[k] += delta
	case "l":
		if i := int((math.Sqrt(float64(8*k+1)) - 1) / 2); k == i*(i+1)/2+i {
			l[k] *= math.Exp(delta)
		} else {
			l[k] += delta
		}
	case "nu":
		nu += delta
	}
	return mvtLogDensity(c.y, m, l, nu, make([]float64, len(c.y)))
}

// Every gradient component matches a central difference, for d = 1, 2, 3
// and 8, ν from 0.5 to 200, residuals near and far. The step h = 1e-5
// (ν: 1e-5·ν) leaves a truncation error of order h²·ℓ”' ≈ 1e-10 and a
// rounding error of order 1e-16·|ℓ|/h ≈ 1e-10 for |ℓ| ≈ 10, so 1e-7
// (relative above 1, absolute below) separates them from a wrong formula.
func TestMvtGradientMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	const h, tol = 1e-5, 1e-7
	var worst float64
	for _, d := range []int{1, 2, 3, 8} {
		for _, nu := range []float64{0.5, 3, 12, 200} {
			for _, spread := range []float64{0.3, 3, 30} {
				c := randomMvtCase(rng, d, nu, spread)
				_, dnu, gm, gl := c.grad()
				check := func(name string, which string, k int, got, step float64) {
					fd := (c.at(which, k, step) - c.at(which, k, -step)) / (2 * step)
					e := math.Abs(got-fd) / max(1, math.Abs(fd))
					worst = max(worst, e)
					if !(e <= tol) {
						t.Errorf("d=%d ν=%g spread=%g: %s = %.12g, central difference %.12g", d, nu, spread, name, got, fd)
					}
				}
				for k := range gm {
					check("∂ℓ/∂m"+strconv.Itoa(k), "m", k, gm[k], h)
				}
				for k := range gl {
					check("∂ℓ/∂L["+strconv.Itoa(k)+"]", "l", k, gl[k], h)
				}
				check("∂ℓ/∂ν", "nu", 0, dnu, h*nu)
			}
		}
	}
	t.Logf("worst error against central differences: %.2g", worst)
}

// For d = 1 the multivariate t is the one-dimensional predictive: with
// L_11 = √(β(ν+1)/(να)) and ν_t = 2α it reproduces
// NormalGamma.LogPredictive, and its gradient, by the chain rule through
// ln L_11 = ½ln β + ½ln(1 + 1/ν) − ½ln α and ν_t = 2α, reproduces
// NormalGamma.Grad. The tolerance, 1e-12 (relative above 1, absolute
// below), allows the few roundings by which the two routes differ (ln L
// against ln σ, and the two lnΓ ratios), each a few ulps of terms up to
// |ℓ| ≈ 50.
func TestMvtOneDimIsNormalGamma(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	var worst float64
	for n := range 400 {
		p := NormalGamma{
			M:     4*rng.Float64() - 2,
			Nu:    math.Exp(8*rng.Float64() - 4),
			Alpha: math.Exp(20*rng.Float64() - 6),
			Beta:  math.Exp(6*rng.Float64() - 3),
		}
		y := p.M + math.Exp(12*rng.Float64()-6)*float64(1-2*(n%2))
		c := mvtCase{y: []float64{y}, m: []float64{p.M}, l: []float64{p.scale()}, nu: 2 * p.Alpha}
		ll, dnu, gm, gl := c.grad()
		dm, da, db, dn := p.Grad(y)
		for _, pair := range [][3]float64{
			{0, ll, p.LogPredictive(y)},
			{1, gm[0], -dm},
			{2, gl[0] / (2 * p.Beta), -db},
			{3, 2*dnu - gl[0]/(2*p.Alpha), -da},
			{4, -gl[0] / (2 * p.Nu * (p.Nu + 1)), -dn},
		} {
			e := math.Abs(pair[1]-pair[2]) / max(1, math.Abs(pair[2]))
			worst = max(worst, e)
			if !(e <= 1e-12) {
				t.Errorf("%+v, y=%g: component %d: multivariate %.17g, NormalGamma %.17g", p, y, int(pair[0]), pair[1], pair[2])
			}
		}
	}
	t.Logf("worst difference: %.2g", worst)
}

// The log-density matches mpmath's, computed from det S and S⁻¹ (not from
// the Cholesky factor), at 25 points in d = 1…8, ν from 0.3 to 1e6. The
// tolerance, 1e-13 relative above 1 (absolute below), is a few hundred
// ulps: the forward substitution and the lnΓ ratio each round a few times.
func TestMvtLogDensityMatchesMpmath(t *testing.T) {
	var worst float64
	for _, r := range mvtRefs(t, "logpdf") {
		d, nu := int(r.num(t, 0)), r.num(t, 1)
		vec := func(i int) []float64 {
			var v []float64
			for _, f := range strings.Split(r.fields[i], ";") {
				x, err := strconv.ParseFloat(f, 64)
				if err != nil {
					t.Fatalf("%s: %v", r.line, err)
				}
				v = append(v, x)
			}
			return v
		}
		l, m, y, want := vec(2), vec(3), vec(4), r.num(t, 5)
		if len(l) != mvtPackedLen(d) || len(m) != d || len(y) != d {
			t.Fatalf("%s: malformed row", r.line)
		}
		got := mvtLogDensity(y, m, l, nu, make([]float64, d))
		e := math.Abs(got-want) / max(1, math.Abs(want))
		worst = max(worst, e)
		if !(e <= 1e-13) {
			t.Errorf("%s: ln t = %.17g, want %.17g", r.line, got, want)
		}
	}
	t.Logf("worst error: %.2g", worst)
}

// gaussianReference returns ln N(y | m, LLᵀ) and its gradient, the ν → ∞
// limit, written out independently: ℓ = −(d/2)ln 2π − Σ ln L_ii − q/2,
// ∂ℓ/∂m = u, ∂ℓ/∂L_ij = u_i z_j, ∂ℓ/∂ln L_ii = L_ii u_i z_i − 1, for the
// well-scaled cases of the test (no overflow guards).
func gaussianReference(c mvtCase) (ll float64, gm, gl []float64) {
	d := len(c.y)
	z, u := make([]float64, d), make([]float64, d)
	ll = -float64(d) / 2 * math.Log(2*math.Pi)
	for i := range d {
		s := c.y[i] - c.m[i]
		for j := range i {
			s -= c.l[i*(i+1)/2+j] * z[j]
		}
		z[i] = s / c.l[i*(i+1)/2+i]
		ll -= math.Log(c.l[i*(i+1)/2+i]) + z[i]*z[i]/2
	}
	for i := d - 1; i >= 0; i-- {
		s := z[i]
		for j := i + 1; j < d; j++ {
			s -= c.l[j*(j+1)/2+i] * u[j]
		}
		u[i] = s / c.l[i*(i+1)/2+i]
	}
	gl = make([]float64, mvtPackedLen(d))
	for i := range d {
		for j := range i {
			gl[i*(i+1)/2+j] = u[i] * z[j]
		}
		gl[i*(i+1)/2+i] = c.l[i*(i+1)/2+i]*u[i]*z[i] - 1
	}
	return ll, u, gl
}

// As ν → ∞ the t tends to the Gaussian N(m, LLᵀ): at ν = +Inf exactly and
// at ν = 1e14, where the difference is O(q²/ν) ≈ 1e-13, the value and the
// gradient match the Gaussian's within 1e-12, and ∂ℓ/∂ν → 0.
func TestMvtGaussianLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	for _, d := range []int{1, 3, 8} {
		for _, nu := range []float64{1e14, math.Inf(1)} {
			c := randomMvtCase(rng, d, nu, 1)
			ll, dnu, gm, gl := c.grad()
			wantLL, wantM, wantL := gaussianReference(c)
			got := append(append([]float64{ll, dnu}, gm...), gl...)
			want := append(append([]float64{wantLL, 0}, wantM...), wantL...)
			for k := range got {
				if e := math.Abs(got[k] - want[k]); !(e <= 1e-12*max(1, math.Abs(want[k]))) {
					t.Errorf("d=%d ν=%g: output %d = %.17g, Gaussian %.17g", d, nu, k, got[k], want[k])
				}
			}
		}
	}
}

// Far outliers and tiny ν keep every output finite where the true value is
// finite. For L = I, e = (E, 0, …) with E = 1e300 (q = E² overflows) the
// value is known in closed form, ℓ = lnΓ((ν+d)/2) − lnΓ(ν/2) −
// (d/2)ln(νπ) − ((ν+d)/2)·(2 ln E − ln ν + ln(1 + ν/E²)); the gradient
// tends to ∂ℓ/∂m₁ = (ν+d)/E, ∂ℓ/∂ln L_11 = ν + d − 1 and −1 on the other
// diagonal entries.
func TestMvtExtremesStayFinite(t *testing.T) {
	for _, d := range []int{1, 2, 5} {
		for _, nu := range []float64{1e-300, 1e-8, 0.5, 7, 1e12} {
			for _, big := range []float64{1e300, -1e300, 1e20, 0} {
				c := mvtCase{y: make([]float64, d), m: make([]float64, d), l: make([]float64, mvtPackedLen(d)), nu: nu}
				for i := range d {
					c.l[i*(i+1)/2+i] = 1
				}
				c.y[0] = big
				ll, dnu, gm, gl := c.grad()
				outs := append(append([]float64{ll, dnu}, gm...), gl...)
				for k, v := range outs {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("d=%d ν=%g e₁=%g: output %d = %g", d, nu, big, k, v)
					}
				}
				if big == 0 {
					continue
				}
				lg1, _ := math.Lgamma((nu + float64(d)) / 2)
				lg2, _ := math.Lgamma(nu / 2)
				lnE := math.Log(math.Abs(big))
				want := lg1 - lg2 - float64(d)/2*math.Log(nu*math.Pi) - (nu+float64(d))/2*(2*lnE-math.Log(nu)+math.Log1p(nu/big/big))
				// math.Lgamma's difference cancels for ν = 1e12 (about
				// 1e-4 absolute there); elsewhere a few ulps of |ℓ|.
				tol := 1e-12 * max(1, math.Abs(want))
				if nu > 1e6 {
					tol += 1e-3
				}
				if math.Abs(ll-want) > tol {
					t.Errorf("d=%d ν=%g e₁=%g: ℓ = %.17g, want %.17g", d, nu, big, ll, want)
				}
				if big == 1e300 && nu < 1e6 {
					if e := relErr(gm[0], (nu+float64(d))/big); e > 1e-12 {
						t.Errorf("d=%d ν=%g: ∂ℓ/∂m₁ = %g, want %g", d, nu, gm[0], (nu+float64(d))/big)
					}
					// gl[0] = w·z₁² − 1 with w·z₁² ≈ ν + d: the subtraction
					// cancels, so its error is a few ulps of ν + d (and of
					// the 1), not of the result (ν = 1e-8 and d = 1 leave
					// 1e-8 from two terms near 1; arm64's fused multiply-add
					// rounds them otherwise than amd64, 3.6e-17 apart).
					if e := math.Abs(gl[0] - (nu + float64(d) - 1)); e > 8*0x1p-52*(nu+float64(d)) {
						t.Errorf("d=%d ν=%g: ∂ℓ/∂ln L_11 = %.17g, want %.17g", d, nu, gl[0], nu+float64(d)-1)
					}
				}
			}
		}
	}
	if ll := mvtLogDensity([]float64{1}, []float64{0}, []float64{1}, 0, make([]float64, 1)); !math.IsNaN(ll) {
		t.Errorf("ν = 0: ℓ = %g, want NaN", ll)
	}
}

// The float32 instantiation, which a float32 model's kernel runs, agrees
// with the float64 reference to float32 rounding of its inputs and
// outputs (1e-5 relative above 1).
func TestMvtFloat32AgreesWithFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 4))
	c := randomMvtCase(rng, 4, 6, 2)
	for i := range c.y { // round the inputs so both see the same numbers
		c.y[i], c.m[i] = float64(float32(c.y[i])), float64(float32(c.m[i]))
	}
	for i := range c.l {
		c.l[i] = float64(float32(c.l[i]))
	}
	ll, dnu, gm, gl := c.grad()
	f32 := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	gm32, gl32 := make([]float32, len(gm)), make([]float32, len(gl))
	ll32, dnu32 := mvtLogDensityGrad(f32(c.y), f32(c.m), f32(c.l), c.nu, make([]float64, 8), gm32, gl32)
	got := append([]float64{ll32, dnu32}, append(widen(gm32), widen(gl32)...)...)
	want := append([]float64{ll, dnu}, append(gm, gl...)...)
	for k := range got {
		if math.Abs(got[k]-want[k]) > 1e-5*max(1, math.Abs(want[k])) {
			t.Errorf("output %d: float32 %g, float64 %g", k, got[k], want[k])
		}
	}
}

// widen converts float32s to float64s.
func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// The per-row loss and gradient allocate nothing: the caller owns every
// buffer (the Step hot path).
func TestMvtLogDensityGradAllocatesNothing(t *testing.T) {
	c := randomMvtCase(rand.New(rand.NewPCG(34, 5)), 3, 5, 1)
	work, gm, gl := make([]float64, 6), make([]float64, 3), make([]float64, 6)
	if n := testing.AllocsPerRun(100, func() {
		mvtLogDensityGrad(c.y, c.m, c.l, c.nu, work, gm, gl)
		mvtLogDensity(c.y, c.m, c.l, c.nu, work)
	}); n != 0 {
		t.Errorf("%g allocations per call", n)
	}
}

func BenchmarkMvtLogDensityGrad(b *testing.B) {
	c := randomMvtCase(rand.New(rand.NewPCG(34, 6)), 3, 5, 1)
	work, gm, gl := make([]float64, 6), make([]float64, 3), make([]float64, 6)
	var sink float64
	for range b.N {
		ll, _ := mvtLogDensityGrad(c.y, c.m, c.l, c.nu, work, gm, gl)
		sink += ll
	}
	_ = sink
}

// TestMvtBeyondTheDoublesScales checks points whose standardized
// distance z = L⁻¹(y − m) exceeds the largest float64 while y and m do
// not: y − m = (1e300, 0) and (2·MaxFloat64, 0), the latter from y and m
// at ±MaxFloat64, under L = 1e-150·(1 0; ρ 1) with ρ = 0 and 0.3, where
// ln q = 2 ln|e₁/L_11| + ln(1 + ρ²) is about 2072. The log density of the
// t is finite, ln(ν/2) − ln(νπ) − Σ ln L_ii − ((ν+2)/2)·(ln q − ln ν)
// for d = 2 (Γ(ν/2 + 1) = (ν/2)Γ(ν/2); ln(1 + ν/q) is below 1e-800); the
// distance is +Inf and the point outside every region. Tolerance 1e-12
// of |ℓ|: a few roundings of terms of order 1e3 to 1e9.
// regression: z overflowed, to ±Inf or, through 0·Inf, NaN, and ℓ was
// −Inf or NaN.
func TestMvtBeyondTheDoublesScales(t *testing.T) {
	const s = 1e-150
	for _, rho := range []float64{0, 0.3} {
		l := []float64{s, rho * s, s}
		for _, c := range []struct {
			y, m []float64
			lnE  float64 // ln|y₁ − m₁|
		}{
			{[]float64{1e300, 0}, []float64{0, 0}, math.Log(1e300)},
			{[]float64{math.MaxFloat64, 0}, []float64{-math.MaxFloat64, 0}, math.Ln2 + math.Log(math.MaxFloat64)},
		} {
			lnQ := 2*(c.lnE-math.Log(s)) + math.Log1p(rho*rho)
			for _, nu := range []float64{0.5, 3, 1e6} {
				want := math.Log(nu/2) - math.Log(nu*math.Pi) - 2*math.Log(s) - (nu+2)/2*(lnQ-math.Log(nu))
				got := mvtLogDensity(c.y, c.m, l, nu, make([]float64, 2))
				if !(math.Abs(got-want) <= 1e-12*math.Abs(want)) {
					t.Errorf("ρ = %g, ln e₁ = %g, ν = %g: ℓ = %.17g, want %.17g", rho, c.lnE, nu, got, want)
				}
				if nu < 2 {
					continue
				}
				p := handMulti(t, 2, c.m, l, []float64{nu}, 1)
				if got := p.LogPDF(c.y); !(math.Abs(got-want) <= 1e-12*math.Abs(want)) {
					t.Errorf("ρ = %g, ln e₁ = %g, ν = %g: LogPDF = %.17g, want %.17g", rho, c.lnE, nu, got, want)
				}
				if got := p.Mahalanobis(c.y); !math.IsInf(got, 1) {
					t.Errorf("ρ = %g, ln e₁ = %g, ν = %g: Mahalanobis = %v, want +Inf", rho, c.lnE, nu, got)
				}
				if in, err := p.Inside(c.y, 0.99); in || err != nil {
					t.Errorf("ρ = %g, ln e₁ = %g, ν = %g: Inside = %v, %v, want false", rho, c.lnE, nu, in, err)
				}
			}
		}
	}
}
