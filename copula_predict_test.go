package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// copulaMargin returns a one-target model of cfg with random weights
// (0.4 a standard normal each) and the target map (yMean, yScale), so
// that its predictions differ from input to input.
func copulaMargin[T Float](t testing.TB, cfg Config, yMean, yScale float64) *Model[T] {
	t.Helper()
	m := mustModel[T](t, cfg)
	r := rand.New(rand.NewPCG(cfg.Seed, 21))
	for i := range m.params {
		m.params[i] = T(0.4 * r.NormFloat64())
	}
	xm, xs := make([]float64, cfg.Inputs), make([]float64, cfg.Inputs)
	for i := range xs {
		xm[i], xs[i] = 0.1*float64(i), 1+0.2*float64(i)
	}
	if err := m.SetStandardization(xm, xs, yMean, yScale); err != nil {
		t.Fatal(err)
	}
	return m
}

// copulaMargins returns three one-target models of 3 inputs: a single
// GCP network calibrated by VarScale 1.2 and CorrectedScale 0.9, an
// ensemble of three, and a network of the logarithm of its target
// (TransformLog), with feature names and ranges.
func copulaMargins[T Float](t testing.TB, seed uint64) []*Model[T] {
	t.Helper()
	g := []*Model[T]{
		copulaMargin[T](t, Config{Inputs: 3, Hidden: []int{6}, Seed: seed}, 1, 2),
		copulaMargin[T](t, Config{Inputs: 3, Hidden: []int{6}, Members: 3, Seed: seed + 1}, -3, 0.5),
		copulaMargin[T](t, Config{Inputs: 3, Hidden: []int{6}, Seed: seed + 2}, 0.5, 0.3),
	}
	if err := g[0].SetVarScale(1.2); err != nil {
		t.Fatal(err)
	}
	if err := g[0].SetCorrectedScale(0.9); err != nil {
		t.Fatal(err)
	}
	if err := g[2].SetTargetTransform(TransformLog); err != nil {
		t.Fatal(err)
	}
	for j, h := range g {
		if err := h.SetFeatureNames([]string{"a", "b", "c"}, []string{"u", "v", "w"}[j]); err != nil {
			t.Fatal(err)
		}
		h.xMin, h.xMax = []float64{-1, -2, float64(j)}, []float64{1, 2 + float64(j), 5}
	}
	return g
}

// copulaFactor3 is a packed factor of a 3×3 correlation matrix with
// R_01 = 0.6, R_02 = −0.3 and R_12 = 0.2.
func copulaFactor3() []float64 {
	l := make([]float64, 6)
	l[0] = 1
	l[1], l[2] = 0.6, 0.8
	l[3] = -0.3
	l[4] = (0.2 - l[1]*l[3]) / l[2]
	l[5] = math.Sqrt(1 - l[3]*l[3] - l[4]*l[4])
	return l
}

