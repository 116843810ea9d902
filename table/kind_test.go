package table

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/google/go-cmp/cmp"
)

// numbersWith returns a file of two columns, a and y, of 100 rows of
// numbers in the decimal mark, sep separating them, where row 51 (line
// 52) of column a is field.
func numbersWith(field string, sep, decimal byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "a%cy\n", sep)
	for i := range 100 {
		a := fmt.Sprintf("%d%c25", i, decimal)
		if i == 50 {
			a = field
		}
		fmt.Fprintf(&b, "%s%c%d\n", a, sep, i%7)
	}
	return b.String()
}

// TestReadStrayToken checks that one field that is not a number in a
// column of numbers is an error naming its line, column and text, where
// it used to make the column text (categorical) in silence.
// regression: issue 32's H2 (a NULL, #DIV/0!, a NUL or a byte-order mark
// before a number, thousands separators, the other decimal mark).
func TestReadStrayToken(t *testing.T) {
	for _, tc := range []struct {
		field      string
		sep, mark  byte
		underlying error
	}{
		{"#DIV/0!", ',', '.', gcp.ErrNotNumber},
		{"n.a.", ',', '.', gcp.ErrNotNumber},
		{"1\x002", ',', '.', gcp.ErrNotNumber},
		{"\uFEFF5.5", ',', '.', gcp.ErrNotNumber},
		{`"1,234.5"`, ',', '.', gcp.ErrNotNumber},
		{"1.234,5", ';', ',', gcp.ErrNotNumber},
		{"2.5", ';', ',', gcp.ErrNotNumber},
		{"1e400", ',', '.', gcp.ErrNonFinite},
		{"-inf", ';', ',', gcp.ErrNonFinite},
	} {
		_, err := Read(strings.NewReader(numbersWith(tc.field, tc.sep, tc.mark)), "f.csv", Dialect{})
		var e *Error
		want := strings.Trim(tc.field, `"`)
		if !errors.As(err, &e) || !errors.Is(err, ErrMixed) || !errors.Is(err, tc.underlying) ||
			e.Line != 52 || e.Column != 1 || !strings.Contains(err.Error(), fmt.Sprintf("%q", want)) {
			t.Errorf("a column of numbers with %q: %v; want ErrMixed and %v on line 52, column 1, naming the field", tc.field, err, tc.underlying)
		}
	}
}

// TestReadMissingSpellings checks that the spellings of a missing value
// leave a column of numbers numbers, with NaN in their place, and that
// Table.Missing counts them by spelling.
// regression: issue 32's H2 (NULL, N/A, #N/A and - made the column text).
func TestReadMissingSpellings(t *testing.T) {
	for _, field := range []string{"NULL", "null", "N/A", "#N/A", "-", " NA "} {
		tab, err := Read(strings.NewReader(numbersWith(field, ',', '.')), "f.csv", Dialect{})
		if err != nil {
			t.Fatalf("%q: %v", field, err)
		}
		c := tab.Columns[0]
		if c.Numbers == nil || !math.IsNaN(c.Numbers[50]) || c.Numbers[51] != 51.25 {
			t.Errorf("%q: column a is %+v, want numbers with NaN in row 50", field, c)
		}
		want := []map[string]int{{strings.TrimSpace(field): 1}, nil}
		if d := cmp.Diff(want, tab.Missing); d != "" {
			t.Errorf("%q: Missing (-want +got):\n%s", field, d)
		}
	}
}

// TestReadThousands checks that commas that may be thousands separators
// do not make the decimal mark a comma, and that a column of such
// numbers is an error naming the first, not numbers of two scales.
// regression: issue 32's H3 ("398,865" read as 398.865).
func TestReadThousands(t *testing.T) {
	const in = "pop,y\n\"2,296\",1\n\"398,865\",2\n12,3\n"
	_, err := Read(strings.NewReader(in), "f.csv", Dialect{})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrMixed) || e.Line != 2 || e.Column != 1 || !strings.Contains(err.Error(), `"2,296" is not a number with the decimal mark '.'`) || !strings.Contains(err.Error(), "give -decimal") {
		t.Errorf("thousands separators: %v; want ErrMixed on line 2, column 1", err)
	}
	// A comma that is a decimal mark elsewhere in the file makes both
	// numbers with a decimal comma.
	tab, err := Read(strings.NewReader("a;y\n2,296;1,5\n398,865;2\n"), "f.csv", Dialect{})
	if err != nil || tab.Dialect.Decimal != ',' || !cmp.Equal(tab.Columns[0].Numbers, []float64{2.296, 398.865}) {
		t.Errorf("decimal commas: %+v, %v", tab, err)
	}
}

