package gcp

import (
	"math"
	"math/rand/v2"
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

// standardNormalQuantile returns Φ⁻¹(prob) for prob in (0, 1). It works in
// the lower tail, q = min(prob, 1 − prob) (1 − prob is exact for
// prob ≥ ½), where math.Erfcinv gives a start good to about 1e-9 relative
// (it computes Erfinv(1 − 2q), which loses the digits of 2q), and two
// Halley steps on Φ(z) = q, with Φ from math.Erfc, accurate relative to q
// however small, make it accurate to a few ulps.
func standardNormalQuantile(prob float64) float64 {
	q := min(prob, 1-prob)
	z := -math.Sqrt2 * math.Erfcinv(2*q)
	for i := 0; i < 2 && finite(z); i++ {
		pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
		if pdf == 0 {
			break
		}
		t := (0.5*math.Erfc(-z/math.Sqrt2) - q) / pdf
		z -= t / (1 + z*t/2)
	}
	if prob > 0.5 {
		return -z
	}
	return z
}

// mcDropoutMasks returns the MCSamples inverted-dropout masks of a
// LossMLBayes model, one row of width(last) each, drawn from cfg.Seed: the
// same masks serve every input, so a prediction is reproducible and does
// not depend on the batch it is part of.
func mcDropoutMasks[T Float](cfg Config, l *layout) []T {
	mask := make([]T, cfg.MCSamples*l.width(l.last()))
	fillDropoutMask(rand.New(rand.NewPCG(cfg.Seed, mcDropoutStream)), cfg.Dropout, mask)
	return mask
}

// gaussianVariances returns σ² of the first n raw outputs of the variance
// head in ws, gaussianVariance's link with the softplus of all n computed
// by one kernel call (the AVX2 kernel computes a float32 model's in
// float32, within 4e-6 relative), in ws.link.
func (m *Model[T]) gaussianVariances(ws *Workspace[T], n int) []float64 {
	v := ws.link[:n]
	m.k.softplus(v, ws.a.head(headVar, n))
	for i := range v {
		v[i] += minVariance
	}
	return v
}

// gaussianPredictions maps the raw outputs of n rows in ws of a
// Gaussian-loss model to predictions in original units:
// N(yMean + yScale·m, yScale²·σ²).
func (m *Model[T]) gaussianPredictions(ws *Workspace[T], n int, out []Prediction) {
	zm, v := ws.a.head(headM, n), m.gaussianVariances(ws, n)
	s2 := m.varianceUnit()
	for i := range out {
		out[i] = m.gaussianPrediction(m.yMean+m.yScale*float64(zm[i]), s2*v[i], 0)
	}
}

// mcPrediction combines the raw outputs in ws of the MCSamples passes over
// one input into its LossMLBayes prediction, by the law of total variance
// (Sec. subsecSyntheticAleatoricEpistemic): the aleatoric variance is the
// mean of the passes' σ², the epistemic one the variance of their means.
// The variance of the means is summed as squared deviations from their
// mean, which cannot go negative as E[m²] − E[m]² can.
func (m *Model[T]) mcPrediction(ws *Workspace[T]) Prediction {
	s := m.cfg.MCSamples
	zm, v := ws.a.head(headM, s), m.gaussianVariances(ws, s)
	var mean, aleatoric float64
	for i := range zm {
		mean += float64(zm[i])
		aleatoric += v[i]
	}
	mean /= float64(s)
	var epistemic float64
	for _, z := range zm {
		d := float64(z) - mean
		epistemic += d * d
	}
	s2 := m.varianceUnit()
	return m.gaussianPrediction(m.yMean+m.yScale*mean, s2*aleatoric/float64(s), s2*epistemic/float64(s))
}

// gaussianPrediction is the prediction N(mean, aleatoric + epistemic).
func (m *Model[T]) gaussianPrediction(mean, aleatoric, epistemic float64) Prediction {
	v := aleatoric + epistemic
	return Prediction{Loss: m.cfg.Loss, Mean: mean, Var: v, VarCorrected: v * m.corrScale, Alpha: math.Inf(1),
		VarAleatoric: aleatoric, VarEpistemic: epistemic}
}

// varianceUnit is what a variance in standardized units is multiplied by
// to give it in original units: yScale², times the calibration VarScale.
func (m *Model[T]) varianceUnit() float64 { return m.yScale * m.yScale * m.varScale }
