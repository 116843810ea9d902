package main

// The instructions, one method each: the Go assembler's own in its syntax
// and operand order (sources first, the destination last), and, from
// FADD on, those it lacks, written as WORDs, in ARM's syntax and operand
// order (the destination first), as the WORD's comment shows them. The
// scalar floating-point instructions of a kernel's element type are
// methods of elem.

func (a *asm) MOVD(src, dst operand) *line { return a.op(a.t.arr, "MOVD", src, dst) }
func (a *asm) MOVW(src, dst operand) *line { return a.op(a.t.arr, "MOVW", src, dst) }
func (a *asm) MOVB(src, dst operand) *line { return a.op(a.t.arr, "MOVB", src, dst) }

// The arithmetic of general-purpose registers takes two operands (x op=
// y) or three.
func (a *asm) ADD(ops ...operand) *line  { return a.op(a.t.arr, "ADD", ops...) }
func (a *asm) SUB(ops ...operand) *line  { return a.op(a.t.arr, "SUB", ops...) }
func (a *asm) SUBS(ops ...operand) *line { return a.op(a.t.arr, "SUBS", ops...) }
func (a *asm) AND(ops ...operand) *line  { return a.op(a.t.arr, "AND", ops...) }
func (a *asm) ORR(ops ...operand) *line  { return a.op(a.t.arr, "ORR", ops...) }
func (a *asm) LSR(ops ...operand) *line  { return a.op(a.t.arr, "LSR", ops...) }
func (a *asm) LSL(ops ...operand) *line  { return a.op(a.t.arr, "LSL", ops...) }

func (a *asm) CMP(x, y operand) *line   { return a.op(a.t.arr, "CMP", x, y) }
func (a *asm) CSET(c cond, d gpr) *line { return a.op(a.t.arr, "CSET", c, d) }

func (a *asm) B(l label) *line                      { return a.op(a.t.arr, "B", l) }
func (a *asm) BNE(l label) *line                    { return a.op(a.t.arr, "BNE", l) }
func (a *asm) BLT(l label) *line                    { return a.op(a.t.arr, "BLT", l) }
func (a *asm) BGT(l label) *line                    { return a.op(a.t.arr, "BGT", l) }
func (a *asm) CBZ(r gpr, l label) *line             { return a.op(a.t.arr, "CBZ", r, l) }
func (a *asm) CBNZ(r gpr, l label) *line            { return a.op(a.t.arr, "CBNZ", r, l) }
func (a *asm) TBZ(b operand, r gpr, l label) *line  { return a.op(a.t.arr, "TBZ", b, r, l) }
func (a *asm) TBNZ(b operand, r gpr, l label) *line { return a.op(a.t.arr, "TBNZ", b, r, l) }
func (a *asm) RET() *line                           { return a.op(a.t.arr, "RET") }

// PCALIGN aligns the next instruction, the top of a loop, to n bytes.
func (a *asm) PCALIGN(n int) *line { return a.op(a.t.arr, "PCALIGN", imm(n)) }

// The bitwise vector instructions and VMOV take whole registers (B16).
func (a *asm) VEOR(x, y, d vreg) *line     { return a.op(B16, "VEOR", x, y, d) }
func (a *asm) VAND(x, y, d vreg) *line     { return a.op(B16, "VAND", x, y, d) }
func (a *asm) VORR(x, y, d vreg) *line     { return a.op(B16, "VORR", x, y, d) }
func (a *asm) VBIT(m, n, d vreg) *line     { return a.op(B16, "VBIT", m, n, d) }
func (a *asm) VBIF(m, n, d vreg) *line     { return a.op(B16, "VBIF", m, n, d) }
func (a *asm) VMOV(src, dst operand) *line { return a.op(B16, "VMOV", src, dst) }

func (a *asm) VDUP(src lane, dst operand) *line { return a.op(a.t.arr, "VDUP", src, dst) }

// The loads and stores; P is the Go assembler's .P, post-indexed.
func (a *asm) VLD1(m, dst operand) *line    { return a.op(a.t.arr, "VLD1", m, dst) }
func (a *asm) VLD1P(m, dst operand) *line   { return a.op(a.t.arr, "VLD1.P", m, dst) }
func (a *asm) VLD1RP(m, dst operand) *line  { return a.op(a.t.arr, "VLD1R.P", m, dst) }
func (a *asm) VST1(src, m operand) *line    { return a.op(a.t.arr, "VST1", src, m) }
func (a *asm) VST1P(src, m operand) *line   { return a.op(a.t.arr, "VST1.P", src, m) }
func (a *asm) FMOVQ(src, dst operand) *line { return a.op(a.t.arr, "FMOVQ", src, dst) }

