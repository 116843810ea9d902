package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// FitOptions configures Trainer.Fit.
type FitOptions[T Float] struct {
	// Epochs is the number of passes over the training data; at least 1.
	Epochs int
	// Seed fixes the order in which each epoch visits the data.
	Seed uint64
	// ValX and ValY are an optional validation set (row-major, original
	// units), scored after every epoch.
	ValX, ValY []T
	// Progress, if set, is called after every epoch; returning false stops
	// training.
	Progress func(EpochStats) bool
}

// EpochStats summarizes one epoch of Fit.
type EpochStats struct {
	Epoch    int     // 1-based
	TrainNLL float64 // mean negative log predictive density of the epoch's steps, original units
	ValNLL   float64 // the same on the validation set after the epoch; NaN without one
}

// Fit trains on the row-major inputs x (len(y) rows) and targets y for
// opt.Epochs epochs of shuffled minibatches of the trainer's BatchSize. If
// the model has no standardization yet, Fit first learns it from x and y
// (zero mean and unit variance for every feature and the target, as in the
// paper's appendixHyperparameters) and stores it in the model, so that
// predictions come in original units. It returns the last epoch's
// statistics. Errors are those of Step, plus ErrConfig for Epochs < 1; a
// step that fails ends training with the model as it was before that step.
func (t *Trainer[T]) Fit(x, y []T, opt FitOptions[T]) (EpochStats, error) {
	m, d, n := t.m, t.m.cfg.Inputs, len(y)
	if opt.Epochs < 1 {
		return EpochStats{}, fmt.Errorf("%w: Epochs = %d, want at least 1", ErrConfig, opt.Epochs)
	}
	if n < 1 {
		return EpochStats{}, ErrBatch
	}
	if len(x) != n*d || len(opt.ValX) != len(opt.ValY)*d {
		return EpochStats{}, ErrShape
	}
	for _, s := range [][]T{x, y, opt.ValX, opt.ValY} {
		if !m.k.allFinite(s) {
			return EpochStats{}, ErrNonFinite
		}
	}
	if !m.standardized {
		m.fitStandardization(x, y)
	}
	var ws *Workspace[T]
	if len(opt.ValY) > 0 {
		ws = m.NewWorkspace()
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	r := rand.New(rand.NewPCG(opt.Seed, seedStream))
	bs := t.cfg.BatchSize
	xb, yb := make([]T, bs*d), make([]T, bs)
	var st EpochStats
	for e := 1; e <= opt.Epochs; e++ {
		r.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		var sum float64
		for s := 0; s < n; s += bs {
			k := min(bs, n-s)
			for i, row := range idx[s : s+k] {
				copy(xb[i*d:(i+1)*d], x[row*d:(row+1)*d])
				yb[i] = y[row]
			}
			loss, err := t.Step(xb[:k*d], yb[:k])
			if err != nil {
				return st, fmt.Errorf("gcp: epoch %d: %w", e, err)
			}
			sum += loss * float64(k)
		}
		st = EpochStats{Epoch: e, TrainNLL: sum / float64(n), ValNLL: math.NaN()}
		if ws != nil {
			st.ValNLL = m.meanNLL(ws, opt.ValX, opt.ValY)
		}
		if opt.Progress != nil && !opt.Progress(st) {
			break
		}
	}
	return st, nil
}

// fitStandardization sets the standardization to the mean and standard
// deviation of every feature and of the target.
func (m *Model[T]) fitStandardization(x, y []T) {
	d := m.cfg.Inputs
	for j := 0; j < d; j++ {
		mean, scale := meanScale(x, j, d)
		m.xMean[j], m.xInvScale[j] = mean, 1/scale
	}
	m.yMean, m.yScale = meanScale(y, 0, 1)
	m.standardized = true
}

// meanScale returns the mean and standard deviation of x[off], x[off+stride],
// …, scaling by the largest magnitude first so that values near the
// float64 range neither overflow nor underflow. A zero (constant column) or
// non-finite deviation is returned as 1, which leaves that column
// unscaled.
func meanScale[T Float](x []T, off, stride int) (mean, scale float64) {
	var big float64
	for i := off; i < len(x); i += stride {
		big = max(big, math.Abs(float64(x[i])))
	}
	if big == 0 {
		return 0, 1
	}
	var sum, n float64
	for i := off; i < len(x); i += stride {
		sum += float64(x[i]) / big
		n++
	}
	mean = sum / n * big
	var spread float64
	for i := off; i < len(x); i += stride {
		spread = max(spread, math.Abs(float64(x[i])-mean))
	}
	if spread == 0 {
		return mean, 1
	}
	var ss float64
	for i := off; i < len(x); i += stride {
		r := (float64(x[i]) - mean) / spread
		ss += r * r
	}
	scale = math.Sqrt(ss/n) * spread
	if !positiveFinite(scale) {
		scale = 1
	}
	return mean, scale
}

// meanNLL returns the mean negative log predictive density of the
// validated row-major inputs x and targets y.
func (m *Model[T]) meanNLL(ws *Workspace[T], x, y []T) float64 {
	var buf [workspaceRows]Prediction
	d := m.cfg.Inputs
	var sum float64
	for s := 0; s < len(y); s += workspaceRows {
		k := min(workspaceRows, len(y)-s)
		if err := m.PredictBatch(ws, x[s*d:(s+k)*d], buf[:k]); err != nil {
			return math.NaN()
		}
		for i, p := range buf[:k] {
			sum -= p.LogPDF(float64(y[s+i]))
		}
	}
	return sum / float64(len(y))
}
