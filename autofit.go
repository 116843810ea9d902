package gcp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// AutoOptions configures AutoFit. The zero value selects the defaults,
// which are meant for data nobody has tuned for.
type AutoOptions struct {
	// LearningRates and Dropouts span the grid of candidates, every
	// learning rate with every dropout rate. Defaults: learning rates 1e-4,
	// 3e-4, 1e-3 and 3e-3 and dropout rates 0, 0.1, 0.2 and 0.4, which cover
	// the paper's grid (Appendix E) at a coarser step. A single value fixes
	// that hyperparameter. A learning rate must be finite and > 0, a
	// dropout rate in [0, 1), and the grid at most 1024 pairs. For LossMLBayes a dropout of 0 is left out: its MC samples
	// need dropout.
	LearningRates, Dropouts []float64
	// Architectures are the hidden layers of the heads (Config.Hidden)
	// the search tries, the cheapest first; ScaleWeightings the
	// exponents of TrainConfig.ScaleWeighting, a dimension of the grid as
	// the learning rate is. The grid of learning rates, dropout rates and
	// scale weightings is searched with the first architecture; each
	// further one then trains with the winner's settings, and replaces it
	// only if its held-out NLL is lower by more than one standard error of
	// the difference (the architecture stage: see AutoFit). Defaults:
	// one hidden layer of 50 units, then two of 50; the exponent ½. A single value
	// fixes that dimension: gcp train's -hidden fixes the architecture,
	// and ScaleWeightings {0} trains by the paper's update alone.
	Architectures   [][]int
	ScaleWeightings []float64
	// TargetTransform says that the targets y passed to AutoFit are
	// already transformed, z = g(y) (a log model's ln y): AutoFit sets it
	// on the returned model, so that its predictions answer in original
	// units, and scores the held-out rows (AutoResult's CV fields) in
	// original units too. Default TransformNone.
	TargetTransform TargetTransform
	// MaxEpochs is the most epochs any candidate trains, at most
	// 2²⁰. Default: enough for about 65,536 minibatch steps, within
	// [100, 2000].
	MaxEpochs int
	// Patience is the early-stopping patience of every candidate, in
	// epochs, at most 2²⁰. Default MaxEpochs/10, at least 20.
	Patience int
	// ValidationShare, in (0, 1), is the share of the training rows held
	// out, drawn with Seed, to stop, select and calibrate on. Default 0.1,
	// at least 30 rows; it must leave 30 rows to train on.
	ValidationShare float64
	// Seed fixes which rows are held out and each candidate's shuffles.
	// The candidates' initial weights come from Config.Seed, their dropout
	// masks from TrainConfig.Seed: all candidates start from the same
	// weights, so that the search compares hyperparameters, not draws.
	Seed uint64
	// Workers is how many candidates train at once, at most 1024.
	// Default GOMAXPROCS. The result does not depend on it.
	Workers int
	// Progress, if set, is called after each round of the search, each
	// epoch of an ensemble's run and each epoch of a calibration fold
	// (AutoRound.Phase says which), from the goroutine that called
	// AutoFit.
	Progress func(AutoRound)
}

// The defaults of AutoOptions.
var (
	defaultLearningRates   = []float64{1e-4, 3e-4, 1e-3, 3e-3}
	defaultDropouts        = []float64{0, 0.1, 0.2, 0.4}
	defaultArchitectures   = [][]int{{50}, {50, 50}}
	defaultScaleWeightings = []float64{0.5}
)

// AutoMembers is how many networks AutoFit trains when Config.Members is
// 0: an ensemble of five, Deep Ensembles' choice (Lakshminarayanan et al.
// 2017), the model gcp train makes with no flag. With zero flags on the
// standard UCI splits it beat the single network's NLL on all five data
// sets, by 0.02 to 0.25 nats, and its RMSE on all five
// (bench/uci_results.jsonl against bench/uci_results_members1.jsonl), and
// only an ensemble can say where the model has not seen data
// (Prediction.Disagreement). New's zero Members stays one network: a
// model built by hand is what its Config says, while AutoFit's zero
// values ask for the recipe. Members: 1 keeps the best single network.
const AutoMembers = 5

