package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/atomicfile"
)

// fitJob is a training run of gcp train, and of each split of gcp
// splits: the model's shape, the trainer's settings and either the
// automatic recipe's options (gcp.AutoFit) or, with plain, one Fit on all
// rows.
type fitJob struct {
	cfg    gcp.Config
	tc     gcp.TrainConfig
	search gcp.AutoOptions // LearningRates, Dropouts, MaxEpochs and TargetTransforms fixed by flags
	plain  bool            // -validation 0: Fit on every row, no search
	x, y   []float64       // row-major inputs and targets
	// enc is how the rows were encoded, which the model keeps; transform
	// is -target-transform.
	enc       *gcp.Encoding
	transform string
	// term is the terminal to draw progress on, nil if there is none.
	term io.Writer
}

// recipeFlags are the flags of the training recipe, which train and
// splits share.
type recipeFlags struct {
	epochs, batch, patience   *int
	members                   *int
	lr, dropout, fixedAlpha   *float64
	weighting                 *float64
	validation                *float64
	optimizer, hidden, method *string
	transform, law            *string
	seed                      *uint64
	f32, f64                  *bool
	// Parsed by check.
	opt    gcp.Optimizer
	meth   method
	layers []int
}

// defaultMembers is how many networks gcp train and gcp splits train by
// default: AutoFit's own default, gcp.AutoMembers, also when -validation
// 0 trains without the search.
const defaultMembers = gcp.AutoMembers

// addRecipeFlags defines the recipe's flags on c.
func addRecipeFlags(c *command) *recipeFlags {
	return &recipeFlags{
		epochs:     c.fs.Int("epochs", 0, "most passes over the training data (default: chosen from the data's size; 500 with -validation 0)"),
		batch:      c.fs.Int("batch", 0, fmt.Sprintf("minibatch size (default: %d, larger for data sets of more than 32768 rows, so that an epoch takes at most 1024 steps)", genericHyper.batch)),
		lr:         c.fs.Float64("lr", 0, "learning rate (default: searched; 0.001 with -validation 0)"),
		optimizer:  c.fs.String("optimizer", genericHyper.optimizer.String(), "adam, rmsprop, nesterov or sgd"),
		hidden:     c.fs.String("hidden", "", fmt.Sprintf("hidden units per layer of each head, comma-separated: 50,50 is two layers (default: searched; %d with -validation 0 or a Bayesian -method)", paperHidden)),
		weighting:  c.fs.Float64("scale-weighting", 0.5, "exponent b of the weights (squared predictive scale)^b on each sample's gradient, in [0, 1]; 0 trains by the paper's update alone"),
		dropout:    c.fs.Float64("dropout", 0, "dropout rate before the output layer, in [0, 1) (default: searched; 0 with -validation 0, 0.4 for ml_bayes)"),
		fixedAlpha: c.fs.Float64("fixed-alpha", 0, "hold α at this value instead of learning it; 0 learns α (gcp only)"),
		members:    c.fs.Int("members", defaultMembers, fmt.Sprintf("networks in the model, 1..%d: an ensemble, whose spread says where the model has not seen data; 1 trains a single network, smaller and about 3× faster to predict with", gcp.MaxMembers)),
		method:     c.fs.String("method", "gcp", "gcp, or a comparator: ml, ml_bayes, dpd, or the Bayesian pbp or svgd"),
		validation: c.fs.Float64("validation", 0.1, "share of the rows held out to stop early, choose hyperparameters and calibrate on; 0 trains on all rows as given"),
		patience:   c.fs.Int("patience", 0, "epochs without a better held-out NLL before a candidate stops (default: a tenth of -epochs, at least 20)"),
		seed:       c.fs.Uint64("seed", 1, "seed of the initial weights, the held-out rows, the dropout masks and the shuffling"),
		f32:        c.fs.Bool("float32", false, "train in float32 (the default unless a column needs float64)"),
		f64:        c.fs.Bool("float64", false, "train in float64: slower, for columns float32 cannot resolve"),
		law:        c.fs.String("law", "auto", "several targets' joint law: auto (fit both the joint network and the Gaussian copula of one one-target model per target, and keep the one of the lower cross-fitted joint NLL), joint or copula"),
		transform:  c.fs.String("target-transform", "auto", "model the target as it is (none), its logarithm (log: positive targets only), or choose (auto: for a positive target whose skewness is above 1, train both and keep the log only if its held-out NLL is lower, and its squared error not higher, by more than a standard error, its RMSE at most twice)"),
	}
}

