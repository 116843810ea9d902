package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// handMulti returns a prediction built from the members' locations, packed
// Cholesky factors and ν given by hand (d targets), of the GCP loss (of
// the Gaussian comparator for ν = +Inf), with calibration scale c and the
// Gaussian calibrated region (RegionNu +Inf), through the same mixing
// PredictMulti uses.
func handMulti(t testing.TB, d int, loc, chol, nu []float64, c float64) *MultiPrediction {
	t.Helper()
	p := new(MultiPrediction)
	p.resize(d, len(nu))
	p.loss, p.regionScale, p.regionNu = LossGCP, c, math.Inf(1)
	copy(p.loc, loc)
	copy(p.chol, chol)
	for k, v := range nu {
		p.nu[k], p.tfac[k], p.corr[k] = v, v/(v-2), mvtCorrectionCheb(d, v)
		if math.IsInf(v, 1) {
			p.loss, p.tfac[k] = LossGaussianML, 1
		}
	}
	for i := range p.spread {
		p.spread[i] = 1
	}
	if !p.mix() {
		t.Fatal("the hand-made prediction does not mix")
	}
	return p
}

// randomMulti returns handMulti of members members with random locations
// and factors (diagonal e^N(0, 0.3²), below it N(0, 0.5²)) and ν drawn from
// nuLo to nuLo + 4.
func randomMulti(t testing.TB, r *rand.Rand, d, members int, nuLo, c float64) *MultiPrediction {
	t.Helper()
	nl := mvtPackedLen(d)
	loc, chol, nu := make([]float64, members*d), make([]float64, members*nl), make([]float64, members)
	for k := range members {
		nu[k] = nuLo + 4*r.Float64()
		for i := range d {
			loc[k*d+i] = 0.5*float64(i) + 0.3*r.NormFloat64()
			for j := range i + 1 {
				v := 0.5 * r.NormFloat64()
				if j == i {
					v = math.Exp(0.3 * r.NormFloat64())
				}
				chol[k*nl+i*(i+1)/2+j] = v
			}
		}
	}
	return handMulti(t, d, loc, chol, nu, c)
}

// merge returns the full target vector of d entries with given's values
// at given and rest's, in order, elsewhere.
func merge(d int, given []int, values, rest []float64) []float64 {
	y, u := make([]float64, d), 0
	for i := range d {
		if a := slices.Index(given, i); a >= 0 {
			y[i] = values[a]
		} else {
			y[i], u = rest[u], u+1
		}
	}
	return y
}

// tPairLogDensity returns the log density at (y_a, y_b) of the bivariate
// t with ν degrees of freedom, location (m_a, m_b) and scale entries saa,
// sab, sbb: the textbook formula with the 2×2 determinant and inverse
// written out, independent of the Cholesky code.
func tPairLogDensity(ya, yb, ma, mb, saa, sab, sbb, nu float64) float64 {
	det := saa*sbb - sab*sab
	ea, eb := ya-ma, yb-mb
	q := (sbb*ea*ea - 2*sab*ea*eb + saa*eb*eb) / det
	lg1, _ := math.Lgamma((nu + 2) / 2)
	lg0, _ := math.Lgamma(nu / 2)
	return lg1 - lg0 - math.Log(nu*math.Pi) - 0.5*math.Log(det) - (nu+2)/2*math.Log1p(q/nu)
}

// TestConditionalIsTheDensityRatio checks the conditional's density
// against Bayes' rule, p(y_U | y_O) = p(y)/p(y_O), at random points, with
// p(y) the joint LogPDF and p(y_O) computed apart: for one given target
// its Marginal's density (the one-dimensional Student-t, Gaussian or
// mixture code), for two the bivariate t written out (tPairLogDensity,
// single networks). This holds for the t (the closed form's location,
// scale and ν + |O| degrees of freedom together), for the Gaussian
// comparator and for the ensemble (the members' reweighting). Tolerance 1e-9: log densities of order 10 formed by
// different routes, a few hundred roundings apart.
func TestConditionalIsTheDensityRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		d, members int
		given      []int
		nu         float64
	}{
		{2, 1, []int{1}, 2.5}, {3, 1, []int{0}, 2.5}, {5, 1, []int{3}, 2.5}, {3, 1, []int{2, 0}, 2.5}, {5, 1, []int{1, 4}, 2.5},
		{3, 3, []int{1}, 2.5}, {5, 4, []int{0}, 2.5}, {4, 1, []int{2}, math.Inf(1)}, {4, 3, []int{0}, math.Inf(1)},
	} {
		p := randomMulti(t, r, c.d, c.members, c.nu, 1)
		var dst MultiPrediction
		for range 5 {
			values := make([]float64, len(c.given))
			for a, i := range c.given {
				values[a] = p.Mean(i) + 3*r.NormFloat64()*math.Sqrt(p.Scale(i, i))
			}
			if err := p.Conditional(&dst, c.given, values); err != nil {
				t.Fatal(err)
			}
			if dst.Dim() != c.d-len(c.given) || dst.Members() != c.members {
				t.Fatalf("conditional of %d targets and %d members, want %d and %d", dst.Dim(), dst.Members(), c.d-len(c.given), c.members)
			}
			var lnO float64
			if len(c.given) == 1 {
				lnO = p.Marginal(c.given[0]).LogPDF(values[0])
			} else {
				a, b := c.given[0], c.given[1]
				lnO = tPairLogDensity(values[0], values[1], p.Mean(a), p.Mean(b), p.Scale(a, a), p.Scale(a, b), p.Scale(b, b), p.Nu())
			}
			for range 4 {
				rest := make([]float64, dst.Dim())
				for i := range rest {
					rest[i] = dst.Mean(i) + 2*r.NormFloat64()
				}
				want := p.LogPDF(merge(c.d, c.given, values, rest)) - lnO
				if got := dst.LogPDF(rest); math.Abs(got-want) > 1e-9 {
					t.Errorf("d=%d members=%d given %v = %.3g: ln p(y_U|y_O) = %.12g, p(y)/p(y_O) gives %.12g", c.d, c.members, c.given, values, got, want)
				}
			}
		}
	}
}

