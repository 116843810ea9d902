package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The vector special functions of gcpLossF64 and softplusF64, in float64
// on the four lanes of a YMM. They are fixed to registers: the argument
// and the result in r(0), the others clobbered as each says.

// glLog sets r(0) = ln(r(0)), as fdlibm's log (Go's math.log): x = f1·2^k with
// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;
// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and
// ln(x < 0) = ln(NaN) = NaN. Clobbers r(1)–r(7).
func (x vx) glLog() {
	x.cmp(U8(0x11), gc.Tiny, x.r(0), 1)
	VMULPD(gc.Two54, x.r(0), x.r(2))
	x.blend(1, x.r(2), x.r(0), x.r(2))
	x.and(gc.C54, 1, x.r(3))
	VPSRLQ(U8(52), x.r(2), x.r(4))
	x.or(gc.ExpMagic, x.r(4), x.r(4))
	VSUBPD(gc.Two52, x.r(4), x.r(4))
	VSUBPD(gc.C1022, x.r(4), x.r(4))
	VSUBPD(x.r(3), x.r(4), x.r(4))
	VANDPD(gc.Mant, x.r(2), x.r(5))
	VORPD(gc.Half, x.r(5), x.r(5))
	x.cmp(U8(0x11), gc.SqrtHalf, x.r(5), 6)
	VADDPD(x.r(5), x.r(5), x.r(7))
	x.blend(6, x.r(7), x.r(5), x.r(5))
	x.and(gc.One, 6, x.r(7))
	VSUBPD(x.r(7), x.r(4), x.r(4))
	VSUBPD(gc.One, x.r(5), x.r(5))
	VADDPD(gc.Two, x.r(5), x.r(6))
	VDIVPD(x.r(6), x.r(5), x.r(6))
	VMULPD(x.r(6), x.r(6), x.r(7))
	VMULPD(x.r(7), x.r(7), x.r(3))
	// R = s²·(L1 + s⁴·(L3 + s⁴·(L5 + s⁴·L7))) + s⁴·(L2 + s⁴·(L4 + s⁴·L6))
	VMOVUPD(gc.L[6], x.r(1))
	for k := 4; k >= 0; k -= 2 {
		VFMADD213PD(gc.L[k], x.r(3), x.r(1))
	}
	VMULPD(x.r(7), x.r(1), x.r(1))
	VMOVUPD(gc.L[5], x.r(2))
	for k := 3; k >= 1; k -= 2 {
		VFMADD213PD(gc.L[k], x.r(3), x.r(2))
	}
	VMULPD(x.r(3), x.r(2), x.r(2))
	VADDPD(x.r(2), x.r(1), x.r(1))
	VMULPD(x.r(5), x.r(5), x.r(2))
	VMULPD(gc.Half, x.r(2), x.r(2))
	VADDPD(x.r(2), x.r(1), x.r(1))
	VMULPD(x.r(6), x.r(1), x.r(1))
	VMULPD(gc.Ln2Lo, x.r(4), x.r(3))
	VADDPD(x.r(3), x.r(1), x.r(1))
	VSUBPD(x.r(1), x.r(2), x.r(2))
	VSUBPD(x.r(5), x.r(2), x.r(2))
	VMULPD(gc.Ln2Hi, x.r(4), x.r(4))
	VSUBPD(x.r(2), x.r(4), x.r(4))
	VXORPD(x.r(1), x.r(1), x.r(1))
	x.cmp(U8(0x00), x.r(1), x.r(0), 2)
	x.blend(2, gc.NegInf, x.r(4), x.r(4))
	x.cmp(U8(0x00), gc.Inf, x.r(0), 2)
	x.blend(2, gc.Inf, x.r(4), x.r(4))
	x.cmp(U8(0x19), x.r(1), x.r(0), 2)
	x.blend(2, gc.NaN, x.r(4), x.r(0))
}

