package gcp

// How AutoFit searches: the grid's candidates and their successive
// halving, the architecture stage, the ensemble's run and the calibration
// folds that train behind it, and the held-out scores that decide each
// step. autofit.go holds what a user sets and reads.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/gcpnet/gcp/internal/par"
)

// candidate is one point of the grid and its training run.
type candidate[T Float] struct {
	hyper
	run  *fitRun[T]
	err  error // why it stopped for good, if it failed
	done bool  // early stopping ended it
	// curve is its learning curve, its best held-out NLL after each
	// epoch (curve[e-1] after epoch e; +Inf until it scores).
	curve []float64
	// lead, if set, is the learning curve of a finished run that this
	// one must keep up with (behind says how).
	lead []float64
}

// hyper is one point of AutoFit's grid.
type hyper struct {
	lr, dropout, weighting float64
	hidden                 []int
}

// String names the point for errors and summaries.
func (h hyper) String() string {
	return fmt.Sprintf("learning rate %.3g, dropout %g, hidden %v, scale weighting %g", h.lr, h.dropout, h.hidden, h.weighting)
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
	calRows rowSet[T]
	// quanta holds each target's lattice spacing (targetLattices), nil
	// when no target lies on a lattice.
	quanta        []float64
	xMean, xScale []float64
	yMean, yScale float64
	// inputBound is the bound on the standardized inputs that the
	// training rows call for, 0 for none.
	inputBound float64
	// targets is the standardization of each target of a model of
	// several targets (Config.Targets ≥ 2), nil for one.
	targets             *targetMaps
	cands               []*candidate[T]
	maxEpochs, patience int
	// transform is that of the targets, z = g(y), which the model keeps;
	// for several targets, transforms is each one's.
	transform  TargetTransform
	transforms [maxTargets]TargetTransform
	// slots, when set, are shared with the searches of the other target
	// transforms, which train at the same time: every candidate's round
	// and every fold epoch holds one, so that all the searches together
	// train no more runs at once than Workers.
	slots par.Slots
	// runnersUp are the search's other finished candidates, best first
	// (choose): the settings the ensemble falls back on where the
	// winner's diverges (ensembleFallingBack).
	runnersUp []*candidate[T]
	// crossFitted holds crossFit's predictions for win, once made, and
	// the rows they predict.
	crossFitted struct {
		win   *candidate[T]
		preds []Prediction
		rows  []int32
		y     []T
	}
	// calibration are the rows that calibrated the model finish or
	// finishMulti returned, and their scores: what a Gaussian copula over
	// one-target models is fitted to, and the joint law it is compared
	// with scored on.
	calibration calibrationRows[T]
}

// calibrationRows are the rows that calibrated a model (cross-fitted, or
// the calibration half of the held-out rows) and their scores under it,
// as it was calibrated on them: per row, the negative log density in
// original units (the joint one for several targets), per target and row
// the squared error of the calibrated mean in original units, and, for
// one target, the prediction, calibrated as the model is, the target and
// the target dequantized as the calibration was fitted to it (z itself
// where the target is on no lattice), all in the units the network
// models.
type calibrationRows[T Float] struct {
	rows   []int32 // the rows' indices in the data
	nlls   []float64
	sqErrs [][]float64
	preds  []Prediction
	z, dq  []T
}

// newSearch validates the options, fills in their defaults, holds out
// the validation rows and learns the standardization; ctx stops its runs.
func newSearch[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*search[T], error) {
	opt = opt.withDefaults(cfg, tc)
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if cfg.Members == 0 {
		cfg.Members = AutoMembers
	}
	s := &search[T]{ctx: ctx, cfg: cfg.withDefaults(), tc: tc, opt: opt}
	if err := s.grid(); err != nil {
		return nil, err
	}
	if err := s.holdOut(x, y); err != nil {
		return nil, err
	}
	s.quanta = targetLattices(y, s.cfg.targets())
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
	if s.cfg.targets() > 1 {
		var err error
		s.xMean, s.xScale, s.inputBound, s.targets, err = learnMultiStandardization(s.trainRows)
		s.yMean, s.yScale = 0, 1
		return s, err
	}
	var err error
	s.xMean, s.xScale, s.yMean, s.yScale, s.inputBound, err = learnStandardization(s.trainRows)
	return s, err
}

