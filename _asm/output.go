package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// outputForward emits outputForwardF32 or outputForwardF64: the output
// layer, one dot product of length k per row and head, along the
// contiguous k: four vectors per step into four accumulators, then steps
// of one vector into the first, and the last k mod lanes elements as a
// masked step into the second (the mask, made once, waits in Y15; the
// same code with ZMM and the mask in K1 was slower, see
// simd_avx512_amd64.go), the four summed into one vector (outputDot).
// The rows go in groups of four, head by head, two rows' dot products
// in one loop (one loop's counting and branches for two products); the
// group's four vectors of sums are summed across their lanes together
// (outputGroupSum) into the group's four outputs, stored at once, where a
// row's horizontal sum took an extract, an add, two (float64: one)
// horizontal adds and a scalar store of its own: the same additions in
// the same order, so every output is the same bits as a row alone gives.
// The last m mod 4 rows go one at a time, the heads of a row one after
// another; their dot products are independent, so the out-of-order core
// overlaps them.
func outputForward(t elem) {
	if t.z() {
		panic("outputForward: AVX2 only")
	}
	var (
		j     = RAX // element j of the dot product
		yp    = RBX // &y[h*m+i]
		xq    = RCX // in a group, &x[(i+1)*ldx+h*k], the pair's second row
		kv    = RDX // k rounded down to a whole vector
		row   = RSI // &x[i*ldx]
		xp    = RDI // &x[i*ldx+h*k]
		wp    = R8  // &w[h*k]
		bp    = R9  // &b[h]
		yi    = R10 // &y[i]
		kwide = R11 // kv − 4 vectors: the last j of a wide step
		rows  = R12 // rows left
		heads = R13 // heads left in this row; in a group, &x[i*ldx+h*k]
		kb    = R14 // k·size: the distance between two heads' inputs and weights
		ldxb  = R15 // ldx·size: the distance between two rows
	)
	l := kernel(t.name("outputForward"))
	local := AllocLocal(16)
	headsLeft, mb := local, local.Offset(8) // a group's heads left; m·size, the distance between two heads' outputs
	lanes := t.lanes()
	dot := outputDot{t: t, l: l, j: j, wp: wp, kv: kv, kwide: kwide, mk: Y15, w: Y4, x: Y5}
	one := []dotRow{{x: xp, acc: [4]VecPhysical{Y0, Y1, Y2, Y3}, sum: Y0}}
	// A group's rows r and r+1 in one loop, their sums into slot[r] and
	// slot[r+1].
	slot := []VecPhysical{Y6, Y7, Y13, Y14}
	pair := func(r int) []dotRow {
		return []dotRow{{x: xp, acc: [4]VecPhysical{Y0, Y1, Y2, Y3}, sum: slot[r]},
			{x: xq, acc: [4]VecPhysical{Y8, Y9, Y10, Y11}, sum: slot[r+1]}}
	}

	Load(Param("k"), kv)
	MOVQ(kv, kb)
	SHLQ(U8(t.shift()), kb)
	MOVQ(kv, RCX)
	ANDQ(U8(lanes-1), RCX)
	SUBQ(RCX, kv)
	mask(t, RCX, Y15, X15)
	LEAQ(at(kv, -4*lanes, nil, 0), kwide)
	Load(Param("m"), rows)
	MOVQ(rows, RCX)
	SHLQ(U8(t.shift()), RCX)
	MOVQ(RCX, mb)
	Load(Param("ldx"), ldxb)
	SHLQ(U8(t.shift()), ldxb)
	Load(Param("x"), row)
	Load(Param("y"), yi)

	// firstHead points wp, bp and yp at the first head of the rows from
	// yi on, and sets count to the heads; nextHead moves x, wp, bp and yp
	// on to the next head, and loops back to label while count is not
	// down to 0.
	firstHead := func(count GPPhysical) {
		Load(Param("w"), wp)
		Load(Param("b"), bp)
		MOVQ(yi, yp)
		Load(Param("heads"), count)
	}
	nextHead := func(x GPPhysical, count Op, label string) {
		ADDQ(kb, x)
		ADDQ(kb, wp)
		ADDQ(U8(t.size), bp)
		ADDQ(mb, yp)
		DECQ(count)
		JNZ(l.L(label))
	}

	// A group of four rows, head by head.
	l.Set("group")
	CMPQ(rows, U8(4))
	JLT(l.L("rows"))
	MOVQ(row, heads)
	firstHead(j)
	MOVQ(j, headsLeft)
	l.Set("ghead")
	MOVQ(heads, xp)
	for r := 0; r < 4; r += 2 {
		if r > 0 {
			LEAQ(at(xp, 0, ldxb, 2), xp)
		}
		LEAQ(at(xp, 0, ldxb, 1), xq)
		dot.emit(fmt.Sprint("g", r), pair(r))
	}
	outputGroupSum(t, slot)
	nextHead(heads, headsLeft, "ghead")
	LEAQ(at(row, 0, ldxb, 4), row)
	ADDQ(U8(4*t.size), yi)
	SUBQ(U8(4), rows)
	JMP(l.L("group"))

	// The last rows, one at a time.
	l.Set("rows")
	TESTQ(rows, rows)
	JEQ(l.L("done"))
	l.Set("row")
	MOVQ(row, xp)
	firstHead(heads)

	l.Set("head")
	dot.emit("", one)
	hsum(t)
	pick(t, VADDSS, VADDSD)(at(bp, 0, nil, 0), X0, X0) // y[h*m+i] = b[h] + s
	pick(t, VMOVSS, VMOVSD)(X0, at(yp, 0, nil, 0))
	nextHead(xp, heads, "head")
	ADDQ(ldxb, row)
	ADDQ(U8(t.size), yi)
	DECQ(rows)
	JNZ(l.L("row"))
	l.Set("done")
	vzeroupper()
	RET()
}

