package gcp

import (
	"math"
	"slices"
)

// The CRPS of an ensemble's mixture has no closed form (the difference of
// two Student t's of different degrees of freedom is not a t), so
// mixtureCRPS integrates its definition numerically. Each side of the
// outcome y is an integral over t ≥ 0 of the squared probability that the
// mixture lies beyond y ± t,
//
//	CRPS = ∫₀^∞ P(X > y + t)² dt + ∫₀^∞ P(X < y − t)² dt,
//
// where each probability is the mean of the members' tails, formed from
// the tails themselves (studentTDist.probs) so that it keeps its relative
// accuracy however small it is, and neither side integrates across the
// jump of 1{x ≥ y}. The substitution t = w·(eᵛ − 1), w the smallest member
// scale, maps t ≥ 0 to v ≥ 0: near y it is the identity up to the scale
// w, and far out it turns a tail falling like t^(−ν) into one falling like
// e^(−(2ν−1)v), which a few unit panels integrate.
//
// The panels of v end at each member's mean and at 2, 4, 8, … of its
// scales on either side of it (those beyond y), out to twice the mean's
// distance from y: a geometric mesh, so that no panel is much wider than
// its distance from the member, and no member's transition or the start
// of its tail can fall between the nodes of a wide panel. They then
// continue in steps of
// crpsTailStep(ν) until the rest of the tail, bounded by a geometric
// series of the panels' observed ratio (at least e^(−(2ν−1)·step), the
// ratio the heaviest member's tail reaches), is below crpsTol of the side.
// Each panel is integrated by the 15-point Gauss–Kronrod rule, with the
// embedded 7-point Gauss rule's difference as its error, and the panel of
// largest error is halved until the errors sum to at most crpsTol of the
// side (at most crpsMaxPanels panels). |K15 − G7| overstates the error of
// K15 on smooth integrands by orders of magnitude, so the result is
// usually accurate to far better than crpsTol.

const (
	// crpsTol is the relative error the panels' error estimates are
	// driven below, per side.
	crpsTol = 1e-11
	// crpsMaxPanels bounds the panels of one side: breakpoints, tail steps
	// and halvings together. 4032 and not 4096, so that crpsQuad stays
	// within the 128 KiB up to which Go keeps a variable on the stack
	// (130,848 bytes at MaxMembers 20; 4096 panels made it 132,896 and
	// every call of mixtureCRPS or logMixtureCRPS allocate it, TestCRPSAllocatesNothing).
	crpsMaxPanels = 4032
	// crpsMesh bounds the points of a member's geometric mesh on each
	// side of its mean: 2, 4, …, 2^crpsMesh scales, far beyond any
	// distance (in scales) between an outcome and a member's mean that a
	// model predicts.
	crpsMesh = 48
)

// crpsPanel is one panel [a, b] of v with its Kronrod estimate and error.
type crpsPanel struct{ a, b, val, err float64 }

// crpsMember is one member of the mixture as a side sees it: its
// standard distribution, its scale and r = ±(y − mean), how far y lies
// beyond its mean towards the side's tail (negative if the mean lies
// beyond y).
type crpsMember struct {
	d              studentTDist
	mean, scale, r float64
}

// crpsQuad is the state of one mixtureCRPS call; it lives on the caller's
// stack.
type crpsQuad struct {
	m [MaxMembers]crpsMember
	k int
	w float64 // the substitution's unit: the smallest member scale
	// weighted integrates for Y = e^X instead (logMixtureCRPS): the
	// integrand has the factor dx/dz = e^(z₀ + sign·t) of z = ln x, z₀
	// the outcome's logarithm and sign the side's direction.
	weighted bool
	z0, sign float64
	minDoF   float64
	vMax     float64 // the v beyond which w·(eᵛ − 1) overflows
	p        [crpsMaxPanels]crpsPanel
	n        int // panels in use
}

// mixtureCRPS returns the CRPS at y of the uniform mixture of the members
// c: +Inf if a member has at most ½ degree of freedom (its tails are too
// heavy for the integral to converge), for an infinite y, and where the
// CRPS is beyond float64's range; NaN for a NaN y. The members' scales
// must be positive and finite, as a Prediction's are.
func mixtureCRPS(c []Component, y float64) float64 {
	if math.IsNaN(y) {
		return math.NaN()
	}
	if s, ok := crpsShrink(c, y); ok {
		return crpsFarScale * linearCRPS(s.c[:len(c)], y/crpsFarScale)
	}
	return linearCRPS(c, y)
}

