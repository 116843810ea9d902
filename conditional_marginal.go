package gcp

import (
	"math"
	"slices"
)

// A conditional marginal G (prediction.go says what it is) made from a
// marginal (condition), and its moments and CRPS, which have no closed
// form but for a Gaussian base and are integrals of its tails, which G's
// score gives accurately however small they are:
//
//	E[Z] = c + ∫₀^∞ Ḡ(c + t) dt − ∫₀^∞ G(c − t) dt,
//	E[(Z − c)²] = 2∫₀^∞ t·Ḡ(c + t) dt + 2∫₀^∞ t·G(c − t) dt,
//	CRPS(y) = ∫₀^∞ Ḡ(y + t)² dt + ∫₀^∞ G(y − t)² dt,
//
// c G's median, Ḡ = 1 − G, each side an integral over a half line
// (halfLine) as mixtureCRPS forms its sides: the substitution
// t = w·(eᵛ − 1), w G's scale near its median, a mesh of panels of v at
// the base's components and 2, 4, … scales about G's median, tail panels
// until the rest of the tail is below quadTol of the side, and the
// 15-point Gauss–Kronrod rule on each panel, the panel of largest error
// halved until the errors sum to at most quadTol of the side.

const (
	// tinyTail is the tail probability below which the integrands are
	// formed in logarithms: its square and the largest Jacobian
	// (10³⁰⁸) keep their products within float64.
	tinyTail = 1e-140
	// quadTol is the relative error of each side that the panels' error
	// estimates are driven below.
	quadTol = 1e-11
	// quadMaxPanels bounds the panels of one side.
	quadMaxPanels = 1024
)

// quadPanel is one panel [a, b] of v with the Kronrod estimates of two
// integrands and their errors.
type quadPanel struct {
	a, b     float64
	val, err [2]float64
}

// halfQuad is the state of one halfLine call, on the caller's stack.
type halfQuad struct {
	w, vMax float64
	p       [quadMaxPanels]quadPanel
	n       int
	// rest is each integrand's part beyond the last panel where the
	// panels stopped short of a tail below quadTol (beyond).
	rest [2]float64
}

// halfLine returns ∫₀^∞ h(t) dt of the two integrands h (the second 0
// where only one is wanted), positive and falling in their tails like
// e^(−rate·v) in v = ln(1 + t/w) at least (rate +Inf for faster), with
// panels ending at the breakpoints bp (values of t, sorted in place;
// those ≤ 0 are skipped). f(t, jac) returns h(t)·jac, jac = dt/dv = w + t,
// so that it can form the product in logarithms where h underflows and
// jac is huge.
func halfLine(f func(t, jac float64) [2]float64, w, rate float64, bp []float64) [2]float64 {
	var q halfQuad
	q.w = w
	q.vMax = math.Log(math.MaxFloat64) - math.Log(w) - 1
	slices.Sort(bp)
	a := 0.0
	for _, t := range bp {
		if v := math.Log1p(t / w); t > 0 && v > a && v <= q.vMax {
			q.add(f, a, v)
			a = v
		}
	}
	if a == 0 {
		q.add(f, 0, 1)
		a = 1
	}
	q.tail(f, a, rate)
	return q.refine(f)
}

// integrand returns h(t)·dt/dv at v, t = w·(eᵛ − 1), as f gives it.
func (q *halfQuad) integrand(f func(t, jac float64) [2]float64, v float64) [2]float64 {
	t := q.w * math.Expm1(v)
	if math.IsInf(t, 1) {
		t = math.Exp(v + math.Log(q.w))
	}
	return f(t, q.w+t)
}

// add integrates the panel [a, b] and appends it.
func (q *halfQuad) add(f func(t, jac float64) [2]float64, a, b float64) quadPanel {
	q.p[q.n] = q.kronrod(f, a, b)
	q.n++
	return q.p[q.n-1]
}

// kronrod returns the panel [a, b] with the 15-point Gauss–Kronrod
// estimates of its integrals and their differences from the embedded
// 7-point Gauss rule's.
func (q *halfQuad) kronrod(f func(t, jac float64) [2]float64, a, b float64) quadPanel {
	c, h := a+(b-a)/2, (b-a)/2
	fc := q.integrand(f, c)
	p := quadPanel{a: a, b: b}
	var g [2]float64
	for k := range 2 {
		p.val[k], g[k] = fc[k]*gk15Kronrod[7], fc[k]*gk15Gauss[3]
	}
	for j := range 7 {
		dx := h * gk15Nodes[j]
		l, r := q.integrand(f, c-dx), q.integrand(f, c+dx)
		for k := range 2 {
			s := l[k] + r[k]
			p.val[k] += gk15Kronrod[j] * s
			if j%2 == 1 {
				g[k] += gk15Gauss[j/2] * s
			}
		}
	}
	for k := range 2 {
		p.err[k] = math.Abs(p.val[k]-g[k]) * h
		p.val[k] *= h
	}
	return p
}