// withDefaults returns o with the defaults of its zero fields filled in
// (AutoOptions says which): the grid's, where cfg.Hidden fixes the
// architecture and a nonzero tc.ScaleWeighting the scale weighting, the
// validation share and the workers. MaxEpochs and Patience depend on the
// data and are the search's to fill in.
func (o AutoOptions) withDefaults(cfg Config, tc TrainConfig) AutoOptions {
	if o.LearningRates == nil {
		o.LearningRates = defaultLearningRates
	}
	if o.Dropouts == nil {
		o.Dropouts = defaultDropouts
	}
	if o.Architectures == nil {
		o.Architectures = defaultArchitectures
		if len(cfg.Hidden) > 0 {
			o.Architectures = [][]int{cfg.Hidden}
		}
	}
	if o.ScaleWeightings == nil {
		o.ScaleWeightings = defaultScaleWeightings
		if tc.ScaleWeighting != 0 || cfg.Targets > 1 { // several targets have no scale weighting
			o.ScaleWeightings = []float64{tc.ScaleWeighting}
		}
	}
	if o.ValidationShare == 0 {
		o.ValidationShare = 0.1
	}
	if o.Workers == 0 {
		o.Workers = min(runtime.GOMAXPROCS(0), maxWorkers)
	}
	return o
}

// grid makes the candidates of the search, every learning rate with every
// dropout rate (above 0 for LossMLBayes) and scale weighting, of the
// first architecture, and checks that every candidate's Config and
// TrainConfig are valid with every architecture.
func (s *search[T]) grid() error {
	opt := s.opt
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
		return fmt.Errorf("%w: AutoOptions: LossMLBayes needs a dropout rate above 0 in Dropouts", ErrConfig)
	}
	for _, c := range s.cands {
		cfg, tc := c.configs(s.cfg, s.tc, s.cfg.Members)
		for _, hidden := range opt.Architectures {
			cfg.Hidden = hidden
			if err := cfg.validate(); err != nil {
				return err
			}
		}
		if err := tc.withDefaults().validate(); err != nil {
			return err
		}
		if err := validateFor[T](tc.withDefaults()); err != nil {
			return err
		}
	}
	return nil
}

// holdOut checks the rows x and y, holds out the validation share of
// them, drawn with the search's seed, and from 2·minCalibrationRows
// held-out rows on, keeps half of those to calibrate on (calRows).
func (s *search[T]) holdOut(x, y []T) error {
	ty := s.cfg.targets()
	n := len(y) / ty
	if len(x) != n*s.cfg.Inputs || len(y) != n*ty {
		return ErrShape
	}
	if !kernelsFor[T]().allFinite(x) {
		return ErrNonFinite
	}
	if err := checkTargetCells(y, ty); err != nil {
		return err
	}
	minVal, minTrain := heldOutRows(n)
	share := max(s.opt.ValidationShare, float64(minVal)/float64(n))
	if n < MinAutoFitRows {
		return fmt.Errorf("%w: %d, want at least %d: AutoFit holds out half the rows to choose and calibrate the model on and trains on the other half", ErrTooFewRows, n, MinAutoFitRows)
	}
	if k := int(math.Round(share * float64(n))); n-k < minTrain {
		return fmt.Errorf("%w: AutoOptions.ValidationShare = %v of %d rows leaves %d to train on, want at least %d", ErrBatch, s.opt.ValidationShare, n, n-k, minTrain)
	}
	if err := checkRows(n); err != nil {
		return err
	}
	s.data = allRows(x, y, s.cfg.Inputs)
	if ty > 1 {
		s.data.ty = ty
	}
	var err error
	if s.trainRows, s.valRows, err = holdOut(s.data, share, s.opt.Seed); err != nil {
		return err
	}
	if v := s.valRows.len(); v >= 2*minCalibrationRows {
		rows := s.valRows.rows
		s.valRows, s.calRows = s.data.subset(rows[:v/2]), s.data.subset(rows[v/2:])
	}
	return nil
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
// tracked, and the parameters are averaged (paramAverage); with
// meanHeads, the runs that make or follow an ensemble keep its mean heads'
// own epoch too.
func (s *search[T]) runOptions(meanHeads bool) runOptions {
	return runOptions{seed: s.opt.Seed ^ searchStream, quanta: s.quanta, track: true, average: true, meanHeads: meanHeads}
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

// choose performs the successive-halving rounds and the architecture
// stage and returns the winner, a single network at its best epoch.
func (s *search[T]) choose() (*candidate[T], error) {
	alive := slices.Clone(s.cands)
	budgets := [searchHalvings]int{max(1, s.maxEpochs/(searchEta*searchEta)), max(1, s.maxEpochs/searchEta), s.maxEpochs}
	for round, budget := range budgets {
		s.train(alive, budget)
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		best := math.Inf(1)
		for _, c := range alive {
			best = min(best, c.score())
		}
		if s.opt.Progress != nil {
			s.opt.Progress(AutoProgress{Phase: PhaseSearch, Done: round + 1, Total: s.searchRounds(), Round: round + 1, Epochs: budget, Candidates: len(alive), BestValNLL: best})
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
				return nil, fmt.Errorf("%v: %w", c.hyper, c.err)
			}
		}
		return nil, fmt.Errorf("%w: no candidate could score the held-out rows", ErrNonFinite)
	}
	grid := win
	win, err := s.architectures(win)
	if err != nil {
		return nil, err
	}
	s.runnersUp = runnersUp(grid, win, alive)
	win.run.finish()
	return win, nil
}

// divergedSettings names the settings hs (AutoResult.Diverged), nil for
// none.
func divergedSettings(hs []hyper) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	return out
}

