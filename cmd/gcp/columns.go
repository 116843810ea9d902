package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// selection is where a model's columns and the target stand in a data
// file.
type selection struct {
	idx    []int // the file's column of each of the model's columns, in the model's order
	target int   // the target's column; −1 if the file has none
}

// selectColumns finds the model's columns in tab, and the target column
// if tab has one (−1 if not); wantTarget requires it. A model that knows
// its columns' names (written by gcp train) takes them by name: the
// file's columns other than the target must be exactly the model's
// columns in the model's order, so that a swapped, missing or extra
// column is an error that names it; with reorder the columns are picked
// by name wherever they stand and other columns are ignored. The target
// is the column -target names, else the model's target if the file has
// it, else (with wantTarget) the last column. A model without names
// (format versions 1 and 2) takes the columns by position, as
// positional describes.
func selectColumns(m model, tab *table.Table, target string, reorder, wantTarget bool) (selection, error) {
	names, modelTarget := m.columns()
	if names == nil {
		return positional(m, tab, target, wantTarget)
	}
	if target == "" && modelTarget != "" && slices.Contains(tab.Header, modelTarget) {
		target = modelTarget
	}
	sel := selection{target: -1}
	if wantTarget || target != "" {
		var err error
		if sel.target, err = tab.Column(target); err != nil {
			return sel, err
		}
	}
	var rest []string
	for j, h := range tab.Header {
		if j != sel.target {
			rest = append(rest, h)
		}
	}
	if !reorder && !slices.Equal(rest, names) {
		return sel, columnMismatch(tab.File, rest, names)
	}
	var missing []string
	for _, name := range names {
		j := slices.Index(tab.Header, name)
		if j < 0 {
			missing = append(missing, fmt.Sprintf("%q", name))
		}
		sel.idx = append(sel.idx, j)
	}
	if missing != nil {
		return sel, &table.Error{File: tab.File, Line: tab.HeaderLine,
			Err: fmt.Errorf("%w %s; the columns are %s", table.ErrNoColumn, strings.Join(missing, ", "), strings.Join(tab.Header, ", "))}
	}
	return sel, nil
}

// positional returns the selection of a model without names, by the rule
// predict documents: a column that -target names is the target and left
// out; a -target that names no column leaves every column a feature;
// without -target, a table with one column more than the model's inputs
// has the target last; with wantTarget the target is the last column
// unless -target names another.
func positional(m model, tab *table.Table, target string, wantTarget bool) (selection, error) {
	ncol, inputs := len(tab.Header), m.inputs()
	k := -1
	hasTarget := wantTarget || ncol == inputs+1
	if target != "" && !wantTarget {
		_, err := tab.Column(target)
		hasTarget = err == nil
	}
	if hasTarget {
		var err error
		if k, err = tab.Target(target); err != nil {
			return selection{}, err
		}
	}
	sel := byPosition(tab, k)
	switch {
	case len(sel.idx) == inputs:
		return sel, nil
	case sel.target < 0:
		return sel, fmt.Errorf("%s: %d columns, all features; the model takes %d features (and the target column, if present)",
			tab.File, ncol, inputs)
	}
	return sel, fmt.Errorf("%s: %d feature columns besides the target %s; the model takes %d",
		tab.File, len(sel.idx), tab.Header[sel.target], inputs)
}

// byPosition returns the selection of every column of tab but the
// target, column k (−1: none), in file order: the columns a model
// trained on tab's other rows takes.
func byPosition(tab *table.Table, k int) selection {
	sel := selection{target: k}
	for j := range tab.Header {
		if j != k {
			sel.idx = append(sel.idx, j)
		}
	}
	return sel
}

