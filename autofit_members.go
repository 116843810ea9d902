package gcp

// How AutoFit trains an ensemble that has no calibration folds behind it
// (from 2·minCalibrationRows held-out rows on, where held-out rows
// calibrate): each member as a network of its own, the members side by
// side on the Workers, so that the cores the folds would use are not left
// idle while the ensemble trains.

import (
	"fmt"
	"math/rand/v2"
	"sync"
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
// member's run, but then fails the ensemble's epoch, as it fails the
// ensemble's. The split is one member a run, whatever the Workers, so the
// model does not depend on them.
//
// The members do not wait for one another at every epoch: each may train
// up to memberLead epochs beyond the one the ensemble last asked for,
// keeping its parameters of those epochs, so that the Workers stay busy
// while the ensemble scores its held-out rows and where the members do
// not divide evenly among them (with a wait at every epoch, five members
// on two workers left one idle for a third of it). Each member's run
// depends only on its own state, so when it trains changes nothing in
// what it returns.
type splitRuns[T Float] struct {
	lay     *layout      // the ensemble's
	runs    []*fitRun[T] // member k's, without held-out rows
	workers int
	last    int // the last epoch the ensemble may ask for

	mu   sync.Mutex
	wake *sync.Cond // broadcast when a member's epoch ends, the limit moves or stop is called
	// at[k] is the last epoch member k finished, busy[k] whether one of
	// its epochs is under way, err[k] the error of its epoch at[k]+1.
	at   []int
	busy []bool
	err  []error
	// kept[k][e%len] and nll[k][e%len] are member k's parameters and
	// training NLL after epoch e, for its memberLead+1 latest epochs.
	kept    [][][]T
	nll     [][]float64
	asked   int  // the last epoch the ensemble asked for
	limit   int  // the epoch the members may train up to
	stopped bool // no further epoch will be asked for
	done    sync.WaitGroup
}

// memberLead is how many epochs a member may train beyond the one the
// ensemble last asked for: one keeps the workers busy while it scores,
// and when it stops, at most one epoch of each member was trained in vain.
const memberLead = 1

// newSplitRuns prepares the runs of the members of ens, an ensemble with
// its initial weights, on the rows train, with the run options o: member
// makes each member's trainer, of a model of one network with the
// ensemble's settings and standardization, and the seeds of the members'
// dropout masks are drawn from dropoutSeed. Their epochs train on up to
// workers goroutines, never beyond epoch last, until stop.
func newSplitRuns[T Float](ens *Model[T], member func() (*Trainer[T], error), train rowSet[T], o runOptions, dropoutSeed uint64, workers, last int) (*splitRuns[T], error) {
	l := ens.lay
	n := l.members
	mr := &splitRuns[T]{lay: l, runs: make([]*fitRun[T], n), workers: workers, last: last,
		at: make([]int, n), busy: make([]bool, n), err: make([]error, n), kept: make([][][]T, n), nll: make([][]float64, n)}
	mr.wake = sync.NewCond(&mr.mu)
	seeds := rand.New(rand.NewPCG(dropoutSeed, memberDropoutStream))
	for k := range mr.runs {
		t, err := member()
		if err != nil {
			return nil, err
		}
		l.memberSpans(k, func(at, to, n int) { copy(t.m.params[to:to+n], ens.params[at:at+n]) })
		t.src = newSplitMix(seeds.Uint64(), seeds.Uint64())
		if mr.runs[k], err = newFitRun(t, train, rowSet[T]{}, o); err != nil {
			return nil, err
		}
		mr.kept[k], mr.nll[k] = make([][]T, memberLead+1), make([]float64, memberLead+1)
		for i := range mr.kept[k] {
			mr.kept[k][i] = make([]T, len(t.m.params))
		}
	}
	return mr, nil
}

// epoch asks for the ensemble's next epoch and, once every member has
// trained it, writes the parameters each member's run returned then into
// params, the ensemble's, and returns the members' mean training NLL; or
// the error of the first member whose epoch failed. The first call
// starts the workers.
func (mr *splitRuns[T]) epoch(params []T) (float64, error) {
	mr.mu.Lock()
	defer mr.mu.Unlock()
	if mr.asked == 0 {
		mr.done.Add(mr.workers)
		for range mr.workers {
			go mr.work()
		}
	}
	mr.asked++
	e := mr.asked
	mr.limit = max(e, min(e+memberLead, mr.last))
	mr.wake.Broadcast()
	var nll float64
	for k := range mr.runs {
		for mr.at[k] < e && mr.err[k] == nil {
			mr.wake.Wait()
		}
		if mr.at[k] < e {
			return 0, fmt.Errorf("member %d: %w", k+1, mr.err[k])
		}
		nll += mr.nll[k][e%(memberLead+1)]
		kept := mr.kept[k][e%(memberLead+1)]
		mr.lay.memberSpans(k, func(at, to, n int) { copy(params[at:at+n], kept[to:to+n]) })
	}
	return nll / float64(len(mr.runs)), nil
}

// work trains member epochs until stop: each time one epoch of the member
// furthest behind that is free, has not failed and is below the limit.
// Several goroutines run it at once; each wakes the others after every
// epoch.
func (mr *splitRuns[T]) work() {
	defer mr.done.Done()
	mr.mu.Lock()
	defer mr.mu.Unlock()
	for !mr.stopped {
		k := -1
		for i := range mr.runs {
			if !mr.busy[i] && mr.err[i] == nil && mr.at[i] < mr.limit && (k < 0 || mr.at[i] < mr.at[k]) {
				k = i
			}
		}
		if k < 0 {
			mr.wake.Wait()
			continue
		}
		r := mr.runs[k]
		mr.busy[k] = true
		mr.mu.Unlock()
		err := r.epoch()
		if err == nil { // the slot of epoch at[k]+1, which no reader holds
			e := r.stats.Epoch % (memberLead + 1)
			copy(mr.kept[k][e], r.kept())
			mr.nll[k][e] = r.stats.TrainNLL
		}
		mr.mu.Lock()
		mr.busy[k] = false
		if err != nil {
			mr.err[k] = err
		} else {
			mr.at[k] = r.stats.Epoch
		}
		mr.wake.Broadcast()
	}
}

// stop ends the members' training and returns once the epochs under way
// are done, leaving no goroutine behind. The ensemble calls it when it
// will ask for no further epoch.
func (mr *splitRuns[T]) stop() {
	mr.mu.Lock()
	mr.stopped = true
	mr.wake.Broadcast()
	mr.mu.Unlock()
	mr.done.Wait()
}