// linearCRPS is mixtureCRPS for a y that is not NaN, of a mixture and an
// outcome within crpsFar.
func linearCRPS(c []Component, y float64) float64 {
	var q crpsQuad
	if !q.init(c, y) {
		return math.Inf(1)
	}
	return q.sides(y)
}

// The CRPS is scale-equivariant: for the mixture and the outcome divided
// by s, it is the CRPS divided by s. mixtureCRPS uses that where y or a
// member's mean or scale is beyond crpsFar: there y − mean may overflow,
// the panels must reach past the t = w·(eᵛ − 1) of vMax, at most
// MaxFloat64/e, and their Kronrod sums (weights adding up to 2) may
// overflow. It works on the mixture divided by crpsFarScale, a power of
// two, so that the division is exact (but for subnormal means, whose
// digits are far below the CRPS's rounding) and keeps every scale of a
// Prediction, at least 2⁻⁵³⁷ as the square root of a positive variance,
// normal.
const (
	crpsFar      = 0x1p1000
	crpsFarScale = 0x1p32
)

// crpsShrunk holds a mixture divided by crpsFarScale (crpsShrink), or
// the members of X shifted so that Y = e^X is divided by a power of two
// (logMixtureCRPS).
type crpsShrunk struct{ c [MaxMembers]Component }

// crpsShrink returns the mixture c divided by crpsFarScale, and true, if
// y or one of its members' means or scales is beyond crpsFar.
func crpsShrink(c []Component, y float64) (crpsShrunk, bool) {
	far := math.Abs(y) > crpsFar
	for _, ci := range c {
		far = far || math.Abs(ci.Mean) > crpsFar || ci.Scale > crpsFar
	}
	var s crpsShrunk
	if !far {
		return s, false
	}
	for i, ci := range c {
		s.c[i] = Component{Mean: ci.Mean / crpsFarScale, Scale: ci.Scale / crpsFarScale, DoF: ci.DoF}
	}
	return s, true
}

// logMixtureCRPS returns the CRPS at y of Y = e^X, X the uniform mixture
// of the members c: the predictive of a model with the log target
// transform. Unless every member is Gaussian it is +Inf: a Student t's
// P(Y > x) = P(X > ln x) falls only like (ln x)^(−ν), whose square no
// power of x bounds, so the integral diverges. It is the integral over
// z = ln x, ∫ (F_X(z) − 1{z ≥ ln y})²·e^z dz. Below the support (y ≤ 0)
// the CRPS is −y + y₀ + CRPS(y₀) for y₀ = e^(z₀), z₀ 40 scales below
// every member's mean, where F_X is below 1e-348 and so 0 in float64.
// NaN for a NaN y, +Inf for y = +Inf.
func logMixtureCRPS(c []Component, y float64) float64 {
	if math.IsNaN(y) {
		return math.NaN()
	}
	k := crpsLogShift(c, y)
	if k == 0 {
		return logCRPS(c, y)
	}
	var s crpsShrunk
	for i, ci := range c {
		s.c[i] = Component{Mean: ci.Mean - float64(k)*math.Ln2, Scale: ci.Scale, DoF: ci.DoF}
	}
	if y < 0 {
		return -y + math.Ldexp(logCRPS(s.c[:len(c)], 0), k)
	}
	return math.Ldexp(logCRPS(s.c[:len(c)], math.Ldexp(y, -k)), k)
}

// The CRPS of Y = e^X is scale-equivariant too: for Y and y divided by
// 2ᵏ, X's members shifted by −k·ln 2, it is divided by 2ᵏ, exactly but
// for the rounding of the shifted means (1e-13 relative at means of 700).
// logMixtureCRPS uses that where the integrand's largest values, about y
// on the lower side and e^(mean + scale²/4) on the upper (where
// e^z·P(X > z)² peaks for a Gaussian member), are beyond e^±crpsLogFar:
// there they overflow the Kronrod sums, or underflow to subnormal values
// that have lost their digits (a CRPS of 1e-305 came out 1e-4 wrong).
const crpsLogFar = 600

