package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, in string
		want     *Table
	}{{
		name: "plain",
		in:   "a,b,y\n1,2,3\n-4.5,6e-1,7\n",
		want: &Table{File: "f.csv", Header: []string{"a", "b", "y"}, HeaderLine: 1,
			Values: []float64{1, 2, 3, -4.5, 0.6, 7}, Lines: []int{2, 3}},
	}, {
		name: "CRLF, no final newline, spaces, quotes",
		in:   "a ,\"b\"\r\n 1,\"2\"\r\n3 ,4",
		want: &Table{File: "f.csv", Header: []string{"a", "b"}, HeaderLine: 1,
			Values: []float64{1, 2, 3, 4}, Lines: []int{2, 3}},
	}, {
		name: "byte-order mark and blank lines",
		in:   "\uFEFFx,y\n\n1,2\n\n3,4\n",
		want: &Table{File: "f.csv", Header: []string{"x", "y"}, HeaderLine: 1,
			Values: []float64{1, 2, 3, 4}, Lines: []int{3, 5}},
	}, {
		name: "numeric column names with one that is not",
		in:   "1,2,y\n1,2,3\n",
		want: &Table{File: "f.csv", Header: []string{"1", "2", "y"}, HeaderLine: 1,
			Values: []float64{1, 2, 3}, Lines: []int{2}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in), "f.csv")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Read mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in string
		sentinel error
		line     int
		column   int    // 0: the error names no column
		msg      string // the whole message
	}{
		{"empty file", "", ErrEmpty, 1, 0,
			"f.csv: line 1: empty file: want a header line of column names"},
		{"blank lines only", "\n\n", ErrEmpty, 1, 0,
			"f.csv: line 1: empty file: want a header line of column names"},
		{"header only", "a,b,y\n", ErrNoRows, 1, 0,
			"f.csv: line 1: header but no data rows"},
		{"duplicate column", "a,b,a\n1,2,3\n", ErrHeader, 1, 3,
			`f.csv: line 1, column 3 (a): bad header: column name "a" repeats column 1`},
		{"no header", "1,2,3\n4,5,6\n", ErrHeader, 1, 0,
			"f.csv: line 1: bad header: every field is a number; the first line must name the columns"},
		{"short row", "a,b,y\n1,2,3\n4,5\n", ErrRagged, 3, 0,
			"f.csv: line 3: wrong number of fields: 2, the header has 3"},
		{"long row", "a,b,y\n1,2,3,4\n", ErrRagged, 2, 0,
			"f.csv: line 2: wrong number of fields: 4, the header has 3"},
		{"not a number", "a,b,y\n1,2,3\n4,five,6\n", ErrNotNumber, 3, 2,
			`f.csv: line 3, column 2 (b): not a number: "five"`},
		{"empty field", "a,b,y\n1,,3\n", ErrNotNumber, 2, 2,
			`f.csv: line 2, column 2 (b): not a number: ""`},
		{"NaN", "a,b,y\n1,2,NaN\n", ErrNonFinite, 2, 3,
			`f.csv: line 2, column 3 (y): value is NaN, infinite or out of range: "NaN"`},
		{"Inf", "a,b,y\n-inf,2,3\n", ErrNonFinite, 2, 1,
			`f.csv: line 2, column 1 (a): value is NaN, infinite or out of range: "-inf"`},
		{"overflow", "a,b,y\n1,2,1e400\n", ErrNonFinite, 2, 3,
			`f.csv: line 2, column 3 (y): value is NaN, infinite or out of range: "1e400"`},
		{"line counted after a blank line", "a,y\n1,2\n\n3,x\n", ErrNotNumber, 4, 2,
			`f.csv: line 4, column 2 (y): not a number: "x"`},
		{"bad quoting", "a,y\n1,\"2\"3\n", ErrSyntax, 2, 0,
			"f.csv: line 2: CSV syntax error: extraneous or missing \" in quoted-field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "f.csv")
			checkError(t, err, tt.sentinel, tt.line, tt.column, tt.msg)
		})
	}
}

// checkError asserts that err is an *Error wrapping sentinel at line and
// column, with the message msg.
func checkError(t *testing.T, err, sentinel error, line, column int, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *Error", err, err)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("error %v does not wrap %v", err, sentinel)
	}
	if e.File != "f.csv" || e.Line != line || e.Column != column {
		t.Errorf("error at %s line %d column %d, want f.csv line %d column %d", e.File, e.Line, e.Column, line, column)
	}
	if err.Error() != msg {
		t.Errorf("message\n\t%s\nwant\n\t%s", err, msg)
	}
}

func TestSplit(t *testing.T) {
	tab, err := Read(strings.NewReader("a,y,b\n1,2,3\n4,5,6\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target string
		x, y   []float64
	}{
		{"", []float64{1, 2, 4, 5}, []float64{3, 6}},
		{"b", []float64{1, 2, 4, 5}, []float64{3, 6}},
		{"y", []float64{1, 3, 4, 6}, []float64{2, 5}},
		{"a", []float64{2, 3, 5, 6}, []float64{1, 4}},
	}
	for _, tt := range tests {
		x, y, err := tab.Split(tt.target)
		if err != nil {
			t.Fatalf("Split(%q): %v", tt.target, err)
		}
		if diff := cmp.Diff(tt.x, x); diff != "" {
			t.Errorf("Split(%q) x mismatch (-want +got):\n%s", tt.target, diff)
		}
		if diff := cmp.Diff(tt.y, y); diff != "" {
			t.Errorf("Split(%q) y mismatch (-want +got):\n%s", tt.target, diff)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	tests := []struct {
		name, in, target string
		sentinel         error
		line, column     int
		msg              string
	}{
		{"missing target", "a,b,y\n1,2,3\n", "price", ErrNoColumn, 1, 0,
			`f.csv: line 1: no such column "price"; the columns are a, b, y`},
		{"target only", "y\n1\n", "", ErrNoFeatures, 1, 1,
			"f.csv: line 1, column 1 (y): no feature columns besides the target"},
		{"header after blank lines", "\n\na,y\n1,2\n", "z", ErrNoColumn, 3, 0,
			`f.csv: line 3: no such column "z"; the columns are a, y`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Read(strings.NewReader(tt.in), "f.csv")
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = tab.Split(tt.target)
			checkError(t, err, tt.sentinel, tt.line, tt.column, tt.msg)
		})
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(path, []byte("x,y\n1,2\n3,oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	want := path + `: line 3, column 2 (y): not a number: "oops"`
	if err == nil || err.Error() != want {
		t.Errorf("ReadFile error %v, want %s", err, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want os.ErrNotExist", err)
	}
}
