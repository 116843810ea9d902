package gcp

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// AutoFit for a model of several targets (Config.Targets ≥ 2): the same
// search, architecture stage and ensemble, deciding on the held-out rows'
// joint negative log density, and a calibration of the joint region on
// cross-fitted rows (regionScale).

// autoFitMulti is AutoFit for cfg.Targets ≥ 2, y row-major with Targets
// values a row. Each target is standardized on its own, as Fit does; the
// targets are not transformed (TargetTransforms must be nil or none
// alone, else ErrConfig); each target column on a lattice is dequantized
// by its own spacing (columnLattices); the ensemble keeps its mean
// heads from the epoch of the lowest sum over targets of the log of each
// one's held-out mean squared error, at or after its best joint NLL's,
// and trains on while either improves (multiValidationScores,
// search.lastGain); there is no conformal calibration, and no small-data
// widening (AutoResult.SmallData is 0).
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
// more than one member), fits the joint region's scale (regionScale) to
// the squared Mahalanobis distances of rows that neither trained nor
// chose the model (cross-fitted folds, or the calibration half of a large
// hold-out, as for one target), and returns the model, calibrated, with
// what AutoResult says of it: CVNLL is the mean joint negative log
// density of the multivariate t over those rows, and CVCoverage95 the
// share of them inside the calibrated 95% region, each row judged by a
// scale fitted without it (cvCoverage95).
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
	res.SmallData = 0
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
		m.corrScale = regionScale(q, d)
		res.CorrectedScale = m.corrScale
		res.CVNLL, res.CVCoverage95, res.CVRows = nll/float64(len(rows)), cvCoverage95(q, d), len(rows)
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}

// The calibrated joint region of a model of several targets: the
// corrected Gaussian N(m, c·Σ̃), its scalar c fitted by AutoFit so that
// the region of probability 95% holds 95% of rows the model neither
// trained on nor was chosen by. The one-dimensional calibration fits a
// variance factor by likelihood; here the scale is matched to a quantile
// instead, for two reasons. The rows' squared Mahalanobis distances q are
// heavy-tailed where the data hold outliers (under the t a share of
// them is far out), and their mean, which the Gaussian likelihood of c
// matches (c = mean(q)/d), follows those few rows; the 95% quantile does
// not. And the 95% region is what users read and what the benchmark
// scores, so the quantile makes that one level right by construction on
// the calibration rows, leaving the region's shape (the other levels) to
// the model.

// regionCalibrationLevel is the level whose region the scale calibrates.
const regionCalibrationLevel = 0.95

// regionScale returns the scale c on the corrected covariance Σ̃ that puts
// a share regionCalibrationLevel of the squared Mahalanobis distances q
// (under Σ̃, of targets with d values) inside the calibrated region,
// q ≤ c·χ²_d(0.95): the ⌈0.95·n⌉-th smallest q over χ²_d(0.95), clamped
// to e^±calibrationRange as the one-dimensional factors are, and 1 for
// no rows or a non-finite or zero quantile.
func regionScale(q []float64, d int) float64 {
	if len(q) == 0 {
		return 1
	}
	s := slices.Clone(q)
	slices.Sort(s)
	k := int(math.Ceil(regionCalibrationLevel * float64(len(s))))
	c := s[k-1] / mvtRegionRadius2(regionCalibrationLevel, d, math.Inf(1))
	if !positiveFinite(c) {
		return 1
	}
	return min(max(c, math.Exp(-calibrationRange)), math.Exp(calibrationRange))
}

// cvCoverage95 returns the share of the squared Mahalanobis distances q
// inside the calibrated 95% region when each is judged by a scale fitted
// without it: the rows are dealt into calibrationFolds groups by index,
// and each group's rows are judged by regionScale of the others'. The
// scale fitted to all rows covers 95% of them by construction; this is
// what new rows can expect of it.
func cvCoverage95(q []float64, d int) float64 {
	r2 := mvtRegionRadius2(regionCalibrationLevel, d, math.Inf(1))
	in := 0
	rest := make([]float64, 0, len(q))
	for g := range calibrationFolds {
		rest = rest[:0]
		for i, v := range q {
			if i%calibrationFolds != g {
				rest = append(rest, v)
			}
		}
		c := regionScale(rest, d)
		for i := g; i < len(q); i += calibrationFolds {
			if q[i] <= c*r2 {
				in++
			}
		}
	}
	return float64(in) / float64(len(q))
}
