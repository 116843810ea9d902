package gcp

// Independent reference tests of Conditional under the Gaussian copula
// (COPCOND contract; docs/multivariate.md, Sec. 12, piece 3). Each
// reference is formed apart from the code under test: from mpmath
// (testdata/gen_copula_conditional.py), from the unconditional
// prediction's own density and marginals (the existing copula code) and
// dense linear algebra written out here, by quadrature, or by Monte Carlo.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// condRefMarginal returns the one-target Prediction of the marginal
// "kind/m/s/nu" of copula_conditional_ref.csv: gauss, the Gaussian
// comparator's N(m, s²); t, the Student t of nu dof, location m and scale
// s (Alpha nu/2, Nu 1, Beta Alpha·s²/2, exact for the powers of two s
// the file uses); logt, that t of z = ln y, in original units as
// transformBack makes a log model's prediction. VarCorrected is 0.8·s²
// in the modelled target (the calibrated law is not what the file tests).
func condRefMarginal(t *testing.T, spec string) Prediction {
	t.Helper()
	f := strings.Split(spec, "/")
	if len(f) != 4 {
		t.Fatalf("copula_conditional_ref.csv: marginal %q", spec)
	}
	v := make([]float64, 3)
	for i := range v {
		var err error
		if v[i], err = strconv.ParseFloat(f[i+1], 64); err != nil {
			t.Fatalf("copula_conditional_ref.csv: %v", err)
		}
	}
	m, s, nu := v[0], v[1], v[2]
	switch f[0] {
	case "gauss":
		return Prediction{Loss: LossGaussianML, Mean: m, Var: s * s, VarCorrected: s * s, Alpha: math.Inf(1),
			VarAleatoric: s * s, Members: 1}
	case "t", "logt":
		a := nu / 2
		p := Prediction{Loss: LossGCP, Mean: m, Alpha: a, Beta: a * s * s / 2, Nu: 1, Members: 1,
			VarCorrected: 0.8 * s * s, Var: math.Inf(1)}
		if a > 1 {
			p.Var = s * s * nu / (nu - 2)
		}
		p.VarAleatoric = p.Var
		if f[0] == "logt" && !transformBack(&p, TransformLog) {
			t.Fatalf("copula_conditional_ref.csv: %q overflows", spec)
		}
		return p
	}
	t.Fatalf("copula_conditional_ref.csv: marginal kind %q", f[0])
	return Prediction{}
}

// condCopula returns a copula MultiPrediction of the marginals marg
// joined by the packed correlation factor l, with the calibrated region
// (s, nu) and the conformal scores c (nil for none): the PredictMulti of
// a copula model of single networks (the Gaussian comparator's where
// marg[j] is Gaussian, each with marg[j]'s transform), whose marginals
// are then replaced by marg. Every other field is what PredictMulti sets;
// the marginals are those the reference describes exactly.
func condCopula(t *testing.T, marg []Prediction, l []float64, s, nu float64, c *conformalScores) *MultiPrediction {
	t.Helper()
	g := make([]*Model[float64], len(marg))
	for j, q := range marg {
		loss := LossGCP
		if q.Loss.gaussian() {
			loss = LossGaussianML
		}
		g[j] = copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{4}, Loss: loss, Seed: uint64(60 + j)}, 0, 1)
		if q.Transform != TransformNone {
			if err := g[j].SetTargetTransform(q.Transform); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := mustCopula(t, g, l, s, nu, c)
	p := new(MultiPrediction)
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.2, -0.3}, p); err != nil {
		t.Fatal(err)
	}
	copy(p.cop.marg, marg)
	return p
}

// condRefCase is one case of copula_conditional_ref.csv.
type condRefCase struct {
	id, obs, base string
	y0, rho       float64
	mu, sigma     float64
	quantiles     [][3]float64 // q, y, dy/du
	cdf, logpdf   map[float64]float64
	moments       map[string]float64 // mean, var, zmean, zvar
	cdfOrder      []float64
}

func condRefCases(t *testing.T) []*condRefCase {
	t.Helper()
	var cases []*condRefCase
	byID := map[string]*condRefCase{}
	num := func(s string) float64 {
		if s == "inf" { // a moment that does not exist
			return math.Inf(1)
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("copula_conditional_ref.csv: %v", err)
		}
		return v
	}
	for _, r := range readRefCSV(t, "testdata/copula_conditional_ref.csv") {
		if r[0] == "case" {
			c := &condRefCase{id: r[1], obs: r[2], y0: num(r[3]), rho: num(r[4]), base: r[5],
				cdf: map[float64]float64{}, logpdf: map[float64]float64{}, moments: map[string]float64{}}
			cases = append(cases, c)
			byID[c.id] = c
			continue
		}
		c := byID[r[1]]
		if c == nil {
			t.Fatalf("copula_conditional_ref.csv: row %v before its case", r)
		}
		switch r[0] {
		case "map":
			c.mu, c.sigma = num(r[3]), num(r[4]) // r[2] is y0's score u0, for the reader
		case "quantile":
			c.quantiles = append(c.quantiles, [3]float64{num(r[2]), num(r[3]), num(r[4])})
		case "cdf":
			c.cdf[num(r[2])] = num(r[3])
			c.cdfOrder = append(c.cdfOrder, num(r[2]))
		case "logpdf":
			c.logpdf[num(r[2])] = num(r[3])
		case "mean", "var", "zmean", "zvar":
			c.moments[r[0]] = num(r[2])
		default:
			t.Fatalf("copula_conditional_ref.csv: row kind %q", r[0])
		}
	}
	return cases
}

// conditionRefCase builds the case's bivariate copula (target 0 its obs
// marginal, target 1 its base; correlation rho) and conditions it on
// target 0 at y0.
func conditionRefCase(t *testing.T, c *condRefCase) (*MultiPrediction, *MultiPrediction, error) {
	t.Helper()
	marg := []Prediction{condRefMarginal(t, c.obs), condRefMarginal(t, c.base)}
	l := []float64{1, c.rho, math.Sqrt(1 - c.rho*c.rho)}
	p := condCopula(t, marg, l, 1, math.Inf(1), nil)
	dst := new(MultiPrediction)
	err := p.Conditional(dst, []int{0}, []float64{c.y0})
	return p, dst, err
}

// condScoreErr is the error of a score u that normalScore forms (2e-13
// of max(|u|, 1): TestNormalScoreMpmath's bound near the body; below
// 1e-14 relative in the far tails) plus the rounding of u − μ and
// (u − μ)/σ, a few ulps of |u| + |μ|.
func condScoreErr(u, mu float64) float64 {
	return 2e-13*max(math.Abs(u), 1) + 4e-16*(math.Abs(u)+math.Abs(mu))
}

// scoreOfProb returns w = Φ⁻¹(G) from G, from the smaller tail.
func scoreOfProb(g float64) float64 {
	if g <= 0.5 {
		return standardNormalQuantile(g)
	}
	return -standardNormalQuantile(1 - g)
}

