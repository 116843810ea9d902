package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/dataset"
	"github.com/gcpnet/gcp/internal/onese"
)

// trainingData is what gcp train, and each split of gcp splits, learns
// from the training rows of a data file before any network trains: the
// encoding of the columns (gcp.LearnEncoding), the target transform, and
// the rows encoded, targets transformed.
type trainingData struct {
	tab    *dataset.Table
	enc    *gcp.Encoding
	choice gcp.TransformChoice // Transform is the one applied
	x, y   []float64           // the encoded inputs, row-major, and the transformed targets
	raw    []float64           // the targets before the transform
	rows   []int               // the table's row of each encoded row
	// dropped is how many rows had no target.
	dropped int
	flag    string // -target-transform
}

// transformFlags are the values of -target-transform.
var transformFlags = []string{"auto", "log", "none"}

// errTooWide reports a table with more inputs than training rows.
// Fewer rows than inputs cannot show which inputs matter, so that the
// fit learns noise, and its time and memory grow with the inputs: on 100
// rows of 500 numbers gcp train took 20 s of CPU and 400 MB to learn
// nothing of a target that was three times the first column, and 100
// rows of 10,000 ran for more than 15 minutes in 3 GB.
var errTooWide = errors.New("more inputs than rows to train on")

// prepareTraining learns the encoding from the rows of tab whose indices
// are rows (nil: all), with the column target names (the last if empty)
// as the target, and applies the transform flag says: auto
// (gcp.ChooseTargetTransform on these rows' targets), log or none. Errors
// name the file, and a bad field its line and column; more inputs than
// rows with a target is an error wrapping errTooWide.
func prepareTraining(tab *dataset.Table, target string, rows []int, flag string) (trainingData, error) {
	k, err := tab.Target(target)
	if err != nil {
		return trainingData{}, err
	}
	enc, er, err := gcp.LearnEncodingColumns(tab.Header, tab.Columns, rows, tab.Header[k], tab.Dialect.Decimal)
	var fe *gcp.FieldError
	switch {
	case errors.As(err, &fe):
		return trainingData{}, tab.FieldError(fe.Row, fe.Index, fe.Err)
	case errors.Is(err, gcp.ErrBatch):
		n := len(rows)
		if rows == nil {
			n = tab.Rows()
		}
		return trainingData{}, &dataset.Error{File: tab.File, Line: tab.HeaderLine, Column: k + 1, Name: tab.Header[k],
			Err: fmt.Errorf("the target is missing in every one of the %d rows", n)}
	case err != nil: // the header's names
		return trainingData{}, &dataset.Error{File: tab.File, Line: tab.HeaderLine, Err: headerError{err}}
	}
	if enc.Inputs() > len(er.Rows) {
		return trainingData{}, &dataset.Error{File: tab.File, Line: tab.HeaderLine,
			Err: fmt.Errorf("%w: the %d feature columns become %d inputs, and %d rows have a target: train on more rows or fewer columns", errTooWide, len(enc.Columns()), enc.Inputs(), len(er.Rows))}
	}
	td := trainingData{tab: tab, enc: enc, x: er.X, y: slices.Clone(er.Y), raw: er.Y, dropped: er.Dropped, rows: er.Rows, flag: flag}
	td.choice = gcp.ChooseTargetTransform(td.y)
	switch flag {
	case "log":
		td.choice.Transform = gcp.TransformLog
	case "none":
		td.choice.Transform = gcp.TransformNone
	}
	for r, v := range td.y {
		if td.y[r], err = td.choice.Transform.Apply(v); err != nil {
			return trainingData{}, tab.FieldError(td.rows[r], k, fmt.Errorf("-target-transform %s: %w", flag, err))
		}
	}
	return td, nil
}

// plain reports whether the encoding takes every column as the number
// it is, with no missing value: all a Bayesian comparator can take.
func (td trainingData) plain() error {
	for _, c := range td.enc.Columns() {
		if c.Kind != gcp.Numeric || c.Missing {
			return fmt.Errorf("%s: column %s is %s: the Bayesian comparators (pbp, svgd) take numeric columns without missing values", td.tab.File, c.Name, describeColumn(c))
		}
	}
	return nil
}

// describe writes on w what was learned besides the networks: the rows
// read and left out and the columns that are not plain numbers.
func (td trainingData) describe(w io.Writer) {
	fmt.Fprintf(w, "read %s: %d rows (%s)", td.tab.File, td.tab.Rows(), td.tab.Dialect)
	if td.dropped > 0 {
		fmt.Fprintf(w, "; %d rows without a target (missing) left out", td.dropped)
	}
	fmt.Fprintln(w)
	if m := describeMissing(td.tab); m != "" {
		fmt.Fprintf(w, "missing values read: %s\n", m)
	}
	var cols []string
	for _, c := range td.enc.Columns() {
		if c.Kind != gcp.Numeric || c.Missing {
			cols = append(cols, c.Name+" "+describeColumn(c))
		}
	}
	if cols != nil {
		fmt.Fprintf(w, "columns: %s\n", strings.Join(cols, "; "))
	}
}

