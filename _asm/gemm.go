package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The matrix kernels work on tiles of C held in YMM accumulators. A tile
// whose rows run past the matrix repeats its last row (the duplicate rows
// compute and store the same values, after every load of C), and a tile
// whose columns run past it uses masked loads and stores (VMASKMOVPS reads
// zeros and writes nothing in the masked-out lanes, and never faults).
//
// ReLU is max(0, s) with the accumulator as the second operand, which
// VMAXPS returns when either is NaN, so NaN stays NaN as in Go's max; the
// following +0 turns a −0 into +0, again as Go's max(−0, 0) does.

// Flags of the matrix kernels, as simd_asm.go defines them.
const (
	gemmBias  = 1
	gemmAccum = 2
	gemmReLU  = 4
)

var lanesTable = map[int]Mem{}

// lanesOf returns the table of lane numbers 0, 1, … of t's integer width,
// to build the masks of partial vectors: lane l is active when l < the
// number of elements left.
func lanesOf(t elem) Mem {
	if m, ok := lanesTable[t.size]; ok {
		return m
	}
	m := GLOBL(pick(t, "lanes32", "lanes64"), RODATA|NOPTR)
	for i := 0; i < 128/t.size; i++ {
		DATA(i*t.size, pick[Constant](t, U32(i), U64(i)))
	}
	lanesTable[t.size] = m
	return m
}

// mask sets dst to the mask of the first cnt lanes (cnt in a GP register,
// 0 < cnt), through the XMM register of dst.
func mask(t elem, cnt GPPhysical, dst, dstX VecPhysical) {
	VMOVQ(cnt, dstX)
	t.PBROADCAST(dstX, dst)
	t.PCMPGT(lanesOf(t), dst, dst) // lane l active when l < cnt
}

// relu applies max(0, s) to the accumulators acc, with zero a scratch
// register: max(0, s) is s if NaN, and −0 + 0 = +0.
func relu(t elem, zero VecPhysical, acc []VecPhysical) {
	t.XOR(zero, zero, zero)
	for _, a := range acc {
		t.MAX(a, zero, a)
	}
	for _, a := range acc {
		t.ADD(zero, a, a)
	}
}

func yRange(from, to int) []VecPhysical {
	var r []VecPhysical
	for i := from; i < to; i++ {
		r = append(r, y(i))
	}
	return r
}

// rowPtr sets dst = &row r of a tile: src + stride, unless r is past the
// rows left (in CX), when dst = src; scratch is clobbered.
func rowPtr(src, dst, stride, scratch GPPhysical, r int) {
	if src != dst {
		MOVQ(src, dst)
	}
	LEAQ(at(src, 0, stride, 1), scratch)
	CMPQ(RCX, U8(r))
	CMOVQGT(scratch, dst)
}

// rowAddr sets dst = &base[i·ld] for the slice parameter base, its
// leading dimension ld and the row i at iMem, leaving ld in bytes in
// stride; scratch is clobbered.
func rowAddr(t elem, base, ld string, iMem Mem, stride, scratch, dst GPPhysical) {
	MOVQ(arg(ld), stride)
	SHLQ(U8(t.shift()), stride)
	MOVQ(iMem, scratch)
	IMULQ(stride, scratch)
	MOVQ(arg(base), dst)
	ADDQ(scratch, dst)
}

// nextRows advances the row i at iMem by rows, in scratch, and loops to
// the label rows while i < m.
func nextRows(l labels, iMem Mem, rows int, scratch GPPhysical) {
	l.Set("nextrows")
	MOVQ(iMem, scratch)
	ADDQ(U8(rows), scratch)
	MOVQ(scratch, iMem)
	CMPQ(scratch, arg("m"))
	JLT(l.L("rows"))
}

