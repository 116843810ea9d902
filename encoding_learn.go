package gcp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gcpnet/gcp/internal/robust"
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
// or missing, a date column if every one of its fields is an ISO date or
// date-time or missing (and one at least a date), and categorical
// otherwise (Encoding describes them). Errors:
// ErrConfig for a target that names no column, no feature column, or
// names that SetFeatureNames would refuse (empty, repeated, or not UTF-8
// of at most 1024 bytes), more inputs than a Config allows, or two
// inputs of the same name (Encoding.InputNames: a column "c=red" beside
// a column c with the level red); ErrShape
// for a row of another length than header; ErrBatch if no row has a
// target; and a *FieldError for a target that is not a number or a
// number that is infinite, in a numeric column or the target.
//
// LearnEncodingColumns learns the same from a table held by column,
// without the text of its numbers or dates.
func LearnEncoding(header []string, rows [][]string, target string, decimal byte) (*Encoding, *EncodedRows, error) {
	cols := make([]TableColumn, len(header))
	for j := range cols {
		cols[j] = TableColumn{Codes: make([]uint32, len(rows)), Levels: make([]string, len(rows))}
	}
	for i, row := range rows {
		if len(row) != len(header) {
			return nil, nil, fmt.Errorf("%w: row %d has %d fields, the header %d", ErrShape, i, len(row), len(header))
		}
		for j, f := range row {
			cols[j].Codes[i], cols[j].Levels[i] = uint32(i), f
		}
	}
	for j := range cols {
		cols[j] = asDates(cols[j])
	}
	return LearnEncodingColumns(header, cols, nil, target, decimal)
}

// LearnEncodingColumns is LearnEncoding for a table held by column: cols
// holds one TableColumn per column of header, and rows the indices of
// the training rows among the columns' (nil: every row). The encoding
// and the encoded rows are those LearnEncoding learns from the same
// rows as text, bit for bit, where the columns LearnEncoding finds to be
// dates are given as Dates; EncodedRows.Rows and FieldError.Row are
// indices among the columns' rows. A column of Numbers is numeric, one
// with Dates a date column, and a column of text never a date column:
// pass Dates to have one, or text to have the dates as levels. It
// returns the errors of LearnEncoding, ErrShape for columns of other
// lengths than the first or for an index of a row or level out of
// range, and a *FieldError wrapping ErrNonFinite for an infinite number
// of a numeric column.
func LearnEncodingColumns(header []string, cols []TableColumn, rows []int, target string, decimal byte) (*Encoding, *EncodedRows, error) {
	k := slices.Index(header, target)
	if k < 0 || len(header) < 2 {
		return nil, nil, fmt.Errorf("%w: the target %q is not one of %d columns, or is the only one", ErrConfig, target, len(header))
	}
	names := slices.Delete(slices.Clone(header), k, k+1)
	if err := checkNames(names, target); err != nil {
		return nil, nil, err
	}
	if len(cols) != len(header) {
		return nil, nil, fmt.Errorf("%w: %d columns for a header of %d", ErrShape, len(cols), len(header))
	}
	n := cols[0].Rows()
	if err := checkColumns(cols, n); err != nil {
		return nil, nil, err
	}
	given := len(rows)
	if rows == nil {
		given = n
	}
	out := &EncodedRows{Y: make([]float64, 0, given), Rows: make([]int, 0, given)}
	for r := range given {
		i := r
		if rows != nil {
			i = rows[r]
		}
		if i < 0 || i >= n {
			return nil, nil, fmt.Errorf("%w: row %d of %d", ErrShape, i, n)
		}
		v, missing, err := cols[k].Number(i, decimal)
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
		return nil, nil, fmt.Errorf("%w: none of the %d rows has a target", ErrBatch, given)
	}
	columns := make([]Column, len(names))
	for c, name := range names {
		col, err := learnColumn(name, &cols[tableColumn(c, k)], out.Rows, tableColumn(c, k), decimal)
		if err != nil {
			return nil, nil, err
		}
		columns[c] = col
	}
	e := newEncoding(target, columns)
	if e.Inputs() > maxWidth {
		return nil, nil, fmt.Errorf("%w: the columns become %d inputs, want at most %d", ErrConfig, e.Inputs(), maxWidth)
	}
	if err := checkInputNames(e.InputNames()); err != nil {
		return nil, nil, err
	}
	out.X = make([]float64, len(out.Rows)*e.Inputs())
	for r, i := range out.Rows {
		x := out.X[r*e.Inputs() : (r+1)*e.Inputs()]
		for c := range e.columns {
			j := tableColumn(c, k)
			// Every missing value of these rows has its indicator: no
			// center is needed.
			if _, err := encodeCell(x[e.start[c]:e.start[c+1]], &e.columns[c], &cols[j], i, decimal, 0); err != nil {
				return nil, nil, &FieldError{Row: i, Index: j, Column: names[c], Err: err}
			}
		}
	}
	return e, out, nil
}

