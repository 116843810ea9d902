package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// rowWarnings counts, over the chunks of a data file, the rows of each
// kind of gcp.RecordNotes that the encoding noted, and describes the
// first of each: rows outside the training data's range, levels the model
// does not know, and missing values imputed without an indicator. It
// holds three counts and three lines whatever the number of rows.
type rowWarnings struct {
	m     model
	rows  int // the rows added
	kinds [3]struct {
		rows  int
		first string // what the first row with the note has, once one was added
	}
}

// newRowWarnings returns the empty warnings about the encoding of rows
// by m.
func newRowWarnings(m model) *rowWarnings { return &rowWarnings{m: m} }

// add counts the notes of the rows of tab, encoded as e with the
// columns sel.
func (w *rowWarnings) add(tab *table.Table, sel selection, e encoded) {
	names, _ := w.m.columns()
	name := func(c int) string {
		if names == nil {
			return fmt.Sprintf("feature %d", c+1)
		}
		return names[c]
	}
	field := func(i, c int) string { return shorten(strings.TrimSpace(tab.Field(i, sel.idx[c]))) }
	d := w.m.inputs()
	for k, kind := range []struct {
		count func(gcp.RecordNotes) (n, first int)
		what  func(i, c int) string
	}{
		{func(n gcp.RecordNotes) (int, int) { return n.Outside, n.FirstOutside }, func(i, c int) string {
			lo, hi, _ := w.m.FeatureRanges()
			_, j := w.m.OutsideRange(e.x[i*d : (i+1)*d])
			if v := e.x[i*d+j]; lo[j] <= v && v <= hi[j] { // a code no training row had
				return fmt.Sprintf("lie outside the training data (first: %s line %d, %s = %s, a level no training row had); their input_z is +Inf and their calibrated and conformal intervals unknown",
					tab.File, tab.Line(i), name(c), field(i, c))
			}
			// The bounds are numbers of the model's precision: its shortest digits.
			bound := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, w.m.bits()) }
			return fmt.Sprintf("lie outside the training data's range (first: %s line %d, %s = %s, trained on [%s, %s]); their uncertainty is an extrapolation",
				tab.File, tab.Line(i), name(c), field(i, c), bound(lo[j]), bound(hi[j]))
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Unseen, n.FirstUnseen }, func(i, c int) string {
			return fmt.Sprintf("have a level the model does not know (first: %s line %d, %s = %q), encoded as its pooled rare levels or as none",
				tab.File, tab.Line(i), name(c), field(i, c))
		}},
		{func(n gcp.RecordNotes) (int, int) { return n.Imputed, n.FirstImputed }, func(i, c int) string {
			return fmt.Sprintf("have a missing value in a column that had none in training (first: %s line %d, %s), imputed by its training median or as no level",
				tab.File, tab.Line(i), name(c))
		}},
	} {
		for i, n := range e.notes {
			if c, f := kind.count(n); c > 0 {
				if w.kinds[k].rows == 0 {
					w.kinds[k].first = kind.what(i, f)
				}
				w.kinds[k].rows++
			}
		}
	}
	w.rows += tab.Rows()
}

// write writes a line to out for each kind of note some row has: how
// many of the rows added have it, and the first.
func (w *rowWarnings) write(out io.Writer) {
	for _, k := range w.kinds {
		if k.rows > 0 {
			fmt.Fprintf(out, "warning: %d of %d rows %s\n", k.rows, w.rows, k.first)
		}
	}
}

// shownRunes is how many runes of a field a message shows: enough for
// any number and most levels, and a line of a terminal for a field that
// is a megabyte of text.
const shownRunes = 40

// shorten returns s, or its first shownRunes runes and an ellipsis if it
// is longer.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= shownRunes {
		return s
	}
	i := 0
	for range shownRunes {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}
