package gcp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp/internal/isodate"
)

// A TableColumn is one column of a table held by column rather than by
// row: the input of LearnEncodingColumns and Model.EncodeRow, the
// columnar forms of LearnEncoding and Model.EncodeFields. Hold a large
// table this way to save memory: a column of numbers takes 8 bytes a row,
// where the same rows as text take each number's digits and a string
// header of 16 bytes besides, about three times as much on a wide numeric
// table.
//
// A column is one of three kinds:
//
//   - Numbers, if not nil, holds a column whose every field is a number
//     or missing: each number as ParseNumber reads its field, and NaN
//     where the value is missing. ±Inf is an infinite value, refused as
//     ParseNumber refuses its text.
//   - With Dates set, Numbers holds a column of ISO dates or date-times
//     (see Encoding): each as days since 1970-01-01 00:00 UTC, NaN where
//     the value is missing. An encoding takes it as a date column; its
//     fields are dates, not numbers (Number returns ErrNotNumber). Dates
//     without Numbers is a column of text, as if Dates were not set.
//   - Otherwise row i's field is the text Levels[Codes[i]], as the file
//     writes it, surrounding spaces included. Levels may repeat; keeping
//     each distinct text once holds a column of few distinct values at 4
//     bytes a row.
//
// The methods panic, as a slice index does, for a row out of range or a
// code that is not an index of Levels; LearnEncodingColumns and
// Model.EncodeRow check both and return ErrShape.
type TableColumn struct {
	Numbers []float64
	Dates   bool
	Codes   []uint32
	Levels  []string
}

// Rows returns the number of rows of c.
func (c *TableColumn) Rows() int {
	if c.Numbers != nil {
		return len(c.Numbers)
	}
	return len(c.Codes)
}

// Number returns what ParseNumber returns for row i's field, with the
// decimal mark decimal for a column of text: the number, or missing, or
// an error wrapping ErrNotNumber or ErrNonFinite.
func (c *TableColumn) Number(i int, decimal byte) (v float64, missing bool, err error) {
	switch {
	case c.Numbers == nil:
		return ParseNumber(c.Levels[c.Codes[i]], decimal)
	case c.Dates:
		return ParseNumber(c.Field(i, decimal), decimal)
	}
	switch v = c.Numbers[i]; {
	case math.IsNaN(v):
		return 0, true, nil
	case math.IsInf(v, 0):
		return 0, false, fmt.Errorf("%w: %g", ErrNonFinite, v)
	}
	return v, false, nil
}

// Field returns row i's field as text: a text column's as it is, and a
// number as the shortest text that ParseNumber reads back as the same
// number with the decimal mark decimal, and a date as its ISO text, a
// date-time in UTC to the millisecond ("" where the value is missing).
// A model that takes the column as categorical (Encoding) reads its
// levels from this text, so keep such a column as text: "007" and "7.0"
// are levels of their own, but both the number 7.
func (c *TableColumn) Field(i int, decimal byte) string {
	if c.Numbers == nil {
		return c.Levels[c.Codes[i]]
	}
	v := c.Numbers[i]
	switch {
	case math.IsNaN(v):
		return ""
	case c.Dates:
		return isodate.Format(v)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if decimal == ',' {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// checkRow returns ErrShape unless row i is one of c's and, in a text
// column, its code an index of Levels.
func (c *TableColumn) checkRow(i int) error {
	if i < 0 || i >= c.Rows() || c.Numbers == nil && int(c.Codes[i]) >= len(c.Levels) {
		return fmt.Errorf("%w: row %d of a column of %d rows and %d levels, or its code beyond them", ErrShape, i, c.Rows(), len(c.Levels))
	}
	return nil
}

// checkColumns returns ErrShape unless every column has rows rows, each
// a row of the column (checkRow).
func checkColumns(cols []TableColumn, rows int) error {
	for j := range cols {
		c := &cols[j]
		if c.Rows() != rows {
			return fmt.Errorf("%w: column %d has %d rows, column 1 %d", ErrShape, j+1, c.Rows(), rows)
		}
		if c.Numbers != nil {
			continue
		}
		for i := range c.Codes {
			if err := c.checkRow(i); err != nil {
				return fmt.Errorf("column %d: %w", j+1, err)
			}
		}
	}
	return nil
}
