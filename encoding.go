package gcp

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gcpnet/gcp/internal/isodate"
)

// An Encoding turns a record of a table's feature columns, as text, into
// the numeric inputs of a model's network, the same way at training and
// at prediction: the columns a program or a data file holds (numbers,
// text, missing values) on one side, the model's Config.Inputs on the
// other. LearnEncoding learns it from the training rows; the model keeps
// it (Model.SetEncoding) and saves it, in a section of format version 5
// (6 with a date column), so that Model.EncodeFields, EncodeRecord and
// PredictRecord apply it to new records, and gcp predict to the rows of
// a file.
//
// Each column becomes one or more inputs, in the order of the columns:
//
//   - A numeric column (every training value a number) is one input, the
//     number.
//   - A categorical column (some training value not a number: a city, a
//     colour) is one-hot: one input per level, 1 for the record's level
//     and 0 for the others. One-hot lets the network give every level its
//     own effect, which an ordinal code of the levels would tie to an
//     arbitrary order. Levels seen in fewer than 5 training rows, levels
//     beyond the 64 most frequent, and levels longer than 1024 bytes are
//     pooled into one more input, Other: it keeps an identifier-like
//     column, whose every value is rare, from adding an input per row,
//     and gives levels the training rows barely knew one shared, better
//     estimated, effect. At prediction a level that is not
//     among Levels (pooled, or never seen) takes the Other input if the
//     column has one, and otherwise none (all zeros, the code of no
//     known level), and RecordNotes.Unseen counts it, so that the caller
//     can warn: the prediction then rests on what the model learned of
//     the column's other levels, or of none.
//   - A date column (TableColumn.Dates; LearnEncoding finds a column of
//     text whose every value is an ISO date, 2024-03-17, or date-time,
//     2024-03-17T06:30:00Z or 2024-03-17 06:30, or missing) is five
//     inputs: the days since 1970-01-01 00:00 UTC, fractional for a
//     date-time (one taken without an offset as UTC), then its weekday's
//     and its month's sine and cosine on their circles (the weekday of the
//     UTC day, Monday 0 of 7; the month, January 0 of 12). The days carry
//     a trend, which one-hot levels of dates never seen again cannot; the
//     circles carry the weekly and yearly cycles that sales, traffic or
//     prices follow, which a network would otherwise have to carve out of
//     the days with a period of its own, and they place Sunday beside
//     Monday and December beside January. A column without such cycles
//     costs four inputs whose weights learn to be small. At prediction
//     the text of a date column must be an ISO date or missing.
//   - A column whose training rows had missing values (ParseNumber's
//     missing tokens) gets one more input, its missing indicator: 1
//     where the value is missing, else 0. A missing number takes the
//     column's Impute, the median of its training values, and a missing
//     level the all-zero code, so that the network learns from the
//     indicator what missingness itself says. A missing value in a column
//     whose training rows had none has no indicator to set: it takes the
//     center of the input's standardization (the median of the training
//     rows the standardization was learned from; a network input of 0)
//     or the all-zero code, and RecordNotes.Imputed counts it.
//
// An Encoding is immutable and safe for concurrent use.
type Encoding struct {
	target  string
	columns []Column
	start   []int // the first input of each column, then the width
}

// ColumnKind says how an Encoding turns a column into inputs.
type ColumnKind uint8

const (
	// Numeric columns are one input, their number.
	Numeric ColumnKind = iota
	// Categorical columns are one input per level (one-hot).
	Categorical
	// Date columns are five inputs: the days since 1970-01-01 UTC and
	// the weekday's and the month's sine and cosine.
	Date
)

// String returns "numeric", "categorical" or "date".
func (k ColumnKind) String() string {
	switch k {
	case Categorical:
		return "categorical"
	case Date:
		return "date"
	}
	return "numeric"
}

// Column is one feature column of an Encoding and how it becomes inputs
// (see Encoding): its inputs are its number, or one per level of Levels
// then Other's, and then its missing indicator if it has one.
type Column struct {
	Name string
	Kind ColumnKind
	// Levels are a categorical column's levels, as their text with
	// surrounding spaces removed, sorted by their bytes; nil for a
	// numeric column.
	Levels []string
	// Other reports whether a categorical column has the input of its
	// pooled levels.
	Other bool
	// Missing reports whether the column's training rows had missing
	// values, and the column has a missing-indicator input.
	Missing bool
	// Impute is the value a numeric or date column with Missing takes
	// where its value is missing: the median of its training values, in
	// days for a date (0 if it had none). A missing date's weekday and
	// month inputs are 0, the centers of their circles.
	Impute float64
}