// TestConditionalImportanceSampling checks the conditional t by Monte
// Carlo without its closed form: draws from a wider proposal (a t with 3
// degrees of freedom at twice the conditional's scale, heavier-tailed
// than every conditional, so the weights are bounded), weighted by the
// joint density p(y_U, y_O) over the proposal's, estimate the
// conditional's mean and the probability of its central 50% and 90%
// regions, which must match the closed form within 4 standard errors of
// the self-normalised estimate. The given values lie 2.5 scales out, where
// the scale factor (ν + q_O)/(ν + |O|) is far from 1: a region without it
// held 0.79 instead of 0.9 at d = 3 and 0.59 at d = 5.
func TestConditionalImportanceSampling(t *testing.T) {
	const n = 20000
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		d     int
		given []int
	}{{3, []int{1}}, {5, []int{0, 3}}} {
		p := randomMulti(t, r, c.d, 1, 6, 1)
		values := make([]float64, len(c.given))
		for a, i := range c.given {
			values[a] = p.Mean(i) + 2.5*math.Sqrt(p.Scale(i, i))
		}
		var dst, prop MultiPrediction
		if err := p.Conditional(&dst, c.given, values); err != nil {
			t.Fatal(err)
		}
		u := dst.Dim()
		// The proposal: dst's location, twice its factor, 3 degrees of freedom.
		prop.resize(u, 1)
		copy(prop.loc, dst.loc)
		for i, v := range dst.chol {
			prop.chol[i] = 2 * v
		}
		prop.nu[0] = 3
		levels := []float64{0.5, 0.9}
		var sw float64
		ws, ys := make([]float64, n), make([][]float64, n)
		for s := range n {
			y := make([]float64, u)
			if err := prop.Sample(y, r); err != nil {
				t.Fatal(err)
			}
			w := math.Exp(p.LogPDF(merge(c.d, c.given, values, y)) - prop.LogPDF(y))
			ws[s], ys[s] = w, y
			sw += w
		}
		// Self-normalised estimates ĝ = Σwg/Σw, standard error
		// √(Σw²(g − ĝ)²)/Σw.
		check := func(name string, g func(y []float64) float64, want float64) {
			if est, se := importanceEstimate(ws, ys, sw, g); math.Abs(est-want) > 4*se {
				t.Errorf("d=%d given %v: %s %.4f by importance sampling, closed form %.4f (4 SE %.4f)", c.d, c.given, name, est, want, 4*se)
			}
		}
		for i := range u {
			check("mean", func(y []float64) float64 { return y[i] }, dst.Mean(i))
		}
		for _, prob := range levels {
			check("p-region", func(y []float64) float64 {
				if ok, _ := dst.Inside(y, prob); ok {
					return 1
				}
				return 0
			}, prob)
		}
	}
}

// TestConditionalCorrectedIsTheGaussianConditional checks the conditional's
// corrected covariance, for a single network, against the conditional
// covariance of the corrected Gaussian N(Mean, CovCorrected) formed by
// hand, Σ̃_UU − Σ̃_UO Σ̃_OO⁻¹ Σ̃_OU by a linear solve, and that it does not
// move with the given values; the calibration scale carries over.
// Tolerance 1e-10 relative to the entries' scale: a Schur complement of
// well-conditioned 5×5 matrices.
func TestConditionalCorrectedIsTheGaussianConditional(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const d = 5
	p := randomMulti(t, r, d, 1, 2.5, 1.7)
	given, rest := []int{3, 1}, []int{0, 2, 4}
	sigma := func(i, j int) float64 { return p.CovCorrected(i, j) }
	soo := []float64{sigma(3, 3), sigma(3, 1), sigma(1, 3), sigma(1, 1)}
	var dst MultiPrediction
	for _, values := range [][]float64{{0, 0}, {40, -25}} {
		if err := p.Conditional(&dst, given, values); err != nil {
			t.Fatal(err)
		}
		if dst.RegionScale() != 1.7 {
			t.Errorf("RegionScale %v, want 1.7", dst.RegionScale())
		}
		for a, i := range rest {
			for b, j := range rest {
				x := solve(soo, []float64{sigma(3, j), sigma(1, j)}, 2)
				want := sigma(i, j) - sigma(i, 3)*x[0] - sigma(i, 1)*x[1]
				if got := dst.CovCorrected(a, b); math.Abs(got-want) > 1e-10*sigma(i, i) {
					t.Errorf("given %v: CovCorrected(%d, %d) = %.12g, want %.12g", values, a, b, got, want)
				}
			}
		}
	}
}

