package gcp

import (
	"math"
	"slices"
)

// AutoFit for a model of several targets (Config.Targets ≥ 2): the same
// search, architecture stage and ensemble, deciding on the held-out rows'
// joint negative log density, and a calibration of the joint region on
// cross-fitted rows (calibrateRegion, jointConformalScores).

// finishMulti is finish for several targets: it trains the ensemble (for
// more than one member), scales each target's row of the Cholesky factor
// by the factor that fits its marginal best (scaleTargets, the one-target
// variance factor's counterpart), fits the calibrated joint region t_ν(m, s·Σ̃)
// (calibrateRegion: s and ν by maximum likelihood, s widened on small
// data) to the squared Mahalanobis distances under Σ̃ of rows that
// neither trained nor chose the model (cross-fitted folds, or the
// calibration half of a large hold-out, as for one target), keeps their
// distances as the conformal calibration of the joint region, and
// returns the model, calibrated, with what AutoResult says of it:
// CorrectedScale is s, CVNLL the mean joint negative log density of the
// multivariate t over those rows, in original units under s's target
// transforms (logJacobian), which the model keeps, and CVCoverage95 the share of them
// inside the calibrated 95% region, each row judged by a region fitted
// without it (cvCoverage95). With quantized targets, s and ν are fitted
// to the dequantized targets (drawn once from the seed), the variable the
// model learned, while CVNLL, CVCoverage95 and the conformal distances
// take the targets as observed, as one target's calibration does.
func (s *search[T]) finishMulti(win *candidate[T]) (*Model[T], AutoResult, error) {
	used, diverged, final, preds, rows, err := finishRun(s, win, predictMultiSet[T], func() ([]MultiPrediction, []int32) {
		f, epochs := s.trainFolds(win)
		return foldPredictions(f, epochs, 0, predictMultiSet[T])
	})
	if err != nil {
		return nil, AutoResult{}, err
	}
	m := final.t.m
	m.extendRanges(s.data.x)
	m.ext.transforms = s.transforms
	res := s.result(used, final, diverged)
	res.RegionNu = math.Inf(1)
	if len(rows) > 0 {
		d, y := s.data.ty, s.targetsOf(rows)
		r := scaleTargets(preds, y, d, s.quanta)
		scaleCholeskyRows(m.lay, m.params, r)
		res.TargetScales = make([]float64, d)
		for j, f := range r {
			res.TargetScales[j] = f * f
		}
		q, nlls := jointDistances(preds, y, d)
		fit := q // the distances the region is fitted to: dequantized, as training was
		if s.quanta != nil {
			fit, _ = jointDistances(preds, s.dequantized(y), d)
		}
		var nu float64
		m.corrScale, nu = calibrateRegion(fit, d, s.data.len())
		m.ext.region = &jointRegion{nu: nu, conformal: jointConformalScores(q)}
		res.CorrectedScale, res.RegionNu = m.corrScale, nu
		var nll float64
		for _, v := range nlls {
			nll += v
		}
		s.calibration = calibrationRows[T]{rows: rows, nlls: s.originalNLLs(nlls, y), sqErrs: s.originalScores(preds, y, m.corrScale, nu).sqErrs}
		res.CVNLL, res.CVCoverage95, res.CVRows = nll/float64(len(nlls))+s.logJacobian(y), cvCoverage95(fit, q, d, s.data.len()), len(rows)
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}

// jointDistances returns the squared Mahalanobis distances under Σ̃ of
// the targets y (row-major, d a row) from their predictions preds, and
// each row's joint negative log density under the multivariate t.
func jointDistances[T Float](preds []MultiPrediction, y []T, d int) (q, nlls []float64) {
	q, nlls, v := make([]float64, len(preds)), make([]float64, len(preds)), make([]float64, d)
	for i := range preds {
		for j := range v {
			v[j] = float64(y[i*d+j])
		}
		r := preds[i].Mahalanobis(v)
		q[i] = r * r
		nlls[i] = -preds[i].LogPDF(v)
	}
	return q, nlls
}

// originalNLLs returns the negative log densities nlls of the rows of the
// targets z (row-major, as the network models them) in original units:
// each plus Σ_j −ln g′_j(y_j), the sum of the logged targets' z_j = ln y_j.
func (s *search[T]) originalNLLs(nlls []float64, z []T) []float64 {
	d := s.data.ty
	out := slices.Clone(nlls)
	for i, v := range z {
		if s.transforms[i%d] == TransformLog {
			out[i/d] += float64(v)
		}
	}
	return out
}

// logJacobian returns the mean over the rows of the targets z (row-major,
// as the network models them) of Σ_j −ln g′_j(y_j), which turns a mean
// negative log density of z into one of y in original units: the sum of
// the logged targets' z_j = ln y_j.
func (s *search[T]) logJacobian(z []T) float64 {
	d := s.data.ty
	var sum float64
	for i, v := range z {
		if s.transforms[i%d] == TransformLog {
			sum += float64(v)
		}
	}
	return sum / float64(len(z)/d)
}

// multiScores are a model's cross-fitted scores in original units for
// several targets: per row the joint negative log density of the
// calibrated predictive, per target and row its marginal's calibrated
// negative log density and squared error, and their means.
type multiScores struct {
	joint         []float64
	nlls, sqErrs  [][]float64
	nll           float64
	margNLL, rmse []float64
}

// multiFoldScores returns the scores of win's settings on folds of s's
// rows (trainFolds), each target's scale and the region calibrated on
// them as finishMulti calibrates them, in original units through s's per-target transforms.
func (s *search[T]) multiFoldScores(win *candidate[T]) (multiScores, bool) {
	f, epochs := s.trainFolds(win)
	preds, rows := foldPredictions(f, epochs, 0, predictMultiSet[T])
	if len(rows) == 0 || s.ctx.Err() != nil {
		return multiScores{}, false
	}
	d, z := s.data.ty, s.targetsOf(rows)
	scaleTargets(preds, z, d, s.quanta)
	fit, _ := jointDistances(preds, s.dequantized(z), d)
	scale, nu := calibrateRegion(fit, d, s.data.len())
	return s.originalScores(preds, z, scale, nu), true
}

// originalScores returns the scores in original units, through s's
// per-target transforms, of preds, the predictions in the modeled units
// of the targets z (row-major, as the network models them), calibrated in
// place by the region of scale and nu degrees of freedom.
func (s *search[T]) originalScores(preds []MultiPrediction, z []T, scale, nu float64) multiScores {
	d, n := s.data.ty, len(preds)
	sc := multiScores{joint: make([]float64, n), nlls: make([][]float64, d), sqErrs: make([][]float64, d), margNLL: make([]float64, d), rmse: make([]float64, d)}
	for j := range d {
		sc.nlls[j], sc.sqErrs[j] = make([]float64, n), make([]float64, n)
	}
	y := make([]float64, d)
	for i := range preds {
		p := &preds[i]
		p.regionScale, p.regionNu = scale, nu
		p.tr, p.logged = s.transforms, s.transforms != [maxTargets]TargetTransform{}
		for j := range y {
			y[j] = s.transforms[j].invert(float64(z[i*d+j]))
			q := p.Marginal(j)
			sc.nlls[j][i], sc.sqErrs[j][i] = -q.CalibratedLogPDF(y[j]), (q.Mean-y[j])*(q.Mean-y[j])
			sc.margNLL[j] += sc.nlls[j][i] / float64(n)
			sc.rmse[j] += sc.sqErrs[j][i] / float64(n)
		}
		sc.joint[i] = -p.CalibratedLogPDF(y)
		sc.nll += sc.joint[i] / float64(n)
	}
	for j := range sc.rmse {
		sc.rmse[j] = math.Sqrt(sc.rmse[j])
	}
	return sc
}
