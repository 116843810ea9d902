// Package table reads the tables that gcp learns from: CSV files as
// spreadsheets and databases write them, held by column in the form that
// gcp.LearnEncodingColumns takes, so that a program reads, encodes and
// trains (gcp.AutoFit) on the same file, with the same results and the
// same errors, as the gcp command, which reads its files through this
// package.
//
// A file has one header line of distinct column names, then one row of
// fields per sample. Its dialect is detected unless given (Dialect):
//
//   - The separator is a comma, a semicolon or a tab: the one that splits
//     the header and the first 20 rows into the same number of fields,
//     the most fields if several do.
//   - The decimal mark is a point or a comma: the one more numbers of the
//     file are written with. "2,296" and "398,865" could be thousands and
//     do not count; numbers with thousands separators are not read.
//   - Fields may be quoted as RFC 4180 says (a quoted field may hold the
//     separator, doubled quotes and line breaks); lines may end in CRLF;
//     a UTF-8 byte-order mark before the header and empty lines are
//     ignored.
//
// A column whose every field is a number or missing is a column of
// numbers. A missing field is empty, ?, -, or NA, NaN, N/A, #N/A or
// NULL in any case (gcp.ParseNumber), surrounding spaces aside;
// Table.Missing counts them by spelling. A column whose
// every field is an ISO 8601 date or date-time (2024-03-17,
// 2024-03-17T06:30:00Z) or missing is a column of dates, which a model
// takes as a number of days and its weekday and month. Any other column
// is text, whose distinct values a model takes as the levels of a
// category. Two kinds of column are refused rather than guessed at: a
// column of numbers with a stray field that is not one (at least 95% of
// its fields numbers: ErrMixed names the field, since one token such as
// "n.a." would otherwise turn the column into a category in silence),
// and a column of dates written other than as ISO dates (03/04/2024:
// ErrDateFormat, since the order of day and month is not known). Name
// such a column among the text columns of Read to read it as text.
//
// A record may not be longer than MaxRecordBytes nor have more fields
// than MaxFields (ErrTooLarge), so that a file without line breaks, or a
// device that never ends, fails in bounded memory; ReadFile refuses a
// path that is not a regular file or a pipe (ErrNotFile).
//
// A table of numbers takes about 8 bytes a field in memory, however many
// digits the file writes, and a column of text 4 bytes a row and each
// distinct text once. Read reads its input twice, so that the file's text
// is never all in memory; Stream reads once, a chunk of rows at a time,
// to predict on a file or a pipe of any length.
//
// Every error about the contents of a file is an *Error that names the
// file, the line (the header is line 1) and, where one is to blame, the
// column; it wraps one of the sentinel errors below, or one of package
// gcp's, which errors.Is matches.
package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gcpnet/gcp"
)

