package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
	"github.com/gcpnet/gcp/internal/filetest"
)

// gcpRun runs the command line args and returns what it wrote.
func gcpRun(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	err = run(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// noiseSD is the standard deviation of the synthetic target around its
// mean a + 2b − c: it grows with |a|, so a model that learns the variance
// ranks the rows with small |a| as the surest.
func noiseSD(a float64) float64 { return 0.05 + 0.3*math.Abs(a) }

// writeSynthetic writes n rows of the synthetic data set to dir/name,
// with the target column y unless features is set.
func writeSynthetic(t *testing.T, dir, name string, seed uint64, n int, features bool) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString("a,b,c")
	if !features {
		b.WriteString(",y")
	}
	b.WriteString("\n")
	for i := 0; i < n; i++ {
		a, bb, c := 2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1
		y := a + 2*bb - c + noiseSD(a)*r.NormFloat64()
		fmt.Fprintf(&b, "%g,%g,%g", a, bb, c)
		if !features {
			fmt.Fprintf(&b, ",%g", y)
		}
		b.WriteString("\n")
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readCSV parses the CSV text s.
func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v\n%s", err, s)
	}
	return recs
}

// predictRecord is one row of gcp predict's CSV, read by column name.
type predictRecord map[string]string

// readPredict parses predict's output into its header and its rows.
func readPredict(t *testing.T, s string) (header []string, rows []predictRecord) {
	t.Helper()
	recs := readCSV(t, s)
	for _, rec := range recs[1:] {
		r := predictRecord{}
		for j, name := range recs[0] {
			r[name] = rec[j]
		}
		rows = append(rows, r)
	}
	return recs[0], rows
}

// num returns the number in column name of r.
func (r predictRecord) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(r[name], 64)
	if err != nil {
		t.Fatalf("column %s: %q: %v", name, r[name], err)
	}
	return v
}