// The limits of a categorical column's levels (see Encoding).
const (
	// minLevelRows is the fewest training rows a level needs to have an
	// input of its own: with fewer, its effect would be fitted to a
	// handful of targets, noise more than signal.
	minLevelRows = 5
	// maxLevels is the most levels of a column that have an input of
	// their own: 64 inputs per column keeps a network on a wide table
	// small.
	maxLevels = 64
)

// dateWidth is the number of inputs of a date column besides its missing
// indicator: the days, and the sine and cosine of the weekday and the
// month.
const dateWidth = 5

// width returns the number of inputs of c.
func (c *Column) width() int {
	n := 1
	switch c.Kind {
	case Date:
		n = dateWidth
	case Categorical:
		n = len(c.Levels)
		if c.Other {
			n++
		}
	}
	if c.Missing {
		n++
	}
	return n
}

// newEncoding returns the encoding of the columns for the target called
// target.
func newEncoding(target string, columns []Column) *Encoding {
	e := &Encoding{target: target, columns: columns, start: make([]int, len(columns)+1)}
	for c := range columns {
		e.start[c+1] = e.start[c] + columns[c].width()
	}
	return e
}

// Target returns the name of the target column.
func (e *Encoding) Target() string { return e.target }

// Columns returns copies of the feature columns, in the order of the
// inputs they become.
func (e *Encoding) Columns() []Column {
	out := make([]Column, len(e.columns))
	for c, col := range e.columns {
		col.Levels = append([]string(nil), col.Levels...)
		if e.columns[c].Levels == nil {
			col.Levels = nil
		}
		out[c] = col
	}
	return out
}

// Inputs returns the number of inputs the columns become, the
// Config.Inputs of a model that uses the encoding.
func (e *Encoding) Inputs() int { return e.start[len(e.columns)] }

// inputColumn returns the index of the column that input i comes from,
// for i in [0, Inputs()).
func (e *Encoding) inputColumn(i int) int {
	return sort.SearchInts(e.start[1:], i+1)
}

// InputNames returns a name for each input: a numeric column's name,
// "name=level" for a level's input, "name=(other)" for the pooled
// levels', a date column's name and "name=(weekday sin)", "(weekday
// cos)", "(month sin)", "(month cos)" for its inputs, and
// "name=(missing)" for the missing indicator.
func (e *Encoding) InputNames() []string {
	names := make([]string, 0, e.Inputs())
	for _, c := range e.columns {
		if c.Kind != Categorical {
			names = append(names, c.Name)
		}
		if c.Kind == Date {
			names = append(names, c.Name+"=(weekday sin)", c.Name+"=(weekday cos)", c.Name+"=(month sin)", c.Name+"=(month cos)")
		}
		for _, l := range c.Levels {
			names = append(names, c.Name+"="+l)
		}
		if c.Other {
			names = append(names, c.Name+"=(other)")
		}
		if c.Missing {
			names = append(names, c.Name+"=(missing)")
		}
	}
	return names
}

// plain reports whether the encoding takes every column as one numeric
// input without a missing indicator: the identity, which a model holds as
// its feature names alone.
func (e *Encoding) plain() bool {
	for _, c := range e.columns {
		if c.Kind != Numeric || c.Missing {
			return false
		}
	}
	return true
}

// hasDates reports whether e, nil or not, has a date column: a model
// with one is saved in format version 6.
func (e *Encoding) hasDates() bool {
	if e == nil {
		return false
	}
	for _, c := range e.columns {
		if c.Kind == Date {
			return true
		}
	}
	return false
}

// fieldNote is what encodeField had to assume about a field.
type fieldNote uint8

const (
	noteNone    fieldNote = iota
	noteUnseen            // a level not among the column's Levels
	noteImputed           // a missing value without a missing indicator
)

// encodeField writes the inputs x of the column c (nil: a numeric column
// without a missing indicator, as a model without an Encoding takes each
// feature) for the text field, with numbers parsed by ParseNumber with
// the decimal mark decimal; center is the value a missing number takes
// where the column has no indicator. It returns ParseNumber's error for
// text in a numeric column, and an error wrapping ErrNotNumber for text
// in a date column that is not an ISO date.
func encodeField[T Float](x []T, c *Column, field string, decimal byte, center float64) (fieldNote, error) {
	if c != nil && c.Kind == Date {
		days, missing, err := parseDate(field)
		if err != nil {
			return noteNone, err
		}
		return encodeDate(x, c, days, missing, center), nil
	}
	if c == nil || c.Kind == Numeric {
		v, missing, err := ParseNumber(field, decimal)
		if err != nil {
			return noteNone, err
		}
		return encodeNumber(x, c, v, missing, center), nil
	}
	return encodeLevel(x, c, field), nil
}