// VFMLA is d += x·y, fused, VFMLS d −= x·y.
func (a *asm) VFMLA(x, y, d operand) *line { return a.op(a.t.arr, "VFMLA", x, y, d) }
func (a *asm) VFMLS(x, y, d operand) *line { return a.op(a.t.arr, "VFMLS", x, y, d) }

func (a *asm) VUSHR(n imm, src, dst operand) *line { return a.op(a.t.arr, "VUSHR", n, src, dst) }
func (a *asm) VSHL(n imm, src, dst operand) *line  { return a.op(a.t.arr, "VSHL", n, src, dst) }

// FCVTSD widens a float32 to a float64, FCVTDS narrows.
func (a *asm) FCVTSD(src, dst freg) *line { return a.op(a.t.arr, "FCVTSD", src, dst) }
func (a *asm) FCVTDS(src, dst freg) *line { return a.op(a.t.arr, "FCVTDS", src, dst) }

// The WORDs, d = n op m, in the kernel's arrangement unless an operand
// names another. The comparisons set a lane to all ones where they hold,
// and to zero elsewhere (NaN included); m may be zero (#0).
func (a *asm) FADD(d, n, m armOperand) *line  { return a.word(a.t.arr, "FADD", d, n, m) }
func (a *asm) FSUB(d, n, m armOperand) *line  { return a.word(a.t.arr, "FSUB", d, n, m) }
func (a *asm) FMUL(d, n, m armOperand) *line  { return a.word(a.t.arr, "FMUL", d, n, m) }
func (a *asm) FDIV(d, n, m armOperand) *line  { return a.word(a.t.arr, "FDIV", d, n, m) }
func (a *asm) FMAX(d, n, m armOperand) *line  { return a.word(a.t.arr, "FMAX", d, n, m) }
func (a *asm) FCMEQ(d, n, m armOperand) *line { return a.word(a.t.arr, "FCMEQ", d, n, m) }
func (a *asm) FCMGE(d, n, m armOperand) *line { return a.word(a.t.arr, "FCMGE", d, n, m) }
func (a *asm) FCMGT(d, n, m armOperand) *line { return a.word(a.t.arr, "FCMGT", d, n, m) }

// FADDP adds pairs of lanes: of n and m into d (three operands), or the
// two lanes of n into the scalar d (two), of n's element type.
func (a *asm) FADDP(d, n armOperand, m ...armOperand) *line {
	if len(m) == 0 {
		def := a.t.arr
		if x, ok := n.(vec); ok {
			def = x.r
		}
		return a.word(def, "FADDP", d, n)
	}
	return a.word(a.t.arr, "FADDP", d, n, m[0])
}

func (a *asm) FSQRT(d, n armOperand) *line  { return a.word(a.t.arr, "FSQRT", d, n) }
func (a *asm) FABS(d, n armOperand) *line   { return a.word(a.t.arr, "FABS", d, n) }
func (a *asm) FNEG(d, n armOperand) *line   { return a.word(a.t.arr, "FNEG", d, n) }
func (a *asm) FRINTN(d, n armOperand) *line { return a.word(a.t.arr, "FRINTN", d, n) } // to nearest, ties to even
func (a *asm) FRINTM(d, n armOperand) *line { return a.word(a.t.arr, "FRINTM", d, n) } // floor
func (a *asm) FRINTZ(d, n armOperand) *line { return a.word(a.t.arr, "FRINTZ", d, n) } // truncate

// FCVTL widens the low two float32 of n into the float64 of d, FCVTL2 the
// high two; FCVTN narrows n into the low two float32 of d, FCVTN2 into
// the high two.
func (a *asm) FCVTL(d, n vreg) *line  { return a.word(D2, "FCVTL", d, n.In(S2)) }
func (a *asm) FCVTL2(d, n vreg) *line { return a.word(D2, "FCVTL2", d, n.In(S4)) }
func (a *asm) FCVTN(d, n vreg) *line  { return a.word(D2, "FCVTN", d.In(S2), n) }
func (a *asm) FCVTN2(d, n vreg) *line { return a.word(D2, "FCVTN2", d.In(S4), n) }
