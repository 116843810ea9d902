package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// normalConditional returns the mean and covariance (row-major) of the
// targets not in given, in increasing order, of the normal N(mean, cov)
// (d targets) given the targets given at values: m_U + C_UO C_OO⁻¹(y_O −
// m_O) and C_UU − C_UO C_OO⁻¹ C_OU.
func normalConditional(mean, cov []float64, d int, given []int, values []float64) (cm, cc []float64) {
	o := len(given)
	var rest []int
	for i := range d {
		isGiven := false
		for _, g := range given {
			isGiven = isGiven || g == i
		}
		if !isGiven {
			rest = append(rest, i)
		}
	}
	coo := make([]float64, o*o)
	for a, i := range given {
		for b, j := range given {
			coo[a*o+b] = cov[i*d+j]
		}
	}
	inv := invertDense(coo, o)
	n := len(rest)
	cm, cc = make([]float64, n), make([]float64, n*n)
	for a, i := range rest {
		cm[a] = mean[i]
		for b, g := range given {
			for c, h := range given {
				cm[a] += cov[i*d+g] * inv[b*o+c] * (values[c] - mean[h])
			}
		}
		for e, j := range rest {
			cc[a*n+e] = cov[i*d+j]
			for b, g := range given {
				for c, h := range given {
					cc[a*n+e] -= cov[i*d+g] * inv[b*o+c] * cov[h*d+j]
				}
			}
		}
	}
	return cm, cc
}

// normalLogDensity returns ln N(y | mean, cov), n targets.
func normalLogDensity(y, mean, cov []float64) float64 {
	n := len(y)
	inv, logDet := invertDenseLogDet(cov, n)
	var q float64
	for i := range n {
		for j := range n {
			q += (y[i] - mean[i]) * inv[i*n+j] * (y[j] - mean[j])
		}
	}
	return -0.5*(float64(n)*math.Log(2*math.Pi)+logDet) - 0.5*q
}

// near reports whether got is within tol of want, relative to
// max(1, |want|).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// TestCopulaConditionalGaussianIsTheNormalConditional: with Gaussian
// marginals N(m_j, s_j²) the copula is the normal of covariance
// R_ij·s_i·s_j, and its conditional the normal conditional, formed here
// by Gauss–Jordan elimination (invertDense), independent of Cholesky. Each conditional
// marginal's CDF, Quantile, Mean and Var (closed forms for a Gaussian
// base), its calibrated predictive (VarCorrected = Var for the Gaussian
// loss, RegionScale 1 and RegionNu +Inf), dst's LogPDF, CalibratedLogPDF
// and Corr must match it to 1e-12 relative to max(1, |value|): the two
// computations round differently (Cholesky against Gauss–Jordan, scores
// against residuals), by a few ulps times R's condition number, below
// 100 here.
func TestCopulaConditionalGaussianIsTheNormalConditional(t *testing.T) {
	const tol = 1e-12
	for _, d := range []int{2, 3, 5} {
		m, l := gaussianCopulaModel(t, d, uint64(10+d))
		var p MultiPrediction
		if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, -0.7}, &p); err != nil {
			t.Fatal(err)
		}
		mean, sd, cov := make([]float64, d), make([]float64, d), make([]float64, d*d)
		for j := range d {
			q := p.Marginal(j)
			mean[j], sd[j] = q.Mean, math.Sqrt(q.Var)
		}
		for i := range d {
			for j := range d {
				var r float64 // R_ij from the factor, by hand
				for c := range min(i, j) + 1 {
					r += l[i*(i+1)/2+c] * l[j*(j+1)/2+c]
				}
				cov[i*d+j] = r * sd[i] * sd[j]
			}
		}
		for _, given := range [][]int{{0}, {d - 1}, {d - 1, 0}, {1}} {
			if len(given) >= d || given[0] >= d {
				continue
			}
			values := make([]float64, len(given))
			for a, i := range given {
				values[a] = mean[i] + (1.7-float64(a)*2.9)*sd[i]
			}
			var dst MultiPrediction
			if err := p.Conditional(&dst, given, values); err != nil {
				t.Fatal(err)
			}
			cm, cc := normalConditional(mean, cov, d, given, values)
			n := len(cm)
			if dst.Dim() != n {
				t.Fatalf("d=%d given %v: Dim %d, want %d", d, given, dst.Dim(), n)
			}
			y := make([]float64, n)
			for i := range n {
				g := dst.Marginal(i)
				s := math.Sqrt(cc[i*n+i])
				y[i] = cm[i] + 0.8*s*float64(i%3-1)
				nd := normal{cm[i], cc[i*n+i]}
				check := func(what string, got, want float64) {
					t.Helper()
					if !near(got, want, tol) {
						t.Errorf("d=%d given %v target %d: %s %v, want %v", d, given, i, what, got, want)
					}
				}
				check("Mean", g.Mean, cm[i])
				check("Var", g.Var, cc[i*n+i])
				check("VarCorrected", g.VarCorrected, cc[i*n+i])
				for _, k := range []float64{-3, -0.4, 1.1} {
					check("CDF", g.CDF(cm[i]+k*s), nd.cdf(cm[i]+k*s))
					check("CalibratedCDF", g.CalibratedCDF(cm[i]+k*s), nd.cdf(cm[i]+k*s))
					check("LogPDF", g.LogPDF(cm[i]+k*s), nd.logPDF(cm[i]+k*s))
				}
				for _, q := range []float64{1e-9, 0.1, 0.5, 0.97} {
					got, err := g.Quantile(q)
					if err != nil {
						t.Fatal(err)
					}
					check("Quantile", got, nd.quantile(q))
					got, _ = g.CalibratedQuantile(q)
					check("CalibratedQuantile", got, nd.quantile(q))
				}
				for j := range n {
					want := cc[i*n+j] / math.Sqrt(cc[i*n+i]*cc[j*n+j])
					if got := dst.Corr(i, j); !near(got, want, tol) {
						t.Errorf("d=%d given %v: Corr(%d, %d) %v, want %v", d, given, i, j, got, want)
					}
				}
			}
			want := normalLogDensity(y, cm, cc)
			if got := dst.LogPDF(y); !near(got, want, tol) {
				t.Errorf("d=%d given %v: LogPDF %v, want %v", d, given, got, want)
			}
			if got := dst.CalibratedLogPDF(y); !near(got, want, tol) {
				t.Errorf("d=%d given %v: CalibratedLogPDF %v, want %v", d, given, got, want)
			}
			if dst.RegionScale() != 1 || !math.IsInf(dst.RegionNu(), 1) {
				t.Errorf("d=%d given %v: region %v, %v", d, given, dst.RegionScale(), dst.RegionNu())
			}
		}
	}
}

