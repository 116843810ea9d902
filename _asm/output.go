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
