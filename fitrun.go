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
// parameters of the best epoch so far. The run reads its rows from the
// data set by index (rowSet), so that the runs of one AutoFit share the
// data.
type fitRun[T Float] struct {
	t       *Trainer[T]
	train   rowSet[T] // the training rows, reordered at every epoch
	val     rowSet[T] // the validation rows; none without a validation set
	ws      *Workspace[T]
	shuffle *rand.Rand // draws each epoch's order
	// quantum, when positive, is the spacing of the lattice the targets
	// lie on (targetLattice), and jitter draws the uniform noise on
	// (−quantum/2, quantum/2) that dequantizes every target the run
	// trains on, anew at every step.
	quantum float64
	jitter  *rand.Rand
	xb, yb  []T  // one minibatch, or one chunk of validation rows
	best    []T  // the best epoch's parameters, when tracking
	learned bool // the run learned the model's standardization
	stats   EpochStats
}

// newFitRun prepares a run of t on the validated rows train, learning the
// standardization from them first if the model has none (and returning
// fitStandardization's error, the model unchanged, if it cannot be
// learned), scoring val after every epoch when it has rows. With track,
// it keeps a copy of the parameters of the epoch with the lowest
// validation NLL. A positive quantum dequantizes the targets (see
// fitRun).
func newFitRun[T Float](t *Trainer[T], train, val rowSet[T], seed uint64, quantum float64, track bool) (*fitRun[T], error) {
	m, d := t.m, t.m.cfg.Inputs
	train.rows = train.indices() // the run's own order, reshuffled at every epoch
	rows := t.cfg.BatchSize
	if val.len() > 0 {
		rows = max(rows, workspaceRows)
	}
	r := &fitRun[T]{
		t: t, train: train, val: val,
		shuffle: rand.New(rand.NewPCG(seed, shuffleStream)),
		quantum: quantum,
		xb:      make([]T, rows*d), yb: make([]T, rows),
		learned: !m.standardized,
		stats:   EpochStats{ValNLL: math.NaN(), BestValNLL: math.NaN()},
	}
	if quantum > 0 {
		r.jitter = rand.New(rand.NewPCG(seed, dequantizeStream))
	}
	if r.learned {
		if err := m.fitStandardization(train); err != nil {
			return nil, err
		}
	}
	if val.len() > 0 {
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
	d, n, bs := m.cfg.Inputs, r.train.len(), t.cfg.BatchSize
	e := r.stats.Epoch + 1
	rows := r.train.rows
	r.shuffle.Shuffle(n, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var sum float64
	for s := 0; s < n; s += bs {
		k := min(bs, n-s)
		r.train.gather(s, k, r.xb, r.yb)
		if r.jitter != nil {
			for i, v := range r.yb[:k] {
				r.yb[i] = T(float64(v) + r.quantum*(r.jitter.Float64()-0.5))
			}
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
		st.ValNLL = m.meanNLL(r.ws, r.val, r.xb, r.yb)
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