// mixedCopula returns a copula model of d targets whose marginals cycle
// through a single GCP network, an ensemble of three and a network of the
// target's logarithm (as copulaMargins), with a random correlation
// matrix kept away from singular (shrinkCorr), its region the t of 6
// degrees of freedom and scale 1.3, and a prediction of it.
func mixedCopula(t testing.TB, d int, seed uint64) (*Model[float64], *MultiPrediction) {
	t.Helper()
	l := packedCorr(rand.New(rand.NewPCG(seed, 5)), d)
	shrinkCorr(l, d, 0.8)
	return mixedCopulaOf(t, l, seed)
}

// mixedCopulaOf is mixedCopula with the correlation matrix of the packed
// factor l.
func mixedCopulaOf(t testing.TB, l []float64, seed uint64) (*Model[float64], *MultiPrediction) {
	d := int(math.Sqrt(float64(2 * len(l))))
	t.Helper()
	g := make([]*Model[float64], d)
	for j := range g {
		cfg := Config{Inputs: 3, Hidden: []int{6}, Seed: seed + uint64(j)}
		if j%3 == 1 {
			cfg.Members = 3
		}
		g[j] = copulaMargin[float64](t, cfg, float64(j)-1, 0.5+0.5*float64(j))
		if j%3 == 2 {
			if err := g[j].SetTargetTransform(TransformLog); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := mustCopula(t, g, l, 1.3, 6, nil)
	p := new(MultiPrediction)
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.4, -0.2, 1.1}, p); err != nil {
		t.Fatal(err)
	}
	return m, p
}

// atScore returns the value of target j whose normal score under the
// prediction's marginal is w (scoreRoot on the base, in z), and checks it.
func atScore(t *testing.T, q Prediction, w float64) float64 {
	t.Helper()
	b := q
	if q.Transform != TransformNone {
		b = q.modeled()
	}
	var s baseScore
	s.set(&b)
	y := q.Transform.invert(scoreRoot(&b, &s, w))
	if u := normalScore(&q, y, false); math.Abs(u-w) > 1e-9*math.Abs(w) {
		t.Fatalf("the value %v has score %v, want %v", y, u, w)
	}
	return y
}

// without returns y without its entries at the indices given (sorted
// after), the order of Conditional's targets.
func without(y []float64, given ...int) []float64 {
	var r []float64
	for i, v := range y {
		if !slices.Contains(given, i) {
			r = append(r, v)
		}
	}
	return r
}

