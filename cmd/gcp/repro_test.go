package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/filetest"
	"github.com/google/go-cmp/cmp"
)

// TestTrainKeepsFoldStandardization checks that train hands the fold's
// standardization (paper.Fold.Standardization: a constant feature only
// centred, the target's that of the contaminated split) to the model,
// and that Fit keeps it.
func TestTrainKeepsFoldStandardization(t *testing.T) {
	tab := matrix{d: 3}
	for i := 0; i < 100; i++ {
		v := float64(i)
		tab.x = append(tab.x, v, 7, v*v) // the middle feature is constant
		tab.y = append(tab.y, 2*v+1)
	}
	fd := newFold(tab, 1, 0, 0.1)
	xm, xs, ym, ys := fd.Standardization(3)
	model, err := fd.train(3, gcp.LossGCP, hyper{optimizer: gcp.Adam, lr: 1e-3, epochs: 1, batch: 8, hidden: []int{4}}, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	gm, gs, gym, gys := model.Standardization()
	if !slices.Equal(gm, xm) || !slices.Equal(gs, xs) || gym != ym || gys != ys {
		t.Errorf("model standardization %v %v %v %v, want %v %v %v %v", gm, gs, gym, gys, xm, xs, ym, ys)
	}
}

// tinyHyper trains for a few epochs only, for tests.
var tinyHyper = hyper{optimizer: gcp.Adam, lr: 3e-3, epochs: 3, batch: 16, hidden: []int{8}}

// TestResultsIndependentOfScheduling checks that a fold's scores depend on
// the seed and its number, not on the number of goroutines or folds.
func TestResultsIndependentOfScheduling(t *testing.T) {
	tab := synthTable(120)
	for _, loss := range []gcp.Loss{gcp.LossGCP, gcp.LossMLBayes} {
		h := tinyHyper
		h.dropout = 0.2
		run := reproRun{t: tab, meth: method{loss: loss}, h: h, folds: 4, outliers: 0.05, seed: 3}
		one, err := run.results(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		two, err := run.results(context.Background(), 2)
		if err != nil {
			t.Fatal(err)
		}
		run.folds = 2
		fewer, err := run.results(context.Background(), 2)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(one, two, cmp.AllowUnexported(scores{})); diff != "" {
			t.Errorf("%v: 1 and 2 goroutines differ:\n%s", loss, diff)
		}
		if diff := cmp.Diff(one[:2], fewer, cmp.AllowUnexported(scores{})); diff != "" {
			t.Errorf("%v: the first folds of 4 and of 2 differ:\n%s", loss, diff)
		}
		if one[0] == one[1] {
			t.Errorf("%v: folds 1 and 2 scored the same: %+v", loss, one[0])
		}
	}
}

// synthTable returns n rows of main_test's synthetic data: features
// a, b, c ~ U(−1, 1), target a + 2b − c with noise of sd noiseSD(a).
func synthTable(n int) matrix {
	r := rand.New(rand.NewPCG(1, 7))
	t := matrix{d: 3}
	for i := 0; i < n; i++ {
		a, b, c := 2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1
		t.x = append(t.x, a, b, c)
		t.y = append(t.y, a+2*b-c+noiseSD(a)*r.NormFloat64())
	}
	return t
}

// TestReproProgress checks that the folds share one bar, counting the
// epochs of all of them, and that it ends at the total with every fold
// done.
func TestReproProgress(t *testing.T) {
	var buf bytes.Buffer
	run := reproRun{t: synthTable(60), meth: method{loss: gcp.LossGCP}, h: tinyHyper, folds: 3, seed: 1}
	run.bar = newProgressBar(&buf, run.folds*run.h.epochs)
	if _, err := run.results(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	run.bar.finish()
	out := buf.String()
	// The first line drawn counts the epochs done so far: 1, or 2 when
	// both workers finished one before either drew (seen under qemu).
	for _, want := range []string{"/9  0/3 folds done  ", "\r[==============================] epoch 9/9  3/3 folds done  took "} {
		if !strings.Contains(out, want) {
			t.Errorf("progress %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\x1b[K\n") {
		t.Errorf("progress %q does not end its line", out)
	}
}

func TestDefaultHyper(t *testing.T) {
	tests := []struct {
		name  string
		loss  gcp.Loss
		want  hyper
		paper bool
	}{
		{"boston", gcp.LossGCP, hyper{optimizer: gcp.Adam, lr: 1e-4, dropout: 0.3, epochs: 700, batch: 5, hidden: []int{50}}, true},
		{"Concrete", gcp.LossDPD, hyper{optimizer: gcp.Nesterov, lr: 1e-5, dropout: 0.1, epochs: 5000, batch: 5, hidden: []int{50}}, true},
		{"power", gcp.LossMLBayes, hyper{optimizer: gcp.Adam, lr: 5e-5, dropout: 0.2, epochs: 150, batch: 10, hidden: []int{50}}, true},
		{"yacht", gcp.LossGCP, hyper{optimizer: gcp.RMSProp, rho: 0.9, lr: 1e-3, dropout: 0.1, epochs: 1000, batch: 5, hidden: []int{50}}, true},
		{"kin8nm", gcp.LossGCP, hyper{optimizer: gcp.Nesterov, lr: 7e-4, dropout: 0, epochs: 250, batch: 10, hidden: []int{50}}, true},
		{"kin8nm", gcp.LossGaussianML, hyper{optimizer: gcp.Adam, lr: 2e-4, dropout: 0, epochs: 200, batch: 10, hidden: []int{50}}, true},
		{"mine", gcp.LossGCP, hyper{optimizer: gcp.Adam, lr: 1e-3, dropout: 0, epochs: 500, batch: 32, hidden: []int{50}}, false},
		{"mine", gcp.LossMLBayes, hyper{optimizer: gcp.Adam, lr: 1e-3, dropout: 0.4, epochs: 500, batch: 32, hidden: []int{50}}, false},
	}
	for _, tt := range tests {
		got, paper := defaultHyper(tt.name, method{loss: tt.loss})
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(hyper{})); diff != "" || paper != tt.paper {
			t.Errorf("defaultHyper(%s, %v): paper %t (want %t)\n%s", tt.name, tt.loss, paper, tt.paper, diff)
		}
	}
	// Every data set has a row for every method.
	for name, rows := range appendixHyper {
		for l := gcp.LossGCP; l <= gcp.LossMLBayes; l++ {
			if h, ok := rows[l]; !ok || h.epochs < 1 || !(h.lr > 0) || (h.batch != 5 && h.batch != 10) {
				t.Errorf("%s, %v: %+v", name, l, h)
			}
		}
	}
}

func TestOverrideHyper(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("epochs", 0, "")
	fs.Int("batch", 0, "")
	fs.Float64("lr", 0, "")
	fs.Float64("dropout", 0, "")
	fs.String("optimizer", "", "")
	fs.Float64("rho", 0, "")
	fs.String("hidden", "", "")
	if err := fs.Parse([]string{"-epochs", "3", "-dropout", "0", "-hidden", "8,4", "-optimizer", "rmsprop", "-rho", "0.5"}); err != nil {
		t.Fatal(err)
	}
	h, _ := defaultHyper("boston", method{loss: gcp.LossGCP})
	if err := overrideHyper(fs, &h); err != nil {
		t.Fatal(err)
	}
	want := hyper{optimizer: gcp.RMSProp, rho: 0.5, lr: 1e-4, dropout: 0, epochs: 3, batch: 5, hidden: []int{8, 4}}
	if diff := cmp.Diff(want, h, cmp.AllowUnexported(hyper{})); diff != "" {
		t.Errorf("the given flags override, the others keep the appendix's:\n%s", diff)
	}
}

// reproJSON runs gcp repro with -json and decodes its one line.
func reproJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	stdout, stderr, err := gcpRun(append([]string{"repro", "-json"}, args...)...)
	if err != nil || stderr != "" {
		t.Fatalf("repro: %v, stderr %q", err, stderr)
	}
	if strings.Count(stdout, "\n") != 1 || !strings.HasSuffix(stdout, "\n") {
		t.Fatalf("repro -json wrote %q, want one line", stdout)
	}
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value: %s", stdout)
	}
	return obj
}

func TestReproJSON(t *testing.T) {
	dir := t.TempDir()
	data := writeSynthetic(t, dir, "boston.csv", 4, 100, false)
	stat := []string{"mean", "std"}
	for _, tt := range []struct {
		method  string
		aucCorr bool
	}{{"gcp", true}, {"ml", false}, {"ml_bayes", false}, {"dpd", false}, {"pbp", false}, {"svgd", false}} {
		t.Run(tt.method, func(t *testing.T) {
			obj := reproJSON(t, "-data", data, "-method", tt.method, "-folds", "2", "-outliers", "0.05", "-seed", "9",
				"-epochs", "2", "-batch", "16")
			want := []string{"dataset", "method", "folds", "outliers", "seed", "rmse", "auc", "nll", "coverage95", "seconds"}
			if tt.aucCorr {
				want = append(want, "auc_corr")
			}
			var keys []string
			for k := range obj {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			slices.Sort(want)
			if !slices.Equal(keys, want) {
				t.Fatalf("keys %v, want %v", keys, want)
			}
			for _, k := range []string{"rmse", "auc", "auc_corr", "nll", "coverage95"} {
				if k == "auc_corr" && !tt.aucCorr {
					continue
				}
				m, ok := obj[k].(map[string]any)
				var mk []string
				for k := range m {
					mk = append(mk, k)
				}
				slices.Sort(mk)
				if !ok || !slices.Equal(mk, stat) {
					t.Errorf("%s = %v, want an object with mean and std", k, obj[k])
					continue
				}
				for _, s := range stat {
					if v, ok := m[s].(float64); !ok || math.IsNaN(v) {
						t.Errorf("%s.%s = %v, want a number", k, s, m[s])
					}
				}
			}
			if obj["dataset"] != "boston" || obj["method"] != tt.method || obj["folds"] != 2.0 || obj["outliers"] != 0.05 || obj["seed"] != 9.0 {
				t.Errorf("header fields %v", obj)
			}
			if s, ok := obj["seconds"].(float64); !ok || s < 0 {
				t.Errorf("seconds = %v", obj["seconds"])
			}
		})
	}
	// One fold has no spread: its std is null, not a number JSON lacks.
	obj := reproJSON(t, "-data", data, "-folds", "1", "-epochs", "1")
	if rmse := obj["rmse"].(map[string]any); rmse["std"] != nil || rmse["mean"] == nil {
		t.Errorf("one fold: rmse = %v, want a mean and a null std", rmse)
	}
	// The same seed gives the same numbers; only the time may differ.
	a := reproJSON(t, "-data", data, "-folds", "2", "-epochs", "2", "-seed", "4")
	b := reproJSON(t, "-data", data, "-folds", "2", "-epochs", "2", "-seed", "4")
	delete(a, "seconds")
	delete(b, "seconds")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs with one seed differ:\n%s", diff)
	}
}

func TestReproTable(t *testing.T) {
	data := writeSynthetic(t, t.TempDir(), "Yacht.csv", 4, 60, false)
	stdout, _, err := gcpRun("repro", "-data", data, "-folds", "2", "-epochs", "2", "-outliers", "0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"2 folds of 57 training and 3 test rows, 10% outliers (6 per training split), seed 1",
		"gcp: rmsprop (rho 0.9), lr 0.001, dropout 0.1, 2 epochs, batch 5, hidden 50 (defaults: the paper's appendix's for yacht)",
		"\nRMSE ", "\nAUC ", "\nAUC_corr ", "\nNLL ", "\ncover95 ", "2 folds in ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestReproErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeSynthetic(t, dir, "good.csv", 1, 40, false)
	short := writeSynthetic(t, dir, "short.csv", 1, 29, false)
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("a,y\n1,2\n3,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-folds", "2"}, "repro: -data is required"},
		{[]string{"-data", good, "-method", "bnn"}, `-method "bnn": want gcp, ml, ml_bayes, dpd, pbp or svgd`},
		{[]string{"-data", good, "-folds", "0"}, "-folds 0: want at least 1"},
		{[]string{"-data", good, "-outliers", "1"}, "-outliers 1: want a share in [0, 1)"},
		{[]string{"-data", good, "-outliers", "-0.1"}, "-outliers -0.1"},
		{[]string{"-data", good, "-outliers", "NaN"}, "-outliers NaN"},
		{[]string{"-data", short}, "has 29 rows; a 95/5 split needs at least 30"},
		{[]string{"-data", bad}, bad + `: line 3, column 2 (y): not a number: "x"`},
		{[]string{"-data", good, "-epochs", "0"}, "-epochs 0: want a positive integer"},
		{[]string{"-data", good, "-batch", "-3"}, "-batch -3: want a positive integer"},
		{[]string{"-data", good, "-lr", "0"}, "-lr 0: want a positive number"},
		{[]string{"-data", good, "-dropout", "1"}, "-dropout 1: want a rate in [0, 1)"},
		{[]string{"-data", good, "-rho", "1"}, "-rho 1: want a decay in (0, 1)"},
		{[]string{"-data", good, "-rho", "NaN"}, "-rho NaN: want a decay in (0, 1)"},
		{[]string{"-data", good, "-rho", "0.5"}, "-rho: the optimizer is adam; -rho applies to rmsprop only"},
		{[]string{"-data", good, "-optimizer", "adagrad"}, `-optimizer "adagrad"`},
		{[]string{"-data", good, "-hidden", "0"}, `-hidden "0"`},
		{[]string{"-data", good, "-target", "q"}, `no such column "q"`},
		{[]string{"-data", good, "-method", "ml_bayes", "-dropout", "0", "-epochs", "1"}, "fold 1: gcp: invalid configuration: Dropout = 0"},
		{[]string{"-data", filepath.Join(dir, "none.csv")}, "no such file"},
	}
	for _, tt := range tests {
		_, _, err := gcpRun(append([]string{"repro"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("repro %v: %v, want an error containing %q", tt.args, err, tt.want)
		}
	}
	// A diverging fit is an error that names its fold, not a panic.
	_, _, err := gcpRun("repro", "-data", good, "-folds", "2", "-epochs", "50", "-lr", "1e30", "-optimizer", "sgd")
	if !errors.Is(err, gcp.ErrDiverged) || !strings.Contains(err.Error(), "fold ") {
		t.Errorf("repro with -lr 1e30: %v, want gcp.ErrDiverged naming the fold", err)
	}
}

// TestReproConstantColumn checks that repro trains every fold on the
// first 30 rows of yacht.csv, whose first feature is constant.
// regression: a constant column's spread of 4e-17 made every fold diverge (issue 11).
func TestReproConstantColumn(t *testing.T) {
	lines := strings.SplitAfterN(filetest.Read(t, filepath.Join("..", "..", "data", "uci", "yacht.csv")), "\n", 32)
	data := filepath.Join(t.TempDir(), "yacht.csv")
	if err := os.WriteFile(data, []byte(strings.Join(lines[:31], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := gcpRun("repro", "-data", data, "-folds", "2", "-epochs", "2"); err != nil {
		t.Fatalf("repro on the first 30 rows of yacht.csv: %v", err)
	}
}
