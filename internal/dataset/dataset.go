// Package dataset reads the CSV files of the gcp command as text: one
// header line of column names, then one row of fields per sample, in the
// dialects spreadsheets write. The separator is a comma, a semicolon or
// a tab, and the decimal mark a point or a comma; each is detected from
// the file unless given (Dialect). Fields may be quoted as RFC 4180 says
// (a quoted field may hold the separator, quotes doubled, and line
// breaks); lines may end in CRLF; a UTF-8 byte-order mark before the
// header is ignored, and so are empty lines. What a field means (a
// number, a level of a category, a missing value) is the business of the
// model's encoding (gcp.Encoding), which parses numbers with
// gcp.ParseNumber and the table's decimal mark.
//
// Every error about the contents of a file is an *Error that names the
// file, the 1-based line (the header is line 1) and, where one is to
// blame, the column; it wraps one of the sentinel errors below, or one
// of package gcp's, so that callers can match it with errors.Is.
package dataset

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
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
	// ErrSyntax reports a field that breaks the CSV quoting rules.
	ErrSyntax = errors.New("CSV syntax error")
	// ErrNoColumn reports a column name that is not in the header.
	ErrNoColumn = errors.New("no such column")
	// ErrNoFeatures reports a table whose only column is the target.
	ErrNoFeatures = errors.New("no feature columns besides the target")
	// ErrMissing reports a missing value where Split wants a number.
	ErrMissing = errors.New("missing value")
	// ErrDialect reports a separator or decimal mark that the package
	// does not read.
	ErrDialect = errors.New("unknown CSV dialect")
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
// ','). A zero field is detected by Read.
type Dialect struct {
	Sep     rune
	Decimal byte
}

// String describes d as "separator ';', decimal mark ','".
func (d Dialect) String() string {
	sep := string(d.Sep)
	if d.Sep == '\t' {
		sep = `\t`
	}
	return fmt.Sprintf("separator '%s', decimal mark '%c'", sep, d.Decimal)
}

// Table is a CSV file held in memory, as text.
type Table struct {
	File       string   // the name used in error messages
	Header     []string // the column names, in file order, without surrounding spaces
	HeaderLine int      // the header's 1-based line: 1 unless empty lines precede it
	// Fields holds the rows, row-major: row i is Row(i).
	Fields []string
	Lines  []int // the 1-based line on which each row starts
	// Dialect is the file's, as given to Read or detected.
	Dialect Dialect
}

// Rows returns the number of data rows.
func (t *Table) Rows() int { return len(t.Lines) }

// Row returns the fields of row i.
func (t *Table) Row(i int) []string {
	n := len(t.Header)
	return t.Fields[i*n : (i+1)*n : (i+1)*n]
}

// Select returns the table of the given rows, in that order.
func (t *Table) Select(rows []int) *Table {
	s := *t
	s.Fields, s.Lines = make([]string, 0, len(rows)*len(t.Header)), make([]int, len(rows))
	for k, i := range rows {
		s.Fields = append(s.Fields, t.Row(i)...)
		s.Lines[k] = t.Lines[i]
	}
	return &s
}

// ReadFile reads the CSV file at path in the dialect d (its zero fields
// detected); its errors name the file by path.
func ReadFile(path string, d Dialect) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, d)
}

// utf8BOM is the byte-order mark that some spreadsheet programs write at
// the start of a UTF-8 CSV file.
var utf8BOM = []byte("\uFEFF")