// glLog1p sets r(0) = ln(1+r(0)) for r(0) ≥ 0 (or NaN): with w = 1+x rounded,
// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding
// error of w (Goldberg), so tiny x keep full relative accuracy. Not for
// x = +Inf (NaN). Clobbers r(1)–r(9).
func (x vx) glLog1p() {
	VMOVAPD(x.r(0), x.r(8))
	VADDPD(gc.One, x.r(0), x.r(9))
	VMOVAPD(x.r(9), x.r(0))
	x.glLog()
	VSUBPD(gc.One, x.r(9), x.r(1))
	VSUBPD(x.r(1), x.r(8), x.r(1))
	VDIVPD(x.r(9), x.r(1), x.r(1))
	VADDPD(x.r(1), x.r(0), x.r(0))
}

// glExpNeg sets r(0) = exp(r(0)) for r(0) ≤ 0 (or NaN), as fdlibm's exp (Go's
// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a
// rational approximation of exp(r), and the scaling by 2^k done as
// 2^⌊k/2⌋·2^(k−⌊k/2⌋) so that subnormal results round once. x < −746
// (−Inf included) gives 0. Clobbers r(1)–r(7).
func (x vx) glExpNeg() {
	VMOVUPD(gc.ExpMin, x.r(1))
	VMAXPD(x.r(0), x.r(1), x.r(0))
	VMULPD(gc.Log2e, x.r(0), x.r(1))
	x.round(U8(0), x.r(1), x.r(1))
	VMULPD(gc.Ln2Hi, x.r(1), x.r(2))
	VSUBPD(x.r(2), x.r(0), x.r(2))
	VMULPD(gc.Ln2Lo, x.r(1), x.r(3))
	VSUBPD(x.r(3), x.r(2), x.r(4))
	VMULPD(x.r(4), x.r(4), x.r(5))
	VMOVUPD(gc.P[len(gc.P)-1], x.r(6))
	for k := len(gc.P) - 2; k >= 0; k-- {
		VFMADD213PD(gc.P[k], x.r(5), x.r(6))
	}
	VMULPD(x.r(5), x.r(6), x.r(6))
	VSUBPD(x.r(6), x.r(4), x.r(6))
	VMULPD(x.r(6), x.r(4), x.r(7))
	VMOVUPD(gc.Two, x.r(5))
	VSUBPD(x.r(6), x.r(5), x.r(5))
	VDIVPD(x.r(5), x.r(7), x.r(7))
	VSUBPD(x.r(7), x.r(3), x.r(3))
	VSUBPD(x.r(2), x.r(3), x.r(3))
	VMOVUPD(gc.One, x.r(5))
	VSUBPD(x.r(3), x.r(5), x.r(5))
	x.ldexp2(x.r(1), x.r(5), x.r(2), x.r(3), x.r(0))
}

// ldexp2 sets dst = m·2^k for the integers k (in float64): as
// 2^⌊k/2⌋·2^(k−⌊k/2⌋), so that a subnormal result rounds once and 2^1023·2
// does not overflow early. h and rest are scratch (rest may be k).
func (x vx) ldexp2(k, m, h, rest, dst VecPhysical) {
	VMULPD(gc.Half, k, h)
	x.round(U8(1), h, h) // ⌊k/2⌋
	VSUBPD(h, k, rest)
	VADDPD(gc.ExpBias, h, h)
	VPSLLQ(U8(52), h, h) // 2^⌊k/2⌋
	VADDPD(gc.ExpBias, rest, rest)
	VPSLLQ(U8(52), rest, rest)
	VMULPD(h, m, m)
	VMULPD(rest, m, dst)
}

