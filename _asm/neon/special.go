package main

// specials are the NEON special functions: the macros of fdlibm's exp and
// ln and of softplus, which gcpLossF64, tanh and softplus share, over the
// constants c of neonConst<>, whose address is in ktab. They work in the
// two float64 lanes of a vector.
type specials struct {
	table symbol
	ktab  gpr
	c     neonConsts
}

// defineSpecials #defines KTAB and writes the constant table.
func defineSpecials(a *asm) *specials {
	// ---------------------------------------------------------------------
	// The constants of the NEON special functions (gcpLossF64, tanhF32 and
	// tanhF64), each stored twice, a whole vector, at offset NC_* of
	// neonConst<>. With the table's address in KTAB, FMOVQ NC_X(KTAB), Fn
	// loads constant X into Vn.
	a.Comment()
	s := &specials{table: "neonConst"}
	s.ktab = a.Defines().Register("KTAB", R(9)) // &neonConst<>
	s.c = defineConsts(a, s.table, s.ktab)
	return s
}

// inLanes writes a kernel that computes in the two float64 lanes of a
// vector, after the doc of the calling kernel: its TEXT, n into R7, the
// pointers into R0, R1, …, the table's address into KTAB, then loop on
// each block of ⟨4|2⟩ elements (counted in R8), then tail on each element
// left, one at a time: the last n mod 4 for float32, the last one for
// float64.
func (s *specials) inLanes(a *asm, t elem, loop, tail func()) {
	f := a.name[:len(a.name)-len(t.suffix)] // the function, tanh or softplus
	if t.size == 4 {
		// Blocks of 4, widened to two float64×2 vectors, then one at a time in
		// lane 0 (lane 1 computes %s(0)).
		a.Doc(f)
	} else {
		// Pairs, then the last element in lane 0 (lane 1 computes %s(0)).
		a.Doc(f)
	}
	args := a.Text()
	n := R(7)
	a.MOVD(args[0], n)
	for i, p := range args[1:] {
		a.MOVD(p, R(i))
	}
	a.MOVD(s.table.Addr(), s.ktab)
	top, rest, done := a.L("loop"), a.L("tail"), a.L("done")
	a.LSR(imm(log2(t.lanes())), n, R(8)) // ⟨blocks of 4|pairs⟩
	a.CBZ(R(8), rest)
	a.PCALIGN(16)
	a.Label(top)
	loop()
	a.SUBS(imm(1), R(8))
	a.BNE(top)
	a.Label(rest)
	if t.size == 4 {
		each := rest.Sub("loop")
		a.AND(imm(3), n, R(8))
		a.CBZ(R(8), done)
		a.Label(each)
		tail()
		a.SUBS(imm(1), R(8))
		a.BNE(each)
	} else {
		a.TBZ(imm(0), n, done)
		tail()
	}
	a.Label(done)
	a.RET()
}

// horner writes p = c[0], then p = c[i] + x·p for each next c[i], fused
// (VFMLA), alternately in the registers r, and returns the one that holds
// p.
func horner(a *asm, x vreg, c []konst, r [2]vreg) vreg {
	a.FMOVQ(c[0], r[0].F())
	return hornerOn(a, x, c[1:], r)
}

// hornerOn is horner from a p already in r[0].
func hornerOn(a *asm, x vreg, c []konst, r [2]vreg) vreg {
	for i, k := range c {
		p, q := r[i%2], r[(i+1)%2]
		a.FMOVQ(k, q.F())
		a.VFMLA(p, x, q)
	}
	return r[len(c)%2]
}

// series writes p = c[n−1]·x, then p = (p + c[i])·x down to i = 1, then
// p += c[0], unfused, in acc through tmp: the asymptotic series of
// special.go but their last multiplication.
func series(a *asm, c []konst, x, acc, tmp vreg) {
	a.FMOVQ(c[len(c)-1], acc.F())
	a.FMUL(acc, acc, x)
	for i := len(c) - 2; i >= 0; i-- {
		a.FMOVQ(c[i], tmp.F())
		a.FADD(acc, acc, tmp)
		if i > 0 {
			a.FMUL(acc, acc, x)
		}
	}
}

