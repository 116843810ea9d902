package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/dataset"
	"github.com/gcpnet/gcp/internal/metrics"
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

// load loads the model and the data file and encodes the data file's rows
// as the model takes them (encodeRows), with warnings on stderr about
// what the encoding noted; wantTarget requires the target column.
func (a modelArgs) load(stderr io.Writer, wantTarget bool) (model, *dataset.Table, encoded, error) {
	m, tab, e, _, err := a.loadTaking(stderr, wantTarget, "")
	return m, tab, e, err
}

// loadTaking is load, which first takes the column called take, unless
// empty, out of the data file (takeColumn): it is no input of the model,
// and its fields are returned as they are, for gcp predict's -id.
func (a modelArgs) loadTaking(stderr io.Writer, wantTarget bool, take string) (model, *dataset.Table, encoded, []string, error) {
	m, err := loadModel(*a.model)
	if err != nil {
		return nil, nil, encoded{}, nil, err
	}
	text := m.categorical()
	if take != "" {
		text = append(text, take)
	}
	tab, err := a.dialect.readTable(*a.data, text...)
	if err != nil {
		return nil, nil, encoded{}, nil, err
	}
	var taken []string
	if take != "" {
		if tab, taken, err = takeColumn(tab, take); err != nil {
			return nil, nil, encoded{}, nil, err
		}
	}
	sel, err := selectColumns(m, tab, *a.target, *a.reorder, wantTarget)
	if err != nil {
		return nil, nil, encoded{}, nil, err
	}
	e, err := encodeRows(m, tab, sel)
	if err != nil {
		return nil, nil, encoded{}, nil, err
	}
	warnRows(stderr, m, tab, sel, e)
	return m, tab, e, taken, nil
}

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

// predict writes the predictive distribution of every row to stdout.
func predict(args []string, stdout, stderr io.Writer) error {
	c := newCommand("predict",
		"predict -model MODEL.gcpm -data FILE.csv [-levels 0.95] [-id COLUMN] [-target NAME] [-reorder]",
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
  input_z         the largest robust z-score of the row's features
  outside         how many features lie outside their training range
  sd_epistemic    the spread of an ensemble's members (train -members K):
                  the model's own uncertainty; 0 for a single GCP network
  disagreement    sd_epistemic over the aleatoric sd, the noise
Numbers have the digits the model has: the shortest decimal that reads
back as the same float64, or as the same float32 for a model trained with
-float32.

Rows far outside the training data (large input_z, outside > 0) are
extrapolations: do not trust their uncertainty. A count of them is
written to stderr. An ensemble also says so itself: a disagreement near
or above 1, or an sd far beyond the targets' spread.

FILE.csv may leave out the target column: it is the column -target names,
or the model's target if FILE.csv has it, and is ignored.
`+columnsAbout)
	a := modelFlags(c, "name of the target column, ignored if present (default: the model's target)")
	levelsFlag := c.fs.String("levels", "0.95", "interval levels, comma-separated, each in (0, 1): 0.5,0.9,0.95 writes three intervals of each kind")
	id := c.fs.String("id", "", "a column of FILE.csv to pass through as the first column, to match rows (not a feature)")
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	levels, err := parseLevels(*levelsFlag)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	m, tab, e, ids, err := a.loadTaking(stderr, false, *id)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, e.x)
	if err != nil {
		return err
	}
	pw := newPredictWriter(stdout, m, levels, *id)
	d := m.inputs()
	for i, p := range preds {
		var idv string
		if ids != nil {
			idv = ids[i]
		}
		if err := pw.row(idv, e.x[i*d:(i+1)*d], p); err != nil {
			return err
		}
	}
	return pw.flush()
}

// takeColumn returns tab without the column called name, and that
// column's fields as they are in the file (tab must hold it as text).
func takeColumn(tab *dataset.Table, name string) (*dataset.Table, []string, error) {
	k, err := tab.Column(name)
	if err != nil {
		return nil, nil, err
	}
	rest := *tab
	rest.Header = slices.Delete(slices.Clone(tab.Header), k, k+1)
	rest.Columns = slices.Delete(slices.Clone(tab.Columns), k, k+1)
	col := make([]string, tab.Rows())
	for i := range col {
		col[i] = tab.Field(i, k)
	}
	return &rest, col, nil
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
`+columnsAbout)
	a := modelFlags(c, "name of the target column (default: the model's target, else the last column)")
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	m, tab, e, err := a.load(stderr, true)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, e.x)
	if err != nil {
		return err
	}
	preds, y := withTargets(stderr, tab.File, preds, e.y)
	s, err := score(preds, y)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return writeReport(stdout, m, preds, y, s)
}

// warnRows writes to w, for each kind of RecordNotes, how many rows of
// the encoded table e have it, and the first such row: rows outside the
// training data's range, levels the model does not know, and missing
// values imputed without an indicator.
func warnRows(w io.Writer, m model, tab *dataset.Table, sel selection, e encoded) {
	names, _ := m.columns()
	name := func(c int) string {
		if names == nil {
			return fmt.Sprintf("feature %d", c+1)
		}
		return names[c]
	}
	d := m.inputs()
	lo, hi, _ := m.FeatureRanges()
	for _, k := range []struct {
		count func(gcp.RecordNotes) (n, first int)
		what  func(i, c int) string
	}{
		{func(n gcp.RecordNotes) (int, int) { return n.Outside, n.FirstOutside }, func(i, c int) string {
			_, j := m.OutsideRange(e.x[i*d : (i+1)*d])
			return fmt.Sprintf("lie outside the training data's range (first: %s line %d, %s = %s, trained on [%g, %g]); their uncertainty is an extrapolation",
				tab.File, tab.Line(i), name(c), strings.TrimSpace(tab.Field(i, sel.idx[c])), lo[j], hi[j])
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Unseen, n.FirstUnseen }, func(i, c int) string {
			return fmt.Sprintf("have a level the model does not know (first: %s line %d, %s = %q), encoded as its pooled rare levels or as none",
				tab.File, tab.Line(i), name(c), strings.TrimSpace(tab.Field(i, sel.idx[c])))
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Imputed, n.FirstImputed }, func(i, c int) string {
			return fmt.Sprintf("have a missing value in a column that had none in training (first: %s line %d, %s), imputed by its training median or as no level",
				tab.File, tab.Line(i), name(c))
		}},
	} {
		rows, first, col := 0, 0, 0
		for i, n := range e.notes {
			if c, f := k.count(n); c > 0 {
				if rows == 0 {
					first, col = i, f
				}
				rows++
			}
		}
		if rows > 0 {
			fmt.Fprintf(w, "warning: %d of %d rows %s\n", rows, tab.Rows(), k.what(first, col))
		}
	}
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
	var s scores
	var err error
	if s.rmse, err = metrics.RMSE(mean, y); err != nil {
		return s, err
	}
	if s.auc, err = rankedAUC(mean, y, v); err != nil {
		return s, err
	}
	if s.aucCorr, err = rankedAUC(mean, y, vc); err != nil {
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
func predictRows(m model, tab *dataset.Table, x []float64) ([]gcp.Prediction, error) {
	preds, i, err := predictRowsOf(m, x)
	if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
	}
	return preds, nil
}
