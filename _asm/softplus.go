package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sp32Link sets Y0 to the float64 softplus of the four float32 in X10,
// each within a few float32 roundoffs (2⁻²⁴ ≈ 6e-8) of the float64 value:
//
//   - e = e^t for t = −|z|, clamped at −760 where e^t underflows float64
//     too: k = round(t/ln 2), r = t − k·ln 2 in two parts, e^r by Cephes'
//     polynomial, then e = e^r·2^k with k ≥ −126 (float32 exponents; a
//     smaller k only occurs for |z| > 87, where the other branches need no
//     such e);
//   - ln(1+e) by fdlibm's logf of w = 1+e ∈ [1, 2] (w or w/2 in [√½, √2),
//     s = f/(2+f), a polynomial in s²) plus (e − (w−1))/w, the rounding
//     error of w (Goldberg), so that tiny e keep their relative accuracy;
//   - in float64: z + ln(1+e) for z > 0, ln(1+e) for z ≤ 0, and e^r·2^k
//     with 2^k applied in float64 for z ≤ −16, where softplus(z) = e^z to
//     within e^z/2 < 6e-8 relative and e^z leaves the float32 range for
//     z < −87.
//
// softplus(+Inf) = +Inf, softplus(−Inf) = 0, softplus(NaN) = NaN.
// Clobbers X1–X9, X11–X14 (and their YMM).
func sp32Link() {
	VMOVUPS(sp.Min, X1)
	VORPS(sp.Sign, X10, X0)
	VMAXPS(X0, X1, X0)
	VMULPS(sp.Log2e, X0, X1)
	VROUNDPS(U8(0), X1, X1)
	VFNMADD231PS(sp.C1, X1, X0)
	VFNMADD231PS(sp.C2, X1, X0)
	VMULPS(X0, X0, X2)
	VMOVUPS(sp.P[0], X3)
	for k := 1; k < len(sp.P); k++ {
		VFMADD213PS(sp.P[k], X0, X3)
	}
	VFMADD213PS(X0, X2, X3)
	VADDPS(sp.One, X3, X3)
	VMAXPS(sp.KMin, X1, X4)
	VCVTPS2DQ(X4, X4)
	VPADDD(sp.Bias, X4, X4)
	VPSLLD(U8(23), X4, X4)
	VMULPS(X4, X3, X4)
	VADDPS(sp.One, X4, X5)
	VSUBPS(sp.One, X5, X6)
	VSUBPS(X6, X4, X6)
	VDIVPS(X5, X6, X6)
	VCMPPS(U8(0x1d), sp.Sqrt2, X5, X7)
	VMULPS(sp.Half, X5, X8)
	VBLENDVPS(X7, X8, X5, X8)
	VSUBPS(sp.One, X8, X8)
	VANDPS(sp.One, X7, X7)
	VADDPS(sp.Two, X8, X9)
	VDIVPS(X9, X8, X9)
	VMULPS(X9, X9, X11)
	VMULPS(X11, X11, X12)
	VMOVUPS(sp.Lg[3], X13)
	VFMADD213PS(sp.Lg[1], X12, X13)
	VMULPS(X12, X13, X13)
	VMOVUPS(sp.Lg[2], X14)
	VFMADD213PS(sp.Lg[0], X12, X14)
	VMULPS(X11, X14, X14)
	VADDPS(X13, X14, X14)
	VMULPS(X8, X8, X13)
	VMULPS(sp.Half, X13, X13)
	VADDPS(X13, X14, X14)
	VMULPS(sp.Ln2Lo, X7, X12)
	VFMADD231PS(X14, X9, X12)
	VSUBPS(X12, X13, X13)
	VSUBPS(X8, X13, X13)
	VMULPS(sp.Ln2Hi, X7, X12)
	VSUBPS(X13, X12, X12)
	VADDPS(X6, X12, X12)
	VCVTPS2PD(X12, Y12)
	VCVTPS2PD(X10, Y13)
	VXORPD(Y14, Y14, Y14)
	VCMPPD(U8(0x1e), Y14, Y13, Y14)
	VANDPD(Y13, Y14, Y14)
	VADDPD(Y14, Y12, Y12)
	VCVTPS2PD(X3, Y3)
	VCVTPS2PD(X1, Y1)
	ldexp2(Y1, Y3, Y2, Y1, Y3)
	VCMPPS(U8(0x12), sp.Small, X10, X2)
	VPMOVSXDQ(X2, Y2)
	VBLENDVPD(Y2, Y3, Y12, Y0)
}

// softplus emits softplusF32 or softplusF64: the softplus link, four
// elements per iteration, written as float64. softplusF64 computes in
// float64 with the vector exp and log of gcpLossF64 (softplusExp,
// softplusLog). softplusF32 computes a float32 model's link in float32
// (sp32Link), whose chain of dependent operations is about half as long,
// since one row's prediction waits for it. The last n mod 4 elements are
// gathered into a vector and stored from it one at a time: a single row's
// three links are read right after the output layer has stored them one
// by one, and a load spanning several stores cannot take their values from
// the store queue (store-to-load forwarding) but waits until they retire,
// which keeps predictions from overlapping.
func softplus(t elem) {
	var (
		n   = RCX // n rounded down to whole vectors
		r   = RDX // n mod 4: the elements past them
		i   = RAX // element i
		dst = RSI
		xp  = RDI
	)
	l := kernel(t.name("softplus"))
	scale := uint8(t.size)
	xAt := func(k int) Mem { return at(xp, k*t.size, i, scale) }
	dstAt := func(k int) Mem { return at(dst, 8*k, i, 8) }
	// link sets Y0 = softplus of the four elements in X10 (float32) or
	// Y10 (float64).
	link := func() {
		if t.size == 4 {
			sp32Link()
		} else {
			softplusExp()
			softplusLog()
		}
	}
	Load(Param("n"), n)
	Load(Param("dst"), dst)
	Load(Param("x"), xp)
	MOVQ(n, r)
	ANDQ(U8(3), r)
	SUBQ(r, n)
	XORQ(i, i)

	l.Set("loop")
	CMPQ(i, n)
	JGE(l.L("tail"))
	t.MOVU(xAt(0), pick(t, X10, Y10))
	link()
	VMOVUPD(Y0, dstAt(0)) // dst[i:i+4] = softplus(x[i:i+4])
	ADDQ(U8(4), i)
	JMP(l.L("loop"))

	// The last 1–3 elements, gathered into X10/Y10, zeros above.
	l.Set("tail")
	TESTQ(r, r)
	JZ(l.L("done"))
	pick(t, VMOVSS, VMOVSD)(xAt(0), X10)
	CMPQ(r, U8(2))
	JLT(l.L("last"))
	if t.size == 4 {
		VINSERTPS(U8(0x10), xAt(1), X10, X10)
		JEQ(l.L("last"))
		VINSERTPS(U8(0x20), xAt(2), X10, X10)
	} else {
		VMOVHPD(xAt(1), X10, X10)
		JEQ(l.L("last"))
		VMOVSD(xAt(2), X11)
		VINSERTF128(U8(1), X11, Y10, Y10)
	}

	// Stored one lane at a time.
	l.Set("last")
	link()
	VMOVSD(X0, dstAt(0))
	CMPQ(r, U8(2))
	JLT(l.L("done"))
	VMOVHPD(X0, dstAt(1))
	JEQ(l.L("done"))
	VEXTRACTF128(U8(1), Y0, X1)
	VMOVSD(X1, dstAt(2))

	l.Set("done")
	VZEROUPPER()
	RET()
}