// checkRefMarginal compares the conditional marginal g of case c with the
// mpmath rows (CDF, LogPDF, Quantile, Interval, moments), and records in
// worst the largest ratio of error to tolerance of each kind of check.
func checkRefMarginal(t *testing.T, c *condRefCase, g Prediction, worst map[string]float64) {
	t.Helper()
	note := func(kind string, err, tol float64) {
		worst[kind] = max(worst[kind], err/tol)
	}
	name := fmt.Sprintf("%s (%s given %s at %v, ρ %v; μ %.6g, σ %.6g)", c.id, c.base, c.obs, c.y0, c.rho, c.mu, c.sigma)
	for _, r := range c.quantiles {
		q, want, dydu := r[0], r[1], r[2]
		got, err := g.Quantile(q)
		// The root solves u(y) = v = μ + σΦ⁻¹(q): an error δv of the
		// score (condScoreErr) moves y by δv·dy/du, and y itself rounds.
		v := c.mu + c.sigma*scoreOfProb(q)
		tol := 2*condScoreErr(v, c.mu)*dydu + 4e-16*math.Abs(want)
		note("Quantile", math.Abs(got-want), tol)
		if err != nil || !(math.Abs(got-want) <= tol) {
			t.Errorf("%s: Quantile(%v) = %.17g (%v), want %.17g (tolerance %.2g)", name, q, got, err, want, tol)
		}
	}
	qs := map[float64]float64{}
	for _, r := range c.quantiles {
		qs[r[0]] = r[1]
	}
	if lo, okLo := qs[0.025]; okLo {
		hi := qs[0.975]
		glo, ghi, err := g.Interval(0.95)
		if err != nil || math.Abs(glo-lo) > 1e-11*max(math.Abs(lo), 1) || math.Abs(ghi-hi) > 1e-11*max(math.Abs(hi), 1) {
			t.Errorf("%s: Interval(0.95) = [%.17g, %.17g] (%v), want its quantiles [%.17g, %.17g]", name, glo, ghi, err, lo, hi)
		}
	}
	for _, y := range c.cdfOrder {
		want := c.cdf[y]
		got := g.CDF(y)
		// The smaller tail T = min(G, 1 − G) at w = (u − μ)/σ moves by
		// φ(w)·δw ≤ 1.3·max(|w|, 1)·T·δw for δw = δu/σ.
		w := scoreOfProb(want)
		u := c.mu + c.sigma*w
		tail := min(want, 1-want)
		tol := 2*max(math.Abs(w), 1)*tail*condScoreErr(u, c.mu)/c.sigma + 4e-16*want
		note("CDF", math.Abs(got-want), tol)
		if !(math.Abs(got-want) <= tol) {
			t.Errorf("%s: CDF(%v) = %.17g, want %.17g (tolerance %.2g)", name, y, got, want, tol)
		}
		wantLog := c.logpdf[y]
		gotLog := g.LogPDF(y)
		// ln f(y) − ln σ − ½(w² − u²): each term to a few ulps of the
		// largest (1e-14 of max(1, |ln g|, w², u²)); the quadratic moves
		// by (|w|/σ + |u|)·δu.
		tol = 1e-14*max(1, math.Abs(wantLog), w*w, u*u) + 2*(math.Abs(w)/c.sigma+math.Abs(u))*condScoreErr(u, c.mu)
		note("LogPDF", math.Abs(gotLog-wantLog), tol)
		if !(math.Abs(gotLog-wantLog) <= tol) {
			t.Errorf("%s: LogPDF(%v) = %.17g, want %.17g (tolerance %.2g)", name, y, gotLog, wantLog, tol)
		}
	}
	// The moments: numerical quadrature in the implementation, held to
	// 1e-8 relative (the accuracy the contract asks of G's CRPS), the
	// mean to 1e-8 of its standard deviation (of the base's scale s where
	// G has no variance) where that is the larger.
	for _, k := range []string{"mean", "zmean"} {
		want, ok := c.moments[k]
		if !ok {
			continue
		}
		got, sd := g.Mean, math.Sqrt(c.moments["var"])
		if k == "zmean" {
			got, sd = g.ZMean, math.Sqrt(c.moments["zvar"])
		}
		if math.IsInf(sd, 1) { // no variance: the base's scale s
			sd, _ = strconv.ParseFloat(strings.Split(c.base, "/")[2], 64)
		}
		note("mean", math.Abs(got-want), 1e-8*max(math.Abs(want), sd))
		if !(math.Abs(got-want) <= 1e-8*max(math.Abs(want), sd)) {
			t.Errorf("%s: %s %.17g, want %.17g", name, k, got, want)
		}
	}
	for _, k := range []string{"var", "zvar"} {
		want, ok := c.moments[k]
		if !ok {
			continue
		}
		got := g.Var
		if k == "zvar" {
			got = g.ZVar
		}
		if !math.IsInf(want, 1) {
			note("variance", math.Abs(got-want), 1e-8*want)
		}
		if math.IsInf(want, 1) && !math.IsInf(got, 1) || !math.IsInf(want, 1) && !(math.Abs(got-want) <= 1e-8*want) {
			t.Errorf("%s: %s %.17g, want %.17g", name, k, got, want)
		}
	}
}

// TestCopulaCondRefMpmath checks the conditional marginal G(y) =
// Φ((Φ⁻¹(F(y)) − μ)/σ) of a bivariate copula conditioned on target 0
// (a standard normal, so that its score is y0 itself: μ = ρ·y0,
// σ = √(1 − ρ²)) against mpmath (testdata/gen_copula_conditional.py):
// Student-t bases of 1.8, 3, 5 and 30 dof and a log-t, under the maps
// (0, 1), (1.3, 0.6), (−2, 0.9), (8, 0.5), at the quantiles 1e-10,
// 0.025, 0.5, 0.975, 1 − 1e-10 and their CDF and log density, the
// 95% interval, and G's mean and variance (in z for the log-t: ZMean,
// ZVar), +Inf where it does not exist (the t of 1.8 dof at σ = 1).
// Tolerances are in checkRefMarginal, each with its reason.
func TestCopulaCondRefMpmath(t *testing.T) {
	n, worst := 0, map[string]float64{}
	defer func() { t.Logf("largest error/tolerance: %v", worst) }()
	for _, c := range condRefCases(t) {
		if !strings.HasPrefix(c.id, "a") {
			continue
		}
		n++
		_, dst, err := conditionRefCase(t, c)
		if err != nil {
			t.Errorf("%s: Conditional: %v", c.id, err)
			continue
		}
		if dst.Dim() != 1 {
			t.Errorf("%s: conditional of %d targets, want 1", c.id, dst.Dim())
			continue
		}
		checkRefMarginal(t, c, dst.Marginal(0), worst)
	}
	if n < 20 {
		t.Errorf("%d cases, want 20", n)
	}
}

// TestCopulaCondRefFarMpmath conditions on values whose scores are
// ±30 and far beyond (a normal at 30, −40, 1000 and 10⁶ scales; a t of 3
// dof at ±1e100, 1e200, scores near ±37 and ±52; a log-t of 10⁴ dof at
// 1e-300 and 1e300, scores about ∓229), with small ρ where the score is
// huge so that μ = ρ·u₀ stays where G's median fits in float64. Every
// quantity of the conditional law is finite (the calibrated ones where
// the calibrated score of y0 is at most 1e6, as the test explains), and
// G's median, CDF and log density there agree with mpmath (tolerances as
// TestCopulaCondRefMpmath's).
func TestCopulaCondRefFarMpmath(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	n, worst := 0, map[string]float64{}
	defer func() { t.Logf("largest error/tolerance: %v", worst) }()
	for _, c := range condRefCases(t) {
		if !strings.HasPrefix(c.id, "f") {
			continue
		}
		n++
		p, dst, err := conditionRefCase(t, c)
		if err != nil {
			t.Errorf("%s: Conditional given %s at %v: %v", c.id, c.obs, c.y0, err)
			continue
		}
		g := dst.Marginal(0)
		checkRefMarginal(t, c, g, worst)
		med := c.quantiles[0][1]
		y := []float64{med}
		lo, hi, err := g.Interval(0.9)
		values := map[string]float64{
			"Mean": g.Mean, "Interval lo": lo, "Interval hi": hi,
			"dst.LogPDF": dst.LogPDF(y), "dst.Mahalanobis": dst.Mahalanobis(y), "RegionScale": dst.RegionScale(),
		}
		// G of a log-t base has no mean in y (its tails in z are a power
		// of z, and E[e^Z] is infinite): its CRPS is +Inf, the contract's.
		if g.Transform == TransformLog {
			if v := g.CRPS(med); !math.IsInf(v, 1) {
				t.Errorf("%s: a log-t base's CRPS %v, want +Inf (no mean)", c.id, v)
			}
		} else {
			values["CRPS"] = g.CRPS(med)
		}
		// The calibrated law is Gaussian in z: y0's calibrated score
		// ũ₀ = (z₀ − m₀)/√Ṽ₀ is as far out as y0 itself (1e100/√Ṽ for the
		// t at 1e100), and the calibrated conditional's centre moves by
		// ρ·√Ṽ₁·ũ₀, which can leave float64 (e^c under a log, or a log
		// density of −(1e200)²) legitimately: its quantities are held
		// finite where |ũ₀| ≤ 1e6.
		z0 := c.y0
		if p.Marginal(0).Transform == TransformLog {
			z0 = math.Log(c.y0)
		}
		if ut := (z0 - p.ZMean(0)) / math.Sqrt(p.ZCovCorrected(0, 0)); math.Abs(ut) <= 1e6 {
			clo, chi, cerr := g.CalibratedInterval(0.9)
			cq, cqerr := g.CalibratedQuantile(0.3)
			if cerr != nil || cqerr != nil {
				t.Errorf("%s: CalibratedInterval %v, CalibratedQuantile %v", c.id, cerr, cqerr)
			}
			for k, v := range map[string]float64{
				"VarCorrected": g.VarCorrected, "CalibratedCDF": g.CalibratedCDF(med), "CalibratedLogPDF": g.CalibratedLogPDF(med),
				"CalibratedCRPS": g.CalibratedCRPS(med), "CalibratedInterval lo": clo, "CalibratedInterval hi": chi,
				"CalibratedQuantile(0.3)": cq, "dst.CalibratedLogPDF": dst.CalibratedLogPDF(y),
				"dst.CalibratedMahalanobis": dst.CalibratedMahalanobis(y),
			} {
				values[k] = v
			}
		}
		for name, v := range values {
			if !finite(v) {
				t.Errorf("%s (given %s at %v): %s = %v, want finite", c.id, c.obs, c.y0, name, v)
			}
		}
		if err != nil {
			t.Errorf("%s: Interval %v", c.id, err)
		}
		// the base's variance exists under G here (σ ≤ 1, ν ≥ 5)
		if v := g.Var; !(v > 0 && finite(v)) {
			t.Errorf("%s: Var %v, want positive and finite", c.id, v)
		}
		draw := make([]float64, 1)
		for range 20 {
			if err := dst.Sample(draw, r); err != nil || !finite(draw[0]) {
				t.Errorf("%s: Sample %v (%v)", c.id, draw[0], err)
			}
			if err := dst.SampleCalibrated(draw, r); err != nil || math.IsNaN(draw[0]) {
				t.Errorf("%s: SampleCalibrated %v (%v)", c.id, draw[0], err)
			}
		}
		if _, err := dst.Inside(y, 0.9); err != nil {
			t.Errorf("%s: Inside: %v", c.id, err)
		}
	}
	if n < 9 {
		t.Errorf("%d far cases, want 9", n)
	}
	// Under a region of finite ν the conditional region's scale
	// s·(ν + q̃_O/s)/(ν + 1) overflows where the squared calibrated score
	// q̃_O does (y0 = −1e200 under the t of scale 2, Ṽ = 3.2): ErrNonFinite,
	// as the joint t's "so far out that the conditional scale overflows";
	// the Gaussian region's scale s needs no q̃_O (case f5 above).
	marg := []Prediction{condRefMarginal(t, "t/0.25/2.0/3.0"), condRefMarginal(t, "t/10.0/1.0/30.0")}
	p := condCopula(t, marg, []float64{1, 0.5, math.Sqrt(0.75)}, 1, 6, nil)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{-1e200}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("region ν 6, y0 = −1e200: %v, want ErrNonFinite (the region's scale overflows)", err)
	}
	if err := p.Conditional(&dst, []int{0}, []float64{-1e150}); err != nil || !finite(dst.RegionScale()) {
		t.Errorf("region ν 6, y0 = −1e150: %v, RegionScale %v, want finite", err, dst.RegionScale())
	}
}

