package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCVCoverage95OfChiSquare: distances drawn from χ²₃ (the calibrated
// case) are covered at 0.95 within 3 standard errors of 4,000 rows, and
// the scale fitted to them is 1 within 0.05 (its sampling error is about
// √(2/12000) ≈ 1.3%, a little more with ν fitted).
func TestCVCoverage95OfChiSquare(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	q := make([]float64, 4000)
	for i := range q {
		for range 3 {
			g := r.NormFloat64()
			q[i] += g * g
		}
	}
	se := math.Sqrt(0.95 * 0.05 / float64(len(q)))
	if got := cvCoverage95(q, q, 3, len(q)); math.Abs(got-0.95) > 3*se {
		t.Errorf("cvCoverage95 = %.4f, want 0.95 ± %.4f", got, 3*se)
	}
	if c, _ := calibrateRegion(q, 3, len(q)); math.Abs(c-1) > 0.05 {
		t.Errorf("calibrated scale = %v, want 1 ± 0.05", c)
	}
}

// TestCalibratedInsideBadInput: a level outside (0, 1) is ErrLevel, a y of
// the wrong length ErrShape; a model not calibrated has scale 1 and the
// calibrated distance equals Mahalanobis.
func TestCalibratedInsideBadInput(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Seed: 1})
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), []float64{0.1, 0.2}, &p); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CalibratedInside([]float64{0, 0}, 1); !errors.Is(err, ErrLevel) {
		t.Errorf("p = 1: err = %v, want ErrLevel", err)
	}
	if _, err := p.CalibratedInside([]float64{0}, 0.5); !errors.Is(err, ErrShape) {
		t.Errorf("one target: err = %v, want ErrShape", err)
	}
	if y := []float64{0.3, -0.2}; p.RegionScale() != 1 || p.CalibratedMahalanobis(y) != p.Mahalanobis(y) {
		t.Errorf("scale %v, distances %v and %v: want 1 and equal", p.RegionScale(), p.CalibratedMahalanobis(y), p.Mahalanobis(y))
	}
}

