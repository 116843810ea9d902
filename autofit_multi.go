package gcp

import (
	"context"
	"math"
)

// AutoFit for a model of several targets (Config.Targets ≥ 2): the same
// search, architecture stage and ensemble, deciding on the held-out rows'
// joint negative log density, and a calibration of the joint region on
// cross-fitted rows (calibrateRegion, jointConformalScores).

// autoFitMulti is AutoFit for cfg.Targets ≥ 2, y row-major with Targets
// values a row. Each target is standardized on its own, as Fit does; the
// targets that the screen picks for the log (screenColumns) are searched
// logged beside the untransformed search and kept logged where their
// cross-fitted scores favour it (autoFitMultiLog), unless
// TargetTransforms is none alone (no target logged) or log alone (every
// screened target logged, without comparing); each target on a lattice (targetLattices) is
// dequantized with its own spacing, in training and in the calibration,
// as one target is; the ensemble keeps its mean heads from the epoch of
// the lowest sum over targets of the log of each one's held-out mean
// squared error, at or after its best joint NLL's, and trains on while
// either improves (multiValidationScores, search.lastGain). The joint
// region is calibrated and given a
// conformal calibration on the rows that calibrate one target, and
// widened below trustedRows rows (AutoResult.SmallData), as one target's
// interval is.
func autoFitMulti[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	choices, screened := screenColumns(y, cfg.Targets)
	trs := opt.TargetTransforms
	switch {
	case screened != [maxTargets]TargetTransform{} && (trs == nil || len(trs) == 2):
		return autoFitMultiLog(ctx, cfg, tc, x, y, opt, choices, screened)
	case len(trs) == 1 && trs[0] == TransformNone:
		screened = [maxTargets]TargetTransform{}
	}
	s, err := newSearch(ctx, cfg, tc, x, logColumns(y, cfg.Targets, screened), opt)
	if err != nil {
		return nil, AutoResult{}, err
	}
	s.transforms = screened
	win, err := s.choose()
	if err != nil {
		return nil, AutoResult{}, err
	}
	m, res, err := s.finishMulti(win)
	if err != nil {
		return nil, AutoResult{}, err
	}
	for j := range choices {
		choices[j].Transform = screened[j]
		res.Transform.Transform = max(res.Transform.Transform, screened[j])
	}
	res.Transforms = choices
	return m, res, nil
}

// finishMulti is finish for several targets: it trains the ensemble (for
// more than one member), fits the calibrated joint region t_ν(m, s·Σ̃)
// (calibrateRegion: s and ν by maximum likelihood, s widened on small
// data) to the squared Mahalanobis distances under Σ̃ of rows that
// neither trained nor chose the model (cross-fitted folds, or the
// calibration half of a large hold-out, as for one target), keeps their
// distances as the conformal calibration of the joint region, and
// returns the model, calibrated, with what AutoResult says of it:
// CorrectedScale is s, CVNLL the mean joint negative log density of the
// multivariate t over those rows, and CVCoverage95 the share of them
// inside the calibrated 95% region, each row judged by a region fitted
// without it (cvCoverage95). With quantized targets, s and ν are fitted
// to the dequantized targets (drawn once from the seed), the variable the
// model learned, while CVNLL, CVCoverage95 and the conformal distances
// take the targets as observed, as one target's calibration does.
func (s *search[T]) finishMulti(win *candidate[T]) (*Model[T], AutoResult, error) {
	final, preds, rows, err := finishRun(s, win, predictMultiSet[T], func() ([]MultiPrediction, []int32) {
		f, epochs := s.trainFolds(win)
		return foldPredictions(f, epochs, 0, predictMultiSet[T])
	})
	if err != nil {
		return nil, AutoResult{}, err
	}
	m := final.t.m
	m.extendRanges(s.data.x)
	m.ext.transforms = s.transforms
	res := s.result(win, final)
	res.RegionNu = math.Inf(1)
	if len(rows) > 0 {
		d, y := s.data.ty, s.targetsOf(rows)
		q, nll := jointDistances(preds, y, d)
		fit := q // the distances the region is fitted to: dequantized, as training was
		if s.quanta != nil {
			fit, _ = jointDistances(preds, s.dequantized(y), d)
		}
		var nu float64
		m.corrScale, nu = calibrateRegion(fit, d, s.data.len())
		m.ext.region = &jointRegion{nu: nu, conformal: jointConformalScores(q)}
		res.CorrectedScale, res.RegionNu = m.corrScale, nu
		res.CVNLL, res.CVCoverage95, res.CVRows = nll+s.logJacobian(y), cvCoverage95(fit, q, d, s.data.len()), len(rows)
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}

// jointDistances returns the squared Mahalanobis distances under Σ̃ of
// the targets y (row-major, d a row) from their predictions preds, and
// the mean joint negative log density of the multivariate t over them.
func jointDistances[T Float](preds []MultiPrediction, y []T, d int) (q []float64, nll float64) {
	q, v := make([]float64, len(preds)), make([]float64, d)
	for i := range preds {
		for j := range v {
			v[j] = float64(y[i*d+j])
		}
		r := preds[i].Mahalanobis(v)
		q[i] = r * r
		nll -= preds[i].LogPDF(v)
	}
	return q, nll / float64(len(preds))
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
