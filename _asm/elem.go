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

	MOVU, MOVA, MUL, ADD, SUB, DIV, SQRT, MAX, MIN, AND, ANDN, OR, XOR, CMP func(...Op)
	BROADCAST, FMADD231, FNMADD231, PCMPGT, PBROADCAST, UNPCKL, UNPCKH      func(...Op)
	MASKMOV, BLENDV                                                         func(a, b, c Op, d ...Op)
	MOVMSK                                                                  func(a, b Op)
}

var (
	f32 = elem{
		size: 4, suffix: "F32",
		MOVU: VMOVUPS, MOVA: VMOVAPS, MUL: VMULPS, ADD: VADDPS, SUB: VSUBPS, DIV: VDIVPS, SQRT: VSQRTPS,
		MAX: VMAXPS, MIN: VMINPS, AND: VANDPS, ANDN: VANDNPS, OR: VORPS, XOR: VXORPS, CMP: VCMPPS,
		BROADCAST: VBROADCASTSS, FMADD231: VFMADD231PS, FNMADD231: VFNMADD231PS,
		PCMPGT: VPCMPGTD, PBROADCAST: VPBROADCASTD, UNPCKL: VUNPCKLPS, UNPCKH: VUNPCKHPS,
		MASKMOV: func(a, b, c Op, _ ...Op) { VMASKMOVPS(a, b, c) },
		BLENDV:  func(a, b, c Op, d ...Op) { VBLENDVPS(a, b, c, d[0]) },
		MOVMSK:  VMOVMSKPS,
	}
	f64 = elem{
		size: 8, suffix: "F64",
		MOVU: VMOVUPD, MOVA: VMOVAPD, MUL: VMULPD, ADD: VADDPD, SUB: VSUBPD, DIV: VDIVPD, SQRT: VSQRTPD,
		MAX: VMAXPD, MIN: VMINPD, AND: VANDPD, ANDN: VANDNPD, OR: VORPD, XOR: VXORPD, CMP: VCMPPD,
		BROADCAST: VBROADCASTSD, FMADD231: VFMADD231PD, FNMADD231: VFNMADD231PD,
		PCMPGT: VPCMPGTQ, PBROADCAST: VPBROADCASTQ, UNPCKL: VUNPCKLPD, UNPCKH: VUNPCKHPD,
		MASKMOV: func(a, b, c Op, _ ...Op) { VMASKMOVPD(a, b, c) },
		BLENDV:  func(a, b, c Op, d ...Op) { VBLENDVPD(a, b, c, d[0]) },
		MOVMSK:  VMOVMSKPD,
	}
	elems = []elem{f32, f64}
)

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
func pick[V any](t elem, a, b V) V {
	if t.size == 4 {
		return a
	}
	return b
}

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
