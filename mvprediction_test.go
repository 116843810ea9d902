package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// loggedPair returns a single network's prediction of two targets by
// hand (handMulti): location (0.3, 1), factor rows (0.4) and (0.2, 0.5),
// ν degrees of freedom (+Inf for the Gaussian comparator), calibration
// scale 1, with target 0 under the log transform and target 1 as it is.
func loggedPair(t *testing.T, nu float64) *MultiPrediction {
	t.Helper()
	p := handMulti(t, 2, []float64{0.3, 1}, []float64{0.4, 0.2, 0.5}, []float64{nu}, 1)
	p.tr[0], p.logged = TransformLog, true
	return p
}

// TestMultiLogDensityIsTheChangeOfVariables checks LogPDF under a log
// transform against the change of variables written out: the bivariate t
// of z = (ln y₀, y₁) by its textbook formula (tPairLogDensity) less
// ln y₀; and, for the Gaussian, that integrating the density over y₀ in
// original units (a trapezoid over (0, 60], where the log-normal holds
// all but e⁻³⁰ of its mass) gives the marginal normal density of y₁.
// Tolerances: 1e-10 for one formula against another (a few roundings,
// more where fused multiply-adds round the quadratic form otherwise);
// 1e-6 for the quadrature, whose step 6e-5 leaves an error of order h²
// times the second derivative, below 1e-7 here.
func TestMultiLogDensityIsTheChangeOfVariables(t *testing.T) {
	p := loggedPair(t, 5)
	s := []float64{0.16, 0.08, 0.04 + 0.25} // S = LLᵀ
	for _, y := range [][]float64{{1.2, 0.7}, {0.05, 2}, {7, -1}} {
		want := tPairLogDensity(math.Log(y[0]), y[1], 0.3, 1, s[0], s[1], s[2], 5) - math.Log(y[0])
		if got := p.LogPDF(y); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("LogPDF(%v) = %v, want %v", y, got, want)
		}
	}
	g := loggedPair(t, math.Inf(1))
	const y1, h = 0.6, 6e-5
	var integral float64
	for k := 1; float64(k)*h <= 60; k++ {
		f := math.Exp(g.LogPDF([]float64{float64(k) * h, y1}))
		if float64(k+1)*h > 60 {
			f /= 2
		}
		integral += f * h
	}
	want := math.Exp(-(y1-1)*(y1-1)/(2*s[2])) / math.Sqrt(2*math.Pi*s[2])
	if math.Abs(integral-want) > 1e-6 {
		t.Errorf("∫ p(y₀, %v) dy₀ = %v, want the marginal density %v", y1, integral, want)
	}
}

// TestMultiLogMarginalIsTheOneTargetLog checks Marginal of a logged
// target against the one-target log model's closed forms: the median
// e^m, the mean e^(m + v/2) of the calibrated log-normal, v = Σ̃₀₀ =
// S₀₀/c₂(ν) (calibration scale 1, Gaussian region), the variance
// (e^C − 1)e^(2m + C) with C the t's ν/(ν−2)·S₀₀, and the density of the
// univariate t of ln y less ln y; that Mean(0) is the marginal's mean and
// that the untransformed target's marginal carries no transform.
// Tolerance 1e-12 relative: closed forms against the code's, a few
// roundings apart.
func TestMultiLogMarginalIsTheOneTargetLog(t *testing.T) {
	p := loggedPair(t, 5)
	q := p.Marginal(0)
	v := 0.16 / mvtCorrectionCheb(2, 5)
	c := 5.0 / 3 * 0.16
	close := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	close("Mean", q.Mean, math.Exp(0.3+v/2))
	close("MultiPrediction.Mean(0)", p.Mean(0), q.Mean)
	close("Var", q.Var, math.Expm1(c)*math.Exp(0.6+c))
	close("VarCorrected", q.VarCorrected, math.Expm1(v)*math.Exp(0.6+v))
	close("Cov(0, 0)", p.Cov(0, 0), q.Var)
	med, err := q.Quantile(0.5)
	if err != nil {
		t.Fatal(err)
	}
	close("median", med, math.Exp(0.3))
	for _, y := range []float64{0.4, 1.3, 5} {
		z := (math.Log(y) - 0.3) / 0.4
		lg1, _ := math.Lgamma(3)
		lg0, _ := math.Lgamma(2.5)
		want := lg1 - lg0 - 0.5*math.Log(5*math.Pi) - math.Log(0.4) - 3*math.Log1p(z*z/5) - math.Log(y)
		close("LogPDF", q.LogPDF(y), want)
	}
	if q.Transform != TransformLog || p.Marginal(1).Transform != TransformNone || p.Mean(1) != 1 {
		t.Errorf("transforms %v and %v, Mean(1) %v; want log, none and the location 1", q.Transform, p.Marginal(1).Transform, p.Mean(1))
	}
}

