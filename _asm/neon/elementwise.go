package main

// ew is an element-wise kernel: elementwise loads n into R7 and the
// pointers, in the order of the Go declaration, into R0, R1, …, broadcasts
// the scalars into the vector registers scalars, runs setup, then loop on
// blocks of four vectors (counted in R8), then tail on one element at a
// time. A kernel whose Go declaration returns a bool returns whether every
// value it stores is finite: loop and tail check each value they store
// with check and checkScalar, into V30.
type ew struct {
	scalars           []vreg
	setup, loop, tail func()
	// tailBranches marks a tail that branches where the loop blends, so
	// that the doc does not claim the same instructions.
	tailBranches bool
}

// elementwise writes the kernel k, after the doc of the calling kernel.
func elementwise(a *asm, t elem, k ew) {
	if !k.tailBranches {
		// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same
		// instructions in the same order.
		a.Doc()
	}
	st := a.decl()
	results := st.args[st.params:]
	finite := len(results) == 1 && results[0].typ == "bool"
	if finite {
		// It returns whether every value it stores is finite: the sum of v − v
		// over them, in V30, is 0.
		a.Doc()
	}
	args := a.Text()
	a.MOVD(args[0], R(7))
	var ptrs, scalars []arg
	for _, x := range args[1:st.params] {
		if x.pointer() {
			ptrs = append(ptrs, x)
		} else {
			scalars = append(scalars, x)
		}
	}
	for i, x := range ptrs {
		a.MOVD(x, R(i))
	}
	for i, x := range scalars {
		v := k.scalars[i]
		t.FMOV(x, F(v.n))
		a.VDUP(v.Lane(0), v)
	}
	if k.setup != nil {
		k.setup()
	}
	sum := V(30)
	if finite {
		a.VEOR(sum, sum, sum)
	}
	blocks(a, t, a.L("tail"), a.L("tail", "loop"), k.loop, func() {
		if finite { // the blocks' sum, into F30 for the tail
			sumAcross(a, sum, t.arr)
		}
	}, k.tail)
	if finite {
		t.FCMP(fimm(0), F(30))
		a.CSET(EQ, R(0))
		a.MOVB(R(0), results[0])
	}
	a.RET()
}

// check adds v − v (0 for a finite v, NaN otherwise) of the four vectors v
// into V30, through V20–V23, summed as a tree so that V30 takes one
// addition per four vectors.
func check(a *asm, v []vreg) {
	d := vregs(20, 4)
	for i := range d {
		a.FSUB(d[i], v[i], v[i])
	}
	a.FADD(d[0], d[0], d[1])
	a.FADD(d[2], d[2], d[3])
	a.FADD(d[0], d[0], d[2])
	a.FADD(V(30), V(30), d[0])
}

// checkScalar is check for the scalar f of a tail, into F30.
func checkScalar(t elem, f freg) {
	t.FSUB(f, f, F(20))
	t.FADD(F(20), F(30), F(30))
}

// mul writes mulF32 and mulF64.
func mul(a *asm, t elem) {
	// for i := range n {
	//	x[i] *= y[i]
	// }
	a.Doc()
	x, y := R(0), R(1)
	vx, vy := vregs(0, 4), vregs(4, 4)
	elementwise(a, t, ew{
		loop: func() {
			a.VLD1(x.At(0), regs(vx...))
			a.VLD1P(y.At(64), regs(vy...))
			for i := range vx {
				a.FMUL(vx[i], vx[i], vy[i])
			}
			a.VST1P(regs(vx...), x.At(64))
		},
		tail: func() {
			t.FMOV(x.At(0), F(0))
			t.FMOVP(y.At(t.size), F(4))
			t.FMUL(F(4), F(0), F(0))
			t.FMOVP(F(0), x.At(t.size))
		},
	})
}

// mulTo writes mulToF32 and mulToF64.
func mulTo(a *asm, t elem) {
	// for i := range n {
	//	dst[i] = x[i] * y[i]
	// }
	a.Doc()
	dst, x, y := R(0), R(1), R(2)
	vx, vy := vregs(0, 4), vregs(4, 4)
	elementwise(a, t, ew{
		loop: func() {
			a.VLD1P(x.At(64), regs(vx...))
			a.VLD1P(y.At(64), regs(vy...))
			for i := range vx {
				a.FMUL(vx[i], vx[i], vy[i])
			}
			a.VST1P(regs(vx...), dst.At(64))
		},
		tail: func() {
			t.FMOVP(x.At(t.size), F(0))
			t.FMOVP(y.At(t.size), F(4))
			t.FMUL(F(4), F(0), F(0))
			t.FMOVP(F(0), dst.At(t.size))
		},
	})
}

