package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

// unnamedTwoTargets saves, in dir, a model of two targets of two inputs
// as a program saves one through the library, without column names, and
// writes a table of its features x1, x2 and its targets t1, t2: rows of
// (x1, x2, x1+x2, x1−x2).
func unnamedTwoTargets(t *testing.T, dir string) (*gcp.Model[float64], string, string) {
	t.Helper()
	m, err := gcp.New[float64](gcp.Config{Inputs: 2, Hidden: []int{4}, Targets: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "unnamed.gcpm")
	if err := gcp.SaveFile(model, m); err != nil {
		t.Fatal(err)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	var b strings.Builder
	b.WriteString("x1,x2,t1,t2\n")
	for _, r := range [][2]float64{{0.5, -1}, {1, 2}, {-0.25, 0.75}} {
		b.WriteString(strings.Join([]string{num(r[0]), num(r[1]), num(r[0] + r[1]), num(r[0] - r[1])}, ",") + "\n")
	}
	data := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return m, model, data
}

// TestPredictUnnamedSeveralTargets: a model of two targets saved without
// column names names its targets y1 and y2, and predict's header has as
// many fields as each row (it had one target's columns over two targets'
// values), with the means of the library's PredictMulti.
// regression: the header named one target "" for every target.
func TestPredictUnnamedSeveralTargets(t *testing.T) {
	m, model, data := unnamedTwoTargets(t, t.TempDir())
	stdout, _, err := gcpRun("predict", "-model", model, "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readNumbersCSV(t, stdout) // fails on a ragged file
	m1, m2 := slices.Index(header, "mean:y1"), slices.Index(header, "mean:y2")
	if m1 < 0 || m2 < 0 || len(rows) != 3 {
		t.Fatalf("header %q, %d rows: want mean:y1 and mean:y2, 3 rows", header, len(rows))
	}
	var p gcp.MultiPrediction
	ws := m.NewWorkspace()
	for i, x := range [][]float64{{0.5, -1}, {1, 2}, {-0.25, 0.75}} {
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		// 1e-12 relative: the command writes the shortest text that reads back.
		for j, col := range []int{m1, m2} {
			if got, want := rows[i][col], p.Mean(j); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("row %d: mean:y%d %v, want %v", i, j+1, got, want)
			}
		}
	}
}

// TestEvalUnnamedSeveralTargetsByPosition: eval reads an unnamed model's
// targets from the table's last two columns, its features from the first
// two, and scores them as the library's predictions do (RMSE:y1 and
// RMSE:y2); a table without the targets' columns is an error that says
// what the model takes.
func TestEvalUnnamedSeveralTargetsByPosition(t *testing.T) {
	dir := t.TempDir()
	m, model, data := unnamedTwoTargets(t, dir)
	stdout, _, err := gcpRun("eval", "-model", model, "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	got := parseMultiEval(stdout)
	var p gcp.MultiPrediction
	ws := m.NewWorkspace()
	var sq [2]float64
	for _, x := range [][]float64{{0.5, -1}, {1, 2}, {-0.25, 0.75}} {
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		for j, y := range []float64{x[0] + x[1], x[0] - x[1]} {
			sq[j] += (p.Mean(j) - y) * (p.Mean(j) - y)
		}
	}
	for j, key := range []string{"RMSE:y1", "RMSE:y2"} {
		// eval prints 6 significant digits.
		if want := math.Sqrt(sq[j] / 3); math.Abs(got[key]-want) > 1e-5*want {
			t.Errorf("%s %v, want %v", key, got[key], want)
		}
	}
	short := filepath.Join(dir, "features.csv")
	if err := os.WriteFile(short, []byte("x1,x2\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := gcpRun("eval", "-model", model, "-data", short); err == nil || !strings.Contains(err.Error(), "2 features first, then its 2 targets") {
		t.Errorf("eval on the features alone: %v, want an error naming 2 features then 2 targets", err)
	}
}
