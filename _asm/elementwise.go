package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The element-wise kernels, reductions and optimizer steps. Each takes n,
// a multiple of the vector width (the Go wrapper finishes the tail with
// the generic kernel), and works in bytes with one offset register (AX)
// for all operands: unroll vectors per iteration while a block is left,
// then one at a time. They round every product and sum on its own, in the
// order of the generic loop, with no fused multiply-add, so the results
// are the generic ones bit for bit; VSQRTPS/VSQRTPD are correctly rounded,
// like Go's math.Sqrt (a float32 rounded from the float64 root is the
// correctly rounded float32 root).

var (
	ewN   = RCX // bytes to do
	ewI   = RAX // byte offset into every operand
	ewEnd = RDX // ewI + one block
)

// ewPtrs are the registers of the pointer operands, in argument order.
var ewPtrs = []GPPhysical{RSI, RDI, R8, R9, R10, R11, R12}

// ewKernel describes one element-wise kernel.
type ewKernel struct {
	base    string   // the kernel's name without its type suffix
	ptrs    []string // pointer parameters, loaded into ewPtrs
	scalars []string // scalar parameters, broadcast into the last YMMs (…, Y14, Y15)
	unroll  int      // vectors per block
	finite  bool     // stores through storeFinite and returns whether all it stored is finite
	setup   func(t elem)
	// body emits one vector of the kernel, copy u of the block, at byte
	// offset off; m(name) is the operand of pointer parameter name there.
	body func(t elem, u int, m func(name string) Mem)
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
	{base: "mul", ptrs: []string{"x", "y"}, unroll: 4,
		body: func(t elem, u int, m func(string) Mem) {
			t.MOVU(m("x"), y(u))
			t.MUL(m("y"), y(u), y(u))
			t.MOVU(y(u), m("x"))
		}},
	{base: "mulTo", ptrs: []string{"dst", "x", "y"}, unroll: 4,
		body: func(t elem, u int, m func(string) Mem) {
			t.MOVU(m("x"), y(u))
			t.MUL(m("y"), y(u), y(u))
			t.MOVU(y(u), m("dst"))
		}},
	{base: "reluBackward", ptrs: []string{"d", "y"}, unroll: 4,
		setup: func(t elem) { t.XOR(Y15, Y15, Y15) },
		body: func(t elem, u int, m func(string) Mem) {
			t.CMP(U8(0x11), m("y"), Y15, y(u)) // 0 < y (false for NaN)
			t.AND(m("d"), y(u), y(u))
			t.MOVU(y(u), m("d"))
		}},
	{base: "tanhBackward", ptrs: []string{"d", "y"}, unroll: 4,
		setup: func(t elem) { t.BROADCAST(constOne(t), Y15) },
		body: func(t elem, u int, m func(string) Mem) {
			t.MOVU(m("y"), y(u))
			t.MUL(y(u), y(u), y(u)) // y·y
			t.SUB(y(u), Y15, y(u))  // 1 − y·y
			t.MUL(m("d"), y(u), y(u))
			t.MOVU(y(u), m("d"))
		}},
	{base: "axpy", ptrs: []string{"x", "y"}, scalars: []string{"a"}, unroll: 4,
		body: func(t elem, u int, m func(string) Mem) {
			t.MUL(m("x"), Y15, y(u)) // a·x
			t.ADD(m("y"), y(u), y(u))
			t.MOVU(y(u), m("y"))
		}},
	{base: "scale", ptrs: []string{"x"}, scalars: []string{"a"}, unroll: 4,
		body: func(t elem, u int, m func(string) Mem) {
			t.MUL(m("x"), Y15, y(u))
			t.MOVU(y(u), m("x"))
		}},
	// The optimizer steps leave Y8 and Y9 to storeFinite.
	{base: "sgd", ptrs: []string{"p2", "p", "gr"}, scalars: []string{"lr"}, unroll: 4, finite: true,
		body: func(t elem, u int, m func(string) Mem) {
			g, p := y(u), y(4+u)
			t.MUL(m("gr"), Y15, g) // lr·g
			t.MOVU(m("p"), p)
			t.SUB(g, p, p) // p − lr·g
			storeFinite(t, p, m("p2"))
		}},
	// The optimizer steps below do two vectors per block: their constants
	// take the registers from Y10 up.
	{base: "nesterov", ptrs: []string{"p2", "v2", "p", "v", "gr"}, scalars: []string{"lr", "mu"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Mem) {
			g, v, mv, p := y(4*u), y(4*u+1), y(4*u+2), y(4*u+3)
			t.MUL(m("gr"), Y14, g) // lr·g
			t.MUL(m("v"), Y15, v)  // mu·v
			t.SUB(g, v, v)         // v2 = mu·v − lr·g
			storeFinite(t, v, m("v2"))
			t.MUL(v, Y15, mv) // mu·v2
			t.MOVU(m("p"), p)
			t.ADD(mv, p, p) // p + mu·v2
			t.SUB(g, p, p)  // − lr·g
			storeFinite(t, p, m("p2"))
		}},
	{base: "rmsprop", ptrs: []string{"p2", "a2", "p", "a", "gr"}, scalars: []string{"lr", "rho", "c", "eps"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Mem) {
			g, a, s, p := y(4*u), y(4*u+1), y(4*u+2), y(4*u+3)
			t.MOVU(m("gr"), g)    // g
			t.MUL(m("a"), Y13, a) // rho·a
			t.MUL(g, Y14, s)      // c·g
			t.MUL(g, s, s)        // c·g·g
			t.ADD(s, a, a)        // a2
			storeFinite(t, a, m("a2"))
			descend(t, g, a, s, p, Y12, m)
		}},
	{base: "adam", ptrs: []string{"p2", "m2", "v2", "p", "m", "v", "gr"}, scalars: []string{"lr", "b1", "c1", "b2", "c2", "eps"}, unroll: 2, finite: true,
		body: func(t elem, u int, m func(string) Mem) {
			g, mm, s, v := y(4*u), y(4*u+1), y(4*u+2), y(4*u+3)
			t.MOVU(m("gr"), g)     // g
			t.MUL(m("m"), Y11, mm) // b1·m
			t.MUL(g, Y12, s)       // c1·g
			t.ADD(s, mm, mm)       // m2
			storeFinite(t, mm, m("m2"))
			t.MUL(g, Y14, s)      // c2·g
			t.MUL(g, s, s)        // c2·g·g
			t.MUL(m("v"), Y13, v) // b2·v
			t.ADD(s, v, v)        // v2
			storeFinite(t, v, m("v2"))
			descend(t, mm, v, v, g, Y10, m)
		}},
}