// outputDot emits the dot products of outputForward of one or two rows
// in one loop, x[row's x + j]·w[wp+j] over j < k: the registers it runs
// on, the mask of the last k mod lanes (mk), the register of their
// weights (w), loaded once for the rows, and that of a row's masked x.
type outputDot struct {
	t                elem
	l                labels
	j, wp, kv, kwide GPPhysical
	mk, w, x         VecPhysical
}

// dotRow is one row of outputDot: its x pointer, its four accumulators,
// and the register of its sum.
type dotRow struct {
	x   GPPhysical
	acc [4]VecPhysical
	sum VecPhysical
}

// emit emits the dot products of rows with labels ending in sfx, and
// leaves each row's sum of its accumulators, (a0 + a1) + (a2 + a3) lane
// by lane, in its sum register.
func (d outputDot) emit(sfx string, rows []dotRow) {
	t, l, j, wp := d.t, d.l, d.j, d.wp
	scale := uint8(t.size)
	for _, r := range rows {
		for _, a := range r.acc {
			t.XOR(a, a, a)
		}
	}
	XORQ(j, j)

	// s += x[j:j+4·lanes] · w[j:j+4·lanes]
	l.Set("wide" + sfx)
	CMPQ(j, d.kwide)
	JGT(l.L("vec" + sfx))
	for i := 0; i < 4; i++ { // the weights loaded once for the rows
		t.MOVU(at(wp, t.vec*i, j, scale), d.w)
		for _, r := range rows {
			t.FMADD231(at(r.x, t.vec*i, j, scale), d.w, r.acc[i])
		}
	}
	ADDQ(U8(4*t.lanes()), j)
	JMP(l.L("wide" + sfx))

	// s += x[j:j+lanes] · w[j:j+lanes]
	l.Set("vec" + sfx)
	CMPQ(j, d.kv)
	JGE(l.L("tail" + sfx))
	t.MOVU(at(wp, 0, j, scale), d.w)
	for _, r := range rows {
		t.FMADD231(at(r.x, 0, j, scale), d.w, r.acc[0])
	}
	ADDQ(U8(t.lanes()), j)
	JMP(l.L("vec" + sfx))

	// s += x[j:k] · w[j:k]. The tail, the sum and the loop back to the
	// next head start at a 64-byte boundary (the vec loop above jumps past
	// the padding): where they fell as the code around them moved, an
	// ML_Bayes prediction of the UCI network (50 rows of this kernel) took
	// 0.76 to 0.98 µs of CPU time on AMD Zen 4 (one more func field in the
	// kernel table, nothing else changed: 0.77 → 0.85 µs), and 0.76 to
	// 0.79 µs in each of three such builds with the boundary.
	pcalign(64)
	l.Set("tail" + sfx)
	CMPQ(d.kv, arg("k"))
	JEQ(l.L("sum" + sfx))
	t.maskLoad(at(wp, 0, j, scale), d.mk, d.w)
	for _, r := range rows {
		t.maskLoad(at(r.x, 0, j, scale), d.mk, d.x)
		t.FMADD231(d.w, d.x, r.acc[1])
	}

	l.Set("sum" + sfx)
	for _, r := range rows {
		t.ADD(r.acc[1], r.acc[0], r.acc[0])
		t.ADD(r.acc[3], r.acc[2], r.acc[2])
		t.ADD(r.acc[2], r.acc[0], r.sum)
	}
}

