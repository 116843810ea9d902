package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mixtureTol is the quantile criterion of mixture.go:
// 1e-10·max(|y*|, σ_min) + 2⁻⁵⁰·max_k |mean_k|.
func mixtureTol(c []Component, want float64) float64 {
	minScale, maxMean := math.Inf(1), 0.0
	for _, ci := range c {
		minScale = math.Min(minScale, ci.Scale)
		maxMean = math.Max(maxMean, math.Abs(ci.Mean))
	}
	return 1e-10*math.Max(math.Abs(want), minScale) + 0x1p-50*maxMean
}

// mixtureTestResid returns a sign-reliable K·(F(y) − p) for p ≤ ½ and
// K·((1−p) − Q(y)) for p > ½ (both increase with y), from studentTCDF of
// each member: every tail is taken where it is small, and the integers and
// K·p are combined in one FMA, so that the sign is right also where F is
// within rounding of p (the check of the quantile's bracket relies on it).
func mixtureTestResid(c []Component, y, p float64) float64 {
	// small = Σ_{s<0} P(T ≤ s) − Σ_{s≥0} P(T > s), each a tail; n = #{s ≥ 0}.
	// K·F = small + n, and K·Q = K − n − small.
	var small, n float64
	for _, ci := range c {
		s := ci.standardize(y)
		if s < 0 {
			small += studentTCDF(s, ci.DoF)
		} else {
			n++
			small -= studentTCDF(-s, ci.DoF)
		}
	}
	k := float64(len(c))
	if p <= 0.5 {
		return small + math.FMA(-k, p, n)
	}
	return small + math.FMA(k, 1-p, n-k) // 1 − p is exact for p > ½

}

// mixtureCheckRoot reports whether the root of the increasing residual lies
// within tol of y: resid(y−tol) ≤ 0 ≤ resid(y+tol) (where F is flat to
// rounding, both are 0 and y is as good as any point there).
func mixtureCheckRoot(c []Component, y, p, tol float64) bool {
	if math.IsNaN(y) {
		return false
	}
	return mixtureTestResid(c, y-tol, p) <= 0 && mixtureTestResid(c, y+tol, p) >= 0
}

// mixtureRef is one mixture of testdata/mixture_ref.csv with its rows.
type mixtureRef struct {
	name                 string
	c                    []Component
	cdf, logpdf, quantil [][2]float64 // (arg, value)
}

func mixtureLoadRef(t *testing.T) []*mixtureRef {
	t.Helper()
	var out []*mixtureRef
	for _, d := range loadDistRefs(t, "testdata/mixture_ref.csv", []string{"mixture"}, []string{"cdf", "logpdf", "quantile"}) {
		out = append(out, &mixtureRef{name: d.id, c: d.c, cdf: d.rows["cdf"], logpdf: d.rows["logpdf"], quantil: d.rows["quantile"]})
	}
	if len(out) < 25 {
		t.Fatalf("mixture_ref.csv: %d mixtures", len(out))
	}
	return out
}

// distRef is one distribution of a reference table: its kind, its id,
// its members and its rows, (arg, value) pairs by kind.
type distRef struct {
	kind, id string
	c        []Component
	rows     map[string][][2]float64
}

// loadDistRefs reads a reference table with the columns kind,id,arg,value
// (mixture_ref.csv, crps_ref.csv): a row of one of the kinds dists opens
// distribution id, with arg its member count K and value its members
// "mean/scale/dof" separated by spaces; a row of one of rowKinds gives an
// (arg, value) pair of distribution id.
func loadDistRefs(t *testing.T, path string, dists, rowKinds []string) []*distRef {
	t.Helper()
	parse := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return v
	}
	var out []*distRef
	for _, rec := range readRefCSV(t, path) {
		id, err := strconv.Atoi(rec[1])
		if err != nil || id > len(out) {
			t.Fatalf("%s: bad id in %v", path, rec)
		}
		switch {
		case slices.Contains(dists, rec[0]):
			d := &distRef{kind: rec[0], id: rec[1], rows: map[string][][2]float64{}}
			for _, f := range strings.Fields(rec[3]) {
				p := strings.Split(f, "/")
				d.c = append(d.c, Component{parse(p[0]), parse(p[1]), parse(p[2])})
			}
			if len(d.c) != int(parse(rec[2])) {
				t.Fatalf("%s: %d members, want %s", path, len(d.c), rec[2])
			}
			out = append(out, d)
		case slices.Contains(rowKinds, rec[0]):
			out[id].rows[rec[0]] = append(out[id].rows[rec[0]], [2]float64{parse(rec[2]), parse(rec[3])})
		default:
			t.Fatalf("%s: unknown kind %q", path, rec[0])
		}
	}
	return out
}

