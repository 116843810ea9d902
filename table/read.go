package table

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/isodate"
)

// ReadFile reads the CSV file at path in the dialect d (its zero fields
// detected), keeping the columns named by text as text (Read); its
// errors name the file by path.
func ReadFile(path string, d Dialect, text ...string) (*Table, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, d, text...)
}

// Open opens the data file at path for reading: a regular file or a
// named pipe. Anything else (a directory, a device such as /dev/zero, a
// socket) is an error wrapping ErrNotFile, before a byte is read: a
// device never ends.
func Open(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := info.Mode(); !m.IsRegular() && m&fs.ModeNamedPipe == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %w: it is %s", path, ErrNotFile, describeMode(m))
	}
	return f, nil
}

// describeMode names the kind of file that mode, not a regular file nor a
// pipe, is.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file (" + m.String() + ")"
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
// A column name is the header's field without surrounding spaces and
// byte-order marks; an empty name is an error, and so is a carriage
// return in one, which is what a file whose lines end in CR alone (old
// Mac OS) gives.
//
// A zero d.Sep is detected from the header and the first 20 rows: the
// separator of ',', ';' and tab that splits all of them into
// the same number of fields, the most fields if several do (a comma
// before a semicolon on a tie); if none does, the one that splits the
// header into the most. A zero d.Decimal is detected from every field:
// ',' if more fields are numbers with a decimal comma ("1,5") than with
// a decimal point ("1.5"), '.' if fewer or none, and an error wrapping
// ErrDialect if as many. A comma before three digits after one to three
// ("2,296", "398,865") is as likely a thousands separator and does not
// count. Numbers with thousands separators are not numbers in either
// dialect.
//
// A column whose every field is a number or missing (gcp.ParseNumber, in
// the decimal mark; its missing spellings include NA, NULL, N/A, #N/A
// and -) is held as numbers, unless text names it: a column that a model
// takes as categorical, whose levels are the text as written ("007" and
// "7" are two), or one passed through as written. Table.Missing counts
// the missing fields by spelling. A column whose fields, missing ones
// aside, are at least 95% numbers, or numbers that are not read (with
// thousands separators, the other decimal mark, or infinite), but not
// all numbers, is an error wrapping ErrMixed that names its first field
// that is not a number: one stray token must not turn a column of
// numbers into text in silence. Any other column is held as text.
//
// A column whose every field is an ISO date or date-time (2024-03-17,
// 2024-03-17T06:30:00Z, 2024-03-17 06:30) or missing, one at least a
// date, is held as dates (gcp.TableColumn.Dates), unless d.NoDates is
// set or text names it. A column whose fields, missing ones aside, are
// at least 95% dates but not all ISO dates is an error: one wrapping
// ErrDateFormat that names its first date written otherwise (03/04/2024,
// 17.03.2024: is it day/month or month/day?), or else one wrapping
// ErrMixed that names its first field that is not a date.
//
// No record may be longer than MaxRecordBytes or have more fields than
// MaxFields: such input is an error wrapping ErrTooLarge,
// found in memory bounded by the limits, not by the input.
//
// Read reads r twice: first to find the rows, the dialect and each
// column's kind, then to hold each field as its column's kind, so that
// the file's text is never all in memory. An r that cannot seek back to
// where it started (a pipe) is read into memory first, each record
// within the limits. A file that changes between the two readings is an
// error wrapping ErrChanged.
func Read(r io.Reader, file string, d Dialect, text ...string) (*Table, error) {
	if err := d.check(file); err != nil {
		return nil, err
	}
	src, err := newSource(r, file)
	if err == nil && d.Sep == 0 {
		d.Sep, err = detectSep(src)
	}
	if err != nil {
		return nil, fileError(file, err)
	}
	t := &Table{File: file, Dialect: d}
	kinds, err := t.scan(src)
	if err != nil {
		return nil, err
	}
	if err := t.setHeader(kinds.header); err != nil {
		return nil, err
	}
	if t.rows == 0 {
		return nil, &Error{File: file, Line: t.HeaderLine, Err: ErrNoRows}
	}
	if t.Dialect.Decimal == 0 {
		if t.Dialect.Decimal, err = kinds.votes.mark(t); err != nil {
			return nil, err
		}
	}
	held := make([]columnKind, len(t.Header))
	t.Missing = make([]map[string]int, len(t.Header))
	for j, name := range t.Header {
		t.Missing[j] = kinds.columns[j].missing
		if !slices.Contains(text, name) {
			if held[j], err = kinds.columns[j].kind(t, t.Dialect.Decimal, !d.NoDates); err != nil {
				return nil, err
			}
		}
	}
	return t, t.fill(src, held)
}

