// Command gcp trains and evaluates gradient conjugate prior networks
// without writing code.
//
// Usage:
//
//	gcp train -data FILE.csv -o MODEL.gcpm [-target NAME] [-validation 0.1]
//	          [-target-transform auto|log|none] [-sep , -decimal .]
//	          [-epochs N] [-lr X] [-dropout P] [-patience N] [-batch N]
//	          [-optimizer adam|rmsprop|nesterov|sgd] [-hidden 50[,50]]
//	          [-fixed-alpha A] [-method gcp|ml|ml_bayes|dpd|pbp|svgd]
//	          [-seed S] [-float32|-float64] [-force]
//	gcp predict -model MODEL.gcpm -data FILE.csv [-levels 0.95] [-id COLUMN]
//	            [-target NAME] [-reorder]
//	gcp eval -model MODEL.gcpm -data FILE.csv [-target NAME] [-reorder]
//	gcp plot -model MODEL.gcpm -data FILE.csv [-o PLOT.png] [-x COLUMN]
//	         [-target NAME] [-pair A,B] [-reorder] [-force]
//	gcp splits -data FILE.csv [-splits FILE.txt] [-n N] [-inner] [-json]
//	           [training flags]
//	gcp repro -data FILE.csv [-method gcp|ml|ml_bayes|dpd|pbp|svgd] [-folds 50]
//	          [-outliers P] [-seed S] [-json] [-target NAME] [-epochs N]
//	          [-batch N] [-lr X] [-optimizer O] [-hidden 50] [-dropout P]
//	gcp demo [-o DIR] [-epochs N] [-seed S]
//	gcp version
//	gcp help [command]
//
// Data files are CSV: a header line of distinct column names, then one
// row per sample. The separator (comma, semicolon or tab) and the decimal
// mark (point or comma) are detected, or given by -sep and -decimal on
// every command that reads data; quoted fields, CRLF and a UTF-8
// byte-order mark are read. The target is the last column unless -target
// names another; every other column is a feature. A column that is not
// all numbers is text, one-hot encoded; empty fields, NA, NaN and ? are
// missing values, imputed with an indicator (see gcp.Encoding), and a
// row with a missing target is left out of training and of eval's
// scores. Errors in a file name the file, the line (the header is line
// 1) and the column. A model written by train keeps the names of its
// columns and target and its encoding: predict and eval refuse a file
// whose feature columns are missing, extra or in another order, and name
// them (-reorder picks the features by name instead), and warn about
// levels they do not know and values outside the training range. A model
// saved without names, by an older release, takes the columns by
// position.
//
// train's -target-transform (log, none, or auto, the default: log for a
// positive target whose skewness is above 1 if that model's cross-fitted
// NLL is lower than the untransformed one's by more than a standard
// error, and its squared error not higher by as much) makes the networks
// model ln y; every prediction, interval and score is in the original
// units, and the mean is that of the calibrated predictive (the
// log-normal mean).
//
// train fits a GCP network, or with -method one of the paper's comparator
// methods (ML, ML_Bayes, DPD, or the Bayesian PBP and SVGD of package
// bayes, which train on every row by their own rule, without the search
// or calibration), to a data file and writes the model
// atomically: to a temporary file in the same directory, then renamed
// over MODEL.gcpm. By default it runs the automatic recipe, gcp.AutoFit:
// it holds out a tenth of the rows, searches the learning rate and the
// dropout rate with early stopping on the held-out rows, keeps the best
// candidate and calibrates its variance on cross-fitted predictions.
// The networks train in float32, which runs the recipe in about half
// the time of float64 with the same accuracy, unless a column needs
// float64: one float32 cannot hold (a value beyond its range, or a column
// below its normal numbers), or one it would round by more than 1e-4 of
// the column's spread (a Unix timestamp, whose seconds float32 rounds to
// multiples of 128); the summary says which it trained in and why. -float64 trains
// in float64 whatever the data, -float32 in float32 where it can hold
// the values.
// -lr, -dropout and -epochs fix that value instead of searching it;
// -validation 0 trains on every row for -epochs (default 500) at -lr
// (default 0.001), without early stopping or calibration; the automatic
// recipe refuses a file of fewer than 20 rows (gcp.ErrTooFewRows), which
// it cannot calibrate, and under 100 rows widens the intervals for the
// uncertainty of their calibration and warns. It refuses, before training, a MODEL.gcpm that
// is the data file, that is not a regular file (a device such as
// /dev/null) or that exists and is not a model (unless -force).
// Ctrl-C (SIGINT) or SIGTERM stops the training within an epoch, or the
// save before its rename, leaves MODEL.gcpm as it was and exits with an
// error saying so; splits and repro stop the same way. It always prints a
// summary on stderr (what it chose, the best epoch, the NLL and coverage
// to expect on new data, the time of each phase: search, ensemble,
// calibration) and draws a progress bar for each phase there when stderr
// is a terminal.
//
// version prints the module version and the source revision the command
// was built from.
//
// predict writes, for every row of a data file, in order, one CSV line of
// the predictive distribution to stdout: mean; for each level of -levels
// (default 0.95) the calibrated interval loL_cal and hiL_cal (of
// N(mean, sd_corrected²); lo95_cal for 0.95) and, for a model with a
// conformal calibration (the automatic recipe's), the conformal interval
// loL_conformal and hiL_conformal; sd_corrected (the outlier-corrected
// standard deviation); the interval of the model's own predictive (the
// Student t, an ensemble's mixture of them) loL_student_t and
// hiL_student_t and its standard deviation sd_student_t; alpha; input_z
// (the row's distance from the training data: the largest robust z-score
// of its numbers, or of a text column's level by its rarity; +Inf for a
// level training never saw, whose calibrated and conformal intervals are
// then -Inf and +Inf) and outside (how many features lie outside their
// training range, or text columns hold a level never seen) and unseen
// (how many of its text fields hold a level the model does not know);
// sd_epistemic and disagreement (an
// ensemble's spread). -id COLUMN writes that column first. Numbers have
// the digits of the model's type: the shortest decimal that reads back as
// the same float32 for a model trained in float32 (train's default), or
// float64. It warns on stderr about rows outside the
// range. The target column may be left out: it is the one -target names,
// or the model's target if the file has it. predict and eval read the
// data once, a chunk of rows at a time, from the standard input for
// -data -.
//
// eval scores a model on a data file with a target column: the RMSE, the
// area under the paper's RMSE-versus-rejection curve (the paper's AUC,
// Sec. 6.4) with points ranked by the Student-t variance
// (RMSE_curve_area) and by the corrected variance (RMSE_curve_area_corr),
// the mean CRPS and the miscalibration area of the Student-t and the
// calibrated predictive; a table: for the Student-t, the calibrated and
// (if the model has them) the conformal intervals, the mean negative log
// predictive density and the coverage, mean width and interval score of
// the central 50, 80, 90, 95 and 99% intervals; and the PIT histograms.
//
// plot draws a model's predictions on a data file into a PNG image (-o,
// default plot.png; it must end in .png, and replaces neither the model
// nor the data, nor, unless -force, a file that is not a PNG), one panel
// each: every row's
// predicted mean and calibrated 95% interval with its target, black
// inside the interval and red outside, in order of the predicted mean or
// of the column -x names; if the file has targets, the share inside the
// central interval of both predictives and the conformal intervals at
// levels 10% to 99% against the diagonal, and the PIT histograms; and for
// an ensemble, each row's disagreement on a log scale.
// It prints on stderr what it drew and how many targets the 95% intervals
// hold.
//
// splits runs the standard UCI benchmark protocol on a data file: for each
// line of a split file (default: splits/NAME_test_idx.txt beside the data,
// as in data/uci), train on the other rows as train would, with the same
// flags, and score the test rows; it prints the mean and standard error of
// RMSE, NLL, 95% coverage and the 95% intervals' widths over the splits.
// With -inner it never reads the test rows and scores a held-out tenth of
// each training split.
//
// repro runs the paper's real-world protocol (Sec. 6.4 and Sec. 6.5)
// with one of its methods:
// -folds random 95/5 splits drawn from -seed, each fold's draws depending
// only on the seed and the fold's number; features and target
// standardized by the mean and standard deviation of each training split;
// with -outliers p, round(p·n) training targets replaced by draws from
// N(mean, (10·sd)²) of the split. It prints the mean and standard
// deviation over the folds of the test RMSE, AUC, AUC_corr (GCP only),
// mean NLL and 95% coverage, as a table or, with -json, as one JSON
// object. The training hyperparameters default to the paper's
// (Appendix E) for the five data sets of data/uci, named by
// the file's base name, and otherwise to train's plain settings (-validation 0:
// adam, lr 0.001, dropout 0, 500 epochs, batch 32). Folds train
// float32 models, the fast path, in parallel on GOMAXPROCS goroutines. It
// draws a progress bar on stderr when stderr is a terminal.
//
// demo runs the paper's two synthetic experiments on generated data, with
// networks of one hidden layer of 100 units: Sec. 6.2
// (20 points on [−4, −2] ∪ [2, 4],
// y ~ N(x³, 3²); GCP, ML, ML_Bayes, DPD, an ensemble of five GCP
// networks, PBP and SVGD) and Sec. 6.3 (400 points with
// mean sin 3x, sd 0.5·cos⁴x and 5% outliers from U(−4, 16); GCP,
// GCP_corr, ML, DPD, the ensemble's GCP_corr, PBP and SVGD). It writes PNG figures like the
// paper's into the directory -o (default gcp-demo): the means and ±3 sd
// bands of Sec. 6.2 (for the models with epistemic uncertainty the
// aleatoric and the total band), the
// data, means and standard deviations of Sec. 6.3 against the truth, and
// the RMSE(n) curves of its models on clean test data; and it prints each
// method's RMSE of the mean and mean absolute error of the sd against the
// truth, and the AUC. It takes a second or two.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(2)
	}
}