// runnersUp returns the candidates of the search's last round that
// scored, the winner win left out, best first: the grid's winner grid
// first where the architecture stage replaced it, then the others by
// held-out NLL (ties to the earlier in grid order).
func runnersUp[T Float](grid, win *candidate[T], last []*candidate[T]) []*candidate[T] {
	var out []*candidate[T]
	for _, c := range last {
		if c != grid && !math.IsInf(c.score(), 1) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *candidate[T]) int { return cmp.Compare(a.score(), b.score()) })
	if grid != win {
		out = append([]*candidate[T]{grid}, out...)
	}
	return out
}

// finish trains the model of win's settings (the ensemble, for more than
// one member), calibrates it and returns it, with what AutoResult says of
// it.
func (s *search[T]) finish(win *candidate[T]) (*Model[T], AutoResult, error) {
	used, diverged, final, preds, rows, err := finishRun(s, win, (*Model[T]).predictSet, func() ([]Prediction, []int32) {
		s.crossFit(win)
		return s.crossFitted.preds, s.crossFitted.rows
	})
	if err != nil {
		return nil, AutoResult{}, err
	}
	y := s.targetsOf(rows)
	m := final.t.m
	m.extendRanges(s.data.x)
	res := s.result(used, final, diverged)
	m.ext.transform = s.transform
	if len(y) > 0 {
		sc := s.calibrateScores(m, preds, y)
		m.varScale, m.corrScale = sc.varScale, sc.corrScale
		m.ext.conformal = newConformalScores(preds, y)
		res.VarScale, res.CorrectedScale = m.varScale, m.corrScale
		res.CVNLL, res.CVCoverage95, res.CVRows = sc.nll, sc.cover95, len(y)
		s.calibration = calibrationRows[T]{rows: rows, nlls: sc.nlls, sqErrs: [][]float64{sc.sqErrs}, preds: preds, z: y, dq: s.dequantized(y)}
		if s.calRows.len() == 0 {
			res.CVFolds = calibrationFolds
		}
	}
	return m, res, nil
}

