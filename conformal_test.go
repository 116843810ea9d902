package gcp

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// exactRank returns ⌈(n+1)·level·(1 − slack)⌉ in exact rational
// arithmetic.
func exactRank(n int64, level, slack float64) int64 {
	p := new(big.Rat).Mul(big.NewRat(n+1, 1), new(big.Rat).SetFloat64(level))
	p.Mul(p, new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFloat64(slack)))
	q := new(big.Int).Quo(p.Num(), p.Denom()) // ⌊p⌋ for p ≥ 0
	if !p.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// TestConformalQuantileRank checks the rank each level picks: for the
// float64 nearest k/(n+1) and its two neighbours, whose exact products
// with n+1 lie within rounding of k, the rank k of the decimal level; for
// random levels, a rank between the exact ⌈(n+1)·level⌉ and the least
// that keeps the guarantee to within 2⁻⁴⁹ of the level, in exact
// arithmetic.
func TestConformalQuantileRank(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 1; n <= 300; n++ {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i + 1) // the r-th smallest score is r
		}
		c := thinScores(s)
		score := func(rank int64) float64 {
			if rank > int64(n) {
				return math.Inf(1)
			}
			return float64(max(rank, 1))
		}
		for k := 1; k <= n+1; k++ {
			e := float64(k) / float64(n+1)
			for _, level := range []float64{math.Nextafter(e, 0), e, math.Nextafter(e, 1)} {
				if level > 0 && level < 1 && c.quantile(level) != score(int64(k)) {
					t.Fatalf("n = %d, level %v: score %v, want rank %d", n, level, c.quantile(level), k)
				}
			}
		}
		for range 20 {
			level := r.Float64()
			lo, hi := exactRank(int64(n), level, 0x1p-49), exactRank(int64(n), level, 0)
			if got := c.quantile(level); got < score(lo) || got > score(hi) {
				t.Fatalf("n = %d, level %v: score %v, want rank %d to %d", n, level, got, lo, hi)
			}
		}
	}
}

// TestConformalThinned checks the order statistics kept beyond
// maxConformalScores: every level's bound is at or above its exact order
// statistic and at most ⌈n/M⌉ ranks above it.
func TestConformalThinned(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{maxConformalScores, maxConformalScores + 1, 5000, 100003} {
		s := make([]float64, n)
		for i := range s {
			s[i] = r.ExpFloat64()
		}
		slices.Sort(s)
		c := thinScores(s)
		if len(c.q) != min(n, maxConformalScores) || c.n != n {
			t.Fatalf("n = %d: %d kept of %d, want %d", n, len(c.q), c.n, min(n, maxConformalScores))
		}
		slack := (n + maxConformalScores - 1) / maxConformalScores
		for _, level := range []float64{1e-9, 0.1, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, float64(n) / float64(n+1)} {
			lo, hi := exactRank(int64(n), level, 0x1p-49), exactRank(int64(n), level, 0) // as TestConformalQuantileRank
			got := c.quantile(level)
			if lo > int64(n) {
				if !math.IsInf(got, 1) {
					t.Errorf("n = %d, level %v: %v, want +Inf", n, level, got)
				}
				continue
			}
			// The rank of got among s: the scores are distinct (continuous
			// draws), so it is got's position.
			at, _ := slices.BinarySearch(s, got)
			if at+1 < int(lo) || at+1 > int(hi)+slack {
				t.Errorf("n = %d, level %v: bound of rank %d, want %d to %d", n, level, at+1, lo, int(hi)+slack)
			}
		}
	}
}

// TestConformalCoverage checks the split-conformal guarantee by Monte
// Carlo: with a fixed predictive N(0, 1) and targets it does not describe
// (Student t₃ noise with scale 2, and that noise with 10% outliers from
// N(0, 30²)), the interval from n = 50 calibration rows holds a new
// target with probability ⌈51·level⌉/51 exactly (continuous scores take
// every rank among the 51 alike). Within 4.5 binomial standard errors of
// it, 0.0135 at 90% for 10,000 draws, only a broken guarantee fails.
func TestConformalCoverage(t *testing.T) {
	const n, draws = 50, 10000
	r := rand.New(rand.NewPCG(9, 10))
	t3 := func() float64 {
		z := r.NormFloat64()
		var s float64 // χ² with 3 degrees of freedom
		for range 3 {
			g := r.NormFloat64()
			s += g * g
		}
		return 2 * z / math.Sqrt(s/3)
	}
	for _, outliers := range []float64{0, 0.1} {
		noise := func() float64 {
			if r.Float64() < outliers {
				return 30 * r.NormFloat64()
			}
			return t3()
		}
		m, err := New[float64](Config{Inputs: 1})
		if err != nil {
			t.Fatal(err)
		}
		p := Prediction{Mean: 0, VarCorrected: 1}
		preds := make([]Prediction, n)
		for i := range preds {
			preds[i] = p
		}
		for _, level := range []float64{0.8, 0.9, 0.95} {
			in := 0
			y := make([]float64, n)
			for range draws {
				for i := range y {
					y[i] = noise()
				}
				m.ext.conformal = newConformalScores(preds, y)
				lo, hi, err := m.ConformalInterval(p, level)
				if err != nil {
					t.Fatal(err)
				}
				if v := noise(); lo <= v && v <= hi {
					in++
				}
			}
			want := math.Ceil(float64(n+1)*level) / float64(n+1)
			got := float64(in) / draws
			se := math.Sqrt(want * (1 - want) / draws)
			if math.Abs(got-want) > 4.5*se {
				t.Errorf("outliers %v, level %v: coverage %.4f, want %.4f ± %.4f", outliers, level, got, want, 4.5*se)
			}
		}
	}
}

