package gcp

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// specEps is the float64 machine epsilon eps = 2⁻⁵², the unit in which
// the tests report errors.
const specEps = 0x1p-52

// specialRef is one row of the mpmath reference tables written by
// testdata/gen_special.py.
type specialRef struct {
	x, want float64
	line    string
}

// specialRefFiles are the reference tables, all with columns name,x,want.
var specialRefFiles = []string{"testdata/special_ref.csv", "testdata/correction_ref.csv", "testdata/normal_quantile_ref.csv"}

// loadSpecialRefs reads the reference tables once and groups the rows by
// function name.
var loadSpecialRefs = sync.OnceValues(func() (map[string][]specialRef, error) {
	refs := map[string][]specialRef{}
	for _, path := range specialRefFiles {
		if err := readSpecialRefs(path, refs); err != nil {
			return nil, err
		}
	}
	return refs, nil
})

// readSpecialRefs adds the rows of one table to refs.
func readSpecialRefs(path string, refs map[string][]specialRef) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || text == "name,x,want" {
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) != 3 {
			return fmt.Errorf("%s:%d: want 3 fields, got %q", path, n, text)
		}
		x, errX := strconv.ParseFloat(fields[1], 64)
		want, errW := strconv.ParseFloat(fields[2], 64)
		if errX != nil || errW != nil {
			return fmt.Errorf("%s:%d: %q: bad number", path, n, text)
		}
		refs[fields[0]] = append(refs[fields[0]], specialRef{x: x, want: want, line: fmt.Sprintf("%s:%d", path, n)})
	}
	return sc.Err()
}

// checkSpecialRef compares f with every reference row for name and fails
// unless |f(x) − want| ≤ tol·max(floor, |want|) on each; floor = 0 asks for
// pure relative error, floor = 1 for relative error above 1 and absolute
// error below. It logs the worst error found.
func checkSpecialRef(t *testing.T, name string, f func(float64) float64, tol, floor float64) {
	t.Helper()
	refs, err := loadSpecialRefs()
	if err != nil {
		t.Fatal(err)
	}
	rows := refs[name]
	if len(rows) == 0 {
		t.Fatalf("no reference rows for %s", name)
	}
	worst, worstX := -1.0, 0.0
	for _, r := range rows {
		got := f(r.x)
		e := math.Abs(got-r.want) / math.Max(floor, math.Abs(r.want))
		if !(e <= tol) {
			t.Errorf("%s: %s(%v) = %v, want %v (error %.3g > %.0e)", r.line, name, r.x, got, r.want, e, tol)
		}
		if !(e <= worst) {
			worst, worstX = e, r.x
		}
	}
	t.Logf("%s: %d mpmath points, worst error %.3g (%.2f eps) at x = %v, tolerance %.0e",
		name, len(rows), worst, worst/specEps, worstX, tol)
}

// specialValue is an input whose result is known exactly.
type specialValue struct{ x, want float64 }

// checkSpecialValues fails unless f(x) is want for each value: NaN for NaN, the
// same infinity, and the same sign for a zero.
func checkSpecialValues(t *testing.T, name string, f func(float64) float64, values []specialValue) {
	t.Helper()
	for _, v := range values {
		got := f(v.x)
		same := got == v.want && math.Signbit(got) == math.Signbit(v.want) || math.IsNaN(got) && math.IsNaN(v.want)
		if !same {
			t.Errorf("%s(%v) = %v, want %v", name, v.x, got, v.want)
		}
	}
}

// Special inputs and results, named for the tables below.
var (
	specNaN    = math.NaN()
	specInf    = math.Inf(1)
	specNegInf = math.Inf(-1)
	specNegZ   = math.Copysign(0, -1)
)

func TestDigamma(t *testing.T) {
	// ψ(x) is a log, an 8-term series and a sum of ≤ 10 reciprocals, about
	// 20 roundings of numbers below ~3 (~2e-15) at worst; 1e-14 is the
	// promised accuracy. Near the root x0 ≈ 1.4616 and the roots on the
	// negative axis ψ is a difference of O(1) terms, so only the absolute
	// error can be small there: hence the floor 1.
	checkSpecialRef(t, "Digamma", digamma, 1e-14, 1)
	checkSpecialValues(t, "Digamma", digamma, []specialValue{
		{0, specNegInf}, {specNegZ, specInf}, // one-sided limits picked by the sign, like math.Gamma(±0) = ±Inf
		{-1, specNaN}, {-2, specNaN}, {-1e300, specNaN}, {-0x1p52, specNaN}, // poles: the one-sided limits differ
		{specInf, specInf}, {specNegInf, specNaN}, {specNaN, specNaN},
		{5e-324, specNegInf}, // ψ(x) ≈ −1/x = −2e323 overflows
	})
}

