package bayes

import (
	"math"
	"testing"
)

// TestSVGDStandardize checks the SVGD's standardization with the MeanSD
// rule on three rows of two features, (1, 10), (3, 20), (5, 60), and
// targets 2, 4, 9, whose means (3, 30 and 5) and population standard
// deviations (√(8/3), √(1400/3) and √(26/3)) are written out here:
// learnStandardization must store them, and standardizeInputs and
// standardizeTargets must map the training rows to columns of mean 0 and
// population variance 1, feature by feature of the row-major rows, and a
// new row (4, 0) to ((4−3)/√(8/3), (0−30)/√(1400/3)). The sums are of a
// few values of order 1 to 60: 1e-14 relative is a few dozen ulps.
func TestSVGDStandardize(t *testing.T) {
	m := &SVGD{cfg: SVGDConfig{Inputs: 2, Standardization: MeanSD}}
	x, y := []float64{1, 10, 3, 20, 5, 60}, []float64{2, 4, 9}
	if err := m.learnStandardization(x, y); err != nil {
		t.Fatal(err)
	}
	sd0, sd1, sdY := math.Sqrt(8.0/3), math.Sqrt(1400.0/3), math.Sqrt(26.0/3)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"feature 0 mean", m.xMean[0], 3}, {"feature 1 mean", m.xMean[1], 30}, {"target mean", m.yMean, 5},
		{"feature 0 sd", m.xScale[0], sd0}, {"feature 1 sd", m.xScale[1], sd1}, {"target sd", m.yScale, sdY},
	} {
		if !close(c.got, c.want, 1e-14) {
			t.Errorf("%s = %.17g, by hand %.17g", c.name, c.got, c.want)
		}
	}
	xs, ys := make([]float64, len(x)), make([]float64, len(y))
	m.standardizeInputs(xs, x)
	m.standardizeTargets(ys, y)
	for name, col := range map[string][]float64{"feature 0": {xs[0], xs[2], xs[4]}, "feature 1": {xs[1], xs[3], xs[5]}, "targets": ys} {
		var mean, ss float64
		for _, v := range col {
			mean += v / 3
		}
		for _, v := range col {
			ss += (v - mean) * (v - mean) / 3
		}
		if math.Abs(mean) > 1e-14 || !close(ss, 1, 1e-14) {
			t.Errorf("%s standardized %v: mean %.3g, variance %.17g; want 0 and 1", name, col, mean, ss)
		}
	}
	row := make([]float64, 2)
	m.standardizeInputs(row, []float64{4, 0})
	if !close(row[0], 1/sd0, 1e-14) || !close(row[1], -30/sd1, 1e-14) {
		t.Errorf("(4, 0) standardized to %v, want (%.17g, %.17g)", row, 1/sd0, -30/sd1)
	}
}