// outputGroupSum sums the lanes of each of the four vectors of sums of a
// group of outputForward's rows, row r's in slot[r], adds the head's bias
// (at R9) and stores the group's four outputs (at RBX), by the additions
// hsum and the row loop make for one row, in their order: each row's
// upper 128 bits added to its lower (VPERM2F128 puts row r's halves beside
// row r+2's), then horizontal adds of neighbouring lanes, whose rows come
// out in order; float32 takes a second horizontal add, which leaves rows
// 0 and 1 in the lower 64 bits of each half, and VPERMPD brings rows 2
// and 3 beside them. Clobbers Y0–Y2 and Y12.
func outputGroupSum(t elem, slot []VecPhysical) {
	for a := 0; a < 2; a++ {
		VPERM2F128(U8(0x20), slot[a+2], slot[a], y(a))   // lower halves of rows a, a+2
		VPERM2F128(U8(0x31), slot[a+2], slot[a], y(a+1)) // their upper halves
		t.ADD(y(a+1), y(a), y(a))
	}
	pick(t, VHADDPS, VHADDPD)(Y1, Y0, Y0)
	if t.size == 4 {
		VHADDPS(Y0, Y0, Y0)
		VPERMPD(U8(0b1000), Y0, Y0) // rows 0, 1 | 2, 3 into the lower half
	}
	t.BROADCAST(at(R9, 0, nil, 0), Y12)
	t.ADD(Y12, Y0, Y0)                                                          // y[h*m+i…] = b[h] + s
	pick(t, VMOVUPS, VMOVUPD)(pick[VecPhysical](t, X0, Y0), at(RBX, 0, nil, 0)) // four outputs
}