func TestErfcxRational(t *testing.T) {
	// Cody's rational approximations against the erfcx rows of mpmath from
	// erfcxRationalMin on. Measured on a dense grid of [0.47, 40]: 6.1e-16
	// (2.7 eps) at worst, from the roundings of the polynomials (Estrin's
	// scheme, all terms positive) and the quotient; 2e-15 leaves a factor 3.
	const tol = 2e-15
	refs, err := loadSpecialRefs()
	if err != nil {
		t.Fatal(err)
	}
	n, worst := 0, 0.0
	for _, r := range refs["Erfcx"] {
		if r.x < erfcxRationalMin {
			continue
		}
		n++
		e := math.Abs(erfcxRational(r.x)-r.want) / r.want
		if !(e <= tol) {
			t.Errorf("%s: erfcxRational(%v) = %v, want %v (error %.3g > %.0e)", r.line, r.x, erfcxRational(r.x), r.want, e, tol)
		}
		worst = math.Max(worst, e)
	}
	if n < 100 {
		t.Fatalf("only %d reference rows from %v on", n, erfcxRationalMin)
	}
	t.Logf("erfcxRational: %d mpmath points, worst error %.3g (%.2f eps)", n, worst, worst/specEps)
}

func TestErfcx(t *testing.T) {
	// Below 0.46875, exp(hi)·(1+lo)·erfc(x) is math.Exp and math.Erfc (each
	// within ~3 eps) and two products; beyond, Cody's rational
	// approximation, 6.1e-16 against mpmath on [0.47, 40]; the reflection
	// for x < 0 adds a difference that never cancels. ~1e-15 at worst
	// (1.3 eps measured, also on s390x, whose assembly math.Erfc lost up
	// to 64 eps towards x = 12 when the product branch reached that far);
	// 1e-14 is the required accuracy.
	const tol = 1e-14
	checkSpecialRef(t, "Erfcx", erfcx, tol, 0)
	checkSpecialValues(t, "Erfcx", erfcx, []specialValue{
		{0, 1}, {specInf, 0}, {specNaN, specNaN},
		{-27, specInf}, {specNegInf, specInf}, {-1e300, specInf}, // 2·exp(x²) overflows
	})
	// No overflow or underflow for large x: erfcx(x)·x·√π = 1 − 1/(2x²) + …,
	// which is 1 in float64 for x ≥ 1e8; 2 eps covers the two roundings of
	// invSqrtPi/x and the product here.
	for _, x := range []float64{1e8, 1e20, 1e154, 1e155, 1e300} {
		if r := erfcx(x) * x * math.Sqrt(math.Pi); math.Abs(r-1) > 2*specEps {
			t.Errorf("Erfcx(%g)·x·√π = %v, want 1", x, r)
		}
	}
}

func TestDigammaHalfStep(t *testing.T) {
	// Positive terms only: one fraction of ≤ 10 terms plus a 10-term series
	// led by 1/(2x), ~2e-15 at worst; 1e-14 relative is the requirement.
	checkSpecialRef(t, "digammaHalfStep", digammaHalfStep, 1e-14, 0)
	checkSpecialValues(t, "digammaHalfStep", digammaHalfStep, []specialValue{
		{0, specInf}, {specInf, 0}, {-1, specNaN}, {specNegZ, specInf}, {specNaN, specNaN},
	})
}

func TestLgammaHalfStep(t *testing.T) {
	// A series or a series minus two logs of moderate size: a few eps of
	// the largest term. The value crosses 0 near x ≈ 1.2, so the error is
	// relative to max(1, |value|), as required.
	checkSpecialRef(t, "lgammaHalfStep", lgammaHalfStep, 1e-14, 1)
	checkSpecialValues(t, "lgammaHalfStep", lgammaHalfStep, []specialValue{
		{0, specNegInf}, {specInf, specInf}, {-1, specNaN}, {specNaN, specNaN},
	})
}

