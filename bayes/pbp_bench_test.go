package bayes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchRows makes n rows of d features and a noisy nonlinear target, the
// shape of the larger UCI sets (kin8nm: 8 features).
func benchRows(n, d int) (x, y []float64) {
	r := rand.New(rand.NewPCG(7, 8))
	x, y = make([]float64, n*d), make([]float64, n)
	for i := range n {
		var s float64
		for j := range d {
			v := r.NormFloat64()
			x[i*d+j] = v
			s += math.Sin(v * float64(j+1))
		}
		y[i] = s + 0.1*r.NormFloat64()
	}
	return x, y
}

// BenchmarkPBPTrainEpoch measures one PBP epoch (an ADF pass and the prior
// refinement) on 1000 rows of 8 features with 50 hidden units, reported
// per row.
func BenchmarkPBPTrainEpoch(b *testing.B) {
	x, y := benchRows(1000, 8)
	m, err := FitPBP(PBPConfig{Inputs: 8, Epochs: 1}, x, y)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := m.Train(x, y, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(y)), "ns/row")
}

// BenchmarkPBPPredict measures one prediction of the same model.
func BenchmarkPBPPredict(b *testing.B) {
	x, y := benchRows(1000, 8)
	m, err := FitPBP(PBPConfig{Inputs: 8, Epochs: 1}, x, y)
	if err != nil {
		b.Fatal(err)
	}
	ws := m.NewWorkspace()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.Predict(ws, x[:8]); err != nil {
			b.Fatal(err)
		}
	}
}
