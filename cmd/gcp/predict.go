package main

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/metrics"
	"github.com/gcpnet/gcp/table"
)

// modelArgs are the flags that predict, eval and plot share.
type modelArgs struct {
	model, data, target *string
	reorder             *bool
	dialect             dialectFlags
}

// modelFlags adds the flags that predict, eval and plot share;
// targetHelp describes -target.
func modelFlags(c *command, targetHelp string) modelArgs {
	return modelArgs{
		model:   c.fs.String("model", "", "model file written by gcp train (required)"),
		data:    c.fs.String("data", "", "data file: CSV with a header line (required)"),
		target:  c.fs.String("target", "", targetHelp),
		reorder: c.fs.Bool("reorder", false, "pick the model's features by name wherever they stand, ignoring other columns"),
		dialect: addDialectFlags(c),
	}
}

// parse parses the command's flags and requires -model and -data.
func (a modelArgs) parse(c *command, args []string, stdout, stderr io.Writer) error {
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	return c.require(stderr, "model", "data")
}

// load reads the whole data file for m, a model of one target, for gcp
// plot, and encodes its rows as the model takes them (encodeRows), with
// warnings on stderr about what the encoding noted; wantTarget requires
// the target column.
func (a modelArgs) load(m model, stderr io.Writer, wantTarget bool) (*table.Table, encoded, error) {
	tab, err := a.dialect.readTable(*a.data, m.categorical()...)
	if err != nil {
		return nil, encoded{}, err
	}
	sel, err := selectColumns(m, tab, *a.target, *a.reorder, wantTarget)
	if err != nil {
		return nil, encoded{}, err
	}
	e, err := encodeRows(m, tab, sel)
	if err != nil {
		return nil, encoded{}, err
	}
	warn := newRowWarnings(m)
	warn.add(tab, sel, e)
	warn.write(stderr)
	return tab, e, nil
}

// dataStdinHelp is the help of -data for the commands that read it once,
// as it comes.
const dataStdinHelp = "data file: CSV with a header line, or - for the standard input (required)"

// streamAbout is the help text on how predict and eval read their data.
const streamAbout = `-data - reads the standard input. The data are read once, a few thousand
rows at a time, in memory that does not grow with the rows (eval keeps six
numbers a row): a bad row (a text where the model takes a number, a CSV
syntax error) stops the command there, after the rows before it; a decimal mark not given by -decimal is detected from the first
1024 rows.`

// columnsAbout is the help text on how predict and eval find the model's
// columns.
const columnsAbout = `A model written by gcp train knows its columns' names: the columns of
FILE.csv other than the target must be those columns, in the same order,
or the command stops and names the difference (-reorder picks them by name
instead). A model saved without names (by an older release) takes the
columns by position. The separator and decimal mark of FILE.csv are
detected (or given by -sep and -decimal), and its rows encoded by the
model's own encoding: text columns take the model's levels, and missing
values (empty, NA, NaN, ?) the model's imputation. A level the model
does not know, a missing value in a column that had none in training,
and a number outside the training range are counted on stderr. A model
of ln y (train -target-transform) answers in the original units: every
interval lies above 0, and the mean is that of the calibrated log-normal
predictive.`

// errFormat is the error of a -format predict does not write.
var errFormat = errors.New("not an output format")

