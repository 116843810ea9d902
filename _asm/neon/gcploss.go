package main

// gcpRegs are the general-purpose registers of gcpLossF64, by their
// #defined names, and the special functions it calls.
type gcpRegs struct {
	*specials
	zm, za, zb, zn, yp, gm, ga, gb, gn gpr // the pointer arguments
	pairs, fixed, cnt, any, any1       gpr
	defs                               *defines
}

// defineGcpRegs #defines the registers of gcpLossF64 and writes the
// macros it uses.
func defineGcpRegs(a *asm, s *specials) *gcpRegs {
	// ---------------------------------------------------------------------
	// gcpLossF64: the Student-t gradient loop of the GCP loss (gcpLossGeneric,
	// gcpPoint, NormalGamma.Grad and LogPredictive), two samples at a time in
	// the lanes of a float64×2 vector; the float32 wrapper converts in chunks.
	// It follows the AVX2 gcpLossF64 of simd_amd64.s operation for operation:
	// exp and ln as fdlibm's (GL_EXP_NEG, GL_LOG, GL_LOG1P), ψ(α+½)−ψ(α) and
	// lnΓ(α+½)−lnΓ(α) by the upward recurrence, masked per lane, then the
	// asymptotic series of special.go. The branches of the scalar code
	// (softplus and sigmoid by the sign of z, the residual for u ≤ 1 or u > 1
	// and u = +Inf, ln σ for ν ≥ 1 or ν < 1, α ≥ 10) are evaluated on both
	// sides and blended with BIT and BIF, and an invalid prior (ν, α or β not
	// > 0) gives NaN everywhere, as in the scalar code.
	//
	// The constants come from neonConst<> (above). The macros work in V0–V9;
	// the values that live through an iteration stay in registers (no scratch
	// memory):
	//
	//	V10 the loss sum per lane   V11 scale         V12 fixedAlpha
	//	V13 β     V14 σ(zb)         V15 ν             V16 σ(zn)
	//	V17 α     V18 σ(za)         V19 valid: ν, α, β > 0
	//	V20 σ = β(1+1/ν)            V21 w = 1/(1+u)   V22 v = u/(1+u)
	//	V23 tw = t/(1+u)            V24 ln(1+u)       V25 ln σ
	//	V26 lnΓ(α+½) − lnΓ(α)       V27 ψ(α+½) − ψ(α)
	//	V28–V31 temporaries: the argument and sigmoid of GL_SOFTPLUS, t and
	//	u, and the z, num and den of the recurrences
	a.Comment()
	d := a.Defines()
	r := &gcpRegs{specials: s, defs: d}
	r.zm = d.Register("ZM", R(0))        // &zm[i]
	r.za = d.Register("ZA", R(1))        // &za[i], with α learned
	r.zb = d.Register("ZB", R(2))        // &zb[i]
	r.zn = d.Register("ZN", R(3))        // &zn[i]
	r.yp = d.Register("YP", R(4))        // &y[i]
	r.gm = d.Register("GM", R(5))        // &gm[i]
	r.ga = d.Register("GA", R(6))        // &ga[i], with α learned
	r.gb = d.Register("GB", R(7))        // &gb[i]
	r.gn = d.Register("GN", R(8))        // &gn[i]
	r.pairs = d.Register("PAIRS", R(10)) // pairs of samples left
	r.fixed = d.Register("FIXED", R(11)) // the bits of fixedAlpha: 0 when α is learned
	r.cnt = d.Register("CNT", R(12))     // recurrence steps left
	r.any = d.Register("ANY", R(13))     // lane masks, ORed: a lane is set
	r.any1 = d.Register("ANY1", R(14))
	// GL_NONE(mask, label) branches to label when no lane of the vector
	// register mask is set.
	a.Macro(r.glNone, vparam("mask"), a.Param("label"))
	a.Single(s.defineMacros)
	return r
}

// glNone is the body of GL_NONE.
func (r *gcpRegs) glNone(a *asm, t elem, mask vreg, l label) {
	a.VMOV(mask.D(0), r.any)
	a.VMOV(mask.D(1), r.any1)
	a.ORR(r.any1, r.any)
	a.CBZ(r.any, l)
}