func mustCopula[T Float](t testing.TB, g []*Model[T], l []float64, s, nu float64, c *conformalScores) *Model[T] {
	t.Helper()
	m, err := newCopulaModel(g, l, s, nu, c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestNewCopulaModelRefuses(t *testing.T) {
	g := copulaMargins[float64](t, 1)
	l := copulaFactor3()
	multi := mustModel[float64](t, Config{Inputs: 3, Targets: 2})
	other := copulaMargin[float64](t, Config{Inputs: 4, Hidden: []int{6}}, 0, 1)
	renamed := copulaMargin[float64](t, Config{Inputs: 3, Hidden: []int{6}}, 0, 1)
	if err := renamed.SetFeatureNames([]string{"a", "b", "x"}, "w"); err != nil {
		t.Fatal(err)
	}
	fixed := copulaMargin[float64](t, Config{Inputs: 3, Hidden: []int{6}, FixedAlpha: 2}, 0, 1)
	fixed.featureNames, fixed.targetName = g[0].featureNames, "w"
	nested := mustCopula(t, g, l, 1, math.Inf(1), nil)
	bad := func(f func([]float64)) []float64 {
		c := slices.Clone(l)
		f(c)
		return c
	}
	cases := []struct {
		name    string
		margins []*Model[float64]
		l       []float64
		s, nu   float64
	}{
		{"one marginal", g[:1], l[:1], 1, 1},
		{"17 marginals", append(append(append(append(append(g[:2:2], g...), g...), g...), g...), g...), make([]float64, mvtPackedLen(17)), 1, 1},
		{"nil marginal", []*Model[float64]{g[0], nil, g[2]}, l, 1, 1},
		{"zero marginal", []*Model[float64]{g[0], {}, g[2]}, l, 1, 1},
		{"several targets", []*Model[float64]{g[0], multi, g[2]}, l, 1, 1},
		{"a copula marginal", []*Model[float64]{g[0], nested, g[2]}, l, 1, 1},
		{"other inputs", []*Model[float64]{g[0], other, g[2]}, l, 1, 1},
		{"other names", []*Model[float64]{g[0], g[1], renamed}, l, 1, 1},
		{"FixedAlpha", []*Model[float64]{fixed, g[1], g[2]}, l, 1, 1},
		{"short factor", g, l[:5], 1, 1},
		{"NaN in the factor", g, bad(func(c []float64) { c[4] = math.NaN() }), 1, 1},
		{"negative diagonal", g, bad(func(c []float64) { c[2] = -c[2] }), 1, 1},
		{"row not of norm 1", g, bad(func(c []float64) { c[1] += 1e-9 }), 1, 1},
		{"region scale 0", g, l, 0, 1},
		{"region scale +Inf", g, l, math.Inf(1), 1},
		{"ν 0", g, l, 1, 0},
		{"ν NaN", g, l, 1, math.NaN()},
	}
	for _, c := range cases {
		if _, err := newCopulaModel(c.margins, c.l, c.s, c.nu, nil); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", c.name, err)
		}
	}
}

func TestCopulaModelAsAModel(t *testing.T) {
	g := copulaMargins[float64](t, 3)
	m := mustCopula(t, g, copulaFactor3(), 1.1, 7, nil)
	cfg := m.Config()
	if cfg.Targets != 3 || cfg.Inputs != 3 || cfg.Members != 1 {
		t.Errorf("Config %+v, want Targets 3, the first marginal's otherwise", cfg)
	}
	if n := m.NumParams(); n != g[0].NumParams()+g[1].NumParams()+g[2].NumParams() || n == 0 {
		t.Errorf("NumParams %d", n)
	}
	if f, target := m.FeatureNames(); !slices.Equal(f, []string{"a", "b", "c"}) || target != "u,v,w" {
		t.Errorf("FeatureNames %v %q", f, target)
	}
	if lo, hi, ok := m.FeatureRanges(); !ok || !slices.Equal(lo, []float64{-1, -2, 0}) || !slices.Equal(hi, []float64{1, 4, 5}) {
		t.Errorf("FeatureRanges %v %v %v, want the union of the marginals'", lo, hi, ok)
	}
	if tr := m.TargetTransforms(); !slices.Equal(tr, []TargetTransform{TransformNone, TransformNone, TransformLog}) {
		t.Errorf("TargetTransforms %v", tr)
	}
	if m.CorrectedScale() != 1.1 || m.VarScale() != 1 {
		t.Errorf("CorrectedScale %v, VarScale %v", m.CorrectedScale(), m.VarScale())
	}
	ws := m.NewWorkspace()
	if _, err := m.Predict(ws, []float64{0, 0, 0}); !errors.Is(err, ErrShape) {
		t.Errorf("Predict: %v, want ErrShape", err)
	}
	x := make([]float64, 3)
	for name, err := range map[string]error{
		"NewTrainer":          func() error { _, err := NewTrainer(m, TrainConfig{}); return err }(),
		"Calibrate":           func() error { _, _, err := m.Calibrate(x, []float64{1}); return err }(),
		"SetVarScale":         m.SetVarScale(2),
		"SetStandardization":  m.SetStandardization(x, []float64{1, 1, 1}, 0, 1),
		"SetInputBound":       m.SetInputBound(3),
		"SetTargetTransforms": m.SetTargetTransforms(nil),
		"SetFeatureNames":     m.SetFeatureNames([]string{"a", "b", "c"}, "t"),
		"SetEncoding":         m.SetEncoding(g[0].Encoding()),
	} {
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", name, err)
		}
	}
	var p MultiPrediction
	if err := m.PredictMulti(g[0].NewWorkspace(), x, &p); !errors.Is(err, ErrShape) {
		t.Errorf("PredictMulti with a marginal's workspace: %v, want ErrShape", err)
	}
	if err := m.PredictMulti(ws, x[:2], &p); !errors.Is(err, ErrShape) {
		t.Errorf("PredictMulti of 2 inputs: %v, want ErrShape", err)
	}
	if err := m.PredictMulti(ws, []float64{0, math.NaN(), 0}, &p); !errors.Is(err, ErrNonFinite) {
		t.Errorf("PredictMulti of NaN: %v, want ErrNonFinite", err)
	}
	// A record encodes as the marginals encode it.
	var xr [3]float64
	if _, err := m.EncodeRecord(xr[:], MapRecord{"a": "1", "b": "2", "c": "3"}, '.'); err != nil || xr != [3]float64{1, 2, 3} {
		t.Errorf("EncodeRecord: %v %v", xr, err)
	}
	// Clone is deep: changing a clone's marginal leaves m's.
	c := m.Clone()
	if err := m.PredictMulti(ws, x, &p); err != nil {
		t.Fatal(err)
	}
	for i := range c.margins[1].params {
		c.margins[1].params[i] += 0.1
	}
	var q MultiPrediction
	if err := c.PredictMulti(c.NewWorkspace(), x, &q); err != nil {
		t.Fatal(err)
	}
	if q.Mean(1) == p.Mean(1) || q.Mean(0) != p.Mean(0) {
		t.Errorf("clone's means %v %v, m's %v %v", q.Mean(0), q.Mean(1), p.Mean(0), p.Mean(1))
	}
	if err := m.PredictMulti(ws, x, &q); err != nil || q.Mean(1) != p.Mean(1) {
		t.Errorf("m's mean after its clone changed: %v (%v), want %v", q.Mean(1), err, p.Mean(1))
	}
}

