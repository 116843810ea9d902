package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The vector special functions of gcpLossF64 and softplusF64, in float64
// on the four lanes of a YMM. They are fixed to registers: the argument
// and the result in Y0, the others clobbered as each says.

// glLog sets Y0 = ln(Y0), as fdlibm's log (Go's math.log): x = f1·2^k with
// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;
// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and
// ln(x < 0) = ln(NaN) = NaN. Clobbers Y1–Y7.
func glLog() {
	VCMPPD(U8(0x11), gc.Tiny, Y0, Y1)
	VMULPD(gc.Two54, Y0, Y2)
	VBLENDVPD(Y1, Y2, Y0, Y2)
	VANDPD(gc.C54, Y1, Y3)
	VPSRLQ(U8(52), Y2, Y4)
	VPOR(gc.ExpMagic, Y4, Y4)
	VSUBPD(gc.Two52, Y4, Y4)
	VSUBPD(gc.C1022, Y4, Y4)
	VSUBPD(Y3, Y4, Y4)
	VANDPD(gc.Mant, Y2, Y5)
	VORPD(gc.Half, Y5, Y5)
	VCMPPD(U8(0x11), gc.SqrtHalf, Y5, Y6)
	VADDPD(Y5, Y5, Y7)
	VBLENDVPD(Y6, Y7, Y5, Y5)
	VANDPD(gc.One, Y6, Y7)
	VSUBPD(Y7, Y4, Y4)
	VSUBPD(gc.One, Y5, Y5)
	VADDPD(gc.Two, Y5, Y6)
	VDIVPD(Y6, Y5, Y6)
	VMULPD(Y6, Y6, Y7)
	VMULPD(Y7, Y7, Y3)
	// R = s²·(L1 + s⁴·(L3 + s⁴·(L5 + s⁴·L7))) + s⁴·(L2 + s⁴·(L4 + s⁴·L6))
	VMOVUPD(gc.L[6], Y1)
	for k := 4; k >= 0; k -= 2 {
		VFMADD213PD(gc.L[k], Y3, Y1)
	}
	VMULPD(Y7, Y1, Y1)
	VMOVUPD(gc.L[5], Y2)
	for k := 3; k >= 1; k -= 2 {
		VFMADD213PD(gc.L[k], Y3, Y2)
	}
	VMULPD(Y3, Y2, Y2)
	VADDPD(Y2, Y1, Y1)
	VMULPD(Y5, Y5, Y2)
	VMULPD(gc.Half, Y2, Y2)
	VADDPD(Y2, Y1, Y1)
	VMULPD(Y6, Y1, Y1)
	VMULPD(gc.Ln2Lo, Y4, Y3)
	VADDPD(Y3, Y1, Y1)
	VSUBPD(Y1, Y2, Y2)
	VSUBPD(Y5, Y2, Y2)
	VMULPD(gc.Ln2Hi, Y4, Y4)
	VSUBPD(Y2, Y4, Y4)
	VXORPD(Y1, Y1, Y1)
	VCMPPD(U8(0x00), Y1, Y0, Y2)
	VBLENDVPD(Y2, gc.NegInf, Y4, Y4)
	VCMPPD(U8(0x00), gc.Inf, Y0, Y2)
	VBLENDVPD(Y2, gc.Inf, Y4, Y4)
	VCMPPD(U8(0x19), Y1, Y0, Y2)
	VBLENDVPD(Y2, gc.NaN, Y4, Y0)
}

// glLog1p sets Y0 = ln(1+Y0) for Y0 ≥ 0 (or NaN): with w = 1+x rounded,
// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding
// error of w (Goldberg), so tiny x keep full relative accuracy. Not for
// x = +Inf (NaN). Clobbers Y1–Y9.
func glLog1p() {
	VMOVAPD(Y0, Y8)
	VADDPD(gc.One, Y0, Y9)
	VMOVAPD(Y9, Y0)
	glLog()
	VSUBPD(gc.One, Y9, Y1)
	VSUBPD(Y1, Y8, Y1)
	VDIVPD(Y9, Y1, Y1)
	VADDPD(Y1, Y0, Y0)
}

