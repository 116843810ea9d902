package gcp

import (
	"math"
	"testing"
)

func TestMixtureCRPSReference(t *testing.T) {
	// The same references, for the quadrature of every distribution,
	// single Student t's included. The panels are refined until their
	// Gauss–Kronrod error estimates sum to at most crpsTol = 1e-11 of each
	// side, and those estimates overstate the error of smooth panels by
	// orders of magnitude; the tail's cut is bounded to crpsTol of the side
	// too. 1e-10 leaves room for the members' CDFs (3e-14) and for the tail
	// bound's estimate on the heaviest tails; the requirement is 1e-8.
	const tol = 1e-10
	var worst studentTWorst
	for _, d := range crpsLoadRef(t) {
		crps := mixtureCRPS
		if d.kind == "logdist" {
			crps = logMixtureCRPS
		}
		for _, r := range d.rows["crps"] {
			got := crps(d.c, r[0])
			worst.add(studentTRelErr(got, r[1]), "%s %v y=%v: %v, want %v", d.kind, d.c, r[0], got, r[1])
		}
	}
	t.Logf("quadrature: worst relative error %.2g over %d rows (%s)", worst.err, worst.n, worst.at)
	if !(worst.err <= tol) {
		t.Errorf("quadrature: relative error %.2g > %g at %s", worst.err, tol, worst.at)
	}
}

// TestGaussKronrodExact checks the 15-point Kronrod rule and its embedded
// 7-point Gauss rule by the degrees they integrate exactly on [−1, 1]: 22
// and 13. A wrong digit in a node or a weight breaks these moments.
func TestGaussKronrodExact(t *testing.T) {
	moment := func(k int) float64 { // ∫₋₁¹ xᵏ dx
		if k%2 == 1 {
			return 0
		}
		return 2 / float64(k+1)
	}
	for k := 0; k <= 24; k++ {
		kron, gauss := gk15Kronrod[7]*math.Pow(0, float64(k)), gk15Gauss[3]*math.Pow(0, float64(k))
		for j, x := range gk15Nodes {
			p := math.Pow(x, float64(k)) + math.Pow(-x, float64(k))
			kron += gk15Kronrod[j] * p
			if j%2 == 1 {
				gauss += gk15Gauss[j/2] * p
			}
		}
		// Exact up to the rounding of 15 terms below 1: 1e-15.
		if kOK := math.Abs(kron-moment(k)) <= 1e-15; kOK != (k <= 22) && k%2 == 0 {
			t.Errorf("Kronrod rule on x^%d: %v, want %v (exact: %t)", k, kron, moment(k), k <= 22)
		}
		if gOK := math.Abs(gauss-moment(k)) <= 1e-15; gOK != (k <= 13) && k%2 == 0 {
			t.Errorf("Gauss rule on x^%d: %v, want %v (exact: %t)", k, gauss, moment(k), k <= 13)
		}
	}
}

// TestMixtureCRPSFarOutcome checks the CRPS of a mixture at outcomes so
// far from it that the integral nears float64's range: it is then
// |y − m̄| − ½·E|X − X′| for the mixture's mean m̄ (an outcome beyond all
// of its mass), and the second term, of the order of the members' scales
// (here about 1), is far below an ulp of the first (2⁹⁷⁰ ≈ 1e292 near
// 1e308): the CRPS must equal |y − m̄| to within the quadrature's
// tolerance, 1e-10 relative as in TestMixtureCRPSReference. Members 2e308 apart, both Student t's with
// 3 degrees of freedom about ±1e308 and y = MaxFloat64, are beyond y − m
// for one of them, but their CRPS is in range:
// E|X − y| − ½·E|X − X′| = MaxFloat64 − ½·1e308, and at y = −MaxFloat64/2
// the mean distance of the members less ½·1e308.
// regression: from |y| ≈ 1.7e308 the quadrature's sums overflowed to NaN,
// and from about 6.6e307 its range stopped short of the members.
func TestMixtureCRPSFarOutcome(t *testing.T) {
	c := []Component{{Mean: -0.5, Scale: 1, DoF: 3}, {Mean: 1.5, Scale: 0.5, DoF: 8}}
	const mean, tol = 0.5, 1e-10
	for _, y := range []float64{1e300, 1e307, 6e307, 1e308, 1.7e308, math.MaxFloat64} {
		for _, y := range []float64{y, -y} {
			want := math.Abs(y - mean)
			if got := mixtureCRPS(c, y); !(math.Abs(got-want) <= tol*want) {
				t.Errorf("y = %g: CRPS %v, want %v", y, got, want)
			}
		}
	}
	far := []Component{{Mean: -1e308, Scale: 1, DoF: 3}, {Mean: 1e308, Scale: 1, DoF: 3}}
	if got, want := mixtureCRPS(far, math.MaxFloat64), math.MaxFloat64-0.5e308; !(math.Abs(got-want) <= tol*want) {
		t.Errorf("members at ±1e308, y = MaxFloat64: CRPS %v, want %v", got, want)
	}
	y := -math.MaxFloat64 / 2
	if got, want := mixtureCRPS(far, y), math.Abs(-1e308-y)/2+math.Abs(1e308-y)/2-0.5e308; !(math.Abs(got-want) <= tol*want) {
		t.Errorf("members at ±1e308, y = %v: CRPS %v, want %v", y, got, want)
	}
}