func TestSoftplus(t *testing.T) {
	// exp, log1p and one addition of non-negative terms: ≤ 3 roundings.
	checkSpecialRef(t, "softplus", softplus, 1e-15, 0)
	checkSpecialValues(t, "softplus", softplus, []specialValue{
		{0, math.Ln2}, {1e-300, math.Ln2}, {1000, 1000}, {1e300, 1e300}, {specInf, specInf},
		{-745, 5e-324}, // e^−745 = 4.9e-324 rounds to the smallest subnormal
		{-1000, 0}, {-1e300, 0}, {specNegInf, 0}, {specNaN, specNaN},
	})
	// softplus' = sigmoid: central differences with h = 1e-5 are accurate to
	// h²/6·|σ''| + eps·softplus(x)/h ≲ 1e-9, inside 1e-8.
	for x := -30.0; x <= 30; x += 0.25 {
		const h = 1e-5
		d := (softplus(x+h) - softplus(x-h)) / (2 * h)
		if s := sigmoid(x); math.Abs(d-s) > 1e-8*s+1e-11 {
			t.Errorf("softplus'(%g) ≈ %v, sigmoid = %v", x, d, s)
		}
	}
}

func TestSigmoid(t *testing.T) {
	// exp, one addition and one division: ≤ 3 roundings.
	checkSpecialRef(t, "sigmoid", sigmoid, 1e-15, 0)
	checkSpecialValues(t, "sigmoid", sigmoid, []specialValue{
		{0, 0.5}, {1000, 1}, {1e300, 1}, {specInf, 1},
		{-745, 5e-324}, {-1000, 0}, {-1e300, 0}, {specNegInf, 0}, {specNaN, specNaN},
	})
}

func TestCorrectionA(t *testing.T) {
	// The generator bounds the approximation error by 2e-16; evaluation
	// adds a few roundings. 1e-12 is the requirement, on [1e-9, 1e12].
	checkSpecialRef(t, "CorrectionA", correctionA, 1e-12, 0)
	checkSpecialValues(t, "CorrectionA", correctionA, []specialValue{
		{0, 0}, {specInf, 1}, {math.MaxFloat64, 1}, {5e-324, 5e-324},
		{-1, specNaN}, {specNegInf, specNaN}, {specNaN, specNaN},
	})
}

func TestCorrectionGap(t *testing.T) {
	// As for correctionA; the small-α branch is α²·q(α), with no
	// cancellation, so the relative error holds down to 1e-9 and beyond.
	checkSpecialRef(t, "correctionGap", correctionGap, 1e-12, 0)
	checkSpecialValues(t, "correctionGap", correctionGap, []specialValue{
		{0, 0}, {specInf, specInf}, {math.MaxFloat64, math.MaxFloat64},
		{-1, specNaN}, {specNegInf, specNaN}, {specNaN, specNaN},
	})
	// A(α) + (α − A(α)) = α up to the rounding of the sum and of the two
	// parts (each within a few eps of its own size ≤ α).
	for _, a := range correctionGrid(-9, 12) {
		if s := correctionA(a) + correctionGap(a); math.Abs(s-a) > 4*specEps*a {
			t.Errorf("A(%v) + gap = %v", a, s)
		}
	}
}

// correctionGrid returns α = 10^(k/100) for k from 100·lo to 100·hi, plus
// b·(1 ∓ 1e-9) and b for every boundary b between the approximations of
// correctionA, in increasing order.
func correctionGrid(lo, hi int) []float64 {
	var grid []float64
	for k := 100 * lo; k <= 100*hi; k++ {
		grid = append(grid, math.Pow(10, float64(k)/100))
	}
	perBinade := 1 << (52 - corrPieceShift)
	for b := corrPieceMin; b <= corrAsymMin; b *= 2 {
		for j := 0; j < perBinade; j++ {
			e := b * (1 + float64(j)/float64(perBinade))
			if e <= corrAsymMin && grid[0] < e && e < grid[len(grid)-1] {
				grid = append(grid, e*(1-1e-9), e, e*(1+1e-9))
			}
		}
	}
	slices.Sort(grid)
	return slices.Compact(grid)
}

