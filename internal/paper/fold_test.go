package paper

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// indexRows returns n rows whose target is the row's index and whose
// features are the index and its negative, so that a row can be told
// from every other and its features checked against its target.
func indexRows(n int) (x, y []float64) {
	for i := 0; i < n; i++ {
		x = append(x, float64(i), -float64(i))
		y = append(y, float64(i))
	}
	return x, y
}

func TestFoldSplit(t *testing.T) {
	for _, n := range []int{30, 103, 506} {
		x, y := indexRows(n)
		fd := NewFold(x, y, 2, 7, 3, 0)
		nTest := int(math.Round(float64(n) / 20))
		if len(fd.TestY) != nTest || len(fd.TrainY) != n-nTest {
			t.Fatalf("n = %d: %d test and %d training rows, want %d and %d", n, len(fd.TestY), len(fd.TrainY), nTest, n-nTest)
		}
		if len(fd.TestX) != 2*nTest || len(fd.TrainX) != 2*(n-nTest) {
			t.Fatalf("n = %d: feature lengths %d and %d", n, len(fd.TestX), len(fd.TrainX))
		}
		// Disjoint and covering: every index exactly once, features with
		// their own row.
		seen := make([]int, n)
		for _, part := range []struct{ x, y []float64 }{{fd.TrainX, fd.TrainY}, {fd.TestX, fd.TestY}} {
			for i, y := range part.y {
				seen[int(y)]++
				if part.x[2*i] != y || part.x[2*i+1] != -y {
					t.Errorf("row %v has features %v", y, part.x[2*i:2*i+2])
				}
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("n = %d: row %d appears %d times, want once", n, i, c)
			}
		}
		if len(fd.Outliers) != 0 {
			t.Errorf("outliers %v without an outlier share", fd.Outliers)
		}
	}
}

// TestFoldDeterministic checks that a fold depends on the seed and its
// number only.
func TestFoldDeterministic(t *testing.T) {
	x, y := indexRows(200)
	a, b := NewFold(x, y, 2, 5, 2, 0.05), NewFold(x, y, 2, 5, 2, 0.05)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the same seed and fold drew different folds:\n%s", diff)
	}
	for _, other := range []Fold{NewFold(x, y, 2, 5, 3, 0.05), NewFold(x, y, 2, 6, 2, 0.05)} {
		if slices.Equal(other.TestY, a.TestY) || other.ModelSeed == a.ModelSeed {
			t.Errorf("another fold or seed drew the same test split %v or model seed", a.TestY)
		}
	}
}

func TestFoldOutliers(t *testing.T) {
	// Targets with a spread of about 2 about 3.
	x, y := indexRows(200)
	for i := range y {
		y[i] = 3 + 2*math.Sin(float64(i))
	}
	var z []float64 // the outliers, standardized by their distribution
	for f := 0; f < 50; f++ {
		clean, dirty := NewFold(x, y, 2, 9, f, 0), NewFold(x, y, 2, 9, f, 0.05)
		// 5% of 190 training rows is 9.5, rounded to 10.
		if len(dirty.Outliers) != 10 {
			t.Fatalf("fold %d: %d outliers, want round(0.05·190) = 10", f, len(dirty.Outliers))
		}
		if !slices.Equal(clean.TestY, dirty.TestY) || !slices.Equal(clean.TestX, dirty.TestX) || !slices.Equal(clean.TrainX, dirty.TrainX) {
			t.Fatalf("fold %d: outliers changed the split or a test row", f)
		}
		mean, sd := naiveMeanSD(clean.TrainY)
		replaced := map[int]bool{}
		for _, i := range dirty.Outliers {
			replaced[i] = true
			z = append(z, (dirty.TrainY[i]-mean)/(10*sd))
		}
		if len(replaced) != 10 {
			t.Fatalf("fold %d: outlier rows %v repeat", f, dirty.Outliers)
		}
		for i := range clean.TrainY {
			if changed := clean.TrainY[i] != dirty.TrainY[i]; changed != replaced[i] {
				t.Errorf("fold %d: training target %d changed %t, replaced %t", f, i, changed, replaced[i])
			}
		}
	}
	// 500 draws of N(0, 1): the mean has sd 0.045 and the sd about 0.03;
	// the bounds are 4 of those.
	m, sd := naiveMeanSD(z)
	if math.Abs(m) > 0.18 || math.Abs(sd-1) > 0.13 {
		t.Errorf("outliers standardized by N(mean, (10·sd)²) have mean %.3f and sd %.3f, want 0 and 1", m, sd)
	}
}

// TestOutliersFollowUnits draws the outliers of one fold of a target in
// two units, y and 1000·y: the protocol's outliers are N(μ, (10σ)²) of
// the clean targets, so the second run's must be 1000 times the first's
// (within a few roundings: 1e-12 relative), a constant target's
// included. A constant target has σ = 0, and its outliers are its value;
// the scale 1 that standardizes it is no width (bayes's copy of the fold
// once drew them with it, 10·N(0, 1) wide in any unit, where gcp repro
// drew none).
func TestOutliersFollowUnits(t *testing.T) {
	x, _ := indexRows(100)
	for _, target := range []struct {
		name string
		y    func(i int) float64
	}{
		{"spread", func(i int) float64 { return 3 + 2*math.Sin(float64(i)) }},
		{"constant", func(int) float64 { return 3.5 }},
	} {
		y, y1000 := make([]float64, 100), make([]float64, 100)
		for i := range y {
			y[i] = target.y(i)
			y1000[i] = 1000 * y[i]
		}
		a, b := NewFold(x, y, 2, 4, 1, 0.1), NewFold(x, y1000, 2, 4, 1, 0.1)
		if !slices.Equal(a.Outliers, b.Outliers) || len(a.Outliers) != 10 {
			t.Fatalf("%s: outlier rows %v and %v, want the same 10", target.name, a.Outliers, b.Outliers)
		}
		for _, i := range a.Outliers {
			if got, want := b.TrainY[i], 1000*a.TrainY[i]; math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("%s: outlier %d is %v in units of 1/1000, %v in units of 1 (×1000: %v)", target.name, i, got, a.TrainY[i], want)
			}
		}
	}
}

// TestFoldStandardization checks the fold's standardization against the
// two-pass mean and standard deviation of its training split, a constant
// feature only centred, and the target's that of the contaminated split.
func TestFoldStandardization(t *testing.T) {
	var x, y []float64
	for i := 0; i < 100; i++ {
		v := float64(i)
		x = append(x, v, 7, v*v) // the middle feature is constant
		y = append(y, 2*v+1)
	}
	fd := NewFold(x, y, 3, 1, 0, 0.1)
	xm, xs, ym, ys := fd.Standardization(3)
	for j := 0; j < 3; j++ {
		var col []float64
		for i := j; i < len(fd.TrainX); i += 3 {
			col = append(col, fd.TrainX[i])
		}
		m, sd := naiveMeanSD(col)
		if j == 1 {
			sd = 1 // a constant column is only centred
		}
		if !near(xm[j], m) || !near(xs[j], sd) {
			t.Errorf("feature %d: mean %v, scale %v; want %v, %v from the training split", j, xm[j], xs[j], m, sd)
		}
	}
	// The target's standardization is that of the contaminated training
	// split, not of the clean one or of the whole table.
	m, sd := naiveMeanSD(fd.TrainY)
	if !near(ym, m) || !near(ys, sd) {
		t.Errorf("target: mean %v, scale %v; want %v, %v", ym, ys, m, sd)
	}
}