// logNormalCRPS is the closed form of the CRPS of the log-normal e^Z,
// Z ~ N(m, σ²), at y > 0 (Baran & Lerch 2015): y(2Φ(w) − 1) +
// 2e^(m+σ²/2)(Φ̄(σ/√2) − Φ(w − σ)), w = (ln y − m)/σ, with Φ and its
// complement Φ̄ from erfc, so that neither term cancels in 1 − Φ.
func logNormalCRPS(m, s, y float64) float64 {
	phi := func(x float64) float64 { return math.Erfc(-x/math.Sqrt2) / 2 }
	w := (math.Log(y) - m) / s
	return y*(2*phi(w)-1) + 2*math.Exp(m+s*s/2)*(phi(-s/math.Sqrt2)-phi(w-s))
}

// TestLogCRPSAtExtremes checks the CRPS of a log model's Gaussian
// predictive against the log-normal's closed form (logNormalCRPS) where
// the integrand's factor e^z leaves float64 before the CRPS does: a
// location of 700 in z, a variance of 750, an outcome of 1e308 (and
// −1e308, below the support: −y plus the CRPS at 0). Tolerance 1e-9: the
// quadrature's 1e-10, and the closed form's e^(m + σ²/2) at arguments up
// to 700, whose rounding (700·2⁻⁵³ ≈ 1e-13) it carries.
func TestLogCRPSAtExtremes(t *testing.T) {
	// regression: e^(z₀ + t) overflowed, the integrand became +Inf and the
	// CRPS +Inf or NaN.
	type crpsCase struct{ m, v, y, want float64 }
	var cases []crpsCase
	for _, c := range []crpsCase{
		{0, 1, 1e308, 0}, {0, 1, 1e-320, 0}, {700, 1, 1, 0}, {700, 1, 1e308, 0}, {0, 750, 1, 0},
		{-700, 1, 1e-320, 0}, {400, 50, 1, 0}, {0, 1, -1e308, 0}, {700, 1, -1, 0},
	} {
		y, extra := c.y, 0.0
		if y <= 0 {
			y, extra = 0x1p-1074, -c.y
		}
		c.want = logNormalCRPS(c.m, math.Sqrt(c.v), y) + extra
		cases = append(cases, c)
	}
	// Where float64's e^(m + v/2) overflows in the closed form, and the
	// integrand's peak, at z = m + v/2, lies where e^z overflows and the
	// tail probability squared is subnormal: mpmath's closed form.
	for _, r := range loadLogNormalRefs(t) {
		if r.kind == "crps" {
			cases = append(cases, crpsCase{r.arg[0], r.arg[1], r.arg[2], r.value})
		}
	}
	for _, c := range cases {
		p := Prediction{Loss: LossGaussianML, Alpha: math.Inf(1), Members: 1, Transform: TransformLog, ZMean: c.m, ZVar: c.v, ZVarCorrected: c.v}
		want := c.want
		for name, got := range map[string]float64{"CRPS": p.CRPS(c.y), "CalibratedCRPS": p.CalibratedCRPS(c.y)} {
			if !closeRel(got, want, 1e-9) {
				t.Errorf("m = %g, v = %g, y = %g: %s %v, want %v", c.m, c.v, c.y, name, got, want)
			}
		}
	}
}

// TestCRPSAllocatesNothing: the numerically integrated CRPS (an
// ensemble's mixture, a log-transformed target's log-normal, for one
// target and for a logged target's marginal of several) allocates
// nothing, so that scoring a set of predictions costs no garbage. Its
// quadrature state, crpsQuad, was 132,896 bytes, over the 128 KiB that Go
// keeps on the stack, and every call allocated it.
func TestCRPSAllocatesNothing(t *testing.T) {
	gauss := Prediction{Loss: LossGaussianML, Mean: 1, Var: 0.3, VarCorrected: 0.3, Alpha: math.Inf(1), Members: 1}
	logged := gauss
	transformBack(&logged, TransformLog)
	ens := Prediction{Loss: LossGCP, Mean: 0.5, Var: 1, VarCorrected: 1, Alpha: 3, Beta: 1, Nu: 1, Members: 3}
	for k := range 3 {
		ens.Components[k] = Component{Mean: 0.5 * float64(k), Scale: 1 + 0.2*float64(k), DoF: 5}
	}
	ensGauss := ens
	ensGauss.Loss = LossGaussianML
	for k := range 3 {
		ensGauss.Components[k].DoF = math.Inf(1)
	}
	ensLogged := ensGauss
	transformBack(&ensLogged, TransformLog)
	// A logged target's marginal of a model of two targets.
	p := handMulti(t, 2, []float64{0.2, 1}, []float64{0.4, 0.1, 0.5}, []float64{math.Inf(1)}, 1.2)
	p.tr[0], p.logged = TransformLog, true
	marg := p.Marginal(0)
	for _, c := range []struct {
		name string
		crps func(float64) float64
	}{
		{"log CRPS", logged.CRPS}, {"log CalibratedCRPS", logged.CalibratedCRPS},
		{"ensemble CRPS", ens.CRPS}, {"log ensemble CRPS", ensLogged.CRPS},
		{"log ensemble CalibratedCRPS", ensLogged.CalibratedCRPS},
		{"logged marginal CRPS", marg.CRPS}, {"logged marginal CalibratedCRPS", marg.CalibratedCRPS},
	} {
		if v := c.crps(2); !positiveFinite(v) {
			t.Fatalf("%s: %v, want a positive CRPS", c.name, v)
		}
		if a := testing.AllocsPerRun(20, func() { c.crps(2) }); a != 0 {
			t.Errorf("%s: %v allocations a call, want 0", c.name, a)
		}
	}
}
