package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	comma := Dialect{Sep: ',', Decimal: '.'}
	tests := []struct {
		name, in string
		want     *Table
	}{{
		name: "plain",
		in:   "a,b,y\n1,2,3\n-4.5,6e-1,7\n",
		want: &Table{File: "f.csv", Header: []string{"a", "b", "y"}, HeaderLine: 1,
			Fields: []string{"1", "2", "3", "-4.5", "6e-1", "7"}, Lines: []int{2, 3}, Dialect: comma},
	}, {
		name: "CRLF, no final newline, spaces, quotes",
		in:   "a ,\"b\"\r\n 1,\"2\"\r\n3 ,4",
		want: &Table{File: "f.csv", Header: []string{"a", "b"}, HeaderLine: 1,
			Fields: []string{" 1", "2", "3 ", "4"}, Lines: []int{2, 3}, Dialect: comma},
	}, {
		name: "byte-order mark and blank lines",
		in:   "\uFEFFx,y\n\n1,2\n\n3,4\n",
		want: &Table{File: "f.csv", Header: []string{"x", "y"}, HeaderLine: 1,
			Fields: []string{"1", "2", "3", "4"}, Lines: []int{3, 5}, Dialect: comma},
	}, {
		name: "numeric column names with one that is not",
		in:   "1,2,y\n1,2,3\n",
		want: &Table{File: "f.csv", Header: []string{"1", "2", "y"}, HeaderLine: 1,
			Fields: []string{"1", "2", "3"}, Lines: []int{2}, Dialect: comma},
	}, {
		name: "semicolons and decimal commas, a quoted field with a semicolon and a line break",
		in:   "city;size;price\r\nMadrid;1,5;200\r\n\"Rome; centre\nnorth\";NA;2,25e2\r\n",
		want: &Table{File: "f.csv", Header: []string{"city", "size", "price"}, HeaderLine: 1,
			Fields: []string{"Madrid", "1,5", "200", "Rome; centre\nnorth", "NA", "2,25e2"}, Lines: []int{2, 3}, Dialect: Dialect{Sep: ';', Decimal: ','}},
	}, {
		name: "tabs, decimal points, text with commas",
		in:   "name\tx\ty\nSmith, J.\t0.5\t1\nLee, K.\t1.5\t2\n",
		want: &Table{File: "f.csv", Header: []string{"name", "x", "y"}, HeaderLine: 1,
			Fields: []string{"Smith, J.", "0.5", "1", "Lee, K.", "1.5", "2"}, Lines: []int{2, 3}, Dialect: Dialect{Sep: '\t', Decimal: '.'}},
	}, {
		name: "commas, quoted decimal commas",
		in:   "a,y\n\"1,5\",\"2,5\"\n3,\"0,25\"\n",
		want: &Table{File: "f.csv", Header: []string{"a", "y"}, HeaderLine: 1,
			Fields: []string{"1,5", "2,5", "3", "0,25"}, Lines: []int{2, 3}, Dialect: Dialect{Sep: ',', Decimal: ','}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in), "f.csv", Dialect{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Read mismatch (-want +got):\n%s", diff)
			}
			// The dialect given is the dialect detected.
			given, err := Read(strings.NewReader(tt.in), "f.csv", tt.want.Dialect)
			if err != nil || !cmp.Equal(given, got) {
				t.Errorf("Read with the dialect given: %v, %+v", err, given)
			}
		})
	}
}

// TestDetectSep checks the separator's detection on headers and rows
// that another separator would split too.
func TestDetectSep(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rune
	}{
		{"a;b\n1,5;2,5\n", ';'},          // commas split the rows only
		{"a,b;c\n1,2;3\n", ','},          // both split all: the comma on a tie
		{"a;b;c\n1;2;3\n4,5;6;7\n", ';'}, // more fields
		{"a\tb\n1,5\t2\n", '\t'},         // tabs
		{"a;b;c\n1;2\n", ';'},            // ragged: the widest header
		{"only\n1\n", ','},               // one column
		{"a,\"b;c\"\n1,2\n", ','},        // a quoted semicolon
		{"a;b\n" + strings.Repeat("1;2\n", 25) + "1,5;2,5;3\n", ';'}, // beyond the sample
	} {
		if got := detectSep([]byte(tc.in)); got != tc.want {
			t.Errorf("detectSep(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDetectDecimal(t *testing.T) {
	for _, tc := range []struct {
		fields []string
		want   byte
	}{
		{[]string{"1", "2", "NA"}, '.'},
		{[]string{"1,5", "2"}, ','},
		{[]string{"1.5", "2"}, '.'},
		{[]string{"1,5", "2,5", "3.5"}, ','},
		{[]string{"1,5", "3.5", "4.5"}, '.'},
		{[]string{"Smith, J.", "Lee, K.", "1.5"}, '.'},
		{[]string{"1,2,3", "v1.2"}, '.'},
	} {
		if got := detectDecimal(tc.fields); got != tc.want {
			t.Errorf("detectDecimal(%q) = %q, want %q", tc.fields, got, tc.want)
		}
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
		{"bad quoting", "a,y\n1,\"2\"3\n", ErrSyntax, 2, 0,
			"f.csv: line 2: CSV syntax error: extraneous or missing \" in quoted-field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "f.csv", Dialect{})
			checkError(t, err, tt.sentinel, tt.line, tt.column, tt.msg)
		})
	}
	for _, d := range []Dialect{{Sep: '|'}, {Decimal: ';'}} {
		if _, err := Read(strings.NewReader("a,b\n1,2\n"), "f.csv", d); !errors.Is(err, ErrDialect) {
			t.Errorf("dialect %+v: %v, want ErrDialect", d, err)
		}
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
	tab, err := Read(strings.NewReader("a,y,b\n1,2,3\n4,5,6\n"), "f.csv", Dialect{})
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
	semi, err := Read(strings.NewReader("a;y\n1,5;-2\n"), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	if x, y, err := semi.Split(""); err != nil || x[0] != 1.5 || y[0] != -2 {
		t.Errorf("decimal commas: %v, %v, %v", x, y, err)
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
		{"not a number", "a,b,y\n1,2,3\n4,five,6\n", "", gcp.ErrNotNumber, 3, 2,
			`f.csv: line 3, column 2 (b): not a number: "five"`},
		{"empty field", "a,b,y\n1,,3\n", "", ErrMissing, 2, 2,
			`f.csv: line 2, column 2 (b): missing value`},
		{"NaN", "a,b,y\n1,2,NaN\n", "", ErrMissing, 2, 3,
			`f.csv: line 2, column 3 (y): missing value`},
		{"Inf", "a,b,y\n-inf,2,3\n", "", gcp.ErrNonFinite, 2, 1,
			`f.csv: line 2, column 1 (a): value is NaN, Inf or overflows: "-inf"`},
		{"overflow", "a,b,y\n1,2,1e400\n", "", gcp.ErrNonFinite, 2, 3,
			`f.csv: line 2, column 3 (y): value is NaN, Inf or overflows: "1e400"`},
		{"line counted after a blank line", "a,y\n1,2\n\n3,x\n", "", gcp.ErrNotNumber, 4, 2,
			`f.csv: line 4, column 2 (y): not a number: "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Read(strings.NewReader(tt.in), "f.csv", Dialect{})
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
	tab, err := ReadFile(path, Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tab.Split("")
	want := path + `: line 3, column 2 (y): not a number: "oops"`
	if err == nil || err.Error() != want {
		t.Errorf("Split error %v, want %s", err, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.csv"), Dialect{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want os.ErrNotExist", err)
	}
}
