package gcp

import (
	"fmt"
	"strings"
)

// Record is one input row as text, by column name: what a program holds
// of a row before it is a model's numeric input, such as a line of a CSV
// file, a form, or a struct of its own. Field returns the text of the
// column called column, and false if the record has no such column. A
// missing value is one of ParseNumber's missing tokens (an empty field,
// NA, NaN, ?), not an absent column.
//
// A struct becomes a Record with a method that maps the model's column
// names to its fields' text, formatting numbers with strconv.FormatFloat
// (format 'g', precision −1), which ParseNumber reads back exactly; see
// the package's examples.
type Record interface {
	Field(column string) (text string, ok bool)
}

// MapRecord is a Record held in a map from column name to text.
type MapRecord map[string]string

// Field returns r[column] and whether r has the column.
func (r MapRecord) Field(column string) (string, bool) {
	s, ok := r[column]
	return s, ok
}

// RecordNotes says what an encoding of a record had to assume or found
// unusual, for the caller to warn about (gcp predict, eval and plot count
// the rows that have each on stderr). Columns are counted, and the first
// of each kind given by its index among the model's columns
// (Encoding.Columns); a First field means nothing while its count is 0.
type RecordNotes struct {
	// Unseen counts categorical columns whose level is not among the
	// model's (see Encoding).
	Unseen, FirstUnseen int
	// Imputed counts missing values in columns whose training rows had
	// none, taken as the training median or the all-zero code.
	Imputed, FirstImputed int
	// Outside counts the inputs outside the range they had in the
	// training rows and the text columns whose code no training row had
	// (Model.OutsideRange: a numeric column's value beyond its range, a
	// level never seen in a column without the Other input), and
	// FirstOutside is the column of the first: the prediction is an
	// extrapolation, and for such a code its calibrated and conformal
	// intervals are unknown (Prediction.CalibratedInterval).
	Outside, FirstOutside int
}

// add counts the note n about column c.
func (r *RecordNotes) add(n fieldNote, c int) {
	switch n {
	case noteUnseen:
		if r.Unseen == 0 {
			r.FirstUnseen = c
		}
		r.Unseen++
	case noteImputed:
		if r.Imputed == 0 {
			r.FirstImputed = c
		}
		r.Imputed++
	}
}

// SetEncoding sets how the model encodes records (Encoding): it must take
// the model's Inputs. An encoding of numeric columns without missing
// values (LearnEncoding's result for a clean numeric table) is the
// identity, and the model keeps only the names of its columns and
// target, as SetFeatureNames would, so that it stays readable by releases
// that know no encoding; any other is saved with the model (format
// version 5) and names the model's features and target (FeatureNames).
// It returns ErrConfig for a nil model or encoding and an error wrapping
// ErrShape for an encoding of another width; the model is then unchanged.
//
// For a model whose law is the Gaussian copula of one-target models, e
// names the targets joined by commas, as a model of several targets'
// encoding does: each marginal takes e with its own target's name, and
// the model answers for their encoding as it does for their features.
func (m *Model[T]) SetEncoding(e *Encoding) error {
	if m != nil && m.margins != nil {
		return m.setCopulaEncoding(e)
	}
	if m == nil || m.lay == nil || e == nil {
		return fmt.Errorf("%w: a nil encoding, or a model that is nil or was not built by New", ErrConfig)
	}
	if e.Inputs() != m.cfg.Inputs {
		return fmt.Errorf("%w: an encoding of %d inputs for a model of %d", ErrShape, e.Inputs(), m.cfg.Inputs)
	}
	if e.plain() {
		names := make([]string, len(e.columns))
		for c, col := range e.columns {
			names[c] = col.Name
		}
		if err := checkNames(names, e.target); err != nil {
			return err
		}
		m.ext.encoding, m.featureNames, m.targetName = nil, names, e.target
		return nil
	}
	m.ext.encoding, m.featureNames, m.targetName = e, nil, e.target
	return nil
}