// outputBackward emits outputBackwardF32 or outputBackwardF64: the output
// layer's backward pass in one kernel, where the kernels it replaces (each
// head's linearBackwardWeights and linearBackwardInput, then mul and
// reluBackward over all of dx, then the column sums of dx) made 2·heads + 3
// passes. For each head h, db[h] += dy[h*m+i] over the rows i; then for
// each vector of the head's k columns, with dw, colsum and w in registers,
// for each row i, with d = dy[h*m+i] broadcast in Y14:
//
//	dw += d·x (an FMA: the chain of each dw element runs over the rows in
//	order, as gemmBcast1's did)
//	dx = d·w (an FMA onto zero, as gemmBcast's k = 1 product), ·mask if
//	any, AND (0 < act) if any; colsum += dx if any, in row order too
//
// so that dw and colsum are loaded and stored once per column, not once
// per row: a row's only store is dx. The rows go in blocks of obBlock,
// each block over all heads and columns, so that a column's walk down the
// rows of x, act, mask and dx stays in L1 for the next column of the same
// cache lines; the chains continue from block to block. The last k mod lanes columns of a
// head are the last whole vector of the head moved back to end at k,
// which recomputes dx, dw and colsum where it overlaps the one before,
// from the same d, x and w and from dw and colsum as they were before the
// vector before stored (loaded into Y6 and Y7 when the head starts), so
// that both store the same values there: AVX2's masked stores are slow,
// and a load after that store would wait for it. Only a head narrower
// than a vector takes a masked vector (mask in Y15). The loops are emitted
// once for each combination of nil and non-nil mask, act and colsum, so
// that no vector tests them. With AVX-512 the vectors are ZMM, and the
// last k mod lanes columns of every head a vector masked by K1, whose
// stores cost no more than others.
//
// A nil mask with a keep other than 0 is the trainer's own dropout, x =
// act·mask with a mask of 0s and keeps, under a ReLU (act not nil): dx is
// then keep·d·w where 0 < x, the units kept and active, and +0 elsewhere
// (keptBackward), read off x alone, so that neither the mask nor act, each
// as large as x, is streamed through the cache.
func outputBackward(t elem) {
	l := kernel(t.name("outputBackward"))
	local := AllocLocal(64)
	o := obLocals{tailBytes: local.Offset(0), back: local.Offset(8), rowBytes: local.Offset(16), dyHead: local.Offset(24), db: local.Offset(32),
		i0: local.Offset(40), blockRows: local.Offset(48), blockBase: local.Offset(56)}
	lanes := t.lanes()

	Load(Param("k"), obKV)
	MOVQ(obKV, RCX)
	ANDQ(U8(lanes-1), RCX)
	SUBQ(RCX, obKV)
	// The k mod lanes of a head narrower than a vector (AVX2), or of any
	// head's last vector (AVX-512).
	if t.z() {
		kmask(RCX, obRow, K1)
	} else {
		mask(t, RCX, Y15, X15)
	}
	SHLQ(U8(t.shift()), RCX)
	MOVQ(RCX, o.tailBytes)
	SHLQ(U8(t.shift()), obKV)
	LEAQ(at(RCX, -32, obKV, 1), RCX)
	MOVQ(RCX, o.back) // k·size − 32: where a moved-back vector starts
	Load(Param("k"), RCX)
	Load(Param("heads"), obHeads)
	IMULQ(obHeads, RCX)
	SHLQ(U8(t.shift()), RCX)
	MOVQ(RCX, o.rowBytes)
	MOVQ(U32(0), o.i0)
	for i, name := range []string{"x", "dx", "mask", "act", "colsum", "w", "dw"} {
		Load(Param(name), []GPPhysical{obX, obDX, obMask, obAct, obCol, obW, obDW}[i])
	}
	t.XOR(t.v(13), t.v(13), t.v(13)) // zero
	t.BROADCAST(arg("keep"), obKeep(t))
	o.variants(t, l, obVariant{}, 0)
}

// obKeep is the register of outputBackward's keep: one that neither form
// uses otherwise, with AVX-512 the one after chunk512's weights, dw and
// colsum.
func obKeep(t elem) VecPhysical {
	if t.z() {
		return t.v(16 + 3*obChunk)
	}
	return Y8
}