// bcastLoop emits the loop over q of a broadcast kernel's tile, whose
// labels are prefixed by p: init sets up the pointers, then step runs k
// times (none for k = 0), each followed by b += ldb, counted down in cnt;
// then, at p+"store", the test of gemmReLU, which jumps to p+"write"
// without it.
func bcastLoop(l labels, p string, init, step func(), b, ldb, cnt GPPhysical) {
	l.Set(p + "init")
	init()
	Load(Param("k"), cnt)
	TESTQ(cnt, cnt)
	JZ(l.L(p + "store"))

	l.Set(p + "loop")
	step()
	ADDQ(ldb, b)
	DECQ(cnt)
	JNZ(l.L(p + "loop"))

	l.Set(p + "store")
	MOVQ(arg("flags"), RCX)
	TESTQ(U32(gemmReLU), RCX)
	JZ(l.L(p + "write"))
}

// gemmBcast emits gemmBcastF32 or gemmBcastF64: six rows of C by vecs
// vectors of columns per tile, the accumulators from register 0 (row r in
// vecs·r …), B(q, j:j+vecs·lanes) in the registers from bReg and the
// broadcast A(i+r, q) in the two registers from bcReg. With AVX2, two
// YMM of columns (twelve accumulators, B in 12–13, A in 14–15), and the
// columns left over in masked chunks of one vector (mask in Y13). With
// AVX-512, four ZMM (24 accumulators, B in 24–27, A in 28–29), and the
// columns left over as one tile of as many vectors as they need, the last
// masked by K1.
func gemmBcast(t elem) {
	const rows = 6
	var (
		aRow = []GPPhysical{RSI, RDI, R8, R9, R10, R11} // &A(i+r, 0) for the rows of the tile
		q    = R12                                      // q·aqs·size: A's column offset
		aq   = R13                                      // aqs·size
		b    = RBX                                      // &B(q, j)
		ldb  = RDX                                      // ldb·size
		cnt  = RCX                                      // q iterations left
		j    = RAX                                      // column j
	)
	l := kernel(t.name("gemmBcast"))
	// Locals: &C(i+r, 0) for the six rows, then i.
	local := AllocLocal(64)
	cRow := func(r int) Mem { return local.Offset(8 * r) }
	iRow := local.Offset(48)
	lanes := t.lanes()
	scale := uint8(t.size)
	full, bReg, bcReg := 2, 12, 14
	if t.z() {
		full, bReg, bcReg = 4, 24, 28
	}

	Load(Param("ldb"), ldb)
	SHLQ(U8(t.shift()), ldb)
	MOVQ(U32(0), iRow)

	l.Set("rows")
	MOVQ(arg("m"), RCX)
	SUBQ(iRow, RCX)                                 // rows left, ≥ 1
	rowAddr(t, "a", "ars", iRow, R12, RAX, aRow[0]) // A0 = &A(i, 0)
	for r := 1; r < rows; r++ {
		rowPtr(aRow[r-1], aRow[r], R12, RAX, r)
	}
	rowAddr(t, "c", "ldc", iRow, R12, RAX, R13) // &C(i, 0)
	MOVQ(R13, cRow(0))
	for r := 1; r < rows; r++ {
		rowPtr(R13, R13, R12, RAX, r)
		MOVQ(R13, cRow(r))
	}
	MOVQ(arg("aqs"), aq)
	SHLQ(U8(t.shift()), aq)
	XORQ(j, j)

	// tile emits the tile of vecs vectors of columns from j, the last
	// masked (by Y13 or K1) if masked, with the labels of its parts
	// prefixed by p.
	tile := func(p string, vecs int, masked bool) {
		acc := func(r, v int) VecPhysical { return t.v(vecs*r + v) }
		var all []VecPhysical
		for i := 0; i < rows*vecs; i++ {
			all = append(all, t.v(i))
		}
		mask := Op(Y13)
		if t.z() {
			mask = K1
		}
		load := func(m Mem, dst VecPhysical, v int) {
			if masked && v == vecs-1 {
				t.maskLoad(m.Offset(t.vec*v), mask, dst)
			} else {
				t.MOVU(m.Offset(t.vec*v), dst)
			}
		}
		store := func(src VecPhysical, m Mem, v int) {
			if masked && v == vecs-1 {
				t.maskStore(src, mask, m.Offset(t.vec*v))
			} else {
				t.MOVU(src, m.Offset(t.vec*v))
			}
		}
		MOVQ(arg("flags"), RCX)
		TESTQ(U32(gemmBias), RCX)
		JNZ(l.L(p + "bias"))
		TESTQ(U32(gemmAccum), RCX)
		JNZ(l.L(p + "accum"))
		for _, a := range all {
			t.XOR(a, a, a)
		}
		JMP(l.L(p + "init"))

		l.Set(p + "bias")
		MOVQ(arg("bias"), RCX)
		for v := 0; v < vecs; v++ {
			load(at(RCX, 0, j, scale), acc(0, v), v) // every row starts from bias[j:]
		}
		for r := 1; r < rows; r++ {
			for v := 0; v < vecs; v++ {
				t.MOVA(acc(0, v), acc(r, v))
			}
		}
		JMP(l.L(p + "init"))

		l.Set(p + "accum")
		for r := 0; r < rows; r++ {
			MOVQ(cRow(r), RCX)
			for v := 0; v < vecs; v++ {
				load(at(RCX, 0, j, scale), acc(r, v), v) // C(i+r, j:)
			}
		}

		bcastLoop(l, p, func() {
			Load(Param("b"), b)
			LEAQ(at(b, 0, j, scale), b)
			XORQ(q, q)
		}, func() {
			// for r := range 6 { C(i+r, j:) += A(i+r, q) * B(q, j:) }
			for v := 0; v < vecs; v++ {
				load(at(b, 0, nil, 0), t.v(bReg+v), v)
			}
			for r := 0; r < rows; r += 2 {
				t.BROADCAST(at(aRow[r], 0, q, 1), t.v(bcReg))
				t.BROADCAST(at(aRow[r+1], 0, q, 1), t.v(bcReg+1))
				for h := 0; h < 2; h++ {
					for v := 0; v < vecs; v++ {
						t.FMADD231(t.v(bReg+v), t.v(bcReg+h), acc(r+h, v))
					}
				}
			}
			ADDQ(aq, q)
		}, b, ldb, cnt)
		relu(t, t.v(bReg), all)

		l.Set(p + "write")
		for r := 0; r < rows; r++ {
			MOVQ(cRow(r), RCX)
			for v := 0; v < vecs; v++ {
				store(acc(r, v), at(RCX, 0, j, scale), v)
			}
		}
		ADDQ(U8(vecs*lanes), j)
		JMP(l.L("cols"))
	}

	l.Set("cols")
	MOVQ(arg("n"), RCX)
	SUBQ(j, RCX)
	CMPQ(RCX, U8(full*lanes))
	JLT(l.L("tail"))
	// A full tile: C(i:i+6, j:j+full·lanes).
	tile("", full, false)

	l.Set("tail")
	CMPQ(RCX, U8(0))
	JLE(l.L("nextrows"))
	if t.z() {
		// CX = n − j < 4·lanes columns left: ⌈CX/lanes⌉ vectors, the
		// last one of ((CX−1) mod lanes) + 1 lanes.
		LEAQ(at(RCX, -1, nil, 0), R14)
		ANDQ(U8(lanes-1), R14)
		INCQ(R14)
		kmask(R14, R15, K1)
		for v := 1; v < full; v++ {
			CMPQ(RCX, U8(v*lanes))
			JLE(l.L("t" + itoa(v)))
		}
		for v := full; v >= 1; v-- {
			l.Set("t" + itoa(v))
			tile("t"+itoa(v), v, true)
		}
	} else {
		// CX = n − j < 2·lanes columns left: a masked chunk of one vector.
		mask(t, RCX, Y13, X13)
		tile("t", 1, true)
	}

	nextRows(l, iRow, rows, RAX)
	vzeroupper(highRegs(t, 0, bcReg+2)...)
	RET()
}

