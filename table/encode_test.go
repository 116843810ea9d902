package table

import (
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/google/go-cmp/cmp"
)

// TestLearnEncodingEuropeanFile reads a file as a spreadsheet in much of
// Europe exports it (a byte-order mark, semicolons, decimal commas, CRLF,
// NULL and an empty field for missing values) and checks the encoded rows
// against values worked by hand: the row whose target is missing is left
// out, and the missing b takes the median of the training rows' b with
// its indicator set.
func TestLearnEncodingEuropeanFile(t *testing.T) {
	in := "\uFEFFa;b;y\r\n1,5;NULL;2,25\r\n2,5;4;3\r\n3,5;6;-1,5\r\n4,5;8;\r\n5,5;10;7\r\n"
	tab, err := Read(strings.NewReader(in), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dialect != (Dialect{Sep: ';', Decimal: ','}) {
		t.Errorf("dialect %v, want separator ';', decimal mark ','", tab.Dialect)
	}
	enc, rows, err := tab.LearnEncoding("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "b=(missing)"}; !cmp.Equal(enc.InputNames(), want) {
		t.Fatalf("inputs %q, want %q", enc.InputNames(), want)
	}
	// b's median over the rows with a target: 4, 6 and 10 give 6.
	wantX := []float64{1.5, 6, 1, 2.5, 4, 0, 3.5, 6, 0, 5.5, 10, 0}
	if !cmp.Equal(rows.X, wantX) || !cmp.Equal(rows.Y, []float64{2.25, 3, -1.5, 7}) || rows.Dropped != 1 || !cmp.Equal(rows.Rows, []int{0, 1, 2, 4}) {
		t.Errorf("encoded X %v, Y %v, rows %v, %d dropped; want X %v, Y [2.25 3 -1.5 7], rows [0 1 2 4], 1 dropped", rows.X, rows.Y, rows.Rows, rows.Dropped, wantX)
	}
	// Only the rows given are learned from: b's median over 10 and 6 is 8.
	_, rows, err = tab.LearnEncoding("y", []int{4, 0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if wantX := []float64{5.5, 10, 0, 1.5, 8, 1, 3.5, 6, 0}; !cmp.Equal(rows.X, wantX) || !cmp.Equal(rows.Rows, []int{4, 0, 2}) || rows.Dropped != 1 {
		t.Errorf("rows 4, 0, 2, 3: X %v, rows %v, %d dropped; want X %v, rows [4 0 2], 1 dropped", rows.X, rows.Rows, rows.Dropped, wantX)
	}
}

// TestLearnEncodingDates checks that a column of ISO dates reaches the
// encoding as a date column, days since 1970-01-01 and four inputs of its
// weekday and month (six rows: more than its five inputs).
func TestLearnEncodingDates(t *testing.T) {
	tab, err := Read(strings.NewReader("sold,y\n1970-01-02,1\n2024-03-17,2\n2000-01-01,3\n2000-01-02,4\n2000-01-03,5\n2000-01-04,6\n"), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	enc, rows, err := tab.LearnEncoding("y", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := enc.Columns()[0]; c.Kind != gcp.Date || enc.Inputs() != 5 {
		t.Errorf("sold: %v with %d inputs, want a date with 5", c.Kind, enc.Inputs())
	}
	// 2024-03-17 is 19,799 days after 1970-01-01 (54 years, 13 of them
	// leap, to 2024-01-01: 19,723 days; then 31 + 29 + 16).
	if rows.X[0] != 1 || rows.X[5] != 19799 {
		t.Errorf("days %v and %v, want 1 and 19799", rows.X[0], rows.X[5])
	}
}

// TestLearnEncodingErrors checks that each way LearnEncoding fails is an
// *Error at the right line and column that errors.Is matches with its
// sentinel.
func TestLearnEncodingErrors(t *testing.T) {
	tests := []struct {
		name, in, target string
		sentinel         error
		line, column     int
		msg              string // the whole message
	}{
		{"no such target", "a,y\n1,2\n", "z", ErrNoColumn, 1, 0,
			`f.csv: line 1: no such column "z"; the columns are a, y`},
		{"no feature", "y\n1\n", "", ErrNoFeatures, 1, 1,
			"f.csv: line 1, column 1 (y): no feature columns besides the target"},
		{"a target that is text", "a,y\n1,2\n2,x\n", "y", gcp.ErrNotNumber, 3, 2,
			`f.csv: line 3, column 2 (y): not a number: "x"`},
		{"every target missing", "a,y\n1,NA\n2,?\n", "", ErrMissing, 1, 2,
			"f.csv: line 1, column 2 (y): missing value in the target of every one of the 2 rows"},
		{"a name a model cannot take", "a\xff,y\n1,2\n", "", gcp.ErrConfig, 1, 0,
			`f.csv: line 1: the header: invalid configuration: name "a\xff"…: want valid UTF-8 of at most 1024 bytes`},
		{"more inputs than rows", "a,b,c,y\n1,2,3,4\n5,6,7,8\n", "", ErrTooWide, 1, 0,
			"f.csv: line 1: more inputs than rows to train on: the 3 feature columns become 3 inputs, and 2 rows have a target: train on more rows or fewer columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Read(strings.NewReader(tt.in), "f.csv", Dialect{})
			if err != nil {
				t.Fatal(err)
			}
			enc, rows, err := tab.LearnEncoding(tt.target, nil)
			if enc != nil || rows != nil {
				t.Errorf("an encoding with the error %v", err)
			}
			checkError(t, err, tt.sentinel, tt.line, tt.column, tt.msg)
		})
	}
}