// TestMultiLogConditionalIsTheDensityRatio checks the conditional of a
// model with a logged target against Bayes' rule in original units,
// p(y_U | y_O) = p(y)/p(y_O), p(y_O) the given target's Marginal density:
// given the logged target, and given the untransformed one, when the
// conditional keeps the logged target's transform. Tolerance 1e-10: log
// densities formed by different routes.
func TestMultiLogConditionalIsTheDensityRatio(t *testing.T) {
	p := loggedPair(t, 6)
	var dst MultiPrediction
	y := []float64{1.7, 0.4}
	for _, g := range []int{0, 1} {
		if err := p.Conditional(&dst, []int{g}, []float64{y[g]}); err != nil {
			t.Fatal(err)
		}
		rest := []float64{y[1-g]}
		want := p.LogPDF(y) - p.Marginal(g).LogPDF(y[g])
		if got := dst.LogPDF(rest); math.Abs(got-want) > 1e-10 {
			t.Errorf("given target %d: LogPDF %v, want %v", g, got, want)
		}
		if tr := dst.Marginal(0).Transform; tr != p.tr[1-g] {
			t.Errorf("given target %d: the other's transform %v, want %v", g, tr, p.tr[1-g])
		}
	}
	if err := p.Conditional(&dst, []int{0}, []float64{-1}); !errors.Is(err, ErrDomain) {
		t.Errorf("given a logged target at −1: %v, want ErrDomain", err)
	}
}

// TestMultiLogDrawsAndRegions draws from a model whose two targets are
// both logged, or one of them: the draws of SampleCalibrated (the
// Gaussian region, scale 1) have the log-normal mean Mean and covariance
// CovCorrected in original units (sampleMoments, within 4 standard
// errors), the draws of Sample fall inside the p-region at rate p, and
// those of SampleCalibrated inside the calibrated one, within 3 binomial
// standard errors; a point outside the log's domain is outside every
// region, at density −Inf and distance +Inf.
func TestMultiLogDrawsAndRegions(t *testing.T) {
	for _, both := range []bool{false, true} {
		p := handMulti(t, 2, []float64{0.3, 1}, []float64{0.3, 0.1, 0.25}, []float64{7}, 1)
		p.tr[0], p.logged = TransformLog, true
		if both {
			p.tr[1] = TransformLog
		}
		r := rand.New(rand.NewPCG(5, 6))
		const n = 40000
		sampleMoments(t, "calibrated", 2, n, func(y []float64) error { return p.SampleCalibrated(y, r) }, p.Mean, p.CovCorrected)
		for _, prob := range []float64{0.5, 0.9} {
			var in, cin int
			y := make([]float64, 2)
			for range n {
				if err := p.Sample(y, r); err != nil || !(y[0] > 0) {
					t.Fatalf("draw %v, %v", y, err)
				}
				if ok, _ := p.Inside(y, prob); ok {
					in++
				}
				_ = p.SampleCalibrated(y, r)
				if ok, _ := p.CalibratedInside(y, prob); ok {
					cin++
				}
			}
			se := math.Sqrt(prob * (1 - prob) / n)
			for name, c := range map[string]int{"Inside": in, "CalibratedInside": cin} {
				if got := float64(c) / n; math.Abs(got-prob) > 3*se {
					t.Errorf("both %v: %s holds %.4f of the draws at %v", both, name, got, prob)
				}
			}
		}
		for _, y := range [][]float64{{0, 1}, {-2, 1}} {
			in, err := p.Inside(y, 0.9)
			cin, cerr := p.CalibratedInside(y, 0.9)
			if in || cin || err != nil || cerr != nil || !math.IsInf(p.LogPDF(y), -1) || !math.IsInf(p.CalibratedLogPDF(y), -1) || !math.IsInf(p.Mahalanobis(y), 1) {
				t.Errorf("%v: inside %v %v (%v %v), LogPDF %v, CalibratedLogPDF %v, Mahalanobis %v", y, in, cin, err, cerr, p.LogPDF(y), p.CalibratedLogPDF(y), p.Mahalanobis(y))
			}
		}
		if v := p.LogPDF([]float64{math.NaN(), 1}); !math.IsNaN(v) {
			t.Errorf("LogPDF at NaN: %v", v)
		}
	}
}

