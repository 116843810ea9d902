package table

import (
	"math/rand/v2"
	"testing"
)

// TestLineIndex checks line against the lines added, and that rows on
// consecutive lines take no entry of their own.
func TestLineIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x lineIndex
	var lines []int
	line := 2
	for row := range 1000 {
		x.add(row, line)
		lines = append(lines, line)
		line++
		if r.IntN(20) == 0 {
			line += 1 + r.IntN(3)
		}
	}
	for row, want := range lines {
		if got := x.line(row); got != want {
			t.Fatalf("line(%d) = %d, want %d", row, got, want)
		}
	}
	var plain lineIndex
	for row := range 1000 {
		plain.add(row, row+2)
	}
	if len(plain.rows) != 1 || plain.line(999) != 1001 {
		t.Errorf("rows on consecutive lines take %d entries, line(999) = %d", len(plain.rows), plain.line(999))
	}
	// Rows in another order than their lines (Table.Select).
	var back lineIndex
	for row := range 10 {
		back.add(row, 100-row)
	}
	for row := range 10 {
		if back.line(row) != 100-row {
			t.Errorf("line(%d) = %d, want %d", row, back.line(row), 100-row)
		}
	}
}
