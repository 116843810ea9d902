package robust

import (
	"math"
	"testing"
)

// TestCenterScaleClosedForms checks CenterScale on columns whose median
// and scale are known exactly: 0, 1, …, n−1 has the median (n−1)/2 and,
// with the quartiles at (n−1)/4 and 3(n−1)/4 exactly (n−1 divisible by
// 4), the scale (n−1)/(2·iqrPerSD); one gross outlier replacing the
// largest value changes neither; more than half the values tied makes
// the interquartile range 0 and the scale the standard deviation (of
// {0×4, 10}: mean 2, variance (4·2² + 8²)/5 = 16, sd 4); a constant column gets scale 1, also where its computed mean is
// not exact (forty copies of 0.1).
func TestCenterScaleClosedForms(t *testing.T) {
	const n = 401
	v := make([]float64, n)
	for i := range v {
		v[n-1-i] = float64(i) // reversed: CenterScale sorts
	}
	c, s := CenterScale(v)
	if c != 200 || s != 200/iqrPerSD {
		t.Errorf("0..400: centre %v, scale %v; want 200, %v", c, s, 200/iqrPerSD)
	}
	v[n-1] = 1e300
	if c2, s2 := CenterScale(v); c2 != c || s2 != s {
		t.Errorf("0..399 and 1e300: centre %v, scale %v; want %v, %v as without the outlier", c2, s2, c, s)
	}
	for _, col := range []struct {
		v              []float64
		center, scale  float64
		scaleTolerance float64 // relative; the reason is beside each row
	}{
		{[]float64{0, 10, 0, 0, 0}, 0, 4, 4e-16}, // sd by sums of five terms and a square root: a few roundings
		{[]float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1,
			0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 0.1, 1, 0},
		{[]float64{-3, -3, -3}, -3, 1, 0},
	} {
		c, s := CenterScale(col.v)
		if c != col.center || math.Abs(s-col.scale) > col.scaleTolerance*col.scale {
			t.Errorf("%v: centre %v, scale %v; want %v, %v", col.v, c, s, col.center, col.scale)
		}
	}
}

// TestCenterScaleExtremes checks the columns at float64's edges: a
// subnormal spread gets the smallest normal scale, whose reciprocal is
// finite; ±1e308 a finite scale (its quartiles' difference, 2e308,
// would overflow); every scale is positive and finite.
func TestCenterScaleExtremes(t *testing.T) {
	sub := make([]float64, 40)
	big := make([]float64, 40)
	for i := range sub {
		sub[i] = float64(i) * 1e-320
		big[i] = float64(1-2*(i%2)) * 1e308
	}
	if _, s := CenterScale(sub); s != minNormal {
		t.Errorf("subnormal spread: scale %v, want %v", s, minNormal)
	}
	if c, s := CenterScale(big); c != 0 || !(s > 1e308 && s <= math.MaxFloat64) {
		t.Errorf("±1e308: centre %v, scale %v; want 0 and a finite scale above 1e308", c, s)
	}
}

// TestQuantile checks the interpolation between order statistics on
// {1, 2, 4, 8}: the q-quantile lies at position 3q, so q = ½ is 3, q = ⅓
// is 2, q = 1 is 8 and q = 0.9 is 4 + 0.7·4 = 6.8; and the gap between
// −1e308 and 1e308 does not overflow.
func TestQuantile(t *testing.T) {
	v := []float64{1, 2, 4, 8}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {1.0 / 3, 2}, {0.5, 3}, {0.9, 6.8}, {1, 8}} {
		// 0.9·3 and 0.7·4 round once each: a few ulps of 6.8.
		if got := Quantile(v, c.q); math.Abs(got-c.want) > 4e-15 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", v, c.q, got, c.want)
		}
	}
	if got := Quantile([]float64{-1e308, 1e308}, 0.5); got != 0 {
		t.Errorf("median of ±1e308 = %v, want 0", got)
	}
}

// TestStandardizable checks that a column is refused exactly when its
// extremes overflow the element type once standardized.
func TestStandardizable(t *testing.T) {
	if err := Standardizable[float32](-1, 1e39, 0, 1); err == nil {
		t.Error("1e39 in float32: no error")
	}
	if err := Standardizable[float64](-1, 1e39, 0, 1); err != nil {
		t.Errorf("1e39 in float64: %v", err)
	}
	if err := Standardizable[float64](-1e308, 1e308, -1e308, 0.5); err == nil {
		t.Error("a column spanning 2e308 over a scale of 0.5: no error")
	}
}

// TestTargetScale checks the range's ends, [2⁻²⁵⁶, 2²⁵⁶], and NaN.
func TestTargetScale(t *testing.T) {
	for _, c := range []struct {
		s  float64
		ok bool
	}{
		{0x1p-256, true}, {1, true}, {0x1p256, true},
		{math.Nextafter(0x1p-256, 0), false}, {math.Nextafter(0x1p256, math.Inf(1)), false},
		{0, false}, {math.Inf(1), false}, {math.NaN(), false}, {1e300, false},
	} {
		if TargetScaleOK(c.s) != c.ok || (CheckTargetScale(c.s) == nil) != c.ok {
			t.Errorf("scale %v: TargetScaleOK %v, CheckTargetScale %v; want ok = %v", c.s, TargetScaleOK(c.s), CheckTargetScale(c.s), c.ok)
		}
	}
}