// errorLine returns the line main prints for err: "gcp: " and err's text
// without the "gcp: " that starts the package's errors, wherever one of
// them follows the command's context ("train: -o FILE: gcp: path holds
// a file of another kind"), so that the line names the command once.
func errorLine(err error) string {
	return "gcp: " + strings.ReplaceAll(strings.TrimPrefix(err.Error(), "gcp: "), ": gcp: ", ": ")
}

const usage = `usage: gcp <command> [flags]

commands:
  train    fit a GCP network to a CSV file and save the model
  predict  write the predictive distribution of every row of a CSV file
  eval     score a saved model on a CSV file: RMSE, NLL, interval coverage
  plot     draw a saved model's predictions, intervals and calibration on a
           CSV file as a PNG image
  repro    run the paper's cross-validation protocol on a CSV file
  splits   run the standard UCI benchmark splits: RMSE, NLL, coverage
  demo     run the paper's synthetic experiments and plot them as PNG files
  version  print the module version and source revision of this command

Run "gcp <command> -h" or "gcp help <command>" for the flags of a command.
`

// run executes the command line args, writing results to stdout and
// diagnostics to stderr.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	commands := map[string]func(args []string, stdout, stderr io.Writer) error{
		"train":   train,
		"predict": predict,
		"eval":    eval,
		"demo":    demo,
		"repro":   repro,
		"splits":  splits,
		"plot":    drawPlot,
		"version": version,
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			_, err := fmt.Fprint(stdout, usage)
			return err
		}
		// gcp help CMD is gcp CMD -h.
		name, rest = rest[0], []string{"-h"}
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", name)
	}
	err := cmd(rest, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// command is the flag set of a subcommand with its usage text.
type command struct {
	fs       *flag.FlagSet
	synopsis string // the usage line after "gcp "
	about    string // what the command does
}

// newCommand returns a command whose flag set prints nothing itself:
// parse reports errors and usage.
func newCommand(name, synopsis, about string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &command{fs: fs, synopsis: synopsis, about: about}
}

// usage writes the command's usage text and flags to w, and returns the
// first error of writing them.
func (c *command) usage(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "usage: gcp %s\n\n%s\n\nflags:\n", c.synopsis, c.about)
	c.fs.SetOutput(ew)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
	return ew.err
}