// TestCopulaConditionalIsTheDensityRatio: conditioning on one target o,
// dst's density at the rest is the joint's over the marginal's,
// p(y)/f_o(y_o), for t, ensemble and log-normal-ish marginals, d = 2 to
// 5, at draws of the law and with y_o at the scores ±30, far beyond
// Φ's resolution (±5 for a logged target, whose y at ±30 overflows). Both sides are sums of terms up to about u²/2 = 450 in
// size, each good to a few ulps, the copula's form multiplied by R's
// condition number (below 30 after shrinkCorr): 1e-11 of 1 + |ln p(y)|
// bounds their difference with room to spare.
func TestCopulaConditionalIsTheDensityRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for d := 2; d <= 5; d++ {
		_, p := mixedCopula(t, d, uint64(20*d))
		y := make([]float64, d)
		for o := range d {
			for k := range 5 {
				if err := p.Sample(y, r); err != nil {
					t.Fatal(err)
				}
				far, logged := 30.0, false
				for j := range d {
					logged = logged || p.Marginal(j).Transform != TransformNone
				}
				if logged {
					// a log-t's y at ±30 is e^(±10⁶⁰), beyond float64; and a
					// t's y at ±30 (10⁵⁴ scales out) moves a logged
					// target's calibrated centre in z by as much, whose
					// Mean e^z Conditional refuses (ErrNonFinite,
					// TestCopulaConditionalBeyondFloat64)
					far = 5
				}
				switch k {
				case 3:
					y[o] = atScore(t, p.Marginal(o), far)
				case 4:
					y[o] = atScore(t, p.Marginal(o), -far)
				}
				var dst MultiPrediction
				if err := p.Conditional(&dst, []int{o}, y[o:o+1]); err != nil {
					t.Fatalf("d=%d o=%d y=%v: %v", d, o, y, err)
				}
				want := p.LogPDF(y) - p.Marginal(o).LogPDF(y[o])
				got := dst.LogPDF(without(y, o))
				if math.Abs(got-want) > 1e-11*(1+math.Abs(p.LogPDF(y))) || math.IsNaN(got) {
					t.Errorf("d=%d o=%d y=%v: LogPDF %v, want %v", d, o, y, got, want)
				}
			}
		}
	}
}

// TestCopulaConditionalComposes: conditioning on target a, then the
// result on target b, is conditioning on both at once: the same density,
// marginals (moments, CDF, quantiles, calibrated law), correlations and
// region. The two differ by the rounding of two Cholesky factors and of
// the composed maps, a few ulps times R's condition number: 1e-12 of
// max(1, |value|), but for the moments, whose adaptive quadrature may
// halve different panels for arguments that differ by an ulp: 1e-9,
// a hundred times its tolerance quadTol.
func TestCopulaConditionalComposes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{3, 5} {
		_, p := mixedCopula(t, d, uint64(7*d))
		y := make([]float64, d)
		if err := p.Sample(y, r); err != nil {
			t.Fatal(err)
		}
		a, b := d-1, 1
		var once, first, twice MultiPrediction
		if err := p.Conditional(&once, []int{a, b}, []float64{y[a], y[b]}); err != nil {
			t.Fatal(err)
		}
		if err := p.Conditional(&first, []int{a}, y[a:a+1]); err != nil {
			t.Fatal(err)
		}
		if err := first.Conditional(&twice, []int{b}, y[b:b+1]); err != nil { // b < a keeps its index
			t.Fatal(err)
		}
		rest := without(y, a, b)
		check := func(what string, got, want, tol float64) {
			t.Helper()
			if !near(got, want, tol) || math.IsNaN(got) != math.IsNaN(want) {
				t.Errorf("d=%d: %s %v in steps, %v at once", d, what, got, want)
			}
		}
		check("LogPDF", twice.LogPDF(rest), once.LogPDF(rest), 1e-12)
		check("CalibratedLogPDF", twice.CalibratedLogPDF(rest), once.CalibratedLogPDF(rest), 1e-12)
		check("RegionScale", twice.RegionScale(), once.RegionScale(), 1e-12)
		check("RegionNu", twice.RegionNu(), once.RegionNu(), 0)
		for i := range once.Dim() {
			g, h := twice.Marginal(i), once.Marginal(i)
			check("Mean", g.Mean, h.Mean, 1e-9)
			check("Var", g.Var, h.Var, 1e-9)
			check("VarCorrected", g.VarCorrected, h.VarCorrected, 1e-12)
			check("CDF", g.CDF(rest[i]), h.CDF(rest[i]), 1e-12)
			check("CalibratedCDF", g.CalibratedCDF(rest[i]), h.CalibratedCDF(rest[i]), 1e-12)
			qg, _ := g.Quantile(0.9)
			qh, _ := h.Quantile(0.9)
			check("Quantile", qg, qh, 1e-12)
			for j := range once.Dim() {
				check("Corr", twice.Corr(i, j), once.Corr(i, j), 1e-12)
			}
		}
	}
}

