package gcp

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// AutoOptions configures AutoFit. The zero value selects the defaults,
// which are meant for data nobody has tuned for.
type AutoOptions struct {
	// LearningRates and Dropouts span the grid of candidates, every
	// learning rate with every dropout rate. Defaults: defaultLearningRates
	// and defaultDropouts, which cover the paper's grid
	// (appendixHyperparameters) at a coarser step. A single value fixes
	// that hyperparameter. A learning rate must be finite and > 0, a
	// dropout rate in [0, 1), and the grid at most maxCandidates (1024)
	// pairs. For LossMLBayes a dropout of 0 is left out: its MC samples
	// need dropout.
	LearningRates, Dropouts []float64
	// MaxEpochs is the most epochs any candidate trains, at most
	// maxEpochs (2²⁰). Default: enough for about stepBudget minibatch
	// steps, within [minAutoEpochs, maxAutoEpochs] (autoEpochs).
	MaxEpochs int
	// Patience is the early-stopping patience of every candidate, in
	// epochs, at most maxEpochs (2²⁰). Default MaxEpochs/10, at least
	// minPatience.
	Patience int
	// ValidationShare, in (0, 1), is the share of the training rows held
	// out, drawn with Seed, to stop, select and calibrate on. Default 0.1,
	// at least minValidationRows rows; it must leave minValidationRows
	// (30) rows to train on.
	ValidationShare float64
	// Seed fixes which rows are held out and each candidate's shuffles.
	// The candidates' initial weights come from Config.Seed, their dropout
	// masks from TrainConfig.Seed: all candidates start from the same
	// weights, so that the search compares hyperparameters, not draws.
	Seed uint64
	// Workers is how many candidates train at once, at most maxWorkers
	// (1024). Default GOMAXPROCS. The result does not depend on it.
	Workers int
	// Progress, if set, is called after each round of the search, each
	// epoch of an ensemble's run and each epoch of a calibration fold
	// (AutoRound.Phase says which), from the goroutine that called
	// AutoFit.
	Progress func(AutoRound)
}

// The defaults of AutoOptions.
var (
	defaultLearningRates = []float64{1e-4, 3e-4, 1e-3, 3e-3}
	defaultDropouts      = []float64{0, 0.1, 0.2, 0.4}
)

const (
	// stepBudget is about how many minibatch steps a candidate may take
	// when MaxEpochs is not set: small data sets get many epochs, large
	// ones few, and every candidate as many updates as the paper's
	// smallest settings give (appendixHyperparameters: 700 epochs of
	// minibatch 5 on Boston's 455 rows are 64,000 steps).
	stepBudget    = 65536
	minAutoEpochs = 100
	maxAutoEpochs = 2000
	// minPatience keeps early stopping from ending on the noise of a few
	// epochs.
	minPatience = 20
	// minValidationRows is the smallest validation set: below about 30
	// rows a validation NLL is too noisy to select or calibrate on. It is
	// also the fewest rows the candidates may train on.
	minValidationRows = 30
	// maxCandidates bounds the grid: each candidate holds a model and its
	// trainer until the search prunes it.
	maxCandidates = 1024
	// maxWorkers bounds AutoOptions.Workers: a goroutine each.
	maxWorkers = 1024
	// MinAutoFitRows is the fewest rows AutoFit trains on: enough to hold
	// out minValidationRows and train on as many.
	MinAutoFitRows = 2 * minValidationRows
	// searchEta is successive halving's ratio: each round keeps the best
	// third of the candidates and trains them three times as long.
	searchEta = 3
)

// AutoRound reports AutoFit's progress: a round of the search, or with
// Phase an epoch of the ensemble or of the calibration folds.
type AutoRound struct {
	Phase AutoPhase
	// Done of Total is how far the phase has come, in its units
	// (AutoPhase).
	Done, Total int
	Round       int     // the search's round, 1-based; 0 in the other phases
	Epochs      int     // the epoch budget of a search round; the ensemble's epoch
	Candidates  int     // candidates trained in a search round
	BestValNLL  float64 // the best held-out NLL of the search or the ensemble so far
}