// descend emits the step of rmsprop and adam,
//
//	p2 = p − lr·num/(sqrt(sq) + eps)
//
// with eps in Y15, the root in root and p in pv (both scratch).
func descend(t elem, num, sq, root, pv, lr VecPhysical, m func(string) Mem) {
	t.SQRT(sq, root)
	t.ADD(Y15, root, root) // sqrt + eps
	t.MUL(num, lr, num)    // lr·num
	t.DIV(root, num, num)
	t.MOVU(m("p"), pv)
	t.SUB(num, pv, pv)
	storeFinite(t, pv, m("p2"))
}

// storeFinite stores v at dst and adds v − v (0 for a finite v, NaN
// otherwise) into the accumulator Y8, through Y9: an optimizer step
// checks its candidates as it writes them, instead of reading them all
// again.
func storeFinite(t elem, v VecPhysical, dst Mem) {
	t.MOVU(v, dst)
	t.SUB(v, v, Y9)
	t.ADD(Y9, Y8, Y8)
}

// retZero sets the bool result to whether every lane of acc is 0 (false
// for NaN), with scratch a register to clobber.
func retZero(t elem, acc, scratch VecPhysical) {
	t.XOR(scratch, scratch, scratch)
	t.CMP(U8(0), scratch, acc, acc) // acc == 0, lane by lane (false for NaN)
	t.MOVMSK(acc, EAX)
	CMPL(EAX, U8(1<<t.lanes()-1))
	SETEQ(ret())
}