// logSimpson returns ∫ f(y) dy over the real line as
// ∫ (f(m + eˣ) + f(m − eˣ))·eˣ dx, each branch by composite Simpson's rule
// in x, steps of about 1/400 over ln s − 30 ≤ x ≤ ln s + 60, split at the
// x of jump (if it lies on the branch), where f may jump: the test's own
// quadrature, independent of conditionalMoments' and givenCRPS', which
// resolves a law spread over many decades (a conditional marginal far
// in a t's tail) as well as one of scale s about m. Its error is
// O(h⁴) about a jump, below 1e-10 relative for these laws.
func logSimpson(f func(y float64) float64, m, s, jump float64) float64 {
	x0, x1 := math.Log(s)-30, math.Log(s)+60
	simpson := func(g func(x float64) float64, a, b float64) float64 {
		if !(b > a) {
			return 0
		}
		n := 2 * int(math.Ceil((b-a)*200))
		h := (b - a) / float64(n)
		// The ends a hair inside, on the jump's proper side.
		sum := g(a+(b-a)*1e-12) + g(b-(b-a)*1e-12)
		for k := 1; k < n; k++ {
			sum += float64(2+2*(k%2)) * g(a+float64(k)*h)
		}
		return sum * h / 3
	}
	var total float64
	for _, sign := range []float64{1, -1} {
		g := func(x float64) float64 { e := math.Exp(x); return f(m+sign*e) * e }
		xj := math.Log(sign * (jump - m))
		if xj > x0 && xj < x1 {
			total += simpson(g, x0, xj) + simpson(g, xj, x1)
		} else {
			total += simpson(g, x0, x1)
		}
	}
	return total
}

// TestCopulaConditionalMarginalIsALaw checks the one-target conditionals
// of a bivariate copula of R_01 = 0.95, given the other target at scores
// from −30 to 30, so that μ reaches ±28.5 where Φ(μ) rounds to 1, for a
// t and an ensemble's mixture marginal: Quantile inverts the score, to
// 1e-9 of it (Newton's root is within an ulp or two of y, where the
// score is good to a few ulps but for the mixture's log tail, good to
// about 1e-12), and CDF inverts Quantile in the lower tail to 1e-9
// relative; the density integrates to 1, and Mean, Var and the CRPS are
// the integrals of the density and of the squared CDF, by the test's own
// Simpson's rule in the logarithm of the distance from the base's
// centre (logSimpson), to 1e-9 relative (the contract asks 1e-8 of the CRPS;
// quadTol is 1e-11; the two agreed to 1e-10 or better when written).
func TestCopulaConditionalMarginalIsALaw(t *testing.T) {
	l := []float64{1, 0.95, math.Sqrt(1 - 0.95*0.95)}
	_, p := mixedCopulaOf(t, l, 31)
	for o := range 2 {
		for _, w := range []float64{-30, -3, 0, 2, 30} {
			var dst MultiPrediction
			y := atScore(t, p.Marginal(o), w)
			if err := p.Conditional(&dst, []int{o}, []float64{y}); err != nil {
				t.Fatal(err)
			}
			g := dst.Marginal(0)
			name := func() string { return fmt.Sprintf("given target %d at score %v", o, w) }
			for _, q := range []float64{1e-300, 1e-20, 1e-3, 0.3, 0.5, 0.9, 1 - 1e-12} {
				x, err := g.Quantile(q)
				if err != nil {
					t.Fatal(err)
				}
				v := standardNormalQuantile(q)
				if u := normalScore(&g, x, false); math.Abs(u-v) > 1e-9*(1+math.Abs(v)) {
					t.Errorf("%s: Quantile(%v) = %v of score %v, want %v", name(), q, x, u, v)
				}
				if c := g.CDF(x); q <= 0.5 && math.Abs(c-q) > 1e-9*q {
					t.Errorf("%s: CDF(Quantile(%v)) = %v", name(), q, c)
				}
			}
			med, _ := g.Quantile(0.5)
			lo, hi, _ := g.Interval(0.5)
			s := hi - lo
			density := func(x float64) float64 { return math.Exp(g.LogPDF(x)) }
			mass := logSimpson(density, g.Prior().M, s, math.NaN())
			mean := logSimpson(func(x float64) float64 { return x * density(x) }, g.Prior().M, s, math.NaN())
			vr := logSimpson(func(x float64) float64 { return (x - mean) * (x - mean) * density(x) }, g.Prior().M, s, math.NaN())
			if math.Abs(mass-1) > 1e-9 {
				t.Errorf("%s: the density integrates to %v", name(), mass)
			}
			if math.Abs(g.Mean-mean) > 1e-9*(math.Abs(mean)+math.Sqrt(vr)) || math.Abs(g.Var-vr) > 1e-9*vr {
				t.Errorf("%s: Mean %v, Var %v; integrals %v, %v", name(), g.Mean, g.Var, mean, vr)
			}
			for _, k := range []float64{-2, 0.3, 5} {
				at := med + k*s
				want := logSimpson(func(x float64) float64 {
					c := g.CDF(x)
					if x >= at {
						c = 1 - c
					}
					return c * c
				}, g.Prior().M, s, at)
				if got := g.CRPS(at); math.Abs(got-want) > 1e-9*want {
					t.Errorf("%s: CRPS(%v) = %v, integral %v", name(), at, got, want)
				}
			}
		}
	}
}