// scale writes scaleF32 and scaleF64.
func scale(a *asm, t elem) {
	// for i := range n {
	//	x[i] *= a
	// }
	a.Doc()
	x, s := R(0), V(24)
	vx := vregs(0, 4)
	elementwise(a, t, ew{
		scalars: []vreg{s},
		loop: func() {
			a.VLD1(x.At(0), regs(vx...))
			for _, v := range vx {
				a.FMUL(v, v, s)
			}
			a.VST1P(regs(vx...), x.At(64))
		},
		tail: func() {
			t.FMOV(x.At(0), F(0))
			t.FMUL(F(s.n), F(0), F(0))
			t.FMOVP(F(0), x.At(t.size))
		},
	})
}

// axpy writes axpyF32 and axpyF64, the one element-wise kernel that fuses.
func axpy(a *asm, t elem) {
	// for i := range n {
	//	y[i] += a * x[i], fused (VFMLA, FMADD)
	// }
	a.Doc()
	x, y, s := R(0), R(1), V(24)
	vx, vy := vregs(0, 4), vregs(4, 4)
	elementwise(a, t, ew{
		scalars: []vreg{s},
		loop: func() {
			a.VLD1P(x.At(64), regs(vx...))
			a.VLD1(y.At(0), regs(vy...))
			for i := range vx {
				a.VFMLA(s, vx[i], vy[i])
			}
			a.VST1P(regs(vy...), y.At(64))
		},
		tail: func() {
			t.FMOVP(x.At(t.size), F(0))
			t.FMOV(y.At(0), F(4))
			t.FMADD(F(s.n), F(4), F(0), F(4))
			t.FMOVP(F(4), y.At(t.size))
		},
	})
}

// tanhBackward writes tanhBackwardF32 and tanhBackwardF64.
func tanhBackward(a *asm, t elem) {
	// for i := range n {
	//	d[i] *= 1 - y[i]*y[i]
	// }
	a.Doc()
	d, y, one := R(0), R(1), V(31)
	vd, vy := vregs(0, 4), vregs(4, 4)
	elementwise(a, t, ew{
		setup: func() {
			t.FMOV(fimm(1), F(one.n))
			a.VDUP(one.Lane(0), one)
		},
		loop: func() {
			a.VLD1(d.At(0), regs(vd...))
			a.VLD1P(y.At(64), regs(vy...))
			for _, v := range vy {
				a.FMUL(v, v, v)
			}
			for _, v := range vy {
				a.FSUB(v, one, v)
			}
			for i := range vd {
				a.FMUL(vd[i], vd[i], vy[i])
			}
			a.VST1P(regs(vd...), d.At(64))
		},
		tail: func() {
			t.FMOV(d.At(0), F(0))
			t.FMOVP(y.At(t.size), F(4))
			t.FMUL(F(4), F(4), F(4))
			t.FSUB(F(4), F(one.n), F(4))
			t.FMUL(F(4), F(0), F(0))
			t.FMOVP(F(0), d.At(t.size))
		},
	})
}

// sgd writes sgdF32 and sgdF64, the plain gradient step.
func sgd(a *asm, t elem) {
	// for i := range n {
	//	p2[i] = p[i] - lr*gr[i]
	// }
	a.Doc()
	p2, p, gr, lr := R(0), R(1), R(2), V(24)
	vg, vp := vregs(0, 4), vregs(4, 4)
	elementwise(a, t, ew{
		scalars: []vreg{lr},
		loop: func() {
			a.VLD1P(gr.At(64), regs(vg...))
			a.VLD1P(p.At(64), regs(vp...))
			for _, v := range vg {
				a.FMUL(v, lr, v)
			}
			for i := range vp {
				a.FSUB(vp[i], vp[i], vg[i])
			}
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(p.At(t.size), F(4))
			t.FMUL(F(0), F(lr.n), F(0))
			t.FSUB(F(0), F(4), F(4))
			t.FMOVP(F(4), p2.At(t.size))
			checkScalar(t, F(4))
		},
	})
}

