package table

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// streamRows reads every chunk of at most n rows of s and returns each
// row's fields as text (Table.Field) and line.
func streamRows(t *testing.T, s *Stream, n int) (rows [][]string, lines []int) {
	t.Helper()
	for {
		tab, err := s.Next(n)
		if err == io.EOF {
			return rows, lines
		}
		if err != nil {
			t.Fatal(err)
		}
		if tab.Rows() > n {
			t.Fatalf("a chunk of %d rows, want at most %d", tab.Rows(), n)
		}
		for i := range tab.Rows() {
			rows, lines = append(rows, tab.Row(i)), append(lines, tab.Line(i))
		}
	}
}

// TestStreamReadsAsRead checks that a Stream, reading a reader that
// cannot seek one byte at a time, finds the header, the dialect, every
// row's fields and every row's line that Read finds, in chunks of any
// size: separators and decimal marks of each kind, quoted fields with
// line breaks, empty lines, a byte-order mark, columns kept as text, and
// a file whose detection reads past the first buffers (wide rows).
func TestStreamReadsAsRead(t *testing.T) {
	var wide strings.Builder
	wide.WriteString("name;x;y\n")
	for i := range 1500 {
		fmt.Fprintf(&wide, "%s;%d,5;%d\n", strings.Repeat("w", 100), i, i%7)
	}
	for _, c := range []struct {
		name, data string
		d          Dialect
		text       []string
	}{
		{"commas", "a,b,y\n1,2,3\n4,5,6\n", Dialect{}, nil},
		{"semicolons and decimal commas", "a;b\n1,5;2\n3,25;NA\n", Dialect{}, nil},
		{"tabs, quotes, empty lines, BOM", "\uFEFFid\tx\n\"multi\nline\"\t1.5\n\n\nz\t2\r\n", Dialect{}, nil},
		{"text kept", "id,zip,y\n007,1.50,1\n8,2,2\n", Dialect{}, []string{"zip", "id"}},
		{"given dialect", "a;b\n1,5;2\n", Dialect{Sep: ';', Decimal: ','}, nil},
		{"wide rows", wide.String(), Dialect{}, nil},
	} {
		want, err := Read(strings.NewReader(c.data), "f.csv", c.d, c.text...)
		if err != nil {
			t.Fatalf("%s: Read: %v", c.name, err)
		}
		var wantRows [][]string
		var wantLines []int
		for i := range want.Rows() {
			wantRows, wantLines = append(wantRows, want.Row(i)), append(wantLines, want.Line(i))
		}
		for _, n := range []int{1, 2, 1000} {
			s, err := NewStream(iotest.OneByteReader(strings.NewReader(c.data)), "f.csv", c.d, c.text...)
			if err != nil {
				t.Fatalf("%s: NewStream: %v", c.name, err)
			}
			if s.t.Dialect != want.Dialect || !cmp.Equal(s.t.Header, want.Header) || s.t.HeaderLine != want.HeaderLine {
				t.Errorf("%s: %v %q line %d, want %v %q line %d", c.name, s.t.Dialect, s.t.Header, s.t.HeaderLine, want.Dialect, want.Header, want.HeaderLine)
			}
			rows, lines := streamRows(t, s, n)
			if diff := cmp.Diff(wantRows, rows); diff != "" {
				t.Errorf("%s, chunks of %d: rows differ (-Read +Stream):\n%s", c.name, n, diff)
			}
			if diff := cmp.Diff(wantLines, lines); diff != "" {
				t.Errorf("%s, chunks of %d: lines differ (-Read +Stream):\n%s", c.name, n, diff)
			}
		}
	}
}

// TestStreamErrors checks that a Stream refuses what Read refuses, with
// the same sentinel and line: on the header and the first rows from
// NewStream, and on a later row from the Next that reaches it, after
// the rows before it.
func TestStreamErrors(t *testing.T) {
	for _, c := range []struct {
		name, data string
		d          Dialect
		want       error
		line       int
	}{
		{"empty", "", Dialect{}, ErrEmpty, 1},
		{"header only", "\na,b\n", Dialect{}, ErrNoRows, 2},
		{"duplicate names", "a,a\n1,2\n", Dialect{}, ErrHeader, 1},
		{"numbers for a header", "1,2\n3,4\n", Dialect{}, ErrHeader, 1},
		{"ragged first rows", "a,b\n1,2\n3\n", Dialect{}, ErrRagged, 3},
		{"bad quote", "a,b\n1,x\"y\n", Dialect{Sep: ','}, ErrSyntax, 2},
		{"unknown separator", "a|b\n1|2\n", Dialect{Sep: '|'}, ErrDialect, 0},
		{"ambiguous decimal mark", "a;b\n1,5;2\n3.5;4\n", Dialect{Sep: ';'}, ErrDialect, 2},
		{"record too long", "a,b\n1,\"" + strings.Repeat("x", MaxRecordBytes) + "\"\n", Dialect{}, ErrTooLarge, 2},
	} {
		_, err := NewStream(strings.NewReader(c.data), "f.csv", c.d)
		var e *Error
		if !errors.Is(err, c.want) || c.line > 0 && (!errors.As(err, &e) || e.Line != c.line) {
			t.Errorf("%s: %v, want %v on line %d", c.name, err, c.want, c.line)
		}
	}
	data := "a,b\n" + strings.Repeat("1,2\n", 2000) + "3,4,5\n"
	s, err := NewStream(strings.NewReader(data), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for {
		tab, err := s.Next(100)
		if err != nil {
			var e *Error
			if !errors.Is(err, ErrRagged) || !errors.As(err, &e) || e.Line != 2002 || rows != 2000 {
				t.Errorf("a ragged row after 2000: %v after %d rows, want ErrRagged on line 2002 after 2000", err, rows)
			}
			break
		}
		rows += tab.Rows()
	}
}

// endless is a reader of a header and then of rows forever; it counts
// the bytes it was asked for.
type endless struct {
	header, row string
	read        int
}

func (e *endless) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		s := e.row
		if e.read < len(e.header) {
			s = e.header[e.read:]
		} else {
			s = s[(e.read-len(e.header))%len(s):]
		}
		k := copy(b[n:], s)
		n, e.read = n+k, e.read+k
	}
	return n, nil
}

// TestStreamReadsAsItGoes checks that a Stream returns the first rows of
// an endless input, having read only the start of it: what it holds is
// bounded by the chunk and the rows read ahead to detect the dialect.
func TestStreamReadsAsItGoes(t *testing.T) {
	r := &endless{header: "a,b\n", row: "1.5,2\n"}
	s, err := NewStream(r, "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		tab, err := s.Next(100)
		if err != nil || tab.Rows() != 100 || tab.Field(99, 0) != "1.5" {
			t.Fatalf("%v, %v", tab, err)
		}
	}
	// The rows read ahead (1024 of 6 bytes) and the csv reader's buffers
	// (tens of kilobytes): far below a megabyte.
	if r.read > 1<<20 {
		t.Errorf("read %d bytes for 300 rows", r.read)
	}
}