// gemmBcast1 emits gemmBcast1F32 or gemmBcast1F64: one row of C, the
// broadcast A(q) in one register and B read straight from memory by the
// FMAs. Every column is the same chain of k FMAs in q order, whichever of
// the paths below computes it.
//
// With AVX2, without gemmAccum (a layer's forward pass) and for n ≥ 13
// vectors: wide tiles of 13 vectors in Y0–Y12, the last one moved back to
// end at n, so that it recomputes (and stores again, unchanged) some
// columns of the one before instead of masking. Thirteen independent
// chains keep both FMA ports busy where eight chains of one tile, with the
// next tile's work too far ahead for the reorder buffer, leave them
// waiting on the FMA latency. Otherwise: tiles of 8 vectors in Y0–Y7. The
// columns past the last whole tile go first, one vector at a time in Y0,
// the last partial vector masked (mask Y8, B in Y12): a single vector is
// one dependent chain of k FMAs, which then overlaps the tiles' work
// instead of ending the kernel.
//
// With AVX-512 (gemmBcast1Wide), whose masked stores cost no more than
// others: tiles of 16 ZMM while they fit, then one tile of the vectors the
// columns left need, the last masked by K1, so that a row of up to 256
// float32 (the paper's networks' first layers) is one tile of independent
// chains.
func gemmBcast1(t elem) {
	var (
		a   = RSI // &A(q)
		b   = RBX // &B(q, j)
		aq  = R8  // aqs·size
		ldb = RDX // ldb·size
		cnt = RCX // q iterations left
		j   = RAX // column j
		c   = RDI // &C(j)
		nt  = R9  // n rounded down to whole tiles: where they end
	)
	const wideVecs, tileVecs = 13, 8
	l := kernel(t.name("gemmBcast1"))
	lanes := t.lanes()
	scale := uint8(t.size)
	wide, tile := wideVecs*lanes, tileVecs*lanes
	mk, bc, zero, bm := Op(Y8), Y15, Y12, Y12 // the mask, A(q), ReLU's zero, a masked vector of B
	if t.z() {
		mk, bc, zero, bm = K1, Z31, Z30, Z30
	}

	// chunk computes C(j:) for vecs vectors of columns, the last masked
	// if masked, starting from 0, bias[j:] or, unless wide, C(j:).
	chunk := func(p string, vecs int, masked, wide bool) {
		load := func(base GPPhysical, v int, dst VecPhysical) {
			if masked && v == vecs-1 {
				t.maskLoad(at(base, t.vec*v, j, scale), mk, dst)
			} else {
				t.MOVU(at(base, t.vec*v, j, scale), dst)
			}
		}
		MOVQ(arg("flags"), RCX)
		TESTQ(U32(gemmBias), RCX)
		JNZ(l.L(p + "bias"))
		if !wide {
			TESTQ(U32(gemmAccum), RCX)
			JNZ(l.L(p + "accum"))
		}
		for v := 0; v < vecs; v++ {
			t.XOR(t.v(v), t.v(v), t.v(v))
		}
		JMP(l.L(p + "init"))

		l.Set(p + "bias")
		MOVQ(arg("bias"), RCX)
		if !wide {
			JMP(l.L(p + "load"))
			l.Set(p + "accum")
			MOVQ(c, RCX)
			l.Set(p + "load")
		}
		for v := 0; v < vecs; v++ {
			load(RCX, v, t.v(v))
		}

		bcastLoop(l, p, func() {
			Load(Param("a"), a)
			Load(Param("b"), b)
			LEAQ(at(b, 0, j, scale), b)
		}, func() {
			// C(j:) += A(q) * B(q, j:)
			t.BROADCAST(at(a, 0, nil, 0), bc)
			for v := 0; v < vecs; v++ {
				if masked && v == vecs-1 {
					t.maskLoad(at(b, t.vec*v, nil, 0), mk, bm)
					t.FMADD231(bm, bc, t.v(v))
				} else {
					t.FMADD231(at(b, t.vec*v, nil, 0), bc, t.v(v))
				}
			}
			ADDQ(aq, a)
		}, b, ldb, cnt)
		z := zero
		if wide && !t.z() {
			z = Y15 // Y12 is an accumulator; A(q) is no longer needed
		}
		var acc []VecPhysical
		for v := 0; v < vecs; v++ {
			acc = append(acc, t.v(v))
		}
		relu(t, z, acc)

		l.Set(p + "write")
		for v := 0; v < vecs; v++ {
			if masked && v == vecs-1 {
				t.maskStore(t.v(v), mk, at(c, t.vec*v, j, scale))
			} else {
				t.MOVU(t.v(v), at(c, t.vec*v, j, scale))
			}
		}
	}

	Load(Param("aqs"), aq)
	SHLQ(U8(t.shift()), aq)
	Load(Param("ldb"), ldb)
	SHLQ(U8(t.shift()), ldb)
	Load(Param("c"), c)
	if t.z() {
		gemmBcast1Wide(t, l, j, chunk)
		return
	}
	// Without gemmAccum and for n ≥ wide: wide tiles.
	MOVQ(arg("flags"), RCX)
	TESTQ(U32(gemmAccum), RCX)
	JNZ(l.L("narrow"))
	CMPQ(arg("n"), U8(wide))
	JLT(l.L("narrow"))
	XORQ(j, j)

	l.Set("wide")
	// j = min(j, n − wide): the last tile ends at n.
	MOVQ(arg("n"), RCX)
	SUBQ(U8(wide), RCX)
	CMPQ(j, RCX)
	CMOVQGT(RCX, j)
	chunk("w", wideVecs, false, true)
	ADDQ(U8(wide), j)
	CMPQ(j, arg("n"))
	JLT(l.L("wide"))
	JMP(l.L("done"))

	l.Set("narrow")
	MOVQ(arg("n"), nt)
	ANDQ(I8(int8(-tile)), nt)
	MOVQ(nt, j)

	// CX = n − j columns left past the tiles: one vector.
	l.Set("vec")
	MOVQ(arg("n"), RCX)
	SUBQ(j, RCX)
	CMPQ(RCX, U8(lanes))
	JLT(l.L("last"))
	chunk("v", 1, false, false)
	ADDQ(U8(lanes), j)
	JMP(l.L("vec"))

	// CX < lanes columns left: a masked vector.
	l.Set("last")
	TESTQ(RCX, RCX)
	JZ(l.L("tiles"))
	mask(t, RCX, Y8, X8)
	chunk("l", 1, true, false)

	l.Set("tiles")
	XORQ(j, j)

	l.Set("cols")
	CMPQ(j, nt)
	JGE(l.L("done"))
	chunk("", tileVecs, false, false)
	ADDQ(U8(tile), j)
	JMP(l.L("cols"))

	l.Set("done")
	vzeroupper()
	RET()
}