func TestMixtureReference(t *testing.T) {
	// Against mpmath (testdata/gen_mixture.py). The CDF is a mean of
	// studentTCDF values, each within 3e-14 relative where it is at least
	// 1e-12 (TestStudentTCDFReference) and 1e-12 below, plus the rounding
	// of the standardized y, amplified by the conditioning h = |s|·f/F
	// (≈ s² in a normal tail, below 100 on these rows): 5e-14 where
	// F ≥ 1e-12 and 1e-12 below. The
	// log density is exact to a few ulps of the largest terms it is made
	// of: 1e-14·max(1, |ln f|). The quantiles meet the criterion of
	// mixture.go (mixtureTol), from mixtureQuantile and from
	// mixtureInterval at the levels 1−2p whose tail (1−level)/2 rounds to
	// p within 1e-15 relative (p ≥ 0.001; at p = 1e-6 the rounding of
	// level = 1−2e-6 alone moves the tail by 3e-11, and a dof-0.5 quantile,
	// ∝ q^(−2), by 6e-11 of itself).
	var cdfW, logW, qW, qRel studentTWorst
	for _, m := range mixtureLoadRef(t) {
		for _, r := range m.cdf {
			got := mixtureCDF(m.c, r[0])
			tol := 5e-14
			if r[1] < 1e-12 {
				tol = 1e-12
			}
			e := studentTRelErr(got, r[1])
			if !(e <= tol) {
				t.Errorf("mixture %s: CDF(%v) = %v, want %v (relative error %.3g)", m.name, r[0], got, r[1], e)
			}
			cdfW.add(e, "mixture %s y=%v", m.name, r[0])
		}
		for _, r := range m.logpdf {
			got := mixtureLogPDF(m.c, r[0])
			e := math.Abs(got-r[1]) / math.Max(1, math.Abs(r[1]))
			if !(e <= 1e-14) {
				t.Errorf("mixture %s: LogPDF(%v) = %v, want %v (error %.3g)", m.name, r[0], got, r[1], e)
			}
			logW.add(e, "mixture %s y=%v", m.name, r[0])
		}
		for _, r := range m.quantil {
			p, want := r[0], r[1]
			tol := mixtureTol(m.c, want)
			got := mixtureQuantile(m.c, p)
			e := math.Abs(got - want)
			if !(e <= tol) {
				t.Errorf("mixture %s: Quantile(%v) = %v, want %v (error %.3g, tolerance %.3g)", m.name, p, got, want, e, tol)
			}
			qW.add(e/tol, "mixture %s p=%v", m.name, p)
			qRel.add(e/math.Max(math.Abs(want), m.minScale()), "mixture %s p=%v", m.name, p)
		}
		for _, p := range []float64{0.001, 0.025, 0.1} {
			lo, hi := mixtureInterval(m.c, 1-2*p)
			wantLo, wantHi := m.quantile(t, p), m.quantile(t, 1-p)
			if e, tol := math.Abs(lo-wantLo), mixtureTol(m.c, wantLo); !(e <= tol) {
				t.Errorf("mixture %s: Interval(%v) lower end %v, want %v (error %.3g)", m.name, 1-2*p, lo, wantLo, e)
			}
			if e, tol := math.Abs(hi-wantHi), mixtureTol(m.c, wantHi); !(e <= tol) {
				t.Errorf("mixture %s: Interval(%v) upper end %v, want %v (error %.3g)", m.name, 1-2*p, hi, wantHi, e)
			}
		}
	}
	t.Logf("worst CDF relative error %.3g at %s (%d points)", cdfW.err, cdfW.at, cdfW.n)
	t.Logf("worst log-density error %.3g at %s (%d points)", logW.err, logW.at, logW.n)
	t.Logf("worst quantile error %.3g of the tolerance at %s (%d points)", qW.err, qW.at, qW.n)
	t.Logf("worst quantile error %.3g·max(|y*|, σ_min) at %s", qRel.err, qRel.at)
}

