package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcpnet/gcp/internal/dataset"
)

// columns returns the model's inputs from tab, row-major, and the target
// column if tab has one (nil if not); wantTarget requires it. A model that knows its features'
// names (format version 3, written by gcp train) takes them by name: the
// file's columns other than the target must be exactly the model's
// features in the model's order, so that a swapped, missing or extra
// column is an error that names it; with reorder the features are picked
// by name wherever they stand and other columns are ignored. The target
// is the column -target names, else the model's target if the file has
// it, else (with wantTarget) the last column. A model without names
// (versions 1 and 2) takes the columns by position, as features and
// checkInputs describe.
func columns(m model, tab *dataset.Table, target string, reorder, wantTarget bool) (x, y []float64, err error) {
	inputs := m.inputs()
	names, modelTarget := m.FeatureNames()
	if names == nil {
		if !wantTarget {
			return features(tab, inputs, target)
		}
		if x, y, err = tab.Split(target); err != nil {
			return nil, nil, err
		}
		return x, y, checkInputs(tab, target, inputs)
	}
	if target == "" && modelTarget != "" && slices.Contains(tab.Header, modelTarget) {
		target = modelTarget
	}
	tk := -1 // the target's column, if the file has one
	if wantTarget || target != "" {
		if tk, err = tab.Column(target); err != nil {
			return nil, nil, err
		}
	}
	var rest []string
	for j, h := range tab.Header {
		if j != tk {
			rest = append(rest, h)
		}
	}
	if !reorder && !slices.Equal(rest, names) {
		return nil, nil, columnMismatch(tab.File, rest, names)
	}
	if x, err = tab.Select(names); err != nil {
		return nil, nil, err
	}
	if tk >= 0 {
		y, err = tab.Select(tab.Header[tk : tk+1])
	}
	return x, y, err
}

// columnMismatch describes how the file's feature columns have differ
// from the model's features.
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