// TestConformalIntervalErrors checks the documented errors and the
// unbounded interval of a level beyond what the rows can bound.
func TestConformalIntervalErrors(t *testing.T) {
	p := Prediction{Mean: 1, VarCorrected: 4}
	var nilModel *Model[float64]
	if _, _, err := nilModel.ConformalInterval(p, 0.9); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v, want ErrConfig", err)
	}
	m, err := New[float64](Config{Inputs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.ConformalInterval(p, 0.9); !errors.Is(err, ErrNoConformal) || m.ConformalRows() != 0 {
		t.Errorf("a model without calibration: %v, %d rows; want ErrNoConformal, 0", err, m.ConformalRows())
	}
	// Nine residuals in units of sd 2: at 80%, rank ⌈10·0.8⌉ = 8 (of the
	// decimal 0.8; see conformalLevelSlack).
	preds := []Prediction{p, p, p, p, p, p, p, p, p}
	y := []float64{3, -1, 5, -3, 7, -5, 9, -7, 11} // |y − 1|/2 = 1, 1, 2, 2, 3, 3, 4, 4, 5
	m.ext.conformal = newConformalScores(preds, y)
	if lo, hi, err := m.ConformalInterval(p, 0.8); err != nil || lo != 1-2*4 || hi != 1+2*4 || m.ConformalRows() != 9 {
		t.Errorf("80%%: [%v, %v], %v, %d rows; want [−7, 9] from the 8th score, 4", lo, hi, err, m.ConformalRows())
	}
	if lo, hi, err := m.ConformalInterval(p, 0.95); err != nil || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("95%% of 9 rows: [%v, %v], %v; want unbounded", lo, hi, err)
	}
	for _, level := range []float64{0, 1, math.NaN()} {
		if _, _, err := m.ConformalInterval(p, level); !errors.Is(err, ErrLevel) {
			t.Errorf("level %v: %v, want ErrLevel", level, err)
		}
	}
	// Under the log transform the scores are of z = ln y: the interval is
	// exp(ZMean ± 4·√ZVarCorrected), whatever Mean and VarCorrected (in
	// y's units) say.
	lp := Prediction{Transform: TransformLog, ZMean: 0.5, ZVarCorrected: 0.25, Mean: 100, VarCorrected: 1e4}
	if lo, hi, err := m.ConformalInterval(lp, 0.8); err != nil || lo != math.Exp(0.5-4*0.5) || hi != math.Exp(0.5+4*0.5) {
		t.Errorf("log model at 80%%: [%v, %v], %v; want [e^−1.5, e^2.5]", lo, hi, err)
	}
	if c := m.Clone(); c.ConformalRows() != 9 {
		t.Errorf("a clone has %d calibration rows, want 9", c.ConformalRows())
	}
}

