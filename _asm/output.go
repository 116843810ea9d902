package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// outputForward emits outputForwardF32 or outputForwardF64: the output
// layer, one dot product of length k per row and head, along the
// contiguous k: four vectors per step in Y0–Y3, then steps of one vector
// into Y0, and the last k mod lanes elements as a masked step into Y1 (the
// mask, made once, waits in Y15). Rows go one at a time, the heads of a
// row one after another; their dot products are independent, so the
// out-of-order core overlaps them.
func outputForward(t elem) {
	var (
		j     = RAX // element j of the dot product
		yp    = RBX // &y[h*m+i]
		mb    = RCX // m·size: the distance between two heads' outputs
		kv    = RDX // k rounded down to a whole vector
		row   = RSI // &x[i*ldx]
		xp    = RDI // &x[i*ldx+h*k]
		wp    = R8  // &w[h*k]
		bp    = R9  // &b[h]
		yi    = R10 // &y[i]
		kwide = R11 // kv − 4 vectors: the last j of a wide step
		rows  = R12 // rows left
		heads = R13 // heads left in this row
		kb    = R14 // k·size: the distance between two heads' inputs and weights
	)
	l := kernel(t.name("outputForward"))
	lanes := t.lanes()
	scale := uint8(t.size)

	Load(Param("k"), kv)
	MOVQ(kv, kb)
	SHLQ(U8(t.shift()), kb)
	MOVQ(kv, RCX)
	ANDQ(U8(lanes-1), RCX)
	SUBQ(RCX, kv)
	mask(t, RCX, Y15, X15) // the mask of the last k mod lanes
	LEAQ(at(kv, -4*lanes, nil, 0), kwide)
	Load(Param("m"), rows)
	MOVQ(rows, mb)
	SHLQ(U8(t.shift()), mb)
	Load(Param("x"), row)
	Load(Param("y"), yi)

	l.Set("row")
	MOVQ(row, xp)
	Load(Param("w"), wp)
	Load(Param("b"), bp)
	MOVQ(yi, yp)
	Load(Param("heads"), heads)

	l.Set("head")
	for i := 0; i < 4; i++ {
		t.XOR(y(i), y(i), y(i))
	}
	XORQ(j, j)

	// s += x[j:j+4·lanes] · w[j:j+4·lanes]
	l.Set("wide")
	CMPQ(j, kwide)
	JGT(l.L("vec"))
	for i := 0; i < 4; i++ {
		t.MOVU(at(xp, 32*i, j, scale), y(4+i))
	}
	for i := 0; i < 4; i++ {
		t.FMADD231(at(wp, 32*i, j, scale), y(4+i), y(i))
	}
	ADDQ(U8(4*lanes), j)
	JMP(l.L("wide"))

	// s += x[j:j+lanes] · w[j:j+lanes]
	l.Set("vec")
	CMPQ(j, kv)
	JGE(l.L("tail"))
	t.MOVU(at(xp, 0, j, scale), Y4)
	t.FMADD231(at(wp, 0, j, scale), Y4, Y0)
	ADDQ(U8(lanes), j)
	JMP(l.L("vec"))

	// s += x[j:k] · w[j:k]
	l.Set("tail")
	CMPQ(kv, arg("k"))
	JEQ(l.L("sum"))
	t.MASKMOV(at(xp, 0, j, scale), Y15, Y4)
	t.MASKMOV(at(wp, 0, j, scale), Y15, Y5)
	t.FMADD231(Y5, Y4, Y1)

	l.Set("sum")
	sum4(t)
	hsum(t)
	pick(t, VADDSS, VADDSD)(at(bp, 0, nil, 0), X0, X0) // y[h*m+i] = b[h] + s
	pick(t, VMOVSS, VMOVSD)(X0, at(yp, 0, nil, 0))
	ADDQ(kb, xp)
	ADDQ(kb, wp)
	ADDQ(U8(t.size), bp)
	ADDQ(mb, yp)
	DECQ(heads)
	JNZ(l.L("head"))
	Load(Param("ldx"), j)
	LEAQ(at(row, 0, j, scale), row)
	ADDQ(U8(t.size), yi)
	DECQ(rows)
	JNZ(l.L("row"))
	VZEROUPPER()
	RET()
}

