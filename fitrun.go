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
	avg     *paramAverage[T] // the average the run scores and keeps, or nil
	xb, yb  []T              // one minibatch, or one chunk of validation rows
	best    []T              // the best epoch's parameters, when tracking
	learned bool             // the run learned the model's standardization
	stats   EpochStats
}

// runOptions are the settings of a fitRun beyond its rows.
type runOptions struct {
	seed uint64 // of the shuffles and the dequantizing noise
	// quantum, when positive, dequantizes the targets (see fitRun).
	quantum float64
	// track keeps a copy of the parameters of the epoch with the lowest
	// validation NLL; average scores and keeps the parameter average
	// (paramAverage) instead of the last step's parameters.
	track, average bool
}

// newFitRun prepares a run of t on the validated rows train, learning the
// standardization from them first if the model has none (and returning
// fitStandardization's error, the model unchanged, if it cannot be
// learned), scoring val after every epoch when it has rows, as o says.
func newFitRun[T Float](t *Trainer[T], train, val rowSet[T], o runOptions) (*fitRun[T], error) {
	m, d := t.m, t.m.cfg.Inputs
	train.rows = train.indices() // the run's own order, reshuffled at every epoch
	rows := t.cfg.BatchSize
	if val.len() > 0 {
		rows = max(rows, workspaceRows)
	}
	r := &fitRun[T]{
		t: t, train: train, val: val,
		shuffle: rand.New(rand.NewPCG(o.seed, shuffleStream)),
		quantum: o.quantum,
		xb:      make([]T, rows*d), yb: make([]T, rows),
		learned: !m.standardized,
		stats:   EpochStats{ValNLL: math.NaN(), BestValNLL: math.NaN()},
	}
	if o.quantum > 0 {
		r.jitter = rand.New(rand.NewPCG(o.seed, dequantizeStream))
	}
	if o.average {
		r.avg = newParamAverage(m.k, m.params, (train.len()+t.cfg.BatchSize-1)/t.cfg.BatchSize)
	}
	if r.learned {
		if err := m.fitStandardization(train); err != nil {
			return nil, err
		}
	}
	if val.len() > 0 {
		r.ws = m.NewWorkspace()
	}
	if o.track {
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
		if r.avg != nil {
			r.avg.update(m.params)
		}
	}
	st := &r.stats
	st.Epoch, st.TrainNLL, st.ValNLL = e, sum/float64(n), math.NaN()
	if r.ws != nil {
		if r.avg != nil {
			r.avg.swap(m.params) // score and keep the average
			defer r.avg.swap(m.params)
		}
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

// keep copies the parameters the run would return now (the average, if
// it keeps one) into dst.
func (r *fitRun[T]) keep(dst []T) {
	if r.avg != nil {
		copy(dst, r.avg.avg)
		return
	}
	copy(dst, r.t.m.params)
}

// finish leaves in the model the parameters the run returns: the best
// epoch's, when the run tracks them and some epoch scored, else the
// average, when it keeps one, else the last step's.
func (r *fitRun[T]) finish() {
	switch {
	case r.best != nil && r.stats.BestEpoch > 0:
		copy(r.t.m.params, r.best)
	case r.avg != nil:
		r.avg.swap(r.t.m.params)
		r.avg = nil // the run ends: the model holds the average
	}
}
