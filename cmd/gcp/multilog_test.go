package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
)

// skewedTargets are featuresCSV's targets a log-normal
// a = e^(sin x1 + x2 + 0.4g₁) (skewness about 3) and b = cos x1 + 0.2g₂.
func skewedTargets(r *rand.Rand, x1, x2 float64) string {
	return fmt.Sprintf("%.6g,%.5f", math.Exp(math.Sin(x1)+x2+0.4*r.NormFloat64()), math.Cos(x1)+0.2*r.NormFloat64())
}

// TestSeveralTargetsLogged: train -target a,b -target-transform log logs
// the skewed positive a alone and says so; predict's mean:a is the
// library's Mean(0), positive, and its calibrated interval lies above 0;
// eval's joint-NLL is, in original units, the NLL of the same network
// without the transform at (ln a, b) plus the mean of ln a (the
// Jacobian), computed here apart from eval's path.
func TestSeveralTargetsLogged(t *testing.T) {
	dir := t.TempDir()
	data := featuresCSV(t, filepath.Join(dir, "skewed1.csv"), 150, rand.New(rand.NewPCG(1, 2)), "a,b", skewedTargets)
	model := filepath.Join(dir, "mv.gcpm")
	_, stderr, err := gcpRun("train", "-data", data, "-target", "a,b", "-o", model, "-members", "1", "-epochs", "40", "-hidden", "16", "-lr", "0.003", "-dropout", "0", "-target-transform", "log", "-law", "joint")
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "a log (") || !strings.Contains(stderr, "b none (") {
		t.Errorf("the summary does not say which target is logged:\n%s", stderr)
	}
	m, err := gcp.LoadFile[float64](model)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.TargetTransforms(); !slices.Equal(got, []gcp.TargetTransform{gcp.TransformLog, gcp.TransformNone}) {
		t.Fatalf("transforms %v, want log and none", got)
	}
	test := featuresCSV(t, filepath.Join(dir, "skewed2.csv"), 100, rand.New(rand.NewPCG(2, 2)), "a,b", skewedTargets)
	out, _, err := gcpRun("predict", "-model", model, "-data", test)
	if err != nil {
		t.Fatal(err)
	}
	head, rows := readNumbersCSV(t, out)
	mean, lo := slices.Index(head, "mean:a"), slices.Index(head, "lo95_cal:a")
	preds, tab := libraryPredictions(t, model, test)
	for i, r := range rows {
		if want := preds[i].Mean(0); math.Abs(r[mean]-want) > 1e-5*want || !(r[lo] > 0) {
			t.Fatalf("row %d: mean:a %v (library %v), lo95_cal:a %v", i, r[mean], want, r[lo])
		}
	}
	// The regions drawn are the calibrated region in z mapped back: for
	// two targets, CalibratedInside's region, so the count plot gives is
	// that of the drawn rows inside it.
	png := filepath.Join(dir, "mv.png")
	_, plotErr, err := gcpRun("plot", "-model", model, "-data", test, "-o", png)
	if err != nil {
		t.Fatal(err)
	}
	for i := range preds {
		y := []float64{must(tab.Number(i, 2)), must(tab.Number(i, 3))}
		in, _ := preds[i].CalibratedInside(y, 0.95)
		if r := newPairRow(&preds[i], y, 0, 1); r.inside() != in {
			t.Fatalf("row %d: plot's region holds it %v, CalibratedInside %v", i, r.inside(), in)
		}
	}
	inside := 0
	for _, i := range spreadRows(means(preds), plotPairRows) {
		if in, _ := preds[i].CalibratedInside([]float64{must(tab.Number(i, 2)), must(tab.Number(i, 3))}, 0.95); in {
			inside++
		}
	}
	if want := fmt.Sprintf("hold %d of 9 outcomes", inside); !strings.Contains(plotErr, want) {
		t.Errorf("plot said %q, want %q", plotErr, want)
	}
	joint := evalJointNLL(t, model, test)
	if err := m.SetTargetTransforms(nil); err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	var p gcp.MultiPrediction
	var want float64
	for i := range preds {
		a, b := must(tab.Number(i, 2)), must(tab.Number(i, 3))
		if err := m.PredictMulti(ws, []float64{must(tab.Number(i, 0)), must(tab.Number(i, 1))}, &p); err != nil {
			t.Fatal(err)
		}
		want += (-p.LogPDF([]float64{math.Log(a), b}) + math.Log(a)) / 100
	}
	if math.Abs(joint-want) > 1e-5*(1+math.Abs(want)) { // eval prints 6 significant digits
		t.Errorf("joint-NLL %v, want %v", joint, want)
	}
}

// means returns the predicted means of target 0 of preds, the order
// plot draws its rows in.
func means(preds []gcp.MultiPrediction) []float64 {
	m := make([]float64, len(preds))
	for i := range preds {
		m[i] = preds[i].Mean(0)
	}
	return m
}