// tail adds panels from a on until the rest of each integrand's tail,
// bounded by a geometric series of the panels' observed ratio (at least
// e^(−rate·step)), is below quadTol of its sum, v reaches vMax or the
// panels run out (a quarter of them left for halvings).
func (q *halfQuad) tail(f func(t, jac float64) [2]float64, a, rate float64) {
	step := min(20, max(1, 1/rate))
	asym := math.Exp(-rate * step)
	var sum, prev [2]float64
	for i := range q.n {
		sum[0] += q.p[i].val[0]
		sum[1] += q.p[i].val[1]
	}
	for q.n < quadMaxPanels-quadMaxPanels/4 {
		b := min(a+step, q.vMax)
		if b <= a {
			q.beyond(f)
			return
		}
		p := q.add(f, a, b)
		done := true
		for k := range 2 {
			sum[k] += p.val[k]
			if p.val[k] == 0 {
				continue
			}
			r := math.Inf(1)
			if prev[k] > 0 {
				r = max(p.val[k]/prev[k], asym)
			}
			done = done && r < 1 && p.val[k]*r/(1-r) <= quadTol*sum[k]
		}
		if done {
			return
		}
		prev, a = p.val, b
	}
	q.beyond(f)
}

// beyond sets rest to each integrand's part beyond vMax, where t nears
// the largest float64 and a tail that falls slowly (a moment that barely
// exists: e^(−0.01·v) for the variance of a t of 2.01 degrees of
// freedom, whose part beyond t = 10³⁰⁸ is 8·10⁻⁴ of it) still counts:
// there the tails are powers of t, the integrands e^(−λv) in v, and
// ∫ beyond vMax is h(vMax)/λ, λ = ln(h(vMax − 1)/h(vMax)).
func (q *halfQuad) beyond(f func(t, jac float64) [2]float64) {
	hi, lo := q.integrand(f, q.vMax), q.integrand(f, q.vMax-1)
	for k := range 2 {
		if hi[k] > 0 && lo[k] > hi[k] {
			q.rest[k] = hi[k] / math.Log(lo[k]/hi[k])
		}
	}
}

// refine halves the panel of largest error (relative to its integrand's
// sum) until each integrand's errors sum to at most quadTol of its sum or
// the panels run out, and returns the sums.
func (q *halfQuad) refine(f func(t, jac float64) [2]float64) [2]float64 {
	for {
		var sum, errSum [2]float64
		for _, p := range q.p[:q.n] {
			for k := range 2 {
				sum[k] += p.val[k]
				errSum[k] += p.err[k]
			}
		}
		if (errSum[0] <= quadTol*sum[0] && errSum[1] <= quadTol*sum[1]) || q.n == quadMaxPanels {
			return [2]float64{sum[0] + q.rest[0], sum[1] + q.rest[1]}
		}
		worst, top := 0, -1.0
		for i, p := range q.p[:q.n] {
			var e float64
			for k := range 2 {
				if sum[k] > 0 {
					e += p.err[k] / sum[k]
				}
			}
			if e > top {
				worst, top = i, e
			}
		}
		w := q.p[worst]
		mid := w.a + (w.b-w.a)/2
		if mid <= w.a || mid >= w.b {
			return [2]float64{sum[0] + q.rest[0], sum[1] + q.rest[1]}
		}
		q.p[worst] = q.kronrod(f, w.a, mid)
		q.add(f, mid, w.b)
	}
}

// givenQuad is the set-up that the quadratures of a conditional marginal
// G's moments and CRPS (conditionalMoments, givenCRPS) share: its base's
// score, prepared once for all their points (baseScore); the map
// (mu, sigma); and the base's tails: dof, the degrees of freedom of its
// heaviest tail (+Inf for Gaussian tails), and order = dof/σ², below which
// G's moments exist; w, G's scale near its median (σ times the base's
// smallest scale); and locs, its k components' locations, breakpoints of
// the mesh (givenMesh).
type givenQuad struct {
	score         baseScore
	mu, sigma     float64
	dof, order, w float64
	locs          [MaxMembers]float64
	k             int
}

