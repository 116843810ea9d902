package main

// dotRegs are the general-purpose registers of gemmDot and outputForward,
// by their #defined names.
type dotRegs struct {
	mrows, ncols, kdim, aptr, lda, bptr, ldb, cptr, ldc, bias, flags gpr // gemmDot's arguments
	pcnt, ap, jcnt, cp, biasp, brow                                  gpr
	bp                                                               [4]gpr // &b[(p+r)*ldb + j] of four rows of B
	f                                                                gemmFlags
	defs                                                             *defines
}

// defineDotRegs #defines the registers of gemmDot and outputForward.
func defineDotRegs(a *asm, f gemmFlags) *dotRegs {
	// Matrix kernels: dot products along k.
	a.Comment()
	d := a.Defines()
	r := &dotRegs{f: f, defs: d}
	r.mrows = d.Register("MROWS", R(0)) // rows of A left
	r.ncols = d.Register("NCOLS", R(1)) // rows of B: columns of C
	r.kdim = d.Register("KDIM", R(2))   // dot length
	r.aptr = d.Register("APTR", R(3))   // &a[i*lda]
	r.lda = d.Register("LDA", R(4))     // in bytes
	r.bptr = d.Register("BPTR", R(5))
	r.ldb = d.Register("LDB", R(6))   // in bytes
	r.cptr = d.Register("CPTR", R(7)) // &c[i*ldc]
	r.ldc = d.Register("LDC", R(8))   // in bytes
	r.bias = d.Register("BIAS", R(9))
	r.flags = d.Register("FLAGS", R(10))
	r.pcnt = d.Register("PCNT", R(11)) // rows of B left for this row of A
	r.bp[0] = d.Register("BP0", R(12)) // &b[(p+r)*ldb + j]
	for i := 1; i < len(r.bp); i++ {
		r.bp[i] = d.Register("BP"+itoa(i), R(12+i))
	}
	r.ap = d.Register("AP", R(19))       // &a[i*lda + j]
	r.jcnt = d.Register("JCNT", R(20))   // chunks left
	r.cp = d.Register("CP", R(21))       // &c[i*ldc + p]
	r.biasp = d.Register("BIASP", R(22)) // &bias[p]
	r.brow = d.Register("BROW", R(23))   // &b[p*ldb]
	return r
}

// dot1Parts are the parts of the labels of DOT1 but the last (done): a
// parameter of the macro joins them, a kernel's label joins them with _.
var dot1Parts = [][]string{{"loop"}, {"narrow"}, {"narrow", "loop"}, {"reduce"}, {"tail"}}

// defineDot1 writes the #define of DOT1F32 or DOT1F64.
func (r *dotRegs) defineDot1(a *asm, t elem) {
	if t.size == 4 {
		// DOT1F32(loop, narrow, narrowloop, reduce, tail, done) sets F16 (lane 0
		// of V16) to the dot product of the KDIM float32 at AP and at BP0, and
		// advances both past them: four accumulators, 16 elements per step, then
		// 4 per step, added pairwise, then the last KDIM mod 4 fused one at a
		// time into the sum; it branches to done, which must follow it, when
		// there are none. The arguments name its labels. gemmDotF32 (one row of
		// B) and outputForwardF32 use it. Clobbers V0–V7, V17–V19 and JCNT.
		a.Doc()
	} else {
		// DOT1F64 is DOT1F32 for float64: 8 elements per step, then 2, then the
		// last KDIM mod 2. F16 is V16's lane 0.
		a.Doc()
	}
	var params []operand
	for _, p := range dot1Parts {
		params = append(params, a.Param(p...))
	}
	a.Macro(r.dot1, append(params, a.Param("done"))...)
}

// dot1 is the body of DOT1F32 and DOT1F64.
func (r *dotRegs) dot1(a *asm, t elem, loop, narrow, narrowLoop, reduce, tail, done label) {
	acc, x, y := vregs(16, 4), vregs(0, 4), vregs(4, 4)
	for _, v := range acc {
		a.VEOR(v, v, v)
	}
	a.LSR(imm(log2(4*t.lanes())), r.kdim, r.jcnt)
	a.CBZ(r.jcnt, narrow)
	a.PCALIGN(16)
	a.Label(loop)
	a.VLD1P(r.ap.At(64), regs(x...))
	a.VLD1P(r.bp[0].At(64), regs(y...))
	for i := range acc {
		a.VFMLA(x[i], y[i], acc[i])
	}
	a.SUBS(imm(1), r.jcnt)
	a.BNE(loop)
	a.Label(narrow)
	a.AND(imm(4*t.lanes()-1), r.kdim, r.jcnt)
	a.LSR(imm(log2(t.lanes())), r.jcnt)
	a.CBZ(r.jcnt, reduce)
	a.Label(narrowLoop)
	a.VLD1P(r.ap.At(16), regs(x[0]))
	a.VLD1P(r.bp[0].At(16), regs(y[0]))
	a.VFMLA(x[0], y[0], acc[0])
	a.SUBS(imm(1), r.jcnt)
	a.BNE(narrowLoop)
	a.Label(reduce)
	sum4(a, acc, t.arr)
	a.AND(imm(t.lanes()-1), r.kdim, r.jcnt)
	a.CBZ(r.jcnt, done)
	a.Label(tail)
	t.FMOVP(r.ap.At(t.size), F(0))
	t.FMOVP(r.bp[0].At(t.size), F(4))
	t.FMADD(F(0), F(16), F(4), F(16))
	a.SUBS(imm(1), r.jcnt)
	a.BNE(tail)
}

