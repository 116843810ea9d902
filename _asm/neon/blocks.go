package main

// blocks writes the loop of a kernel over the n elements counted in R7:
// loop on each block of four vectors (the count in R8), then, at label
// mid, between, then, at label each, tail on each of the n mod block
// elements left, and the label done.
func blocks(a *asm, t elem, mid, each label, loop, between, tail func()) {
	block := 4 * t.lanes()
	top, done := a.L("loop"), a.L("done")
	a.LSR(imm(log2(block)), R(7), R(8)) // blocks of ⟨16|8⟩
	a.CBZ(R(8), mid)
	a.PCALIGN(16)
	a.Label(top)
	loop()
	a.SUBS(imm(1), R(8))
	a.BNE(top)
	a.Label(mid)
	between()
	a.AND(imm(block-1), R(7), R(8))
	a.CBZ(R(8), done)
	a.Label(each)
	tail()
	a.SUBS(imm(1), R(8))
	a.BNE(each)
	a.Label(done)
}

// sum4 adds the four vectors acc, of arrangement r, into the lowest lane
// of acc[0], the scalar acc[0].F(): two pairs, their sum, then across.
func sum4(a *asm, acc block, r arrangement) {
	v := func(i int) vec { return acc[i].In(r) }
	a.FADD(v(0), v(0), v(1))
	a.FADD(v(2), v(2), v(3))
	a.FADD(v(0), v(0), v(2))
	sumAcross(a, acc[0], r)
}

// sumAcross adds the lanes of v, of arrangement r, into its lowest lane.
func sumAcross(a *asm, v vreg, r arrangement) {
	if r.lanes == 4 {
		a.FADDP(v.In(r), v.In(r), v.In(r))
		r = S2
	}
	a.FADDP(v.F(), v.In(r))
}
