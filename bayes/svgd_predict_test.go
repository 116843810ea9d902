package bayes

import (
	"math"
	"sync"
	"testing"

	"github.com/gcpnet/gcp"
)

// TestSVGDPredictByHand checks Predict against the particles run by hand,
// and that the root's LogPDF, CDF, Quantile and Interval of the
// prediction are those of the particles' Gaussian mixture, computed
// directly (math.Erfc and the density; 1e-12 relative is ample for one
// sum of a few exponentials, 1e-9 for the quantile solver's 1e-10).
func TestSVGDPredictByHand(t *testing.T) {
	m := svgdSmall(t)
	ws := m.NewWorkspace()
	for _, x := range [][]float64{{0, 0}, {1, -1}, {-2.5, 0.3}, {6, 6}} {
		p, err := m.Predict(ws, x)
		if err != nil {
			t.Fatal(err)
		}
		means, sds := svgdHand(m.cfg.Hidden, m.theta, m.xMean, m.xScale, m.yMean, m.yScale, m.cfg.Particles, x)
		svgdCheckPrediction(t, p, means, sds)
		cdf := func(y float64) float64 {
			var s float64
			for i := range means {
				s += 0.5 * math.Erfc(-(y-means[i])/(sds[i]*math.Sqrt2)) / float64(len(means))
			}
			return s
		}
		for _, y := range []float64{p.Mean - 2*math.Sqrt(p.Var), p.Mean, p.Mean + 0.7*math.Sqrt(p.Var)} {
			var dens float64
			for i := range means {
				z := (y - means[i]) / sds[i]
				dens += math.Exp(-z*z/2) / (sds[i] * math.Sqrt(2*math.Pi)) / float64(len(means))
			}
			if got, want := p.LogPDF(y), math.Log(dens); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Errorf("x %v: LogPDF(%g) = %.15g, mixture %.15g", x, y, got, want)
			}
			if got, want := p.CDF(y), cdf(y); math.Abs(got-want) > 1e-12 {
				t.Errorf("x %v: CDF(%g) = %.15g, mixture %.15g", x, y, got, want)
			}
		}
		lo, hi, err := p.Interval(0.9)
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.Quantile(0.2)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ y, want float64 }{{lo, 0.05}, {hi, 0.95}, {q, 0.2}} {
			if got := cdf(c.y); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("x %v: the mixture's CDF at the %.2f quantile %g is %.12g", x, c.want, c.y, got)
			}
		}
	}
}

// svgdSink keeps the predictions of TestSVGDAllocs alive.
var svgdSink gcp.Prediction

func TestSVGDAllocs(t *testing.T) {
	m := svgdSmall(t)
	ws := m.NewWorkspace()
	x := []float64{0.5, -0.25}
	if a := testing.AllocsPerRun(100, func() {
		var err error
		if svgdSink, err = m.Predict(ws, x); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Predict allocates %v times per call", a)
	}
}

// TestSVGDConcurrent predicts from several goroutines at once, each with
// its own workspace, and compares with serial predictions; run it with
// -race.
func TestSVGDConcurrent(t *testing.T) {
	m := svgdSmall(t)
	x, _ := svgdPlane(3, 50)
	want := make([]gcp.Prediction, 50)
	ws := m.NewWorkspace()
	for i := range want {
		var err error
		if want[i], err = m.Predict(ws, x[2*i:2*i+2]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := m.NewWorkspace()
			for i := range want {
				p, err := m.Predict(ws, x[2*i:2*i+2])
				if err != nil || p != want[i] {
					t.Errorf("row %d: concurrent prediction %v (%v) differs", i, p.Mean, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
