package main

// defineTanh writes the comment of the tanh kernels and the #define of
// GT_TANH.
func (s *specials) defineTanh(a *asm, t elem) {
	// ---------------------------------------------------------------------
	// tanhF32 and tanhF64: math.Tanh as Go compiles it for arm64, bit for bit,
	// in the two float64 lanes of a vector (float32 widened exactly and the
	// result rounded once, as the generic float32(math.Tanh(float64(v)))).
	// math.tanh branches on z = |x|: ±1 above ½·ln 2¹²⁷ ≈ 44.01; from 0.625
	// up, 1 − 2/(e^(2z)+1) with the sign of x, where e^(2z) is math.Exp's
	// arm64 assembly (archExp: k = trunc(2z·log2e + ½), r = hi − lo, the
	// polynomial fused as there, and an exact scaling by 2^k, as 2z ≤ 88 keeps
	// the result normal); below, x + x·s·P(s)/Q(s) with s = x², fused as the
	// compiler fuses it (Q's innermost term is fma(x, x, Q0), not s + Q0), and
	// x itself for ±0. GT_TANH evaluates all three and blends them; the
	// generic kernel's results are the oracle (TestKernelElementwise), so a Go
	// release that compiled math.tanh or archExp otherwise would show there.
	a.Comment()
	// GT_TANH sets V0 = tanh(V0), lane by lane; KTAB holds &neonConst<>.
	// Clobbers V1–V9 and V12–V14.
	a.Macro(s.gtTanh)
}

// gtTanh is the body of GT_TANH.
func (s *specials) gtTanh(a *asm, t elem) {
	c := s.c
	x, z, w := V(0), V(8), V(9)
	a.FABS(z, x)    // z = |x|
	a.FADD(w, z, z) // w = 2z
	a.FMOVQ(c.half, F(1))
	a.FMOVQ(c.log2e, F(2))
	a.VFMLA(V(2), w, V(1))
	a.FRINTZ(V(1), V(1)) // k = trunc(w·log2e + ½)
	a.FMOVQ(c.ln2Hi, F(3))
	a.VMOV(w, V(2))
	a.VFMLS(V(3), V(1), V(2))
	a.FMOVQ(c.ln2Lo, F(3))
	a.FMUL(V(3), V(1), V(3)) // lo = k·ln2lo
	a.FSUB(V(4), V(2), V(3)) // r = hi − lo
	a.FMUL(V(5), V(4), V(4)) // t = r²
	a.Invoke(s.glExpPoly)
	a.VMOV(V(4), V(7))
	a.VFMLS(V(6), V(5), V(7))
	a.VMOV(V(7), V(6))
	a.Invoke(s.glExpY)
	a.FMOVQ(c.expBias, F(2))
	a.FADD(V(1), V(1), V(2))
	a.VSHL(imm(52), V(1), V(1))
	a.FMUL(V(5), V(5), V(1)) // e^w = y·2^k
	big, one := V(13), V(14) // from 0.625 up, and ±1
	a.FMOVQ(c.one, one.F())
	a.FADD(big, V(5), one)
	a.FMOVQ(c.two, F(12))
	a.FDIV(big, V(12), big)
	a.FSUB(big, one, big) // 1 − 2/(e^w+1)
	a.FMOVQ(c.sign, F(12))
	a.VAND(V(12), x, V(12))
	a.VORR(V(12), big, big)
	a.VORR(V(12), one, one)
	a.FMUL(V(2), x, x)    // s = x²
	a.FMUL(V(3), x, V(2)) // x·s
	p := horner(a, V(2), c.tanhP, [2]vreg{V(4), V(5)})
	a.FMUL(V(3), V(3), p) // x·s·P(s)
	a.FMOVQ(c.tanhQ[0], F(5))
	a.VFMLA(x, x, V(5))
	q := hornerOn(a, V(2), c.tanhQ[1:], [2]vreg{V(5), V(4)})
	a.FDIV(V(3), V(3), q)
	a.FADD(V(3), x, V(3)) // x + x·s·P(s)/Q(s)
	a.FCMEQ(V(4), x, zero)
	a.VBIT(V(4), x, V(3))
	a.FMOVQ(c.c0625, F(5))
	a.FCMGE(V(4), z, V(5)) // z ≥ 0.625
	a.VBIT(V(4), big, V(3))
	a.FMOVQ(c.tanhMax, F(5))
	a.FCMGT(V(4), z, V(5)) // z > ½·ln 2¹²⁷
	a.VBIT(V(4), one, V(3))
	a.VMOV(V(3), x)
}

// tanh writes tanhF32 and tanhF64.
func (s *specials) tanh(a *asm, t elem) {
	// for i := range n {
	//	x[i] = ⟨float32(math.Tanh(float64(x[i])))|math.Tanh(x[i])⟩
	// }
	a.Doc()
	x := R(0)
	s.inLanes(a, t, func() {
		if t.size == 4 {
			a.VLD1(x.At(0), regs(V(16)))
			a.FCVTL(V(0), V(16))
			a.Invoke(s.gtTanh)
			a.VMOV(V(0), V(17))
			a.FCVTL2(V(0), V(16))
			a.Invoke(s.gtTanh)
			a.FCVTN(V(16), V(17))
			a.FCVTN2(V(16), V(0))
			a.VST1P(regs(V(16)), x.At(16))
		} else {
			a.VLD1(x.At(0), regs(V(0)))
			a.Invoke(s.gtTanh)
			a.VST1P(regs(V(0)), x.At(16))
		}
	}, func() {
		if t.size == 4 {
			t.FMOV(x.At(0), F(16))
			a.FCVTSD(F(16), F(0)) // clears lane 1
			a.Invoke(s.gtTanh)
			a.FCVTDS(F(0), F(0))
			t.FMOVP(F(0), x.At(4))
		} else {
			t.FMOV(x.At(0), F(0)) // clears lane 1
			a.Invoke(s.gtTanh)
			t.FMOV(F(0), x.At(0))
		}
	})
}