// finishRun trains the model of win's settings (the ensemble, for more
// than one member) and returns its run and the predictions by predict
// (predictSet, or predictMultiSet for several targets) of the rows that
// calibrate it, with the rows' indices in the data: the calibration half
// of the held-out rows, or the pooled rows by the cross-fitted folds that
// follow the ensemble, or for a single network single's. A calibration
// row the model cannot predict leaves the calibration to the others, as
// a fold that failed does. The error is the ensemble's, or the search's
// done context (the folds stopped short).
func finishRun[T Float, P any](s *search[T], win *candidate[T], predict func(*Model[T], rowSet[T]) ([]P, error), single func() ([]P, []int32)) (used *candidate[T], diverged []hyper, final *fitRun[T], preds []P, rows []int32, err error) {
	used, final = win, win.run
	if s.cfg.Members > 1 {
		var f *folds[T]
		if used, diverged, final, f, err = s.ensembleFallingBack(win); err != nil {
			return nil, nil, nil, nil, nil, fmt.Errorf("the ensemble of %v: %w", used.hyper, err)
		}
		if f != nil {
			preds, rows = foldPredictions(f, final.stats.BestEpoch, final.meanEpoch, predict)
		}
	}
	switch {
	case s.calRows.len() > 0:
		if preds, err = predict(final.t.m, s.calRows); err == nil {
			rows = s.calRows.indices()
		}
	case s.cfg.Members <= 1:
		preds, rows = single()
	}
	return used, diverged, final, preds, rows, s.ctx.Err()
}

// ensembleFallingBack trains the ensemble of win's settings (ensemble),
// with the calibration folds where no calibration split replaces them,
// and, while a step of it would make the model non-finite (ErrDiverged),
// the ensemble of each runner-up's settings in turn (runnersUp), then
// of win's at slower learning rates (slowerRates). The search's one
// network of the winning settings survived its initial weights, and five
// networks of other weights need not: on one of the oes97 data set's
// splits (300 rows, 263 features of counts, 16 targets), before inputs
// were bounded (boundedInput), some standardized into the thousands, a
// fresh member's joint density of a row underflowed to zero, and the
// ensemble's first step was refused at every learning rate of the grid.
// It returns the candidate whose
// settings trained the ensemble, the settings that diverged before it,
// the ensemble's run and its folds (nil with a calibration split); the
// error is the last attempt's. Where win's ensemble trains, nothing
// else is tried, so a model that trained before is the same.
func (s *search[T]) ensembleFallingBack(win *candidate[T]) (used *candidate[T], diverged []hyper, r *fitRun[T], f *folds[T], err error) {
	for _, used = range append(append([]*candidate[T]{win}, s.runnersUp...), slowerRates(win)...) {
		f = nil
		if s.calRows.len() == 0 {
			f = s.newFolds(used, s.cfg.Members)
		}
		if r, err = s.ensemble(used, f); !errors.Is(err, ErrDiverged) {
			break
		}
		diverged = append(diverged, used.hyper)
	}
	return used, diverged, r, f, err
}

// slowerFallbacks is how many slower learning rates ensembleFallingBack
// tries with the winner's other settings, each a third of the one
// before: 3⁻¹, 3⁻² and 3⁻³ of the winner's, which reach below the
// grid's smallest rate from any of its rates.
const slowerFallbacks = 3

// slowerRates returns candidates of win's settings at a third, a ninth
// and a twenty-seventh of its learning rate (slowerFallbacks), for
// ensembleFallingBack: a smaller step is the usual cure for a step that
// would make the model non-finite, the one gcp train's error suggests.
func slowerRates[T Float](win *candidate[T]) []*candidate[T] {
	out := make([]*candidate[T], slowerFallbacks)
	lr := win.lr
	for i := range out {
		lr /= 3
		h := win.hyper
		h.lr = lr
		out[i] = &candidate[T]{hyper: h}
	}
	return out
}

