package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/isodate"
)

// fieldClass is what a field that is not missing is in a column of
// numbers written with one decimal mark.
type fieldClass uint8

const (
	// classNumber is a number gcp.ParseNumber reads.
	classNumber fieldClass = iota
	// classLike is a number written in a way that is not read: infinite
	// or beyond the float64 range, with the other decimal mark, or with
	// thousands separators ("1,234.5", "1.234.567").
	classLike
	// classText is any other field.
	classText
	// classDate is an ISO date or date-time (isodate.Parse), alike with
	// both marks.
	classDate
	// classAmbiguous is a date that is not ISO and whose order of day
	// and month the text does not tell (isodate.Ambiguous: 03/04/2024).
	classAmbiguous
	nClasses
)

// marks are the decimal marks, in the order of the per-mark counts.
var marks = [2]byte{'.', ','}

// classify returns whether field is missing (gcp.ParseNumber), and if
// not its class with a decimal point and with a decimal comma, and the
// decimal mark it votes for (decimalVotes), 0 for none. One parse tells
// all: a field with neither mark reads alike with both, one with a point
// is never a number with a decimal comma (ParseNumber refuses it), one
// with a comma never one with a decimal point (strconv.ParseFloat takes
// no comma), and one with both is neither, nor missing.
func classify(field string) (missing bool, point, comma fieldClass, vote byte) {
	hasComma, hasPoint := strings.IndexByte(field, ',') >= 0, strings.IndexByte(field, '.') >= 0
	if hasComma && hasPoint {
		c := textOrGrouped(field)
		return false, c, c, 0
	}
	mark := byte('.')
	if hasComma {
		mark = ','
	}
	_, missing, err := gcp.ParseNumber(field, mark)
	if missing {
		return true, 0, 0, 0
	}
	c := classNumber
	switch {
	case errors.Is(err, gcp.ErrNonFinite):
		c = classLike
	case err != nil:
		c = textOrGrouped(field)
		if _, ok := isodate.Parse(field); ok {
			c = classDate
		} else if c == classText && isodate.Ambiguous(field) {
			c = classAmbiguous
		}
	}
	switch {
	case hasComma && c == classNumber:
		// "2,296" and "398,865" are as likely thousands as decimals: they
		// do not vote, and a file whose only commas they are reads them
		// with a decimal point, as numbers that are not read (classLike).
		if !grouped(field) {
			vote = ','
		}
		return false, classLike, c, vote
	case hasPoint && c == classNumber:
		// A point that ParseFloat reads is never a thousands separator:
		// "1.234.567" has two and is classLike already.
		return false, c, classLike, '.'
	}
	return false, c, c, 0
}

// textOrGrouped returns classLike for a number with thousands separators
// (grouped), classText for any other field.
func textOrGrouped(field string) fieldClass {
	if grouped(field) {
		return classLike
	}
	return classText
}

// grouped reports whether field, spaces trimmed, is a number with
// thousands separators: an optional sign, one to three digits, one or
// more groups of a separator (',' or '.') and three digits, and
// optionally the other mark and digits: "1,234", "-12.345.678",
// "1,234.5", "1.234,5".
func grouped(field string) bool {
	s := strings.TrimSpace(field)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	lead := digits(s)
	if lead < 1 || lead > 3 || lead == len(s) || s[lead] != ',' && s[lead] != '.' {
		return false
	}
	sep := s[lead]
	s = s[lead:]
	groups := 0
	for len(s) > 3 && s[0] == sep && digits(s[1:]) == 3 {
		s, groups = s[4:], groups+1
	}
	switch {
	case groups == 0:
		return false
	case s == "":
		return true
	}
	return s[0] != sep && (s[0] == ',' || s[0] == '.') && len(s) > 1 && digits(s[1:]) == len(s)-1
}

// digits returns the number of ASCII digits s starts with.
func digits(s string) int {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return i
		}
	}
	return len(s)
}

// decimalVotes counts the fields that are numbers with a decimal comma
// ("1,5") and with a decimal point ("1.5"), to detect the decimal mark,
// and where each mark was first seen.
type decimalVotes struct {
	comma, point           int
	firstComma, firstPoint position
}

// position is a field of a file and where it is.
type position struct {
	line, column int
	field        string
}

// add counts a vote for mark of the field at p.
func (v *decimalVotes) add(mark byte, p position) {
	n, first := &v.point, &v.firstPoint
	if mark == ',' {
		n, first = &v.comma, &v.firstComma
	}
	if *n == 0 {
		p.field = strings.Clone(p.field)
		*first = p
	}
	(*n)++
}

// mark returns the decimal mark the votes detect: the one more fields
// have, '.' if none has any, and an error wrapping ErrDialect on a tie.
func (v *decimalVotes) mark(t *Table) (byte, error) {
	switch {
	case v.comma > v.point:
		return ',', nil
	case v.comma < v.point || v.comma == 0:
		return '.', nil
	}
	p := v.firstComma
	return 0, t.fieldError(p, fmt.Errorf("%w: the decimal mark is ambiguous: as many numbers have a decimal comma (%d; %q here) as a decimal point (%q on line %d); give it (-decimal . or -decimal ,)",
		ErrDialect, v.comma, p.field, v.firstPoint.field, v.firstPoint.line))
}

// columnStats is what the first reading of a file learns of one column:
// how many of its fields are of each class with each decimal mark, the
// first field that is not a number with each, the first that is not an
// ISO date and the first ambiguous date, and the missing values by their
// spelling.
type columnStats struct {
	count          [2][nClasses]int
	first          [2]position
	notDate, ambig position
	missing        map[string]int
}

