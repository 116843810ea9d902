package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/metrics"
	"github.com/gcpnet/gcp/table"
)

// splitsAbout is the help text of gcp splits.
const splitsAbout = `Run the standard UCI benchmark protocol (Hernández-Lobato & Adams 2015;
Gal & Ghahramani 2016) on FILE.csv: for each line of the split file, whose
comma-separated 0-based row numbers are a test split, train on the other
rows exactly as gcp train would with the same flags (by default the
automatic recipe, with no flag at all), then score the test rows in
original units: RMSE, the mean negative log predictive density (NLL) and
the coverage of the central 95% interval, for the Student-t predictive
and for the calibrated one, N(mean, corrected variance), with the
calibrated interval's mean width, and the coverage and mean width of the
conformal 95% interval (for a model of the automatic recipe). It prints
each measure's mean and standard error over the splits.

-splits defaults to splits/NAME_test_idx.txt beside FILE.csv, the layout of
data/uci. With -inner the test rows are never read: each training split
holds out a tenth of its rows, drawn from -seed, as a stand-in test set
and trains on the rest, so that a recipe can be compared without looking
at test data.

Each split trains in float32 or float64 as gcp train decides on its
training rows; the first split, and any that decides otherwise than the
one before, says which and why on stderr (with -json, every split's
object gives it as "precision").

With -target a,b,c, each split trains a model of several targets as gcp
train -target does, and its held-out rows are scored as gcp eval scores
such a model: per target RMSE:t, NLL:t, CRPS:t and cov95-cal:t, then
joint-NLL, joint-NLL-cal, the calibrated and conformal joint coverages and
energy-score, one line a split (with -json, one object a split with
eval's keys), then each one's mean and standard error. Flags that do not
apply to several targets are refused as gcp train -target refuses them.`

// splitScores are the measures of one split.
type splitScores struct {
	RMSE       float64 `json:"rmse"`
	NLL        float64 `json:"nll"`
	NLLCal     float64 `json:"nll_calibrated"`
	Cover95    float64 `json:"coverage95"`
	Cover95Cal float64 `json:"coverage95_calibrated"`
	// The mean width of the calibrated 95% intervals, and the coverage and
	// mean width of the conformal ones (NaN for a model without them: a
	// Bayesian comparator, or -validation 0).
	Width95Cal  float64   `json:"width95_calibrated"`
	Cover95Conf jsonFloat `json:"coverage95_conformal"`
	Width95Conf jsonFloat `json:"width95_conformal"`
	// The same measures of the model before calibration (VarScale and
	// CorrectedScale 1): what calibration changed.
	NLLRaw        float64 `json:"nll_uncalibrated"`
	Cover95Raw    float64 `json:"coverage95_uncalibrated"`
	Cover95CalRaw float64 `json:"coverage95_calibrated_uncalibrated"`
	LR            float64 `json:"lr"`
	Dropout       float64 `json:"dropout"`
	Hidden        []int   `json:"hidden,omitempty"` // the chosen architecture
	Weighting     float64 `json:"scale_weighting"`
	Quantum       float64 `json:"quantum,omitempty"` // the target's lattice spacing, 0 for none
	Epoch         int     `json:"epoch"`
	MeanEpoch     int     `json:"mean_epoch,omitempty"` // the ensemble's mean heads' epoch (gcp.AutoResult.MeanEpoch)
	Transform     string  `json:"transform,omitempty"`  // the target transform the split's model works in
	VarScale      float64 `json:"var_scale"`
	Seconds       float64 `json:"seconds"`
	// Precision is what the networks trained in, float32 or float64; ""
	// for a Bayesian comparator, which has no choice. note says why, as
	// gcp train's summary does.
	Precision string `json:"precision,omitempty"`
	note      string
}

