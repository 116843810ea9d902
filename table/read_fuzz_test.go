package table

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/isodate"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// readErrors are the sentinel errors Read may return for data in memory.
var readErrors = []error{ErrEmpty, ErrNoRows, ErrHeader, ErrRagged, ErrSyntax, ErrDialect, ErrMixed, ErrDateFormat, ErrTooLarge}

// learnErrors are those LearnEncodingColumns may return for a table that
// Read returned.
var learnErrors = []error{gcp.ErrConfig, gcp.ErrBatch, gcp.ErrNotNumber, gcp.ErrNonFinite}

// FuzzRead reads any bytes as a CSV file, from memory and through a
// pipe, and learns an encoding of the table with its last column as the
// target, as gcp train does. Neither may panic; every error must be one
// of the sentinels, Read's an *Error naming a line; the two readings must
// agree; a table must be whole (as many names, distinct and not empty,
// as columns, each of every row, every number of a column of numbers
// finite or missing); an encoding's rows must be finite, one input per
// name, the names distinct; and the memory allocated must be bounded by
// a multiple of the input's size, not by what it claims.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"a,b,y\n1,2,3\n-4.5,6e-1,7\n",
		"\uFEFFx;y\r\n1,5;NULL\r\n\"Rome\nnorth\";2\r\n",
		"city\tx\ty\nMadrid\t1\t2\nParis\tNA\t3\nRoma\t-\t4\nMadrid\t5\t#N/A\n",
		"pop,y\n\"2,296\",1\n\"398,865\",2\n",
		"a;b;y\n1,5;2.5;1\n",
		"c=red,c,y\n1,red,1\n2,red,2\n3,red,3\n4,red,4\n5,red,5\n",
		"a,y\n1,\"2\n3,4\n",
		"x0,x1,\n1,2,3\n",
		"a,b,y\r1,2,3\r",
		"d,y\n2024-03-17,1\n2024-03-18T06:00:00+02:00,2\nNA,3\n2024-03-19 23:59:59.5,4\n",
		"d,y\n17/03/2024,1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		tab, err := Read(bytes.NewReader(data), "f.csv", Dialect{})
		piped, perr := Read(pipe{bytes.NewReader(data)}, "f.csv", Dialect{})
		if err != nil {
			checkReadError(t, err, readErrors)
			if perr == nil || perr.Error() != err.Error() {
				t.Fatalf("from memory: %v; through a pipe: %v", err, perr)
			}
			return
		}
		if perr != nil || !cmp.Equal(of(piped), of(tab), cmpopts.EquateNaNs()) {
			t.Fatalf("through a pipe: %v, %+v; from memory %+v", perr, of(piped), of(tab))
		}
		checkTable(t, tab)
		target := tab.Header[len(tab.Header)-1]
		enc, rows, err := gcp.LearnEncodingColumns(tab.Header, tab.Columns, nil, target, tab.Dialect.Decimal)
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > 8<<20+4096*uint64(len(data)) {
			t.Fatalf("%d bytes allocated for %d of input", a, len(data))
		}
		if err != nil {
			checkReadError(t, err, learnErrors)
			return
		}
		names := enc.InputNames()
		if len(rows.X) != len(rows.Rows)*enc.Inputs() || len(names) != enc.Inputs() || len(rows.Y) != len(rows.Rows) {
			t.Fatalf("%d inputs, %d names, %d encoded rows of %d values", enc.Inputs(), len(names), len(rows.Rows), len(rows.X))
		}
		slices.Sort(names)
		if len(slices.Compact(names)) != enc.Inputs() {
			t.Fatalf("input names repeat: %q", enc.InputNames())
		}
		for _, v := range append(rows.X, rows.Y...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("an encoded value %v", v)
			}
		}
	})
}

// checkReadError fails t unless err wraps one of sentinels and, where it
// is an *Error, names a line.
func checkReadError(t *testing.T, err error, sentinels []error) {
	t.Helper()
	var e *Error
	if errors.As(err, &e) && e.Line < 1 {
		t.Fatalf("%v: line %d", err, e.Line)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%v wraps none of %v", err, sentinels)
}

// checkTable fails t unless tab is whole: as many names as columns,
// distinct, not empty, without a carriage return or surrounding spaces;
// every column of every row; rows on increasing lines; numbers finite or
// missing; and the field of each number or date reading back as it.
func checkTable(t *testing.T, tab *Table) {
	t.Helper()
	if len(tab.Header) != len(tab.Columns) || len(tab.Missing) != len(tab.Header) || tab.Rows() < 1 {
		t.Fatalf("%d names, %d columns, %d counts of missing values, %d rows", len(tab.Header), len(tab.Columns), len(tab.Missing), tab.Rows())
	}
	seen := map[string]bool{}
	for _, name := range tab.Header {
		if name == "" || seen[name] || strings.ContainsRune(name, '\r') || strings.TrimSpace(name) != name {
			t.Fatalf("header %q", tab.Header)
		}
		seen[name] = true
	}
	for j := range tab.Columns {
		c := &tab.Columns[j]
		if c.Rows() != tab.Rows() {
			t.Fatalf("column %d has %d rows of %d", j, c.Rows(), tab.Rows())
		}
		for i := range tab.Rows() {
			if i > 0 && tab.Line(i) <= tab.Line(i-1) {
				t.Fatalf("row %d on line %d after %d", i, tab.Line(i), tab.Line(i-1))
			}
			if c.Numbers == nil {
				continue
			}
			if c.Dates {
				// A date's field is its ISO text to the millisecond:
				// it reads back within one (half of one but at the end
				// of year 9999).
				v := c.Numbers[i]
				back, ok := isodate.Parse(tab.Field(i, j))
				if math.IsNaN(v) != (tab.Field(i, j) == "") || !math.IsNaN(v) && (!ok || math.Abs(back-v)*86400 > 0.001) {
					t.Fatalf("row %d, column %d: date %v, field %q reads back as %v, %v", i, j, v, tab.Field(i, j), back, ok)
				}
				continue
			}
			v, missing, err := tab.Number(i, j)
			back, bmissing, berr := gcp.ParseNumber(tab.Field(i, j), tab.Dialect.Decimal)
			if err != nil || berr != nil || missing != bmissing || back != v {
				t.Fatalf("row %d, column %d: %v, %v, %v reads back as %v, %v, %v", i, j, v, missing, err, back, bmissing, berr)
			}
		}
	}
}