// nesterov writes nesterovF32 and nesterovF64, the step with Nesterov's
// momentum.
func nesterov(a *asm, t elem) {
	// for i := range n {
	//	t := lr*gr[i]; v2[i] = mu*v[i] - t; p2[i] = p[i] + mu*v2[i] - t
	// }
	a.Doc()
	p2, v2, p, v, gr := R(0), R(1), R(2), R(3), R(4)
	lr, mu := V(24), V(25)
	vt, vv, vp, tmp := vregs(0, 4), vregs(4, 4), vregs(8, 4), vregs(12, 4)
	elementwise(a, t, ew{
		scalars: []vreg{lr, mu},
		loop: func() {
			a.VLD1P(gr.At(64), regs(vt...))
			a.VLD1P(v.At(64), regs(vv...))
			a.VLD1P(p.At(64), regs(vp...))
			for _, x := range vt {
				a.FMUL(x, lr, x)
			}
			for _, x := range vv {
				a.FMUL(x, mu, x)
			}
			for i := range vv {
				a.FSUB(vv[i], vv[i], vt[i])
			}
			a.VST1P(regs(vv...), v2.At(64))
			check(a, vv)
			for i := range tmp {
				a.FMUL(tmp[i], mu, vv[i])
			}
			for i := range vp {
				a.FADD(vp[i], vp[i], tmp[i])
			}
			for i := range vp {
				a.FSUB(vp[i], vp[i], vt[i])
			}
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(v.At(t.size), F(4))
			t.FMOVP(p.At(t.size), F(8))
			t.FMUL(F(0), F(lr.n), F(0))
			t.FMUL(F(4), F(mu.n), F(4))
			t.FSUB(F(0), F(4), F(4))
			t.FMOVP(F(4), v2.At(t.size))
			checkScalar(t, F(4))
			t.FMUL(F(4), F(mu.n), F(12))
			t.FADD(F(12), F(8), F(8))
			t.FSUB(F(0), F(8), F(8))
			t.FMOVP(F(8), p2.At(t.size))
			checkScalar(t, F(8))
		},
	})
}

// rmsprop writes rmspropF32 and rmspropF64.
func rmsprop(a *asm, t elem) {
	// for i := range n {
	//	a2[i] = rho*a[i] + (c*gr[i])*gr[i]; p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps)
	// }
	a.Doc()
	p2, a2, p, av, gr := R(0), R(1), R(2), R(3), R(4)
	lr, rho, c, eps := V(24), V(25), V(26), V(27)
	vg, va, vp, tmp := vregs(0, 4), vregs(4, 4), vregs(8, 4), vregs(12, 4)
	elementwise(a, t, ew{
		scalars: []vreg{lr, rho, c, eps},
		loop: func() {
			a.VLD1P(gr.At(64), regs(vg...))
			a.VLD1P(av.At(64), regs(va...))
			a.VLD1P(p.At(64), regs(vp...))
			for _, x := range va {
				a.FMUL(x, rho, x)
			}
			for i := range tmp {
				a.FMUL(tmp[i], c, vg[i])
			}
			for i := range tmp {
				a.FMUL(tmp[i], tmp[i], vg[i])
			}
			for i := range va {
				a.FADD(va[i], va[i], tmp[i])
			}
			a.VST1P(regs(va...), a2.At(64))
			check(a, va)
			for _, x := range va {
				a.FSQRT(x, x)
			}
			for _, x := range va {
				a.FADD(x, x, eps)
			}
			for _, x := range vg {
				a.FMUL(x, lr, x)
			}
			for i := range vg {
				a.FDIV(vg[i], vg[i], va[i])
			}
			for i := range vp {
				a.FSUB(vp[i], vp[i], vg[i])
			}
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(av.At(t.size), F(4))
			t.FMOVP(p.At(t.size), F(8))
			t.FMUL(F(4), F(rho.n), F(4))
			t.FMUL(F(0), F(c.n), F(12))
			t.FMUL(F(0), F(12), F(12))
			t.FADD(F(12), F(4), F(4))
			t.FMOVP(F(4), a2.At(t.size))
			checkScalar(t, F(4))
			t.FSQRT(F(4), F(4))
			t.FADD(F(eps.n), F(4), F(4))
			t.FMUL(F(0), F(lr.n), F(0))
			t.FDIV(F(4), F(0), F(0))
			t.FSUB(F(0), F(8), F(8))
			t.FMOVP(F(8), p2.At(t.size))
			checkScalar(t, F(8))
		},
	})
}

