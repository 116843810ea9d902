package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestTransformApply(t *testing.T) {
	for _, tc := range []struct {
		tr   TargetTransform
		y, z float64
		err  error
	}{
		{TransformNone, -3.5, -3.5, nil},
		{TransformLog, math.E, 1, nil},
		{TransformLog, 1e-300, math.Log(1e-300), nil},
		{TransformLog, 0, 0, ErrDomain},
		{TransformLog, -1, 0, ErrDomain},
		{TransformLog, math.NaN(), 0, ErrDomain},
		{TargetTransform(7), 1, 0, ErrConfig},
	} {
		z, err := tc.tr.Apply(tc.y)
		if !errors.Is(err, tc.err) || err == nil && z != tc.z {
			t.Errorf("%v.Apply(%g) = %g, %v; want %g, %v", tc.tr, tc.y, z, err, tc.z, tc.err)
		}
	}
}

// TestTransformSubnormal: the log transform of a subnormal target is its
// logarithm, not math.Log's −709 of every subnormal on amd64: 2⁻¹⁰⁷⁴
// (the least float64) is −1074·ln 2 and 2⁻¹⁰⁵⁰ is −1050·ln 2, each the
// float64 nearest the product of an integer and ln 2 (within 2 ulps: the
// product rounds once, the logarithm once), and a log-transformed
// prediction's log density there is the t's at that z less z (the
// Jacobian 1/y).
func TestTransformSubnormal(t *testing.T) {
	p := Prediction{Loss: LossGCP, Mean: -740, Alpha: 3, Beta: 6, Nu: 1, Members: 1, Transform: TransformLog}
	for _, k := range []float64{1074, 1050, 1023} {
		y := math.Ldexp(1, -int(k))
		want := -k * math.Ln2
		z, err := TransformLog.Apply(y)
		if ulp := math.Nextafter(-want, math.Inf(1)) + want; err != nil || math.Abs(z-want) > 2*ulp {
			t.Errorf("Apply(2^-%v) = %v, %v; want %v", k, z, err, want)
		}
		q := p.modeled()
		if got, want := p.LogPDF(y), q.LogPDF(z)-z; got != want {
			t.Errorf("LogPDF(2^-%v) = %v, want %v", k, got, want)
		}
	}
}

func TestSkewness(t *testing.T) {
	// A Bernoulli(1/4) sample of four values: skewness
	// (1 − 2p)/√(p(1 − p)) = 2/√3.
	if got, want := skewness([]float64{0, 0, 0, 1}, TransformNone), 2/math.Sqrt(3); math.Abs(got-want) > 1e-15 {
		t.Errorf("skewness of 0, 0, 0, 1 = %v, want 2/√3 = %v", got, want)
	}
	for _, y := range [][]float64{nil, {3}, {2, 2, 2}, {0.1, 0.1, 0.1, 0.1}, {1e300, 1e300, 1e300}} {
		if got := skewness(y, TransformNone); got != 0 {
			t.Errorf("skewness of %v = %v, want 0", y, got)
		}
	}
	// Skewness does not depend on location or scale: the same sample
	// scaled near the ends of float64's range, where the moments' sums
	// overflow or underflow, and spanning it, shifted by −MaxFloat64/2
	// (0 and 1 ↦ −MaxFloat64/2 and +MaxFloat64/2, so that 1 − 0 is
	// beyond float64). The scaling adds a rounding or two to each
	// deviation: 1e-14 relative.
	// regression: the squared deviations overflowed and the skewness came
	// out 0 (or, underflowing, 0 too).
	for _, s := range []struct {
		name       string
		scale, add float64
	}{{"×1e300", 1e300, 0}, {"×1e155", 1e155, 0}, {"×1e-300", 1e-300, 0}, {"×MaxFloat64 − MaxFloat64/2", math.MaxFloat64, -math.MaxFloat64 / 2}} {
		y := []float64{0, 0, 0, 1}
		for i := range y {
			y[i] = y[i]*s.scale + s.add
		}
		if got, want := skewness(y, TransformNone), 2/math.Sqrt(3); !(math.Abs(got-want) <= 1e-14) {
			t.Errorf("skewness of 0, 0, 0, 1 %s = %v, want 2/√3 = %v", s.name, got, want)
		}
	}
}