// predictedAt returns the prediction of m at the input x.
func predictedAt(t *testing.T, m *Model[float64], x []float64) *MultiPrediction {
	t.Helper()
	var p MultiPrediction
	if err := m.PredictMulti(m.NewWorkspace(), x, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

// regionTruth draws target vectors from the multivariate t t_ν(Mean,
// k·CovCorrected) of a prediction p (the Gaussian N(Mean, k·CovCorrected)
// for ν = 0): the truth of a model whose Σ̃ has the right shape but the
// wrong scale and, for ν > 0, the wrong tails.
type regionTruth struct {
	p     *MultiPrediction
	k     float64
	nu    int
	chol  []float64 // the packed factor of CovCorrected, by the test's own elimination
	r     *rand.Rand
	y, yz []float64
}

func newRegionTruth(p *MultiPrediction, k float64, nu int, seed uint64) *regionTruth {
	d := p.Dim()
	l := make([]float64, d*(d+1)/2)
	for i := range d {
		for j := range i + 1 {
			s := p.CovCorrected(i, j)
			for c := range j {
				s -= l[i*(i+1)/2+c] * l[j*(j+1)/2+c]
			}
			if i == j {
				l[i*(i+1)/2+i] = math.Sqrt(s)
			} else {
				l[i*(i+1)/2+j] = s / l[j*(j+1)/2+j]
			}
		}
	}
	return &regionTruth{p: p, k: k, nu: nu, chol: l, r: rand.New(rand.NewPCG(seed, 5)), y: make([]float64, d), yz: make([]float64, d)}
}

// draw returns a new target vector (reused by the next draw).
func (g *regionTruth) draw() []float64 {
	d := len(g.y)
	f := math.Sqrt(g.k)
	if g.nu > 0 {
		f *= math.Sqrt(float64(g.nu) / chiSquareDraw(g.r, g.nu))
	}
	for i := range g.yz {
		g.yz[i] = g.r.NormFloat64()
	}
	for i := range d {
		g.y[i] = g.p.Mean(i)
		for c := range i + 1 {
			g.y[i] += f * g.chol[i*(i+1)/2+c] * g.yz[c]
		}
	}
	return g.y
}

// TestCalibratedAndConformalRegionsCoverMonteCarlo is the Monte Carlo
// check of the joint regions at every level: for a prediction of a single
// network and of an ensemble, with d = 2 and 5 targets, whose truth is a t
// of 5 degrees of freedom with scale 3·Σ̃ or a Gaussian of covariance
// 0.4·Σ̃, the calibrated region (s and ν fitted to 3,000 calibration
// rows' distances, as AutoFit fits them) and the conformal region (those
// rows' distances) hold 50%, 90% and 95% of 6,000 new rows, within 3
// standard errors: √(p(1−p)(1/3,000 + 1/6,000)), the new rows' binomial
// error and the calibration rows' (the conformal region's coverage given
// its calibration is Beta with variance about p(1−p)/n; the likelihood
// fit's is no larger, since it uses every row).
// regression: the Gaussian region matched at 95% (the calibration before
// ν) held 0.65–0.78 at 50% and 0.92–0.94 at 90% on the t truth.
func TestCalibratedAndConformalRegionsCoverMonteCarlo(t *testing.T) {
	const nCal, nNew = 3000, 6000
	levels := []float64{0.5, 0.9, 0.95}
	for _, members := range []int{1, 3} {
		for _, d := range []int{2, 5} {
			m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{4}, Targets: d, Members: members, Seed: uint64(d + members)})
			for _, truth := range []struct {
				k  float64
				nu int
			}{{3, 5}, {0.4, 0}} {
				p := predictedAt(t, m, []float64{0.3, -0.7})
				g := newRegionTruth(p, truth.k, truth.nu, uint64(10*d+members))
				q := make([]float64, nCal)
				for i := range q {
					r := p.Mahalanobis(g.draw())
					q[i] = r * r
				}
				p.regionScale, p.regionNu = calibrateRegion(q, d, nCal)
				p.conformal = jointConformalScores(q)
				cal, conf := make([]int, len(levels)), make([]int, len(levels))
				for range nNew {
					y := g.draw()
					for k, l := range levels {
						if in, err := p.CalibratedInside(y, l); err != nil {
							t.Fatal(err)
						} else if in {
							cal[k]++
						}
						if in, err := p.ConformalInside(y, l); err != nil {
							t.Fatal(err)
						} else if in {
							conf[k]++
						}
					}
				}
				for k, l := range levels {
					se := math.Sqrt(l * (1 - l) * (1.0/nCal + 1.0/nNew))
					for _, c := range []struct {
						name string
						in   int
					}{{"calibrated", cal[k]}, {"conformal", conf[k]}} {
						if got := float64(c.in) / nNew; math.Abs(got-l) > 3*se {
							t.Errorf("members %d, d = %d, truth ν = %d, k = %v: %s %v region holds %.4f, want %v ± %.4f (fitted s %.3f, ν %.3g)",
								members, d, truth.nu, truth.k, c.name, l, got, l, 3*se, p.regionScale, p.regionNu)
						}
					}
				}
			}
		}
	}
}

