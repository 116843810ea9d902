package gcp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// encodingTable is a small table with a text column (Madrid 6 rows,
// Paris 5, Rome 2: pooled, below minLevelRows; one empty), a numeric
// column with missing values (NA, nan), a clean numeric column, and a
// target missing in one row.
func encodingTable() (header []string, rows [][]string) {
	header = []string{"city", "age", "size", "y"}
	text := `Madrid,30,1,10
Paris,NA,2,11
Madrid,40,3,12
Rome,35,4,NA
Paris,50,5,14
Madrid, 20 ,6,15
 Paris ,nan,7,16
Rome,60,8,17
,25,9,18
Madrid,45,10,19
Paris,55,11,20
Madrid,65,12,21
Madrid,70,13,22
Paris,75,14,23
Rome,80,15,24`
	for _, line := range strings.Split(text, "\n") {
		rows = append(rows, strings.Split(line, ","))
	}
	return header, rows
}

func TestLearnEncoding(t *testing.T) {
	header, rows := encodingTable()
	e, got, err := LearnEncoding(header, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	// Rome's row 3 has no target: Rome keeps 2 rows, pooled; the ages of
	// the 12 other rows with one, sorted: 20 25 30 35… the kept ones are
	// 30 40 50 20 60 25 45 55 65 70 75 80 → median (50 + 55)/2.
	want := []Column{
		{Name: "city", Kind: Categorical, Levels: []string{"Madrid", "Paris"}, Other: true, Missing: true},
		{Name: "age", Kind: Numeric, Missing: true, Impute: 52.5},
		{Name: "size", Kind: Numeric},
	}
	if d := cmp.Diff(want, e.Columns()); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
	if e.Target() != "y" || e.Inputs() != 7 || e.plain() {
		t.Errorf("target %q, %d inputs, plain %v; want y, 7, false", e.Target(), e.Inputs(), e.plain())
	}
	wantNames := []string{"city=Madrid", "city=Paris", "city=(other)", "city=(missing)", "age", "age=(missing)", "size"}
	if d := cmp.Diff(wantNames, e.InputNames()); d != "" {
		t.Errorf("input names (-want +got):\n%s", d)
	}
	for i, c := range []int{0, 0, 0, 0, 1, 1, 2} {
		if got := e.inputColumn(i); got != c {
			t.Errorf("inputColumn(%d) = %d, want %d", i, got, c)
		}
	}
	if got.Dropped != 1 || len(got.Rows) != 14 || got.Rows[3] != 4 || len(got.Y) != 14 || got.Y[3] != 14 {
		t.Errorf("rows %v, %d dropped, targets %v", got.Rows, got.Dropped, got.Y)
	}
	// Rows 0 (Madrid, 30), 1 (Paris, NA), 6 ( Paris , nan) and 7 (Rome:
	// other) and 8 (missing city), by their index among the kept rows.
	for k, x := range map[int][]float64{
		0: {1, 0, 0, 0, 30, 0, 1},
		1: {0, 1, 0, 0, 52.5, 1, 2},
		5: {0, 1, 0, 0, 52.5, 1, 7},
		6: {0, 0, 1, 0, 60, 0, 8},
		7: {0, 0, 0, 1, 25, 0, 9},
	} {
		if d := cmp.Diff(x, got.X[k*7:(k+1)*7]); d != "" {
			t.Errorf("encoded row %d (-want +got):\n%s", k, d)
		}
	}
	// The copy Columns returns is the caller's.
	e.Columns()[0].Levels[0] = "changed"
	if e.Columns()[0].Levels[0] != "Madrid" {
		t.Error("Columns shares its levels with the encoding")
	}
}

func TestLearnEncodingDecimalComma(t *testing.T) {
	header := []string{"a", "y"}
	rows := [][]string{{"1,5", "2,25"}, {"-3", "1e2"}, {"", "0,5"}}
	e, got, err := LearnEncoding(header, rows, "y", ',')
	if err != nil {
		t.Fatal(err)
	}
	if c := e.Columns()[0]; c.Kind != Numeric || !c.Missing || c.Impute != -0.75 {
		t.Errorf("column %+v, want numeric with missing values imputed by the median −0.75", c)
	}
	if d := cmp.Diff([]float64{1.5, 0, -3, 0, -0.75, 1}, got.X); d != "" || !slicesEqual(got.Y, []float64{2.25, 100, 0.5}) {
		t.Errorf("x (-want +got):\n%s\ny %v", d, got.Y)
	}
	// With a decimal point the same fields are text.
	if e, _, err := LearnEncoding(header[:1:1], nil, "a", '.'); err == nil {
		t.Errorf("a table of one column: %v, want an error", e)
	}
	if _, _, err := LearnEncoding(header, rows, "y", '.'); !errors.Is(err, ErrNotNumber) {
		t.Errorf("decimal commas read with a decimal point: %v, want ErrNotNumber for the target", err)
	}
}

func slicesEqual(a, b []float64) bool { return cmp.Equal(a, b) }

// TestLearnLevels checks the pooling of levels: at most maxLevels, the
// most frequent (ties by name), and none longer than maxNameLen.
func TestLearnLevels(t *testing.T) {
	var rows [][]string
	add := func(level string, n int) {
		for range n {
			rows = append(rows, []string{level, "1"})
		}
	}
	for i := range 70 {
		add(fmt.Sprintf("L%02d", i), minLevelRows+i%2) // odd ones more frequent
	}
	add(strings.Repeat("x", maxNameLen+1), 50)
	add(strings.Repeat("z", maxNameLen), 6)
	e, _, err := LearnEncoding([]string{"c", "y"}, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	c := e.Columns()[0]
	// The 35 odd levels and z… (6 rows each) come first, then 28 of the
	// even ones (5 rows) by name, L00, L02, …, L54; then sorted by name.
	if len(c.Levels) != maxLevels || !c.Other || c.Levels[0] != "L00" || c.Levels[54] != "L54" || c.Levels[55] != "L55" ||
		c.Levels[56] != "L57" || c.Levels[62] != "L69" || c.Levels[63] != strings.Repeat("z", maxNameLen) {
		t.Errorf("%d levels %v…, other %v", len(c.Levels), c.Levels[:3], c.Other)
	}
	for _, l := range c.Levels {
		if l == "L56" || len(l) > maxNameLen {
			t.Errorf("level %.8q kept", l)
		}
	}
}

func TestLearnEncodingColumns(t *testing.T) {
	// An all-missing column is numeric, its indicator always 1; a column
	// with an infinity among text is categorical, the infinity a level.
	rows := [][]string{{"NA", "inf", "1"}, {"?", "b", "2"}}
	e, got, err := LearnEncoding([]string{"gone", "c", "y"}, rows, "y", '.')
	if err != nil {
		t.Fatal(err)
	}
	want := []Column{{Name: "gone", Missing: true}, {Name: "c", Kind: Categorical, Other: true}}
	if d := cmp.Diff(want, e.Columns()); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]float64{0, 1, 1, 0, 1, 1}, got.X); d != "" {
		t.Errorf("x (-want +got):\n%s", d)
	}
}

