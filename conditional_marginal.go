package gcp

import "math"

// A conditional marginal (docs/multivariate.md, Sec. 12): under the
// Gaussian copula, given the normal scores of other targets, a target's
// score u = Φ⁻¹(F(y)) is Gaussian N(μ, σ²), σ ≤ 1, so that its law is
//
//	G(y) = Φ((u(y) − μ)/σ),  ln g(y) = ln f(y) − ln σ − ½(u′² − u²),  u′ = (u − μ)/σ,
//
// F, f the unconditional marginal (the base). A Prediction holds G in
// its scoreMap: the map (μ, σ) on the base's score, the base's own
// location and variances (what G's fields overwrite) and the calibrated
// conditional's centre. Its methods answer for G from the base's score,
// which stays finite and accurate far into either tail (normalScore), so
// that G does too however far out μ lies.

// scoreMap is what a Prediction holds of a conditional marginal; its zero
// value (sigma 0) is none, every prediction that Predict makes.
type scoreMap struct {
	// mu and sigma map the base's score u to G's, (u − mu)/sigma.
	mu, sigma float64
	// centre is the calibrated conditional's location in z (the target
	// as its model models it): its calibrated predictive is
	// N(centre, ZVarCorrected) under a transform, N(centre, VarCorrected)
	// otherwise.
	centre float64
	// mean, vr and vc are the base's Mean, Var and VarCorrected in z
	// (its ZMean, ZVar and ZVarCorrected under a transform), which G's
	// fields overwrite.
	mean, vr, vc float64
}

// on reports whether the prediction is a conditional marginal.
func (s *scoreMap) on() bool { return s.sigma != 0 }

// base returns the unconditional marginal of the conditional marginal p
// in z: its law, with no transform and no map.
func (p *Prediction) base() Prediction {
	q := *p
	q.Mean, q.Var, q.VarCorrected = p.given.mean, p.given.vr, p.given.vc
	q.Transform, q.ZMean, q.ZVar, q.ZVarCorrected = TransformNone, 0, 0, 0
	q.given = scoreMap{}
	return q
}

// calibratedLaw returns the calibrated predictive of the conditional
// marginal p as a Prediction of no map whose calibrated methods answer for
// it: the Gaussian N(centre, ZVarCorrected) in z (VarCorrected without a
// transform), mapped back through the transform.
func (p *Prediction) calibratedLaw() Prediction {
	q := *p
	q.given = scoreMap{}
	if q.Transform != TransformNone {
		q.ZMean = p.given.centre
	} else {
		q.Mean = p.given.centre
	}
	return q
}

// condition makes p, a marginal (conditional or not), the conditional
// marginal whose score given the other targets is N(mu2, sigma2²) in p's
// own score, and whose calibrated predictive is N(centre, vc) in z: a
// conditional marginal's map composes, (u − μ₁)/σ₁ then (· − mu2)/sigma2
// being (u − (μ₁ + σ₁·mu2))/(σ₁·sigma2) on the same base. It sets Mean
// and Var (ZMean and ZVar under a transform) to G's, by quadrature
// (conditionalMoments), and VarCorrected (ZVarCorrected) to vc; under
// the log transform Mean, Var and VarCorrected are the log-normal ones
// of the calibrated centre, as Prediction.Transform says.
func (p *Prediction) condition(mu2, sigma2, centre, vc float64) {
	g := &p.given
	if !g.on() {
		*g = scoreMap{sigma: 1}
		g.mean, g.vr, g.vc = p.Mean, p.Var, p.VarCorrected
		if p.Transform != TransformNone {
			g.mean, g.vr, g.vc = p.ZMean, p.ZVar, p.ZVarCorrected
		}
	}
	g.mu, g.sigma, g.centre = g.mu+g.sigma*mu2, g.sigma*sigma2, centre
	b := p.base()
	zm, zv := conditionalMoments(&b, g.mu, g.sigma)
	if p.Transform == TransformNone {
		p.Mean, p.Var, p.VarCorrected = zm, zv, vc
		return
	}
	q := Prediction{Mean: centre, Var: zv, VarCorrected: vc}
	transformBack(&q, p.Transform)
	p.Mean, p.Var, p.VarCorrected = q.Mean, q.Var, q.VarCorrected
	p.ZMean, p.ZVar, p.ZVarCorrected = zm, zv, vc
}

// givenAt returns y as the base models it, z = g(y), and the base, or
// false for a y outside the transform's domain or NaN, where the score
// and the log density are outside(y).
func (p *Prediction) givenAt(y float64) (z float64, b Prediction, ok bool) {
	if z, ok = p.Transform.forward(y); ok {
		b = p.base()
	}
	return z, b, ok
}

// outside returns the normal score and log density of a y outside a
// transform's domain: −Inf, or NaN for a NaN y.
func outside(y float64) float64 {
	if math.IsNaN(y) {
		return y
	}
	return math.Inf(-1)
}

// givenScore returns G's normal score (u(y) − μ)/σ at y, u the base's.
func (p *Prediction) givenScore(y float64) float64 {
	z, b, ok := p.givenAt(y)
	if !ok {
		return outside(y)
	}
	return (normalScore(&b, z, false) - p.given.mu) / p.given.sigma
}