// TestChooseTargetTransform checks the auto rule on samples of known
// skewness: the log-normal (σ = 0.5: skewness (e^σ² + 2)√(e^σ² − 1) =
// 1.75, 0 in logs), the exponential (2, and −1.14 in logs: the skewness
// of a Gumbel for the minimum), the normal (0), a sample with a value
// that is not positive, and one whose log is far more skewed than it.
func TestChooseTargetTransform(t *testing.T) {
	const n = 100000
	r := rand.New(rand.NewPCG(3, 4))
	draw := func(f func() float64) []float64 {
		y := make([]float64, n)
		for i := range y {
			y[i] = f()
		}
		return y
	}
	// The sample skewness of n draws has a standard error of about
	// √(6/n) = 0.008 for a normal sample and several times that for
	// these skewed ones (its variance involves the sixth moment); 0.1 is
	// beyond 3 standard errors for each, and far closer than the rule's
	// mark of 1.
	logNormal := draw(func() float64 { return math.Exp(0.5 * r.NormFloat64()) })
	s2 := math.Exp(0.25)
	for _, tc := range []struct {
		name          string
		y             []float64
		want          TargetTransform
		skew, logSkew float64 // NaN: not checked
	}{
		{"log-normal", logNormal, TransformLog, (s2 + 2) * math.Sqrt(s2-1), 0},
		{"exponential", draw(r.ExpFloat64), TransformLog, 2, -1.1395470994046487},
		{"normal", draw(func() float64 { return 10 + r.NormFloat64() }), TransformNone, 0, math.NaN()},
		{"a zero", append([]float64{0}, logNormal...), TransformNone, math.NaN(), math.NaN()},
		{"log more skewed", append(append(repeat([]float64{1}, 90), repeat([]float64{5}, 9)...), 1e-9), TransformNone, math.NaN(), math.NaN()},
	} {
		c := ChooseTargetTransform(tc.y)
		if c.Transform != tc.want {
			t.Errorf("%s: chose %v (%v), want %v", tc.name, c.Transform, c, tc.want)
		}
		if !math.IsNaN(tc.skew) && math.Abs(c.Skew-tc.skew) > 0.1 {
			t.Errorf("%s: skewness %v, want %v", tc.name, c.Skew, tc.skew)
		}
		if !math.IsNaN(tc.logSkew) && math.Abs(c.LogSkew-tc.logSkew) > 0.1 {
			t.Errorf("%s: skewness of the logs %v, want %v", tc.name, c.LogSkew, tc.logSkew)
		}
		if c.String() == "" {
			t.Errorf("%s: empty String", tc.name)
		}
	}
}