// defineMacros writes the #defines of the special functions.
func (s *specials) defineMacros(a *asm, t elem) {
	// GL_LOG sets V0 = ln(V0), as fdlibm's log (Go's math.log): x = f1·2^k with
	// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;
	// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and
	// ln(x < 0) = ln(NaN) = NaN. Clobbers V1–V7.
	a.Macro(s.glLog)
	// GL_LOG1P sets V0 = ln(1+V0) for V0 ≥ 0 (or NaN): with w = 1+x rounded,
	// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding
	// error of w (Goldberg), so tiny x keep full relative accuracy. Not for
	// x = +Inf (NaN). Leaves x in V8 and w in V9; clobbers V1–V9.
	a.Macro(s.glLog1p)
	// GL_EXP_POLY sets V6 = P1 + t·(P2 + t·(P3 + t·(P4 + t·P5))) for t in V5,
	// fdlibm's exp polynomial (Go's math.expmulti), with fused multiply-adds
	// as math.Exp's arm64 assembly and the AVX2 kernel evaluate it. Clobbers
	// V7.
	a.Macro(s.glExpPoly)
	// GL_EXP_Y sets V5 = 1 − ((lo − r·c/(2−c)) − hi), fdlibm's exp(r) for hi
	// in V2, lo in V3, r = hi − lo in V4 and c in V6. Clobbers V3 and V7.
	a.Macro(s.glExpY)
	// GL_EXP_NEG sets V0 = exp(V0) for V0 ≤ 0 (or NaN), as fdlibm's exp (Go's
	// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a rational
	// approximation of exp(r), and the scaling by 2^k done as 2^⌊k/2⌋·2^(k−⌊k/2⌋)
	// so that subnormal results round once. x < −746 (−Inf included) gives 0.
	// Clobbers V1–V7.
	a.Macro(s.glExpNeg)
	// GL_SOFTPLUS_EXP and GL_SOFTPLUS_LOG set V0 = softplus(z) for z in V28,
	// as special.go's softplus: z + ln(1+e) for z > 0 and ln(1+e) otherwise,
	// with e = exp(−|z|) ≤ 1, which cannot overflow. GL_SOFTPLUS_EXP leaves e
	// in V0 (GL_SOFTPLUS builds the sigmoid from it), GL_SOFTPLUS_LOG takes it
	// there; each clobbers V1–V9 and keeps V28. softplus(+Inf) = +Inf,
	// softplus(−Inf) = 0 and softplus(NaN) = NaN.
	a.Macro(s.glSoftplusExp)
	a.Macro(s.glSoftplusLog)
	// GL_SOFTPLUS sets V0 = softplus(z) and V29 = sigmoid(z) for z in V28, as
	// softplus and sigmoid of special.go: sigmoid is 1/(1+e) for z ≥ 0 and
	// e/(1+e) below, with e = exp(−|z|). Clobbers V1–V9.
	a.Macro(s.glSoftplus)
}

// glLog is the body of GL_LOG.
func (s *specials) glLog(a *asm, t elem) {
	c := s.c
	a.FMOVQ(c.tiny, F(1))
	a.FCMGT(V(1), V(1), V(0)) // x < 2⁻¹⁰²²
	a.FMOVQ(c.two54, F(2))
	a.FMUL(V(2), V(0), V(2))
	a.VBIF(V(1), V(0), V(2))
	a.FMOVQ(c.c54, F(3))
	a.VAND(V(1), V(3), V(3))
	a.VUSHR(imm(52), V(2), V(4))
	a.FMOVQ(c.two52, F(5))
	a.VORR(V(5), V(4), V(4))
	a.FMOVQ(c.two52p1022, F(5))
	a.FSUB(V(4), V(4), V(5)) // biased exponent − 1022
	a.FSUB(V(4), V(4), V(3))
	a.FMOVQ(c.mant, F(5))
	a.VAND(V(5), V(2), V(5))
	a.FMOVQ(c.half, F(6))
	a.VORR(V(6), V(5), V(5))
	a.FMOVQ(c.sqrtHalf, F(6))
	a.FCMGT(V(6), V(6), V(5)) // f1 < √½
	a.FADD(V(7), V(5), V(5))
	a.VBIT(V(6), V(7), V(5))
	a.FMOVQ(c.one, F(7))
	a.VAND(V(6), V(7), V(3))
	a.FSUB(V(4), V(4), V(3)) // k
	a.FSUB(V(5), V(5), V(7)) // f = f1 − 1
	a.FMOVQ(c.two, F(6))
	a.FADD(V(6), V(5), V(6))
	a.FDIV(V(6), V(5), V(6)) // s = f/(2+f)
	a.FMUL(V(7), V(6), V(6)) // s²
	a.FMUL(V(3), V(7), V(7)) // s⁴
	odd := horner(a, V(3), []konst{c.log[6], c.log[4], c.log[2], c.log[0]}, [2]vreg{V(1), V(2)})
	a.FMUL(V(1), odd, V(7)) // t1
	even := horner(a, V(3), []konst{c.log[5], c.log[3], c.log[1]}, [2]vreg{V(7), V(2)})
	a.FMUL(V(2), even, V(3)) // t2
	a.FADD(V(1), V(1), V(2)) // R = t1 + t2
	a.FMUL(V(2), V(5), V(5))
	a.FMOVQ(c.half, F(3))
	a.FMUL(V(2), V(2), V(3)) // hfsq = ½f²
	a.FADD(V(1), V(1), V(2))
	a.FMUL(V(1), V(1), V(6))
	a.FMOVQ(c.ln2Lo, F(3))
	a.FMUL(V(3), V(4), V(3))
	a.FADD(V(1), V(1), V(3)) // s(hfsq+R) + k·ln2lo
	a.FSUB(V(2), V(2), V(1))
	a.FSUB(V(2), V(2), V(5))
	a.FMOVQ(c.ln2Hi, F(3))
	a.FMUL(V(4), V(4), V(3))
	a.FSUB(V(4), V(4), V(2)) // k·ln2hi − ((hfsq − …) − f)
	a.FCMEQ(V(1), V(0), zero)
	a.FMOVQ(c.negInf, F(2))
	a.VBIT(V(1), V(2), V(4))
	a.FMOVQ(c.inf, F(2))
	a.FCMEQ(V(1), V(0), V(2))
	a.VBIT(V(1), V(2), V(4))
	a.FCMGE(V(1), V(0), zero) // false for NaN
	a.FMOVQ(c.nan, F(2))
	a.VBIF(V(1), V(2), V(4))
	a.VMOV(V(4), V(0))
}

