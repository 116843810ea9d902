package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// columnsOf returns the rows of text as a reader of a file holds them by
// column: a column whose every field ParseNumber reads (a number or
// missing) as Numbers, NaN where missing; any other as text, each
// distinct field once among its Levels.
func columnsOf(rows [][]string, ncol int, decimal byte) []TableColumn {
	cols := make([]TableColumn, ncol)
	for j := range cols {
		numbers := make([]float64, len(rows))
		for i, row := range rows {
			v, missing, err := ParseNumber(row[j], decimal)
			if missing {
				v = math.NaN()
			}
			if err != nil {
				numbers = nil
				break
			}
			numbers[i] = v
		}
		if numbers != nil {
			cols[j].Numbers = numbers
			continue
		}
		code := map[string]uint32{}
		for _, row := range rows {
			c, ok := code[row[j]]
			if !ok {
				c = uint32(len(cols[j].Levels))
				code[row[j]] = c
				cols[j].Levels = append(cols[j].Levels, row[j])
			}
			cols[j].Codes = append(cols[j].Codes, c)
		}
	}
	return cols
}

// randomTable draws n rows of a table of every kind of column
// LearnEncoding tells apart, with the decimal mark decimal: numbers with
// and without missing values, a text column of few levels with spaces and
// missing values, a column of numbers with text in rare rows only (so
// that a subset of the rows may hold none), and the target, missing in
// some rows.
func randomTable(r *rand.Rand, n int, decimal byte) (header []string, rows [][]string) {
	num := func(v float64) string {
		s := fmt.Sprint(v)
		if decimal == ',' {
			s = strings.Replace(s, ".", ",", 1)
		}
		return s
	}
	header = []string{"a", "b", "city", "rare", "y"}
	for range n {
		b := num(math.Round(100*r.NormFloat64()) / 8)
		if r.IntN(5) == 0 {
			b = []string{"", "NA", " nan ", "?"}[r.IntN(4)]
		}
		city := []string{"Madrid", " Paris", "Rome ", "NA", "", "Lyon", "Oslo"}[r.IntN(7)]
		rare := num(float64(r.IntN(50)))
		if r.IntN(40) == 0 {
			rare = "none"
		}
		y := num(r.NormFloat64())
		if r.IntN(10) == 0 {
			y = "NA"
		}
		rows = append(rows, []string{num(r.NormFloat64() * 1e3), b, city, rare, y})
	}
	return header, rows
}

// TestLearnEncodingColumnsMatchesText checks that a table held by column
// learns the encoding that its rows as text learn, and encodes them to
// the same inputs, bit for bit, on every row and on subsets of them (in
// another order, with repeats), with either decimal mark.
func TestLearnEncodingColumnsMatchesText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		decimal := []byte{'.', ','}[trial%2]
		header, rows := randomTable(r, 20+r.IntN(200), decimal)
		cols := columnsOf(rows, len(header), decimal)
		var subset []int // nil: every row
		if trial >= 4 {
			for range r.IntN(len(rows)) + 1 {
				subset = append(subset, r.IntN(len(rows)))
			}
		}
		text := rows
		if subset != nil {
			text = nil
			for _, i := range subset {
				text = append(text, rows[i])
			}
		}
		target := header[[]int{4, 0}[trial%3/2]]
		want, wantRows, wantErr := LearnEncoding(header, text, target, decimal)
		got, gotRows, err := LearnEncodingColumns(header, cols, subset, target, decimal)
		if wantErr != nil || err != nil {
			t.Fatalf("trial %d: text %v, columns %v", trial, wantErr, err)
		}
		if subset != nil {
			for r, i := range wantRows.Rows {
				wantRows.Rows[r] = subset[i] // the text's rows are the subset's
			}
		}
		if !cmp.Equal(want, got, cmp.AllowUnexported(Encoding{})) || !cmp.Equal(wantRows, gotRows, persistBitwise) {
			t.Fatalf("trial %d: columns learn\n%+v\n%+v\nwant\n%+v\n%+v", trial, got, gotRows, want, wantRows)
		}
	}
}

