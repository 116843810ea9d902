package gcp

import "math"

// The continuous ranked probability score (CRPS) of a predictive
// distribution F at an outcome y is
//
//	CRPS(F, y) = ∫ (F(x) − 1{x ≥ y})² dx,
//
// in the target's units (Gneiting & Raftery 2007). It is a
// proper score: lower is better, and it rewards sharpness and calibration
// together. For a point mass it is the absolute error, so a set of
// predictions' mean CRPS is comparable with their mean absolute error;
// unlike the log density it stays finite for an outlier far in the tails
// (it grows like |y − mean| there).
//
// For a Student t with ν degrees of freedom, location m and scale s
// (Jordan, Krüger & Lerch 2019, the scoringRules paper), with
// z = (y − m)/s and f and F the standard density and distribution
// function,
//
//	CRPS = s·[z(2F(z) − 1) + 2f(z)(ν + z²)/(ν − 1)
//	          − 2√ν·B(½, ν − ½)/((ν − 1)·B(½, ν/2)²)].
//
// Derived for ν > 1, where the t has a mean, it holds for every ν > ½ by
// analytic continuation: the integral converges for ν > ½ (F's tails fall
// like |x|^−ν, so their squares are integrable), both sides are analytic
// in ν there, and the singularity at ν = 1 cancels. For ν ≤ ½ the CRPS is
// +Inf. The Gaussian is the limit ν → ∞:
// s·[z(2Φ(z) − 1) + 2φ(z) − 1/√π].

// CRPS returns the continuous ranked probability score of the prediction's
// predictive at y: the Student t (2α degrees of freedom) of a single GCP network, the
// Gaussian N(Mean, Var) of a comparator, or an ensemble's mixture. The
// first two are closed forms, accurate to 1e-11 relative; the mixture's
// is integrated numerically to about 1e-10 relative, at a cost of some
// thousands of evaluations of its members' CDFs. A Student t with 2α ≤ ½
// degrees of freedom (FixedAlpha ≤ ¼), whose tails are too heavy for the
// integral to converge, and an infinite y give +Inf; a NaN y gives NaN.
// Under the log TargetTransform the predictive is that of y = e^z,
// integrated numerically over z: finite for the Gaussians of the
// comparators, and +Inf for a Student t, whose tails in y are too heavy
// for any CRPS. Lower is better; see Prediction.CalibratedCRPS for the
// calibrated predictive.
func (p Prediction) CRPS(y float64) float64 {
	if p.given.on() {
		return p.givenCRPS(y)
	}
	if p.Transform != TransformNone {
		q := p.modeled()
		var one [1]Component
		c := q.mixture()
		if c == nil {
			one[0] = q.component()
			c = one[:]
		}
		return logMixtureCRPS(c, y)
	}
	if c := p.mixture(); c != nil {
		return mixtureCRPS(c, y)
	}
	c := p.component()
	return studentTCRPS(c.Mean, c.Scale, c.DoF, y)
}

// component returns the predictive of a single network as a Component:
// the Student t of a GCP prediction, the Gaussian N(Mean, Var) of a
// comparator's (DoF +Inf).
func (p Prediction) component() Component {
	if p.Loss.gaussian() {
		return Component{p.Mean, math.Sqrt(p.Var), math.Inf(1)}
	}
	return Component{p.Mean, p.Prior().scale(), 2 * p.Alpha}
}

// CalibratedCRPS returns the continuous ranked probability score at y of
// the calibrated predictive N(Mean, VarCorrected), in closed form; under
// the log TargetTransform, of the log-normal of y = e^z, z ~
// N(ZMean, ZVarCorrected), by numerical integration.
func (p Prediction) CalibratedCRPS(y float64) float64 {
	if p.given.on() {
		q := p.calibratedLaw()
		return q.CalibratedCRPS(y)
	}
	if p.Transform != TransformNone {
		q := p.modeled()
		return logMixtureCRPS([]Component{{q.Mean, math.Sqrt(q.VarCorrected), math.Inf(1)}}, y)
	}
	return studentTCRPS(p.Mean, math.Sqrt(p.VarCorrected), math.Inf(1), y)
}

