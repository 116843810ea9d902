package gcp

import "math"

// The uniform mixture of K location-scale Student-t predictives, the
// prediction of an ensemble: density, CDF, quantile and central interval.
//
// The quantile solves F(y) = q on the lower tail (or, mirrored, the upper
// tail on the upper one), where F is evaluated exactly: each member's tail
// costs one Student-t tail (100–500 ns), so the scheme is built to need one
// evaluation per end:
//
//  1. guess: every member's quantile at q from the leading terms of the
//     tail's large-ν expansion (no root finding), combined by solving the
//     mixture of their local ln-quadratic CDF models; typically within a few
//     thousandths of a scale.
//  2. local: at that point the exact tails, and from the members' densities
//     the Taylor series of ln F to the degree the step needs, at most
//     mixtureOrder (the densities' derivatives follow from a three-term
//     recurrence, so the series costs a few flops per member and order).
//  3. step: the root of that series polynomial, accepted when the first
//     neglected term says it is within mixtureStopTol; otherwise it is the
//     next point, inside a bracket kept from the signs of F − q, with
//     bisection as the safeguard.
//
// An interval shares the members' constants and the start between its
// ends, and one exact tail per member (pretail): both ends see a member at
// ∓u + δ in its own units, and the Taylor series of its tail about u gives
// both from one evaluation.
//
// Accuracy: the returned y satisfies |y − y*| ≤ 1e-10·max(|y*|, σ_min) +
// 2⁻⁵⁰·max_k |mean_k| for the exact quantile y* of the given members,
// σ_min the smallest member scale. Relative accuracy is what a quantile far
// from 0 needs; near 0 there is no relative accuracy to speak of, and σ_min
// is the finest scale on which F changes: an error of 1e-10·σ_min moves F
// by less than 1e-10·σ_min times the mixture's peak density, at most
// 0.4/σ_min, so by less than 4e-11. The last term is the
// resolution of the inputs themselves: moving every mean by one ulp moves
// y* by as much, and y − mean is rounded to it (it matters for a root in
// the gap between members 1e6 scales apart, at y* ≈ 0). Where F is flat to
// below the smallest float64 (Gaussians thousands of scales apart, with the
// root between them), any y at which F rounds to q is returned.

// MaxMembers is the most networks a model may hold (Config.Members), and
// the most components a Prediction's mixture holds. It is 20 so that a
// Prediction can carry the mixture of Stein variational gradient
// descent's 20 particles, Liu & Wang's M = 20 (package bayes).
const MaxMembers = 20

// Component is one member's predictive inside an ensemble's mixture: the
// location-scale Student t with DoF degrees of freedom, whose density at
// y is t_DoF((y − Mean)/Scale)/Scale. DoF is +Inf for the Gaussian
// N(Mean, Scale²) of a comparator loss.
type Component struct{ Mean, Scale, DoF float64 }

const (
	// mixtureOrder is the largest degree of the local series of ln F
	// (mixtureLocal.series takes the least from 2 on that the step needs).
	// From the start's typical error, a few thousandths of the local length
	// F/f, its first neglected term is far below mixtureStopTol at degree 5
	// already (measured: one evaluation per end for every typical mixture
	// and probability in [1e-12, 1−1e-12]); 6 leaves a margin. Typical GCP
	// members' starts, within about 1e-4 of F/f, need degree 2 or 3; the
	// heavier tails of dof below 5, whose starts are within about 2e-2,
	// need 5 or 6.
	mixtureOrder = 6
	// mixtureStopTol: a step is accepted when the series' first neglected
	// term, times the length unit, is below mixtureStopTol·max(|y|, σ_min).
	// That term estimates the error rather than bounding it, so it is kept
	// 100 times below the 1e-10 promised.
	mixtureStopTol = 1e-12
	// mixtureMaxSteps bounds the solver's loop. At most two steps in a row
	// leave the bracket's span in the order of the float64s above half of
	// what it was two steps before; the third is a bisection (see solve
	// and bisect), which halves that span (at most 64 times), halves a
	// bracket already within 1024 scales (at most about 50 times to the
	// tolerance), tries a member mean (at most K times) or the float64
	// beside a narrow member's mean (at most 2K times), or splits at 0
	// (once): so 3·(64+50+60+1) = 525 steps always end the loop.
	mixtureMaxSteps = 525

	// mixtureGuessMinDoF is the dof from which a member's quantile guess
	// comes from the large-ν expansion; below it (w = ν/2 − ¼ < ¾) the
	// expansion is poor and the member's own quantile start
	// (upperQuantileStart) is used.
	mixtureGuessMinDoF = 2
	// mixtureGuessTol and mixtureGuessMaxSteps end refine: the step after
	// a model residual |ln(F/q)| ≤ 0.3 leaves about 0.3² of it, which the
	// exact series absorbs in its one evaluation.
	mixtureGuessTol      = 0.3
	mixtureGuessMaxSteps = 4

	// mixtureAnchorTerms caps pretail's series, which sums until a pair
	// of terms is below 2⁻⁵⁴ of it. mixtureAnchorDrift and
	// mixtureAnchorPole are the largest offsets δ, in units of the rates
	// of mixtureMember.rates, it takes on: the terms then shrink about like
	// 2ʲ/j! and 0.3ʲ (times a power of j, the pole's order less one), so
	// that 40 terms reach 2⁻⁵⁴; a member whose series has not converged by
	// then is evaluated exactly instead. Measured on heavy-tailed members
	// (dof 0.5–5, 140,000 anchors): below a pole rate of 0.25 every series
	// converged, and 99.5% between 0.25 and 0.3 (in 17 pairs of terms on
	// average); between 0.3 and 0.35 41% failed, after 19 pairs that cost
	// more than the second tail they were to save, and from 0.4 on all.
	mixtureAnchorTerms = 40
	mixtureAnchorDrift = 2
	mixtureAnchorPole  = 0.3
)

// mixtureRecip holds 1/n, so that the Taylor recurrences multiply instead of
// dividing in their dependent chains.
var mixtureRecip = func() (r [mixtureAnchorTerms + 1]float64) {
	for n := 1; n < len(r); n++ {
		r[n] = 1 / float64(n)
	}
	return r
}()

