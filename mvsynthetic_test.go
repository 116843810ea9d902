package gcp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcpnet/gcp/internal/longtest"
)

// williams returns the truth of Williams (1996), as NGBoost's
// multivariate example codes it: at x ∈ (0, π) the means, standard
// deviations and correlation of a bivariate Gaussian target.
func williams(x float64) (mu1, mu2, s1, s2, rho float64) {
	mu1 = math.Sin(2.5*x) * math.Sin(1.5*x)
	mu2 = math.Cos(3.5*x) * math.Cos(0.5*x)
	a, b := 1-math.Sin(2.5*x), 1-math.Cos(2.5*x)
	s1, s2 = math.Sqrt(0.01+0.25*a*a), math.Sqrt(0.01+0.25*b*b)
	return mu1, mu2, s1, s2, math.Sin(2.5*x) * math.Cos(0.5*x)
}

// TestWilliamsCorrelation trains a single network of two targets with
// plain Fit on 2,000 rows of Williams's truth (x ∼ U(0, π)) and compares
// the predicted correlation and corrected standard deviations with the
// truth on a grid of 100 x: the target is a mean |ρ̂(x) − ρ(x)|
// of at most 0.10. The standard deviations get a looser check, a mean
// relative error below 0.25 (a network of 2,000 rows fits σ(x) to about
// 10%; a wrong scale or a lost correction is off by far more).
func TestWilliamsCorrelation(t *testing.T) {
	longtest.Skip(t)
	const n = 2000
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, n), make([]float64, 2*n)
	for i := range n {
		x[i] = math.Pi * r.Float64()
		mu1, mu2, s1, s2, rho := williams(x[i])
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		y[2*i] = mu1 + s1*g1
		y[2*i+1] = mu2 + s2*(rho*g1+math.Sqrt(1-rho*rho)*g2)
	}
	m := mustModel[float64](t, Config{Inputs: 1, Hidden: []int{50, 50}, Targets: 2, Seed: 3})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 64, LearningRate: 3e-3, Seed: 4})
	if _, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 400, Seed: 5, Average: true}); err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	var p MultiPrediction
	var rhoErr, sErr float64
	const grid = 100
	for g := range grid {
		xg := math.Pi * (float64(g) + 0.5) / grid
		if err := m.PredictMulti(ws, []float64{xg}, &p); err != nil {
			t.Fatal(err)
		}
		_, _, s1, s2, rho := williams(xg)
		rhoErr += math.Abs(p.Corr(0, 1)-rho) / grid
		sErr += (math.Abs(math.Sqrt(p.CovCorrected(0, 0))/s1-1) + math.Abs(math.Sqrt(p.CovCorrected(1, 1))/s2-1)) / (2 * grid)
	}
	t.Logf("mean |ρ̂ − ρ| = %.4f, mean relative error of σ̃ = %.4f, ν at x = π(1 − 1/200) = %.3g", rhoErr, sErr, p.Nu())
	if rhoErr > 0.10 {
		t.Errorf("mean |ρ̂ − ρ| = %.4f, want ≤ 0.10", rhoErr)
	}
	if sErr > 0.25 {
		t.Errorf("mean relative error of the standard deviations = %.4f, want < 0.25", sErr)
	}
}
