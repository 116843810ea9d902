package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// dpdByQuadrature returns the density power divergence of N(m, s) at the
// sample y from its definition, ∫ f^{1+γ} − (1 + 1/γ) f(y)^γ, with the
// integral by composite Simpson's rule over m ± 40 sd: independent of
// dpdPoint's closed form. With 20000 panels the rule's error is far below
// 1e-12 relative (the integrand is smooth and negligible at the ends).
func dpdByQuadrature(m, s, y, gamma float64) float64 {
	f := func(v float64) float64 { return math.Exp(-(v-m)*(v-m)/(2*s)) / math.Sqrt(2*math.Pi*s) }
	const panels = 20000
	sd := math.Sqrt(s)
	a, h := m-40*sd, 80*sd/panels
	sum := math.Pow(f(a), 1+gamma) + math.Pow(f(a+80*sd), 1+gamma)
	for i := 1; i < panels; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * math.Pow(f(a+float64(i)*h), 1+gamma)
	}
	return sum*h/3 - (1+1/gamma)*math.Pow(f(y), gamma)
}

// gaussianNLLDirect is −ln N(y | m, s) written from the density.
func gaussianNLLDirect(m, s, y float64) float64 {
	return -math.Log(math.Exp(-(y-m)*(y-m)/(2*s)) / math.Sqrt(2*math.Pi*s))
}

// TestComparatorPointGradients checks the per-sample objectives of ML and
// DPD and their gradients with respect to the raw outputs (zm, zv) against
// the definitions: the Gaussian NLL from the density, the DPD by
// quadrature, and both gradients by central differences of those.
func TestComparatorPointGradients(t *testing.T) {
	for _, c := range []struct{ zm, zv, y, gamma float64 }{
		{0.3, 0.2, 1.1, 0.5},
		{-1, -2, 0.5, 0.1},
		{0, 1.5, -3, 1},
		{2, 0, 2, 0.25},
		{0, 0, 6, 0.5}, // an outlier at 4.5 sd: e = 6e-3
		{0.5, 3, -0.2, 2},
	} {
		s := gaussianVariance(c.zv)
		nll, obj, gm, gv := gaussianPoint(c.zm, c.zv, c.y, 0)
		want := gaussianNLLDirect(c.zm, s, c.y)
		// A handful of roundings in either formula: 1e-14 relative.
		if math.Abs(nll-want) > 1e-14*math.Abs(want) || obj != nll {
			t.Errorf("%+v: Gaussian NLL %v, objective %v, want %v", c, nll, obj, want)
		}
		dnll, dobj, dm, dv := dpdPoint(c.zm, c.zv, c.y, c.gamma)
		wantDPD := dpdByQuadrature(c.zm, s, c.y, c.gamma)
		// Simpson's error is below 1e-12 relative; the closed form adds
		// rounding only.
		if math.Abs(dobj-wantDPD) > 1e-11*math.Abs(wantDPD) || dnll != nll {
			t.Errorf("%+v: DPD %v (NLL %v), want %v by quadrature (NLL %v)", c, dobj, dnll, wantDPD, nll)
		}
		// Central differences with h = 1e-5: truncation O(h²) ≈ 1e-10
		// relative, rounding of the quadrature ≈ 1e-16·|L|/h ≈ 1e-11; a
		// wrong factor or sign is O(1).
		const h, tol = 1e-5, 1e-7
		fd := func(f func(zm, zv float64) float64) (float64, float64) {
			return (f(c.zm+h, c.zv) - f(c.zm-h, c.zv)) / (2 * h), (f(c.zm, c.zv+h) - f(c.zm, c.zv-h)) / (2 * h)
		}
		for _, g := range []struct {
			name   string
			gm, gv float64
			f      func(zm, zv float64) float64
		}{
			{"ML", gm, gv, func(zm, zv float64) float64 { return gaussianNLLDirect(zm, gaussianVariance(zv), c.y) }},
			{"DPD", dm, dv, func(zm, zv float64) float64 { return dpdByQuadrature(zm, gaussianVariance(zv), c.y, c.gamma) }},
		} {
			fm, fv := fd(g.f)
			scale := max(math.Abs(fm), math.Abs(fv), 1e-3)
			if math.Abs(fm-g.gm) > tol*scale || math.Abs(fv-g.gv) > tol*scale {
				t.Errorf("%+v %s: gradient (%v, %v), finite differences (%v, %v)", c, g.name, g.gm, g.gv, fm, fv)
			}
		}
	}
}