// AutoResult describes the model AutoFit returns.
type AutoResult struct {
	LearningRate, Dropout float64
	// Epoch is the epoch whose parameters the model holds, chosen by
	// early stopping; EpochsRun the epochs its run trained in all (for an
	// ensemble, the ensemble's run after the search).
	Epoch, EpochsRun int
	// CVNLL is the cross-fitted estimate of the mean negative log
	// predictive density on new data, in original units, and
	// CVCoverage95 of the share of new targets inside their central 95%
	// calibrated interval: each of the CVRows rows is scored by a model
	// of the chosen hyperparameters that did not train on it, calibrated
	// as the returned model is. NaN if no fold model could be trained.
	CVNLL, CVCoverage95 float64
	CVRows              int
	// VarScale and CorrectedScale are the calibration factors fitted to
	// the cross-fitted predictions (Model.VarScale, Model.CorrectedScale);
	// 1 if no fold model could be trained.
	VarScale, CorrectedScale float64
	// TrainRows and ValRows are how many rows trained and how many were
	// held out; Candidates how many hyperparameter pairs were tried.
	TrainRows, ValRows, Candidates int
}

// AutoFit trains a model of shape cfg on the row-major inputs x and
// targets y without hand-tuned hyperparameters, the recipe gcp train uses
// by default:
//
//  1. It holds out a share of the rows (AutoOptions.ValidationShare) and
//     learns the standardization from the rest.
//  2. Every pair of learning rate and dropout rate in the grid trains
//     with early stopping on the held-out rows' NLL. Successive halving
//     prunes the grid: all candidates train for a ninth of the epoch
//     budget, the best third go on to a third of it, and the best third
//     of those to all of it, each keeping the parameters of its best
//     epoch. Candidates run in parallel on Workers goroutines.
//  3. The candidate with the lowest held-out NLL is kept as it is, not
//     refit on all rows: its early-stopping epoch was measured on rows
//     it never trained on, which a refit would lose. For an ensemble
//     (cfg.Members > 1) the search still runs single networks, and the
//     winner's learning rate and dropout then train the ensemble, with
//     early stopping on the held-out rows' NLL of its mixture: as Deep
//     Ensembles do, the members share the hyperparameters of a good
//     single network, and the search costs no more than for one.
//  4. Its variance is calibrated (Model.Calibrate's two factors) on
//     cross-fitted predictions: five models of the chosen learning rate,
//     dropout, epoch count and members each train on four fifths of all
//     the rows and predict the fifth. The held-out rows alone would give an
//     optimistic calibration, since they chose the winner. The same
//     predictions give AutoResult's CVNLL and CVCoverage95, honest
//     estimates of what new data will see, and the model's conformal
//     calibration (Model.ConformalInterval).
//
// Only the data passed in is used: hold the test data back from it. cfg's
// Dropout is replaced by the grid's, and tc's LearningRate by the grid's;
// the rest of cfg and tc (Loss, Hidden, Optimizer, BatchSize, the seeds)
// apply to every candidate. The result is bit-identical for a given
// input and seeds, whatever Workers is. Errors are those of New,
// NewTrainer and Fit; ErrConfig for invalid options, naming the field,
// ErrBatch for data too small to hold out a validation set or a
// ValidationShare that leaves too few rows to train on, and the first
// error of a candidate (by grid order) if every candidate failed.
func AutoFit[T Float](cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	return AutoFitContext(context.Background(), cfg, tc, x, y, opt)
}

// AutoFitContext is AutoFit, stopped by ctx: every run it trains (the
// candidates, the ensemble and the calibration folds) checks ctx before
// each epoch, so that once ctx is done AutoFitContext returns within an
// epoch of every run under way, with no goroutine left behind, no model
// and an error wrapping ctx.Err() (context.Canceled or
// context.DeadlineExceeded). A done ctx before the search starts trains
// nothing.
func AutoFitContext[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	s, err := newSearch(ctx, cfg, tc, x, y, opt)
	if err != nil {
		return nil, AutoResult{}, err
	}
	m, res, err := s.run()
	if err != nil && ctx.Err() != nil {
		return nil, AutoResult{}, fmt.Errorf("gcp: AutoFit stopped: %w", ctx.Err())
	}
	return m, res, err
}

// candidate is one point of the grid and its training run.
type candidate[T Float] struct {
	lr, dropout float64
	run         *fitRun[T]
	err         error // why it stopped for good, if it failed
	done        bool  // early stopping ended it
}

// score is the candidate's best held-out NLL; +Inf when it failed or
// never scored.
func (c *candidate[T]) score() float64 {
	if c.err != nil || c.run == nil || c.run.stats.BestEpoch == 0 {
		return math.Inf(1)
	}
	return c.run.stats.BestValNLL
}

