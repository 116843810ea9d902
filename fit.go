package gcp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// FitOptions configures Trainer.Fit.
type FitOptions[T Float] struct {
	// Epochs is the most passes over the training data: 1..2²⁰.
	Epochs int
	// Seed fixes the order in which each epoch visits the data, and which
	// rows ValidationShare holds out.
	Seed uint64
	// ValX and ValY are an optional validation set (row-major, original
	// units), scored after every epoch.
	ValX, ValY []T
	// ValidationShare, in (0, 1), holds out that share of the rows of x
	// and y, drawn with Seed, as the validation set when ValX and ValY are
	// empty. The held-out rows are never trained on, and the
	// standardization Fit learns does not see them. 0 holds out nothing.
	ValidationShare float64
	// Patience, when > 0, turns on early stopping: training ends once the
	// validation NLL has not improved for Patience epochs in a row, and
	// Fit then restores the parameters of the epoch with the lowest
	// validation NLL, bit for bit (the trainer's optimizer state stays the
	// last epoch's). It needs a validation set. 0 trains all Epochs and
	// keeps the last epoch's parameters. At most 2²⁰.
	Patience int
	// Average, when true, keeps an exponential moving average of the
	// parameters over about an epoch (at least 100
	// steps; Polyak averaging), which the validation set scores and Fit
	// returns in place of the last step's parameters: the noise of the
	// minibatch steps averaged out. Training goes on from the last step's
	// parameters. AutoFit always averages.
	Average bool
	// Progress, if set, is called after every epoch; returning false stops
	// training.
	Progress func(EpochStats) bool
}

// maxEpochs bounds FitOptions.Epochs and Patience and AutoOptions.MaxEpochs
// and Patience: 2²⁰ epochs of the smallest data set are weeks of training,
// and a count beyond it is a mistake, not a plan.
const maxEpochs = 1 << 20

// EpochStats summarizes one epoch of Fit.
type EpochStats struct {
	Epoch    int     // 1-based
	TrainNLL float64 // mean negative log predictive density of the epoch's steps, original units
	ValNLL   float64 // the same on the validation set after the epoch; NaN without one
	// BestEpoch is the epoch with the lowest ValNLL so far, BestValNLL
	// that NLL; 0 and NaN without a validation set.
	BestEpoch  int
	BestValNLL float64
}

// Fit trains on the row-major inputs x (len(y) rows; len(y)/d rows of d
// targets each for a model of d ≥ 2 Targets, which standardizes each
// target on its own and scores a validation set, ValY row-major as y, by
// the joint negative log density) and targets y for up
// to opt.Epochs epochs of shuffled minibatches of the trainer's
// BatchSize, stopping early when opt.Patience says so. If
// the model has no standardization yet, Fit first learns it from x and y
// (less any rows ValidationShare holds out)
// and stores it in the model, so that predictions come in original units:
// every feature and the target are centred on their median and divided by
// a robust estimate of their standard deviation (robust.CenterScale). On
// clean data that is the paper's zero mean and unit variance
// (Appendix E) up to sampling noise; to reproduce the paper
// exactly, call SetStandardization with means and standard deviations
// before Fit. It returns the last epoch's statistics, whose BestEpoch
// names the epoch whose parameters the model holds when early stopping
// is on. Errors are those of Step, plus ErrConfig for Epochs or Patience
// out of range, a ValidationShare out of range, or Patience without a
// validation set, ErrBatch for a ValidationShare that leaves no row on
// either side, and ErrNonFinite, naming the column, for a column that
// cannot be standardized in T (its values overflow T once standardized); a
// step that fails ends training with the model as it was before that step
// (and without the learned standardization if that was the first step).
// Fit allocates its buffers once; its steps allocate nothing.
func (t *Trainer[T]) Fit(x, y []T, opt FitOptions[T]) (EpochStats, error) {
	return t.FitContext(context.Background(), x, y, opt)
}