// glLog1p is the body of GL_LOG1P.
func (s *specials) glLog1p(a *asm, t elem) {
	a.VMOV(V(0), V(8))
	a.FMOVQ(s.c.one, F(1))
	a.FADD(V(9), V(0), V(1)) // w = x + 1
	a.VMOV(V(9), V(0))
	a.Invoke(s.glLog)
	a.FMOVQ(s.c.one, F(1))
	a.FSUB(V(1), V(9), V(1))
	a.FSUB(V(1), V(8), V(1)) // x − (w−1)
	a.FDIV(V(1), V(1), V(9))
	a.FADD(V(0), V(0), V(1))
}

// glExpPoly is the body of GL_EXP_POLY.
func (s *specials) glExpPoly(a *asm, t elem) {
	c := s.c.exp
	horner(a, V(5), []konst{c[4], c[3], c[2], c[1], c[0]}, [2]vreg{V(6), V(7)})
}

// glExpY is the body of GL_EXP_Y.
func (s *specials) glExpY(a *asm, t elem) {
	a.FMUL(V(7), V(4), V(6))
	a.FMOVQ(s.c.two, F(5))
	a.FSUB(V(5), V(5), V(6))
	a.FDIV(V(7), V(7), V(5)) // r·c/(2−c)
	a.FSUB(V(3), V(3), V(7))
	a.FSUB(V(3), V(3), V(2))
	a.FMOVQ(s.c.one, F(5))
	a.FSUB(V(5), V(5), V(3)) // y = 1 − ((lo − r·c/(2−c)) − hi)
}

// glExpNeg is the body of GL_EXP_NEG.
func (s *specials) glExpNeg(a *asm, t elem) {
	c := s.c
	a.FMOVQ(c.expMin, F(1))
	a.FMAX(V(0), V(0), V(1)) // NaN stays NaN
	a.FMOVQ(c.log2e, F(1))
	a.FMUL(V(1), V(0), V(1))
	a.FRINTN(V(1), V(1)) // k
	a.FMOVQ(c.ln2Hi, F(2))
	a.FMUL(V(2), V(1), V(2))
	a.FSUB(V(2), V(0), V(2)) // hi = x − k·ln2hi
	a.FMOVQ(c.ln2Lo, F(3))
	a.FMUL(V(3), V(1), V(3)) // lo = k·ln2lo
	a.FSUB(V(4), V(2), V(3)) // r = hi − lo
	a.FMUL(V(5), V(4), V(4)) // t = r²
	a.Invoke(s.glExpPoly)
	a.FMUL(V(6), V(6), V(5))
	a.FSUB(V(6), V(4), V(6)) // c = r − t·P(t)
	a.Invoke(s.glExpY)
	a.FMOVQ(c.half, F(2))
	a.FMUL(V(2), V(1), V(2))
	a.FRINTM(V(2), V(2))     // k1 = ⌊k/2⌋
	a.FSUB(V(3), V(1), V(2)) // k2 = k − k1
	a.FMOVQ(c.expBias, F(6))
	for _, k := range []vreg{V(2), V(3)} {
		a.FADD(k, k, V(6))
		a.VSHL(imm(52), k, k)
	}
	a.FMUL(V(5), V(5), V(2))
	a.FMUL(V(0), V(5), V(3)) // y·2^k1·2^k2
}

// glSoftplusExp is the body of GL_SOFTPLUS_EXP.
func (s *specials) glSoftplusExp(a *asm, t elem) {
	a.FMOVQ(s.c.sign, F(1))
	a.VORR(V(1), V(28), V(0))
	a.Invoke(s.glExpNeg)
}

// glSoftplusLog is the body of GL_SOFTPLUS_LOG.
func (s *specials) glSoftplusLog(a *asm, t elem) {
	a.Invoke(s.glLog1p)
	a.FADD(V(1), V(28), V(0)) // z + ln(1+e)
	a.FCMGT(V(2), V(28), zero)
	a.VBIT(V(2), V(1), V(0))
}

// glSoftplus is the body of GL_SOFTPLUS.
func (s *specials) glSoftplus(a *asm, t elem) {
	a.Invoke(s.glSoftplusExp)
	a.FMOVQ(s.c.one, F(1))
	a.FADD(V(2), V(0), V(1))  // 1 + e
	a.FDIV(V(3), V(0), V(2))  // e/(1+e)
	a.FDIV(V(29), V(1), V(2)) // 1/(1+e)
	a.FCMGE(V(4), V(28), zero)
	a.VBIF(V(4), V(3), V(29))
	a.Invoke(s.glSoftplusLog)
}
