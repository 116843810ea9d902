package table

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// zeros is an endless input without a line break, as /dev/zero is; it
// seeks, as a file does, unless wrapped in pipe.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

func (zeros) Seek(int64, int) (int64, error) { return 0, nil }

// TestReadEndless checks that an input without a line break, endless, is
// an error wrapping ErrTooLarge on the line where it starts, from a file
// that seeks and from a pipe, with allocations bounded by a small
// multiple of MaxRecordBytes: the input has no end, so an error at all
// shows a bound. regression: issue 32's H4 (/dev/zero and a sparse file
// of 5 GB grew until the runtime died).
func TestReadEndless(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    io.Reader
		line int
	}{
		{"a file", zeros{}, 1},
		{"a pipe", pipe{zeros{}}, 1},
		{"a pipe after two lines", io.MultiReader(strings.NewReader("a,y\n1,2\n"), zeros{}), 3},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Read(tc.r, "f.csv", Dialect{})
		runtime.ReadMemStats(&after)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrTooLarge) || e.Line != tc.line {
			t.Errorf("%s: %v, want ErrTooLarge on line %d", tc.name, err, tc.line)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 40*MaxRecordBytes {
			t.Errorf("%s: %d bytes allocated, want at most %d", tc.name, a, 40*MaxRecordBytes)
		}
	}
}

// TestLimitRecords checks the limits at their edges: a record of
// MaxRecordBytes bytes (its final line break aside) and one of
// MaxFields fields are read, a byte or a
// field more is an error on the line where the record starts, and line
// breaks and separators inside quotes belong to the record and field.
func TestLimitRecords(t *testing.T) {
	long := strings.Repeat("x", MaxRecordBytes) // the final line break not counted
	wide := strings.Repeat(",", MaxFields-1)
	for _, tc := range []struct {
		name, in string
		line     int // 0: no error
	}{
		{"the longest line", "a\n" + long + "\n", 0},
		{"a byte more", "a\n" + long + "x\nz\n", 2},
		{"the longest record over lines", "a\n\"" + long[:10] + "\n" + long[13:] + "\"\n", 0},
		{"a byte more over lines", "a\n\n\"" + long[:10] + "\n" + long[12:] + "\"\n", 3},
		{"the most fields", "a\n" + wide + "\n", 0},
		{"a field more", "a\n" + wide + ",\n", 2},
		{"separators in quotes", "a\n\"" + wide + ",\"\n", 0},
	} {
		_, err := io.Copy(io.Discard, limitRecords(strings.NewReader(tc.in), "f.csv", ','))
		var e *Error
		switch {
		case tc.line == 0 && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.line != 0 && (!errors.As(err, &e) || !errors.Is(err, ErrTooLarge) || e.Line != tc.line || e.File != "f.csv"):
			t.Errorf("%s: %v, want ErrTooLarge on line %d", tc.name, err, tc.line)
		}
	}
	// Without a separator, only the bytes count.
	if _, err := io.Copy(io.Discard, limitRecords(strings.NewReader(wide+","), "f.csv", 0)); err != nil {
		t.Errorf("fields counted without a separator: %v", err)
	}
}

// TestLimitRecordsByByte checks the limiter, which counts stretches
// between quotes and line breaks, against a count byte by byte, on
// random data of separators, quotes, line breaks and letters with small
// limits, read whole and a byte at a time: an error on the same line, or
// none. (Which limit it names may differ: a stretch that passes both
// names the bytes.)
func TestLimitRecordsByByte(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = ",\"\nab"[r.IntN(5)]
		}
		maxBytes, maxFields := 1+r.IntN(12), 1+r.IntN(5)
		want := limitByByte(b, maxBytes, maxFields)
		for _, one := range []bool{false, true} {
			var src io.Reader = bytes.NewReader(b)
			if one {
				src = iotest.OneByteReader(src)
			}
			l := limitRecords(src, "f.csv", ',').(*limiter)
			l.maxBytes, l.maxFields = maxBytes, maxFields
			_, err := io.Copy(io.Discard, l)
			if lineOf(err) != lineOf(want) {
				t.Fatalf("%q with at most %d bytes, %d fields (a byte at a time: %v): %v, want %v", b, maxBytes, maxFields, one, err, want)
			}
		}
	}
}

// limitByByte returns the error of limitRecords on b, with the limits
// given, from a count byte by byte.
func limitByByte(b []byte, maxBytes, maxFields int) error {
	line, start, n, fields, quoted := 1, 1, 0, 1, false
	for _, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n':
			line++
			if !quoted {
				n, fields, start = 0, 1, line
				continue
			}
		case c == ',' && !quoted:
			fields++
		}
		n++
		if n > maxBytes {
			return &Error{File: "f.csv", Line: start, Err: errLong}
		}
		if fields > maxFields {
			return &Error{File: "f.csv", Line: start, Err: errWide}
		}
	}
	return nil
}

// lineOf returns the line of an *Error, 0 for no error and -1 for
// another.
func lineOf(err error) int {
	var e *Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e) && errors.Is(err, ErrTooLarge):
		return e.Line
	}
	return -1
}