// TestMultiLogCorrIsTheLogNormalOne checks Corr under log transforms
// against the log-normal correlations of the corrected Gaussian written
// out: (e^Σ̃₀₁ − 1)/√((e^Σ̃₀₀ − 1)(e^Σ̃₁₁ − 1)) for two logged targets and
// Σ̃₀₁/√((e^Σ̃₀₀ − 1)Σ̃₁₁) for a logged target 0 alone. Tolerance 1e-12
// relative.
func TestMultiLogCorrIsTheLogNormalOne(t *testing.T) {
	p := loggedPair(t, 5)
	c := mvtCorrectionCheb(2, 5)
	s00, s01, s11 := 0.16/c, 0.08/c, 0.29/c
	want := s01 / math.Sqrt(math.Expm1(s00)*s11)
	if got := p.Corr(0, 1); math.Abs(got-want) > 1e-12*want {
		t.Errorf("one logged: Corr %v, want %v", got, want)
	}
	p.tr[1] = TransformLog
	want = math.Expm1(s01) / math.Sqrt(math.Expm1(s00)*math.Expm1(s11))
	if got := p.Corr(1, 0); math.Abs(got-want) > 1e-12*want {
		t.Errorf("both logged: Corr %v, want %v", got, want)
	}
}

// TestSetTargetTransforms checks the setter's errors (the model left as
// it was) and that a model's logged predictions are those of its
// untransformed predictions mapped: Mean(0) = e^(m₀ + v₀/2), Mean(1)
// unchanged, LogPDF less ln y₀; and that predicting allocates nothing.
func TestSetTargetTransforms(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 3, Hidden: []int{5}, Targets: 3, Seed: 4})
	one := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{3}})
	for name, c := range map[string]struct{ err, want error }{
		"length":  {m.SetTargetTransforms([]TargetTransform{TransformLog}), ErrShape},
		"unknown": {m.SetTargetTransforms([]TargetTransform{TransformLog, 7, TransformNone}), ErrConfig},
		"one":     {one.SetTargetTransforms([]TargetTransform{TransformLog}), ErrShape},
	} {
		if !errors.Is(c.err, c.want) || m.TargetTransforms() != nil {
			t.Errorf("%s: %v, want %v; transforms %v", name, c.err, c.want, m.TargetTransforms())
		}
	}
	ws, x, y := m.NewWorkspace(), []float64{0.2, -1, 0.5}, []float64{2.5, 1, 3}
	var z, p MultiPrediction
	if err := m.PredictMulti(ws, x, &z); err != nil {
		t.Fatal(err)
	}
	if err := m.SetTargetTransforms([]TargetTransform{TransformLog, TransformNone, TransformNone}); err != nil {
		t.Fatal(err)
	}
	if got := m.TargetTransforms(); len(got) != 3 || got[0] != TransformLog || got[1] != TransformNone {
		t.Errorf("TargetTransforms() = %v", got)
	}
	if err := m.PredictMulti(ws, x, &p); err != nil {
		t.Fatal(err)
	}
	zy := []float64{math.Log(y[0]), y[1], y[2]}
	if got, want := p.LogPDF(y), z.LogPDF(zy)-zy[0]; math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogPDF %v, want %v", got, want)
	}
	if got, want := p.Mean(0), math.Exp(z.Mean(0)+z.Marginal(0).VarCorrected/2); math.Abs(got-want) > 1e-12*want || p.Mean(1) != z.Mean(1) {
		t.Errorf("Mean %v, %v; want %v, %v", got, p.Mean(1), want, z.Mean(1))
	}
	if n := testing.AllocsPerRun(50, func() {
		if err := m.PredictMulti(ws, x, &p); err != nil {
			t.Fatal(err)
		}
		in, _ := p.Inside(y, 0.9)
		sinkLoss = p.LogPDF(y) + p.CalibratedLogPDF(y) + p.Mean(0) + p.Corr(0, 1) + p.Marginal(0).Mean
		if in {
			sinkLoss++
		}
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
	if err := m.SetTargetTransforms(nil); err != nil || m.TargetTransforms() != nil {
		t.Errorf("nil: %v, %v", err, m.TargetTransforms())
	}
}

// TestMultiLogPDFOfAFarPointIsMinusInf checks the Gaussian comparator's
// log density where it is below the least float64: −q/2 with q = 1e600
// (y 1e300 scales out) is −Inf, for one network and for an ensemble.
// regression: LogPDF returned NaN, the mixture's sum taking e^(−Inf+Inf).
func TestMultiLogPDFOfAFarPointIsMinusInf(t *testing.T) {
	for _, members := range []int{1, 2} {
		p := handMulti(t, 2, make([]float64, 2*members), []float64{1, 0.3, 1, 1, 0.3, 1}[:3*members], []float64{math.Inf(1), math.Inf(1)}[:members], 1)
		if got := p.LogPDF([]float64{1e300, 0}); !math.IsInf(got, -1) {
			t.Errorf("members=%d: LogPDF = %v, want -Inf", members, got)
		}
	}
}

// TestMultiCorrAtExtremeScales checks Corr where the variances' product
// leaves the float64 range, Cholesky factors 1e150 and 1e-150 times
// (1 0; 0.3 1): the correlation is that of the unscaled S, 0.3/√1.09, for
// one network and an ensemble of two equal members. Tolerance 1e-15: a
// few roundings. regression: Corr returned 0 and +Inf there.
func TestMultiCorrAtExtremeScales(t *testing.T) {
	want := 0.3 / math.Sqrt(1.09)
	for _, f := range []float64{1e150, 1e-150} {
		for _, members := range []int{1, 2} {
			chol := []float64{f, 0.3 * f, f, f, 0.3 * f, f}[:3*members]
			p := handMulti(t, 2, make([]float64, 2*members), chol, []float64{5, 5}[:members], 1)
			if got := p.Corr(0, 1); !(math.Abs(got-want) <= 1e-15) {
				t.Errorf("scale %g, members=%d: Corr = %v, want %v", f, members, got, want)
			}
		}
	}
}

// TestMultiLogPDFNearTheGaussianLimit pins the t's log density at
// ν = 1e6, 1e12 and 1e300 against the Gaussian's of the same scale S
// (gaussLogDensity, an independent solve) and the first term of their
// difference as ν → ∞, worked by hand from lnΓ(a + h) − lnΓ(a) − h·ln a
// = h(h−1)/(2a) + O(a⁻²) (a = ν/2, h = d/2) and ((ν+d)/2)·ln(1 + q/ν) =
// q/2 + d·q/(2ν) − q²/(4ν) + O(ν⁻²): ℓ_t − ℓ_G = ((q − d)² − 2d)/(4ν).
// Tolerance: 1e-12·(1 + |ℓ|) for the roundings of two routes, plus
// 10·(q + d)³/ν² for the terms left out.
func TestMultiLogPDFNearTheGaussianLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{1, 2, 16} {
		for _, nu := range []float64{1e6, 1e12, 1e300} {
			p := randomMulti(t, r, d, 1, nu, 1)
			y := make([]float64, d)
			for i := range y {
				y[i] = p.Mean(i) + r.NormFloat64()
			}
			e := make([]float64, d)
			for i := range e {
				e[i] = y[i] - p.loc[i]
			}
			q, fd := dot(e, solve(fullScale(p.chol, d), e, d)), float64(d)
			gauss := gaussLogDensity(y, p.loc, p.chol)
			want := gauss + ((q-fd)*(q-fd)-2*fd)/(4*p.nu[0])
			tol := 1e-12*(1+math.Abs(want)) + 10*math.Pow(q+fd, 3)/(p.nu[0]*p.nu[0])
			if got := p.LogPDF(y); !(math.Abs(got-want) <= tol) {
				t.Errorf("d=%d ν=%g: LogPDF = %.17g, want %.17g ± %.2g", d, p.nu[0], got, want, tol)
			}
		}
	}
}

