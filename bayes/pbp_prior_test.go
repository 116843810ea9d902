package bayes

import (
	"math"
	"testing"
)

// TestRefinePrior checks refinePrior on three weights against the update
// written out another way. For a cavity N(w | mc, vc) and λ ~ Gamma(ac,
// bc), PBP replaces the exact prior factor N(w | 0, 1/λ) by the Gaussian
// of the expected variance s = bc/(ac−1), so the new posterior of w is the
// product of two Gaussians: precision 1/vc + 1/s, mean (mc/vc)/(1/vc +
// 1/s). The new Gamma of λ matches the moments of the tilted
// Gamma(λ | ac, bc)·Z(ac, bc), Z(a, b) = N(mc | 0, vc + b/(a−1)), by
// E[λ] = (a/b)·Z(a+1, b)/Z and E[λ²] = (a(a+1)/b²)·Z(a+2, b)/Z. The new
// factor is what the new posterior has beyond the cavity: removing it
// must give the cavity back. The weights are refined in order, each on
// the Gamma its predecessor left; the middle one's cavity variance, 10⁷,
// is above maxCavityVariance, so it must be left bit for bit as it was.
// Both computations take a few dozen roundings of values of order 1:
// 1e-12 relative is ample.
func TestRefinePrior(t *testing.T) {
	cfg := PBPConfig{Inputs: 2, Hidden: []int{}, Epochs: 1}.withDefaults()
	m := newModel(cfg)
	copy(m.mean, []float64{0.8, -0.3, 1.5})
	copy(m.variance, []float64{0.2, 0.5, 0.05})
	copy(m.mHat, []float64{0.4, 0.1, -1})
	copy(m.vHat, []float64{1, 2 - 1e-7, 2})
	copy(m.aHat, []float64{0.5, 0.5, 0.5})
	copy(m.bHat, []float64{-0.2, -0.3, -0.2})
	m.priorA, m.priorB = 9, 7
	skipped := [6]float64{m.mean[1], m.variance[1], m.mHat[1], m.vHat[1], m.aHat[1], m.bHat[1]}

	z := func(a, b, v, mc float64) float64 {
		s := v + b/(a-1)
		return math.Exp(-0.5*mc*mc/s) / math.Sqrt(2*math.Pi*s)
	}
	type want struct{ mean, variance, mHat, vHat, aHat, bHat float64 }
	var w [3]want
	a, b := m.priorA, m.priorB
	for _, i := range []int{0, 2} {
		vc := 1 / (1/m.variance[i] - m.vHat[i])
		mc := vc * (m.mean[i]/m.variance[i] - m.mHat[i])
		ac, bc := a-m.aHat[i], b+m.bHat[i]
		s := bc / (ac - 1)
		prec := 1/vc + 1/s
		w[i].variance, w[i].mean = 1/prec, mc/vc/prec
		z0 := z(ac, bc, vc, mc)
		e1 := ac / bc * z(ac+1, bc, vc, mc) / z0
		e2 := ac * (ac + 1) / (bc * bc) * z(ac+2, bc, vc, mc) / z0
		a, b = e1*e1/(e2-e1*e1), e1/(e2-e1*e1)
		w[i].vHat, w[i].mHat = prec-1/vc, w[i].mean*prec-mc/vc
		w[i].aHat, w[i].bHat = a-ac, bc-b
	}

	m.refinePrior()
	for _, i := range []int{0, 2} {
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"mean", m.mean[i], w[i].mean}, {"variance", m.variance[i], w[i].variance},
			{"mHat", m.mHat[i], w[i].mHat}, {"vHat", m.vHat[i], w[i].vHat},
			{"aHat", m.aHat[i], w[i].aHat}, {"bHat", m.bHat[i], w[i].bHat},
		} {
			if !close(c.got, c.want, 1e-12) {
				t.Errorf("weight %d: %s = %.17g, by hand %.17g", i, c.name, c.got, c.want)
			}
		}
	}
	if !close(m.priorA, a, 1e-12) || !close(m.priorB, b, 1e-12) {
		t.Errorf("λ's posterior Gamma(%.17g, %.17g), by hand Gamma(%.17g, %.17g)", m.priorA, m.priorB, a, b)
	}
	if got := [6]float64{m.mean[1], m.variance[1], m.mHat[1], m.vHat[1], m.aHat[1], m.bHat[1]}; got != skipped {
		t.Errorf("weight 1, cavity variance 1e7: %v, want it unchanged, %v", got, skipped)
	}
}
