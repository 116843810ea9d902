package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// elem is one element type of the kernels: every generator function takes
// one and emits the kernel for it, so that a float32/float64 pair of
// kernels has a single source. Its fields are the packed instructions of
// the type (the PS or PD form), called through the variadic signature avo
// gives them.
type elem struct {
	size   int    // bytes per element
	suffix string // of the kernel's name: "F32" or "F64"

	MOVU, MOVA, MUL, ADD, SUB, DIV, SQRT, MAX, AND, XOR, CMP func(...Op)
	BROADCAST, FMADD231, PCMPGT, PBROADCAST                  func(...Op)
	MASKMOV                                                  func(m, mask, dst Op)
	MOVMSK                                                   func(x, r Op)
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
	}
}

var (
	f32   = newElem(4)
	f64   = newElem(8)
	elems = []elem{f32, f64}
)

// pickSize returns a for 4-byte elements, b for 8-byte ones.
func pickSize[V any](size int, a, b V) V {
	if size == 4 {
		return a
	}
	return b
}

// lanes is the number of elements in a YMM register.
func (t elem) lanes() int { return 32 / t.size }

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
