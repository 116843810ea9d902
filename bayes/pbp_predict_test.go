package bayes

import (
	"math"
	"sync"
	"testing"

	"github.com/gcpnet/gcp"
)

// sinkPrediction keeps the compiler from discarding predictions in
// TestPBPPredictAllocs.
var sinkPrediction gcp.Prediction

// TestPBPPredictAllocs checks that Predict allocates nothing.
func TestPBPPredictAllocs(t *testing.T) {
	m := fitSine(t)
	ws := m.NewWorkspace()
	x := []float64{0.5}
	if n := testing.AllocsPerRun(100, func() {
		var err error
		if sinkPrediction, err = m.Predict(ws, x); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Predict allocates %g times per call, want 0", n)
	}
}

// TestPBPPredictConcurrent runs Predict from 4 goroutines at once, each with
// its own PBPWorkspace, and checks every result against the same input's
// prediction made alone; under -race it also checks that Predict only
// reads the model.
func TestPBPPredictConcurrent(t *testing.T) {
	m := fitSine(t)
	const n = 200
	want := make([]gcp.Prediction, n)
	ws := m.NewWorkspace()
	for i := range want {
		var err error
		if want[i], err = m.Predict(ws, []float64{float64(i)/20 - 5}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := m.NewWorkspace()
			for k := range n {
				i := (k + 37*g) % n
				p, err := m.Predict(ws, []float64{float64(i)/20 - 5})
				if err != nil || p != want[i] {
					t.Errorf("goroutine %d, input %d: %+v, %v; alone %+v", g, i, p, err, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPBPPredictionIsGaussian checks the seam: a PBP prediction is a
// gcp.Prediction whose variance is the model's noise variance plus the
// output's, in original units, and whose methods, which package gcp
// implements, describe the Gaussian N(Mean, Var). The references are
// written out here: Φ⁻¹(0.975) = 1.959963984540054 and Φ(1) =
// 0.8413447460685429 from tables, the Gaussian log density by its
// formula. gcp's normal quantile is accurate to a few ulps and its CDF
// and log density to about 1e-15, so 1e-13 relative is a safe bound.
func TestPBPPredictionIsGaussian(t *testing.T) {
	m := fitSine(t)
	ws := m.NewWorkspace()
	p, err := m.Predict(ws, []float64{1.3})
	if err != nil {
		t.Fatal(err)
	}
	noise := m.yScale * m.yScale * m.noiseB / (m.noiseA - 1)
	if p.Loss != gcp.LossGaussianML || p.Members != 1 || !math.IsInf(p.Alpha, 1) || p.Beta != 0 || p.Nu != 0 {
		t.Errorf("prediction %+v is not a single Gaussian member", p)
	}
	if p.VarAleatoric != noise || p.Var != p.VarAleatoric+p.VarEpistemic || p.VarCorrected != p.Var || !(p.VarEpistemic > 0) {
		t.Errorf("variances %+v, want aleatoric %g and Var = VarCorrected = aleatoric + epistemic > aleatoric", p, noise)
	}
	sd := math.Sqrt(p.Var)
	for _, iv := range []func(float64) (float64, float64, error){p.Interval, p.CalibratedInterval} {
		lo, hi, err := iv(0.95)
		if err != nil || !close(lo, p.Mean-1.959963984540054*sd, 1e-13) || !close(hi, p.Mean+1.959963984540054*sd, 1e-13) {
			t.Errorf("95%% interval [%.17g, %.17g] (%v), want mean ± 1.96 sd = [%.17g, %.17g]", lo, hi, err, p.Mean-1.959963984540054*sd, p.Mean+1.959963984540054*sd)
		}
	}
	if q, err := p.Quantile(0.975); err != nil || !close(q, p.Mean+1.959963984540054*sd, 1e-13) {
		t.Errorf("Quantile(0.975) = %.17g (%v)", q, err)
	}
	if c := p.CDF(p.Mean + sd); !close(c, 0.8413447460685429, 1e-13) {
		t.Errorf("CDF(mean + sd) = %.17g, want Φ(1)", c)
	}
	y := p.Mean + 0.7
	want := -0.5*math.Log(2*math.Pi*p.Var) - 0.7*0.7/(2*p.Var)
	if got := p.LogPDF(y); !close(got, want, 1e-13) || !close(p.CalibratedLogPDF(y), want, 1e-13) {
		t.Errorf("LogPDF = %.17g, CalibratedLogPDF = %.17g, want %.17g", got, p.CalibratedLogPDF(y), want)
	}
}
