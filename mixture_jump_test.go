package gcp

import (
	"fmt"
	"math"
	"testing"
)

// jumpTruthCDF is the mixture's CDF formed independently of the solver's
// evaluation: a DoF-2 member by its closed form ½ + s/(2√(2+s²)), written
// without cancellation as 1/(r·(r+|s|)) below the mean (r = √(2+s²)), any
// other by studentTCDF.
func jumpTruthCDF(c []Component, y float64) float64 {
	var sum float64
	for _, ci := range c {
		s := ci.standardize(y)
		if ci.DoF != 2 {
			sum += studentTCDF(s, ci.DoF)
			continue
		}
		r := math.Hypot(math.Sqrt2, s)
		tail := 1 / (r * (r + math.Abs(s)))
		if math.IsInf(r, 1) {
			tail = 0
		}
		if s < 0 {
			sum += tail
		} else {
			sum += 1 - tail
		}
	}
	return sum / float64(len(c))
}

// jumpTruthQuantile returns the smallest float64 y with cdf(y) ≥ p, by
// bisection of the float64s in their order, to neighbouring floats.
func jumpTruthQuantile(c []Component, p float64) float64 {
	lo, hi := -math.MaxFloat64, math.MaxFloat64
	for math.Nextafter(lo, hi) < hi {
		if mid := bisectFloat(lo, hi); jumpTruthCDF(c, mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// jumpTol is the file's stated accuracy at the exact quantile y:
// 1e-10·max(|y|, σ_min) + 2⁻⁵⁰·max |mean|.
func jumpTol(c []Component, y float64) float64 {
	minScale, maxMean := math.Inf(1), 0.0
	for _, ci := range c {
		minScale, maxMean = min(minScale, ci.Scale), max(maxMean, math.Abs(ci.Mean))
	}
	return 1e-10*max(math.Abs(y), minScale) + 0x1p-50*maxMean
}

// jumpMixtures holds mixtures with members far narrower than the
// tolerance (point masses, whose CDF jumps by 1/K within an ulp of y) and
// the extremes of scale, each named.
func jumpMixtures() []struct {
	name string
	c    []Component
} {
	maxMembers := make([]Component, MaxMembers)
	for i := range maxMembers {
		maxMembers[i] = Component{Mean: float64(i) - 9.5, Scale: 1 + float64(i%3), DoF: 2 + float64(i%4)}
	}
	maxMembers[13].Scale = 3e-20
	return []struct {
		name string
		c    []Component
	}{
		// A row of oes97 (gcp predict, input_z 97): the third member is
		// all but a point mass, and the CDF jumps from 0.443 to 0.643
		// there.
		{"oes97", []Component{
			{Mean: 31135.36177745192, Scale: 13365.54814121695, DoF: 2.0163612496107817},
			{Mean: 31494.257114929438, Scale: 5668.614981440457, DoF: 2},
			{Mean: 32006.577722134916, Scale: 2.773506635291685e-22, DoF: 2},
			{Mean: 30007.23227311856, Scale: 3753.3479150081757, DoF: 2},
			{Mean: 32184.28251222555, Scale: 4078.9338437837405, DoF: 2},
		}},
		{"point-left", []Component{{-10, 1e-22, 2}, {0, 1, 2}, {1, 2, 2}}},
		{"point-right", []Component{{0, 1, 2}, {1, 2, 2}, {10, 1e-22, 2}}},
		{"two-points", []Component{{-1, 1e-25, 2}, {0, 1, 2}, {1.5, 3e-23, 2}, {2, 1, 2}}},
		{"scale-1e-300", []Component{{0, 1, 2}, {0.5, 1e-300, 2}, {3, 2, 2}}},
		{"max-members", maxMembers},
		{"scale-1e300", []Component{{0, 1, 2}, {1, 1, 2}, {2, 1e300, 2}}},
	}
}

// TestMixtureJump checks Quantile and Interval on mixtures with point
// members and extreme scales against jumpTruthQuantile: each result within
// jumpTol of the truth, CDF(y + tol) ≥ p ≥ CDF(y − tol) (inside a jump
// the quantile is the point member's location), quantiles and interval
// ends monotone in p and the level, lo ≤ hi.
func TestMixtureJump(t *testing.T) {
	probs := []float64{1e-9, 1e-4, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.25, 0.3, 0.34, 0.4, 0.45,
		0.5, 0.54, 0.6, 0.64, 0.66, 0.7, 0.75, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 1 - 1e-4}
	levels := []float64{0.01, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999}
	for _, tc := range jumpMixtures() {
		c := tc.c
		check := func(what string, p, y float64) {
			t.Helper()
			want := jumpTruthQuantile(c, p)
			tol := jumpTol(c, want)
			if !(math.Abs(y-want) <= tol) {
				t.Errorf("%s %s(%v) = %v, want %v (error %.3g, tolerance %.3g)", tc.name, what, p, y, want, y-want, tol)
			}
			if above, below := jumpTruthCDF(c, y+tol), jumpTruthCDF(c, y-tol); !(above >= p && p >= below) {
				t.Errorf("%s %s(%v) = %v: CDF %v above, %v below", tc.name, what, p, y, above, below)
			}
		}
		prev := math.Inf(-1)
		for _, p := range probs {
			y := mixtureQuantile(c, p)
			check("quantile", p, y)
			if y < prev {
				t.Errorf("%s quantile(%v) = %v below the previous %v", tc.name, p, y, prev)
			}
			prev = y
		}
		prevLo, prevHi := math.Inf(1), math.Inf(-1)
		for _, level := range levels {
			lo, hi := mixtureInterval(c, level)
			q := (1 - level) / 2
			check(fmt.Sprintf("interval(%v) lo", level), q, lo)
			check(fmt.Sprintf("interval(%v) hi", level), 1-q, hi)
			if !(lo <= hi && lo <= prevLo && hi >= prevHi) {
				t.Errorf("%s interval(%v) = [%v, %v] after [%v, %v]", tc.name, level, lo, hi, prevLo, prevHi)
			}
			prevLo, prevHi = lo, hi
		}
	}
}

// TestMixtureJumpPrediction checks the public path of the oes97 row,
// Prediction.Interval and Quantile (which a MultiPrediction's Marginal
// shares), against the truth: gcp predict's 95% interval read [3412.2,
// 32006.578] and its 50%, 90% and 99% intervals [32006.578, 32006.578].
func TestMixtureJumpPrediction(t *testing.T) {
	c := jumpMixtures()[0].c
	p := Prediction{Members: len(c)}
	copy(p.Components[:], c)
	for _, level := range []float64{0.5, 0.9, 0.95, 0.99} {
		lo, hi, err := p.Interval(level)
		q := (1 - level) / 2
		wantLo, wantHi := jumpTruthQuantile(c, q), jumpTruthQuantile(c, 1-q)
		if err != nil || !(math.Abs(lo-wantLo) <= jumpTol(c, wantLo) && math.Abs(hi-wantHi) <= jumpTol(c, wantHi)) {
			t.Errorf("Interval(%v) = [%v, %v], %v; want [%v, %v]", level, lo, hi, err, wantLo, wantHi)
		}
	}
	// Inside the jump, from 0.443 to 0.643, the quantile is the point
	// member's location: the exact quantile lies within a few of its
	// scales (1e-22) of its mean and rounds to it, and the least float64
	// whose CDF reaches prob is the mean up to CDF(mean) = 0.543 (the
	// member's own CDF is ½ there) and the float64 after it above. Either
	// is right; nothing else is.
	for _, prob := range []float64{0.45, 0.5, 0.54, 0.55, 0.6, 0.64} {
		y, err := p.Quantile(prob)
		if err != nil || y != c[2].Mean && y != jumpTruthQuantile(c, prob) {
			t.Errorf("Quantile(%v) = %v, %v; want %v", prob, y, err, c[2].Mean)
		}
	}
}

// TestMixtureJumpAllocs checks that the solver's way across a jump
// allocates nothing.
func TestMixtureJumpAllocs(t *testing.T) {
	c := jumpMixtures()[0].c
	for name, f := range map[string]func(){
		"Quantile": func() { mixtureSink = mixtureQuantile(c, 0.1) },
		"Jump":     func() { mixtureSink = mixtureQuantile(c, 0.5) },
		"Interval": func() { lo, hi := mixtureInterval(c, 0.95); mixtureSink = lo + hi },
	} {
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}