// mixtureLogPDF returns ln((1/K) Σ f_k(y)) by log-sum-exp. Each ln f_k
// is formed directly (as in Student-t's logDensity), so the result stays
// finite and accurate to a few ulps of the largest |ln f_k| however far y
// lies in the tails; only a mixture of Gaussians alone, more than about
// 1e154 scales away, gives −Inf, its true value being below −1e308.
func mixtureLogPDF(c []Component, y float64) float64 {
	var lnf [MaxMembers]float64
	var d studentTDist
	for i, ci := range c {
		d.set(max(ci.DoF, studentTMinDoF))
		lnf[i] = ci.logDensity(&d, y)
	}
	top, sum := expShift(lnf[:len(c)])
	if sum == 0 {
		return top
	}
	return top + math.Log(sum/float64(len(c)))
}

// mixtureCDF returns (1/K) Σ F_k(y), each F_k = studentTCDF of the
// standardized y (so for K = 1 it is studentTCDF's value exactly). Its
// relative error is studentTCDF's (3e-14 where F ≥ 1e-12) plus the
// rounding of the sum.
func mixtureCDF(c []Component, y float64) float64 {
	var sum float64
	for _, ci := range c {
		sum += studentTCDF(ci.standardize(y), ci.DoF)
	}
	return sum / float64(len(c))
}

// mixtureQuantile returns the y with mixtureCDF(y) = prob, prob in (0,1), by
// a bracketed root of the mixture CDF, to 1e-10 relative (the criterion is
// stated at the top of this file). Above ½ it solves for the upper tail
// 1 − prob, which is exact there, so no tail is lost to rounding.
func mixtureQuantile(c []Component, prob float64) float64 {
	y, _ := mixtureRun(c, prob, false)
	return y
}

// quantile is mixtureQuantile for the members of mx.
func (mx *mixture) quantile(prob float64) float64 {
	if prob <= 0.5 {
		lo, _ := mx.guess(prob, [2]bool{true, false})
		return mx.solve(1, prob, lo)
	}
	q := 1 - prob
	_, hi := mx.guess(q, [2]bool{false, true})
	return -mx.solve(-1, q, -hi)
}

// mixtureInterval returns the central interval holding probability level,
// level in (0,1): the (1−level)/2 and 1−(1−level)/2 quantiles (a mixture is
// not symmetric, so no mirroring); the upper end solves for its tail
// (1−level)/2 directly. The two ends share the members' constants, the
// start (guess) and one exact tail per member (pretail). Where the ends are
// closer than their accuracy (level within about 1e-10 of 0), lo ≤ hi is
// kept by returning their midpoint for both if rounding crossed them.
func mixtureInterval(c []Component, level float64) (lo, hi float64) {
	return mixtureRun(c, level, true)
}

// mixtureRun returns mx.interval(p) if interval, else mx.quantile(p) (as
// lo), for a mixture of c whose members live in an array on this stack
// frame: of mixtureSmall members where they fit, else of MaxMembers.
func mixtureRun(c []Component, p float64, interval bool) (lo, hi float64) {
	if len(c) <= mixtureSmall {
		var m [mixtureSmall]mixtureMember
		return mixtureRunIn(m[:len(c)], c, p, interval)
	}
	var m [MaxMembers]mixtureMember
	return mixtureRunIn(m[:len(c)], c, p, interval)
}

// mixtureRunIn is mixtureRun with the members in m, as long as c. The
// mixture is a value here, not reached through a pointer, so that m
// does not escape to the heap.
func mixtureRunIn(m []mixtureMember, c []Component, p float64, interval bool) (lo, hi float64) {
	mx := mixture{m: m}
	mx.init(c)
	if interval {
		return mx.interval(p)
	}
	return mx.quantile(p), 0
}

// interval is mixtureInterval for the members of mx.
func (mx *mixture) interval(level float64) (lo, hi float64) {
	q := (1 - level) / 2
	lo0, hi0 := mx.guess(q, [2]bool{true, true})
	mx.pretail(lo0, hi0)
	lo, hi = mx.solve(1, q, lo0), -mx.solve(-1, q, -hi0)
	if lo > hi { // the ends are closer than their accuracy (a level near 0)
		lo = lo/2 + hi/2
		hi = lo
	}
	return lo, hi
}

// standardize returns s = (y − mean)/scale; where y − mean overflows, it is
// formed as y/scale − mean/scale, which then has no cancellation (y and
// mean have opposite signs).
func (c Component) standardize(y float64) float64 {
	r := y - c.Mean
	if math.IsInf(r, 0) {
		return y/c.Scale - c.Mean/c.Scale
	}
	return r / c.Scale
}

// logDensity returns ln of c's density at y, given d, c's standard
// distribution. Where the standardized s overflows, a Student t's
// ln(1+s²/ν) is 2·ln|s| − ln ν to within ν/s² < 1e-300, with ln|s| formed
// from the halved difference; a Gaussian's is below −s²/2 < −1.6e616.
func (c Component) logDensity(d *studentTDist, y float64) float64 {
	lnScale := math.Log(c.Scale)
	s := c.standardize(y)
	if !math.IsInf(s, 0) {
		lnf, _ := d.density(math.Abs(s))
		return lnf - lnScale
	}
	if d.normal {
		return math.Inf(-1)
	}
	lns := math.Log(math.Abs(y/2-c.Mean/2)) + math.Ln2 - lnScale
	return d.lnNorm - (d.a+0.5)*(2*lns-math.Log(d.dof)) - lnScale
}

// expShift replaces each v[i] by e^(v[i]−top), top = max v, and returns top
// and the sum of the new values (0 if every v[i] is −Inf): the log-sum-exp
// of v is top + ln sum.
func expShift(v []float64) (top, sum float64) {
	top = math.Inf(-1)
	for _, x := range v {
		if x > top {
			top = x
		}
	}
	if math.IsInf(top, -1) {
		for i := range v {
			v[i] = 0
		}
		return top, 0
	}
	for i, x := range v {
		v[i] = math.Exp(x - top)
		sum += v[i]
	}
	return top, sum
}

