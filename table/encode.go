package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gcpnet/gcp"
)

// ErrTooWide reports a table with more inputs than rows to train on
// (Table.LearnEncoding). Fewer rows than inputs cannot show which inputs
// matter, so that a fit learns noise, and its time and memory grow with
// the inputs: on 100 rows of 500 numbers gcp train took 20 s of CPU and
// 400 MB to learn nothing of a target that was three times the first
// column, and 100 rows of 10,000 ran for more than 15 minutes in 3 GB.
var ErrTooWide = errors.New("more inputs than rows to train on")

// LearnEncoding learns the encoding of the table's feature columns from
// the rows whose indices are rows (nil: every row), with the column
// called target (the last if empty) as the target, and encodes those
// rows: it is gcp.LearnEncodingColumns on the table's header, columns and
// decimal mark, whose results gcp.AutoFit (or a Trainer) takes as they
// are, and whose Encoding the trained model takes (gcp.Model.SetEncoding)
// to read new rows. Pass the rows to train on only, never those held out
// to test on. A row whose target is missing is left out
// (gcp.EncodedRows.Dropped).
//
// It returns the errors of Column and Target for the target's name, and
// an *Error naming the file and line for everything else: the field's
// column too for a target or a number that gcp.LearnEncodingColumns
// refuses (wrapping its gcp.ErrNotNumber or gcp.ErrNonFinite), the
// target's column for a target missing in every row (wrapping
// ErrMissing), gcp.ErrConfig for column names a model cannot take, and
// ErrTooWide for more inputs than rows with a target.
func (t *Table) LearnEncoding(target string, rows []int) (*gcp.Encoding, *gcp.EncodedRows, error) {
	k, err := t.Target(target)
	if err != nil {
		return nil, nil, err
	}
	enc, er, err := gcp.LearnEncodingColumns(t.Header, t.Columns, rows, t.Header[k], t.Dialect.Decimal)
	var fe *gcp.FieldError
	switch {
	case errors.As(err, &fe):
		return nil, nil, t.FieldError(fe.Row, fe.Index, fe.Err)
	case errors.Is(err, gcp.ErrBatch):
		n := len(rows)
		if rows == nil {
			n = t.Rows()
		}
		return nil, nil, &Error{File: t.File, Line: t.HeaderLine, Column: k + 1, Name: t.Header[k],
			Err: fmt.Errorf("%w in the target of every one of the %d rows", ErrMissing, n)}
	case err != nil: // the header's names
		return nil, nil, &Error{File: t.File, Line: t.HeaderLine, Err: headerError{err}}
	}
	if enc.Inputs() > len(er.Rows) {
		return nil, nil, &Error{File: t.File, Line: t.HeaderLine,
			Err: fmt.Errorf("%w: the %d feature columns become %d inputs, and %d rows have a target: train on more rows or fewer columns", ErrTooWide, len(enc.Columns()), enc.Inputs(), len(er.Rows))}
	}
	return enc, er, nil
}

// headerError is an error in the header's names, which it says; it wraps
// the library's error (gcp.ErrConfig) for errors.Is.
type headerError struct{ err error }

func (e headerError) Error() string {
	return "the header: " + strings.TrimPrefix(e.err.Error(), "gcp: ")
}
func (e headerError) Unwrap() error { return e.err }