// Sentinel errors of the package, wrapped in an *Error that says where,
// but for ErrDialect of a Dialect that Read does not read and ErrNotFile,
// whose errors name the file alone.
var (
	// ErrEmpty reports a file with no header line.
	ErrEmpty = errors.New("empty file: want a header line of column names")
	// ErrNoRows reports a header with no data rows after it.
	ErrNoRows = errors.New("header but no data rows")
	// ErrHeader reports a header line that is not a list of distinct
	// column names: a duplicate or empty name, a carriage return in one
	// (lines that end in CR alone), or numbers only, which means the
	// header line is missing.
	ErrHeader = errors.New("bad header")
	// ErrRagged reports a row whose number of fields differs from the
	// header's.
	ErrRagged = errors.New("wrong number of fields")
	// ErrSyntax reports a field that breaks the CSV quoting rules.
	ErrSyntax = errors.New("CSV syntax error")
	// ErrNoColumn reports a column name that is not in the header.
	ErrNoColumn = errors.New("no such column")
	// ErrNoFeatures reports a table whose only column is the target.
	ErrNoFeatures = errors.New("no feature columns besides the target")
	// ErrMissing reports a missing value where Split wants a number,
	// or a target missing in every row (Table.LearnEncoding).
	ErrMissing = errors.New("missing value")
	// ErrDialect reports a separator or decimal mark that the package
	// does not read, or a decimal mark that Read cannot tell (as many
	// numbers have each).
	ErrDialect = errors.New("unknown CSV dialect")
	// ErrChanged reports a file whose second reading differs from its
	// first (Read reads a file twice): another program wrote to it.
	ErrChanged = errors.New("the file changed while it was read")
	// ErrMixed reports a column of numbers with a field that is not a
	// number nor missing (Read); the *Error names the field.
	ErrMixed = errors.New("a column of numbers holds a field that is not one")
	// ErrDateFormat reports a column of dates written in a format other
	// than ISO 8601 (03/04/2024, 17.03.2024), whose order of day and
	// month Read does not guess (Read); the *Error names the field.
	ErrDateFormat = errors.New("a date not written as YYYY-MM-DD")
	// ErrNotFile reports a path to read that is not a regular file nor a
	// pipe: a device such as /dev/zero, a directory or a socket
	// (ReadFile's error, which names the path but no line).
	ErrNotFile = errors.New("not a regular file or a pipe")
)

// Error is an error in the contents of a file. It wraps one of the
// package's sentinel errors or one of package gcp's.
type Error struct {
	File   string // the file's name as given to Read
	Line   int    // 1-based line; the header is line 1
	Column int    // 1-based column, or 0 when no single column is to blame
	Name   string // the column's name from the header, if known
	Err    error  // a sentinel error, possibly wrapped with details
}

// Error formats e as "file: line L, column C (name): message", without
// the "gcp: " that package gcp's errors start with.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: line %d", e.File, e.Line)
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", e.Name)
		}
	}
	fmt.Fprintf(&b, ": %s", strings.TrimPrefix(e.Err.Error(), "gcp: "))
	return b.String()
}

// Unwrap returns the wrapped sentinel error.
func (e *Error) Unwrap() error { return e.Err }

// Dialect is how a CSV file writes its fields: Sep separates them (',',
// ';' or '\t') and Decimal is the decimal mark of its numbers ('.' or
// ','). A zero Sep or Decimal is detected by Read. NoDates reads columns
// of ISO dates as text, as releases before dates did, rather than as
// dates (Read).
type Dialect struct {
	Sep     rune
	Decimal byte
	NoDates bool
}

// String describes d as "separator ';', decimal mark ','".
func (d Dialect) String() string {
	sep := string(d.Sep)
	if d.Sep == '\t' {
		sep = `\t`
	}
	return fmt.Sprintf("separator '%s', decimal mark '%c'", sep, d.Decimal)
}

// Table is a CSV file held in memory by column.
type Table struct {
	File       string   // the name used in error messages
	Header     []string // the column names, in file order, without surrounding spaces
	HeaderLine int      // the header's 1-based line: 1 unless empty lines precede it
	// Columns holds the fields, one column per name of Header: Numbers
	// for a column whose every field is a number or missing in the
	// table's decimal mark (unless Read was told to keep it as text),
	// each number as gcp.ParseNumber reads it; Numbers with Dates for a
	// column of ISO dates (Read), each as days since 1970-01-01 UTC;
	// text for any other.
	Columns []gcp.TableColumn
	// Dialect is the file's, as given to Read or detected.
	Dialect Dialect
	// Missing counts, for each column, the fields read as missing
	// (gcp.ParseNumber) by their spelling, spaces trimmed ("" for an
	// empty field, "NULL", "N/A"); nil for a column without any. It
	// counts every row read (Select keeps the counts).
	Missing []map[string]int
	rows    int
	lines   lineIndex // the line on which each row starts
}

// Rows returns the number of data rows.
func (t *Table) Rows() int { return t.rows }

// Line returns the 1-based line on which row i starts.
func (t *Table) Line(i int) int { return t.lines.line(i) }