// outputBackward emits outputBackwardF32 or outputBackwardF64: the output
// layer's backward pass in one sweep over the rows, where the kernels it
// replaces (each head's linearBackwardWeights and linearBackwardInput,
// then mul and reluBackward over all of dx, then the column sums of dx)
// made 2·heads + 3 passes. For row i and head h, with d = dy[h*m+i]
// broadcast in Y14, each vector of the head's k columns does
//
//	dw += d·x (one FMA onto dw, which stays in L1: the chain of each dw
//	element runs over the rows in order, as gemmBcast1's did)
//	dx = d·w (an FMA onto zero, as gemmBcast's k = 1 product), ·mask if
//	any, AND (0 < act) if any; colsum += dx if any, in row order too
//
// and db[h] += d. x, dx, mask and act advance together, contiguously over
// the rows and heads; w, dw and colsum restart with each row. The last k
// mod lanes columns of a head are the last whole vector of the head moved
// back to end at k, which recomputes dx, dw and colsum where it overlaps
// the one before, from the same d, x and w and from dw and colsum as they
// were before the vector before stored (loaded into Y6 and Y7 when the
// head starts), so that both store the same values there: AVX2's masked
// stores are slow, and a load after that store would wait for it. Only a
// head narrower than a vector takes a masked vector (mask in Y15). The
// loops are emitted once for each combination of nil and non-nil mask,
// act and colsum, so that no vector tests them.
func outputBackward(t elem) {
	l := kernel(t.name("outputBackward"))
	local := AllocLocal(40)
	o := obLocals{tailBytes: local.Offset(0), mBytes: local.Offset(8), dyRow: local.Offset(16), back: local.Offset(24), rows: local.Offset(32)}
	lanes := t.lanes()

	Load(Param("k"), obKV)
	MOVQ(obKV, RCX)
	ANDQ(U8(lanes-1), RCX)
	SUBQ(RCX, obKV)
	mask(t, RCX, Y15, X15) // the k mod lanes of a head narrower than a vector
	SHLQ(U8(t.shift()), RCX)
	MOVQ(RCX, o.tailBytes)
	SHLQ(U8(t.shift()), obKV)
	LEAQ(at(RCX, -32, obKV, 1), RCX)
	MOVQ(RCX, o.back) // k·size − 32: where a moved-back vector starts
	Load(Param("m"), RCX)
	MOVQ(RCX, o.rows)
	SHLQ(U8(t.shift()), RCX)
	MOVQ(RCX, o.mBytes)
	Load(Param("dy"), RCX)
	MOVQ(RCX, o.dyRow)
	for i, name := range []string{"x", "dx", "mask", "act", "colsum", "w", "dw"} {
		Load(Param(name), []GPPhysical{obX, obDX, obMask, obAct, obCol, obW, obDW}[i])
	}
	t.XOR(Y13, Y13, Y13) // zero
	XORQ(obXO, obXO)
	o.variants(t, l, obVariant{}, 0)
}

// The registers of outputBackward.
var (
	obXO    = RAX // byte offset into x, dx, mask and act
	obWO    = RBX // byte offset into w, dw and colsum
	obEnd   = RCX // where the head's whole vectors end in w
	obCol   = RDX // colsum, or nil
	obDY    = RSI // &dy[h*m+i]
	obDB    = RDI // &db[h]
	obX     = R8
	obDX    = R9
	obMask  = R10 // mask, or nil
	obAct   = R11 // act, or nil
	obW     = R12
	obDW    = R13
	obHeads = R14 // heads left in this row
	obKV    = R15 // k rounded down to whole vectors, in bytes
)

// obLocals holds outputBackward's locals.
type obLocals struct {
	tailBytes, mBytes, dyRow, back, rows Mem // (k mod lanes)·size, m·size, &dy[i], k·size − 32, rows left
}

// obVariant is one of outputBackward's loops: which of mask (dropout), act
// (relu) and colsum are not nil.
type obVariant struct{ dropout, relu, colsum bool }

