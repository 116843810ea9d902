package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/dataset"
	"github.com/gcpnet/gcp/internal/metrics"
)

// modelFlags adds the flags that predict and eval share; targetHelp
// describes -target.
func modelFlags(c *command, targetHelp string) (model, data, target *string, reorder *bool) {
	model = c.fs.String("model", "", "model file written by gcp train (required)")
	data = c.fs.String("data", "", "data file: CSV with a header line (required)")
	target = c.fs.String("target", "", targetHelp)
	reorder = c.fs.Bool("reorder", false, "pick the model's features by name wherever they stand, ignoring other columns")
	return model, data, target, reorder
}

// parseAndLoad parses the command's flags, requires -model and -data, and
// loads both files.
func parseAndLoad(c *command, args []string, stdout, stderr io.Writer, modelPath, dataPath *string) (model, *dataset.Table, error) {
	if err := c.parse(args, stdout, stderr); err != nil {
		return nil, nil, err
	}
	if err := c.require(stderr, "model", "data"); err != nil {
		return nil, nil, err
	}
	return load(*modelPath, *dataPath)
}

// load reads the model and the data file that predict and eval work on.
func load(modelPath, dataPath string) (model, *dataset.Table, error) {
	m, err := loadModel(modelPath)
	if err != nil {
		return nil, nil, err
	}
	tab, err := dataset.ReadFile(dataPath)
	if err != nil {
		return nil, nil, err
	}
	return m, tab, nil
}

// loadModel reads a saved model of any method: a network of the root
// package, read as float64 whatever type it was trained in (a float32
// model loads exactly, and float64 arithmetic only removes rounding), or
// a comparator of package bayes. A file that is neither gets the root
// package's error.
func loadModel(path string) (model, error) {
	m, err := gcp.LoadFile[float64](path)
	if err == nil {
		return network{m, storedBits(path)}, nil
	}
	if !errors.Is(err, gcp.ErrMagic) {
		return nil, err
	}
	b, readErr := os.ReadFile(path)
	if readErr != nil {
		return nil, err
	}
	bm, bayesErr := loadBayes(b)
	switch {
	case errors.Is(bayesErr, gcp.ErrMagic):
		return nil, err
	case bayesErr != nil:
		return nil, fmt.Errorf("loading %s: %w", path, bayesErr)
	}
	return bm, nil
}

// storedBits returns the precision of the parameters of the saved model
// at path, 32 or 64, from the element size in its header (offset 10, 4
// for float32), which LoadFile has just read and checked.
func storedBits(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 64
	}
	defer f.Close()
	var head [11]byte
	if _, err := io.ReadFull(f, head[:]); err != nil || head[10] != 4 {
		return 64
	}
	return 32
}

// columnsAbout is the help text on how predict and eval find the model's
// columns.
const columnsAbout = `A model written by gcp train knows its features' names: the columns of
FILE.csv other than the target must be those features, in the same order,
or the command stops and names the difference (-reorder picks them by name
instead). A model saved without names (by an older release) takes the
columns by position.`

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
	modelPath, dataPath, target, reorder := modelFlags(c, "name of the target column, ignored if present (default: the model's target)")
	levelsFlag := c.fs.String("levels", "0.95", "interval levels, comma-separated, each in (0, 1): 0.5,0.9,0.95 writes three intervals of each kind")
	id := c.fs.String("id", "", "a column of FILE.csv to pass through as the first column, to match rows (not a feature)")
	m, tab, err := parseAndLoad(c, args, stdout, stderr, modelPath, dataPath)
	if err != nil {
		return err
	}
	levels, err := parseLevels(*levelsFlag)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	var ids []float64
	if *id != "" {
		if tab, ids, err = takeColumn(tab, *id); err != nil {
			return err
		}
	}
	x, _, err := columns(m, tab, *target, *reorder, false)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, x)
	if err != nil {
		return err
	}
	warnOutside(stderr, m, tab, x)
	pw := newPredictWriter(stdout, m, levels, *id)
	d := m.inputs()
	for i, p := range preds {
		var idv float64
		if ids != nil {
			idv = ids[i]
		}
		if err := pw.row(idv, x[i*d:(i+1)*d], p); err != nil {
			return err
		}
	}
	return pw.flush()
}