// TestCorrectionALemma checks the items of Lemma 3.1
// and the values quoted in the paper.
func TestCorrectionALemma(t *testing.T) {
	t.Run("paper values", func(t *testing.T) {
		// The paper quotes A(1) ≈ 0.46 and A(2) ≈ 0.619: within half a unit
		// of the last digit shown.
		if a := correctionA(1); math.Abs(a-0.46) > 0.005 {
			t.Errorf("A(1) = %v, want ≈ 0.46", a)
		}
		if a := correctionA(2); math.Abs(a-0.619) > 0.0005 {
			t.Errorf("A(2) = %v, want ≈ 0.619", a)
		}
	})
	t.Run("bounds", func(t *testing.T) {
		// 2α/(2α+3) < A(α) < min(α, 1) (Lemma 3.1, item 3). The grid stops
		// at 1e6: the gap A − 2α/(2α+3) ≈ 1.5/α² must stay well above the
		// rounding of numbers near 1 (1e-16) for a strict test.
		for _, a := range correctionGrid(-8, 6) {
			if v := correctionA(a); !(2*a/(2*a+3) < v && v < math.Min(a, 1)) {
				t.Errorf("A(%v) = %v outside (%v, %v)", a, v, 2*a/(2*a+3), math.Min(a, 1))
			}
		}
	})
	t.Run("monotone", func(t *testing.T) {
		// A' > 0 (Lemma 3.1, item 2), across every piece boundary too.
		grid := correctionGrid(-9, 12)
		for i := 1; i < len(grid); i++ {
			if !(correctionA(grid[i]) > correctionA(grid[i-1])) {
				t.Errorf("A(%v) = %v ≤ A(%v) = %v", grid[i], correctionA(grid[i]), grid[i-1], correctionA(grid[i-1]))
			}
		}
	})
	t.Run("ODE", func(t *testing.T) {
		// A' = 1 − 2(α−A)/((2α+1)A) (Eq. (3.17)), with A' from central
		// differences, h = 1e-4·α: truncation h²·|A'''|/6 ≤ 1e-8·A' and
		// rounding eps·A/h ≤ 1e-9·A' on [1e-3, 1e3], so 1e-6 is safe.
		for _, a := range correctionGrid(-3, 3) {
			h := 1e-4 * a
			d := (correctionA(a+h) - correctionA(a-h)) / (2 * h)
			rhs := 1 - 2*correctionGap(a)/((2*a+1)*correctionA(a))
			if math.Abs(d-rhs) > 1e-6*rhs {
				t.Errorf("α = %v: A' ≈ %v, Eq. (3.17) gives %v", a, d, rhs)
			}
		}
	})
	t.Run("asymptotics", func(t *testing.T) {
		// Eq. (3.18) as α → 0: (α−A)/α² = 4/π + q₁α + O(α²) with
		// q₁ = −32(π/2−1)/π² ≈ −1.851 (series inversion of α(x), see
		// testdata/gen_correction.py). |q₁| < 2 bounds the next order.
		for _, a := range []float64{1e-9, 1e-7, 1e-5} {
			if q := correctionGap(a) / (a * a); math.Abs(q-4/math.Pi) > 2*a+4*specEps {
				t.Errorf("(α−A)/α² = %v at α = %v, want 4/π ± 2α", q, a)
			}
			if v := correctionA(a); math.Abs(v-(a-4/math.Pi*a*a)) > 2*a*a*a+specEps*a {
				t.Errorf("A(%v) = %v, want α − (4/π)α² ± 2α³", a, v)
			}
		}
		// Eq. (3.18) as α → ∞: A = 1 − 3/(2α) + c₁/α² + … with
		// c₁ = 15/4 (corrAsym[1] is −c₁ for p = α(1−A)). 4/α² bounds the
		// next order; eps is the rounding of a number near 1.
		for _, a := range []float64{1e3, 1e4, 1e6, 1e12} {
			if v := correctionA(a); math.Abs(v-(1-1.5/a)) > 4/(a*a)+specEps {
				t.Errorf("A(%v) = %v, want 1 − 3/(2α) ± 4/α²", a, v)
			}
		}
	})
}

// specialFuncs lists every function of special.go with the inputs for
// which its documented result is NaN and a property every other result has.
var specialFuncs = []struct {
	name    string
	f       func(float64) float64
	nanAt   func(x float64) bool
	inRange func(x, y float64) bool
}{
	{"Digamma", digamma, func(x float64) bool { return math.IsNaN(x) || x < 0 && x == math.Trunc(x) },
		func(x, y float64) bool { return true }},
	{"Erfcx", erfcx, math.IsNaN, func(x, y float64) bool { return y >= 0 }},
	{"CorrectionA", correctionA, func(x float64) bool { return math.IsNaN(x) || x < 0 },
		func(x, y float64) bool { return y >= 0 && y <= math.Min(x, 1) }},
	{"correctionGap", correctionGap, func(x float64) bool { return math.IsNaN(x) || x < 0 },
		func(x, y float64) bool { return y >= 0 && y <= x }},
	{"digammaHalfStep", digammaHalfStep, func(x float64) bool { return math.IsNaN(x) || x < 0 },
		func(x, y float64) bool { return y >= 0 }},
	{"lgammaHalfStep", lgammaHalfStep, func(x float64) bool { return math.IsNaN(x) || x < 0 },
		func(x, y float64) bool { return true }},
	{"softplus", softplus, math.IsNaN, func(x, y float64) bool { return y >= 0 && y >= x }},
	{"sigmoid", sigmoid, math.IsNaN, func(x, y float64) bool { return y >= 0 && y <= 1 }},
}

