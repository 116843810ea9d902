package main

import (
	"fmt"
	"math"

	"github.com/gcpnet/gcp/internal/coef"
)

// neonConst is a constant of the NEON special functions: it is stored
// twice, a whole vector, at offset NC_name of neonConst<>.
type neonConst struct {
	name, note string
	bits       uint64
}

// neonConsts lists them, with the coefficients from internal/coef, which
// special.go and the amd64 generator read too.
func neonConsts() []neonConst {
	f := math.Float64bits
	c := []neonConst{
		{"ONE", "1", f(1)},
		{"TWO", "2", f(2)},
		{"HALF", "½", f(0.5)},
		{"TEN", "10, where the series start", f(10)},
		{"SIGN", "the sign bit", 1 << 63},
		{"INF", "+Inf", f(math.Inf(1))},
		{"NEGINF", "−Inf", f(math.Inf(-1))},
		{"NAN", "NaN", 0x7ff8000000000000},
		{"TINY", "2⁻¹⁰²², the smallest normal", f(0x1p-1022)},
		{"TWO54", "2⁵⁴, to scale subnormals", f(0x1p54)},
		{"54", "54", f(54)},
		{"TWO52", "2⁵², to turn exponent bits into a float", f(0x1p52)},
		{"TWO52P1022", "2⁵² + 1022", f(0x1p52 + 1022)},
		{"MANT", "the mantissa bits", 1<<52 - 1},
		{"SQRTHALF", "√½", f(math.Sqrt2 / 2)},
		{"LN2HI", "ln 2, high part", f(coef.Ln2Hi)},
		{"LN2LO", "ln 2, low part", f(coef.Ln2Lo)},
	}
	for i, v := range coef.Log {
		c = append(c, neonConst{fmt.Sprintf("L%d", i+1), note(i, "fdlibm's log polynomial"), f(v)})
	}
	c = append(c,
		neonConst{"EXPMIN", "−746: below, exp is 0", f(-746)},
		neonConst{"LOG2E", "1/ln 2", f(coef.Log2e)})
	for i, v := range coef.Exp {
		c = append(c, neonConst{fmt.Sprintf("P%d", i+1), note(i, "fdlibm's exp polynomial"), f(v)})
	}
	c = append(c,
		neonConst{"EXPBIAS", "2⁵² + 1023: k + EXPBIAS holds 2^k in its low bits", f(0x1p52 + 1023)},
		neonConst{"LOG2PI", "ln 2π", f(coef.Log2Pi)},
		neonConst{"SQRT2", "√2", f(math.Sqrt2)})
	for i, v := range coef.LgammaHalf {
		c = append(c, neonConst{fmt.Sprintf("LG%d", i), note(i, "lgammaHalfSeries"), f(v)})
	}
	for i, v := range coef.DigammaHalf {
		c = append(c, neonConst{fmt.Sprintf("DG%d", i), note(i, "digammaHalfSeries"), f(v)})
	}
	c = append(c,
		neonConst{"C0625", "0.625: from here up, tanh goes through exp", f(0.625)},
		neonConst{"TANHMAX", "½·ln 2¹²⁷: tanh is ±1 above", f(coef.TanhMax)})
	for i, v := range coef.TanhP {
		c = append(c, neonConst{fmt.Sprintf("TP%d", i), note(i, "math.tanh's tanhP and tanhQ"), f(v)})
	}
	for i, v := range coef.TanhQ {
		c = append(c, neonConst{fmt.Sprintf("TQ%d", i), "", f(v)})
	}
	return c
}

// note is the comment of the first constant of a series only.
func note(i int, s string) string {
	if i == 0 {
		return s
	}
	return ""
}

// writeNeonConst writes the NC_* offsets and the DATA of neonConst<>.
func writeNeonConst() {
	c := neonConsts()
	for i, k := range c {
		line := fmt.Sprintf("#define NC_%s %d", k.name, 16*i)
		if k.note != "" {
			line += " // " + k.note
		}
		p(none, line)
	}
	p(none, "")
	for i, k := range c {
		for j := 0; j < 2; j++ {
			p(none, fmt.Sprintf("DATA neonConst<>+%d(SB)/8, $0x%016x", 16*i+8*j, k.bits))
		}
	}
	p(none, fmt.Sprintf("GLOBL neonConst<>(SB), RODATA|NOPTR, $%d", 16*len(c)))
}