// gaussianPair returns a single Gaussian's prediction of two targets by
// hand (handMulti) with location (mi, mj) and covariance [[cii, cij],
// [cij, cjj]], target 0 logged, and target 1 too if both.
func gaussianPair(t *testing.T, mi, mj, cii, cjj, cij float64, both bool) *MultiPrediction {
	t.Helper()
	l10 := cij / math.Sqrt(cii)
	p := handMulti(t, 2, []float64{mi, mj}, []float64{math.Sqrt(cii), l10, math.Sqrt(cjj - l10*l10)}, []float64{math.Inf(1)}, 1)
	p.tr[0], p.logged = TransformLog, true
	if both {
		p.tr[1] = TransformLog
	}
	return p
}

// TestMultiLogCovAndCorrAtExtremes checks Cov, CovCorrected and Corr of
// logged targets against mpmath (testdata/gen_lognormal.py) where e^m or
// e^Σ̃ alone leaves float64: locations of ±700, variances of 750 to 1e4
// and of 1e-300. Corr is finite there, in [−1, 1], as the locations and
// the scales cancel. Tolerance 1e-10: exponents up to 1e4, whose Cholesky
// round trip and rounding (1e4·2⁻⁵² ≈ 2e-12, a few times) pass into the
// value relatively.
func TestMultiLogCovAndCorrAtExtremes(t *testing.T) {
	// regression: e^(m_i + Σ̃_ii/2) or e^Σ̃_ij − 1 overflowed alone, and
	// Corr was NaN, 0 or +Inf.
	for _, r := range loadLogNormalRefs(t) {
		a := r.arg
		switch r.kind {
		case "cov":
			p := gaussianPair(t, a[0], a[1], a[2], a[3], a[4], true)
			if got, gotC := p.Cov(0, 1), p.CovCorrected(0, 1); !closeRel(got, r.value, 1e-10) || !closeRel(gotC, r.value, 1e-10) {
				t.Errorf("cov %v: Cov %v, CovCorrected %v, want %v", a, got, gotC, r.value)
			}
		case "corr", "mixed":
			for _, m := range []float64{0, 700, -700} {
				p := gaussianPair(t, m, m, a[0], a[1], a[2], r.kind == "corr")
				if got := p.Corr(0, 1); !closeRel(got, r.value, 1e-10) {
					t.Errorf("%s %v at m = %g: Corr %v, want %v", r.kind, a, m, got, r.value)
				}
				if got := p.Corr(0, 0); got != 1 {
					t.Errorf("%s %v at m = %g: Corr(0, 0) = %v", r.kind, a, m, got)
				}
			}
		}
	}
}

