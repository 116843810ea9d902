package paper

import (
	"math"

	"github.com/gcpnet/gcp/internal/robust"
)

// MeanSD returns the mean and the standard deviation (dividing by the
// count, as NumPy's std does) of column j of the row-major v with stride
// columns per row. A standard deviation that rounding alone can explain,
// at most n·ε·|mean| for n values (the rule of the models' own
// standardization), is returned as 0: the column is constant. Forty
// copies of 0.1 would otherwise have a standard deviation of 4e-17 about
// their computed mean, and a scale of 4e-17 makes every fold diverge.
//
// Values of a magnitude beyond 2^±400, whose squares could overflow or
// underflow float64's normal range, are scaled by a power of two to below
// 1 first, and their moments scaled back: a power of two changes no
// rounding, so the result is that of the plain formulas wherever those
// neither overflow nor underflow, and finite data give a finite mean
// and standard deviation: targets of 1e-300 keep their spread, which the
// plain squares would round to 0.
func MeanSD(v []float64, j, stride int) (mean, sd float64) {
	var peak float64
	for i := j; i < len(v); i += stride {
		peak = max(peak, math.Abs(v[i]))
	}
	s := 1.0
	if _, e := math.Frexp(peak); e < -400 || e > 400 { // peak < 2^e
		s = math.Ldexp(1, -e)
	}
	mean, sd = moments(v, j, stride, s)
	if robust.ConstantSpread(sd, mean, len(v)/stride) {
		sd = 0
	}
	return mean, sd
}

// moments returns the mean and the standard deviation of column j of the
// values s·v, divided by s: a power of two s changes no rounding.
func moments(v []float64, j, stride int, s float64) (mean, sd float64) {
	n := float64(len(v) / stride)
	for i := j; i < len(v); i += stride {
		mean += s * v[i]
	}
	mean /= n
	var ss float64
	for i := j; i < len(v); i += stride {
		ss += (s*v[i] - mean) * (s*v[i] - mean)
	}
	return mean / s, math.Sqrt(ss/n) / s
}

// Scale returns the scale that standardizes a column of standard
// deviation sd: sd itself, or 1 for a constant column (sd = 0), which is
// then only centred.
func Scale(sd float64) float64 {
	if sd > 0 {
		return sd
	}
	return 1
}