const (
	// stepBudget is about how many minibatch steps a candidate may take
	// when MaxEpochs is not set: small data sets get many epochs, large
	// ones few, and every candidate as many updates as the paper's
	// smallest settings give (Appendix E: 700 epochs of
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
	// out 30 and train on as many.
	MinAutoFitRows = 2 * minValidationRows
	// maxAutoSteps is the most minibatch steps an epoch of AutoFit takes
	// when TrainConfig.BatchSize is 0 (autoBatch).
	maxAutoSteps = 1024
	// minCalibrationRows is the fewest held-out rows that calibrate a
	// model by themselves: with twice as many held out (5000 rows and more
	// at the default share), half of them are kept from selection and
	// early stopping and calibrate the returned model itself, in place of
	// the cross-fitted folds (folds). The folds train five more models of
	// the chosen kind, four times the ensemble's work, and more than the
	// search and the ensemble together (57–69% of a fit's work on
	// Kin8nm's and Power's 8,000–9,000 rows); with the architecture
	// stage's deeper heads, six to eleven times more again. On 250 rows a
	// variance factor is known to about 9% (its relative sd is √(2/n) for
	// Gaussian residuals), the interval's width to 4.5%, and a 95%
	// coverage to about 1.4 points; the folds stay for smaller data,
	// where each row counts and training is cheap.
	minCalibrationRows = 250
	// searchHalvings is the number of rounds of successive halving.
	searchHalvings = 3
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
	// Hidden is the chosen architecture, the hidden layers of each head
	// (Config.Hidden), and ScaleWeighting the chosen
	// TrainConfig.ScaleWeighting.
	Hidden         []int
	ScaleWeighting float64
	// Epoch is the epoch whose parameters the model holds, chosen by
	// early stopping; EpochsRun the epochs its run trained in all (for an
	// ensemble, the ensemble's run after the search).
	Epoch, EpochsRun int
	// CVNLL estimates the mean negative log predictive density on new
	// data, in original units, and CVCoverage95 the share of new targets
	// inside their central 95% calibrated interval, from CVRows rows that
	// the scoring model neither trained on nor was chosen by, calibrated
	// as the returned model is: with CVFolds = 5, cross-fitted (each row
	// scored by a fold model of the chosen settings that did not train on
	// it), or with CVFolds = 0, on the calibration half of the held-out
	// rows of a large data set (500 held-out rows or more), by the returned
	// model itself. NaN if no model could score them.
	CVNLL, CVCoverage95 float64
	CVRows, CVFolds     int
	// CVNLLs and CVErrors are the negative log predictive density and
	// the error y − Mean of each of the CVRows rows scored, in original
	// units and in the order scored (the same for the same rows and
	// seed): CVNLL is the mean of CVNLLs. Two fits of the same rows, such
	// as gcp train's with and without a target transform, compare row by
	// row through them.
	CVNLLs, CVErrors []float64
	// VarScale and CorrectedScale are the calibration factors fitted to
	// those predictions (Model.VarScale, Model.CorrectedScale); 1 if no
	// model could score them.
	VarScale, CorrectedScale float64
	// Quantum is the spacing of the lattice the targets lie on, whose
	// training targets were dequantized (see AutoFit), or 0.
	Quantum float64
	// TrainRows and ValRows are how many rows trained and how many were
	// held out; Candidates how many hyperparameter pairs were tried.
	TrainRows, ValRows, Candidates int
}