// gemmBcast1Wide emits the column loop of gemmBcast1's AVX-512 form:
// tiles of 16 vectors while that many columns are left, then one tile of
// ⌈left/lanes⌉ vectors, the last masked, chosen by a binary search.
func gemmBcast1Wide(t elem, l labels, j GPPhysical, chunk func(p string, vecs int, masked, wide bool)) {
	const tileVecs = 16
	lanes := t.lanes()
	XORQ(j, j)
	l.Set("tiles")
	MOVQ(arg("n"), RCX)
	SUBQ(j, RCX)
	CMPQ(RCX, U32(tileVecs*lanes))
	JLT(l.L("tail"))
	chunk("", tileVecs, false, false)
	ADDQ(U32(tileVecs*lanes), j)
	JMP(l.L("tiles"))

	l.Set("tail")
	TESTQ(RCX, RCX)
	JLE(l.L("done"))
	LEAQ(at(RCX, -1, nil, 0), R10)
	ANDQ(U8(lanes-1), R10)
	INCQ(R10)
	kmask(R10, R11, K1) // the last vector's ((left−1) mod lanes) + 1 lanes
	vecSwitch(l, "n", RCX, lanes, 1, tileVecs, func(v int) {
		chunk("t"+itoa(v), v, true, false)
		JMP(l.L("done"))
	})

	l.Set("done")
	vzeroupper(Z30, Z31)
	RET()
}