// condNetCopula returns the prediction at x of a copula model of d (3 to
// 6) network marginals, those of copulaMargins(seed) then of
// copulaMargins(seed+10) (a calibrated t network, an ensemble of three, a
// logged t, again), joined by copulaFactor3 for d = 3 and otherwise by a
// random correlation (packedCorr shrunk by 0.8 towards I, well
// conditioned), with the calibrated region (s, nu) and conformal scores c.
func condNetCopula(t *testing.T, d int, seed uint64, s, nu float64, c *conformalScores) *MultiPrediction {
	t.Helper()
	g := append(copulaMargins[float64](t, seed), copulaMargins[float64](t, seed+10)...)[:d]
	l := copulaFactor3()
	if d != 3 {
		l = packedCorr(rand.New(rand.NewPCG(seed, 77)), d)
		shrinkCorr(l, d, 0.8)
	}
	m := mustCopula(t, g, l, s, nu, c)
	p := new(MultiPrediction)
	if err := m.PredictMulti(m.NewWorkspace(), copulaRows[1], p); err != nil {
		t.Fatal(err)
	}
	return p
}

// condSplit returns the targets of d not in given, in increasing order.
func condSplit(d int, given []int) []int {
	var rest []int
	for i := range d {
		if !containsInt(given, i) {
			rest = append(rest, i)
		}
	}
	return rest
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// condDense returns the dense matrix f(rows[a], cols[b]), row-major.
func condDense(rows, cols []int, f func(i, j int) float64) []float64 {
	m := make([]float64, len(rows)*len(cols))
	for a, i := range rows {
		for b, j := range cols {
			m[a*len(cols)+b] = f(i, j)
		}
	}
	return m
}

// condLogDet returns ln det of the row-major n×n a (positive definite) by
// Gaussian elimination with partial pivoting, apart from any Cholesky code.
func condLogDet(a []float64, n int) float64 {
	m := append([]float64(nil), a...)
	var s float64
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r*n+c]) > math.Abs(m[p*n+c]) {
				p = r
			}
		}
		for k := range n {
			m[c*n+k], m[p*n+k] = m[p*n+k], m[c*n+k]
		}
		s += math.Log(math.Abs(m[c*n+c]))
		for r := c + 1; r < n; r++ {
			f := m[r*n+c] / m[c*n+c]
			for k := c; k < n; k++ {
				m[r*n+k] -= f * m[c*n+k]
			}
		}
	}
	return s
}

// condQuad returns xᵀA⁻¹x for the row-major n×n a (solve).
func condQuad(a, x []float64) float64 {
	y := solve(a, x, len(x))
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// condScores returns the normal scores of the values of the targets given
// under p's marginals, Φ⁻¹ of their exported CDF from its smaller side
// (for values in the body, where that is accurate to about 1e-15).
func condScores(p *MultiPrediction, given []int, values []float64) []float64 {
	u := make([]float64, len(given))
	for a, j := range given {
		u[a] = scoreOfProb(p.Marginal(j).CDF(values[a]))
	}
	return u
}

// condLogPO returns ln p_O(y_O), the density of the O-sub-copula at the
// given values: Σ_O ln f_j(y_j) − ½ ln det R_OO − ½(u_Oᵀ R_OO⁻¹ u_O − |u_O|²),
// from the marginals' exported LogPDF and CDF and R from p.Corr.
func condLogPO(p *MultiPrediction, given []int, values []float64) float64 {
	var s float64
	for a, j := range given {
		s += p.Marginal(j).LogPDF(values[a])
	}
	u := condScores(p, given, values)
	roo := condDense(given, given, p.Corr)
	var uu float64
	for _, v := range u {
		uu += v * v
	}
	return s - 0.5*condLogDet(roo, len(given)) - 0.5*(condQuad(roo, u)-uu)
}

// condLaw returns the conditional law of the scores u_U | u_O, μ =
// R_UO R_OO⁻¹ u_O and Σ = R_UU − R_UO R_OO⁻¹ R_OU (dense, row-major),
// formed here by linear solves.
func condLaw(p *MultiPrediction, given, rest []int, uO []float64) (mu, sigma []float64) {
	roo := condDense(given, given, p.Corr)
	x := solve(roo, uO, len(given))
	mu = make([]float64, len(rest))
	sigma = make([]float64, len(rest)*len(rest))
	for a, i := range rest {
		for c, o := range given {
			mu[a] += p.Corr(i, o) * x[c]
		}
		for b, j := range rest {
			col := make([]float64, len(given))
			for c, o := range given {
				col[c] = p.Corr(o, j)
			}
			y := solve(roo, col, len(given))
			v := p.Corr(i, j)
			for c, o := range given {
				v -= p.Corr(i, o) * y[c]
			}
			sigma[a*len(rest)+b] = v
		}
	}
	return mu, sigma
}

// condDraw returns a value of target j of p in the body: its marginal's
// quantile at a uniform probability in (0.02, 0.98).
func condDraw(t *testing.T, p *MultiPrediction, j int, r *rand.Rand) float64 {
	t.Helper()
	y, err := p.Marginal(j).Quantile(0.02 + 0.96*r.Float64())
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// TestCopulaCondRefDensityRatio checks Bayes' rule, ln p(y_U | y_O) =
// ln p(y) − ln p_O(y_O), for one to d − 1 given targets of d = 3, 4, 5
// (t, ensemble-mixture and log marginals), with p_O the O-sub-copula's
// density formed here (condLogPO) from the marginals' exported LogPDF and
// CDF and R_OO from p.Corr; and that dst's correlation is R' = the
// normalised Σ = R_UU − R_UO R_OO⁻¹ R_OU, its marginals' CDFs
// Φ((Φ⁻¹(F_j) − μ_j)/σ_j) with μ = R_UO R_OO⁻¹ u_O. Tolerances: 1e-9 for
// the log densities (terms of order 10 formed by different routes, a few
// hundred roundings apart, as TestConditionalIsTheDensityRatio), 1e-12
// for R' (a Schur complement of a well-conditioned R), 1e-11 for the
// CDFs in the body (the scores formed from CDFs that hold 1e-15).
func TestCopulaCondRefDensityRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		d     int
		given []int
	}{
		{3, []int{1}}, {3, []int{2, 0}}, {4, []int{1}}, {4, []int{0, 2}}, {4, []int{3, 1, 0}},
		{5, []int{2, 4}}, {5, []int{4, 0, 1}}, {5, []int{3}}, {5, []int{0, 1, 2, 4}},
	} {
		p := condNetCopula(t, c.d, uint64(3+c.d), 1, math.Inf(1), nil)
		rest := condSplit(c.d, c.given)
		var dst MultiPrediction
		for range 4 {
			values := make([]float64, len(c.given))
			for a, j := range c.given {
				values[a] = condDraw(t, p, j, r)
			}
			if err := p.Conditional(&dst, c.given, values); err != nil {
				t.Errorf("d %d given %v at %.4g: %v", c.d, c.given, values, err)
				break
			}
			if dst.Dim() != len(rest) {
				t.Fatalf("d %d given %v: %d targets, want %d", c.d, c.given, dst.Dim(), len(rest))
			}
			lnO := condLogPO(p, c.given, values)
			for range 3 {
				yu := make([]float64, len(rest))
				for a, j := range rest {
					yu[a] = condDraw(t, p, j, r)
				}
				want := p.LogPDF(merge(c.d, c.given, values, yu)) - lnO
				if got := dst.LogPDF(yu); !(math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))) {
					t.Errorf("d %d given %v at %.6g: LogPDF(%.6g) = %.12g, p(y)/p_O(y_O) gives %.12g", c.d, c.given, values, yu, got, want)
				}
			}
			mu, sigma := condLaw(p, c.given, rest, condScores(p, c.given, values))
			u := len(rest)
			for a := range u {
				for b := range u {
					want := sigma[a*u+b] / math.Sqrt(sigma[a*u+a]*sigma[b*u+b])
					if got := dst.Corr(a, b); !(math.Abs(got-want) <= 1e-12) {
						t.Errorf("d %d given %v: Corr(%d, %d) = %.15g, want %.15g", c.d, c.given, a, b, got, want)
					}
				}
				g, base := dst.Marginal(a), p.Marginal(rest[a])
				sd := math.Sqrt(sigma[a*u+a])
				for _, prob := range []float64{0.05, 0.3, 0.5, 0.8, 0.97} {
					y, err := base.Quantile(prob)
					if err != nil {
						t.Fatal(err)
					}
					want := 0.5 * math.Erfc(-(scoreOfProb(base.CDF(y))-mu[a])/sd/math.Sqrt2)
					if got := g.CDF(y); !(math.Abs(got-want) <= 1e-11) {
						t.Errorf("d %d given %v: target %d: CDF(%.6g) = %.15g, want %.15g", c.d, c.given, rest[a], y, got, want)
					}
				}
			}
		}
	}
}

