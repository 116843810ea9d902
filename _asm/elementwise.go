package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The element-wise kernels, reductions and optimizer steps. The AVX2
// kernels take n, a multiple of the vector width (the Go wrapper finishes
// the tail with the generic kernel); the AVX-512 ones take any n and do
// the last n mod lanes elements as one masked vector. All work in bytes
// with one offset register (AX) for all operands: unroll vectors per
// iteration while a block is left, then one at a time. They round every
// product and sum on its own, in the order of the generic loop, with no
// fused multiply-add, so the results are the generic ones bit for bit;
// VSQRTPS/VSQRTPD are correctly rounded, like Go's math.Sqrt (a float32
// rounded from the float64 root is the correctly rounded float32 root).

var (
	ewN    = RCX // bytes of whole vectors
	ewI    = RAX // byte offset into every operand
	ewEnd  = RDX // ewI + one block
	ewLeft = RBX // AVX-512: the elements past the whole vectors
)

// ewPtrs are the registers of the pointer operands, in argument order.
var ewPtrs = []GPPhysical{RSI, RDI, R8, R9, R10, R11, R12}

// ewKernel describes one element-wise kernel.
type ewKernel struct {
	base    string   // the kernel's name without its type suffix
	ptrs    []string // pointer parameters, loaded into ewPtrs
	writes  []string // the pointer parameters it stores to
	scalars []string // scalar parameters, broadcast into the last of the first sixteen vector registers (…, 14, 15)
	unroll  int      // vectors per block
	finite  bool     // stores through storeFinite and returns whether all it stored is finite
	setup   func(t elem)
	// body emits one vector of the kernel, copy u of the block, at byte
	// offset off; m(name) is the operand of pointer parameter name there:
	// memory, or in an AVX-512 kernel's masked last vector a register
	// that holds the lanes loaded and receives those to store.
	body func(t elem, u int, m func(name string) Op)
}

var one = map[int]Mem{}

// constOne returns the address of the scalar 1 of t's type.
func constOne(t elem) Mem {
	if m, ok := one[t.size]; ok {
		return m
	}
	m := splat(pick(t, "one32", "one64"), t.size, 1, pick(t, uint64(math.Float32bits(1)), math.Float64bits(1)))
	one[t.size] = m
	return m
}

