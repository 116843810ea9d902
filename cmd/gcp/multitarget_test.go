package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// twoTargetCSV writes n rows of two features x1, x2 and two correlated
// targets a, b (a = sin x1 + x2 + 0.3g₁, b = cos x1 + 0.2(0.7g₁ +
// 0.71g₂)) to a file in dir and returns its path.
func twoTargetCSV(t *testing.T, dir string, n int, seed uint64) string {
	return featuresCSV(t, filepath.Join(dir, fmt.Sprintf("mv%d.csv", seed)), n, rand.New(rand.NewPCG(seed, 1)), "a,b", func(r *rand.Rand, x1, x2 float64) string {
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		return fmt.Sprintf("%.5f,%.5f", math.Sin(x1)+x2+0.3*g1, math.Cos(x1)+0.2*(0.7*g1+math.Sqrt(0.51)*g2))
	})
}

// featuresCSV writes to path n rows of two features x1 ∼ U(0, 3),
// x2 ∼ U(−1, 1) drawn from r and the targets, whose names the header
// gives as names ("a,b"), that targets writes for them, and returns path.
func featuresCSV(t *testing.T, path string, n int, r *rand.Rand, names string, targets func(r *rand.Rand, x1, x2 float64) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2," + names + "\n")
	for range n {
		x1, x2 := 3*r.Float64(), 2*r.Float64()-1
		fmt.Fprintf(&b, "%.5f,%.5f,%s\n", x1, x2, targets(r, x1, x2))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// trainTwoTargets trains a small single network of targets a and b on
// 150 rows, fast: one candidate, 16 hidden units, 40 epochs, the joint
// network's law alone (-law joint), whose output the tests that use it
// check.
func trainTwoTargets(t *testing.T) (dir, model string, stderr string) {
	t.Helper()
	dir = t.TempDir()
	data := twoTargetCSV(t, dir, 150, 1)
	model = filepath.Join(dir, "mv.gcpm")
	_, stderr, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-members", "1", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-law", "joint")
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	return dir, model, stderr
}

// TestTrainSeveralTargets: train -target a,b saves a model of two targets
// that records their names, and the summary names them with the joint
// cross-fitted NLL and coverage, each target's variance factor, and the
// precision, float32 by default.
func TestTrainSeveralTargets(t *testing.T) {
	_, model, stderr := trainTwoTargets(t)
	if !strings.Contains(stderr, "targets a,b: expected on new data (5-fold cross-fit, 150 rows): joint NLL") ||
		!strings.Contains(stderr, "95% calibrated joint-region coverage") || !strings.Contains(stderr, "\ntrained in float32 (the default; -float64 for double precision)\n") {
		t.Errorf("summary does not name the targets and joint scores:\n%s", stderr)
	}
	if !regexp.MustCompile(`calibration: each target's variance fitted alone, ×[0-9.e+-]+ \(a\), ×[0-9.e+-]+ \(b\); then the joint region, fitted to the rows' Mahalanobis distances: (a Gaussian|a t of [0-9.e+-]+ degrees of freedom) with the corrected covariance ×[0-9.e+-]+\n`).MatchString(stderr) {
		t.Errorf("summary does not give each target's variance factor:\n%s", stderr)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config().Targets != 2 || m.Encoding().Target() != "a,b" || m.Config().Inputs != 2 {
		t.Errorf("model of %d targets named %q, %d inputs: want 2 targets a,b and the 2 features", m.Config().Targets, m.Encoding().Target(), m.Config().Inputs)
	}
}

// TestTrainSeveralTargetsChoosesTheLaw: without -law, train fits both the
// joint network and the Gaussian copula of the one-target models and
// says which it kept in a sentence with both cross-fitted NLLs; on these
// correlated targets the copula's marginals are each target's own
// recipe, named target by target; the model saves, loads with its
// targets' names and evaluates. -law applies to several targets only,
// and takes auto, joint or copula.
func TestTrainSeveralTargetsChoosesTheLaw(t *testing.T) {
	dir := t.TempDir()
	data := twoTargetCSV(t, dir, 150, 1)
	model := filepath.Join(dir, "law.gcpm")
	_, stderr, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-members", "1", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0")
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	law := regexp.MustCompile(`\njoint law: the (joint|copula) law: cross-fitted joint NLL [0-9.e+-]+ under the joint network, [0-9.e+-]+ under the Gaussian copula of the one-target models \(on 150 rows; λ [0-9.e+-]+, the copula's gain [0-9.e+-]+ nats a row; the joint network's RMSE at most [0-9.e+-]+× the one-target models'\), (the lower kept|the copula kept: the joint network's means of target [0-9]+ are [0-9.e+-]+× the one-target model's RMSE, above 1.05×)\n`).FindStringSubmatch(stderr)
	if law == nil {
		t.Fatalf("summary does not say the law:\n%s", stderr)
	}
	t.Logf("law kept: %s", law[1])
	if law[1] == "copula" && !strings.Contains(stderr, "trained the one-target recipe for each of the 2 targets, a single gcp network each, on 120 rows, 30 held out, and joined them by a Gaussian copula: a: lr 0.003") {
		t.Errorf("summary of the copula does not name its marginals' recipes:\n%s", stderr)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config().Targets != 2 || m.Encoding().Target() != "a,b" {
		t.Errorf("saved model of %d targets named %q, want a,b", m.Config().Targets, m.Encoding().Target())
	}
	if out, _, err := gcpRun("eval", "-model", model, "-data", data); err != nil || !strings.Contains(out, "joint-NLL ") {
		t.Errorf("eval of the saved model: %v\n%s", err, out)
	}
	if _, _, err := gcpRun("train", "-data", data, "-target", "a", "-o", model, "-law", "joint"); err == nil || !strings.Contains(err.Error(), "-law applies to several targets") {
		t.Errorf("-law with one target: %v", err)
	}
	if _, _, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-law", "t"); err == nil || !strings.Contains(err.Error(), `-law "t"`) {
		t.Errorf("-law t: %v", err)
	}
}

// TestTrainSeveralTargetsRefusesMissingTarget: an empty target cell is an
// error naming its line and column, wrapping table.ErrMissing; an
// option that does not apply is refused before reading.
func TestTrainSeveralTargetsRefusesMissingTarget(t *testing.T) {
	dir := t.TempDir()
	data := twoTargetCSV(t, dir, 40, 2)
	b, _ := os.ReadFile(data)
	lines := strings.Split(string(b), "\n")
	f := strings.Split(lines[4], ",")
	lines[4] = strings.Join(append(f[:3], ""), ",") // line 5's b
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", filepath.Join(dir, "m.gcpm"))
	if !errors.Is(err, table.ErrMissing) || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("err = %v, want table.ErrMissing on line 5", err)
	}
	_, _, err = gcpRun("train", "-data", data, "-target", "a,b", "-o", filepath.Join(dir, "m.gcpm"), "-fixed-alpha", "2")
	if !errors.Is(err, errMultiTarget) {
		t.Errorf("-fixed-alpha: err = %v, want errMultiTarget", err)
	}
}