// TestMarginalOfAHugeScaleWithManyDoF: a marginal whose β = S_ii·ν/4
// overflows while S_ii and ν are finite answers as the same marginal
// scaled down by a power of two c does, scaled back: Mean, quantiles and
// interval bounds times c, Var and VarCorrected times c², the CDF at c·y
// the CDF at y, the log density at c·y that at y less ln c, the CRPS times
// c (the t is a location-scale family, and a power of two scales
// exactly). Before its fix the marginal at S_ii = 2¹⁰⁰⁰·O(1) and ν = 10¹⁰
// had β = +Inf, intervals (−Inf, +Inf), CDF 0.5, LogPDF −Inf and CRPS
// +Inf. For single networks, a three-member ensemble, and a conditional
// of that ensemble (its marginal, a moment-matched t, the β of
// Var·(α−1)/2). Tolerances: 1e-13 relative for what the scale forms (its
// square root taken in two factors where σ overflows, a few roundings
// apart), 1e-14 absolute for the CDF, 1e-11 absolute for log densities
// of magnitude up to 700 (ln c and ν-sized terms cancel), 1e-9 relative
// for an ensemble's CRPS, integrated to 1e-10 per side; for the
// conditional at least 1e-12, its members' weights being formed from log
// densities of magnitude 700 (measured 4e-14 relative on its Mean).
func TestMarginalOfAHugeScaleWithManyDoF(t *testing.T) {
	build := func(c float64, members int, nu float64) *MultiPrediction {
		loc := []float64{0.3, -1, 0.5, 0.2, -0.4, 1.1}[:2*members]
		chol := []float64{1.2, 0.4, 0.9, 1.1, -0.3, 1.3, 0.8, 0.5, 1}[:3*members]
		nus := []float64{nu, 0.7 * nu, 1.3 * nu}[:members]
		for i := range loc {
			loc[i] *= c
		}
		for i := range chol {
			chol[i] *= c
		}
		return handMulti(t, 2, loc, chol, nus, 1.1)
	}
	for _, cs := range []struct{ k, nu float64 }{{500, 1e10}, {500, 1e20}, {480, 1e150}, {20, 1e300}} {
		c := math.Ldexp(1, int(cs.k))
		for _, members := range []int{1, 3} {
			small, big := build(1, members, cs.nu), build(c, members, cs.nu)
			pairs := [][2]Prediction{{small.Marginal(1), big.Marginal(1)}}
			if members > 1 {
				var cs, cb MultiPrediction
				if err := small.Conditional(&cs, []int{0}, []float64{0.1}); err != nil {
					t.Fatal(err)
				}
				if err := big.Conditional(&cb, []int{0}, []float64{0.1 * c}); err != nil {
					t.Fatal(err)
				}
				pairs = append(pairs, [2]Prediction{cs.Marginal(0), cb.Marginal(0)})
			}
			for n, pr := range pairs {
				s, b := pr[0], pr[1]
				name := fmt.Sprintf("c = 2^%v, ν = %v, members %d, case %d", cs.k, cs.nu, members, n)
				if math.IsInf(s.Beta, 0) || math.IsInf(b.Beta, 0) || !(b.Nu > 0) {
					t.Errorf("%s: β %v and %v, κ %v", name, s.Beta, b.Beta, b.Nu)
				}
				floor := 0.0
				if n == 1 { // the members' weights from log densities of magnitude 700
					floor = 1e-12
				}
				rel := func(what string, got, want, tol float64) {
					if !(math.Abs(got-want) <= max(tol, floor)*math.Abs(want)) {
						t.Errorf("%s: %s %v, want %v", name, what, got, want)
					}
				}
				rel("Mean", b.Mean, c*s.Mean, 0)
				rel("Var", b.Var, c*c*s.Var, 1e-15)
				rel("VarCorrected", b.VarCorrected, c*c*s.VarCorrected, 1e-15)
				for _, level := range []float64{0.5, 0.95, 0.999999} {
					sl, sh, _ := s.Interval(level)
					bl, bh, _ := b.Interval(level)
					rel("interval's lower bound", bl, c*sl, 1e-13)
					rel("interval's upper bound", bh, c*sh, 1e-13)
				}
				sq, _ := s.Quantile(0.9)
				bq, _ := b.Quantile(0.9)
				rel("Quantile(0.9)", bq, c*sq, 1e-13)
				for _, z := range []float64{0, 1.3, -4, 30} {
					y := s.Mean + z*math.Sqrt(s.Var)
					if d := math.Abs(b.CDF(c*y) - s.CDF(y)); !(d <= max(1e-14, floor)) {
						t.Errorf("%s: CDF at z = %v: %v, want %v", name, z, b.CDF(c*y), s.CDF(y))
					}
					if d := math.Abs(b.LogPDF(c*y) + math.Log(c) - s.LogPDF(y)); !(d <= 1e-11) {
						t.Errorf("%s: LogPDF at z = %v: %v, want %v − ln c", name, z, b.LogPDF(c*y), s.LogPDF(y))
					}
					tol := 1e-13
					if b.Members > 1 {
						tol = 1e-9
					}
					rel(fmt.Sprintf("CRPS at z = %v", z), b.CRPS(c*y), c*s.CRPS(y), tol)
				}
			}
		}
	}
}