// splits runs the standard benchmark's fixed splits of a data file.
func splits(args []string, stdout, stderr io.Writer) error {
	c := newCommand("splits",
		"splits -data FILE.csv [-splits FILE.txt] [-n N] [-inner] [-json] [training flags]",
		splitsAbout)
	data := c.fs.String("data", "", "data: CSV with a header line (required)")
	splitFile := c.fs.String("splits", "", "test splits, one line of 0-based row numbers each (default: splits/NAME_test_idx.txt beside -data)")
	target := c.fs.String("target", "", "name of the target column (default: the last column); a,b,c: several targets, one model of them all")
	dialect := addDialectFlags(c)
	count := c.fs.Int("n", 0, "run only the first N splits (default: all)")
	inner := c.fs.Bool("inner", false, "never read the test rows: score on a tenth of each training split held out from training")
	asJSON := c.fs.Bool("json", false, "print one JSON object per split and one for the summary instead of a table")
	rf := addRecipeFlags(c)
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	if err := c.require(stderr, "data"); err != nil {
		return err
	}
	if err := rf.check(c); err != nil {
		return fmt.Errorf("splits: %w", err)
	}
	names := multiTargets(*target)
	if names != nil {
		if err := rf.checkMulti(c); err != nil {
			return fmt.Errorf("splits: -target %s: %w", *target, err)
		}
	} else if err := rf.checkOne(c); err != nil {
		return fmt.Errorf("splits: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(*data), filepath.Ext(*data))
	if *splitFile == "" {
		*splitFile = filepath.Join(filepath.Dir(*data), "splits", name+"_test_idx.txt")
	}
	tab, err := dialect.readTable(*data)
	if err != nil {
		return err
	}
	k := -1
	if names == nil {
		if k, err = tab.Target(*target); err != nil {
			return err
		}
	}
	tests, err := readTestSplits(*splitFile, tab.Rows())
	if err != nil {
		return err
	}
	if *count > 0 && *count < len(tests) {
		tests = tests[:*count]
	}
	trains, evals := splitSets(tests, tab.Rows(), *inner, *rf.seed)
	ctx, stop := interruptContext()
	defer stop()
	if names != nil {
		return multiSplits(ctx, c, rf, tab, names, trains, evals, splitsOutput{stdout, stderr, name, *inner, *asJSON})
	}
	var res []splitScores
	start := time.Now()
	notes := precisionNotes{w: stderr}
	for i, train := range trains {
		t0 := time.Now()
		var s splitScores
		if rf.meth.network() {
			s, err = runSplit(ctx, c, rf, tab, k, train, evals[i])
		} else {
			s, err = bayesSplit(ctx, rf.meth, rf.bayesHyper(c), tab, k, train, evals[i])
		}
		if err != nil {
			return splitError(ctx, i, err)
		}
		s.Seconds = math.Round(time.Since(t0).Seconds()*1000) / 1000
		res = append(res, s)
		if s.Precision != "" {
			notes.add(i, s.Precision, s.note)
		}
		if *asJSON {
			b, _ := json.Marshal(struct {
				Split int `json:"split"`
				splitScores
			}{i, s})
			fmt.Fprintf(stdout, "%s\n", b)
		} else {
			fmt.Fprintf(stderr, "split %d: RMSE %.4g, NLL %.4g, cover95 %.3f (lr %g, dropout %g, epoch %d, %.1f s)\n",
				i, s.RMSE, s.NLL, s.Cover95Cal, s.LR, s.Dropout, s.Epoch, s.Seconds)
		}
	}
	return writeSplitsSummary(stdout, name, *inner, *asJSON, res, time.Since(start))
}

// splitsOutput is where and how gcp splits prints: the per-split lines on
// stderr as text or on stdout as JSON, the summary on stdout.
type splitsOutput struct {
	stdout, stderr io.Writer
	name           string // the data set's name
	inner, json    bool
}

// splitError is the error of training split i, or of its interruption.
func splitError(ctx context.Context, i int, err error) error {
	return interrupted(ctx, fmt.Errorf("splits: split %d: %w", i, err), fmt.Sprintf("training split %d", i), "")
}

// splitSets returns, for each test split of a table of rows rows, the
// rows to train on and those to score: the test rows, or with inner a
// tenth of the training rows held out (innerHoldOut), the test rows never
// among either.
func splitSets(tests [][]int, rows int, inner bool, seed uint64) (trains, evals [][]int) {
	for i, test := range tests {
		train, eval := splitRows(allRows(rows), test)
		if inner {
			train, eval = splitRows(train, innerHoldOut(len(train), seed, i))
		}
		trains, evals = append(trains, train), append(evals, eval)
	}
	return trains, evals
}

// readTestSplits reads a split file: one test split a line, its 0-based
// row numbers separated by commas, each below rows.
func readTestSplits(path string, rows int) ([][]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]int
	for ln, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var test []int
		seen := make(map[int]bool)
		for _, f := range strings.Split(line, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || i < 0 || i >= rows || seen[i] {
				return nil, fmt.Errorf("%s: line %d: %q is not a new row number in 0..%d", path, ln+1, f, rows-1)
			}
			seen[i] = true
			test = append(test, i)
		}
		if len(test) >= rows {
			return nil, fmt.Errorf("%s: line %d: the test split leaves no training row", path, ln+1)
		}
		out = append(out, test)
	}
	return out, nil
}

// splitRows returns the rows not at the positions test in rows, in
// order, and those at them, in test's order.
func splitRows(rows, test []int) (rest, sel []int) {
	in := make([]bool, len(rows))
	for _, i := range test {
		in[i] = true
		sel = append(sel, rows[i])
	}
	for i, r := range rows {
		if !in[i] {
			rest = append(rest, r)
		}
	}
	return rest, sel
}

