package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/filetest"
	"github.com/gcpnet/gcp/table"
)

// TestReorderColumns checks the column check on real predictions: a file
// with the model's features in another order is refused, and with -reorder
// predicts exactly what the file in the model's order does.
func TestReorderColumns(t *testing.T) {
	dir := t.TempDir()
	trainCSV := writeSynthetic(t, dir, "train.csv", 1, 200, false)
	model := filepath.Join(dir, "m.gcpm")
	if _, _, err := gcpRun("train", "-data", trainCSV, "-o", model, "-epochs", "9", "-lr", "0.003", "-dropout", "0"); err != nil {
		t.Fatal(err)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	if names, target := m.FeatureNames(); strings.Join(names, ",") != "a,b,c" || target != "y" {
		t.Fatalf("the model keeps names %q and target %q, want a,b,c and y", names, target)
	}
	// The same rows with columns c,y,a,b.
	rows := readCSV(t, filetest.Read(t, trainCSV))
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join([]string{r[2], r[3], r[0], r[1]}, ",") + "\n")
	}
	shuffled := filepath.Join(dir, "shuffled.csv")
	if err := os.WriteFile(shuffled, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := gcpRun("predict", "-model", model, "-data", shuffled); err == nil ||
		!strings.Contains(err.Error(), "the same columns in another order") {
		t.Fatalf("predict on reordered columns: %v, want the order named", err)
	}
	want, _, err := gcpRun("predict", "-model", model, "-data", trainCSV)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := gcpRun("predict", "-model", model, "-data", shuffled, "-reorder")
	if err != nil || got != want {
		t.Fatalf("predict -reorder: %v; output equal to the ordered file's: %t", err, got == want)
	}
}

// TestTrainRefusesTooFewRows checks that zero flags on a file of fewer
// than 20 rows, too few to hold rows out to choose and calibrate on, are
// refused with gcp.ErrTooFewRows, naming the rows and the minimum and
// writing no model, and that -validation 0 still trains on every row
// and says it calibrated nothing.
// regression: 2 rows trained with exit 0, their "calibrated" 95%
// interval covering 30% of new targets.
func TestTrainRefusesTooFewRows(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{1, 2, 3, gcp.MinAutoFitRows - 1} {
		trainCSV := writeSynthetic(t, dir, "train.csv", 1, n, false)
		_, _, err := gcpRun("train", "-data", trainCSV, "-o", filepath.Join(dir, "m.gcpm"), "-epochs", "3")
		if n < 3 { // fewer rows than the three inputs: refused before the recipe
			if !errors.Is(err, table.ErrTooWide) {
				t.Errorf("train on %d rows of 3 inputs: %v, want table.ErrTooWide", n, err)
			}
		} else if want := fmt.Sprintf("too few rows: %d, want at least 20", n); !errors.Is(err, gcp.ErrTooFewRows) ||
			!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "-validation 0") {
			t.Errorf("train on %d rows: %v, want gcp.ErrTooFewRows saying %q and -validation 0", n, err, want)
		}
		filetest.Only(t, dir, "train.csv")
	}
	_, stderr, err := gcpRun("train", "-data", filepath.Join(dir, "train.csv"), "-o", filepath.Join(dir, "m.gcpm"), "-epochs", "3", "-validation", "0", "-members", "1")
	if err != nil || !strings.Contains(stderr, "trained gcp on all 19 rows: lr 0.001, dropout 0, 3 epochs (no held-out rows: no early stopping, no calibration)") {
		t.Errorf("train -validation 0 on 19 rows: %v; stderr %q", err, stderr)
	}
}

// TestTrainWarnsOfSmallData checks that zero flags on a file of 20 to 99
// rows train, holding out half of them below 60, and that the summary
// warns that the calibration of so few rows cannot be trusted, naming the
// rows and the 100 from which it can; on 100 rows it does not.
// regression: 50 rows were refused; before the 60-row floor, they trained
// without a word, their 95% intervals covering 0.44 of new rows.
func TestTrainWarnsOfSmallData(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		n    int
		want string
	}{
		{20, "on 10 rows, 10 held out"}, {50, "on 25 rows, 25 held out"}, {99, "on 69 rows, 30 held out"}, {100, "on 70 rows, 30 held out"},
	} {
		trainCSV := writeSynthetic(t, dir, "train.csv", 1, c.n, false)
		_, stderr, err := gcpRun("train", "-data", trainCSV, "-o", filepath.Join(dir, "m.gcpm"), "-epochs", "3", "-lr", "0.001", "-dropout", "0", "-hidden", "8", "-members", "1")
		warning := fmt.Sprintf("warning: trained on %d rows, fewer than the 100 from which the calibration can be trusted", c.n)
		if err != nil || !strings.Contains(stderr, c.want) || strings.Contains(stderr, warning) != (c.n < 100) || c.n >= 100 && strings.Contains(stderr, "warning:") {
			t.Errorf("train on %d rows: %v; stderr %q, want %q and the warning only under 100 rows", c.n, err, stderr, c.want)
		}
	}
}