// TestMarginalLogPDFFarOut: the log density of a single network's
// marginal, a t of ν degrees of freedom and squared scale S, at a y so
// many scales out that (y − m)/√(2σ) overflows (S = 10⁻³⁰⁰, y − m up to
// 10³⁰⁰: 10⁴⁵⁰ scales), is the closed form
// lnΓ((ν+1)/2) − lnΓ(ν/2) − ½·ln(νπS) − ((ν+1)/2)·ln(1 + (y−m)²/(νS)),
// the last logarithm taken as 2·ln|y − m| − ln(νS) where its argument
// overflows (exact to 10⁻³⁰⁰ relative there). It was −Inf. Tolerance
// 1e-13 relative: values of magnitude 10³ to 10⁴ from a few logarithms.
func TestMarginalLogPDFFarOut(t *testing.T) {
	for _, nu := range []float64{2.5, 5, 40} {
		const m = 1.0
		s := 1e-300
		p := handMulti(t, 2, []float64{m, 2}, []float64{1e-150, 0.3, 1}, []float64{nu}, 1)
		q := p.Marginal(0)
		for _, y := range []float64{1e300, -1e300, 1e-100, m + 1e-140} {
			r := math.Abs(y - m)
			lnTail := math.Log1p(r * r / (nu * s))
			if math.IsInf(r*r/(nu*s), 1) {
				lnTail = 2*math.Log(r) - math.Log(nu*s)
			}
			lg1, _ := math.Lgamma((nu + 1) / 2)
			lg0, _ := math.Lgamma(nu / 2)
			want := lg1 - lg0 - 0.5*math.Log(nu*math.Pi*s) - (nu+1)/2*lnTail
			if got := q.LogPDF(y); !(math.Abs(got-want) <= 1e-13*math.Abs(want)) {
				t.Errorf("ν = %v, y = %v: LogPDF %v, want %v", nu, y, got, want)
			}
		}
	}
}