// mixtureMember is one member of a call: its constants, computed once per
// call, pretail's results, guess's model and local's values at its point.
type mixtureMember struct {
	c      Component
	d      studentTDist
	iscale float64 // 1/scale: the hot loops multiply by it instead of dividing
	inv    float64 // 1/ν (0 for the normal)
	rinv   float64 // √(1/ν)
	iw     float64 // 1/w, w = ν/2 − ¼, for guess (dof ≥ mixtureGuessMinDoF)
	lnKw   float64 // ln(Γ(a+½)/(Γ(a)·√(a−¼))), for guess (dof ≥ mixtureGuessMinDoF)
	f0     float64 // f(0) = K(a)/√(2π) to 3e-7, for guess (dof ≥ mixtureGuessMinDoF)

	// pretail's results, valid if preOK: the lower tail and the standard
	// density at pre[0], and the upper tail and density at −pre[1].
	preOK                bool
	preLower, preUpper   float64
	preDLower, preDUpper float64

	// guess's model of the member's tail about its quantile yₖ = mean ∓ dev
	// (lower, upper): its first two log-derivatives λₖ and μₖ there, and
	// the offset −λₖ/μₖ of the model's vertex.
	dev, lam, mu, vertex float64

	// local's values at its point: taylorArgs there, the rates of the
	// member's terms per unit of t (rates), its density series in steps of
	// the length L and that series' last two terms (series).
	sx, sqx      float64
	entire, pole float64
	ds           densitySeries
	cs           [2]float64
}

// mixtureSmall is the most members a call keeps in an array of that size
// rather than of MaxMembers: Go clears the array on every call, and the
// usual ensembles (5 members, say) need not pay for clearing 20 members.
const mixtureSmall = 8

// mixture is the state of one call. It and its members live on the
// caller's stack.
type mixture struct {
	m        []mixtureMember // one per component
	minScale float64
	pre      [2]float64          // the points of pretail: lower, and upper mirrored
	e        [MaxMembers]float64 // local's member densities (or their logarithms), then their shares
}

// init sets up the members of c in mx.m, of the same length (1..MaxMembers).
func (mx *mixture) init(c []Component) {
	mx.minScale = math.Inf(1)
	for i, ci := range c {
		m := &mx.m[i]
		m.c = ci
		m.d.set(max(ci.DoF, studentTMinDoF))
		m.iscale = 1 / ci.Scale
		m.inv = 1 / m.d.dof
		m.rinv = math.Sqrt(m.inv)
		if !m.d.normal && m.d.dof >= mixtureGuessMinDoF {
			m.iw = 1 / (m.d.a - 0.25)
			r := 0.5 * m.inv                               // ¼/a
			m.lnKw = m.d.lnK + 0.5*r*(1+r*(0.5+r*(1.0/3))) // −½·ln(1−r) to 5e-4, plenty for a start
			// f(0) = e^l/√(2π), l = ln K(a) in [ln K(1), 0) = [−0.121, 0),
			// by the Taylor polynomial of degree 4, within |l|⁵/5!/e^l < 3e-7
			// (expModel's exponential took twice as long to reach).
			l := m.d.lnK
			m.f0 = (1 + l*(1+l*(1.0/2+l*(1.0/6+l*(1.0/24))))) * (1 / math.Sqrt(2*math.Pi))
		}
		mx.minScale = min(mx.minScale, ci.Scale)
	}
}

// standardize returns c.standardize(y) with the division by the scale
// replaced by a product with its reciprocal (an ulp more of rounding, far
// below the accuracy a root needs), where that product is finite (a
// subnormal scale has no finite reciprocal, 0·Inf would be NaN, and
// y − mean may overflow). Elsewhere it is c.standardize's own formulas,
// written out: with a call to it the method would exceed the compiler's
// inlining budget, and the loops over the members that call it would spill
// their registers around each call (4% of an interval).
func (m *mixtureMember) standardize(y float64) float64 {
	r := y - m.c.Mean
	if s := r * m.iscale; math.Abs(s) <= math.MaxFloat64 {
		return s
	}
	if math.Abs(r) <= math.MaxFloat64 {
		return r / m.c.Scale
	}
	return y/m.c.Scale - m.c.Mean/m.c.Scale
}

// taylorArgs returns s·x and √x, x = ν/(ν+s²) (1 for the normal), the
// arguments of the density's Taylor series at s (densitySeries). Beyond
// r = |s|/√ν = 1 they are formed from 1/r, as s·x = (s/r)·(x·r) and
// √x = (1/r)·√(x·r²), so that neither underflows while s is finite (x
// itself underflows from |s| ≈ 1e154√ν on, where s·x ≈ ν/s is still far
// from 0); one formula with r or 1/r keeps the method within the
// compiler's inlining budget.
func (m *mixtureMember) taylorArgs(s float64) (sx, sqx float64) {
	a, num := math.Abs(s)*m.rinv, 1.0 // r, or beyond r = 1 both 1/r
	if a > 1 {
		a = 1 / a
		num = a
	}
	id := 1 / (1 + a*a)
	return (s * num) * (num * id), num * math.Sqrt(id)
}

// rates returns the rates, per unit of s, at which the Taylor coefficients
// of the member's density about s grow, given taylorArgs: the entire part,
// the larger of the drift (1+1/ν)·|s|·x of ln f and its curvature √x
// (≤ 1), whose terms go like (rate·δ)ʲ/j!; and the inverse distance
// 1/√(ν+s²) = √(x/ν) to the density's poles at ±i√ν, whose terms go like
// (pole·δ)ʲ (0 for the normal).
func (m *mixtureMember) rates(sx, sqx float64) (entire, pole float64) {
	if entire = (1 + m.inv) * math.Abs(sx); sqx > entire {
		entire = sqx
	}
	return entire, sqx * m.rinv
}