// crpsSeriesEps bounds |ν − 1| below which studentTDist.crps takes
// ln R(ν)/(ν−1) from its Taylor series: there the difference of
// log-gammas that forms ln R directly has an absolute error of about
// 1e-15, which division by ν − 1 would make 1e-11 relative at the bound,
// while the series' first omitted term is below 1e-12.
const crpsSeriesEps = 1e-4

// The Taylor coefficients of ln R(ν) = ln(B(½, ν−½)/B(½, ν/2)) about ν = 1:
// ln R = a₁ε + a₂ε² + a₃ε³ + O(ε⁴), ε = ν − 1, from the polygamma values at
// ½ and 1: a₁ = (ψ(½) − ψ(1))/2 = −ln 2, a₂ = 3(ψ′(½) − ψ′(1))/8 = π²/8,
// a₃ = 7(ψ″(½) − ψ″(1))/48 = −7ζ(3)/4 (checked against mpmath's
// derivatives of the log-gammas).
const (
	crpsLnRA1 = -0.69314718055994530942
	crpsLnRA2 = 1.2337005501361698274
	crpsLnRA3 = -2.1035995805292899994
)

// studentTCRPS returns the CRPS at y of the Student t with dof degrees of
// freedom (+Inf for the Gaussian), location mean and scale > 0: +Inf for
// dof ≤ ½ or an infinite y, NaN for a NaN y. Where (y − mean)/scale
// overflows, |y − mean| is the CRPS to within scale/|y − mean| < 1e-308
// relative.
func studentTCRPS(mean, scale, dof, y float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(dof):
		return math.NaN()
	case !(dof > 0.5) || math.IsInf(y, 0):
		return math.Inf(1)
	}
	z := (y - mean) / scale
	if math.IsInf(z, 0) {
		return math.Abs(y - mean)
	}
	var d studentTDist
	d.set(dof)
	return scale * d.crps(z)
}

// crps returns the CRPS of the standard Student t d at z, for dof > ½.
// With ε = ν − 1, L = ln(1 + z²/ν) and R = B(½, ν−½)/B(½, ν/2), the
// formula's last two terms are 2f(0)ν·(e^(−εL/2) − R)/ε, which is
// evaluated as −2f(0)ν·(L/2·E(−εL/2) + (ln R/ε)·E(ln R)), E(x) =
// (eˣ − 1)/x: both terms stay accurate as ε → 0, where each difference
// would cancel. ln R comes from the stable ratio K(a) = Γ(a+½)/(Γ(a)√a)
// (studentTLnGammaHalfRatio) as ln K(ν/2) − ln K(ν−½) + ½·ln((ν/2)/(ν−½)),
// accurate for large ν too, where R → 1/√2.
func (d *studentTDist) crps(z float64) float64 {
	s := math.Abs(z)
	_, central := d.probs(s) // P(|T| < s): z(2F(z) − 1) = s·central
	if d.normal {
		return s*central + 2*math.Exp(d.lnNorm-0.5*s*s) - 1/math.Sqrt(math.Pi)
	}
	nu, eps := d.dof, d.dof-1
	L := math.Log1p(s * s / nu)
	if math.IsInf(L, 1) { // s² overflowed: ln(1 + s²/ν) = 2·ln s − ln ν to 1e-300
		L = 2*math.Log(s) - math.Log(nu)
	}
	var lnR, lnROverEps float64
	if math.Abs(eps) < crpsSeriesEps {
		lnROverEps = crpsLnRA1 + eps*(crpsLnRA2+eps*crpsLnRA3)
		lnR = eps * lnROverEps
	} else {
		lnR = d.lnK - studentTLnGammaHalfRatio(nu-0.5) + 0.5*(math.Log1p(eps)-math.Log1p(2*eps))
		lnROverEps = lnR / eps
	}
	f0 := math.Exp(d.lnNorm)
	return s*central - 2*f0*nu*(0.5*L*expm1Ratio(-0.5*eps*L)+lnROverEps*expm1Ratio(lnR))
}

// expm1Ratio returns (eˣ − 1)/x, and 1 at x = 0.
func expm1Ratio(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Expm1(x) / x
}
