// Package dataset reads the numeric CSV files of the gcp command: one
// header line of column names, then one row of numbers per sample, the
// format of the benchmark files in data/uci.
//
// Every error about the contents of a file is an *Error that names the
// file, the 1-based line (the header is line 1) and, where one is to
// blame, the column; it wraps one of the sentinel errors below, so that
// callers can match it with errors.Is.
package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Sentinel errors of Read, Table.Column and Table.Split, wrapped in an
// *Error.
var (
	// ErrEmpty reports a file with no header line.
	ErrEmpty = errors.New("empty file: want a header line of column names")
	// ErrNoRows reports a header with no data rows after it.
	ErrNoRows = errors.New("header but no data rows")
	// ErrHeader reports a header line that is not a list of distinct
	// column names: a duplicate name, or numbers only, which means the
	// header line is missing.
	ErrHeader = errors.New("bad header")
	// ErrRagged reports a row whose number of fields differs from the
	// header's.
	ErrRagged = errors.New("wrong number of fields")
	// ErrNotNumber reports a field that is not a decimal number.
	ErrNotNumber = errors.New("not a number")
	// ErrNonFinite reports a NaN, an infinity, or a number beyond the
	// float64 range.
	ErrNonFinite = errors.New("value is NaN, infinite or out of range")
	// ErrSyntax reports a field that breaks the CSV quoting rules.
	ErrSyntax = errors.New("CSV syntax error")
	// ErrNoColumn reports a column name that is not in the header.
	ErrNoColumn = errors.New("no such column")
	// ErrNoFeatures reports a table whose only column is the target.
	ErrNoFeatures = errors.New("no feature columns besides the target")
)

// Error is an error in the contents of a file. It wraps one of the
// package's sentinel errors.
type Error struct {
	File   string // the file's name as given to Read
	Line   int    // 1-based line; the header is line 1
	Column int    // 1-based column, or 0 when no single column is to blame
	Name   string // the column's name from the header, if known
	Err    error  // a sentinel error, possibly wrapped with details
}

// Error formats e as "file: line L, column C (name): message".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: line %d", e.File, e.Line)
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", e.Name)
		}
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the wrapped sentinel error.
func (e *Error) Unwrap() error { return e.Err }

// Table is a numeric CSV file held in memory.
type Table struct {
	File       string    // the name used in error messages
	Header     []string  // the column names, in file order
	HeaderLine int       // the header's 1-based line: 1 unless empty lines precede it
	Values     []float64 // the rows, row-major: row i is Values[i*len(Header) : (i+1)*len(Header)]
	Lines      []int     // the 1-based line on which each row starts
}

// Rows returns the number of data rows.
func (t *Table) Rows() int { return len(t.Lines) }

// ReadFile reads the CSV file at path; its errors name the file by path.
func ReadFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// utf8BOM is the byte-order mark that some spreadsheet programs write at
// the start of a UTF-8 CSV file.
var utf8BOM = []byte("\uFEFF")

// Read reads a numeric CSV table from r; file names it in errors. The
// first line is the header: the column names, distinct, not all of them
// numbers (a header of numbers is a data row, and the file then lacks its
// header). Every following line is a row with one decimal number per
// column, in any form strconv.ParseFloat accepts ("1.5", "-2e-3"),
// surrounding spaces ignored; NaN and infinities are rejected. Fields may
// be quoted as RFC 4180 says; empty lines are skipped, and a UTF-8
// byte-order mark before the header is ignored.
func Read(r io.Reader, file string) (*Table, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // checked here, to say which line and why
	cr.ReuseRecord = true
	t := &Table{File: file}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, &Error{File: file, Line: 1, Err: ErrEmpty}
	}
	if err != nil {
		return nil, t.csvError(err)
	}
	if err := t.setHeader(rec, cr); err != nil {
		return nil, err
	}
	ncol := len(t.Header)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, t.csvError(err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != ncol {
			return nil, &Error{File: file, Line: line,
				Err: fmt.Errorf("%w: %d, the header has %d", ErrRagged, len(rec), ncol)}
		}
		for j, field := range rec {
			v, err := parseNumber(field)
			if err != nil {
				fl, _ := cr.FieldPos(j)
				return nil, &Error{File: file, Line: fl, Column: j + 1, Name: t.Header[j], Err: err}
			}
			t.Values = append(t.Values, v)
		}
		t.Lines = append(t.Lines, line)
	}
	if len(t.Lines) == 0 {
		return nil, &Error{File: file, Line: t.HeaderLine, Err: ErrNoRows}
	}
	return t, nil
}

