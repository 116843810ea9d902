package gcp

import "math"

// MaxMembers is the most networks a model may hold (Config.Members).
const MaxMembers = 16

// Component is one member's predictive inside an ensemble's mixture: the
// location-scale Student t with DoF degrees of freedom, whose density at
// y is t_DoF((y − Mean)/Scale)/Scale. DoF is +Inf for the Gaussian
// N(Mean, Scale²) of a comparator loss.
type Component struct{ Mean, Scale, DoF float64 }

// cdf returns the component's distribution function at y.
func (c Component) cdf(y float64) float64 {
	if math.IsInf(c.DoF, 1) {
		return normal{c.Mean, c.Scale * c.Scale}.cdf(y)
	}
	return studentTCDF((y-c.Mean)/c.Scale, c.DoF)
}

// logPDF returns the component's log density at y, as the predictive of
// the normal-gamma whose σ/α is Scale² (ν large enough not to matter).
func (c Component) logPDF(y float64) float64 {
	if math.IsInf(c.DoF, 1) {
		return normal{c.Mean, c.Scale * c.Scale}.logPDF(y)
	}
	a := c.DoF / 2
	p := NormalGamma{M: c.Mean, Alpha: a, Nu: 1e300, Beta: c.Scale * c.Scale * a}
	return p.LogPredictive(y)
}

// mixtureLogPDF returns the log density of the uniform mixture of c at y.
func mixtureLogPDF(c []Component, y float64) float64 {
	mx := math.Inf(-1)
	for _, x := range c {
		mx = max(mx, x.logPDF(y))
	}
	var s float64
	for _, x := range c {
		s += math.Exp(x.logPDF(y) - mx)
	}
	return mx + math.Log(s/float64(len(c)))
}

// mixtureCDF returns the mixture's (1/K) Σ F_k(y).
func mixtureCDF(c []Component, y float64) float64 {
	var s float64
	for _, x := range c {
		s += x.cdf(y)
	}
	return s / float64(len(c))
}

// mixtureQuantile returns the y with mixtureCDF(y) = prob by bisection
// between the smallest and largest component quantiles at prob.
func mixtureQuantile(c []Component, prob float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range c {
		var q float64
		if math.IsInf(x.DoF, 1) {
			q = normal{x.Mean, x.Scale * x.Scale}.quantile(prob)
		} else {
			q = x.Mean + x.Scale*studentTQuantile(prob, x.DoF)
		}
		lo, hi = min(lo, q), max(hi, q)
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mixtureCDF(c, mid) < prob {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// mixtureInterval returns the central interval holding level: the two
// quantiles, since a mixture is not symmetric.
func mixtureInterval(c []Component, level float64) (lo, hi float64) {
	return mixtureQuantile(c, (1-level)/2), mixtureQuantile(c, 1-(1-level)/2)
}