// TestCopulaConditionalCalibratedIsTheDensityRatio: dst's calibrated law
// is the calibrated region's law t_ν(m, s·Σ̃) in z conditioned on z_o,
// so that its density at y_U is p's calibrated density at y over the
// t_ν(m_o, s·Ṽ_o) density of z_o (with its Jacobian 1/y_o where target o
// is logged), written out here: it checks dst's centres, VarCorrected,
// R′, RegionNu and RegionScale at once. Tolerance as
// TestCopulaConditionalIsTheDensityRatio's.
func TestCopulaConditionalCalibratedIsTheDensityRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for d := 2; d <= 4; d++ {
		_, p := mixedCopula(t, d, uint64(3*d))
		nu, s := p.RegionNu(), p.RegionScale()
		y := make([]float64, d)
		for o := range d {
			if err := p.SampleCalibrated(y, r); err != nil {
				t.Fatal(err)
			}
			var dst MultiPrediction
			if err := p.Conditional(&dst, []int{o}, y[o:o+1]); err != nil {
				t.Fatal(err)
			}
			q := p.Marginal(o)
			z, v, jac := y[o], q.VarCorrected, 0.0
			if q.Transform == TransformLog {
				z, v, jac = math.Log(y[o]), q.ZVarCorrected, -math.Log(y[o])
			}
			e := (z - p.ZMean(o)) * (z - p.ZMean(o)) / (s * v)
			lg1, _ := math.Lgamma((nu + 1) / 2)
			lg0, _ := math.Lgamma(nu / 2)
			marg := lg1 - lg0 - 0.5*math.Log(nu*math.Pi*s*v) - (nu+1)/2*math.Log1p(e/nu) + jac
			want := p.CalibratedLogPDF(y) - marg
			if got := dst.CalibratedLogPDF(without(y, o)); math.Abs(got-want) > 1e-11*(1+math.Abs(want)) {
				t.Errorf("d=%d o=%d: CalibratedLogPDF %v, want %v", d, o, got, want)
			}
			if dst.RegionNu() != nu+1 {
				t.Errorf("d=%d o=%d: RegionNu %v, want %v", d, o, dst.RegionNu(), nu+1)
			}
		}
	}
}

// TestCopulaConditionalBadInput: the joint t's errors (shared
// checkConditionalBadInput), and ErrDomain for target 2's log.
func TestCopulaConditionalBadInput(t *testing.T) {
	_, p := mixedCopula(t, 3, 41)
	checkConditionalBadInput(t, p)
}

// TestCopulaConditionalSingular: a target that is (within 2⁻³⁰ of) a
// linear function of the given ones leaves the conditional undetermined:
// ErrNonFinite, as for the joint t.
func TestCopulaConditionalSingular(t *testing.T) {
	c := math.Sqrt(1 - 0x1p-34) // R_01 = c: 1 − R_01² = 2⁻³⁴
	_, p := mixedCopulaOf(t, []float64{1, c, math.Sqrt(1 - c*c)}, 43)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{1}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Conditional: %v, want ErrNonFinite", err)
	}
}

// TestCopulaConditionalAllocatesNothing, TestCopulaConditionalConcurrent:
// as the joint t's (conditionalAllocs, checkConditionalConcurrent), with
// t, ensemble and log marginals.
func TestCopulaConditionalAllocatesNothing(t *testing.T) {
	_, p := mixedCopula(t, 5, 45)
	r := rand.New(rand.NewPCG(13, 14))
	for _, given := range [][]int{{2}, {4, 0}} {
		values := make([]float64, len(given))
		for a, i := range given {
			values[a] = p.Marginal(i).Mean
		}
		if allocs := conditionalAllocs(t, p, given, values, r); allocs != 0 {
			t.Errorf("given %v: %v allocations a run, want 0", given, allocs)
		}
	}
}

func TestCopulaConditionalConcurrent(t *testing.T) {
	_, p := mixedCopula(t, 4, 47)
	checkConditionalConcurrent(t, p, []int{1, 2}, []float64{p.Marginal(1).Mean, p.Marginal(2).Mean}, []float64{0.3, 1.1})
}

