package table

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// table is what TestRead expects of a table: its header, the line of
// each row, its dialect and its columns.
type table struct {
	Header  []string
	Lines   []int
	Dialect Dialect
	Columns []gcp.TableColumn
}

// nums and text are the columns of numbers and of text (each distinct
// text once, in order of first appearance) of the fields given.
func nums(v ...float64) gcp.TableColumn { return gcp.TableColumn{Numbers: v} }

func text(fields ...string) gcp.TableColumn {
	var c gcp.TableColumn
	for _, f := range fields {
		k := slices.Index(c.Levels, f)
		if k < 0 {
			k, c.Levels = len(c.Levels), append(c.Levels, f)
		}
		c.Codes = append(c.Codes, uint32(k))
	}
	return c
}

// of returns what TestRead compares of t.
func of(t *Table) table {
	got := table{Header: t.Header, Dialect: t.Dialect, Columns: t.Columns}
	for i := range t.Rows() {
		got.Lines = append(got.Lines, t.Line(i))
	}
	return got
}

func TestRead(t *testing.T) {
	comma := Dialect{Sep: ',', Decimal: '.'}
	nan := math.NaN()
	tests := []struct {
		name, in string
		want     table
	}{{
		name: "plain",
		in:   "a,b,y\n1,2,3\n-4.5,6e-1,7\n",
		want: table{Header: []string{"a", "b", "y"}, Lines: []int{2, 3}, Dialect: comma,
			Columns: []gcp.TableColumn{nums(1, -4.5), nums(2, 0.6), nums(3, 7)}},
	}, {
		name: "CRLF, no final newline, spaces, quotes",
		in:   "a ,\"b\"\r\n 1,\"2\"\r\n3 ,4",
		want: table{Header: []string{"a", "b"}, Lines: []int{2, 3}, Dialect: comma,
			Columns: []gcp.TableColumn{nums(1, 3), nums(2, 4)}},
	}, {
		name: "byte-order mark and blank lines",
		in:   "\uFEFFx,y\n\n1,2\n\n3,4\n",
		want: table{Header: []string{"x", "y"}, Lines: []int{3, 5}, Dialect: comma,
			Columns: []gcp.TableColumn{nums(1, 3), nums(2, 4)}},
	}, {
		name: "numeric column names with one that is not",
		in:   "1,2,y\n1,2,3\n",
		want: table{Header: []string{"1", "2", "y"}, Lines: []int{2}, Dialect: comma,
			Columns: []gcp.TableColumn{nums(1), nums(2), nums(3)}},
	}, {
		name: "semicolons and decimal commas, a quoted field with a semicolon and a line break",
		in:   "city;size;price\r\nMadrid;1,5;200\r\n\"Rome; centre\nnorth\";NA;2,25e2\r\nOslo;;1\r\n",
		want: table{Header: []string{"city", "size", "price"}, Lines: []int{2, 3, 5}, Dialect: Dialect{Sep: ';', Decimal: ','},
			Columns: []gcp.TableColumn{text("Madrid", "Rome; centre\nnorth", "Oslo"), nums(1.5, nan, nan), nums(200, 225, 1)}},
	}, {
		name: "tabs, decimal points, text with commas",
		in:   "name\tx\ty\nSmith, J.\t0.5\t1\nLee, K.\t1.5\t2\nSmith, J.\t 3\t3\n",
		want: table{Header: []string{"name", "x", "y"}, Lines: []int{2, 3, 4}, Dialect: Dialect{Sep: '\t', Decimal: '.'},
			Columns: []gcp.TableColumn{text("Smith, J.", "Lee, K.", "Smith, J."), nums(0.5, 1.5, 3), nums(1, 2, 3)}},
	}, {
		name: "commas, quoted decimal commas",
		in:   "a,y\n\"1,5\",\"2,5\"\n3,\"0,25\"\n",
		want: table{Header: []string{"a", "y"}, Lines: []int{2, 3}, Dialect: Dialect{Sep: ',', Decimal: ','},
			Columns: []gcp.TableColumn{nums(1.5, 3), nums(2.5, 0.25)}},
	}, {
		name: "text with a few numbers is text",
		in:   "id,c,y\n007,red,1\nx1,8,2\nx2,blue,3\n",
		want: table{Header: []string{"id", "c", "y"}, Lines: []int{2, 3, 4}, Dialect: comma,
			Columns: []gcp.TableColumn{text("007", "x1", "x2"), text("red", "8", "blue"), nums(1, 2, 3)}},
	}, {
		name: "missing values by every spelling",
		in:   "a,b,y\nNULL,n/a,1\n#N/A,-,2\n?,nan,3\nNA, ,4\n5,6,7\n",
		want: table{Header: []string{"a", "b", "y"}, Lines: []int{2, 3, 4, 5, 6}, Dialect: comma,
			Columns: []gcp.TableColumn{nums(nan, nan, nan, nan, 5), nums(nan, nan, nan, nan, 6), nums(1, 2, 3, 4, 7)}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in), "f.csv", Dialect{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, of(got), cmpopts.EquateNaNs()); diff != "" || got.File != "f.csv" || got.HeaderLine != 1 {
				t.Errorf("Read mismatch (-want +got):\n%s", diff)
			}
			// The dialect given is the dialect detected.
			given, err := Read(strings.NewReader(tt.in), "f.csv", tt.want.Dialect)
			if err != nil || !cmp.Equal(of(given), of(got), cmpopts.EquateNaNs()) {
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
		if got, err := detectSep(&source{r: strings.NewReader(tc.in)}); got != tc.want || err != nil {
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
		{[]string{"2,296", "398,865", "1"}, '.'}, // regression: thousands read as decimal commas
		{[]string{"2,296", "398,865", "1,5"}, ','},
	} {
		var v decimalVotes
		for _, f := range tc.fields {
			if _, _, _, vote := classify(f); vote != 0 {
				v.add(vote, position{field: f})
			}
		}
		if got, err := v.mark(&Table{}); got != tc.want || err != nil {
			t.Errorf("the decimal mark of %q = %q, want %q", tc.fields, got, tc.want)
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
		// regression: issue 32's M2 (an empty target name trained; predict then failed)
		{"empty name", "x0,x1,\n1,2,3\n", ErrHeader, 1, 3,
			"f.csv: line 1, column 3: bad header: column 3 has no name"},
		// regression: issue 32's low items (CR line ends: "column repeats"; a second BOM in a name)
		{"CR line ends", "a,b,y\r1,2,3\r4,5,6\r", ErrHeader, 1, 3,
			`f.csv: line 1, column 3 (y` + "\r" + `1): bad header: a carriage return in column name "y\r1": do the lines end in CR alone (old Mac OS)? Save the file with LF or CRLF line ends`},
		{"a byte-order mark twice", "\uFEFF\uFEFFa,a\n1,2\n", ErrHeader, 1, 2,
			`f.csv: line 1, column 2 (a): bad header: column name "a" repeats column 1`},
		// regression: issue 32's M3 (an unclosed quote reported at the end of the file)
		{"unclosed quote", "a,y\n1,2\n3,\"4\n" + strings.Repeat("5,6\n", 500), ErrSyntax, 3, 0,
			"f.csv: line 3: CSV syntax error: a quote opened in the record that starts here is not closed by line 503 (extraneous or missing \" in quoted-field)"},
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

// TestSelect checks the rows Select picks, their lines and fields.
func TestSelect(t *testing.T) {
	tab, err := Read(strings.NewReader("c,x,y\na,1,2\n\nb,NA,4\nc,5,6\n"), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	s := tab.Select([]int{2, 0, 2})
	want := table{Header: tab.Header, Lines: []int{5, 2, 5}, Dialect: tab.Dialect,
		Columns: []gcp.TableColumn{{Codes: []uint32{2, 0, 2}, Levels: []string{"a", "b", "c"}}, nums(5, 1, 5), nums(6, 2, 6)}}
	if d := cmp.Diff(want, of(s)); d != "" || s.Rows() != 3 {
		t.Errorf("Select (-want +got):\n%s", d)
	}
	if f := tab.Row(1); !cmp.Equal(f, []string{"b", "", "4"}) {
		t.Errorf("Row(1) = %q, want b, the missing value's empty text, 4", f)
	}
}
