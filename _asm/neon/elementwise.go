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
		t.FMOV(x, v.F())
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

// each writes op once for each register of the block d, with the register
// of each other operand at the same index (a register alone stands for
// itself at every index): each(a.FMUL, x, x, y) is x[i] = x[i]·y[i].
func each(op func(d, n, m armOperand) *line, d block, n, m perVector) {
	for i, x := range d {
		op(x, n.at(i), m.at(i))
	}
}

// check adds v − v (0 for a finite v, NaN otherwise) of the four vectors v
// into V30, through V20–V23, summed as a tree so that V30 takes one
// addition per four vectors.
func check(a *asm, v block) {
	d := vregs(20, 4)
	each(a.FSUB, d, v, v)
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

// rmsStep writes the step of rmsprop and Adam, p2 = p − lr·g/(√s + eps),
// on a block: root = √s + eps, g = lr·g/root, p −= g, stored to p2 and
// checked.
func rmsStep(a *asm, root, s, g, p block, lr, eps vreg, p2 gpr) {
	for i := range root {
		a.FSQRT(root[i], s[i])
	}
	each(a.FADD, root, root, eps)
	each(a.FMUL, g, lr, g)
	each(a.FDIV, g, g, root)
	each(a.FSUB, p, p, g)
	a.VST1P(regs(p...), p2.At(64))
	check(a, p)
}

// rmsStepScalar is rmsStep for one element, in scalar registers.
func rmsStepScalar(t elem, root, s, g, p freg, lr, eps vreg, p2 gpr) {
	t.FSQRT(s, root)
	t.FADD(eps.F(), root, root)
	t.FMUL(g, lr.F(), g)
	t.FDIV(root, g, g)
	t.FSUB(g, p, p)
	t.FMOVP(p, p2.At(t.size))
	checkScalar(t, p)
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
			each(a.FMUL, vx, vx, vy)
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
			each(a.FMUL, vx, vx, vy)
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
			each(a.FMUL, vx, vx, s)
			a.VST1P(regs(vx...), x.At(64))
		},
		tail: func() {
			t.FMOV(x.At(0), F(0))
			t.FMUL(s.F(), F(0), F(0))
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
			t.FMADD(s.F(), F(4), F(0), F(4))
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
			t.FMOV(fimm(1), one.F())
			a.VDUP(one.Lane(0), one)
		},
		loop: func() {
			a.VLD1(d.At(0), regs(vd...))
			a.VLD1P(y.At(64), regs(vy...))
			each(a.FMUL, vy, vy, vy)
			each(a.FSUB, vy, one, vy)
			each(a.FMUL, vd, vd, vy)
			a.VST1P(regs(vd...), d.At(64))
		},
		tail: func() {
			t.FMOV(d.At(0), F(0))
			t.FMOVP(y.At(t.size), F(4))
			t.FMUL(F(4), F(4), F(4))
			t.FSUB(F(4), one.F(), F(4))
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
			each(a.FMUL, vg, lr, vg)
			each(a.FSUB, vp, vp, vg)
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(p.At(t.size), F(4))
			t.FMUL(F(0), lr.F(), F(0))
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
			each(a.FMUL, vt, lr, vt)
			each(a.FMUL, vv, mu, vv)
			each(a.FSUB, vv, vv, vt)
			a.VST1P(regs(vv...), v2.At(64))
			check(a, vv)
			each(a.FMUL, tmp, mu, vv)
			each(a.FADD, vp, vp, tmp)
			each(a.FSUB, vp, vp, vt)
			a.VST1P(regs(vp...), p2.At(64))
			check(a, vp)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(v.At(t.size), F(4))
			t.FMOVP(p.At(t.size), F(8))
			t.FMUL(F(0), lr.F(), F(0))
			t.FMUL(F(4), mu.F(), F(4))
			t.FSUB(F(0), F(4), F(4))
			t.FMOVP(F(4), v2.At(t.size))
			checkScalar(t, F(4))
			t.FMUL(F(4), mu.F(), F(12))
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
			each(a.FMUL, va, rho, va)
			each(a.FMUL, tmp, c, vg)
			each(a.FMUL, tmp, tmp, vg)
			each(a.FADD, va, va, tmp)
			a.VST1P(regs(va...), a2.At(64))
			check(a, va)
			rmsStep(a, va, va, vg, vp, lr, eps, p2)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(av.At(t.size), F(4))
			t.FMOVP(p.At(t.size), F(8))
			t.FMUL(F(4), rho.F(), F(4))
			t.FMUL(F(0), c.F(), F(12))
			t.FMUL(F(0), F(12), F(12))
			t.FADD(F(12), F(4), F(4))
			t.FMOVP(F(4), a2.At(t.size))
			checkScalar(t, F(4))
			rmsStepScalar(t, F(4), F(4), F(0), F(8), lr, eps, p2)
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
			each(a.FMUL, vm, b1, vm)
			each(a.FMUL, tmp, c1, vg)
			each(a.FADD, vm, vm, tmp)
			each(a.FMUL, vv, b2, vv)
			each(a.FMUL, tmp, c2, vg)
			each(a.FMUL, tmp, tmp, vg)
			each(a.FADD, vv, vv, tmp)
			a.VST1P(regs(vm...), m2.At(64))
			a.VST1P(regs(vv...), v2.At(64))
			check(a, vm)
			check(a, vv)
			rmsStep(a, tmp, vv, vm, vp, lr, eps, p2)
		},
		tail: func() {
			t.FMOVP(gr.At(t.size), F(0))
			t.FMOVP(m.At(t.size), F(4))
			t.FMOVP(v.At(t.size), F(8))
			t.FMOVP(p.At(t.size), F(12))
			t.FMUL(F(4), b1.F(), F(4))
			t.FMUL(F(0), c1.F(), F(16))
			t.FADD(F(16), F(4), F(4))
			t.FMUL(F(8), b2.F(), F(8))
			t.FMUL(F(0), c2.F(), F(16))
			t.FMUL(F(0), F(16), F(16))
			t.FADD(F(16), F(8), F(8))
			t.FMOVP(F(4), m2.At(t.size))
			t.FMOVP(F(8), v2.At(t.size))
			checkScalar(t, F(4))
			checkScalar(t, F(8))
			rmsStepScalar(t, F(16), F(8), F(4), F(12), lr, eps, p2)
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