// describeMissing says how many fields of each column of tab were read
// as missing, by spelling ("a: 2 \"NULL\", 1 empty; y: 1 \"NA\""), or ""
// if none were: a spelling that a file uses for something else ("-" for
// zero, say) shows here.
func describeMissing(tab *dataset.Table) string {
	var cols []string
	for j, counts := range tab.Missing {
		if counts == nil {
			continue
		}
		spellings := make([]string, 0, len(counts))
		for spelling := range counts {
			spellings = append(spellings, spelling)
		}
		slices.Sort(spellings)
		var s []string
		for _, spelling := range spellings {
			if spelling == "" {
				s = append(s, fmt.Sprintf("%d empty", counts[spelling]))
			} else {
				s = append(s, fmt.Sprintf("%d %q", counts[spelling], spelling))
			}
		}
		cols = append(cols, tab.Header[j]+": "+strings.Join(s, ", "))
	}
	return strings.Join(cols, "; ")
}

// describeColumn says how a column that is not a plain number is encoded.
func describeColumn(c gcp.Column) string {
	var s string
	if c.Kind == gcp.Categorical {
		s = fmt.Sprintf("text, one-hot: %d levels", len(c.Levels))
		if c.Other {
			s += " and an input for rare levels"
		}
	} else {
		s = fmt.Sprintf("numeric, missing values imputed by the median %.4g", c.Impute)
	}
	if c.Missing {
		s += ", with a missing-value indicator"
	}
	return s
}

// describeTransform says which transform the model has and why: the flag
// given, or auto's choice (gcp.ChooseTargetTransform).
func describeTransform(c gcp.TransformChoice, flag string) string {
	if flag != "auto" {
		return fmt.Sprintf("(-target-transform %s): %s", flag, c.Transform)
	}
	s := "(-target-transform auto): " + c.String()
	if c.Transform == gcp.TransformLog {
		s += "; the mean reported is the log-normal mean of the calibrated predictive"
	}
	return s
}

// fitTransformed trains a Model[T] as job says. Where -target-transform
// auto found the log a candidate (job.untransformed), it trains the same
// job on the untransformed targets too and keeps the log model only if,
// on the rows both fits scored out of sample (AutoResult's CV fields, in
// original units), its NLL is lower by more than one standard error of
// the paired differences and its squared error is not higher by more
// than one (the one-standard-error rule, internal/onese, with the targets
// as they are the simpler model). A skewed positive target is not always
// better modelled on a log scale: Yacht's resistances span four decades,
// the smallest recorded to two decimals, the log gives their relative
// errors the weight of the largest targets', and on its inner hold-outs
// the log model had about the same NLL and a much worse mean (RMSE 1.04
// against 0.74). The fit that trains on every row (-validation 0, small
// files) has no held-out rows and keeps the log.
func fitTransformed[T gcp.Float](ctx context.Context, job fitJob) (*gcp.Model[T], fitResult, error) {
	x := asFloat[T](job.x) // one copy for both fits, none in float64
	m, res, err := fitModel(ctx, job, x)
	res.transform = job.transformNote
	if job.untransformed == nil || err != nil || res.plain {
		return m, res, err
	}
	alt := job
	alt.y, alt.transform, alt.untransformed = job.untransformed, gcp.TransformNone, nil
	m2, res2, err := fitModel(ctx, alt, x)
	if err != nil {
		if ctx.Err() != nil {
			return nil, res2, err
		}
		return m, res, nil // the log model stands
	}
	log, none := res.auto, res2.auto
	logRMSE, noneRMSE := rms(log.CVErrors), rms(none.CVErrors)
	if len(log.CVNLLs) != len(none.CVNLLs) ||
		onese.Pick([][]float64{none.CVNLLs, log.CVNLLs}) == 0 ||
		onese.Pick([][]float64{squares(log.CVErrors), squares(none.CVErrors)}) == 1 {
		res2.transform = fmt.Sprintf("(-target-transform auto): none: the targets are positive and skewed, but on a log scale their held-out NLL (%.4g against %.4g) is not lower, or their RMSE (%.4g against %.4g) is higher, by more than a standard error", log.CVNLL, none.CVNLL, logRMSE, noneRMSE)
		return m2, res2, nil
	}
	res.transform += fmt.Sprintf("; held-out NLL %.4g on the log scale, %.4g without; RMSE %.4g and %.4g", log.CVNLL, none.CVNLL, logRMSE, noneRMSE)
	return m, res, nil
}

// squares returns the squares of v.
func squares(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * x
	}
	return out
}

// rms returns the root mean square of v.
func rms(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s / float64(len(v)))
}

// allRows returns 0, 1, …, n−1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// headerError is an error in the header's names, which it says; it wraps
// the library's error (gcp.ErrConfig) for errors.Is.
type headerError struct{ err error }

func (e headerError) Error() string {
	return "the header: " + strings.TrimPrefix(e.err.Error(), "gcp: ")
}
func (e headerError) Unwrap() error { return e.err }