// AutoFit trains a model of shape cfg on the row-major inputs x and
// targets y without hand-tuned hyperparameters, the recipe gcp train uses
// by default:
//
//  1. It holds out a share of the rows (AutoOptions.ValidationShare) and
//     learns the standardization from the rest. Targets on a lattice
//     (integer scores, cents) are dequantized in every step
//     (lattice.go), and every run averages its parameters over the last
//     epoch (average.go), scoring and keeping the average.
//  2. Every combination of learning rate, dropout rate and scale
//     weighting (TrainConfig.ScaleWeighting) in the grid trains a single
//     network of the first architecture with early stopping on the
//     held-out rows' NLL. Successive halving prunes the grid: all
//     candidates train for a ninth of the epoch budget, the best third
//     go on to a third of it, and the best third of those to all of it,
//     each keeping the parameters of its best epoch. Candidates run in
//     parallel on Workers goroutines. Each further architecture (a
//     second hidden layer by default) then trains with the winner's
//     settings, and replaces it only if its held-out NLL is lower by more
//     than one standard error (autofit_architecture.go).
//  3. The winner is kept as it is, not refit on all rows: its
//     early-stopping epoch was measured on rows it never trained on,
//     which a refit would lose. For an ensemble (cfg.Members > 1, and
//     AutoMembers when 0) the search still runs single networks, and the
//     winner's settings then train the ensemble, with early stopping on
//     the held-out rows' NLL of its mixture: as Deep Ensembles do, the
//     members share the hyperparameters of a good single network, and
//     the search costs no more than for one.
//  4. Its variance is calibrated (Model.Calibrate's two factors) on rows
//     that neither trained nor chose it: for data of fewer than 5000
//     rows, cross-fitted predictions (five models of the chosen settings,
//     epoch count and members each train on four fifths of all the rows
//     and predict the fifth); for larger data, a half of the held-out
//     rows that the search never saw (from 500 held-out rows on). The held-out
//     rows that chose the winner would give an optimistic calibration.
//     The same predictions give AutoResult's CVNLL and CVCoverage95,
//     honest estimates of what new data will see, and the model's
//     conformal calibration (Model.ConformalInterval).
//
// Only the data passed in is used: hold the test data back from it.
// AutoFit reads x and y in place, from every run, and copies no rows. The
// grid's dimensions replace cfg's Dropout and Hidden and tc's
// LearningRate and ScaleWeighting (AutoOptions says how cfg.Hidden and a
// nonzero tc.ScaleWeighting fix theirs); the rest of cfg and tc (Loss,
// Optimizer, BatchSize, the seeds) apply to every candidate, and a zero
// BatchSize grows with the data, so that an epoch takes at most 1024
// steps. The result is bit-identical
// for a given input and seeds, whatever Workers is. Errors are those of
// New, NewTrainer and Fit; ErrConfig for invalid options, naming the
// field, ErrBatch for data too small to hold out a validation set or a
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
	hyper
	run  *fitRun[T]
	err  error // why it stopped for good, if it failed
	done bool  // early stopping ended it
}

// hyper is one point of AutoFit's grid.
type hyper struct {
	lr, dropout, weighting float64
	hidden                 []int
}

// String names the point for errors and summaries.
func (h hyper) String() string {
	return fmt.Sprintf("learning rate %g, dropout %g, hidden %v, scale weighting %g", h.lr, h.dropout, h.hidden, h.weighting)
}