// The Gauss–Kronrod 7–15 rule on [−1, 1]: the Kronrod nodes (the
// positive half and 0) and weights, and the Gauss weights of the nodes
// condXK[1], condXK[3], condXK[5] and 0.
var (
	condXK = [8]float64{0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0}
	condWK = [8]float64{0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714}
	condWG = [4]float64{0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327}
)

// condGK returns ∫_a^b f by adaptive bisection of the 7–15 Gauss–Kronrod
// rule until each piece's |K15 − G7| is below tol·(b−a)/(full width)
// (or 40 levels deep), and the sum of the pieces' error estimates. It
// never evaluates f at a or b.
func condGK(f func(float64) float64, a, b, tol float64) (v, errEst float64) {
	var rec func(a, b, tol float64, depth int) (float64, float64)
	rec = func(a, b, tol float64, depth int) (float64, float64) {
		c, h := (a+b)/2, (b-a)/2
		fc := f(c)
		k, g := condWK[7]*fc, condWG[3]*fc
		for i := range 7 {
			s := f(c-h*condXK[i]) + f(c+h*condXK[i])
			k += condWK[i] * s
			if i%2 == 1 {
				g += condWG[i/2] * s
			}
		}
		k, g = k*h, g*h
		e := math.Abs(k - g)
		if e <= tol || depth >= 40 {
			return k, e
		}
		v1, e1 := rec(a, c, tol/2, depth+1)
		v2, e2 := rec(c, b, tol/2, depth+1)
		return v1 + v2, e1 + e2
	}
	return rec(a, b, tol, 0)
}

// condLine returns ∫_{−∞}^{hi} f(x) dx over the real line mapped by
// x = c + s·tan θ (so that algebraic tails become bounded), hi = +Inf for
// the whole line, to the absolute tolerance tol.
func condLine(f func(float64) float64, c, s, hi, tol float64) (v, errEst float64) {
	top := math.Pi / 2
	if !math.IsInf(hi, 1) {
		top = math.Atan((hi - c) / s)
	}
	return condGK(func(th float64) float64 {
		x := c + s*math.Tan(th)
		v := f(x)
		if v == 0 { // far out: no need of sec²
			return 0
		}
		sec := 1 / math.Cos(th)
		return v * s * sec * sec
	}, -math.Pi/2, top, tol)
}

// TestCopulaCondRefMarginalIntegrates checks each conditional
// marginal G of one target left over (d = 2 and 3, |O| = d − 1) against
// the conditional density formed from the unconditional prediction,
// h(t) = exp(ln p(y_O, t) − ln p_O(y_O)) (p.LogPDF and condLogPO), by
// adaptive quadrature in t (in z = ln t for a logged target, where G's
// moments are ZMean and ZVar): ∫h = 1, G.CDF(y) = ∫_{−∞}^y h at G's
// quantiles 0.1, 0.5, 0.9 (y = F⁻¹(Φ(μ + σ·Φ⁻¹(q))) from the base's
// exported Quantile and μ, σ of condLaw), and G's Mean and Var (+Inf
// where the variance does not exist: a t base of ν dof, or a mixture of
// smallest dof ν, has one only where 2 < ν/σ²). The quadrature is
// held to 1e-12 absolute on the density, which the density ratio's own
// rounding (1e-12 relative, TestCopulaCondRefDensityRatio) matches:
// the CDF to 1e-9, the moments to 1e-8 of the standard deviation (mean)
// and of the variance, plus the quadrature's own error estimate. A
// logged target is integrated in z = ln t only out to |z| = 700, where
// e^z leaves float64's normal range; the tails beyond are bounded from
// G's tail probability there (formed from the base's CDF, not dst's) and
// added to the moments' tolerances: 2.7e-8 relative on ZVar for the log-t
// network of 3.8 dof, whose ZVar the cut's first version (no bound) missed
// by 2.2e-7 while mpmath (the generator's two routes, 1e-15 apart) and
// the implementation agreed to 2.5e-12.
func TestCopulaCondRefMarginalIntegrates(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	type setup struct {
		name  string
		p     *MultiPrediction
		given []int
	}
	var cases []setup
	// d = 2: a hand-made t of 4 dof given a mixture, and given a log-t.
	tb := condRefMarginal(t, "t/1.0/0.5/4.0")
	lb := condRefMarginal(t, "logt/0.5/0.25/6.0")
	mix := Prediction{Loss: LossGCP, Members: 3, Mean: 0.2, Var: 1.5, VarCorrected: 1.2}
	mix.Components[0], mix.Components[1], mix.Components[2] = Component{-0.5, 1, 5}, Component{0.5, 0.7, 12}, Component{0.6, 1.5, 3}
	for _, rho := range []float64{0.7, -0.45} {
		l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
		cases = append(cases,
			setup{fmt.Sprintf("t given a mixture, ρ %v", rho), condCopula(t, []Prediction{mix, tb}, l, 1, math.Inf(1), nil), []int{0}},
			setup{fmt.Sprintf("mixture given a log-t, ρ %v", rho), condCopula(t, []Prediction{mix, lb}, l, 1, math.Inf(1), nil), []int{1}},
			setup{fmt.Sprintf("log-t given a t, ρ %v", rho), condCopula(t, []Prediction{tb, lb}, l, 1, math.Inf(1), nil), []int{0}})
	}
	// d = 3: the network marginals of copulaMargins, each left over once.
	p3 := condNetCopula(t, 3, 21, 1, math.Inf(1), nil)
	for _, given := range [][]int{{1, 2}, {0, 2}, {0, 1}} {
		cases = append(cases, setup{fmt.Sprintf("d = 3 given %v", given), p3, given})
	}
	for _, c := range cases {
		p, d := c.p, c.p.Dim()
		rest := condSplit(d, c.given)
		j := rest[0]
		values := make([]float64, len(c.given))
		for a, i := range c.given {
			values[a] = condDraw(t, p, i, r)
		}
		var dst MultiPrediction
		if err := p.Conditional(&dst, c.given, values); err != nil {
			t.Errorf("%s at %.6g: %v", c.name, values, err)
			continue
		}
		mu, sigma := condLaw(p, c.given, rest, condScores(p, c.given, values))
		sd := math.Sqrt(sigma[0])
		base, g := p.Marginal(j), dst.Marginal(0)
		logged := base.Transform == TransformLog
		lnO := condLogPO(p, c.given, values)
		// the density of G in x (x = ln t for a logged target, cut at
		// |x| = zCut, beyond which e^x leaves float64's normal range:
		// truncMean and truncVar bound what the cut leaves out)
		const zCut = 700
		h := func(x float64) float64 {
			y := x
			if logged {
				if math.Abs(x) > zCut {
					return 0
				}
				y = math.Exp(x)
			}
			v := math.Exp(p.LogPDF(merge(d, c.given, values, []float64{y})) - lnO)
			if logged {
				v *= y
			}
			if math.IsNaN(v) {
				return 0
			}
			return v
		}
		at := func(q float64) float64 { // G's quantile q, in y
			w := mu[0] + sd*scoreOfProb(q)
			y, err := base.Quantile(0.5 * math.Erfc(-w/math.Sqrt2))
			if err != nil {
				t.Fatal(err)
			}
			return y
		}
		toX := func(y float64) float64 {
			if logged {
				return math.Log(y)
			}
			return y
		}
		cx := toX(at(0.5))
		sx := (toX(at(0.75)) - toX(at(0.25))) / 1.35
		const tol = 1e-12
		total, e := condLine(h, cx, sx, math.Inf(1), tol)
		if !(math.Abs(total-1) <= 1e-9+e) {
			t.Errorf("%s: ∫h = %.15g (± %.2g), want 1: the density ratio is off", c.name, total, e)
		}
		for _, q := range []float64{0.1, 0.5, 0.9} {
			y := at(q)
			want, e := condLine(h, cx, sx, toX(y), tol)
			if got := g.CDF(y); !(math.Abs(got-want) <= 1e-9+e) {
				t.Errorf("%s at %.6g: G.CDF(%.8g) = %.15g, ∫h = %.15g (± %.2g)", c.name, values, y, got, want, e)
			}
		}
		mean, e1 := condLine(func(x float64) float64 { return x * h(x) }, cx, sx, math.Inf(1), tol*max(1, math.Abs(cx)))
		gotMean, gotVar := g.Mean, g.Var
		if logged {
			gotMean, gotVar = g.ZMean, g.ZVar
		}
		// the variance exists where 2 < ν/σ², ν the base's (smallest) dof
		nu := 2 * base.Alpha
		if cs := base.mixture(); cs != nil {
			nu = math.Inf(1)
			for _, ci := range cs {
				nu = min(nu, ci.DoF)
			}
		}
		if 2 >= nu/sigma[0] {
			if !math.IsInf(gotVar, 1) {
				t.Errorf("%s: Var %v, want +Inf (ν %v, σ² %v)", c.name, gotVar, nu, sigma[0])
			}
			continue
		}
		// What the cut leaves out of a logged target's moments: G's tails
		// beyond ±zCut, P = Φ((Φ⁻¹(F(e^∓zCut)) − μ)/σ) (and its upper
		// twin), fall as a power of |z| of exponent ν/σ² > 2, so that
		// ∫_{|z|>A} |z|ᵏ g ≤ P·Aᵏ·ν'/(ν' − k), ν' = ν/σ², for k = 1, 2 (the
		// mean's cut taken from |z| ≤ A about 0); twice that bounds it.
		var truncMean, truncVar float64
		if logged {
			nuG := nu / sigma[0]
			lo := 0.5 * math.Erfc(-(scoreOfProb(base.CDF(math.Exp(-zCut)))-mu[0])/sd/math.Sqrt2)
			hi := 0.5 * math.Erfc((scoreOfProb(base.CDF(math.Exp(zCut)))-mu[0])/sd/math.Sqrt2)
			truncMean = 2 * (lo + hi) * zCut * nuG / (nuG - 1)
			truncVar = 2 * (lo + hi) * (zCut + math.Abs(mean)) * (zCut + math.Abs(mean)) * nuG / (nuG - 2)
		}
		v, e2 := condLine(func(x float64) float64 { return (x - mean) * (x - mean) * h(x) }, cx, sx, math.Inf(1), tol*sx*sx)
		if !(math.Abs(gotMean-mean) <= 1e-8*math.Sqrt(v)+e1+truncMean) {
			t.Errorf("%s at %.17g (μ %.17g, σ² %.17g): mean %.15g, ∫t·h = %.15g (± %.2g)", c.name, values, mu[0], sigma[0], gotMean, mean, e1)
		}
		if !(math.Abs(gotVar-v) <= 1e-8*v+e2+truncVar) {
			t.Errorf("%s at %.17g (μ %.17g, σ² %.17g): variance %.15g, ∫(t − m)²·h = %.15g (± %.2g)", c.name, values, mu[0], sigma[0], gotVar, v, e2+truncVar)
		}
		if truncVar > 0 {
			t.Logf("%s: the cut at |z| = %v bounds the variance's error by %.2g (%.2g relative)", c.name, float64(zCut), truncVar, truncVar/v)
		}
	}
}