var ewKernels = []ewKernel{
	{base: "mul", ptrs: []string{"x", "y"}, writes: []string{"x"}, unroll: 4,
		body: func(t elem, u int, m func(string) Op) {
			t.MOVU(m("x"), t.v(u))
			t.MUL(m("y"), t.v(u), t.v(u))
			t.MOVU(t.v(u), m("x"))
		}},
	{base: "mulTo", ptrs: []string{"dst", "x", "y"}, writes: []string{"dst"}, unroll: 4,
		body: func(t elem, u int, m func(string) Op) {
			t.MOVU(m("x"), t.v(u))
			t.MUL(m("y"), t.v(u), t.v(u))
			t.MOVU(t.v(u), m("dst"))
		}},
	{base: "reluBackward", ptrs: []string{"d", "y"}, writes: []string{"d"}, unroll: 4,
		setup: func(t elem) { t.XOR(t.v(15), t.v(15), t.v(15)) },
		body: func(t elem, u int, m func(string) Op) {
			if t.z() {
				t.CMP(U8(0x11), m("y"), t.v(15), K2) // 0 < y (false for NaN)
				t.MOVU_Z(m("d"), K2, t.v(u))
			} else {
				t.CMP(U8(0x11), m("y"), t.v(15), t.v(u))
				t.AND(m("d"), t.v(u), t.v(u))
			}
			t.MOVU(t.v(u), m("d"))
		}},
	{base: "tanhBackward", ptrs: []string{"d", "y"}, writes: []string{"d"}, unroll: 4,
		setup: func(t elem) { t.BROADCAST(constOne(t), t.v(15)) },
		body: func(t elem, u int, m func(string) Op) {
			t.MOVU(m("y"), t.v(u))
			t.MUL(t.v(u), t.v(u), t.v(u))  // y·y
			t.SUB(t.v(u), t.v(15), t.v(u)) // 1 − y·y
			t.MUL(m("d"), t.v(u), t.v(u))
			t.MOVU(t.v(u), m("d"))
		}},
	{base: "axpy", ptrs: []string{"x", "y"}, writes: []string{"y"}, scalars: []string{"a"}, unroll: 4,
		body: func(t elem, u int, m func(string) Op) {
			t.MUL(m("x"), t.v(15), t.v(u)) // a·x
			t.ADD(m("y"), t.v(u), t.v(u))
			t.MOVU(t.v(u), m("y"))
		}},
	{base: "scale", ptrs: []string{"x"}, writes: []string{"x"}, scalars: []string{"a"}, unroll: 4,
		body: func(t elem, u int, m func(string) Op) {
			t.MUL(m("x"), t.v(15), t.v(u))
			t.MOVU(t.v(u), m("x"))
		}},
	// The optimizer steps leave registers 8 and 9 to storeFinite.
	{base: "sgd", ptrs: []string{"p2", "p", "gr"}, writes: []string{"p2"}, scalars: []string{"lr"}, unroll: 4, finite: true,
		body: func(t elem, u int, m func(string) Op) {
			g, p := t.v(u), t.v(4+u)
			t.MUL(m("gr"), t.v(15), g) // lr·g
			t.MOVU(m("p"), p)
			t.SUB(g, p, p) // p − lr·g
			storeFinite(t, p, m("p2"))
		}},
	// The optimizer steps below do two vectors per block: their constants
	// take the registers from 10 up.
	{base: "nesterov", ptrs: []string{"p2", "v2", "p", "v", "gr"}, writes: []string{"p2", "v2"}, scalars: []string{"lr", "mu"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Op) {
			g, v, mv, p := t.v(4*u), t.v(4*u+1), t.v(4*u+2), t.v(4*u+3)
			t.MUL(m("gr"), t.v(14), g) // lr·g
			t.MUL(m("v"), t.v(15), v)  // mu·v
			t.SUB(g, v, v)             // v2 = mu·v − lr·g
			storeFinite(t, v, m("v2"))
			t.MUL(v, t.v(15), mv) // mu·v2
			t.MOVU(m("p"), p)
			t.ADD(mv, p, p) // p + mu·v2
			t.SUB(g, p, p)  // − lr·g
			storeFinite(t, p, m("p2"))
		}},
	{base: "rmsprop", ptrs: []string{"p2", "a2", "p", "a", "gr"}, writes: []string{"p2", "a2"}, scalars: []string{"lr", "rho", "c", "eps"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Op) {
			g, a, s, p := t.v(4*u), t.v(4*u+1), t.v(4*u+2), t.v(4*u+3)
			t.MOVU(m("gr"), g)        // g
			t.MUL(m("a"), t.v(13), a) // rho·a
			t.MUL(g, t.v(14), s)      // c·g
			t.MUL(g, s, s)            // c·g·g
			t.ADD(s, a, a)            // a2
			storeFinite(t, a, m("a2"))
			descend(t, g, a, s, p, t.v(12), m)
		}},
	{base: "adam", ptrs: []string{"p2", "m2", "v2", "p", "m", "v", "gr"}, writes: []string{"p2", "m2", "v2"}, scalars: []string{"lr", "b1", "c1", "b2", "c2", "eps"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Op) {
			g, mm, s, v := t.v(4*u), t.v(4*u+1), t.v(4*u+2), t.v(4*u+3)
			t.MOVU(m("gr"), g)         // g
			t.MUL(m("m"), t.v(11), mm) // b1·m
			t.MUL(g, t.v(12), s)       // c1·g
			t.ADD(s, mm, mm)           // m2
			storeFinite(t, mm, m("m2"))
			t.MUL(g, t.v(14), s)      // c2·g
			t.MUL(g, s, s)            // c2·g·g
			t.MUL(m("v"), t.v(13), v) // b2·v
			t.ADD(s, v, v)            // v2
			storeFinite(t, v, m("v2"))
			descend(t, mm, v, v, g, t.v(10), m)
		}},
}

// descend emits the step of rmsprop and adam,
//
//	p2 = p − lr·num/(sqrt(sq) + eps)
//
// with eps in register 15, the root in root and p in pv (both scratch).
func descend(t elem, num, sq, root, pv, lr VecPhysical, m func(string) Op) {
	t.SQRT(sq, root)
	t.ADD(t.v(15), root, root) // sqrt + eps
	t.MUL(num, lr, num)        // lr·num
	t.DIV(root, num, num)
	t.MOVU(m("p"), pv)
	t.SUB(num, pv, pv)
	storeFinite(t, pv, m("p2"))
}

// storeFinite stores v at dst and adds v − v (0 for a finite v, NaN
// otherwise) into the accumulator, register 8, through register 9: an
// optimizer step checks its candidates as it writes them, instead of
// reading them all again. In an AVX-512 kernel's masked last vector only
// the lanes of t.live count.
func storeFinite(t elem, v VecPhysical, dst Op) {
	t.MOVU(v, dst)
	t.SUB(v, v, t.v(9))
	if t.live != nil {
		t.ADD(t.v(9), t.v(8), t.live, t.v(8))
	} else {
		t.ADD(t.v(9), t.v(8), t.v(8))
	}
}