// TestConditionalBadInput checks each error and that dst is left as it
// was.
func TestConditionalBadInput(t *testing.T) {
	checkConditionalBadInput(t, randomMulti(t, rand.New(rand.NewPCG(7, 8)), 3, 2, 3, 1))
}

// checkConditionalBadInput checks each error of Conditional on p, a
// prediction of 3 targets (of either law), and that dst is left as it
// was; a value outside the log's domain where target 2 is logged.
func checkConditionalBadInput(t *testing.T, p *MultiPrediction) {
	t.Helper()
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{0.5}); err != nil {
		t.Fatal(err)
	}
	before := dst.Mean(0)
	type badCase struct {
		name   string
		dst    *MultiPrediction
		given  []int
		values []float64
		want   error
	}
	cases := []badCase{
		{"index out of range", &dst, []int{3}, []float64{0}, ErrTargetIndex},
		{"negative index", &dst, []int{-1}, []float64{0}, ErrTargetIndex},
		{"repeated index", &dst, []int{1, 1}, []float64{0, 0}, ErrTargetIndex},
		{"no target", &dst, nil, nil, ErrTargetIndex},
		{"every target", &dst, []int{0, 2, 1}, []float64{1, 1, 1}, ErrTargetIndex},
		{"values and indices differ", &dst, []int{0, 1}, []float64{0}, ErrShape},
		{"NaN", &dst, []int{1}, []float64{math.NaN()}, ErrNonFinite},
		{"Inf", &dst, []int{1}, []float64{math.Inf(-1)}, ErrNonFinite},
		{"nil dst", nil, []int{0}, []float64{0}, ErrConfig},
		{"dst is p", p, []int{0}, []float64{0}, ErrConfig},
	}
	if p.tr[2] == TransformLog {
		cases = append(cases, badCase{"outside the log's domain", &dst, []int{2}, []float64{-1}, ErrDomain})
	}
	for _, c := range cases {
		if err := p.Conditional(c.dst, c.given, c.values); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if dst.Dim() != 2 || dst.Mean(0) != before {
		t.Errorf("dst changed by the errors: %d targets, mean %v, was %v", dst.Dim(), dst.Mean(0), before)
	}
}

// TestConditionalAllocatesNothing checks that conditioning into a dst of
// the right shape, and drawing from it, allocate nothing.
func TestConditionalAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, members := range []int{1, 3} {
		if allocs := conditionalAllocs(t, randomMulti(t, r, 4, members, 3, 1), []int{2}, []float64{1}, r); allocs != 0 {
			t.Errorf("members=%d: %v allocations a run, want 0", members, allocs)
		}
	}
}

// conditionalAllocs returns the allocations of a run of conditioning p
// on the targets given at values into a dst that held that shape, and
// drawing from it.
func conditionalAllocs(t *testing.T, p *MultiPrediction, given []int, values []float64, r *rand.Rand) float64 {
	t.Helper()
	var dst MultiPrediction
	y := make([]float64, p.Dim()-len(given))
	return testing.AllocsPerRun(50, func() {
		if err := p.Conditional(&dst, given, values); err != nil {
			t.Fatal(err)
		}
		if err := dst.Sample(y, r); err != nil {
			t.Fatal(err)
		}
		if err := dst.SampleCalibrated(y, r); err != nil {
			t.Fatal(err)
		}
	})
}

// TestConditionalInSteps checks that conditioning an ensemble on two
// targets at once and on one after the other give the same predictive
// (the second step weighs by the first's weights), through its density
// at random points. Tolerance as TestConditionalIsTheDensityRatio's.
func TestConditionalInSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	p := randomMulti(t, r, 4, 3, 3, 1)
	var once, first, twice MultiPrediction
	if err := p.Conditional(&once, []int{2, 0}, []float64{1.5, -1}); err != nil {
		t.Fatal(err)
	}
	if err := p.Conditional(&first, []int{0}, []float64{-1}); err != nil {
		t.Fatal(err)
	}
	if err := first.Conditional(&twice, []int{1}, []float64{1.5}); err != nil { // target 2 is the first's 1
		t.Fatal(err)
	}
	for range 5 {
		y := []float64{r.NormFloat64(), 2 * r.NormFloat64()}
		if a, b := once.LogPDF(y), twice.LogPDF(y); math.Abs(a-b) > 1e-9 {
			t.Errorf("at %.3g: at once %.12g, in two steps %.12g", y, a, b)
		}
	}
}