// fileError returns err, naming file unless it is an *Error, which does.
func fileError(file string, err error) error {
	if _, ok := err.(*Error); ok {
		return err
	}
	return fmt.Errorf("%s: %w", file, err)
}

// check returns ErrDialect, naming file, unless d is a dialect Read
// reads: zero fields are detected.
func (d Dialect) check(file string) error {
	if !slices.Contains([]rune{0, ',', ';', '\t'}, d.Sep) || !slices.Contains([]byte{0, '.', ','}, d.Decimal) {
		return fmt.Errorf("%s: %w: separator %q, decimal mark %q; want ',', ';' or tab, and '.' or ','", file, ErrDialect, d.Sep, d.Decimal)
	}
	return nil
}

// ragged returns the *Error of the row on line with fields fields where
// the header has ncol.
func (t *Table) ragged(line, fields, ncol int) error {
	return &Error{File: t.File, Line: line, Err: fmt.Errorf("%w: %d, the header has %d", ErrRagged, fields, ncol)}
}

// source is the CSV data that Read reads twice: a reader that seeks back
// to where it started, or a copy in memory.
type source struct {
	r     io.ReadSeeker
	start int64
	file  string
}

// newSource returns the source of r, called file in errors: r itself if
// it can seek, else its bytes read into memory, each record within the
// limits of limitRecords (whose fields are counted in each reading, once
// the separator is known).
func newSource(r io.Reader, file string) (*source, error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return &source{r: rs, start: start, file: file}, nil
		}
	}
	data, err := io.ReadAll(limitRecords(r, file, 0))
	if err != nil {
		return nil, err
	}
	return &source{r: bytes.NewReader(data), file: file}, nil
}

// csv returns a reader of the CSV records of s from its start, past a
// byte-order mark, with the separator sep, each record within the limits
// of limitRecords; it leaves the number of fields to be checked by the
// caller, which can say which line and why.
func (s *source) csv(sep rune) (*csv.Reader, error) {
	if _, err := s.r.Seek(s.start, io.SeekStart); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(limitRecords(s.r, s.file, sep), 1<<16)
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	cr := csv.NewReader(br)
	cr.Comma, cr.FieldsPerRecord, cr.ReuseRecord = sep, -1, true
	return cr, nil
}

// sampleRows is how many rows after the header detectSep looks at.
const sampleRows = 20