// glExpNeg sets Y0 = exp(Y0) for Y0 ≤ 0 (or NaN), as fdlibm's exp (Go's
// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a
// rational approximation of exp(r), and the scaling by 2^k done as
// 2^⌊k/2⌋·2^(k−⌊k/2⌋) so that subnormal results round once. x < −746
// (−Inf included) gives 0. Clobbers Y1–Y7.
func glExpNeg() {
	VMOVUPD(gc.ExpMin, Y1)
	VMAXPD(Y0, Y1, Y0)
	VMULPD(gc.Log2e, Y0, Y1)
	VROUNDPD(U8(0), Y1, Y1)
	VMULPD(gc.Ln2Hi, Y1, Y2)
	VSUBPD(Y2, Y0, Y2)
	VMULPD(gc.Ln2Lo, Y1, Y3)
	VSUBPD(Y3, Y2, Y4)
	VMULPD(Y4, Y4, Y5)
	VMOVUPD(gc.P[len(gc.P)-1], Y6)
	for k := len(gc.P) - 2; k >= 0; k-- {
		VFMADD213PD(gc.P[k], Y5, Y6)
	}
	VMULPD(Y5, Y6, Y6)
	VSUBPD(Y6, Y4, Y6)
	VMULPD(Y6, Y4, Y7)
	VMOVUPD(gc.Two, Y5)
	VSUBPD(Y6, Y5, Y5)
	VDIVPD(Y5, Y7, Y7)
	VSUBPD(Y7, Y3, Y3)
	VSUBPD(Y2, Y3, Y3)
	VMOVUPD(gc.One, Y5)
	VSUBPD(Y3, Y5, Y5)
	ldexp2(Y1, Y5, Y2, Y3, Y0)
}

// ldexp2 sets dst = m·2^k for the integers k (in float64): as
// 2^⌊k/2⌋·2^(k−⌊k/2⌋), so that a subnormal result rounds once and 2^1023·2
// does not overflow early. h and rest are scratch (rest may be k).
func ldexp2(k, m, h, rest, dst VecPhysical) {
	VMULPD(gc.Half, k, h)
	VROUNDPD(U8(1), h, h) // ⌊k/2⌋
	VSUBPD(h, k, rest)
	VADDPD(gc.ExpBias, h, h)
	VPSLLQ(U8(52), h, h) // 2^⌊k/2⌋
	VADDPD(gc.ExpBias, rest, rest)
	VPSLLQ(U8(52), rest, rest)
	VMULPD(h, m, m)
	VMULPD(rest, m, dst)
}

// softplusExp and softplusLog set Y0 = softplus(Y10) = ln(1+e^z) as
// special.go's softplus: z + ln(1+e^−z) for z > 0, ln(1+e^z) otherwise,
// both written ln(1+e) + (z > 0 ? z : 0) with e = e^−|z| ≤ 1, which
// cannot overflow. softplusExp leaves e in Y0 (gcpLossF64 builds the
// sigmoid from it) and clobbers Y1–Y7; softplusLog takes e in Y0 and
// clobbers Y1–Y9 and Y15. Y10 is kept. softplus(+Inf) = +Inf,
// softplus(−Inf) = 0 and softplus(NaN) = NaN.
func softplusExp() {
	VORPD(gc.Sign, Y10, Y0)
	glExpNeg()
}

