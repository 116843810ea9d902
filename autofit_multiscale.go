package gcp

import "math"

// The per-target calibration of a model of several targets: each target's
// scale, fitted by the likelihood of its marginal on the rows that
// calibrate the joint region, as the one-target recipe fits its variance
// factor (calibrateVarScale), and folded into the Cholesky heads.
//
// Why. The ensemble keeps its Cholesky and ν heads from the epoch of the
// best held-out joint NLL and its mean heads from a later epoch
// (fitRun.finish, multiValidationScores), and one joint NLL decides that
// epoch for every target. A target the features nearly determine then
// keeps a scale fitted to the larger residuals of its earlier mean, while
// noisy targets' scales have begun to fit their training rows: on the
// slump data's inner splits the compressive strength's squared errors
// averaged a third of its corrected variance and the other two targets'
// 1.4 to 1.7 times theirs. One target's recipe takes such a misfit out
// with its variance factor; the joint region's one scale on Σ̃ cannot,
// where the targets err in opposite directions, and it leaves the
// multivariate t, and so every marginal, as trained.

// scaleTargets fits each target's scale to the predictions preds of the
// targets y as observed (targetScales), scales preds by it (scaleRows)
// and returns the factors, which the model's Cholesky heads take
// (scaleCholeskyRows). A target on a lattice of spacing h (quanta[j] > 0;
// quanta nil for none) is fitted by the probability of each value's cell
// y ± h/2, the likelihood of the rounded variable, not by a density:
// bounded by 1, it cannot pile up on a lattice point as a density at the
// values can, and it needs no draw of noise. Paired against the scales
// as trained over 20 inner splits (seeds 1 and 2), the joint NLL of the
// values as observed, which eval and the benchmark score, changed by
// −0.070 ± 0.036 on edm (two targets on −1, 0, 1; its calibrated joint
// NLL by −0.063 ± 0.011) and by −0.001 ± 0.025 on wq (14 targets on
// 0, 1, 3, 5; its calibrated joint NLL by −0.050 ± 0.015, each of the
// 14 marginal NLLs lower, by 0.001–0.078). The density at one draw of
// the dequantized values, to which one target's variance factor is
// fitted, gave +0.025 ± 0.012 on edm (−0.059 ± 0.012 on wq): the mean
// log density over the noise lies below the log of the cell's
// probability and favours wider scales, and edm's lattice is coarse
// against its noise. The density at the values as observed gave +0.033
// ± 0.027 on wq (−0.153 ± 0.051 on edm).
func scaleTargets[T Float](preds []MultiPrediction, y []T, d int, quanta []float64) []float64 {
	r := targetScales(preds, y, d, quanta)
	for i := range preds {
		preds[i].scaleRows(r)
	}
	return r
}

// targetScales returns, for each of the d targets, the factor r_j on row
// j of every member's Cholesky factor (S_jj times r_j²) that maximises
// the likelihood of the targets y (row-major, as the network models them)
// under the marginals of preds so scaled, the density at y_j for a
// continuous target and the probability of the cell y_j ± h_j/2 for one
// on a lattice of spacing h_j = quanta[j] (scaleTargets): golden-section
// search on ln r_j² over the one-target bracket (calibrationRange), each
// target on its own. Row j of L scales S's row and column j, so the
// marginal of target j is scaled alone and the correlations are kept.
func targetScales[T Float](preds []MultiPrediction, y []T, d int, quanta []float64) []float64 {
	r := make([]float64, d)
	for j := range r {
		var h float64
		if quanta != nil {
			h = quanta[j]
		}
		nll := func(u float64) float64 {
			f := math.Exp(u / 2)
			var s float64
			for i := range preds {
				s -= preds[i].scaledMarginalLog(j, f, float64(y[i*d+j]), h)
			}
			return s
		}
		r[j] = math.Exp(goldenSection(nll, -calibrationRange, calibrationRange) / 2)
	}
	return r
}