// innerHoldOut returns a tenth of n rows, drawn from seed and the split's
// number, for -inner.
func innerHoldOut(n int, seed uint64, split int) []int {
	r := rand.New(rand.NewPCG(seed, uint64(split)^0x9b05688c2b3e6c1f))
	return r.Perm(n)[:max(1, n/10)]
}

// runSplit trains as gcp train would with the recipe's flags on the rows
// train of tab, whose target is column k, and scores the rows eval.
func runSplit(ctx context.Context, c *command, rf *recipeFlags, tab *table.Table, k int, train, eval []int) (splitScores, error) {
	td, err := prepareTraining(tab, tab.Header[k], train, *rf.transform)
	if err != nil {
		return splitScores{}, err
	}
	f32, note, err := rf.precision(td)
	if err != nil {
		return splitScores{}, err
	}
	job := rf.job(c, td)
	test := tab.Select(eval)
	var s splitScores
	if f32 {
		s, err = trainAndScore[float32](ctx, job, test, k)
	} else {
		s, err = trainAndScore[float64](ctx, job, test, k)
	}
	s.Precision, s.note = precisionName(f32), note
	return s, err
}

func trainAndScore[T gcp.Float](ctx context.Context, job fitJob, test *table.Table, k int) (splitScores, error) {
	m, fr, err := fitModel[T](ctx, job)
	if err != nil {
		return splitScores{}, err
	}
	eval, err := encodeFor(m, test, k)
	if err != nil {
		return splitScores{}, err
	}
	preds, sc, err := scoreModel(m, eval)
	if err != nil {
		return splitScores{}, err
	}
	raw := m.Clone()
	if err := errors.Join(raw.SetVarScale(1), raw.SetCorrectedScale(1)); err != nil {
		return splitScores{}, err
	}
	_, rs, err := scoreModel(raw, eval)
	if err != nil {
		return splitScores{}, err
	}
	a := fr.auto
	s := splitScores{RMSE: sc.rmse, NLL: sc.nll, NLLCal: sc.nllCal, Cover95: sc.cover95, Cover95Cal: sc.cover95Cal,
		NLLRaw: rs.nll, Cover95Raw: rs.cover95, Cover95CalRaw: rs.cover95Cal,
		LR: a.LearningRate, Dropout: a.Dropout, Hidden: a.Hidden, Weighting: a.ScaleWeighting, Quantum: a.Quantum,
		Epoch: a.Epoch, MeanEpoch: a.MeanEpoch, Transform: m.TargetTransform().String(), VarScale: a.VarScale}
	return s, s.intervals(m, preds, eval.y)
}

// intervals sets the widths of the calibrated and conformal 95%
// intervals of m's predictions preds and the conformal ones' coverage of
// the targets y.
func (s *splitScores) intervals(m conformalModel, preds []gcp.Prediction, y []float64) error {
	cal, err := metrics.CentralIntervals(preds, y, 0.95, metrics.Calibrated)
	if err != nil {
		return err
	}
	s.Width95Cal, s.Cover95Conf, s.Width95Conf = cal.Width, jsonFloat(math.NaN()), jsonFloat(math.NaN())
	if !hasConformal(m) {
		return nil
	}
	conf, err := metrics.CentralIntervals(preds, y, 0.95, conformal{m})
	s.Cover95Conf, s.Width95Conf = jsonFloat(conf.Coverage), jsonFloat(conf.Width)
	return err
}

// bayesSplit trains the Bayesian comparator m by h on the rows train of
// tab, whose target is column k, and scores the rows eval. It has no
// calibration: the calibrated and raw measures are those of its Gaussian
// predictive.
func bayesSplit(ctx context.Context, m method, h bayesHyper, tab *table.Table, k int, train, eval []int) (splitScores, error) {
	td, err := prepareTraining(tab, tab.Header[k], train, "none")
	if err != nil {
		return splitScores{}, err
	}
	if err := td.plain(); err != nil {
		return splitScores{}, err
	}
	model, err := fitBayes(ctx, m, h, td.x, td.y)
	if err != nil {
		return splitScores{}, err
	}
	test := tab.Select(eval)
	e, err := encodeRows(model, test, byPosition(test, k))
	if err != nil {
		return splitScores{}, err
	}
	preds, _, err := predictRowsOf(model, e.x)
	if err != nil {
		return splitScores{}, err
	}
	preds, y := withTargets(io.Discard, test.File, preds, e.y)
	sc, err := score(preds, y)
	if err != nil {
		return splitScores{}, err
	}
	s := splitScores{RMSE: sc.rmse, NLL: sc.nll, NLLCal: sc.nllCal, Cover95: sc.cover95, Cover95Cal: sc.cover95Cal,
		NLLRaw: sc.nll, Cover95Raw: sc.cover95, Cover95CalRaw: sc.cover95Cal, Epoch: h.epochs, VarScale: 1}
	return s, s.intervals(model, preds, y)
}