// readNumbersCSV parses gcp predict's output into its header and rows of numbers.
func readNumbersCSV(t *testing.T, s string) ([]string, [][]float64) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for _, rec := range recs[1:] {
		row := make([]float64, len(rec))
		for j, f := range rec {
			if row[j], err = strconv.ParseFloat(f, 64); err != nil {
				t.Fatal(err)
			}
		}
		rows = append(rows, row)
	}
	return recs[0], rows
}

// parseMultiEval returns the KEY VALUE lines of gcp eval's output for a
// model of several targets, by key.
func parseMultiEval(out string) map[string]float64 {
	got := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(line, " ")
		got[k], _ = strconv.ParseFloat(v, 64)
	}
	return got
}

// TestPredictSeveralTargets: predict writes each target's columns with
// its name after a colon and corr:a:b; the means are the library's
// PredictMulti on the rows' features, and the calibrated 95% interval is
// mean ± Φ⁻¹(0.975)·sd_corrected, the Gaussian's.
func TestPredictSeveralTargets(t *testing.T) {
	dir, model, _ := trainTwoTargets(t)
	data := twoTargetCSV(t, dir, 20, 3)
	_, rows := predictTable(t, "mean:a,lo95_cal:a,hi95_cal:a,sd_corrected:a,lo95_student_t:a,hi95_student_t:a,mean:b,lo95_cal:b,hi95_cal:b,sd_corrected:b,lo95_student_t:b,hi95_student_t:b,corr:a:b,"+
		"input_z,outside,unseen,sd_epistemic:a,disagreement:a,sd_epistemic:b,disagreement:b", 20, "-model", model, "-data", data)
	preds, _ := libraryPredictions(t, model, data)
	for i, row := range rows {
		p := &preds[i]
		// Relative 2⁻²³: the model trained in float32, the default, and
		// the CSV writes the shortest text that reads back as the value
		// rounded to float32: within half float32's spacing of it, which
		// is within half a spacing of the value.
		if math.Abs(row[0]-p.Mean(0)) > 0x1p-23*math.Abs(p.Mean(0)) || math.Abs(row[6]-p.Mean(1)) > 0x1p-23*math.Abs(p.Mean(1)) ||
			math.Abs(row[12]-p.Corr(0, 1)) > 0x1p-23*math.Abs(p.Corr(0, 1)) {
			t.Errorf("row %d: means %v, %v and corr %v; PredictMulti's %v, %v, %v", i, row[0], row[6], row[12], p.Mean(0), p.Mean(1), p.Corr(0, 1))
		}
		// 1e-9 relative: the calibrated quantile inverts Φ numerically;
		// and each of the three numbers written is within 2⁻²³ of its
		// value, relative (float32's rounding, as above).
		hw := 1.959963984540054 * row[3]
		if tol := func(end float64) float64 { return 1e-9*hw + 0x1p-23*(math.Abs(end)+math.Abs(row[0])+hw) }; math.Abs(row[2]-row[0]-hw) > tol(row[2]) || math.Abs(row[0]-row[1]-hw) > tol(row[1]) {
			t.Errorf("row %d: calibrated interval [%v, %v] about %v, want ± %v", i, row[1], row[2], row[0], hw)
		}
	}
}