// adam writes adamF32 and adamF64.
func adam(a *asm, t elem) {
	// for i := range n {
	//	m2[i] = b1*m[i] + c1*gr[i]; v2[i] = b2*v[i] + (c2*gr[i])*gr[i]
	//	p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps)
	// }
	a.Doc()
	p2, m2, v2, p, m, v, gr := R(0), R(1), R(2), R(3), R(4), R(5), R(6)
	lr, b1, b2, c1, c2, eps := V(24), V(25), V(26), V(27), V(28), V(29)
	vg, vm, vv, vp, tmp := vregs(0, 4), vregs(4, 4), vregs(8, 4), vregs(12, 4), vregs(16, 4)
	elementwise(a, t, ew{
		scalars: []vreg{lr, b1, c1, b2, c2, eps},
		loop: func() {
			a.VLD1P(gr.At(64), regs(vg...))
			a.VLD1P(m.At(64), regs(vm...))
			a.VLD1P(v.At(64), regs(vv...))
			a.VLD1P(p.At(64), regs(vp...))
			for _, x := range vm {
				a.FMUL(x, b1, x)
			}
			for i := range tmp {
				a.FMUL(tmp[i], c1, vg[i])
			}
			for i := range vm {
				a.FADD(vm[i], vm[i], tmp[i])
			}
			for _, x := range vv {
				a.FMUL(x, b2, x)
			}
			for i := range tmp {
				a.FMUL(tmp[i], c2, vg[i])
			}
			for i := range tmp {
				a.FMUL(tmp[i], tmp[i], vg[i])
			}
			for i := range vv {
				a.FADD(vv[i], vv[i], tmp[i])
			}
			a.VST1P(regs(vm...), m2.At(64))
			a.VST1P(regs(vv...), v2.At(64))
			check(a, vm)
			check(a, vv)
			for i := range tmp {
				a.FSQRT(tmp[i], vv[i])
			}
			for _, x := range tmp {
				a.FADD(x, x, eps)
			}
			for _, x := range vm {
				a.FMUL(x, lr, x)
			}
			for i := range vm {
				a.FDIV(vm[i], vm[i], tmp[i])
			}
			for i := range vp {
				a.FSUB(vp[i], vp[i], vm[i])
			}
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(m.At(t.size), F(4))
			t.FMOVP(v.At(t.size), F(8))
			t.FMOVP(p.At(t.size), F(12))
			t.FMUL(F(4), F(b1.n), F(4))
			t.FMUL(F(0), F(c1.n), F(16))
			t.FADD(F(16), F(4), F(4))
			t.FMUL(F(8), F(b2.n), F(8))
			t.FMUL(F(0), F(c2.n), F(16))
			t.FMUL(F(0), F(16), F(16))
			t.FADD(F(16), F(8), F(8))
			t.FMOVP(F(4), m2.At(t.size))
			t.FMOVP(F(8), v2.At(t.size))
			checkScalar(t, F(4))
			checkScalar(t, F(8))
			t.FSQRT(F(8), F(16))
			t.FADD(F(eps.n), F(16), F(16))
			t.FMUL(F(4), F(lr.n), F(4))
			t.FDIV(F(16), F(4), F(4))
			t.FSUB(F(4), F(12), F(12))
			t.FMOVP(F(12), p2.At(t.size))
			checkScalar(t, F(12))
		},
	})
}

// reluBackward writes reluBackwardF32 and reluBackwardF64.
func reluBackward(a *asm, t elem) {
	// The mask y > 0 (FCMGT, all ones where true, so false for NaN) ANDed into d.
	a.Doc()
	d, y := R(0), R(1)
	vd, vy := vregs(0, 4), vregs(4, 4)
	keep := a.L("keep")
	store := a.MOVD
	if t.size == 4 {
		store = a.MOVW
	}
	elementwise(a, t, ew{
		tailBranches: true,
		loop: func() {
			a.VLD1(d.At(0), regs(vd...))
			a.VLD1P(y.At(64), regs(vy...))
			for _, v := range vy {
				a.FCMGT(v, v, zero).Fmt(v.n) // V%d = y > 0
			}
			for i := range vy {
				a.VAND(vy[i], vd[i], vd[i])
			}
			a.VST1P(regs(vd...), d.At(64))
		},
		tail: func() {
			t.FMOVP(y.At(t.size), F(1))
			t.FCMP(fimm(0), F(1))
			a.BGT(keep)        // y > 0; false when unordered
			store(ZR, d.At(0)) // d = 0
			a.Label(keep)
			a.ADD(imm(t.size), d)
		},
	})
}