// Read reads a CSV table from r in the dialect d; file names it in
// errors. The first line is the header: the column names, distinct, not
// all of them numbers (a header of numbers is a data row, and the file
// then lacks its header). Every following line is a row with one field
// per column.
//
// A zero d.Sep is detected from the header and the first sampleRows
// rows: the separator of ',', ';' and tab that splits all of them into
// the same number of fields, the most fields if several do (a comma
// before a semicolon on a tie); if none does, the one that splits the
// header into the most. A zero d.Decimal is detected from every field:
// ',' if more fields are numbers with a decimal comma ("1,5") than with
// a decimal point ("1.5"), else '.'. Numbers with thousands separators
// are not numbers in either dialect.
func Read(r io.Reader, file string, d Dialect) (*Table, error) {
	if !slices.Contains([]rune{0, ',', ';', '\t'}, d.Sep) || !slices.Contains([]byte{0, '.', ','}, d.Decimal) {
		return nil, fmt.Errorf("%s: %w: separator %q, decimal mark %q; want ',', ';' or tab, and '.' or ','", file, ErrDialect, d.Sep, d.Decimal)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if d.Sep == 0 {
		d.Sep = detectSep(data)
	}
	t := &Table{File: file, Dialect: d}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = d.Sep
	cr.FieldsPerRecord = -1 // checked here, to say which line and why
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, &Error{File: file, Line: 1, Err: ErrEmpty}
	}
	if err != nil {
		return nil, t.csvError(err)
	}
	t.HeaderLine, _ = cr.FieldPos(0)
	ncol := len(rec)
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
		t.Fields = append(t.Fields, rec...)
		t.Lines = append(t.Lines, line)
	}
	if t.Dialect.Decimal == 0 {
		t.Dialect.Decimal = detectDecimal(t.Fields)
	}
	if err := t.setHeader(rec); err != nil {
		return nil, err
	}
	if len(t.Lines) == 0 {
		return nil, &Error{File: file, Line: t.HeaderLine, Err: ErrNoRows}
	}
	return t, nil
}

// sampleRows is how many rows after the header detectSep looks at.
const sampleRows = 20

// detectSep returns the separator of the CSV data, as Read documents.
func detectSep(data []byte) rune {
	best, bestFields := ',', 0
	widest, widestHeader := ',', 0
	for _, sep := range []rune{',', ';', '\t'} {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.Comma = sep
		cr.FieldsPerRecord = -1
		fields, consistent := 0, true
		for i := 0; i <= sampleRows; i++ {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			switch {
			case err != nil:
				consistent = false
			case i == 0:
				fields = len(rec)
			case len(rec) != fields:
				consistent = false
			}
			if err != nil {
				break
			}
		}
		if fields > widestHeader {
			widest, widestHeader = sep, fields
		}
		if consistent && fields > bestFields {
			best, bestFields = sep, fields
		}
	}
	if bestFields > 1 {
		return best
	}
	return widest
}

// detectDecimal returns the decimal mark of the fields, as Read
// documents.
func detectDecimal(fields []string) byte {
	comma, point := 0, 0
	for _, f := range fields {
		switch {
		case strings.IndexByte(f, ',') >= 0:
			if _, missing, err := gcp.ParseNumber(f, ','); err == nil && !missing {
				comma++
			}
		case strings.IndexByte(f, '.') >= 0:
			if _, missing, err := gcp.ParseNumber(f, '.'); err == nil && !missing {
				point++
			}
		}
	}
	if comma > point {
		return ','
	}
	return '.'
}

// setHeader validates the header record and stores a copy of its names.
func (t *Table) setHeader(rec []string) error {
	seen := make(map[string]int, len(rec))
	numeric := true
	for j, field := range rec {
		name := strings.TrimSpace(field)
		if k, dup := seen[name]; dup {
			return &Error{File: t.File, Line: t.HeaderLine, Column: j + 1, Name: name,
				Err: fmt.Errorf("%w: column name %q repeats column %d", ErrHeader, name, k+1)}
		}
		seen[name] = j
		if _, missing, err := gcp.ParseNumber(name, t.Dialect.Decimal); err != nil || missing {
			numeric = false
		}
		t.Header = append(t.Header, name)
	}
	if numeric {
		return &Error{File: t.File, Line: t.HeaderLine,
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
	return &Error{File: t.File, Line: t.Lines[i], Column: j + 1, Name: t.Header[j], Err: err}
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
		for j, f := range t.Row(i) {
			v, missing, err := gcp.ParseNumber(f, t.Dialect.Decimal)
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
