package gcp

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gcpnet/gcp/internal/onese"
)

// The transform stage of AutoFit for several targets. Each target
// column is screened on its own (ChooseTargetTransform: positive, of
// skewness at least 1, more symmetric after the log); the screened
// columns, logged together, and no transform are searched side by side
// (searchTransforms), and each winner is cross-fitted and scored in
// original units (multiFoldScores). A screened column keeps the log only
// where its own cross-fitted scores clearly favour it (transformReplaces
// on its marginal's calibrated NLL and squared error), and a set of
// logged columns only where the joint NLL is not clearly worse: a log
// that helps one target's density (Jura's Cd) may ruin another's mean
// (Jura's Cu, whose log-normal mean misses its largest values). Where
// some screened columns keep the log and others not, the model of that
// set trains with the log search winner's settings, without a search of
// its own, and without a second cross-fit: each of its targets has
// cleared its own hurdle, and on five inner splits of jura a second
// cross-fit of the subset (Cd alone logged), held to the guard, rejected
// it on two splits where it then lowered the held-out joint NLL (6.885
// to 6.235 on one), leaving the recipe no better than none.

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
func autoFitMulti[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, calibrationRows[T], error) {
	var none calibrationRows[T]
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
		return nil, AutoResult{}, none, err
	}
	s.transforms = screened
	win, err := s.choose()
	if err != nil {
		return nil, AutoResult{}, none, err
	}
	m, res, err := s.finishMulti(win)
	if err != nil {
		return nil, AutoResult{}, none, err
	}
	for j := range choices {
		choices[j].Transform = screened[j]
		res.Transform.Transform = max(res.Transform.Transform, screened[j])
	}
	res.Transforms = choices
	return m, res, s.calibration, nil
}

// chooseLogged returns the targets to log, of those screened: each whose
// marginal scores under the screened set's model clearly favour the log
// over the untransformed model's (transformReplaces), unless they are
// the whole screened set and its model fails the guard (passesGuard).
func chooseLogged(screened [maxTargets]TargetTransform, none, logged multiScores) [maxTargets]TargetTransform {
	var keep [maxTargets]TargetTransform
	if len(none.joint) != len(logged.joint) { // a fold failed in one: the rows are not paired
		return keep
	}
	for j, t := range screened {
		if t == TransformLog && transformReplaces(none.nlls[j], none.sqErrs[j], logged.nlls[j], logged.sqErrs[j]) {
			keep[j] = TransformLog
		}
	}
	if keep == screened && !passesGuard(keep, none, logged) {
		return [maxTargets]TargetTransform{}
	}
	return keep
}

// passesGuard reports whether the model with the targets of keep logged,
// scored as sc, is not clearly worse than the untransformed one, scored
// as none: its joint NLL not higher by more than a standard error of the
// paired differences, and no logged target's squared error either (the
// one-target recipe's guard, target by target). Each logged target has
// already cleared the hurdle of a clearly lower NLL of its own; the
// joint NLL guards the targets left as they are, whose fit the logged
// ones share a network with.
func passesGuard(keep [maxTargets]TargetTransform, none, sc multiScores) bool {
	if len(none.joint) != len(sc.joint) || onese.Pick([][]float64{sc.joint, none.joint}) == 1 {
		return false
	}
	for j, t := range keep {
		if t == TransformLog && onese.Pick([][]float64{sc.sqErrs[j], none.sqErrs[j]}) == 1 {
			return false
		}
	}
	return true
}

