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

// gemmBcast emits gemmBcastF32 or gemmBcastF64: six rows of C by two
// vectors of columns per tile, Y0–Y11 the accumulators (row r in Y(2r),
// Y(2r+1)), B(q, j:j+2·lanes) in Y12/Y13 and the broadcast A(i+r, q) in
// Y14/Y15. Columns left over go in masked chunks of one vector, six
// accumulators Y0–Y5.
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

	// tile emits the tile of vecs vectors (2 full, or 1 masked by Y13) of
	// columns from j, with the labels of its parts prefixed by p.
	tile := func(p string, vecs int) {
		acc := func(r, v int) VecPhysical { return y(vecs*r + v) }
		all := yRange(0, rows*vecs)
		load := func(m Mem, dst VecPhysical, v int) {
			if vecs == 1 {
				t.MASKMOV(m, Y13, dst)
			} else {
				t.MOVU(m.Offset(32*v), dst)
			}
		}
		store := func(src VecPhysical, m Mem, v int) {
			if vecs == 1 {
				t.MASKMOV(src, Y13, m)
			} else {
				t.MOVU(src, m.Offset(32*v))
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
				load(at(b, 0, nil, 0), y(12+v), v)
			}
			for r := 0; r < rows; r += 2 {
				t.BROADCAST(at(aRow[r], 0, q, 1), Y14)
				t.BROADCAST(at(aRow[r+1], 0, q, 1), Y15)
				for h := 0; h < 2; h++ {
					for v := 0; v < vecs; v++ {
						t.FMADD231(y(12+v), y(14+h), acc(r+h, v))
					}
				}
			}
			ADDQ(aq, q)
		}, b, ldb, cnt)
		relu(t, Y12, all)

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
	CMPQ(RCX, U8(2*lanes))
	JLT(l.L("tail"))
	// A full tile: C(i:i+6, j:j+2·lanes).
	tile("", 2)

	// CX = n − j < 2·lanes columns left: a masked chunk of one vector.
	l.Set("tail")
	CMPQ(RCX, U8(0))
	JLE(l.L("nextrows"))
	mask(t, RCX, Y13, X13)
	tile("t", 1)

	nextRows(l, iRow, rows, RAX)
	VZEROUPPER()
	RET()
}

// gemmBcast1 emits gemmBcast1F32 or gemmBcast1F64: one row of C, the
// broadcast A(q) in Y15 and B read straight from memory by the FMAs.
// Every column is the same chain of k FMAs in q order, whichever of the
// paths below computes it.
//
// Without gemmAccum (a layer's forward pass) and for n ≥ 13 vectors: wide
// tiles of 13 vectors in Y0–Y12, the last one moved back to end at n, so
// that it recomputes (and stores again, unchanged) some columns of the one
// before instead of masking. Thirteen independent chains keep both FMA
// ports busy where eight chains of one tile, with the next tile's work too
// far ahead for the reorder buffer, leave them waiting on the FMA latency.
//
// Otherwise: tiles of 8 vectors in Y0–Y7. The columns past the last whole
// tile go first, one vector at a time in Y0, the last partial vector
// masked (mask Y8, B in Y12): a single vector is one dependent chain of k
// FMAs, which then overlaps the tiles' work instead of ending the kernel.
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

	// chunk computes C(j:) for vecs vectors of columns (one masked by Y8
	// with masked), starting from 0, bias[j:] or, unless wide, C(j:).
	chunk := func(p string, vecs int, masked, wide bool) {
		load := func(base GPPhysical, v int, dst VecPhysical) {
			if masked {
				t.MASKMOV(at(base, 0, j, scale), Y8, dst)
			} else {
				t.MOVU(at(base, 32*v, j, scale), dst)
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
			t.XOR(y(v), y(v), y(v))
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
			load(RCX, v, y(v))
		}

		bcastLoop(l, p, func() {
			Load(Param("a"), a)
			Load(Param("b"), b)
			LEAQ(at(b, 0, j, scale), b)
		}, func() {
			// C(j:) += A(q) * B(q, j:)
			t.BROADCAST(at(a, 0, nil, 0), Y15)
			if masked {
				t.MASKMOV(at(b, 0, nil, 0), Y8, Y12)
				t.FMADD231(Y12, Y15, Y0)
			} else {
				for v := 0; v < vecs; v++ {
					t.FMADD231(at(b, 32*v, nil, 0), Y15, y(v))
				}
			}
			ADDQ(aq, a)
		}, b, ldb, cnt)
		zero := Y12
		if wide {
			zero = Y15 // Y12 is an accumulator; A(q) is no longer needed
		}
		relu(t, zero, yRange(0, vecs))

		l.Set(p + "write")
		for v := 0; v < vecs; v++ {
			if masked {
				t.MASKMOV(y(v), Y8, at(c, 0, j, scale))
			} else {
				t.MOVU(y(v), at(c, 32*v, j, scale))
			}
		}
	}

	Load(Param("aqs"), aq)
	SHLQ(U8(t.shift()), aq)
	Load(Param("ldb"), ldb)
	SHLQ(U8(t.shift()), ldb)
	Load(Param("c"), c)
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
	VZEROUPPER()
	RET()
}

