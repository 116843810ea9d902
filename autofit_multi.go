package gcp

import (
	"context"
	"fmt"
	"math"
)

// AutoFit for a model of several targets (Config.Targets ≥ 2): the same
// search, architecture stage and ensemble, deciding on the held-out rows'
// joint negative log density, and a calibration of the joint region on
// cross-fitted rows (calibrateRegion, jointConformalScores).

// autoFitMulti is AutoFit for cfg.Targets ≥ 2, y row-major with Targets
// values a row. Each target is standardized on its own, as Fit does; the
// targets are not transformed (TargetTransforms must be nil or none
// alone, else ErrConfig); each target on a lattice (targetLattices) is
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
	if trs := opt.TargetTransforms; len(trs) > 1 || len(trs) == 1 && trs[0] != TransformNone {
		return nil, AutoResult{}, fmt.Errorf("%w: AutoOptions.TargetTransforms = %v: a model of %d targets takes none", ErrConfig, trs, cfg.Targets)
	}
	s, err := newSearch(ctx, cfg, tc, x, y, opt)
	if err != nil {
		return nil, AutoResult{}, err
	}
	win, err := s.choose()
	if err != nil {
		return nil, AutoResult{}, err
	}
	return s.finishMulti(win)
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
		res.CVNLL, res.CVCoverage95, res.CVRows = nll, cvCoverage95(fit, q, d, s.data.len()), len(rows)
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
