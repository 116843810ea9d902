package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeColours writes a table of n rows of x, a colour of three and
// y = x + the colour's effect + noise, the last unseen rows of the colour
// purple, with an effect of +3, and returns its path.
func writeColours(t *testing.T, dir, name string, seed uint64, n, unseen int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 33))
	var b strings.Builder
	b.WriteString("x,colour,y\n")
	colours, effects := []string{"blue", "green", "red"}, []float64{-1, 0, 1}
	for i := range n {
		x, k := r.NormFloat64(), r.IntN(3)
		colour, effect := colours[k], effects[k]
		if i >= n-unseen {
			colour, effect = "purple", 3
		}
		fmt.Fprintf(&b, "%g,%s,%g\n", x, colour, x+effect+0.3*r.NormFloat64())
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEvalReportsUnseenLevelsApart checks eval and predict on test rows of
// a colour training never saw: predict marks their calibrated intervals
// unknown (−Inf, +Inf), counts them as outside and unseen and gives them
// input_z +Inf; eval's interval table is over the other rows, all finite, and a
// line reports the unseen rows and their Student-t coverage, as plot's
// summary does. Before, the
// calibrated widths and interval scores of the table were +Inf once the
// library marked those intervals unknown.
func TestEvalReportsUnseenLevelsApart(t *testing.T) {
	dir := t.TempDir()
	train := writeColours(t, dir, "train.csv", 1, 300, 0)
	test := writeColours(t, dir, "test.csv", 2, 100, 20)
	model := filepath.Join(dir, "m.gcpm")
	if _, stderr, err := gcpRun("train", "-data", train, "-o", model, "-members", "1", "-epochs", "40", "-lr", "0.003", "-dropout", "0", "-hidden", "8", "-seed", "1"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	stdout, _, err := gcpRun("predict", "-model", model, "-data", test)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readPredict(t, stdout)
	for i, r := range rows {
		lo, z, outside, n := r.num(t, "lo95_cal"), r.num(t, "input_z"), r.num(t, "outside"), r.num(t, "unseen")
		// A known row may still have an x beyond the training range.
		if unseen := i >= 80; unseen != math.IsInf(lo, -1) || unseen != math.IsInf(z, 1) || unseen && outside < 1 || unseen != (n == 1) {
			t.Fatalf("row %d (unseen: %t): lo95_cal %v, input_z %v, outside %v, unseen %v", i, unseen, lo, z, outside, n)
		}
	}
	stdout, _, err = gcpRun("eval", "-model", model, "-data", test)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "20 of 100 rows hold a level training never saw") {
		t.Fatalf("eval does not report the unseen rows apart:\n%s", stdout)
	}
	table := stdout[strings.Index(stdout, "predictive"):strings.Index(stdout, "20 of 100")]
	if strings.Contains(table, "Inf") {
		t.Errorf("eval's interval table holds infinities:\n%s", table)
	}
	stdout, stderr, err := gcpRun("plot", "-model", model, "-data", test, "-o", filepath.Join(dir, "p.png"))
	if err != nil || !strings.Contains(stdout+stderr, "; 20 rows hold a level training never saw") {
		t.Errorf("plot: %v; its summary does not name the unseen rows:\n%s%s", err, stdout, stderr)
	}
}
