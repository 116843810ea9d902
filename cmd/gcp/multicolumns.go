package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp/table"
)

// targetNames returns the names of the targets of n, a model of several
// targets: those gcp train recorded, or for a model saved without names
// (by a program, through the library) y1, …, yd, the names its columns
// of gcp predict and its lines of gcp eval then carry.
func targetNames(n network) []string {
	if _, joined := n.columns(); joined != "" {
		return strings.Split(joined, ",")
	}
	names := make([]string, n.Config().Targets)
	for j := range names {
		names[j] = "y" + strconv.Itoa(j+1)
	}
	return names
}

// multiColumns finds the features of n, a model of several targets, in
// tab, and its targets' columns if tab has them (nil if not); wantTargets
// requires them. A model that knows its columns' names takes them by name
// wherever they stand, other columns ignored. A model without names takes
// them by position: its inputs first and, in a table of d columns more,
// its d targets last, in their order.
func multiColumns(n network, tab *table.Table, wantTargets bool) (sel selection, targets []int, err error) {
	if names, _ := n.columns(); names != nil {
		if sel, err = selectColumns(n, tab, "", true, false); err != nil || !wantTargets {
			return sel, nil, err
		}
		for _, name := range targetNames(n) {
			k, err := tab.Column(name)
			if err != nil {
				return sel, nil, err
			}
			targets = append(targets, k)
		}
		return sel, targets, nil
	}
	ncol, inputs, d := len(tab.Header), n.inputs(), n.Config().Targets
	if ncol != inputs+d && (wantTargets || ncol != inputs) {
		return selection{}, nil, fmt.Errorf("%s: %d columns; the model, saved without column names, takes its %d features first, then its %d targets", tab.File, ncol, inputs, d)
	}
	sel = byPosition(tab, -1)
	sel.idx = sel.idx[:inputs]
	if wantTargets {
		for k := inputs; k < ncol; k++ {
			targets = append(targets, k)
		}
	}
	return sel, targets, nil
}