// crpsLogShift returns the k by which logMixtureCRPS divides Y and y: 0
// where ln y (for y > 0) and each member's mean + scale²/4 are within
// crpsLogFar of 0, else the k for which 2ᵏ is nearest to e raised to the
// largest of them, so that the integrand's values come to about 1.
func crpsLogShift(c []Component, y float64) int {
	top := math.Inf(-1)
	if y > 0 {
		top = math.Log(y)
	}
	for _, ci := range c {
		top = max(top, ci.Mean+ci.Scale*ci.Scale/4)
	}
	if math.Abs(top) <= crpsLogFar {
		return 0
	}
	// Beyond ±2000 the CRPS is 0 or +Inf whatever the shift.
	return int(math.Round(max(-2000, min(2000, top)) / math.Ln2))
}

// logCRPS is logMixtureCRPS for a y that is not NaN, of members and an
// outcome within crpsLogFar.
func logCRPS(c []Component, y float64) float64 {
	var q crpsQuad
	z0 := math.Log(y)
	if y <= 0 {
		z0 = math.Inf(1)
		for _, ci := range c {
			z0 = min(z0, ci.Mean-40*ci.Scale)
		}
	}
	if !q.init(c, z0) {
		return math.Inf(1)
	}
	for _, m := range q.m[:q.k] {
		if !m.d.normal {
			return math.Inf(1)
		}
	}
	q.weighted, q.z0 = true, z0
	if y <= 0 {
		return -y + math.Exp(z0) + q.sides(z0)
	}
	return q.sides(z0)
}

// init sets up the members of c for an outcome at y, and reports false
// if the CRPS is +Inf: a member of at most ½ degree of freedom, or an
// infinite distance y − mean.
func (q *crpsQuad) init(c []Component, y float64) bool {
	q.k, q.w, q.minDoF = len(c), math.Inf(1), math.Inf(1)
	for i, ci := range c {
		if !(ci.DoF > 0.5) || math.IsInf(y-ci.Mean, 0) {
			return false
		}
		q.m[i].d.set(ci.DoF)
		q.m[i].mean, q.m[i].scale = ci.Mean, ci.Scale
		q.w, q.minDoF = min(q.w, ci.Scale), min(q.minDoF, ci.DoF)
	}
	q.vMax = math.Log(math.MaxFloat64) - math.Log(q.w) - 1 // Max/w overflows for w < 1
	return true
}

// sides returns the sum of the integrals on both sides of y.
func (q *crpsQuad) sides(y float64) float64 {
	var sum float64
	for _, side := range [2]float64{1, -1} {
		for i := range q.m[:q.k] {
			q.m[i].r = side * (y - q.m[i].mean)
		}
		q.sign = side
		sum += q.side()
	}
	return sum
}

// crpsTailStep returns the width in v of the tail's panels: 1 where the
// integrand falls by at least e^(−1) per unit (ν ≥ 1), and wider for
// heavier tails, up to 20, so that each panel spans a comparable fall.
func crpsTailStep(minDoF float64) float64 {
	return min(20, max(1, 1/(2*minDoF-1)))
}

// side returns ∫₀^∞ P(beyond y + t)² dt for the members' r as set.
func (q *crpsQuad) side() float64 {
	var bp [MaxMembers*(2*crpsMesh+1) + 1]float64
	n := 0
	add := func(t float64) {
		if t > 0 {
			bp[n] = math.Log1p(t / q.w)
			n++
		}
	}
	for _, m := range q.m[:q.k] {
		// The member's mean lies at t = −r; the mesh reaches twice that
		// far, and at least 4 scales.
		tk := -m.r
		add(tk)
		far := max(2*math.Abs(tk), 4*m.scale)
		for j, d := 0, 2*m.scale; j < crpsMesh && d <= far; j, d = j+1, 2*d {
			add(tk - d)
			add(tk + d)
		}
	}
	add(q.m[0].scale) // at least one panel before the tail
	vs := bp[:n]
	slices.Sort(vs)
	q.n = 0
	a := 0.0
	for _, v := range vs {
		if v > a && v <= q.vMax {
			q.add(a, v)
			a = v
		}
	}
	q.tail(a)
	return q.refine()
}

