package table

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"slices"

	"github.com/gcpnet/gcp"
)

// detectRows is how many rows after the header a Stream reads ahead, and
// holds, to detect the decimal mark.
const detectRows = 1024

// A Stream reads a CSV table from a reader once, a chunk of rows at a
// time (Next), in memory bounded by the chunk whatever the length of the
// input: a pipe is read as it comes, and a file of any size is never all
// in memory. Its header, dialect and rows are those Read finds, with two
// differences, which are what reading once costs: the decimal mark, unless
// given, is detected from the first 1024 rows rather than from every
// field (a file whose first thousand rows have no decimal mark and whose
// later ones a decimal comma needs it given), and an
// error in a row (a CSV syntax error, a row of the wrong length) comes
// from the Next that reaches it, after the rows before it.
type Stream struct {
	t     Table // the header, its line, the dialect and the file's name
	cr    *csv.Reader
	text  []string
	ahead []row // rows read to detect the decimal mark, not yet returned
}

// row is a record of a Stream and the line it starts on.
type row struct {
	fields []string
	line   int
}

// NewStream returns a Stream of the CSV table that r holds, in the
// dialect d (its zero fields detected as Read detects them, from the
// header and the first rows), keeping the columns named by text as text,
// as Read does; file names it in errors. It reads the header and the
// rows that detection looks at, and returns Read's errors about them:
// ErrDialect, ErrEmpty, ErrHeader, ErrNoRows, ErrSyntax, ErrRagged.
func NewStream(r io.Reader, file string, d Dialect, text ...string) (*Stream, error) {
	if err := d.check(file); err != nil {
		return nil, err
	}
	// r enters here, and only here: every byte of the table comes through
	// rp.
	rp := &replay{r: r, recording: d.Sep == 0}
	src := &source{r: rp, file: file} // its csv reader bounds each record (limitRecords)
	s := &Stream{t: Table{File: file, Dialect: d}, text: text}
	var err error
	if d.Sep == 0 {
		if s.t.Dialect.Sep, err = detectSep(src); err != nil {
			return nil, s.t.csvError(err)
		}
	}
	if s.cr, err = src.csv(s.t.Dialect.Sep); err != nil {
		return nil, s.t.csvError(err)
	}
	rp.recording = false
	header, err := s.cr.Read()
	if err == io.EOF {
		return nil, &Error{File: file, Line: 1, Err: ErrEmpty}
	}
	if err != nil {
		return nil, s.t.csvError(err)
	}
	s.t.HeaderLine, _ = s.cr.FieldPos(0)
	header = slices.Clone(header)
	var votes decimalVotes
	for len(s.ahead) < detectRows {
		fields, line, err := s.read(len(header))
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		fields = slices.Clone(fields)
		for j, f := range fields {
			if _, _, _, vote := classify(f); vote != 0 {
				votes.add(vote, position{line: line, column: j + 1, field: f})
			}
		}
		s.ahead = append(s.ahead, row{fields, line})
	}
	if err := s.t.setHeader(header); err != nil {
		return nil, err
	}
	if s.t.Dialect.Decimal == 0 {
		if s.t.Dialect.Decimal, err = votes.mark(&s.t); err != nil {
			return nil, err
		}
	}
	if len(s.ahead) == 0 {
		return nil, &Error{File: file, Line: s.t.HeaderLine, Err: ErrNoRows}
	}
	return s, nil
}

// read returns the fields of the next record, which the csv reader may
// reuse, and its line; io.EOF at the end, ErrRagged for a record of other
// than ncol fields.
func (s *Stream) read(ncol int) ([]string, int, error) {
	fields, err := s.cr.Read()
	if err == io.EOF {
		return nil, 0, err
	}
	if err != nil {
		return nil, 0, s.t.csvError(err)
	}
	line, _ := s.cr.FieldPos(0)
	if len(fields) != ncol {
		return nil, 0, s.t.ragged(line, len(fields), ncol)
	}
	return fields, line, nil
}

// Next returns a table of the next rows, at most n (n > 0), held as Read
// holds a table: each column as numbers if every field of it in these
// rows is a number or missing and text does not name it, else as text.
// Its Line is the file's line. After the last row Next returns io.EOF.
func (s *Stream) Next(n int) (*Table, error) {
	ncol := len(s.t.Header)
	rows := make([][]string, 0, n)
	t := s.t
	for len(rows) < n {
		var r row
		if len(s.ahead) > 0 {
			r, s.ahead[0] = s.ahead[0], row{}
			s.ahead = s.ahead[1:]
		} else {
			fields, line, err := s.read(ncol)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			r = row{slices.Clone(fields), line}
		}
		t.lines.add(len(rows), r.line)
		rows = append(rows, r.fields)
	}
	if len(rows) == 0 {
		return nil, io.EOF
	}
	t.rows = len(rows)
	t.Columns = make([]gcp.TableColumn, ncol)
	for j, name := range t.Header {
		if !slices.Contains(s.text, name) && t.numbers(rows, j) {
			continue
		}
		c, codes := &t.Columns[j], map[string]uint32{}
		c.Codes = make([]uint32, len(rows))
		for i, r := range rows {
			c.Codes[i] = intern(c, codes, r[j])
		}
	}
	return &t, nil
}

// numbers holds column j of rows as numbers in t.Columns[j] and reports
// whether every field is a number or missing; if not, it holds nothing.
func (t *Table) numbers(rows [][]string, j int) bool {
	v := make([]float64, len(rows))
	for i, r := range rows {
		x, missing, err := gcp.ParseNumber(r[j], t.Dialect.Decimal)
		switch {
		case err != nil:
			return false
		case missing:
			x = math.NaN()
		}
		v[i] = x
	}
	t.Columns[j].Numbers = v
	return true
}

// replay is a reader that goes back to its start (Seek(0, io.SeekStart))
// while it records what it reads: a stream whose start detectSep reads
// once for each separator. Once recording stops it reads what it
// recorded, then the stream on, and frees the record.
type replay struct {
	r         io.Reader
	buf       []byte // what was read from r while recording
	pos       int    // the offset of the next read in buf
	recording bool
}

// errReplaySeek reports a seek that replay does not do: anything but
// finding its offset, or going back to the start while it records.
var errReplaySeek = errors.New("a stream goes back only to its start, while its dialect is detected")

func (p *replay) Read(b []byte) (int, error) {
	if p.pos < len(p.buf) {
		n := copy(b, p.buf[p.pos:])
		p.pos += n
		return n, nil
	}
	if !p.recording {
		p.buf, p.pos = nil, 0
		return p.r.Read(b)
	}
	n, err := p.r.Read(b)
	p.buf = append(p.buf, b[:n]...)
	p.pos += n
	return n, err
}

func (p *replay) Seek(offset int64, whence int) (int64, error) {
	switch {
	case offset == 0 && whence == io.SeekCurrent:
		return int64(p.pos), nil
	case offset == 0 && whence == io.SeekStart && (p.recording || p.pos == 0 && p.buf == nil):
		p.pos = 0
		return 0, nil
	}
	return 0, errReplaySeek
}