// TestReadAmbiguousDecimal checks that as many numbers with a decimal
// comma as with a decimal point is an error asking for the mark.
func TestReadAmbiguousDecimal(t *testing.T) {
	const in = "a;b;y\n1,5;2.5;1\n3;4;5\n"
	_, err := Read(strings.NewReader(in), "f.csv", Dialect{})
	checkError(t, err, ErrDialect, 2, 1,
		`f.csv: line 2, column 1 (a): unknown CSV dialect: the decimal mark is ambiguous: as many numbers have a decimal comma (1; "1,5" here) as a decimal point ("2.5" on line 2); give it (-decimal . or -decimal ,)`)
	if tab, err := Read(strings.NewReader(in), "f.csv", Dialect{Decimal: ','}, "b"); err != nil || tab.Columns[0].Numbers[0] != 1.5 {
		t.Errorf("with the decimal mark given: %v", err)
	}
}

// TestReadMixedMessage checks the whole message of a stray token.
func TestReadMixedMessage(t *testing.T) {
	_, err := Read(strings.NewReader(numbersWith("oops", ',', '.')), "f.csv", Dialect{})
	checkError(t, err, ErrMixed, 52, 1,
		`f.csv: line 52, column 1 (a): a column of numbers holds a field that is not one: "oops" is not a number (99 of the column's 100 fields that are not missing are numbers): write a missing value as empty, NA or NULL, or name the column in -text to read it as text`)
	// Named as text, the column is text.
	tab, err := Read(strings.NewReader(numbersWith("oops", ',', '.')), "f.csv", Dialect{}, "a")
	if err != nil || tab.Columns[0].Numbers != nil || tab.Field(50, 0) != "oops" {
		t.Errorf("the column named as text: %v", err)
	}
}

// TestClassifyParse checks the claim of classify that one parse tells
// whether gcp.ParseNumber reads a field with either decimal mark, against
// ParseNumber itself with each, on fields of every shape a number or a
// text of digits, signs, marks and letters can take; and the vote of
// each field.
func TestClassifyParse(t *testing.T) {
	fields := []string{"", " ", "NA", "nan", "?", "-", "NULL", "n/a", "#N/A", "1", "1.5", "1,5", "1,5.2", "1.5,2", ",", ".", "1,", ".5", ",5",
		"1e400", "1,5e400", "-inf", "Inf", "0x1p-2", "0x1,8p1", "1_000", "1 000", "+.5e-3", " 2,25e2 ", "1,2,3", "1..2", "NaN,",
		"2,296", "398,865", "-1,234", "1.234", "1.234.567", "1,234.5", "1.234,5", "12,3456"}
	fields = append(fields, randomFields(1, 20000, 7, "0123456789.,eE+-xpn_ia ")...)
	thousands := regexp.MustCompile(`^ *[+-]?[0-9]{1,3},[0-9]{3} *$`)
	for _, f := range fields {
		missing, point, comma, vote := classify(f)
		_, pMissing, pErr := gcp.ParseNumber(f, '.')
		_, cMissing, cErr := gcp.ParseNumber(f, ',')
		if missing != (pMissing || cMissing) || !missing && ((point == classNumber) != (pErr == nil) || (comma == classNumber) != (cErr == nil)) {
			t.Errorf("%q: missing %v, point %v, comma %v; ParseNumber's %v, %v and %v, %v", f, missing, point, comma, pMissing, pErr, cMissing, cErr)
		}
		// A vote goes to the mark the field holds, if it is a number with
		// it, unless a comma may be a thousands separator: one comma after
		// one to three digits (and a sign) and before three.
		wantPoint := strings.Contains(f, ".") && !strings.Contains(f, ",") && pErr == nil && !pMissing
		wantComma := strings.Contains(f, ",") && cErr == nil && !cMissing && !thousands.MatchString(f)
		if (vote == '.') != wantPoint || (vote == ',') != wantComma {
			t.Errorf("%q: vote %q", f, vote)
		}
	}
}

// TestGrouped checks the numbers with thousands separators that grouped
// recognizes, against a regular expression of the rule.
func TestGrouped(t *testing.T) {
	rule := regexp.MustCompile(`^ *[+-]?[0-9]{1,3}((,[0-9]{3})+(\.[0-9]+)?|(\.[0-9]{3})+(,[0-9]+)?) *$`)
	fields := []string{"1,234", "-12.345.678", "1,234.5", "1.234,5", "1,23", "1234,567", "1,234,56", "1,234.567.8", ",234", "1,234,"}
	fields = append(fields, randomFields(5, 50000, 12, "0123456789012345678901234567890123456789.,.,-+ ")...)
	for _, f := range fields {
		if got, want := grouped(f), rule.MatchString(f); got != want {
			t.Errorf("grouped(%q) = %v, want %v", f, got, want)
		}
	}
}