// TestMultiAtInfiniteTargets: a target vector with infinite entries lies
// infinitely far from every predictive, the limit of |y| → ∞: Mahalanobis
// and CalibratedMahalanobis +Inf, LogPDF and CalibratedLogPDF −Inf,
// outside every region; with a NaN beside them, NaN. Two infinite
// entries gave NaN (∞ − ∞ in the standardization), and the ensemble's
// LogPDF at (+Inf, −Inf) NaN; SampleCalibrated draws such vectors where
// its RegionNu is tiny.
func TestMultiAtInfiniteTargets(t *testing.T) {
	inf := math.Inf(1)
	for _, members := range []int{1, 3} {
		for _, nu := range []float64{5, inf} {
			for _, logged := range []bool{false, true} {
				p := handMulti(t, 2, []float64{1, 2, 0.5, 1.5, 0.8, 2.2}[:2*members],
					[]float64{1, 0.3, 1, 1.1, 0.2, 0.9, 0.8, -0.1, 1.2}[:3*members], []float64{nu, nu, nu}[:members], 1.2)
				p.regionNu = 4
				if logged {
					p.tr[1], p.logged = TransformLog, true
				}
				name := fmt.Sprintf("members %d, ν = %v, logged %v", members, nu, logged)
				for _, y := range [][]float64{{inf, 1}, {1, inf}, {inf, inf}, {-inf, -inf}, {inf, -inf}, {-inf, inf}} {
					in, err := p.Inside(y, 0.9)
					cin, cerr := p.CalibratedInside(y, 0.9)
					if m, cm := p.Mahalanobis(y), p.CalibratedMahalanobis(y); m != inf || cm != inf {
						t.Errorf("%s, y = %v: Mahalanobis %v, calibrated %v, want +Inf", name, y, m, cm)
					}
					if l, cl := p.LogPDF(y), p.CalibratedLogPDF(y); l != -inf || cl != -inf {
						t.Errorf("%s, y = %v: LogPDF %v, calibrated %v, want −Inf", name, y, l, cl)
					}
					if in || cin || err != nil || cerr != nil {
						t.Errorf("%s, y = %v: inside %v, %v (%v, %v), want outside", name, y, in, cin, err, cerr)
					}
				}
				y := []float64{math.NaN(), inf}
				if m, l := p.Mahalanobis(y), p.LogPDF(y); !math.IsNaN(m) || !math.IsNaN(l) {
					t.Errorf("%s, y = %v: Mahalanobis %v, LogPDF %v, want NaN", name, y, m, l)
				}
			}
		}
	}
}