// TestConditionalEnsembleMarginal checks the Marginal of an ensemble's
// conditional, whose members weigh unequally: one t (Members 1) with the
// mixture's mean, variance Var = Cov(i, i) and ν = Nu(), seen through its
// density at the mean, lnΓ((ν+1)/2) − lnΓ(ν/2) − ½ln(νπ) − ln σ with
// σ² = Var·(ν−2)/ν; and the mixture's corrected variance. Tolerance 1e-12
// relative: a few roundings.
func TestConditionalEnsembleMarginal(t *testing.T) {
	p := randomMulti(t, rand.New(rand.NewPCG(19, 20)), 3, 3, 3, 1.3)
	var c MultiPrediction
	if err := p.Conditional(&c, []int{1}, []float64{2}); err != nil {
		t.Fatal(err)
	}
	for i := range c.Dim() {
		m := c.Marginal(i)
		nu, v := c.Nu(), c.Cov(i, i)
		lg1, _ := math.Lgamma((nu + 1) / 2)
		lg0, _ := math.Lgamma(nu / 2)
		want := lg1 - lg0 - 0.5*math.Log(nu*math.Pi) - 0.5*math.Log(v*(nu-2)/nu)
		if m.Members != 1 || m.Mean != c.Mean(i) || m.Var != v || math.Abs(m.LogPDF(m.Mean)-want) > 1e-12*math.Abs(want) ||
			math.Abs(m.VarCorrected-1.3*c.CovCorrected(i, i)) > 1e-12*m.VarCorrected {
			t.Errorf("target %d: Members %d, mean %v (want %v), Var %v (want %v), density at the mean %.15g (want %.15g), VarCorrected %v (want %v)",
				i, m.Members, m.Mean, c.Mean(i), m.Var, v, m.LogPDF(m.Mean), want, m.VarCorrected, 1.3*c.CovCorrected(i, i))
		}
	}
}

// TestConditionalConcurrent conditions one prediction from several
// goroutines at once, each into its own dst, and checks that each gets
// what a lone call gets (run under -race, it checks that Conditional only
// reads p).
func TestConditionalConcurrent(t *testing.T) {
	checkConditionalConcurrent(t, randomMulti(t, rand.New(rand.NewPCG(21, 22)), 4, 3, 3, 1), []int{1, 3}, []float64{0.5, -2}, []float64{0.3, 1.1})
}