// checkInputNames returns ErrConfig for two inputs of the same name: a
// column called "c=red" beside a column c with the level red, whose
// inputs a model's FeatureNames could not tell apart.
func checkInputNames(names []string) error {
	seen := make(map[string]int, len(names))
	for i, name := range names {
		if j, dup := seen[name]; dup {
			return fmt.Errorf("%w: inputs %d and %d are both named %q (a column's name is another's name=level)", ErrConfig, j, i, name)
		}
		seen[name] = i
	}
	return nil
}

// tableColumn returns the table's index of feature column c, the target
// being the table's column k.
func tableColumn(c, k int) int {
	if c >= k {
		return c + 1
	}
	return c
}

// learnColumn learns the column called name, the table's column j, from
// the kept rows of tc.
func learnColumn(name string, tc *TableColumn, kept []int, j int, decimal byte) (Column, error) {
	if tc.Dates && tc.Numbers != nil {
		return learnDates(name, tc, kept, j)
	}
	col := Column{Name: name}
	var bad error // the first infinite number, an error if the column is numeric
	for _, i := range kept {
		_, missing, err := tc.Number(i, decimal)
		switch {
		case errors.Is(err, ErrNotNumber):
			col.Kind = Categorical
		case err != nil && bad == nil:
			bad = &FieldError{Row: i, Index: j, Column: name, Err: err}
		case missing:
			col.Missing = true
		}
	}
	if col.Kind == Categorical {
		col.Levels, col.Other = learnLevels(tc, kept, decimal)
		return col, nil
	}
	if bad != nil {
		return Column{}, bad
	}
	if col.Missing {
		col.Impute = median(tc, kept, decimal)
	}
	return col, nil
}

// learnDates learns the date column called name, the table's column j,
// from the kept rows of tc, a column of Dates.
func learnDates(name string, tc *TableColumn, kept []int, j int) (Column, error) {
	col := Column{Name: name, Kind: Date}
	for _, i := range kept {
		switch v := tc.Numbers[i]; {
		case math.IsInf(v, 0):
			return Column{}, &FieldError{Row: i, Index: j, Column: name, Err: fmt.Errorf("%w: a date of %g days", ErrNonFinite, v)}
		case math.IsNaN(v):
			col.Missing = true
		}
	}
	if col.Missing {
		col.Impute = median(tc, kept, 0)
	}
	return col, nil
}

// asDates returns the column of text tc as a column of Dates if every
// one of its fields is an ISO date or missing, and one at least a date;
// else tc.
func asDates(tc TableColumn) TableColumn {
	days := make([]float64, len(tc.Codes))
	some := false
	for i, code := range tc.Codes {
		v, missing, err := parseDate(tc.Levels[code])
		if err != nil {
			return tc
		}
		if missing {
			v = math.NaN()
		}
		days[i], some = v, some || !missing
	}
	if !some {
		return tc
	}
	return TableColumn{Numbers: days, Dates: true}
}

// median returns the median of the numbers (the days of Dates) of the
// kept rows of the numeric or date column tc, 0 if all are missing. It
// is a second pass over the rows, made only for a column with missing
// values, so that the numbers of every other column are not copied.
func median(tc *TableColumn, kept []int, decimal byte) float64 {
	var numbers []float64
	for _, i := range kept {
		var v float64
		var missing bool
		if tc.Dates {
			v, missing = tc.Numbers[i], math.IsNaN(tc.Numbers[i])
		} else {
			v, missing, _ = tc.Number(i, decimal)
		}
		if !missing {
			numbers = append(numbers, v)
		}
	}
	if len(numbers) == 0 {
		return 0
	}
	slices.Sort(numbers)
	return robust.Quantile(numbers, 0.5)
}

// learnLevels returns the levels of the kept rows of tc that have an
// input of their own, sorted, and whether any other level was pooled (see
// Encoding).
func learnLevels(tc *TableColumn, kept []int, decimal byte) (levels []string, other bool) {
	counts := map[string]int{}
	for _, i := range kept {
		if l := strings.TrimSpace(tc.Field(i, decimal)); !isMissing(l) {
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
