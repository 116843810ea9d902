package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// mcCheck fails t unless the sample mean and variance of xs agree with
// want within 5 of their standard errors: s/√N for the mean and, for the
// variance, the standard deviation of the squared deviations over √N. A
// correct formula fails one such check with probability 6e-7, so the few
// dozen checks here together fail with probability about 1e-5, while a
// wrong formula is off by many standard errors at N = 200 000.
func mcCheck(t *testing.T, name string, xs []float64, wantMean, wantVar float64) {
	t.Helper()
	n := float64(len(xs))
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= n
	var m2, m4 float64
	for _, x := range xs {
		d := (x - mean) * (x - mean)
		m2 += d
		m4 += d * d
	}
	m2 /= n
	m4 /= n
	seMean, seVar := math.Sqrt(m2/n), math.Sqrt((m4-m2*m2)/n)
	if math.Abs(mean-wantMean) > 5*seMean {
		t.Errorf("%s: MC mean %.6g ± %.2g, formula %.6g", name, mean, seMean, wantMean)
	}
	if math.Abs(m2-wantVar) > 5*seVar {
		t.Errorf("%s: MC variance %.6g ± %.2g, formula %.6g", name, m2, seVar, wantVar)
	}
}

// TestLayerMomentsMonteCarlo samples a hidden layer of 4 units on 5
// inputs and a bias, with Gaussian weights and Gaussian inputs of the
// given moments, and checks the moments of its pre-activations
// (preactivation, exact for independent factors) and of its ReLU outputs
// for a Gaussian pre-activation (reluMoments, PBP's assumption) against
// the samples' (mcCheck gives the tolerance).
func TestLayerMomentsMonteCarlo(t *testing.T) {
	const inputs, units, samples = 6, 4, 200000
	r := rand.New(rand.NewPCG(3, 4))
	mz, vz := make([]float64, inputs), make([]float64, inputs)
	for i := range inputs - 1 {
		mz[i], vz[i] = r.NormFloat64(), 0.5*r.Float64()
	}
	mz[inputs-1], vz[inputs-1] = 1, 0 // the bias input
	w, v := make([]float64, units*inputs), make([]float64, units*inputs)
	for i := range w {
		w[i], v[i] = r.NormFloat64(), 0.3*r.Float64()
	}
	a, z := make([]float64, samples), make([]float64, samples)
	for j := range units {
		mu, s2 := preactivation(w[j*inputs:(j+1)*inputs], v[j*inputs:(j+1)*inputs], mz, vz)
		for s := range samples {
			var sum float64
			for i := range inputs {
				wi := w[j*inputs+i] + math.Sqrt(v[j*inputs+i])*r.NormFloat64()
				sum += wi * (mz[i] + math.Sqrt(vz[i])*r.NormFloat64())
			}
			a[s] = sum / math.Sqrt(inputs)
			z[s] = max(0, mu+math.Sqrt(s2)*r.NormFloat64())
		}
		mcCheck(t, fmt.Sprintf("unit %d pre-activation", j), a, mu, s2)
		m, vr, _, _ := reluMoments(mu, s2)
		mcCheck(t, fmt.Sprintf("unit %d ReLU output", j), z, m, vr)
	}
}

// TestPropagateDeterministic checks propagate's wiring of the layers on
// a network of 2 inputs, 3 hidden units and the output whose weights
// have variance 0: the moments are then those of one network, which is
// computed here by hand from the documented layout (a row of weights per
// unit, the bias weight last, the sum scaled by 1/√(fan-in + 1)), and
// the output's variance is 0. A few sums of order-1 values: 1e-14
// relative.
func TestPropagateDeterministic(t *testing.T) {
	m := newModel(PBPConfig{Inputs: 2, Hidden: []int{3}, Epochs: 1}.withDefaults())
	r := rand.New(rand.NewPCG(5, 6))
	for i := range m.mean {
		m.mean[i] = r.NormFloat64()
	}
	x := []float64{0.7, -1.3}
	ws := m.NewWorkspace()
	copy(ws.input(m), x)
	mean, variance := m.propagate(ws)
	w1, w2 := m.mean[:9], m.mean[9:13]
	want, active := w2[3], 0
	for j := range 3 {
		a := (w1[3*j]*x[0] + w1[3*j+1]*x[1] + w1[3*j+2]) / math.Sqrt(3)
		want += w2[j] * max(a, 0)
		if a > 0 {
			active++
		}
	}
	if active == 0 || active == 3 {
		t.Fatalf("%d of 3 hidden units active: the seed must give both kinds", active)
	}
	want /= 2 // √(3 + 1)
	if !close(mean, want, 1e-14) || variance != 0 {
		t.Errorf("propagate gives N(%.17g, %g), the network by hand %.17g with variance 0", mean, variance, want)
	}
}
