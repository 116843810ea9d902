package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/gcpnet/gcp/internal/robust"
	"github.com/gcpnet/gcp/table"
)

// The precision gcp train and gcp splits train in. float32 trains the
// recipe in about half the time of float64 with the same accuracy (the
// five UCI sets' 100 splits, and a data set of MSD's shape), so it is the
// default; but the rows enter the model as float32 before the model
// standardizes them, so float32 rounds every value at its raw magnitude,
// and a column it cannot hold faithfully makes the default float64
// instead. -float32 and -float64 choose for themselves.

// resolutionShare is the most that float32's rounding of a column may
// move its values, in units of the column's scale (the model's
// standardization: the interquartile range over a normal's, or the
// standard deviation), before the default trains in float64. Rounding by
// at most 1e-4 standard units moves a network's input by that much, and
// its output by the network's slope times it: against targets of noise
// as small as 1e-2 standard units (an R² of 0.9999, beyond any data set
// of the benchmarks) that is a hundredth of the noise's sd, which changes
// the expected NLL by half its square, 5e-5, far below what held-out rows
// resolve.
const resolutionShare = 1e-4

// trainColumns are columns of training data as the model receives them:
// a row-major matrix of len(names) columns, and the table row of each of
// its rows, for the line an error names.
type trainColumns struct {
	tab   *table.Table
	rows  []int
	names []string
	v     []float64
}

// shortfall is why float32 cannot hold a column of training data
// faithfully: why says so for the summary; err is non-nil where float32
// cannot hold the column at all (a value beyond its range, or a column
// below its normal numbers), which -float32 refuses, and nil where it
// would only round it coarsely, which -float32 accepts.
type shortfall struct {
	why string
	err error
}

// inputsAndTargets returns the encoded inputs and the targets of td as
// trainColumns.
func (td trainingData) inputsAndTargets() []trainColumns {
	targets := td.targets
	if targets == nil {
		targets = []string{td.enc.Target()}
	}
	return []trainColumns{{td.tab, td.rows, td.enc.InputNames(), td.x}, {td.tab, td.rows, targets, td.y}}
}

// float32Shortfalls returns, in order, a shortfall for each column of
// sets that float32 cannot hold faithfully (columnShortfall).
func float32Shortfalls(sets ...trainColumns) []shortfall {
	var out []shortfall
	for _, s := range sets {
		d := len(s.names)
		buf := make([]float64, len(s.v)/d)
		for j, name := range s.names {
			for i := range buf {
				buf[i] = s.v[i*d+j]
			}
			if f := s.columnShortfall(name, buf); f != nil {
				out = append(out, *f)
			}
		}
	}
	return out
}

// columnShortfall returns why float32 cannot hold the column name of s,
// whose values v (which it reorders) are: a value beyond float32's range,
// which it names by its line; a largest magnitude below float32's
// smallest normal number, 2⁻¹²⁶ ≈ 1.2e-38, where float32 would flush the
// values to 0 or keep only a few of their digits (tiny values beside
// larger ones in their column are flushed too, but by less than float32
// rounds the larger ones, so standardization loses nothing); values that
// float32 rounds by more than resolutionShare of the column's scale; or
// values beyond float32's range once standardized. It returns nil for a
// constant column, which rounding leaves constant, and for one that
// float32 holds exactly (0/1 indicators, integers below 2²⁴).
func (s trainColumns) columnShortfall(name string, v []float64) *shortfall {
	var largest, rounding float64
	for i, x := range v {
		if math.Abs(x) > math.MaxFloat32 {
			j := slices.Index(s.tab.Header, name)
			return &shortfall{
				why: fmt.Sprintf("column %s holds %g (line %d), beyond float32's range", name, x, s.tab.Line(s.rows[i])),
				err: fmt.Errorf("%s: line %d, column %d (%s): %g overflows float32; train with -float64", s.tab.File, s.tab.Line(s.rows[i]), j+1, name, x),
			}
		}
		largest, rounding = max(largest, math.Abs(x)), max(rounding, math.Abs(x-float64(float32(x))))
	}
	if largest > 0 && largest < 0x1p-126 {
		j := slices.Index(s.tab.Header, name)
		return &shortfall{
			why: fmt.Sprintf("column %s's values, at most %g in magnitude, lie below float32's smallest normal number", name, largest),
			err: fmt.Errorf("%s: column %d (%s): its largest magnitude %g is below float32's smallest normal number, 2⁻¹²⁶ ≈ 1.2e-38, so float32 would flush its values to 0; train with -float64",
				s.tab.File, j+1, name, largest),
		}
	}
	if rounding == 0 || slices.Min(v) == slices.Max(v) {
		return nil
	}
	center, scale := robust.CenterScale(v)
	if rounding > resolutionShare*scale {
		return &shortfall{why: fmt.Sprintf("column %s (values near %.2g) varies by %.2g, finer than float32's rounding of up to %.2g resolves", name, center, scale, rounding)}
	}
	if robust.Standardizable[float32](v[0], v[len(v)-1], center, scale) != nil {
		return &shortfall{why: fmt.Sprintf("column %s spans %.2g to %.2g, beyond float32's range once standardized by its scale %.2g", name, v[0], v[len(v)-1], scale)}
	}
	return nil
}

// precision returns whether to train on td in float32, and the
// summary's line that says in what and why: -float64 or -float32 as
// given (-float32 refusing a value beyond float32's range, and naming a
// column it rounds coarsely), else float32 unless a column needs float64.
func (f *recipeFlags) precision(td trainingData) (f32 bool, note string, err error) {
	if *f.f64 {
		return false, "trained in float64 (-float64)", nil
	}
	short := float32Shortfalls(td.inputsAndTargets()...)
	if *f.f32 {
		note = "trained in float32 (-float32)"
		for _, s := range short {
			if s.err != nil {
				return false, "", s.err
			}
		}
		if len(short) > 0 {
			note += ", though " + short[0].why
		}
		return true, note, nil
	}
	if len(short) == 0 {
		return true, "trained in float32 (the default; -float64 for double precision)", nil
	}
	note = "trained in float64: " + short[0].why
	if len(short) > 1 {
		note += fmt.Sprintf("; %d more columns too", len(short)-1)
	}
	return false, note, nil
}

// precisionName returns "float32" or "float64".
func precisionName(f32 bool) string {
	if f32 {
		return "float32"
	}
	return "float64"
}

// precisionNotes writes on w why a split trained in its precision
// (recipeFlags.precision's line) for the first split and each whose
// precision differs from the split before's: once for a data set whose
// splits all decide alike, though the figures of a reason differ a little
// from split to split.
type precisionNotes struct {
	w    io.Writer
	last string // the precision of the split before, "" before the first
}

// add notes that split i trained in precision, as note says why.
func (p *precisionNotes) add(i int, precision, note string) {
	if precision != p.last {
		fmt.Fprintf(p.w, "split %d %s\n", i, note)
		p.last = precision
	}
}

// fitsFloat32 returns the error of the first value of the features x
// and targets y that tab.Split(target) returned that float32 cannot hold
// at all (columnShortfall), or nil: gcp repro's check before it trains in
// float32.
func fitsFloat32(tab *table.Table, target string, x, y []float64) error {
	k, _ := tab.Target(target) // Split took it
	features := slices.Delete(slices.Clone(tab.Header), k, k+1)
	rows := allRows(len(y))
	for _, s := range float32Shortfalls(trainColumns{tab, rows, features, x}, trainColumns{tab, rows, []string{tab.Header[k]}, y}) {
		if s.err != nil {
			return s.err
		}
	}
	return nil
}