// errWriter writes to w and keeps the first error, for writers such as
// flag.FlagSet.PrintDefaults that drop it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if e.err == nil {
		e.err = err
	}
	return n, err
}

// parse parses args. For -h it writes the usage to stdout and returns
// flag.ErrHelp, which run treats as success, or the error of writing it;
// for a bad flag or a positional argument it writes the usage to stderr
// and returns the error.
func (c *command) parse(args []string, stdout, stderr io.Writer) error {
	err := c.fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		if werr := c.usage(stdout); werr != nil {
			return fmt.Errorf("%s: writing the help: %w", c.fs.Name(), werr)
		}
		return err
	}
	if err == nil && c.fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", c.fs.Arg(0))
	}
	if err != nil {
		c.usage(stderr)
		return fmt.Errorf("%s: %w", c.fs.Name(), err)
	}
	return nil
}

// set reports whether the flag called name was given on the command line.
func (c *command) set(name string) bool {
	given := false
	c.fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// require returns an error naming the first of the flags that is empty.
func (c *command) require(stderr io.Writer, flags ...string) error {
	for _, name := range flags {
		if c.fs.Lookup(name).Value.String() == "" {
			c.usage(stderr)
			return fmt.Errorf("%s: -%s is required", c.fs.Name(), name)
		}
	}
	return nil
}