// TestTrainPredictEval trains on a small synthetic file in each element
// type, then checks predict's CSV and eval's measures.
func TestTrainPredictEval(t *testing.T) {
	dir := t.TempDir()
	trainCSV := writeSynthetic(t, dir, "train.csv", 1, 400, false)
	testCSV := writeSynthetic(t, dir, "test.csv", 2, 100, false)
	// The same rows as test.csv without the target: the same seed draws
	// the same numbers.
	testX := writeSynthetic(t, dir, "test_x.csv", 2, 100, true)
	// float32 trains the default ensemble, float64 one network
	// (-members 1): both summaries.
	for _, tc := range []struct{ typ, members, summary string }{
		{"-float32", "5", "trained an ensemble of 5 gcp networks on 360 rows, 40 held out: searched 6 single-network candidates"},
		{"-float64", "1", "trained gcp on 360 rows, 40 held out: searched 6 candidates"},
	} {
		typ := tc.typ
		t.Run(typ, func(t *testing.T) {
			model := filepath.Join(dir, "model"+typ+".gcpm")
			stdout, stderr, err := gcpRun("train", "-data", trainCSV, "-o", model,
				"-epochs", "150", "-lr", "0.003", "-seed", "3", "-members", tc.members, typ)
			// Off a terminal: no progress bar, and the summary on stderr:
			// what was read and chosen, then what trained.
			read := "read " + trainCSV + ": 400 rows (separator ',', decimal mark '.')\ntarget transform (-target-transform auto): none: some targets are not positive"
			if err != nil || stdout != "" || !strings.HasPrefix(stderr, read) || !strings.Contains(stderr, "\n"+tc.summary) ||
				strings.Contains(stderr, "\r") || !strings.Contains(stderr, "wrote "+model) {
				t.Fatalf("train: %v; stdout %q, stderr %q (want only the summary)", err, stdout, stderr)
			}

			stdout, _, err = gcpRun("predict", "-model", model, "-data", testCSV)
			if err != nil {
				t.Fatalf("predict: %v", err)
			}
			plain := stdout
			header, rows := readPredict(t, stdout)
			if got := strings.Join(header, ","); got != "mean,lo95_cal,hi95_cal,lo95_conformal,hi95_conformal,sd_corrected,lo95_student_t,hi95_student_t,sd_student_t,alpha,input_z,outside,unseen,sd_epistemic,disagreement" {
				t.Errorf("predict header %q", got)
			}
			if len(rows) != 100 {
				t.Fatalf("predict wrote %d rows, want 100", len(rows))
			}
			means := make([]float64, 100)
			for i, r := range rows {
				for _, name := range header {
					if v := r.num(t, name); math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("row %d: %s is %v, want a finite number", i+1, name, v)
					}
				}
				mean := r.num(t, "mean")
				if !(r.num(t, "sd_student_t") > 0 && r.num(t, "sd_corrected") > 0 && r.num(t, "alpha") > 0) {
					t.Errorf("row %d: %v, want positive sds and alpha", i+1, r)
				}
				for _, kind := range []string{"cal", "conformal", "student_t"} {
					if lo, hi := r.num(t, "lo95_"+kind), r.num(t, "hi95_"+kind); !(lo < mean && mean < hi) {
						t.Errorf("row %d: %s interval [%v, %v] does not hold the mean %v", i+1, kind, lo, hi, mean)
					}
				}
				// Numbers carry the digits of the model's type: a float32
				// model's are the shortest that read back as the same
				// float32, a float64 model's as the same float64.
				bits := 64
				if typ == "-float32" {
					bits = 32
				}
				if v, _ := strconv.ParseFloat(r["mean"], bits); strconv.FormatFloat(v, 'g', -1, bits) != r["mean"] {
					t.Errorf("row %d: mean %s is not the shortest float%d", i+1, r["mean"], bits)
				}
				means[i] = mean
			}

			// -levels and -id: the id column first, then each kind of
			// interval at each level, in order. The file has a column
			// "row" before the model's.
			var withID strings.Builder
			for i, line := range strings.Split(strings.TrimSpace(filetest.Read(t, testCSV)), "\n") {
				if i == 0 {
					fmt.Fprintf(&withID, "row,%s\n", line)
				} else {
					fmt.Fprintf(&withID, "%d,%s\n", 1000+i, line)
				}
			}
			idCSV := filepath.Join(dir, "test_id.csv")
			if err := os.WriteFile(idCSV, []byte(withID.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, _, err = gcpRun("predict", "-model", model, "-data", idCSV, "-levels", "0.5, 0.975", "-id", "row")
			if err != nil {
				t.Fatalf("predict -levels -id: %v", err)
			}
			header, idRows := readPredict(t, stdout)
			if got := strings.Join(header[:11], ","); got != "row,mean,lo50_cal,hi50_cal,lo97.5_cal,hi97.5_cal,lo50_conformal,hi50_conformal,lo97.5_conformal,hi97.5_conformal,sd_corrected" {
				t.Errorf("predict -levels 0.5,0.975 -id row: header %q", got)
			}
			for i, r := range idRows {
				if r["row"] != strconv.Itoa(1001+i) || r["mean"] != rows[i]["mean"] {
					t.Errorf("row %d: id %s and mean %s, want %d and the mean without -id, %s", i+1, r["row"], r["mean"], 1001+i, rows[i]["mean"])
				}
			}

			features, _, err := gcpRun("predict", "-model", model, "-data", testX)
			if err != nil || features != plain {
				t.Errorf("predict on the file without its target: %v; output differs: %t", err, features != plain)
			}

			stdout, _, err = gcpRun("eval", "-model", model, "-data", testCSV)
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			t.Logf("eval:\n%s", stdout)
			got := parseEval(t, stdout)
			if len(got) != 8+2*(1+3*len(calibrationLevels))+3*len(calibrationLevels)+2 || got["N"] != 100 {
				t.Fatalf("eval printed %v, want N = 100, 7 measures, three interval blocks and two PIT histograms", got)
			}
			// The noise alone has an RMSE of √E[(0.05+0.3|a|)²] ≈ 0.21
			// for a ~ U(−1, 1); 0.3 leaves room for the fit of 400 rows.
			if r := got["RMSE"]; !(r < 0.3) {
				t.Errorf("RMSE = %v, want < 0.3", r)
			}
			// Ranking by a learned variance that grows with |a| puts the
			// small errors first, so the curve's area is well below the
			// RMSE.
			if !(got["RMSE_curve_area"] < 0.9*got["RMSE"] && got["RMSE_curve_area_corr"] < 0.9*got["RMSE"]) {
				t.Errorf("RMSE_curve_area = %v, _corr = %v, want below 0.9·RMSE = %v", got["RMSE_curve_area"], got["RMSE_curve_area_corr"], 0.9*got["RMSE"])
			}
			// Calibrated on 40 held-out rows, the 95% intervals cover
			// 0.96 of these 100 rows with -seed 3; the binomial sd of a
			// share of 100 rows is about 0.022 at 95%, and [0.85, 1] is
			// about 4.5 sd below it, so only a broken calibration fails.
			for _, k := range []string{"student-t", "calibrated", "conformal"} {
				if c := got[k+" 95%"]; !(c >= 0.85 && c <= 1) {
					t.Errorf("%s coverage at 95%% = %v, want in [0.85, 1]", k, c)
				}
				if nll, ok := got[k+" NLL"]; ok == (k == "conformal") || math.IsNaN(nll) || math.IsInf(nll, 0) {
					t.Errorf("%s NLL = %v (%t), want a finite one, and none for the conformal intervals", k, nll, ok)
				}
			}
			// The CRPS lies between 0 and the mean absolute error of the
			// means (its value for a point mass at the mean, which a
			// proper score ranks below a calibrated spread), and the
			// miscalibration area between 0 and ½.
			for _, k := range []string{"", "_calibrated"} {
				if c := got["CRPS"+k]; !(c > 0 && c < got["RMSE"]) {
					t.Errorf("CRPS%s = %v, want in (0, RMSE = %v)", k, c, got["RMSE"])
				}
				if a := got["miscalibration_area"+k]; !(a >= 0 && a <= 0.5) {
					t.Errorf("miscalibration_area%s = %v, want in [0, ½]", k, a)
				}
			}
			// Each PIT histogram's shares sum to 1.
			for _, k := range []string{"student-t", "calibrated"} {
				if s := got[k+" PIT"]; math.Abs(s-1) > 1e-9 {
					t.Errorf("%s PIT shares sum to %v, want 1", k, s)
				}
			}
			// eval's RMSE is that of predict's means, up to the 6
			// significant digits eval prints.
			tab := readCSV(t, filetest.Read(t, testCSV))
			var ss float64
			for i, rec := range tab[1:] {
				y, _ := strconv.ParseFloat(rec[3], 64)
				ss += (means[i] - y) * (means[i] - y)
			}
			if r := math.Sqrt(ss / 100); math.Abs(r-got["RMSE"]) > 1e-5*r {
				t.Errorf("eval RMSE %v, RMSE of predict's means %v", got["RMSE"], r)
			}
		})
	}
	// SaveFile renames its temporary file over the model: nothing else
	// may be left in the directory.
	filetest.Only(t, dir, "model-float32.gcpm", "model-float64.gcpm", "test.csv", "test_id.csv", "test_x.csv", "train.csv")
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bad := write("bad.csv", "a,b,y\n1,2,3\n4,5,oops\n")
	ragged := write("ragged.csv", "a,b,y\n1,2,3\n4,5\n")
	good := write("good.csv", "a,b,y\n1,2,3\n4,5,6\n2,1,0\n")
	wide := write("wide.csv", "a,b,c,d,y\n1,2,3,4,5\n")
	swapped := write("swapped.csv", "b,a,y\n2,1,3\n")
	onlyB := write("onlyb.csv", "x,b,y\n2,1,3\n")
	unnamed := filepath.Join("..", "..", "testdata", "model_v1_float64.gcpm")
	model := filepath.Join(dir, "m.gcpm")
	if _, _, err := gcpRun("train", "-data", good, "-o", model, "-epochs", "1", "-validation", "0"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // a part of the error message
	}{
		{"no command", nil, "no command"},
		{"unknown command", []string{"fit"}, `unknown command "fit"`},
		{"non-number target", []string{"train", "-data", bad, "-o", model}, bad + `: line 3, column 3 (y): not a number: "oops"`},
		{"ragged row", []string{"train", "-data", ragged, "-o", model}, ragged + ": line 3: wrong number of fields: 2, the header has 3"},
		{"missing -data", []string{"train", "-o", model}, "train: -data is required"},
		{"missing -o", []string{"train", "-data", good}, "train: -o is required"},
		{"unknown flag", []string{"train", "-bogus"}, "train: flag provided but not defined: -bogus"},
		{"stray argument", []string{"eval", "-model", model, "-data", good, "extra"}, `eval: unexpected argument "extra"`},
		{"two element types", []string{"train", "-data", good, "-o", model, "-float32", "-float64"}, "exclude each other"},
		{"bad -hidden", []string{"train", "-data", good, "-o", model, "-hidden", "50,x"}, `-hidden "50,x"`},
		{"bad -optimizer", []string{"train", "-data", good, "-o", model, "-optimizer", "adagrad"}, `-optimizer "adagrad"`},
		{"negative -epochs", []string{"train", "-data", good, "-o", model, "-epochs", "-1"}, "no negative value"},
		{"zero -lr", []string{"train", "-data", good, "-o", model, "-lr", "0"}, "-lr 0: want a positive learning rate"},
		{"missing target", []string{"train", "-data", good, "-o", model, "-target", "price"}, `line 1: no such column "price"`},
		{"no output directory", []string{"train", "-data", good, "-o", filepath.Join(dir, "no", "m.gcpm")}, "no directory"},
		{"missing -model", []string{"predict", "-data", good}, "predict: -model is required"},
		{"extra columns for predict", []string{"predict", "-model", model, "-data", wide}, "(not features of the model: c, d); the model takes a, b in this order"},
		{"extra columns for eval", []string{"eval", "-model", model, "-data", wide}, "(not features of the model: c, d)"},
		{"swapped columns", []string{"eval", "-model", model, "-data", swapped}, "(the same columns in another order); the model takes a, b in this order; -reorder"},
		{"missing column", []string{"predict", "-model", model, "-data", onlyB}, "(missing a; not features of the model: x)"},
		{"missing column with -reorder", []string{"predict", "-model", model, "-data", onlyB, "-reorder"}, `no such column "a"`},
		// A model saved without names (format version 1, 2 inputs) takes
		// the columns by position.
		{"wrong width for predict", []string{"predict", "-model", unnamed, "-data", wide}, "5 columns, all features; the model takes 2 features"},
		{"wrong width for predict with -target", []string{"predict", "-model", unnamed, "-data", wide, "-target", "y"}, "4 feature columns besides the target y; the model takes 2"},
		{"wrong width for eval", []string{"eval", "-model", unnamed, "-data", wide}, "4 feature columns besides the target y; the model takes 2"},
		{"eval without the target", []string{"eval", "-model", model, "-data", good, "-target", "z"}, `no such column "z"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := gcpRun(tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	// A file that is not a model gives the library's sentinel error.
	if _, _, err := gcpRun("predict", "-model", good, "-data", good); !errors.Is(err, gcp.ErrMagic) {
		t.Errorf("predict with a CSV as the model: %v, want gcp.ErrMagic", err)
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"train", "predict", "eval", "repro", "demo"} {
		stdout, _, err := gcpRun(cmd, "-h")
		if err != nil || !strings.HasPrefix(stdout, "usage: gcp "+cmd) {
			t.Errorf("gcp %s -h: %v, stdout %q; want usage on stdout and no error", cmd, err, stdout)
		}
	}
	stdout, _, err := gcpRun("help")
	if err != nil || !strings.Contains(stdout, "train") || !strings.Contains(stdout, "eval") {
		t.Errorf("gcp help: %v, %q", err, stdout)
	}
}

// failWriter fails every write, as stdout redirected to /dev/full does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpWriteError checks that help that cannot be written is an
// error, so that the command exits non-zero.
// regression: gcp help > /dev/full exited 0.
func TestHelpWriteError(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "train"}, {"train", "-h"}, {"version", "-h"}} {
		var stderr bytes.Buffer
		if err := run(args, failWriter{}, &stderr); err == nil || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("gcp %s with stdout failing: %v, want the write error", strings.Join(args, " "), err)
		}
	}
}

// TestHelpCommand checks that gcp help CMD prints CMD's help, as
// gcp CMD -h does, and refuses an unknown CMD.
// regression: it printed the general help.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range []string{"train", "predict", "eval", "plot", "repro", "splits", "demo", "version"} {
		stdout, _, err := gcpRun("help", cmd)
		want, _, _ := gcpRun(cmd, "-h")
		if err != nil || !strings.HasPrefix(stdout, "usage: gcp "+cmd) || stdout != want {
			t.Errorf("gcp help %s: %v, stdout starting %.40q; want gcp %s -h's usage, starting %.40q", cmd, err, stdout, cmd, want)
		}
	}
	if _, stderr, err := gcpRun("help", "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(stderr, "commands:") {
		t.Errorf("gcp help nope: %v, stderr %q; want an error naming it and the commands on stderr", err, stderr)
	}
}

// TestErrorLineNamesGcpOnce checks the line main prints for an -o that
// holds another kind of file, a device, and a model file that is not
// one: "gcp: " once, though the package's errors start with it too.
// regression: "gcp: train: -o FILE: gcp: path holds a file of another kind".
func TestErrorLineNamesGcpOnce(t *testing.T) {
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "d.csv", 1, 20, false)
	foreign := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(foreign, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"train", "-data", data, "-o", foreign, "-epochs", "1"},
		{"plot", "-model", foreign, "-data", data, "-o", filepath.Join(dir, "p.png")},
	} {
		_, _, err := gcpRun(args...)
		if line := errorLine(err); err == nil || strings.Count(line, "gcp:") != 1 {
			t.Errorf("gcp %s: %q, want one \"gcp:\"", strings.Join(args, " "), line)
		}
	}
}

func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs") // demo creates it
	stdout, _, err := gcpRun("demo", "-o", dir, "-epochs", "20")
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, stdout)
	}
	// Two tables: the rows of Sec. 6.2 and of Sec. 6.3.
	for _, want := range []string{"Sec. 6.2", "Sec. 6.3", "\nGCP ", "\nML ", "\nML_Bayes ", "\nDPD ", "\nGCP_corr ", "\nGCP x5 ", "\nGCP_corr x5 ", "\nPBP ", "\nSVGD "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "\nGCP   "); n != 2 {
		t.Errorf("%d GCP rows, want one per experiment", n)
	}
	for name, size := range map[string]image.Point{
		"aleatoric-epistemic.png": {960, 1440}, // 2×4 panels of 480×360 (seven methods)
		"outliers.png":            {1440, 360},
		"rmse-curve.png":          {640, 420},
	} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("demo did not write %s: %v", name, err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s is not a PNG: %v", name, err)
		} else if img.Bounds().Size() != size {
			t.Errorf("%s: size %v, want %v", name, img.Bounds().Size(), size)
		}
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-o", file}, {"-o", dir, "-epochs", "-1"}} {
		if _, _, err := gcpRun(append([]string{"demo"}, args...)...); err == nil {
			t.Errorf("demo %v succeeded", args)
		}
	}
}

// TestTrainRejectsDirectoryOutput checks that -o naming a directory fails
// before any training, not at the final rename.
func TestTrainRejectsDirectoryOutput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte("x,y\n1,2\n2,3\n3,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"train", "-data", data, "-o", dir, "-epochs", "1"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("train -o DIR = %v, want an error saying it is a directory", err)
	}
}

// TestRankedAUCAllInfinite checks that eval reports no AUC when every
// variance is +Inf, where the ranking would be the file's row order.
func TestRankedAUCAllInfinite(t *testing.T) {
	inf := math.Inf(1)
	got, err := rankedAUC([]float64{0, 1, 2}, []float64{1, 1, 1}, []float64{inf, inf, inf})
	if err != nil || !math.IsNaN(got) {
		t.Errorf("rankedAUC with all-infinite variances = %v, %v; want NaN", got, err)
	}
	got, err = rankedAUC([]float64{0, 1}, []float64{0, 3}, []float64{1, inf})
	if err != nil || math.IsNaN(got) {
		t.Errorf("rankedAUC with a finite variance = %v, %v; want a number", got, err)
	}
}

// parseEval reads eval's output into "name" → value for the measures,
// "predictive NLL" and "predictive level%" → coverage for the interval
// table, "predictive level% width" and "… score" for its other columns,
// and "predictive PIT" → the sum of a PIT histogram's shares.
func parseEval(t *testing.T, out string) map[string]float64 {
	t.Helper()
	blocks := strings.Split(strings.TrimSpace(out), "\n\n")
	if len(blocks) != 3 {
		t.Fatalf("eval output has %d blocks, want measures, the interval table and the PIT histograms:\n%s", len(blocks), out)
	}
	got := map[string]float64{}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil {
			t.Fatalf("eval: %q: %v\n%s", s, err, out)
		}
		return v
	}
	for _, line := range strings.Split(blocks[0], "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("eval line %q, want a name and a value", line)
		}
		got[f[0]] = num(f[1])
	}
	var predictive string
	for _, line := range strings.Split(blocks[1], "\n")[1:] {
		f := strings.Fields(line)
		if len(f) == 6 {
			predictive = f[0]
			if f[1] != "-" {
				got[predictive+" NLL"] = num(f[1])
			}
			f = f[2:]
		}
		if len(f) != 4 {
			t.Fatalf("eval table line %q", line)
		}
		got[predictive+" "+f[0]] = num(f[1])
		got[predictive+" "+f[0]+" width"] = num(f[2])
		got[predictive+" "+f[0]+" score"] = num(f[3])
	}
	for _, line := range strings.Split(blocks[2], "\n")[1:] {
		f := strings.Fields(line)
		if len(f) != 1+pitBins {
			t.Fatalf("eval PIT line %q, want a name and %d shares", line, pitBins)
		}
		for _, s := range f[1:] {
			got[f[0]+" PIT"] += num(s)
		}
	}
	return got
}

// TestTrainMethod trains each comparator: the saved model has the loss,
// ml_bayes a dropout rate above 0 (the search leaves 0 out), and predict
// reports the Gaussian predictive: alpha +Inf and sd_corrected equal to
// sd.
func TestTrainMethod(t *testing.T) {
	dir := t.TempDir()
	trainCSV := writeSynthetic(t, dir, "train.csv", 1, 200, false)
	for _, c := range []struct {
		method  string
		loss    gcp.Loss
		dropout float64
	}{{"ml", gcp.LossGaussianML, 0}, {"ML_Bayes", gcp.LossMLBayes, 0.1}, {"dpd", gcp.LossDPD, 0}} {
		model := filepath.Join(dir, c.method+".gcpm")
		if _, _, err := gcpRun("train", "-data", trainCSV, "-o", model, "-epochs", "5", "-method", c.method); err != nil {
			t.Fatalf("train -method %s: %v", c.method, err)
		}
		m, err := gcp.LoadFile[float64](model)
		if err != nil {
			t.Fatal(err)
		}
		if cfg := m.Config(); cfg.Loss != c.loss || cfg.Dropout < c.dropout {
			t.Errorf("-method %s: Loss %v, Dropout %v; want %v, at least %v", c.method, cfg.Loss, cfg.Dropout, c.loss, c.dropout)
		}
		stdout, _, err := gcpRun("predict", "-model", model, "-data", trainCSV)
		if err != nil {
			t.Fatal(err)
		}
		_, rows := readPredict(t, stdout)
		if row := rows[0]; row["sd_student_t"] != row["sd_corrected"] || row["alpha"] != "+Inf" {
			t.Errorf("-method %s: predict row %v, want sd_student_t = sd_corrected and alpha +Inf", c.method, row)
		}
	}
	if _, _, err := gcpRun("train", "-data", trainCSV, "-o", filepath.Join(dir, "x.gcpm"), "-method", "bnn"); err == nil {
		t.Error("train -method bnn succeeded")
	}
}

// TestTrainBayes trains each comparator of package bayes with gcp train
// and reads it back with eval and predict: the file is that method's
// model, the predictions are its Gaussians or their mixture (alpha +Inf,
// sd = sd_corrected, an epistemic part), and flags it has no use for are
// refused.
func TestTrainBayes(t *testing.T) {
	dir := t.TempDir()
	trainCSV := writeSynthetic(t, dir, "train.csv", 1, 200, false)
	for _, c := range []struct {
		method, summary, unused string
		load                    func([]byte) error
	}{
		{"pbp", "trained pbp on all 200 rows: 3 epochs, hidden 50", "-lr", func(b []byte) error { return new(bayes.PBP).UnmarshalBinary(b) }},
		{"svgd", "trained svgd on all 200 rows: lr 0.002, 3 iterations of batch 100, hidden 50", "-members", func(b []byte) error { return new(bayes.SVGD).UnmarshalBinary(b) }},
	} {
		model := filepath.Join(dir, c.method+".gcpm")
		args := []string{"train", "-data", trainCSV, "-o", model, "-epochs", "3", "-method", c.method}
		if c.method == "svgd" {
			args = append(args, "-lr", "0.002")
		}
		_, stderr, err := gcpRun(args...)
		if err != nil {
			t.Fatalf("train -method %s: %v", c.method, err)
		}
		if !strings.Contains(stderr, c.summary) {
			t.Errorf("train's summary %q does not say %q", stderr, c.summary)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.load(b); err != nil {
			t.Fatalf("the saved file is no %s model: %v", c.method, err)
		}
		stdout, _, err := gcpRun("predict", "-model", model, "-data", trainCSV)
		if err != nil {
			t.Fatal(err)
		}
		header, rows := readPredict(t, stdout)
		if row := rows[0]; row["sd_student_t"] != row["sd_corrected"] || row["alpha"] != "+Inf" || row["sd_epistemic"] == "0" || slices.Contains(header, "lo95_conformal") {
			t.Errorf("%s: predict row %v, want sd_student_t = sd_corrected, alpha +Inf, a positive sd_epistemic and no conformal interval", c.method, row)
		}
		stdout, _, err = gcpRun("eval", "-model", model, "-data", trainCSV)
		if err != nil || parseEval(t, stdout)["N"] != 200 {
			t.Errorf("%s: eval: %v\n%s", c.method, err, stdout)
		}
		_, _, err = gcpRun("train", "-data", trainCSV, "-o", model, "-method", c.method, c.unused, "3")
		if want := c.unused + " does not apply to -method " + c.method; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("train -method %s %s 3: %v, want %q", c.method, c.unused, err, want)
		}
	}
}