// minScale returns the smallest member scale.
func (m *mixtureRef) minScale() float64 {
	s := math.Inf(1)
	for _, ci := range m.c {
		s = math.Min(s, ci.Scale)
	}
	return s
}

// quantile returns the reference quantile at p.
func (m *mixtureRef) quantile(t *testing.T, p float64) float64 {
	for _, r := range m.quantil {
		if r[0] == p {
			return r[1]
		}
	}
	t.Fatalf("mixture %s: no reference quantile at %v", m.name, p)
	return 0
}

// mixtureRandom returns a seeded mixture of 1..MaxMembers members of one of three
// kinds: typical GCP members (dof 20–2000, scales within a factor 2, means
// spread by 0.3 scale), extreme ones (means up to 1e6 apart, scales spread
// over 1e6, dof from 0.5 to 1e8 and +Inf), and heavy-tailed ones (dof
// 0.5–5).
func mixtureRandom(r *rand.Rand, kind int) []Component {
	c := make([]Component, 1+r.IntN(MaxMembers))
	for i := range c {
		switch kind {
		case 0:
			c[i] = Component{0.3 * (r.Float64() - 0.5), math.Exp2(r.Float64()), 20 * math.Pow(100, r.Float64())}
		case 1:
			dof := 0.5 * math.Pow(2e8, r.Float64())
			if r.IntN(4) == 0 {
				dof = math.Inf(1)
			}
			c[i] = Component{math.Pow(10, 6*r.Float64()) * (r.Float64() - 0.5), math.Pow(10, 6*r.Float64()-3), dof}
		default:
			c[i] = Component{r.NormFloat64(), math.Pow(10, r.Float64()-0.5), 0.5 + 4.5*r.Float64()}
		}
	}
	return c
}

// mixtureTestProbs are probabilities from 1e-12 to 1−1e-12, in steps of
// 10^½ towards ½ on both sides.
var mixtureTestProbs = func() []float64 {
	var ps []float64
	for k := 0; k <= 22; k++ {
		lower := math.Min(math.Pow(10, -12+float64(k)/2), 0.5)
		ps = append(ps, lower, 1-lower)
	}
	return ps
}()

func TestMixtureQuantileRoundTrip(t *testing.T) {
	// The exact quantile must lie within the tolerance of mixture.go of
	// the returned one, judged by the sign of an independent accurate
	// residual on either side (mixtureCheckRoot), for seeded random
	// mixtures of all three kinds and K = 1..MaxMembers.
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		c := mixtureRandom(r, trial%3)
		for _, p := range mixtureTestProbs {
			y := mixtureQuantile(c, p)
			if tol := mixtureTol(c, y); !mixtureCheckRoot(c, y, p, tol) {
				t.Fatalf("mixtureQuantile(%v, %v) = %v: the root is not within %.3g (residuals %.3g, %.3g)",
					fmtMixture(c), p, y, tol, mixtureTestResid(c, y-tol, p), mixtureTestResid(c, y+tol, p))
			}
		}
	}
}

