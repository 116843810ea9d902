package gcp

import (
	"math"
)

// normal is the Gaussian N(mean, variance), the predictive of the
// comparator losses: the limit α → ∞ of the Student t.
type normal struct{ mean, variance float64 }

// logPDF returns ln N(y | mean, variance).
func (g normal) logPDF(y float64) float64 {
	nll, _, _ := gaussianNLL(g.mean, g.variance, y)
	return -nll
}

// cdf returns P(Y ≤ y) = erfc(−(y − mean)/√(2·variance))/2, accurate in
// both tails.
func (g normal) cdf(y float64) float64 {
	return 0.5 * math.Erfc(-(y-g.mean)/math.Sqrt(2*g.variance))
}

// quantile returns the y with cdf(y) = prob, for prob in (0, 1), as
// mean + sd·z with z = standardNormalQuantile(prob).
func (g normal) quantile(prob float64) float64 {
	return g.mean + math.Sqrt(g.variance)*standardNormalQuantile(prob)
}

// standardNormalQuantile returns Φ⁻¹(prob) for prob in (0, 1), finite
// for every such float64, down to the smallest subnormal 2⁻¹⁰⁷⁴ (where it
// is about −38.47). It works in the lower tail, q = min(prob, 1 − prob)
// (1 − prob is exact for prob ≥ ½, so the upper tail mirrors the lower one
// exactly). Down to q = normalTailMin, math.Erfcinv gives a start good to
// about 1e-9 relative (it computes Erfinv(1 − 2q), which loses the digits
// of 2q, and all of them once 2q < 2⁻⁵³), and two Halley steps on
// Φ(z) = q, with Φ from math.Erfc, accurate relative to q however small,
// make it accurate to a few ulps. Below, normalTailQuantile solves on the
// log scale.
func standardNormalQuantile(prob float64) float64 {
	q := min(prob, 1-prob)
	var z float64
	if q < normalTailMin {
		z = normalTailQuantile(q)
	} else {
		z = -math.Sqrt2 * math.Erfcinv(2*q)
		for i := 0; i < 2 && finite(z); i++ {
			pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
			if pdf == 0 {
				break
			}
			t := (0.5*math.Erfc(-z/math.Sqrt2) - q) / pdf
			z -= t / (1 + z*t/2)
		}
	}
	if prob > 0.5 {
		return -z
	}
	return z
}

// normalTailMin is the lower-tail probability below which
// standardNormalQuantile leaves the Erfcinv start: at q = 1e-10 the start
// has lost about 6 of its digits to 1 − 2q and two Halley steps still
// recover them; by 5e-17 it has lost all and is −Inf.
const normalTailMin = 1e-10

// normalTailQuantile returns the z < 0 with Φ(z) = q, for 0 < q < ½, by
// Newton's method on g(z) = ln Φ(z) − ln q, with ln Φ(z) = ln(½·erfcx(x))
// − z²/2 and g′(z) = φ(z)/Φ(z) = √(2/π)/erfcx(x), x = −z/√2 (Erfcx): no
// term underflows, so a subnormal q is resolved as well as a normal one,
// where Φ and φ themselves would keep only a few bits. ln Φ is concave,
// so the iteration converges monotonically, and quadratically, from the
// start of the tail's asymptotic series,
// −√(−2 ln q − ln(−2 ln q) − ln 2π), good to about 1e-3 at q = 1e-10.
func normalTailQuantile(q float64) float64 {
	lq := logFull(q) // math.Log flushes a subnormal q
	u := -2 * lq
	z := -math.Sqrt(u - math.Log(u) - math.Log(2*math.Pi))
	for range normalTailSteps {
		e := Erfcx(-z / math.Sqrt2)
		step := (math.Log(0.5*e) - z*z/2 - lq) * e / math.Sqrt(2/math.Pi)
		z -= step
		if math.Abs(step) <= 0x1p-52*math.Abs(z) {
			break
		}
	}
	return z
}

// normalTailSteps bounds normalTailQuantile's Newton steps: from the
// start's 1e-3 relative error, quadratic convergence needs four to reach
// float64's precision, and one more confirms it.
const normalTailSteps = 8