// TestCopulaCondRefMonteCarlo draws from the conditional of a d = 5
// copula of network marginals given two targets (three left: a t, a
// logged t and an ensemble) and checks, with 20000 draws each: (i) Inside
// at 0.5, 0.9, 0.95 holds dst.Sample's draws at its rate within 3
// standard errors (√(p(1−p)/n)); (ii) each target's draws have G_j's law,
// G_j.CDF(y_j) uniform, a KS distance below the 0.1% critical value
// 1.95/√n; (iii) CalibratedInside holds SampleCalibrated's draws at its
// rate within 3 standard errors, for a Gaussian and a t region; and (iv)
// by importance sampling, without dst's sampler, from a proposal drawn
// apart: scores v_j ~ N(0, 1.5²) mapped through each base marginal's
// exported Quantile, weighted by p's joint density over the proposal's
// (the conditional of the scores is N(μ, Σ) with Σ ≤ I < 1.5²·I, so that
// the weights are bounded), the probability of Inside's 50% and 90%
// regions, of y_j ≤ G_j.Quantile(0.3) and the means of the targets not
// logged (G_j.Mean) agree within 4 standard errors of the self-normalised
// estimate, as TestConditionalImportanceSampling.
func TestCopulaCondRefMonteCarlo(t *testing.T) {
	const n = 20000
	r := rand.New(rand.NewPCG(15, 16))
	given := []int{1, 3}
	for _, region := range [][2]float64{{1, math.Inf(1)}, {1.4, 7}} {
		p := condNetCopula(t, 5, 31, region[0], region[1], nil)
		rest := condSplit(5, given)
		values := []float64{condDraw(t, p, 1, r), condDraw(t, p, 3, r)}
		var dst MultiPrediction
		if err := p.Conditional(&dst, given, values); err != nil {
			t.Fatalf("given %v at %v: %v", given, values, err)
		}
		u := dst.Dim()
		levels := []float64{0.5, 0.9, 0.95}
		in, cin := make([]int, len(levels)), make([]int, len(levels))
		cdfs := make([][]float64, u)
		y := make([]float64, u)
		for range n {
			if err := dst.Sample(y, r); err != nil {
				t.Fatal(err)
			}
			for k, lv := range levels {
				if ok, err := dst.Inside(y, lv); err != nil {
					t.Fatal(err)
				} else if ok {
					in[k]++
				}
			}
			for a := range u {
				g := dst.Marginal(a)
				cdfs[a] = append(cdfs[a], g.CDF(y[a]))
			}
			if err := dst.SampleCalibrated(y, r); err != nil {
				t.Fatal(err)
			}
			for k, lv := range levels {
				if ok, err := dst.CalibratedInside(y, lv); err != nil {
					t.Fatal(err)
				} else if ok {
					cin[k]++
				}
			}
		}
		name := fmt.Sprintf("region (%v, %v), given %v at %.4g", region[0], region[1], given, values)
		for k, lv := range levels {
			se := math.Sqrt(lv * (1 - lv) / n)
			for _, c := range []struct {
				what string
				hits int
			}{{"Inside", in[k]}, {"CalibratedInside", cin[k]}} {
				got := float64(c.hits) / n
				t.Logf("%s: %s at %v holds %.4f ± %.4f", name, c.what, lv, got, se)
				if math.Abs(got-lv) > 3*se {
					t.Errorf("%s: %s at %v holds %v (± %.4f)", name, c.what, lv, got, se)
				}
			}
		}
		for a := range u {
			d := ksDistance(cdfs[a])
			t.Logf("%s: target %d: KS distance %.4f (0.1%% critical %.4f)", name, rest[a], d, 1.95/math.Sqrt(n))
			if d > 1.95/math.Sqrt(n) {
				t.Errorf("%s: target %d: KS distance %v of Sample's draws from G", name, rest[a], d)
			}
		}
		if region[0] != 1 {
			continue // the importance sampling needs only one region
		}
		// (iv) importance sampling
		const kappa = 1.5
		ws, ys := make([]float64, n), make([][]float64, n)
		var top float64 = math.Inf(-1)
		for s := range n {
			yu := make([]float64, u)
			var lq float64
			for a, j := range rest {
				v := kappa * r.NormFloat64()
				base := p.Marginal(j)
				prob := 0.5 * math.Erfc(-v/math.Sqrt2)
				yv, err := base.Quantile(min(max(prob, 1e-300), 1-1e-16))
				if err != nil {
					t.Fatal(err)
				}
				yu[a] = yv
				// the proposal's density of y: N(v; 0, κ²)·f(y)/φ(v)
				lq += -v*v/(2*kappa*kappa) - math.Log(kappa) + base.LogPDF(yv) + v*v/2
			}
			ws[s], ys[s] = p.LogPDF(merge(5, given, values, yu))-lq, yu
			top = max(top, ws[s])
		}
		var sw float64
		for s := range ws {
			ws[s] = math.Exp(ws[s] - top)
			sw += ws[s]
		}
		check := func(what string, f func(y []float64) float64, want float64) {
			est, se := importanceEstimate(ws, ys, sw, f)
			t.Logf("%s: %s %.4f by importance sampling, dst's %.4f (SE %.4f)", name, what, est, want, se)
			if math.Abs(est-want) > 4*se {
				t.Errorf("%s: %s %.5g by importance sampling, dst's %.5g (4 SE %.3g)", name, what, est, want, 4*se)
			}
		}
		for _, prob := range []float64{0.5, 0.9} {
			check(fmt.Sprintf("P(Inside %v)", prob), func(y []float64) float64 {
				if ok, _ := dst.Inside(y, prob); ok {
					return 1
				}
				return 0
			}, prob)
		}
		for a, j := range rest {
			g := dst.Marginal(a)
			q3, err := g.Quantile(0.3)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("target %d: P(y ≤ G⁻¹(0.3))", j), func(y []float64) float64 {
				if y[a] <= q3 {
					return 1
				}
				return 0
			}, 0.3)
			if g.Transform == TransformNone {
				check(fmt.Sprintf("target %d: mean", j), func(y []float64) float64 { return y[a] }, g.Mean)
			}
		}
	}
}