// copulaRows are inputs for the tests of predictions.
var copulaRows = [][]float64{{0, 0, 0}, {1, -1, 0.5}, {-2, 0.5, 3}, {0.3, 3, -1}}

func TestCopulaMarginalsExact(t *testing.T) {
	g := copulaMargins[float32](t, 5)
	m := mustCopula(t, g, copulaFactor3(), 1, math.Inf(1), nil)
	ws := m.NewWorkspace()
	var p MultiPrediction
	for _, row := range copulaRows {
		x := make([]float32, len(row))
		for i, v := range row {
			x[i] = float32(v)
		}
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		if p.Dim() != 3 || p.Members() != 3 {
			t.Errorf("Dim %d, Members %d, want 3 and 3", p.Dim(), p.Members())
		}
		var dis float64
		for j, h := range g {
			want, err := h.Predict(h.NewWorkspace(), x)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Marginal(j); got != want {
				t.Errorf("row %v: Marginal(%d) = %+v, want %+v", row, j, got, want)
			}
			if p.Mean(j) != want.Mean {
				t.Errorf("Mean(%d) = %v, want %v", j, p.Mean(j), want.Mean)
			}
			dis = max(dis, want.Disagreement)
		}
		if p.Disagreement() != dis || dis == 0 {
			t.Errorf("Disagreement %v, want the largest of the marginals' %v", p.Disagreement(), dis)
		}
	}
}

func TestCopulaMomentsAndCorrelation(t *testing.T) {
	g := copulaMargins[float64](t, 7)
	l := copulaFactor3()
	m := mustCopula(t, g, l, 1.3, 5, nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[1], &p); err != nil {
		t.Fatal(err)
	}
	r := denseCorr(l, 3)
	for i := range 3 {
		qi := p.Marginal(i)
		if zm := p.ZMean(i); i < 2 && zm != qi.Mean || i == 2 && zm != qi.ZMean {
			t.Errorf("ZMean(%d) = %v", i, zm)
		}
		for j := range 3 {
			qj := p.Marginal(j)
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"Corr", p.Corr(i, j), r[i*3+j]},
				{"Scale", p.Scale(i, j), r[i*3+j]},
				{"Cov", p.Cov(i, j), r[i*3+j] * math.Sqrt(qi.Var*qj.Var)},
				{"CovCorrected", p.CovCorrected(i, j), r[i*3+j] * math.Sqrt(qi.VarCorrected*qj.VarCorrected)},
				{"ZCovCorrected", p.ZCovCorrected(i, j), r[i*3+j] * math.Sqrt(modeledCorrected(&qi)*modeledCorrected(&qj))},
			} {
				if math.Abs(c.got-c.want) > 1e-14*math.Abs(c.want) {
					t.Errorf("%s(%d, %d) = %v, want %v", c.name, i, j, c.got, c.want)
				}
			}
			want := 0.0
			if i == j {
				want = qi.VarEpistemic
			}
			if p.CovEpistemic(i, j) != want {
				t.Errorf("CovEpistemic(%d, %d) = %v, want %v", i, j, p.CovEpistemic(i, j), want)
			}
		}
	}
	if p.CovEpistemic(1, 1) == 0 {
		t.Error("the ensemble marginal's epistemic variance is 0")
	}
	if !math.IsInf(p.Nu(), 1) || p.RegionScale() != 1.3 || p.RegionNu() != 5 {
		t.Errorf("Nu %v, RegionScale %v, RegionNu %v", p.Nu(), p.RegionScale(), p.RegionNu())
	}
}