// detectSep returns the separator of the CSV data, as Read documents.
func detectSep(src *source) (rune, error) {
	best, bestFields := ',', 0
	widest, widestHeader := ',', 0
	for _, sep := range []rune{',', ';', '\t'} {
		cr, err := src.csv(sep)
		if err != nil {
			return 0, err
		}
		fields, consistent := 0, true
		for i := 0; i <= sampleRows; i++ {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			if errors.Is(err, errLong) { // too long with any separator
				return 0, err
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
		return best, nil
	}
	return widest, nil
}

// kinds is what the first reading of a file finds of its columns.
type kinds struct {
	header  []string
	columns []columnStats
	votes   decimalVotes
}

// scan reads the records of src, the first reading: it sets the table's
// header line, rows and lines, and returns the kinds of its columns. It
// returns the first error of the CSV syntax or of a row's length.
func (t *Table) scan(src *source) (*kinds, error) {
	cr, err := src.csv(t.Dialect.Sep)
	if err != nil {
		return nil, fileError(t.File, err)
	}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, &Error{File: t.File, Line: 1, Err: ErrEmpty}
	}
	if err != nil {
		return nil, t.csvError(err)
	}
	t.HeaderLine, _ = cr.FieldPos(0)
	ncol := len(rec)
	k := &kinds{header: slices.Clone(rec), columns: make([]columnStats, ncol)}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return k, nil
		}
		if err != nil {
			return nil, t.csvError(err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != ncol {
			return nil, t.ragged(line, len(rec), ncol)
		}
		if int64(t.rows) == math.MaxUint32 { // int64: an int of 32 bits cannot hold the bound
			return nil, &Error{File: t.File, Line: line, Err: fmt.Errorf("more than %d rows", uint64(math.MaxUint32))}
		}
		for j, f := range rec {
			l, _ := cr.FieldPos(j)
			k.columns[j].add(position{line: l, column: j + 1, field: f}, &k.votes)
		}
		t.lines.add(t.rows, line)
		t.rows++
	}
}

// fill reads the records of src again, the second reading, and holds
// their fields in the table's columns as held says: numbers, dates as
// days, or each distinct text once.
func (t *Table) fill(src *source, held []columnKind) error {
	cr, err := src.csv(t.Dialect.Sep)
	if err != nil {
		return fmt.Errorf("%s: %w", t.File, err)
	}
	if _, err := cr.Read(); err != nil {
		return t.changed(t.HeaderLine)
	}
	t.Columns = make([]gcp.TableColumn, len(held))
	codes := make([]map[string]uint32, len(held))
	for j, k := range held {
		if k != kindText {
			t.Columns[j].Numbers, t.Columns[j].Dates = make([]float64, t.rows), k == kindDates
		} else {
			t.Columns[j].Codes, codes[j] = make([]uint32, t.rows), map[string]uint32{}
		}
	}
	for i := 0; ; i++ {
		rec, err := cr.Read()
		switch {
		case err == io.EOF && i == t.rows:
			return nil
		case i == t.rows: // a row more than the first reading found
			return t.changed(t.Line(i - 1))
		case err != nil || len(rec) != len(held):
			return t.changed(t.Line(i))
		}
		for j, f := range rec {
			c := &t.Columns[j]
			if c.Numbers == nil {
				c.Codes[i] = intern(c, codes[j], f)
				continue
			}
			v, err := value(held[j], f, t.Dialect.Decimal)
			if err != nil {
				return t.changed(t.Line(i))
			}
			c.Numbers[i] = v
		}
	}
}

// value returns the field f of a column held as numbers or dates (kind)
// as the table holds it: the number (gcp.ParseNumber, with the decimal
// mark), the days since 1970-01-01 UTC of an ISO date (isodate.Parse),
// or NaN if it is missing; and an error if it is neither.
func value(kind columnKind, f string, decimal byte) (float64, error) {
	if kind == kindDates {
		if days, ok := isodate.Parse(f); ok {
			return days, nil
		}
	}
	v, missing, err := gcp.ParseNumber(f, decimal)
	switch {
	case missing:
		return math.NaN(), nil
	case err == nil && kind == kindDates:
		return 0, fmt.Errorf("%w: %q is a number, not a date", gcp.ErrNotNumber, f)
	}
	return v, err
}

// intern returns the code of the text f among the levels of the text
// column c, whose codes by text are codes, adding a copy of f (not the
// record it is part of) if it is new.
func intern(c *gcp.TableColumn, codes map[string]uint32, f string) uint32 {
	code, ok := codes[f]
	if !ok {
		f = strings.Clone(f)
		code = uint32(len(c.Levels))
		codes[f], c.Levels = code, append(c.Levels, f)
	}
	return code
}

// changed returns the *Error of a file whose second reading differs from
// its first at line.
func (t *Table) changed(line int) error {
	return &Error{File: t.File, Line: line, Err: ErrChanged}
}

// setHeader validates the header record and stores a copy of its names.
func (t *Table) setHeader(rec []string) error {
	seen := make(map[string]int, len(rec))
	numeric := true
	for j, field := range rec {
		name := strings.TrimFunc(field, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' })
		bad := func(format string, a ...any) error {
			return &Error{File: t.File, Line: t.HeaderLine, Column: j + 1, Name: name, Err: fmt.Errorf("%w: "+format, append([]any{ErrHeader}, a...)...)}
		}
		switch k, dup := seen[name]; {
		case strings.ContainsRune(field, '\r'):
			return bad("a carriage return in column name %q: do the lines end in CR alone (old Mac OS)? Save the file with LF or CRLF line ends", field)
		case name == "":
			return bad("column %d has no name", j+1)
		case dup:
			return bad("column name %q repeats column %d", name, k+1)
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

// fieldError returns the *Error of the field at p.
func (t *Table) fieldError(p position, err error) error {
	return &Error{File: t.File, Line: p.line, Column: p.column, Name: t.Header[p.column-1], Err: err}
}

// csvError converts an error of the csv package, or of limitRecords, to
// an *Error. A quote that is not closed shows as a syntax error at the
// end of the file, or where the next quote is; it is reported on the line
// where its record starts, which is where it was opened unless an
// earlier quoted field of the record holds a line break.
func (t *Table) csvError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fileError(t.File, err)
	}
	if errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine < pe.Line {
		return &Error{File: t.File, Line: pe.StartLine,
			Err: fmt.Errorf("%w: a quote opened in the record that starts here is not closed by line %d (%v)", ErrSyntax, pe.Line, pe.Err)}
	}
	return &Error{File: t.File, Line: pe.Line, Err: fmt.Errorf("%w: %v", ErrSyntax, pe.Err)}
}