// Field returns the field of row i in column j as text: as the file
// writes it in a column of text, and as the shortest text of the number
// in the table's decimal mark in a column of numbers ("" if missing);
// see gcp.TableColumn.Field.
func (t *Table) Field(i, j int) string { return t.Columns[j].Field(i, t.Dialect.Decimal) }

// Number returns the field of row i in column j as gcp.ParseNumber reads
// it in the table's decimal mark.
func (t *Table) Number(i, j int) (v float64, missing bool, err error) {
	return t.Columns[j].Number(i, t.Dialect.Decimal)
}

// Row returns the fields of row i as text (Field).
func (t *Table) Row(i int) []string {
	row := make([]string, len(t.Columns))
	for j := range row {
		row[j] = t.Field(i, j)
	}
	return row
}

// Select returns the table of the given rows, in that order.
func (t *Table) Select(rows []int) *Table {
	s := *t
	s.rows, s.lines = len(rows), lineIndex{}
	s.Columns = make([]gcp.TableColumn, len(t.Columns))
	for j, c := range t.Columns {
		if c.Numbers != nil {
			s.Columns[j].Numbers, s.Columns[j].Dates = make([]float64, len(rows)), c.Dates
			for k, i := range rows {
				s.Columns[j].Numbers[k] = c.Numbers[i]
			}
			continue
		}
		s.Columns[j].Codes, s.Columns[j].Levels = make([]uint32, len(rows)), c.Levels
		for k, i := range rows {
			s.Columns[j].Codes[k] = c.Codes[i]
		}
	}
	for k, i := range rows {
		s.lines.add(k, t.Line(i))
	}
	return &s
}

// Column returns the index of the column called name, or of the last
// column when name is empty. A name not in the header gives ErrNoColumn,
// on the header's line.
func (t *Table) Column(name string) (int, error) {
	if name == "" {
		return len(t.Header) - 1, nil
	}
	for j, h := range t.Header {
		if h == name {
			return j, nil
		}
	}
	return 0, &Error{File: t.File, Line: t.HeaderLine,
		Err: fmt.Errorf("%w %q; the columns are %s", ErrNoColumn, name, strings.Join(t.Header, ", "))}
}

// Target returns the index of the target column that Column(name) picks,
// and ErrNoFeatures for a table with no other column.
func (t *Table) Target(name string) (int, error) {
	k, err := t.Column(name)
	if err == nil && len(t.Header) < 2 {
		err = &Error{File: t.File, Line: t.HeaderLine, Column: k + 1, Name: t.Header[k], Err: ErrNoFeatures}
	}
	return k, err
}

// FieldError returns the *Error of the field of row i in column j, which
// err (such as gcp.ParseNumber's) says is bad.
func (t *Table) FieldError(i, j int, err error) error {
	return &Error{File: t.File, Line: t.Line(i), Column: j + 1, Name: t.Header[j], Err: err}
}

// Split returns the features and the target of a table of numbers, with
// the column that Target(target) picks as the target: x holds the other
// columns, row-major, in file order, and y the target column. Every
// field must be a number (gcp.ParseNumber, in the table's decimal mark):
// text, an infinity or a missing value is an error naming its line and
// column, wrapping gcp.ErrNotNumber, gcp.ErrNonFinite or ErrMissing.
func (t *Table) Split(target string) (x, y []float64, err error) {
	k, err := t.Target(target)
	if err != nil {
		return nil, nil, err
	}
	ncol := len(t.Header)
	x = make([]float64, 0, t.Rows()*(ncol-1))
	y = make([]float64, t.Rows())
	for i := range y {
		for j := range ncol {
			v, missing, err := t.Number(i, j)
			if missing {
				err = ErrMissing
			}
			if err != nil {
				return nil, nil, t.FieldError(i, j, err)
			}
			if j == k {
				y[i] = v
			} else {
				x = append(x, v)
			}
		}
	}
	return x, y, nil
}