// FitContext is Fit, stopped by ctx: it checks ctx before every epoch,
// so that once ctx is done it returns after at most the epoch under way,
// with that epoch's statistics and an error wrapping ctx.Err()
// (context.Canceled or context.DeadlineExceeded). The model then holds
// what the finished epochs trained, as when Progress stops training:
// with early stopping, the parameters of the best epoch so far. A ctx
// done before the call changes nothing.
func (t *Trainer[T]) FitContext(ctx context.Context, x, y []T, opt FitOptions[T]) (EpochStats, error) {
	if t == nil || t.m == nil {
		return EpochStats{}, fmt.Errorf("%w: a nil or zero Trainer: use NewTrainer", ErrConfig)
	}
	m := t.m
	ty := m.cfg.targets()
	d, n := m.cfg.Inputs, len(y)/ty
	if opt.Epochs < 1 || opt.Epochs > maxEpochs {
		return EpochStats{}, fmt.Errorf("%w: Epochs = %d, want 1..%d", ErrConfig, opt.Epochs, maxEpochs)
	}
	if opt.Patience < 0 || opt.Patience > maxEpochs {
		return EpochStats{}, fmt.Errorf("%w: Patience = %d, want 0 (off) to %d", ErrConfig, opt.Patience, maxEpochs)
	}
	if err := ctx.Err(); err != nil {
		return EpochStats{}, fmt.Errorf("gcp: Fit stopped: %w", err)
	}
	if !(opt.ValidationShare >= 0 && opt.ValidationShare < 1) {
		return EpochStats{}, fmt.Errorf("%w: ValidationShare = %v, want [0, 1)", ErrConfig, opt.ValidationShare)
	}
	if n < 1 {
		return EpochStats{}, ErrBatch
	}
	if len(x) != n*d || len(y) != n*ty || len(opt.ValX) != len(opt.ValY)/ty*d || len(opt.ValY)%ty != 0 {
		return EpochStats{}, ErrShape
	}
	for _, s := range [][]T{x, y, opt.ValX, opt.ValY} {
		if !m.k.allFinite(s) {
			return EpochStats{}, ErrNonFinite
		}
	}
	if err := checkRows(n); err != nil {
		return EpochStats{}, err
	}
	all, val := allRows(x, y, d), allRows(opt.ValX, opt.ValY, d)
	if ty > 1 {
		all.ty, val.ty = ty, ty
	}
	train := all
	if val.len() == 0 && opt.ValidationShare > 0 {
		var err error
		if train, val, err = holdOut(all, opt.ValidationShare, opt.Seed); err != nil {
			return EpochStats{}, err
		}
	}
	if opt.Patience > 0 && val.len() == 0 {
		return EpochStats{}, fmt.Errorf("%w: Patience = %d needs a validation set: ValX and ValY, or ValidationShare", ErrConfig, opt.Patience)
	}
	r, err := newFitRun(t, train, val, runOptions{seed: opt.Seed, track: opt.Patience > 0, average: opt.Average})
	if err != nil {
		return EpochStats{}, err
	}
	for r.stats.Epoch < opt.Epochs {
		if err := ctx.Err(); err != nil {
			r.finish()
			if r.stats.Epoch == 0 && r.learned {
				m.resetStandardization() // nothing was trained: leave no trace
			}
			return r.stats, fmt.Errorf("gcp: Fit stopped after epoch %d: %w", r.stats.Epoch, err)
		}
		if err := r.epoch(); err != nil {
			return r.stats, err
		}
		if r.stats.Epoch == 1 {
			m.extendRanges(x)
		}
		if opt.Progress != nil && !opt.Progress(r.stats) {
			break
		}
		if opt.Patience > 0 && r.stats.Epoch-r.stats.BestEpoch >= opt.Patience {
			break
		}
	}
	r.finish()
	return r.stats, nil
}

// holdOut splits the rows of all in two, drawn with seed: the training
// rows and round(share·n) validation rows, at least one of each.
func holdOut[T Float](all rowSet[T], share float64, seed uint64) (train, val rowSet[T], err error) {
	n := all.len()
	k := int(math.Round(share * float64(n)))
	k = max(k, 1)
	if k >= n {
		return train, val, fmt.Errorf("%w: ValidationShare = %v of %d rows leaves no training row", ErrBatch, share, n)
	}
	perm := rand.New(rand.NewPCG(seed, holdOutStream)).Perm(n)
	rows := make([]int32, n)
	for i, p := range perm {
		rows[i] = int32(all.row(p))
	}
	return all.subset(rows[k:]), all.subset(rows[:k]), nil
}