func TestMixtureK1(t *testing.T) {
	// One member: the CDF is studentTCDF exactly (same code), and the
	// quantile agrees with mean + scale·studentTQuantile to the criterion
	// of mixture.go (studentTQuantile's own error, 1e-13, is far below it).
	for _, dof := range studentTTestDoFs {
		c := []Component{{Mean: 0.7, Scale: 2.5, DoF: dof}}
		for _, p := range mixtureTestProbs {
			want := c[0].Mean + c[0].Scale*studentTQuantile(p, dof)
			got := mixtureQuantile(c, p)
			if e, tol := math.Abs(got-want), mixtureTol(c, want); !(e <= tol) {
				t.Errorf("dof %v: mixtureQuantile(%v) = %v, want %v (error %.3g)", dof, p, got, want, e)
			}
			if got, want := mixtureCDF(c, want), studentTCDF((want-c[0].Mean)/c[0].Scale, dof); got != want {
				t.Errorf("dof %v: mixtureCDF = %v, studentTCDF = %v", dof, got, want)
			}
		}
	}
}

func TestMixtureInterval(t *testing.T) {
	// lo < hi, and each end holds its tail (1−level)/2 to the criterion,
	// the upper one judged on the upper tail itself; with levels up to
	// 1 − 1e-15, whose upper end 1 − 5e-16 would not survive rounding
	// 1 − tail. The ends agree with mixtureQuantile's, which has no pretail.
	r := rand.New(rand.NewPCG(3, 4))
	levels := []float64{1e-6, 0.1, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1 - 1e-6, 1 - 1e-12, 1 - 1e-15}
	for trial := range 200 {
		c := mixtureRandom(r, trial%3)
		for _, level := range levels {
			lo, hi := mixtureInterval(c, level)
			q := (1 - level) / 2
			if !(lo < hi) {
				t.Fatalf("mixtureInterval(%v, %v) = [%v, %v]", fmtMixture(c), level, lo, hi)
			}
			if !mixtureCheckRoot(c, lo, q, mixtureTol(c, lo)) || !mixtureCheckUpper(c, hi, q) {
				t.Fatalf("mixtureInterval(%v, %v) = [%v, %v] misses a tail %v", fmtMixture(c), level, lo, hi, q)
			}
			for _, e := range [][2]float64{{lo, mixtureQuantileTail(c, q, false)}, {hi, mixtureQuantileTail(c, q, true)}} {
				if d, tol := math.Abs(e[0]-e[1]), 2*mixtureTol(c, e[1]); !(d <= tol) {
					t.Fatalf("mixtureInterval(%v, %v): end %v, quantile %v", fmtMixture(c), level, e[0], e[1])
				}
			}
		}
	}
}

// mixtureCheckUpper checks the upper end hi against the upper tail q
// directly (1−q rounds for q below 2⁻⁵³), like mixtureCheckRoot.
func mixtureCheckUpper(c []Component, hi, q float64) bool {
	mirror := make([]Component, len(c))
	for i, ci := range c {
		mirror[i] = Component{-ci.Mean, ci.Scale, ci.DoF}
	}
	return mixtureCheckRoot(mirror, -hi, q, mixtureTol(c, hi))
}

// mixtureQuantileTail returns the quantile with lower tail q, or upper tail
// q if upper, through mixtureQuantile of the mirrored mixture for the
// latter (so tails below 2⁻⁵³ are not lost).
func mixtureQuantileTail(c []Component, q float64, upper bool) float64 {
	if !upper {
		return mixtureQuantile(c, q)
	}
	mirror := make([]Component, len(c))
	for i, ci := range c {
		mirror[i] = Component{-ci.Mean, ci.Scale, ci.DoF}
	}
	return -mixtureQuantile(mirror, q)
}