// softplusExp and softplusLog set r(0) = softplus(r(10)) = ln(1+e^z) as
// special.go's softplus: z + ln(1+e^−z) for z > 0, ln(1+e^z) otherwise,
// both written ln(1+e) + (z > 0 ? z : 0) with e = e^−|z| ≤ 1, which
// cannot overflow. softplusExp leaves e in r(0) (gcpLossF64 builds the
// sigmoid from it) and clobbers r(1)–r(7); softplusLog takes e in r(0) and
// clobbers r(1)–r(9) and r(15). r(10) is kept. softplus(+Inf) = +Inf,
// softplus(−Inf) = 0 and softplus(NaN) = NaN.
func (x vx) softplusExp() {
	VORPD(gc.Sign, x.r(10), x.r(0))
	x.glExpNeg()
}

func (x vx) softplusLog() {
	x.glLog1p()
	VADDPD(x.r(10), x.r(0), x.r(1))
	VXORPD(x.r(15), x.r(15), x.r(15))
	x.cmp(U8(0x1e), x.r(15), x.r(10), 15) // z > 0
	x.blend(15, x.r(1), x.r(0), x.r(0))
}

// The slots of gcpLossF64's scratch buffer tmp (gcpTmpLen float64 in the
// package), one vector each, from BX.
const (
	slZM = iota
	slZA
	slZB
	slZN
	slY
	slSigA
	slSigB
	slSigN
	slAlpha
	slBeta
	slNu
	slValid
	slSigma
	slT
	slU
	slW
	slV
	slTW
	slL1pU
	slLogSig
	slLgHS
	slPsiH
	slFA
	slSc
	slSum
	slNum
	slDen
	slZ
	slLB
	slLX
	slTmp
	gcSlots // gcpTmpLen = 4·gcSlots
)

// tmp is the scratch slot s.
func (x vx) tmp(s int) Mem { return at(RBX, x.vec()*s, nil, 0) }

// linkSigmoid loads the raw output z at (src)(AX*1) into r(10) and slot zs,
// stores σ(z) = e/(1+e) (z < 0) or 1/(1+e) (z ≥ 0), with e = e^−|z|, in
// slot sig, and leaves softplus(z) in r(0).
func (x vx) linkSigmoid(src GPPhysical, zs, sig int) {
	x.load(at(src, 0, RAX, 1), x.r(10))
	VMOVUPD(x.r(10), x.tmp(zs))
	x.softplusExp()
	VMOVAPD(x.r(0), x.r(11))          // e
	VADDPD(gc.One, x.r(0), x.r(12))   // 1 + e
	VDIVPD(x.r(12), x.r(11), x.r(13)) // e/(1+e)
	VMOVUPD(gc.One, x.r(14))
	VDIVPD(x.r(12), x.r(14), x.r(14)) // 1/(1+e)
	VXORPD(x.r(15), x.r(15), x.r(15))
	x.cmp(U8(0x1d), x.r(15), x.r(10), 15) // z ≥ 0 (GE_OQ)
	x.blend(15, x.r(14), x.r(13), x.r(13))
	VMOVUPD(x.r(13), x.tmp(sig))
	x.softplusLog()
}

