package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/gcpnet/gcp/internal/coef"
)

// splat declares a read-only constant of count copies of the size-byte
// value bits, for vector memory operands, and returns its address.
func splat(name string, size, count int, bits uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < count; i++ {
		if size == 4 {
			DATA(i*size, U32(uint32(bits)))
		} else {
			DATA(i*size, U64(bits))
		}
	}
	return m
}

// gcConsts are the float64 constants of gcpLossF64 and softplusF64, eight
// copies each, for ZMM (and YMM) memory operands. The coefficients come from
// internal/coef, which special.go reads too.
type gcConsts struct {
	One, Two, Half, Ten, Sign, Abs, Inf, NegInf, NaN Mem
	// ln: subnormal scaling, exponent extraction, reduction to [√½, √2).
	Tiny, Two54, C54, ExpMagic, Two52, C1022, Mant, SqrtHalf Mem
	// exp: clamp, reduction and the 2^k scaling in two halves.
	ExpMin, Log2e, ExpBias Mem
	Ln2Hi, Ln2Lo           Mem
	Log2Pi, Sqrt2          Mem
	L                      [len(coef.Log)]Mem         // fdlibm log
	P                      [len(coef.Exp)]Mem         // fdlibm exp
	LG                     [len(coef.LgammaHalf)]Mem  // lnΓ(z+½) − lnΓ(z)
	DG                     [len(coef.DigammaHalf)]Mem // ψ(z+½) − ψ(z)
}

// sp32Consts are the float32 constants of softplusF32 (Bias is the int32
// 127), eight copies each, for YMM (and XMM) memory operands: the Cephes expf
// polynomial and reduction (P, C1 + C2 = ln 2), fdlibm's logf polynomial
// and ln 2 in two parts (Lg, Ln2Hi, Ln2Lo).
type sp32Consts struct {
	Sign, Min, Log2e, C1, C2 Mem
	P                        [len(coef.Exp32)]Mem
	One, Half, Two, Sqrt2    Mem
	Lg                       [len(coef.Log32)]Mem
	Ln2Hi, Ln2Lo, KMin, Bias Mem
	Small                    Mem
}

var (
	gc gcConsts
	sp sp32Consts
)

// declareConsts declares the constants of gcpLossF64 and the softplus
// kernels, in the order of the hand-written file.
func declareConsts() {
	f := func(name string, v float64) Mem { return splat("gc"+name, 8, 8, math.Float64bits(v)) }
	b := func(name string, bits uint64) Mem { return splat("gc"+name, 8, 8, bits) }
	gc.One = f("One", 1)
	gc.Two = f("Two", 2)
	gc.Half = f("Half", 0.5)
	gc.Ten = f("Ten", 10)
	gc.Sign = b("Sign", 1<<63)
	gc.Abs = b("Abs", 1<<63-1)
	gc.Inf = f("Inf", math.Inf(1))
	gc.NegInf = f("NegInf", math.Inf(-1))
	gc.NaN = b("NaN", 0x7ff8000000000000)
	gc.Tiny = f("Tiny", 0x1p-1022) // the smallest normal
	gc.Two54 = f("Two54", 0x1p54)
	gc.C54 = f("54", 54)
	gc.ExpMagic = b("ExpMagic", math.Float64bits(0x1p52)) // OR'd into an exponent: 2^52 + e
	gc.Two52 = f("Two52", 0x1p52)
	gc.C1022 = f("1022", 1022)
	gc.Mant = b("Mant", 1<<52-1)
	gc.SqrtHalf = f("SqrtHalf", math.Sqrt2/2)
	gc.Ln2Hi = f("Ln2Hi", coef.Ln2Hi)
	gc.Ln2Lo = f("Ln2Lo", coef.Ln2Lo)
	for i, v := range coef.Log {
		gc.L[i] = f("L"+itoa(i+1), v)
	}
	gc.ExpMin = f("ExpMin", -746) // exp(x) rounds to 0 below
	gc.Log2e = f("Log2e", coef.Log2e)
	for i, v := range coef.Exp {
		gc.P[i] = f("P"+itoa(i+1), v)
	}
	gc.ExpBias = b("ExpBias", math.Float64bits(0x1p52)+1023) // k + ExpBias has the bits of 2^k in its low 12 bits
	gc.Log2Pi = f("Log2Pi", coef.Log2Pi)
	gc.Sqrt2 = f("Sqrt2", math.Sqrt2)
	for i, v := range coef.LgammaHalf {
		gc.LG[i] = f("LG"+itoa(i), v)
	}
	for i, v := range coef.DigammaHalf {
		gc.DG[i] = f("DG"+itoa(i), v)
	}

	s := func(name string, v float32) Mem { return splat("sp32"+name, 4, 8, uint64(math.Float32bits(v))) }
	sp.Sign = splat("sp32Sign", 4, 8, 1<<31)
	sp.Min = s("Min", -760) // e^t underflows float64 below
	sp.Log2e = s("Log2e", coef.Log2e)
	sp.C1 = s("C1", coef.Exp32C1)
	sp.C2 = s("C2", coef.Exp32C2)
	for i, v := range coef.Exp32 {
		sp.P[i] = s("P"+itoa(i), v)
	}
	sp.One = s("One", 1)
	sp.Half = s("Half", 0.5)
	sp.Two = s("Two", 2)
	sp.Sqrt2 = s("Sqrt2", math.Sqrt2)
	for i, v := range coef.Log32 {
		sp.Lg[i] = s("Lg"+itoa(i+1), v)
	}
	sp.Ln2Hi = s("Ln2Hi", coef.Ln2Hi32)
	sp.Ln2Lo = s("Ln2Lo", coef.Ln2Lo32)
	sp.KMin = s("KMin", -126) // the smallest float32 exponent
	sp.Bias = splat("sp32Bias", 4, 8, 127)
	sp.Small = s("Small", -16) // softplus(z) = e^z below, to float32 precision
}

func itoa(i int) string {
	if i >= 10 {
		return itoa(i/10) + itoa(i%10)
	}
	return string(rune('0' + i))
}