// useDot1 writes DOT1 with the kernel's labels prefix_loop, … and done.
func (r *dotRegs) useDot1(a *asm, done label, prefix ...string) {
	var args []operand
	for _, p := range dot1Parts {
		args = append(args, a.L(append(prefix, p...)...))
	}
	a.Invoke(r.dot1, append(args, done)...)
}

// gemmDot writes gemmDotF32 and gemmDotF64.
func (r *dotRegs) gemmDot(a *asm, t elem) {
	// C (m × n) = A (m × k) · Bᵀ for row-major A and B (n × k): dot products
	// along the contiguous k. Four rows of B at a time against one row of A,
	// one accumulator each, reduced with FADDP into four consecutive
	// elements of C; then the last n mod 4 rows of B one at a time, with four
	// accumulators, ⟨16|8⟩ elements per step (DOT1⟨F⟩).
	args := a.Text()
	for i, x := range []gpr{r.mrows, r.ncols, r.kdim, r.aptr, r.lda, r.bptr, r.ldb, r.cptr, r.ldc, r.bias, r.flags} {
		a.MOVD(args[i], x)
	}
	for _, x := range []gpr{r.lda, r.ldb, r.ldc} {
		a.LSL(imm(log2(t.size)), x)
	}
	a.VEOR(V(8), V(8), V(8)) // zero, for ReLU
	row, p4, p1, next, done := a.L("row"), a.L("p4"), a.L("p1"), a.L("next"), a.L("done")
	a.Label(row)
	a.CBZ(r.mrows, done)
	a.MOVD(r.bptr, r.brow)
	a.MOVD(r.cptr, r.cp)
	a.MOVD(r.bias, r.biasp)
	a.MOVD(r.ncols, r.pcnt)

	// Four rows of B: their dot products with the row of A in acc, reduced
	// into sums (one vector for float32, two for float64), the tail's
	// elements of B loaded into lanes of bv.
	acc, sums, bv := vregs(16, 4), vregs(20, 4/t.lanes()), vregs(1, 4/t.lanes())
	a.Label(p4)
	a.CMP(imm(4), r.pcnt)
	a.BLT(p1)
	a.MOVD(r.brow, r.bp[0])
	for i := 1; i < len(r.bp); i++ {
		a.ADD(r.ldb, r.bp[i-1], r.bp[i])
	}
	a.MOVD(r.aptr, r.ap)
	for _, v := range acc {
		a.VEOR(v, v, v)
	}
	a.LSR(imm(log2(t.lanes())), r.kdim, r.jcnt)
	a.CBZ(r.jcnt, p4.Sub("reduce"))
	a.PCALIGN(16)
	a.Label(p4.Sub("loop"))
	a.VLD1P(r.ap.At(16), regs(V(0)))
	for i, bp := range r.bp {
		a.VLD1P(bp.At(16), regs(V(1+i)))
	}
	for i, v := range acc {
		a.VFMLA(V(0), V(1+i), v)
	}
	a.SUBS(imm(1), r.jcnt)
	a.BNE(p4.Sub("loop"))
	a.Label(p4.Sub("reduce"))
	if t.size == 4 {
		a.FADDP(V(20), V(16), V(17))
		a.FADDP(V(21), V(18), V(19))
		a.FADDP(V(20), V(20), V(21)) // V20 = [s0, s1, s2, s3]
	} else {
		a.FADDP(V(20), V(16), V(17)) // V20 = [s0, s1]
		a.FADDP(V(21), V(18), V(19)) // V21 = [s2, s3]
	}
	a.AND(imm(t.lanes()-1), r.kdim, r.jcnt)
	a.CBZ(r.jcnt, p4.Sub("bias"))
	a.Label(p4.Sub("tail"))
	a.VLD1RP(r.ap.At(t.size), regs(V(0)))
	for i, bp := range r.bp {
		a.VLD1P(bp.At(t.size), bv[i/t.lanes()].Lane(i%t.lanes()))
	}
	for i, s := range sums {
		a.VFMLA(V(0), bv[i], s)
	}
	a.SUBS(imm(1), r.jcnt)
	a.BNE(p4.Sub("tail"))
	a.Label(p4.Sub("bias"))
	a.TBZ(r.f.bias, r.flags, p4.Sub("relu"))
	a.VLD1(r.biasp.At(0), regs(bv...))
	a.FADD(sums[0], bv[0], sums[0]) // bias + s
	for i := 1; i < len(sums); i++ {
		a.FADD(sums[i], bv[i], sums[i])
	}
	a.Label(p4.Sub("relu"))
	a.TBZ(r.f.relu, r.flags, p4.Sub("store"))
	for _, s := range sums {
		a.FMAX(s, s, V(8))
	}
	a.Label(p4.Sub("store"))
	a.VST1P(regs(sums...), r.cp.At(16*len(sums)))
	a.ADD(imm(16*len(sums)), r.biasp)
	a.ADD(r.ldb.Shl(2), r.brow)
	a.SUB(imm(4), r.pcnt)
	a.B(p4)

	a.Label(p1)
	a.CBZ(r.pcnt, next)
	a.MOVD(r.brow, r.bp[0])
	a.MOVD(r.aptr, r.ap)
	r.useDot1(a, p1.Sub("bias"), "p1")
	a.Label(p1.Sub("bias"))
	a.TBZ(r.f.bias, r.flags, p1.Sub("relu"))
	t.FMOV(r.biasp.At(0), F(1))
	t.FADD(F(16), F(1), F(16)) // bias + s
	a.Label(p1.Sub("relu"))
	a.TBZ(r.f.relu, r.flags, p1.Sub("store"))
	t.FMAX(F(8), F(16), F(16))
	a.Label(p1.Sub("store"))
	t.FMOVP(F(16), r.cp.At(t.size))
	a.ADD(imm(t.size), r.biasp)
	a.ADD(r.ldb, r.brow)
	a.SUB(imm(1), r.pcnt)
	a.B(p1)

	a.Label(next)
	a.ADD(r.lda, r.aptr)
	a.ADD(r.ldc, r.cptr)
	a.SUB(imm(1), r.mrows)
	a.B(row)
	a.Label(done)
	a.RET()
}