// set prepares q for the base b (no transform, no map) under the map
// (mu, sigma).
func (q *givenQuad) set(b *Prediction, mu, sigma float64) {
	q.score.set(b)
	q.mu, q.sigma = mu, sigma
	var scale float64
	q.locs[0], q.k = b.Mean, 1
	switch c := b.mixture(); {
	case c != nil:
		q.dof, scale = math.Inf(1), math.Inf(1)
		for i, ci := range c {
			q.dof, scale = min(q.dof, ci.DoF), min(scale, ci.Scale)
			q.locs[i] = ci.Mean
		}
		q.k = len(c)
	case b.Loss.gaussian():
		q.dof, scale = math.Inf(1), math.Sqrt(b.Var)
	default:
		q.dof, scale = 2*b.Alpha, b.Prior().scale()
	}
	q.order, q.w = q.dof/(sigma*sigma), sigma*scale
}

// sides returns the integrals over G's two sides from x, the upper
// (z = x + t) and the lower (z = x − t), of h's two integrands (the second
// 0 where only one is wanted), each side a halfLine of the tails' rate on
// the mesh about G's median c (givenMesh). h is given t, jac = dt/dv
// (halfLine's), z, G's score toward the side's tail, v = ±(u(z) − μ)/σ (u
// the base's), and that tail, Φ(−v). b is the base q was set for.
func (q *givenQuad) sides(b *Prediction, x, c, rate float64, h func(t, jac, z, v, tail float64) [2]float64) (s [2][2]float64) {
	var bp [MaxMembers + 2*crpsMesh + 1]float64
	for i, dir := range [2]float64{1, -1} {
		f := func(t, jac float64) [2]float64 {
			z := x + dir*t
			v := dir * (q.score.at(b, z) - q.mu) / q.sigma
			return h(t, jac, z, v, 0.5*math.Erfc(v/math.Sqrt2))
		}
		n := givenMesh(bp[:], x, dir, c, q.w, q.locs[:q.k])
		s[i] = halfLine(f, q.w, rate, bp[:n])
	}
	return s
}

// givenMesh writes into bp the breakpoints in t of a side of G that
// starts at x and runs in the direction dir: the base's component
// locations, G's median c and 2, 4, … of w about it, out to twice its
// distance from x and at least 4·w. It returns their number.
func givenMesh(bp []float64, x, dir, c, w float64, locs []float64) int {
	n := 0
	add := func(t float64) {
		if t > 0 && finite(t) {
			bp[n] = t
			n++
		}
	}
	for _, m := range locs {
		add(dir * (m - x))
	}
	r := dir * (c - x)
	add(r)
	far := max(2*math.Abs(r), 4*w)
	for j, d := 0, 2*w; j < crpsMesh && d <= far; j, d = j+1, 2*d {
		add(r - d)
		add(r + d)
	}
	return n
}

// conditionalMoments returns the mean, variance and median of the
// conditional marginal of the base b (no transform, no map) under the
// score map (mu, sigma): m + s·mu, s²·sigma² and m + s·mu for a Gaussian
// b, N(m, s²); the median is the base's value at score mu (scoreRoot);
// otherwise by quadrature of its tails, to about 1e-10 relative, also
// where a moment barely exists (the variance of a t of 2.001 degrees of
// freedom, 1e-11 from its closed form: its integrand falls like
// e^(−0.001·v), formed in logarithms where Ḡ underflows, its part beyond
// t = 10³⁰⁸ from the power of the tail, beyond). A base whose
// heaviest tail has ν degrees of freedom leaves G the moments of order
// k < ν/σ²: the variance is +Inf from k = 2 on, and the mean NaN from
// k = 1 on. ok is false where G lies beyond float64: its median beyond
// the base's largest float64 (μ above the base's score there), or a
// moment that exists but overflows.
func conditionalMoments(b *Prediction, mu, sigma float64) (mean, variance, median float64, ok bool) {
	if b.mixture() == nil && b.Loss.gaussian() {
		s := math.Sqrt(b.Var)
		mean, variance = b.Mean+s*mu, s*s*sigma*sigma
		return mean, variance, mean, finite(mean) && finite(variance)
	}
	var q givenQuad
	q.set(b, mu, sigma)
	c := scoreRoot(b, &q.score, mu)
	if !(math.Abs(c) < math.MaxFloat64) {
		return 0, 0, c, false
	}
	if !(q.order > 1) {
		return math.NaN(), math.Inf(1), c, true
	}
	hasVar := q.order > 2
	rate := q.order - 2
	if !hasVar {
		rate = q.order - 1
	}
	s := q.sides(b, c, c, rate, func(t, jac, _, v, tail float64) [2]float64 {
		var h [2]float64
		switch {
		case tail < tinyTail: // Ḡ·jac and t·Ḡ·jac in logarithms
			l := normalLogUpperTail(v) + math.Log(jac)
			h[0] = math.Exp(l)
			if hasVar {
				h[1] = math.Exp(l + math.Log(t))
			}
		case hasVar:
			h[0], h[1] = tail*jac, t*tail*jac
		default:
			h[0] = tail * jac
		}
		return h
	})
	mean = c + (s[0][0] - s[1][0])
	variance = math.Inf(1)
	if hasVar {
		d := s[0][0] - s[1][0]
		variance = 2*(s[0][1]+s[1][1]) - d*d
	}
	return mean, variance, c, finite(mean) && (!hasVar || finite(variance))
}