// setHeader validates the header record and stores a copy of its names.
func (t *Table) setHeader(rec []string, cr *csv.Reader) error {
	line, _ := cr.FieldPos(0)
	t.HeaderLine = line
	seen := make(map[string]int, len(rec))
	numeric := true
	for j, field := range rec {
		name := strings.TrimSpace(field)
		if k, dup := seen[name]; dup {
			return &Error{File: t.File, Line: line, Column: j + 1, Name: name,
				Err: fmt.Errorf("%w: column name %q repeats column %d", ErrHeader, name, k+1)}
		}
		seen[name] = j
		if _, err := parseNumber(name); err != nil {
			numeric = false
		}
		t.Header = append(t.Header, name)
	}
	if numeric {
		return &Error{File: t.File, Line: line,
			Err: fmt.Errorf("%w: every field is a number; the first line must name the columns", ErrHeader)}
	}
	return nil
}

// csvError converts an error of the csv package to an *Error.
func (t *Table) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: t.File, Line: pe.Line, Err: fmt.Errorf("%w: %v", ErrSyntax, pe.Err)}
	}
	return fmt.Errorf("%s: %w", t.File, err)
}

// parseNumber parses one field as a finite float64.
func parseNumber(field string) (float64, error) {
	s := strings.TrimSpace(field)
	v, err := strconv.ParseFloat(s, 64)
	var ne *strconv.NumError
	if errors.As(err, &ne) && ne.Err == strconv.ErrSyntax {
		return 0, fmt.Errorf("%w: %q", ErrNotNumber, field)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: %q", ErrNonFinite, field)
	}
	return v, nil
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

// Split returns the features and the target of the table, with the
// column that Column(target) picks as the target: x holds the other
// columns, row-major, in file order, and y the target column. Besides
// the errors of Column it returns ErrNoFeatures for a table with no
// other column.
func (t *Table) Split(target string) (x, y []float64, err error) {
	k, err := t.Column(target)
	if err != nil {
		return nil, nil, err
	}
	ncol := len(t.Header)
	if ncol < 2 {
		return nil, nil, &Error{File: t.File, Line: t.HeaderLine, Column: k + 1, Name: t.Header[k], Err: ErrNoFeatures}
	}
	x = make([]float64, 0, t.Rows()*(ncol-1))
	y = make([]float64, t.Rows())
	for i := range y {
		row := t.Values[i*ncol : (i+1)*ncol]
		x = append(x, row[:k]...)
		x = append(x, row[k+1:]...)
		y[i] = row[k]
	}
	return x, y, nil
}

// Select returns the columns called names, in that order, row-major. A
// name not in the header gives ErrNoColumn, naming every missing column.
func (t *Table) Select(names []string) ([]float64, error) {
	idx := make([]int, len(names))
	var missing []string
	for i, name := range names {
		idx[i] = slices.Index(t.Header, name)
		if idx[i] < 0 {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if missing != nil {
		return nil, &Error{File: t.File, Line: t.HeaderLine,
			Err: fmt.Errorf("%w %s; the columns are %s", ErrNoColumn, strings.Join(missing, ", "), strings.Join(t.Header, ", "))}
	}
	ncol := len(t.Header)
	out := make([]float64, 0, t.Rows()*len(names))
	for r := 0; r < t.Rows(); r++ {
		row := t.Values[r*ncol : (r+1)*ncol]
		for _, j := range idx {
			out = append(out, row[j])
		}
	}
	return out, nil
}