func TestMixtureLogPDFTails(t *testing.T) {
	// Far in the tails the log density of a Student-t member is
	// lnΓ((ν+1)/2) − lnΓ(ν/2) − ½ln(νπ) − ln σ − (ν+1)/2·(2·ln|s| − ln ν +
	// log1p(ν/s²)), exact in this form; a Gaussian member there is
	// negligible against it (and alone would be −Inf beyond 1e154 scales).
	// |y−m| = 1e6 and 1e300 scales, and 1e310 scales (the standardized
	// value overflows; y − m itself too for the last row).
	lnT := func(s, dof, scale float64, lns float64) float64 {
		a, _ := math.Lgamma((dof + 1) / 2)
		b, _ := math.Lgamma(dof / 2)
		return a - b - 0.5*math.Log(dof*math.Pi) - math.Log(scale) - (dof+1)/2*(2*lns-math.Log(dof)+math.Log1p(dof/s/s))
	}
	cases := []struct {
		c    []Component
		y    float64
		want float64
	}{
		{[]Component{{0, 1, 3}}, 1e6, lnT(1e6, 3, 1, math.Log(1e6))},
		{[]Component{{0, 1, 3}, {0, 1, math.Inf(1)}}, -1e300, lnT(1e300, 3, 1, math.Log(1e300)) - math.Ln2},
		{[]Component{{5, 1e-10, 2.5}, {5, 1, math.Inf(1)}}, 5 + 1e300, lnT(math.Inf(1), 2.5, 1e-10, math.Log(1e300)-math.Log(1e-10)) - math.Ln2},
		{[]Component{{-1e308, 1e-3, 7}}, 1e308, lnT(math.Inf(1), 7, 1e-3, math.Log(1e308)+math.Ln2-math.Log(1e-3))},
	}
	for _, tc := range cases {
		got := mixtureLogPDF(tc.c, tc.y)
		if e := math.Abs(got-tc.want) / math.Abs(tc.want); !(e <= 1e-14) {
			t.Errorf("mixtureLogPDF(%v, %v) = %v, want %v (relative error %.3g)", fmtMixture(tc.c), tc.y, got, tc.want, e)
		}
	}
	// A Gaussian 1e6 scales out: −s²/2 − ln √(2π) exactly; and 1e300 scales
	// out it is below the smallest float64.
	g := []Component{{0, 2, math.Inf(1)}}
	if got, want := mixtureLogPDF(g, 2e6), -0.5e12-studentTLnSqrt2Pi-math.Ln2; math.Abs(got-want) > 1e-14*math.Abs(want) {
		t.Errorf("Gaussian 1e6 scales out: %v, want %v", got, want)
	}
	if got := mixtureLogPDF(g, 2e300); !math.IsInf(got, -1) {
		t.Errorf("Gaussian 1e300 scales out: %v, want -Inf", got)
	}
}

func TestMixtureExtremes(t *testing.T) {
	// Beyond the required range the functions must still end and return
	// no NaN: probabilities down to the smallest float64, levels within an
	// ulp of 0 and 1, quantiles beyond the largest float64 (±Inf, as
	// studentTQuantile). Each result is also checked against the residual
	// where it is finite and the probability not subnormal (the residual
	// has no precision there).
	r := rand.New(rand.NewPCG(5, 6))
	ps := []float64{5e-324, 1e-300, 1e-100, 0.5, 1 - 0x1p-53}
	for trial := range 100 {
		c := mixtureRandom(r, trial%3)
		for _, p := range ps {
			y := mixtureQuantile(c, p)
			if math.IsNaN(y) || finite(y) && p >= 0x1p-1022 && !mixtureCheckRoot(c, y, p, mixtureTol(c, y)) {
				t.Fatalf("mixtureQuantile(%v, %v) = %v", fmtMixture(c), p, y)
			}
		}
		for _, level := range []float64{5e-324, 0x1p-53, 1 - 0x1p-53} {
			if lo, hi := mixtureInterval(c, level); math.IsNaN(lo) || math.IsNaN(hi) || !(lo <= hi) {
				t.Fatalf("mixtureInterval(%v, %v) = [%v, %v]", fmtMixture(c), level, lo, hi)
			}
		}
	}
	heavy := []Component{{0, 1, 0.5}}
	for _, p := range []float64{1e-300, 1 - 1e-16} {
		if got, want := mixtureQuantile(heavy, p), studentTQuantile(p, 0.5); got != want && !(math.Abs(got-want) <= mixtureTol(heavy, want)) {
			t.Errorf("dof 0.5: mixtureQuantile(%v) = %v, want %v", p, got, want)
		}
	}
}

func TestMixtureAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	c := make([]Component, MaxMembers)
	for i := range c {
		c[i] = Component{r.NormFloat64(), 1 + r.Float64(), 20 * math.Pow(100, r.Float64())}
	}
	for name, f := range map[string]func(){
		"LogPDF":   func() { mixtureSink = mixtureLogPDF(c, 0.3) },
		"CDF":      func() { mixtureSink = mixtureCDF(c, 0.3) },
		"Quantile": func() { mixtureSink = mixtureQuantile(c, 0.01) },
		"Interval": func() { lo, hi := mixtureInterval(c, 0.95); mixtureSink = lo + hi },
	} {
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}

// mixtureSink keeps results alive in the allocation test and benchmarks.
var mixtureSink float64

func fmtMixture(c []Component) string {
	var b strings.Builder
	for i, ci := range c {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%v/%v/%v", ci.Mean, ci.Scale, ci.DoF)
	}
	return "[" + b.String() + "]"
}

func TestExpModel(t *testing.T) {
	// expModel promises 2e-7 relative on (−708, 709) (its doc comment
	// bounds the reduced argument's Taylor remainder), math.Exp outside.
	worst := 0.0
	for phi := -708.0 + 1e-9; phi < 709; phi += 0.0137 {
		if e := math.Abs(expModel(phi)/math.Exp(phi) - 1); e > worst {
			worst = e
		}
	}
	if worst > 2e-7 {
		t.Errorf("expModel: relative error %.3g > 2e-7", worst)
	}
	for _, phi := range []float64{-800, -708, 709, 800, math.Inf(-1), math.Inf(1)} {
		if got, want := expModel(phi), math.Exp(phi); got != want {
			t.Errorf("expModel(%v) = %v, want math.Exp's %v", phi, got, want)
		}
	}
	if !math.IsNaN(expModel(math.NaN())) {
		t.Error("expModel(NaN) is not NaN")
	}
}

func TestExpm1Model(t *testing.T) {
	// expm1Model promises 8e-7 relative for τ ≥ 0 (its doc comment bounds
	// the Taylor remainder up to 0.35 and expModel's error, times 3.4,
	// beyond), the range guess uses.
	worst := 0.0
	for tau := 1e-12; tau < 700; tau *= 1.01 {
		if e := math.Abs(expm1Model(tau)/math.Expm1(tau) - 1); e > worst {
			worst = e
		}
	}
	if worst > 8e-7 {
		t.Errorf("expm1Model: relative error %.3g > 8e-7", worst)
	}
}

func TestMixtureMemberStandardize(t *testing.T) {
	// The member's standardize is Component.standardize with the division
	// by the scale a product with its reciprocal where that is finite, and
	// Component.standardize's own value elsewhere: a subnormal scale (no
	// finite reciprocal), y − mean beyond the largest float64, and a
	// quotient just beyond it. In the first case it may differ by the
	// rounding of the reciprocal, an ulp or two; elsewhere not at all.
	cases := []struct {
		c     Component
		y     float64
		exact bool
	}{
		{Component{0.3, 1.7, 20}, 2.1, false},
		{Component{-4e5, 3e-3, 2}, 7e5, false},
		{Component{0, 5e-324, 20}, 1e-310, true},      // subnormal scale: 1/scale is +Inf
		{Component{1e-320, 5e-324, 20}, 0, true},      // and 0·Inf
		{Component{-1.5e308, 2, 20}, 1.5e308, true},   // y − mean overflows, (y − mean)/2 does not
		{Component{-1.5e308, 0.5, 20}, 1.5e308, true}, // y − mean and the quotient overflow
		{Component{1, 0x1p-1020, 20}, 0x1p10, true},   // the product overflows
	}
	for _, tc := range cases {
		var m [1]mixtureMember
		mx := mixture{m: m[:]}
		mx.init([]Component{tc.c})
		got, want := mx.m[0].standardize(tc.y), tc.c.standardize(tc.y)
		if tc.exact && got != want || !tc.exact && !(math.Abs(got-want) <= 4*0x1p-52*math.Abs(want)) {
			t.Errorf("member %v: standardize(%v) = %v, want %v", tc.c, tc.y, got, want)
		}
	}
}
