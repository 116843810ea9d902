package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/dataset"
)

// train fits a model to a CSV file and saves it.
func train(args []string, stdout, stderr io.Writer) error {
	c := newCommand("train",
		"train -data FILE.csv -o MODEL.gcpm [flags]",
		`Fit a GCP network (or, with -method, one of the paper's comparators) to
FILE.csv and write it to MODEL.gcpm, atomically.
The target is the last column unless -target names another; every other
column is a feature. Features and target are standardized from the data.
A progress bar is drawn on stderr when stderr is a terminal.`)
	data := c.fs.String("data", "", "training data: CSV with a header line (required)")
	out := c.fs.String("o", "", "file to write the model to (required)")
	target := c.fs.String("target", "", "name of the target column (default: the last column)")
	epochs := c.fs.Int("epochs", genericHyper.epochs, "passes over the training data")
	batch := c.fs.Int("batch", genericHyper.batch, "minibatch size")
	lr := c.fs.Float64("lr", genericHyper.lr, "learning rate")
	optimizer := c.fs.String("optimizer", genericHyper.optimizer.String(), "adam, rmsprop, nesterov or sgd")
	hidden := c.fs.String("hidden", strconv.Itoa(paperHidden), "hidden units per layer of each head, comma-separated: 50,50 is two layers")
	dropout := c.fs.Float64("dropout", genericHyper.dropout, "dropout rate before the output layer, in [0, 1)")
	fixedAlpha := c.fs.Float64("fixed-alpha", 0, "hold α at this value instead of learning it; 0 learns α (gcp only)")
	method := c.fs.String("method", "gcp", "gcp, or a comparator: ml, ml_bayes (default -dropout 0.4) or dpd")
	seed := c.fs.Uint64("seed", 1, "seed of the initial weights, the dropout masks and the shuffling")
	f32 := c.fs.Bool("float32", false, "train in float32: faster, less precise")
	f64 := c.fs.Bool("float64", false, "train in float64 (the default)")
	force := c.fs.Bool("force", false, "overwrite -o even if it is not a saved model")
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	if err := c.require(stderr, "data", "o"); err != nil {
		return err
	}
	if *f32 && *f64 {
		return errors.New("train: -float32 and -float64 exclude each other")
	}
	if *epochs < 1 || *batch < 1 || !(*lr > 0) {
		return fmt.Errorf("train: -epochs %d, -batch %d, -lr %g: each must be positive", *epochs, *batch, *lr)
	}
	opt, err := parseOptimizer(*optimizer)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	loss, err := parseMethod(*method)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if loss == gcp.LossMLBayes && !c.set("dropout") {
		*dropout = genericMLBayesDropout
	}
	layers, err := parseHidden(*hidden)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// Fail before training, not after, if the model cannot be written.
	if err := checkOutput(*out, *data, *force); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	tab, x, y, err := readSplit(*data, *target)
	if err != nil {
		return err
	}
	job := fitJob{
		cfg: gcp.Config{Inputs: len(tab.Header) - 1, Hidden: layers, Dropout: *dropout,
			FixedAlpha: *fixedAlpha, Seed: *seed, Loss: loss},
		tc:     gcp.TrainConfig{Optimizer: opt, LearningRate: *lr, BatchSize: *batch, Seed: *seed},
		epochs: *epochs, seed: *seed, x: x, y: y, out: *out,
	}
	if isTerminal(stderr) {
		job.bar = newProgressBar(stderr, *epochs)
	}
	if *f32 {
		if err := fitsFloat32(tab); err != nil {
			return err
		}
		return fitAndSave[float32](job)
	}
	return fitAndSave[float64](job)
}

// readSplit reads the data file at path and splits it into features and
// the target column that target names (the last if empty).
func readSplit(path, target string) (tab *dataset.Table, x, y []float64, err error) {
	tab, err = dataset.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	x, y, err = tab.Split(target)
	return tab, x, y, err
}

// fitJob is what train passes to fitAndSave.
type fitJob struct {
	cfg    gcp.Config
	tc     gcp.TrainConfig
	epochs int
	seed   uint64
	x, y   []float64 // row-major features and targets
	out    string    // the model file
	bar    *progressBar
}

// fitAndSave builds a Model[T], fits it and saves it to job.out.
func fitAndSave[T gcp.Float](job fitJob) error {
	model, err := gcp.New[T](job.cfg)
	if err != nil {
		return err
	}
	tr, err := gcp.NewTrainer(model, job.tc)
	if err != nil {
		return err
	}
	opt := gcp.FitOptions[T]{Epochs: job.epochs, Seed: job.seed, Progress: job.bar.update}
	_, err = tr.Fit(convert[T](job.x), convert[T](job.y), opt)
	job.bar.finish()
	if err != nil {
		return trainingError(err)
	}
	if err := saveModel(job.out, model); err != nil {
		return fmt.Errorf("writing the model: %w", err)
	}
	return nil
}

// trainingError wraps an error of Fit, with a hint for one that
// diverged.
func trainingError(err error) error {
	if errors.Is(err, gcp.ErrDiverged) {
		return fmt.Errorf("training: %w (try a smaller -lr)", err)
	}
	return fmt.Errorf("training: %w", err)
}

// convert returns v converted to T.
func convert[T, S gcp.Float](v []S) []T {
	out := make([]T, len(v))
	for i, f := range v {
		out[i] = T(f)
	}
	return out
}

// fitsFloat32 returns an error naming the first value of tab that
// overflows float32, or else the first column whose largest magnitude is
// below float32's smallest normal number, 2⁻¹²⁶ ≈ 1.2e-38: float32 would
// flush its values to 0 or keep only a few of their digits, where it
// keeps 24 bits of every other column's largest value. (Tiny values
// beside larger ones in their column are flushed too, but by less than
// float32 rounds the larger ones, so standardization loses nothing.)
func fitsFloat32(tab *dataset.Table) error {
	ncol := len(tab.Header)
	largest := make([]float64, ncol)
	for i, v := range tab.Values {
		j := i % ncol
		if math.Abs(v) > math.MaxFloat32 {
			return fmt.Errorf("%s: line %d, column %d (%s): %g overflows float32; train with -float64",
				tab.File, tab.Lines[i/ncol], j+1, tab.Header[j], v)
		}
		largest[j] = max(largest[j], math.Abs(v))
	}
	for j, v := range largest {
		if v > 0 && v < 0x1p-126 {
			return fmt.Errorf("%s: column %d (%s): its largest magnitude %g is below float32's smallest normal number, 2⁻¹²⁶ ≈ 1.2e-38, so float32 would flush its values to 0; train with -float64",
				tab.File, j+1, tab.Header[j], v)
		}
	}
	return nil
}

// parseOptimizer returns the optimizer called name.
func parseOptimizer(name string) (gcp.Optimizer, error) {
	for o := gcp.Adam; o <= gcp.SGD; o++ {
		if strings.EqualFold(name, o.String()) {
			return o, nil
		}
	}
	return 0, fmt.Errorf("-optimizer %q: want adam, rmsprop, nesterov or sgd", name)
}

// parseHidden parses a comma-separated list of layer widths.
func parseHidden(s string) ([]int, error) {
	var layers []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-hidden %q: want positive widths separated by commas, like 50 or 50,50", s)
		}
		layers = append(layers, n)
	}
	return layers, nil
}