// vecSwitch emits a binary search on cols, 0 < cols ≤ hi·lanes, that runs
// emit(v) for v = ⌈cols/lanes⌉ in lo..hi; each emit must end with a jump.
func vecSwitch(l labels, p string, cols GPPhysical, lanes, lo, hi int, emit func(v int)) {
	if lo == hi {
		emit(lo)
		return
	}
	mid := (lo + hi) / 2
	upper := p + "_" + itoa(mid+1)
	CMPQ(cols, U32(mid*lanes))
	JGT(l.L(upper))
	vecSwitch(l, p+"l", cols, lanes, lo, mid, emit)
	l.Set(upper)
	vecSwitch(l, p+"u", cols, lanes, mid+1, hi, emit)
}

// gemmDot emits gemmDotF32 or gemmDotF64: C(i:i+3, p:p+4) per tile as
// twelve dot products along k, accumulator Y(4r+t) for row i+r of A and
// row p+t of B. A's three rows go in Y12–Y14, B's rows one at a time in
// Y15. The last k mod lanes elements are a masked step whose mask waits in
// 0(SP), as no register is free for it. Each row's four sums reduce to one
// vector of four (an XMM of float32, a YMM of float64: VHADDPD, a
// cross-lane VPERM2F128 and VBLENDPD turn [a01 b01 | a23 b23] and
// [c01 d01 | c23 d23] into [a01 b01 | c23 d23] + [a23 b23 | c01 d01]),
// stored whole, or masked for the last p < 4. With AVX-512 the
// accumulators are ZMM, each first halved into its YMM, and the mask of
// the last step is K2.
func gemmDot(t elem) {
	const rows, cols = 3, 4
	var (
		aRow = []GPPhysical{RSI, RDI, R8}      // &A(i+r, 0)
		bRow = []GPPhysical{R9, R10, R11, R12} // &B(p+t, 0)
		j    = RAX                             // element j along k
		k8   = RDX                             // k − lanes
	)
	l := kernel(t.name("gemmDot"))
	// Locals: the mask of the last step, i, p, &C(i+r, 0) for the rows.
	local := AllocLocal(72)
	kmaskMem, iRow, pCol := local, local.Offset(32), local.Offset(40)
	cRow := func(r int) Mem { return local.Offset(48 + 8*r) }
	lanes := t.lanes()
	scale := uint8(t.size)
	// The four sums of a row: in an XMM for float32, a YMM for float64.
	sum := func(i int) VecPhysical { return pick(t, x(i), y(i)) }
	acc := func(r, c int) VecPhysical { return t.v(4*r + c) }

	MOVQ(arg("k"), RCX)
	ANDQ(U8(lanes-1), RCX)
	if t.z() {
		kmask(RCX, RBX, K2)
	} else {
		mask(t, RCX, Y15, X15)
		t.MOVU(Y15, kmaskMem) // lane l active when l < k mod lanes
	}
	Load(Param("k"), k8)
	SUBQ(U8(lanes), k8)
	MOVQ(U32(0), iRow)

	l.Set("rows")
	MOVQ(arg("m"), RCX)
	SUBQ(iRow, RCX) // rows left
	rowAddr(t, "a", "lda", iRow, R13, RBX, aRow[0])
	for r := 1; r < rows; r++ {
		rowPtr(aRow[r-1], aRow[r], R13, RBX, r)
	}
	rowAddr(t, "c", "ldc", iRow, R13, RBX, bRow[0])
	MOVQ(bRow[0], cRow(0))
	for r := 1; r < rows; r++ {
		rowPtr(bRow[0], bRow[0], R13, RBX, r)
		MOVQ(bRow[0], cRow(r))
	}
	MOVQ(U32(0), pCol)

	l.Set("cols")
	MOVQ(arg("n"), RCX)
	SUBQ(pCol, RCX) // columns left
	CMPQ(RCX, U8(0))
	JLE(l.L("nextrows"))
	rowAddr(t, "b", "ldb", pCol, R13, RBX, bRow[0])
	for c := 1; c < cols; c++ {
		rowPtr(bRow[c-1], bRow[c], R13, RBX, c)
	}
	for i := 0; i < rows*cols; i++ {
		t.XOR(t.v(i), t.v(i), t.v(i))
	}
	XORQ(j, j)
	CMPQ(j, k8)
	JGT(l.L("ktail"))

	// step multiplies the lanes from j of A's rows and B's, lane-wise,
	// into the accumulators: C(i+r, p+t) += A(i+r, j:) · B(p+t, j:).
	step := func(masked bool) {
		mk := Op(Y15)
		if t.z() {
			mk = K2
		}
		load := func(src GPPhysical, dst VecPhysical) {
			if masked {
				t.maskLoad(at(src, 0, j, scale), mk, dst)
			} else {
				t.MOVU(at(src, 0, j, scale), dst)
			}
		}
		if masked && !t.z() {
			t.MOVU(kmaskMem, Y15)
		}
		for r := 0; r < rows; r++ {
			load(aRow[r], t.v(12+r))
		}
		for c := 0; c < cols; c++ {
			if masked && c > 0 && !t.z() {
				t.MOVU(kmaskMem, Y15)
			}
			load(bRow[c], t.v(15))
			for r := 0; r < rows; r++ {
				t.FMADD231(t.v(15), t.v(12+r), acc(r, c))
			}
		}
	}
	l.Set("loop")
	step(false)
	ADDQ(U8(lanes), j)
	CMPQ(j, k8)
	JLE(l.L("loop"))

	l.Set("ktail")
	MOVQ(arg("k"), RCX)
	CMPQ(j, RCX)
	JGE(l.L("reduce"))
	step(true)

	l.Set("reduce")
	if t.z() {
		for i := 0; i < rows*cols; i++ {
			VEXTRACTF64X4(U8(1), t.v(i), Y15)
			t.ADD(Y15, y(i), y(i))
		}
	}
	for r := 0; r < rows; r++ {
		a, b, c, d := y(4*r), y(4*r+1), y(4*r+2), y(4*r+3)
		if t.size == 4 {
			VHADDPS(b, a, a)
			VHADDPS(d, c, c)
			VHADDPS(c, a, a)
			VEXTRACTF128(U8(1), a, x(4*r+1))
			VADDPS(x(4*r+1), x(4*r), x(4*r))
		} else {
			VHADDPD(b, a, a)
			VHADDPD(d, c, c)
			VPERM2F128(U8(0x21), c, a, b)
			VBLENDPD(U8(0xC), c, a, a)
			VADDPD(b, a, a)
		}
	}
	// The mask of the columns p:p+4 that exist.
	MOVQ(arg("n"), RCX)
	SUBQ(pCol, RCX)
	mask(t, RCX, sum(15), X15)
	MOVQ(pCol, RBX)
	MOVQ(arg("flags"), R13)
	TESTQ(U32(gemmBias), R13)
	JZ(l.L("nobias"))
	MOVQ(arg("bias"), R13)
	t.MASKMOV(at(R13, 0, RBX, scale), sum(15), sum(12))
	for r := 0; r < rows; r++ {
		t.ADD(sum(4*r), sum(12), sum(4*r)) // bias[p] + s
	}
	MOVQ(arg("flags"), R13)

	l.Set("nobias")
	TESTQ(U32(gemmReLU), R13)
	JZ(l.L("write"))
	relu(t, sum(12), []VecPhysical{sum(0), sum(4), sum(8)})

	l.Set("write")
	CMPQ(RCX, U8(cols))
	JLT(l.L("partial"))
	for r := 0; r < rows; r++ {
		MOVQ(cRow(r), R13)
		t.MOVU(sum(4*r), at(R13, 0, RBX, scale))
	}
	ADDQ(U8(cols), RBX)
	MOVQ(RBX, pCol)
	JMP(l.L("cols"))

	l.Set("partial")
	for r := 0; r < rows; r++ {
		MOVQ(cRow(r), R13)
		t.MASKMOV(sum(4*r), sum(15), at(R13, 0, RBX, scale))
	}

	nextRows(l, iRow, rows, RBX)
	vzeroupper()
	RET()
}