// condTLogPDF returns the log density at x of the multivariate t of nu
// dof (the Gaussian for +Inf), location m and dense scale s (row-major),
// written out: lnΓ((ν+k)/2) − lnΓ(ν/2) − (k/2)·ln(νπ) − ½ ln det S −
// ((ν+k)/2)·ln(1 + q/ν), q = (x − m)ᵀS⁻¹(x − m).
func condTLogPDF(x, m, s []float64, nu float64) float64 {
	k := float64(len(x))
	e := make([]float64, len(x))
	for i := range x {
		e[i] = x[i] - m[i]
	}
	q, ld := condQuad(s, e), condLogDet(s, len(x))
	if math.IsInf(nu, 1) {
		return -k/2*math.Log(2*math.Pi) - ld/2 - q/2
	}
	g1, _ := math.Lgamma((nu + k) / 2)
	g0, _ := math.Lgamma(nu / 2)
	return g1 - g0 - k/2*math.Log(nu*math.Pi) - ld/2 - (nu+k)/2*math.Log1p(q/nu)
}

// TestCopulaCondRefCalibrated checks the calibrated law of the
// conditional (d = 3 network marginals, one of them logged, given one or
// two targets, a t region of s 1.7, ν 6 and a Gaussian one of s 1.3):
//
//   - Bayes' rule for the calibrated region's law t_ν(m, s·Σ̃) in z:
//     dst.CalibratedLogPDF(y_U) = p.CalibratedLogPDF(y) − ln t_ν(z_O | m_O,
//     s·Σ̃_OO) − Σ_O ln y_o over the logged given targets, with m =
//     p.ZMean, Σ̃ = p.ZCovCorrected (exported), the t written out
//     (condTLogPDF): within 1e-9 (log densities of order 10 by different
//     routes, as TestConditionalCalibratedIsTheDensityRatio);
//   - RegionNu ν + |O| and RegionScale s·(ν + q̃_O/s)/(ν + |O|), q̃_O =
//     ũ_Oᵀ R_OO⁻¹ ũ_O, ũ_O = (z_O − m_O)/√Ṽ_O (s for ν = +Inf): 1e-12
//     relative (a few roundings);
//   - each conditional marginal's calibrated predictive N(c_j, Ṽ_jσ_j²) in
//     z, c_j = m_j + √Ṽ_j·μ̃_j, μ̃ = R_UO R_OO⁻¹ ũ_O (condLaw): VarCorrected
//     (ZVarCorrected if logged) Ṽ_jσ_j², CalibratedCDF, CalibratedQuantile
//     and CalibratedLogPDF those of the Gaussian mapped back (1e-12
//     relative, 1e-11 on log densities); under the log, Mean =
//     exp(c + ZVarCorrected/2), VarCorrected and Var the log-normal
//     expression (e^v − 1)·e^(2c + v) of ZVarCorrected and ZVar (the
//     contract's "the same log-normal expression", centred on c as Mean
//     is);
//   - no conformal scores: ConformalInside returns ErrNoConformal though p
//     has them.
func TestCopulaCondRefCalibrated(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	scores := make([]float64, 50)
	for i := range scores {
		scores[i] = 0.1 * float64(i+1)
	}
	for _, region := range [][2]float64{{1.7, 6}, {1.3, math.Inf(1)}} {
		s, nu := region[0], region[1]
		p := condNetCopula(t, 3, 41, s, nu, jointConformalScores(scores))
		if _, err := p.ConformalInside([]float64{1, -3, 1.5}, 0.5); err != nil {
			t.Fatalf("p's conformal region: %v", err)
		}
		for _, given := range [][]int{{1}, {2}, {0}, {2, 0}, {1, 2}} {
			rest := condSplit(3, given)
			for range 3 {
				y := make([]float64, 3)
				if err := p.SampleCalibrated(y, r); err != nil {
					t.Fatal(err)
				}
				values, yu := make([]float64, len(given)), make([]float64, len(rest))
				for a, j := range given {
					values[a] = y[j]
				}
				for a, j := range rest {
					yu[a] = y[j]
				}
				var dst MultiPrediction
				name := fmt.Sprintf("region (%v, %v) given %v at %.6g", s, nu, given, values)
				if err := p.Conditional(&dst, given, values); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				// z_O, m_O, Ṽ_O and the calibrated scores ũ_O
				zo, mo, uo := make([]float64, len(given)), make([]float64, len(given)), make([]float64, len(given))
				var jac float64
				for a, j := range given {
					zo[a] = values[a]
					if p.Marginal(j).Transform == TransformLog {
						zo[a] = math.Log(values[a])
						jac -= zo[a]
					}
					mo[a] = p.ZMean(j)
					uo[a] = (zo[a] - mo[a]) / math.Sqrt(p.ZCovCorrected(j, j))
				}
				soo := condDense(given, given, func(i, j int) float64 { return s * p.ZCovCorrected(i, j) })
				want := p.CalibratedLogPDF(y) - condTLogPDF(zo, mo, soo, nu) - jac
				if got := dst.CalibratedLogPDF(yu); !(math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))) {
					t.Errorf("%s: CalibratedLogPDF(%.6g) = %.12g, p̃(y)/p̃_O(y_O) gives %.12g", name, yu, got, want)
				}
				wantNu, wantScale := nu+float64(len(given)), s
				if !math.IsInf(nu, 1) {
					q := condQuad(condDense(given, given, p.Corr), uo)
					wantScale = s * (nu + q/s) / wantNu
				}
				if dst.RegionNu() != wantNu || !(math.Abs(dst.RegionScale()-wantScale) <= 1e-12*wantScale) {
					t.Errorf("%s: RegionNu %v, RegionScale %.15g; want %v, %.15g", name, dst.RegionNu(), dst.RegionScale(), wantNu, wantScale)
				}
				if _, err := dst.ConformalInside(yu, 0.5); !errors.Is(err, ErrNoConformal) {
					t.Errorf("%s: ConformalInside: %v, want ErrNoConformal", name, err)
				}
				mut, sigma := condLaw(p, given, rest, uo)
				for a, j := range rest {
					g, base := dst.Marginal(a), p.Marginal(j)
					vt := p.ZCovCorrected(j, j)
					c := p.ZMean(j) + math.Sqrt(vt)*mut[a]
					v := vt * sigma[a*len(rest)+a]
					logged := base.Transform == TransformLog
					gotV := g.VarCorrected
					if logged {
						gotV = g.ZVarCorrected
					}
					if !(math.Abs(gotV-v) <= 1e-12*v) {
						t.Errorf("%s: target %d: corrected variance in z %.15g, want Ṽσ² = %.15g", name, j, gotV, v)
					}
					back := func(z float64) float64 {
						if logged {
							return math.Exp(z)
						}
						return z
					}
					for _, q := range []float64{0.05, 0.5, 0.8} {
						z := c + math.Sqrt(v)*scoreOfProb(q)
						yq := back(z)
						if got, err := g.CalibratedQuantile(q); err != nil || !(math.Abs(got-yq) <= 1e-12*max(math.Abs(yq), math.Sqrt(v))) {
							t.Errorf("%s: target %d: CalibratedQuantile(%v) = %.15g (%v), want %.15g", name, j, q, got, err, yq)
						}
						if got := g.CalibratedCDF(yq); !(math.Abs(got-q) <= 1e-12) {
							t.Errorf("%s: target %d: CalibratedCDF(%.8g) = %.15g, want %v", name, j, yq, got, q)
						}
						w := (z - c) / math.Sqrt(v)
						lw := -0.5*math.Log(2*math.Pi*v) - w*w/2
						if logged {
							lw -= z
						}
						if got := g.CalibratedLogPDF(yq); !(math.Abs(got-lw) <= 1e-11*max(1, math.Abs(lw))) {
							t.Errorf("%s: target %d: CalibratedLogPDF(%.8g) = %.15g, want %.15g", name, j, yq, got, lw)
						}
					}
					if logged {
						if m := math.Exp(c + g.ZVarCorrected/2); !(math.Abs(g.Mean-m) <= 1e-12*m) {
							t.Errorf("%s: target %d: Mean %.15g, want exp(c + ZVarCorrected/2) = %.15g", name, j, g.Mean, m)
						}
						if vc := expm1Exp(g.ZVarCorrected, 2*c+g.ZVarCorrected); !(math.Abs(g.VarCorrected-vc) <= 1e-12*vc) {
							t.Errorf("%s: target %d: VarCorrected %.15g, want %.15g", name, j, g.VarCorrected, vc)
						}
						if vv := expm1Exp(g.ZVar, 2*c+g.ZVar); !(math.Abs(g.Var-vv) <= 1e-12*vv) {
							t.Errorf("%s: target %d: Var %.15g, want (e^ZVar − 1)·e^(2c + ZVar) = %.15g (centred on ZMean: %.15g)",
								name, j, g.Var, vv, expm1Exp(g.ZVar, 2*g.ZMean+g.ZVar))
						}
					}
				}
			}
		}
	}
	// An input of an unknown code (InputZ +Inf) keeps its unknown
	// calibrated interval.
	tb := condRefMarginal(t, "t/1.0/0.5/4.0")
	tb.InputZ = math.Inf(1)
	ob := condRefMarginal(t, "gauss/0.0/1.0/inf")
	ob.InputZ = math.Inf(1)
	p := condCopula(t, []Prediction{ob, tb}, []float64{1, 0.6, 0.8}, 1, math.Inf(1), nil)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{0.5}); err != nil {
		t.Fatal(err)
	}
	if lo, hi, err := dst.Marginal(0).CalibratedInterval(0.9); err != nil || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("unknown input: CalibratedInterval(0.9) = [%v, %v] (%v), want (−Inf, +Inf)", lo, hi, err)
	}
}

