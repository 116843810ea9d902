package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/dataset"
	"github.com/gcpnet/gcp/internal/metrics"
)

// modelFlags adds the flags that predict and eval share; targetHelp
// describes -target.
func modelFlags(c *command, targetHelp string) (model, data, target *string) {
	model = c.fs.String("model", "", "model file written by gcp train (required)")
	data = c.fs.String("data", "", "data file: CSV with a header line (required)")
	target = c.fs.String("target", "", targetHelp)
	return model, data, target
}

// parseAndLoad parses the command's flags, requires -model and -data, and
// loads both files.
func parseAndLoad(c *command, args []string, stdout, stderr io.Writer, modelPath, dataPath *string) (*gcp.Model[float64], *dataset.Table, error) {
	if err := c.parse(args, stdout, stderr); err != nil {
		return nil, nil, err
	}
	if err := c.require(stderr, "model", "data"); err != nil {
		return nil, nil, err
	}
	return load(*modelPath, *dataPath)
}

// load reads the model and the data file that predict and eval work on.
// The model is read as float64 whatever type it was trained in: a float32
// model loads exactly, and float64 arithmetic only removes rounding.
func load(modelPath, dataPath string) (*gcp.Model[float64], *dataset.Table, error) {
	m, err := gcp.LoadFile[float64](modelPath)
	if err != nil {
		return nil, nil, err
	}
	tab, err := dataset.ReadFile(dataPath)
	if err != nil {
		return nil, nil, err
	}
	return m, tab, nil
}

// predict writes the predictive distribution of every row to stdout.
func predict(args []string, stdout, stderr io.Writer) error {
	c := newCommand("predict",
		"predict -model MODEL.gcpm -data FILE.csv [-target NAME]",
		`Write one CSV line per row of FILE.csv to stdout, in order, with the
columns mean, sd, sd_corrected, alpha, lo95, hi95: the predicted mean, the
Student-t standard deviation, the outlier-corrected one, the trust signal
α, and the central 95% predictive interval. sd is +Inf for a model
trained with -fixed-alpha 1 or less, whose Student-t has no variance.

FILE.csv may leave out the target: with as many columns as the model has
features, all columns are features; with one more, the last column, or
the one -target names, is the target and is ignored.`)
	modelPath, dataPath, target := modelFlags(c,
		"name of the target column, ignored if present (default: the last column if FILE.csv has one column more than the model's features)")
	m, tab, err := parseAndLoad(c, args, stdout, stderr, modelPath, dataPath)
	if err != nil {
		return err
	}
	x, err := features(tab, m.Config().Inputs, *target)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, x)
	if err != nil {
		return err
	}
	return writePredictions(stdout, preds)
}

// eval scores the model on a data file with a target column.
func eval(args []string, stdout, stderr io.Writer) error {
	c := newCommand("eval",
		"eval -model MODEL.gcpm -data FILE.csv [-target NAME]",
		`Score a model on FILE.csv, whose target is the last column unless
-target names another, and print one "name value" line per measure:
  N         the number of rows
  RMSE      root mean squared error of the mean
  AUC       the paper's area under the RMSE curve, rows ranked by the
            Student-t variance (Sec. 6.4; lower is better)
  AUC_corr  the same with rows ranked by the outlier-corrected variance
  t-NLL     mean negative log density of the Student-t predictive
  cover95   share of targets inside their central 95% interval`)
	modelPath, dataPath, target := modelFlags(c, "name of the target column (default: the last column)")
	m, tab, err := parseAndLoad(c, args, stdout, stderr, modelPath, dataPath)
	if err != nil {
		return err
	}
	x, y, err := tab.Split(*target)
	if err != nil {
		return err
	}
	if err := checkInputs(tab, *target, m.Config().Inputs); err != nil {
		return err
	}
	preds, err := predictRows(m, tab, x)
	if err != nil {
		return err
	}
	s, err := score(preds, y)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "N         %d\nRMSE      %.6g\nAUC       %.6g\nAUC_corr  %.6g\nt-NLL     %.6g\ncover95   %.6g\n",
		len(y), s.rmse, s.auc, s.aucCorr, s.nll, s.cover95)
	return err
}

// scores are the measures eval prints.
type scores struct {
	rmse, auc, aucCorr, nll, cover95 float64
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
	if s.nll, err = metrics.MeanNLL(preds, y); err != nil {
		return s, err
	}
	s.cover95, err = metrics.Coverage(preds, y, 0.95)
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
// number of inputs, by the rule predict documents: a column that -target
// names is the target and left out; a -target that names no column leaves
// every column a feature; without -target, a table with one column more
// than the model's inputs has the target last.
func features(tab *dataset.Table, inputs int, target string) ([]float64, error) {
	ncol := len(tab.Header)
	hasTarget := ncol == inputs+1
	if target != "" {
		_, err := tab.Column(target)
		hasTarget = err == nil
	}
	if !hasTarget {
		if ncol != inputs {
			return nil, fmt.Errorf("%s: %d columns, all features; the model takes %d features (and the target column, if present)",
				tab.File, ncol, inputs)
		}
		return tab.Values, nil
	}
	x, _, err := tab.Split(target)
	if err != nil {
		return nil, err
	}
	return x, checkInputs(tab, target, inputs)
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
func predictRows(m *gcp.Model[float64], tab *dataset.Table, x []float64) ([]gcp.Prediction, error) {
	d := m.Config().Inputs
	ws := m.NewWorkspace()
	preds := make([]gcp.Prediction, tab.Rows())
	for i := range preds {
		p, err := m.Predict(ws, x[i*d:(i+1)*d])
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Lines[i], err)
		}
		preds[i] = p
	}
	return preds, nil
}

// writePredictions writes the CSV of predict to w.
func writePredictions(w io.Writer, preds []gcp.Prediction) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("mean,sd,sd_corrected,alpha,lo95,hi95\n")
	var buf []byte
	for _, p := range preds {
		lo, hi, err := p.Interval(0.95)
		if err != nil {
			return err
		}
		buf = buf[:0]
		for j, v := range [...]float64{p.Mean, math.Sqrt(p.Var), math.Sqrt(p.VarCorrected), p.Alpha, lo, hi} {
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
