package gcp

// Tests of NormalGamma: accuracy against mpmath
// (testdata/gen_normalgamma.py), the relations between its variances,
// FuzzNormalGamma, and the edge cases documented in normalgamma.go. The
// paper's theorems about it (Lemma 2.1, Theorems 3.1, 3.2 and 4.1, Fig.
// 5.1) are checked in theorems_test.go.

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ngTable holds the records of testdata/normalgamma_mpmath.txt by kind.
type ngTable map[string][][]float64

// ngTableCols is the number of numeric columns of each record kind.
var ngTableCols = map[string]int{"grad": 14, "gradinf": 14, "var": 6, "post": 9, "kl": 10, "cdf": 6, "quant": 6}

func loadNGTable(t *testing.T) ngTable {
	t.Helper()
	const path = "testdata/normalgamma_mpmath.txt"
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (regenerate with: python3 testdata/gen_normalgamma.py > %s)", err, path)
	}
	defer f.Close()
	tab := ngTable{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Fields(text)
		n, ok := ngTableCols[fields[0]]
		if !ok || len(fields) != n+1 {
			t.Fatalf("%s:%d: malformed record %q", path, line, text)
		}
		row := make([]float64, n)
		for i, s := range fields[1:] {
			if row[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
		}
		tab[fields[0]] = append(tab[fields[0]], row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tab
}

// ngWorst tracks the largest error of one quantity as a fraction of its
// tolerance, for the log and the failure message.
type ngWorst struct {
	name  string
	ratio float64 // largest |got−want|/tol seen
	err   float64 // that |got−want| divided by the magnitude
	at    string
}

// check records |got−want| against tol = rel·mag and reports whether it is
// within the tolerance. NaN in got fails.
func (w *ngWorst) check(got, want, mag, rel float64, at string) bool {
	d := math.Abs(got - want)
	if got == want { // also covers ±Inf and exact zeros
		d = 0
	}
	tol := rel * mag
	r := d / tol
	if d == 0 {
		r = 0
	}
	if math.IsNaN(r) || r > w.ratio {
		w.ratio, w.err, w.at = r, d/mag, at
	}
	return d <= tol
}

func (w *ngWorst) log(t *testing.T) {
	t.Logf("%-14s worst error/magnitude %.3g (%.3g of the tolerance) at %s", w.name, w.err, w.ratio, w.at)
}

// TestNormalGammaAccuracyMpmath compares every method with 60-digit mpmath
// values of the paper's formulas (testdata/gen_normalgamma.py).
func TestNormalGammaAccuracyMpmath(t *testing.T) {
	tab := loadNGTable(t)

	t.Run("LogPredictiveGrad", func(t *testing.T) {
		rows := tab["grad"]
		// The table spans α ∈ [1e-3, 1e6], ν ∈ [1e-8, 1e8], β ∈ [1e-6, 1e6],
		// |y−m| ∈ {0, …, 1e150}; make sure the extremes are really there.
		var maxA, minNu, maxNu, minB, maxB, maxR float64 = 0, math.Inf(1), 0, math.Inf(1), 0, 0
		for _, r := range rows {
			maxA = math.Max(maxA, r[2])
			minNu, maxNu = math.Min(minNu, r[1]), math.Max(maxNu, r[1])
			minB, maxB = math.Min(minB, r[3]), math.Max(maxB, r[3])
			maxR = math.Max(maxR, math.Abs(r[4]-r[0]))
		}
		if len(rows) < 500 || maxA < 1e6 || minNu > 1e-8 || maxNu < 1e8 || minB > 1e-6 || maxB < 1e6 || maxR < 1e150 {
			t.Fatalf("grad table does not span the paper's operating range: %d rows, α≤%g, ν∈[%g,%g], β∈[%g,%g], |y−m|≤%g",
				len(rows), maxA, minNu, maxNu, minB, maxB, maxR)
		}
		// 1e-12 is the accuracy demanded of the implementation; each
		// component is a handful of correctly rounded operations plus
		// lgammaHalfStep/digammaHalfStep, so it should be met with a margin
		// of 1e3 or more. The magnitudes are the sizes of the terms that are
		// added, so a component that is a small difference of large terms is
		// held to the accuracy of those terms (nothing better is possible in
		// float64), while terms computed as one product (∂K/∂m) are held to
		// their own size.
		const rel = 1e-12
		lp := &ngWorst{name: "LogPredictive"}
		gm := &ngWorst{name: "∂K/∂m"}
		ga := &ngWorst{name: "∂K/∂α"}
		gb := &ngWorst{name: "∂K/∂β"}
		gn := &ngWorst{name: "∂K/∂ν"}
		for _, r := range rows {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			y := r[4]
			wantLP, wantM, wantA, wantB, wantN := r[5], r[6], r[7], r[8], r[9]
			ln1pu, psiHalf, halfW, alphaV := r[10], r[11], r[12], r[13]
			at := fmt.Sprintf("%+v y=%g", p, y)
			if got := p.LogPredictive(y); !lp.check(got, wantLP, math.Max(1, math.Abs(wantLP)), rel, at) {
				t.Errorf("LogPredictive: %s: got %.17g, want %.17g", at, got, wantLP)
			}
			dm, da, db, dn := p.Grad(y)
			// ∂K/∂m = (α+½)(m−y)/(σ+(m−y)²/2) is one product: its magnitude is itself.
			if !gm.check(dm, wantM, math.Abs(wantM), rel, at) {
				t.Errorf("∂K/∂m: %s: got %.17g, want %.17g", at, dm, wantM)
			}
			// ∂K/∂α = ln(1+u) − (Ψ(α+½)−Ψ(α)).
			if !ga.check(da, wantA, math.Abs(ln1pu)+math.Abs(psiHalf), rel, at) {
				t.Errorf("∂K/∂α: %s: got %.17g, want %.17g", at, da, wantA)
			}
			// ∂K/∂β = ((α+½)w − α)/β = (w/2 − αv)/β with w = 1/(1+u), v = u/(1+u).
			if !gb.check(db, wantB, (halfW+alphaV)/p.Beta, rel, at) {
				t.Errorf("∂K/∂β: %s: got %.17g, want %.17g", at, db, wantB)
			}
			// ∂K/∂ν = −(w/2 − αv)/(ν(ν+1)).
			if !gn.check(dn, wantN, (halfW+alphaV)/(p.Nu*(p.Nu+1)), rel, at) {
				t.Errorf("∂K/∂ν: %s: got %.17g, want %.17g", at, dn, wantN)
			}
		}
		for _, w := range []*ngWorst{lp, gm, ga, gb, gn} {
			w.log(t)
		}
	})

	t.Run("HugeResidual", func(t *testing.T) {
		// |y−m| up to 1e300: u = (y−m)²/(2σ) overflows, and residual()
		// switches to ln(1+u) = 2 ln|t|, w = 0, v = 1, t/(1+u) = 1/(t+1/t).
		// Every component keeps the 1e-12 accuracy of the main table,
		// ∂K/∂m ≈ (2α+1)/(m−y) included, though it is below 1e-150 there.
		rows := tab["gradinf"]
		if len(rows) < 10 {
			t.Fatalf("gradinf table has %d rows", len(rows))
		}
		const rel = 1e-12
		lp := &ngWorst{name: "LogPredictive"}
		gr := &ngWorst{name: "∂K/∂(m,α,β,ν)"}
		for _, r := range rows {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			y := r[4]
			at := fmt.Sprintf("%+v y=%g", p, y)
			if u := (y - p.M) * (y - p.M) / (2 * p.Beta * (1 + 1/p.Nu)); !math.IsInf(u, 1) {
				t.Fatalf("%s: u = %g does not overflow", at, u)
			}
			if got := p.LogPredictive(y); !lp.check(got, r[5], math.Max(1, math.Abs(r[5])), rel, at) {
				t.Errorf("LogPredictive: %s: got %.17g, want %.17g", at, got, r[5])
			}
			dm, da, db, dn := p.Grad(y)
			if !gr.check(dm, r[6], math.Abs(r[6]), rel, at) {
				t.Errorf("∂K/∂m: %s: got %.17g, want %.17g", at, dm, r[6])
			}
			if !gr.check(da, r[7], math.Abs(r[10])+math.Abs(r[11]), rel, at) {
				t.Errorf("∂K/∂α: %s: got %.17g, want %.17g", at, da, r[7])
			}
			if !gr.check(db, r[8], (r[12]+r[13])/p.Beta, rel, at) {
				t.Errorf("∂K/∂β: %s: got %.17g, want %.17g", at, db, r[8])
			}
			if !gr.check(dn, r[9], (r[12]+r[13])/(p.Nu*(p.Nu+1)), rel, at) {
				t.Errorf("∂K/∂ν: %s: got %.17g, want %.17g", at, dn, r[9])
			}
		}
		lp.log(t)
		gr.log(t)
	})

	t.Run("VarVarCorrected", func(t *testing.T) {
		rows := tab["var"]
		if len(rows) < 20 || rows[0][1] > 1e-6 || rows[len(rows)-1][1] < 1e8 {
			t.Fatalf("var table does not span α ∈ [1e-6, 1e8]")
		}
		// σ/(α−1) and σ/(α−A(α)) are a few correctly rounded operations on
		// top of correctionGap, so 1e-12 relative leaves a wide margin; A(α)
		// in the table is a 50-digit root of Eq. (3.15).
		const rel = 1e-12
		v := &ngWorst{name: "Var"}
		vc := &ngWorst{name: "VarCorrected"}
		for _, r := range rows {
			p := NormalGamma{M: 0, Nu: r[0], Alpha: r[1], Beta: r[2]}
			at := fmt.Sprintf("%+v", p)
			if got := p.Var(); !v.check(got, r[3], math.Abs(r[3]), rel, at) {
				t.Errorf("Var: %s: got %.17g, want %.17g", at, got, r[3])
			}
			if got := p.VarCorrected(); !vc.check(got, r[4], r[4], rel, at) {
				t.Errorf("VarCorrected: %s: got %.17g, want %.17g (α−A(α) = %.17g)", at, got, r[4], r[5])
			}
		}
		v.log(t)
		vc.log(t)
	})

	t.Run("Posterior", func(t *testing.T) {
		// Eq. (2.7) is two or three roundings per field; 1e-14 relative to
		// the size of the terms (|νm|+|y|)/(ν+1) for m', the value for the
		// sums of positive terms ν', α', β'.
		const rel = 1e-14
		w := &ngWorst{name: "Posterior"}
		for _, r := range tab["post"] {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			got := p.Posterior(r[4])
			at := fmt.Sprintf("%+v y=%g", p, r[4])
			ok := w.check(got.M, r[5], (math.Abs(p.Nu*p.M)+math.Abs(r[4]))/(p.Nu+1), rel, at)
			ok = w.check(got.Nu, r[6], r[6], rel, at) && ok
			ok = w.check(got.Alpha, r[7], r[7], rel, at) && ok
			ok = w.check(got.Beta, r[8], r[8], rel, at) && ok
			if !ok {
				t.Errorf("Posterior: %s: got %+v, want {M:%.17g Nu:%.17g Alpha:%.17g Beta:%.17g}", at, got, r[5], r[6], r[7], r[8])
			}
		}
		w.log(t)
	})

	t.Run("KL", func(t *testing.T) {
		// Eq. (2.9) is a sum of nine terms, each a few roundings (two
		// log-gammas, a digamma, two logs); the error is a few ulps of the
		// largest term, so 1e-13 of the sum of their absolute values (the
		// scale column) is a margin of ~100. Two rows were checked by the
		// generator against a 2-D quadrature of Eq. (2.8).
		const rel = 1e-13
		w := &ngWorst{name: "KL"}
		for _, r := range tab["kl"] {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			q := NormalGamma{M: r[4], Nu: r[5], Alpha: r[6], Beta: r[7]}
			at := fmt.Sprintf("KL(%+v‖%+v)", p, q)
			if got := p.KL(q); !w.check(got, r[8], r[9], rel, at) {
				t.Errorf("%s: got %.17g, want %.17g", at, got, r[8])
			}
		}
		w.log(t)
	})

	t.Run("CDFQuantile", func(t *testing.T) {
		// studentTCDF/studentTQuantile are documented to 1e-13 relative; the
		// wrappers add the rounding of z = (y−m)/s and of m + s·z, whose
		// condition numbers are at most ~10 for these rows. 1e-12 relative
		// (to the CDF value, and to |m|+|q−m| for the quantile).
		const rel = 1e-12
		wc := &ngWorst{name: "CDF"}
		for _, r := range tab["cdf"] {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			at := fmt.Sprintf("%+v y=%g", p, r[4])
			if got := p.CDF(r[4]); !wc.check(got, r[5], r[5], rel, at) {
				t.Errorf("CDF: %s: got %.17g, want %.17g", at, got, r[5])
			}
		}
		wq := &ngWorst{name: "Quantile"}
		for _, r := range tab["quant"] {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			at := fmt.Sprintf("%+v prob=%g", p, r[4])
			mag := math.Abs(p.M) + math.Abs(r[5]-p.M)
			if got := p.Quantile(r[4]); !wq.check(got, r[5], mag, rel, at) {
				t.Errorf("Quantile: %s: got %.17g, want %.17g", at, got, r[5])
			}
		}
		wc.log(t)
		wq.log(t)
		// Interval is the pair of quantiles with (1−level)/2 in each tail.
		for _, r := range tab["cdf"] {
			p := NormalGamma{M: r[0], Nu: r[1], Alpha: r[2], Beta: r[3]}
			for _, level := range []float64{0.5, 0.9, 0.99} {
				lo, hi, err := p.Interval(level)
				if err != nil {
					t.Fatalf("%+v.Interval(%g): %v", p, level, err)
				}
				// Mass between the quantiles: the CDF's own 1e-13 error
				// plus the quantiles' — 1e-12 absolute.
				if mass := p.CDF(hi) - p.CDF(lo); math.Abs(mass-level) > 1e-12 {
					t.Errorf("%+v.Interval(%g) = [%g, %g] holds mass %.17g", p, level, lo, hi, mass)
				}
				// Symmetric about m up to the rounding of m ± s·z.
				if d := (hi - p.M) - (p.M - lo); math.Abs(d) > 1e-14*(math.Abs(p.M)+hi-lo) {
					t.Errorf("%+v.Interval(%g) = [%g, %g] is not centred on m", p, level, lo, hi)
				}
			}
		}
	})
}

// TestNormalGammaVarCorrectedVsVar checks the relations between the two
// variance estimates that Corollaries 3.1 and 4.1 rely on. Lemma 3.1
// item 3, 2α/(2α+3) < A(α) < min(α, 1), gives
// σ(2α+3)/(α(2α+1)) < VarCorrected for all α and VarCorrected < Var for
// α > 1; both estimate the same V in the limit α → ∞, where
// Var/VarCorrected − 1 = (1−A)/(α−1) ≈ 1.5/α². For α ≤ 1 only the
// corrected estimate exists.
func TestNormalGammaVarCorrectedVsVar(t *testing.T) {
	for _, a := range []float64{1e-6, 1e-3, 0.1, 0.5, 1, 1 + 1e-9, 1.5, 2, 5, 30, 100, 1e3, 1e4, 1e6, 1e8} {
		p := NormalGamma{M: 0.5, Nu: 0.7, Alpha: a, Beta: 1.3}
		sigma := p.Beta * (p.Nu + 1) / p.Nu
		v, vc := p.Var(), p.VarCorrected()
		if !(vc > 0) || math.IsInf(vc, 0) {
			t.Errorf("α=%g: VarCorrected = %g, want finite positive", a, vc)
			continue
		}
		// A(α) > 2α/(2α+3) (4 ulps for the roundings of both sides).
		if lower := sigma * (2*a + 3) / (a * (2*a + 1)); !(vc > lower*(1-4*ngEps)) {
			t.Errorf("α=%g: VarCorrected = %.17g ≤ σ(2α+3)/(α(2α+1)) = %.17g", a, vc, lower)
		}
		if a <= 1 {
			if !math.IsInf(v, 1) {
				t.Errorf("α=%g: Var = %g, want +Inf", a, v)
			}
			continue
		}
		// A(α) < 1. The gap 1.5/α² is below the rounding for α ≳ 1e7.
		if ok := vc < v || (a > 1e7 && vc <= v*(1+4*ngEps)); !ok {
			t.Errorf("α=%g: VarCorrected = %.17g not below Var = %.17g", a, vc, v)
		}
		if a >= 100 && a <= 1e6 {
			// (1−A)/(α−1) with 1−A = 1.5/α + O(α⁻²) (Lemma 3.1
			// item 5): within 5/α of 1.5/α² relative, plus the rounding of
			// the quotient.
			got := v/vc - 1
			want := 1.5 / (a * a)
			if math.Abs(got-want) > 5/a*want+4*ngEps {
				t.Errorf("α=%g: Var/VarCorrected − 1 = %.6g, want ≈ 1.5/α² = %.6g", a, got, want)
			}
		}
	}
}

// TestNormalGammaInvalidParamsNaN checks the documented contract: with ν,
// α or β not positive (or NaN) every method returns NaN.
func TestNormalGammaInvalidParamsNaN(t *testing.T) {
	nan := math.NaN()
	good := NormalGamma{M: 0.5, Nu: 2, Alpha: 3, Beta: 1.5}
	var bad []NormalGamma
	for _, v := range []float64{0, math.Copysign(0, -1), -1, math.Inf(-1), nan} {
		p := good
		p.Nu = v
		bad = append(bad, p)
		p = good
		p.Alpha = v
		bad = append(bad, p)
		p = good
		p.Beta = v
		bad = append(bad, p)
	}
	isNaN := math.IsNaN
	for _, p := range bad {
		at := fmt.Sprintf("%+v", p)
		for name, v := range map[string]float64{
			"LogPredictive": p.LogPredictive(0.3),
			"Mean":          p.Mean(),
			"Var":           p.Var(),
			"VarCorrected":  p.VarCorrected(),
			"CDF":           p.CDF(0.3),
			"Quantile":      p.Quantile(0.3),
			"KL(p‖good)":    p.KL(good),
			"KL(good‖p)":    good.KL(p),
		} {
			if !isNaN(v) {
				t.Errorf("%s.%s = %g, want NaN", at, name, v)
			}
		}
		dm, da, db, dn := p.Grad(0.3)
		if !isNaN(dm) || !isNaN(da) || !isNaN(db) || !isNaN(dn) {
			t.Errorf("%s.Grad = (%g, %g, %g, %g), want NaN", at, dm, da, db, dn)
		}
		if lo, hi, err := p.Interval(0.9); err != nil || !isNaN(lo) || !isNaN(hi) {
			t.Errorf("%s.Interval(0.9) = (%g, %g, %v), want NaN, NaN, nil", at, lo, hi, err)
		}
		if q := p.Posterior(0.3); !isNaN(q.M) || !isNaN(q.Nu) || !isNaN(q.Alpha) || !isNaN(q.Beta) {
			t.Errorf("%s.Posterior = %+v, want all NaN", at, q)
		}
		// GCPStep's result stays invalid, so its methods return NaN too.
		if q := p.GCPStep(0.3, 0.1); q.valid() || !isNaN(q.LogPredictive(0.3)) {
			t.Errorf("%s.GCPStep = %+v is valid", at, q)
		}
	}
	// A NaN mean poisons everything that depends on m.
	p := good
	p.M = nan
	dm, da, db, dn := p.Grad(0.3)
	for name, v := range map[string]float64{
		"LogPredictive": p.LogPredictive(0.3), "Mean": p.Mean(), "CDF": p.CDF(0.3), "Quantile": p.Quantile(0.3),
		"KL(p‖good)": p.KL(good), "KL(good‖p)": good.KL(p), "dm": dm, "dα": da, "dβ": db, "dν": dn,
	} {
		if !isNaN(v) {
			t.Errorf("M = NaN: %s = %g, want NaN", name, v)
		}
	}
}

// TestNormalGammaVarInfiniteAlphaLE1: the Student-t variance does not exist
// for 2α ≤ 2 degrees of freedom.
func TestNormalGammaVarInfiniteAlphaLE1(t *testing.T) {
	for _, a := range []float64{1e-300, 1e-6, 0.5, math.Nextafter(1, 0), 1} {
		p := NormalGamma{M: 1, Nu: 1, Alpha: a, Beta: 1}
		if v := p.Var(); !math.IsInf(v, 1) {
			t.Errorf("α=%g: Var = %g, want +Inf", a, v)
		}
	}
	p := NormalGamma{M: 1, Nu: 1, Alpha: math.Nextafter(1, 2), Beta: 1}
	if v := p.Var(); math.IsInf(v, 0) || !(v > 1e15) {
		t.Errorf("α=1+ulp: Var = %g, want finite and huge", v)
	}
}

// TestNormalGammaIntervalErrLevel: levels outside (0, 1) return ErrLevel.
func TestNormalGammaIntervalErrLevel(t *testing.T) {
	p := NormalGamma{M: 1, Nu: 1, Alpha: 2, Beta: 1}
	for _, level := range []float64{0, 1, -0.1, 1.5, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)} {
		if _, _, err := p.Interval(level); !errors.Is(err, ErrLevel) {
			t.Errorf("Interval(%g): err = %v, want ErrLevel", level, err)
		}
	}
	for _, level := range []float64{math.SmallestNonzeroFloat64, 0.5, math.Nextafter(1, 0)} {
		lo, hi, err := p.Interval(level)
		if err != nil || !(lo <= hi) {
			t.Errorf("Interval(%g) = (%g, %g, %v), want lo ≤ hi and no error", level, lo, hi, err)
		}
	}
}

// TestNormalGammaGCPStepStaysPositive: however large the learning rate,
// GCPStep returns positive ν, α, β (a step past zero halves the parameter).
func TestNormalGammaGCPStepStaysPositive(t *testing.T) {
	starts := []NormalGamma{
		{M: 0, Nu: 1, Alpha: 2, Beta: 1},
		{M: 3, Nu: 1e-8, Alpha: 1e-3, Beta: 1e-6},
		{M: -1, Nu: 1e8, Alpha: 1e6, Beta: 1e6},
	}
	ys := []float64{0, 1e-300, 0.5, -3, 100, 1e150, -1e150}
	for _, p0 := range starts {
		for _, lr := range []float64{1, 1e3, 1e6, 1e100, 1e300, math.MaxFloat64} {
			for _, y := range ys {
				q := p0.GCPStep(y, lr)
				if !(q.Nu > 0 && q.Alpha > 0 && q.Beta > 0) {
					t.Errorf("%+v.GCPStep(%g, %g) = %+v", p0, y, lr, q)
				}
			}
			// A chain of steps keeps them positive too (finite lr, so that
			// the parameters stay finite and the chain stays meaningful).
			if lr > 1e6 {
				continue
			}
			p := p0
			for i := 0; i < 50; i++ {
				p = p.GCPStep(ys[i%len(ys)], lr)
				if !(p.Nu > 0 && p.Alpha > 0 && p.Beta > 0) {
					t.Fatalf("%+v after %d steps with lr %g: %+v", p0, i+1, lr, p)
				}
			}
		}
	}
}

// FuzzNormalGamma calls every NormalGamma method on arbitrary values. No
// call may panic, and for a valid prior (finite m, finite positive ν, α, β)
// and a finite y no result may be NaN: the extremes (α → ∞, ν → 0,
// |y − m| → ∞, overflow of σ) give limits such as ±Inf or 0 instead. KL is
// excepted when the posterior's β′ = β + ν(y−m)²/(2(ν+1)) overflows, where
// its closed form meets ∞ − ∞.
// regression: NaN at overflowed or subnormal parameters; the two crashers stay as seeds.
func FuzzNormalGamma(f *testing.F) {
	f.Add(0.0, 1.0, 2.0, 1.0, 0.5, 0.1)
	f.Add(1e308, 1e-308, 1e6, 1e308, -1e308, 1e300)
	f.Add(0.0, 1e-300, 1e-300, 1e-300, 1e300, 1.0)
	f.Add(-3.0, 1e300, 1e300, 5e-324, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, m, nu, alpha, beta, y, lr float64) {
		p := NormalGamma{M: m, Nu: nu, Alpha: alpha, Beta: beta}
		lp := p.LogPredictive(y)
		dm, da, db, dn := p.Grad(y)
		post := p.Posterior(y)
		kl := post.KL(p)
		step := p.GCPStep(y, lr)
		v, vc := p.Var(), p.VarCorrected()
		c, q := p.CDF(y), p.Quantile(0.3)
		_, _, _ = p.Interval(0.9)
		ok := finite(m) && finite(y) && positiveFinite(nu) && positiveFinite(alpha) && positiveFinite(beta)
		if !ok {
			return
		}
		for name, r := range map[string]float64{"LogPredictive": lp, "∂m": dm, "∂α": da, "∂β": db, "∂ν": dn,
			"Var": v, "VarCorrected": vc, "CDF": c, "Quantile": q, "Posterior.M": post.M, "Posterior.Beta": post.Beta} {
			if math.IsNaN(r) {
				t.Fatalf("%s(%+v, y=%g) = NaN", name, p, y)
			}
		}
		if math.IsNaN(kl) && finite(post.Beta) {
			t.Fatalf("KL(%+v ‖ %+v) = NaN", post, p)
		}
		if c < 0 || c > 1 {
			t.Fatalf("CDF(%+v, %g) = %g", p, y, c)
		}
		if lr >= 0 && finite(lr) && !(step.Nu > 0 && step.Alpha > 0 && step.Beta > 0 && !math.IsNaN(step.M)) {
			t.Fatalf("GCPStep(%+v, y=%g, lr=%g) = %+v leaves the domain", p, y, lr, step)
		}
	})
}