// TestCopulaConditionalThenPredict: a dst that held a copula conditional
// takes a later PredictMulti of either law as a fresh one does, and the
// model's shared factor is never written.
func TestCopulaConditionalThenPredict(t *testing.T) {
	m, p := mixedCopula(t, 3, 49)
	joint := randomMultiModel(t, Config{Inputs: 3, Targets: 3, Hidden: []int{4}, Seed: 5})
	shared := slices.Clone(m.ext.copula.chol)
	x, y := []float64{0.4, -0.2, 1.1}, []float64{0.5, -2.5, 1.2}
	var dst MultiPrediction
	for range 2 {
		if err := p.Conditional(&dst, []int{1}, []float64{-3}); err != nil {
			t.Fatal(err)
		}
		for _, model := range []*Model[float64]{joint, m} {
			var fresh MultiPrediction
			if err := model.PredictMulti(model.NewWorkspace(), x, &fresh); err != nil {
				t.Fatal(err)
			}
			if err := model.PredictMulti(model.NewWorkspace(), x, &dst); err != nil {
				t.Fatal(err)
			}
			if got, want := dst.LogPDF(y), fresh.LogPDF(y); got != want {
				t.Errorf("LogPDF %v after a conditional, %v fresh", got, want)
			}
			if err := p.Conditional(&dst, []int{0}, []float64{1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !slices.Equal(m.ext.copula.chol, shared) {
		t.Error("the model's factor changed")
	}
}

// TestCopulaConditionalLogged: a logged target's conditional marginal
// holds G's moments in z (ZMean, ZVar, against logSimpson of its density
// in z, 1e-9 as TestCopulaConditionalMarginalIsALaw), the log-normal Mean
// and VarCorrected of the calibrated centre and ZVarCorrected, and a
// CRPS of +Inf (its base is a t: no mean in y).
func TestCopulaConditionalLogged(t *testing.T) {
	_, p := mixedCopula(t, 3, 51)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0, 1}, []float64{p.Marginal(0).Mean, p.Marginal(1).Mean + 1}); err != nil {
		t.Fatal(err)
	}
	g := dst.Marginal(0)
	if g.Transform != TransformLog {
		t.Fatal("target 2 is not logged")
	}
	density := func(z float64) float64 { return math.Exp(g.LogPDF(math.Exp(z)) + z) }
	m, s := g.Prior().M, math.Sqrt(g.ZVarCorrected)
	mass := logSimpson(density, m, s, math.NaN())
	mean := logSimpson(func(z float64) float64 { return z * density(z) }, m, s, math.NaN())
	vr := logSimpson(func(z float64) float64 { return (z - mean) * (z - mean) * density(z) }, m, s, math.NaN())
	if math.Abs(mass-1) > 1e-9 || !near(g.ZMean, mean, 1e-9) || !near(g.ZVar, vr, 1e-9) {
		t.Errorf("mass %v; ZMean %v, ZVar %v, integrals %v, %v", mass, g.ZMean, g.ZVar, mean, vr)
	}
	c := dst.ZMean(0)
	if want := math.Exp(c + g.ZVarCorrected/2); !near(g.Mean, want, 1e-15) {
		t.Errorf("Mean %v, want %v", g.Mean, want)
	}
	if want := math.Expm1(g.ZVarCorrected) * math.Exp(2*c+g.ZVarCorrected); !near(g.VarCorrected, want, 1e-14) {
		t.Errorf("VarCorrected %v, want %v", g.VarCorrected, want)
	}
	if !math.IsInf(g.CRPS(1), 1) {
		t.Errorf("CRPS %v, want +Inf", g.CRPS(1))
	}
}

// BenchmarkConditionalCopula conditions a 5-target copula prediction (t,
// ensemble and log marginals) on 2 targets: the quadrature of each
// conditional marginal's moments is most of its cost.
func BenchmarkConditionalCopula(b *testing.B) {
	_, p := mixedCopula(b, 5, 53)
	var dst MultiPrediction
	values := []float64{p.Marginal(0).Mean, p.Marginal(3).Mean}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = p.Conditional(&dst, []int{0, 3}, values)
	}
}

// TestCopulaConditionalFarUnderTheGaussianRegion: a value 10²⁰⁰ scales
// out, whose squared score overflows, conditions a copula of Gaussian
// region (RegionNu +Inf, whose scale does not depend on it) to finite
// conditional marginals. regression: ErrNonFinite from the overflowing
// |L⁻¹u|², which the Gaussian region never needs.
func TestCopulaConditionalFarUnderTheGaussianRegion(t *testing.T) {
	m, _ := gaussianCopulaModel(t, 3, 55)
	var p, dst MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.3, -0.7}, &p); err != nil {
		t.Fatal(err)
	}
	q := p.Marginal(1)
	if err := p.Conditional(&dst, []int{1}, []float64{q.Mean + 1e200*math.Sqrt(q.Var)}); err != nil {
		t.Fatal(err)
	}
	for i := range dst.Dim() {
		if g := dst.Marginal(i); !finite(g.Mean) || !finite(g.Var) || dst.RegionScale() != p.RegionScale() {
			t.Errorf("target %d: Mean %v, Var %v, RegionScale %v", i, g.Mean, g.Var, dst.RegionScale())
		}
	}
}

// TestConditionalMarginalIdentityMapIsTheBase conditions a t marginal by
// the identity map (μ = 0, σ = 1), which leaves its law unchanged: the
// conditional marginal's CRPS must then be the t's closed form
// (studentTCRPS, 1e-11 relative) for every ν > ½, where the t's CRPS is
// finite (crps.go), and its mean the t's for ν > 1. Tolerance 1e-9
// relative: the quadrature's target is 1e-10 (givenCRPS,
// conditionalMoments), with rounding over a few hundred panels; down to
// ν = 0.501, where the CRPS barely exists (its part beyond t = 10³⁰⁸,
// which the quadrature adds from the tail's power, was 8e-4 of it at
// ν = 0.505, and 24% at 0.501, before it did).
func TestConditionalMarginalIdentityMapIsTheBase(t *testing.T) {
	for _, nu := range []float64{0.501, 0.505, 0.51, 0.6, 0.8, 1, 1.5, 3, 30} {
		base, g := identityConditioned(nu)
		scale := base.Prior().scale()
		for _, y := range []float64{1.5, 0, 4, -30} {
			want := studentTCRPS(base.Mean, scale, nu, y)
			if got := g.CRPS(y); math.Abs(got-want) > 1e-9*want {
				t.Errorf("ν %v: CRPS(%v) = %.15g, the t's %.15g", nu, y, got, want)
			}
		}
		if nu > 1 && math.Abs(g.Mean-base.Mean) > 1e-9*math.Abs(base.Mean) {
			t.Errorf("ν %v: Mean %.15g, the t's %v", nu, g.Mean, base.Mean)
		}
	}
}

