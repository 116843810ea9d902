// Package synth generates the synthetic data sets of the paper's
// experiments, for the tests and the gcp command.
package synth

import (
	"math"
	"math/rand/v2"
)

// SinMean and SinSD are the ground truth of the outlier experiment (paper:
// Sec. 6.3): mean sin 3x and standard deviation 0.5·cos⁴x.
func SinMean(x float64) float64 { return math.Sin(3 * x) }

// SinSD is the ground-truth standard deviation 0.5·cos⁴x.
func SinSD(x float64) float64 { return 0.5 * math.Pow(math.Cos(x), 4) }

// SinOutliers draws the data set of the paper's Sec. 6.3: n
// inputs x ~ U(−1, 1) and targets y ~ N(SinMean(x), SinSD(x)²), of which
// each, where where(x) holds, is replaced with probability p by a draw from
// U(−4, 16). It reports which targets are outliers. The paper's data set
// is p = 0.05 with where always true.
func SinOutliers(seed uint64, n int, p float64, where func(x float64) bool) (x, y []float32, outlier []bool) {
	r := rand.New(rand.NewPCG(seed, 3))
	x, y, outlier = make([]float32, n), make([]float32, n), make([]bool, n)
	for i := range x {
		xi := 2*r.Float64() - 1
		x[i] = float32(xi)
		if where(xi) && r.Float64() < p {
			y[i], outlier[i] = float32(-4+20*r.Float64()), true
		} else {
			y[i] = float32(SinMean(xi) + SinSD(xi)*r.NormFloat64())
		}
	}
	return x, y, outlier
}

// Everywhere is the where argument of SinOutliers for outliers at any x.
func Everywhere(float64) bool { return true }

// CubicMean is the ground-truth mean x³ of the aleatoric-versus-epistemic
// experiment (paper: Sec. 6.2).
func CubicMean(x float64) float64 { return x * x * x }

// CubicSD is the ground-truth standard deviation of that experiment.
const CubicSD = 3

// Cubic draws the data set of the paper's Sec.
// Sec. 6.2: n inputs uniform on [−4, −2] ∪ [2, 4]
// and targets y ~ N(CubicMean(x), CubicSD²). The gap and the outside of
// [−4, 4] hold no data, so that a model's epistemic uncertainty shows
// there. The paper's data set has n = 20.
func Cubic(seed uint64, n int) (x, y []float32) {
	r := rand.New(rand.NewPCG(seed, 5))
	x, y = make([]float32, n), make([]float32, n)
	for i := range x {
		xi := 2 + 2*r.Float64()
		if r.Float64() < 0.5 {
			xi = -xi
		}
		x[i], y[i] = float32(xi), float32(CubicMean(xi)+CubicSD*r.NormFloat64())
	}
	return x, y
}

// Scores draws n rows of integer scores, as ratings of quality are: three
// features uniform on (−1, 1), and a latent continuous quality
// ScoresLatent(x) + ScoresSD·N(0, 1) rounded to the nearest integer and
// clamped to 3..8. About four rows in five score 5 and most others 4 or
// 6: the data on which a continuous predictive trained by maximum
// likelihood collapses onto a spike at 5.
func Scores(seed uint64, n int) (x, y []float32) {
	r := rand.New(rand.NewPCG(seed, 7))
	x, y = make([]float32, 3*n), make([]float32, n)
	for i := range y {
		row := x[3*i : 3*i+3]
		for j := range row {
			row[j] = float32(2*r.Float64() - 1)
		}
		z := ScoresLatent(row) + ScoresSD*r.NormFloat64()
		y[i] = float32(min(max(math.Round(z), 3), 8))
	}
	return x, y
}

// ScoresLatent is the mean of Scores' latent quality at the features x.
func ScoresLatent(x []float32) float64 {
	return 5.1 + 0.3*math.Sin(2.5*float64(x[0])) + 0.6*float64(x[1])*float64(x[2])
}

// ScoresSD is the standard deviation of Scores' latent quality, in units
// of the scores' spacing.
const ScoresSD = 0.35

// Wide draws n rows of d correlated features and a target, a stand-in for
// the Year Prediction MSD data set (515,345 × 90, the paper's largest),
// to measure how training scales: every feature is one of twelve latent
// factors plus noise of its own, as MSD's timbre averages and covariances
// share their sources, and the target is WideMean(x) + WideSD(x)·N(0, 1),
// a smooth function of the first twelve features with heteroscedastic
// noise, about as spread as MSD's years. d must be at least 12.
func Wide(seed uint64, n, d int) (x, y []float32) {
	r := rand.New(rand.NewPCG(seed, 11))
	x, y = make([]float32, n*d), make([]float32, n)
	var z [wideFactors]float64
	for i := range y {
		for k := range z {
			z[k] = r.NormFloat64()
		}
		row := x[i*d : (i+1)*d]
		for j := range row {
			row[j] = float32(0.6*z[j%wideFactors] + 0.8*r.NormFloat64())
		}
		y[i] = float32(WideMean(row) + WideSD(row)*r.NormFloat64())
	}
	return x, y
}

// wideFactors is the number of latent factors of Wide's features.
const wideFactors = 12

// WideMean is the mean of Wide's target at the features x: a year about
// 1998, moved up to about ±12 by the first twelve features, through
// saturating and interacting terms.
func WideMean(x []float32) float64 {
	m := 1998.0
	for k := range wideFactors {
		m += float64(k%3+1) * math.Tanh(float64(x[k])) * float64(1-2*(k%2))
	}
	return m + 3*math.Sin(float64(x[0])+float64(x[1]))*float64(x[2])
}

// WideSD is the standard deviation of Wide's target at x: from 5 to 9
// years.
func WideSD(x []float32) float64 { return 5 + 4/(1+math.Exp(-2*float64(x[3]))) }

// Pick returns an index of weights drawn from r with probability
// proportional to its weight, the categorical draw of the synthetic
// tables' text columns. The weights are non-negative with a positive sum.
func Pick(r *rand.Rand, weights []float64) int {
	var total float64
	for _, w := range weights {
		total += w
	}
	u := r.Float64() * total
	for k, w := range weights {
		if u -= w; u < 0 {
			return k
		}
	}
	return len(weights) - 1
}
