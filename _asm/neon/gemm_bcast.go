package main

// bcastRegs are the general-purpose registers of gemmBcast, by their
// #defined names.
type bcastRegs struct {
	mrows, ncols, kdim, aptr, ars, aqs, bptr, ldb, cptr, ldc, bias, flags gpr // the arguments
	joff, nj, qcnt, bp, cp                                                gpr
	a                                                                     [4]gpr // &A(i0+r, q) of the tile's rows
	f                                                                     gemmFlags
	defs                                                                  *defines
}

// defineBcastRegs #defines the registers of gemmBcast.
func defineBcastRegs(a *asm, f gemmFlags) *bcastRegs {
	// Matrix kernels: broadcast A, multiply rows of B.
	a.Comment()
	d := a.Defines()
	r := &bcastRegs{f: f, defs: d}
	r.mrows = d.Register("MROWS", R(0)) // rows of C left
	r.ncols = d.Register("NCOLS", R(1)) // columns of C
	r.kdim = d.Register("KDIM", R(2))   // inner dimension
	r.aptr = d.Register("APTR", R(3))   // &A(i0, 0)
	r.ars = d.Register("ARS", R(4))     // A's row stride, in bytes
	r.aqs = d.Register("AQS", R(5))     // A's inner stride, in bytes
	r.bptr = d.Register("BPTR", R(6))   // &B(0, 0)
	r.ldb = d.Register("LDB", R(7))     // B's row stride, in bytes
	r.cptr = d.Register("CPTR", R(8))   // &C(i0, 0)
	r.ldc = d.Register("LDC", R(9))     // C's row stride, in bytes
	r.bias = d.Register("BIAS", R(10))  // &bias[0]
	r.flags = d.Register("FLAGS", R(11))
	r.joff = d.Register("JOFF", R(12)) // byte offset of the column tile in the rows of B, C and bias
	r.nj = d.Register("NJ", R(13))     // columns left
	r.qcnt = d.Register("QCNT", R(14)) // inner iterations left
	r.a[0] = d.Register("A0", R(15))   // &A(i0+r, q)
	for i := 1; i < len(r.a); i++ {
		r.a[i] = d.Register("A"+itoa(i), R(18+i))
	}
	r.bp = d.Register("BP", R(22)) // &B(q, j)
	r.cp = d.Register("CP", R(23)) // &C(i0+r, j)
	return r
}

// gemmBcast writes gemmBcastF32 and gemmBcastF64.
func (r *bcastRegs) gemmBcast(a *asm, t elem) {
	// C (m × n) = A (m × k) · B (k × n), A(i, q) = a[i*ars + q*aqs], B row-major.
	// Tiles of 4 rows × ⟨16|8⟩ columns: 16 accumulators V16–V31, a row of B in
	// V0–V3 and four broadcast A(i, q) in V4–V7; then 4 rows × ⟨4|2⟩, 4 rows × 1,
	// and the same for the last m mod 4 rows one at a time.
	args := a.Text()
	for i, x := range []gpr{r.mrows, r.ncols, r.kdim, r.aptr, r.ars, r.aqs, r.bptr, r.ldb, r.cptr, r.ldc, r.bias, r.flags} {
		a.MOVD(args[i], x)
	}
	for _, x := range []gpr{r.ars, r.aqs, r.ldb, r.ldc} {
		a.LSL(imm(log2(t.size)), x)
	}
	a.VEOR(V(8), V(8), V(8)) // zero, for ReLU
	done := a.L("done")
	for _, rows := range []int{4, 1} {
		p := "r" + itoa(rows) // of the labels of these rows: r4cw, …, r4done
		top, end := a.L("rows"+itoa(rows)), a.L(p+"done")
		a.Label(top)
		if rows == 4 {
			a.CMP(imm(4), r.mrows)
			a.BLT(a.L("rows1"))
		} else {
			a.CBZ(r.mrows, done)
		}
		a.MOVD(ZR, r.joff)
		a.MOVD(r.ncols, r.nj)
		tiles := []label{a.L(p + "cw"), a.L(p + "cn"), a.L(p + "c1"), end} // wide, narrow, one column
		for i, vectors := range []int{4, 1, 0} {
			r.tile(a, t, rows, vectors, tiles[i], tiles[i+1])
		}
		a.Label(end)
		ars, ldc := operand(r.ars), operand(r.ldc)
		if rows == 4 {
			ars, ldc = r.ars.Shl(2), r.ldc.Shl(2)
		}
		a.ADD(ars, r.aptr)
		a.ADD(ldc, r.cptr)
		a.SUB(imm(rows), r.mrows)
		a.B(top)
	}
	a.Label(done)
	a.RET()
}