// columnMismatch describes how the file's feature columns differ from the
// model's columns.
func columnMismatch(file string, have, want []string) error {
	var missing, extra []string
	for _, n := range want {
		if !slices.Contains(have, n) {
			missing = append(missing, n)
		}
	}
	for _, n := range have {
		if !slices.Contains(want, n) {
			extra = append(extra, n)
		}
	}
	var what []string
	if missing != nil {
		what = append(what, "missing "+strings.Join(missing, ", "))
	}
	if extra != nil {
		what = append(what, "not features of the model: "+strings.Join(extra, ", "))
	}
	if what == nil {
		what = append(what, "the same columns in another order")
	}
	return fmt.Errorf("%s: the columns do not match the model's features (%s); the model takes %s in this order; -reorder picks them by name and ignores other columns",
		file, strings.Join(what, "; "), strings.Join(want, ", "))
}

// encoded is a data file's rows as a model takes them.
type encoded struct {
	x     []float64         // the inputs, row-major, m.inputs() per row
	notes []gcp.RecordNotes // what encoding each row had to assume
	// y holds the targets, NaN where missing, nil if the file has no
	// target column.
	y []float64
}

// encodeRows encodes every row of tab for m (model.encode) and parses
// the target column if sel has one.
func encodeRows(m model, tab *table.Table, sel selection) (encoded, error) {
	d := m.inputs()
	e := encoded{x: make([]float64, tab.Rows()*d)}
	var err error
	e.notes, e.y, err = encodeTable(tab, sel, func(i int, cols []gcp.TableColumn) (gcp.RecordNotes, error) {
		return m.encode(e.x[i*d:(i+1)*d], cols, i, tab.Dialect.Decimal)
	})
	return e, err
}

// encodeTable calls encode with the index of every row of tab and the
// model's columns of tab, in the model's order, and returns the notes;
// it parses the target column, if sel has one, into y, NaN where a
// target is missing. An error names the field's line and column.
func encodeTable(tab *table.Table, sel selection, encode func(i int, cols []gcp.TableColumn) (gcp.RecordNotes, error)) (notes []gcp.RecordNotes, y []float64, err error) {
	notes = make([]gcp.RecordNotes, tab.Rows())
	cols := make([]gcp.TableColumn, len(sel.idx))
	for c, j := range sel.idx {
		cols[c] = tab.Columns[j]
	}
	for i := range tab.Rows() {
		if notes[i], err = encode(i, cols); err != nil {
			var fe *gcp.FieldError
			if errors.As(err, &fe) {
				return nil, nil, tab.FieldError(i, sel.idx[fe.Index], fe.Err)
			}
			return nil, nil, fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
		}
	}
	if sel.target < 0 {
		return notes, nil, nil
	}
	y = make([]float64, tab.Rows())
	for i := range y {
		v, missing, err := tab.Number(i, sel.target)
		if err != nil {
			return nil, nil, tab.FieldError(i, sel.target, err)
		}
		if missing {
			v = math.NaN()
		}
		y[i] = v
	}
	return notes, y, nil
}

// withTargets returns preds and the targets y of the rows that have one,
// and says on w how many rows without a target were left out.
func withTargets(w io.Writer, file string, preds []gcp.Prediction, y []float64) ([]gcp.Prediction, []float64) {
	p, t := keepTargets(preds, y)
	noteNoTarget(w, file, len(y)-len(t), len(y))
	return p, t
}

// keepTargets returns preds and the targets y of the rows that have one.
func keepTargets(preds []gcp.Prediction, y []float64) ([]gcp.Prediction, []float64) {
	var p []gcp.Prediction
	var t []float64
	for i, v := range y {
		if !math.IsNaN(v) {
			p, t = append(p, preds[i]), append(t, v)
		}
	}
	return p, t
}

// noteNoTarget says on w, if missing > 0, that missing rows of the total
// have no target and were left out.
func noteNoTarget(w io.Writer, file string, missing, total int) {
	if missing > 0 {
		fmt.Fprintf(w, "%s: %d of %d rows have no target (missing): left out of the scores\n", file, missing, total)
	}
}