// retZero sets the bool result to whether every lane of acc is 0 (false
// for NaN), with scratch a register to clobber.
func retZero(t elem, acc, scratch VecPhysical) {
	t.XOR(scratch, scratch, scratch)
	if t.z() {
		t.CMP(U8(0), scratch, acc, K2) // acc == 0, lane by lane (false for NaN)
		KMOVW(K2, EAX)
		CMPL(EAX, U32(1<<t.lanes()-1))
	} else {
		t.CMP(U8(0), scratch, acc, acc)
		t.MOVMSK(acc, EAX)
		CMPL(EAX, U8(1<<t.lanes()-1))
	}
	SETEQ(ret())
}

// elementwise emits every element-wise kernel and the reductions, for
// both element types and both widths.
func elementwise() {
	for _, k := range ewKernels {
		for _, t := range elems2 {
			k.emit(t)
		}
	}
	for _, t := range elems2 {
		sumSquares(t)
	}
	for _, t := range elems2 {
		allFinite(t)
	}
}

// ewHead loads n, in bytes, and the pointers of an element-wise kernel;
// for AVX-512, the bytes of whole vectors, and the elements past them in
// ewLeft.
func ewHead(t elem, ptrs []string) map[string]GPPhysical {
	Load(Param("n"), ewN)
	if t.z() {
		MOVQ(ewN, ewLeft)
		ANDQ(U8(t.lanes()-1), ewLeft)
		SUBQ(ewLeft, ewN)
	}
	SHLQ(U8(t.shift()), ewN) // bytes
	regs := map[string]GPPhysical{}
	for i, p := range ptrs {
		regs[p] = ewPtrs[i]
		Load(Param(p), ewPtrs[i])
	}
	return regs
}

// ewLoop emits the loop of blocks of blockBytes while a whole block is
// left, then the loop of one unit of unitBytes at a time, of a kernel
// that works at byte offset AX of every operand, and ends at the label
// done.
func ewLoop(l labels, blockBytes, unitBytes int, block, one func()) {
	XORQ(ewI, ewI)
	l.Set("block")
	LEAQ(at(ewI, blockBytes, nil, 0), ewEnd)
	CMPQ(ewEnd, ewN)
	JGT(l.L("one"))
	block()
	MOVQ(ewEnd, ewI)
	JMP(l.L("block"))

	l.Set("one")
	CMPQ(ewI, ewN)
	JGE(l.L("done"))
	one()
	ADDQ(U8(unitBytes), ewI)
	JMP(l.L("one"))

	l.Set("done")
}

// ewTail emits an AVX-512 kernel's masked last vector of the ewLeft
// elements at byte offset AX, if there are any: the lanes of ptrs are
// loaded into the registers from 16 on (zeros in the others), body(m)
// computes with them, and the lanes of writes are stored back, with the
// mask in K1 (t.live, for storeFinite).
func ewTail(t elem, l labels, regs map[string]GPPhysical, ptrs, writes []string, body func(t elem, m func(string) Op)) {
	TESTQ(ewLeft, ewLeft)
	JZ(l.L("end"))
	kmask(ewLeft, RDX, K1)
	in := map[string]Op{}
	for i, p := range ptrs {
		in[p] = t.v(16 + i)
		t.MOVU_Z(at(regs[p], 0, ewI, 1), K1, in[p])
	}
	t.live = K1
	body(t, func(p string) Op { return in[p] })
	for _, p := range writes {
		t.MOVU(in[p], K1, at(regs[p], 0, ewI, 1))
	}
	l.Set("end")
}

func (k ewKernel) emit(t elem) {
	l := kernel(t.name(k.base))
	regs := ewHead(t, k.ptrs)
	for i, s := range k.scalars {
		t.BROADCAST(arg(s), t.v(16-len(k.scalars)+i))
	}
	if k.setup != nil {
		k.setup(t)
	}
	if k.finite {
		t.XOR(t.v(8), t.v(8), t.v(8))
	}
	vec := func(u, off int) {
		k.body(t, u, func(p string) Op { return at(regs[p], off, ewI, 1) })
	}
	ewLoop(l, t.vec*k.unroll, t.vec, func() {
		for u := 0; u < k.unroll; u++ {
			vec(u, t.vec*u)
		}
	}, func() { vec(0, 0) })
	if t.z() {
		ewTail(t, l, regs, k.ptrs, k.writes, func(t elem, m func(string) Op) { k.body(t, 0, m) })
	}
	if k.finite {
		retZero(t, t.v(8), t.v(9))
	}
	vzeroupper(highRegs(t, 16, 16+len(k.ptrs))...)
	RET()
}