// check validates and parses the recipe's flags after c parsed them.
func (f *recipeFlags) check(c *command) error {
	if *f.f32 && *f.f64 {
		return errors.New("-float32 and -float64 exclude each other")
	}
	if *f.members < 1 || *f.members > gcp.MaxMembers {
		return fmt.Errorf("-members %d: want 1..%d", *f.members, gcp.MaxMembers)
	}
	if *f.epochs < 0 || *f.batch < 0 || *f.lr < 0 || *f.patience < 0 || !(*f.validation >= 0 && *f.validation < 1) {
		return fmt.Errorf("-epochs %d, -batch %d, -lr %g, -patience %d, -validation %g: want a batch ≥ 0 (0: chosen), a validation share in [0, 1) and no negative value",
			*f.epochs, *f.batch, *f.lr, *f.patience, *f.validation)
	}
	if c.set("lr") && *f.lr == 0 {
		return errors.New("-lr 0: want a positive learning rate")
	}
	var err error
	if f.opt, err = parseOptimizer(*f.optimizer); err != nil {
		return err
	}
	if f.meth, err = parseMethod(*f.method); err != nil {
		return err
	}
	if *f.hidden != "" {
		if f.layers, err = parseHidden(*f.hidden); err != nil {
			return err
		}
	}
	if !(*f.weighting >= 0 && *f.weighting <= 1) {
		return fmt.Errorf("-scale-weighting %g: want [0, 1]", *f.weighting)
	}
	if !slices.Contains(lawFlags, *f.law) {
		return fmt.Errorf("-law %q: want %s", *f.law, strings.Join(lawFlags, ", "))
	}
	if !slices.Contains(transformFlags, *f.transform) {
		return fmt.Errorf("-target-transform %q: want %s", *f.transform, strings.Join(transformFlags, ", "))
	}
	return f.checkBayes(c)
}

// networkOnly are the recipe's flags that a Bayesian comparator has no
// use for: it trains one model on every row, by its own rule. PBP has no
// step size or minibatch either.
var (
	networkOnly = []string{"members", "dropout", "fixed-alpha", "optimizer", "patience", "validation", "float32", "float64", "scale-weighting", "target-transform", "law"}
	pbpUnused   = []string{"lr", "batch"}
)

// checkBayes refuses, for a comparator of package bayes, a flag given
// explicitly that it would ignore.
func (f *recipeFlags) checkBayes(c *command) error {
	if f.meth.network() {
		return nil
	}
	unused := networkOnly
	if f.meth == pbpMethod {
		unused = append(slices.Clone(unused), pbpUnused...)
	}
	for _, name := range unused {
		if c.set(name) {
			return fmt.Errorf("-%s does not apply to -method %s", name, f.meth)
		}
	}
	return nil
}

// bayesHyper returns the comparator's training settings from the flags:
// -epochs (PBP's passes, default 40; SVGD's iterations, default 3000),
// -hidden and -seed, and SVGD's -lr (default 0.001) and -batch (default
// 100).
func (f *recipeFlags) bayesHyper(c *command) bayesHyper {
	h := bayesHyper{epochs: *f.epochs, hidden: f.layers, seed: *f.seed}
	if h.hidden == nil {
		h.hidden = []int{paperHidden}
	}
	if f.meth == pbpMethod {
		h.epochs = cmp.Or(h.epochs, bayes.PBPDefaultEpochs)
		return h
	}
	h.epochs, h.lr, h.batch = cmp.Or(h.epochs, bayes.SVGDDefaultIterations), bayes.SVGDDefaultLearningRate, bayes.SVGDDefaultBatchSize
	if c.set("lr") {
		h.lr = *f.lr
	}
	if *f.batch > 0 {
		h.batch = *f.batch
	}
	return h
}