// TestCalibratedLogPDFIsTheRegionsDensity checks CalibratedLogPDF against
// the density of t_ν(m, s·Σ̃) written out for d = 2 from CovCorrected's
// entries (the determinant and the inverse by hand), with
// lnΓ((ν+d)/2) − lnΓ(ν/2) = ln(ν/2) at d = 2, for a single network and an
// ensemble, a finite ν and the Gaussian; and that RegionNu is +Inf and the
// scale 1 for a model AutoFit did not calibrate.
func TestCalibratedLogPDFIsTheRegionsDensity(t *testing.T) {
	for _, members := range []int{1, 2} {
		m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 2, Members: members, Seed: 4})
		p := predictedAt(t, m, []float64{0.4, 1.1})
		if !math.IsInf(p.RegionNu(), 1) || p.RegionScale() != 1 {
			t.Errorf("uncalibrated: RegionNu %v, RegionScale %v, want +Inf and 1", p.RegionNu(), p.RegionScale())
		}
		y := []float64{p.Mean(0) + 0.7, p.Mean(1) - 1.3}
		for _, c := range []struct{ s, nu float64 }{{1.8, 3.5}, {0.6, math.Inf(1)}} {
			p.regionScale, p.regionNu = c.s, c.nu
			a, b, e := c.s*p.CovCorrected(0, 0), c.s*p.CovCorrected(0, 1), c.s*p.CovCorrected(1, 1)
			det := a*e - b*b
			e0, e1 := y[0]-p.Mean(0), y[1]-p.Mean(1)
			q := (e*e0*e0 - 2*b*e0*e1 + a*e1*e1) / det
			want := -math.Log(2*math.Pi) - 0.5*math.Log(det) - q/2
			if !math.IsInf(c.nu, 1) {
				want = math.Log(c.nu/2) - math.Log(c.nu*math.Pi) - 0.5*math.Log(det) - (c.nu+2)/2*math.Log1p(q/c.nu)
			}
			// The two factorizations round differently: 1e-12 of the
			// log density's terms, a few units each.
			if got := p.CalibratedLogPDF(y); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Errorf("members %d, s %v, ν %v: CalibratedLogPDF %v, want %v", members, c.s, c.nu, got, want)
			}
			if got := p.CalibratedMahalanobis(y); math.Abs(got*got-q) > 1e-12*q {
				t.Errorf("members %d: CalibratedMahalanobis² %v, want %v", members, got*got, q)
			}
		}
		if !math.IsNaN(p.CalibratedLogPDF([]float64{1})) {
			t.Error("a y of one target: want NaN")
		}
	}
}

// TestJointRegionsAllocateNothing: the calibrated and conformal regions'
// methods allocate nothing, for a single network and an ensemble.
func TestJointRegionsAllocateNothing(t *testing.T) {
	for _, members := range []int{1, 3} {
		m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 3, Members: members, Seed: 6})
		p := predictedAt(t, m, []float64{0.4, 1.1})
		p.regionScale, p.regionNu, p.conformal = 1.3, 4, thinScores([]float64{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5})
		y := []float64{p.Mean(0) + 0.5, p.Mean(1), p.Mean(2) - 0.3}
		var sink float64
		if a := testing.AllocsPerRun(100, func() {
			in, _ := p.CalibratedInside(y, 0.9)
			in2, _ := p.ConformalInside(y, 0.9)
			r, _ := p.ConformalRadius(0.5)
			sink += p.CalibratedLogPDF(y) + r
			if in && in2 {
				sink++
			}
		}); a != 0 {
			t.Errorf("members %d: %v allocations a call, want 0", members, a)
		}
		_ = sink
	}
}

// TestMarginalMatchesTheCalibratedRegionAt95: a target's calibrated 95%
// interval is the calibrated joint t's marginal one, Mean ± t_ν(0.975)·
// √(s·Σ̃_ii), with t_ν(0.975)² = d·F⁻¹(0.95) at d = 1 (the region's radius
// solve, an independent route to the quantile); for the Gaussian region
// VarCorrected is s·Σ̃_ii exactly.
func TestMarginalMatchesTheCalibratedRegionAt95(t *testing.T) {
	m := randomMultiModel(t, Config{Inputs: 2, Hidden: []int{3}, Targets: 3, Members: 2, Seed: 8})
	p := predictedAt(t, m, []float64{-0.2, 0.9})
	p.regionScale, p.regionNu = 1.8, math.Inf(1)
	if got := p.Marginal(1).VarCorrected; got != 1.8*p.CovCorrected(1, 1) {
		t.Errorf("Gaussian region: VarCorrected %v, want %v", got, 1.8*p.CovCorrected(1, 1))
	}
	for _, nu := range []float64{0.7, 3.5, 40} {
		p.regionNu = nu
		for i := range 3 {
			lo, hi, err := p.Marginal(i).CalibratedInterval(0.95)
			want := math.Sqrt(mvtRegionRadius2(0.95, 1, nu) * 1.8 * p.CovCorrected(i, i))
			// Two quantile solves, each to about 1e-14 of itself.
			if err != nil || math.Abs((hi-lo)/2-want) > 1e-9*want || math.Abs((hi+lo)/2-p.Mean(i)) > 1e-9*want {
				t.Errorf("ν %v, target %d: interval (%v, %v) (%v), want %v ± %v", nu, i, lo, hi, err, p.Mean(i), want)
			}
		}
	}
}