// The registers of outputBackward.
var (
	obJ     = RAX // byte offset of the column: into w, dw and colsum, and row 0 of x, dx, mask and act
	obRow   = RBX // byte offset of the column in the current row of x, dx, mask and act
	obEnd   = RCX // where the head's whole vectors end in w
	obCol   = RDX // colsum, or nil
	obDY    = RSI // &dy[h*m+i]
	obRows  = RDI // rows left
	obX     = R8
	obDX    = R9
	obMask  = R10 // mask, or nil
	obAct   = R11 // act, or nil
	obW     = R12
	obDW    = R13
	obHeads = R14 // heads left
	obKV    = R15 // k rounded down to whole vectors, in bytes
)

// obBlock is how many rows outputBackward takes at a time.
const obBlock = 32

// obLocals holds outputBackward's locals.
type obLocals struct {
	tailBytes, back, rowBytes Mem // (k mod lanes)·size, k·size − 32, heads·k·size
	dyHead, db                Mem // &dy[h*m+i0], &db[h]
	i0, blockRows, blockBase  Mem // the block's first row, its rows, i0·rowBytes
}

// obVariant is one of outputBackward's loops: which of mask (dropout), act
// (relu) and colsum are not nil, and whether the mask is read off x
// (drawn: mask nil, keep not 0).
type obVariant struct{ dropout, relu, colsum, drawn bool }

// variants emits the loops of every variant that agrees with v on the
// first level operands, testing the others from level on.
func (o obLocals) variants(t elem, l labels, v obVariant, level int) {
	if level == 3 {
		o.headsLoop(t, l, v)
		return
	}
	if level == 0 {
		// Without a mask, keep's bits other than 0 select the mask read
		// off x.
		drawn := v
		drawn.drawn = true
		TESTQ(obMask, obMask)
		JNZ(l.L("vM_0"))
		if t.size == 4 {
			MOVL(arg("keep"), ECX)
		} else {
			MOVQ(arg("keep"), RCX)
		}
		TESTQ(RCX, RCX)
		JNZ(l.L("vD_0"))
		o.variants(t, l, v, 1)
		l.Set("vD_0")
		o.variants(t, l, drawn, 1)
		l.Set("vM_0")
		v.dropout = true
		o.variants(t, l, v, 1)
		return
	}
	reg := []GPPhysical{obMask, obAct, obCol}[level]
	set := v
	switch level {
	case 0:
		set.dropout = true
	case 1:
		set.relu = true
	case 2:
		set.colsum = true
	}
	TESTQ(reg, reg)
	JNZ(l.L(set.name() + "_" + string(rune('0'+level))))
	o.variants(t, l, v, level+1)
	l.Set(set.name() + "_" + string(rune('0'+level)))
	o.variants(t, l, set, level+1)
}

// name is the prefix of v's labels.
func (v obVariant) name() string {
	n := "v"
	for i, on := range []bool{v.dropout, v.drawn, v.relu, v.colsum} {
		if on {
			n += string("MDRC"[i])
		}
	}
	return n
}