// guess returns starting points for the lower and the upper quantile at
// tail probability q in (0, ½], those of want (lower, upper; the other is
// the model's rough start).
//
// Each member's quantile comes from the large-ν expansion of its tail
// (incBetaLargeAHalf): with X = Φ̄⁻¹(q)/√2 (erfc(X) = 2q, one shared
// inverse), λ = −d ln erfc/dX there, and w = ν/2 − ¼, the tail
// ½·K′·erfc(√z)·(1 + d₁·Γ(5/2, z)/(Γ(½, z)·w²)), z = w·ln(1+t²/ν),
// equals q at √z = X + (ln K′ + ln(1 + d₁…))/λ to first order, K′ =
// Γ(a+½)/(Γ(a)·√w): good to about 1e-4 relative at dof 20 and better above.
// (Gaussians use X itself, dof below mixtureGuessMinDoF upperQuantileStart.)
//
// Each member's lower tail is then modelled about its own quantile yₖ by
// ln Fₖ ≈ ln q + φₖ, φₖ = λₖdₖ + ½μₖdₖ² (dₖ = y − yₖ, λₖ and μₖ its exact
// first two log-derivatives there), and the model mixture's root, where
// ln((1/K)Σe^φₖ) = 0, is the start: from the λ-weighted mean of the yₖ, a
// second-order correction, then refine's Newton steps.
func (mx *mixture) guess(q float64, want [2]bool) (lower, upper float64) {
	z := studentTNormalTailGuess(q)
	x := z / math.Sqrt2
	lnq := math.Log(q)
	lambda := expModel(-x*x-lnq) / math.SqrtPi // 2e^(−X²)/(√π·erfc X)
	mills := x * lambda / 2                    // z^½·e^(−z)/Γ(½, z) at z = X²
	ilambda := 1 / lambda
	var g mixtureGuess
	for i := range g.lo {
		g.lo[i], g.hi[i] = math.Inf(1), math.Inf(-1)
	}
	var wsum float64
	for i := range mx.m {
		m := &mx.m[i]
		var t, tx, lam float64 // tx = t·ν/(ν+t²), the argument of the slope
		switch {
		case m.d.normal:
			t, tx = z, z
			lam = expModel(m.d.lnNorm-0.5*z*z-lnq) * m.iscale
		case m.d.dof >= mixtureGuessMinDoF:
			x0 := x + m.lnKw*ilambda
			x1 := x0 + studentTSinhcCoef[1]*(0.75+(x0*x0+1.5)*mills)*(m.iw*m.iw)*ilambda
			tau := x1 * x1 * m.iw
			em1 := expm1Model(tau) // t²/ν
			t = math.Copysign(math.Sqrt(m.d.dof*em1), x1)
			if tx = t / (1 + em1); math.IsInf(em1, 1) {
				tx = 0 // its limit ν/t, where t overflowed (q near the smallest float64)
			}
			// f(t)/q = f(0)·e^(−(a+½)τ)/q with e^(−(a+½)τ)/q =
			// e^(−X²)/q·e^(−(X₁²−X²))·e^(−¾τ) and e^(−X²)/q = √π·λ:
			// small exponents only.
			lam = m.f0 * math.SqrtPi * lambda * expModel(-(x1-x)*(x1+x)-0.75*tau) * m.iscale
		default:
			u, _ := m.d.upperQuantileStart(q)
			t = expModel(u)
			lnf, _ := m.d.logDensity(t)
			lam = expModel(lnf-lnq) * m.iscale
			tx, _ = m.taylorArgs(t)
		}
		slope := (1 + m.inv) * tx * m.iscale // d ln f/dy there
		m.dev, m.lam, m.mu = m.c.Scale*t, lam, lam*(slope-lam)
		m.vertex = -lam / m.mu
		wsum += lam
		lower += lam * (m.c.Mean - m.dev)
		upper += lam * (m.c.Mean + m.dev)
		for j, y := range [2]float64{m.c.Mean - m.dev, -m.c.Mean - m.dev} {
			if y < g.lo[j] {
				g.lo[j] = y
			}
			if y > g.hi[j] {
				g.hi[j] = y
			}
		}
	}
	lower /= wsum
	upper /= wsum
	// Where Σλₖdₖ = 0, ln((1/K)Σe^φₖ) ≈ ½·mean((μₖ+λₖ²)·dₖ²) and its
	// slope is mean λₖ; the correction is valid only where it is a
	// fraction of the model's length K/Σλₖ.
	var cl, cu float64
	for i := range mx.m {
		m := &mx.m[i]
		lg := m.mu + m.lam*m.lam
		dl, du := lower-(m.c.Mean-m.dev), upper-(m.c.Mean+m.dev)
		cl += lg * dl * dl
		cu += lg * du * du
	}
	if cl = 0.5 * cl / wsum; math.Abs(cl)*wsum <= float64(len(mx.m)) {
		lower -= cl
	}
	if cu = 0.5 * cu / wsum; math.Abs(cu)*wsum <= float64(len(mx.m)) {
		upper += cu
	}
	ends := mx.refine(&g, [2]float64{lower, -upper}, want)
	return ends[0], -ends[1]
}

// mixtureGuess holds the range of the members' quantiles of guess (their
// models are the members' own).
type mixtureGuess struct {
	lo, hi [2]float64 // the least and largest yₖ, lower and (mirrored) upper
}

// refine takes Newton steps on the model ln((1/K)Σe^φₖ(x)) = 0 of guess, on
// the lower tail from x[0] and on the mirrored upper one from x[1], those
// of want. Each φₖ is held constant beyond the vertex of its parabola, so
// it increases in x and is 0 at yₖ: the root lies between the least and
// the largest yₖ, where x is kept. The two sides step together, in one
// pass over the members, so that their chains of exponentials and
// logarithms overlap.
func (mx *mixture) refine(g *mixtureGuess, x [2]float64, want [2]bool) [2]float64 {
	var on [2]bool // the sides still stepping
	for side := range x {
		if !want[side] {
			continue
		}
		if g.lo[side] == g.hi[side] { // one member, or all at one quantile: that is the root
			x[side] = g.lo[side]
			continue
		}
		x[side], on[side] = clamp(x[side], g.lo[side], g.hi[side]), true
	}
	for range mixtureGuessMaxSteps {
		if !on[0] && !on[1] {
			break
		}
		var h, dh [2]float64
		for i := range mx.m {
			m := &mx.m[i]
			lam, mu := m.lam, m.mu
			for side, sign := range [2]float64{1, -1} {
				if !on[side] {
					continue
				}
				d := x[side] - (sign*m.c.Mean - m.dev)
				if v := m.vertex; mu < 0 && d > v || mu > 0 && d < v {
					d = v
				}
				e := expModel(d * (lam + 0.5*mu*d))
				h[side] += e
				dh[side] += e * (lam + mu*d)
			}
		}
		for side := range x {
			if !on[side] {
				continue
			}
			kf := float64(len(mx.m))
			r := log1pEstrin((h[side] - kf) / kf) // ln(h/K), its chain shorter than math.Log's
			step := r * h[side] / dh[side]
			if !finite(step) {
				on[side] = false
				continue
			}
			x[side] = clamp(x[side]-step, g.lo[side], g.hi[side])
			on[side] = math.Abs(r) > mixtureGuessTol
		}
	}
	return x
}