// checkConditionalConcurrent conditions p on the targets given at values
// from several goroutines at once, each into its own dst, and checks
// that each dst's LogPDF at y and first marginal's Mean are a lone
// call's.
func checkConditionalConcurrent(t *testing.T, p *MultiPrediction, given []int, values, y []float64) {
	t.Helper()
	var want MultiPrediction
	if err := p.Conditional(&want, given, values); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var dst MultiPrediction
			for range 100 {
				if err := p.Conditional(&dst, given, values); err != nil {
					errs <- err
					return
				}
				if dst.LogPDF(y) != want.LogPDF(y) || dst.Marginal(0).Mean != want.Marginal(0).Mean {
					errs <- errors.New("a concurrent conditional differs from a lone one")
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkConditional conditions a 5-target prediction on 2 targets, for
// one network and an ensemble of 5; "logged" with two of the remaining
// targets under the log and a calibrated region of ν = 6, as AutoFit
// fits one, whose check of the logged laws (loggedLawsRepresentable)
// must cost little beside the conditional itself.
func BenchmarkConditional(b *testing.B) {
	for _, logged := range []bool{false, true} {
		for _, members := range []int{1, 5} {
			p := randomMulti(b, rand.New(rand.NewPCG(23, 24)), 5, members, 3, 1)
			name := fmt.Sprintf("members=%d", members)
			if logged {
				p.tr[1], p.tr[2], p.logged, p.regionNu = TransformLog, TransformLog, true, 6
				name += "/logged"
			}
			var dst MultiPrediction
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if err := p.Conditional(&dst, []int{0, 3}, []float64{0.5, -1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestConditionalCalibratedIsTheDensityRatio: the calibrated predictive
// t_ν(Mean, s·Σ̃) of a single network conditions exactly, so that
// ln p̃(y₁ | y₀) = ln p̃(y) − ln p̃(y₀), the marginal of target 0 the
// univariate t_ν(m₀, s·Σ̃₀₀) written out here; within 1e-9 (a few
// roundings of terms of order 10), for a t region (ν 5) and the Gaussian.
func TestConditionalCalibratedIsTheDensityRatio(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, nu := range []float64{5, math.Inf(1)} {
		p := randomMulti(t, r, 2, 1, 6, 1.3)
		p.regionNu = nu
		for range 20 {
			y := []float64{p.Mean(0) + 3*r.NormFloat64(), p.Mean(1) + 3*r.NormFloat64()}
			var c MultiPrediction
			if err := p.Conditional(&c, []int{0}, y[:1]); err != nil {
				t.Fatal(err)
			}
			v := p.RegionScale() * p.CovCorrected(0, 0)
			e := y[0] - p.Mean(0)
			lm := -0.5*math.Log(2*math.Pi*v) - e*e/(2*v)
			if !math.IsInf(nu, 1) {
				g1, _ := math.Lgamma((nu + 1) / 2)
				g0, _ := math.Lgamma(nu / 2)
				lm = g1 - g0 - 0.5*math.Log(nu*math.Pi*v) - (nu+1)/2*math.Log1p(e*e/(nu*v))
			}
			want := p.CalibratedLogPDF(y) - lm
			if got := c.CalibratedLogPDF(y[1:]); math.Abs(got-want) > 1e-9 {
				t.Errorf("ν %v, y %v: calibrated conditional log density %v, want %v", nu, y, got, want)
			}
		}
	}
}

// TestConditionalWithAnUnderflowedMemberWeight checks an ensemble's
// conditional given a value so far out (1e10 scales) that one member's
// weight underflows to 0: the member with the lighter tail (ν = 60, or a
// Gaussian member with the narrower scale) has a marginal density e^1200
// times below the other's. The conditional is then the other member's,
// whose log density is written out by hand: the bivariate t
// (tPairLogDensity) less the univariate t of y_O, or for the Gaussian the
// normal of the conditional mean and variance of the textbook formula; and
// Nu is that member's ν + 1, +Inf for the Gaussian. Tolerance 1e-9: log
// densities of order 100 by different routes.
// regression: LogPDF and Nu returned NaN (0·∞ and e^(−Inf+Inf)).
func TestConditionalWithAnUnderflowedMemberWeight(t *testing.T) {
	const yo = 1e10
	yu := []float64{3e9 + 1.5}
	// t members: member 0 ν = 60, member 1 ν = 2.5, both factor (1 0; 0.3 1).
	p := handMulti(t, 2, []float64{0, 0, 0, 0}, []float64{1, 0.3, 1, 1, 0.3, 1}, []float64{60, 2.5}, 1)
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{0}, []float64{yo}); err != nil {
		t.Fatal(err)
	}
	nu := 2.5
	lg1, _ := math.Lgamma((nu + 1) / 2)
	lg0, _ := math.Lgamma(nu / 2)
	lnO := lg1 - lg0 - 0.5*math.Log(nu*math.Pi) - (nu+1)/2*math.Log1p(yo*yo/nu)
	want := tPairLogDensity(yo, yu[0], 0, 0, 1, 0.3, 1.09, nu) - lnO
	if got := dst.LogPDF(yu); !(math.Abs(got-want) <= 1e-9*math.Abs(want)) {
		t.Errorf("t members: LogPDF = %v, want %v", got, want)
	}
	if got := dst.Nu(); got != nu+1 {
		t.Errorf("t members: Nu = %v, want %v", got, nu+1)
	}
	// Gaussian members: member 0 factor (1 0; 0.3 1), member 1 twice it.
	p = handMulti(t, 2, []float64{0, 0, 0, 0}, []float64{1, 0.3, 1, 2, 0.6, 2}, []float64{math.Inf(1), math.Inf(1)}, 1)
	if err := p.Conditional(&dst, []int{0}, []float64{1e3}); err != nil {
		t.Fatal(err)
	}
	// Member 1: S = 4·(1 0.3; 0.3 1.09), so y_U | y_O ~ N(0.3·y_O, 4·1).
	mean, v := 0.3*1e3, 4.0
	y := []float64{mean + 1.5}
	want = -0.5*math.Log(2*math.Pi*v) - 1.5*1.5/(2*v)
	if got := dst.LogPDF(y); !(math.Abs(got-want) <= 1e-9) {
		t.Errorf("Gaussian members: LogPDF = %v, want %v", got, want)
	}
	if got := dst.Nu(); !math.IsInf(got, 1) {
		t.Errorf("Gaussian members: Nu = %v, want +Inf", got)
	}
	if got := dst.Marginal(0).Alpha; !math.IsInf(got, 1) {
		t.Errorf("Gaussian members: Marginal Alpha = %v, want +Inf", got)
	}
}

// bigConditional returns the conditional of p given the targets given at
// values, computed apart from Conditional in math/big at 1024 bits: each
// member's scale S formed exactly from its float64 factor, S_OO⁻¹ by
// elimination, the member's conditional location, scale
// (ν + q)/(ν + |O|)·(S_UU − S_UO S_OO⁻¹ S_OU) and log density at values
// (det S_OO from the pivots), then the mixture's mean and covariance in
// float64 with the weights w_k ∝ e^(ln p_k(values)) (Conditional's
// Cov: Σ_k w_k (ν_k'/(ν_k'−2)·scale_k + (μ_k − μ)(μ_k − μ)ᵀ), ν_k' =
// ν_k + |O|). It also returns the smallest and largest pivot of the
// members' S_OO, whose ratio is about its condition number.
func bigConditional(p *MultiPrediction, given, rest []int, values []float64) (mean []float64, cov [][]float64, pivMin, pivMax float64) {
	const prec = 1024
	num := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	mul := func(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Mul(a, b) }
	d, o, u, members := p.d, len(given), len(rest), p.members
	nl := mvtPackedLen(d)
	pivMin, pivMax = math.Inf(1), 0
	lws, mus, scales := make([]float64, members), make([][]float64, members), make([][][]float64, members)
	for k := range members {
		l := p.chol[k*nl : (k+1)*nl]
		s := func(i, j int) *big.Float {
			v := num(0)
			for c := range min(i, j) + 1 {
				v.Add(v, mul(num(l[i*(i+1)/2+c]), num(l[j*(j+1)/2+c])))
			}
			return v
		}
		// a = [S_OO | y_O − m_O | S_OU], reduced to [I | S_OO⁻¹(y_O − m_O) | S_OO⁻¹S_OU].
		a, r := make([][]*big.Float, o), make([]*big.Float, o)
		for i := range o {
			a[i] = make([]*big.Float, o+1+u)
			for j := range o {
				a[i][j] = s(given[i], given[j])
			}
			a[i][o] = num(values[i])
			a[i][o].Sub(a[i][o], num(p.loc[k*d+given[i]]))
			r[i] = new(big.Float).Copy(a[i][o])
			for j := range u {
				a[i][o+1+j] = s(given[i], rest[j])
			}
		}
		var logDet float64
		for c := range o { // S_OO is positive definite: no pivoting
			var m big.Float
			e := a[c][c].MantExp(&m)
			mf, _ := m.Float64()
			pf, _ := a[c][c].Float64()
			logDet += math.Log(mf) + float64(e)*math.Ln2
			pivMin, pivMax = min(pivMin, pf), max(pivMax, pf)
			for i := c + 1; i < o; i++ {
				f := new(big.Float).SetPrec(prec).Quo(a[i][c], a[c][c])
				for j := c; j < o+1+u; j++ {
					a[i][j].Sub(a[i][j], mul(f, a[c][j]))
				}
			}
		}
		for c := o - 1; c >= 0; c-- {
			for j := o; j < o+1+u; j++ {
				for i := c + 1; i < o; i++ {
					a[c][j].Sub(a[c][j], mul(a[c][i], a[i][j]))
				}
				a[c][j].Quo(a[c][j], a[c][c])
			}
		}
		q := num(0)
		for i := range o {
			q.Add(q, mul(r[i], a[i][o]))
		}
		qf, _ := q.Float64()
		nu := p.nu[k]
		f := (nu + qf) / (nu + float64(o))
		mus[k], scales[k] = make([]float64, u), make([][]float64, u)
		for i := range u {
			m := num(p.loc[k*d+rest[i]])
			for c := range o {
				m.Add(m, mul(s(rest[i], given[c]), a[c][o]))
			}
			mus[k][i], _ = m.Float64()
			scales[k][i] = make([]float64, u)
			for j := range u {
				v := s(rest[i], rest[j])
				for c := range o {
					v.Sub(v, mul(s(rest[i], given[c]), a[c][o+1+j]))
				}
				vf, _ := v.Float64()
				scales[k][i][j] = f * vf
			}
		}
		lg1, _ := math.Lgamma((nu + float64(o)) / 2)
		lg0, _ := math.Lgamma(nu / 2)
		lws[k] = lg1 - lg0 - float64(o)/2*math.Log(nu*math.Pi) - logDet/2 - (nu+float64(o))/2*math.Log1p(qf/nu)
	}
	top := slices.Max(lws)
	w, sum := make([]float64, members), 0.0
	for k := range w {
		w[k] = math.Exp(lws[k] - top)
		sum += w[k]
	}
	mean, cov = make([]float64, u), make([][]float64, u)
	for k := range w {
		w[k] /= sum
		for i := range u {
			mean[i] += w[k] * mus[k][i]
		}
	}
	for i := range u {
		cov[i] = make([]float64, u)
		for j := range u {
			for k := range w {
				nuU := p.nu[k] + float64(o)
				cov[i][j] += w[k] * (nuU/(nuU-2)*scales[k][i][j] + (mus[k][i]-mean[i])*(mus[k][j]-mean[j]))
			}
		}
	}
	return mean, cov, pivMin, pivMax
}

// TestConditionalOfANearlySingularScale conditions a 16-target ensemble
// of 5 members on 8 targets whose scale matrix S_OO is ill-conditioned,
// and checks the conditional's Mean and Cov against bigConditional (in
// the conditional's standard deviations, √(C_ii·C_jj) for Cov):
//
//   - targets in units from 10⁻¹⁸·⁵ to 10¹⁸·⁵ (S_OO's pivots from 6·10⁻³⁸
//     to 6·10³²): accurate to 1e-13 (Cholesky is indifferent to the
//     targets' units; measured 1.5e-15), with t = 1 below;
//   - the factor's pivot of one given target shrunk by t, so that it is
//     nearly a linear function of the others (S_OO's pivots from
//     5.9·t² to 2.9, 10⁷⁴ apart at t = 10⁻³⁷): for t ≥ 10⁻⁴ (Cholesky
//     pivot ratios above conditionPivotMin) accurate to 1e-6, the
//     bound's (measured 1.7e-7 at t = 10⁻⁴, 1.1e-9 at 10⁻³), and below
//     it refused with ErrNonFinite. Before the bound, t = 10⁻⁷ returned
//     no error and a Mean 0.16 standard deviations off, Cov 6% off (0.48
//     and 16% on another draw); t = 10⁻³⁷ was refused only where a
//     member's Cholesky failed outright.
func TestConditionalOfANearlySingularScale(t *testing.T) {
	const d, members = 16, 5
	given := []int{3, 0, 7, 2, 5, 6, 1, 4}
	rest := []int{8, 9, 10, 11, 12, 13, 14, 15}
	unitsGiven := []int{3, 0, 7, 12, 5, 9, 1, 14}
	unitsRest := []int{2, 4, 6, 8, 10, 11, 13, 15}
	nl := mvtPackedLen(d)
	for _, c := range []struct {
		tiny  float64
		units bool
		tol   float64 // 0: refused
	}{
		{1, false, 1e-13}, {1, true, 1e-13}, {1e-3, false, 1e-6}, {1e-4, false, 1e-6},
		{1e-7, false, 0}, {1e-8, false, 0}, {1e-37, false, 0}, {1e-37, true, 0},
	} {
		r := rand.New(rand.NewPCG(77, 78))
		p := randomMulti(t, r, d, members, 3, 1)
		g, u := given, rest
		if c.units {
			g, u = unitsGiven, unitsRest
		}
		for k := range members {
			l := p.chol[k*nl : (k+1)*nl]
			for i := range d {
				unit := 1.0
				if c.units {
					unit = math.Pow(10, -18.5+37*float64(i)/15)
				}
				p.loc[k*d+i] *= unit
				for j := range i + 1 {
					l[i*(i+1)/2+j] *= unit
				}
			}
			l[g[2]*(g[2]+1)/2+g[2]] *= c.tiny
		}
		if !p.mix() {
			t.Fatal("the prediction does not mix")
		}
		values := make([]float64, len(g))
		for a, i := range g {
			values[a] = p.Mean(i) + 0.7*math.Sqrt(p.Cov(i, i))*float64(a%3-1)
		}
		var dst MultiPrediction
		err := p.Conditional(&dst, g, values)
		mean, cov, pivMin, pivMax := bigConditional(p, g, u, values)
		name := fmt.Sprintf("t = %v, units %v (S_OO's pivots %.2g to %.2g)", c.tiny, c.units, pivMin, pivMax)
		if c.tol == 0 {
			if !errors.Is(err, ErrNonFinite) {
				t.Errorf("%s: error %v, want ErrNonFinite", name, err)
			}
			t.Logf("%s: %v", name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var worstMean, worstCov float64
		for i := range u {
			worstMean = max(worstMean, math.Abs(dst.Mean(i)-mean[i])/math.Sqrt(cov[i][i]))
			for j := range u {
				worstCov = max(worstCov, math.Abs(dst.Cov(i, j)-cov[i][j])/math.Sqrt(cov[i][i]*cov[j][j]))
			}
		}
		t.Logf("%s: Mean within %.2g, Cov within %.2g", name, worstMean, worstCov)
		if !(worstMean <= c.tol && worstCov <= c.tol) {
			t.Errorf("%s: Mean off by %.3g, Cov by %.3g, want within %g", name, worstMean, worstCov, c.tol)
		}
	}
}

// importanceEstimate returns the self-normalised importance-sampling
// estimate ĝ = Σw·g(y)/Σw of the draws ys of weights ws (sw their sum)
// and its standard error √(Σw²(g(y) − ĝ)²)/Σw.
func importanceEstimate(ws []float64, ys [][]float64, sw float64, g func(y []float64) float64) (est, se float64) {
	for s, y := range ys {
		est += ws[s] * g(y)
	}
	est /= sw
	var v float64
	for s, y := range ys {
		e := g(y) - est
		v += ws[s] * ws[s] * e * e
	}
	return est, math.Sqrt(v) / sw
}

// TestConditionalRefusesALoggedLawBeyondFloat64 checks that Conditional
// refuses, with ErrNonFinite, a logged target whose conditional law
// leaves float64 in original units, and keeps one just inside. Of
// loggedPair, given target 1 at v the logged target 0 has the location
// m = 0.3 + (S₀₁/S₁₁)(v − 1) in z, S₀₁ = 0.08 and S₁₁ = 0.29, and its
// median in original units is e^m. Under the Gaussian (scale unchanged
// by v) v = −2537 puts m at −699.8, e^m ≈ 10⁻³⁰⁴, which must come back
// to 1e-12 relative (a few roundings of m, times |m| ≈ 700, in e^m);
// v = −3000 puts m at −827, where e^m underflows to 0. Under the t
// (ν = 5) v = ∓10⁴ moves m to ∓2759: before the check every quantile
// was 0, or +Inf, with no error.
func TestConditionalRefusesALoggedLawBeyondFloat64(t *testing.T) {
	var dst MultiPrediction
	g := loggedPair(t, math.Inf(1))
	const v = -2537.0
	if err := g.Conditional(&dst, []int{1}, []float64{v}); err != nil {
		t.Fatalf("Gaussian given %v: %v", v, err)
	}
	m := 0.3 + 0.08/0.29*(v-1)
	med, err := dst.Marginal(0).Quantile(0.5)
	if want := math.Exp(m); err != nil || !(math.Abs(med-want) <= 1e-12*want) {
		t.Errorf("Gaussian given %v: median %v (%v), want %v", v, med, err, want)
	}
	for _, c := range []struct {
		nu, v float64
	}{{math.Inf(1), -3000}, {5, -1e4}, {5, 1e4}} {
		p := loggedPair(t, c.nu)
		if err := p.Conditional(&dst, []int{1}, []float64{c.v}); !errors.Is(err, ErrNonFinite) {
			q := dst.Marginal(0)
			med, _ := q.Quantile(0.5)
			t.Errorf("ν = %v given %v: error %v (median %v, Mean %v), want ErrNonFinite", c.nu, c.v, err, med, q.Mean)
		}
	}
}

// TestConditionalLoggedIgnoresAMemberOfNoWeight: a member whose weight
// given y_O underflows to 0 takes no part in the conditional's law, and
// its location must not make Conditional refuse it. Of two Gaussian
// members (target 0 logged), A of S₀₁/S₁₁ = 0.5 and S₁₁ = 1, B of
// S₀₁/S₁₁ = 1.6 and S₁₁ = 0.25, given target 1 at −1000 B's density is
// e^(−1.5·10⁶) of A's, its weight 0, and its location in z −1600, where
// e^z underflows; A's is −500. The law is A's conditional, of median
// e^(−500) ≈ 7·10⁻²¹⁸, which must come back to 1e-12 relative (a few
// roundings of the location, times 500, in e^m). Before, Conditional
// refused it as beyond float64 (ErrNonFinite).
func TestConditionalLoggedIgnoresAMemberOfNoWeight(t *testing.T) {
	p := handMulti(t, 2, []float64{0, 0, 0, 0}, []float64{1, 0.5, math.Sqrt(0.75), 1, 0.4, 0.3}, []float64{math.Inf(1), math.Inf(1)}, 1)
	p.tr[0], p.logged = TransformLog, true
	var dst MultiPrediction
	if err := p.Conditional(&dst, []int{1}, []float64{-1000}); err != nil {
		t.Fatalf("given −1000: %v (weights %v, locations in z %v)", err, dst.weight[:2], dst.loc[:2])
	}
	if dst.weight[1] != 0 {
		t.Fatalf("member B's weight %v, want 0", dst.weight[1])
	}
	med, err := dst.Marginal(0).Quantile(0.5)
	if want := math.Exp(-500); err != nil || !(math.Abs(med-want) <= 1e-12*want) {
		t.Errorf("median %v (%v), want %v", med, err, want)
	}
}

// TestRegionMarginalFactorBound: regionMarginalFactor(ν) is at most
// regionMarginalFactorBound for every ν ≥ 1 (it falls with ν, from 42.03
// at ν = 1 to 1 for the Gaussian), the bound loggedLawsRepresentable
// takes instead of the t quantile.
func TestRegionMarginalFactorBound(t *testing.T) {
	for _, nu := range []float64{1, 1 + 1e-12, 1.001, 1.1, 1.5, 2, 3, 5, 10, 100, 1e4, 1e8, math.Inf(1)} {
		if k := regionMarginalFactor(nu); !(k >= 1 && k <= regionMarginalFactorBound) {
			t.Errorf("regionMarginalFactor(%v) = %v, want in [1, %v]", nu, k, regionMarginalFactorBound)
		}
	}
	if k := regionMarginalFactor(1); !(k > 42) {
		t.Errorf("regionMarginalFactor(1) = %v, want the Cauchy's 42.03", k)
	}
}

// TestConditionalLoggedRefusalIsTheMarginals: about the values where a
// logged target's conditional Mean e^(m + v/2) overflows (loggedPair
// given target 1 at v; m and v grow with it, v as its square under the
// t), Conditional must refuse exactly where the Marginal it wrote has a
// median or Mean that is not positive and finite: the check's shortcut
// (a bound on the t quantile) decides none otherwise. ν from 2.5, within
// the correction c_d(ν)'s domain ν ≥ 2 (mvtCorrectionCheb): at ν = 1.5
// the hand-made prediction's correction was the interpolant's
// extrapolation, −12,118 on 386 and 77,949 on amd64, and the test failed
// on 386 for that, not for the check.
func TestConditionalLoggedRefusalIsTheMarginals(t *testing.T) {
	for _, nu := range []float64{2.5, 5, math.Inf(1)} {
		p := loggedPair(t, nu)
		p.regionNu = nu
		var refused, kept int
		for _, v := range []float64{20, 50, 100, 150, 200, 300, 500, 1000, 2000, 2500, 2600, 3000} {
			for _, step := range []float64{0.9, 0.97, 0.99, 1, 1.01, 1.03, 1.1} {
				for _, sign := range []float64{-1, 1} {
					var dst MultiPrediction
					err := p.Conditional(&dst, []int{1}, []float64{sign * v * step})
					q := dst.Marginal(0)
					med, _ := q.Quantile(0.5)
					bad := !positiveFinite(med) || !positiveFinite(q.Mean)
					if (err != nil) != bad {
						t.Errorf("ν %v given %v: error %v, median %v, Mean %v", nu, sign*v*step, err, med, q.Mean)
					}
					if err != nil {
						refused++
					} else {
						kept++
					}
				}
			}
		}
		if refused == 0 || kept == 0 {
			t.Errorf("ν %v: %d refused, %d kept: want some of each", nu, refused, kept)
		}
	}
}