// headsLoop emits outputBackward's loops over the blocks of rows, the
// heads and their columns for the variant v, and its return.
func (o obLocals) headsLoop(t elem, l labels, v obVariant) {
	p := v.name()
	l.Set(p + "block")
	Load(Param("m"), RCX)
	SUBQ(o.i0, RCX)
	MOVQ(U32(obBlock), obRows)
	CMPQ(RCX, obRows)
	CMOVQLT(RCX, obRows)
	MOVQ(obRows, o.blockRows) // min(obBlock, m − i0)
	MOVQ(o.i0, RCX)
	IMULQ(o.rowBytes, RCX)
	MOVQ(RCX, o.blockBase)
	MOVQ(o.i0, RCX)
	SHLQ(U8(t.shift()), RCX)
	Load(Param("dy"), obDY)
	ADDQ(obDY, RCX)
	MOVQ(RCX, o.dyHead)
	Load(Param("db"), RCX)
	MOVQ(RCX, o.db)
	Load(Param("heads"), obHeads)
	XORQ(obJ, obJ)

	l.Set(p + "head")
	// db[h] += dy[h*m+i] over the block's rows, in order.
	MOVQ(o.dyHead, obDY)
	MOVQ(o.db, obEnd)
	pick(t, VMOVSS, VMOVSD)(at(obEnd, 0, nil, 0), X0)
	MOVQ(o.blockRows, obRows)
	l.Set(p + "db")
	pick(t, VADDSS, VADDSD)(at(obDY, 0, nil, 0), X0, X0)
	ADDQ(U8(t.size), obDY)
	DECQ(obRows)
	JNZ(l.L(p + "db"))
	pick(t, VMOVSS, VMOVSD)(X0, at(obEnd, 0, nil, 0))

	if !t.z() {
		CMPQ(o.tailBytes, U8(0))
		JEQ(l.L(p + "whole"))
		TESTQ(obKV, obKV)
		JZ(l.L(p + "whole"))
		// The moved-back vector's dw and colsum, before the vector before stores.
		MOVQ(o.back, obEnd)
		ADDQ(obJ, obEnd)
		t.MOVU(at(obDW, 0, obEnd, 1), Y6)
		if v.colsum {
			t.MOVU(at(obCol, 0, obEnd, 1), Y7)
		}
		l.Set(p + "whole")
	}
	if t.z() {
		o.chunks512(t, l, p, v)
	} else {
		LEAQ(at(obJ, 0, obKV, 1), obEnd)

		l.Set(p + "vec")
		CMPQ(obJ, obEnd)
		JGE(l.L(p + "tail"))
		o.column(t, l, p+"v", 0, v)
		ADDQ(U8(t.vec), obJ)
		JMP(l.L(p + "vec"))

		l.Set(p + "tail")
		CMPQ(o.tailBytes, U8(0))
		JEQ(l.L(p + "next"))
		TESTQ(obKV, obKV)
		JZ(l.L(p + "narrow"))
		// The vector ending at k: back by 32 − tail bytes.
		ADDQ(o.tailBytes, obJ)
		SUBQ(U8(32), obJ)
		o.column(t, l, p+"b", 1, v)
		ADDQ(U8(32), obJ)
		JMP(l.L(p + "next"))
		l.Set(p + "narrow")
		o.column(t, l, p+"n", 2, v)
		ADDQ(o.tailBytes, obJ)
	}

	l.Set(p + "next")
	Load(Param("m"), obEnd)
	SHLQ(U8(t.shift()), obEnd)
	ADDQ(obEnd, o.dyHead)
	ADDQ(U8(t.size), o.db)
	DECQ(obHeads)
	JNZ(l.L(p + "head"))
	ADDQ(U32(obBlock), o.i0)
	Load(Param("m"), RCX)
	CMPQ(o.i0, RCX)
	JLT(l.L(p + "block"))
	vzeroupper(highRegs(t, 16, 16+3*obChunk+1)...) // and obKeep
	RET()
}

// obChunk is how many ZMM of a head's columns outputBackward's AVX-512
// form takes at a time.
const obChunk = 4