// result returns what AutoResult says of the model of win's settings
// that final trained, before its calibration.
func (s *search[T]) result(win *candidate[T], final *fitRun[T], diverged []hyper) AutoResult {
	res := AutoResult{
		Diverged:     divergedSettings(diverged),
		LearningRate: win.lr, Dropout: win.dropout, Hidden: slices.Clone(win.hidden), ScaleWeighting: win.weighting,
		Epoch: final.stats.BestEpoch, EpochsRun: final.stats.Epoch, MeanEpoch: final.meanEpoch,
		TrainRows: s.trainRows.len(), ValRows: s.valRows.len() + s.calRows.len(), Candidates: len(s.cands) + len(s.opt.Architectures) - 1,
		VarScale: 1, CorrectedScale: 1, CVNLL: math.NaN(), CVCoverage95: math.NaN(),
		SmallData: smallData(s.data.len()),
	}
	switch {
	case s.quanta == nil:
	case s.targets == nil:
		res.Quantum = s.quanta[0]
	default:
		res.Quanta = slices.Clone(s.quanta)
	}
	return res
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
// it would leave all but one core idle while it trains. Without folds,
// its members train as networks of their own, side by side on the
// Workers, and the ensemble they make is scored after every epoch
// (splitRuns says what that changes).
func (s *search[T]) ensemble(win *candidate[T], f *folds[T]) (*fitRun[T], error) {
	t, err := s.trainer(win, s.cfg.Members)
	if err != nil {
		return nil, err
	}
	o := s.runOptions(true)
	o.average = o.average && f != nil // the members average their own
	r, err := newFitRun(t, s.trainRows, s.valRows, o)
	if err != nil {
		return nil, err
	}
	// The members of a model of several targets train together: their
	// output layers are laid out by kind of head (multiLayout), which
	// memberSpans does not map.
	if f == nil && s.cfg.Targets <= 1 {
		member := func() (*Trainer[T], error) { return s.trainer(win, 1) }
		mo := s.runOptions(false)
		mo.track = false // r tracks the ensemble's best epoch
		apart, err := newSplitRuns(t.m, member, s.trainRows, mo, s.tc.Seed, s.opt.Workers, s.maxEpochs)
		if err != nil {
			return nil, err
		}
		defer apart.stop()
		r.apart = apart.epoch
	}
	c := &candidate[T]{hyper: win.hyper, run: r}
	var report func(AutoProgress) // set by relay, before train runs
	epochs := func() {
		for e := r.stats.Epoch + 1; e <= s.maxEpochs && c.err == nil && !c.done; e = r.stats.Epoch + 1 {
			if s.advance(c, e); c.err == nil {
				if f != nil {
					f.reached(e, r.stats.BestEpoch == e, r.meanEpoch == e)
				}
				report(AutoProgress{Phase: PhaseEnsemble, Done: r.stats.Epoch, Total: s.maxEpochs, Epochs: r.stats.Epoch, BestValNLL: r.stats.BestValNLL})
			}
		}
	}
	s.relay(func(rep func(AutoProgress)) {
		report = rep
		if f == nil {
			epochs()
			return
		}
		f.report = rep
		par.Each(s.opt.Workers, s.opt.Workers, func(i int) {
			if i == 0 {
				epochs()
				if c.err != nil {
					f.finish(0, 0) // no fold is needed
				} else {
					f.finish(r.stats.BestEpoch, r.meanEpoch)
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

// train advances every candidate of cands that is still running to epoch
// budget, on up to Workers goroutines, each holding one of the shared
// slots while it trains. Each candidate's run depends only on its own
// state, so the order in which workers take them changes nothing.
func (s *search[T]) train(cands []*candidate[T], budget int) {
	par.Each(len(cands), s.opt.Workers, func(i int) { s.slots.Run(func() { s.advance(cands[i], budget) }) })
}

// advance trains c until epoch budget, early stopping (patience, or
// falling clearly behind its lead: behind), an error or the search's
// context is done (c.err is then its error).
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
		c.curve = append(c.curve, c.score())
		if r.stats.Epoch-s.lastGain(r) >= s.patience || c.lead != nil && behind(c.lead, c.score(), r.stats.Epoch, r.stats.BestEpoch, s.patience) {
			c.done = true
			return
		}
	}
}

// lastGain returns the last epoch of r that early stopping counts its
// patience from: its best NLL's, or for several targets the later of that
// and its mean heads' (runOptions.meanHeads; multiValidationScores). With
// several targets the joint NLL stops improving when the noisiest
// targets' heads begin to fit their training rows, often long before a
// target that the features nearly determine has its best mean: on the
// slump data's inner splits the compressive strength's mean went on
// improving for over a thousand epochs after the joint NLL's best.
// Training on while the means improve costs epochs, not accuracy, since
// the model keeps each head group's own best epoch.
func (s *search[T]) lastGain(r *fitRun[T]) int {
	if s.targets == nil {
		return r.stats.BestEpoch
	}
	return max(r.stats.BestEpoch, r.meanEpoch)
}

// start builds c's model and trainer, with the shared standardization.
func (s *search[T]) start(c *candidate[T]) error {
	t, err := s.trainer(c, 1)
	if err != nil {
		return err
	}
	// The model's standardization is set: newFitRun learns none and
	// cannot fail.
	c.run, err = newFitRun(t, s.trainRows, s.valRows, s.runOptions(false))
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
	m.ext.inputBound = s.inputBound
	if s.targets != nil {
		m.ext.targets = s.targets // replaced, never changed: the runs share it
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
			transformBack(&p, tr)
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

// calibrated are the scores of predictions of held-out rows, calibrated
// by the factors fitted to them: per row, the negative log predictive
// density and the squared error in original units, their means (the
// root of the squared errors'), and the share of the targets inside
// their central 95% calibrated interval.
type calibrated struct {
	varScale, corrScale float64
	nlls, sqErrs        []float64
	nll, rmse, cover95  float64
}

// calibrateScores fits the calibration factors (Model.Calibrate's) to
// preds, the predictions of m's kind in the modeled units for the targets
// y (dequantized as training was), calibrates preds with them in place,
// widened on small data as the returned model is (widenSmall), and scores
// them in original units through m's target transform.
func (s *search[T]) calibrateScores(m *Model[T], preds []Prediction, y []T) calibrated {
	var c calibrated
	c.varScale, c.corrScale = fitScales(preds, s.dequantized(y), m.cfg.Loss.gaussian())
	c.varScale *= widenSmall(preds, s.data.len())
	var errs []float64
	c.nlls, errs, c.cover95 = heldOutScores(m, preds, y)
	c.sqErrs = make([]float64, len(errs))
	var sumNLL, sumSq float64
	for i, e := range errs {
		c.sqErrs[i] = e * e
		sumNLL += c.nlls[i]
		sumSq += e * e
	}
	c.nll, c.rmse = sumNLL/float64(len(y)), math.Sqrt(sumSq/float64(len(y)))
	return c
}

// dequantized returns the targets y (row-major, as the data hold them)
// plus the uniform noise on (−h/2, h/2) that training added to those on
// a lattice of spacing h (fitRun), drawn once from the search's seed, or
// y itself when no target is on a lattice.
func (s *search[T]) dequantized(y []T) []T {
	if s.quanta == nil {
		return y
	}
	out := slices.Clone(y)
	dequantize(out, s.quanta, rand.New(rand.NewPCG(s.opt.Seed, dequantizeStream)))
	return out
}

// The architecture stage of AutoFit: the grid is searched with the first,
// cheapest architecture, each further one trains once with the winner's
// other settings, and a costlier one is kept only when the held-out rows
// clearly favour it (the one-standard-error rule). docs/reproduction.md
// records the measurements behind this design.

// architectures trains, for every architecture after the first in
// AutoOptions.Architectures, one candidate with win's other settings, in
// parallel, and returns the candidate to keep: in order, each replaces
// the one kept so far when its held-out scores are clearly better
// (replaces). With one target, each follows win's learning curve and
// stops once it is clearly behind it (behind). It returns an error only
// for a done context.
func (s *search[T]) architectures(win *candidate[T]) (*candidate[T], error) {
	archs := s.opt.Architectures[1:]
	if len(archs) == 0 {
		return win, nil
	}
	cands := []*candidate[T]{win}
	// A model of several targets scores a joint NLL, a sum over its
	// targets, for which behindMargin was not measured: its heads train
	// to the patience's end.
	var lead []float64
	if s.targets == nil {
		lead = win.curve
	}
	for _, hidden := range archs {
		h := win.hyper
		h.hidden = hidden
		cands = append(cands, &candidate[T]{hyper: h, lead: lead})
	}
	s.train(cands[1:], s.maxEpochs)
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if s.opt.Progress != nil {
		best := math.Inf(1)
		for _, c := range cands {
			best = min(best, c.score())
		}
		n := s.searchRounds()
		s.opt.Progress(AutoProgress{Phase: PhaseSearch, Done: n, Total: n, Round: n, Epochs: s.maxEpochs, Candidates: len(archs), BestValNLL: best})
	}
	nlls, sqErrs := make([][]float64, len(cands)), make([][]float64, len(cands))
	for i, c := range cands {
		nlls[i], sqErrs[i] = s.rowScores(c)
	}
	keep := 0
	for i := 1; i < len(cands); i++ {
		if nlls[i] != nil && replaces(nlls[keep], sqErrs[keep], nlls[i], sqErrs[i]) {
			keep = i
		}
	}
	return cands[keep], nil
}

// rowScores returns the negative log predictive density and the squared
// error of each held-out row under c's best epoch, or nil if c failed or
// never scored. It leaves c's run as it was.
func (s *search[T]) rowScores(c *candidate[T]) (nlls, sqErrs []float64) {
	if math.IsInf(c.score(), 1) {
		return nil, nil
	}
	m := c.run.t.m
	kept := slices.Clone(m.params)
	defer copy(m.params, kept)
	copy(m.params, c.run.best)
	if s.targets != nil {
		return multiRowScores(m, s.valRows)
	}
	preds, err := m.predictSet(s.valRows)
	if err != nil {
		return nil, nil
	}
	nlls, sqErrs = make([]float64, len(preds)), make([]float64, len(preds))
	for i, p := range preds {
		y := float64(s.valRows.y[s.valRows.row(i)])
		nlls[i], sqErrs[i] = -p.LogPDF(y), (p.Mean-y)*(p.Mean-y)
	}
	return nlls, sqErrs
}

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
	slots  par.Slots       // the search's: each fold epoch holds one
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
	// best[e] and bestMean[e]: the ensemble scored a new best NLL, a new
	// best squared error, at epoch e.
	best, bestMean []bool
	// report, if set, is told of each fold epoch once the limit is final.
	report func(AutoProgress)
}

// newFolds deals the rows into folds and starts each fold's run, of
// members networks; a fold whose model cannot be built is left out.
func (s *search[T]) newFolds(win *candidate[T], members int) *folds[T] {
	pooled := s.data.subset(slices.Concat(s.trainRows.indices(), s.valRows.indices()))
	n := pooled.len()
	f := &folds[T]{
		ctx:    s.ctx,
		slots:  s.slots,
		pooled: pooled,
		runs:   make([]*fitRun[T], calibrationFolds), tests: make([]rowSet[T], calibrationFolds),
		busy: make([]bool, calibrationFolds), at: make([]int, calibrationFolds), best: []bool{false}, bestMean: []bool{false},
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
		t, err := s.trainer(win, members)
		if err != nil {
			continue
		}
		// Tracking only allocates the buffer train keeps parameters in:
		// without validation rows, epoch never writes it.
		// The folds of an ensemble follow its mean heads' epoch; a
		// single network's (crossFit) have none to follow.
		f.runs[k], _ = newFitRun(t, s.data.subset(train), rowSet[T]{}, s.runOptions(members > 1))
	}
	return f
}

// reached records that the ensemble finished epoch e, a new best NLL if
// best, a new best squared error if bestMean, and lets the folds train up
// to it.
func (f *folds[T]) reached(e int, best, bestMean bool) {
	f.mu.Lock()
	f.best, f.bestMean = append(f.best, best), append(f.bestMean, bestMean)
	f.limit = e
	f.mu.Unlock()
	f.wake.Broadcast()
}

// finish sets the epochs every fold must reach: the returned model's
// best, and the one of its mean heads (fitRun.finish). An epoch of 0 (a
// failed ensemble) stops the folds.
func (f *folds[T]) finish(epoch, meanEpoch int) {
	f.mu.Lock()
	f.limit, f.final = max(epoch, meanEpoch), true
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
		var err error
		f.slots.Run(func() { err = r.epoch() })
		f.mu.Lock()
		f.busy[k], f.at[k] = false, r.stats.Epoch
		switch e := f.at[k]; {
		case err != nil:
			f.runs[k] = nil
		default:
			if f.best[e] {
				r.keep(r.best)
				r.stats.BestEpoch = e
			}
			if f.bestMean[e] {
				r.keep(r.bestMean)
				r.meanEpoch = e
			}
		}
		if f.report != nil && f.final {
			f.report(f.progress())
		}
		f.wake.Broadcast()
	}
}

// progress reports the fold epochs trained towards the final limit, a
// failed fold's counted as done; f.mu must be held.
func (f *folds[T]) progress() AutoProgress {
	var done int
	for k, r := range f.runs {
		if r == nil {
			done += f.limit
		} else {
			done += min(f.at[k], f.limit)
		}
	}
	return AutoProgress{Phase: PhaseCalibration, Done: done, Total: len(f.runs) * f.limit}
}

// foldPredictions returns, for the pooled rows of f, each row's
// prediction by predict under its fold's model with the parameters it
// kept at epoch and the mean heads it kept at meanEpoch (none if 0), and
// the rows' indices in the data; the rows of a fold that failed are left
// out. predict is predictSet for one target, predictMultiSet for several.
func foldPredictions[T Float, P any](f *folds[T], epoch, meanEpoch int, predict func(*Model[T], rowSet[T]) ([]P, error)) (preds []P, rows []int32) {
	out := make([][]P, calibrationFolds)
	for k, r := range f.runs {
		if r != nil && r.stats.BestEpoch == epoch && r.meanEpoch == meanEpoch {
			r.finish()
			out[k], _ = predict(r.t.m, f.tests[k]) // nil on error: the fold is left out
		}
	}
	next := make([]int, calibrationFolds)
	for i, k := range f.fold {
		if out[k] != nil {
			preds, rows = append(preds, out[k][next[k]]), append(rows, f.pooled.rows[i])
			next[k]++
		}
	}
	return preds, rows
}

// crossFit returns the cross-fitted predictions of folds whose single
// networks of win's settings train for win's best epoch (at least one) on
// Workers goroutines: the calibration of a single network, whose epoch
// the search already found, and what the transform stage compares. The
// first call trains the folds; a later one returns the same predictions.
func (s *search[T]) crossFit(win *candidate[T]) (preds []Prediction, y []T) {
	if s.crossFitted.win == win {
		return s.crossFitted.preds, s.crossFitted.y
	}
	f, epochs := s.trainFolds(win)
	preds, rows := foldPredictions(f, epochs, 0, (*Model[T]).predictSet)
	y = s.targetsOf(rows)
	s.crossFitted.win, s.crossFitted.preds, s.crossFitted.rows, s.crossFitted.y = win, preds, rows, y
	return preds, y
}

// targetsOf returns the targets of the given rows of the data, none for
// no rows (where a rowSet's nil rows would be every row).
func (s *search[T]) targetsOf(rows []int32) []T {
	if len(rows) == 0 {
		return nil
	}
	return s.data.subset(rows).targets()
}

// trainFolds trains the folds of single networks of win's settings for
// win's best epoch (at least one) on Workers goroutines and returns them
// and that epoch, which their predictions keep.
func (s *search[T]) trainFolds(win *candidate[T]) (*folds[T], int) {
	epochs := max(1, win.run.stats.BestEpoch)
	f := s.newFolds(win, 1)
	f.best, f.bestMean = make([]bool, epochs+1), make([]bool, epochs+1)
	f.best[epochs] = true
	f.finish(epochs, 0)
	s.relay(func(report func(AutoProgress)) {
		f.report = report
		par.Each(min(s.opt.Workers, calibrationFolds), s.opt.Workers, func(int) { f.train() })
	})
	return f, epochs
}

// relay runs work on another goroutine and calls Progress, if set, on
// this one with every round work reports, in the order reported: the
// calibration folds and the ensemble train on the workers' goroutines,
// and Progress is called from the goroutine that called AutoFit, as
// AutoOptions says.
func (s *search[T]) relay(work func(report func(AutoProgress))) {
	if s.opt.Progress == nil {
		work(func(AutoProgress) {})
		return
	}
	rounds, done := make(chan AutoProgress, 64), make(chan struct{})
	go func() {
		defer close(done)
		work(func(r AutoProgress) { rounds <- r })
	}()
	for {
		select {
		case r := <-rounds:
			s.opt.Progress(r)
		case <-done:
			for {
				select {
				case r := <-rounds:
					s.opt.Progress(r)
				default:
					return
				}
			}
		}
	}
}
