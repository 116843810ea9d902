package gcp

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// EncodedRows are the training rows of a table encoded by the Encoding
// learned from them: the inputs X, row-major, Encoding.Inputs() per row,
// and the targets Y, as numbers (not transformed). A row whose target is
// missing has no target to learn from and is left out: Rows holds the
// index of each encoded row among the rows given, so that Dropped =
// len(rows) − len(Rows) rows were left out.
type EncodedRows struct {
	X, Y    []float64
	Rows    []int
	Dropped int
}

// FieldError reports a field that cannot be encoded: a target or a value
// of a numeric column that is not a number (ErrNotNumber) or is infinite
// (ErrNonFinite), or a column a record lacks (ErrMissingColumn). Err
// wraps the sentinel, which errors.Is matches through the FieldError.
type FieldError struct {
	Row int // the row's index among the rows given; 0 for a single record
	// Index is the column's index in the header (LearnEncoding) or among
	// the model's columns (Model.EncodeFields, Model.EncodeRecord), and
	// Column its name, "" for a model without names.
	Index  int
	Column string
	Err    error
}

// Error formats e as "column NAME: reason", or "column N: reason", N
// counted from 1, for a column without a name.
func (e *FieldError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("column %d: %v", e.Index+1, e.Err)
	}
	return "column " + e.Column + ": " + e.Err.Error()
}

// Unwrap returns the error behind e.
func (e *FieldError) Unwrap() error { return e.Err }

// ErrMissingColumn reports a record that lacks a column of the model.
var ErrMissingColumn = errors.New("gcp: the record lacks a column of the model")

// LearnEncoding learns the Encoding of the feature columns of a table
// (every column of header but the one called target) from its training
// rows, and encodes those rows. Each row holds one field per column of
// header, as text; numbers are parsed by ParseNumber with the decimal mark
// decimal. The target must be a number or missing; a row whose target is
// missing is left out (EncodedRows.Dropped), and the levels, medians and
// missing indicators are learned from the other rows alone. Pass the
// rows to train on only, never those held out to test on, which the
// encoding must not see, as a model must not see their targets.
//
// A column is numeric if every one of its training values is a number
// or missing, and categorical otherwise (Encoding describes both). Errors:
// ErrConfig for a target that names no column, no feature column, or
// names that SetFeatureNames would refuse (empty, repeated, or not UTF-8
// of at most 1024 bytes), or more inputs than a Config allows; ErrShape
// for a row of another length than header; ErrBatch if no row has a
// target; and a *FieldError for a target that is not a number or a
// number that is infinite, in a numeric column or the target.
func LearnEncoding(header []string, rows [][]string, target string, decimal byte) (*Encoding, *EncodedRows, error) {
	k := slices.Index(header, target)
	if k < 0 || len(header) < 2 {
		return nil, nil, fmt.Errorf("%w: the target %q is not one of %d columns, or is the only one", ErrConfig, target, len(header))
	}
	names := slices.Delete(slices.Clone(header), k, k+1)
	if err := checkNames(names, target); err != nil {
		return nil, nil, err
	}
	out := &EncodedRows{}
	for i, row := range rows {
		if len(row) != len(header) {
			return nil, nil, fmt.Errorf("%w: row %d has %d fields, the header %d", ErrShape, i, len(row), len(header))
		}
		v, missing, err := ParseNumber(row[k], decimal)
		switch {
		case err != nil:
			return nil, nil, &FieldError{Row: i, Index: k, Column: target, Err: err}
		case missing:
			out.Dropped++
		default:
			out.Y, out.Rows = append(out.Y, v), append(out.Rows, i)
		}
	}
	if len(out.Rows) == 0 {
		return nil, nil, fmt.Errorf("%w: none of the %d rows has a target", ErrBatch, len(rows))
	}
	columns := make([]Column, len(names))
	for c, name := range names {
		j := c
		if j >= k {
			j++ // the table's column after the target
		}
		col, err := learnColumn(name, rows, out.Rows, j, decimal)
		if err != nil {
			return nil, nil, err
		}
		columns[c] = col
	}
	e := newEncoding(target, columns)
	if e.Inputs() > maxWidth {
		return nil, nil, fmt.Errorf("%w: the columns become %d inputs, want at most %d", ErrConfig, e.Inputs(), maxWidth)
	}
	out.X = make([]float64, 0, len(out.Rows)*e.Inputs())
	for _, i := range out.Rows {
		x := out.X[len(out.X) : len(out.X)+e.Inputs()]
		for c := range e.columns {
			j := c
			if j >= k {
				j++
			}
			// Every missing value of these rows has its indicator: no
			// center is needed.
			if _, err := encodeField(x[e.start[c]:e.start[c+1]], &e.columns[c], rows[i][j], decimal, 0); err != nil {
				return nil, nil, &FieldError{Row: i, Index: j, Column: names[c], Err: err}
			}
		}
		out.X = out.X[:len(out.X)+e.Inputs()]
	}
	return e, out, nil
}

// learnColumn learns the column called name, column j of the rows whose
// indices are kept.
func learnColumn(name string, rows [][]string, kept []int, j int, decimal byte) (Column, error) {
	col := Column{Name: name}
	var numbers []float64
	var bad error // the first infinite number, an error if the column is numeric
	for _, i := range kept {
		v, missing, err := ParseNumber(rows[i][j], decimal)
		switch {
		case errors.Is(err, ErrNotNumber):
			col.Kind = Categorical
		case err != nil && bad == nil:
			bad = &FieldError{Row: i, Index: j, Column: name, Err: err}
		case missing:
			col.Missing = true
		case err == nil:
			numbers = append(numbers, v)
		}
	}
	if col.Kind == Categorical {
		col.Levels, col.Other = learnLevels(rows, kept, j)
		return col, nil
	}
	if bad != nil {
		return Column{}, bad
	}
	if col.Missing && len(numbers) > 0 {
		slices.Sort(numbers)
		col.Impute = quantileSorted(numbers, 0.5)
	}
	return col, nil
}

// learnLevels returns the levels of column j of the kept rows that have an
// input of their own, sorted, and whether any other level was pooled (see
// Encoding).
func learnLevels(rows [][]string, kept []int, j int) (levels []string, other bool) {
	counts := map[string]int{}
	for _, i := range kept {
		if l := strings.TrimSpace(rows[i][j]); !isMissing(l) {
			counts[l]++
		}
	}
	for l, n := range counts {
		if n >= minLevelRows && len(l) <= maxNameLen {
			levels = append(levels, l)
		}
	}
	// The most frequent first, ties by name, so that the cut is
	// reproducible.
	slices.SortFunc(levels, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b)) })
	levels = levels[:min(len(levels), maxLevels)]
	slices.Sort(levels)
	return levels, len(levels) < len(counts)
}