// chunks512 emits the columns of one head for outputBackward's AVX-512
// form, whose 32 registers hold the weights, dw and colsum of obChunk
// vectors (64 float32 columns): chunks of obChunk vectors while as many
// columns are left, then one chunk whose vectors are masked by K1–K4 to
// the columns left (the last of them partial, those past it empty). Each
// row of the block is then one contiguous run of the head's columns in
// x, mask, act and dx, where one vector per row would touch two cache
// lines of each for sixteen columns.
func (o obLocals) chunks512(t elem, l labels, p string, v obVariant) {
	rem, cnt, scratch := RSI, RBX, RDI // free until chunk512 sets obDY, obRow, obRows
	lanes := t.lanes()
	MOVQ(o.tailBytes, obEnd)
	ADDQ(obKV, obEnd)
	ADDQ(obJ, obEnd) // where the head's columns end

	l.Set(p + "chunk")
	MOVQ(obEnd, rem)
	SUBQ(obJ, rem)
	CMPQ(rem, U32(obChunk*t.vec))
	JLT(l.L(p + "last"))
	o.chunk512(t, l, p+"c", false, v)
	ADDQ(U32(obChunk*t.vec), obJ)
	JMP(l.L(p + "chunk"))

	l.Set(p + "last")
	TESTQ(rem, rem)
	JLE(l.L(p + "next"))
	SHRQ(U8(t.shift()), rem) // columns left, < obChunk·lanes
	for i := 0; i < obChunk; i++ {
		// Vector i: min(max(rem − i·lanes, 0), lanes) lanes.
		MOVQ(rem, cnt)
		SUBQ(U8(i*lanes), cnt)
		XORL(scratch.As32(), scratch.As32())
		CMPQ(cnt, scratch)
		CMOVQLT(scratch, cnt)
		MOVL(U32(lanes), scratch.As32())
		CMPQ(cnt, scratch)
		CMOVQGT(scratch, cnt)
		kmask(cnt, scratch, []Op{K1, K2, K3, K4}[i])
	}
	o.chunk512(t, l, p+"m", true, v)
	MOVQ(obEnd, obJ)
	// The caller's label p+"next" follows.
}

// chunk512 emits one chunk of obChunk vectors of columns at column offset
// obJ over the block's rows, for outputBackward's variant v, each vector
// masked by K1–K4 if masked: the same arithmetic, element by element and
// row by row, as column's.
func (o obLocals) chunk512(t elem, l labels, p string, masked bool, v obVariant) {
	w, dw, col := func(i int) VecPhysical { return t.v(16 + i) }, func(i int) VecPhysical { return t.v(20 + i) },
		func(i int) VecPhysical { return t.v(24 + i) }
	d, zero := t.v(14), t.v(13)
	k := []Op{K1, K2, K3, K4}
	load := func(base, off GPPhysical, i int, dst VecPhysical) {
		if masked {
			t.maskLoad(at(base, t.vec*i, off, 1), k[i], dst)
		} else {
			t.MOVU(at(base, t.vec*i, off, 1), dst)
		}
	}
	store := func(src VecPhysical, base, off GPPhysical, i int) {
		if masked {
			t.maskStore(src, k[i], at(base, t.vec*i, off, 1))
		} else {
			t.MOVU(src, at(base, t.vec*i, off, 1))
		}
	}
	for i := 0; i < obChunk; i++ {
		load(obW, obJ, i, w(i))
		load(obDW, obJ, i, dw(i))
		if v.colsum {
			load(obCol, obJ, i, col(i))
		}
	}
	MOVQ(obJ, obRow)
	ADDQ(o.blockBase, obRow)
	MOVQ(o.dyHead, obDY)
	MOVQ(o.blockRows, obRows)

	l.Set(p + "row")
	t.BROADCAST(at(obDY, 0, nil, 0), d)
	for i := 0; i < obChunk; i++ {
		x, dx, tmp := t.v(i), t.v(4+i), t.v(8+i)
		load(obX, obRow, i, x)
		t.FMADD231(x, d, dw(i)) // dw += d·x
		t.MOVA(w(i), dx)
		pick(t, VFMADD213PS, VFMADD213PD)(zero, d, dx) // dx = d·w + 0
		if v.drawn {
			t.CMP(U8(0x11), x, zero, K6)                       // 0 < x: kept and active
			pick(t, VMULPS_Z, VMULPD_Z)(obKeep(t), dx, K6, dx) // dx·keep there, +0 elsewhere
		} else {
			if v.dropout {
				load(obMask, obRow, i, tmp)
				t.MUL(tmp, dx, dx)
			}
			if v.relu {
				load(obAct, obRow, i, tmp)
				t.CMP(U8(0x11), tmp, zero, K5) // 0 < act (false for NaN)
				t.MOVU_Z(dx, K5, dx)
			}
		}
		store(dx, obDX, obRow, i)
		if v.colsum {
			t.ADD(dx, col(i), col(i)) // colsum += dx
		}
	}
	ADDQ(o.rowBytes, obRow)
	ADDQ(U8(t.size), obDY)
	DECQ(obRows)
	JNZ(l.L(p + "row"))

	for i := 0; i < obChunk; i++ {
		store(dw(i), obDW, obJ, i)
		if v.colsum {
			store(col(i), obCol, obJ, i)
		}
	}
}

