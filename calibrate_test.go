package gcp

import (
	"errors"
	"math"
	"testing"
)

// TestCalibratedPredictive checks the calibrated predictive against the
// closed forms of N(Mean, VarCorrected): the CDF at the mean ± one sd is
// Φ(±1), the quantile inverts the CDF, the 95% interval is Mean ± 1.96 sd,
// the log density is the Gaussian's, and the interval at the largest
// level below 1 is finite and symmetric (defect 8 of issue #11 for the
// Student-t interval).
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