// job returns the fitJob of the checked flags for the training data td.
func (f *recipeFlags) job(c *command, td trainingData) fitJob {
	job := fitJob{
		enc: td.enc, transform: *f.transform,
		cfg:    gcp.Config{Inputs: td.enc.Inputs(), Hidden: f.layers, FixedAlpha: *f.fixedAlpha, Seed: *f.seed, Loss: f.meth.loss, Members: *f.members, Targets: len(td.targets)},
		tc:     gcp.TrainConfig{Optimizer: f.opt, BatchSize: *f.batch, Seed: *f.seed, ScaleWeighting: *f.weighting},
		search: gcp.AutoOptions{ValidationShare: *f.validation, MaxEpochs: *f.epochs, Patience: *f.patience, Seed: *f.seed, TargetTransforms: flagTransforms(*f.transform), Laws: flagLaws(*f.law)},
		plain:  *f.validation == 0,
		x:      td.x, y: td.y,
	}
	if len(td.targets) > 0 {
		job.tc.ScaleWeighting = 0 // the multivariate t has no scale weighting
	}
	if c.set("lr") {
		job.search.LearningRates = []float64{*f.lr}
	}
	if c.set("dropout") {
		job.search.Dropouts = []float64{*f.dropout}
	}
	if c.set("scale-weighting") {
		job.search.ScaleWeightings = []float64{*f.weighting}
	}
	return job
}

// fitResult is what a fitJob did, for the summary.
type fitResult struct {
	auto gcp.AutoResult // the search's result; for plain, its lr, dropout and epochs
	// progress is how long each phase of the automatic recipe took; nil
	// for plain.
	progress *fitProgress
	plain    bool
	rows     int
	// members is the number of networks trained, Config.Members.
	members int
	// transform says which target transform the model has, and why.
	transform string
	// targets are the names of several targets, joined by commas; "" for
	// one.
	targets string
	// f32 is whether the networks trained in float32, and precision
	// says so and why: a line of the summary.
	f32       bool
	precision string
}

// fitModel trains a Model[T] as job says, stopped by ctx.
func fitModel[T gcp.Float](ctx context.Context, job fitJob) (*gcp.Model[T], fitResult, error) {
	res := fitResult{plain: job.plain, rows: len(job.y) / max(1, job.cfg.Targets), members: max(1, job.cfg.Members)}
	x := asFloat[T](job.x)
	if !res.plain {
		res.progress = newFitProgress(job.term)
		job.search.Progress = res.progress.update
		m, auto, err := gcp.AutoFitContext[T](ctx, job.cfg, job.tc, x, asFloat[T](job.y), job.search)
		res.progress.end()
		if err != nil {
			return nil, res, trainingError(err)
		}
		res.auto, res.transform = auto, describeTransform(auto.Transform, job.transform)
		if job.cfg.Targets > 1 {
			res.targets = job.enc.Target()
			res.transform = describeTargetTransforms(auto, strings.Split(res.targets, ","), job.transform)
		}
		return m, res, m.SetEncoding(job.enc)
	}
	cfg, tc, epochs := job.cfg, job.tc, job.search.MaxEpochs
	tc.LearningRate, cfg.Dropout = genericHyper.lr, genericHyper.dropout
	if cfg.Loss == gcp.LossMLBayes {
		cfg.Dropout = genericMLBayesDropout
	}
	if lrs := job.search.LearningRates; lrs != nil {
		tc.LearningRate = lrs[0]
	}
	if ps := job.search.Dropouts; ps != nil {
		cfg.Dropout = ps[0]
	}
	if epochs == 0 {
		epochs = genericHyper.epochs
	}
	// Without held-out rows to compare on, the targets' skewness alone
	// chooses the transform.
	choice := gcp.ChooseTargetTransform(job.y)
	if trs := job.search.TargetTransforms; trs != nil {
		choice.Transform = trs[0]
	}
	z := make([]T, len(job.y))
	for i, v := range job.y {
		t, _ := choice.Transform.Apply(v) // prepareTraining checked the log's domain; auto picks it for positive targets only
		z[i] = T(t)
	}
	res.transform = describeTransform(choice, job.transform)
	model, err := gcp.New[T](cfg)
	if err != nil {
		return nil, res, err
	}
	tr, err := gcp.NewTrainer(model, tc)
	if err != nil {
		return nil, res, err
	}
	var bar *progressBar
	if job.term != nil {
		bar = newProgressBar(job.term, epochs)
	}
	st, err := tr.FitContext(ctx, x, z, gcp.FitOptions[T]{Epochs: epochs, Seed: job.search.Seed, Progress: bar.update})
	bar.finish()
	if err != nil {
		return nil, res, trainingError(err)
	}
	res.auto = gcp.AutoResult{LearningRate: tc.LearningRate, Dropout: cfg.Dropout, Epoch: st.Epoch, EpochsRun: st.Epoch, TrainRows: len(job.y), Candidates: 1, VarScale: 1, CorrectedScale: 1}
	return model, res, errors.Join(model.SetEncoding(job.enc), model.SetTargetTransform(choice.Transform))
}

