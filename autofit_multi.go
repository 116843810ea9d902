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
// alone, else ErrConfig); each target column on a lattice is dequantized
// by its own spacing (columnLattices); the ensemble keeps its mean
// heads from the epoch of the lowest sum over targets of the log of each
// one's held-out mean squared error, at or after its best joint NLL's,
// and trains on while either improves (multiValidationScores,
// search.lastGain). The joint region is calibrated and given a
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
// without it (cvCoverage95).
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
		d := s.data.ty
		q, y := make([]float64, len(rows)), make([]float64, d)
		var nll float64
		for i, row := range rows {
			for j := range y {
				y[j] = float64(s.data.y[int(row)*d+j])
			}
			r := preds[i].Mahalanobis(y)
			q[i] = r * r
			nll -= preds[i].LogPDF(y)
		}
		var nu float64
		m.corrScale, nu = calibrateRegion(q, d, s.data.len())
		m.ext.region = &jointRegion{nu: nu, conformal: jointConformalScores(q)}
		res.CorrectedScale, res.RegionNu = m.corrScale, nu
		res.CVNLL, res.CVCoverage95, res.CVRows = nll/float64(len(rows)), cvCoverage95(q, d, s.data.len()), len(rows)
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}
