// Package coef holds the coefficients that package gcp's Go code and the
// generator of its assembly (_asm) share, so that each has one source: the
// asymptotic series of special.go, and the polynomials of the vector exp
// and log that the assembly uses in place of package math's scalar ones.
package coef

import "math"

// LgammaHalf holds d_k = (2^(1−2k) − 2)·B_2k/(2k(2k−1)), k = 1…8, of the
// asymptotic series lnΓ(z+½) − lnΓ(z) ~ ½ln z + Σ d_k·z^(1−2k). It is the
// difference of lnΓ(z+a) ~ (z+a−½)ln z − z + ½ln 2π +
// Σ_{n≥2} (−1)ⁿ·B_n(a)/(n(n−1)·z^(n−1)) (DLMF 5.11.8) at a = ½ and a = 0,
// with B_n(½) = (2^(1−n) − 1)·B_n; the odd-n terms cancel, so there is no
// 1/z² term and no log term beyond ½ln z.
var LgammaHalf = [...]float64{
	-1.0 / 8, 1.0 / 192, -1.0 / 640, 17.0 / 14336, -31.0 / 18432, 691.0 / 180224, -5461.0 / 425984,
	929569.0 / 15728640,
}

// DigammaHalf holds h_k = −(2k−1)·d_k, k = 1…10 (d_k as in LgammaHalf),
// the coefficients of the derivative
// ψ(z+½) − ψ(z) ~ 1/(2z) + Σ h_k·z^(−2k) = 1/(2z) + 1/(8z²) − 1/(64z⁴) + ….
var DigammaHalf = [...]float64{
	1.0 / 8, -1.0 / 64, 1.0 / 128, -17.0 / 2048, 31.0 / 2048, -691.0 / 16384, 5461.0 / 32768,
	-929569.0 / 1048576, 3202291.0 / 524288, -221930581.0 / 4194304,
}

// Log2Pi is ln 2π, of the Student-t log density (NormalGamma.LogPredictive
// and gcpLossF64).
var Log2Pi = math.Log(2 * math.Pi)

// The float64 exp and log of the assembly are fdlibm's, as Go's math.Exp
// and math.Log (math/exp.go, math/log.go), with the same coefficients.
const (
	Ln2Hi = 6.93147180369123816490e-01 // ln 2 = Ln2Hi + Ln2Lo, Ln2Hi with 32 bits
	Ln2Lo = 1.90821492927058770002e-10
	Log2e = 1.44269504088896338700e+00
)

// Log holds L1…L7 of fdlibm's log: R(z) = L1·s² + L2·s⁴ + … + L7·s¹⁴.
var Log = [...]float64{
	6.666666666666735130e-01,
	3.999999999940941908e-01,
	2.857142874366239149e-01,
	2.222219843214978396e-01,
	1.818357216161805012e-01,
	1.531383769920937332e-01,
	1.479819860511658591e-01,
}

// Exp holds P1…P5 of fdlibm's exp: R(r²) = r² − (P1·r² + P2·r⁴ + … + P5·r¹⁰).
var Exp = [...]float64{
	1.66666666666666657415e-01,
	-2.77777777770155933842e-03,
	6.61375632143793436117e-05,
	-1.65339022054652515390e-06,
	4.13813679705723846039e-08,
}

// The float32 softplus of the amd64 assembly uses Cephes' expf and
// fdlibm's logf.
const (
	Exp32C1 = 0x1.63p-1 // ln 2 = Exp32C1 + Exp32C2, Exp32C1 with 9 bits: 0.693359375
	Exp32C2 = -2.12194440e-4
	Ln2Hi32 = 0x1.62e3p-1 // ln 2 = Ln2Hi32 + Ln2Lo32, for logf
	Ln2Lo32 = 0x1.2fefa2p-17
)

// Exp32 holds the polynomial of Cephes' expf, highest degree first:
// e^r ≈ 1 + r + r²·(P0·r⁵ + P1·r⁴ + … + P5).
var Exp32 = [...]float32{
	1.9875691500e-4,
	1.3981999507e-3,
	8.3334519073e-3,
	4.1665795894e-2,
	1.6666665459e-1,
	5.0000001201e-1,
}

// Log32 holds Lg1…Lg4 of fdlibm's logf (musl's reduced polynomial):
// R(z) = Lg1·s² + Lg2·s⁴ + Lg3·s⁶ + Lg4·s⁸.
var Log32 = [...]float32{
	0xaaaaaap-24,
	0xccce13p-25,
	0x91e9eep-25,
	0xf89e26p-26,
}

// The tanh of the NEON assembly is Go's math.Tanh (math/tanh.go, after
// Cephes): x + x³·P(x²)/Q(x²) for |x| < 0.625, 1 − 2/(e^2x + 1) up to
// TanhMax, ±1 above.
const TanhMax = 0.5 * 8.8029691931113054295988e+01 // ½·ln 2¹²⁷

// TanhP and TanhQ are math.Tanh's P and Q, highest degree first.
var (
	TanhP = [...]float64{
		-9.64399179425052238628e-1,
		-9.92877231001918586564e1,
		-1.61468768441708447952e3,
	}
	TanhQ = [...]float64{
		1.12811678491632931402e2,
		2.23548839060100448583e3,
		4.84406305325125486048e3,
	}
)