// clamp returns x limited to [lo, hi] by plain comparisons (x is never
// NaN here; the built-in min and max, which must order NaN and ±0 as
// math.Min and math.Max do, take more than a comparison).
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// expm1Model returns e^τ − 1 for τ ≥ 0 to 8e-7 relative, plenty for a start:
// by its Taylor polynomial of degree 6 up to τ = 0.35 (error below
// τ⁶/5040·e^τ), as expModel(τ) − 1 above (which multiplies expModel's
// error by e^τ/(e^τ−1) < 3.4 there). The polynomial goes by Estrin's
// scheme (as expModel's), 4 dependent steps where Horner's took 6 pairs:
// guess waits for it at every member.
func expm1Model(tau float64) float64 {
	if tau <= 0.35 {
		t2 := tau * tau
		return tau * ((1 + tau*(1.0/2)) + t2*((1.0/6+tau*(1.0/24))+t2*(1.0/120+tau*(1.0/720))))
	}
	return expModel(tau) - 1
}

// expModel returns e^φ for the start's models to 2e-7 relative, far below
// the models' own error, at a fraction of math.Exp's cost: e^φ = 2ᵏ·eʳ with
// k = round(φ/ln 2) and |r| ≤ ½·ln 2 (plus the rounding of k·ln 2, below
// 1e-13), where the degree-6 Taylor polynomial of eʳ is within
// |r|⁷/7!·e^|r| < 2e-7 relative. Outside (−708, 709), where 2ᵏ would leave
// the normal float64s, and for NaN, it is math.Exp. The polynomial goes by
// Estrin's scheme, pairs joined with r² and r⁴: 4 dependent steps where
// Horner's took 6 multiply-add pairs, on the chains of guess and refine
// (math.Exp's own chain is longer still, about 80 cycles). With |r| ≤ 0.35
// its terms decrease, so its rounding is a few ulps, as Horner's.
func expModel(phi float64) float64 {
	if !(phi > -708 && phi < 709) {
		return math.Exp(phi)
	}
	const round = 0x1.8p52 // adding it rounds |v| < 2⁵¹ to an integer
	k := phi*(1/math.Ln2) + round - round
	r := phi - k*math.Ln2
	r2 := r * r
	p := (1 + r) + r2*((1.0/2+r*(1.0/6))+r2*((1.0/24+r*(1.0/120))+r2*(1.0/720)))
	return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
}

// pretail computes every member's tails and densities at the interval's
// two starting points, its lower tail at lower and its upper tail at
// upper, from one exact tail each where it can (anchorTails). A member too
// far from its anchor for the series (mixtureAnchorDrift,
// mixtureAnchorPole), or whose series does not converge, takes both ends
// exactly (two tails), so that local keeps its linear path, which a
// member left to it would leave for logarithms. A member with a point
// outside its tails, or whose density in y is not a moderate float64, is
// left to local's exact evaluation.
func (mx *mixture) pretail(lower, upper float64) {
	mx.pre = [2]float64{lower, -upper}
	for i := range mx.m {
		m := &mx.m[i]
		sl, su := m.standardize(lower), m.standardize(upper)
		u, delta := (su-sl)/2, (su+sl)/2
		if !(math.Abs(delta) < u && u <= math.MaxFloat64) {
			continue // not both points in the member's tails (s∓ < 0 mirrored), or overflow
		}
		if !m.anchorTails(u, delta) {
			m.exactTails(-sl, su)
		}
		m.preOK = m.preLower > 0 && m.preUpper > 0 &&
			moderate(m.preDLower*m.iscale) && moderate(m.preDUpper*m.iscale)
	}
}

// anchorTails sets the member's pre values from one exact tail and reports
// whether it could. With s∓ = ∓u + δ the standardized points (|δ| < u),
// the tails are T(u−δ) and T(u+δ), T(v) = P(T > v), and the densities
// f(u∓δ). The Taylor series of f about u in steps of δ, f(u+εδ) =
// f(u)·Σ cⱼεʲ (densitySeries), gives them all: f(u±δ) = f(u)·(E ± O) and
// T(u±δ) = T(u) − f(u)·δ·(S_odd ± S_even), with E, O the sums of the even
// and odd cⱼ and S = Σⱼ cⱼ₋₁/j split the same way. With drift·|δ| ≤ 2 the
// tails differ from T(u) by at most a factor of about e², so forming them
// as differences costs a few ulps at most.
func (m *mixtureMember) anchorTails(u, delta float64) bool {
	_, b := m.d.density(u)
	ux, sqx := m.taylorArgs(u)
	entire, pole := m.rates(ux, sqx)
	if ad := math.Abs(delta); ad*entire > mixtureAnchorDrift || ad*pole > mixtureAnchorPole {
		return false
	}
	ds := newDensitySeries(ux*delta, (sqx*delta)*(sqx*delta), m.inv)
	sOdd, sEven, fEven, fOdd := 1.0, 0.0, 1.0, 0.0
	co, ce := 0.0, 1.0                           // the last odd and even terms, from c₋₁ = 0 and c₀ = 1
	for j := 2; j < mixtureAnchorTerms; j += 2 { // cⱼ₋₁ (odd) and cⱼ (even) in turn
		co = ds.next(mixtureRecip[j-1], co, ce)
		ce = ds.next(mixtureRecip[j], ce, co)
		sEven += co * mixtureRecip[j]
		fOdd += co
		sOdd += ce * mixtureRecip[j+1]
		fEven += ce
		if math.Abs(co)+math.Abs(ce) <= 0x1p-54*fEven {
			t, f := m.d.tailDensity(b)
			m.preLower, m.preUpper = t+f*delta*(sOdd-sEven), t-f*delta*(sOdd+sEven)
			m.preDLower, m.preDUpper = f*(fEven-fOdd), f*(fEven+fOdd)
			return true
		}
	}
	return false
}

