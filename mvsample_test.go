package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// sampleMoments draws n target vectors with draw and checks their mean
// against mean(i) and their covariance against cov(i, j), each within 4
// standard errors estimated from the draws themselves (a product's
// variance needs the fourth moments, finite for ν > 4), and returns the
// draws.
func sampleMoments(t *testing.T, name string, d, n int, draw func([]float64) error, mean func(int) float64, cov func(i, j int) float64) [][]float64 {
	t.Helper()
	ys := make([][]float64, n)
	for s := range ys {
		ys[s] = make([]float64, d)
		if err := draw(ys[s]); err != nil {
			t.Fatal(err)
		}
	}
	// within returns whether the sample mean of g is within 4 standard
	// errors of want.
	within := func(g func(y []float64) float64, want float64) (float64, float64, bool) {
		var m, v float64
		for _, y := range ys {
			m += g(y)
		}
		m /= float64(n)
		for _, y := range ys {
			v += (g(y) - m) * (g(y) - m)
		}
		se := math.Sqrt(v / float64(n) / float64(n))
		return m, se, math.Abs(m-want) <= 4*se
	}
	for i := range d {
		if m, se, ok := within(func(y []float64) float64 { return y[i] }, mean(i)); !ok {
			t.Errorf("%s: mean %d is %.4f, want %.4f within 4·%.4f", name, i, m, mean(i), se)
		}
		for j := range i + 1 {
			g := func(y []float64) float64 { return (y[i] - mean(i)) * (y[j] - mean(j)) }
			if m, se, ok := within(g, cov(i, j)); !ok {
				t.Errorf("%s: covariance (%d, %d) is %.4f, want %.4f within 4·%.4f", name, i, j, m, cov(i, j), se)
			}
		}
	}
	return ys
}

// TestSampleMomentsAndRegions draws from a single network's t (ν from 6
// to 10, so that the fourth moments the covariance's error needs exist)
// and checks the sample mean against m and the covariance against
// ν/(ν−2)·S, and that the draws fall inside the t's p-region at rate p
// within 3 binomial standard errors, p = 0.5, 0.9, 0.95, for d = 2 and 5;
// likewise SampleCalibrated against the calibrated predictive, a t of
// RegionNu = 7 degrees of freedom and covariance
// (7/5)·RegionScale·CovCorrected, and CalibratedInside. The regions' radii are checked against mpmath
// (TestMvtRegionRadiusMatchesMpmath), so a wrong ν, scale or chi-square
// draw shows here: drawing W with ν + 2 degrees of freedom put 0.95 of
// d = 5's draws in the 0.9 region.
func TestSampleMomentsAndRegions(t *testing.T) {
	const n = 20000
	r := rand.New(rand.NewPCG(11, 12))
	for _, d := range []int{2, 5} {
		p := randomMulti(t, r, d, 1, 6, 1.6)
		p.regionNu = 7
		checks := []struct {
			name   string
			draw   func([]float64) error
			cov    func(i, j int) float64
			inside func([]float64, float64) (bool, error)
		}{
			{"Sample", func(y []float64) error { return p.Sample(y, r) }, p.Cov, p.Inside},
			{"SampleCalibrated", func(y []float64) error { return p.SampleCalibrated(y, r) },
				func(i, j int) float64 { return 7.0 / 5 * p.RegionScale() * p.CovCorrected(i, j) }, p.CalibratedInside},
		}
		for _, c := range checks {
			ys := sampleMoments(t, c.name, d, n, c.draw, p.Mean, c.cov)
			for _, prob := range []float64{0.5, 0.9, 0.95} {
				in := 0
				for _, y := range ys {
					if ok, err := c.inside(y, prob); err != nil {
						t.Fatal(err)
					} else if ok {
						in++
					}
				}
				rate, se := float64(in)/n, math.Sqrt(prob*(1-prob)/n)
				if math.Abs(rate-prob) > 3*se {
					t.Errorf("%s d=%d: %.4f of the draws in the %v region, want within %.4f", c.name, d, rate, prob, 3*se)
				}
			}
		}
	}
}

// TestSampleEnsemble draws from an ensemble's mixture, and from a
// conditional of it whose members weigh differently, and checks the
// sample mean and covariance against Mean and Cov (the law of total
// covariance over the members, weighted), which a wrong pick of the
// members breaks: picking them uniformly in the conditional moved its
// mean by 18 standard errors. SampleCalibrated is checked against the
// calibrated predictive's covariance, ν/(ν−2)·RegionScale·CovCorrected
// for the ensemble's RegionNu ν = 7 and the conditional's 8.
func TestSampleEnsemble(t *testing.T) {
	const n = 20000
	r := rand.New(rand.NewPCG(13, 14))
	p := randomMulti(t, r, 3, 4, 6, 0.8)
	p.regionNu = 7
	var c MultiPrediction
	if err := p.Conditional(&c, []int{1}, []float64{p.Mean(1) + 2}); err != nil {
		t.Fatal(err)
	}
	for name, q := range map[string]*MultiPrediction{"ensemble": p, "conditional": &c} {
		sampleMoments(t, name, q.Dim(), n, func(y []float64) error { return q.Sample(y, r) }, q.Mean, q.Cov)
		sampleMoments(t, name+" calibrated", q.Dim(), n, func(y []float64) error { return q.SampleCalibrated(y, r) }, q.Mean,
			func(i, j int) float64 {
				return q.RegionNu() / (q.RegionNu() - 2) * q.RegionScale() * q.CovCorrected(i, j)
			})
	}
}