// TestDPDLimits checks DPD at its limits: as γ → 0 its gradient is ML's
// (Basu et al. 1998: the divergence tends to the KL divergence), and an
// outlier's pull on the mean vanishes, however far the outlier, while
// ML's grows with the distance: the robustness of Fig. 6.2.
func TestDPDLimits(t *testing.T) {
	for _, c := range []struct{ zm, zv, y float64 }{{0.3, 0.2, 1.1}, {-1, -2, 0.5}, {0, 1.5, -3}} {
		_, _, gm, gv := gaussianPoint(c.zm, c.zv, c.y, 0)
		_, _, dm, dv := dpdPoint(c.zm, c.zv, c.y, 1e-9)
		// The difference is O(γ) = 1e-9 relative, plus rounding.
		if math.Abs(dm-gm) > 1e-7*math.Abs(gm) || math.Abs(dv-gv) > 1e-7*math.Abs(gv) {
			t.Errorf("%+v: DPD gradient at γ = 1e-9 (%v, %v), ML (%v, %v)", c, dm, dv, gm, gv)
		}
	}
	for _, y := range []float64{1e3, 1e30, 1e200, math.MaxFloat64} {
		nll, obj, dm, dv := dpdPoint(0, 0, y, 0.5)
		_, _, mlm, _ := gaussianPoint(0, 0, y, 0)
		// e = exp(−γ y²/(2s)) underflows to 0 for every y here, so the
		// mean's gradient is exactly 0 and the variance's is −γL/(2s)
		// times the link's slope, with L = (2πs)^{−γ/2}(1+γ)^{−1/2}.
		s := gaussianVariance(0)
		wantV := -0.5 * math.Pow(2*math.Pi*s, -0.25) / math.Sqrt(1.5) / (2 * s) * sigmoid(0)
		if dm != 0 || math.Abs(dv-wantV) > 1e-15 || !finite(obj) {
			t.Errorf("y = %g: DPD objective %v, gradient (%v, %v), want (0, %v)", y, obj, dm, dv, wantV)
		}
		if y <= 1e30 && !(math.Abs(mlm) >= 0.99*y/s) {
			t.Errorf("y = %g: ML mean gradient %v, want about -y/s = %v", y, mlm, -y/s)
		}
		if y <= 1e30 && !(nll > 0.4*y*y/s) {
			t.Errorf("y = %g: NLL %v, want about y²/(2s)", y, nll)
		}
	}
}

func meanOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// fitLoss trains a float32 network with the given loss on one input, with
// the hyperparameters of fitSynthetic.
func fitLoss(t *testing.T, cfg Config, x, y []float32, epochs int) *Model[float32] {
	t.Helper()
	m := mustModel[float32](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 32, Seed: 1})
	if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: epochs, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return m
}

// cubicData draws the data set of Sec. 6.2:
// n inputs uniform on [−4, −2] ∪ [2, 4] and targets y ~ N(x³, 3²).
func cubicData(n int, seed uint64) (x, y []float32) {
	r := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i < n; i++ {
		v := 2 + 2*r.Float64()
		if r.IntN(2) == 0 {
			v = -v
		}
		x, y = append(x, float32(v)), append(y, float32(v*v*v+3*r.NormFloat64()))
	}
	return x, y
}

// TestComparatorsRejectBadInput checks that every loss gives the same
// errors for bad input and leaves the model unchanged.
func TestComparatorsRejectBadInput(t *testing.T) {
	for _, loss := range allLosses {
		m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{4}, Loss: loss, Dropout: 0.2, Seed: 1})
		before := slices.Clone(m.params)
		tr := mustTrainer(t, m, TrainConfig{BatchSize: 2})
		ws := m.NewWorkspace()
		nan := math.NaN()
		for name, c := range map[string]struct {
			err  error
			want error
		}{
			"Step NaN x":     {stepErr(tr, []float64{1, nan, 0, 0}, []float64{1, 2}), ErrNonFinite},
			"Step Inf y":     {stepErr(tr, []float64{1, 1, 0, 0}, []float64{math.Inf(1), 2}), ErrNonFinite},
			"Step short x":   {stepErr(tr, []float64{1, 1, 0}, []float64{1, 2}), ErrShape},
			"Step big batch": {stepErr(tr, make([]float64, 6), make([]float64, 3)), ErrBatch},
			"Predict NaN":    {predictErr(m, ws, []float64{nan, 0}), ErrNonFinite},
			"Predict short":  {predictErr(m, ws, []float64{0}), ErrShape},
		} {
			if c.err != c.want {
				t.Errorf("%v, %s: %v, want %v", loss, name, c.err, c.want)
			}
		}
		if !slices.Equal(before, m.params) {
			t.Errorf("%v: rejected calls changed the model", loss)
		}
	}
}

// TestExtremeOutlierStep steps on a target of 1e300: ML's objective, the
// NLL, overflows and the step is rejected with the model unchanged; DPD's
// objective stays finite (the outlier's weight e underflows to 0), so it
// steps, reporting the NLL of +Inf honestly.
func TestExtremeOutlierStep(t *testing.T) {
	x, y := []float64{1, 1, 0, 0}, []float64{1e300, 0.5}
	for _, c := range []struct {
		loss    Loss
		wantErr error
	}{{LossGaussianML, ErrDiverged}, {LossMLBayes, ErrDiverged}, {LossDPD, nil}} {
		m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{4}, Loss: c.loss, Dropout: 0.2, Seed: 1})
		before := slices.Clone(m.params)
		tr := mustTrainer(t, m, TrainConfig{BatchSize: 2})
		nll, err := tr.Step(x, y)
		if err != c.wantErr {
			t.Fatalf("%v: Step error %v, want %v", c.loss, err, c.wantErr)
		}
		if changed := !slices.Equal(before, m.params); changed != (err == nil) {
			t.Errorf("%v: Step error %v, parameters changed: %v", c.loss, err, changed)
		}
		if err == nil && (!math.IsInf(nll, 1) || !m.k.allFinite(m.params)) {
			t.Errorf("%v: NLL %v, want +Inf, and finite parameters", c.loss, nll)
		}
	}
}

func stepErr(tr *Trainer[float64], x, y []float64) error {
	_, err := tr.Step(x, y)
	return err
}

func predictErr(m *Model[float64], ws *Workspace[float64], x []float64) error {
	_, err := m.Predict(ws, x)
	return err
}