// exactTails sets the member's pre values from two exact tails: the lower
// tail and the density at −vl, and the upper tail and density at vu
// (vl, vu > 0).
func (m *mixtureMember) exactTails(vl, vu float64) {
	_, bl := m.d.density(vl)
	_, bu := m.d.density(vu)
	m.preLower, m.preDLower = m.d.tailDensity(bl)
	m.preUpper, m.preDUpper = m.d.tailDensity(bu)
}

// moderate reports whether v lies in [2⁻⁹⁰⁰, 2⁹⁰⁰], where sums of up to 20
// such values, their ratios and their products with a ratio do not leave
// the range of float64.
func moderate(v float64) bool { return v >= 0x1p-900 && v <= 0x1p900 }

// densitySeries generates the Taylor coefficients cₙ = f⁽ⁿ⁾(s)·hⁿ/(n!·f(s))
// of f(s + h·t)/f(s) in t, for the standard Student-t density f with
// inv = 1/ν (0 for the normal), given p = s·x·h and pp = x·h²,
// x = ν/(ν+s²) (see taylorArgs). Differentiating (ν+s²)·f′ = −(ν+1)·s·f
// n times gives
//
//	cₙ₊₁ = −((1+(2n+1)/ν)·p·cₙ + (1+n/ν)·pp·cₙ₋₁)/(n+1),
//
// whose factors are affine in 1/(n+1): (1+(2n+1)/ν)·p/(n+1) =
// 2p/ν + (1−1/ν)·p/(n+1), and (1+n/ν)·pp/(n+1) = pp/ν + (1−1/ν)·pp/(n+1).
// The series holds their four coefficients, negated (so that no term
// negates its sum), so that a term costs two multiply-adds besides its
// chain; the caller holds the last two terms
// (from c₋₁ = 0 and c₀ = 1), so that a series in local variables stays in
// registers (the compiler keeps a struct in registers only up to four
// fields), where its chain does not pass through memory.
type densitySeries struct {
	p1, p2, q1, q2 float64 // the factors of cₙ and cₙ₋₁ are −(p1 + p2/(n+1)) and −(q1 + q2/(n+1))
}

// newDensitySeries returns the series for p, pp and inv.
func newDensitySeries(p, pp, inv float64) densitySeries {
	return densitySeries{p1: -2 * inv * p, p2: (inv - 1) * p, q1: -inv * pp, q2: (inv - 1) * pp}
}

// next returns cₙ₊₁ given r = 1/(n+1) (mixtureRecip[n+1]), prev = cₙ₋₁
// and cur = cₙ. The factors of cₙ and cₙ₋₁ are formed first, so that the
// chain from one coefficient to the next is one product and one sum.
func (d densitySeries) next(r, prev, cur float64) float64 {
	return (d.p1+d.p2*r)*cur + (d.q1+d.q2*r)*prev
}

// mixtureLocal is what local finds at a point x: the residual g = ln(F/q),
// and the Taylor coefficients bⱼ of ln F(x + L·t) − ln F(x) in t, with the
// length L = F/f (so that b₁ = 1).
type mixtureLocal struct {
	g       float64
	b       [mixtureOrder + 2]float64 // b₀ unused; valid up to b_order+1
	order   int                       // the series' degree N (series)
	length  float64
	ok      bool    // b and length are finite; g is always set
	total   float64 // Σₖ fₖ(x), the members' densities summed, if local had it directly (else 0) …
	lnTotal float64 // … and its logarithm otherwise (hidden needs it, rarely)
}

// local evaluates the lower tail F of the mixture, mirrored if sign < 0,
// at x, against q. The tails come from pretail at its points, elsewhere
// exactly; F − q is formed as (Σ lower tails − Σ upper tails + n − K·q)/K,
// n the members right of their means, so that it keeps its accuracy also
// where F is within rounding of q but made of tiny tails (a root in the gap
// between far-apart members).
func (mx *mixture) local(sign, x, q float64, out *mixtureLocal) {
	k := len(mx.m)
	pre := sign > 0 && x == mx.pre[0] || sign < 0 && x == mx.pre[1]
	linear := pre // e holds densities, not their logarithms
	e := mx.e[:k]
	var lower, upper, n float64
	for i := range mx.m {
		m := &mx.m[i]
		s := sign * m.standardize(sign*x)
		if math.IsInf(s, 0) {
			if s > 0 {
				n++
			}
			e[i], m.sx, m.sqx, m.entire, m.pole = math.Inf(-1), 0, 0, 0, 0
			linear = false
			continue
		}
		var tail float64
		if pre && m.preOK {
			var f float64
			if tail, f = m.preLower, m.preDLower; sign < 0 {
				tail, f = m.preUpper, m.preDUpper
			}
			e[i] = f * m.iscale
		} else {
			l, b := m.d.density(math.Abs(s))
			tail = m.d.tail(b)
			e[i] = l - math.Log(m.c.Scale)
			linear = false
		}
		m.sx, m.sqx = m.taylorArgs(s)
		m.entire, m.pole = m.rates(m.sx, m.sqx)
		if s < 0 {
			lower += tail
		} else {
			n++
			upper += tail
		}
	}
	kq := float64(k) * q
	fk := lower + (n - upper) // K·F
	resid := (lower - upper) + math.FMA(-float64(k), q, n)
	if math.Abs(resid) <= 0.5*kq {
		out.g = log1pEstrin(resid / kq)
	} else {
		out.g = math.Log(fk) - math.Log(kq)
	}
	var L, sum float64 // sum: of the e, whose shares series takes
	if linear {
		// Every density is moderate, so their sum is a float64 far from
		// overflow, and its reciprocal too.
		for _, v := range e {
			sum += v
		}
		out.total = sum
		L = fk / sum
	} else {
		for i := range mx.m {
			if pre && mx.m[i].preOK {
				e[i] = math.Log(e[i])
			}
		}
		var top float64
		top, sum = expShift(e)
		out.total, out.lnTotal = 0, top+math.Log(sum)
		L = math.Exp(math.Log(fk) - out.lnTotal)
	}
	out.length, out.ok = L, false
	if !(L > 0 && L <= math.MaxFloat64) {
		return
	}
	// The members' density series in steps of L, weighted by their
	// shares of the density (series).
	isum := 1 / sum // in [2⁻⁹⁰⁵, 2⁹⁰⁰]: moderate densities, or ≥ 1 after expShift
	for i := range mx.m {
		m := &mx.m[i]
		rho := L * m.iscale
		m.entire *= rho
		m.pole *= rho
		e[i] *= isum
		m.ds = newDensitySeries(m.sx*rho, (m.sqx*rho)*(m.sqx*rho), m.inv)
	}
	out.ok = out.series(mx.m, e, mixtureStopTol*max(math.Abs(x), mx.minScale)/L)
}