// FuzzSpecial calls every function of special.go with an arbitrary float64
// and checks that it does not panic, returns NaN exactly where documented
// and otherwise a result in the function's range.
func FuzzSpecial(f *testing.F) {
	for _, x := range []float64{
		0, specNegZ, 1, -1, 0.5, -0.5, 1e-300, -1e-300, 5e-324, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		-3 + 1e-10, -0x1p52, 1.4616321449683622, 12, -26.7, corrPieceMin, corrAsymMin, 700, -745,
		specInf, specNegInf, specNaN,
	} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		for _, s := range specialFuncs {
			y := s.f(x)
			switch {
			case math.IsNaN(y) != s.nanAt(x):
				t.Errorf("%s(%v) = %v; NaN is documented only where nanAt holds", s.name, x, y)
			case !math.IsNaN(y) && !s.inRange(x, y):
				t.Errorf("%s(%v) = %v out of range", s.name, x, y)
			}
		}
	})
}

// TestFullRangeExpLog checks logFull and expFull where the standard
// library's assembly is wrong on some architecture: ln of subnormals
// (amd64) and subnormal results of exp (arm64). The references are mpmath
// values at 40 digits.
func TestFullRangeExpLog(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{5e-324, -744.44007192138126232},
		{1e-310, -713.80137882815416205},
		{2e-308, -708.50306146160612537},
		{0.5, -0.69314718055994530942},
	} {
		// A correctly rounded log has error ≤ 0.5 ulp; the rescaling adds
		// one rounding of 54·ln 2, so allow 4 ulp.
		if got := logFull(c.x); math.Abs(got-c.want) > 4*math.Abs(c.want)*0x1p-53 {
			t.Errorf("logFull(%g) = %.17g, want %.17g", c.x, got, c.want)
		}
	}
	for _, c := range []struct{ x, want float64 }{
		{-745, 2.8223507304719370764e-324}, // rounds to the smallest subnormal
		{-720, 2.0322308024242931529e-313},
		{-709, 1.2167807506234230655e-308},
		{-1, 0.36787944117144232160},
	} {
		// In the subnormal range the spacing is 2⁻¹⁰⁷⁴ ≈ 4.9e-324 and the
		// result is rounded once from a square with ~2 ulp relative error:
		// at most one spacing off there, and 4 ulp for normal results.
		tol := max(0x1p-1074, 4*c.want*0x1p-53)
		if got := expFull(c.x); math.Abs(got-c.want) > tol {
			t.Errorf("expFull(%g) = %.17g, want %.17g", c.x, got, c.want)
		}
	}
}

func TestExpTaylor(t *testing.T) {
	// The Taylor remainder is below 6e-18 relative; what is left is the
	// rounding of r (half an ulp of |r| ≤ 0.35: 0.18 ulp of eʳ), of the
	// polynomial for eʳ − 1 (its terms decrease: about 1.5 ulps of it, at
	// most 0.42 of eʳ: 0.63 ulp) and of adding the 1 (0.5 ulp), 1.3 ulps
	// in all, ≤ 1.3 eps; the scaling by 2ᵏ is exact. Tolerance 1.5 eps
	// (measured 0.87).
	checkSpecialRef(t, "expTaylor", expTaylor, 1.5*specEps, 0)
	// Outside (−708, 709) it is math.Exp's value.
	for _, x := range []float64{-745, -708, 709, 709.7, 710, 1e300, -1e300, specInf, specNegInf, specNaN} {
		got, want := expTaylor(x), math.Exp(x)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("expTaylor(%v) = %v, want math.Exp's %v", x, got, want)
		}
	}
}

func TestLog1pEstrin(t *testing.T) {
	// fdlibm's algorithm claims an error below 1 ulp; Estrin's scheme
	// changes only the rounding of R, which enters through s·R, below 1e-3
	// of the result. 1.5 eps (measured 0.9, math.Log1p's 0.9 on the same
	// rows) leaves room for the ulp and the final rounding.
	checkSpecialRef(t, "log1pEstrin", log1pEstrin, 1.5*specEps, 0)
	checkSpecialValues(t, "log1pEstrin", log1pEstrin, []specialValue{
		{0, 0}, {specNegZ, 0}, {-1, specNegInf}, {specInf, specInf},
		{math.Nextafter(-1, -2), specNaN}, {specNegInf, specNaN}, {specNaN, specNaN},
	})
}
