package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gcpnet/gcp"
)

// eps is the float64 machine epsilon, 2⁻⁵².
const eps = 0x1p-52

// closeTo reports whether got is within rel·|want| of want.
func closeTo(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

func TestRMSE(t *testing.T) {
	// Errors 1, 2, 3: √((1+4+9)/3) = √(14/3).
	got, err := RMSE([]float64{1, 2, 3}, []float64{0, 0, 0})
	// One correctly rounded sum of exact small integers, a division and
	// a square root: at most 2 roundings.
	if err != nil || !closeTo(got, math.Sqrt(14.0/3), 2*eps) {
		t.Errorf("RMSE = %v, %v; want √(14/3) = %v", got, err, math.Sqrt(14.0/3))
	}
}

func TestAUC(t *testing.T) {
	tests := []struct {
		name              string
		pred, y, variance []float64
		want              float64
	}{{
		// Ranked by variance the absolute errors are 1, 2, 3 (squares 1,
		// 4, 9): RMSE(0) = √(14/3), RMSE(1) = √(5/2), RMSE(2) = 1, and
		// AUC = ½·[(√(14/3)+√(5/2))/2 + (√(5/2)+1)/2]
		//     = (√(14/3) + 2√(5/2) + 1)/4 ≈ 1.58063.
		name:     "aligned",
		pred:     []float64{3, 1, -2},
		y:        []float64{0, 0, 0},
		variance: []float64{0.3, 0.1, 0.2},
		want:     (math.Sqrt(14.0/3) + 2*math.Sqrt(5.0/2) + 1) / 4,
	}, {
		// The same errors ranked 3, 2, 1 (squares 9, 4, 1): RMSE(0) =
		// √(14/3), RMSE(1) = √(13/2), RMSE(2) = 3, and
		// AUC = (√(14/3) + 2√(13/2) + 3)/4 ≈ 2.56482.
		name:     "reversed",
		pred:     []float64{3, 1, -2},
		y:        []float64{0, 0, 0},
		variance: []float64{0.1, 0.3, 0.2},
		want:     (math.Sqrt(14.0/3) + 2*math.Sqrt(13.0/2) + 3) / 4,
	}, {
		// N = 2, errors 0 and 2 ranked so: RMSE(0) = √((0+4)/2) = √2,
		// RMSE(1) = 0, AUC = (√2 + 0)/2.
		name:     "two points",
		pred:     []float64{5, 7},
		y:        []float64{5, 5},
		variance: []float64{1, 2},
		want:     math.Sqrt2 / 2,
	}, {
		// An infinite variance (α ≤ 1) ranks last: the same ranking as
		// "two points".
		name:     "infinite variance",
		pred:     []float64{7, 5},
		y:        []float64{5, 5},
		variance: []float64{math.Inf(1), 1},
		want:     math.Sqrt2 / 2,
	}, {
		// Tied variances keep the argument order, errors 2 then 0:
		// RMSE(0) = √2, RMSE(1) = 2, AUC = (√2 + 2)/2.
		name:     "tie",
		pred:     []float64{7, 5},
		y:        []float64{5, 5},
		variance: []float64{1, 1},
		want:     (math.Sqrt2 + 2) / 2,
	}}
	for _, tt := range tests {
		got, err := AUC(tt.pred, tt.y, tt.variance)
		// Both sides sum at most 4 correctly rounded square roots of
		// exactly summed small integers and divide twice: well under 8
		// roundings of relative size eps.
		if err != nil || !closeTo(got, tt.want, 8*eps) {
			t.Errorf("%s: AUC = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestRMSECurve(t *testing.T) {
	// Errors 1, 2, 3 ranked by variance 3, 1, 2: the error-2 point is
	// kept longest, then the error-3 one.
	got, err := RMSECurve([]float64{0, 0, 0}, []float64{1, 2, 3}, []float64{3, 1, 2})
	want := []float64{math.Sqrt(14.0 / 3), math.Sqrt(13.0 / 2), 2}
	if err != nil || len(got) != 3 {
		t.Fatalf("RMSECurve = %v, %v; want %v", got, err, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15*want[i] {
			t.Errorf("RMSE(%d) = %v, want %v", i, got[i], want[i])
		}
	}
	// One point: the curve is its absolute error.
	if got, err := RMSECurve([]float64{1}, []float64{4}, []float64{math.Inf(1)}); err != nil || len(got) != 1 || got[0] != 3 {
		t.Errorf("RMSECurve of one point = %v, %v; want [3]", got, err)
	}
}

// TestAUCAlignedIsBest checks that ranking by the squared errors
// themselves gives the smallest AUC: each RMSE(n) is then the RMSE of the
// N−n smallest errors, the least of any N−n points, so the AUC is at most
// that of the reversed ranking and of a random one.
func TestAUCAlignedIsBest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 2 + r.IntN(40)
		pred, y := make([]float64, n), make([]float64, n)
		aligned, reversed, random := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range y {
			pred[i], y[i] = r.NormFloat64(), r.NormFloat64()
			d := pred[i] - y[i]
			aligned[i], reversed[i], random[i] = d*d, -d*d, r.Float64()
		}
		best, err := AUC(pred, y, aligned)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string][]float64{"reversed": reversed, "random": random} {
			other, err := AUC(pred, y, v)
			if err != nil {
				t.Fatal(err)
			}
			// Equal rankings (ties in the errors, or a random order that
			// happens to match) may give sums rounded differently: allow
			// 4n roundings of the ≤ 2n-term sum.
			if best > other*(1+4*float64(n)*eps) {
				t.Errorf("trial %d, n = %d: AUC aligned %v > AUC %s %v", trial, n, best, name, other)
			}
		}
	}
}

// cauchy is a prediction whose Student-t predictive has 2α = 1 degree of
// freedom and scale² β(ν+1)/(να) = ¼·2/(1·½) = 1: the standard Cauchy
// distribution shifted to m = 10, with density 1/(π(1+(y−10)²)).
var cauchy = gcp.Prediction{Mean: 10, Alpha: 0.5, Beta: 0.25, Nu: 1}

func TestMeanNLL(t *testing.T) {
	// −ln p(10) = ln π, −ln p(11) = ln 2π: the mean is ln π + ½ ln 2.
	got, err := MeanNLL([]gcp.Prediction{cauchy, cauchy}, []float64{10, 11}, StudentT)
	want := math.Log(math.Pi) + math.Ln2/2
	// The library's log density is accurate to a few eps of its terms
	// (≈ ln π), and the mean adds two roundings; 1e-14 leaves room.
	if err != nil || !closeTo(got, want, 1e-14) {
		t.Errorf("MeanNLL = %v, %v; want ln π + ½ln 2 = %v", got, err, want)
	}
}

func TestCoverage(t *testing.T) {
	ps := []gcp.Prediction{cauchy, cauchy, cauchy, cauchy, cauchy}
	tests := []struct {
		level float64
		y     []float64
		want  float64
	}{
		// The standard Cauchy's central 50% interval is ±tan(π/4) = ±1:
		// 10 ± 0.999 inside, 10 ± 1.001 outside, and 10 inside.
		{0.5, []float64{10, 10.999, 9.001, 11.001, 8.999}, 3.0 / 5},
		// Its 95% interval is ±tan(0.475π) ≈ ±12.7062: 10, 10+12 and
		// 10−12.7 inside, 10+13 and 10−12.8 outside.
		{0.95, []float64{10, 22, -2.7, 23, -2.8}, 3.0 / 5},
	}
	for _, tt := range tests {
		got, _, err := Coverage(ps, tt.y, tt.level, StudentT)
		if err != nil || got != tt.want {
			t.Errorf("Coverage(level %v) = %v, %v; want %v", tt.level, got, err, tt.want)
		}
	}
	if _, _, err := Coverage(ps[:1], []float64{10}, 1, StudentT); !errors.Is(err, gcp.ErrLevel) {
		t.Errorf("Coverage(level 1) error %v, want gcp.ErrLevel", err)
	}
}

func TestCentralIntervals(t *testing.T) {
	ps := []gcp.Prediction{cauchy, cauchy, cauchy}
	// The Cauchy's central 50% interval is 10 ± 1, width 2, and a miss
	// costs 2/(1 − 0.5) = 4 per unit: 10 scores 2, 12 scores 2 + 4·1 and
	// 8.5 scores 2 + 4·0.5.
	got, err := CentralIntervals(ps, []float64{10, 12, 8.5}, 0.5, StudentT)
	want := IntervalStats{Coverage: 1.0 / 3, Width: 2, Score: (2 + 6 + 4) / 3.0}
	// The interval's ends come from the Student-t quantile, accurate to
	// 1e-13 relative (studentTQuantile), which the score carries.
	if err != nil || got.Coverage != want.Coverage || !closeTo(got.Width, want.Width, 1e-13) || !closeTo(got.Score, want.Score, 1e-13) {
		t.Errorf("CentralIntervals = %+v, %v; want %+v", got, err, want)
	}
	if _, err := CentralIntervals(ps, []float64{1, 2, 3}, 1, StudentT); !errors.Is(err, gcp.ErrLevel) {
		t.Errorf("level 1: %v, want gcp.ErrLevel", err)
	}
}

func TestMeanCRPS(t *testing.T) {
	// A comparator's N(0, 1) at its mean scores 2φ(0) − 1/√π = (√2 − 1)/√π;
	// the calibrated predictive of a GCP prediction with VarCorrected 4,
	// N(0, 2²), twice that.
	g := gcp.Prediction{Loss: gcp.LossGaussianML, Var: 1, VarCorrected: 1, Alpha: math.Inf(1)}
	c := gcp.Prediction{Loss: gcp.LossGCP, Alpha: 2, Beta: 1, Nu: 1, VarCorrected: 4}
	want := (math.Sqrt2 - 1) / math.Sqrt(math.Pi)
	// The closed form is accurate to a few eps.
	if got, err := MeanCRPS([]gcp.Prediction{g, g}, []float64{0, 0}, StudentT); err != nil || !closeTo(got, want, 1e-14) {
		t.Errorf("MeanCRPS of N(0, 1) at 0 = %v, %v; want %v", got, err, want)
	}
	if got, err := MeanCRPS([]gcp.Prediction{c}, []float64{0}, Calibrated); err != nil || !closeTo(got, 2*want, 1e-14) {
		t.Errorf("calibrated MeanCRPS of N(0, 4) at 0 = %v, %v; want %v", got, err, 2*want)
	}
}

func TestPIT(t *testing.T) {
	// The Cauchy's CDF is ½ + atan(y − 10)/π: exactly ½ at 10 (the edge
	// of bins 1 and 2 of 4, so bin 2), 0.148 at 8 and 0.898 at 13.
	h, err := PIT([]gcp.Prediction{cauchy, cauchy, cauchy}, []float64{10, 8, 13}, StudentT)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, 4)
	h.Histogram(counts)
	if h.Len() != 3 || !slices.Equal(counts, []int{1, 0, 1, 1}) {
		t.Errorf("PIT values %d, histogram %v; want 3 values, [1 0 1 1]", h.Len(), counts)
	}
}

func TestMeanStd(t *testing.T) {
	// Mean of 1..4 is 2.5; squared deviations 2.25+0.25+0.25+2.25 = 5,
	// sample variance 5/3.
	mean, std, err := MeanStd([]float64{1, 2, 3, 4})
	// The mean is exact; the variance takes 3 roundings and the root one.
	if err != nil || mean != 2.5 || !closeTo(std, math.Sqrt(5.0/3), 4*eps) {
		t.Errorf("MeanStd(1..4) = %v, %v, %v; want 2.5, √(5/3) = %v", mean, std, err, math.Sqrt(5.0/3))
	}
	mean, std, err = MeanStd([]float64{7})
	if err != nil || mean != 7 || !math.IsNaN(std) {
		t.Errorf("MeanStd(7) = %v, %v, %v; want 7, NaN", mean, std, err)
	}
}

func TestErrors(t *testing.T) {
	one := []gcp.Prediction{cauchy}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"RMSE lengths", second(RMSE([]float64{1}, []float64{1, 2})), ErrLength},
		{"RMSE empty", second(RMSE(nil, nil)), ErrTooFew},
		{"RMSE NaN", second(RMSE([]float64{math.NaN()}, []float64{1})), ErrNaN},
		{"AUC one point", second(AUC([]float64{1}, []float64{1}, []float64{1})), ErrTooFew},
		{"AUC lengths", second(AUC([]float64{1, 2}, []float64{1, 2}, []float64{1})), ErrLength},
		{"AUC NaN variance", second(AUC([]float64{1, 2}, []float64{1, 2}, []float64{1, math.NaN()})), ErrNaN},
		{"RMSECurve empty", second(RMSECurve(nil, nil, nil)), ErrTooFew},
		{"RMSECurve lengths", second(RMSECurve([]float64{1}, []float64{1}, nil)), ErrLength},
		{"MeanNLL lengths", second(MeanNLL(one, []float64{1, 2}, StudentT)), ErrLength},
		{"MeanNLL empty", second(MeanNLL(nil, nil, StudentT)), ErrTooFew},
		{"Coverage lengths", third(Coverage(one, []float64{1, 2}, 0.95, StudentT)), ErrLength},
		{"Coverage NaN", third(Coverage(one, []float64{math.NaN()}, 0.95, StudentT)), ErrNaN},
		{"MeanStd empty", third(MeanStd(nil)), ErrTooFew},
		{"CentralIntervals lengths", second(CentralIntervals(one, []float64{1, 2}, 0.95, StudentT)), ErrLength},
		{"MeanCRPS lengths", second(MeanCRPS(one, []float64{1, 2}, StudentT)), ErrLength},
		{"MeanCRPS NaN", second(MeanCRPS(one, []float64{math.NaN()}, StudentT)), ErrNaN},
		{"PIT lengths", second(PIT(one, []float64{1, 2}, StudentT)), ErrLength},
		{"PIT empty", second(PIT(nil, nil, StudentT)), ErrTooFew},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

// second returns the error of a (value, error) pair.
func second[V any](_ V, err error) error { return err }

// third returns the error of a (value, value, error) triple.
func third(_, _ float64, err error) error { return err }
