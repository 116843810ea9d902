package gcp

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// memberDensities returns, for the prediction p of a model with k
// members, each member's predictive at y as a log density and its squared
// scale, computed here from the closed forms of the Student t and the
// Gaussian rather than by the package's density code.
func memberDensities(p Prediction, y float64) (logpdf, s2 []float64) {
	comps := []Component{{Mean: p.Mean, Scale: math.Sqrt(p.Var), DoF: math.Inf(1)}}
	if p.Members > 1 {
		comps = p.Components[:p.Members]
	} else if !p.Loss.gaussian() {
		comps[0] = Component{Mean: p.Mean, Scale: math.Sqrt(p.Beta * (p.Nu + 1) / (p.Nu * p.Alpha)), DoF: 2 * p.Alpha}
	}
	for _, c := range comps {
		z := (y - c.Mean) / c.Scale
		l := -0.5*math.Log(2*math.Pi) - math.Log(c.Scale) - z*z/2
		if nu := c.DoF; !math.IsInf(nu, 1) {
			a, _ := math.Lgamma((nu + 1) / 2)
			b, _ := math.Lgamma(nu / 2)
			l = a - b - 0.5*math.Log(nu*math.Pi) - math.Log(c.Scale) - (nu+1)/2*math.Log1p(z*z/nu)
		}
		logpdf, s2 = append(logpdf, l), append(s2, c.Scale*c.Scale)
	}
	return logpdf, s2
}

// TestScaleWeightingGradient checks the gradient of a step with
// ScaleWeighting b against central differences of the objective it
// claims to follow: Σ_i Σ_k w_ik·(−ln p_k(y_i))/n, with each member k's
// weights w_ik = s²_ik^b / mean_i(s²_ik^b) computed once, at the
// parameters of the step, from the members' predictive scales, and held
// fixed while the parameters move.
func TestScaleWeightingGradient(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		b    float64
	}{
		{"gcp", Config{Inputs: 3, Hidden: []int{5}, Seed: 1}, 0.5},
		{"gcp-b1", Config{Inputs: 3, Hidden: []int{5}, Seed: 1}, 1},
		{"fixed-alpha", Config{Inputs: 3, Hidden: []int{5}, FixedAlpha: 1.5, Seed: 2}, 0.5},
		{"gaussian-ml", Config{Inputs: 3, Hidden: []int{5}, Loss: LossGaussianML, Seed: 6}, 0.5},
		{"ensemble-3-deep", Config{Inputs: 2, Hidden: []int{4, 3}, Members: 3, Seed: 10}, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 5
			m := mustModel[float64](t, tc.cfg)
			tr := mustTrainer(t, m, TrainConfig{BatchSize: n, Seed: 9, ScaleWeighting: tc.b})
			x, y := randomBatch[float64](11, n, tc.cfg.Inputs)
			for range 3 { // off the ReLU kinks of initialization, as TestNetworkGradient
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}
			ws := m.NewWorkspace()
			objective := func(w [][]float64) (j float64, s2 [][]float64) {
				for i := range y {
					p, err := m.Predict(ws, x[i*tc.cfg.Inputs:(i+1)*tc.cfg.Inputs])
					if err != nil {
						t.Fatal(err)
					}
					l, s := memberDensities(p, y[i])
					for k := range l {
						if w != nil {
							j -= w[k][i] * l[k] / n
						}
						if i == 0 {
							s2 = append(s2, make([]float64, n))
						}
						s2[k][i] = s[k]
					}
				}
				return j, s2
			}
			_, s2 := objective(nil)
			w := make([][]float64, len(s2))
			for k, s := range s2 {
				var sum float64
				for i, v := range s {
					s[i] = math.Pow(v, tc.b)
					sum += s[i]
				}
				for i := range s {
					s[i] *= n / sum
				}
				w[k] = s
			}
			if err := m.standardizeRows(tr.a.x[:len(x)], x, make([]float64, len(y))); err != nil {
				t.Fatal(err)
			}
			copy(tr.y, y) // the model has no standardization: y is as given
			tr.gradientMasked(n, nil)
			grad := slices.Clone(tr.grad)
			// Central differences with h = 1e-5 on an objective of order 1:
			// truncation O(h²) ≈ 1e-10, rounding ε/h ≈ 2e-11, relative to
			// gradients of order 1e-3..1; the floor keeps dead units' zero
			// gradients meaningful, as in TestNetworkGradient. A weight
			// applied to the wrong head or member, or left unnormalized, is
			// an O(1) error.
			const h, tol = 1e-5, 1e-5
			checkParamGradient(t, "step's gradient", m.params, grad, h, tol, func() float64 {
				j, _ := objective(w)
				return j
			})
		})
	}
}

// TestScaleWeightingRange checks that NewTrainer refuses an exponent
// outside [0, 1].
func TestScaleWeightingRange(t *testing.T) {
	m := mustModel[float32](t, Config{Inputs: 2})
	for _, b := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := NewTrainer(m, TrainConfig{ScaleWeighting: b}); !errors.Is(err, ErrConfig) {
			t.Errorf("ScaleWeighting %v: error %v, want ErrConfig", b, err)
		}
	}
}