// series sets the coefficients b₁ … b_N+1 and the degree N = order from
// the members' density series (mixtureMember.ds) and their shares w of the
// density:
// F(x+Lt)/F(x) = 1 + Σⱼ αⱼtʲ with αⱼ = Σₖ wₖ·cₖ,ⱼ₋₁/j (α₁ = 1, as
// L = F/f), and ln(1 + Σαⱼtʲ) = Σbⱼtʲ with n·bₙ = n·αₙ − Σₖ₌₁ⁿ⁻¹ k·bₖ·αₙ₋ₖ.
// The members' series run interleaved, so that their dependent chains
// overlap. N is the least degree from 2 up to mixtureOrder whose first
// neglected terms, (|b_N| + |b_N+1|)·τ^(N+1), are within tol (in units of
// t) at τ twice Halley's step |g/(1 − b₂g)|, with τ^(N+1) ≥ 2⁻⁹⁰⁰ so that
// no underflow passes the test: step's own test of those terms at its
// root (about the Halley step) then passes, unless tol, taken at x rather
// than at the step's end, was too large, which costs a further step but
// no accuracy. A start within a ten-thousandth of L, the typical one,
// needs degree 2 or 3. series reports whether every bⱼ is finite.
func (out *mixtureLocal) series(m []mixtureMember, w []float64, tol float64) bool {
	var alpha [mixtureOrder + 2]float64
	for i, wi := range w {
		alpha[1] += wi
		m[i].cs = [2]float64{0, 1} // c₋₁ and c₀
	}
	b := &out.b
	b[1] = alpha[1]
	var kb [mixtureOrder + 2]float64 // k·bₖ
	kb[1] = b[1]
	var tau, pow float64 // τ and τʲ
	out.order = mixtureOrder
	for j := 2; j < len(alpha); j++ {
		var a float64
		for i := range m {
			mi := &m[i]
			c := mi.ds.next(mixtureRecip[j-1], mi.cs[0], mi.cs[1])
			mi.cs = [2]float64{mi.cs[1], c}
			a += w[i] * c
		}
		alpha[j] = a * mixtureRecip[j]
		s := 0.0
		for i := 1; i < j; i++ {
			s += kb[i] * alpha[j-i]
		}
		b[j] = alpha[j] - s*mixtureRecip[j]
		kb[j] = float64(j) * b[j]
		if !finite(b[j]) {
			return false
		}
		if j == 2 {
			tau = 2 * math.Abs(out.g/(b[1]-b[2]*out.g))
			pow = tau * tau
		} else if pow *= tau; pow >= 0x1p-900 && (math.Abs(b[j-1])+math.Abs(b[j]))*pow <= tol {
			out.order = j - 1
			break
		}
	}
	return finite(b[1])
}

// step returns the root t of g + Σⱼ₌₁ᴺ bⱼtʲ (N = l.order), by Newton's
// method on that polynomial from Halley's step, and est = the first
// neglected terms (|b_N| + |b_N+1|)·|t|^(N+1) in units of y: the error of
// x + L·t if the series converges with terms shrinking at least as fast as
// they do up to N (b₁ = 1 sets their scale). Newton stops once its step
// dt is within 2⁻²⁶ of t: the error left is then of order b₂·dt² ≤
// 2⁻⁵²·|t|·|b₂t|, the rounding of t where the series converges
// (|b₂t| < 1), and one iteration fewer than waiting for dt itself to reach
// the rounding. If Newton does not settle, step returns Halley's step and
// est = +Inf.
func (l *mixtureLocal) step() (t, est float64) {
	b, n := &l.b, l.order
	halley := -l.g / (b[1] - b[2]*l.g/b[1])
	t = halley
	for range 16 {
		p, dp := 0.0, 0.0
		for j := n; j >= 1; j-- {
			dp = dp*t + p
			p = p*t + b[j]
		}
		dp = dp*t + p
		p = p*t + l.g
		dt := p / dp
		t -= dt
		if math.Abs(dt) <= 0x1p-26*math.Abs(t) {
			return t, neglected(b, n, math.Abs(t)) * l.length
		}
	}
	return halley, math.Inf(1)
}

// neglected returns (|bₙ| + |bₙ₊₁|)·τⁿ⁺¹, the first neglected terms of
// a series of degree n at |t| = τ, formed by n+1 products in turn, so that
// it underflows only if it is below the smallest float64 itself (τⁿ⁺¹
// alone underflows where the terms are large, for bⱼ growing like Rʲ with
// R·τ ≳ 1 and R beyond 1e44).
func neglected(b *[mixtureOrder + 2]float64, n int, tau float64) float64 {
	v := math.Abs(b[n]) + math.Abs(b[n+1])
	for range n + 1 {
		v *= tau
	}
	return v
}