// gemmDot emits gemmDotF32 or gemmDotF64: C(i:i+3, p:p+4) per tile as
// twelve dot products along k, accumulator Y(4r+t) for row i+r of A and
// row p+t of B. A's three rows go in Y12–Y14, B's rows one at a time in
// Y15. The last k mod lanes elements are a masked step whose mask waits in
// 0(SP), as no register is free for it. Each row's four sums reduce to one
// vector of four (an XMM of float32, a YMM of float64: VHADDPD, a
// cross-lane VPERM2F128 and VBLENDPD turn [a01 b01 | a23 b23] and
// [c01 d01 | c23 d23] into [a01 b01 | c23 d23] + [a23 b23 | c01 d01]),
// stored whole, or masked for the last p < 4.
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
	kmask, iRow, pCol := local, local.Offset(32), local.Offset(40)
	cRow := func(r int) Mem { return local.Offset(48 + 8*r) }
	lanes := t.lanes()
	scale := uint8(t.size)
	// The four sums of a row: in an XMM for float32, a YMM for float64.
	sum := func(i int) VecPhysical { return pick(t, x(i), y(i)) }
	acc := func(r, c int) VecPhysical { return y(4*r + c) }

	MOVQ(arg("k"), RCX)
	ANDQ(U8(lanes-1), RCX)
	mask(t, RCX, Y15, X15)
	t.MOVU(Y15, kmask) // lane l active when l < k mod lanes
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
		t.XOR(y(i), y(i), y(i))
	}
	XORQ(j, j)
	CMPQ(j, k8)
	JGT(l.L("ktail"))

	// step multiplies the lanes from j of A's rows and B's, lane-wise,
	// into the accumulators: C(i+r, p+t) += A(i+r, j:) · B(p+t, j:).
	step := func(masked bool) {
		load := func(src GPPhysical, dst VecPhysical) {
			if masked {
				t.MASKMOV(at(src, 0, j, scale), Y15, dst)
			} else {
				t.MOVU(at(src, 0, j, scale), dst)
			}
		}
		if masked {
			t.MOVU(kmask, Y15)
		}
		for r := 0; r < rows; r++ {
			load(aRow[r], y(12+r))
		}
		for c := 0; c < cols; c++ {
			if masked && c > 0 {
				t.MOVU(kmask, Y15)
			}
			load(bRow[c], Y15)
			for r := 0; r < rows; r++ {
				t.FMADD231(Y15, y(12+r), acc(r, c))
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
	for r := 0; r < rows; r++ {
		a, b, c, d := acc(r, 0), acc(r, 1), acc(r, 2), acc(r, 3)
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
	VZEROUPPER()
	RET()
}
