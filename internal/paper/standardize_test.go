package paper

import (
	"math"
	"testing"
)

// naiveMeanSD is the two-pass mean and population standard deviation of
// v, written out as the oracle of MeanSD.
func naiveMeanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean) / float64(len(v))
	}
	return mean, math.Sqrt(sd)
}

// near is equality within 1e-12 relative: a few roundings of sums of a
// few hundred terms.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestMeanSDColumns checks MeanSD on each column of row-major rows
// against the two-pass formulas of the column alone.
func TestMeanSDColumns(t *testing.T) {
	var v []float64
	for i := 0; i < 50; i++ {
		v = append(v, float64(i), math.Sin(float64(i)), 1e6+float64(i*i))
	}
	for j := 0; j < 3; j++ {
		var col []float64
		for i := j; i < len(v); i += 3 {
			col = append(col, v[i])
		}
		m, sd := MeanSD(v, j, 3)
		wm, wsd := naiveMeanSD(col)
		if !near(m, wm) || !near(sd, wsd) {
			t.Errorf("column %d: %v, %v; want %v, %v", j, m, sd, wm, wsd)
		}
	}
}

// TestMeanSDConstantColumn is defect 1 of issue 11: a column of 40
// copies of 0.1 has a mean, sum/40, that is not exactly 0.1, and its
// standard deviation about that mean came out 4e-17 instead of 0, so
// that a fold scaled it by 1/4e-17 and diverged. Scale gives such a
// column 1.
func TestMeanSDConstantColumn(t *testing.T) {
	v := make([]float64, 40)
	for i := range v {
		v[i] = 0.1
	}
	if m, sd := MeanSD(v, 0, 1); sd != 0 || !near(m, 0.1) || Scale(sd) != 1 {
		t.Errorf("MeanSD(40 × 0.1) = %v, %v (scale %v), want 0.1, 0 and scale 1", m, sd, Scale(sd))
	}
}

// TestMeanSDExtremeMagnitudes checks columns whose sum or squares leave
// float64's range: ±1e308 have mean 0 and standard deviation 1e308; ten
// copies of 1e308 and one of 1.7e308, whose sum overflows, a mean of
// 1e308 + 0.7e308/11 and a standard deviation of 0.7e308·√10/11; 1e-300
// times 0, 1, …, 9, whose squared deviations underflow, 4.5e-300 and
// 1e-300·√8.25; and values at ±math.MaxFloat64 a finite scale.
func TestMeanSDExtremeMagnitudes(t *testing.T) {
	tiny := make([]float64, 10)
	for i := range tiny {
		tiny[i] = float64(i) * 1e-300
	}
	for _, c := range []struct {
		name     string
		v        []float64
		mean, sd float64
	}{
		{"±1e308", []float64{1e308, -1e308, 1e308, -1e308}, 0, 1e308},
		{"ten 1e308 and 1.7e308", []float64{1.7e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308}, 1e308 + 0.7e308/11, 0.7e308 * math.Sqrt(10) / 11},
		{"1e-300 × 0..9", tiny, 4.5e-300, 1e-300 * math.Sqrt(8.25)},
	} {
		// near's 1e-12 is relative, so it is read on the values over their
		// scale, 1e308 or 1e-300.
		m, sd := MeanSD(c.v, 0, 1)
		unit := math.Abs(c.v[1])
		if !near(m/unit, c.mean/unit) || !near(sd/unit, c.sd/unit) {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, m, sd, c.mean, c.sd)
		}
	}
	if _, sd := MeanSD([]float64{math.MaxFloat64, -math.MaxFloat64}, 0, 1); math.IsInf(Scale(sd), 0) || !(Scale(sd) > 0) {
		t.Errorf("±MaxFloat64: the scale %v, want finite and positive", Scale(sd))
	}
}
