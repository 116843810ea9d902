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

// scaleTargets fits each continuous target's scale to the predictions
// preds of the targets y (targetScales), scales preds by it (scaleRows)
// and returns the factors, which the model's Cholesky heads take
// (scaleCholeskyRows). A target on a lattice (quanta[j] > 0; quanta nil
// for none) keeps its scale as trained: fitted to its dequantized values,
// the variable the model learned, the scale widened (edm's two targets,
// −1, 0 and 1: by 1.1–1.3 on its inner splits) and the density of the
// values as observed, which eval and the benchmark score, fell (the
// joint NLL by 0.04 ± 0.02 over ten inner splits).
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
// under the marginals of preds so scaled: golden-section search on
// ln r_j² over the one-target bracket (calibrationRange), each target on
// its own; 1 for a target on a lattice (quanta, as scaleTargets says).
// Row j of L scales S's row and column j, so the marginal of target j is
// scaled alone and the correlations are kept.
func targetScales[T Float](preds []MultiPrediction, y []T, d int, quanta []float64) []float64 {
	r := make([]float64, d)
	for j := range r {
		if quanta != nil && quanta[j] > 0 {
			r[j] = 1
			continue
		}
		nll := func(u float64) float64 {
			f := math.Exp(u / 2)
			var s float64
			for i := range preds {
				s -= preds[i].scaledMarginalLogPDF(j, f, float64(y[i*d+j]))
			}
			return s
		}
		r[j] = math.Exp(goldenSection(nll, -calibrationRange, calibrationRange) / 2)
	}
	return r
}

// scaledMarginalLogPDF returns the log density at y of target j's marginal
// (as the network models it) with every member's scale multiplied by f:
// the mixture, weighted as the prediction's, of the members' t_ν(m_j,
// f²·S_jj), the Gaussian for the comparator.
func (p *MultiPrediction) scaledMarginalLogPDF(j int, f, y float64) float64 {
	var dist studentTDist
	return p.mixLog(func(k int) float64 {
		nu := p.nu[k]
		dist.set(max(nu, studentTMinDoF))
		c := Component{Mean: p.loc[k*p.d+j], Scale: f * math.Sqrt(p.memberScale(k, j, j)), DoF: nu}
		return c.logDensity(&dist, y)
	})
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
