package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/table"
)

// train fits a model to a CSV file and saves it.
func train(args []string, stdout, stderr io.Writer) error {
	c := newCommand("train",
		"train -data FILE.csv -o MODEL.gcpm [flags]",
		`Fit an ensemble of five GCP networks (-members; or, with -method, of one
of the paper's comparators) to FILE.csv and write it to MODEL.gcpm,
atomically. The target is the last column unless -target names another;
every other column is a feature. Features and target are standardized
from the data.

FILE.csv may separate its fields by commas, semicolons or tabs and write
decimal commas; both are detected unless -sep or -decimal give them. A
column that is not all numbers is text, one-hot encoded by its levels
(rare ones pooled); but a column of at least 95% numbers with a field
that is not one is an error naming it (-text reads it as text). Empty
fields, NA, NaN, N/A, #N/A, NULL, ? and - are missing values: a column
with any gets a missing-value indicator and its median in their place, a
row whose target is missing is left out, and the summary counts them. A
table with more inputs than rows is refused. -target-transform
auto (the default) models the log of a target that is positive and
skewed (skewness above 1, more symmetric after the log) if the log
model's cross-fitted NLL, in original units, is lower than that of the
same recipe on the targets as they are by more than a standard error,
its squared error not higher by as much, and its RMSE at most twice
theirs: it trains both. A log model
answers in the original units: every interval lies above 0, and the mean
is the calibrated log-normal mean. The summary says what was read and
chosen.

The networks train in float32, about twice as fast as float64 with the
same accuracy, unless a column needs float64: a value beyond float32's
range, a column below its normal numbers, or one that float32 would
round by more than 1e-4 of the column's spread (Unix timestamps, whose
seconds it rounds to multiples of 128); the summary names the column. -float64
trains in float64 whatever the data; -float32 in float32, refusing
values it cannot hold.

By default the hyperparameters are chosen for you (gcp.AutoFit): a share
of the rows (-validation) is held out; every learning rate in
1e-4, 3e-4, 1e-3, 3e-3 with every dropout rate in 0, 0.1, 0.2, 0.4 trains
a single network of one hidden layer of 50 units per head with early
stopping on the held-out rows; successive halving drops the worst two
thirds twice; one hidden layer of 100, then two of 50, train with the
winner's settings, and each replaces the network kept so far where the
held-out NLL, or the squared error without a worse NLL, is lower by more
than one standard error. Gradients are weighted by the predicted scale
(-scale-weighting), every run keeps the average of its parameters over
the last epoch, and a target on a lattice (integer scores) is
dequantized. The best settings then train the ensemble, early-stopped on
the held-out rows, and its variance is calibrated on rows that neither
trained nor chose it: cross-fitted predictions under 5000 rows (five
ensembles, each predicting the fifth of the rows it did not train on),
half of the held-out rows above. -members 1 keeps the best single
network instead. -lr, -dropout, -hidden or -epochs fix that value
instead of searching it. -validation 0 trains on every row, without
early stopping or calibration, for -epochs (default 500) at -lr (default
0.001). Without it, a file of fewer than 20 rows is refused: too few to
hold out 10 to choose and calibrate on and train on as many. Under 100
rows the calibration cannot be trusted as it stands: the variance is
widened for the uncertainty of its scale, and the summary warns.

-target a,b,c trains one model of several targets (the multivariate
Student t of the normal-Wishart GCP network): every target must be
present in every row (a missing one is an error naming its line), each
is standardized on its own (one on a lattice is dequantized by its own
spacing); with -target-transform auto each positive target of skewness
above 1 is searched on a log scale beside the untransformed search and
kept logged where its own cross-fitted NLL is clearly lower without a
clearly higher RMSE (the summary says which and why; -target-transform
log logs each such target without comparing, none none), a logged
target's predictions, eval scores and plotted regions then in original
units,
the automatic recipe decides on the held-out rows' joint NLL, and the
calibration fits each continuous target's variance to its own marginal
on the cross-fitted rows (as one target's variance factor; the summary
gives the factors), then the joint region, a multivariate t of the corrected
covariance's shape, its scale and degrees of freedom by maximum
likelihood on the cross-fitted rows (widened below 100 rows), whose
distances also give the conformal joint region. Beside that joint
network, each target's one-target recipe (what gcp train -target a
trains, with the same flags) runs too, and the one-target models joined
by a Gaussian copula (its correlation fitted to the targets' normal
scores on the cross-fitted rows, shrunk towards independence by
cross-validation) are kept instead where their cross-fitted joint NLL is
lower (the summary says which law and both NLLs; -law joint or -law
copula fixes the law). -method gcp, or ml for
the full-covariance Gaussian network (the Cholesky factor of its
covariance learned by maximum likelihood, no ν), and not with
-validation 0.

A summary of the fit is printed on stderr; a progress bar is drawn there
too when stderr is a terminal. Ctrl-C (or SIGTERM) stops the training
within an epoch, or the save, and leaves MODEL.gcpm as it was.`)
	data := c.fs.String("data", "", "training data: CSV with a header line (required)")
	out := c.fs.String("o", "", "file to write the model to (required)")
	target := c.fs.String("target", "", "name of the target column (default: the last column); several, comma-separated (a,b,c), train one model of them all")
	dialect := addDialectFlags(c)
	rf := addRecipeFlags(c)
	force := c.fs.Bool("force", false, "overwrite -o even if it is not a saved model")
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	if err := c.require(stderr, "data", "o"); err != nil {
		return err
	}
	if err := rf.check(c); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// Fail before training, not after, if the model cannot be written.
	dst, err := output(*out, atomicfile.Model, *force, *data)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	tab, err := dialect.readTable(*data)
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	names := multiTargets(*target)
	if names != nil {
		if err := rf.checkMulti(c); err != nil {
			return fmt.Errorf("train: -target %s: %w", *target, err)
		}
	} else if err := rf.checkOne(c); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if !rf.meth.network() {
		td, err := prepareTraining(tab, *target, nil, "none")
		if err != nil {
			return err
		}
		if err := td.plain(); err != nil {
			return err
		}
		return interrupted(ctx, trainBayes(ctx, c, rf, td.x, td.y, dst, stderr), "training", *out)
	}
	var td trainingData
	if names != nil {
		td, err = prepareMultiTraining(tab, names, nil)
	} else {
		td, err = prepareTraining(tab, *target, nil, *rf.transform)
	}
	if err != nil {
		return err
	}
	td.describe(stderr)
	job := rf.job(c, td)
	if isTerminal(stderr) {
		job.term = stderr
	}
	start := time.Now()
	f32, precision, err := rf.precision(td)
	if err != nil {
		return err
	}
	var res fitResult
	if f32 {
		res, err = fitAndSave[float32](ctx, job, dst)
	} else {
		res, err = fitAndSave[float64](ctx, job, dst)
	}
	if err != nil {
		return interrupted(ctx, err, "training", *out)
	}
	res.precision = precision
	fmt.Fprintf(stderr, "target transform %s\n", res.transform)
	res.summarize(stderr, rf.meth.String(), *out, time.Since(start))
	return nil
}

