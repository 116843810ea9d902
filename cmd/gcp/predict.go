package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
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
	m, err := loadModel(*a.model)
	if err != nil {
		return nil, nil, encoded{}, err
	}
	tab, err := a.dialect.readTable(*a.data)
	if err != nil {
		return nil, nil, encoded{}, err
	}
	sel, err := selectColumns(m, tab, *a.target, *a.reorder, wantTarget)
	if err != nil {
		return nil, nil, encoded{}, err
	}
	e, err := encodeRows(m, tab, sel)
	if err != nil {
		return nil, nil, encoded{}, err
	}
	warnRows(stderr, m, tab, sel, e)
	return m, tab, e, nil
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
		"predict -model MODEL.gcpm -data FILE.csv [-target NAME] [-reorder]",
		`Write one CSV line per row of FILE.csv to stdout, in order, with the
columns
  mean            the predicted mean
  sd              the Student-t standard deviation (+Inf for a model
                  trained with -fixed-alpha 1 or less)
  sd_corrected    the outlier-corrected standard deviation
  alpha           the trust signal α
  lo95, hi95      the central 95% interval of the Student-t predictive
  lo95_cal, hi95_cal  the central 95% calibrated interval, of
                  N(mean, sd_corrected²): the one to use for coverage
  input_z         the largest robust z-score of the row's features
  outside         how many features lie outside their training range
  sd_epistemic    the spread of an ensemble's members (train -members K):
                  the model's own uncertainty; 0 for a single GCP network
  disagreement    sd_epistemic over the aleatoric sd, the noise
Rows far outside the training data (large input_z, outside > 0) are
extrapolations: do not trust their uncertainty. A count of them is
written to stderr. An ensemble also says so itself: a disagreement near
or above 1, or an sd far beyond the targets' spread.

FILE.csv may leave out the target column: it is the column -target names,
or the model's target if FILE.csv has it, and is ignored.
`+columnsAbout)
	a := modelFlags(c, "name of the target column, ignored if present (default: the model's target)")
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	m, tab, e, err := a.load(stderr, false)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, e.x)
	if err != nil {
		return err
	}
	return writePredictions(stdout, m, e.x, preds)
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
then a calibration table: for the Student-t predictive and the calibrated
one, N(mean, corrected variance), the mean negative log predictive density
(NLL, lower is better) and, at 50, 80, 90, 95 and 99%, the share of targets
inside their central interval (coverage; near the level for a calibrated
model) and the intervals' mean width.
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
	fmt.Fprintf(stdout, "N                     %d\nRMSE                  %.6g\nRMSE_curve_area       %.6g\nRMSE_curve_area_corr  %.6g\n\n",
		len(y), s.rmse, s.auc, s.aucCorr)
	return writeCalibration(stdout, preds, y)
}

// calibrationLevels are the interval levels eval reports.
var calibrationLevels = []float64{0.5, 0.8, 0.9, 0.95, 0.99}

// writeCalibration writes eval's calibration table.
func writeCalibration(w io.Writer, preds []gcp.Prediction, y []float64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %10s %8s %10s %10s\n", "predictive", "NLL", "level", "coverage", "width")
	for _, k := range []metrics.Predictive{metrics.StudentT, metrics.Calibrated} {
		nll, err := metrics.MeanNLL(preds, y, k)
		if err != nil {
			return err
		}
		for i, level := range calibrationLevels {
			cover, width, err := metrics.Coverage(preds, y, level, k)
			if err != nil {
				return err
			}
			name, nllText := "", ""
			if i == 0 {
				name, nllText = k.String(), strconv.FormatFloat(nll, 'g', 6, 64)
			}
			fmt.Fprintf(&b, "%-12s %10s %7g%% %10.4f %10.4g\n", name, nllText, 100*level, cover, width)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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
				tab.File, tab.Lines[i], name(c), strings.TrimSpace(tab.Row(i)[sel.idx[c]]), lo[j], hi[j])
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Unseen, n.FirstUnseen }, func(i, c int) string {
			return fmt.Sprintf("have a level the model does not know (first: %s line %d, %s = %q), encoded as its pooled rare levels or as none",
				tab.File, tab.Lines[i], name(c), strings.TrimSpace(tab.Row(i)[sel.idx[c]]))
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Imputed, n.FirstImputed }, func(i, c int) string {
			return fmt.Sprintf("have a missing value in a column that had none in training (first: %s line %d, %s), imputed by its training median or as no level",
				tab.File, tab.Lines[i], name(c))
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
		return nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Lines[i], err)
	}
	return preds, nil
}

// writePredictions writes the CSV of predict to w, for the row-major
// inputs x.
func writePredictions(w io.Writer, m model, x []float64, preds []gcp.Prediction) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("mean,sd,sd_corrected,alpha,lo95,hi95,lo95_cal,hi95_cal,input_z,outside,sd_epistemic,disagreement\n")
	var buf []byte
	d := m.inputs()
	for i, p := range preds {
		lo, hi, err := p.Interval(0.95)
		if err != nil {
			return err
		}
		loCal, hiCal, err := p.CalibratedInterval(0.95)
		if err != nil {
			return err
		}
		outside, _ := m.OutsideRange(x[i*d : (i+1)*d])
		buf = buf[:0]
		for j, v := range [...]float64{p.Mean, math.Sqrt(p.Var), math.Sqrt(p.VarCorrected), p.Alpha, lo, hi, loCal, hiCal, p.InputZ, float64(outside),
			math.Sqrt(p.VarEpistemic), p.Disagreement} {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