// TestCalibrateSetsConformal checks that Calibrate makes its rows the
// model's conformal calibration, and leaves it as it was on error.
func TestCalibrateSetsConformal(t *testing.T) {
	m, err := New[float64](Config{Inputs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	x, y := randomBatch[float64](2, 40, 2)
	if _, _, err := m.Calibrate(x, y); err != nil {
		t.Fatal(err)
	}
	if m.ConformalRows() != 40 {
		t.Fatalf("after Calibrate on 40 rows: %d conformal rows", m.ConformalRows())
	}
	bad := slices.Clone(y)
	bad[3] = math.NaN()
	if _, _, err := m.Calibrate(x, bad); err == nil || m.ConformalRows() != 40 {
		t.Errorf("Calibrate with a NaN target: %v, %d conformal rows; want an error and the 40 rows kept", err, m.ConformalRows())
	}
}

// TestConformalSection checks that a model's conformal calibration is
// saved as format version 5's section and read back exactly, thinned or
// not, and that a malformed payload is refused with ErrFormat.
func TestConformalSection(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 37, maxConformalScores + 5} {
		m := persistFittedV3[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 27})
		s := make([]float64, n)
		for i := range s {
			s[i] = r.ExpFloat64()
		}
		s[n-1] = math.Inf(1) // an overflowed residual
		slices.Sort(s)
		m.ext.conformal = thinScores(s)
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if h, _ := parseHeader(b); h.version != fileVersionSections {
			t.Fatalf("n = %d: version %d, want %d for the section", n, h.version, fileVersionSections)
		}
		var got Model[float64]
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if d := persistDiff(m, &got); d != "" {
			t.Errorf("n = %d: round trip differs (-want +got):\n%s", n, d)
		}
	}
	// A version-5 model with the log transform's section, to which the
	// conformal one is added.
	base, err := persistFittedV5[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 28}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	withConformal := func(p []byte) []byte {
		return persistWithSections(base, append(section(sectionTransform, byte(TransformLog)), section(sectionConformal, p...)...), -1)
	}
	payload := func(n uint64, q ...float64) []byte {
		b := le.AppendUint64(nil, n)
		for _, v := range q {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	good := payload(3, 0.5, 1, 2)
	var m Model[float64]
	if err := m.UnmarshalBinary(withConformal(good)); err != nil || m.ConformalRows() != 3 {
		t.Fatalf("a good section: %v, %d rows", err, m.ConformalRows())
	}
	for name, p := range map[string][]byte{
		"no rows":        payload(0),
		"short":          good[:7],
		"one missing":    payload(3, 0.5, 1),
		"one too many":   payload(2, 0.5, 1, 2),
		"descending":     payload(3, 0.5, 2, 1),
		"negative":       payload(3, -0.5, 1, 2),
		"NaN":            payload(3, 0.5, math.NaN(), 2),
		"thinned wrong":  payload(maxConformalScores+1, 1),
		"beyond int":     payload(math.MaxUint64, 1),
		"trailing bytes": append(slices.Clone(good), 0),
	} {
		var got Model[float64]
		if err := got.UnmarshalBinary(withConformal(p)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
}

// TestConformalHugeRowCount loads conformal sections that claim more
// calibration rows than any data set holds, as a crafted file may: up to
// 2⁵³ rows the model answers each level with the stored order statistic
// of a rank ⌈j·n/M⌉ (with n = 2⁵³ and M = 2048, j·2⁴²) that keeps the
// level's guarantee and is the least such, in exact arithmetic as
// TestConformalThinned, and its interval contains its mean; beyond 2⁵³
// the load fails with ErrFormat.
// regression: (rank−1)·M overflowed int64 from about n = 2⁵², and gcp
// predict panicked with an index out of range, or at n = 2⁶² picked a low
// score and gave an interval that missed its mean.
func TestConformalHugeRowCount(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a 32-bit int holds at most 2³¹ − 1 rows, which TestConformalSection's \"beyond int\" covers")
	}
	fitted := persistFittedV3[float64](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 29})
	fitted.ext.conformal = thinScores([]float64{1}) // a version-5 model, whose section is replaced
	base, err := fitted.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	load := func(n uint64) (*Model[float64], error) {
		p := le.AppendUint64(nil, n)
		for j := range maxConformalScores {
			p = le.AppendUint64(p, math.Float64bits(float64(j+1))) // the j-th kept score is j
		}
		b := persistWithSections(base, section(sectionConformal, p...), -1)
		var m Model[float64]
		return &m, m.UnmarshalBinary(b)
	}
	const n int64 = 1 << 53
	m, err := load(uint64(n))
	if err != nil {
		t.Fatalf("n = 2⁵³: %v", err)
	}
	p, err := m.Predict(m.NewWorkspace(), []float64{0.5, -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []float64{1e-9, 0.5, 0.9, 0.95, 0.99, 1 - 0x1p-40} {
		lo, hi, err := m.ConformalInterval(p, level)
		if err != nil || !(lo <= p.Mean && p.Mean <= hi) {
			t.Fatalf("n = 2⁵³, level %v: [%v, %v], %v; want an interval around the mean %v", level, lo, hi, err, p.Mean)
		}
		// The score j has rank j·2⁴²: at least the rank that keeps the
		// guarantee, and the one below it short of the exact rank.
		j := int64(m.ext.conformal.quantile(level))
		if lo, hi := exactRank(n, level, 0x1p-49), exactRank(n, level, 0); j<<42 < lo || (j-1)<<42 >= hi {
			t.Errorf("n = 2⁵³, level %v: score %d of rank %d, want the least rank ⌈j·2⁴²⌉ ≥ %d, at least %d", level, j, j<<42, hi, lo)
		}
	}
	for _, n := range []uint64{1<<53 + 1, 1 << 62, math.MaxInt64} {
		if _, err := load(n); !errors.Is(err, ErrFormat) {
			t.Errorf("n = %d: %v, want ErrFormat", n, err)
		}
	}
}