// summarizeMargins writes the first line of the summary of a model of
// several targets whose law is the Gaussian copula: what each target's
// one-target recipe trained and chose (AutoResult.Margins).
func (r fitResult) summarizeMargins(w io.Writer, method string) {
	a := r.auto
	model := "a single " + method + " network"
	if r.members > 1 {
		model = fmt.Sprintf("an ensemble of %d %s networks", r.members, method)
	}
	names := strings.Split(r.targets, ",")
	parts := make([]string, len(a.Margins))
	for j, m := range a.Margins {
		parts[j] = fmt.Sprintf("%s: lr %.3g, dropout %g, hidden %s, scale weighting %g, best epoch %d of %d, NLL %.4g",
			names[j], m.LearningRate, m.Dropout, joinInts(m.Hidden), m.ScaleWeighting, m.Epoch, m.EpochsRun, m.CVNLL)
	}
	fmt.Fprintf(w, "trained the one-target recipe for each of the %d targets, %s each, on %d rows, %d held out, and joined them by a Gaussian copula: %s\n",
		len(a.Margins), model, a.TrainRows, a.ValRows, strings.Join(parts, "; "))
}

// fitAndSave trains a Model[T] as job says and saves it to t, stopped by
// ctx.
func fitAndSave[T gcp.Float](ctx context.Context, job fitJob, t atomicfile.Target) (fitResult, error) {
	model, res, err := fitModel[T](ctx, job)
	if err != nil {
		return res, err
	}
	if err := saveModel(ctx, t, model); err != nil {
		return res, fmt.Errorf("writing the model: %w", err)
	}
	return res, nil
}

