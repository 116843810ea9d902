package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// elem is one element type of the kernels: every generator function takes
// one and emits the kernel for it, so that a float32/float64 pair of
// kernels has a single source. Its fields are the packed instructions of
// the type (the PS or PD form), called through the variadic signature avo
// gives them.
//
// vec is the width of its vectors: 32 bytes for the AVX2 kernels (YMM),
// 64 for the AVX-512 ones (ZMM, named …AVX512), which have 32 registers,
// opmask registers K1–K7 for partial vectors and comparisons, and
// zeroing-masked loads (MOVU_Z) that read only the lanes they keep.
type elem struct {
	size   int    // bytes per element
	suffix string // of the kernel's name: "F32" or "F64", then "AVX512" for vec 64
	vec    int    // bytes per vector

	MOVU, MOVA, MUL, ADD, SUB, DIV, SQRT, MAX, AND, XOR, CMP func(...Op)
	BROADCAST, FMADD231, PCMPGT, PBROADCAST                  func(...Op)
	MASKMOV                                                  func(m, mask, dst Op)
	MOVMSK                                                   func(x, r Op)
	MOVU_Z                                                   func(m, k, dst Op)

	// live, if not nil, is the opmask of the lanes that hold data, in an
	// AVX-512 kernel's masked last vector.
	live Op
}

// newElem returns the element type of size bytes, taking each instruction
// from the float32 (PS, SS, D) or float64 (PD, SD, Q) column.
func newElem(size int) elem {
	v := func(ps, pd func(...Op)) func(...Op) { return pickSize(size, ps, pd) }
	return elem{
		size: size, suffix: pickSize(size, "F32", "F64"),
		MOVU: v(VMOVUPS, VMOVUPD), MOVA: v(VMOVAPS, VMOVAPD),
		MUL: v(VMULPS, VMULPD), ADD: v(VADDPS, VADDPD), SUB: v(VSUBPS, VSUBPD), DIV: v(VDIVPS, VDIVPD),
		SQRT: v(VSQRTPS, VSQRTPD), MAX: v(VMAXPS, VMAXPD),
		AND: v(VANDPS, VANDPD), XOR: v(VXORPS, VXORPD), CMP: v(VCMPPS, VCMPPD),
		BROADCAST: v(VBROADCASTSS, VBROADCASTSD), FMADD231: v(VFMADD231PS, VFMADD231PD),
		PCMPGT: v(VPCMPGTD, VPCMPGTQ), PBROADCAST: v(VPBROADCASTD, VPBROADCASTQ),
		MASKMOV: pickSize(size, VMASKMOVPS, VMASKMOVPD),
		MOVMSK:  pickSize(size, VMOVMSKPS, VMOVMSKPD),
		MOVU_Z:  pickSize(size, VMOVUPS_Z, VMOVUPD_Z),
		vec:     32,
	}
}

// wide returns t with AVX-512's vectors.
func (t elem) wide() elem {
	t.vec = 64
	t.suffix += "AVX512"
	return t
}

var (
	f32    = newElem(4)
	f64    = newElem(8)
	elems  = []elem{f32, f64}
	elems2 = []elem{f32, f64, f32.wide(), f64.wide()} // both widths
)

// z reports whether t is an AVX-512 type.
func (t elem) z() bool { return t.vec == 64 }

// v returns t's vector register i: YMM, or ZMM with AVX-512.
func (t elem) v(i int) VecPhysical {
	if t.z() {
		return [...]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
			Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
	}
	return y(i)
}

// maskLoad loads the lanes of m that mask selects (a YMM of all-ones
// lanes for AVX2, an opmask register for AVX-512), zeros in the others,
// which it does not read; maskStore stores them alone.
func (t elem) maskLoad(m Mem, mask, dst Op) {
	if t.z() {
		t.MOVU_Z(m, mask, dst)
	} else {
		t.MASKMOV(m, mask, dst)
	}
}

func (t elem) maskStore(src, mask Op, m Mem) {
	if t.z() {
		t.MOVU(src, mask, m)
	} else {
		t.MASKMOV(src, mask, m)
	}
}

// kmask sets the opmask register k to the first cnt lanes (cnt in a GP
// register, 0 ≤ cnt ≤ 16), through the GP register scratch.
func kmask(cnt, scratch GPPhysical, k Op) {
	XORL(scratch.As32(), scratch.As32())
	BTSL(cnt.As32(), scratch.As32())
	DECL(scratch.As32()) // 2^cnt − 1
	KMOVW(scratch.As32(), k)
}

// pickSize returns a for 4-byte elements, b for 8-byte ones.
func pickSize[V any](size int, a, b V) V {
	if size == 4 {
		return a
	}
	return b
}

// lanes is the number of elements in a vector.
func (t elem) lanes() int { return t.vec / t.size }

// shift is log2(size), to turn an element count into bytes.
func (t elem) shift() int {
	if t.size == 4 {
		return 2
	}
	return 3
}

// bits is the element width in bits, as in the Go type name.
func (t elem) bits() int { return 8 * t.size }

// name is a kernel's assembly name: base plus the type suffix.
func (t elem) name(base string) string { return base + t.suffix }

// pick returns a or b for float32 or float64.
func pick[V any](t elem, a, b V) V { return pickSize(t.size, a, b) }

// arg is the frame address of the current function's parameter.
func arg(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// ret is the frame address of the current function's result.
func ret() Mem {
	b, err := ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// at returns the operand disp(base)(index*scale).
func at(base Register, disp int, index Register, scale uint8) Mem {
	return Mem{Base: base, Disp: disp, Index: index, Scale: scale}
}

// y and x return the YMM and XMM registers numbered i.
func y(i int) VecPhysical {
	return [...]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}[i]
}
func x(i int) VecPhysical {
	return [...]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
}

// label returns a label named after the kernel, as in kernel_suffix.
type labels string

func (l labels) L(s string) LabelRef { return LabelRef(string(l) + "_" + s) }
func (l labels) Set(s string)        { Label(string(l) + "_" + s) }

// vzeroupper ends a kernel before its RET: VZEROUPPER zeroes the upper
// halves of YMM0–15 (and the upper parts of ZMM0–15), so that the legacy
// SSE instructions of the Go code that runs next (the compiler's scalar
// float64 arithmetic) do not pay Intel's AVX–SSE transition penalty, and
// high lists the registers from ZMM16 on that the kernel wrote, which
// VZEROUPPER leaves as they are: each is zeroed whole, so that no upper
// state stays dirty.
func vzeroupper(high ...VecPhysical) {
	VZEROUPPER()
	for _, r := range high {
		VPXORD(r, r, r)
	}
}

// highRegs returns t's vector registers from..to−1 that are ZMM16 or
// above, for vzeroupper.
func highRegs(t elem, from, to int) []VecPhysical {
	var r []VecPhysical
	for i := max(from, 16); i < to && t.z(); i++ {
		r = append(r, t.v(i))
	}
	return r
}

// pcalign pads the code with NOPs to the next multiple of n bytes, as the
// Go assembler's PCALIGN directive, which avo has no instruction for. Put
// it where nothing falls through to it (after a jump), so that the NOPs
// are not executed.
func pcalign(n int) {
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{U8(n)}})
}