// scaledMarginalLog returns, with every member's scale multiplied by f,
// the log density at y of target j's marginal (as the network models
// it), or for h > 0 the log of its probability on (y − h/2, y + h/2):
// the mixture, weighted as the prediction's, of the members' t_ν(m_j,
// f²·S_jj), the Gaussian for the comparator. The cell's probability is
// a difference of two CDFs taken in the tail the cell lies in, so that
// it keeps its digits far from the mean.
func (p *MultiPrediction) scaledMarginalLog(j int, f, y, h float64) float64 {
	var dist studentTDist
	return p.mixLog(func(k int) float64 {
		nu := p.nu[k]
		c := Component{Mean: p.loc[k*p.d+j], Scale: f * math.Sqrt(p.memberScale(k, j, j)), DoF: nu}
		if h > 0 {
			return cellLogProb(c, y, h)
		}
		dist.set(max(nu, studentTMinDoF))
		return c.logDensity(&dist, y)
	})
}

// cellLogProb returns the log of the probability of (y − h/2, y + h/2)
// under the t (or, for DoF +Inf, Gaussian) component c: the difference of
// two CDFs taken in the tail the cell lies in, so that it keeps its digits
// far from the mean. Where that difference falls below the normal doubles
// (a Gaussian's cell beyond about 37.6 scales, a t's of 1000 degrees of
// freedom beyond about 56) the density is taken as the power law that
// meets it at the cell's edge nearest the mean, e scales out, with its
// local exponent there, k = −d ln f/d ln s = (ν+1)e²/(ν+e²) (e² for the
// Gaussian), and integrated in logarithms: ln P = ln f(e) + ln e −
// ln(k−1) + ln(1 − (1 + w/e)^(1−k)) for a cell w scales wide. That is the
// t's own tail where e² ≫ ν and within a relative 2/e² of the Gaussian's
// (the exponent's change across the tail over its square), 1.3·10⁻³ at
// the smallest e where the difference underflows.
func cellLogProb(c Component, y, h float64) float64 {
	nu := max(c.DoF, studentTMinDoF)
	a, b := (y-h/2-c.Mean)/c.Scale, (y+h/2-c.Mean)/c.Scale
	var p, near float64
	if a > 0 {
		p, near = studentTCDF(-a, nu)-studentTCDF(-b, nu), a
	} else {
		p, near = studentTCDF(b, nu)-studentTCDF(a, nu), -b
	}
	if p >= 0x1p-1022 || !(near > 0) {
		return math.Log(p)
	}
	var dist studentTDist
	dist.set(nu)
	lnf, k := dist.logDensity(near)
	return lnf + math.Log(near/(k-1)) + math.Log(-math.Expm1((1-k)*math.Log1p((b-a)/near)))
}

// scaleCholeskyRows multiplies row j of every member's Cholesky factor
// that the model's parameters give by r[j]: the output layer of the
// Cholesky heads is linear, so the weights and bias of each entry L_jk
// below the diagonal are multiplied by r[j], and the bias of ln L_jj
// gains ln r[j]. Every prediction's factor rows then scale exactly so
// (up to rounding), its locations and ν unchanged.
func scaleCholeskyRows[T Float](l *layout, params []T, r []float64) {
	ly := l.layers[len(l.hidden)+mvHeadChol]
	for k := range l.members {
		w, b := ly.w+k*ly.cols*ly.rows, ly.b+k*ly.rows
		for j, f := range r {
			o := j * (j + 1) / 2
			params[b+o+j] += T(math.Log(f))
			for c := o; c < o+j; c++ {
				params[b+c] *= T(f)
				for in := range ly.cols {
					params[w+in*ly.rows+c] *= T(f)
				}
			}
		}
	}
}

// scaleRows is scaleCholeskyRows for a prediction made before: it
// multiplies row j of every member's factor by r[j] and mixes the
// members again. The prediction was mixed, and factors within
// e^±calibrationRange/2 keep it finite (short of covariances within a
// factor 100 of overflow) and its corrected covariance, D·Σ̃·D for a
// positive diagonal D, positive definite, so mix's report is not needed.
func (p *MultiPrediction) scaleRows(r []float64) {
	nl := mvtPackedLen(p.d)
	for k := range p.members {
		for j, f := range r {
			o := k*nl + j*(j+1)/2
			for c := o; c <= o+j; c++ {
				p.chol[c] *= f
			}
		}
	}
	p.mix()
}
