package gcp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrNotNumber reports text where a number is wanted: in a target, or in
// a column that a model's Encoding takes as numeric.
var ErrNotNumber = errors.New("gcp: not a number")

// ParseNumber parses one field of text data as the records of an
// Encoding and gcp's data files hold it: a decimal number in any form
// strconv.ParseFloat accepts ("1.5", "-2e-3"), with surrounding spaces
// ignored, whose decimal mark is decimal: ',' as spreadsheets in much of
// Europe write numbers ("1,5"; a field with a '.' in it is then not a
// number), or '.' for any other value. missing reports a missing value,
// for which v is 0: an empty field, ?, -, or NA, NaN, N/A, #N/A or NULL
// in any case, the spellings that R, pandas, spreadsheets and SQL
// exports write for one; such a field is never a number nor a level of
// a category. Text that is not a number gives an error wrapping ErrNotNumber, an infinity or a number beyond
// the float64 range one wrapping ErrNonFinite. With a decimal point it
// allocates nothing on success.
func ParseNumber(field string, decimal byte) (v float64, missing bool, err error) {
	s := strings.TrimSpace(field)
	if isMissing(s) {
		return 0, true, nil
	}
	if decimal == ',' {
		if strings.IndexByte(s, '.') >= 0 {
			return 0, false, fmt.Errorf("%w: %q (the decimal mark is ',')", ErrNotNumber, field)
		}
		s = withDecimalPoint(s)
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil && errors.Is(err, strconv.ErrSyntax) {
		return 0, false, fmt.Errorf("%w: %q", ErrNotNumber, field)
	}
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false, fmt.Errorf("%w: %q", ErrNonFinite, field)
	}
	return v, false, nil
}

// isMissing reports whether the trimmed field s is a missing value.
func isMissing(s string) bool {
	switch s {
	case "", "?", "-":
		return true
	}
	if len(s) > 4 { // longer than every spelling: most numbers
		return false
	}
	for _, m := range missingWords {
		if strings.EqualFold(s, m) {
			return true
		}
	}
	return false
}

// missingWords are the spellings of a missing value that isMissing
// matches in any case.
var missingWords = [...]string{"NA", "NaN", "N/A", "#N/A", "NULL"}

// withDecimalPoint returns s with its first ',' replaced by '.'; a second
// one is left for ParseFloat to refuse.
func withDecimalPoint(s string) string {
	i := strings.IndexByte(s, ',')
	if i < 0 {
		return s
	}
	return s[:i] + "." + s[i+1:]
}
