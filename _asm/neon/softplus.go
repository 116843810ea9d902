package main

// defineSoftplus writes the comment of the softplus kernels and the
// #define of SP_LINK.
func (s *specials) defineSoftplus(a *asm, t elem) {
	// ---------------------------------------------------------------------
	// softplusF32 and softplusF64: the softplus link, written as float64, in
	// the two float64 lanes of a vector, with gcpLossF64's exp and ln
	// (GL_SOFTPLUS_EXP, GL_SOFTPLUS_LOG); float32 inputs are widened exactly,
	// so both compute softplus(float64(x[i])) to within a few float64 ulps.
	a.Comment()
	// SP_LINK sets V0 = softplus(V28), lane by lane; KTAB holds &neonConst<>.
	// Clobbers V1–V9.
	a.Macro(s.spLink)
}

// spLink is the body of SP_LINK.
func (s *specials) spLink(a *asm, t elem) {
	a.Invoke(s.glSoftplusExp)
	a.Invoke(s.glSoftplusLog)
}

// softplus writes softplusF32 and softplusF64, whose results are float64
// both.
func (s *specials) softplus(a *asm, t elem) {
	// for i := range n {
	//	dst[i] = softplus(⟨float64(x[i])|x[i]⟩)
	// }
	a.Doc()
	dst, x := R(0), R(1)
	s.inLanes(a, t, func() {
		if t.size == 4 {
			a.VLD1P(x.At(16), regs(V(16)))
			a.FCVTL(V(28), V(16))
			a.Invoke(s.spLink)
			a.VMOV(V(0), V(17))
			a.FCVTL2(V(28), V(16))
			a.Invoke(s.spLink)
			a.VMOV(V(0), V(18))
			a.VST1P(regs(V(17).In(D2), V(18).In(D2)), dst.At(32)) // dst[i:i+4] = softplus(x[i:i+4])
		} else {
			a.VLD1P(x.At(16), regs(V(28)))
			a.Invoke(s.spLink)
			a.VST1P(regs(V(0)), dst.At(16)) // dst[i:i+2] = softplus(x[i:i+2])
		}
	}, func() {
		if t.size == 4 {
			t.FMOVP(x.At(4), F(16))
			a.FCVTSD(F(16), F(28)) // clears lane 1
			a.Invoke(s.spLink)
			a.F64().FMOVP(F(0), dst.At(8))
		} else {
			t.FMOV(x.At(0), F(28)) // clears lane 1
			a.Invoke(s.spLink)
			t.FMOV(F(0), dst.At(0))
		}
	})
}
