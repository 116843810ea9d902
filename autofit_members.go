package gcp

// How AutoFit trains an ensemble that has no calibration folds behind it
// (from 2·minCalibrationRows held-out rows on, where held-out rows
// calibrate): each member as a network of its own, the members side by
// side on the Workers, so that the cores the folds would use are not left
// idle while the ensemble trains.

import (
	"fmt"
	"math/rand/v2"

	"github.com/gcpnet/gcp/internal/par"
)

// splitRuns trains the members of an ensemble of single-target networks
// as networks of their own, one run each, epoch by epoch. The members
// of an ensemble are independent networks: its objective is the sum of
// theirs, so that each gets the gradient it would get alone (Trainer's
// loss), and the Adam update and the parameter average act on each
// parameter alone. Each member's run starts from its part of the
// ensemble's initial weights and shuffles the rows from the same seed, so
// every member sees the same minibatches as in the ensemble; without
// dropout it takes the same steps, and the ensemble it makes is the one
// trained as one network, bit for bit. Three things differ. The dropout
// masks: a trainer draws one stream across all its units, and each
// member draws its own stream here, seeded from the trainer's seed and
// its index, so the masks are other draws of the same distribution. The
// gradient clipping (TrainConfig.ClipNorm) bounds each member's gradient
// rather than the ensemble's. And a step that fails ends only its
// member's epoch, but then fails the run, as it fails the ensemble's. The
// split is one member a run, whatever the Workers, so the model does not
// depend on them.
type splitRuns[T Float] struct {
	lay     *layout      // the ensemble's
	runs    []*fitRun[T] // member k's, without held-out rows
	errs    []error      // each run's error in the last epoch
	workers int
}

// newSplitRuns prepares the runs of the members of ens, an ensemble with
// its initial weights, on the rows train, with the run options o: member
// makes each member's trainer, of a model of one network with the
// ensemble's settings and standardization, and the seeds of the members'
// dropout masks are drawn from dropoutSeed. Their epochs train on up to
// workers goroutines.
func newSplitRuns[T Float](ens *Model[T], member func() (*Trainer[T], error), train rowSet[T], o runOptions, dropoutSeed uint64, workers int) (*splitRuns[T], error) {
	l := ens.lay
	mr := &splitRuns[T]{lay: l, runs: make([]*fitRun[T], l.members), errs: make([]error, l.members), workers: workers}
	seeds := rand.New(rand.NewPCG(dropoutSeed, memberDropoutStream))
	for k := range mr.runs {
		t, err := member()
		if err != nil {
			return nil, err
		}
		l.memberSpans(k, func(at, to, n int) { copy(t.m.params[to:to+n], ens.params[at:at+n]) })
		t.src = newPCG(seeds.Uint64(), seeds.Uint64())
		if mr.runs[k], err = newFitRun(t, train, rowSet[T]{}, o); err != nil {
			return nil, err
		}
	}
	return mr, nil
}

// epoch trains one epoch of every member, on up to Workers goroutines,
// writes the parameters each member's run would return into params, the
// ensemble's, and returns the members' mean training NLL; or the error
// of the first member whose epoch failed. Each run depends only on its
// own state, so the order in which the workers take them changes
// nothing.
func (mr *splitRuns[T]) epoch(params []T) (float64, error) {
	par.Each(len(mr.runs), mr.workers, func(k int) { mr.errs[k] = mr.runs[k].epoch() })
	var nll float64
	for k, r := range mr.runs {
		if err := mr.errs[k]; err != nil {
			return 0, fmt.Errorf("member %d: %w", k+1, err)
		}
		nll += r.stats.TrainNLL
		kept := r.kept()
		mr.lay.memberSpans(k, func(at, to, n int) { copy(params[at:at+n], kept[to:to+n]) })
	}
	return nll / float64(len(mr.runs)), nil
}