// givenLogPDF is LogPDF of a conditional marginal: ln f(z) − ln σ −
// ½(u′ − u)(u′ + u) + ln g′(y), f the base's density in z.
func (p *Prediction) givenLogPDF(y float64) float64 {
	z, b, ok := p.givenAt(y)
	if !ok {
		return outside(y)
	}
	lnf := b.LogPDF(z)
	u := normalScore(&b, z, false)
	if math.IsInf(lnf, -1) || math.IsInf(u, 0) {
		return math.Inf(-1)
	}
	v := (u - p.given.mu) / p.given.sigma
	return lnf - math.Log(p.given.sigma) - 0.5*(v-u)*(v+u) + p.Transform.logJacobian(z)
}

// givenCDF is CDF of a conditional marginal, Φ of its score.
func (p *Prediction) givenCDF(y float64) float64 {
	return 0.5 * math.Erfc(-p.givenScore(y)/math.Sqrt2)
}

// givenQuantile is the quantile of a conditional marginal at the score v
// of its own (the probability Φ(v)): the y whose base score is μ + σ·v,
// solved on the base's score (scoreRoot), so that it is exact where Φ(v)
// or Φ(μ + σ·v) rounds to 0 or 1.
func (p *Prediction) givenQuantile(v float64) float64 {
	b := p.base()
	return p.Transform.invert(scoreRoot(&b, p.given.mu+p.given.sigma*v))
}

// givenInterval is Interval of a conditional marginal: its quantiles at
// the scores ∓Φ⁻¹((1 − level)/2), each formed from the lower tail, so
// that neither rounds.
func (p *Prediction) givenInterval(level float64) (lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, ErrLevel
	}
	v := standardNormalQuantile((1 - level) / 2)
	return p.givenQuantile(v), p.givenQuantile(-v), nil
}

// scoreRoot returns the z with normalScore(b, z, false) = w, b a
// prediction of no transform and no map: m + s·w exactly for a Gaussian
// b; otherwise by Newton's method on the score, whose derivative
// du/dz = f(z)/φ(u) is formed in logarithms, safeguarded by a bracket
// that bisection in float64 order (bisectFloat) narrows where a step
// leaves it or does not halve it, so that it converges over any range of
// magnitudes (a t's tail at a score of 40 lies beyond 10¹⁰⁰ scales for a
// few degrees of freedom). It starts at b's quantile at Φ(w), clamped to
// the float64s inside (0, 1), and widens the bracket from there in steps
// that grow fourfold. It returns ±MaxFloat64 where w lies beyond the
// score of the largest float64.
func scoreRoot(b *Prediction, w float64) float64 {
	if b.mixture() == nil && b.Loss.gaussian() {
		return b.Mean + math.Sqrt(b.Var)*w
	}
	score := func(z float64) float64 { return normalScore(b, z, false) }
	slope := func(z, u float64) float64 { // du/dz = f(z)/φ(u)
		return math.Exp(b.LogPDF(z) + 0.5*u*u + 0.5*math.Log(2*math.Pi))
	}
	prob := min(max(0.5*math.Erfc(-w/math.Sqrt2), math.SmallestNonzeroFloat64), math.Nextafter(1, 0))
	z, _ := b.Quantile(prob)
	if !finite(z) {
		z = b.Mean
	}
	u := score(z)
	if u == w {
		return z
	}
	// The bracket lo < root ≤ hi, widened from z.
	step := math.Sqrt(b.VarCorrected)
	if d := slope(z, u); d > 0 && finite(d) {
		step = min(step, 2*math.Abs(w-u)/d) // a Newton step from a good start
	}
	step = max(step, 0x1p-52*math.Abs(z)) // at least an ulp or two of z
	lo, hi := z, z
	for dir := math.Copysign(1, w-u); ; step *= 4 {
		next := z + dir*step
		if math.IsInf(next, 0) {
			next = math.Copysign(math.MaxFloat64, dir)
		}
		un := score(next)
		if dir > 0 {
			lo, hi = z, next
		} else {
			lo, hi = next, z
		}
		if (un-w)*dir >= 0 || math.IsNaN(un) {
			break
		}
		if math.Abs(next) == math.MaxFloat64 {
			return next
		}
		z, u = next, un
	}
	// Safeguarded Newton from the bracket's end last evaluated.
	dxOld, dx, tiny := math.Inf(1), math.Inf(1), 0x1p-52*math.Sqrt(b.VarCorrected)
	for range scoreRootSteps {
		d := slope(z, u)
		next := z - (u-w)/d
		if !(next > lo && next < hi) || !(math.Abs(next-z) < 0.5*math.Abs(dxOld)) {
			next = bisectFloat(lo, hi)
			if next == lo || next == hi {
				break
			}
		}
		dxOld, dx = dx, next-z
		z, u = next, score(next)
		switch {
		case u < w:
			lo = z
		case u > w:
			hi = z
		default:
			return z
		}
		if math.Abs(dx) <= 0x1p-52*(math.Abs(z)+tiny) || math.IsNaN(u) {
			break
		}
	}
	return z
}

// scoreRootSteps bounds scoreRoot's steps: bisection in float64 order
// halves the float64s in the bracket, 2⁶⁴ at most, so that 64 of them
// close any bracket, and Newton's steps converge quadratically in between.
const scoreRootSteps = 200
