package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// gcp predict -given: the law of a model's other targets given the
// values a row holds of some (MultiPrediction.Conditional).

// errGiven reports a -given that the model cannot take.
var errGiven = errors.New("-given")

// givenTargets is -given for a model of several targets: the targets
// whose values each row of the data holds, and what conditioning a
// chunk's predictions on them needs.
type givenTargets struct {
	n     network
	flag  string                // -given as written
	idx   []int                 // the given targets' indices, in the model's order
	names []string              // their names, in the model's order
	rest  []string              // the names of the other targets, in the model's order
	cols  []int                 // the given targets' columns in the data; nil before the first chunk
	vals  []float64             // a row's values of the given targets
	cond  []gcp.MultiPrediction // the chunk's conditionals, reused between chunks
	rows  int                   // the rows conditioned
}

// parseGiven returns -given's targets of m, flag a comma-separated list
// of target names: a proper, non-empty subset of m's targets, in any
// order. m must be a model of several targets.
func parseGiven(m model, flag string) (*givenTargets, error) {
	n, multi := multiNetwork(m)
	if !multi {
		return nil, fmt.Errorf("%w %s: the model has one target; -given conditions a model of several targets (gcp train -target a,b) on some of them", errGiven, shorten(flag))
	}
	targets := targetNames(n)
	g := &givenTargets{n: n, flag: flag}
	for _, name := range strings.Split(flag, ",") {
		name = strings.TrimSpace(name)
		j := slices.Index(targets, name)
		switch {
		case j < 0:
			return nil, fmt.Errorf("%w %s: %q is not a target of the model; its targets are %s", errGiven, shorten(flag), shorten(name), strings.Join(targets, ", "))
		case slices.Contains(g.idx, j):
			return nil, fmt.Errorf("%w %s: %q named twice", errGiven, shorten(flag), name)
		}
		g.idx, g.names = append(g.idx, j), append(g.names, name)
	}
	if len(g.idx) == len(targets) {
		return nil, fmt.Errorf("%w %s: names every target of the model (%s); leave at least one to predict", errGiven, shorten(flag), strings.Join(targets, ", "))
	}
	// In the model's order, whatever the flag's: Conditional's arithmetic
	// follows the order of the given targets, down to an ensemble's last
	// bits.
	slices.Sort(g.idx)
	for a, j := range g.idx {
		g.names[a] = targets[j]
	}
	for j, name := range targets {
		if !slices.Contains(g.idx, j) {
			g.rest = append(g.rest, name)
		}
	}
	g.vals = make([]float64, len(g.idx))
	return g, nil
}

// columns finds the given targets' columns in tab: by name for a model
// that knows its columns' names, and for one saved without them by
// position, its targets the table's last columns (multiColumns).
func (g *givenTargets) columns(tab *table.Table) error {
	if names, _ := g.n.columns(); names == nil {
		_, targets, err := multiColumns(g.n, tab, true)
		if err != nil {
			return fmt.Errorf("%w %s: %w", errGiven, shorten(g.flag), err)
		}
		for _, j := range g.idx {
			g.cols = append(g.cols, targets[j])
		}
		return nil
	}
	for _, name := range g.names {
		k, err := tab.Column(name)
		if err != nil {
			return fmt.Errorf("%w %s: each given target must be a column of the data: %w", errGiven, shorten(g.flag), err)
		}
		g.cols = append(g.cols, k)
	}
	return nil
}

// condition returns the conditionals of the predictions preds of the rows
// of tab on the rows' values of the given targets: the law of the other
// targets (Conditional), in g's storage, which the next call reuses. A
// given field that is missing, text or infinite is an error naming its
// line and column (rowNumbers), and so is a value the model refuses
// (refused).
func (g *givenTargets) condition(tab *table.Table, preds []gcp.MultiPrediction) ([]gcp.MultiPrediction, error) {
	if g.cols == nil {
		if err := g.columns(tab); err != nil {
			return nil, err
		}
	}
	if len(g.cond) < len(preds) {
		g.cond = append(g.cond, make([]gcp.MultiPrediction, len(preds)-len(g.cond))...)
	}
	cond := g.cond[:len(preds)]
	for i := range preds {
		if err := rowNumbers(tab, i, g.cols, g.vals); err != nil {
			return nil, fmt.Errorf("%w %s: %w", errGiven, shorten(g.flag), err)
		}
		if err := preds[i].Conditional(&cond[i], g.idx, g.vals); err != nil {
			return nil, g.refused(tab, i, &preds[i], err)
		}
	}
	g.rows += len(preds)
	return cond, nil
}

// refused returns the error of row i of tab, whose prediction p refused
// (err) to be conditioned on the row's values of the given targets: it
// names the line and the column of the first given value that p refuses
// alone, or every given column if it refuses only their values together.
func (g *givenTargets) refused(tab *table.Table, i int, p *gcp.MultiPrediction, err error) error {
	var alone gcp.MultiPrediction
	for a, k := range g.cols {
		if e := p.Conditional(&alone, g.idx[a:a+1], g.vals[a:a+1]); e != nil {
			return fmt.Errorf("%w %s: %w", errGiven, shorten(g.flag),
				tab.FieldError(i, k, fmt.Errorf("the model refuses %s = %g: %w", g.names[a], g.vals[a], e)))
		}
	}
	given := make([]string, len(g.cols))
	for a, k := range g.cols {
		given[a] = fmt.Sprintf("column %d (%s) = %g", k+1, g.names[a], g.vals[a])
	}
	return fmt.Errorf("%w %s: %s: line %d: the model refuses the given values together, %s: %w", errGiven, shorten(g.flag), tab.File, tab.Line(i), strings.Join(given, ", "), err)
}

// summary is the line on stderr that says what -given did.
func (g *givenTargets) summary() string {
	rows := fmt.Sprintf("%d rows", g.rows)
	if g.rows == 1 {
		rows = "1 row"
	}
	return fmt.Sprintf("predict: conditioned on %s for %s: the columns are the law of %s given them; no conformal columns (a conditional has no conformal region)",
		strings.Join(g.names, ", "), rows, strings.Join(g.rest, ", "))
}