// TestLearnEncodingColumnsKinds checks that a text column whose training
// rows are all numbers is numeric, as LearnEncoding finds from those rows
// alone, and that a column of Numbers is numeric.
func TestLearnEncodingColumnsKinds(t *testing.T) {
	cols := []TableColumn{
		{Codes: []uint32{0, 1, 2, 3}, Levels: []string{"1", "x", " 2,5", "NA"}},
		{Numbers: []float64{4, math.NaN(), 1, 2}},
		{Numbers: []float64{1, 2, 3, 4}},
	}
	e, rows, err := LearnEncodingColumns([]string{"t", "n", "y"}, cols, []int{3, 2, 0}, "y", ',')
	if err != nil {
		t.Fatal(err)
	}
	// Rows 3, 2, 0: t holds NA, 2.5, 1 (median 1.75), n 2, 1, 4.
	want := []Column{{Name: "t", Missing: true, Impute: 1.75}, {Name: "n"}}
	if d := cmp.Diff(want, e.Columns()); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
	if d := cmp.Diff(&EncodedRows{X: []float64{1.75, 1, 2, 2.5, 0, 1, 1, 0, 4}, Y: []float64{4, 3, 1}, Rows: []int{3, 2, 0}}, rows); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
}

func TestLearnEncodingColumnsErrors(t *testing.T) {
	header := []string{"a", "y"}
	two := TableColumn{Numbers: []float64{1, 2}}
	for _, tc := range []struct {
		name     string
		cols     []TableColumn
		rows     []int
		want     error
		row, col int // of a *FieldError; −1: none
	}{
		{"one column", []TableColumn{two}, nil, ErrShape, -1, 0},
		{"unequal lengths", []TableColumn{two, {Numbers: []float64{1}}}, nil, ErrShape, -1, 0},
		{"code beyond the levels", []TableColumn{{Codes: []uint32{0, 2}, Levels: []string{"a", "b"}}, two}, nil, ErrShape, -1, 0},
		{"row beyond the columns", []TableColumn{two, two}, []int{0, 2}, ErrShape, -1, 0},
		{"negative row", []TableColumn{two, two}, []int{-1}, ErrShape, -1, 0},
		{"infinite number", []TableColumn{{Numbers: []float64{1, math.Inf(-1)}}, two}, []int{1, 0}, ErrNonFinite, 1, 0},
		{"infinite target", []TableColumn{two, {Numbers: []float64{math.Inf(1), 1}}}, nil, ErrNonFinite, 0, 1},
		{"text target", []TableColumn{two, {Codes: []uint32{0, 1}, Levels: []string{"1", "x"}}}, nil, ErrNotNumber, 1, 1},
		{"no target", []TableColumn{two, {Numbers: []float64{math.NaN(), 1}}}, []int{0}, ErrBatch, -1, 0},
	} {
		_, _, err := LearnEncodingColumns(header, tc.cols, tc.rows, "y", '.')
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			continue
		}
		var fe *FieldError
		if errors.As(err, &fe) != (tc.row >= 0) || fe != nil && (fe.Row != tc.row || fe.Index != tc.col) {
			t.Errorf("%s: %#v, want a *FieldError at row %d, column %d exactly when the row is not −1", tc.name, fe, tc.row, tc.col)
		}
	}
}

// TestTableColumnField checks that a number's text reads back as the
// same number with either decimal mark, and that NaN is a missing value.
func TestTableColumnField(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c := TableColumn{Numbers: []float64{math.NaN(), 0, math.Copysign(0, -1), math.MaxFloat64, 5e-324, 1e21, 0.1}}
	for range 1000 {
		c.Numbers = append(c.Numbers, math.Float64frombits(r.Uint64()&^(0x7ff<<52)|uint64(r.IntN(0x7ff))<<52))
	}
	for _, decimal := range []byte{'.', ','} {
		for i, v := range c.Numbers {
			s := c.Field(i, decimal)
			got, missing, err := ParseNumber(s, decimal)
			if err != nil || missing != math.IsNaN(v) || !missing && math.Float64bits(got) != math.Float64bits(v) {
				t.Fatalf("%v as %q with %q: %v, %v, %v", v, s, decimal, got, missing, err)
			}
			if n, nMissing, err := c.Number(i, decimal); err != nil || nMissing != missing || n != got {
				t.Fatalf("Number(%v) = %v, %v, %v", v, n, nMissing, err)
			}
		}
	}
	text := TableColumn{Codes: []uint32{1, 0}, Levels: []string{" 1,5", "x"}}
	if text.Field(1, ',') != " 1,5" || text.Rows() != 2 {
		t.Errorf("a text column's field %q, %d rows", text.Field(1, ','), text.Rows())
	}
	if v, _, err := text.Number(1, ','); v != 1.5 || err != nil {
		t.Errorf("Number of \" 1,5\": %v, %v", v, err)
	}
	if _, _, err := text.Number(0, ','); !errors.Is(err, ErrNotNumber) {
		t.Errorf("Number of x: %v", err)
	}
}

