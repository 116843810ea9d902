package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sp32Link sets r(0) to the float64 softplus of the four (AVX2) or eight
// (AVX-512) float32 in h(10),
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
// Clobbers h(1)–h(9), h(11)–h(14) (and their YMM).
func (x vx) sp32Link() {
	VMOVUPS(sp.Min, x.h(1))
	VORPS(sp.Sign, x.h(10), x.h(0))
	VMAXPS(x.h(0), x.h(1), x.h(0))
	VMULPS(sp.Log2e, x.h(0), x.h(1))
	x.rounds(U8(0), x.h(1), x.h(1))
	VFNMADD231PS(sp.C1, x.h(1), x.h(0))
	VFNMADD231PS(sp.C2, x.h(1), x.h(0))
	VMULPS(x.h(0), x.h(0), x.h(2))
	VMOVUPS(sp.P[0], x.h(3))
	for k := 1; k < len(sp.P); k++ {
		VFMADD213PS(sp.P[k], x.h(0), x.h(3))
	}
	VFMADD213PS(x.h(0), x.h(2), x.h(3))
	VADDPS(sp.One, x.h(3), x.h(3))
	VMAXPS(sp.KMin, x.h(1), x.h(4))
	VCVTPS2DQ(x.h(4), x.h(4))
	VPADDD(sp.Bias, x.h(4), x.h(4))
	VPSLLD(U8(23), x.h(4), x.h(4))
	VMULPS(x.h(4), x.h(3), x.h(4))
	VADDPS(sp.One, x.h(4), x.h(5))
	VSUBPS(sp.One, x.h(5), x.h(6))
	VSUBPS(x.h(6), x.h(4), x.h(6))
	VDIVPS(x.h(5), x.h(6), x.h(6))
	x.cmps(U8(0x1d), sp.Sqrt2, x.h(5), 7)
	VMULPS(sp.Half, x.h(5), x.h(8))
	x.blends(7, x.h(8), x.h(5), x.h(8))
	VSUBPS(sp.One, x.h(8), x.h(8))
	x.ands(sp.One, 7, x.h(7))
	VADDPS(sp.Two, x.h(8), x.h(9))
	VDIVPS(x.h(9), x.h(8), x.h(9))
	VMULPS(x.h(9), x.h(9), x.h(11))
	VMULPS(x.h(11), x.h(11), x.h(12))
	VMOVUPS(sp.Lg[3], x.h(13))
	VFMADD213PS(sp.Lg[1], x.h(12), x.h(13))
	VMULPS(x.h(12), x.h(13), x.h(13))
	VMOVUPS(sp.Lg[2], x.h(14))
	VFMADD213PS(sp.Lg[0], x.h(12), x.h(14))
	VMULPS(x.h(11), x.h(14), x.h(14))
	VADDPS(x.h(13), x.h(14), x.h(14))
	VMULPS(x.h(8), x.h(8), x.h(13))
	VMULPS(sp.Half, x.h(13), x.h(13))
	VADDPS(x.h(13), x.h(14), x.h(14))
	VMULPS(sp.Ln2Lo, x.h(7), x.h(12))
	VFMADD231PS(x.h(14), x.h(9), x.h(12))
	VSUBPS(x.h(12), x.h(13), x.h(13))
	VSUBPS(x.h(8), x.h(13), x.h(13))
	VMULPS(sp.Ln2Hi, x.h(7), x.h(12))
	VSUBPS(x.h(13), x.h(12), x.h(12))
	VADDPS(x.h(6), x.h(12), x.h(12))
	VCVTPS2PD(x.h(12), x.r(12))
	VCVTPS2PD(x.h(10), x.r(13))
	VXORPD(x.r(14), x.r(14), x.r(14))
	x.cmp(U8(0x1e), x.r(14), x.r(13), 14)
	x.and(x.r(13), 14, x.r(14))
	VADDPD(x.r(14), x.r(12), x.r(12))
	VCVTPS2PD(x.h(3), x.r(3))
	VCVTPS2PD(x.h(1), x.r(1))
	x.ldexp2(x.r(1), x.r(3), x.r(2), x.r(1), x.r(3))
	x.cmps(U8(0x12), sp.Small, x.h(10), 2)
	if !x.z {
		VPMOVSXDQ(x.h(2), x.r(2)) // the float32 lanes' mask as float64 lanes (the opmask serves both)
	}
	x.blend(2, x.r(3), x.r(12), x.r(0))
}

// softplus emits softplusF32 or softplusF64: the softplus link, a
// vector of four (AVX2) or eight (AVX-512) elements per iteration, written
// as float64. softplusF64 computes in float64 with the vector exp and log
// of gcpLossF64 (softplusExp, softplusLog). softplusF32 computes a float32
// model's link in float32 (sp32Link), whose chain of dependent operations
// is about half as long, since one row's prediction waits for it. The
// last n mod 4 elements, or up to three of AVX-512's n mod 8, are
// gathered into a vector and stored from it one at a time: a single row's
// three links are read right after the output layer has stored them one
// by one, and a load spanning several stores cannot take their values from
// the store queue (store-to-load forwarding) but waits until they retire,
// which keeps predictions from overlapping. AVX-512 takes four to seven
// last elements as one vector masked by K5.
func softplus(t elem) {
	var (
		n   = RCX // n rounded down to whole vectors
		r   = RDX // n mod lanes: the elements past them
		i   = RAX // element i
		dst = RSI
		xp  = RDI
	)
	x := vx{z: t.z()}
	lanes := x.vec() / 8
	l := kernel(t.name("softplus"))
	scale := uint8(t.size)
	xAt := func(k int) Mem { return at(xp, k*t.size, i, scale) }
	dstAt := func(k int) Mem { return at(dst, 8*k, i, 8) }
	// link sets register 0 = softplus of the elements in h(10) (float32)
	// or r(10) (float64).
	link := func() {
		if t.size == 4 {
			x.sp32Link()
		} else {
			x.softplusExp()
			x.softplusLog()
		}
	}
	Load(Param("n"), n)
	Load(Param("dst"), dst)
	Load(Param("x"), xp)
	MOVQ(n, r)
	ANDQ(U8(lanes-1), r)
	SUBQ(r, n)
	XORQ(i, i)

	l.Set("loop")
	CMPQ(i, n)
	JGE(l.L("tail"))
	t.MOVU(xAt(0), pick(t, x.h(10), x.r(10)))
	link()
	VMOVUPD(x.r(0), dstAt(0)) // dst[i:i+lanes] = softplus(x[i:i+lanes])
	ADDQ(U8(lanes), i)
	JMP(l.L("loop"))

	l.Set("tail")
	TESTQ(r, r)
	JZ(l.L("done"))
	if x.z {
		// Four to seven elements: a masked vector.
		CMPQ(r, U8(3))
		JLE(l.L("gather"))
		kmask(r, RBX, K5)
		t.MOVU_Z(xAt(0), K5, pick(t, x.h(10), x.r(10)))
		link()
		VMOVUPD(x.r(0), K5, dstAt(0))
		JMP(l.L("done"))
		l.Set("gather")
	}
	// The last 1–3 elements, gathered into X10/Y10, zeros above.
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
	vzeroupper()
	RET()
}