// elementwise emits every element-wise kernel and the reductions, for
// both element types.
func elementwise() {
	for _, k := range ewKernels {
		for _, t := range elems {
			k.emit(t)
		}
	}
	for _, t := range elems {
		sumSquares(t)
	}
	for _, t := range elems {
		allFinite(t)
	}
}

// ewHead loads n, in bytes, and the pointers of an element-wise kernel.
func ewHead(t elem, ptrs []string) map[string]GPPhysical {
	Load(Param("n"), ewN)
	SHLQ(U8(t.shift()), ewN) // bytes
	regs := map[string]GPPhysical{}
	for i, p := range ptrs {
		regs[p] = ewPtrs[i]
		Load(Param(p), ewPtrs[i])
	}
	return regs
}

// ewLoop emits the loop of blocks of blockBytes while a whole block is
// left, then the loop of one vector (32 bytes) at a time, of a kernel that
// works at byte offset AX of every operand, and ends at the label done.
func ewLoop(l labels, blockBytes int, block, one func()) {
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
	ADDQ(U8(32), ewI)
	JMP(l.L("one"))

	l.Set("done")
}

func (k ewKernel) emit(t elem) {
	l := kernel(t.name(k.base))
	regs := ewHead(t, k.ptrs)
	for i, s := range k.scalars {
		t.BROADCAST(arg(s), y(16-len(k.scalars)+i))
	}
	if k.setup != nil {
		k.setup(t)
	}
	if k.finite {
		t.XOR(Y8, Y8, Y8)
	}
	vec := func(u, off int) {
		k.body(t, u, func(p string) Mem { return at(regs[p], off, ewI, 1) })
	}
	ewLoop(l, 32*k.unroll, func() {
		for u := 0; u < k.unroll; u++ {
			vec(u, 32*u)
		}
	}, func() { vec(0, 0) })
	if k.finite {
		retZero(t, Y8, Y9)
	}
	VZEROUPPER()
	RET()
}

// reduction emits the loops of a reduction of x into the accumulators
// Y0–Y3: x is read in units of unit bytes, four per group, each into a
// register from Y4 on, and every phase runs over the units of a group
// before the next, as phase(operand, register, accumulator); a block is
// 128 bytes, the last vectors 32.
func reduction(l labels, x GPPhysical, unit int, phases ...func(m Mem, v, acc VecPhysical)) {
	group := func(off, units int) {
		for _, phase := range phases {
			for i := 0; i < units; i++ {
				phase(at(x, off+i*unit, ewI, 1), y(4+i), y(i))
			}
		}
	}
	ewLoop(l, 128, func() {
		for g := 0; g < 128; g += 4 * unit {
			group(g, 4)
		}
	}, func() { group(0, 32/unit) })
}

// sum4 adds the accumulators Y1–Y3 into Y0.
func sum4(t elem) {
	t.ADD(Y1, Y0, Y0)
	t.ADD(Y3, Y2, Y2)
	t.ADD(Y2, Y0, Y0)
}

// hsum adds the lanes of Y0 into X0's first; clobbers X1.
func hsum(t elem) {
	VEXTRACTF128(U8(1), Y0, X1)
	t.ADD(X1, X0, X0)
	for n := t.lanes() / 2; n > 1; n /= 2 {
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
		VXORPD(y(i), y(i), y(i))
	}
	widen := pick(t, VCVTPS2PD, VMOVUPD)
	reduction(l, regs["x"], 4*t.size,
		func(m Mem, v, _ VecPhysical) { widen(m, v) },
		func(_ Mem, v, acc VecPhysical) { VFMADD231PD(v, v, acc) })
	sum4(f64)
	hsum(f64)
	VMOVSD(X0, ret())
	VZEROUPPER()
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
		t.XOR(y(i), y(i), y(i))
	}
	reduction(l, regs["x"], 32,
		func(m Mem, v, _ VecPhysical) { t.MOVU(m, v) },
		func(_ Mem, v, _ VecPhysical) { t.SUB(v, v, v) },
		func(_ Mem, v, acc VecPhysical) { t.ADD(v, acc, acc) })
	sum4(t)
	retZero(t, Y0, Y1)
	VZEROUPPER()
	RET()
}
