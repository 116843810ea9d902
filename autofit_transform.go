package gcp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// The transform stage of AutoFit: the search (the grid and the
// architecture stage) runs once for each target transform, on the same
// rows and seeds, and each winner, a single network, is cross-fitted
// (crossFit: five folds of its settings, trained for its best epoch,
// each predicting its fifth of the rows). The winner of a later transform
// replaces the one kept so far only when its cross-fitted scores clearly
// favour it (transformReplaces). Only the kept transform's winner then
// trains the ensemble and its calibration folds, four fifths of the
// recipe's work on small data, where the recipe once ran whole for each
// transform.

// transformFit is the search on one target transform's values and its
// winner's cross-fitted scores.
type transformFit[T Float] struct {
	s      *search[T]
	win    *candidate[T]
	scores calibrated // the winner's cross-fitted scores, with Compared
}

// autoFitTransforms runs the search for each of opt.TargetTransforms (by
// default none, and the log where the targets' skewness picks it) on the
// targets y in original units, keeps one transform by its winner's
// held-out scores, trains and calibrates its model, and returns it and
// why (AutoResult.Transform). A transform whose search fails is left
// out, and so is one whose model then fails to train, in favour of the
// next transform in order, unless every one fails: then the first error
// is returned.
func autoFitTransforms[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	if err := opt.withDefaults(cfg, tc).validate(); err != nil {
		return nil, AutoResult{}, err
	}
	if cfg.Targets > 1 {
		return autoFitMulti(ctx, cfg, tc, x, y, opt)
	}
	choice := chooseTransform(y)
	trs := opt.TargetTransforms
	if trs == nil {
		trs = []TargetTransform{TransformNone}
		if choice.Transform == TransformLog {
			trs = append(trs, TransformLog)
		}
	}
	targets := make([][]T, len(trs))
	for i, tr := range trs {
		var err error
		if targets[i], err = transformed(tr, y); err != nil {
			return nil, AutoResult{}, err
		}
	}
	var fits []*transformFit[T]
	var first error
	for i, tr := range trs {
		f, err := searchTransform(ctx, cfg, tc, x, targets[i], opt, tr, len(trs) > 1)
		if err != nil && ctx.Err() != nil {
			return nil, AutoResult{}, err
		}
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		fits = append(fits, f)
	}
	if fits == nil {
		return nil, AutoResult{}, first
	}
	kept := 0
	for i := 1; i < len(fits); i++ {
		if transformReplaces(fits[kept].scores.nlls, fits[kept].scores.sqErrs, fits[i].scores.nlls, fits[i].scores.sqErrs) {
			kept = i
		}
	}
	choice.Compared = len(fits) > 1
	if choice.Compared {
		for _, f := range fits {
			choice.CVNLL[f.s.transform], choice.CVRMSE[f.s.transform] = f.scores.nll, f.scores.rmse
		}
	}
	// The kept transform first, then the others in order, should its
	// model fail to train.
	for _, f := range append([]*transformFit[T]{fits[kept]}, slices.Delete(slices.Clone(fits), kept, kept+1)...) {
		m, res, err := f.s.finish(f.win)
		if err != nil && ctx.Err() != nil {
			return nil, AutoResult{}, err
		}
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		choice.Transform = f.s.transform
		res.Transform = choice
		return m, res, nil
	}
	return nil, AutoResult{}, first
}

// searchTransform runs the search on the targets z = tr(y), whose model
// keeps tr, and returns its winner; with score, the winner's
// cross-fitted scores in original units too, for the comparison.
func searchTransform[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, z []T, opt AutoOptions, tr TargetTransform, score bool) (*transformFit[T], error) {
	if report := opt.Progress; report != nil {
		opt.Progress = func(r AutoProgress) {
			r.Transform = tr
			report(r)
		}
	}
	s, err := newSearch(ctx, cfg, tc, x, z, opt)
	if err != nil {
		return nil, err
	}
	s.transform = tr
	win, err := s.choose()
	if err != nil || !score {
		return &transformFit[T]{s: s, win: win}, err
	}
	preds, y := s.crossFit(win)
	if err := ctx.Err(); err != nil { // the folds stopped short
		return nil, err
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%w: no calibration fold of %v could score its rows", ErrNonFinite, win.hyper)
	}
	// Calibrated on a copy: a single network's calibration (finish)
	// calibrates these predictions again, from the fold models' own.
	m := win.run.t.m
	m.ext.transform = tr
	return &transformFit[T]{s: s, win: win, scores: s.calibrateScores(m, slices.Clone(preds), y)}, nil
}

// transformed returns the targets y through tr, z = tr(y): y itself for
// TransformNone, else a copy; an error wrapping ErrDomain names the first
// target outside tr's domain.
func transformed[T Float](tr TargetTransform, y []T) ([]T, error) {
	if tr == TransformNone {
		return y, nil
	}
	z := make([]T, len(y))
	for i, v := range y {
		f, err := tr.Apply(float64(v))
		if err != nil {
			return nil, fmt.Errorf("AutoOptions.TargetTransforms: y[%d]: %w", i, err)
		}
		z[i] = T(f)
	}
	return z, nil
}