func softplusLog() {
	glLog1p()
	VADDPD(Y10, Y0, Y1)
	VXORPD(Y15, Y15, Y15)
	VCMPPD(U8(0x1e), Y15, Y10, Y15) // z > 0
	VBLENDVPD(Y15, Y1, Y0, Y0)
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
func tmp(s int) Mem { return at(RBX, 32*s, nil, 0) }

// linkSigmoid loads the raw output z at (src)(AX*1) into Y10 and slot zs,
// stores σ(z) = e/(1+e) (z < 0) or 1/(1+e) (z ≥ 0), with e = e^−|z|, in
// slot sig, and leaves softplus(z) in Y0.
func linkSigmoid(src GPPhysical, zs, sig int) {
	VMOVUPD(at(src, 0, RAX, 1), Y10)
	VMOVUPD(Y10, tmp(zs))
	softplusExp()
	VMOVAPD(Y0, Y11)        // e
	VADDPD(gc.One, Y0, Y12) // 1 + e
	VDIVPD(Y12, Y11, Y13)   // e/(1+e)
	VMOVUPD(gc.One, Y14)
	VDIVPD(Y12, Y14, Y14) // 1/(1+e)
	VXORPD(Y15, Y15, Y15)
	VCMPPD(U8(0x1d), Y15, Y10, Y15) // z ≥ 0 (GE_OQ)
	VBLENDVPD(Y15, Y14, Y13, Y13)
	VMOVUPD(Y13, tmp(sig))
	softplusLog()
}

// gcpLoss emits gcpLossF64: the Student-t gradient loop of the GCP loss
// (gcpLossGeneric, gcpPoint, NormalGamma.Grad and LogPredictive), four
// samples at a time in float64 (the float32 wrapper converts in chunks).
// Every special function is vectorized: exp and ln as fdlibm's (glExpNeg,
// glLog, glLog1p), ψ(α+½)−ψ(α) and lnΓ(α+½)−lnΓ(α) by the upward
// recurrence, masked per lane, then the asymptotic series of special.go
// (internal/coef). The branches of the scalar code (softplus and sigmoid
// by the sign of z, the residual for u ≤ 1 or u > 1 and u = +Inf, ln σ for
// ν ≥ 1 or ν < 1, α ≥ 10) are evaluated on both sides and blended, and an
// invalid prior (ν, α or β not > 0) gives NaN everywhere, as in the scalar
// code. Every intermediate vector lives in a slot of the caller's scratch
// buffer tmp, as the special functions need all sixteen registers.
func gcpLoss() {
	l := kernel("gcpLossF64")
	MOVQ(arg("n"), RCX)
	SHLQ(U8(3), RCX) // bytes
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
	VBROADCASTSD(arg("fixedAlpha"), Y0)
	VMOVUPD(Y0, tmp(slFA))
	VBROADCASTSD(arg("scale"), Y0)
	VMOVUPD(Y0, tmp(slSc))
	VXORPD(Y0, Y0, Y0)
	VMOVUPD(Y0, tmp(slSum))
	XORQ(RAX, RAX)

	l.Set("loop")
	CMPQ(RAX, RCX)
	JGE(l.L("done"))
	VMOVUPD(at(RSI, 0, RAX, 1), Y0)
	VMOVUPD(Y0, tmp(slZM))
	VMOVUPD(at(R10, 0, RAX, 1), Y0)
	VMOVUPD(Y0, tmp(slY))
	// β = softplus(zb), σ(zb)
	linkSigmoid(R8, slZB, slSigB)
	VMOVUPD(Y0, tmp(slBeta))
	// ν = softplus(zn), σ(zn)
	linkSigmoid(R9, slZN, slSigN)
	VMOVUPD(Y0, tmp(slNu))
	VMOVUPD(tmp(slFA), Y0)
	VMOVUPD(Y0, tmp(slAlpha))
	VXORPD(Y0, Y0, Y0)
	VMOVUPD(Y0, tmp(slSigA))
	MOVQ(arg("fixedAlpha"), RDX)
	TESTQ(RDX, RDX) // +0: α is learned (the Go wrapper maps −0 to +0)
	JNZ(l.L("fixed"))
	// α = 1 + softplus(za), σ(za)
	linkSigmoid(RDI, slZA, slSigA)
	VADDPD(gc.One, Y0, Y0) // α = 1 + softplus
	VMOVUPD(Y0, tmp(slAlpha))

	l.Set("fixed")
	// valid = ν > 0 && α > 0 && β > 0 (false for NaN)
	VXORPD(Y1, Y1, Y1)
	VMOVUPD(tmp(slNu), Y10)
	VMOVUPD(tmp(slAlpha), Y11)
	VMOVUPD(tmp(slBeta), Y12)
	VCMPPD(U8(0x1e), Y1, Y10, Y2)
	VCMPPD(U8(0x1e), Y1, Y11, Y3)
	VCMPPD(U8(0x1e), Y1, Y12, Y4)
	VANDPD(Y3, Y2, Y2)
	VANDPD(Y4, Y2, Y2)
	VMOVUPD(Y2, tmp(slValid))
	// σ = β(1 + 1/ν); s = √(2σ)
	VMOVUPD(gc.One, Y13)
	VDIVPD(Y10, Y13, Y13)
	VADDPD(gc.One, Y13, Y13)
	VMULPD(Y13, Y12, Y13)
	VMOVUPD(Y13, tmp(slSigma))
	VADDPD(Y13, Y13, Y14)
	VSQRTPD(Y14, Y14)
	// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN
	VMOVUPD(tmp(slY), Y0)
	VMOVUPD(tmp(slZM), Y1)
	VSUBPD(Y1, Y0, Y2)  // r
	VDIVPD(Y14, Y2, Y3) // r/s
	VDIVPD(Y14, Y0, Y4)
	VDIVPD(Y14, Y1, Y5)
	VSUBPD(Y5, Y4, Y4)           // y/s − m/s
	VCMPPD(U8(0x03), Y3, Y3, Y5) // isNaN(r/s)
	VBLENDVPD(Y5, Y4, Y3, Y3)
	VXORPD(Y6, Y6, Y6)
	VCMPPD(U8(0x00), Y6, Y2, Y5) // r == 0
	VBLENDVPD(Y5, Y6, Y3, Y3)    // t
	VMOVUPD(Y3, tmp(slT))
	VMULPD(Y3, Y3, Y4) // u
	VMOVUPD(Y4, tmp(slU))
	// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)
	VMOVUPD(gc.One, Y7)
	VADDPD(Y7, Y4, Y5)
	VDIVPD(Y5, Y7, Y5) // w
	VMOVUPD(Y5, tmp(slW))
	VMULPD(Y5, Y4, Y8) // u·w
	VMULPD(Y5, Y3, Y9) // t·w
	VDIVPD(Y4, Y7, Y10)
	VADDPD(Y7, Y10, Y10)
	VDIVPD(Y10, Y7, Y10) // 1/(1+1/u)
	VDIVPD(Y3, Y7, Y11)
	VADDPD(Y3, Y11, Y11)
	VDIVPD(Y11, Y7, Y11)          // 1/(t+1/t)
	VCMPPD(U8(0x12), Y7, Y4, Y12) // u ≤ 1 (LE_OQ)
	VBLENDVPD(Y12, Y8, Y10, Y10)
	VMOVUPD(Y10, tmp(slV))
	VBLENDVPD(Y12, Y9, Y11, Y11)
	VMOVUPD(Y11, tmp(slTW))
	// ln(1+u), or 2·ln|t| where u overflowed
	VMOVAPD(Y4, Y0)
	glLog1p()
	VMOVUPD(Y0, tmp(slL1pU))
	VMOVUPD(tmp(slU), Y1)
	VCMPPD(U8(0x00), gc.Inf, Y1, Y1)
	VMOVMSKPD(Y1, EDX)
	TESTQ(RDX, RDX)
	JZ(l.L("finiteu"))
	VMOVUPD(tmp(slT), Y0)
	VANDPD(gc.Abs, Y0, Y0)
	glLog()
	VADDPD(Y0, Y0, Y0)
	VMOVUPD(tmp(slU), Y1)
	VCMPPD(U8(0x00), gc.Inf, Y1, Y1)
	VMOVUPD(tmp(slL1pU), Y2)
	VBLENDVPD(Y1, Y0, Y2, Y2)
	VMOVUPD(Y2, tmp(slL1pU))

	l.Set("finiteu")
	// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below
	VMOVUPD(tmp(slBeta), Y0)
	glLog()
	VMOVUPD(Y0, tmp(slLB))
	VMOVUPD(tmp(slNu), Y10)
	VMOVUPD(gc.One, Y11)
	VDIVPD(Y10, Y11, Y12)           // 1/ν
	VCMPPD(U8(0x1d), Y11, Y10, Y13) // ν ≥ 1
	VBLENDVPD(Y13, Y12, Y10, Y0)
	glLog1p()
	VMOVUPD(Y0, tmp(slLX))
	VMOVUPD(tmp(slNu), Y0)
	glLog()
	VMOVUPD(tmp(slNu), Y10)
	VCMPPD(U8(0x1d), gc.One, Y10, Y13)
	VXORPD(Y1, Y1, Y1)
	VBLENDVPD(Y13, Y1, Y0, Y0) // ν ≥ 1: 0
	VMOVUPD(tmp(slLB), Y1)
	VADDPD(tmp(slLX), Y1, Y1)
	VSUBPD(Y0, Y1, Y1)
	VMOVUPD(Y1, tmp(slLogSig))
	// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is
	// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:
	// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.
	VMOVUPD(tmp(slAlpha), Y10)
	VMOVUPD(gc.One, Y11)
	VADDPD(Y11, Y10, Y12)              // α + 1
	VCMPPD(U8(0x1d), gc.Ten, Y10, Y13) // α ≥ 10
	VBLENDVPD(Y13, Y10, Y12, Y12)      // z
	VADDPD(gc.Half, Y10, Y14)          // num = α + ½
	VMOVAPD(Y11, Y15)                  // den = 1
	MOVQ(U32(9), RDX)

	l.Set("lgstep")
	VCMPPD(U8(0x11), gc.Ten, Y12, Y1) // z < 10
	VTESTPD(Y1, Y1)
	JZ(l.L("lgdone"))
	VADDPD(gc.Half, Y12, Y2)
	VMULPD(Y2, Y14, Y2)
	VBLENDVPD(Y1, Y2, Y14, Y14) // num *= z + ½
	VMULPD(Y12, Y15, Y2)
	VBLENDVPD(Y1, Y2, Y15, Y15) // den *= z
	VANDPD(Y11, Y1, Y2)
	VADDPD(Y2, Y12, Y12) // z++
	DECQ(RDX)
	JNZ(l.L("lgstep"))

	l.Set("lgdone")
	VMOVUPD(Y12, tmp(slZ))
	VMOVUPD(Y14, tmp(slNum))
	VMOVUPD(Y15, tmp(slDen))
	VMOVAPD(Y12, Y0)
	glLog()
	VMULPD(gc.Half, Y0, Y10) // ½ ln z
	VMOVUPD(tmp(slZ), Y12)
	VMOVUPD(gc.One, Y11)
	VDIVPD(Y12, Y11, Y11) // r = 1/z
	VMULPD(Y11, Y11, Y12) // r²
	VMOVUPD(gc.LG[len(gc.LG)-1], Y13)
	for k := len(gc.LG) - 2; k >= 0; k-- {
		VMULPD(Y12, Y13, Y13)
		VADDPD(gc.LG[k], Y13, Y13)
	}
	VMULPD(Y13, Y11, Y13)
	VADDPD(Y13, Y10, Y10) // series(z)
	VMOVUPD(Y10, tmp(slLgHS))
	VMOVUPD(tmp(slNum), Y0)
	VDIVPD(tmp(slDen), Y0, Y0)
	glLog()
	VMOVUPD(tmp(slLgHS), Y10)
	VSUBPD(Y0, Y10, Y10) // − ln(num/den)
	VMOVUPD(Y10, tmp(slTmp))
	VMOVUPD(tmp(slAlpha), Y0)
	glLog()
	VMOVUPD(tmp(slTmp), Y10)
	VADDPD(Y0, Y10, Y10) // + ln α
	VMOVUPD(tmp(slAlpha), Y1)
	VCMPPD(U8(0x1d), gc.Ten, Y1, Y1)
	VBLENDVPD(Y1, tmp(slLgHS), Y10, Y10)
	VMOVUPD(Y10, tmp(slLgHS))
	// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),
	// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most
	// ten steps for α > 0.
	VMOVUPD(tmp(slAlpha), Y12) // z
	VXORPD(Y14, Y14, Y14)      // num = 0
	VMOVUPD(gc.One, Y15)       // den = 1
	VMOVUPD(gc.One, Y11)
	MOVQ(U32(10), RDX)

	l.Set("psistep")
	VCMPPD(U8(0x11), gc.Ten, Y12, Y1)
	VTESTPD(Y1, Y1)
	JZ(l.L("psidone"))
	VADDPD(Y12, Y12, Y2)
	VADDPD(Y11, Y2, Y2)
	VMULPD(Y2, Y12, Y2) // d = z(2z+1)
	VMULPD(Y2, Y14, Y3)
	VADDPD(Y15, Y3, Y3) // num·d + den
	VBLENDVPD(Y1, Y3, Y14, Y14)
	VMULPD(Y2, Y15, Y3)
	VBLENDVPD(Y1, Y3, Y15, Y15) // den *= d
	VANDPD(Y11, Y1, Y2)
	VADDPD(Y2, Y12, Y12)
	DECQ(RDX)
	JNZ(l.L("psistep"))

	l.Set("psidone")
	VMULPD(Y12, Y12, Y2)
	VDIVPD(Y2, Y11, Y2) // u = 1/z²
	VMOVUPD(gc.DG[len(gc.DG)-1], Y3)
	for k := len(gc.DG) - 2; k >= 0; k-- {
		VMULPD(Y2, Y3, Y3)
		VADDPD(gc.DG[k], Y3, Y3)
	}
	VMULPD(Y3, Y2, Y3) // u·P(u)
	VMOVUPD(gc.Half, Y4)
	VDIVPD(Y12, Y4, Y4) // 0.5/z
	VADDPD(Y3, Y4, Y4)
	VDIVPD(Y15, Y14, Y5) // num/den
	VADDPD(Y5, Y4, Y4)
	VMOVUPD(Y4, tmp(slPsiH))
	// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]
	VMOVUPD(tmp(slAlpha), Y10)
	VADDPD(gc.Half, Y10, Y11) // α + ½
	VMOVUPD(tmp(slLogSig), Y0)
	VADDPD(gc.Log2Pi, Y0, Y0)
	VMULPD(gc.Half, Y0, Y0)
	VMOVUPD(tmp(slLgHS), Y1)
	VSUBPD(Y0, Y1, Y1)
	VMOVUPD(tmp(slL1pU), Y2)
	VMULPD(Y2, Y11, Y3)
	VSUBPD(Y3, Y1, Y1)       // ln p
	VXORPD(gc.Sign, Y1, Y12) // nll = −ln p
	// dα = ln(1+u) − [ψ(α+½) − ψ(α)]
	VSUBPD(tmp(slPsiH), Y2, Y13)
	// dm = −(α+½)·(tw·(√2/√σ))
	VMOVUPD(tmp(slSigma), Y0)
	VSQRTPD(Y0, Y0)
	VMOVUPD(gc.Sqrt2, Y1)
	VDIVPD(Y0, Y1, Y1)
	VMULPD(tmp(slTW), Y1, Y1)
	VXORPD(gc.Sign, Y11, Y2) // −(α+½)
	VMULPD(Y1, Y2, Y14)      // dm
	// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))
	VMOVUPD(tmp(slW), Y0)
	VMULPD(gc.Half, Y0, Y0)
	VMULPD(tmp(slV), Y10, Y1)
	VSUBPD(Y1, Y0, Y0)           // g
	VDIVPD(tmp(slBeta), Y0, Y15) // dβ
	VMOVUPD(tmp(slNu), Y1)
	VADDPD(gc.One, Y1, Y2)
	VMULPD(Y2, Y1, Y1)
	VXORPD(gc.Sign, Y0, Y0) // −g
	VDIVPD(Y1, Y0, Y0)      // dν
	// chain through the links, scale, and NaN for an invalid prior
	VMOVUPD(tmp(slSc), Y5)
	VMOVUPD(tmp(slValid), Y6)
	VMOVUPD(gc.NaN, Y7)
	VMULPD(tmp(slSigN), Y0, Y0)
	VMULPD(Y0, Y5, Y0)
	VBLENDVPD(Y6, Y0, Y7, Y0)
	VMOVUPD(Y0, at(R14, 0, RAX, 1))
	VMULPD(tmp(slSigB), Y15, Y15)
	VMULPD(Y15, Y5, Y15)
	VBLENDVPD(Y6, Y15, Y7, Y15)
	VMOVUPD(Y15, at(R13, 0, RAX, 1))
	VMULPD(Y14, Y5, Y14)
	VBLENDVPD(Y6, Y14, Y7, Y14)
	VMOVUPD(Y14, at(R11, 0, RAX, 1))
	VBLENDVPD(Y6, Y12, Y7, Y12)
	VADDPD(tmp(slSum), Y12, Y12)
	VMOVUPD(Y12, tmp(slSum))
	MOVQ(arg("fixedAlpha"), RDX)
	TESTQ(RDX, RDX)
	JNZ(l.L("next"))
	VMULPD(tmp(slSigA), Y13, Y13)
	VMULPD(Y13, Y5, Y13)
	VBLENDVPD(Y6, Y13, Y7, Y13)
	VMOVUPD(Y13, at(R12, 0, RAX, 1))

	l.Set("next")
	ADDQ(U8(32), RAX)
	JMP(l.L("loop"))

	l.Set("done")
	VMOVUPD(tmp(slSum), Y0)
	hsum(f64)
	VMOVSD(X0, ret())
	VZEROUPPER()
	RET()
}