// setCopulaEncoding is SetEncoding for a copula model m: e's target names
// the model's d targets joined by commas, and each marginal takes e with
// its own target's name (the model unchanged on error).
func (m *Model[T]) setCopulaEncoding(e *Encoding) error {
	if e == nil {
		return fmt.Errorf("%w: a nil encoding", ErrConfig)
	}
	if e.Inputs() != m.cfg.Inputs {
		return fmt.Errorf("%w: an encoding of %d inputs for a model of %d", ErrShape, e.Inputs(), m.cfg.Inputs)
	}
	names := strings.Split(e.target, ",")
	if len(names) != len(m.margins) {
		return fmt.Errorf("%w: an encoding of target %q for a model of %d targets", ErrConfig, e.target, len(m.margins))
	}
	margins := make([]*Model[T], len(m.margins))
	for j, g := range m.margins {
		margins[j] = g.Clone()
		if err := margins[j].SetEncoding(newEncoding(names[j], e.columns)); err != nil {
			return fmt.Errorf("target %d: %w", j, err)
		}
	}
	m.margins = margins
	m.deriveCopula()
	return nil
}

// Encoding returns how the model encodes records: the encoding
// SetEncoding set, or for a model with feature names and no other
// encoding the plain one (each feature a numeric column), or nil for a
// model without names.
func (m *Model[T]) Encoding() *Encoding {
	switch {
	case m == nil:
		return nil
	case m.ext.encoding != nil:
		return m.ext.encoding
	case m.featureNames == nil:
		return nil
	}
	columns := make([]Column, len(m.featureNames))
	for c, name := range m.featureNames {
		columns[c] = Column{Name: name}
	}
	return newEncoding(m.targetName, columns)
}

// columns returns the number of columns of the model's records: the
// encoding's, or Inputs.
func (m *Model[T]) columns() int {
	if e := m.ext.encoding; e != nil {
		return len(e.columns)
	}
	return m.cfg.Inputs
}

// EncodeFields encodes one record into the model's inputs x (Inputs
// values): fields holds the text of the model's columns in their order
// (Encoding().Columns(); for a model without an encoding, its features),
// numbers with the decimal mark decimal (ParseNumber). It is what
// EncodeRecord and gcp predict use, and the record's prediction is
// Predict(ws, x). It returns the notes of Encoding (RecordNotes) and
// ErrShape for slices of the wrong length, ErrConfig for a nil model, and
// a *FieldError for text in a numeric column (ErrNotNumber) or an
// infinite number (ErrNonFinite). x is unspecified after an error.
func (m *Model[T]) EncodeFields(x []T, fields []string, decimal byte) (RecordNotes, error) {
	if m != nil && m.margins != nil {
		return m.margins[0].EncodeFields(x, fields, decimal)
	}
	if m == nil || m.lay == nil {
		return RecordNotes{}, fmt.Errorf("%w: a model that is nil or was not built by New", ErrConfig)
	}
	if len(fields) != m.columns() {
		return RecordNotes{}, fmt.Errorf("%w: %d fields for %d columns", ErrShape, len(fields), m.columns())
	}
	return m.encodeRecord(x, func(c int, x []T, col *Column, center float64) (fieldNote, error) {
		return encodeField(x, col, fields[c], decimal, center)
	})
}

// EncodeRow encodes row i of a table held by column (TableColumn) into
// the model's inputs x, as EncodeFields encodes the same row as text:
// cols holds the model's columns in their order, and numbers of text
// columns have the decimal mark decimal. It returns the errors of
// EncodeFields, and ErrShape for a row that is not one of every
// column's, or whose code is not an index of its column's Levels.
func (m *Model[T]) EncodeRow(x []T, cols []TableColumn, i int, decimal byte) (RecordNotes, error) {
	if m != nil && m.margins != nil {
		return m.margins[0].EncodeRow(x, cols, i, decimal)
	}
	if m == nil || m.lay == nil {
		return RecordNotes{}, fmt.Errorf("%w: a model that is nil or was not built by New", ErrConfig)
	}
	if len(cols) != m.columns() {
		return RecordNotes{}, fmt.Errorf("%w: %d columns for a model of %d", ErrShape, len(cols), m.columns())
	}
	for c := range cols {
		if err := cols[c].checkRow(i); err != nil {
			return RecordNotes{}, err
		}
	}
	return m.encodeRecord(x, func(c int, x []T, col *Column, center float64) (fieldNote, error) {
		return encodeCell(x, col, &cols[c], i, decimal, center)
	})
}