// tail adds panels from a on, crpsTailStep wide, until the rest of the
// tail is negligible, v reaches vMax or the panels run out.
func (q *crpsQuad) tail(a float64) {
	step := crpsTailStep(q.minDoF)
	asym := math.Exp(-(2*q.minDoF - 1) * step) // 0 for Gaussian members
	var sum float64
	for i := range q.n {
		sum += q.p[i].val
	}
	// prev is the last panel's value; the first has none to compare with.
	// A quarter of the panels is left for halvings.
	prev := 0.0
	for q.n < crpsMaxPanels-crpsMaxPanels/4 {
		b := min(a+step, q.vMax)
		if b <= a {
			return
		}
		p := q.add(a, b)
		sum += p.val
		if p.val == 0 { // underflowed: so does the rest
			return
		}
		if prev > 0 {
			r := max(p.val/prev, asym)
			if r < 1 && p.val*r/(1-r) <= crpsTol*sum {
				return
			}
		}
		prev, a = p.val, b
	}
}

// add integrates the panel [a, b] and appends it.
func (q *crpsQuad) add(a, b float64) crpsPanel {
	val, err := q.kronrod(a, b)
	q.p[q.n] = crpsPanel{a, b, val, err}
	q.n++
	return q.p[q.n-1]
}

// refine halves the panel of largest error until the errors sum to at
// most crpsTol of the panels' sum or the panels run out, and returns
// that sum.
func (q *crpsQuad) refine() float64 {
	for {
		var sum, errSum float64
		worst := 0
		for i, p := range q.p[:q.n] {
			sum += p.val
			errSum += p.err
			if p.err > q.p[worst].err {
				worst = i
			}
		}
		if errSum <= crpsTol*sum || q.n == crpsMaxPanels {
			return sum
		}
		w := q.p[worst]
		mid := w.a + (w.b-w.a)/2
		if mid <= w.a || mid >= w.b { // the panel is one ulp wide
			return sum
		}
		val, err := q.kronrod(w.a, mid)
		q.p[worst] = crpsPanel{w.a, mid, val, err}
		q.add(mid, w.b)
	}
}

// integrand returns P(beyond y + t)²·dt/dv at v, t = w·(eᵛ − 1).
func (q *crpsQuad) integrand(v float64) float64 {
	t := q.w * math.Expm1(v)
	if math.IsInf(t, 1) {
		// eᵛ overflows where w·eᵛ (w < 1, v ≤ vMax) does not; eᵛ − 1
		// is eᵛ there.
		t = math.Exp(v + math.Log(q.w))
	}
	var g float64
	for i := range q.k {
		m := &q.m[i]
		u := (m.r + t) / m.scale
		tail, _ := m.d.probs(math.Abs(u))
		if u < 0 {
			tail = 1 - tail
		}
		g += tail
	}
	g /= float64(q.k)
	f := g * g * (q.w + t) // dt/dv = w·eᵛ = w + t
	if q.weighted && g != 0 {
		f *= math.Exp(q.z0 + q.sign*t)
		if !normalFloat(f) {
			// Far out in the upper tail e^(z₀ + t) overflows and g²
			// underflows where their product need not: in logarithms.
			f = math.Exp(2*math.Log(g) + math.Log(q.w+t) + q.z0 + q.sign*t)
		}
	}
	return f
}

// kronrod returns the 15-point Gauss–Kronrod estimate of the integral of
// integrand over [a, b] and its difference from the embedded 7-point Gauss
// rule's.
func (q *crpsQuad) kronrod(a, b float64) (val, err float64) {
	c, h := a+(b-a)/2, (b-a)/2
	fc := q.integrand(c)
	k, g := fc*gk15Kronrod[7], fc*gk15Gauss[3]
	for j := range 7 {
		dx := h * gk15Nodes[j]
		f := q.integrand(c-dx) + q.integrand(c+dx)
		k += gk15Kronrod[j] * f
		if j%2 == 1 {
			g += gk15Gauss[j/2] * f
		}
	}
	return k * h, math.Abs(k-g) * h
}

// The 15-point Gauss–Kronrod rule on [−1, 1] (QUADPACK's qk15): the
// Kronrod nodes ±gk15Nodes[j] and 0, their weights gk15Kronrod (the last
// one the center's), and the weights gk15Gauss of the 7-point Gauss rule
// on the odd-numbered nodes and the center. TestGaussKronrodExact checks
// that they integrate the monomials up to degree 22 and 13 exactly.
var (
	gk15Nodes = [7]float64{
		0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245,
	}
	gk15Kronrod = [8]float64{
		0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
	}
	gk15Gauss = [4]float64{
		0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
	}
)
