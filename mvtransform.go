package gcp

import "math"

// The targets of a MultiPrediction under target transforms
// (Model.TargetTransforms): the network models z_j = g_j(y_j), each g_j
// increasing, so a target vector y maps to z = g(y) one column at a time,
// and a density of z turns into one of y with the Jacobian Π_j g′_j(y_j),
// the map being diagonal. The methods that take a y map it into z
// (toModeled), those that draw map their draws back (toOriginal), and the
// covariances in original units are the log-normal ones (originalCov).

// toModeled returns the target vector y (len(y) = Dim()) as the network
// models it, z_j = g_j(y_j), in buf (y itself when no target is
// transformed), the log of the Jacobian Σ_j ln g′_j(y_j), and false for
// a y outside a transform's domain.
func (p *MultiPrediction) toModeled(y []float64, buf *[maxTargets]float64) (z []float64, logJac float64, ok bool) {
	if !p.logged {
		return y, 0, true
	}
	z, ok = buf[:len(y)], true
	for j, v := range y {
		var in bool
		z[j], in = p.tr[j].forward(v)
		ok = ok && in
		logJac += p.tr[j].logJacobian(z[j])
	}
	return z, logJac, ok
}

// toOriginal maps a draw z of the targets as the network models them
// back to original units in place, y_j = g_j⁻¹(z_j).
func (p *MultiPrediction) toOriginal(z []float64) {
	if !p.logged {
		return
	}
	for j, v := range z {
		z[j] = p.tr[j].invert(v)
	}
}

// outsideDensity returns the log density at a y outside a transform's
// domain: −Inf, or NaN where y holds a NaN, as one target's LogPDF.
func outsideDensity(y []float64) float64 {
	for _, v := range y {
		if math.IsNaN(v) {
			return v
		}
	}
	return math.Inf(-1)
}

// originalCov returns entry (i, j) of the covariance in original units
// of the Gaussian N(m, C) in z mapped through the targets' transforms, C
// the t's covariance (zCov) or, if corrected, Σ̃ (zCovCorrected): C_ij
// where neither target is transformed; e^(m_i + C_ii/2)·C_ij where i
// alone is logged; e^(m_i + m_j + (C_ii + C_jj)/2)·(e^C_ij − 1) where
// both are (the log-normal's, whose diagonal is Prediction.Var's under
// TransformLog).
func (p *MultiPrediction) originalCov(i, j int, corrected bool) float64 {
	c := p.zCov
	if corrected {
		c = p.zCovCorrected
	}
	cij := c(i, j)
	if !p.logged || p.tr[i] == TransformNone && p.tr[j] == TransformNone {
		return cij
	}
	f := 1.0
	for _, k := range [2]int{i, j} {
		if p.tr[k] == TransformLog {
			f *= math.Exp(p.mean[k] + c(k, k)/2)
		}
	}
	if p.tr[i] == TransformLog && p.tr[j] == TransformLog {
		return f * math.Expm1(cij)
	}
	return f * cij
}