// takeColumn returns tab without the column called name, and that
// column's values.
func takeColumn(tab *dataset.Table, name string) (*dataset.Table, []float64, error) {
	k, err := tab.Column(name)
	if err != nil {
		return nil, nil, err
	}
	rest := *tab
	rest.Header = slices.Delete(slices.Clone(tab.Header), k, k+1)
	ncol := len(tab.Header)
	rest.Values = make([]float64, 0, len(tab.Values)-tab.Rows())
	col := make([]float64, tab.Rows())
	for i := range col {
		row := tab.Values[i*ncol : (i+1)*ncol]
		col[i] = row[k]
		rest.Values = append(append(rest.Values, row[:k]...), row[k+1:]...)
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
	modelPath, dataPath, target, reorder := modelFlags(c, "name of the target column (default: the model's target, else the last column)")
	m, tab, err := parseAndLoad(c, args, stdout, stderr, modelPath, dataPath)
	if err != nil {
		return err
	}
	x, y, err := columns(m, tab, *target, *reorder, true)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, x)
	if err != nil {
		return err
	}
	warnOutside(stderr, m, tab, x)
	s, err := score(preds, y)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return writeReport(stdout, m, preds, y, s)
}

// warnOutside writes to w how many rows of x have a feature outside the
// model's training range, and the first such row, if any.
func warnOutside(w io.Writer, m model, tab *dataset.Table, x []float64) {
	d := m.inputs()
	names, _ := m.FeatureNames()
	rows, firstRow, firstFeature := 0, 0, 0
	for i := 0; i < tab.Rows(); i++ {
		if n, j := m.OutsideRange(x[i*d : (i+1)*d]); n > 0 {
			if rows == 0 {
				firstRow, firstFeature = i, j
			}
			rows++
		}
	}
	if rows == 0 {
		return
	}
	feature := fmt.Sprintf("feature %d", firstFeature+1)
	if names != nil {
		feature = names[firstFeature]
	}
	lo, hi, _ := m.FeatureRanges()
	fmt.Fprintf(w, "warning: %d of %d rows lie outside the training data's range (first: %s line %d, %s = %g, trained on [%g, %g]); their uncertainty is an extrapolation\n",
		rows, tab.Rows(), tab.File, tab.Lines[firstRow], feature, x[firstRow*d+firstFeature], lo[firstFeature], hi[firstFeature])
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

// features returns the feature columns of tab for a model of the given
// number of inputs, and its target column if it has one, by the rule
// predict documents: a column that -target names is the target and left
// out; a -target that names no column leaves every column a feature;
// without -target, a table with one column more than the model's inputs
// has the target last.
func features(tab *dataset.Table, inputs int, target string) (x, y []float64, err error) {
	ncol := len(tab.Header)
	hasTarget := ncol == inputs+1
	if target != "" {
		_, err := tab.Column(target)
		hasTarget = err == nil
	}
	if !hasTarget {
		if ncol != inputs {
			return nil, nil, fmt.Errorf("%s: %d columns, all features; the model takes %d features (and the target column, if present)",
				tab.File, ncol, inputs)
		}
		return tab.Values, nil, nil
	}
	if x, y, err = tab.Split(target); err != nil {
		return nil, nil, err
	}
	return x, y, checkInputs(tab, target, inputs)
}

// checkInputs returns an error unless tab, less its target column, has
// the model's number of inputs.
func checkInputs(tab *dataset.Table, target string, inputs int) error {
	if got := len(tab.Header) - 1; got != inputs {
		k, _ := tab.Column(target)
		return fmt.Errorf("%s: %d feature columns besides the target %s; the model takes %d",
			tab.File, got, tab.Header[k], inputs)
	}
	return nil
}

// predictRows returns the prediction of every row of the row-major x; an
// error names the row's line.
func predictRows(m model, tab *dataset.Table, x []float64) ([]gcp.Prediction, error) {
	preds, i, err := predictRowsOf(m, x)
	if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Lines[i], err)
	}
	return preds, nil
}
