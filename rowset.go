package gcp

import (
	"fmt"
	"math"
)

// rowSet is a subset of the rows of a data set, by index: the training
// rows of a run, its validation rows, a calibration fold. Every run of
// AutoFit (the candidates, the ensemble, the folds) reads the one copy of
// the data that the caller passed in, so that training needs memory for
// the data once, plus four bytes per row for each run's order, rather
// than a copy of the data for every split of it.
type rowSet[T Float] struct {
	x, y []T     // all rows: row-major inputs of d features, targets
	d    int     // features per row
	ty   int     // targets per row, 0 for one
	rows []int32 // the rows of the set, in order; nil for all rows of y
}

// maxRows bounds the rows of a data set, so that a row index fits a
// rowSet's int32.
const maxRows = math.MaxInt32

// allRows returns the set of every row of x and y, with d features per
// row: the caller has checked that len(x) = d·len(y).
func allRows[T Float](x, y []T, d int) rowSet[T] { return rowSet[T]{x: x, y: y, d: d} }

// subset returns the set of the given rows of s's data. rows indexes the
// data, not s.
func (s rowSet[T]) subset(rows []int32) rowSet[T] {
	return rowSet[T]{x: s.x, y: s.y, d: s.d, ty: s.ty, rows: rows}
}

// len returns the number of rows in s.
func (s rowSet[T]) len() int {
	if s.rows == nil {
		return len(s.y) / max(s.ty, 1)
	}
	return len(s.rows)
}

// row returns the index in the data of s's i-th row.
func (s rowSet[T]) row(i int) int {
	if s.rows == nil {
		return i
	}
	return int(s.rows[i])
}

// indices returns the rows of s as indices into the data, a new slice
// that the caller may reorder.
func (s rowSet[T]) indices() []int32 {
	out := make([]int32, s.len())
	for i := range out {
		out[i] = int32(s.row(i))
	}
	return out
}

// targets returns the targets of s's rows, in order, row-major for
// several targets a row.
func (s rowSet[T]) targets() []T {
	ty := max(s.ty, 1)
	y := make([]T, s.len()*ty)
	for i := range s.len() {
		r := s.row(i)
		copy(y[i*ty:(i+1)*ty], s.y[r*ty:(r+1)*ty])
	}
	return y
}

// gather copies rows i, …, i+k−1 of s into the row-major xb and yb.
func (s rowSet[T]) gather(i, k int, xb, yb []T) {
	d := s.d
	for j := range k {
		r := s.row(i + j)
		copy(xb[j*d:(j+1)*d], s.x[r*d:(r+1)*d])
		if s.ty > 1 {
			copy(yb[j*s.ty:(j+1)*s.ty], s.y[r*s.ty:(r+1)*s.ty])
			continue
		}
		yb[j] = s.y[r]
	}
}

// checkRows returns an error wrapping ErrShape for a data set of more
// rows than a rowSet can index.
func checkRows(n int) error {
	if n > maxRows {
		return fmt.Errorf("%w: %d rows, at most %d", ErrShape, n, maxRows)
	}
	return nil
}

// checkTargetCells returns ErrNonFinite for a NaN or ±Inf among the
// targets y, ty a row; for several targets the error names the row and
// the target, since a missing cell of a table of several targets reaches
// AutoFit as NaN and AutoFit refuses it rather than train on a part of
// the row.
func checkTargetCells[T Float](y []T, ty int) error {
	if kernelsFor[T]().allFinite(y) {
		return nil
	}
	if ty == 1 {
		return ErrNonFinite
	}
	for i, v := range y {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: row %d, target %d is %v: a model of several targets needs every target of every row", ErrNonFinite, i/ty, i%ty, f)
		}
	}
	return nil
}