// hidden reports whether a member may change F by more than relTol·F over
// the step t although its terms up to the series' order are too small to
// show it: a member whose terms have not started to shrink by order N
// (rate·|t| > N/2, or a pole within 2|t|), and whose density could grow to
// its peak f(0)/scale on the way, changing F by up to |t|·L·peak. Such a
// member (a narrow one whose body lies within the step) makes the step a
// mere trial point.
//
// The change is weighed against the density of the members the series
// resolves, f_res (their shares w, as local left them, times Σf): a change
// ΔF moves the root by ΔF/f_res, so the member is hidden where
// |t|·L·peak > relTol·L·f_res (relTol the tolerance in units of t).
// Weighing it against Σf itself, as if F kept its slope, fails where the
// member's own density is most of Σf: at the mean of a member far narrower
// than the tolerance (a point mass in a trained ensemble, scale 1e-22 at
// y = 3e4), F jumps by the member's weight within an ulp of y, so a step
// of any t looks converged in y, while the root lies beyond the jump,
// where only the other members carry F.
//
// The logarithms of the comparison are taken only if a member's terms
// have not started to shrink, which is rare: most steps need none.
func (mx *mixture) hidden(l *mixtureLocal, t, relTol float64) bool {
	at := math.Abs(t)
	rest := 0.0          // the resolved members' share of Σf
	peak := math.Inf(-1) // the largest ln peak of the members it does not
	for i := range mx.m {
		m := &mx.m[i]
		if !(m.entire*at > float64(l.order)/2 || m.pole*at > 0.5) {
			rest += mx.e[i]
			continue
		}
		peak = max(peak, m.d.lnNorm-math.Log(m.c.Scale))
	}
	if math.IsInf(peak, -1) {
		return false
	}
	lnTotal := l.lnTotal
	if l.total > 0 {
		lnTotal = math.Log(l.total)
	}
	return peak > math.Log(relTol/at)+lnTotal+math.Log(rest)
}

// solve returns the root of F(x) = q, F the lower tail mirrored if
// sign < 0, starting at x. Each step evaluates local at x and narrows the
// bracket [lo, hi] by the sign of F − q; the series step is returned when
// its error estimate is below mixtureStopTol·max(|x|, σ_min) and no hidden
// member objects. Otherwise it is the next point if it lies inside the
// bracket, unless the last two steps, neither a bisection, left the
// bracket's span in float64 order above half of what it was before them;
// else bisect chooses the point. The loop ends when the bracket narrows to
// the tolerance or to two neighbouring float64s, and returns its end where
// F ≥ q in y (hi, or lo mirrored), so that inside a jump of F the result
// is the least float64 with F ≥ q; a bracket open at ±Inf returns its
// midpoint (so a root beyond the largest float64 gives ±Inf).
func (mx *mixture) solve(sign, q, x float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	if !finite(x) {
		x = 0
	}
	var spans [3]uint64 // the bracket's span now and one and two steps before
	spans[1], spans[2] = math.MaxUint64, math.MaxUint64
	sinceBisect := 0
	var l mixtureLocal
	for range mixtureMaxSteps {
		mx.local(sign, x, q, &l)
		switch {
		case l.g == 0:
			return x
		case l.g > 0:
			hi = x
		default:
			lo = x
		}
		spans = [3]uint64{uint64(floatOrder(hi) - floatOrder(lo)), spans[0], spans[1]}
		next := math.NaN()
		if l.ok {
			t, est := l.step()
			next = x + t*l.length
			tol := mixtureStopTol * max(math.Abs(next), mx.minScale)
			if est <= tol && !mx.hidden(&l, t, tol/l.length) {
				return clamp(next, lo, hi)
			}
		}
		if !(next > lo && next < hi) || sinceBisect >= 2 && spans[0] > spans[2]/2 {
			next, sinceBisect = mx.bisect(sign, lo, hi), 0
		} else {
			sinceBisect++
		}
		if next == lo || next == hi || hi-lo <= mixtureStopTol*max(min(math.Abs(lo), math.Abs(hi)), mx.minScale) {
			if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
				return lo/2 + hi/2
			}
			if sign > 0 {
				return hi
			}
			return lo
		}
		x = next
	}
	return x
}

// bisect returns a point inside (lo, hi) to try next: 0 if the bracket
// spans it; the arithmetic midpoint if the bracket is within 1024 times the
// scale of the problem there (σ_min or its nearer end's magnitude);
// otherwise the midpoint in the order of the float64s, which halves the
// number of float64s inside, with values closer to 0 than 1e-12·σ_min
// treated as that (smaller magnitudes cannot matter). A member mean inside
// the bracket is preferred, the one nearest that midpoint: its body may hold
// the root while being too narrow for the series at the ends to see it.
// Each mean is tried at most once, as it then becomes an end. Where an end
// is the mean of a member narrower than the tolerance there, its CDF jumps
// by the member's weight within the tolerance, and the root is often the
// float64 beside the mean (the quantile of a probability inside the jump
// of a point mass): that float64 is tried first, once on each side of the
// mean, so that the bracket closes on the jump at once rather than after
// some 40 halvings, and at the same float64 for every probability inside
// the jump (quantiles stay monotone).
func (mx *mixture) bisect(sign, lo, hi float64) float64 {
	floor := mixtureStopTol * mx.minScale
	var mid float64
	switch {
	case lo < -floor && hi > floor:
		mid = 0
	case hi-lo <= 1024*max(mx.minScale, min(math.Abs(lo), math.Abs(hi))):
		mid = lo/2 + hi/2
	case hi <= floor:
		mid = bisectFloat(lo, min(hi, -floor))
	default:
		mid = bisectFloat(max(lo, floor), hi)
	}
	best, found := mid, false
	for i := range mx.m {
		m := sign * mx.m[i].c.Mean
		if m > lo && m < hi && (!found || math.Abs(m-mid) < math.Abs(best-mid)) {
			best, found = m, true
		}
		if (m == lo || m == hi) && mx.m[i].c.Scale <= mixtureStopTol*max(math.Abs(m), mx.minScale) {
			if m == lo {
				return math.Nextafter(m, hi)
			}
			return math.Nextafter(m, lo)
		}
	}
	return best
}

// floatOrder maps a float64 to an int64 with the same order (−0 and +0 to
// the same 0), so that integer midpoints bisect the float64s in between.
func floatOrder(f float64) int64 {
	b := int64(math.Float64bits(f))
	if b < 0 {
		b = math.MinInt64 - b
	}
	return b
}

// bisectFloat returns the float64 halfway between lo ≤ hi in floatOrder.
func bisectFloat(lo, hi float64) float64 {
	a, b := floatOrder(lo), floatOrder(hi)
	m := a + int64(uint64(b-a)/2)
	if m < 0 {
		m = math.MinInt64 - m
	}
	return math.Float64frombits(uint64(m))
}