func TestCopulaLogPDFIdentityIsTheProduct(t *testing.T) {
	g := copulaMargins[float64](t, 9)
	m := mustCopula(t, g, []float64{1, 0, 1, 0, 0, 1}, 1, math.Inf(1), nil)
	var p MultiPrediction
	for _, row := range copulaRows {
		if err := m.PredictMulti(m.NewWorkspace(), row, &p); err != nil {
			t.Fatal(err)
		}
		for _, y := range [][]float64{{1, -3, 1.6}, {-5, 0, 0.01}, {40, -30, 200}} {
			var sum, csum float64
			for j := range y {
				q := p.Marginal(j)
				sum += q.LogPDF(y[j])
				csum += q.CalibratedLogPDF(y[j])
			}
			if got := p.LogPDF(y); got != sum {
				t.Errorf("R = I: LogPDF(%v) = %v, want the marginals' sum %v", y, got, sum)
			}
			// The calibrated density is the region's multivariate law
			// (mvtLogDensity), which sums the same terms in another order:
			// a few ulps of the largest, hence 1e-14 relative.
			if got := p.CalibratedLogPDF(y); math.Abs(got-csum) > 1e-14*max(1, math.Abs(csum)) {
				t.Errorf("R = I: CalibratedLogPDF(%v) = %v, want %v", y, got, csum)
			}
		}
	}
}

// bivariateNormalLogPDF returns ln N((y0, y1) | (m0, m1), [[v0, c], [c, v1]]),
// c = ρ√(v0·v1).
func bivariateNormalLogPDF(y0, y1, m0, m1, v0, v1, rho float64) float64 {
	a, b := (y0-m0)/math.Sqrt(v0), (y1-m1)/math.Sqrt(v1)
	return -math.Log(2*math.Pi) - 0.5*math.Log(v0*v1*(1-rho*rho)) - (a*a-2*rho*a*b+b*b)/(2*(1-rho*rho))
}

func TestCopulaGaussianMarginalsAreBivariateNormal(t *testing.T) {
	// Gaussian marginals joined by a Gaussian copula are the bivariate
	// normal: the law's density (Gaussian comparator marginals) and the
	// calibrated one (any marginals: their calibrated predictives are
	// Gaussian), and the law's distance is the Mahalanobis distance.
	rho := -0.7
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	gauss := []*Model[float64]{
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Loss: LossGaussianML, Seed: 11}, 2, 3),
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Loss: LossGaussianML, Members: 2, Seed: 12}, -1, 0.2),
	}
	gcp := []*Model[float64]{
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Seed: 13}, 2, 3),
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Members: 4, Seed: 14}, -1, 0.2),
	}
	for _, g := range [][]*Model[float64]{gauss, gcp} {
		m := mustCopula(t, g, l, 1, math.Inf(1), nil)
		var p MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), []float64{0.5, -1}, &p); err != nil {
			t.Fatal(err)
		}
		q0, q1 := p.Marginal(0), p.Marginal(1)
		for _, y := range [][]float64{{2, -1}, {0, 0}, {10, -3}, {-40, 2}} {
			want := bivariateNormalLogPDF(y[0], y[1], q0.Mean, q1.Mean, q0.VarCorrected, q1.VarCorrected, rho)
			if got := p.CalibratedLogPDF(y); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("%v: CalibratedLogPDF(%v) = %.17g, want %.17g", g[0].cfg.Loss, y, got, want)
			}
			a, b := (y[0]-q0.Mean)/math.Sqrt(q0.VarCorrected), (y[1]-q1.Mean)/math.Sqrt(q1.VarCorrected)
			d2 := (a*a - 2*rho*a*b + b*b) / (1 - rho*rho)
			if got := p.CalibratedMahalanobis(y); math.Abs(got*got-d2) > 1e-12*max(1, d2) {
				t.Errorf("CalibratedMahalanobis(%v)² = %v, want %v", y, got*got, d2)
			}
			if g[0].cfg.Loss != LossGaussianML || g[1].cfg.Members > 1 {
				continue // an ensemble's mixture of Gaussians is not Gaussian
			}
			want = bivariateNormalLogPDF(y[0], y[1], q0.Mean, q1.Mean, q0.Var, q1.Var, rho)
			if got := p.LogPDF(y); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("LogPDF(%v) = %.17g, want %.17g", y, got, want)
			}
		}
	}
	// A single Gaussian comparator marginal beside another: the law's
	// density too.
	g := []*Model[float64]{gauss[0], copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Loss: LossGaussianML, Seed: 15}, 0, 1)}
	m := mustCopula(t, g, l, 1, math.Inf(1), nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.5, -1}, &p); err != nil {
		t.Fatal(err)
	}
	q0, q1 := p.Marginal(0), p.Marginal(1)
	for _, y := range [][]float64{{2, -1}, {-30, 25}} {
		want := bivariateNormalLogPDF(y[0], y[1], q0.Mean, q1.Mean, q0.Var, q1.Var, rho)
		if got := p.LogPDF(y); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
			t.Errorf("LogPDF(%v) = %.17g, want %.17g", y, got, want)
		}
		a, b := (y[0]-q0.Mean)/math.Sqrt(q0.Var), (y[1]-q1.Mean)/math.Sqrt(q1.Var)
		if got, d2 := p.Mahalanobis(y), (a*a-2*rho*a*b+b*b)/(1-rho*rho); math.Abs(got*got-d2) > 1e-12*max(1, d2) {
			t.Errorf("Mahalanobis(%v)² = %v, want %v", y, got*got, d2)
		}
	}
}