// autoFitMultiLog runs the search without a transform and with the
// screened targets logged, side by side, and returns the model of the
// targets chooseLogged picks, with what AutoResult says of it and of the
// choice. A search that fails leaves the other's model.
func autoFitMultiLog[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions, choices []TransformChoice, screened [maxTargets]TargetTransform) (*Model[T], AutoResult, calibrationRows[T], error) {
	var none calibrationRows[T]
	d := cfg.Targets
	zs := logColumns(y, d, screened)
	fits, errs := searchTransforms(ctx, cfg, tc, x, [][]T{y, zs}, opt, []TargetTransform{TransformNone, TransformLog}, [][maxTargets]TargetTransform{{}, screened})
	if err := ctx.Err(); err != nil {
		return nil, AutoResult{}, none, err
	}
	var joint TransformChoice
	var keep [maxTargets]TargetTransform
	switch {
	case errs[0] != nil && errs[1] != nil:
		return nil, AutoResult{}, none, errs[0]
	case errs[0] != nil:
		keep = screened
	case errs[1] == nil:
		none, logged := fits[0].multi, fits[1].multi
		keep = chooseLogged(screened, none, logged)
		joint.Compared, joint.CVNLL = true, [2]float64{none.nll, logged.nll}
		for j := range choices {
			if screened[j] == TransformLog {
				choices[j].Compared = true
				choices[j].CVNLL = [2]float64{none.margNLL[j], logged.margNLL[j]}
				choices[j].CVRMSE = [2]float64{none.rmse[j], logged.rmse[j]}
			}
		}
	}
	var m *Model[T]
	var res AutoResult
	var err error
	var s *search[T] // the search that finishes the model
	switch keep {
	case [maxTargets]TargetTransform{}:
		s = fits[0].s
		m, res, err = s.finishMulti(fits[0].win)
	case screened:
		s = fits[1].s
		m, res, err = s.finishMulti(fits[1].win)
	default:
		sub, c, rerr := retrainLogged(fits[1], x, y, keep)
		switch {
		case rerr == nil:
			s = sub
			m, res, err = s.finishMulti(c)
		case ctx.Err() != nil:
			err = ctx.Err()
		default:
			keep = [maxTargets]TargetTransform{} // the untransformed model, searched
			s = fits[0].s
			m, res, err = s.finishMulti(fits[0].win)
		}
	}
	if err != nil {
		return nil, AutoResult{}, none, err
	}
	for j := range choices {
		choices[j].Transform = keep[j]
		joint.Transform = max(joint.Transform, keep[j])
	}
	res.Transform, res.Transforms = joint, choices
	return m, res, s.calibration, nil
}

// retrainLogged trains the targets y with those of keep logged, with the
// settings of f's winner (a search with the screened set logged) for up
// to the search's epochs with its early stopping, and returns its search
// and the trained candidate, to be finished as a search's winner is
// (finishMulti).
func retrainLogged[T Float](f *transformFit[T], x, y []T, keep [maxTargets]TargetTransform) (*search[T], *candidate[T], error) {
	s, err := newSearch(f.s.ctx, f.s.cfg, f.s.tc, x, logColumns(y, f.s.cfg.Targets, keep), f.s.opt)
	if err != nil {
		return nil, nil, err
	}
	s.transforms = keep
	c := &candidate[T]{hyper: f.win.hyper}
	s.train([]*candidate[T]{c}, s.maxEpochs)
	if err := cmp.Or(s.ctx.Err(), c.err); err != nil {
		return nil, nil, err
	}
	if math.IsInf(c.score(), 1) {
		return nil, nil, fmt.Errorf("%w: %v could not score the held-out rows", ErrNonFinite, c.hyper)
	}
	c.run.finish()
	return s, c, nil
}

// logColumns returns the targets y (row-major, d a row) with the columns
// that trs logs replaced by their logarithms: y itself where none is, else
// a copy. The columns are positive, as the screen that picked them saw.
func logColumns[T Float](y []T, d int, trs [maxTargets]TargetTransform) []T {
	if trs == ([maxTargets]TargetTransform{}) {
		return y
	}
	z := slices.Clone(y)
	for i, v := range z {
		if trs[i%d] == TransformLog {
			z[i] = T(math.Log(float64(v)))
		}
	}
	return z
}

// screenColumns returns each target's ChooseTargetTransform, the targets
// y row-major with d a row, and the transforms it picks.
func screenColumns[T Float](y []T, d int) ([]TransformChoice, [maxTargets]TargetTransform) {
	choices := make([]TransformChoice, d)
	var trs [maxTargets]TargetTransform
	col := make([]T, len(y)/d)
	for j := range d {
		for i := range col {
			col[i] = y[i*d+j]
		}
		choices[j] = chooseTransform(col)
		trs[j] = choices[j].Transform
	}
	return choices, trs
}