// validationScores returns the mean negative log predictive density of
// the validated rows of set and the mean squared error of their
// predictive means, in the units of the target the network models
// (TargetTransform), gathered workspaceRows at a time into xb and yb,
// which hold as many rows. Both are NaN if a row cannot be predicted.
func (m *Model[T]) validationScores(ws *Workspace[T], set rowSet[T], xb, yb []T) (nll, sqErr float64) {
	if set.ty > 1 {
		return m.multiValidationScores(ws, set, xb, yb)
	}
	var buf [workspaceRows]Prediction
	d, n := m.cfg.Inputs, set.len()
	for s := 0; s < n; s += workspaceRows {
		k := min(workspaceRows, n-s)
		set.gather(s, k, xb, yb)
		if err := m.predictModeled(ws, xb[:k*d], buf[:k]); err != nil {
			return math.NaN(), math.NaN()
		}
		for i, p := range buf[:k] {
			nll -= p.LogPDF(float64(yb[i]))
			e := p.Mean - float64(yb[i])
			sqErr += e * e
		}
	}
	return nll / float64(n), sqErr / float64(n)
}

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
	// quanta, when not nil, holds for each target the spacing of the
	// lattice it lies on (targetLattice), 0 for a continuous one, and
	// jitter draws the uniform noise on (−h/2, h/2) that dequantizes
	// every quantized target the run trains on, anew at every step.
	quanta []float64
	jitter *rand.Rand
	avg    *paramAverage[T] // the average the run scores and keeps, or nil
	xb, yb []T              // one minibatch, or one chunk of validation rows
	best   []T              // the best epoch's parameters, when tracking
	// bestMean, with runOptions.meanHeads, holds the parameters of
	// meanEpoch, the epoch of lowest validation squared error bestSqErr
	// among the best NLL's epoch and those after it, whose mean heads
	// finish puts in the model.
	bestMean  []T
	meanEpoch int
	bestSqErr float64
	learned   bool // the run learned the model's standardization
	stats     EpochStats
	// apart, when set, trains one epoch of the model's members as
	// networks of their own in place of t, writes their parameters into
	// the model's buffer, which the run then scores and tracks, and
	// returns their mean training NLL (AutoFit's ensemble without folds).
	apart func(params []T) (float64, error)
}

// runOptions are the settings of a fitRun beyond its rows.
type runOptions struct {
	seed uint64 // of the shuffles and the dequantizing noise
	// quanta, when not nil, dequantizes the targets (see fitRun).
	quanta []float64
	// track keeps a copy of the parameters of the epoch with the lowest
	// validation NLL; average scores and keeps the parameter average
	// (paramAverage) instead of the last step's parameters.
	track, average bool
	// meanHeads, with track, also keeps the mean heads of the epoch of
	// lowest validation squared error from the best NLL's epoch on
	// (fitRun.finish says why). It does not change when the run stops.
	meanHeads bool
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
		quanta:  o.quanta,
		xb:      make([]T, rows*d), yb: make([]T, rows*max(train.ty, 1)),
		learned: !m.standardized,
		stats:   EpochStats{ValNLL: math.NaN(), BestValNLL: math.NaN()},
	}
	if o.quanta != nil {
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
	centred := m.centredInputs(train)
	t.a.useSparse(m.lay, centred)
	if val.len() > 0 {
		r.ws = m.NewWorkspace()
		r.ws.a.useSparse(m.lay, centred)
	}
	if o.track {
		r.best = make([]T, len(m.params))
		if o.meanHeads {
			r.bestMean = make([]T, len(m.params))
		}
	}
	return r, nil
}

