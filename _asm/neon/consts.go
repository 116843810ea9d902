package main

import (
	"math"

	"github.com/gcpnet/gcp/internal/coef"
)

// neonConsts are the constants of the NEON special functions, in the
// table neonConst<>, with the coefficients from internal/coef, which
// special.go and the amd64 generator read too.
type neonConsts struct {
	one, two, half, ten, sign, inf, negInf, nan konst
	tiny, two54, c54, two52, two52p1022, mant   konst // ln's argument reduction
	sqrtHalf, ln2Hi, ln2Lo                      konst
	log                                         []konst // L1–L7
	expMin, log2e                               konst
	exp                                         []konst // P1–P5
	expBias, log2Pi, sqrt2                      konst
	lgamma, digamma                             []konst // LG0–, DG0–
	c0625, tanhMax                              konst
	tanhP, tanhQ                                []konst
}

// defineConsts #defines the offsets of the constants in the table sym and
// writes its DATA; the kernels hold its address in ktab.
func defineConsts(a *asm, sym symbol, ktab gpr) neonConsts {
	f := math.Float64bits
	t := a.Table(sym, ktab)
	var c neonConsts
	c.one = t.Const("ONE", f(1))                         // 1
	c.two = t.Const("TWO", f(2))                         // 2
	c.half = t.Const("HALF", f(0.5))                     // ½
	c.ten = t.Const("TEN", f(10))                        // 10, where the series start
	c.sign = t.Const("SIGN", 1<<63)                      // the sign bit
	c.inf = t.Const("INF", f(math.Inf(1)))               // +Inf
	c.negInf = t.Const("NEGINF", f(math.Inf(-1)))        // −Inf
	c.nan = t.Const("NAN", 0x7ff8000000000000)           // NaN
	c.tiny = t.Const("TINY", f(0x1p-1022))               // 2⁻¹⁰²², the smallest normal
	c.two54 = t.Const("TWO54", f(0x1p54))                // 2⁵⁴, to scale subnormals
	c.c54 = t.Const("54", f(54))                         // 54
	c.two52 = t.Const("TWO52", f(0x1p52))                // 2⁵², to turn exponent bits into a float
	c.two52p1022 = t.Const("TWO52P1022", f(0x1p52+1022)) // 2⁵² + 1022
	c.mant = t.Const("MANT", 1<<52-1)                    // the mantissa bits
	c.sqrtHalf = t.Const("SQRTHALF", f(math.Sqrt2/2))    // √½
	c.ln2Hi = t.Const("LN2HI", f(coef.Ln2Hi))            // ln 2, high part
	c.ln2Lo = t.Const("LN2LO", f(coef.Ln2Lo))            // ln 2, low part
	c.log = t.Series("L", 1, coef.Log[:])                // fdlibm's log polynomial
	c.expMin = t.Const("EXPMIN", f(-746))                // −746: below, exp is 0
	c.log2e = t.Const("LOG2E", f(coef.Log2e))            // 1/ln 2
	c.exp = t.Series("P", 1, coef.Exp[:])                // fdlibm's exp polynomial
	c.expBias = t.Const("EXPBIAS", f(0x1p52+1023))       // 2⁵² + 1023: k + EXPBIAS holds 2^k in its low bits
	c.log2Pi = t.Const("LOG2PI", f(coef.Log2Pi))         // ln 2π
	c.sqrt2 = t.Const("SQRT2", f(math.Sqrt2))            // √2
	c.lgamma = t.Series("LG", 0, coef.LgammaHalf[:])     // lgammaHalfSeries
	c.digamma = t.Series("DG", 0, coef.DigammaHalf[:])   // digammaHalfSeries
	c.c0625 = t.Const("C0625", f(0.625))                 // 0.625: from here up, tanh goes through exp
	c.tanhMax = t.Const("TANHMAX", f(coef.TanhMax))      // ½·ln 2¹²⁷: tanh is ±1 above
	c.tanhP = t.Series("TP", 0, coef.TanhP[:])           // math.tanh's tanhP and tanhQ
	c.tanhQ = t.Series("TQ", 0, coef.TanhQ[:])
	t.Data()
	return c
}
