package gcp

import (
	"math/rand/v2"
	"slices"
)

// calibrationFolds is how many folds AutoFit's cross-fitted calibration
// uses: each fold model trains on four fifths of the rows.
const calibrationFolds = 5

// crossFit returns, for the pooled training and held-out rows, each row's
// prediction by a model that did not train on it, and the rows' targets.
// The rows are dealt into calibrationFolds folds at random (drawn from
// the search's seed); for each fold a model of the winner's
// hyperparameters and Config.Members networks trains on the other folds
// for epochs epochs, the returned model's best, and predicts the fold. The rows of a fold whose model failed are
// left out.
//
// The predictions calibrate the returned model. The held-out rows alone
// would not do: they chose the winner and its epoch, so its fit to them
// is optimistic, and a variance scale fitted there shrinks intervals that
// new data then overruns (on 30 held-out rows, by a factor of about 2).
// Cross-fitted predictions carry no such selection, and there are as
// many of them as rows.
func (s *search[T]) crossFit(win *candidate[T], epochs int) (preds []Prediction, y []T) {
	d := s.cfg.Inputs
	x := slices.Concat(s.trainX, s.valX)
	all := slices.Concat(s.trainY, s.valY)
	n := len(all)
	fold := make([]int, n)
	for i, row := range rand.New(rand.NewPCG(s.opt.Seed, crossFitStream)).Perm(n) {
		fold[row] = i % calibrationFolds
	}
	epochs = max(1, epochs)
	out := make([][]Prediction, calibrationFolds)
	parallel(calibrationFolds, s.opt.Workers, func(f int) {
		var trainX, trainY, testX []T
		for i := range all {
			if fold[i] == f {
				testX = append(testX, x[i*d:(i+1)*d]...)
			} else {
				trainX, trainY = append(trainX, x[i*d:(i+1)*d]...), append(trainY, all[i])
			}
		}
		t, err := s.trainer(win, s.cfg.Members)
		if err != nil {
			return
		}
		r, err := newFitRun(t, trainX, trainY, nil, nil, s.opt.Seed^searchStream, false)
		if err != nil {
			return
		}
		for r.stats.Epoch < epochs {
			if r.epoch() != nil {
				return
			}
		}
		out[f], _ = t.m.predictAll(testX) // nil on error: the fold is left out
	})
	next := make([]int, calibrationFolds)
	for i := range all {
		f := fold[i]
		if out[f] != nil {
			preds, y = append(preds, out[f][next[f]]), append(y, all[i])
			next[f]++
		}
	}
	return preds, y
}