// summarize writes what the fit did to w, in a few lines.
func (r fitResult) summarize(w io.Writer, method, path string, took time.Duration) {
	a := r.auto
	if r.plain {
		model := method
		if r.members > 1 {
			model = fmt.Sprintf("an ensemble of %d %s networks", r.members, method)
		}
		fmt.Fprintf(w, "trained %s on all %d rows: lr %g, dropout %g, %d epochs (no held-out rows: no early stopping, no calibration)\n",
			model, r.rows, a.LearningRate, a.Dropout, a.EpochsRun)
		fmt.Fprintln(w, r.precision)
	} else {
		chose := fmt.Sprintf("lr %.3g, dropout %g, hidden %s, scale weighting %g", a.LearningRate, a.Dropout, joinInts(a.Hidden), a.ScaleWeighting)
		if a.Law.Law == gcp.LawCopula {
			r.summarizeMargins(w, method)
		} else if r.members > 1 && r.targets != "" { // the ensemble of several targets keeps all heads of one epoch
			fmt.Fprintf(w, "trained an ensemble of %d %s networks on %d rows, %d held out: searched %d single-network candidates; chose %s; the ensemble's best epoch %d of %d\n",
				r.members, method, a.TrainRows, a.ValRows, a.Candidates, chose, a.Epoch, a.EpochsRun)
		} else if r.members > 1 {
			fmt.Fprintf(w, "trained an ensemble of %d %s networks on %d rows, %d held out: searched %d single-network candidates; chose %s; the ensemble's best epoch %d of %d (its mean heads' %d)\n",
				r.members, method, a.TrainRows, a.ValRows, a.Candidates, chose, a.Epoch, a.EpochsRun, a.MeanEpoch)
		} else {
			fmt.Fprintf(w, "trained %s on %d rows, %d held out: searched %d candidates; chose %s; best epoch %d of %d\n",
				method, a.TrainRows, a.ValRows, a.Candidates, chose, a.Epoch, a.EpochsRun)
		}
		fmt.Fprintln(w, r.precision)
		for _, d := range a.Diverged {
			fmt.Fprintf(w, "the ensemble of %s diverged (a step would have made it non-finite; the search's single network had not)\n", d)
		}
		if len(a.Diverged) > 0 {
			fmt.Fprintln(w, "fell back in turn to the search's next best settings, then to its best at a third, a ninth and a twenty-seventh of the learning rate: the settings chosen above are the first whose ensemble trained")
		}
		if a.Quantum > 0 {
			fmt.Fprintf(w, "the target takes values on a lattice of spacing %g: trained and calibrated on dequantized targets (each plus uniform noise within ±%g), so that the variances cannot collapse below the rounding\n", a.Quantum, a.Quantum/2)
		}
		for j, h := range a.Quanta {
			if h > 0 {
				name := strings.Split(r.targets, ",")[j]
				fmt.Fprintf(w, "target %s takes values on a lattice of spacing %g: trained and its joint region calibrated on it dequantized (plus uniform noise within ±%g), so that the variances cannot collapse below the rounding\n", name, h, h/2)
			}
		}
		from := fmt.Sprintf("%d held-out calibration rows", a.CVRows)
		if a.CVFolds > 0 {
			from = fmt.Sprintf("%d-fold cross-fit, %d rows", a.CVFolds, a.CVRows)
		}
		if a.Law.Law == gcp.LawCopula {
			region := fmt.Sprintf("a t of %.3g degrees of freedom", a.RegionNu)
			if math.IsInf(a.RegionNu, 1) {
				region = "a Gaussian"
			}
			fmt.Fprintf(w, "targets %s: expected on new data (%s): joint NLL %.4g, 95%% calibrated joint-region coverage %.3f; calibration: each target's as its one-target model's, then the joint region, fitted to the rows' distances under the calibrated marginals and the copula's correlation: %s with the corrected covariance ×%.3g\n",
				r.targets, from, a.CVNLL, a.CVCoverage95, region, a.CorrectedScale)
		} else if r.targets != "" {
			var scales string
			for j, v := range a.TargetScales {
				scales += fmt.Sprintf("×%.3g (%s), ", v, strings.Split(r.targets, ",")[j])
			}
			if scales != "" {
				scales = "each target's variance fitted alone, " + scales[:len(scales)-2] + "; then "
			}
			region := fmt.Sprintf("a t of %.3g degrees of freedom", a.RegionNu)
			if math.IsInf(a.RegionNu, 1) {
				region = "a Gaussian"
			}
			fmt.Fprintf(w, "targets %s: expected on new data (%s): joint NLL %.4g, 95%% calibrated joint-region coverage %.3f; calibration: %sthe joint region, fitted to the rows' Mahalanobis distances: %s with the corrected covariance ×%.3g\n",
				r.targets, from, a.CVNLL, a.CVCoverage95, scales, region, a.CorrectedScale)
		} else {
			fmt.Fprintf(w, "expected on new data (%s): NLL %.4g, 95%% calibrated-interval coverage %.3f; calibration: variance ×%.3g, corrected variance ×%.3g\n",
				from, a.CVNLL, a.CVCoverage95, a.VarScale, a.CorrectedScale)
		}
		if r.targets != "" && (a.Law.Compared || a.Law.Failed != "") {
			fmt.Fprintf(w, "joint law: %s\n", a.Law)
		}
		if a.SmallData > 0 {
			fmt.Fprintf(w, "warning: trained on %d rows, fewer than the %d from which the calibration can be trusted: the variance is widened to the upper end of the 90%% confidence interval of its scale, which so few rows leave uncertain, and this data set's intervals may still cover more or less than their level\n",
				a.TrainRows+a.ValRows, a.SmallData)
		}
	}
	fmt.Fprintf(w, "wrote %s in %s", path, took.Round(time.Millisecond))
	if r.progress != nil {
		fmt.Fprintf(w, ": %s", r.progress.summary())
	}
	fmt.Fprintln(w)
}
