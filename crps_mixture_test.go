package gcp

import (
	"math"
	"testing"
)

func TestMixtureCRPSReference(t *testing.T) {
	// The same references, for the quadrature of every distribution,
	// single Student t's included. The panels are refined until their
	// Gauss–Kronrod error estimates sum to at most crpsTol = 1e-11 of each
	// side, and those estimates overstate the error of smooth panels by
	// orders of magnitude; the tail's cut is bounded to crpsTol of the side
	// too. 1e-10 leaves room for the members' CDFs (3e-14) and for the tail
	// bound's estimate on the heaviest tails; the requirement is 1e-8.
	const tol = 1e-10
	var worst studentTWorst
	for _, d := range crpsLoadRef(t) {
		crps := mixtureCRPS
		if d.kind == "logdist" {
			crps = logMixtureCRPS
		}
		for _, r := range d.rows["crps"] {
			got := crps(d.c, r[0])
			worst.add(studentTRelErr(got, r[1]), "%s %v y=%v: %v, want %v", d.kind, d.c, r[0], got, r[1])
		}
	}
	t.Logf("quadrature: worst relative error %.2g over %d rows (%s)", worst.err, worst.n, worst.at)
	if !(worst.err <= tol) {
		t.Errorf("quadrature: relative error %.2g > %g at %s", worst.err, tol, worst.at)
	}
}

// TestGaussKronrodExact checks the 15-point Kronrod rule and its embedded
// 7-point Gauss rule by the degrees they integrate exactly on [−1, 1]: 22
// and 13. A wrong digit in a node or a weight breaks these moments.
func TestGaussKronrodExact(t *testing.T) {
	moment := func(k int) float64 { // ∫₋₁¹ xᵏ dx
		if k%2 == 1 {
			return 0
		}
		return 2 / float64(k+1)
	}
	for k := 0; k <= 24; k++ {
		kron, gauss := gk15Kronrod[7]*math.Pow(0, float64(k)), gk15Gauss[3]*math.Pow(0, float64(k))
		for j, x := range gk15Nodes {
			p := math.Pow(x, float64(k)) + math.Pow(-x, float64(k))
			kron += gk15Kronrod[j] * p
			if j%2 == 1 {
				gauss += gk15Gauss[j/2] * p
			}
		}
		// Exact up to the rounding of 15 terms below 1: 1e-15.
		if kOK := math.Abs(kron-moment(k)) <= 1e-15; kOK != (k <= 22) && k%2 == 0 {
			t.Errorf("Kronrod rule on x^%d: %v, want %v (exact: %t)", k, kron, moment(k), k <= 22)
		}
		if gOK := math.Abs(gauss-moment(k)) <= 1e-15; gOK != (k <= 13) && k%2 == 0 {
			t.Errorf("Gauss rule on x^%d: %v, want %v (exact: %t)", k, gauss, moment(k), k <= 13)
		}
	}
}