// randomFields returns n fields of 1 to maxLen bytes drawn from
// alphabet by a generator of the seed.
func randomFields(seed uint64, n, maxLen int, alphabet string) []string {
	r := rand.New(rand.NewPCG(seed, 2))
	fields := make([]string, n)
	for k := range fields {
		b := make([]byte, 1+r.IntN(maxLen))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		fields[k] = string(b)
	}
	return fields
}

// datesWith returns a file of columns d and y, 40 rows, where d holds ISO
// dates from 2024-03-01 on, then date-times, and row 21 (line 22) field.
func datesWith(field string) string {
	var b strings.Builder
	b.WriteString("d,y\n")
	for i := range 40 {
		f := fmt.Sprintf("2024-03-%02d", i%28+1)
		switch {
		case i == 20:
			f = field
		case i > 30:
			f += " 06:00"
		}
		fmt.Fprintf(&b, "%s,%d\n", f, i)
	}
	return b.String()
}

func TestReadISODates(t *testing.T) {
	tab, err := Read(strings.NewReader(datesWith("NA")), "d.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	d := tab.Columns[0]
	// 2024-03-01 is day 19723 + 31 + 29 - 29 = 19783 (see isodate's
	// tests); row 31 is 2024-03-04 at 06:00, a quarter day on.
	if !d.Dates || d.Numbers[0] != 19783 || !math.IsNaN(d.Numbers[20]) || d.Numbers[31] != 19786.25 || tab.Columns[1].Dates {
		t.Fatalf("dates %v, %v", d.Dates, d.Numbers)
	}
	if got := tab.Field(31, 0); got != "2024-03-04T06:00:00Z" {
		t.Errorf("Field = %q", got)
	}
	if s := tab.Select([]int{1}); !s.Columns[0].Dates || s.Columns[0].Numbers[0] != 19784 {
		t.Errorf("Select lost the dates: %+v", s.Columns[0])
	}
	for _, text := range []struct {
		d    Dialect
		cols []string
	}{{Dialect{NoDates: true}, nil}, {Dialect{}, []string{"d"}}} {
		tab, err := Read(strings.NewReader(datesWith("NA")), "d.csv", text.d, text.cols...)
		if err != nil || tab.Columns[0].Numbers != nil || tab.Field(0, 0) != "2024-03-01" {
			t.Errorf("%+v %v: %v, %+v; want text", text.d, text.cols, err, tab.Columns[0])
		}
	}
}

// A date that is not ISO is refused where it is, day and month order
// unguessed, and so is a stray token among dates (the 95% rule); with
// dates off both columns are text as before.
func TestReadRefusesAmbiguousAndMixedDates(t *testing.T) {
	for _, c := range []struct {
		field string
		want  error
		msg   string
	}{
		{"03/04/2024", ErrDateFormat, `d.csv: line 22, column 1 (d): a date not written as YYYY-MM-DD: "03/04/2024": is it day/month or month/day?`},
		{"17.03.2024", ErrDateFormat, `line 22, column 1 (d): a date not written as YYYY-MM-DD: "17.03.2024"`},
		{"n.a.", ErrMixed, `line 22, column 1 (d): a column of numbers holds a field that is not one: "n.a." is not an ISO date (39 of the column's 40`},
		{"2024-02-30", ErrMixed, `"2024-02-30" is not an ISO date`},
	} {
		_, err := Read(strings.NewReader(datesWith(c.field)), "d.csv", Dialect{})
		if !errors.Is(err, c.want) || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %v containing %q", c.field, err, c.want, c.msg)
		}
		tab, err := Read(strings.NewReader(datesWith(c.field)), "d.csv", Dialect{NoDates: true})
		if err != nil || tab.Columns[0].Numbers != nil {
			t.Errorf("%s with NoDates: %v", c.field, err)
		}
	}
	// A column of slash dates alone is refused too, at its first field.
	_, err := Read(strings.NewReader("d,y\n17/03/2024,1\n18/03/2024,2\n"), "s.csv", Dialect{})
	if !errors.Is(err, ErrDateFormat) || !strings.Contains(err.Error(), `line 2, column 1 (d)`) {
		t.Errorf("slash dates: %v", err)
	}
}