// stepUp writes the loop, at label step, of a recurrence that steps z up
// to 10 lane by lane, at most steps times, with 10 in V3 and 1 in V1:
// while a lane has z < 10 (the mask V6), body, masked by V6, then z++ in
// the lanes of V6; then the label done.
func (r *gcpRegs) stepUp(a *asm, z vreg, steps int, step, done label, body func()) {
	a.MOVD(imm(steps), r.cnt)
	a.Label(step)
	a.FCMGT(V(6), V(3), z) // z < 10
	a.Invoke(r.glNone, V(6), done)
	body()
	a.VAND(V(6), V(1), V(7))
	a.FADD(z, z, V(7)) // z++
	a.SUBS(imm(1), r.cnt)
	a.BNE(step)
	a.Label(done)
}

// gcpLossF64 writes gcpLossF64, whose float32 wrapper converts.
func (r *gcpRegs) gcpLossF64(a *asm, t elem) {
	c := r.c
	sum, scale, fixedAlpha := V(10), V(11), V(12)
	beta, sigZb, nu, sigZn, alpha, sigZa, valid := V(13), V(14), V(15), V(16), V(17), V(18), V(19)
	sigma, w, v, tw, ln1pu, lnSigma, lgRatio, psiRatio := V(20), V(21), V(22), V(23), V(24), V(25), V(26), V(27)
	one, nan := V(1), V(7)
	args := a.Text() // tmp, the last pointer, is not used: no scratch memory
	a.MOVD(args[0], r.pairs)
	a.LSR(imm(1), r.pairs)
	for i, p := range []gpr{r.zm, r.za, r.zb, r.zn, r.yp, r.gm, r.ga, r.gb, r.gn} {
		a.MOVD(args[1+i], p)
	}
	a.MOVD(args[10], r.fixed) // +0: α is learned (the Go wrapper maps −0 to +0)
	for _, x := range []struct {
		arg arg
		v   vreg
	}{{args[10], fixedAlpha}, {args[11], scale}} {
		t.FMOV(x.arg, x.v.F())
		a.VDUP(x.v.Lane(0), x.v)
	}
	a.VEOR(sum, sum, sum) // sum = 0
	a.MOVD(r.table.Addr(), r.ktab)
	loop, next, done := a.L("loop"), a.L("next"), a.L("done")
	a.CBZ(r.pairs, done)
	a.PCALIGN(16)
	a.Label(loop)
	// β = softplus(zb), σ(zb)
	a.VLD1P(r.zb.At(16), regs(V(28)))
	a.Invoke(r.glSoftplus)
	a.VMOV(V(0), beta)
	a.VMOV(V(29), sigZb)
	// ν = softplus(zn), σ(zn)
	a.VLD1P(r.zn.At(16), regs(V(28)))
	a.Invoke(r.glSoftplus)
	a.VMOV(V(0), nu)
	a.VMOV(V(29), sigZn)
	a.VMOV(fixedAlpha, alpha) // α = fixedAlpha
	a.CBNZ(r.fixed, a.L("fixed"))
	// α = 1 + softplus(za), σ(za)
	a.VLD1P(r.za.At(16), regs(V(28)))
	a.Invoke(r.glSoftplus)
	a.FMOVQ(c.one, one.F())
	a.FADD(alpha, V(0), one) // α = softplus(za) + 1
	a.VMOV(V(29), sigZa)

	a.Label(a.L("fixed"))
	// valid = ν > 0 && α > 0 && β > 0 (false for NaN)
	a.FCMGT(valid, nu, zero)
	a.FCMGT(V(1), alpha, zero)
	a.FCMGT(V(2), beta, zero)
	a.VAND(V(1), valid, valid)
	a.VAND(V(2), valid, valid)
	// σ = β(1 + 1/ν); s = √(2σ)
	a.FMOVQ(c.one, one.F())
	a.FDIV(V(2), one, nu)
	a.FADD(V(2), V(2), one)
	a.FMUL(sigma, beta, V(2)) // σ
	a.FADD(V(3), sigma, sigma)
	a.FSQRT(V(3), V(3)) // s
	tt, u := V(28), V(29)
	// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN
	a.VLD1P(r.yp.At(16), regs(V(4)))
	a.VLD1P(r.zm.At(16), regs(V(5)))
	a.FSUB(V(6), V(4), V(5)) // r = y − m
	a.FDIV(tt, V(6), V(3))   // r/s
	a.FDIV(V(7), V(4), V(3))
	a.FDIV(V(8), V(5), V(3))
	a.FSUB(V(7), V(7), V(8)) // y/s − m/s
	a.FCMEQ(V(8), tt, tt)    // r/s is not NaN
	a.VBIF(V(8), V(7), tt)
	a.FCMEQ(V(8), V(6), zero) // r = 0
	a.VEOR(V(7), V(7), V(7))
	a.VBIT(V(8), V(7), tt) // t
	a.FMUL(u, tt, tt)      // u = t²
	// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)
	a.FADD(V(2), u, one)
	a.FDIV(w, one, V(2)) // w
	a.FMUL(V(3), u, w)   // u·w
	a.FMUL(V(4), tt, w)  // t·w
	a.FDIV(v, one, u)
	a.FADD(v, v, one)
	a.FDIV(v, one, v) // 1/(1+1/u)
	a.FDIV(tw, one, tt)
	a.FADD(tw, tw, tt)
	a.FDIV(tw, one, tw)    // 1/(t+1/t)
	a.FCMGE(V(5), one, u)  // u ≤ 1
	a.VBIT(V(5), V(3), v)  // v
	a.VBIT(V(5), V(4), tw) // tw
	finiteU := a.L("finiteu")
	// ln(1+u), or 2·ln|t| where u overflowed
	a.VMOV(u, V(0))
	a.Invoke(r.glLog1p)
	a.VMOV(V(0), ln1pu)
	a.FMOVQ(c.inf, F(1))
	a.FCMEQ(V(2), u, V(1)) // u = +Inf
	a.Invoke(r.glNone, V(2), finiteU)
	a.FABS(V(0), tt)
	a.Invoke(r.glLog)
	a.FADD(V(0), V(0), V(0))
	a.FMOVQ(c.inf, F(1))
	a.FCMEQ(V(2), u, V(1))
	a.VBIT(V(2), V(0), ln1pu)

	a.Label(finiteU)
	// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below
	a.VMOV(beta, V(0))
	a.Invoke(r.glLog)
	a.VMOV(V(0), lnSigma) // ln β
	a.FMOVQ(c.one, one.F())
	a.FDIV(V(2), one, nu)   // 1/ν
	a.FCMGE(V(30), nu, one) // ν ≥ 1
	a.VMOV(nu, V(0))
	a.VBIT(V(30), V(2), V(0))
	a.Invoke(r.glLog1p)
	a.FADD(lnSigma, lnSigma, V(0))
	a.VMOV(nu, V(0))
	a.Invoke(r.glLog)
	a.VEOR(V(1), V(1), V(1))
	a.VBIT(V(30), V(1), V(0))      // ν ≥ 1: 0
	a.FSUB(lnSigma, lnSigma, V(0)) // ln σ
	z, num, den := V(28), V(29), V(30)
	lgStep, lgDone := a.L("lgstep"), a.L("lgdone")
	// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is
	// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:
	// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.
	a.FMOVQ(c.one, one.F())
	a.FMOVQ(c.ten, F(3))
	a.FMOVQ(c.half, F(5))
	a.FADD(z, alpha, one)      // α + 1
	a.FCMGE(V(4), alpha, V(3)) // α ≥ 10
	a.VBIT(V(4), alpha, z)     // z
	a.FADD(num, alpha, V(5))   // num = α + ½
	a.VMOV(one, den)           // den = 1
	r.stepUp(a, z, 9, lgStep, lgDone, func() {
		a.FADD(V(7), z, V(5))
		a.FMUL(V(7), num, V(7))
		a.VBIT(V(6), V(7), num) // num *= z + ½
		a.FMUL(V(7), den, z)
		a.VBIT(V(6), V(7), den) // den *= z
	})
	a.VMOV(z, V(0))
	a.Invoke(r.glLog)
	a.FMOVQ(c.half, F(1))
	a.FMUL(lgRatio, V(0), V(1)) // ½ ln z
	a.FMOVQ(c.one, F(1))
	a.FDIV(V(2), V(1), z)    // r = 1/z
	a.FMUL(V(3), V(2), V(2)) // r²
	series(a, c.lgamma, V(3), V(4), V(5))
	a.FMUL(V(4), V(4), V(2))
	a.FADD(lgRatio, lgRatio, V(4)) // series(z)
	a.FDIV(V(0), num, den)         // num/den
	a.Invoke(r.glLog)
	a.FSUB(V(31), lgRatio, V(0)) // − ln(num/den)
	a.VMOV(alpha, V(0))
	a.Invoke(r.glLog)
	a.FADD(V(31), V(31), V(0)) // + ln α
	a.FMOVQ(c.ten, F(1))
	a.FCMGE(V(2), alpha, V(1)) // α ≥ 10
	a.VBIF(V(2), V(31), lgRatio)
	psiStep, psiDone := a.L("psistep"), a.L("psidone")
	// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),
	// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most
	// ten steps for α > 0.
	a.VMOV(alpha, z)      // z
	a.VEOR(num, num, num) // num = 0
	a.FMOVQ(c.one, one.F())
	a.VMOV(one, den) // den = 1
	a.FMOVQ(c.ten, F(3))
	r.stepUp(a, z, 10, psiStep, psiDone, func() {
		a.FADD(V(7), z, z)
		a.FADD(V(7), V(7), one)
		a.FMUL(V(7), z, V(7)) // d = z(2z+1)
		a.FMUL(V(8), num, V(7))
		a.FADD(V(8), V(8), den)
		a.VBIT(V(6), V(8), num) // num = num·d + den
		a.FMUL(V(8), den, V(7))
		a.VBIT(V(6), V(8), den) // den *= d
	})
	a.FMUL(V(2), z, z)
	a.FDIV(V(2), one, V(2)) // u = 1/z²
	series(a, c.digamma, V(2), V(3), V(4))
	a.FMUL(V(3), V(3), V(2)) // u·P(u)
	a.FMOVQ(c.half, F(4))
	a.FDIV(V(4), V(4), z) // ½/z
	a.FADD(V(4), V(4), V(3))
	a.FDIV(V(5), num, den) // num/den
	a.FADD(psiRatio, V(4), V(5))
	half := V(1)
	// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]
	a.FMOVQ(c.half, half.F())
	a.FADD(V(2), alpha, half) // α + ½
	a.FMOVQ(c.log2Pi, F(3))
	a.FADD(V(3), lnSigma, V(3))
	a.FMUL(V(3), V(3), half)
	a.FSUB(V(4), lgRatio, V(3))
	a.FMUL(V(5), V(2), ln1pu)
	a.FSUB(V(4), V(4), V(5)) // ln p
	a.FNEG(V(4), V(4))       // nll = −ln p
	// dα = ln(1+u) − [ψ(α+½) − ψ(α)]
	a.FSUB(V(6), ln1pu, psiRatio)
	// dm = −(α+½)·(tw·(√2/√σ))
	a.FSQRT(V(7), sigma)
	a.FMOVQ(c.sqrt2, F(8))
	a.FDIV(V(8), V(8), V(7))
	a.FMUL(V(8), V(8), tw)
	a.FNEG(V(9), V(2))
	a.FMUL(V(9), V(9), V(8)) // dm
	// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))
	a.FMUL(V(1), w, half)    // ½w
	a.FMUL(V(3), alpha, v)   // α·v
	a.FSUB(V(1), V(1), V(3)) // g
	a.FDIV(V(3), V(1), beta) // dβ
	a.FMOVQ(c.one, F(5))
	a.FADD(V(5), nu, V(5))
	a.FMUL(V(5), nu, V(5)) // ν(ν+1)
	a.FNEG(V(1), V(1))
	a.FDIV(V(1), V(1), V(5)) // dν
	// chain through the links, scale, and NaN for an invalid prior
	a.FMOVQ(c.nan, nan.F())
	a.FMUL(V(1), V(1), sigZn)
	a.FMUL(V(1), scale, V(1))
	a.VBIF(valid, nan, V(1))
	a.VST1P(regs(V(1)), r.gn.At(16)) // gn = scale·dν·σ(zn)
	a.FMUL(V(3), V(3), sigZb)
	a.FMUL(V(3), scale, V(3))
	a.VBIF(valid, nan, V(3))
	a.VST1P(regs(V(3)), r.gb.At(16)) // gb = scale·dβ·σ(zb)
	a.FMUL(V(9), scale, V(9))
	a.VBIF(valid, nan, V(9))
	a.VST1P(regs(V(9)), r.gm.At(16)) // gm = scale·dm
	a.VBIF(valid, nan, V(4))
	a.FADD(sum, V(4), sum) // sum += nll
	a.CBNZ(r.fixed, next)
	a.FMUL(V(6), V(6), sigZa)
	a.FMUL(V(6), scale, V(6))
	a.VBIF(valid, nan, V(6))
	a.VST1P(regs(V(6)), r.ga.At(16)) // ga = scale·dα·σ(za)

	a.Label(next)
	a.SUBS(imm(1), r.pairs)
	a.BNE(loop)

	a.Label(done)
	a.FADDP(F(0), sum)
	t.FMOV(F(0), args[len(args)-1])
	a.RET()
}