// encodeCell is encodeField for row i of the table column tc, whose
// numbers it takes as they are.
func encodeCell[T Float](x []T, c *Column, tc *TableColumn, i int, decimal byte, center float64) (fieldNote, error) {
	switch {
	case tc.Dates && c != nil && c.Kind == Date:
		v := tc.Numbers[i]
		if math.IsInf(v, 0) {
			return noteNone, fmt.Errorf("%w: a date of %g days", ErrNonFinite, v)
		}
		return encodeDate(x, c, v, math.IsNaN(v), center), nil
	case tc.Numbers != nil && !tc.Dates && (c == nil || c.Kind == Numeric):
		v, missing, err := tc.Number(i, decimal)
		if err != nil {
			return noteNone, err
		}
		return encodeNumber(x, c, v, missing, center), nil
	}
	return encodeField(x, c, tc.Field(i, decimal), decimal, center)
}

// encodeNumber writes the inputs x of the numeric column c (nil: without
// a missing indicator) for the number v, or a missing value.
func encodeNumber[T Float](x []T, c *Column, v float64, missing bool, center float64) fieldNote {
	switch {
	case !missing:
		x[0] = T(v)
	case c == nil || !c.Missing:
		x[0] = T(center)
		return noteImputed
	default:
		x[0] = T(c.Impute)
	}
	if c != nil && c.Missing {
		x[1] = indicator[T](missing)
	}
	return noteNone
}

// encodeDate writes the inputs x of the date column c for the instant
// days (see Encoding), or a missing value.
func encodeDate[T Float](x []T, c *Column, days float64, missing bool, center float64) fieldNote {
	clear(x)
	note := noteNone
	switch {
	case !missing:
		x[0] = T(days)
		w := 2 * math.Pi * float64(isodate.Weekday(days)) / 7
		m := 2 * math.Pi * float64(isodate.Month(days)-1) / 12
		x[1], x[2], x[3], x[4] = T(math.Sin(w)), T(math.Cos(w)), T(math.Sin(m)), T(math.Cos(m))
	case !c.Missing:
		x[0], note = T(center), noteImputed
	default:
		x[0] = T(c.Impute)
	}
	if c.Missing {
		x[dateWidth] = indicator[T](missing)
	}
	return note
}

// parseDate returns the days of the ISO date field (isodate.Parse), or
// whether it is missing, and an error wrapping ErrNotNumber for any other
// text.
func parseDate(field string) (days float64, missing bool, err error) {
	if days, ok := isodate.Parse(field); ok {
		return days, false, nil
	}
	if isMissing(strings.TrimSpace(field)) {
		return 0, true, nil
	}
	return 0, false, fmt.Errorf("%w: %q is not an ISO date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS)", ErrNotNumber, field)
}

// encodeLevel writes the inputs x of the categorical column c for the
// text field.
func encodeLevel[T Float](x []T, c *Column, field string) fieldNote {
	clear(x)
	level := strings.TrimSpace(field)
	if isMissing(level) {
		if !c.Missing {
			return noteImputed
		}
		x[len(x)-1] = 1
		return noteNone
	}
	if i := sort.SearchStrings(c.Levels, level); i < len(c.Levels) && c.Levels[i] == level {
		x[i] = 1
		return noteNone
	}
	if c.Other {
		x[len(c.Levels)] = 1
	}
	return noteUnseen
}

// indicator returns 1 for true and 0 for false.
func indicator[T Float](b bool) T {
	if b {
		return 1
	}
	return 0
}

// maxNameLen is the longest feature or target name, in bytes; it bounds
// what a saved model's names may ask to allocate.
const maxNameLen = 1024

// checkNames reports the first bad name as an error wrapping ErrConfig.
func checkNames(features []string, target string) error {
	seen := make(map[string]int, len(features))
	for j, name := range features {
		if name == "" {
			return fmt.Errorf("%w: feature %d has an empty name", ErrConfig, j)
		}
		if i, dup := seen[name]; dup {
			return fmt.Errorf("%w: features %d and %d are both named %q", ErrConfig, i, j, name)
		}
		seen[name] = j
	}
	for _, name := range append([]string{target}, features...) {
		if len(name) > maxNameLen || !utf8.ValidString(name) {
			return fmt.Errorf("%w: name %.40q…: want valid UTF-8 of at most %d bytes", ErrConfig, name, maxNameLen)
		}
	}
	return nil
}
