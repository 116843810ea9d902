package gcp

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
)

// calibrationFolds is how many folds AutoFit's cross-fitted calibration
// uses: each fold model trains on four fifths of the rows.
const calibrationFolds = 5

// folds is the state of AutoFit's cross-fitted calibration. The pooled
// training and held-out rows are dealt into calibrationFolds folds at
// random (drawn from the search's seed); for each fold a model of the
// winner's hyperparameters and Config.Members networks trains on the
// other folds for as many epochs as the returned model's best, and
// predicts its own fold. The rows of a fold whose model failed are left
// out.
//
// The predictions calibrate the returned model. The held-out rows alone
// would not do: they chose the winner and its epoch, so its fit to them
// is optimistic, and a variance scale fitted there shrinks intervals that
// new data then overruns (on 30 held-out rows, by a factor of about 2).
// Cross-fitted predictions carry no such selection, and there are as
// many of them as rows.
//
// The folds may train while the epoch they must reach is not known yet:
// behind an ensemble that is still training (see search.ensemble), up to
// the epoch it has reached. A fold that passes an epoch at which the
// ensemble scored a new best keeps its parameters of that epoch, so that
// when the ensemble stops, a fold that went past its best epoch has them.
// Each run depends only on its own state, so a fold's parameters at an
// epoch are those it would have after training to it alone, and the
// predictions do not depend on how the folds were scheduled.
type folds[T Float] struct {
	ctx    context.Context // the search's: no fold starts an epoch once it is done
	pooled rowSet[T]       // the training and held-out rows, in that order
	fold   []int           // each pooled row's fold
	runs   []*fitRun[T]    // each fold's run; nil if it could not start or a step failed
	tests  []rowSet[T]     // each fold's own rows, to predict

	mu   sync.Mutex
	wake *sync.Cond // signalled when the limit moves or a fold frees
	busy []bool     // fold k is training an epoch
	at   []int      // the epochs fold k has trained, read under mu while it trains
	// limit is the epoch no fold may pass; final reports that it is the
	// epoch the folds must reach, the model's best, rather than how far
	// the ensemble has trained.
	limit int
	final bool
	best  []bool // best[e]: the ensemble scored a new best at epoch e
	// report, if set, is told of each fold epoch once the limit is final.
	report func(AutoRound)
}

// newFolds deals the rows into folds and starts each fold's run; a fold
// whose model cannot be built is left out.
func (s *search[T]) newFolds(win *candidate[T]) *folds[T] {
	pooled := s.data.subset(slices.Concat(s.trainRows.indices(), s.valRows.indices()))
	n := pooled.len()
	f := &folds[T]{
		ctx:    s.ctx,
		pooled: pooled,
		runs:   make([]*fitRun[T], calibrationFolds), tests: make([]rowSet[T], calibrationFolds),
		busy: make([]bool, calibrationFolds), at: make([]int, calibrationFolds), best: []bool{false},
	}
	f.wake = sync.NewCond(&f.mu)
	f.fold = make([]int, n)
	for i, row := range rand.New(rand.NewPCG(s.opt.Seed, crossFitStream)).Perm(n) {
		f.fold[row] = i % calibrationFolds
	}
	for k := range f.runs {
		var train, test []int32
		for i, fi := range f.fold {
			if row := pooled.rows[i]; fi == k {
				test = append(test, row)
			} else {
				train = append(train, row)
			}
		}
		f.tests[k] = s.data.subset(test)
		t, err := s.trainer(win, s.cfg.Members)
		if err != nil {
			continue
		}
		// Tracking only allocates the buffer train keeps parameters in:
		// without validation rows, epoch never writes it.
		f.runs[k], _ = newFitRun(t, s.data.subset(train), rowSet[T]{}, s.runOptions())
	}
	return f
}

// reached records that the ensemble finished epoch e, a new best if
// best, and lets the folds train up to it.
func (f *folds[T]) reached(e int, best bool) {
	f.mu.Lock()
	f.best = append(f.best, best)
	f.limit = e
	f.mu.Unlock()
	f.wake.Broadcast()
}

// finish sets the epoch every fold must reach: the returned model's best.
// An epoch of 0 (a failed ensemble) stops the folds.
func (f *folds[T]) finish(epoch int) {
	f.mu.Lock()
	f.limit, f.final = epoch, true
	f.mu.Unlock()
	f.wake.Broadcast()
}

// train runs fold epochs until every fold has reached the final limit or
// failed, or the context is done: each time one epoch of the fold
// furthest behind that is free and below the limit. Several goroutines
// may call it at once; each wakes the others after every epoch, so that
// all see a done context within an epoch.
func (f *folds[T]) train() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.ctx.Err() == nil {
		k, waiting := -1, false
		for i, r := range f.runs {
			switch {
			case r == nil || f.at[i] >= f.limit && f.final:
			case f.busy[i] || f.at[i] >= f.limit:
				waiting = true
			case k < 0 || f.at[i] < f.at[k]:
				k = i
			}
		}
		if k < 0 {
			if !waiting {
				return
			}
			f.wake.Wait()
			continue
		}
		r := f.runs[k]
		f.busy[k] = true
		f.mu.Unlock()
		err := r.epoch()
		f.mu.Lock()
		f.busy[k], f.at[k] = false, r.stats.Epoch
		switch e := f.at[k]; {
		case err != nil:
			f.runs[k] = nil
		case f.best[e]:
			r.keep(r.best)
			r.stats.BestEpoch = e
		}
		if f.report != nil && f.final {
			f.report(f.progress())
		}
		f.wake.Broadcast()
	}
}

// progress reports the fold epochs trained towards the final limit, a
// failed fold's counted as done; f.mu must be held.
func (f *folds[T]) progress() AutoRound {
	var done int
	for k, r := range f.runs {
		if r == nil {
			done += f.limit
		} else {
			done += min(f.at[k], f.limit)
		}
	}
	return AutoRound{Phase: PhaseCalibration, Done: done, Total: len(f.runs) * f.limit}
}

// predictions returns, for the pooled rows, each row's prediction by its
// fold's model with the parameters it kept at epoch, and the rows'
// targets; the rows of a fold that failed are left out.
func (f *folds[T]) predictions(epoch int) (preds []Prediction, y []T) {
	out := make([][]Prediction, calibrationFolds)
	for k, r := range f.runs {
		if r != nil && r.stats.BestEpoch == epoch {
			r.finish()
			out[k], _ = r.t.m.predictSet(f.tests[k]) // nil on error: the fold is left out
		}
	}
	next := make([]int, calibrationFolds)
	for i, k := range f.fold {
		if out[k] != nil {
			preds, y = append(preds, out[k][next[k]]), append(y, f.pooled.y[f.pooled.rows[i]])
			next[k]++
		}
	}
	return preds, y
}

// crossFit returns the cross-fitted predictions of folds whose models
// train for epochs epochs (at least one) on Workers goroutines: the
// calibration of a single network, whose epoch the search already found.
func (s *search[T]) crossFit(win *candidate[T], epochs int) (preds []Prediction, y []T) {
	epochs = max(1, epochs)
	f := s.newFolds(win)
	f.best = make([]bool, epochs+1)
	f.best[epochs] = true
	f.finish(epochs)
	s.relay(func(report func(AutoRound)) {
		f.report = report
		parallel(min(s.opt.Workers, calibrationFolds), s.opt.Workers, func(int) { f.train() })
	})
	return f.predictions(epochs)
}