// reduction emits the loops of a reduction of x into the accumulators
// 0–3: x is read in units of unit bytes, four per group, each into a
// register from 4 on, and every phase runs over the units of a group
// before the next, as phase(operand, register, accumulator); a block is
// four vectors, the single steps one vector (AVX2) or one unit
// (AVX-512), and an AVX-512 kernel's last unit is loaded masked, by load.
// Zeros in the lanes past the end change no sum.
func reduction(t elem, l labels, x GPPhysical, unit int, load func(m, k, v Op), phases ...func(m Op, v, acc VecPhysical)) {
	group := func(off, units int) {
		for _, phase := range phases {
			for i := 0; i < units; i++ {
				phase(at(x, off+i*unit, ewI, 1), t.v(4+i), t.v(i))
			}
		}
	}
	step := t.vec
	if t.z() {
		step = unit
	}
	ewLoop(l, 4*t.vec, step, func() {
		for g := 0; g < 4*t.vec; g += 4 * unit {
			group(g, 4)
		}
	}, func() { group(0, step/unit) })
	if !t.z() {
		return
	}
	// The units of n: the loops above ran over whole vectors; the last
	// ewLeft elements go a unit at a time, the last one masked.
	MOVQ(ewLeft, ewN)
	SHLQ(U8(t.shift()), ewN)
	ADDQ(ewI, ewN)
	l.Set("unit")
	LEAQ(at(ewI, unit, nil, 0), ewEnd)
	CMPQ(ewEnd, ewN)
	JGT(l.L("last"))
	group(0, 1)
	MOVQ(ewEnd, ewI)
	JMP(l.L("unit"))
	l.Set("last")
	MOVQ(ewN, ewLeft)
	SUBQ(ewI, ewLeft)
	SHRQ(U8(t.shift()), ewLeft)
	TESTQ(ewLeft, ewLeft)
	JZ(l.L("end"))
	kmask(ewLeft, RDX, K1)
	load(at(x, 0, ewI, 1), K1, t.v(4))
	for _, phase := range phases[1:] {
		phase(t.v(4), t.v(4), t.v(0))
	}
	l.Set("end")
}

// sum4 adds the accumulators 1–3 into 0.
func sum4(t elem) {
	t.ADD(t.v(1), t.v(0), t.v(0))
	t.ADD(t.v(3), t.v(2), t.v(2))
	t.ADD(t.v(2), t.v(0), t.v(0))
}

// hsum adds the lanes of vector 0 into X0's first; clobbers vector 1.
func hsum(t elem) {
	if t.z() {
		VEXTRACTF64X4(U8(1), Z0, Y1)
		t.ADD(Y1, Y0, Y0)
	}
	VEXTRACTF128(U8(1), Y0, X1)
	t.ADD(X1, X0, X0)
	for n := 32 / t.size / 2; n > 1; n /= 2 {
		pick(t, VHADDPS, VHADDPD)(X0, X0, X0)
	}
}

// sumSquares emits
//
//	for _, v := range x[:n] { s += float64(v) * float64(v) }
//
// in float64, four accumulators: float64(x)² is exact, so the fused
// multiply-add rounds once, as the generic s += float64(v)*float64(v)
// does. A float32 vector widens into two float64 ones.
func sumSquares(t elem) {
	l := kernel(t.name("sumSquares"))
	regs := ewHead(t, []string{"x"})
	for i := 0; i < 4; i++ {
		VXORPD(t.v(i), t.v(i), t.v(i))
	}
	// A unit of x fills one float64 vector.
	unit := t.vec * t.size / 8
	widen := pick(t, VCVTPS2PD, VMOVUPD)
	reduction(t, l, regs["x"], unit,
		pick(t, VCVTPS2PD_Z, VMOVUPD_Z),
		func(m Op, v, _ VecPhysical) { widen(m, v) },
		func(_ Op, v, acc VecPhysical) { VFMADD231PD(v, v, acc) })
	d := f64
	d.vec = t.vec
	sum4(d)
	hsum(d)
	VMOVSD(X0, ret())
	vzeroupper()
	RET()
}

// allFinite emits
//
//	for _, v := range x[:n] { s += v - v }; return s == 0
//
// x − x is 0 for a finite x, NaN for NaN or ±Inf, and a NaN stays.
func allFinite(t elem) {
	l := kernel(t.name("allFinite"))
	regs := ewHead(t, []string{"x"})
	for i := 0; i < 4; i++ {
		t.XOR(t.v(i), t.v(i), t.v(i))
	}
	reduction(t, l, regs["x"], t.vec, t.MOVU_Z,
		func(m Op, v, _ VecPhysical) { t.MOVU(m, v) },
		func(_ Op, v, _ VecPhysical) { t.SUB(v, v, v) },
		func(_ Op, v, acc VecPhysical) { t.ADD(v, acc, acc) })
	sum4(t)
	retZero(t, t.v(0), t.v(1))
	vzeroupper()
	RET()
}
