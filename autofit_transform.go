package gcp

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/gcpnet/gcp/internal/par"
)

// The transform stage of AutoFit: the search (the grid and the
// architecture stage) runs once for each target transform, on the same
// rows and seeds, all at once on the shared workers, and each winner, a single network, is cross-fitted
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
	// multi are those of a winner of several targets.
	multi multiScores
}

// autoFitTransforms runs the search for each of opt.TargetTransforms (by
// default none, and the log where the targets' skewness picks it) on the
// targets y in original units, keeps one transform by its winner's
// held-out scores, trains and calibrates its model, and returns it and
// why (AutoResult.Transform). A transform whose search fails is left
// out, and so is one whose model then fails to train, in favour of the
// next transform in order, unless every one fails: then the first error
// is returned. It returns the rows that calibrated the model too, and
// their scores (search.calibration).
func autoFitTransforms[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, calibrationRows[T], error) {
	var none calibrationRows[T]
	if err := opt.withDefaults(cfg, tc).validate(); err != nil {
		return nil, AutoResult{}, none, err
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
			return nil, AutoResult{}, none, err
		}
	}
	var fits []*transformFit[T]
	var first error
	found, errs := searchTransforms(ctx, cfg, tc, x, targets, opt, trs, nil)
	for i, f := range found {
		err := errs[i]
		if err != nil && ctx.Err() != nil {
			return nil, AutoResult{}, none, err
		}
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		fits = append(fits, f)
	}
	if fits == nil {
		return nil, AutoResult{}, none, first
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
	f, m, res, keptErr, err := finishFirst(ctx, fits, kept, func(f *transformFit[T]) (*Model[T], AutoResult, error) { return f.s.finish(f.win) })
	if err != nil {
		return nil, AutoResult{}, none, cmp.Or(first, err)
	}
	choice.Transform = f.s.transform
	if f != fits[kept] && choice.Compared {
		choice.Failed = keptErr.Error()
	}
	res.Transform = choice
	return m, res, f.s.calibration, nil
}

// finishFirst trains, by finish, the model of the kept transform's fit
// (fits[kept]), and should it fail to train, that of each other fit in
// order, and returns the first that trains, its model and result, and
// the kept fit's error where another was used. err is the first failure
// where none trains, or the context's once it is done.
func finishFirst[T Float](ctx context.Context, fits []*transformFit[T], kept int, finish func(*transformFit[T]) (*Model[T], AutoResult, error)) (used *transformFit[T], m *Model[T], res AutoResult, keptErr, err error) {
	for _, f := range append([]*transformFit[T]{fits[kept]}, slices.Delete(slices.Clone(fits), kept, kept+1)...) {
		m, res, ferr := finish(f)
		switch {
		case ferr != nil && ctx.Err() != nil:
			return nil, nil, AutoResult{}, nil, ferr
		case ferr != nil:
			keptErr = cmp.Or(keptErr, ferr)
			continue
		}
		return f, m, res, keptErr, nil
	}
	return nil, nil, AutoResult{}, nil, keptErr
}

// searchTransforms runs searchTransform for each transform of trs on its
// targets, all at once, and returns each one's fit or error, in the
// order of trs. The searches share Workers slots (par.Slots): a search
// alone leaves cores idle where it narrows (the last halving round's few
// candidates, the architecture stage's, the folds' last epochs) and
// between its stages, and those of another transform fill them. Each
// run depends only on its own state, so the fits are those of searches
// run one after another. Progress reports reach the calling goroutine in
// the order such searches would make them: a transform's reports wait
// until the transforms before it have ended. Once all have ended, each
// search reports to the calling goroutine's Progress directly: the kept
// transform then trains its model there.
func searchTransforms[T Float](ctx context.Context, cfg Config, tc TrainConfig, x []T, targets [][]T, opt AutoOptions, trs []TargetTransform, cols [][maxTargets]TargetTransform) ([]*transformFit[T], []error) {
	n := len(trs)
	fits, errs := make([]*transformFit[T], n), make([]error, n)
	slots := par.NewSlots(opt.withDefaults(cfg, tc).Workers)
	sideBySide(n, opt.Progress, func(i int, report func(AutoProgress)) {
		o := opt
		o.Progress = report
		var col [maxTargets]TargetTransform
		if cols != nil {
			col = cols[i]
		}
		fits[i], errs[i] = searchTransform(ctx, cfg, tc, x, targets[i], o, trs[i], col, n > 1, slots)
	})
	for i, f := range fits {
		if f != nil {
			f.s.opt.Progress = tagged(opt.Progress, trs[i])
		}
	}
	return fits, errs
}

// sideBySide calls run(0, …), …, run(n−1, …), each on a goroutine of its
// own, all at once, and returns once all have returned. The report given
// to run(i) passes its progress reports to progress on the calling
// goroutine in the order that runs one after another would make them:
// run(i)'s wait until the runs before it have returned. With a nil
// progress, report is nil.
func sideBySide(n int, progress func(AutoProgress), run func(i int, report func(AutoProgress))) {
	type message struct {
		i    int // the run's index
		r    AutoProgress
		done bool // the run returned
	}
	messages := make(chan message)
	for i := range n {
		var report func(AutoProgress)
		if progress != nil {
			report = func(r AutoProgress) { messages <- message{i: i, r: r} }
		}
		go func() {
			run(i, report)
			messages <- message{i: i, done: true}
		}()
	}
	held, done := make([][]AutoProgress, n), make([]bool, n)
	for next, left := 0, n; left > 0; {
		m := <-messages
		switch {
		case m.done:
			done[m.i], left = true, left-1
		case m.i == next:
			progress(m.r)
			continue
		default:
			held[m.i] = append(held[m.i], m.r)
			continue
		}
		for next < n && done[next] {
			if next++; next < n {
				for _, r := range held[next] {
					progress(r)
				}
				held[next] = nil
			}
		}
	}
}

// tagged returns report naming tr as the transform of every round it
// reports, or nil for a nil report.
func tagged(report func(AutoProgress), tr TargetTransform) func(AutoProgress) {
	if report == nil {
		return nil
	}
	return func(r AutoProgress) {
		r.Transform = tr
		report(r)
	}
}

// searchTransform runs the search on the targets z = tr(y), whose model
// keeps tr, and returns its winner; with score, the winner's
// cross-fitted scores in original units too, for the comparison. Its
// runs hold the slots shared with the other transforms' searches.
func searchTransform[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, z []T, opt AutoOptions, tr TargetTransform, cols [maxTargets]TargetTransform, score bool, slots par.Slots) (*transformFit[T], error) {
	opt.Progress = tagged(opt.Progress, tr)
	s, err := newSearch(ctx, cfg, tc, x, z, opt)
	if err != nil {
		return nil, err
	}
	s.transform, s.transforms, s.slots = tr, cols, slots
	win, err := s.choose()
	if err != nil || !score {
		return &transformFit[T]{s: s, win: win}, err
	}
	if s.targets != nil {
		sc, ok := s.multiFoldScores(win)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: no calibration fold of %v could score its rows", ErrNonFinite, win.hyper)
		}
		return &transformFit[T]{s: s, win: win, multi: sc}, nil
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