// predict writes the predictive distribution of every row to stdout.
func predict(args []string, stdout, stderr io.Writer) error {
	c := newCommand("predict",
		"predict -model MODEL.gcpm -data FILE.csv [-levels 0.95] [-id COLUMN] [-format csv|json] [-target NAME] [-reorder] [-given a,b]",
		`Write one CSV line per row of FILE.csv to stdout, in order, with the
columns (L for each level of -levels: lo95_cal for 0.95, lo97.5_cal for
0.975)
  COLUMN          the -id column, passed through, if -id names one
  mean            the predicted mean
  loL_cal, hiL_cal  the central L% calibrated interval, of
                  N(mean, sd_corrected²): the one to use for coverage
  loL_conformal, hiL_conformal  the conformal interval, mean ± q·sd_corrected
                  with q from the model's cross-fitted residuals, meant to
                  cover at least L% of new targets drawn as the training
                  rows were, outliers included (the README's "Conformal
                  intervals" says what is guaranteed); ±Inf where the
                  training rows are too few to bound L; left out for a
                  model without a conformal calibration (trained with
                  -validation 0, by -method pbp or svgd, or by an older
                  release)
  sd_corrected    the outlier-corrected standard deviation
  loL_student_t, hiL_student_t  the central L% interval of the model's own
                  predictive: the Student t (an ensemble's mixture of
                  them; the Gaussian of a comparator), whose heavy tails
                  make it wider
  sd_student_t    the Student t's standard deviation: +Inf where α ≤ 1 and
                  huge where α is near 1, so prefer sd_corrected
  alpha           the trust signal α
  input_z         the row's distance from the training data: the largest
                  robust z-score of its numbers (a date's days), or of a
                  text column's level the normal z of its rarity (the
                  share of training rows whose level was no more
                  common); +Inf for a level no training row had, whose
                  _cal and _conformal intervals are then -Inf and +Inf
  outside         how many features lie outside their training range, or
                  text columns hold a level no training row had
  unseen          how many of the row's text fields hold a level the
                  model does not know (pooled into a column's rare
                  levels, or never seen)
  sd_epistemic    the spread of an ensemble's members (train -members K):
                  the model's own uncertainty; 0 for a single GCP network
  disagreement    sd_epistemic over the aleatoric sd, the noise
Numbers have the digits the model has: the shortest decimal that reads
back as the same float32 for a model trained in float32 (train's
default), or as the same float64 for one trained in float64.

-format json writes JSON Lines instead: one object per row and line, its
keys the column names above, its values JSON numbers (the -id field a
string). JSON has no infinity: ±Inf and NaN are written as the strings
"Infinity", "-Infinity" and "NaN", which keep an unknown interval's sign
and which most languages' number parsers read back.

Rows far outside the training data (large input_z, outside > 0) are
extrapolations: do not trust their uncertainty. A count of them is
written to stderr. An ensemble also says so itself: a disagreement near
or above 1, or an sd far beyond the targets' spread.

FILE.csv may leave out the target column: it is the column -target names,
or the model's target if FILE.csv has it, and is ignored.

For a model of several targets (train -target a,b), FILE.csv is read as
for one target, its features picked by name wherever they stand and
other columns ignored; each target t has the columns
mean:t, loL_cal:t, hiL_cal:t, sd_corrected:t, loL_student_t:t and
hiL_student_t:t (its marginal predictive; the calibrated one carries the
joint region's scale), and each pair a, b a column corr:a:b; then the
row's input_z, outside and unseen, as above, once a row since they are
the input's and every target shares them (a level no training row had
makes every target's _cal interval -Inf, +Inf); and each target's
sd_epistemic:t and disagreement:t, an ensemble's own uncertainty of that
target. For a target train logged (its summary says which) every column
is in original units, as for one logged target: mean:t the log-normal
mean of the calibrated predictive, the intervals the images of the log's,
sd_corrected:t the log-normal's, and corr:a:b the correlation in original
units (the log-normal's, not that of the logarithms); sd_epistemic:t and
disagreement:t stay those of the logarithm. -format json writes the
same keys; -id does not apply. A model of several targets saved without
names (by a program, through the library) takes its features by
position, first, and calls its targets y1, y2, ….

-given a,b names targets of a model of several targets, in any order,
some but not all of them, whose values FILE.csv holds in columns of
those names (a model saved without names: its targets y1, y2, … as the
last columns, after its features). Each row's prediction is then the law
of the other targets given the row's values of these: the columns above
for each target that remains and each pair of them, in the model's
order: narrower than without -given where the targets are correlated
(the joint t's wider where the given values lie far from their
prediction). sd_epistemic:t and disagreement:t are the conditional's
under the joint t, and under the copula the target's own model's, which
conditioning leaves as they are. A conditional has no conformal region,
so there are no conformal columns. A given field that is missing (empty, NA, NULL, …),
text or infinite, or a value the model refuses (one ≤ 0 of a target
train logged; one so far out that the law of the rest leaves float64),
stops the command with its line and column; the rows are checked a
chunk of a few thousand at a time, so that the first chunk's errors
write nothing. A line on stderr says which targets the rows conditioned.

`+streamAbout+"\n\n"+columnsAbout)
	a := modelFlags(c, "name of the target column, ignored if present (default: the model's target)")
	levelsFlag := c.fs.String("levels", "0.95", "interval levels, comma-separated, each in (0, 1): 0.5,0.9,0.95 writes three intervals of each kind")
	id := c.fs.String("id", "", "a column of FILE.csv to pass through as the first column, to match rows (a feature column stays a feature too)")
	format := c.fs.String("format", "csv", "output format: csv, or json for JSON Lines, an object per row")
	given := c.fs.String("given", "", "targets of a model of several targets whose values FILE.csv holds, comma-separated: predict the others given them, row by row (no conformal columns)")
	c.fs.Lookup("data").Usage = dataStdinHelp
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	if *format != "csv" && *format != "json" {
		return fmt.Errorf("predict: -format %q: %w; want csv or json", shorten(*format), errFormat)
	}
	levels, err := parseLevels(*levelsFlag)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	m, err := loadModel(*a.model)
	if err != nil {
		return err
	}
	var g *givenTargets
	if c.set("given") {
		if g, err = parseGiven(m, *given); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	}
	if mn, multi := multiNetwork(m); multi {
		if *id != "" {
			return fmt.Errorf("predict: -id: %w", errMultiTarget)
		}
		return predictMulti(a, mn, levels, g, *format == "json", stderr, stdout)
	}
	var pw *predictWriter
	d := m.inputs()
	err = a.eachChunk(stderr, m, false, *id, chunkRows, func(c *chunk) error {
		if pw == nil {
			pw = newPredictWriter(stdout, m, levels, *id, *format == "json")
		}
		for i, p := range c.preds {
			var idv string
			if c.ids != nil {
				idv = c.ids[i]
			}
			if err := pw.row(idv, c.e.x[i*d:(i+1)*d], p, c.e.notes[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if pw != nil {
		if ferr := pw.flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// eval scores the model on a data file with a target column.
func eval(args []string, stdout, stderr io.Writer) error {
	c := newCommand("eval",
		"eval -model MODEL.gcpm -data FILE.csv [-target NAME] [-reorder]",
		`Score a model on FILE.csv, whose target is the column -target names, else
the model's target, else the last column, and print:
  N               the number of rows
  RMSE            root mean squared error of the mean
  RMSE_curve_area the mean RMSE of the rows left as the rows of highest
                  Student-t variance are removed one by one: the area under
                  the paper's RMSE-versus-rejection curve, which it calls
                  AUC (Sec. 6.4); lower means the variance ranks the errors
                  well
  RMSE_curve_area_corr  the same, ranked by the outlier-corrected variance
  CRPS            the mean continuous ranked probability score of the
                  Student-t predictive (an ensemble's mixture of them; a
                  comparator's Gaussian): in the target's units, lower is
                  better, the absolute error for a point prediction
  CRPS_calibrated the same for the calibrated predictive, N(mean,
                  corrected variance)
  miscalibration_area  the area between the share of targets inside their
                  central intervals and the intervals' level, over all
                  levels: 0 for perfect calibration, about 0.31/√N from
                  sampling alone (uncertainty-toolbox's, computed exactly);
                  and _calibrated, of the calibrated predictive
then a table: for the Student-t predictive, the calibrated one and, for a
model with a conformal calibration (gcp train's automatic recipe), the
conformal intervals, the mean negative log predictive density (NLL, lower
is better; none for the conformal intervals, which are no distribution)
and, at 50, 80, 90, 95 and 99%, the share of targets inside their central
interval (coverage; near the level for a calibrated model), the
intervals' mean width and their mean interval score (the width plus
2/(1 − level) times each miss's distance: lower is better); and last the
PIT histograms: the share of targets in each tenth of their predictive
CDF, flat at 0.1 for a calibrated predictive, U-shaped for intervals too
narrow, humped for too wide, sloped for a bias.

For a model of several targets (train -target a,b), every row must hold
every target, and eval prints N; per target t, RMSE:t, NLL:t (its
marginal Student t), CRPS:t and cov95-cal:t; then joint-NLL (the mean
negative log density of the multivariate t per row, original units),
joint-NLL-cal (that of the calibrated predictive, a multivariate t whose
scale and degrees of freedom training fitted on cross-fitted rows),
joint-cov50-cal, joint-cov90-cal and joint-cov95-cal (the shares of rows
inside the calibrated joint regions), joint-cov50-conformal,
joint-cov90-conformal and joint-cov95-conformal (inside the conformal
joint regions; NaN without a conformal calibration) and energy-score
(the multivariate CRPS of the calibrated predictive, 200 Monte Carlo
draws a row, fixed seed; +Inf where that predictive has no mean: a t of
at most 1 degree of freedom, or a logged target under a t). As for one target, rows that hold a level
training never saw (input_z +Inf), whose calibrated intervals and
regions are unknown, are left out of NLL:t, cov95-cal:t, joint-NLL,
joint-NLL-cal and the joint coverages; if there are any, unseen-rows
gives their count and unseen-joint-cov95 the share of them inside the
multivariate t's own 95% region. For a target train logged, RMSE:t is
of the log-normal mean, NLL:t and the joint NLLs are densities in
original units (with the Jacobian), and CRPS:t is +Inf: the log of a
Student t has tails too heavy for any CRPS, as for one logged target.
A model of several targets saved without names takes its features
first and its targets y1, y2, … as the table's last columns.

`+streamAbout+"\n\n"+columnsAbout)
	a := modelFlags(c, "name of the target column (default: the model's target, else the last column)")
	c.fs.Lookup("data").Usage = dataStdinHelp
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	m, err := loadModel(*a.model)
	if err != nil {
		return err
	}
	if mn, multi := multiNetwork(m); multi {
		return evalMulti(a, mn, stderr, stdout)
	}
	t := newEvalTally(m)
	rows, file := 0, ""
	err = a.eachChunk(stderr, m, true, "", chunkRows, func(c *chunk) error {
		rows, file = rows+c.tab.Rows(), c.tab.File
		if err := t.add(keepTargets(c.preds, c.e.y)); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	noteNoTarget(stderr, file, rows-len(t.y), rows)
	if n := len(t.y); n < 2 {
		rows := fmt.Sprintf("%d rows", n)
		if n == 1 {
			rows = "1 row"
		}
		return fmt.Errorf("eval: %s: %w: %s with a target; eval needs at least 2 (the RMSE curve's area takes two)", file, metrics.ErrTooFew, rows)
	}
	s, err := pointScores(t.mean, t.y, t.v, t.vc)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return writeReport(stdout, t, s)
}

// scores are the measures eval prints.
type scores struct {
	rmse, auc, aucCorr float64
	// nll and cover95 are the Student-t predictive's mean negative log
	// density and 95% coverage, nllCal and cover95Cal the calibrated
	// predictive's.
	nll, cover95, nllCal, cover95Cal float64
}

// score computes the measures of preds against the targets y.
func score(preds []gcp.Prediction, y []float64) (scores, error) {
	mean, v, vc := make([]float64, len(y)), make([]float64, len(y)), make([]float64, len(y))
	for i, p := range preds {
		mean[i], v[i], vc[i] = p.Mean, p.Var, p.VarCorrected
	}
	s, err := pointScores(mean, y, v, vc)
	if err != nil {
		return s, err
	}
	if s.nll, err = metrics.MeanNLL(preds, y, metrics.StudentT); err != nil {
		return s, err
	}
	if s.nllCal, err = metrics.MeanNLL(preds, y, metrics.Calibrated); err != nil {
		return s, err
	}
	if s.cover95, _, err = metrics.Coverage(preds, y, 0.95, metrics.StudentT); err != nil {
		return s, err
	}
	s.cover95Cal, _, err = metrics.Coverage(preds, y, 0.95, metrics.Calibrated)
	return s, err
}

// pointScores returns the measures of the means mean against the
// targets y (RMSE) and of their ranking by the Student-t variances v
// and the corrected variances vc (the RMSE curves' areas), the rest of
// scores zero.
func pointScores(mean, y, v, vc []float64) (scores, error) {
	var s scores
	var err error
	if s.rmse, err = metrics.RMSE(mean, y); err != nil {
		return s, err
	}
	if s.auc, err = rankedAUC(mean, y, v); err != nil {
		return s, err
	}
	s.aucCorr, err = rankedAUC(mean, y, vc)
	return s, err
}

// rankedAUC is metrics.AUC, or NaN when no two variances can be told
// apart because all are +Inf (a model with a fixed α ≤ 1 has no Student-t
// variance): the ranking, and so the AUC, would be the file's row order.
func rankedAUC(mean, y, variance []float64) (float64, error) {
	for _, v := range variance {
		if !math.IsInf(v, 1) {
			return metrics.AUC(mean, y, variance)
		}
	}
	return math.NaN(), nil
}

// predictRows returns the prediction of every row of the row-major x; an
// error names the row's line.
func predictRows(m model, tab *table.Table, x []float64) ([]gcp.Prediction, error) {
	preds, i, err := predictRowsOf(m, x)
	if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
	}
	return preds, nil
}