// column emits one vector of columns of outputBackward's variant v at
// column offset obJ, over all rows, with labels prefixed by p: a whole one
// (kind 0), one moved back over the vector before, with its dw in Y6 and
// colsum in Y7 (1), or the masked vector of a narrow head, or with
// AVX-512 of any head's last columns (2, masked by Y15 or K1).
func (o obLocals) column(t elem, l labels, p string, kind int, v obVariant) {
	mk := Op(Y15)
	if t.z() {
		mk = K1
	}
	load := func(base, off GPPhysical, dst VecPhysical) {
		if kind == 2 {
			t.maskLoad(at(base, 0, off, 1), mk, dst)
		} else {
			t.MOVU(at(base, 0, off, 1), dst)
		}
	}
	store := func(src VecPhysical, base, off GPPhysical) {
		if kind == 2 {
			t.maskStore(src, mk, at(base, 0, off, 1))
		} else {
			t.MOVU(src, at(base, 0, off, 1))
		}
	}
	dw, col := Y6, Y7
	if kind != 1 {
		dw, col = t.v(1), t.v(5)
		load(obDW, obJ, dw)
		if v.colsum {
			load(obCol, obJ, col)
		}
	}
	load(obW, obJ, t.v(2))
	MOVQ(obJ, obRow)
	ADDQ(o.blockBase, obRow)
	MOVQ(o.dyHead, obDY)
	MOVQ(o.blockRows, obRows)

	l.Set(p + "row")
	t.BROADCAST(at(obDY, 0, nil, 0), t.v(14))
	load(obX, obRow, t.v(0))
	t.FMADD231(t.v(0), t.v(14), dw) // dw += d·x
	t.MOVA(t.v(2), t.v(3))
	pick(t, VFMADD213PS, VFMADD213PD)(t.v(13), t.v(14), t.v(3)) // dx = d·w + 0
	if v.drawn {
		// dx·keep where 0 < x, kept and active, +0 elsewhere
		if t.z() {
			t.CMP(U8(0x11), t.v(0), t.v(13), K2)
			pick(t, VMULPS_Z, VMULPD_Z)(obKeep(t), t.v(3), K2, t.v(3))
		} else {
			t.CMP(U8(0x11), Y0, Y13, Y4)
			t.MUL(obKeep(t), Y3, Y3)
			t.AND(Y4, Y3, Y3)
		}
	}
	if v.dropout {
		load(obMask, obRow, t.v(4))
		t.MUL(t.v(4), t.v(3), t.v(3))
	}
	if v.relu && !v.drawn {
		load(obAct, obRow, t.v(4))
		if t.z() {
			t.CMP(U8(0x11), t.v(4), t.v(13), K2) // 0 < act (false for NaN)
			t.MOVU_Z(t.v(3), K2, t.v(3))
		} else {
			t.CMP(U8(0x11), Y4, Y13, Y4)
			t.AND(Y4, Y3, Y3)
		}
	}
	store(t.v(3), obDX, obRow)
	if v.colsum {
		t.ADD(t.v(3), col, col) // colsum += dx
	}
	ADDQ(o.rowBytes, obRow)
	ADDQ(U8(t.size), obDY)
	DECQ(obRows)
	JNZ(l.L(p + "row"))

	store(dw, obDW, obJ)
	if v.colsum {
		store(col, obCol, obJ)
	}
}