// search is the state of one AutoFit.
type search[T Float] struct {
	ctx                 context.Context // every run checks it before each epoch
	cfg                 Config
	tc                  TrainConfig
	opt                 AutoOptions
	trainX, trainY      []T
	valX, valY          []T
	xMean, xScale       []float64
	yMean, yScale       float64
	cands               []*candidate[T]
	maxEpochs, patience int
}

// newSearch validates the options, fills in their defaults, holds out
// the validation rows and learns the standardization; ctx stops its runs.
func newSearch[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*search[T], error) {
	n := len(y)
	if opt.LearningRates == nil {
		opt.LearningRates = defaultLearningRates
	}
	if opt.Dropouts == nil {
		opt.Dropouts = defaultDropouts
	}
	if opt.ValidationShare == 0 {
		opt.ValidationShare = 0.1
	}
	if opt.Workers == 0 {
		opt.Workers = min(runtime.GOMAXPROCS(0), maxWorkers)
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	s := &search[T]{ctx: ctx, cfg: cfg.withDefaults(), tc: tc, opt: opt}
	for _, lr := range opt.LearningRates {
		for _, p := range opt.Dropouts {
			if s.cfg.Loss == LossMLBayes && p == 0 {
				continue
			}
			s.cands = append(s.cands, &candidate[T]{lr: lr, dropout: p})
		}
	}
	if len(s.cands) == 0 {
		return nil, fmt.Errorf("%w: AutoOptions: LossMLBayes needs a dropout rate above 0 in Dropouts", ErrConfig)
	}
	// Every candidate's Config and TrainConfig must be valid.
	for _, c := range s.cands {
		cfg, tc := s.cfg, s.tc
		cfg.Dropout, tc.LearningRate = c.dropout, c.lr
		if err := cfg.validate(); err != nil {
			return nil, err
		}
		if err := tc.withDefaults().validate(); err != nil {
			return nil, err
		}
		if err := validateFor[T](tc.withDefaults()); err != nil {
			return nil, err
		}
	}
	if len(x) != n*s.cfg.Inputs {
		return nil, ErrShape
	}
	if k := kernelsFor[T](); !k.allFinite(x) || !k.allFinite(y) {
		return nil, ErrNonFinite
	}
	share := max(opt.ValidationShare, float64(minValidationRows)/float64(n))
	if n < MinAutoFitRows {
		return nil, fmt.Errorf("%w: %d rows; AutoFit holds out at least %d to validate on and needs as many to train", ErrBatch, n, minValidationRows)
	}
	if k := int(math.Round(share * float64(n))); n-k < minValidationRows {
		return nil, fmt.Errorf("%w: AutoOptions.ValidationShare = %v of %d rows leaves %d to train on, want at least %d", ErrBatch, opt.ValidationShare, n, n-k, minValidationRows)
	}
	var err error
	if s.trainX, s.trainY, s.valX, s.valY, err = holdOut(x, y, s.cfg.Inputs, share, opt.Seed); err != nil {
		return nil, err
	}
	s.maxEpochs = opt.MaxEpochs
	if s.maxEpochs == 0 {
		s.maxEpochs = autoEpochs(len(s.trainY), s.tc.withDefaults().BatchSize)
	}
	s.patience = opt.Patience
	if s.patience == 0 {
		s.patience = max(minPatience, s.maxEpochs/10)
	}
	// One standardization for all candidates, learned from the training
	// rows as Fit would, so that their held-out NLLs are comparable.
	if s.xMean, s.xScale, s.yMean, s.yScale, err = learnStandardization(s.trainX, s.trainY, s.cfg.Inputs); err != nil {
		return nil, err
	}
	return s, nil
}

// autoEpochs returns the default epoch budget for n training rows in
// minibatches of size batch: about stepBudget steps, clamped to
// [minAutoEpochs, maxAutoEpochs].
func autoEpochs(n, batch int) int {
	steps := (n + batch - 1) / batch
	return min(max((stepBudget+steps-1)/steps, minAutoEpochs), maxAutoEpochs)
}

// run performs the successive-halving rounds, picks the best candidate
// and calibrates it.
func (s *search[T]) run() (*Model[T], AutoResult, error) {
	alive := slices.Clone(s.cands)
	budgets := []int{max(1, s.maxEpochs/(searchEta*searchEta)), max(1, s.maxEpochs/searchEta), s.maxEpochs}
	for round, budget := range budgets {
		s.train(alive, budget)
		if err := s.ctx.Err(); err != nil {
			return nil, AutoResult{}, err
		}
		best := math.Inf(1)
		for _, c := range alive {
			best = min(best, c.score())
		}
		if s.opt.Progress != nil {
			s.opt.Progress(AutoRound{Phase: PhaseSearch, Done: round + 1, Total: len(budgets), Round: round + 1, Epochs: budget, Candidates: len(alive), BestValNLL: best})
		}
		if round < len(budgets)-1 {
			alive = s.prune(alive)
		}
	}
	win := alive[0]
	for _, c := range alive[1:] {
		if c.score() < win.score() {
			win = c
		}
	}
	if math.IsInf(win.score(), 1) {
		for _, c := range s.cands {
			if c.err != nil {
				return nil, AutoResult{}, fmt.Errorf("learning rate %g, dropout %g: %w", c.lr, c.dropout, c.err)
			}
		}
		return nil, AutoResult{}, fmt.Errorf("%w: no candidate could score the held-out rows", ErrNonFinite)
	}
	win.run.restoreBest()
	final := win.run
	var preds []Prediction
	var y []T
	if s.cfg.Members > 1 {
		var f *folds[T]
		var err error
		if final, f, err = s.ensemble(win); err != nil {
			return nil, AutoResult{}, fmt.Errorf("the ensemble of learning rate %g, dropout %g: %w", win.lr, win.dropout, err)
		}
		preds, y = f.predictions(final.stats.BestEpoch)
	} else {
		preds, y = s.crossFit(win, final.stats.BestEpoch)
	}
	if err := s.ctx.Err(); err != nil { // the folds stopped short
		return nil, AutoResult{}, err
	}
	m := final.t.m
	m.extendRanges(s.trainX)
	m.extendRanges(s.valX)
	res := AutoResult{
		LearningRate: win.lr, Dropout: win.dropout,
		Epoch: final.stats.BestEpoch, EpochsRun: final.stats.Epoch,
		TrainRows: len(s.trainY), ValRows: len(s.valY), Candidates: len(s.cands),
		VarScale: 1, CorrectedScale: 1, CVNLL: math.NaN(), CVCoverage95: math.NaN(),
	}
	if len(y) > 0 {
		m.varScale, m.corrScale = fitScales(preds, y, m.cfg.Loss.gaussian())
		m.ext.conformal = newConformalScores(preds, y)
		res.VarScale, res.CorrectedScale = m.varScale, m.corrScale
		res.CVNLL, res.CVCoverage95, res.CVRows = heldOutScores(preds, y)
	}
	return m, res, nil
}

// ensemble trains the ensemble of Config.Members networks with the
// winner's hyperparameters on the training rows, with early stopping on
// the held-out rows as in the search, and returns its run, the best
// epoch's parameters restored, and the calibration folds, trained to that
// epoch.
//
// The ensemble trains on one goroutine while the folds train behind it on
// the other Workers − 1, and on all of them once it has stopped: its best
// epoch, which the folds must reach, is known only then, and waiting for
// it would leave all but one core idle while it trains.
func (s *search[T]) ensemble(win *candidate[T]) (*fitRun[T], *folds[T], error) {
	t, err := s.trainer(win, s.cfg.Members)
	if err != nil {
		return nil, nil, err
	}
	r, err := newFitRun(t, s.trainX, s.trainY, s.valX, s.valY, s.opt.Seed^searchStream, true)
	if err != nil {
		return nil, nil, err
	}
	c := &candidate[T]{lr: win.lr, dropout: win.dropout, run: r}
	f := s.newFolds(win)
	var report func(AutoRound) // set by relay, before train runs
	train := func(i int) {
		if i == 0 {
			for e := r.stats.Epoch + 1; e <= s.maxEpochs && c.err == nil && !c.done; e = r.stats.Epoch + 1 {
				if s.advance(c, e); c.err == nil {
					f.reached(e, r.stats.BestEpoch == e)
					report(AutoRound{Phase: PhaseEnsemble, Done: r.stats.Epoch, Total: s.maxEpochs, Epochs: r.stats.Epoch, BestValNLL: r.stats.BestValNLL})
				}
			}
			if c.err != nil {
				f.finish(0) // no fold is needed
			} else {
				f.finish(r.stats.BestEpoch)
			}
		}
		f.train()
	}
	s.relay(func(rep func(AutoRound)) {
		report, f.report = rep, rep
		parallel(s.opt.Workers, s.opt.Workers, train)
	})
	if c.err != nil {
		return nil, nil, c.err
	}
	if r.stats.BestEpoch == 0 {
		return nil, nil, fmt.Errorf("%w: the ensemble could not score the held-out rows", ErrNonFinite)
	}
	r.restoreBest()
	return r, f, nil
}

// parallel calls do(0), …, do(n−1) on up to workers goroutines.
func parallel(n, workers int, do func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				do(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// train advances every candidate of cands that is still running to epoch
// budget, on up to Workers goroutines. Each candidate's run depends only
// on its own state, so the order in which workers take them changes
// nothing.
func (s *search[T]) train(cands []*candidate[T], budget int) {
	parallel(len(cands), s.opt.Workers, func(i int) { s.advance(cands[i], budget) })
}

// advance trains c until epoch budget, early stopping, an error or the
// search's context is done (c.err is then its error).
func (s *search[T]) advance(c *candidate[T], budget int) {
	if c.err != nil || c.done {
		return
	}
	if c.err = s.ctx.Err(); c.err != nil {
		return
	}
	if c.run == nil {
		if c.err = s.start(c); c.err != nil {
			return
		}
	}
	r := c.run
	for r.stats.Epoch < budget {
		if c.err = s.ctx.Err(); c.err != nil {
			return
		}
		if c.err = r.epoch(); c.err != nil {
			return
		}
		if r.stats.Epoch-r.stats.BestEpoch >= s.patience {
			c.done = true
			return
		}
	}
}

// start builds c's model and trainer, with the shared standardization.
func (s *search[T]) start(c *candidate[T]) error {
	t, err := s.trainer(c, 1)
	if err != nil {
		return err
	}
	// The model's standardization is set: newFitRun learns none and
	// cannot fail.
	c.run, err = newFitRun(t, s.trainX, s.trainY, s.valX, s.valY, s.opt.Seed^searchStream, true)
	return err
}

// trainer returns a new model of c's hyperparameters and members
// networks, with the shared standardization, and its trainer.
func (s *search[T]) trainer(c *candidate[T], members int) (*Trainer[T], error) {
	cfg, tc := s.cfg, s.tc
	cfg.Dropout, tc.LearningRate, cfg.Members = c.dropout, c.lr, members
	m, err := New[T](cfg)
	if err != nil {
		return nil, err
	}
	if err := m.SetStandardization(s.xMean, s.xScale, s.yMean, s.yScale); err != nil {
		return nil, err
	}
	return NewTrainer(m, tc)
}

// prune returns the best ⌈len/searchEta⌉ of cands by held-out NLL, in
// grid order; ties go to the earlier candidate.
func (s *search[T]) prune(cands []*candidate[T]) []*candidate[T] {
	keep := (len(cands) + searchEta - 1) / searchEta
	ranked := slices.Clone(cands)
	slices.SortStableFunc(ranked, func(a, b *candidate[T]) int {
		sa, sb := a.score(), b.score()
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	ranked = ranked[:keep]
	return slices.DeleteFunc(slices.Clone(cands), func(c *candidate[T]) bool { return !slices.Contains(ranked, c) })
}

// predictAll returns the predictions of the row-major rows x, of the
// target the network models (TargetTransform).
func (m *Model[T]) predictAll(x []T) ([]Prediction, error) {
	preds := make([]Prediction, len(x)/m.cfg.Inputs)
	if err := m.predictModeled(m.NewWorkspace(), x, preds); err != nil {
		return nil, err
	}
	return preds, nil
}

// heldOutScores returns the mean negative log predictive density of the
// targets y under preds and the share inside the central 95% calibrated
// interval.
func heldOutScores[T Float](preds []Prediction, y []T) (nll, cover95 float64, rows int) {
	var in int
	for i, p := range preds {
		v := float64(y[i])
		nll -= p.LogPDF(v)
		lo, hi, _ := p.CalibratedInterval(0.95)
		if lo <= v && v <= hi {
			in++
		}
	}
	return nll / float64(len(y)), float64(in) / float64(len(y)), len(y)
}
