package table

import "sort"

// lineIndex maps a row of a table to the 1-based line of the file on
// which it starts, in memory that grows with the jumps of the line
// number, not with the rows: most rows start on the line after the last
// one's, and only a row after an empty line or a field with a line break
// in it needs an entry. Rows are added in order.
type lineIndex struct {
	// At row rows[k] the line is lines[k]; up to the next entry each row
	// starts on the line after the last one's.
	rows, lines []int
}

// add records that row, the row after the last one added (or the first),
// starts on line.
func (x *lineIndex) add(row, line int) {
	if k := len(x.rows) - 1; k >= 0 && x.lines[k]+row-x.rows[k] == line {
		return
	}
	x.rows, x.lines = append(x.rows, row), append(x.lines, line)
}

// line returns the line of row, one of the rows added.
func (x *lineIndex) line(row int) int {
	k := sort.SearchInts(x.rows, row+1) - 1
	return x.lines[k] + row - x.rows[k]
}