// outputForward writes outputForwardF32 and outputForwardF64.
func (r *dotRegs) outputForward(a *asm, t elem) {
	if t.size == 4 {
		// The output layer, one unit per head: for each row of x, the heads one
		// after another, each a dot product of length k (DOT1F32) of its inputs,
		// x[i*ldx+h*k:][:k], and its weights, w[h*k:][:k], plus b[h], stored to
		// y[h*m+i]. Head h+1's inputs and weights start where head h's end, so
		// AP and BP0 run on from one head to the next. m, heads ≥ 1.
		a.Doc()
	} else {
		// outputForwardF32 for float64, with DOT1F64.
		a.Doc()
	}
	args := a.Text()
	m, heads, k, x, ldx, w, b, y := args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7]
	a.MOVD(m, r.mrows)
	a.MOVD(k, r.kdim)
	a.MOVD(x, r.aptr)
	a.MOVD(ldx, r.lda)
	a.MOVD(y, r.cptr)
	a.LSL(imm(log2(t.size)), r.lda)
	a.LSL(imm(log2(t.size)), r.mrows, r.ldc) // m·⟨4|8⟩: from one head's outputs to the next's
	row, head, bias := a.L("row"), a.L("head"), a.L("bias")
	a.Label(row)
	a.MOVD(r.aptr, r.ap)
	a.MOVD(w, r.bp[0])
	a.MOVD(b, r.biasp)
	a.MOVD(r.cptr, r.cp)
	a.MOVD(heads, r.pcnt)
	a.Label(head)
	r.useDot1(a, bias)
	a.Label(bias)
	t.FMOVP(r.biasp.At(t.size), F(1))
	t.FADD(F(16), F(1), F(16)) // y[h*m+i] = b[h] + s
	t.FMOV(F(16), r.cp.At(0))
	a.ADD(r.ldc, r.cp)
	a.SUBS(imm(1), r.pcnt)
	a.BNE(head)
	a.ADD(r.lda, r.aptr)
	a.ADD(imm(t.size), r.cptr)
	a.SUBS(imm(1), r.mrows)
	a.BNE(row)
	a.RET()
}