// gaussianCopulaModel returns a copula model of d Gaussian comparator
// marginals of 2 inputs and a random correlation.
func gaussianCopulaModel(t *testing.T, d int, seed uint64) (*Model[float64], []float64) {
	g := make([]*Model[float64], d)
	for j := range g {
		g[j] = copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Loss: LossGaussianML, Seed: seed + uint64(j)}, float64(j), 1+float64(j))
	}
	l := packedCorr(rand.New(rand.NewPCG(seed, 9)), d)
	return mustCopula(t, g, l, 1, math.Inf(1), nil), l
}

func TestCopulaInsideCoverage(t *testing.T) {
	// Draws of the bivariate or 5-variate normal that Gaussian marginals
	// and the copula make, drawn here from its covariance (not by
	// Sample): Inside holds them at the rate p, within 3 standard errors;
	// and so do Sample's draws of t and mixture marginals.
	const n = 20000
	levels := []float64{0.5, 0.9, 0.95}
	check := func(name string, draw func([]float64), p *MultiPrediction) {
		t.Helper()
		y := make([]float64, p.Dim())
		in := make([]int, len(levels))
		for range n {
			draw(y)
			for k, lv := range levels {
				if ok, err := p.Inside(y, lv); err != nil {
					t.Fatal(err)
				} else if ok {
					in[k]++
				}
			}
		}
		for k, lv := range levels {
			got, se := float64(in[k])/n, math.Sqrt(lv*(1-lv)/n)
			t.Logf("%s, d = %d: Inside at %v holds %.4f ± %.4f", name, p.Dim(), lv, got, se)
			if math.Abs(got-lv) > 3*se {
				t.Errorf("%s: Inside at %v holds %v (± %.4f)", name, lv, got, se)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{2, 5} {
		m, l := gaussianCopulaModel(t, d, uint64(10*d))
		var p MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, -0.4}, &p); err != nil {
			t.Fatal(err)
		}
		check("Gaussian", func(y []float64) {
			var g [maxTargets]float64
			for i := range y {
				g[i] = r.NormFloat64()
			}
			for i := range y {
				var s float64
				for c := range i + 1 {
					s += l[i*(i+1)/2+c] * g[c]
				}
				q := p.Marginal(i)
				y[i] = q.Mean + math.Sqrt(q.Var)*s
			}
		}, &p)
	}
	g := copulaMargins[float64](t, 17)
	m := mustCopula(t, g, copulaFactor3(), 1, math.Inf(1), nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[2], &p); err != nil {
		t.Fatal(err)
	}
	check("Sample", func(y []float64) {
		if err := p.Sample(y, r); err != nil {
			t.Fatal(err)
		}
	}, &p)
}

func TestCopulaCalibratedRegionCoverage(t *testing.T) {
	// SampleCalibrated draws from the calibrated region's law, which
	// CalibratedInside's regions hold at their rate; the conformal region
	// of scores drawn from it is about as wide.
	r := rand.New(rand.NewPCG(7, 8))
	g := copulaMargins[float64](t, 19)
	l := copulaFactor3()
	m := mustCopula(t, g, l, 1.7, 6, nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[3], &p); err != nil {
		t.Fatal(err)
	}
	const n = 20000
	y := make([]float64, 3)
	dist := make([]float64, 0, n)
	in := [3]int{}
	levels := [3]float64{0.5, 0.9, 0.95}
	for range n {
		if err := p.SampleCalibrated(y, r); err != nil {
			t.Fatal(err)
		}
		for k, lv := range levels {
			if ok, _ := p.CalibratedInside(y, lv); ok {
				in[k]++
			}
		}
		d := p.CalibratedMahalanobis(y) * math.Sqrt(p.RegionScale())
		dist = append(dist, d*d)
	}
	for k, lv := range levels {
		got, se := float64(in[k])/n, math.Sqrt(lv*(1-lv)/n)
		t.Logf("CalibratedInside at %v holds %.4f ± %.4f", lv, got, se)
		if math.Abs(got-lv) > 3*se {
			t.Errorf("CalibratedInside at %v holds %v (± %.4f)", lv, got, se)
		}
	}
	// The conformal region of these distances holds fresh draws at its
	// level.
	cm := mustCopula(t, g, l, 1.7, 6, jointConformalScores(dist))
	var cp MultiPrediction
	if err := cm.PredictMulti(cm.NewWorkspace(), copulaRows[3], &cp); err != nil {
		t.Fatal(err)
	}
	hits := 0
	for range n {
		if err := cp.SampleCalibrated(y, r); err != nil {
			t.Fatal(err)
		}
		if ok, err := cp.ConformalInside(y, 0.9); err != nil {
			t.Fatal(err)
		} else if ok {
			hits++
		}
	}
	got, se := float64(hits)/n, math.Sqrt(0.09/n)
	t.Logf("ConformalInside at 0.9 holds %.4f ± %.4f", got, se)
	if math.Abs(got-0.9) > 4*se {
		t.Errorf("ConformalInside at 0.9 holds %v (± %.4f)", got, se)
	}
	if rad, err := cp.ConformalRadius(0.9); err != nil || !(rad > 0) {
		t.Errorf("ConformalRadius %v %v", rad, err)
	}
}

// ksDistance returns the Kolmogorov–Smirnov distance of the sample u from
// the uniform law on (0, 1); it sorts u.
func ksDistance(u []float64) float64 {
	sort.Float64s(u)
	var d float64
	n := float64(len(u))
	for i, v := range u {
		d = max(d, math.Abs(v-float64(i)/n), math.Abs(float64(i+1)/n-v))
	}
	return d
}

func TestCopulaSampleMarginalsAndScores(t *testing.T) {
	// Each target of Sample's draws has its marginal's law (F_j(y_j) is
	// uniform: a KS distance below the 0.1% critical value 1.95/√n), and
	// the draws' normal scores have correlation R; so do
	// SampleCalibrated's with the calibrated marginals at s = 1, ν = ∞.
	r := rand.New(rand.NewPCG(9, 10))
	g := copulaMargins[float64](t, 23)
	l := copulaFactor3()
	m := mustCopula(t, g, l, 1, math.Inf(1), nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[0], &p); err != nil {
		t.Fatal(err)
	}
	const n = 8000
	rr := denseCorr(l, 3)
	for _, calibrated := range []bool{false, true} {
		u := make([][]float64, 3)
		z := make([][]float64, 3)
		y := make([]float64, 3)
		for range n {
			var err error
			if calibrated {
				err = p.SampleCalibrated(y, r)
			} else {
				err = p.Sample(y, r)
			}
			if err != nil {
				t.Fatal(err)
			}
			for j := range y {
				q := p.Marginal(j)
				f := q.CDF(y[j])
				if calibrated {
					f = q.CalibratedCDF(y[j])
				}
				u[j] = append(u[j], f)
				z[j] = append(z[j], normalScore(&q, y[j], calibrated))
			}
		}
		for i := range 3 {
			for j := range i {
				var s float64
				for k := range n {
					s += z[i][k] * z[j][k]
				}
				// the sample correlation's standard error is (1 − ρ²)/√n
				if c, se := s/n, (1-rr[i*3+j]*rr[i*3+j])/math.Sqrt(n); math.Abs(c-rr[i*3+j]) > 4*se {
					t.Errorf("calibrated %v: scores' correlation (%d, %d) = %v, want %v", calibrated, i, j, c, rr[i*3+j])
				}
			}
			d := ksDistance(u[i])
			t.Logf("calibrated %v: target %d: KS distance %.4f (0.1%% critical %.4f)", calibrated, i, d, 1.95/math.Sqrt(n))
			if d > 1.95/math.Sqrt(n) {
				t.Errorf("calibrated %v: target %d: KS distance %v from its marginal", calibrated, i, d)
			}
		}
	}
	if err := p.Sample(make([]float64, 2), r); !errors.Is(err, ErrShape) {
		t.Errorf("Sample into 2: %v", err)
	}
	if err := p.SampleCalibrated(make([]float64, 3), nil); !errors.Is(err, ErrConfig) {
		t.Errorf("SampleCalibrated with a nil rand: %v", err)
	}
}

func TestCopulaFarOutStaysFinite(t *testing.T) {
	g := copulaMargins[float64](t, 29)
	m := mustCopula(t, g, copulaFactor3(), 1.2, 4, nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[1], &p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{1e3, 1e6, 1e12} {
		y := make([]float64, 3)
		for j := range y {
			q := p.Marginal(j)
			y[j] = q.Mean + f*math.Sqrt(q.Var)*float64(1-2*(j%2))
		}
		y[2] = p.Marginal(2).Mean * (1 + f) // the logged target, far above
		for name, v := range map[string]float64{
			"LogPDF": p.LogPDF(y), "CalibratedLogPDF": p.CalibratedLogPDF(y),
			"Mahalanobis": p.Mahalanobis(y), "CalibratedMahalanobis": p.CalibratedMahalanobis(y),
		} {
			if !finite(v) {
				t.Errorf("%g scales out: %s = %v", f, name, v)
			}
		}
		if in, err := p.Inside(y, 0.99); in || err != nil {
			t.Errorf("%g scales out: Inside %v %v", f, in, err)
		}
	}
	// Outside the logged target's domain, or NaN.
	if v := p.LogPDF([]float64{0, 0, -1}); !math.IsInf(v, -1) {
		t.Errorf("LogPDF below the log's domain: %v", v)
	}
	if v := p.LogPDF([]float64{math.NaN(), 0, 1}); !math.IsNaN(v) {
		t.Errorf("LogPDF of NaN: %v", v)
	}
	if v := p.LogPDF([]float64{0, 1}); !math.IsNaN(v) {
		t.Errorf("LogPDF of 2 targets: %v", v)
	}
	if _, err := p.Inside([]float64{0, 1}, 0.5); !errors.Is(err, ErrShape) {
		t.Errorf("Inside of 2 targets: %v", err)
	}
}

func TestCopulaPredictMultiAllocatesNothing(t *testing.T) {
	g32, g64 := copulaMargins[float32](t, 31), copulaMargins[float64](t, 31)
	l := copulaFactor3()
	m32 := mustCopula(t, g32, l, 1.2, 5, nil)
	m64 := mustCopula(t, g64, l, 1.2, 5, sortedScores([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	ws32, ws64 := m32.NewWorkspace(), m64.NewWorkspace()
	x32, x64 := []float32{0.1, 0.2, 0.3}, []float64{0.1, 0.2, 0.3}
	y, draw := []float64{1, -3, 1.5}, make([]float64, 3)
	r := rand.New(rand.NewPCG(1, 1))
	var p32, p64 MultiPrediction
	if n := testing.AllocsPerRun(50, func() {
		if err := m32.PredictMulti(ws32, x32, &p32); err != nil {
			t.Fatal(err)
		}
		if err := m64.PredictMulti(ws64, x64, &p64); err != nil {
			t.Fatal(err)
		}
		sinkLoss = p64.LogPDF(y) + p32.CalibratedLogPDF(y) + p64.Mahalanobis(y) + p64.CovCorrected(0, 2)
		if _, err := p32.Inside(y, 0.9); err != nil {
			t.Fatal(err)
		}
		if _, err := p64.ConformalInside(y, 0.5); err != nil {
			t.Fatal(err)
		}
		if err := p64.Sample(draw, r); err != nil {
			t.Fatal(err)
		}
		if err := p64.SampleCalibrated(draw, r); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

func TestCopulaPredictMultiConcurrent(t *testing.T) {
	m := mustCopula(t, copulaMargins[float64](t, 37), copulaFactor3(), 1, math.Inf(1), nil)
	checkPredictMultiConcurrent(t, m, copulaRows, []float64{1, -3, 1.5})
}

func TestCopulaAndJointTShareAPrediction(t *testing.T) {
	// One MultiPrediction serves the joint t, then the copula, then the
	// joint t again, each answering as a fresh one does.
	joint := randomMultiModel(t, Config{Inputs: 3, Hidden: []int{5}, Targets: 3, Members: 2, Seed: 4})
	cop := mustCopula(t, copulaMargins[float64](t, 41), copulaFactor3(), 1, math.Inf(1), nil)
	y := []float64{1, -3, 1.5}
	var shared MultiPrediction
	for _, m := range []*Model[float64]{joint, cop, joint, cop} {
		var fresh MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), copulaRows[1], &fresh); err != nil {
			t.Fatal(err)
		}
		if err := m.PredictMulti(m.NewWorkspace(), copulaRows[1], &shared); err != nil {
			t.Fatal(err)
		}
		if a, b := shared.LogPDF(y), fresh.LogPDF(y); a != b {
			t.Errorf("LogPDF %v, fresh %v", a, b)
		}
		if a, b := shared.Members(), fresh.Members(); a != b {
			t.Errorf("Members %v, fresh %v", a, b)
		}
	}
}

// BenchmarkPredictMultiCopula measures one prediction of a copula model
// of three float32 marginals (a single network, an ensemble of three, a
// logged target; 3 inputs, hidden {6}) by PredictMulti, and its LogPDF
// beside it.
func BenchmarkPredictMultiCopula(b *testing.B) {
	m := mustCopula(b, copulaMargins[float32](b, 5), copulaFactor3(), 1, math.Inf(1), nil)
	ws := m.NewWorkspace()
	x, y := []float32{0.1, 0.2, 0.3}, []float64{1, -3, 1.5}
	var p MultiPrediction
	if err := m.PredictMulti(ws, x, &p); err != nil { // p sized once, before the clock
		b.Fatal(err)
	}
	b.Run("predict", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if err := m.PredictMulti(ws, x, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("logpdf", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkLoss = p.LogPDF(y)
		}
	})
}

func TestCopulaCalibratedLogPDFIsTheRegionsT(t *testing.T) {
	// With the region calibrated to s = 1.7 and ν = 6, CalibratedLogPDF is
	// the density of the law SampleCalibrated draws: in z the bivariate t
	// of ν degrees of freedom, location the calibrated marginals' means
	// and scale s·Σ̃, Σ̃ = [[Ṽ₀, ρ√(Ṽ₀Ṽ₁)], [ρ√(Ṽ₀Ṽ₁), Ṽ₁]], checked against
	// its closed form: ln Γ((ν+2)/2) − ln Γ(ν/2) − ln(νπ) − ½ ln det(sΣ̃)
	// − ((ν+2)/2)·ln(1 + q/ν), q the squared Mahalanobis distance under
	// sΣ̃. Both sides sum a handful of terms of at most a few hundred:
	// 1e-12 relative bounds their rounding.
	const rho, s, nu = 0.6, 1.7, 6.0
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	g := []*Model[float64]{
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Seed: 21}, 2, 3),
		copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{5}, Members: 3, Seed: 22}, -1, 0.2),
	}
	m := mustCopula(t, g, l, s, nu, nil)
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, 0.8}, &p); err != nil {
		t.Fatal(err)
	}
	q0, q1 := p.Marginal(0), p.Marginal(1)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	for _, y := range [][]float64{{2, -1}, {0, 0}, {10, -3}, {-40, 2}, {1e6, -1e6}} {
		a, b := (y[0]-q0.Mean)/math.Sqrt(s*q0.VarCorrected), (y[1]-q1.Mean)/math.Sqrt(s*q1.VarCorrected)
		q := (a*a - 2*rho*a*b + b*b) / (1 - rho*rho)
		want := lg((nu+2)/2) - lg(nu/2) - math.Log(nu*math.Pi) -
			0.5*math.Log(s*s*q0.VarCorrected*q1.VarCorrected*(1-rho*rho)) - (nu+2)/2*math.Log1p(q/nu)
		if got := p.CalibratedLogPDF(y); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
			t.Errorf("CalibratedLogPDF(%v) = %.17g, want %.17g", y, got, want)
		}
	}
}

func TestCopulaInputBoundAndStandardizationAreTheMarginals(t *testing.T) {
	// The marginals bound and standardize their own inputs (AutoFit's
	// learn the same maps from the same rows): the copula model answers
	// with its first marginal's, and the identity target map.
	g := copulaMargins[float64](t, 41)
	for _, h := range g {
		if err := h.SetInputBound(50); err != nil {
			t.Fatal(err)
		}
	}
	m := mustCopula(t, g, copulaFactor3(), 1, math.Inf(1), nil)
	if b := m.InputBound(); b != 50 {
		t.Errorf("InputBound() = %v, want the marginals' 50", b)
	}
	xm, xs, ym, ys := m.Standardization()
	gm, gs, _, _ := g[0].Standardization()
	if !slices.Equal(xm, gm) || !slices.Equal(xs, gs) || ym != 0 || ys != 1 {
		t.Errorf("Standardization() = %v, %v, %v, %v; want %v, %v, 0, 1", xm, xs, ym, ys, gm, gs)
	}
}
