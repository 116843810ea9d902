package gcp

import (
	"fmt"
	"math"
	"testing"
)

// TestSingleNetworkPrediction checks a single GCP network's predictions
// bit for bit against the NormalGamma methods of their own priors, on
// every kernel table: gcpPredictives computes σ once for Var,
// VarCorrected and the check, which must change no bit of what Var and
// VarCorrected compute, and mixRows takes a single network's values as
// they are (VarCorrected times CorrectedScale), with the ensemble's fields
// at zero: VarEpistemic, Disagreement and every Component. With a learned
// α, Var is σ divided by the link's α − 1, which the prediction does not
// carry; α − 1 is within half an ulp of α of it, so Var is within
// ulp(α)/(α−1) of σ/(α−1), and 2 more ulps of rounding.
func TestSingleNetworkPrediction(t *testing.T) {
	ktRun(t, testSingleNetworkPrediction[float32], testSingleNetworkPrediction[float64])
}

func testSingleNetworkPrediction[T Float](t *testing.T, k *kernelSet[T]) {
	for _, fixed := range []float64{0, 0.8, 3} {
		t.Run(fmt.Sprintf("FixedAlpha=%v", fixed), func(t *testing.T) {
			m := trainFew[T](t, Config{Inputs: 3, Hidden: []int{7}, Seed: 4, FixedAlpha: fixed}, TrainConfig{BatchSize: 8}, 20)
			m.k = k
			if err := m.SetStandardization([]float64{1, 0, -1}, []float64{2, 1, 0.5}, 3, 40); err != nil {
				t.Fatal(err)
			}
			if err := m.SetVarScale(1.7); err != nil {
				t.Fatal(err)
			}
			if err := m.SetCorrectedScale(0.6); err != nil {
				t.Fatal(err)
			}
			const n = 70 // a chunk of 64 rows and one of 6
			x, _ := randomBatch[T](9, n, 3)
			out := make([]Prediction, n)
			if err := m.PredictBatch(m.NewWorkspace(), x, out); err != nil {
				t.Fatal(err)
			}
			for i, p := range out {
				g := p.Prior()
				v := g.Var()
				if fixed == 0 {
					am1 := p.Alpha - 1
					if d := math.Abs(p.Var - g.sigma()/am1); !(d <= (math.Nextafter(p.Alpha, 2*p.Alpha)-p.Alpha)/am1*p.Var+4e-16*p.Var) {
						t.Errorf("row %d: Var %v, σ/(α−1) %v", i, p.Var, g.sigma()/am1)
					}
					v = p.Var
				}
				want := Prediction{Loss: LossGCP, Mean: p.Mean, Var: v, VarCorrected: g.VarCorrected() * 0.6,
					Alpha: p.Alpha, Beta: p.Beta, Nu: p.Nu, InputZ: p.InputZ, VarAleatoric: v, Members: 1}
				if p != want {
					t.Errorf("row %d:\n got %+v\nwant %+v", i, p, want)
				}
			}
		})
	}
}
