package main

// allFinite writes allFiniteF32 and allFiniteF64.
func allFinite(a *asm, t elem) {
	// x − x is 0 for a finite x and NaN otherwise; four accumulators of such
	// differences stay 0 exactly when every element is finite.
	args := a.Text()
	n, x, ret := args[0], args[1], args[2]
	a.MOVD(n, R(7))
	a.MOVD(x, R(0))
	v, acc := vregs(0, 4), vregs(16, 4)
	for _, s := range acc {
		a.VEOR(s, s, s)
	}
	blocks(a, t, a.L("reduce"), a.L("tail"), func() {
		a.VLD1P(R(0).At(64), regs(v...))
		each(a.FSUB, v, v, v)
		each(a.FADD, acc, acc, v)
	}, func() {
		sum4(a, acc, t.arr)
	}, func() {
		t.FMOVP(R(0).At(t.size), F(0))
		t.FSUB(F(0), F(0), F(0))
		t.FADD(F(0), F(16), F(16))
	})
	t.FCMP(fimm(0), F(16))
	a.CSET(EQ, R(0))
	a.MOVB(R(0), ret)
	a.RET()
}

// sumSquares writes sumSquaresF32 and sumSquaresF64, whose sums are
// float64 both.
func sumSquares(a *asm, t elem) {
	if t.size == 4 {
		// Each block of 16 is widened to float64 (FCVTL, FCVTL2; the squares are
		// then exact) and accumulated in eight float64×2 accumulators.
		a.Doc()
	} else {
		// Four float64×2 accumulators, fused multiply-adds.
		a.Doc()
	}
	args := a.Text()
	n, x, ret := args[0], args[1], args[2]
	a.MOVD(n, R(7))
	a.MOVD(x, R(0))
	v, acc := vregs(0, 4), vregs(16, 2*t.lanes()) // eight float64×2 for float32, four for float64
	for _, s := range acc {
		a.VEOR(s, s, s)
	}
	d := a.F64()
	blocks(a, t, a.L("reduce"), a.L("tail"), func() {
		a.VLD1P(R(0).At(64), regs(v...))
		if t.size == 8 {
			for i := range v {
				a.VFMLA(v[i], v[i], acc[i])
			}
			return
		}
		wide := vregs(4, 8)
		for i, x := range v {
			a.FCVTL(wide[2*i], x)
			a.FCVTL2(wide[2*i+1], x)
		}
		for i := range wide {
			a.VFMLA(wide[i].In(D2), wide[i].In(D2), acc[i].In(D2))
		}
	}, func() {
		for i := range len(acc) - 4 {
			a.FADD(acc[i].In(D2), acc[i].In(D2), acc[4+i].In(D2))
		}
		sum4(a, acc[:4], D2)
	}, func() {
		t.FMOVP(R(0).At(t.size), F(0))
		if t.size == 4 {
			a.FCVTSD(F(0), F(0))
		}
		d.FMADD(F(0), F(16), F(0), F(16)) // s += x*x
	})
	d.FMOV(F(16), ret)
	a.RET()
}
