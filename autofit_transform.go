package gcp

import (
	"cmp"
	"context"
	"fmt"
	"math"
)

// The transform stage of AutoFit: the recipe runs once for each target
// transform, on the same rows and seeds, and the model of a later
// transform replaces the one kept so far only when the rows that
// calibrated both clearly favour it (transformReplaces).

// transformFit is the recipe's run on one target transform's values.
type transformFit[T Float] struct {
	m            *Model[T]
	res          AutoResult
	nlls, sqErrs []float64 // per row that calibrated the model, in original units
	rmse         float64
}

// autoFitTransforms runs the recipe for each of opt.TargetTransforms (by
// default none, and the log where the targets' skewness picks it) on the
// targets y in original units, and returns the model kept and why
// (AutoResult.Transform). A transform whose run fails is left out, unless
// every run fails: then the first run's error is returned.
func autoFitTransforms[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	if err := opt.withDefaults(cfg, tc).validate(); err != nil {
		return nil, AutoResult{}, err
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
		f, err := fitTransform(ctx, cfg, tc, x, targets[i], opt, tr)
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
	kept := fits[0]
	for _, f := range fits[1:] {
		if transformReplaces(kept.nlls, kept.sqErrs, f.nlls, f.sqErrs) {
			kept = f
		}
	}
	choice.Transform, choice.Compared = kept.m.ext.transform, len(fits) > 1
	if choice.Compared {
		for _, f := range fits {
			tr := f.m.ext.transform
			choice.CVNLL[tr], choice.CVRMSE[tr] = f.res.CVNLL, f.rmse
		}
	}
	kept.res.Transform = choice
	return kept.m, kept.res, nil
}

// fitTransform runs the recipe on the targets z = tr(y), whose model
// keeps tr, and returns its held-out scores per row in original units
// for the comparison.
func fitTransform[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, z []T, opt AutoOptions, tr TargetTransform) (*transformFit[T], error) {
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
	m, res, err := s.run()
	if err != nil {
		return nil, err
	}
	f := &transformFit[T]{m: m, res: res, nlls: s.cvNLLs, sqErrs: make([]float64, len(s.cvErrors))}
	var sum float64
	for i, e := range s.cvErrors {
		f.sqErrs[i] = e * e
		sum += e * e
	}
	f.rmse = math.Sqrt(sum / float64(len(s.cvErrors)))
	return f, nil
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