// readSplit reads the data file at path, in the dialect d gives, and
// splits it into features and the target column that target names (the
// last if empty): a table of numbers, without missing values.
func readSplit(d dialectFlags, path, target string) (tab *table.Table, x, y []float64, err error) {
	tab, err = d.readTable(path)
	if err != nil {
		return nil, nil, nil, err
	}
	x, y, err = tab.Split(target)
	return tab, x, y, err
}

// trainingError wraps an error of Fit, with a hint for one that
// diverged. The recipe has by then tried slower learning rates itself
// (to a twenty-seventh of the best one's), and what remains is most
// often inputs of very large values, which a smaller step does not tame
// (oes97's counts standardize into the thousands).
func trainingError(err error) error {
	switch {
	case errors.Is(err, gcp.ErrDiverged):
		return fmt.Errorf("training: %w (try a smaller -lr, or the logarithm of columns whose values span orders of magnitude)", err)
	case errors.Is(err, gcp.ErrTooFewRows):
		return fmt.Errorf("training: %w; -validation 0 trains on every row, holding none out: its intervals are not calibrated", err)
	}
	return fmt.Errorf("training: %w", err)
}

// asFloat returns v as T: v itself where T is float64, which AutoFit
// and Fit read and never write, so that the encoded rows are not copied;
// else a copy converted to T.
func asFloat[T gcp.Float](v []float64) []T {
	if same, ok := any(v).([]T); ok {
		return same
	}
	return convert[T](v)
}

// convert returns v converted to T.
func convert[T, S gcp.Float](v []S) []T {
	out := make([]T, len(v))
	for i, f := range v {
		out[i] = T(f)
	}
	return out
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