// variants emits the loops of every variant that agrees with v on the
// first level operands, testing the others from level on.
func (o obLocals) variants(t elem, l labels, v obVariant, level int) {
	if level == 3 {
		o.rowsLoop(t, l, v)
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
	for i, on := range []bool{v.dropout, v.relu, v.colsum} {
		if on {
			n += string("MRC"[i])
		}
	}
	return n
}

// rowsLoop emits outputBackward's loops over the rows and heads for the
// variant v, and its return.
func (o obLocals) rowsLoop(t elem, l labels, v obVariant) {
	scale := uint8(t.size)
	p := v.name()
	l.Set(p + "row")
	MOVQ(o.dyRow, obDY)
	Load(Param("db"), obDB)
	Load(Param("heads"), obHeads)
	XORQ(obWO, obWO)

	l.Set(p + "head")
	t.BROADCAST(at(obDY, 0, nil, 0), Y14)
	pick(t, VMOVSS, VMOVSD)(at(obDB, 0, nil, 0), X0)
	pick(t, VADDSS, VADDSD)(at(obDY, 0, nil, 0), X0, X0) // db[h] += d
	pick(t, VMOVSS, VMOVSD)(X0, at(obDB, 0, nil, 0))
	CMPQ(o.tailBytes, U8(0))
	JEQ(l.L(p + "whole"))
	TESTQ(obKV, obKV)
	JZ(l.L(p + "whole"))
	// The moved-back vector's dw and colsum, before the vector before stores.
	MOVQ(o.back, obEnd)
	ADDQ(obWO, obEnd)
	t.MOVU(at(obDW, 0, obEnd, 1), Y6)
	if v.colsum {
		t.MOVU(at(obCol, 0, obEnd, 1), Y7)
	}
	l.Set(p + "whole")
	LEAQ(at(obWO, 0, obKV, 1), obEnd)

	l.Set(p + "vec")
	CMPQ(obWO, obEnd)
	JGE(l.L(p + "tail"))
	obVector(t, 0, v)
	ADDQ(U8(32), obXO)
	ADDQ(U8(32), obWO)
	JMP(l.L(p + "vec"))

	l.Set(p + "tail")
	CMPQ(o.tailBytes, U8(0))
	JEQ(l.L(p + "next"))
	TESTQ(obKV, obKV)
	JZ(l.L(p + "narrow"))
	// The vector ending at k: back by 32 − tail bytes.
	ADDQ(o.tailBytes, obXO)
	ADDQ(o.tailBytes, obWO)
	SUBQ(U8(32), obXO)
	SUBQ(U8(32), obWO)
	obVector(t, 1, v)
	ADDQ(U8(32), obXO)
	ADDQ(U8(32), obWO)
	JMP(l.L(p + "next"))
	l.Set(p + "narrow")
	obVector(t, 2, v)
	ADDQ(o.tailBytes, obXO)
	ADDQ(o.tailBytes, obWO)

	l.Set(p + "next")
	ADDQ(o.mBytes, obDY)
	ADDQ(U8(scale), obDB)
	DECQ(obHeads)
	JNZ(l.L(p + "head"))
	ADDQ(U8(scale), o.dyRow)
	DECQ(o.rows)
	JNZ(l.L(p + "row"))
	VZEROUPPER()
	RET()
}

// obVector emits one vector of outputBackward's variant v at offsets obXO
// and obWO: a whole one (kind 0), one moved back over the vector before,
// with its dw in Y6 and colsum in Y7 (1), or the masked vector of a
// narrow head (2).
func obVector(t elem, kind int, v obVariant) {
	load := func(base, off GPPhysical, dst VecPhysical) {
		if kind == 2 {
			t.MASKMOV(at(base, 0, off, 1), Y15, dst)
		} else {
			t.MOVU(at(base, 0, off, 1), dst)
		}
	}
	store := func(src VecPhysical, base, off GPPhysical) {
		if kind == 2 {
			t.MASKMOV(src, Y15, at(base, 0, off, 1))
		} else {
			t.MOVU(src, at(base, 0, off, 1))
		}
	}
	dw, col := Y6, Y7
	if kind != 1 {
		dw, col = Y1, Y3
		load(obDW, obWO, dw)
	}
	load(obX, obXO, Y0)
	t.FMADD231(Y0, Y14, dw) // dw += d·x
	store(dw, obDW, obWO)
	load(obW, obWO, Y2)
	pick(t, VFMADD213PS, VFMADD213PD)(Y13, Y14, Y2) // dx = d·w + 0
	if v.dropout {
		load(obMask, obXO, Y4)
		t.MUL(Y4, Y2, Y2)
	}
	if v.relu {
		load(obAct, obXO, Y4)
		t.CMP(U8(0x11), Y4, Y13, Y4) // 0 < act (false for NaN)
		t.AND(Y4, Y2, Y2)
	}
	store(Y2, obDX, obXO)
	if v.colsum {
		if kind != 1 {
			load(obCol, obWO, col)
		}
		t.ADD(Y2, col, col) // colsum += dx
		store(col, obCol, obWO)
	}
}