// TestCopulaCondRefComposes conditions a d = 5 copula on two targets
// at once and on one after the other (the second in the first's
// numbering): the same law, to rounding (the contract: the maps compose
// into one on the same base), seen through LogPDF, CalibratedLogPDF,
// RegionNu/RegionScale and each marginal's CDF, Quantile, Mean, Var and
// VarCorrected: 1e-12 relative (1e-11 on log densities and CDFs, formed
// from composed maps a few roundings apart).
func TestCopulaCondRefComposes(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, region := range [][2]float64{{1.5, 5}, {1, math.Inf(1)}} {
		p := condNetCopula(t, 5, 51, region[0], region[1], nil)
		values := []float64{condDraw(t, p, 3, r), condDraw(t, p, 0, r)}
		var once, first, twice MultiPrediction
		if err := p.Conditional(&once, []int{3, 0}, values); err != nil {
			t.Fatal(err)
		}
		if err := p.Conditional(&first, []int{0}, values[1:]); err != nil {
			t.Fatal(err)
		}
		if err := first.Conditional(&twice, []int{2}, values[:1]); err != nil { // target 3 is first's 2
			t.Fatal(err)
		}
		near := func(what string, a, b, tol float64) {
			t.Helper()
			if !(math.Abs(a-b) <= tol*max(1, math.Abs(b))) && a != b {
				t.Errorf("region %v: %s at once %.15g, in two steps %.15g", region, what, b, a)
			}
		}
		near("RegionNu", twice.RegionNu(), once.RegionNu(), 0)
		near("RegionScale", twice.RegionScale(), once.RegionScale(), 1e-12)
		for range 5 {
			y := []float64{condDraw(t, p, 1, r), condDraw(t, p, 2, r), condDraw(t, p, 4, r)}
			near(fmt.Sprintf("LogPDF(%.4g)", y), twice.LogPDF(y), once.LogPDF(y), 1e-11)
			near(fmt.Sprintf("CalibratedLogPDF(%.4g)", y), twice.CalibratedLogPDF(y), once.CalibratedLogPDF(y), 1e-11)
			for a := range 3 {
				g1, g2 := once.Marginal(a), twice.Marginal(a)
				near(fmt.Sprintf("target %d CDF(%.4g)", a, y[a]), g2.CDF(y[a]), g1.CDF(y[a]), 1e-11)
			}
		}
		for a := range 3 {
			g1, g2 := once.Marginal(a), twice.Marginal(a)
			q1, _ := g1.Quantile(0.2)
			q2, _ := g2.Quantile(0.2)
			near(fmt.Sprintf("target %d Quantile(0.2)", a), q2, q1, 1e-12)
			near(fmt.Sprintf("target %d Mean", a), g2.Mean, g1.Mean, 1e-12)
			near(fmt.Sprintf("target %d Var", a), g2.Var, g1.Var, 1e-12)
			near(fmt.Sprintf("target %d VarCorrected", a), g2.VarCorrected, g1.VarCorrected, 1e-12)
			for b := range 3 {
				near(fmt.Sprintf("Corr(%d, %d)", a, b), twice.Corr(a, b), once.Corr(a, b), 1e-12)
			}
		}
	}
}

// TestCopulaCondRefErrors checks the contract's errors and that dst
// is left as it was by the argument errors; that p (its marginals, its
// density and R, the model's shared factor) is unchanged by conditioning; and
// that conditioning into a dst that has held the shape, and drawing from
// it, allocate nothing; and that conditioning from many goroutines, each
// into its own dst, gives what a lone call gives.
func TestCopulaCondRefErrors(t *testing.T) {
	p := condNetCopula(t, 3, 61, 1.2, 6, nil)
	before := [3]Prediction{p.Marginal(0), p.Marginal(1), p.Marginal(2)}
	y3 := []float64{0.4, -3, 1.5}
	lp, corr := p.LogPDF(y3), p.Corr(1, 2)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{0.5}); err != nil {
		t.Fatal(err)
	}
	// p (and the model's shared factor, which p holds) untouched
	if p.LogPDF(y3) != lp || p.Corr(1, 2) != corr || dst.Corr(0, 1) == corr {
		t.Errorf("after conditioning: p's LogPDF %v (was %v), Corr(1, 2) %v (was %v), dst's Corr(0, 1) %v",
			p.LogPDF(y3), lp, p.Corr(1, 2), corr, dst.Corr(0, 1))
	}
	y := []float64{-3, 1.5}
	want := dst.LogPDF(y)
	for _, c := range []struct {
		name   string
		dst    *MultiPrediction
		given  []int
		values []float64
		want   error
	}{
		{"index out of range", &dst, []int{3}, []float64{0}, ErrTargetIndex},
		{"negative index", &dst, []int{-1}, []float64{0}, ErrTargetIndex},
		{"repeated index", &dst, []int{1, 1}, []float64{0, 0}, ErrTargetIndex},
		{"no target", &dst, nil, nil, ErrTargetIndex},
		{"every target", &dst, []int{0, 2, 1}, []float64{0, 1, 0}, ErrTargetIndex},
		{"values and indices differ", &dst, []int{0, 1}, []float64{0}, ErrShape},
		{"NaN", &dst, []int{1}, []float64{math.NaN()}, ErrNonFinite},
		{"Inf", &dst, []int{0}, []float64{math.Inf(-1)}, ErrNonFinite},
		{"0 under the log", &dst, []int{2}, []float64{0}, ErrDomain},
		{"negative under the log", &dst, []int{2}, []float64{-1}, ErrDomain},
		{"nil dst", nil, []int{0}, []float64{0}, ErrConfig},
		{"dst is p", p, []int{0}, []float64{0}, ErrConfig},
	} {
		if err := p.Conditional(c.dst, c.given, c.values); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if got := dst.LogPDF(y); dst.Dim() != 2 || got != want {
		t.Errorf("dst changed by the errors: %d targets, LogPDF %v, was %v", dst.Dim(), got, want)
	}
	for j := range 3 {
		if p.Marginal(j) != before[j] {
			t.Errorf("p's marginal %d changed by conditioning", j)
		}
	}
	// a singular correlation: ρ = 1 − 2⁻⁵³, σ² = 1 − ρ² ≈ 2⁻⁵², not
	// clearly positive
	rho := 1 - 0x1p-53
	ps := condCopula(t, []Prediction{condRefMarginal(t, "t/0.0/1.0/5.0"), condRefMarginal(t, "t/1.0/2.0/5.0")},
		[]float64{1, rho, math.Sqrt(1 - rho*rho)}, 1, math.Inf(1), nil)
	if err := ps.Conditional(&dst, []int{0}, []float64{0.3}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("ρ = 1: %v, want ErrNonFinite (the conditional is not determined)", err)
	}
	// no allocation once dst has held the shape
	r := rand.New(rand.NewPCG(1, 2))
	draw := make([]float64, 2)
	var fresh MultiPrediction
	if err := p.Conditional(&fresh, []int{1}, []float64{-3}); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() {
		if err := p.Conditional(&fresh, []int{1}, []float64{-3}); err != nil {
			t.Fatal(err)
		}
		sinkLoss = fresh.LogPDF(y) + fresh.CalibratedLogPDF(y)
		if err := fresh.Sample(draw, r); err != nil {
			t.Fatal(err)
		}
		if err := fresh.SampleCalibrated(draw, r); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a run, want 0", n)
	}
	checkConditionalConcurrent(t, p, []int{2}, []float64{1.7}, y)
}

