package main

import (
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/filetest"
	"github.com/gcpnet/gcp/table"
)

// TestPlot trains an ensemble and a single network on the synthetic data,
// plots a test file with and without its targets, and checks the image's
// panels and the coverage it reports against gcp predict's intervals.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	trainCSV := writeSynthetic(t, dir, "train.csv", 1, 300, false)
	testCSV := writeSynthetic(t, dir, "test.csv", 2, 80, false)
	testX := writeSynthetic(t, dir, "test_x.csv", 2, 80, true)
	// An ensemble and a network trained on all rows, and a network of
	// the automatic recipe, which has conformal intervals.
	for _, c := range []struct {
		name         string
		args         []string
		titles, bare string // with targets and without
	}{
		{"members=5", []string{"-validation", "0", "-epochs", "60", "-members", "5"}, "predictions, calibration, PIT, disagreement", "predictions, disagreement"},
		{"members=1", []string{"-validation", "0", "-epochs", "60", "-members", "1"}, "predictions, calibration, PIT", "predictions"},
		{"conformal", []string{"-epochs", "30", "-lr", "0.003", "-dropout", "0", "-members", "1"}, "predictions, calibration, PIT", "predictions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := filepath.Join(dir, c.name+".gcpm")
			if _, stderr, err := gcpRun(append([]string{"train", "-data", trainCSV, "-o", model}, c.args...)...); err != nil {
				t.Fatalf("train: %v; stderr %q", err, stderr)
			}
			out := filepath.Join(dir, c.name+".png")
			_, stderr, err := gcpRun("plot", "-model", model, "-data", testCSV, "-o", out)
			if err != nil {
				t.Fatalf("plot: %v", err)
			}
			stderr = withoutRangeWarning(t, stderr)
			want := fmt.Sprintf("wrote %s: %s, for the 80 rows of %s by rank of the predicted mean\n", out, c.titles, testCSV)
			if !strings.HasPrefix(stderr, want) {
				t.Errorf("plot said %q, want it to start with %q", stderr, want)
			}
			checkPanels(t, out, strings.Count(c.titles, ",")+1)
			if got, want := stderr[len(want):], predictCoverage(t, model, testCSV); got != want {
				t.Errorf("plot reported %q, gcp predict's intervals give %q", got, want)
			}
			if strings.Contains(stderr, "the conformal ones") != (c.name == "conformal") {
				t.Errorf("plot said %q: want the conformal intervals' coverage exactly for the automatic recipe's model", stderr)
			}

			// Without targets: the predictions panel, and the disagreement of
			// an ensemble.
			_, stderr, err = gcpRun("plot", "-model", model, "-data", testX, "-o", out, "-x", "a")
			if err != nil {
				t.Fatalf("plot without targets: %v", err)
			}
			stderr = withoutRangeWarning(t, stderr)
			want = fmt.Sprintf("wrote %s: %s, for the 80 rows of %s by a\n%s has no target column: no targets drawn, no calibration panel\n",
				out, c.bare, testX, testX)
			if stderr != want {
				t.Errorf("plot without targets said %q, want %q", stderr, want)
			}
			checkPanels(t, out, strings.Count(c.bare, ",")+1)
		})
	}
}

// withoutRangeWarning returns stderr without its first line, which must
// be warnOutside's: the test files' random rows reach a little beyond the
// training file's range.
func withoutRangeWarning(t *testing.T, stderr string) string {
	t.Helper()
	first, rest, _ := strings.Cut(stderr, "\n")
	if !strings.HasPrefix(first, "warning: 2 of 80 rows lie outside the training data's range") {
		t.Fatalf("plot's first line is %q, want the warning about the rows outside the training range", first)
	}
	return rest
}

// checkPanels fails unless path is a PNG of n panels side by side.
func checkPanels(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != n*plotPanelW || b.Dy() != plotPanelH {
		t.Errorf("%s is %v, want %d panels of %d×%d", path, b, n, plotPanelW, plotPanelH)
	}
}