func TestLearnEncodingErrors(t *testing.T) {
	header := []string{"a", "b", "y"}
	for _, tc := range []struct {
		name     string
		header   []string
		rows     [][]string
		target   string
		want     error
		row, col int // of a *FieldError
	}{
		{"no such target", header, [][]string{{"1", "2", "3"}}, "z", ErrConfig, -1, 0},
		{"empty name", []string{"", "b", "y"}, [][]string{{"1", "2", "3"}}, "y", ErrConfig, -1, 0},
		{"repeated name", []string{"b", "b", "y"}, [][]string{{"1", "2", "3"}}, "y", ErrConfig, -1, 0},
		{"ragged row", header, [][]string{{"1", "2", "3"}, {"1", "2"}}, "y", ErrShape, -1, 0},
		{"no target", header, [][]string{{"1", "2", "NA"}}, "y", ErrBatch, -1, 0},
		{"text target", header, [][]string{{"1", "2", "3"}, {"1", "2", "many"}}, "y", ErrNotNumber, 1, 2},
		{"infinite target", header, [][]string{{"1", "2", "-Inf"}}, "y", ErrNonFinite, 0, 2},
		{"infinite feature", header, [][]string{{"1", "2", "3"}, {"1", "1e999", "3"}}, "y", ErrNonFinite, 1, 1},
		{"target first", header, [][]string{{"x", "1", "3"}}, "a", ErrNotNumber, 0, 0},
		// regression: issue 32's low item (c=red named two inputs)
		{"two inputs of one name", []string{"c=red", "c", "y"}, [][]string{{"1", "red", "3"}, {"1", "red", "3"}, {"1", "red", "3"}, {"1", "red", "3"}, {"1", "red", "3"}}, "y", ErrConfig, -1, 0},
	} {
		_, _, err := LearnEncoding(tc.header, tc.rows, tc.target, '.')
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			continue
		}
		var fe *FieldError
		if errors.As(err, &fe) != (tc.row >= 0) || fe != nil && (fe.Row != tc.row || fe.Index != tc.col || fe.Column != tc.header[tc.col]) {
			t.Errorf("%s: %#v, want a *FieldError at row %d, column %d exactly when the row is not −1", tc.name, fe, tc.row, tc.col)
		}
	}
	// A feature column that is text after a column of numbers: the
	// column's index in the header.
	_, _, err := LearnEncoding([]string{"y", "n", "t"}, [][]string{{"1", "1e400", "a"}}, "y", '.')
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Index != 1 || fe.Column != "n" || !strings.Contains(err.Error(), `column n: gcp: value is NaN, Inf or overflows: "1e400"`) {
		t.Errorf("error %v", err)
	}
}
