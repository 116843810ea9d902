package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// fitRun is the state of one training run of Fit, kept between epochs so
// that AutoFit can advance many runs a few epochs at a time and get
// exactly what one uninterrupted Fit would: the shuffled order, the
// minibatch buffers, the validation set and, with early stopping, the
// parameters of the best epoch so far.
type fitRun[T Float] struct {
	t          *Trainer[T]
	x, y       []T // training rows
	valX, valY []T // validation rows; empty without a validation set
	ws         *Workspace[T]
	idx        []int      // the order of the current epoch
	shuffle    *rand.Rand // draws each epoch's order
	xb, yb     []T        // one minibatch
	best       []T        // the best epoch's parameters, when tracking
	learned    bool       // the run learned the model's standardization
	stats      EpochStats
}

// newFitRun prepares a run of t on the validated rows x and y, learning
// the standardization first if the model has none (and returning
// fitStandardization's error, the model unchanged, if it cannot be
// learned). With track, it keeps a copy of the parameters of the epoch
// with the lowest validation NLL.
func newFitRun[T Float](t *Trainer[T], x, y, valX, valY []T, seed uint64, track bool) (*fitRun[T], error) {
	m, d, n := t.m, t.m.cfg.Inputs, len(y)
	r := &fitRun[T]{
		t: t, x: x, y: y, valX: valX, valY: valY,
		idx:     make([]int, n),
		shuffle: rand.New(rand.NewPCG(seed, shuffleStream)),
		xb:      make([]T, t.cfg.BatchSize*d), yb: make([]T, t.cfg.BatchSize),
		learned: !m.standardized,
		stats:   EpochStats{ValNLL: math.NaN(), BestValNLL: math.NaN()},
	}
	for i := range r.idx {
		r.idx[i] = i
	}
	if r.learned {
		if err := m.fitStandardization(x, y); err != nil {
			return nil, err
		}
	}
	if len(valY) > 0 {
		r.ws = m.NewWorkspace()
	}
	if track {
		r.best = make([]T, len(m.params))
	}
	return r, nil
}

// epoch runs one shuffled pass over the training rows, then scores the
// validation set and, when tracking, keeps the parameters if they are the
// best so far. A failed step ends the epoch with its error, the model as
// it was before that step (and, if it was the run's very first step,
// without the standardization the run learned).
func (r *fitRun[T]) epoch() error {
	t, m := r.t, r.t.m
	d, n, bs := m.cfg.Inputs, len(r.y), t.cfg.BatchSize
	e := r.stats.Epoch + 1
	r.shuffle.Shuffle(n, func(i, j int) { r.idx[i], r.idx[j] = r.idx[j], r.idx[i] })
	var sum float64
	for s := 0; s < n; s += bs {
		k := min(bs, n-s)
		for i, row := range r.idx[s : s+k] {
			copy(r.xb[i*d:(i+1)*d], r.x[row*d:(row+1)*d])
			r.yb[i] = r.y[row]
		}
		loss, err := t.Step(r.xb[:k*d], r.yb[:k])
		if err != nil {
			if r.learned && e == 1 && s == 0 {
				m.resetStandardization() // nothing was trained: leave no trace
			}
			return fmt.Errorf("epoch %d: %w", e, err)
		}
		sum += loss * float64(k)
	}
	st := &r.stats
	st.Epoch, st.TrainNLL, st.ValNLL = e, sum/float64(n), math.NaN()
	if r.ws != nil {
		st.ValNLL = m.meanNLL(r.ws, r.valX, r.valY)
		// NaN (a validation row the model cannot predict) is never best.
		if st.ValNLL < st.BestValNLL || (st.BestEpoch == 0 && !math.IsNaN(st.ValNLL)) {
			st.BestEpoch, st.BestValNLL = e, st.ValNLL
			if r.best != nil {
				copy(r.best, m.params)
			}
		}
	}
	return nil
}

// restoreBest puts the best epoch's parameters back into the model, when
// the run tracks them and some epoch scored.
func (r *fitRun[T]) restoreBest() {
	if r.best != nil && r.stats.BestEpoch > 0 {
		copy(r.t.m.params, r.best)
	}
}