// add counts the field at p.
func (c *columnStats) add(p position, v *decimalVotes) {
	missing, point, comma, vote := classify(p.field)
	if missing {
		if c.missing == nil {
			c.missing = map[string]int{}
		}
		s := strings.TrimSpace(p.field)
		if _, ok := c.missing[s]; !ok {
			s = strings.Clone(s)
		}
		c.missing[s]++
		return
	}
	if vote != 0 {
		v.add(vote, p)
	}
	for m, class := range [2]fieldClass{point, comma} {
		if class != classNumber && c.count[m][classNumber] == c.fields(m) {
			c.first[m] = p.clone()
		}
		if m == 0 && class != classDate && c.count[m][classDate] == c.fields(m) {
			c.notDate = p.clone()
		}
		if m == 0 && class == classAmbiguous && c.count[m][classAmbiguous] == 0 {
			c.ambig = p.clone()
		}
		c.count[m][class]++
	}
}

// clone returns p with a copy of its field, not the record it is part of.
func (p position) clone() position {
	p.field = strings.Clone(p.field)
	return p
}

// fields returns the number of fields counted that are not missing, with
// the decimal mark of index m.
func (c *columnStats) fields(m int) int {
	n := 0
	for _, k := range c.count[m] {
		n += k
	}
	return n
}

// columnKind is how a table holds a column.
type columnKind uint8

const (
	kindText columnKind = iota
	kindNumbers
	kindDates
)

// kind returns how the column is held with the decimal mark: as dates if
// dates is true and every field is an ISO date or missing; as numbers if
// every field is a number or missing (numeric); else as text. A column
// whose fields, missing ones aside, are at least 95% dates, but not all
// ISO dates, is an error: one that wraps ErrDateFormat and names its
// first date that is not ISO, if it has one (03/04/2024 is the 3rd of
// April or March the 4th, and the reader does not guess); else one that
// wraps ErrMixed and names its first field that is not a date.
func (c *columnStats) kind(t *Table, mark byte, dates bool) (columnKind, error) {
	count, total := c.count[0], c.fields(0)
	if d := count[classDate] + count[classAmbiguous]; dates && d > 0 && 20*d >= 19*total {
		switch {
		case count[classAmbiguous] > 0:
			p := c.ambig
			return kindText, t.fieldError(p, fmt.Errorf("%w: %q: is it day/month or month/day? Write dates as YYYY-MM-DD (ISO 8601), or name the column in -text to read it as text", ErrDateFormat, p.field))
		case count[classDate] == total:
			return kindDates, nil
		}
		p := c.notDate
		return kindText, t.fieldError(p, &mixedError{
			why: fmt.Sprintf("%q is not an ISO date (%d of the column's %d fields that are not missing are dates): write a missing value as empty, NA or NULL, or name the column in -text to read it as text", p.field, count[classDate], total),
			err: gcp.ErrNotNumber})
	}
	numeric, err := c.numeric(t, mark)
	if numeric {
		return kindNumbers, err
	}
	return kindText, err
}

// numeric reports whether the column is one of numbers with the decimal
// mark: every field a number or missing. A column that is not, but whose
// fields are overwhelmingly numbers, at least 95% of those not missing
// numbers or numbers written in a way that is not read (classLike), is
// an error naming its first field that is not a number: a stray token
// ("n.a.", "#DIV/0!", a byte-order mark or a NUL byte before a number),
// a thousands separator or the other decimal mark, which would otherwise
// make the whole column text (categorical) in silence. Any other column
// is text: a true column of text may have a few levels that read as
// numbers ("007").
func (c *columnStats) numeric(t *Table, mark byte) (bool, error) {
	m := 0
	if mark == ',' {
		m = 1
	}
	n, like := c.count[m][classNumber], c.count[m][classLike]
	text := c.fields(m) - n - like
	switch {
	case like+text == 0:
		return true, nil
	case 20*(n+like) < 19*(n+like+text):
		return false, nil
	}
	p := c.first[m]
	_, _, err := gcp.ParseNumber(p.field, mark)
	_, _, otherErr := gcp.ParseNumber(p.field, marks[1-m])
	what, hint := fmt.Sprintf("%q is not a number", p.field), "write a missing value as empty, NA or NULL, or name the column in -text to read it as text"
	switch {
	case errors.Is(err, gcp.ErrNonFinite):
		what, hint = strings.TrimPrefix(err.Error(), "gcp: "), "a number must be finite and within the float64 range"
	case otherErr == nil || grouped(p.field):
		what = fmt.Sprintf("%q is not a number with the decimal mark '%c'", p.field, mark)
		hint = fmt.Sprintf("thousands separators are not read, nor the other decimal mark; remove them, or give -decimal if '%c' is wrong", mark)
	}
	return false, t.fieldError(p, &mixedError{
		why: fmt.Sprintf("%s (%d of the column's %d fields that are not missing are numbers): %s", what, n, n+like+text, hint),
		err: err})
}

// mixedError is the error of a column of numbers with a field that is
// not one: it wraps ErrMixed and gcp.ParseNumber's error.
type mixedError struct {
	why string
	err error
}

func (e *mixedError) Error() string { return ErrMixed.Error() + ": " + e.why }

func (e *mixedError) Unwrap() []error { return []error{ErrMixed, e.err} }