// TestCopulaCondRefReferences checks the references the tests above
// build, on the unconditional prediction alone (no Conditional): the
// sub-copula density condLogPO of every target is p.LogPDF (1e-9, as
// the density ratio's tolerance); the conditional density h of a target
// given the others integrates to 1 by condLine (1e-9), and to q up to
// G⁻¹(q) = F⁻¹(Φ(μ + σΦ⁻¹(q))), μ and σ² of condLaw; and by importance
// sampling (as in TestCopulaCondRefMonteCarlo) the conditional puts
// probability q below F⁻¹(Φ(μ + σΦ⁻¹(q))), μ and σ² of condLaw (4
// standard errors).
func TestCopulaCondRefReferences(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, d := range []int{3, 5} {
		p := condNetCopula(t, d, uint64(70+d), 1, math.Inf(1), nil)
		all := make([]int, d)
		y := make([]float64, d)
		for j := range all {
			all[j], y[j] = j, condDraw(t, p, j, r)
		}
		if got, want := condLogPO(p, all, y), p.LogPDF(y); !(math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))) {
			t.Errorf("d %d: condLogPO of every target %.15g, LogPDF %.15g", d, got, want)
		}
		// target 0 (a t network) given the rest
		given, values := all[1:], y[1:]
		lnO := condLogPO(p, given, values)
		h := func(x float64) float64 {
			v := math.Exp(p.LogPDF(merge(d, given, values, []float64{x})) - lnO)
			if math.IsNaN(v) {
				return 0
			}
			return v
		}
		base := p.Marginal(0)
		c, _ := base.Quantile(0.5)
		if total, e := condLine(h, c, math.Sqrt(base.Var), math.Inf(1), 1e-12); !(math.Abs(total-1) <= 1e-9+e) {
			t.Errorf("d %d: ∫h = %.15g (± %.2g), want 1", d, total, e)
		}
		mu, sigma := condLaw(p, given, all[:1], condScores(p, given, values))
		const n, kappa, q = 20000, 1.5, 0.3
		yq, _ := base.Quantile(0.5 * math.Erfc(-(mu[0]+math.Sqrt(sigma[0])*scoreOfProb(q))/math.Sqrt2))
		if got, e := condLine(h, c, math.Sqrt(base.Var), yq, 1e-12); !(math.Abs(got-q) <= 1e-9+e) {
			t.Errorf("d %d: ∫h up to G⁻¹(%v) = %.15g (± %.2g)", d, q, got, e)
		}
		var sw, sg float64
		ws, gs := make([]float64, n), make([]float64, n)
		for s := range n {
			v := kappa * r.NormFloat64()
			x, _ := base.Quantile(min(max(0.5*math.Erfc(-v/math.Sqrt2), 1e-300), 1-1e-16))
			ws[s] = math.Exp(p.LogPDF(merge(d, given, values, []float64{x})) - lnO -
				(-v*v/(2*kappa*kappa) - math.Log(kappa) + base.LogPDF(x) + v*v/2 - 0.5*math.Log(2*math.Pi)))
			if x <= yq {
				gs[s] = 1
			}
			sw += ws[s]
			sg += ws[s] * gs[s]
		}
		est := sg / sw
		var v float64
		for s := range ws {
			v += ws[s] * ws[s] * (gs[s] - est) * (gs[s] - est)
		}
		se := math.Sqrt(v) / sw
		t.Logf("d %d: P(y₀ ≤ G⁻¹(%v)) %.4f ± %.4f by importance sampling", d, q, est, se)
		if math.Abs(est-q) > 4*se {
			t.Errorf("d %d: P(y₀ ≤ G⁻¹(%v)) = %.4f ± %.4f by importance sampling", d, q, est, se)
		}
	}
}

// condCRPS returns the CRPS at y of the law of CDF cdf by quadrature,
// ∫_{−∞}^y cdf² + ∫_y^∞ (1 − cdf)², each over a half line mapped by
// condLine about (c, s), and the quadrature's error estimate.
func condCRPS(cdf func(float64) float64, y, c, s float64) (float64, float64) {
	lo, e1 := condLine(func(x float64) float64 { v := cdf(x); return v * v }, c, s, y, 1e-13)
	hi, e2 := condLine(func(x float64) float64 { v := 1 - cdf(-x); return v * v }, -c, s, -y, 1e-13)
	return lo + hi, e1 + e2
}

// TestCopulaCondRefGaussianAndCRPS checks the conditional of two Gaussian
// marginals, the bivariate normal's textbook conditional N(m₁ + ρs₁(y₀ −
// m₀)/s₀, s₁²(1 − ρ²)) (the contract: Mean and Var exact for a Gaussian
// base): Mean, Var, CDF, Quantile, LogPDF to 1e-12 relative (a few
// roundings), CRPS against the Gaussian's closed form
// s(w(2Φ(w) − 1) + 2φ(w) − 1/√π) to the contract's 1e-8 relative; the
// CRPS of a t base's conditional marginal against the quadrature of
// (G − 1{x ≥ y})², G from the base's exported CDF and μ, σ (condLaw), to
// 1e-8 relative; and at ρ = 0, σ = 1, where G is its base, a t of 0.8
// dof (no mean, but tails light enough for a CRPS) and of 0.4 (none),
// the t's own CRPS (crps.go: finite for ν > ½, +Inf below).
func TestCopulaCondRefGaussianAndCRPS(t *testing.T) {
	const rho = -0.6
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	g0, g1 := condRefMarginal(t, "gauss/1.0/2.0/inf"), condRefMarginal(t, "gauss/-3.0/0.5/inf")
	p := condCopula(t, []Prediction{g0, g1}, l, 1, math.Inf(1), nil)
	var dst MultiPrediction
	for _, y0 := range []float64{1, 4.5, -30} {
		if err := p.Conditional(&dst, []int{0}, []float64{y0}); err != nil {
			t.Fatal(err)
		}
		g := dst.Marginal(0)
		m, v := -3+rho*0.5*(y0-1)/2, 0.25*(1-rho*rho)
		s := math.Sqrt(v)
		near := func(what string, got, want float64, tol float64) {
			t.Helper()
			if !(math.Abs(got-want) <= tol*max(1, math.Abs(want))) {
				t.Errorf("Gaussian given y₀ = %v: %s %.15g, want %.15g", y0, what, got, want)
			}
		}
		near("Mean", g.Mean, m, 1e-12)
		near("Var", g.Var, v, 1e-12)
		for _, y := range []float64{m - 2, m, m + 0.3} {
			w := (y - m) / s
			near(fmt.Sprintf("CDF(%v)", y), g.CDF(y), 0.5*math.Erfc(-w/math.Sqrt2), 1e-12)
			near(fmt.Sprintf("LogPDF(%v)", y), g.LogPDF(y), -0.5*math.Log(2*math.Pi*v)-w*w/2, 1e-12)
			crps := s * (w*(1-math.Erfc(w/math.Sqrt2)) + 2*math.Exp(-w*w/2)/math.Sqrt(2*math.Pi) - 1/math.Sqrt(math.Pi))
			near(fmt.Sprintf("CRPS(%v)", y), g.CRPS(y), crps, 1e-8)
		}
		q, err := g.Quantile(0.9)
		near("Quantile(0.9)", q, m+s*scoreOfProb(0.9), 1e-12)
		if err != nil {
			t.Error(err)
		}
	}
	// A t base: the CRPS by quadrature.
	tb := condRefMarginal(t, "t/1.0/0.5/4.0")
	p = condCopula(t, []Prediction{g0, tb}, []float64{1, 0.7, math.Sqrt(1 - 0.49)}, 1, math.Inf(1), nil)
	for _, y0 := range []float64{0.3, 6} {
		if err := p.Conditional(&dst, []int{0}, []float64{y0}); err != nil {
			t.Fatal(err)
		}
		mu, sigma := condLaw(p, []int{0}, []int{1}, condScores(p, []int{0}, []float64{y0}))
		sd := math.Sqrt(sigma[0])
		cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(scoreOfProb(tb.CDF(x))-mu[0])/sd/math.Sqrt2) }
		g := dst.Marginal(0)
		c, _ := g.Quantile(0.5)
		for _, y := range []float64{c - 1, c, c + 0.2, c + 5} {
			want, e := condCRPS(cdf, y, c, 0.5)
			if got := g.CRPS(y); !(math.Abs(got-want) <= 1e-8*want+e) {
				t.Errorf("t base given y₀ = %v: CRPS(%v) = %.12g, quadrature %.12g (± %.2g)", y0, y, got, want, e)
			}
		}
	}
	// No mean but a CRPS (ν = 0.8 at σ = 1, ρ = 0: G is the base, whose
	// CRPS is the t's closed form, finite for ν > ½), and none (ν = 0.4).
	for _, dof := range []string{"0.8", "0.4"} {
		heavy := condRefMarginal(t, "t/0.0/1.0/"+dof)
		p = condCopula(t, []Prediction{g0, heavy}, []float64{1, 0, 1}, 1, math.Inf(1), nil)
		if err := p.Conditional(&dst, []int{0}, []float64{0.5}); err != nil {
			t.Fatal(err)
		}
		want := heavy.CRPS(0.3)
		if v := dst.Marginal(0).CRPS(0.3); !(math.Abs(v-want) <= 1e-8*want) && !(math.IsInf(want, 1) && math.IsInf(v, 1)) {
			t.Errorf("a t of %s dof at σ = 1: CRPS %v, the t's %v", dof, v, want)
		}
	}
}
