package synth

import (
	"math"
	"math/rand/v2"
)

// Gamma returns a draw from the gamma law of the given shape > 0 and scale
// 1, by Marsaglia and Tsang's method (2000), with the usual boost
// U^(1/shape) for a shape below 1. Twice a draw of shape ν/2 is χ² with
// ν degrees of freedom, for any real ν > 0.
func Gamma(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return Gamma(r, shape+1) * math.Pow(r.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := r.Float64(); math.Log(u) < x*x/2+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}