// givenCRPS is CRPS of a conditional marginal: numerically, the sides'
// integrals of G's squared tails (of y = e^z weighted by dy/dz = e^z
// under the log transform, whose upper side converges for a base of
// Gaussian tails only), to about 1e-10 relative; +Inf where the
// integral diverges (G's tails, of order ν/σ² for a base of ν degrees of
// freedom, too heavy for their squares to integrate: ν/σ² ≤ ½, as the
// t's own CRPS is +Inf for ν ≤ ½; and any base of finite degrees of
// freedom under the log transform) and for an infinite y; NaN for a NaN y. Below the log transform's domain (y ≤ 0)
// it is −y + y₀ + CRPS(y₀), y₀ = e^(z₀) at G's score −40, where G is 0 in
// float64.
func (p *Prediction) givenCRPS(y float64) float64 {
	if math.IsNaN(y) {
		return y
	}
	b := p.base()
	mu, sigma := p.given.mu, p.given.sigma
	var q givenQuad
	q.set(&b, mu, sigma)
	logged := p.Transform != TransformNone
	if math.IsInf(y, 0) || !(q.order > 0.5) || logged && !math.IsInf(q.dof, 1) {
		return math.Inf(1)
	}
	z0, extra := y, 0.0
	if logged {
		if y > 0 {
			z0 = logFull(y)
		} else {
			z0 = scoreRoot(&b, &q.score, mu-40*sigma)
			extra = -y + math.Exp(z0)
		}
	}
	s := q.sides(&b, z0, scoreRoot(&b, &q.score, mu), 2*q.order-1, func(_, jac, z, v, tail float64) [2]float64 {
		g := tail * tail
		if logged {
			g *= math.Exp(z)
		}
		if g *= jac; tail < tinyTail || !normalFloat(g) && g != 0 {
			// Ḡ²·(e^z)·jac in logarithms: Ḡ² underflows, or e^z
			// overflows where Ḡ² is small
			l := 2*normalLogUpperTail(v) + math.Log(jac)
			if logged {
				l += z
			}
			g = math.Exp(l)
		}
		return [2]float64{g, 0}
	})
	return extra + s[0][0] + s[1][0]
}

// condition makes p, a marginal (conditional or not), the conditional
// marginal whose score given the other targets is N(mu2, sigma2²) in p's
// own score, and whose calibrated predictive is N(centre, vc) in z: a
// conditional marginal's map composes, (u − μ₁)/σ₁ then (· − mu2)/sigma2
// being (u − (μ₁ + σ₁·mu2))/(σ₁·sigma2) on the same base. It sets Mean
// and Var (ZMean and ZVar under a transform) to G's, by quadrature
// (conditionalMoments), and VarCorrected (ZVarCorrected) to vc; under
// the log transform Mean, Var and VarCorrected are the log-normal ones
// of the calibrated centre, as Prediction.Transform says. It reports
// false where G or its calibrated law lies beyond float64 (G's median
// beyond the base's largest float64, a moment that exists but overflows,
// a centre or Mean that overflows; under the log, a median e^c of G or a
// Mean that overflows or underflows to 0, where every quantile of y
// would be 0 or +Inf), which Conditional refuses.
func (p *Prediction) condition(mu2, sigma2, centre, vc float64) bool {
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
	zm, zv, zmed, ok := conditionalMoments(&b, g.mu, g.sigma)
	ok = ok && finite(centre) && finite(vc)
	if p.Transform == TransformNone {
		p.Mean, p.Var, p.VarCorrected = zm, zv, vc
		return ok
	}
	q := Prediction{Mean: centre, Var: zv, VarCorrected: vc}
	transformBack(&q, p.Transform)
	p.Mean, p.Var, p.VarCorrected = q.Mean, q.Var, q.VarCorrected
	p.ZMean, p.ZVar, p.ZVarCorrected = zm, zv, vc
	return ok && positiveFinite(p.Mean) && positiveFinite(p.Transform.invert(zmed))
}
