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
	"strings"

	"github.com/gcpnet/gcp"
)

// ReadFile reads the CSV file at path in the dialect d (its zero fields
// detected), keeping the columns named by text as text (Read); its
// errors name the file by path.
func ReadFile(path string, d Dialect, text ...string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, d, text...)
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
//
// A column whose every field is a number or missing (gcp.ParseNumber, in
// the decimal mark) is held as numbers, unless text names it: a column
// that a model takes as categorical, whose levels are the text as
// written ("007" and "7" are two), or one passed through as written.
// Any other column is held as text.
//
// Read reads r twice: first to find the rows, the dialect and each
// column's kind, then to hold each field as its column's kind, so that
// the file's text is never all in memory. An r that cannot seek back to
// where it started (a pipe) is read into memory first. A file that
// changes between the two readings is an error wrapping ErrChanged.
func Read(r io.Reader, file string, d Dialect, text ...string) (*Table, error) {
	if err := d.check(file); err != nil {
		return nil, err
	}
	src, err := newSource(r)
	if err == nil && d.Sep == 0 {
		d.Sep, err = detectSep(src)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t := &Table{File: file, Dialect: d}
	kinds, err := t.scan(src)
	if err != nil {
		return nil, err
	}
	if t.Dialect.Decimal == 0 {
		t.Dialect.Decimal = kinds.votes.mark()
	}
	if err := t.setHeader(kinds.header); err != nil {
		return nil, err
	}
	if t.rows == 0 {
		return nil, &Error{File: file, Line: t.HeaderLine, Err: ErrNoRows}
	}
	numeric := kinds.point
	if t.Dialect.Decimal == ',' {
		numeric = kinds.comma
	}
	for j, name := range t.Header {
		numeric[j] = numeric[j] && !slices.Contains(text, name)
	}
	return t, t.fill(src, numeric)
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
}

// newSource returns the source of r: r itself if it can seek, else its
// bytes read into memory.
func newSource(r io.Reader) (*source, error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return &source{r: rs, start: start}, nil
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return &source{r: bytes.NewReader(data)}, nil
}

// csv returns a reader of the CSV records of s from its start, past a
// byte-order mark, with the separator sep; it leaves the number of
// fields to be checked by the caller, which can say which line and why.
func (s *source) csv(sep rune) (*csv.Reader, error) {
	if _, err := s.r.Seek(s.start, io.SeekStart); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(s.r, 1<<16)
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
	header []string
	// point and comma report, for each column, whether every field is a
	// number or missing (gcp.ParseNumber) with a decimal point, and with a
	// decimal comma.
	point, comma []bool
	votes        decimalVotes
}

// scan reads the records of src, the first reading: it sets the table's
// header line, rows and lines, and returns the kinds of its columns. It
// returns the first error of the CSV syntax or of a row's length.
func (t *Table) scan(src *source) (*kinds, error) {
	cr, err := src.csv(t.Dialect.Sep)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.File, err)
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
	k := &kinds{header: slices.Clone(rec), point: make([]bool, ncol), comma: make([]bool, ncol)}
	for j := range ncol {
		k.point[j], k.comma[j] = true, true
	}
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
			point, comma := k.votes.add(f)
			k.point[j], k.comma[j] = k.point[j] && point, k.comma[j] && comma
		}
		t.lines.add(t.rows, line)
		t.rows++
	}
}

// fill reads the records of src again, the second reading, and holds
// their fields in the table's columns: numbers in the columns that
// numeric says are, each distinct text once in the others.
func (t *Table) fill(src *source, numeric []bool) error {
	cr, err := src.csv(t.Dialect.Sep)
	if err != nil {
		return fmt.Errorf("%s: %w", t.File, err)
	}
	if _, err := cr.Read(); err != nil {
		return t.changed(t.HeaderLine)
	}
	t.Columns = make([]gcp.TableColumn, len(numeric))
	codes := make([]map[string]uint32, len(numeric))
	for j, num := range numeric {
		if num {
			t.Columns[j].Numbers = make([]float64, t.rows)
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
		case err != nil || len(rec) != len(numeric):
			return t.changed(t.Line(i))
		}
		for j, f := range rec {
			c := &t.Columns[j]
			if c.Numbers == nil {
				c.Codes[i] = intern(c, codes[j], f)
				continue
			}
			v, missing, err := gcp.ParseNumber(f, t.Dialect.Decimal)
			if err != nil {
				return t.changed(t.Line(i))
			}
			if missing {
				v = math.NaN()
			}
			c.Numbers[i] = v
		}
	}
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

// decimalVotes counts the fields that are numbers with a decimal comma
// ("1,5") and with a decimal point ("1.5"), to detect the decimal mark.
type decimalVotes struct{ comma, point int }

// add counts the vote of field, and reports whether gcp.ParseNumber
// reads it without error (a number or missing) with a decimal point and
// with a decimal comma. One parse tells both: a field with neither mark
// reads alike with both, one with a point is never a number with a
// decimal comma (ParseNumber refuses it), one with a comma never one with
// a decimal point (strconv.ParseFloat takes no comma), and one with both
// is neither.
func (v *decimalVotes) add(field string) (point, comma bool) {
	hasComma, hasPoint := strings.IndexByte(field, ',') >= 0, strings.IndexByte(field, '.') >= 0
	switch {
	case hasComma && hasPoint:
		return false, false
	case hasComma:
		_, missing, err := gcp.ParseNumber(field, ',')
		if err == nil && !missing {
			v.comma++
		}
		return false, err == nil
	case hasPoint:
		_, missing, err := gcp.ParseNumber(field, '.')
		if err == nil && !missing {
			v.point++
		}
		return err == nil, false
	}
	_, _, err := gcp.ParseNumber(field, '.')
	return err == nil, err == nil
}

// mark returns the decimal mark the votes detect, as Read documents.
func (v *decimalVotes) mark() byte {
	if v.comma > v.point {
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