// TestSampleBadInput checks Sample's and SampleCalibrated's errors.
func TestSampleBadInput(t *testing.T) {
	p := randomMulti(t, rand.New(rand.NewPCG(15, 16)), 3, 1, 3, 1)
	r := rand.New(rand.NewPCG(1, 1))
	for _, f := range []func([]float64, *rand.Rand) error{p.Sample, p.SampleCalibrated} {
		if err := f(make([]float64, 2), r); !errors.Is(err, ErrShape) {
			t.Errorf("2 entries for 3 targets: %v, want ErrShape", err)
		}
		if err := f(make([]float64, 3), nil); !errors.Is(err, ErrConfig) {
			t.Errorf("nil source: %v, want ErrConfig", err)
		}
	}
}

// BenchmarkSample draws from a 5-target t.
func BenchmarkSample(b *testing.B) {
	p := randomMulti(b, rand.New(rand.NewPCG(25, 26)), 5, 1, 3, 1)
	r, y := rand.New(rand.NewPCG(1, 2)), make([]float64, 5)
	b.ReportAllocs()
	for range b.N {
		_ = p.Sample(y, r)
	}
}

// TestGammaVariateMoments: 200,000 draws of the gamma law of shape a have
// mean a and variance a, within 4 standard errors (the sample variance's
// is √((μ₄ − σ⁴)/n) with the law's central fourth moment μ₄ = 3a² + 6a),
// for a below and above 1, the two branches.
func TestGammaVariateMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200000
	for _, a := range []float64{0.3, 2.5} {
		var s, s2 float64
		for range n {
			x := gammaVariate(r, a)
			s += x / n
			s2 += x * x / n
		}
		v := s2 - s*s
		if math.Abs(s-a) > 4*math.Sqrt(a/n) || math.Abs(v-a) > 4*math.Sqrt((2*a*a+6*a)/n) {
			t.Errorf("shape %v: mean %v, variance %v, want %v and %v", a, s, v, a, a)
		}
	}
}

// TestSampleCalibratedWithTinyNu draws from a calibrated region of two
// targets whose RegionNu is far below 1 and checks the law of the draws'
// calibrated distance M against its closed form: for d = 2,
// M² = χ²₂/(W/ν) with W chi-square of ν degrees of freedom, and
// P(M² > x) = E[e^(−xW/(2ν))] = (1 + x/ν)^(−ν/2), the Laplace transform
// of W. The thresholds run past float64 (x up to 10⁶⁰⁰, compared as
// M > √x), where the draws are huge but mostly finite (a draw beyond
// float64, ±Inf, is at M = +Inf, beyond them all); each share is within
// 4 binomial standard errors. Drawing W directly, it underflowed to
// 0 for one draw in 41 at ν = 0.01 and the draw was ±Inf: 2.83% of the
// draws had M > 10³⁰⁰, where the law puts 0.098% (at ν = 0.002, 48.5%
// against 25.0%).
func TestSampleCalibratedWithTinyNu(t *testing.T) {
	const n = 40000
	r := rand.New(rand.NewPCG(31, 32))
	p := handMulti(t, 2, []float64{1, -2}, []float64{0.8, 0.3, 1.1}, []float64{7}, 1.4)
	y := make([]float64, 2)
	for _, nu := range []float64{1.5, 0.3, 0.05, 0.01, 0.002} {
		p.regionNu = nu
		lnX := []float64{0, 10, 100, 300, 400, 600} // x = 10^lnX
		above := make([]int, len(lnX))
		inf := 0
		for range n {
			if err := p.SampleCalibrated(y, r); err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(y[0]) || math.IsNaN(y[1]) {
				t.Fatalf("ν = %v: draw %v", nu, y)
			}
			m := p.CalibratedMahalanobis(y) // +Inf for a draw beyond float64
			if math.IsInf(y[0], 0) || math.IsInf(y[1], 0) {
				inf++
			}
			for i, e := range lnX {
				if m > math.Pow(10, e/2) {
					above[i]++
				}
			}
		}
		for i, e := range lnX {
			// ln P = −(ν/2)·ln(1 + x/ν), x/ν beyond float64 taken in logs.
			lnRatio := e*math.Ln10 - math.Log(nu)
			want := math.Exp(-nu / 2 * (lnRatio + math.Log1p(math.Exp(-lnRatio))))
			got, se := float64(above[i])/n, math.Sqrt(want*(1-want)/n)
			if math.Abs(got-want) > 4*se+1/float64(n) {
				t.Errorf("ν = %v: P(M² > 1e%v) = %.5f, want %.5f within 4·%.5f", nu, e, got, want, se)
			}
		}
		t.Logf("ν = %v: %d of %d draws ±Inf", nu, inf, n)
	}
}