// TestSplits runs the standard-split protocol on a small file with two
// test splits, once on the test rows and once with -inner, and checks the
// summary and the split file's validation.
func TestSplits(t *testing.T) {
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "toy.csv", 1, 100, false)
	if err := os.Mkdir(filepath.Join(dir, "splits"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, "splits", name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("toy_test_idx.txt", "0,1,2,3,4,5,6,7,8,9\n90,91,92,93,94,95,96,97,98,99\n")
	for _, inner := range []string{"-inner=false", "-inner"} {
		stdout, stderr, err := gcpRun("splits", "-data", data, "-epochs", "9", inner)
		if err != nil {
			t.Fatalf("splits %s: %v\n%s", inner, err, stderr)
		}
		// Two split lines, and the first says what it trained in: the
		// second decides alike and says nothing.
		if !strings.HasPrefix(stdout, "toy: 2 ") || !strings.Contains(stdout, "cover95_calibrated") || strings.Count(stderr, "split ") != 3 ||
			!strings.HasPrefix(stderr, "split 0 trained in float32 (the default; -float64 for double precision)\n") {
			t.Errorf("splits %s printed\n%s\n%s", inner, stdout, stderr)
		}
	}
	// -json names, per split, the transform the model works in, the
	// epoch of its ensemble's mean heads, never before the NLL's, and the
	// precision it trained in.
	stdout, stderr, err := gcpRun("splits", "-data", data, "-epochs", "9", "-json", "-n", "1")
	if err != nil {
		t.Fatalf("splits -json: %v\n%s", err, stderr)
	}
	var split struct {
		Transform string
		Epoch     int
		MeanEpoch int `json:"mean_epoch"`
		Precision string
	}
	if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &split); err != nil {
		t.Fatal(err)
	}
	if (split.Transform != "none" && split.Transform != "log") || split.Epoch < 1 || split.MeanEpoch < split.Epoch || split.Precision != "float32" {
		t.Errorf("splits -json: transform %q, epoch %d, mean heads' epoch %d, precision %q (want float32, the default), in\n%s", split.Transform, split.Epoch, split.MeanEpoch, split.Precision, stdout)
	}
	for _, tc := range []struct{ text, want string }{
		{"0,1,x\n", `"x" is not a new row number`},
		{"0,1,1\n", `"1" is not a new row number`},
		{"0,100\n", `"100" is not a new row number in 0..99`},
	} {
		bad := write("bad.txt", tc.text)
		if _, _, err := gcpRun("splits", "-data", data, "-splits", bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("split file %q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestAutoFitMatchesTrain checks that a program which reads a table as
// gcp train does (package table, gcp.LearnEncodingColumns) and calls
// gcp.AutoFit with the options of train's flags gets the model train
// writes, byte for byte, the target transform's choice included: the
// recipe is the library's, and the command only reads, parses and prints.
// The table's target is positive and skewed, and the log model is kept,
// so that the comparison of both transforms is under test; -members 1,
// -epochs 30 and -hidden 8 keep it to about a second.
func TestAutoFitMatchesTrain(t *testing.T) {
	dir := t.TempDir()
	data := writeTable(t, dir, "prices.csv", ",", '.', []string{"a", "b", "price"}, skewedRows(6, 150))
	model := filepath.Join(dir, "train.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-o", model, "-members", "1", "-epochs", "30", "-hidden", "8"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	tab, err := table.ReadFile(data, table.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	enc, rows, err := gcp.LearnEncodingColumns(tab.Header, tab.Columns, nil, "price", tab.Dialect.Decimal)
	if err != nil {
		t.Fatal(err)
	}
	cfg := gcp.Config{Inputs: enc.Inputs(), Members: 1, Hidden: []int{8}, Seed: 1}
	// In float32, train's default for a table float32 holds faithfully.
	m, res, err := gcp.AutoFit(cfg, gcp.TrainConfig{Seed: 1}, convert[float32](rows.X), convert[float32](rows.Y), gcp.AutoOptions{MaxEpochs: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Transform; !c.Compared || c.Transform != gcp.TransformLog {
		t.Fatalf("the table does not exercise the log model's choice: %s", c)
	}
	lib := filepath.Join(dir, "autofit.gcpm")
	if err := errors.Join(m.SetEncoding(enc), gcp.SaveFile(lib, m)); err != nil {
		t.Fatal(err)
	}
	if filetest.Read(t, lib) != filetest.Read(t, model) {
		t.Error("gcp.AutoFit's model differs from gcp train's")
	}
}
