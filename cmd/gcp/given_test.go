package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
	"github.com/google/go-cmp/cmp"
)

// threeTargets are featuresCSV's targets a = sin x1 + x2 + 0.3g₁,
// b = cos x1 + 0.3(0.95g₁ + 0.31g₂), whose noise has correlation 0.95
// with a's, and the positive, skewed c = e^(0.5x1 + 0.5(0.8g₁ + 0.6g₃)),
// whose logarithm's noise has correlation 0.8 with a's.
func threeTargets(r *rand.Rand, x1, x2 float64) string {
	g1, g2, g3 := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
	return fmt.Sprintf("%.5f,%.5f,%.6g", math.Sin(x1)+x2+0.3*g1, math.Cos(x1)+0.3*(0.95*g1+math.Sqrt(1-0.95*0.95)*g2), math.Exp(0.5*x1+0.5*(0.8*g1+0.6*g3)))
}

// trainThreeTargets trains, fast as trainTwoTargets does, a model of the
// targets a, b and c (threeTargets) on 150 rows under the joint law law
// and -target-transform transform, and returns the directory, the
// model's path and a file of 20 new rows.
func trainThreeTargets(t *testing.T, law, transform string) (dir, model, test string) {
	t.Helper()
	dir = t.TempDir()
	data := featuresCSV(t, filepath.Join(dir, "train.csv"), 150, rand.New(rand.NewPCG(1, 3)), "a,b,c", threeTargets)
	model = filepath.Join(dir, law+".gcpm")
	_, stderr, err := gcpRun("train", "-data", data, "-target", "a,b,c", "-o", model, "-members", "1", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-law", law, "-target-transform", transform)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	test = featuresCSV(t, filepath.Join(dir, "test.csv"), 20, rand.New(rand.NewPCG(2, 3)), "a,b,c", threeTargets)
	return dir, model, test
}

// conditionalLocation returns m_u + S_uO S_OO⁻¹ (z_O − m_O), the location
// of target u of p, a t of one member, given the targets obs at z (in z,
// the targets as the network models them), with S_OO⁻¹ inverted by hand:
// 1×1 or 2×2.
func conditionalLocation(p *gcp.MultiPrediction, u int, obs []int, z []float64) float64 {
	var inv [2][2]float64
	switch len(obs) {
	case 1:
		inv[0][0] = 1 / p.Scale(obs[0], obs[0])
	case 2:
		s00, s01, s11 := p.Scale(obs[0], obs[0]), p.Scale(obs[0], obs[1]), p.Scale(obs[1], obs[1])
		det := s00*s11 - s01*s01
		inv = [2][2]float64{{s11 / det, -s01 / det}, {-s01 / det, s00 / det}}
	}
	m := p.ZMean(u)
	for a, oa := range obs {
		for b, ob := range obs {
			m += p.Scale(u, oa) * inv[a][b] * (z[b] - p.ZMean(ob))
		}
	}
	return m
}

// closeTo reports whether got, a number predict wrote for a float32 model,
// is want to the printed precision: the shortest decimal that reads back
// as want rounded to float32, within 2⁻²³ of want, relative (as
// TestPredictSeveralTargets explains).
func closeTo(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 0x1p-23*math.Abs(want)
}

// TestPredictGivenJointClosedForm: for a joint-t model of a, b and c (c
// logged), predict -given writes as each remaining untransformed target's
// mean the multivariate t's conditional location m_U + S_UO S_OO⁻¹(z_O −
// m_O), computed here from the unconditional prediction's ZMean and Scale
// with the given c as ln c; it moves the means (the targets are
// correlated); -given with every target but one writes exactly that
// target's columns of today's predict, whatever the order of the names;
// and the line on stderr says what was done.
func TestPredictGivenJointClosedForm(t *testing.T) {
	_, model, test := trainThreeTargets(t, "joint", "log")
	preds, tab := libraryPredictions(t, model, test)
	if tr := preds[0].Marginal(2).Transform; tr != gcp.TransformLog {
		t.Fatalf("c's transform %v, want log", tr)
	}
	names := []string{"a", "b", "c"}
	for _, c := range []struct {
		given     string
		obs, rest []int // the given targets, and the untransformed ones that remain
	}{
		{"b,c", []int{1, 2}, []int{0}},
		{"c", []int{2}, []int{0, 1}},
		{"a", []int{0}, []int{1}}, // c remains too, logged: its mean is the log-normal's
	} {
		out, stderr, err := gcpRun("predict", "-model", model, "-data", test, "-given", c.given)
		if err != nil {
			t.Fatalf("-given %s: %v", c.given, err)
		}
		if want := "predict: conditioned on " + strings.ReplaceAll(c.given, ",", ", ") + " for 20 rows: "; !strings.Contains(stderr, want) || !strings.Contains(stderr, "no conformal columns") {
			t.Errorf("-given %s: stderr %q, want a line with %q and no conformal columns", c.given, stderr, want)
		}
		head, rows := readNumbersCSV(t, out)
		var moved float64
		for i, row := range rows {
			p := &preds[i]
			z := make([]float64, len(c.obs))
			for a, o := range c.obs {
				z[a] = must(tab.Number(i, 2+o))
				if o == 2 {
					z[a] = math.Log(z[a])
				}
			}
			for _, u := range c.rest {
				want := conditionalLocation(p, u, c.obs, z)
				got := row[slices.Index(head, "mean:"+names[u])]
				if !closeTo(got, want) {
					t.Errorf("-given %s, row %d: mean:%s %v, want the closed form %v", c.given, i, names[u], got, want)
				}
				moved = max(moved, math.Abs(want-p.Mean(u)))
			}
		}
		if len(rows) != 20 || !(moved > 0.05) {
			t.Errorf("-given %s: %d rows, means moved by at most %v: want 20 rows, moved by more than 0.05", c.given, len(rows), moved)
		}
	}
	bc := predictOutput(t, "-model", model, "-data", test, "-given", "b,c")
	cb := predictOutput(t, "-model", model, "-data", test, "-given", " c , b")
	head := strings.SplitN(bc, "\n", 2)[0]
	if want := "mean:a,lo95_cal:a,hi95_cal:a,sd_corrected:a,lo95_student_t:a,hi95_student_t:a,input_z,outside,unseen,sd_epistemic:a,disagreement:a"; head != want || cb != bc {
		t.Errorf("-given b,c header %s, want %s; -given c,b the same output: %v", head, want, cb == bc)
	}
}

// TestPredictGivenCopula: for a copula model, every column predict
// -given b writes is the library's Conditional of the loaded model's
// prediction on the row's b, its Marginal(j) and Corr, to the printed
// precision, as CSV and as JSON Lines; and on these targets, a's noise
// correlated with b's at 0.95, a's conditional 95% calibrated interval is
// narrower than its marginal's on every row.
func TestPredictGivenCopula(t *testing.T) {
	_, model, test := trainThreeTargets(t, "copula", "auto")
	head, rows := predictTable(t, "mean:a,lo95_cal:a,hi95_cal:a,sd_corrected:a,lo95_student_t:a,hi95_student_t:a,mean:c,lo95_cal:c,hi95_cal:c,sd_corrected:c,lo95_student_t:c,hi95_student_t:c,corr:a:c,"+
		"input_z,outside,unseen,sd_epistemic:a,disagreement:a,sd_epistemic:c,disagreement:c", 20, "-model", model, "-data", test, "-given", "b")
	plain := predictOutput(t, "-model", model, "-data", test)
	plainHead, plainRows := readNumbersCSV(t, plain)
	preds, tab := libraryPredictions(t, model, test)
	var cond gcp.MultiPrediction
	wants := make([]map[string]float64, len(rows))
	var widest float64 // the largest ratio of the conditional width to the marginal's
	for i, row := range rows {
		if err := preds[i].Conditional(&cond, []int{1}, []float64{must(tab.Number(i, 3))}); err != nil {
			t.Fatal(err)
		}
		w := map[string]float64{"corr:a:c": cond.Corr(0, 1), "outside": 0, "unseen": 0}
		for j, name := range []string{"a", "c"} {
			q := cond.Marginal(j)
			lo, hi, _ := q.CalibratedInterval(0.95)
			tlo, thi, _ := q.Interval(0.95)
			w["mean:"+name], w["lo95_cal:"+name], w["hi95_cal:"+name], w["sd_corrected:"+name] = q.Mean, lo, hi, math.Sqrt(q.VarCorrected)
			w["lo95_student_t:"+name], w["hi95_student_t:"+name] = tlo, thi
			w["sd_epistemic:"+name], w["disagreement:"+name], w["input_z"] = math.Sqrt(q.VarEpistemic), q.Disagreement, q.InputZ
		}
		for k, name := range head {
			if !closeTo(row[k], w[name]) {
				t.Errorf("row %d: %s %v, want the library's %v", i, name, row[k], w[name])
			}
		}
		wants[i] = w
		width := row[slices.Index(head, "hi95_cal:a")] - row[slices.Index(head, "lo95_cal:a")]
		marginal := plainRows[i][slices.Index(plainHead, "hi95_cal:a")] - plainRows[i][slices.Index(plainHead, "lo95_cal:a")]
		if !(width < marginal) {
			t.Errorf("row %d: a's 95%% calibrated interval given b %v wide, its marginal's %v", i, width, marginal)
		}
		widest = max(widest, width/marginal)
	}
	t.Logf("a's 95%% calibrated interval given b: at most %.3g of its marginal's width", widest)
	js := predictOutput(t, "-model", model, "-data", test, "-given", "b", "-format", "json")
	lines := strings.Split(strings.TrimSuffix(js, "\n"), "\n")
	if len(lines) != len(wants) {
		t.Fatalf("%d JSON lines, want %d", len(lines), len(wants))
	}
	for i, line := range lines {
		var obj map[string]float64
		if err := json.Unmarshal([]byte(line), &obj); err != nil || len(obj) != len(head) {
			t.Fatalf("line %d: %v, %d keys: want %d numbers", i, err, len(obj), len(head))
		}
		for _, name := range head {
			if v, ok := obj[name]; !ok || !closeTo(v, wants[i][name]) {
				t.Errorf("JSON line %d: %s %v, want %v", i, name, v, wants[i][name])
			}
		}
	}
}

// TestPredictGivenUnnamedByPosition: a model saved without names takes
// -given y2 from its table's last column, after its features, and writes
// mean:y1 as the closed form of the t given y2; a name other than y1 and
// y2 is refused, naming them.
func TestPredictGivenUnnamedByPosition(t *testing.T) {
	m, model, data := unnamedTwoTargets(t, t.TempDir())
	out := predictOutput(t, "-model", model, "-data", data, "-given", "y2")
	head, rows := readNumbersCSV(t, out)
	if head[0] != "mean:y1" || slices.Contains(head, "mean:y2") || len(rows) != 3 {
		t.Fatalf("header %q, %d rows: want mean:y1 first, no y2, 3 rows", head, len(rows))
	}
	var p gcp.MultiPrediction
	ws := m.NewWorkspace()
	for i, x := range [][]float64{{0.5, -1}, {1, 2}, {-0.25, 0.75}} {
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		// The model is float64: the shortest text that reads back.
		if want := conditionalLocation(&p, 0, []int{1}, []float64{x[0] - x[1]}); math.Abs(rows[i][0]-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("row %d: mean:y1 %v, want %v", i, rows[i][0], want)
		}
	}
	if _, _, err := gcpRun("predict", "-model", model, "-data", data, "-given", "t2"); !errors.Is(err, errGiven) || !strings.Contains(err.Error(), "its targets are y1, y2") {
		t.Errorf("-given t2: %v, want an error naming y1 and y2", err)
	}
}

// TestPredictGivenErrors: each -given the model cannot take, and each row
// whose given value is missing, not a number or refused by the model, is
// an error that says what and where, and nothing is written to stdout,
// though the bad row comes after good ones.
func TestPredictGivenErrors(t *testing.T) {
	dir, model, test := trainThreeTargets(t, "joint", "log")
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	// withField returns a copy of the test file whose line 5 has the
	// field col (0-based) set to v.
	files := 0
	withField := func(col int, v string) string {
		f := strings.Split(lines[4], ",")
		f[col] = v
		l := slices.Clone(lines)
		l[4] = strings.Join(f, ",")
		files++
		path := filepath.Join(dir, fmt.Sprintf("bad%d.csv", files))
		if err := os.WriteFile(path, []byte(strings.Join(l, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var noB strings.Builder
	for _, l := range lines {
		if f := strings.Split(l, ","); len(f) == 5 {
			noB.WriteString(strings.Join(slices.Delete(f, 3, 4), ",") + "\n")
		}
	}
	noBPath := filepath.Join(dir, "nob.csv")
	if err := os.WriteFile(noBPath, []byte(noB.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model, data, given string
		is                 error  // the error it wraps
		says               string // what its message holds
	}{
		{"testdata/stream/num32.gcpm", "testdata/stream/test_num.csv", "a", errGiven, "the model has one target"},
		{model, test, "a,d", errGiven, `"d" is not a target of the model; its targets are a, b, c`},
		{model, test, "c,a,b", errGiven, "names every target of the model (a, b, c)"},
		{model, test, "b,b", errGiven, `"b" named twice`},
		{model, noBPath, "b", table.ErrNoColumn, `-given b: each given target must be a column of the data: ` + noBPath + `: line 1: no such column "b"`},
		{model, withField(3, ""), "c,b", table.ErrMissing, "line 5, column 4 (b): missing value"},
		{model, withField(3, "NA"), "b", table.ErrMissing, "line 5, column 4 (b): missing value"},
		{model, withField(4, "NULL"), "c", table.ErrMissing, "line 5, column 5 (c): missing value"},
		{model, withField(3, "high"), "b", gcp.ErrNotNumber, "line 5, column 4 (b): not a number"},
		{model, withField(3, "Inf"), "b", gcp.ErrNonFinite, "line 5, column 4 (b): value is NaN, Inf or overflows"},
		{model, withField(3, "1e999"), "b", gcp.ErrNonFinite, "line 5, column 4 (b)"},
		{model, withField(4, "-2"), "b,c", gcp.ErrDomain, "line 5, column 5 (c): the model refuses c = -2: "},
		{model, withField(4, "0"), "c", gcp.ErrDomain, "line 5, column 5 (c): the model refuses c = 0: "},
		{model, withField(3, "1e300"), "c,b", gcp.ErrNonFinite, "line 5, column 4 (b): the model refuses b = 1e+300: "},
	} {
		out, _, err := gcpRun("predict", "-model", c.model, "-data", c.data, "-given", c.given)
		if !errors.Is(err, c.is) || !strings.Contains(fmt.Sprint(err), c.says) || out != "" {
			t.Errorf("-given %s on %s: err %v, %d bytes written; want %v saying %q, nothing written", c.given, filepath.Base(c.data), err, len(out), c.is, c.says)
		}
	}
}

// TestPredictGivenOrderEnsemble: -given names its targets "in any order"
// (predict's help), and for an ensemble too (here the joint t of 3
// members, float64, so that the output keeps every bit) -given c,a
// writes what -given a,c does, bit for bit: the library's Conditional,
// whose arithmetic follows the order of the given targets, gets them in
// the model's order.
func TestPredictGivenOrderEnsemble(t *testing.T) {
	dir := t.TempDir()
	data := featuresCSV(t, filepath.Join(dir, "train.csv"), 150, rand.New(rand.NewPCG(1, 3)), "a,b,c", threeTargets)
	model := filepath.Join(dir, "ens.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-target", "a,b,c", "-o", model, "-members", "3", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-law", "joint", "-target-transform", "log", "-float64"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	test := featuresCSV(t, filepath.Join(dir, "test.csv"), 20, rand.New(rand.NewPCG(2, 3)), "a,b,c", threeTargets)
	ac := predictOutput(t, "-model", model, "-data", test, "-given", "a,c")
	ca := predictOutput(t, "-model", model, "-data", test, "-given", "c,a")
	if d := cmp.Diff(strings.Split(ac, "\n"), strings.Split(ca, "\n")); d != "" {
		t.Errorf("-given a,c and -given c,a write different numbers (-a,c +c,a):\n%s", d)
	}
}