// TestEncodeRow checks that a row of a table held by column encodes as
// its fields as text do, bit for bit, with the same notes and errors:
// numbers, missing values, unseen levels, text in a numeric column, and
// a categorical column given as numbers, whose level is the numbers'
// text.
func TestEncodeRow(t *testing.T) {
	m, _ := encodedModel(t)
	rows := [][]string{
		{"Paris", "33", "2"}, {"Lyon", "NA", "?"}, {"", " 1e3 ", "5"}, {"Madrid", "x", "1"},
		{"Paris", "3", "-Inf"}, {" Madrid ", "", "1,5"},
	}
	for _, decimal := range []byte{'.', ','} {
		cols := columnsOf(rows, 3, decimal)
		for i, row := range rows {
			want, got := make([]float64, 7), make([]float64, 7)
			wantNotes, wantErr := m.EncodeFields(want, row, decimal)
			notes, err := m.EncodeRow(got, cols, i, decimal)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || notes != wantNotes || wantErr == nil && !cmp.Equal(got, want, persistBitwise) {
				t.Errorf("row %q with %q: %v, %+v, %v; want %v, %+v, %v", row, decimal, got, notes, err, want, wantNotes, wantErr)
			}
		}
	}
	// The city as numbers: the level is the number's text.
	cols := []TableColumn{{Numbers: []float64{1.5}}, {Numbers: []float64{30}}, {Numbers: []float64{2}}}
	x := make([]float64, 7)
	notes, err := m.EncodeRow(x, cols, 0, ',')
	wantX := make([]float64, 7)
	wantNotes, _ := m.EncodeFields(wantX, []string{"1,5", "30", "2"}, ',')
	if err != nil || notes != wantNotes || notes.Unseen != 1 || !cmp.Equal(x, wantX) {
		t.Errorf("a city of numbers: %v, %+v, %v", x, notes, err)
	}
	// Levels that are numbers' text: "1,5" is a level, the number 1.5
	// with a decimal comma.
	lm := mustModel[float64](t, Config{Inputs: 2})
	if err := lm.SetEncoding(newEncoding("y", []Column{{Name: "c", Kind: Categorical, Levels: []string{"1,5", "2"}}})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		decimal byte
		want    []float64
		unseen  int
	}{{',', []float64{1, 0}, 0}, {'.', []float64{0, 0}, 1}} {
		notes, err := lm.EncodeRow(x[:2], cols[:1], 0, tc.decimal)
		if err != nil || notes.Unseen != tc.unseen || !cmp.Equal(x[:2], tc.want) {
			t.Errorf("the number 1.5 as a level with %q: %v, %+v, %v; want %v", tc.decimal, x[:2], notes, err, tc.want)
		}
	}
	for name, tc := range map[string]struct {
		cols []TableColumn
		row  int
	}{
		"two columns":        {cols[:2], 0},
		"row beyond":         {cols, 1},
		"negative row":       {cols, -1},
		"code beyond levels": {[]TableColumn{{Codes: []uint32{1}, Levels: []string{"a"}}, cols[1], cols[2]}, 0},
	} {
		if _, err := m.EncodeRow(x, tc.cols, tc.row, '.'); !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v, want ErrShape", name, err)
		}
	}
	var nilModel *Model[float32]
	if _, err := nilModel.EncodeRow(nil, nil, 0, '.'); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
}