// identityConditioned returns a t marginal of ν degrees of freedom and it
// conditioned by the identity map (μ = 0, σ = 1), the same law.
func identityConditioned(nu float64) (base, g Prediction) {
	base = Prediction{Loss: LossGCP, Mean: 1.5, Alpha: nu / 2, Beta: 0.7, Nu: 2, Members: 1}
	g = base
	g.condition(0, 1, base.Mean, 1)
	return base, g
}

// TestConditionalMarginalMomentsNearTheirLimits conditions by the identity
// map (G is then its base) bases whose moments barely exist, where G's
// tail beyond the far end of float64 (t ≈ 10³⁰⁸) still carries a share
// of the integral and Ḡ underflows (below 10⁻³⁰⁸) long before: the
// variance of a t of ν from 2.001 up, and the mean of a mixture of a t
// of 1.02 degrees of freedom and one of 8 (closed forms: ν/(ν−2)·s²,
// the members' mean; the CRPS is TestConditionalMarginalIdentityMapIsTheBase's).
// Tolerance 1e-9 relative: the documented 1e-10, with rounding over
// the panels (measured: 1e-11 at ν = 2.001; before the tails were formed
// in logarithms and the part beyond 10³⁰⁸ added, the variance at 2.01 was
// 2.5% low).
func TestConditionalMarginalMomentsNearTheirLimits(t *testing.T) {
	for _, nu := range []float64{2.001, 2.01, 2.02, 2.05, 2.2, 3} {
		base, g := identityConditioned(nu)
		s := base.Prior().scale()
		if want := s * s * nu / (nu - 2); math.Abs(g.Var-want) > 1e-9*want {
			t.Errorf("ν %v: Var %.12g, the t's %.12g", nu, g.Var, want)
		}
	}
	for _, nu := range []float64{1.02, 1.1} {
		var base Prediction
		base.Loss, base.Members, base.Mean, base.VarCorrected = LossGCP, 2, 2, 1
		base.Components[0] = Component{Mean: -1, Scale: 0.5, DoF: nu}
		base.Components[1] = Component{Mean: 5, Scale: 2, DoF: 8}
		g := base
		g.condition(0, 1, base.Mean, 1)
		if math.Abs(g.Mean-2) > 1e-9*2 {
			t.Errorf("a mixture with a t of ν %v: Mean %.12g, want 2", nu, g.Mean)
		}
	}
}

// TestCopulaConditionalBeyondFloat64 conditions a t marginal (dof 3, scale
// 1) on a Gaussian one (sd 0.01) at ρ = 0.9, so that y₀ sets the t's
// score mean μ = 0.9·y₀/0.01: at y₀ = 0.3 (μ = 27) its law is far out
// but within float64 (G's median is the t's quantile at Φ(27), about
// 1e53, by the t's tail F̄(y) ≈ 2·3^(3/2)/(π y³)... finite); at y₀ = 0.5
// (μ = 45) its variance, e^(2·45²/(3·0.19)) scales² or so, overflows; at
// y₀ = 1 (μ = 90) it lies wholly beyond float64, the t's score at the
// largest float64 being about 65. The last two are ErrNonFinite, dst
// unchanged; the first is finite.
func TestCopulaConditionalBeyondFloat64(t *testing.T) {
	rho := 0.9
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	p := condCopula(t, []Prediction{condRefMarginal(t, "gauss/0/0.01/0"), condRefMarginal(t, "t/0/1/3")}, l, 1, math.Inf(1), nil)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{0.3}); err != nil {
		t.Fatal(err)
	}
	if g := dst.Marginal(0); !finite(g.Mean) || !finite(g.Var) || g.Mean < 1e50 {
		t.Errorf("y₀ 0.3: Mean %v, Var %v, want finite, beyond 1e50", g.Mean, g.Var)
	}
	before := dst.Marginal(0)
	for _, y0 := range []float64{0.5, 1} {
		err := p.Conditional(&dst, []int{0}, []float64{y0})
		if !errors.Is(err, ErrNonFinite) {
			t.Errorf("y₀ %v: %v, want ErrNonFinite", y0, err)
		}
		if after := dst.Marginal(0); after.Mean != before.Mean || after.Var != before.Var {
			t.Errorf("y₀ %v: dst changed on error", y0)
		}
	}
}

