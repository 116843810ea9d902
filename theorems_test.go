// The paper's theorems and experiments, checked on the code: Lemma 2.1
// by finite differences, Theorems 3.1 and 3.2 with Corollary 3.1 and
// Theorem 4.1 with Corollary 4.1 by iterating GCPStep, Fig. 5.1, and the
// network experiments of Sec. 6 (synthetic outliers, α marking the outlier
// region, the epistemic variance of Fig. 6.1 for an ensemble).

package gcp

import (
	"math"
	"testing"
)

// TestEnsembleEpistemicCubic is the experiment of Sec. 6.2 (Fig. 6.1) for
// a GCP ensemble of five, trained as the demo trains its panels (2000
// epochs of minibatch 5, learning rate 3e-3): 20 points on [−4, −2] ∪ [2, 4], y ~ N(x³, 3²). Its
// epistemic standard deviation must grow in the gap (x = 0) and beyond the
// data (the mean of x = ±6) to at least 3× its mean over the training
// inputs, as ML_Bayes's does (TestEpistemicUncertainty); a model without
// epistemic uncertainty, or whose members all extrapolate alike, fails.
// Each side is logged: the members share their minibatches, and on one
// side they may extrapolate alike (x = −6: 0.81×, x = +6: 33× with these
// seeds). Then the newcomer's case: at a million times the training
// range the members disagree by far more than the noise, Disagreement ≫
// 1, while on the training inputs Disagreement stays below 1. Seeds: data
// 1, weights 1, shuffles and dropout 1.
func TestEnsembleEpistemicCubic(t *testing.T) {
	x, y := cubicData(20, 1)
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{50}, Members: 5, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 5, Seed: 1})
	if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: 2000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	predict := func(v float64) Prediction {
		p, err := m.Predict(ws, []float32{float32(v)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sd := func(v float64) float64 { return math.Sqrt(predict(v).VarEpistemic) }
	var train, disagree float64
	for _, v := range x {
		train += sd(float64(v)) / float64(len(x))
		disagree = max(disagree, predict(float64(v)).Disagreement)
	}
	for _, v := range []float64{-6, 0, 6} {
		t.Logf("epistemic sd at x = %v: %.3g, %.2f× its mean %.3g over the training inputs", v, sd(v), sd(v)/train, train)
	}
	if gap := sd(0); !(gap >= 3*train) {
		t.Errorf("epistemic sd in the gap %.3g, want at least 3× its training mean %.3g", gap, train)
	}
	if beyond := (sd(-6) + sd(6)) / 2; !(beyond >= 3*train) {
		t.Errorf("epistemic sd at |x| = 6 %.3g, want at least 3× its training mean %.3g", beyond, train)
	}
	if !(disagree < 1) {
		t.Errorf("Disagreement up to %.3g on the training inputs, want below 1", disagree)
	}
	for _, v := range []float64{-4e6, 4e6} {
		if d := predict(v).Disagreement; !(d > 100) {
			t.Errorf("Disagreement %.3g at x = %g, a million times the training range: want ≫ 1", d, v)
		}
	}
}