// gcpLoss emits gcpLossF64: the Student-t gradient loop of the GCP loss
// (gcpLossGeneric, gcpPoint, NormalGamma.Grad and LogPredictive), four
// samples at a time in float64 (with x.in32, gcpLossF32, from and to
// float32 operands).
// Every special function is vectorized: exp and ln as fdlibm's (glExpNeg,
// glLog, glLog1p), ψ(α+½)−ψ(α) and lnΓ(α+½)−lnΓ(α) by the upward
// recurrence, masked per lane, then the asymptotic series of special.go
// (internal/coef). The branches of the scalar code (softplus and sigmoid
// by the sign of z, the residual for u ≤ 1 or u > 1 and u = +Inf, ln σ for
// ν ≥ 1 or ν < 1, α ≥ 10) are evaluated on both sides and blended, and an
// invalid prior (ν, α or β not > 0) gives NaN everywhere, as in the scalar
// code. Every intermediate vector lives in a slot of the caller's scratch
// buffer tmp, as the special functions need all sixteen registers.
func gcpLoss(x vx) {
	name := "gcpLossF64"
	if x.in32 {
		name = "gcpLossF32"
	}
	if x.z {
		name += "AVX512"
	}
	shift := U8(3) // log2 of elemBytes
	if x.in32 {
		shift = U8(2)
	}
	l := kernel(name)
	MOVQ(arg("n"), RCX)
	SHLQ(shift, RCX) // bytes
	MOVQ(arg("zm"), RSI)
	MOVQ(arg("za"), RDI)
	MOVQ(arg("zb"), R8)
	MOVQ(arg("zn"), R9)
	MOVQ(arg("y"), R10)
	MOVQ(arg("gm"), R11)
	MOVQ(arg("ga"), R12)
	MOVQ(arg("gb"), R13)
	MOVQ(arg("gn"), R14)
	MOVQ(arg("tmp"), RBX)
	VBROADCASTSD(arg("fixedAlpha"), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slFA))
	VBROADCASTSD(arg("scale"), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slSc))
	VXORPD(x.r(0), x.r(0), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slSum))
	XORQ(RAX, RAX)

	l.Set("loop")
	if x.z {
		// The samples of this group, up to eight, in gcLive.
		MOVQ(RCX, R15)
		SUBQ(RAX, R15)
		JLE(l.L("done"))
		SHRQ(shift, R15)
		MOVL(U32(8), EDX)
		CMPQ(R15, RDX)
		CMOVQGT(RDX, R15)
		kmask(R15, RDX, gcLive)
	} else {
		CMPQ(RAX, RCX)
		JGE(l.L("done"))
	}
	x.load(at(RSI, 0, RAX, 1), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slZM))
	x.load(at(R10, 0, RAX, 1), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slY))
	// β = softplus(zb), σ(zb)
	x.linkSigmoid(R8, slZB, slSigB)
	VMOVUPD(x.r(0), x.tmp(slBeta))
	// ν = softplus(zn), σ(zn)
	x.linkSigmoid(R9, slZN, slSigN)
	VMOVUPD(x.r(0), x.tmp(slNu))
	VMOVUPD(x.tmp(slFA), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slAlpha))
	VXORPD(x.r(0), x.r(0), x.r(0))
	VMOVUPD(x.r(0), x.tmp(slSigA))
	MOVQ(arg("fixedAlpha"), RDX)
	TESTQ(RDX, RDX) // +0: α is learned (the Go wrapper maps −0 to +0)
	JNZ(l.L("fixed"))
	// α = 1 + softplus(za), σ(za)
	x.linkSigmoid(RDI, slZA, slSigA)
	VADDPD(gc.One, x.r(0), x.r(0)) // α = 1 + softplus
	VMOVUPD(x.r(0), x.tmp(slAlpha))

	l.Set("fixed")
	// valid = ν > 0 && α > 0 && β > 0 (false for NaN)
	VXORPD(x.r(1), x.r(1), x.r(1))
	VMOVUPD(x.tmp(slNu), x.r(10))
	VMOVUPD(x.tmp(slAlpha), x.r(11))
	VMOVUPD(x.tmp(slBeta), x.r(12))
	if x.z {
		VCMPPD(U8(0x1e), x.r(1), x.r(10), gcValid)
		VCMPPD(U8(0x1e), x.r(1), x.r(11), gcValid, gcValid)
		VCMPPD(U8(0x1e), x.r(1), x.r(12), gcValid, gcValid)
	} else {
		x.cmp(U8(0x1e), x.r(1), x.r(10), 2)
		x.cmp(U8(0x1e), x.r(1), x.r(11), 3)
		x.cmp(U8(0x1e), x.r(1), x.r(12), 4)
		VANDPD(x.r(3), x.r(2), x.r(2))
		VANDPD(x.r(4), x.r(2), x.r(2))
		VMOVUPD(x.r(2), x.tmp(slValid))
	}
	// σ = β(1 + 1/ν); s = √(2σ)
	VMOVUPD(gc.One, x.r(13))
	VDIVPD(x.r(10), x.r(13), x.r(13))
	VADDPD(gc.One, x.r(13), x.r(13))
	VMULPD(x.r(13), x.r(12), x.r(13))
	VMOVUPD(x.r(13), x.tmp(slSigma))
	VADDPD(x.r(13), x.r(13), x.r(14))
	VSQRTPD(x.r(14), x.r(14))
	// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN
	VMOVUPD(x.tmp(slY), x.r(0))
	VMOVUPD(x.tmp(slZM), x.r(1))
	VSUBPD(x.r(1), x.r(0), x.r(2))  // r
	VDIVPD(x.r(14), x.r(2), x.r(3)) // r/s
	VDIVPD(x.r(14), x.r(0), x.r(4))
	VDIVPD(x.r(14), x.r(1), x.r(5))
	VSUBPD(x.r(5), x.r(4), x.r(4))     // y/s − m/s
	x.cmp(U8(0x03), x.r(3), x.r(3), 5) // isNaN(r/s)
	x.blend(5, x.r(4), x.r(3), x.r(3))
	VXORPD(x.r(6), x.r(6), x.r(6))
	x.cmp(U8(0x00), x.r(6), x.r(2), 5) // r == 0
	x.blend(5, x.r(6), x.r(3), x.r(3)) // t
	VMOVUPD(x.r(3), x.tmp(slT))
	VMULPD(x.r(3), x.r(3), x.r(4)) // u
	VMOVUPD(x.r(4), x.tmp(slU))
	// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)
	VMOVUPD(gc.One, x.r(7))
	VADDPD(x.r(7), x.r(4), x.r(5))
	VDIVPD(x.r(5), x.r(7), x.r(5)) // w
	VMOVUPD(x.r(5), x.tmp(slW))
	VMULPD(x.r(5), x.r(4), x.r(8)) // u·w
	VMULPD(x.r(5), x.r(3), x.r(9)) // t·w
	VDIVPD(x.r(4), x.r(7), x.r(10))
	VADDPD(x.r(7), x.r(10), x.r(10))
	VDIVPD(x.r(10), x.r(7), x.r(10)) // 1/(1+1/u)
	VDIVPD(x.r(3), x.r(7), x.r(11))
	VADDPD(x.r(3), x.r(11), x.r(11))
	VDIVPD(x.r(11), x.r(7), x.r(11))    // 1/(t+1/t)
	x.cmp(U8(0x12), x.r(7), x.r(4), 12) // u ≤ 1 (LE_OQ)
	x.blend(12, x.r(8), x.r(10), x.r(10))
	VMOVUPD(x.r(10), x.tmp(slV))
	x.blend(12, x.r(9), x.r(11), x.r(11))
	VMOVUPD(x.r(11), x.tmp(slTW))
	// ln(1+u), or 2·ln|t| where u overflowed
	VMOVAPD(x.r(4), x.r(0))
	x.glLog1p()
	VMOVUPD(x.r(0), x.tmp(slL1pU))
	VMOVUPD(x.tmp(slU), x.r(1))
	x.cmp(U8(0x00), gc.Inf, x.r(1), 1)
	if x.z {
		x.none(1)
	} else {
		VMOVMSKPD(x.r(1), EDX)
		TESTQ(RDX, RDX)
	}
	JZ(l.L("finiteu"))
	VMOVUPD(x.tmp(slT), x.r(0))
	VANDPD(gc.Abs, x.r(0), x.r(0))
	x.glLog()
	VADDPD(x.r(0), x.r(0), x.r(0))
	VMOVUPD(x.tmp(slU), x.r(1))
	x.cmp(U8(0x00), gc.Inf, x.r(1), 1)
	VMOVUPD(x.tmp(slL1pU), x.r(2))
	x.blend(1, x.r(0), x.r(2), x.r(2))
	VMOVUPD(x.r(2), x.tmp(slL1pU))

	l.Set("finiteu")
	// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below
	VMOVUPD(x.tmp(slBeta), x.r(0))
	x.glLog()
	VMOVUPD(x.r(0), x.tmp(slLB))
	VMOVUPD(x.tmp(slNu), x.r(10))
	VMOVUPD(gc.One, x.r(11))
	VDIVPD(x.r(10), x.r(11), x.r(12))     // 1/ν
	x.cmp(U8(0x1d), x.r(11), x.r(10), 13) // ν ≥ 1
	x.blend(13, x.r(12), x.r(10), x.r(0))
	x.glLog1p()
	VMOVUPD(x.r(0), x.tmp(slLX))
	VMOVUPD(x.tmp(slNu), x.r(0))
	x.glLog()
	VMOVUPD(x.tmp(slNu), x.r(10))
	x.cmp(U8(0x1d), gc.One, x.r(10), 13)
	VXORPD(x.r(1), x.r(1), x.r(1))
	x.blend(13, x.r(1), x.r(0), x.r(0)) // ν ≥ 1: 0
	VMOVUPD(x.tmp(slLB), x.r(1))
	VADDPD(x.tmp(slLX), x.r(1), x.r(1))
	VSUBPD(x.r(0), x.r(1), x.r(1))
	VMOVUPD(x.r(1), x.tmp(slLogSig))
	// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is
	// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:
	// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.
	VMOVUPD(x.tmp(slAlpha), x.r(10))
	VMOVUPD(gc.One, x.r(11))
	VADDPD(x.r(11), x.r(10), x.r(12))      // α + 1
	x.cmp(U8(0x1d), gc.Ten, x.r(10), 13)   // α ≥ 10
	x.blend(13, x.r(10), x.r(12), x.r(12)) // z
	VADDPD(gc.Half, x.r(10), x.r(14))      // num = α + ½
	VMOVAPD(x.r(11), x.r(15))              // den = 1
	MOVQ(U32(9), RDX)

	l.Set("lgstep")
	x.cmp(U8(0x11), gc.Ten, x.r(12), 1) // z < 10
	x.none(1)
	JZ(l.L("lgdone"))
	VADDPD(gc.Half, x.r(12), x.r(2))
	VMULPD(x.r(2), x.r(14), x.r(2))
	x.blend(1, x.r(2), x.r(14), x.r(14)) // num *= z + ½
	VMULPD(x.r(12), x.r(15), x.r(2))
	x.blend(1, x.r(2), x.r(15), x.r(15)) // den *= z
	x.and(x.r(11), 1, x.r(2))
	VADDPD(x.r(2), x.r(12), x.r(12)) // z++
	DECQ(RDX)
	JNZ(l.L("lgstep"))

	l.Set("lgdone")
	VMOVUPD(x.r(12), x.tmp(slZ))
	VMOVUPD(x.r(14), x.tmp(slNum))
	VMOVUPD(x.r(15), x.tmp(slDen))
	VMOVAPD(x.r(12), x.r(0))
	x.glLog()
	VMULPD(gc.Half, x.r(0), x.r(10)) // ½ ln z
	VMOVUPD(x.tmp(slZ), x.r(12))
	VMOVUPD(gc.One, x.r(11))
	VDIVPD(x.r(12), x.r(11), x.r(11)) // r = 1/z
	VMULPD(x.r(11), x.r(11), x.r(12)) // r²
	VMOVUPD(gc.LG[len(gc.LG)-1], x.r(13))
	for k := len(gc.LG) - 2; k >= 0; k-- {
		VMULPD(x.r(12), x.r(13), x.r(13))
		VADDPD(gc.LG[k], x.r(13), x.r(13))
	}
	VMULPD(x.r(13), x.r(11), x.r(13))
	VADDPD(x.r(13), x.r(10), x.r(10)) // series(z)
	VMOVUPD(x.r(10), x.tmp(slLgHS))
	VMOVUPD(x.tmp(slNum), x.r(0))
	VDIVPD(x.tmp(slDen), x.r(0), x.r(0))
	x.glLog()
	VMOVUPD(x.tmp(slLgHS), x.r(10))
	VSUBPD(x.r(0), x.r(10), x.r(10)) // − ln(num/den)
	VMOVUPD(x.r(10), x.tmp(slTmp))
	VMOVUPD(x.tmp(slAlpha), x.r(0))
	x.glLog()
	VMOVUPD(x.tmp(slTmp), x.r(10))
	VADDPD(x.r(0), x.r(10), x.r(10)) // + ln α
	VMOVUPD(x.tmp(slAlpha), x.r(1))
	x.cmp(U8(0x1d), gc.Ten, x.r(1), 1)
	x.blend(1, x.tmp(slLgHS), x.r(10), x.r(10))
	VMOVUPD(x.r(10), x.tmp(slLgHS))
	// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),
	// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most
	// ten steps for α > 0.
	VMOVUPD(x.tmp(slAlpha), x.r(12))  // z
	VXORPD(x.r(14), x.r(14), x.r(14)) // num = 0
	VMOVUPD(gc.One, x.r(15))          // den = 1
	VMOVUPD(gc.One, x.r(11))
	MOVQ(U32(10), RDX)

	l.Set("psistep")
	x.cmp(U8(0x11), gc.Ten, x.r(12), 1)
	x.none(1)
	JZ(l.L("psidone"))
	VADDPD(x.r(12), x.r(12), x.r(2))
	VADDPD(x.r(11), x.r(2), x.r(2))
	VMULPD(x.r(2), x.r(12), x.r(2)) // d = z(2z+1)
	VMULPD(x.r(2), x.r(14), x.r(3))
	VADDPD(x.r(15), x.r(3), x.r(3)) // num·d + den
	x.blend(1, x.r(3), x.r(14), x.r(14))
	VMULPD(x.r(2), x.r(15), x.r(3))
	x.blend(1, x.r(3), x.r(15), x.r(15)) // den *= d
	x.and(x.r(11), 1, x.r(2))
	VADDPD(x.r(2), x.r(12), x.r(12))
	DECQ(RDX)
	JNZ(l.L("psistep"))

	l.Set("psidone")
	VMULPD(x.r(12), x.r(12), x.r(2))
	VDIVPD(x.r(2), x.r(11), x.r(2)) // u = 1/z²
	VMOVUPD(gc.DG[len(gc.DG)-1], x.r(3))
	for k := len(gc.DG) - 2; k >= 0; k-- {
		VMULPD(x.r(2), x.r(3), x.r(3))
		VADDPD(gc.DG[k], x.r(3), x.r(3))
	}
	VMULPD(x.r(3), x.r(2), x.r(3)) // u·P(u)
	VMOVUPD(gc.Half, x.r(4))
	VDIVPD(x.r(12), x.r(4), x.r(4)) // 0.5/z
	VADDPD(x.r(3), x.r(4), x.r(4))
	VDIVPD(x.r(15), x.r(14), x.r(5)) // num/den
	VADDPD(x.r(5), x.r(4), x.r(4))
	VMOVUPD(x.r(4), x.tmp(slPsiH))
	// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]
	VMOVUPD(x.tmp(slAlpha), x.r(10))
	VADDPD(gc.Half, x.r(10), x.r(11)) // α + ½
	VMOVUPD(x.tmp(slLogSig), x.r(0))
	VADDPD(gc.Log2Pi, x.r(0), x.r(0))
	VMULPD(gc.Half, x.r(0), x.r(0))
	VMOVUPD(x.tmp(slLgHS), x.r(1))
	VSUBPD(x.r(0), x.r(1), x.r(1))
	VMOVUPD(x.tmp(slL1pU), x.r(2))
	VMULPD(x.r(2), x.r(11), x.r(3))
	VSUBPD(x.r(3), x.r(1), x.r(1))   // ln p
	VXORPD(gc.Sign, x.r(1), x.r(12)) // nll = −ln p
	// dα = ln(1+u) − [ψ(α+½) − ψ(α)]
	VSUBPD(x.tmp(slPsiH), x.r(2), x.r(13))
	// dm = −(α+½)·(tw·(√2/√σ))
	VMOVUPD(x.tmp(slSigma), x.r(0))
	VSQRTPD(x.r(0), x.r(0))
	VMOVUPD(gc.Sqrt2, x.r(1))
	VDIVPD(x.r(0), x.r(1), x.r(1))
	VMULPD(x.tmp(slTW), x.r(1), x.r(1))
	VXORPD(gc.Sign, x.r(11), x.r(2)) // −(α+½)
	VMULPD(x.r(1), x.r(2), x.r(14))  // dm
	// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))
	VMOVUPD(x.tmp(slW), x.r(0))
	VMULPD(gc.Half, x.r(0), x.r(0))
	VMULPD(x.tmp(slV), x.r(10), x.r(1))
	VSUBPD(x.r(1), x.r(0), x.r(0))         // g
	VDIVPD(x.tmp(slBeta), x.r(0), x.r(15)) // dβ
	VMOVUPD(x.tmp(slNu), x.r(1))
	VADDPD(gc.One, x.r(1), x.r(2))
	VMULPD(x.r(2), x.r(1), x.r(1))
	VXORPD(gc.Sign, x.r(0), x.r(0)) // −g
	VDIVPD(x.r(1), x.r(0), x.r(0))  // dν
	// chain through the links, scale, and NaN for an invalid prior
	VMOVUPD(x.tmp(slSc), x.r(5))
	valid := 6
	if x.z {
		valid = maskValid
	} else {
		VMOVUPD(x.tmp(slValid), x.r(6))
	}
	VMOVUPD(gc.NaN, x.r(7))
	VMULPD(x.tmp(slSigN), x.r(0), x.r(0))
	VMULPD(x.r(0), x.r(5), x.r(0))
	x.blend(valid, x.r(0), x.r(7), x.r(0))
	x.store(0, at(R14, 0, RAX, 1))
	VMULPD(x.tmp(slSigB), x.r(15), x.r(15))
	VMULPD(x.r(15), x.r(5), x.r(15))
	x.blend(valid, x.r(15), x.r(7), x.r(15))
	x.store(15, at(R13, 0, RAX, 1))
	VMULPD(x.r(14), x.r(5), x.r(14))
	x.blend(valid, x.r(14), x.r(7), x.r(14))
	x.store(14, at(R11, 0, RAX, 1))
	x.blend(valid, x.r(12), x.r(7), x.r(12))
	if x.z {
		VMOVUPD(x.tmp(slSum), x.r(1))
		VADDPD(x.r(12), x.r(1), gcLive, x.r(1)) // the samples of the group alone
		VMOVUPD(x.r(1), x.tmp(slSum))
	} else {
		VADDPD(x.tmp(slSum), x.r(12), x.r(12))
		VMOVUPD(x.r(12), x.tmp(slSum))
	}
	MOVQ(arg("fixedAlpha"), RDX)
	TESTQ(RDX, RDX)
	JNZ(l.L("next"))
	VMULPD(x.tmp(slSigA), x.r(13), x.r(13))
	VMULPD(x.r(13), x.r(5), x.r(13))
	x.blend(valid, x.r(13), x.r(7), x.r(13))
	x.store(13, at(R12, 0, RAX, 1))

	l.Set("next")
	ADDQ(U8(x.vec()/8*x.elemBytes()), RAX)
	JMP(l.L("loop"))

	l.Set("done")
	VMOVUPD(x.tmp(slSum), x.r(0))
	x.hsum()
	VMOVSD(X0, ret())
	vzeroupper()
	RET()
}