// TestConformalIntervalOfAConditionalMarginal: a conditional marginal
// has no conformal interval (the model's scores are of residuals that no
// other target's value conditioned), ErrNoConformal, where the same
// model gives its unconditional marginal one.
func TestConformalIntervalOfAConditionalMarginal(t *testing.T) {
	rho := 0.9
	l := []float64{1, rho, math.Sqrt(1 - rho*rho)}
	p := condCopula(t, []Prediction{condRefMarginal(t, "gauss/0/1/0"), condRefMarginal(t, "t/0/1/4")}, l, 1, math.Inf(1), nil)
	m := copulaMargin[float64](t, Config{Inputs: 2, Hidden: []int{4}, Seed: 3}, 0, 1)
	m.ext.conformal = thinScores([]float64{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5})
	if _, _, err := m.ConformalInterval(p.Marginal(1), 0.8); err != nil {
		t.Fatalf("the unconditional marginal: %v", err)
	}
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{2}); err != nil {
		t.Fatal(err)
	}
	if lo, hi, err := m.ConformalInterval(dst.Marginal(0), 0.8); !errors.Is(err, ErrNoConformal) {
		t.Errorf("a conditional marginal: [%v, %v], %v, want ErrNoConformal", lo, hi, err)
	}
}

// TestCopulaConditionalAfterPredictAllocatesNothing: the first Conditional
// into a dst that has only held PredictMulti of the copula model (of as
// many targets or more) allocates nothing, PredictMulti having sized the
// conditional's factor too: a fresh dst's PredictMulti and Conditional
// allocate what its PredictMulti alone does.
func TestCopulaConditionalAfterPredictAllocatesNothing(t *testing.T) {
	m, p := mixedCopula(t, 4, 61)
	ws := m.NewWorkspace()
	x := []float64{0.4, -0.2, 1.1}
	values := []float64{p.Marginal(1).Mean}
	run := func(condition bool) float64 {
		return testing.AllocsPerRun(20, func() {
			dst := new(MultiPrediction)
			if err := m.PredictMulti(ws, x, dst); err != nil {
				t.Fatal(err)
			}
			if !condition {
				return
			}
			if err := p.Conditional(dst, []int{1}, values); err != nil {
				t.Fatal(err)
			}
		})
	}
	if alone, both := run(false), run(true); both != alone {
		t.Errorf("PredictMulti then Conditional into a fresh dst: %v allocations, PredictMulti alone %v", both, alone)
	}
}

// FuzzCopulaConditional: for any values of any proper subset of a mixed
// copula's three targets (a single network, an ensemble and a logged
// target), Conditional either refuses with one of its errors, leaving
// dst as it was, or gives remaining marginals that are laws: a finite
// median whose CDF is ½, and a calibrated 95% interval with lo ≤ hi.
// Values run from subnormal to the largest float64 and NaN, where a
// remaining target's law can leave float64 (ErrNonFinite).
func FuzzCopulaConditional(f *testing.F) {
	_, p := mixedCopula(f, 3, 41)
	for _, c := range []struct {
		mask uint8
		a, b float64
	}{{1, 0.5, 0}, {3, 1e300, -2}, {2, -5e-324, 0}, {5, math.NaN(), 1}, {4, -1, 0}, {6, 3, 1e-300}, {1, -1e9, 0}} {
		f.Add(c.mask, c.a, c.b)
	}
	f.Fuzz(func(t *testing.T, mask uint8, a, b float64) {
		var given []int
		var values []float64
		for j := range 3 {
			if mask&(1<<j) != 0 {
				given = append(given, j)
				values = append(values, []float64{a, b, a}[len(values)])
			}
		}
		if len(given) == 0 || len(given) == 3 {
			return
		}
		var dst MultiPrediction
		if err := p.Conditional(&dst, []int{0}, []float64{0.5}); err != nil {
			t.Fatal(err)
		}
		before := dst.Mean(0)
		err := p.Conditional(&dst, given, values)
		if err != nil {
			if !errors.Is(err, ErrNonFinite) && !errors.Is(err, ErrDomain) {
				t.Fatalf("given %v at %v: %v, want ErrNonFinite or ErrDomain", given, values, err)
			}
			if dst.Dim() != 2 || dst.Mean(0) != before {
				t.Fatalf("given %v at %v: dst changed by the error %v", given, values, err)
			}
			return
		}
		for k := range dst.Dim() {
			q := dst.Marginal(k)
			med, err := q.Quantile(0.5)
			if err != nil || math.IsInf(med, 0) || math.IsNaN(med) {
				t.Fatalf("given %v at %v: marginal %d's median %v (%v)", given, values, k, med, err)
			}
			if c := q.CDF(med); !(math.Abs(c-0.5) <= 1e-6) {
				t.Fatalf("given %v at %v: marginal %d's CDF at its median %v is %v", given, values, k, med, c)
			}
			if lo, hi, err := q.CalibratedInterval(0.95); err != nil || !(lo <= hi) {
				t.Fatalf("given %v at %v: marginal %d's calibrated 95%% interval [%v, %v] (%v)", given, values, k, lo, hi, err)
			}
		}
	})
}
