package gcp

import "math"

// Float is the element type of a model: float64 is the reference path,
// float32 the fast one.
type Float interface{ float32 | float64 }

// finite reports whether v is neither NaN nor ±Inf, by a comparison: the
// idiom v−v == 0 fails where the compiler fuses it with the product that
// computed v (the Go spec allows it, and arm64 and s390x do it), as
// fma(a, b, −round(a·b)), the product's rounding error, is not 0.
func finite(v float64) bool { return math.Abs(v) <= math.MaxFloat64 }

// positiveFinite reports whether v is finite and above 0.
func positiveFinite(v float64) bool { return v > 0 && v <= math.MaxFloat64 }

// normalFloat reports whether x is a finite float64 of full precision:
// neither ±Inf, NaN, 0 nor subnormal.
func normalFloat(x float64) bool {
	return math.Abs(x) >= 0x1p-1022 && math.Abs(x) <= math.MaxFloat64
}