// testRows are the encoded inputs and the targets of the test rows that
// have a target.
type testRows[T gcp.Float] struct {
	x []T
	y []float64
}

// encodeFor encodes the rows of test, whose target is column k, for the
// model m, through its encoding as gcp predict does, leaving out the rows
// without a target.
func encodeFor[T gcp.Float](m *gcp.Model[T], test *table.Table, k int) (testRows[T], error) {
	d := m.Config().Inputs
	x := make([]T, test.Rows()*d)
	_, y, err := encodeTable(test, byPosition(test, k), func(i int, cols []gcp.TableColumn) (gcp.RecordNotes, error) {
		return m.EncodeRow(x[i*d:(i+1)*d], cols, i, test.Dialect.Decimal)
	})
	if err != nil {
		return testRows[T]{}, err
	}
	var out testRows[T]
	for i, v := range y {
		if !math.IsNaN(v) {
			out.x, out.y = append(out.x, x[i*d:(i+1)*d]...), append(out.y, v)
		}
	}
	return out, nil
}

// scoreModel returns m's predictions of the rows of eval and their
// scores.
func scoreModel[T gcp.Float](m *gcp.Model[T], eval testRows[T]) ([]gcp.Prediction, scores, error) {
	preds := make([]gcp.Prediction, len(eval.y))
	if err := m.PredictBatch(m.NewWorkspace(), eval.x, preds); err != nil {
		return nil, scores{}, err
	}
	s, err := score(preds, eval.y)
	return preds, s, err
}

// meanSE returns the mean of v and its standard error, sd/√n.
func meanSE(v []float64) (mean, se float64) {
	m, sd, err := metrics.MeanStd(v)
	if err != nil {
		return math.NaN(), math.NaN()
	}
	return m, sd / math.Sqrt(float64(len(v)))
}

// summaryMeasure is one measure of a summary over splits: its name in
// the table, its key in the JSON object, and its value on each split.
type summaryMeasure struct {
	name, key string
	v         []float64
}

// writeSplitsSummary prints the mean ± standard error of each measure.
func writeSplitsSummary(w io.Writer, name string, inner, asJSON bool, res []splitScores, took time.Duration) error {
	measures := []struct {
		name string
		get  func(splitScores) float64
	}{
		{"RMSE", func(s splitScores) float64 { return s.RMSE }},
		{"NLL", func(s splitScores) float64 { return s.NLL }},
		{"NLL_calibrated", func(s splitScores) float64 { return s.NLLCal }},
		{"cover95", func(s splitScores) float64 { return s.Cover95 }},
		{"cover95_calibrated", func(s splitScores) float64 { return s.Cover95Cal }},
		{"width95_calibrated", func(s splitScores) float64 { return s.Width95Cal }},
		{"cover95_conformal", func(s splitScores) float64 { return float64(s.Cover95Conf) }},
		{"width95_conformal", func(s splitScores) float64 { return float64(s.Width95Conf) }},
	}
	var ms []summaryMeasure
	for _, m := range measures {
		v := make([]float64, len(res))
		for i, s := range res {
			v[i] = m.get(s)
		}
		ms = append(ms, summaryMeasure{m.name, strings.ToLower(m.name), v})
	}
	return writeSummary(w, name, inner, asJSON, len(res), ms, took)
}

// writeSummary prints the mean ± standard error over n splits of each
// measure, as a table or, with asJSON, as one JSON object.
func writeSummary(w io.Writer, name string, inner, asJSON bool, n int, measures []summaryMeasure, took time.Duration) error {
	type ms struct {
		Mean jsonFloat `json:"mean"`
		SE   jsonFloat `json:"se"`
	}
	sum := map[string]any{"dataset": name, "splits": n, "inner": inner, "seconds": math.Round(took.Seconds()*10) / 10}
	var b strings.Builder
	what := "test splits"
	if inner {
		what = "inner hold-outs (no test row read)"
	}
	width := 20 // the names' column, wider for a longer name
	for _, m := range measures {
		width = max(width, len(m.name))
	}
	fmt.Fprintf(&b, "%s: %d %s in %.1f s\n%-*s %10s %10s\n", name, n, what, took.Seconds(), width, "measure", "mean", "se")
	for _, m := range measures {
		mean, se := meanSE(m.v)
		sum[m.key] = ms{jsonFloat(mean), jsonFloat(se)}
		fmt.Fprintf(&b, "%-*s %10.4g %10.3g\n", width, m.name, mean, se)
	}
	if asJSON {
		out, err := json.Marshal(sum)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", out)
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