// mcDropoutMasks returns the MCSamples inverted-dropout masks of a
// LossMLBayes model, one row of width(last) each, drawn from cfg.Seed: the
// same masks serve every input, so a prediction is reproducible and does
// not depend on the batch it is part of.
func mcDropoutMasks[T Float](cfg Config, l *layout) []T {
	mask := make([]T, cfg.MCSamples*l.width(l.last()))
	src := newPCG(cfg.Seed, mcDropoutStream)
	fillDropoutMask(&src, cfg.Dropout, mask)
	return mask
}

// gaussianVariances returns σ² of the first n raw outputs of every
// member's variance head in ws, gaussianVariance's link with the softplus
// of all of them computed by one kernel call (the AVX2 kernel computes a
// float32 model's in float32, within 4e-6 relative), in ws.link: member
// k's at k·n.
func (m *Model[T]) gaussianVariances(ws *Workspace[T], n int) []float64 {
	l := m.lay
	v := ws.link[:l.members*n]
	m.k.softplus(v, ws.a.out[l.head(headVar, 0)*n:l.heads*n])
	for i := range v {
		v[i] += minVariance
	}
	return v
}

// gaussianPredictives fills p with the members' predictives of the n rows
// in ws of a Gaussian-loss model: each member's N(yMean + yScale·m,
// yScale²·σ²), σ² its variance link (gaussianVariances).
func (m *Model[T]) gaussianPredictives(ws *Workspace[T], n int, p *memberPredictives) {
	v := m.gaussianVariances(ws, n)
	kn := len(v)
	mean, variance, alpha := p.mean[:kn], p.variance[:kn], p.alpha[:kn]
	p.aleatoric, p.corrected, p.epistemic = variance, variance, p.zero
	for j, z := range ws.a.out[:kn] {
		mean[j] = m.yMean + m.yScale*float64(z)
	}
	s2 := m.varianceUnit()
	for j, x := range v {
		variance[j] = s2 * x
		alpha[j] = math.Inf(1)
	}
	m.gaussianScales(p, kn)
}

// gaussianScales sets, for an ensemble, the first kn members' Component
// scales to the standard deviations of their Gaussian predictives.
func (m *Model[T]) gaussianScales(p *memberPredictives, kn int) {
	if m.lay.members > 1 {
		for j, v := range p.variance[:kn] {
			p.scale[j] = math.Sqrt(v)
		}
	}
}

// mcPredictives fills p with the members' predictives of the one input
// whose MCSamples passes' raw outputs are in ws, for a LossMLBayes model:
// by the law of total variance (Sec. 6.2),
// each member's aleatoric variance is the mean of its passes' σ², its
// epistemic one the variance of their means. The variance of the means is
// summed as squared deviations from their mean, which cannot go negative
// as E[m²] − E[m]² can.
func (m *Model[T]) mcPredictives(ws *Workspace[T], p *memberPredictives) {
	l, s := m.lay, m.cfg.MCSamples
	v := m.gaussianVariances(ws, s)
	p.corrected = p.variance
	s2 := m.varianceUnit()
	for k := range l.members {
		zm, vk := ws.a.head(l.head(headM, k), s), v[k*s:(k+1)*s]
		var mean, aleatoric float64
		for i := range zm {
			mean += float64(zm[i])
			aleatoric += vk[i]
		}
		mean /= float64(s)
		var epistemic float64
		for _, z := range zm {
			d := float64(z) - mean
			epistemic += d * d
		}
		p.mean[k] = m.yMean + m.yScale*mean
		p.aleatoric[k], p.epistemic[k] = s2*aleatoric/float64(s), s2*epistemic/float64(s)
		p.variance[k] = p.aleatoric[k] + p.epistemic[k]
		p.alpha[k] = math.Inf(1)
	}
	m.gaussianScales(p, l.members)
}

// varianceUnit is what a variance in standardized units is multiplied by
// to give it in original units: yScale², times the calibration VarScale.
func (m *Model[T]) varianceUnit() float64 { return m.yScale * m.yScale * m.varScale }