// predictCoverage returns the coverage line gcp plot should print for
// model on data, counted from gcp predict's 95% intervals and the file's
// targets.
func predictCoverage(t *testing.T, model, data string) string {
	t.Helper()
	stdout, _, err := gcpRun("predict", "-model", model, "-data", data)
	if err != nil {
		t.Fatalf("predict: %v", err)
	}
	tab, err := table.ReadFile(data, table.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	_, y, err := tab.Split("y")
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readPredict(t, stdout)
	outsideCal, outsideT, insideConf := 0, 0, 0
	for i, r := range rows {
		if !(r.num(t, "lo95_cal") <= y[i] && y[i] <= r.num(t, "hi95_cal")) {
			outsideCal++
		}
		if !(r.num(t, "lo95_student_t") <= y[i] && y[i] <= r.num(t, "hi95_student_t")) {
			outsideT++
		}
		if slices.Contains(header, "lo95_conformal") && r.num(t, "lo95_conformal") <= y[i] && y[i] <= r.num(t, "hi95_conformal") {
			insideConf++
		}
	}
	n := float64(len(y))
	conf := ""
	if slices.Contains(header, "lo95_conformal") {
		conf = fmt.Sprintf(", the conformal ones %.3f", float64(insideConf)/n)
	}
	return fmt.Sprintf("the calibrated 95%% intervals hold %.3f of the targets (%d of %d outside, drawn red), the Student-t ones %.3f%s\n",
		1-float64(outsideCal)/n, outsideCal, len(y), 1-float64(outsideT)/n, conf)
}

// TestPlotAxis checks the order of the rows along each horizontal axis.
func TestPlotAxis(t *testing.T) {
	preds := []gcp.Prediction{{Mean: 5}, {Mean: -1}, {Mean: 7}, {Mean: 0}}
	for _, c := range []struct {
		column string
		v      []float64
		order  []int
		xs     []float64
	}{
		{"", nil, []int{1, 3, 0, 2}, []float64{1, 2, 3, 4}},
		{"a", []float64{3, 1, 2, 1}, []int{1, 3, 2, 0}, []float64{1, 1, 2, 3}}, // stable: row 1 before row 3
	} {
		order, xs, _ := plotAxis(preds, c.v, c.column)
		if fmt.Sprint(order, xs) != fmt.Sprint(c.order, c.xs) {
			t.Errorf("plotAxis(%q) = %v, %v; want %v, %v", c.column, order, xs, c.order, c.xs)
		}
	}
}

// TestAxisValuesSkipsMissing checks that the -x column's numbers are
// those of the rows where it is not missing (empty, NA), with those
// rows, and that a column -x does not find or a text cell is an error.
func TestAxisValuesSkipsMissing(t *testing.T) {
	tab, err := table.Read(strings.NewReader("a,y,c\n3,0,p\n,0,q\n2,0,r\nNA,0,s\n1.5,0,t\n"), "t.csv", table.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	v, rows, err := axisValues(tab, "a")
	if err != nil || fmt.Sprint(v, rows) != fmt.Sprint([]float64{3, 2, 1.5}, []int{0, 2, 4}) {
		t.Errorf("axisValues(a) = %v, %v, %v; want [3 2 1.5] [0 2 4]", v, rows, err)
	}
	if _, _, err := axisValues(tab, "b"); err == nil || !strings.Contains(err.Error(), "-x b: t.csv has no such column (it has a, y, c)") {
		t.Errorf("axisValues(b): %v", err)
	}
	if _, _, err := axisValues(tab, "c"); err == nil {
		t.Errorf("axisValues(c), a text column: no error")
	}
}

// quickModel writes 80 rows of the synthetic data set to dir/d.csv and a
// model trained on them for two epochs to dir/m.gcpm, and returns their
// paths: a model to draw, not a good one.
func quickModel(t *testing.T, dir string) (data, model string) {
	t.Helper()
	data = writeSynthetic(t, dir, "d.csv", 1, 80, false)
	model = filepath.Join(dir, "m.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "2", "-members", "1"); err != nil {
		t.Fatalf("train: %v; stderr %q", err, stderr)
	}
	return data, model
}

// TestPlotSkipsMissingAxis checks that plot -x draws the rows whose -x
// cell is present and says on stderr how many it left out.
// regression: one missing cell stopped plot ("-x a: … missing value").
func TestPlotSkipsMissingAxis(t *testing.T) {
	dir := t.TempDir()
	data, model := quickModel(t, dir)
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for _, k := range []int{2, 5, 9} { // a is the first column
		lines[k] = lines[k][strings.Index(lines[k], ","):]
	}
	test := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(test, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "p.png")
	_, stderr, err := gcpRun("plot", "-model", model, "-data", test, "-x", "a", "-o", png)
	n := len(lines) - 1
	want := fmt.Sprintf("%s: 3 of %d rows have no -x a (missing): left out of every panel\n", test, n)
	if err != nil || !strings.Contains(stderr, want) || !strings.Contains(stderr, fmt.Sprintf("for the %d rows of %s by a", n-3, test)) {
		t.Errorf("plot -x a with 3 missing cells: %v; stderr:\n%s\nwant it to contain %q and the %d rows drawn", err, stderr, want, n-3)
	}
	if _, err := os.Stat(png); err != nil {
		t.Errorf("no image: %v", err)
	}
}

// TestPlotRefuses checks that plot writes nothing but a .png file and
// names a column -x does not find.
func TestPlotRefuses(t *testing.T) {
	dir := t.TempDir()
	data, model := quickModel(t, dir)
	before, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", model}, "-o " + model + ": want a file name ending in .png"},
		{[]string{"-o", filepath.Join(dir, "p.png"), "-x", "nope"}, "-x nope: " + data + " has no such column (it has a, b, c, y)"},
	} {
		args := append([]string{"plot", "-model", model, "-data", data}, c.args...)
		if _, _, err := gcpRun(args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("plot %v: %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if after, err := os.ReadFile(model); err != nil || string(after) != string(before) {
		t.Errorf("the model file changed (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "p.png")); !os.IsNotExist(err) {
		t.Errorf("a failed plot left p.png behind (%v)", err)
	}
}

// namedModel is a model that knows only its names, for targetLabel.
type namedModel struct {
	model
	target string
}

func (n namedModel) columns() ([]string, string) { return []string{"a"}, n.target }

// TestTargetLabel checks the vertical axis's name: -target, else the
// model's target, else "target".
func TestTargetLabel(t *testing.T) {
	for _, c := range []struct{ flag, model, want string }{
		{"price", "y", "price"}, {"", "y", "y"}, {"", "", "target"},
	} {
		if got := targetLabel(namedModel{target: c.model}, c.flag); got != c.want {
			t.Errorf("targetLabel(-target %q, model's %q) = %q, want %q", c.flag, c.model, got, c.want)
		}
	}
}

// TestPlotOutputNeverReplacesInputs checks that gcp plot's -o never
// replaces an input: the data or model file reached through a symbolic
// link, a hard link or its own name is refused even with -force, and an
// existing file that is not a PNG without it, each left as it was; -force
// then replaces the file that is not a PNG, and plot writes over its own PNG.
// regression: "ln -s d.csv p.png; gcp plot -data d.csv -o p.png" turned the data into a PNG (N1 of issue 26).
func TestPlotOutputNeverReplacesInputs(t *testing.T) {
	if runtime.GOOS == "wasip1" {
		t.Skip("WASI has no portable links")
	}
	dir := t.TempDir()
	data, model := smallModel(t, dir)
	link := func(make func(string, string) error, target, name string) string {
		path := filepath.Join(dir, name)
		if err := make(target, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sym := link(os.Symlink, data, "sym.png")
	hard := link(os.Link, data, "hard.png")
	dataPNG := link(os.Link, data, "d.png")
	modelPNG := link(os.Link, model, "m.png")
	notes := filepath.Join(dir, "notes.png")
	if err := os.WriteFile(notes, []byte("not an image\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dataText, modelText := filetest.Read(t, data), filetest.Read(t, model)
	for _, c := range []struct {
		model, data, out string
		want             error
	}{
		{model, data, sym, atomicfile.ErrInput},
		{model, data, hard, atomicfile.ErrInput},
		{model, dataPNG, dataPNG, atomicfile.ErrInput},
		{modelPNG, data, modelPNG, atomicfile.ErrInput},
		{model, data, notes, atomicfile.ErrForeign},
	} {
		for _, force := range []bool{false, true} {
			args := []string{"plot", "-model", c.model, "-data", c.data, "-o", c.out}
			if force {
				args = append(args, "-force")
			}
			_, _, err := gcpRun(args...)
			if force && c.want == atomicfile.ErrForeign {
				if err != nil {
					t.Errorf("%v: %v", args[1:], err)
				}
				continue
			}
			if !errors.Is(err, c.want) {
				t.Errorf("%v = %v, want %v", args[1:], err, c.want)
			}
		}
	}
	unchanged(t, data, dataText)
	unchanged(t, model, modelText)
	checkPanels(t, notes, 3) // intervals, calibration and the PIT histogram
	if _, _, err := gcpRun("plot", "-model", model, "-data", data, "-o", notes); err != nil {
		t.Errorf("plot over its own PNG: %v", err)
	}
}

// smallModel writes 40 rows of synthetic data to d.csv in dir and a
// network trained on them for two epochs to m.gcpm, for the tests that
// need a model and its data but not a good fit, and returns their paths.
func smallModel(t *testing.T, dir string) (data, model string) {
	t.Helper()
	data = writeSynthetic(t, dir, "d.csv", 1, 40, false)
	model = filepath.Join(dir, "m.gcpm")
	if _, _, err := gcpRun("train", "-data", data, "-o", model, "-validation", "0", "-epochs", "2", "-members", "1"); err != nil {
		t.Fatal(err)
	}
	return data, model
}
