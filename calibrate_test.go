package gcp

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCalibratedPredictive checks the calibrated predictive against the
// closed forms of N(Mean, VarCorrected): the CDF at the mean ± one sd is
// Φ(±1), the quantile inverts the CDF, the 95% interval is Mean ± 1.96 sd,
// the log density is the Gaussian's, and the interval at the largest
// level below 1 is finite and symmetric (TestIntervalNearOne checks the
// Student-t interval there).
func TestCalibratedPredictive(t *testing.T) {
	p := Prediction{Loss: LossGCP, Mean: 3, VarCorrected: 4, Var: 9, Alpha: 2, Beta: 1, Nu: 1}
	const sd = 2
	phi1 := 0.5 * math.Erfc(-1/math.Sqrt2) // Φ(1)
	if got := p.CalibratedCDF(p.Mean + sd); math.Abs(got-phi1) > 1e-15 {
		t.Errorf("CDF(mean+sd) = %.17g, want Φ(1) = %.17g", got, phi1)
	}
	q, err := p.CalibratedQuantile(0.3)
	if err != nil || math.Abs(p.CalibratedCDF(q)-0.3) > 1e-15 {
		t.Errorf("CDF(Quantile(0.3)) = %v (%v), want 0.3", p.CalibratedCDF(q), err)
	}
	lo, hi, err := p.CalibratedInterval(0.95)
	// Φ⁻¹(0.975) = 1.959963984540054.
	if want := 1.959963984540054 * sd; err != nil || math.Abs(lo-(p.Mean-want)) > 1e-12 || math.Abs(hi-(p.Mean+want)) > 1e-12 {
		t.Errorf("95%% interval [%v, %v] (%v), want mean ∓ %v", lo, hi, err, want)
	}
	y := 4.5
	if got, want := p.CalibratedLogPDF(y), -0.5*math.Log(2*math.Pi*4)-(y-3)*(y-3)/8; math.Abs(got-want) > 1e-15 {
		t.Errorf("LogPDF = %v, want %v", got, want)
	}
	lo, hi, err = p.CalibratedInterval(math.Nextafter(1, 0))
	if err != nil || !(lo < p.Mean && hi > p.Mean) || hi-p.Mean != p.Mean-lo || math.IsInf(lo, 0) {
		t.Errorf("interval at the largest level: [%v, %v] (%v), want finite and symmetric", lo, hi, err)
	}
	for _, level := range []float64{0, 1, -0.5, math.NaN()} {
		if _, _, err := p.CalibratedInterval(level); !errors.Is(err, ErrLevel) {
			t.Errorf("level %v: %v, want ErrLevel", level, err)
		}
	}
	if _, err := p.CalibratedQuantile(1); !errors.Is(err, ErrProbability) {
		t.Errorf("Quantile(1): %v, want ErrProbability", err)
	}
}

// TestConcurrentReadersAndRecalibration checks, under -race, what Model's
// doc allows beside prediction: goroutines predict from the model an
// atomic.Pointer holds and call every method that only reads it (Config,
// NumParams, Clone, Standardization, VarScale, CorrectedScale,
// FeatureNames, FeatureRanges, OutsideRange, MarshalBinary), while the
// model is recalibrated the documented way: Calibrate and SetFeatureNames
// on a Clone, which is then published. Every prediction must be the
// serial prediction of the model it loaded, the old one or the
// recalibrated one, never a mix. (Calibrate on the served model itself is
// the data race its doc forbids: the race detector would fail this test.)
func TestConcurrentReadersAndRecalibration(t *testing.T) {
	old := trainFew[float64](t, Config{Inputs: 2, Hidden: []int{8}, Seed: 3}, TrainConfig{BatchSize: 4}, 5)
	x, y := randomBatch[float64](4, 60, 2)
	serial := func(m *Model[float64]) Prediction {
		p, err := m.Predict(m.NewWorkspace(), x[:2])
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// wantNext is written before next is published, and read only by a
	// reader that loaded next: the atomic.Pointer orders the two.
	wantOld, wantNext := serial(old), Prediction{}
	var live atomic.Pointer[Model[float64]]
	live.Store(old)
	var afterSwap atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := old.NewWorkspace()
			for {
				select {
				case <-stop:
					return
				default:
				}
				m := live.Load()
				p, err := m.Predict(ws, x[:2])
				m.Config()
				m.NumParams()
				m.Clone()
				m.Standardization()
				m.VarScale()
				m.CorrectedScale()
				m.FeatureNames()
				m.FeatureRanges()
				m.OutsideRange(x[:2])
				_, merr := m.MarshalBinary()
				want := wantOld
				if m != old {
					want = wantNext
					afterSwap.Add(1)
				}
				if err != nil || merr != nil || p != want {
					errs <- fmt.Errorf("a prediction beside the recalibration: %+v (%v, %v), want %+v", p, err, merr, want)
					return
				}
			}
		}()
	}
	next := old.Clone()
	if _, _, err := next.Calibrate(x, y); err != nil {
		t.Fatal(err)
	}
	if err := next.SetFeatureNames([]string{"a", "b"}, "y"); err != nil {
		t.Fatal(err)
	}
	wantNext = serial(next)
	if wantNext == wantOld {
		t.Fatal("the recalibration changed no prediction: the test cannot tell the models apart")
	}
	live.Store(next)
	for afterSwap.Load() < 100 { // the readers run on past the swap
		runtime.Gosched()
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