// epoch runs one shuffled pass over the training rows, then scores the
// validation set and, when tracking, keeps the parameters if they are the
// best so far. A failed step ends the epoch with its error, the model as
// it was before that step (and, if it was the run's very first step,
// without the standardization the run learned).
func (r *fitRun[T]) epoch() error {
	m := r.t.m
	e := r.stats.Epoch + 1
	var nll float64
	var err error
	if r.apart != nil {
		nll, err = r.apart(m.params)
	} else {
		nll, err = r.pass(e)
	}
	if err != nil {
		return err
	}
	st := &r.stats
	st.Epoch, st.TrainNLL, st.ValNLL = e, nll, math.NaN()
	if r.ws != nil {
		if r.avg != nil {
			r.avg.swap(m.params) // score and keep the average
			defer r.avg.swap(m.params)
		}
		var sqErr float64
		st.ValNLL, sqErr = m.validationScores(r.ws, r.val, r.xb, r.yb)
		// NaN (a validation row the model cannot predict) is never best.
		if st.ValNLL < st.BestValNLL || (st.BestEpoch == 0 && !math.IsNaN(st.ValNLL)) {
			st.BestEpoch, st.BestValNLL = e, st.ValNLL
			if r.best != nil {
				copy(r.best, m.params)
			}
			if r.bestMean != nil { // the mean heads' epoch is never earlier
				r.meanEpoch, r.bestSqErr = e, sqErr
				copy(r.bestMean, m.params)
			}
		} else if r.bestMean != nil && r.meanEpoch > 0 && sqErr < r.bestSqErr {
			r.meanEpoch, r.bestSqErr = e, sqErr
			copy(r.bestMean, m.params)
		}
	}
	return nil
}

// pass runs epoch e's shuffled pass over the training rows and returns
// the mean negative log predictive density of its steps, or the error of
// the step that failed.
func (r *fitRun[T]) pass(e int) (float64, error) {
	t, m := r.t, r.t.m
	d, n, bs := m.cfg.Inputs, r.train.len(), t.cfg.BatchSize
	rows := r.train.rows
	r.shuffle.Shuffle(n, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var sum float64
	for s := 0; s < n; s += bs {
		k := min(bs, n-s)
		r.train.gather(s, k, r.xb, r.yb)
		yb := r.yb[:k*max(r.train.ty, 1)]
		if r.jitter != nil {
			dequantize(yb, r.quanta, r.jitter)
		}
		loss, err := t.Step(r.xb[:k*d], yb)
		if err != nil {
			if r.learned && e == 1 && s == 0 {
				m.resetStandardization() // nothing was trained: leave no trace
			}
			return 0, fmt.Errorf("epoch %d: %w", e, err)
		}
		sum += loss * float64(k)
		if r.avg != nil {
			r.avg.update(m.params)
		}
	}
	return sum / float64(n), nil
}

// keep copies the parameters the run would return now into dst.
func (r *fitRun[T]) keep(dst []T) { copy(dst, r.kept()) }

// kept returns the parameters the run would return now: the average, if
// it keeps one, else the last step's.
func (r *fitRun[T]) kept() []T {
	if r.avg != nil {
		return r.avg.avg
	}
	return r.t.m.params
}

// finish leaves in the model the parameters the run returns: the best
// epoch's, when the run tracks them and some epoch scored, else the
// average, when it keeps one, else the last step's. With
// runOptions.meanHeads the mean heads are those of the epoch of lowest
// validation squared error from the best NLL's epoch on instead. The
// four heads are separate networks (Practical approach 2.1), and the NLL
// stops improving when the variance heads begin to fit the training
// rows' residuals, while the mean head can still improve: on held-out
// rows of the public data sets the ensemble's squared error kept falling
// for up to 200 epochs after its NLL's best, until early stopping ended
// the run. The run still stops on the NLL alone, so that choosing the
// mean costs no training; only the calibration folds train up to the
// mean's epoch. An earlier epoch is not considered: on a few dozen held-out rows with heavy-tailed errors its
// lower squared error was noise (Yacht's inner splits lost 5% of RMSE to
// it). The variance heads, fitted to the earlier mean's larger
// residuals, then overstate the variance a little; the calibration's
// variance factor, fitted to predictions made the same way, takes that
// out.
func (r *fitRun[T]) finish() {
	switch {
	case r.best != nil && r.stats.BestEpoch > 0:
		copy(r.t.m.params, r.best)
		if r.bestMean != nil && r.meanEpoch > 0 {
			copyMeanHeads(r.t.m.lay, r.t.m.params, r.bestMean)
		}
	case r.avg != nil:
		r.avg.swap(r.t.m.params)
		r.avg = nil // the run ends: the model holds the average
	}
}