// configs returns cfg and tc with h's values, and members networks.
func (h hyper) configs(cfg Config, tc TrainConfig, members int) (Config, TrainConfig) {
	cfg.Dropout, cfg.Hidden, cfg.Members = h.dropout, h.hidden, members
	tc.LearningRate, tc.ScaleWeighting = h.lr, h.weighting
	return cfg, tc
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
	ctx                      context.Context // every run checks it before each epoch
	cfg                      Config
	tc                       TrainConfig
	opt                      AutoOptions
	data, trainRows, valRows rowSet[T] // every row, and the two sides of the hold-out
	// calRows are held-out rows kept from selection and early stopping to
	// calibrate on, in place of the cross-fit, when the data are large
	// enough (minCalibrationRows); none otherwise.
	calRows             rowSet[T]
	quantum             float64 // the targets' lattice spacing (targetLattice), or 0
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
	if opt.Architectures == nil {
		opt.Architectures = defaultArchitectures
		if len(cfg.Hidden) > 0 {
			opt.Architectures = [][]int{cfg.Hidden}
		}
	}
	if opt.ScaleWeightings == nil {
		opt.ScaleWeightings = defaultScaleWeightings
		if tc.ScaleWeighting != 0 {
			opt.ScaleWeightings = []float64{tc.ScaleWeighting}
		}
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
	if cfg.Members == 0 {
		cfg.Members = AutoMembers
	}
	s := &search[T]{ctx: ctx, cfg: cfg.withDefaults(), tc: tc, opt: opt}
	for _, lr := range opt.LearningRates {
		for _, p := range opt.Dropouts {
			if s.cfg.Loss == LossMLBayes && p == 0 {
				continue
			}
			for _, b := range opt.ScaleWeightings {
				s.cands = append(s.cands, &candidate[T]{hyper: hyper{lr: lr, dropout: p, hidden: opt.Architectures[0], weighting: b}})
			}
		}
	}
	if len(s.cands) == 0 {
		return nil, fmt.Errorf("%w: AutoOptions: LossMLBayes needs a dropout rate above 0 in Dropouts", ErrConfig)
	}
	// Every candidate's Config and TrainConfig must be valid, and so
	// must every architecture.
	for _, c := range s.cands {
		cfg, tc := c.configs(s.cfg, s.tc, s.cfg.Members)
		if err := cfg.validate(); err != nil {
			return nil, err
		}
		for _, hidden := range opt.Architectures[1:] {
			cfg.Hidden = hidden
			if err := cfg.validate(); err != nil {
				return nil, err
			}
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
	if err = checkRows(n); err != nil {
		return nil, err
	}
	s.data = allRows(x, y, s.cfg.Inputs)
	if s.trainRows, s.valRows, err = holdOut(s.data, share, opt.Seed); err != nil {
		return nil, err
	}
	if v := s.valRows.len(); v >= 2*minCalibrationRows {
		rows := s.valRows.rows
		s.valRows, s.calRows = s.data.subset(rows[:v/2]), s.data.subset(rows[v/2:])
	}
	s.quantum = targetLattice(y)
	if s.tc.BatchSize == 0 {
		s.tc.BatchSize = autoBatch(s.trainRows.len())
	}
	s.maxEpochs = opt.MaxEpochs
	if s.maxEpochs == 0 {
		s.maxEpochs = autoEpochs(s.trainRows.len(), s.tc.BatchSize)
	}
	s.patience = opt.Patience
	if s.patience == 0 {
		s.patience = max(minPatience, s.maxEpochs/10)
	}
	// One standardization for all candidates, learned from the training
	// rows as Fit would, so that their held-out NLLs are comparable.
	if s.xMean, s.xScale, s.yMean, s.yScale, err = learnStandardization(s.trainRows); err != nil {
		return nil, err
	}
	return s, nil
}

// searchRounds returns the rounds of the search that Progress counts: the
// rounds of successive halving, and the architecture stage if there is
// one.
func (s *search[T]) searchRounds() int {
	if len(s.opt.Architectures) > 1 {
		return searchHalvings + 1
	}
	return searchHalvings
}

// runOptions returns the settings of every run of the search: each
// candidate's, the ensemble's and the folds' shuffles are drawn from the
// same seed, the targets are dequantized on a lattice, the best epoch is
// tracked, and the parameters are averaged (paramAverage).
func (s *search[T]) runOptions() runOptions {
	return runOptions{seed: s.opt.Seed ^ searchStream, quantum: s.quantum, track: true, average: true}
}

// autoBatch returns AutoFit's minibatch size for n training rows when
// TrainConfig.BatchSize is 0: the Trainer's default, with which the
// recipe was designed on data sets of up to ten thousand rows, until an
// epoch would take more than maxAutoSteps steps; beyond, the size that
// makes it maxAutoSteps. A step's cost has a part per row and a part per
// step; on a million rows at 32 a step, the part per step would be paid
// 30,000 times an epoch, and the matrix products of larger minibatches
// use the kernels better.
func autoBatch(n int) int {
	return max(defaultBatchSize, (n+maxAutoSteps-1)/maxAutoSteps)
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
	budgets := [searchHalvings]int{max(1, s.maxEpochs/(searchEta*searchEta)), max(1, s.maxEpochs/searchEta), s.maxEpochs}
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
			s.opt.Progress(AutoRound{Phase: PhaseSearch, Done: round + 1, Total: s.searchRounds(), Round: round + 1, Epochs: budget, Candidates: len(alive), BestValNLL: best})
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
				return nil, AutoResult{}, fmt.Errorf("%v: %w", c.hyper, c.err)
			}
		}
		return nil, AutoResult{}, fmt.Errorf("%w: no candidate could score the held-out rows", ErrNonFinite)
	}
	win, err := s.architectures(win)
	if err != nil {
		return nil, AutoResult{}, err
	}
	win.run.finish()
	final := win.run
	var preds []Prediction
	var y []T
	switch {
	case s.calRows.len() > 0:
		if s.cfg.Members > 1 {
			if final, err = s.ensemble(win, nil); err != nil {
				return nil, AutoResult{}, fmt.Errorf("the ensemble of %v: %w", win.hyper, err)
			}
		}
		// A calibration row the model cannot predict leaves the
		// calibration to the others, as a fold that failed does.
		if preds, err = final.t.m.predictSet(s.calRows); err == nil {
			y = s.calRows.targets()
		}
	case s.cfg.Members > 1:
		f := s.newFolds(win)
		if final, err = s.ensemble(win, f); err != nil {
			return nil, AutoResult{}, fmt.Errorf("the ensemble of %v: %w", win.hyper, err)
		}
		preds, y = f.predictions(final.stats.BestEpoch)
	default:
		preds, y = s.crossFit(win, final.stats.BestEpoch)
	}
	if err := s.ctx.Err(); err != nil { // the folds stopped short
		return nil, AutoResult{}, err
	}
	m := final.t.m
	m.extendRanges(s.data.x)
	res := AutoResult{
		LearningRate: win.lr, Dropout: win.dropout, Hidden: slices.Clone(win.hidden), ScaleWeighting: win.weighting,
		Epoch: final.stats.BestEpoch, EpochsRun: final.stats.Epoch,
		TrainRows: s.trainRows.len(), ValRows: s.valRows.len() + s.calRows.len(), Candidates: len(s.cands) + len(s.opt.Architectures) - 1,
		VarScale: 1, CorrectedScale: 1, CVNLL: math.NaN(), CVCoverage95: math.NaN(), Quantum: s.quantum,
	}
	m.ext.transform = s.opt.TargetTransform
	if len(y) > 0 {
		m.varScale, m.corrScale = fitScales(preds, s.dequantized(y), m.cfg.Loss.gaussian())
		m.ext.conformal = newConformalScores(preds, y)
		res.VarScale, res.CorrectedScale = m.varScale, m.corrScale
		res.CVNLLs, res.CVErrors, res.CVCoverage95 = heldOutScores(m, preds, y)
		res.CVRows = len(y)
		var sum float64
		for _, v := range res.CVNLLs {
			sum += v
		}
		res.CVNLL = sum / float64(len(y))
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}

// ensemble trains the ensemble of Config.Members networks with the
// winner's hyperparameters on the training rows, with early stopping on
// the held-out rows as in the search, and returns its run, the best
// epoch's parameters restored. With folds (nil when a calibration split
// replaces them), it trains the calibration folds to that epoch too.
//
// The ensemble trains on one goroutine while the folds train behind it on
// the other Workers − 1, and on all of them once it has stopped: its best
// epoch, which the folds must reach, is known only then, and waiting for
// it would leave all but one core idle while it trains.
func (s *search[T]) ensemble(win *candidate[T], f *folds[T]) (*fitRun[T], error) {
	t, err := s.trainer(win, s.cfg.Members)
	if err != nil {
		return nil, err
	}
	r, err := newFitRun(t, s.trainRows, s.valRows, s.runOptions())
	if err != nil {
		return nil, err
	}
	c := &candidate[T]{hyper: win.hyper, run: r}
	var report func(AutoRound) // set by relay, before train runs
	epochs := func() {
		for e := r.stats.Epoch + 1; e <= s.maxEpochs && c.err == nil && !c.done; e = r.stats.Epoch + 1 {
			if s.advance(c, e); c.err == nil {
				if f != nil {
					f.reached(e, r.stats.BestEpoch == e)
				}
				report(AutoRound{Phase: PhaseEnsemble, Done: r.stats.Epoch, Total: s.maxEpochs, Epochs: r.stats.Epoch, BestValNLL: r.stats.BestValNLL})
			}
		}
	}
	s.relay(func(rep func(AutoRound)) {
		report = rep
		if f == nil {
			epochs()
			return
		}
		f.report = rep
		parallel(s.opt.Workers, s.opt.Workers, func(i int) {
			if i == 0 {
				epochs()
				if c.err != nil {
					f.finish(0) // no fold is needed
				} else {
					f.finish(r.stats.BestEpoch)
				}
			}
			f.train()
		})
	})
	if c.err != nil {
		return nil, c.err
	}
	if r.stats.BestEpoch == 0 {
		return nil, fmt.Errorf("%w: the ensemble could not score the held-out rows", ErrNonFinite)
	}
	r.finish()
	return r, nil
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
	c.run, err = newFitRun(t, s.trainRows, s.valRows, s.runOptions())
	return err
}

// trainer returns a new model of c's hyperparameters and members
// networks, with the shared standardization, and its trainer.
func (s *search[T]) trainer(c *candidate[T], members int) (*Trainer[T], error) {
	cfg, tc := c.configs(s.cfg, s.tc, members)
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

// predictSet returns the predictions of the rows of set, of the target the
// network models (TargetTransform), gathered workspaceRows at a time.
func (m *Model[T]) predictSet(set rowSet[T]) ([]Prediction, error) {
	d, n := m.cfg.Inputs, set.len()
	preds := make([]Prediction, n)
	ws := m.NewWorkspace()
	xb, yb := make([]T, workspaceRows*d), make([]T, workspaceRows)
	for s := 0; s < n; s += workspaceRows {
		k := min(workspaceRows, n-s)
		set.gather(s, k, xb, yb)
		if err := m.predictModeled(ws, xb[:k*d], preds[s:s+k]); err != nil {
			return nil, err
		}
	}
	return preds, nil
}

// heldOutScores returns, for each prediction of preds in the modeled
// units and its target of y, the negative log predictive density and the
// error y − Mean in original units (through m's target transform), and
// the share of the targets inside their central 95% calibrated interval.
func heldOutScores[T Float](m *Model[T], preds []Prediction, y []T) (nlls, errs []float64, cover95 float64) {
	var in int
	tr := m.ext.transform
	nlls, errs = make([]float64, len(y)), make([]float64, len(y))
	for i, p := range preds {
		v := float64(y[i])
		if tr != TransformNone {
			m.transformBack(&p, tr)
			v = tr.invert(v)
		}
		nlls[i], errs[i] = -p.LogPDF(v), v-p.Mean
		lo, hi, _ := p.CalibratedInterval(0.95)
		if lo <= v && v <= hi {
			in++
		}
	}
	return nlls, errs, float64(in) / float64(len(y))
}

// dequantized returns the targets y plus the uniform noise on
// (−quantum/2, quantum/2) that training added to them (fitRun), drawn
// from the search's seed, or y itself for targets not on a lattice.
func (s *search[T]) dequantized(y []T) []T {
	if s.quantum == 0 {
		return y
	}
	r := rand.New(rand.NewPCG(s.opt.Seed, dequantizeStream))
	out := make([]T, len(y))
	for i, v := range y {
		out[i] = T(float64(v) + s.quantum*(r.Float64()-0.5))
	}
	return out
}