// EncodeRecord encodes the record r into the model's inputs x, as
// EncodeFields encodes its fields, taking each of the model's columns by
// name. Besides the errors of EncodeFields it returns a *FieldError
// wrapping ErrMissingColumn for a column r lacks, and ErrConfig for a
// model without names or a nil r. A model whose law is the Gaussian
// copula of one-target models encodes as its marginals do (they share
// their encoding), as do EncodeFields and EncodeRow.
func (m *Model[T]) EncodeRecord(x []T, r Record, decimal byte) (RecordNotes, error) {
	if m != nil && m.margins != nil {
		return m.margins[0].EncodeRecord(x, r, decimal)
	}
	switch {
	case m == nil || m.lay == nil || m.ext.encoding == nil && m.featureNames == nil:
		return RecordNotes{}, fmt.Errorf("%w: the model is nil, not built by New, or has no column names", ErrConfig)
	case r == nil:
		return RecordNotes{}, fmt.Errorf("%w: a nil Record", ErrConfig)
	}
	return m.encodeRecord(x, func(c int, x []T, col *Column, center float64) (fieldNote, error) {
		text, ok := r.Field(m.columnName(c))
		if !ok {
			return noteNone, ErrMissingColumn
		}
		return encodeField(x, col, text, decimal, center)
	})
}

// PredictRecord returns the prediction for the record r, in original
// units: EncodeRecord with the decimal point '.', then Predict, with the
// same errors; ws holds the encoded inputs between the two. For text with
// decimal commas, call EncodeRecord with ',' and then Predict.
func (m *Model[T]) PredictRecord(ws *Workspace[T], r Record) (Prediction, RecordNotes, error) {
	if m == nil {
		return Prediction{}, RecordNotes{}, ErrConfig
	}
	if ws == nil || !ws.fits(m) {
		return Prediction{}, RecordNotes{}, ErrShape
	}
	if len(ws.record) != m.cfg.Inputs {
		ws.record = make([]T, m.cfg.Inputs)
	}
	notes, err := m.EncodeRecord(ws.record, r, '.')
	if err != nil {
		return Prediction{}, notes, err
	}
	p, err := m.Predict(ws, ws.record)
	return p, notes, err
}

// encodeRecord encodes a record into x: encode(c, x, col, center)
// writes the inputs x of the model's column c, whose encoding is col
// (nil for a model without an Encoding) and whose missing number takes
// center where it has no indicator, and returns encodeField's note and
// error.
func (m *Model[T]) encodeRecord(x []T, encode func(c int, x []T, col *Column, center float64) (fieldNote, error)) (RecordNotes, error) {
	var notes RecordNotes
	if len(x) != m.cfg.Inputs {
		return notes, fmt.Errorf("%w: %d inputs for a model of %d", ErrShape, len(x), m.cfg.Inputs)
	}
	e := m.ext.encoding
	for c := range m.columns() {
		start, end, col := c, c+1, (*Column)(nil)
		if e != nil {
			start, end, col = e.start[c], e.start[c+1], &e.columns[c]
		}
		n, err := encode(c, x[start:end], col, m.xMean[start])
		if err != nil {
			return notes, &FieldError{Index: c, Column: m.columnName(c), Err: err}
		}
		notes.add(n, c)
	}
	if n, first := m.OutsideRange(x); n > 0 {
		notes.Outside, notes.FirstOutside = n, first
		if e != nil {
			notes.FirstOutside = e.inputColumn(first)
		}
	}
	return notes, nil
}

// columnName returns the name of the model's column c, "" without names.
func (m *Model[T]) columnName(c int) string {
	switch {
	case m.ext.encoding != nil:
		return m.ext.encoding.columns[c].Name
	case m.featureNames != nil:
		return m.featureNames[c]
	}
	return ""
}