// predictTable runs gcp predict with args and returns its CSV's header
// and rows of numbers; it fails the test unless the header, its columns
// joined by commas, is want and there are n rows.
func predictTable(t *testing.T, want string, n int, args ...string) ([]string, [][]float64) {
	t.Helper()
	head, rows := readNumbersCSV(t, predictOutput(t, args...))
	if got := strings.Join(head, ","); got != want || len(rows) != n {
		t.Fatalf("header %s and %d rows, want %s and %d", got, len(rows), want, n)
	}
	return head, rows
}

// predictOutput returns what gcp predict writes with args, and fails the
// test if it returns an error.
func predictOutput(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := gcpRun(append([]string{"predict"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// libraryPredictions returns the library's PredictMulti of the saved
// model for each row of the two-feature file data, and the file's table.
func libraryPredictions(t *testing.T, model, data string) ([]gcp.MultiPrediction, *table.Table) {
	t.Helper()
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := table.ReadFile(data, table.Dialect{Sep: ',', Decimal: '.'})
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]gcp.MultiPrediction, tab.Rows())
	ws := m.NewWorkspace()
	for i := range preds {
		if err := m.PredictMulti(ws, []float64{must(tab.Number(i, 0)), must(tab.Number(i, 1))}, &preds[i]); err != nil {
			t.Fatal(err)
		}
	}
	return preds, tab
}

// must returns v, ignoring Table.Number's missing flag and error, for
// files the test wrote whole.
func must(v float64, _ bool, _ error) float64 { return v }

// TestEvalSeveralTargets: eval prints the per-target and joint lines; its
// joint-NLL is the mean of −LogPDF by the library over the rows, its
// joint-NLL-cal that of −CalibratedLogPDF, its joint-cov95-conformal the
// share inside ConformalInside's region, its RMSE:a that of the means,
// and the coverages grow with the level.
func TestEvalSeveralTargets(t *testing.T) {
	dir, model, _ := trainTwoTargets(t)
	data := twoTargetCSV(t, dir, 200, 4)
	out, _, err := gcpRun("eval", "-model", model, "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	got := parseMultiEval(out)
	for _, k := range []string{"N", "RMSE:a", "NLL:a", "CRPS:a", "cov95-cal:a", "RMSE:b", "NLL:b", "CRPS:b", "cov95-cal:b", "joint-NLL", "joint-NLL-cal", "joint-cov50-cal", "joint-cov90-cal", "joint-cov95-cal",
		"joint-cov50-conformal", "joint-cov90-conformal", "joint-cov95-conformal", "energy-score"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %s line in\n%s", k, out)
		}
	}
	preds, tab := libraryPredictions(t, model, data)
	var nll, nllCal, sq, conf95 float64
	for i := range preds {
		p := &preds[i]
		y := []float64{must(tab.Number(i, 2)), must(tab.Number(i, 3))}
		nll -= p.LogPDF(y) / 200
		nllCal -= p.CalibratedLogPDF(y) / 200
		sq += (p.Mean(0) - y[0]) * (p.Mean(0) - y[0]) / 200
		in, err := p.ConformalInside(y, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if in {
			conf95 += 1.0 / 200
		}
	}
	// The calibrated density and the conformal region are the library's
	// (eval prints 6 significant digits and 4 decimals).
	if math.Abs(got["joint-NLL-cal"]-nllCal) > 1e-5*(1+math.Abs(nllCal)) || math.Abs(got["joint-cov95-conformal"]-conf95) > 1e-4 {
		t.Errorf("joint-NLL-cal %v, joint-cov95-conformal %v; want %v and %v", got["joint-NLL-cal"], got["joint-cov95-conformal"], nllCal, conf95)
	}
	if !(got["joint-cov50-conformal"] <= got["joint-cov90-conformal"] && got["joint-cov90-conformal"] <= got["joint-cov95-conformal"]) {
		t.Errorf("conformal coverages %v, %v, %v not increasing", got["joint-cov50-conformal"], got["joint-cov90-conformal"], got["joint-cov95-conformal"])
	}
	// eval prints 6 significant digits.
	if math.Abs(got["joint-NLL"]-nll) > 1e-5*(1+math.Abs(nll)) || math.Abs(got["RMSE:a"]-math.Sqrt(sq)) > 1e-5 {
		t.Errorf("joint-NLL %v and RMSE:a %v, want %v and %v", got["joint-NLL"], got["RMSE:a"], nll, math.Sqrt(sq))
	}
	if !(got["joint-cov50-cal"] <= got["joint-cov90-cal"] && got["joint-cov90-cal"] <= got["joint-cov95-cal"] && got["energy-score"] > 0) {
		t.Errorf("coverages %v, %v, %v not increasing, or energy score %v not positive", got["joint-cov50-cal"], got["joint-cov90-cal"], got["joint-cov95-cal"], got["energy-score"])
	}
}

// TestTrainSeveralTargetsMethodML: train -method ml -target a,b trains
// the full-covariance Gaussian network (comparator (b) of the
// multivariate benchmark), whose eval joint-NLL is the bivariate normal
// density's, worked here by hand from the predicted means and
// covariance; another method is refused.
// regression: -method ml with several targets was refused.
func TestTrainSeveralTargetsMethodML(t *testing.T) {
	dir := t.TempDir()
	data := twoTargetCSV(t, dir, 150, 1)
	model := filepath.Join(dir, "ml.gcpm")
	if _, stderr, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-method", "ml", "-members", "1", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0"); err != nil {
		t.Fatalf("train -method ml: %v\n%s", err, stderr)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config().Loss != gcp.LossGaussianML || m.Config().Targets != 2 {
		t.Fatalf("Loss %v, Targets %d: want ML and 2", m.Config().Loss, m.Config().Targets)
	}
	test := twoTargetCSV(t, dir, 50, 4)
	got := evalJointNLL(t, model, test)
	preds, tab := libraryPredictions(t, model, test)
	var nll float64
	for i := range preds {
		p := &preds[i]
		e0, e1 := must(tab.Number(i, 2))-p.Mean(0), must(tab.Number(i, 3))-p.Mean(1)
		s00, s01, s11 := p.Cov(0, 0), p.Cov(0, 1), p.Cov(1, 1)
		det := s00*s11 - s01*s01
		q := (s11*e0*e0 - 2*s01*e0*e1 + s00*e1*e1) / det
		nll += (math.Log(2*math.Pi) + 0.5*math.Log(det) + 0.5*q) / float64(len(preds))
	}
	// eval prints 6 significant digits.
	if math.IsNaN(got) || math.Abs(got-nll) > 1e-5*(1+math.Abs(nll)) {
		t.Errorf("joint-NLL %v, want the bivariate normal's %v", got, nll)
	}
	if _, _, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-method", "dpd"); !errors.Is(err, errMultiTarget) {
		t.Errorf("-method dpd: err = %v, want errMultiTarget", err)
	}
}

// TestTrainSeveralTargetsQuantized: of two targets, the one rounded to
// integers is named as dequantized with its spacing, the continuous one
// is not.
func TestTrainSeveralTargetsQuantized(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(2, 1))
	var b strings.Builder
	b.WriteString("x1,a,b\n")
	for range 150 {
		x1 := 3 * r.Float64()
		fmt.Fprintf(&b, "%.5f,%g,%.5f\n", x1, math.Round(2*math.Sin(x1)+0.3*r.NormFloat64()), math.Cos(x1)+0.2*r.NormFloat64())
	}
	data := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", filepath.Join(dir, "q.gcpm"), "-members", "1", "-epochs", "20", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-law", "joint")
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "target a takes values on a lattice of spacing 1: ") || strings.Contains(stderr, "target b takes") {
		t.Errorf("summary does not name target a alone as dequantized:\n%s", stderr)
	}
}

// evalJointNLL returns the joint-NLL line of gcp eval of model on data.
func evalJointNLL(t *testing.T, model, data string) float64 {
	t.Helper()
	out, _, err := gcpRun("eval", "-model", model, "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "joint-NLL "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no joint-NLL line in\n%s", out)
	return 0
}