// TestTransformTraining checks that a transform set before training
// changes nothing of it, since training works in the modeled units: Fit
// gives the same statistics and parameters, bit for bit, and Calibrate the
// same scales.
func TestTransformTraining(t *testing.T) {
	x, y := randomBatch[float64](8, 96, 3)
	cfg := Config{Inputs: 3, Hidden: []int{5}, Seed: 9}
	var stats [2]EpochStats
	var models [2]*Model[float64]
	for k, tr := range []TargetTransform{TransformNone, TransformLog} {
		m := mustModel[float64](t, cfg)
		if err := m.SetTargetTransform(tr); err != nil {
			t.Fatal(err)
		}
		var err error
		if stats[k], err = mustTrainer(t, m, TrainConfig{BatchSize: 16, Seed: 2}).Fit(x, y, FitOptions[float64]{Epochs: 3, Seed: 3, ValidationShare: 0.25}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := m.Calibrate(x[:30], y[:10]); err != nil {
			t.Fatal(err)
		}
		models[k] = m
	}
	if stats[0] != stats[1] {
		t.Errorf("Fit statistics depend on the transform: %+v and %+v", stats[0], stats[1])
	}
	models[1].ext.transform = TransformNone
	if d := persistDiff(models[0], models[1]); d != "" {
		t.Errorf("the trained models differ (-none +log):\n%s", d)
	}
}

func TestSetTargetTransformErrors(t *testing.T) {
	var nilModel *Model[float64]
	if err := nilModel.SetTargetTransform(TransformLog); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	if got := nilModel.TargetTransform(); got != TransformNone {
		t.Errorf("nil model's transform %v", got)
	}
	m := mustModel[float64](t, Config{Inputs: 1})
	if err := m.SetTargetTransform(TargetTransform(2)); !errors.Is(err, ErrConfig) || m.TargetTransform() != TransformNone {
		t.Errorf("unknown transform: %v, model's %v", err, m.TargetTransform())
	}
	// regression: a model of several targets took the one transform and
	// predicted as if it had none (SetTargetTransforms sets theirs).
	multi := mustModel[float64](t, Config{Inputs: 1, Targets: 2})
	if err := multi.SetTargetTransform(TransformLog); !errors.Is(err, ErrShape) || multi.TargetTransform() != TransformNone {
		t.Errorf("several targets: %v, model's %v; want ErrShape, none", err, multi.TargetTransform())
	}
}

// transformModels are models of each predictive kind whose predictions
// the transform tests map back: a single GCP network, a Gaussian
// comparator, and GCP and Gaussian ensembles, with standardizations that
// put ln y near 2 with a spread of about 0.5, and a calibration.
func transformModels(t *testing.T) map[string]*Model[float64] {
	out := map[string]*Model[float64]{}
	for name, cfg := range map[string]Config{
		"gcp":              {Inputs: 2, Hidden: []int{6}, Seed: 31},
		"gaussian":         {Inputs: 2, Hidden: []int{6}, Loss: LossGaussianML, Seed: 32},
		"gcp ensemble":     {Inputs: 2, Hidden: []int{6}, Members: 3, Seed: 33},
		"gaussian members": {Inputs: 2, Hidden: []int{5}, Loss: LossGaussianML, Members: 2, Seed: 34},
	} {
		m := mustModel[float64](t, cfg)
		if err := m.SetStandardization([]float64{0, 1}, []float64{1, 2}, 2, 0.5); err != nil {
			t.Fatal(err)
		}
		if err := m.SetVarScale(1.3); err != nil {
			t.Fatal(err)
		}
		if err := m.SetCorrectedScale(0.8); err != nil {
			t.Fatal(err)
		}
		out[name] = m
	}
	return out
}

// transformInputs are the rows the transform tests predict.
var transformInputs = [][]float64{{0, 0}, {1.5, -2}, {-3, 4}}

// TestTransformPrediction checks that a log model's prediction is its
// untransformed prediction, bit for bit, in the Z fields and in every
// field that describes z, and that Mean, Var and VarCorrected are the
// moments of the log-normal of Prediction.Transform's documentation.
func TestTransformPrediction(t *testing.T) {
	for name, m := range transformModels(t) {
		ws := m.NewWorkspace()
		for _, x := range transformInputs {
			z, err := m.Predict(ws, x)
			if err != nil {
				t.Fatal(err)
			}
			lm := m.Clone()
			if err := lm.SetTargetTransform(TransformLog); err != nil {
				t.Fatal(err)
			}
			p, err := lm.Predict(ws, x)
			if err != nil {
				t.Fatal(err)
			}
			want := z
			want.Transform, want.ZMean, want.ZVar, want.ZVarCorrected = TransformLog, z.Mean, z.Var, z.VarCorrected
			want.Mean = math.Exp(z.Mean + z.VarCorrected/2)
			want.Var = (math.Exp(z.Var) - 1) * math.Exp(2*z.Mean+z.Var)
			want.VarCorrected = (math.Exp(z.VarCorrected) - 1) * math.Exp(2*z.Mean+z.VarCorrected)
			// Expm1 and Exp(a + b) in place of Exp(b) − 1 and a product:
			// a few ulps.
			for _, f := range [][3]float64{{p.Mean, want.Mean}, {p.Var, want.Var}, {p.VarCorrected, want.VarCorrected}} {
				if math.Abs(f[0]-f[1]) > 1e-13*f[1] {
					t.Errorf("%s %v: moment %v, want %v", name, x, f[0], f[1])
				}
			}
			p.Mean, p.Var, p.VarCorrected = want.Mean, want.Var, want.VarCorrected
			if p != want {
				t.Errorf("%s %v: transformed prediction\n%+v\nwant\n%+v", name, x, p, want)
			}
			if got := lm.TargetTransform(); got != TransformLog {
				t.Errorf("TargetTransform() = %v", got)
			}
		}
	}
}

// TestTransformMethods checks a log model's predictive of y against
// identities that do not use the code's mapping: the density is the
// derivative of the CDF (central differences), the quantile inverts the
// CDF, the calibrated density integrates to 1 with the mean Mean and the
// variance VarCorrected (Simpson's rule over ln y), and no quantile or
// interval bound is negative, even far below the data.
func TestTransformMethods(t *testing.T) {
	for name, m := range transformModels(t) {
		if err := m.SetTargetTransform(TransformLog); err != nil {
			t.Fatal(err)
		}
		ws := m.NewWorkspace()
		for _, x := range transformInputs {
			p, err := m.Predict(ws, x)
			if err != nil {
				t.Fatal(err)
			}
			type pred struct {
				name     string
				logPDF   func(float64) float64
				cdf      func(float64) float64
				quantile func(float64) (float64, error)
				interval func(float64) (float64, float64, error)
			}
			for _, k := range []pred{
				{"predictive", p.LogPDF, p.CDF, p.Quantile, p.Interval},
				{"calibrated", p.CalibratedLogPDF, p.CalibratedCDF, p.CalibratedQuantile, p.CalibratedInterval},
			} {
				for _, prob := range []float64{0.01, 0.2, 0.5, 0.9, 0.999} {
					y, err := k.quantile(prob)
					if err != nil || !(y > 0) {
						t.Fatalf("%s %s: quantile(%g) = %v, %v", name, k.name, prob, y, err)
					}
					// Central differences with h = 1e-5·y: truncation
					// O(h²·f″/f) ~ 1e-10 and rounding ε/h ~ 1e-11 relative.
					h := 1e-5 * y
					fd := (k.cdf(y+h) - k.cdf(y-h)) / (2 * h)
					if f := math.Exp(k.logPDF(y)); math.Abs(fd-f) > 1e-6*f {
						t.Errorf("%s %s at y = %g: density %v, CDF's derivative %v", name, k.name, y, f, fd)
					}
					// The CDF of the quantile: the quantile's accuracy
					// (mixture: 1e-12 relative in the tail), amplified by
					// the density.
					if c := k.cdf(y); math.Abs(c-prob) > 1e-9 {
						t.Errorf("%s %s: CDF(quantile(%g)) = %v", name, k.name, prob, c)
					}
				}
				lo, hi, err := k.interval(0.9)
				if err != nil || !(lo > 0) || !(hi > lo) || math.Abs(k.cdf(hi)-k.cdf(lo)-0.9) > 1e-9 {
					t.Errorf("%s %s: 90%% interval [%v, %v] (%v), holding %v", name, k.name, lo, hi, err, k.cdf(hi)-k.cdf(lo))
				}
				if k.logPDF(0) != math.Inf(-1) || k.logPDF(-1) != math.Inf(-1) || k.cdf(-1) != 0 || k.cdf(0) != 0 || !math.IsNaN(k.logPDF(math.NaN())) {
					t.Errorf("%s %s: outside y > 0: log density %v, %v, CDF %v, %v", name, k.name, k.logPDF(0), k.logPDF(-1), k.cdf(-1), k.cdf(0))
				}
			}
			// The calibrated predictive's moments: ∫ yᵏ f(y) dy over
			// u = ln y, where f(y) dy = f(e^u) e^u du, on
			// ZMean ± 14 sd (the log-normal's mass beyond is below 1e-44,
			// and its mean's share beyond, e^(σ²/2) shifted, is too), by
			// Simpson's rule on 4000 panels, whose error (h⁴ f⁗) is below
			// 1e-12 for these smooth integrands.
			sd := math.Sqrt(p.ZVarCorrected)
			var mass, mean, second float64
			simpson(p.ZMean-14*sd, p.ZMean+14*sd, 4000, func(u, w float64) {
				y := math.Exp(u)
				f := math.Exp(p.CalibratedLogPDF(y)) * y * w
				mass += f
				mean += y * f
				second += y * y * f
			})
			if v := second - mean*mean; math.Abs(mass-1) > 1e-10 || math.Abs(mean-p.Mean) > 1e-10*p.Mean || math.Abs(v-p.VarCorrected) > 1e-8*p.VarCorrected {
				t.Errorf("%s %v: calibrated mass %v, mean %v (Mean %v), variance %v (VarCorrected %v)", name, x, mass, mean, p.Mean, v, p.VarCorrected)
			}
		}
	}
	// The Student t's variance in z beyond ln MaxFloat64 ≈ 709, as
	// where α nears 1, has no log-normal stand-in in float64: Var is
	// +Inf, and the prediction stands.
	m := transformModels(t)["gcp"]
	if err := m.SetTargetTransform(TransformLog); err != nil {
		t.Fatal(err)
	}
	p0, _ := m.Predict(m.NewWorkspace(), transformInputs[0])
	z := p0.modeled()
	z.Var = 800
	if !transformBack(&z, TransformLog) || !math.IsInf(z.Var, 1) || !(z.VarCorrected < math.Inf(1)) {
		t.Errorf("a variance of 800 in z: Var %v, VarCorrected %v", z.Var, z.VarCorrected)
	}
	z = p0.modeled()
	z.VarCorrected = 800
	if transformBack(&z, TransformLog) {
		t.Errorf("a corrected variance of 800 in z passed: VarCorrected %v", z.VarCorrected)
	}
	// Far below the data every bound is still ≥ 0 (an underflow gives 0,
	// never a negative value).
	p := Prediction{Transform: TransformLog, Loss: LossGaussianML, Alpha: math.Inf(1), Members: 1, ZMean: -800, ZVar: 4, ZVarCorrected: 4}
	if lo, _, err := p.Interval(0.99); err != nil || lo < 0 {
		t.Errorf("interval at ZMean = −800: lower bound %v, %v", lo, err)
	}
}

// simpson calls add(u, w) for the nodes u and weights w of Simpson's
// rule with panels panels on [a, b].
func simpson(a, b float64, panels int, add func(u, w float64)) {
	h := (b - a) / float64(2*panels)
	for i := 0; i <= 2*panels; i++ {
		w := 2.0
		switch {
		case i == 0 || i == 2*panels:
			w = 1
		case i%2 == 1:
			w = 4
		}
		add(a+float64(i)*h, w*h/3)
	}
}

// TestTransformCoverage draws targets from a single GCP network's
// Student-t predictive of z and checks that the log model's intervals of
// y hold them at their level: n = 200000 draws, so that the coverage's
// standard error is below 0.0011 and 0.005 is beyond 4 of them.
func TestTransformCoverage(t *testing.T) {
	m := transformModels(t)["gcp"]
	if err := m.SetTargetTransform(TransformLog); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(m.NewWorkspace(), transformInputs[1])
	if err != nil {
		t.Fatal(err)
	}
	g := p.Prior()
	scale := math.Sqrt(g.Beta * (g.Nu + 1) / (g.Nu * g.Alpha))
	r := rand.New(rand.NewPCG(5, 6))
	const n = 200000
	levels := []float64{0.5, 0.8, 0.95}
	var bounds [][2]float64
	for _, level := range levels {
		lo, hi, err := p.Interval(level)
		if err != nil {
			t.Fatal(err)
		}
		bounds = append(bounds, [2]float64{lo, hi})
	}
	inside := make([]int, len(levels))
	for range n {
		// t with 2α degrees of freedom: N / √(χ²/dof), χ² = 2·Gamma(α).
		chi2 := 2 * gammaVariate(r, g.Alpha)
		y := math.Exp(g.M + scale*r.NormFloat64()/math.Sqrt(chi2/(2*g.Alpha)))
		for i, b := range bounds {
			if b[0] <= y && y <= b[1] {
				inside[i]++
			}
		}
	}
	for i, level := range levels {
		if c := float64(inside[i]) / n; math.Abs(c-level) > 0.005 {
			t.Errorf("%g%% interval holds %v of the draws", 100*level, c)
		}
	}
}

// TestTransformAllocs checks that a log model predicts, and its
// prediction's methods answer, without allocating.
func TestTransformAllocs(t *testing.T) {
	for name, m := range transformModels(t) {
		if err := m.SetTargetTransform(TransformLog); err != nil {
			t.Fatal(err)
		}
		ws := m.NewWorkspace()
		x := []float64{0.5, -1}
		out := make([]Prediction, 70)
		xb := make([]float64, 2*len(out))
		for name2, f := range map[string]func(){
			"Predict":      func() { sinkPrediction, _ = m.Predict(ws, x) },
			"PredictBatch": func() { _ = m.PredictBatch(ws, xb, out) },
			"methods": func() {
				p := sinkPrediction
				lo, hi, _ := p.Interval(0.9)
				clo, chi, _ := p.CalibratedInterval(0.9)
				q, _ := p.Quantile(0.3)
				cq, _ := p.CalibratedQuantile(0.3)
				sinkLoss = lo + hi + clo + chi + q + cq + p.LogPDF(7) + p.CDF(7) + p.CalibratedLogPDF(7) + p.CalibratedCDF(7)
			},
		} {
			if a := testing.AllocsPerRun(20, f); a != 0 {
				t.Errorf("%s %s allocates %v times per call", name, name2, a)
			}
		}
	}
}