// tile writes the loop, at label self, over the tiles of rows rows (4 or
// 1) and vectors vectors of columns (4 or 1, or 0 for one column in a
// scalar) while a tile fits, then goes on at next. The accumulator of row
// i and vector c is V(16+4i+c), the scalar F(16+4i).
func (r *bcastRegs) tile(a *asm, t elem, rows, vectors int, self, next label) {
	accum, bias, k := self.Sub("accum"), self.Sub("bias"), self.Sub("k")
	loop, relu, store := self.Sub("loop"), self.Sub("relu"), self.Sub("store")
	cols, bytes := vectors*t.lanes(), 16*vectors
	if vectors == 0 {
		cols, bytes = 1, t.size
	}
	acc := make([]block, rows) // [row][vector]
	for i := range acc {
		acc[i] = vregs(16+4*i, max(vectors, 1))
	}
	a.Label(self)
	a.CMP(imm(cols), r.nj)
	a.BLT(next)
	a.TBNZ(r.f.accum, r.flags, accum)
	a.TBNZ(r.f.bias, r.flags, bias)
	for _, row := range acc {
		for _, v := range row {
			a.VEOR(v, v, v)
		}
	}
	a.B(k)

	a.Label(bias)
	if vectors == 0 {
		t.FMOV(r.bias.Idx(r.joff), acc[0][0].F())
		for _, row := range acc[1:] {
			t.FMOV(acc[0][0].F(), row[0].F())
		}
	} else {
		a.ADD(r.bias, r.joff, r.bp)
		a.VLD1(r.bp.At(0), regs(acc[0]...))
		for _, row := range acc[1:] {
			for c, v := range row {
				a.VMOV(acc[0][c], v)
			}
		}
	}
	a.B(k)

	a.Label(accum)
	r.eachRowOfC(a, vectors, acc, func(m operand, row block) {
		if vectors == 0 {
			t.FMOV(m, row[0].F())
		} else if rows == 1 {
			a.VLD1(m, regs(row...))
		} else {
			a.VLD1P(m, regs(row...))
		}
	})

	a.Label(k)
	a.MOVD(r.aptr, r.a[0])
	for i := 1; i < rows; i++ {
		a.ADD(r.ars, r.a[i-1], r.a[i])
	}
	a.ADD(r.bptr, r.joff, r.bp)
	a.MOVD(r.kdim, r.qcnt)
	a.CBZ(r.qcnt, relu)
	a.PCALIGN(16)
	a.Label(loop)
	bcast := vregs(4, rows) // A(i0+i, q)
	if vectors == 0 {
		t.FMOV(r.bp.At(0), F(0))
		a.ADD(r.ldb, r.bp)
		for i, v := range bcast {
			t.FMOV(r.a[i].At(0), v.F())
			a.ADD(r.aqs, r.a[i])
		}
		for i, row := range acc {
			s := row[0].F()
			if rows == 1 {
				t.FMADD(F(0), s, bcast[i].F(), s) // s += A(i, q) * B(q, j)
			} else {
				t.FMADD(F(0), s, bcast[i].F(), s).Fmt(i) // s += A(i0+%d, q) * B(q, j)
			}
		}
	} else {
		b := vregs(0, vectors)
		a.VLD1P(r.bp.Idx(r.ldb), regs(b...)) // a row of B
		for i, v := range bcast {
			if rows == 1 {
				a.VLD1RP(r.a[i].Idx(r.aqs), regs(v)) // A(i, q), broadcast
			} else {
				a.VLD1RP(r.a[i].Idx(r.aqs), regs(v)).Fmt(i) // A(i0+%d, q), broadcast
			}
		}
		for i, row := range acc {
			for c, v := range row {
				a.VFMLA(b[c], bcast[i], v)
			}
		}
	}
	a.SUBS(imm(1), r.qcnt)
	a.BNE(loop)

	a.Label(relu)
	a.TBZ(r.f.relu, r.flags, store)
	for _, row := range acc {
		for _, v := range row {
			if vectors == 0 {
				t.FMAX(F(8), v.F(), v.F())
			} else {
				a.FMAX(v, v, V(8))
			}
		}
	}

	a.Label(store)
	r.eachRowOfC(a, vectors, acc, func(m operand, row block) {
		if vectors == 0 {
			t.FMOV(row[0].F(), m)
		} else if rows == 1 {
			a.VST1(regs(row...), m)
		} else {
			a.VST1P(regs(row...), m)
		}
	})
	a.ADD(imm(bytes), r.joff)
	a.SUB(imm(cols), r.nj)
	a.B(self)
}

// eachRowOfC calls f with the memory of each row of C in the tile and its
// accumulators: for one row, C(i, j) itself; for several, CP on from
// C(i, j), advanced by a row after each, by the post-indexed load or
// store f writes for vectors, by an ADD after f for a scalar.
func (r *bcastRegs) eachRowOfC(a *asm, vectors int, acc []block, f func(m operand, row block)) {
	switch {
	case len(acc) == 1 && vectors == 0:
		f(r.cptr.Idx(r.joff), acc[0])
		return
	case len(acc) == 1:
		a.ADD(r.cptr, r.joff, r.cp)
		f(r.cp.At(0), acc[0])
		return
	}
	a.ADD(r.cptr, r.joff, r.cp)
	for _, row := range acc {
		if vectors == 0 {
			f(r.cp.At(0), row)
			a.ADD(r.ldc, r.cp)
		} else {
			f(r.cp.Idx(r.ldc), row)
		}
	}
}
