package dataset

import (
	"errors"
	"fmt"
	"io"
)

// The limits of one record (a line, or the lines of a record whose
// quoted fields hold line breaks) that LimitRecords enforces.
const (
	// MaxRecordBytes is the most bytes of a record, its final line
	// break aside: 256 bytes for each of MaxFields fields, far more than
	// a number or a level takes, and small enough that a file with no
	// line break, such as a disk image or /dev/zero, fails after a few
	// tens of megabytes rather than after it has filled the memory.
	MaxRecordBytes = 16 << 20
	// MaxFields is the most fields of a record: a model takes at most
	// 65,536 inputs, and the target is one field more.
	MaxFields = 1<<16 + 1
)

// ErrTooLarge reports a record beyond MaxRecordBytes or MaxFields.
var ErrTooLarge = errors.New("record too large")

// The errors of a record beyond each limit, wrapping ErrTooLarge. The
// bytes of a record do not depend on the separator, so that the
// detection of the separator stops at errLong.
var (
	errLong = fmt.Errorf("%w: more than %d bytes from here without the end of the record (a line break outside quotes); is it a CSV file?", ErrTooLarge, MaxRecordBytes)
	errWide = fmt.Errorf("%w: more than %d fields", ErrTooLarge, MaxFields)
)

// LimitRecords returns a reader of r's bytes that fails, with an *Error
// wrapping ErrTooLarge on the line where the record starts, when a
// record of CSV data with the separator sep is longer than
// MaxRecordBytes or has more fields than MaxFields (sep 0: the bytes
// alone are bounded). It follows quotes as RFC 4180 writes them: a line
// break or separator inside a quoted field does not end the record or
// the field. A CSV reader that holds a record in memory is then bounded
// by the limits whatever r holds, where encoding/csv would read a file
// without line breaks into memory whole. file names r in errors.
func LimitRecords(r io.Reader, file string, sep rune) io.Reader {
	return &limiter{r: r, file: file, sep: byte(sep), line: 1, start: 1, fields: 1}
}

// limiter is LimitRecords' reader.
type limiter struct {
	r      io.Reader
	file   string
	sep    byte
	line   int  // the line of the next byte, from 1
	start  int  // the line on which the record being read starts
	bytes  int  // the bytes of that record so far
	fields int  // and its fields
	quoted bool // inside a quoted field
	err    error
}

// Read reads from the underlying reader, counting the records' bytes and
// fields; it returns the bytes before the first one beyond a limit with
// the error.
func (l *limiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		switch {
		case b == '"':
			l.quoted = !l.quoted // a doubled quote inside a quoted field turns it twice
		case b == '\n':
			l.line++
			if !l.quoted {
				l.bytes, l.fields, l.start = 0, 1, l.line
				continue
			}
		case b == l.sep && !l.quoted && l.sep != 0:
			l.fields++
		}
		l.bytes++
		if l.bytes > MaxRecordBytes {
			l.err = &Error{File: l.file, Line: l.start, Err: errLong}
		} else if l.fields > MaxFields {
			l.err = &Error{File: l.file, Line: l.start, Err: errWide}
		}
		if l.err != nil {
			return i, l.err
		}
	}
	return n, err
}
