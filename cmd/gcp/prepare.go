package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/isodate"
	"github.com/gcpnet/gcp/table"
)

// trainingData is what gcp train, and each split of gcp splits, learns
// from the training rows of a data file before any network trains: the
// encoding of the columns (gcp.LearnEncoding) and the rows encoded.
type trainingData struct {
	tab  *table.Table
	enc  *gcp.Encoding
	x, y []float64 // the encoded inputs, row-major, and the targets
	rows []int     // the table's row of each encoded row
	// dropped is how many rows had no target.
	dropped int
	// targets are the names of several targets, whose values y holds
	// row-major (prepareMultiTraining); nil for one.
	targets []string
}

// transformFlags are the values of -target-transform.
var transformFlags = []string{"auto", "log", "none"}

// flagTransforms returns the target transforms of -target-transform flag:
// nil (the recipe's choice) for auto.
func flagTransforms(flag string) []gcp.TargetTransform {
	switch flag {
	case "log":
		return []gcp.TargetTransform{gcp.TransformLog}
	case "none":
		return []gcp.TargetTransform{gcp.TransformNone}
	}
	return nil
}

// prepareTraining learns the encoding from the rows of tab whose indices
// are rows (nil: all), with the column target names (the last if empty)
// as the target, and checks that -target-transform flag can take every
// target. Its errors are Table.LearnEncoding's, and a target the
// transform refuses, named by its line and column.
func prepareTraining(tab *table.Table, target string, rows []int, flag string) (trainingData, error) {
	enc, er, err := tab.LearnEncoding(target, rows)
	if err != nil {
		return trainingData{}, err
	}
	k, _ := tab.Target(target)
	for _, tr := range flagTransforms(flag) {
		for r, v := range er.Y {
			if _, err := tr.Apply(v); err != nil {
				return trainingData{}, tab.FieldError(er.Rows[r], k, fmt.Errorf("-target-transform %s: %w", flag, err))
			}
		}
	}
	return trainingData{tab: tab, enc: enc, x: er.X, y: er.Y, dropped: er.Dropped, rows: er.Rows}, nil
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
func describeMissing(tab *table.Table) string {
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
	switch c.Kind {
	case gcp.Categorical:
		s = fmt.Sprintf("text, one-hot: %d levels", len(c.Levels))
		if c.Other {
			s += " and an input for rare levels"
		}
	case gcp.Date:
		s = "date: days since 1970-01-01, weekday, month (-dates off reads it as text)"
		if c.Missing {
			s += fmt.Sprintf(", missing dates imputed by the median %s", isodate.Format(c.Impute))
		}
	default:
		s = fmt.Sprintf("numeric, missing values imputed by the median %.4g", c.Impute)
	}
	if c.Missing {
		s += ", with a missing-value indicator"
	}
	return s
}

// describeTransform says which transform the model has and why: the
// -target-transform flag given, or auto's choice.
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

// allRows returns 0, 1, …, n−1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}
