package table

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// The limits of one record (a line, or the lines of a record whose
// quoted fields hold line breaks) that Read and Stream enforce.
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

// limitRecords returns a reader of r's bytes that fails, with an *Error
// wrapping ErrTooLarge on the line where the record starts, when a
// record of CSV data with the separator sep is longer than
// MaxRecordBytes or has more fields than MaxFields (sep 0: the bytes
// alone are bounded). It follows quotes as RFC 4180 writes them: a line
// break or separator inside a quoted field does not end the record or
// the field. A CSV reader that holds a record in memory is then bounded
// by the limits whatever r holds, where encoding/csv would read a file
// without line breaks into memory whole. file names r in errors.
func limitRecords(r io.Reader, file string, sep rune) io.Reader {
	l := &limiter{r: r, file: file, line: 1, start: 1, fields: 1, maxBytes: MaxRecordBytes, maxFields: MaxFields}
	if sep != 0 {
		l.sep = []byte{byte(sep)}
	}
	return l
}

// limiter is limitRecords' reader.
type limiter struct {
	r      io.Reader
	file   string
	sep    []byte // nil: fields not counted
	line   int    // the line of the next byte, from 1
	start  int    // the line on which the record being read starts
	bytes  int    // the bytes of that record so far
	fields int    // and its fields
	quoted bool   // inside a quoted field
	err    error
	// The limits, MaxRecordBytes and MaxFields but in tests.
	maxBytes, maxFields int
}

// Read reads from the underlying reader, counting the records' bytes and
// fields; with the error of a record beyond a limit it returns the bytes
// before the stretch of that record in which the limit was passed.
func (l *limiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i := 0; i < n; {
		k := l.step(p[i:n])
		if l.err != nil {
			return i, l.err
		}
		i += k
	}
	return n, err
}

// step counts the start of b, up to and including its first quote or
// line break outside quotes (all of b if none), and returns its length;
// it sets l.err if the record passes a limit. Each stretch is found and
// counted with bytes.IndexByte and bytes.Count, not byte by byte: the
// limits cost a small part of a reading.
func (l *limiter) step(b []byte) int {
	var k int
	if l.quoted {
		// Up to the next quote, which closes the field or is the first
		// of a doubled one: the next step sees the second.
		k = len(b)
		if q := bytes.IndexByte(b, '"'); q >= 0 {
			k, l.quoted = q+1, false
		}
		l.line += bytes.Count(b[:k], newline)
		l.bytes += k
	} else {
		k = len(b)
		if e := bytes.IndexByte(b, '\n'); e >= 0 {
			k = e + 1
		}
		if q := bytes.IndexByte(b[:k], '"'); q >= 0 {
			k, l.quoted = q+1, true
		}
		l.bytes += k
		if l.sep != nil {
			l.fields += bytes.Count(b[:k], l.sep)
		}
		if b[k-1] == '\n' {
			l.bytes-- // the line break ends the record and is not part of it
		}
	}
	switch {
	case l.bytes > l.maxBytes:
		l.err = &Error{File: l.file, Line: l.start, Err: errLong}
	case l.fields > l.maxFields:
		l.err = &Error{File: l.file, Line: l.start, Err: errWide}
	case !l.quoted && b[k-1] == '\n':
		l.line++
		l.bytes, l.fields, l.start = 0, 1, l.line
	}
	return k
}

// newline is the line break that step counts.
var newline = []byte{'\n'}
