//go:build gc && !purego

// NEON kernels for arm64; see simd_arm64.go and simd_asm.go (the
// element-wise stubs, shared with amd64) for the Go stubs and the
// reference loop of each kernel, and simd_generic.go for the semantics.
//
// The Go assembler's only vector floating-point arithmetic is VFMLA/VFMLS
// (VADD and friends are the integer instructions), so the other
// floating-point vector instructions are written as WORDs with the
// instruction in ARM syntax as the comment. TestNEONWords
// (simd_arm64_words_test.go) disassembles the package and checks that
// every WORD decodes to its comment. Encodings (ARM DDI 0487, C7.2), with
// d, n, m the register numbers, Q = 1 for 128-bit vectors and sz = 0 for
// .4S, 1 for .2D:
//
//	FADD  Vd, Vn, Vm          0x0E20D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FSUB  Vd, Vn, Vm          0x0EA0D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FMUL  Vd, Vn, Vm          0x2E20DC00 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FDIV  Vd, Vn, Vm          0x2E20FC00 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FMAX  Vd, Vn, Vm          0x0E20F400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FADDP Vd, Vn, Vm          0x2E20D400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMEQ Vd, Vn, Vm          0x0E20E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMGE Vd, Vn, Vm          0x2E20E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FCMGT Vd, Vn, Vm          0x2EA0E400 | Q<<30 | sz<<22 | m<<16 | n<<5 | d
//	FSQRT Vd, Vn              0x2EA1F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FABS  Vd, Vn              0x0EA0F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FNEG  Vd, Vn              0x2EA0F800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTN Vd, Vn (to even)   0x0E218800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTM Vd, Vn (floor)     0x0E219800 | Q<<30 | sz<<22 |         n<<5 | d
//	FRINTZ Vd, Vn (truncate)  0x0EA19800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMEQ Vd, Vn, #0          0x0EA0D800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMGE Vd, Vn, #0          0x2EA0C800 | Q<<30 | sz<<22 |         n<<5 | d
//	FCMGT Vd, Vn, #0          0x0EA0C800 | Q<<30 | sz<<22 |         n<<5 | d
//	FADDP Sd, Vn.2S (scalar)  0x7E30D800 |         sz<<22 |         n<<5 | d
//	FCVTL(2) Vd.2D, Vn.2S/4S  0x0E617800 | Q<<30 |                  n<<5 | d
//	FCVTN(2) Vd.2S/4S, Vn.2D  0x0E616800 | Q<<30 |                  n<<5 | d
//
// So, for example, FADD V0.4S, V1.4S, V2.4S is 0x4E22D420 and
// FMUL V0.2D, V1.2D, V2.2D is 0x6E62DC20. The comparisons set a lane to
// all ones where they hold and to zero where they do not (NaN included),
// for the assembler's VBIT, VBIF and VAND to blend with. Scalar
// instructions (FADDS, FMULD, FSQRTD, FMADDS, FMAXD, ...) and the loads,
// stores, FMOVQ, VMOV, VDUP, VLD1R, VEOR, VAND, VORR, VBIT, VBIF, VUSHR,
// VSHL, VFMLA and VFMLS are the assembler's own. Inside a #define a WORD's
// comment is written /* ... */, since a // comment would swallow the line
// continuation.
//
// Element-wise kernels use the separate FMUL/FADD/FSUB/FDIV/FSQRT of the
// generic code, in its order and with its operand order, so that they
// match it bit for bit; only axpy and the matrix kernels fuse, and tanh
// exactly where math.Tanh, as compiled for arm64, does. gcpLossF64
// fuses where the AVX2 kernel of simd_amd64.s does (the polynomials of
// exp and ln), so the two write the same gradients, bit for bit (up to
// NaN payloads); only their loss sums add the lanes in another order.

#include "textflag.h"

// Bits of the flags argument of the matrix kernels (gemmBias, gemmAccum,
// gemmReLU in simd_arm64.go).
#define BIAS_BIT 0
#define ACCUM_BIT 1
#define RELU_BIT 2

// Matrix kernels: broadcast A, multiply rows of B.

#define MROWS  R0   // rows of C left
#define NCOLS  R1   // columns of C
#define KDIM   R2   // inner dimension
#define APTR   R3   // &A(i0, 0)
#define ARS    R4   // A's row stride, in bytes
#define AQS    R5   // A's inner stride, in bytes
#define BPTR   R6   // &B(0, 0)
#define LDB    R7   // B's row stride, in bytes
#define CPTR   R8   // &C(i0, 0)
#define LDC    R9   // C's row stride, in bytes
#define BIAS   R10  // &bias[0]
#define FLAGS R11
#define JOFF   R12  // byte offset of the column tile in the rows of B, C and bias
#define NJ     R13  // columns left
#define QCNT   R14  // inner iterations left
#define A0     R15  // &A(i0+r, q)
#define A1 R19
#define A2 R20
#define A3 R21
#define BP     R22  // &B(q, j)
#define CP     R23  // &C(i0+r, j)

// func gemmBcastF32(m, n, k int, a *float32, ars, aqs int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)
//
// C (m × n) = A (m × k) · B (k × n), A(i, q) = a[i*ars + q*aqs], B row-major.
// Tiles of 4 rows × 16 columns: 16 accumulators V16–V31, a row of B in
// V0–V3 and four broadcast A(i, q) in V4–V7; then 4 rows × 4, 4 rows × 1,
// and the same for the last m mod 4 rows one at a time.
TEXT ·gemmBcastF32(SB), NOSPLIT|NOFRAME, $0-96
	MOVD m+0(FP), MROWS
	MOVD n+8(FP), NCOLS
	MOVD k+16(FP), KDIM
	MOVD a+24(FP), APTR
	MOVD ars+32(FP), ARS
	MOVD aqs+40(FP), AQS
	MOVD b+48(FP), BPTR
	MOVD ldb+56(FP), LDB
	MOVD c+64(FP), CPTR
	MOVD ldc+72(FP), LDC
	MOVD bias+80(FP), BIAS
	MOVD flags+88(FP), FLAGS
	LSL $2, ARS
	LSL $2, AQS
	LSL $2, LDB
	LSL $2, LDC
	VEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU

gemmBcastF32_rows4:
	CMP $4, MROWS
	BLT gemmBcastF32_rows1
	MOVD ZR, JOFF
	MOVD NCOLS, NJ
gemmBcastF32_r4cw:
	CMP $16, NJ
	BLT gemmBcastF32_r4cn
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r4cw_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r4cw_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	VEOR V28.B16, V28.B16, V28.B16
	VEOR V29.B16, V29.B16, V29.B16
	VEOR V30.B16, V30.B16, V30.B16
	VEOR V31.B16, V31.B16, V31.B16
	B gemmBcastF32_r4cw_k

gemmBcastF32_r4cw_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.S4, V17.S4, V18.S4, V19.S4]
	VMOV V16.B16, V20.B16
	VMOV V17.B16, V21.B16
	VMOV V18.B16, V22.B16
	VMOV V19.B16, V23.B16
	VMOV V16.B16, V24.B16
	VMOV V17.B16, V25.B16
	VMOV V18.B16, V26.B16
	VMOV V19.B16, V27.B16
	VMOV V16.B16, V28.B16
	VMOV V17.B16, V29.B16
	VMOV V18.B16, V30.B16
	VMOV V19.B16, V31.B16
	B gemmBcastF32_r4cw_k

gemmBcastF32_r4cw_accum:
	ADD CPTR, JOFF, CP
	VLD1.P (CP)(LDC), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1.P (CP)(LDC), [V20.S4, V21.S4, V22.S4, V23.S4]
	VLD1.P (CP)(LDC), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1.P (CP)(LDC), [V28.S4, V29.S4, V30.S4, V31.S4]

gemmBcastF32_r4cw_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r4cw_relu
	PCALIGN $16

gemmBcastF32_r4cw_loop:
	VLD1.P (BP)(LDB), [V0.S4, V1.S4, V2.S4, V3.S4] // a row of B
	VLD1R.P (A0)(AQS), [V4.S4] // A(i0+0, q), broadcast
	VLD1R.P (A1)(AQS), [V5.S4] // A(i0+1, q), broadcast
	VLD1R.P (A2)(AQS), [V6.S4] // A(i0+2, q), broadcast
	VLD1R.P (A3)(AQS), [V7.S4] // A(i0+3, q), broadcast
	VFMLA V0.S4, V4.S4, V16.S4
	VFMLA V1.S4, V4.S4, V17.S4
	VFMLA V2.S4, V4.S4, V18.S4
	VFMLA V3.S4, V4.S4, V19.S4
	VFMLA V0.S4, V5.S4, V20.S4
	VFMLA V1.S4, V5.S4, V21.S4
	VFMLA V2.S4, V5.S4, V22.S4
	VFMLA V3.S4, V5.S4, V23.S4
	VFMLA V0.S4, V6.S4, V24.S4
	VFMLA V1.S4, V6.S4, V25.S4
	VFMLA V2.S4, V6.S4, V26.S4
	VFMLA V3.S4, V6.S4, V27.S4
	VFMLA V0.S4, V7.S4, V28.S4
	VFMLA V1.S4, V7.S4, V29.S4
	VFMLA V2.S4, V7.S4, V30.S4
	VFMLA V3.S4, V7.S4, V31.S4
	SUBS $1, QCNT
	BNE gemmBcastF32_r4cw_loop

gemmBcastF32_r4cw_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r4cw_store
	WORD $0x4E28F610 // FMAX V16.4S, V16.4S, V8.4S
	WORD $0x4E28F631 // FMAX V17.4S, V17.4S, V8.4S
	WORD $0x4E28F652 // FMAX V18.4S, V18.4S, V8.4S
	WORD $0x4E28F673 // FMAX V19.4S, V19.4S, V8.4S
	WORD $0x4E28F694 // FMAX V20.4S, V20.4S, V8.4S
	WORD $0x4E28F6B5 // FMAX V21.4S, V21.4S, V8.4S
	WORD $0x4E28F6D6 // FMAX V22.4S, V22.4S, V8.4S
	WORD $0x4E28F6F7 // FMAX V23.4S, V23.4S, V8.4S
	WORD $0x4E28F718 // FMAX V24.4S, V24.4S, V8.4S
	WORD $0x4E28F739 // FMAX V25.4S, V25.4S, V8.4S
	WORD $0x4E28F75A // FMAX V26.4S, V26.4S, V8.4S
	WORD $0x4E28F77B // FMAX V27.4S, V27.4S, V8.4S
	WORD $0x4E28F79C // FMAX V28.4S, V28.4S, V8.4S
	WORD $0x4E28F7BD // FMAX V29.4S, V29.4S, V8.4S
	WORD $0x4E28F7DE // FMAX V30.4S, V30.4S, V8.4S
	WORD $0x4E28F7FF // FMAX V31.4S, V31.4S, V8.4S

gemmBcastF32_r4cw_store:
	ADD CPTR, JOFF, CP
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], (CP)(LDC)
	VST1.P [V20.S4, V21.S4, V22.S4, V23.S4], (CP)(LDC)
	VST1.P [V24.S4, V25.S4, V26.S4, V27.S4], (CP)(LDC)
	VST1.P [V28.S4, V29.S4, V30.S4, V31.S4], (CP)(LDC)
	ADD $64, JOFF
	SUB $16, NJ
	B gemmBcastF32_r4cw

gemmBcastF32_r4cn:
	CMP $4, NJ
	BLT gemmBcastF32_r4c1
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r4cn_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r4cn_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V28.B16, V28.B16, V28.B16
	B gemmBcastF32_r4cn_k

gemmBcastF32_r4cn_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.S4]
	VMOV V16.B16, V20.B16
	VMOV V16.B16, V24.B16
	VMOV V16.B16, V28.B16
	B gemmBcastF32_r4cn_k

gemmBcastF32_r4cn_accum:
	ADD CPTR, JOFF, CP
	VLD1.P (CP)(LDC), [V16.S4]
	VLD1.P (CP)(LDC), [V20.S4]
	VLD1.P (CP)(LDC), [V24.S4]
	VLD1.P (CP)(LDC), [V28.S4]

gemmBcastF32_r4cn_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r4cn_relu
	PCALIGN $16

gemmBcastF32_r4cn_loop:
	VLD1.P (BP)(LDB), [V0.S4] // a row of B
	VLD1R.P (A0)(AQS), [V4.S4] // A(i0+0, q), broadcast
	VLD1R.P (A1)(AQS), [V5.S4] // A(i0+1, q), broadcast
	VLD1R.P (A2)(AQS), [V6.S4] // A(i0+2, q), broadcast
	VLD1R.P (A3)(AQS), [V7.S4] // A(i0+3, q), broadcast
	VFMLA V0.S4, V4.S4, V16.S4
	VFMLA V0.S4, V5.S4, V20.S4
	VFMLA V0.S4, V6.S4, V24.S4
	VFMLA V0.S4, V7.S4, V28.S4
	SUBS $1, QCNT
	BNE gemmBcastF32_r4cn_loop

gemmBcastF32_r4cn_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r4cn_store
	WORD $0x4E28F610 // FMAX V16.4S, V16.4S, V8.4S
	WORD $0x4E28F694 // FMAX V20.4S, V20.4S, V8.4S
	WORD $0x4E28F718 // FMAX V24.4S, V24.4S, V8.4S
	WORD $0x4E28F79C // FMAX V28.4S, V28.4S, V8.4S

gemmBcastF32_r4cn_store:
	ADD CPTR, JOFF, CP
	VST1.P [V16.S4], (CP)(LDC)
	VST1.P [V20.S4], (CP)(LDC)
	VST1.P [V24.S4], (CP)(LDC)
	VST1.P [V28.S4], (CP)(LDC)
	ADD $16, JOFF
	SUB $4, NJ
	B gemmBcastF32_r4cn

gemmBcastF32_r4c1:
	CMP $1, NJ
	BLT gemmBcastF32_r4done
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r4c1_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r4c1_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V28.B16, V28.B16, V28.B16
	B gemmBcastF32_r4c1_k

gemmBcastF32_r4c1_bias:
	FMOVS (BIAS)(JOFF), F16
	FMOVS F16, F20
	FMOVS F16, F24
	FMOVS F16, F28
	B gemmBcastF32_r4c1_k

gemmBcastF32_r4c1_accum:
	ADD CPTR, JOFF, CP
	FMOVS (CP), F16
	ADD LDC, CP
	FMOVS (CP), F20
	ADD LDC, CP
	FMOVS (CP), F24
	ADD LDC, CP
	FMOVS (CP), F28
	ADD LDC, CP

gemmBcastF32_r4c1_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r4c1_relu
	PCALIGN $16

gemmBcastF32_r4c1_loop:
	FMOVS (BP), F0
	ADD LDB, BP
	FMOVS (A0), F4
	ADD AQS, A0
	FMOVS (A1), F5
	ADD AQS, A1
	FMOVS (A2), F6
	ADD AQS, A2
	FMOVS (A3), F7
	ADD AQS, A3
	FMADDS F0, F16, F4, F16 // s += A(i0+0, q) * B(q, j)
	FMADDS F0, F20, F5, F20 // s += A(i0+1, q) * B(q, j)
	FMADDS F0, F24, F6, F24 // s += A(i0+2, q) * B(q, j)
	FMADDS F0, F28, F7, F28 // s += A(i0+3, q) * B(q, j)
	SUBS $1, QCNT
	BNE gemmBcastF32_r4c1_loop

gemmBcastF32_r4c1_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r4c1_store
	FMAXS F8, F16, F16
	FMAXS F8, F20, F20
	FMAXS F8, F24, F24
	FMAXS F8, F28, F28

gemmBcastF32_r4c1_store:
	ADD CPTR, JOFF, CP
	FMOVS F16, (CP)
	ADD LDC, CP
	FMOVS F20, (CP)
	ADD LDC, CP
	FMOVS F24, (CP)
	ADD LDC, CP
	FMOVS F28, (CP)
	ADD LDC, CP
	ADD $4, JOFF
	SUB $1, NJ
	B gemmBcastF32_r4c1

gemmBcastF32_r4done:
	ADD ARS<<2, APTR
	ADD LDC<<2, CPTR
	SUB $4, MROWS
	B gemmBcastF32_rows4

gemmBcastF32_rows1:
	CBZ MROWS, gemmBcastF32_done
	MOVD ZR, JOFF
	MOVD NCOLS, NJ

gemmBcastF32_r1cw:
	CMP $16, NJ
	BLT gemmBcastF32_r1cn
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r1cw_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r1cw_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	B gemmBcastF32_r1cw_k

gemmBcastF32_r1cw_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.S4, V17.S4, V18.S4, V19.S4]
	B gemmBcastF32_r1cw_k

gemmBcastF32_r1cw_accum:
	ADD CPTR, JOFF, CP
	VLD1 (CP), [V16.S4, V17.S4, V18.S4, V19.S4]

gemmBcastF32_r1cw_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r1cw_relu
	PCALIGN $16

gemmBcastF32_r1cw_loop:
	VLD1.P (BP)(LDB), [V0.S4, V1.S4, V2.S4, V3.S4] // a row of B
	VLD1R.P (A0)(AQS), [V4.S4] // A(i, q), broadcast
	VFMLA V0.S4, V4.S4, V16.S4
	VFMLA V1.S4, V4.S4, V17.S4
	VFMLA V2.S4, V4.S4, V18.S4
	VFMLA V3.S4, V4.S4, V19.S4
	SUBS $1, QCNT
	BNE gemmBcastF32_r1cw_loop

gemmBcastF32_r1cw_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r1cw_store
	WORD $0x4E28F610 // FMAX V16.4S, V16.4S, V8.4S
	WORD $0x4E28F631 // FMAX V17.4S, V17.4S, V8.4S
	WORD $0x4E28F652 // FMAX V18.4S, V18.4S, V8.4S
	WORD $0x4E28F673 // FMAX V19.4S, V19.4S, V8.4S

gemmBcastF32_r1cw_store:
	ADD CPTR, JOFF, CP
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (CP)
	ADD $64, JOFF
	SUB $16, NJ
	B gemmBcastF32_r1cw

gemmBcastF32_r1cn:
	CMP $4, NJ
	BLT gemmBcastF32_r1c1
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r1cn_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r1cn_bias
	VEOR V16.B16, V16.B16, V16.B16
	B gemmBcastF32_r1cn_k

gemmBcastF32_r1cn_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.S4]
	B gemmBcastF32_r1cn_k

gemmBcastF32_r1cn_accum:
	ADD CPTR, JOFF, CP
	VLD1 (CP), [V16.S4]

gemmBcastF32_r1cn_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r1cn_relu
	PCALIGN $16

gemmBcastF32_r1cn_loop:
	VLD1.P (BP)(LDB), [V0.S4] // a row of B
	VLD1R.P (A0)(AQS), [V4.S4] // A(i, q), broadcast
	VFMLA V0.S4, V4.S4, V16.S4
	SUBS $1, QCNT
	BNE gemmBcastF32_r1cn_loop

gemmBcastF32_r1cn_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r1cn_store
	WORD $0x4E28F610 // FMAX V16.4S, V16.4S, V8.4S

gemmBcastF32_r1cn_store:
	ADD CPTR, JOFF, CP
	VST1 [V16.S4], (CP)
	ADD $16, JOFF
	SUB $4, NJ
	B gemmBcastF32_r1cn

gemmBcastF32_r1c1:
	CMP $1, NJ
	BLT gemmBcastF32_r1done
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF32_r1c1_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF32_r1c1_bias
	VEOR V16.B16, V16.B16, V16.B16
	B gemmBcastF32_r1c1_k

gemmBcastF32_r1c1_bias:
	FMOVS (BIAS)(JOFF), F16
	B gemmBcastF32_r1c1_k

gemmBcastF32_r1c1_accum:
	FMOVS (CPTR)(JOFF), F16

gemmBcastF32_r1c1_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF32_r1c1_relu
	PCALIGN $16

gemmBcastF32_r1c1_loop:
	FMOVS (BP), F0
	ADD LDB, BP
	FMOVS (A0), F4
	ADD AQS, A0
	FMADDS F0, F16, F4, F16 // s += A(i, q) * B(q, j)
	SUBS $1, QCNT
	BNE gemmBcastF32_r1c1_loop

gemmBcastF32_r1c1_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF32_r1c1_store
	FMAXS F8, F16, F16

gemmBcastF32_r1c1_store:
	FMOVS F16, (CPTR)(JOFF)
	ADD $4, JOFF
	SUB $1, NJ
	B gemmBcastF32_r1c1

gemmBcastF32_r1done:
	ADD ARS, APTR
	ADD LDC, CPTR
	SUB $1, MROWS
	B gemmBcastF32_rows1

gemmBcastF32_done:
	RET

// func gemmBcastF64(m, n, k int, a *float64, ars, aqs int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)
//
// C (m × n) = A (m × k) · B (k × n), A(i, q) = a[i*ars + q*aqs], B row-major.
// Tiles of 4 rows × 8 columns: 16 accumulators V16–V31, a row of B in
// V0–V3 and four broadcast A(i, q) in V4–V7; then 4 rows × 2, 4 rows × 1,
// and the same for the last m mod 4 rows one at a time.
TEXT ·gemmBcastF64(SB), NOSPLIT|NOFRAME, $0-96
	MOVD m+0(FP), MROWS
	MOVD n+8(FP), NCOLS
	MOVD k+16(FP), KDIM
	MOVD a+24(FP), APTR
	MOVD ars+32(FP), ARS
	MOVD aqs+40(FP), AQS
	MOVD b+48(FP), BPTR
	MOVD ldb+56(FP), LDB
	MOVD c+64(FP), CPTR
	MOVD ldc+72(FP), LDC
	MOVD bias+80(FP), BIAS
	MOVD flags+88(FP), FLAGS
	LSL $3, ARS
	LSL $3, AQS
	LSL $3, LDB
	LSL $3, LDC
	VEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU

gemmBcastF64_rows4:
	CMP $4, MROWS
	BLT gemmBcastF64_rows1
	MOVD ZR, JOFF
	MOVD NCOLS, NJ
gemmBcastF64_r4cw:
	CMP $8, NJ
	BLT gemmBcastF64_r4cn
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r4cw_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r4cw_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	VEOR V28.B16, V28.B16, V28.B16
	VEOR V29.B16, V29.B16, V29.B16
	VEOR V30.B16, V30.B16, V30.B16
	VEOR V31.B16, V31.B16, V31.B16
	B gemmBcastF64_r4cw_k

gemmBcastF64_r4cw_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.D2, V17.D2, V18.D2, V19.D2]
	VMOV V16.B16, V20.B16
	VMOV V17.B16, V21.B16
	VMOV V18.B16, V22.B16
	VMOV V19.B16, V23.B16
	VMOV V16.B16, V24.B16
	VMOV V17.B16, V25.B16
	VMOV V18.B16, V26.B16
	VMOV V19.B16, V27.B16
	VMOV V16.B16, V28.B16
	VMOV V17.B16, V29.B16
	VMOV V18.B16, V30.B16
	VMOV V19.B16, V31.B16
	B gemmBcastF64_r4cw_k

gemmBcastF64_r4cw_accum:
	ADD CPTR, JOFF, CP
	VLD1.P (CP)(LDC), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P (CP)(LDC), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P (CP)(LDC), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P (CP)(LDC), [V28.D2, V29.D2, V30.D2, V31.D2]

gemmBcastF64_r4cw_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r4cw_relu
	PCALIGN $16

gemmBcastF64_r4cw_loop:
	VLD1.P (BP)(LDB), [V0.D2, V1.D2, V2.D2, V3.D2] // a row of B
	VLD1R.P (A0)(AQS), [V4.D2] // A(i0+0, q), broadcast
	VLD1R.P (A1)(AQS), [V5.D2] // A(i0+1, q), broadcast
	VLD1R.P (A2)(AQS), [V6.D2] // A(i0+2, q), broadcast
	VLD1R.P (A3)(AQS), [V7.D2] // A(i0+3, q), broadcast
	VFMLA V0.D2, V4.D2, V16.D2
	VFMLA V1.D2, V4.D2, V17.D2
	VFMLA V2.D2, V4.D2, V18.D2
	VFMLA V3.D2, V4.D2, V19.D2
	VFMLA V0.D2, V5.D2, V20.D2
	VFMLA V1.D2, V5.D2, V21.D2
	VFMLA V2.D2, V5.D2, V22.D2
	VFMLA V3.D2, V5.D2, V23.D2
	VFMLA V0.D2, V6.D2, V24.D2
	VFMLA V1.D2, V6.D2, V25.D2
	VFMLA V2.D2, V6.D2, V26.D2
	VFMLA V3.D2, V6.D2, V27.D2
	VFMLA V0.D2, V7.D2, V28.D2
	VFMLA V1.D2, V7.D2, V29.D2
	VFMLA V2.D2, V7.D2, V30.D2
	VFMLA V3.D2, V7.D2, V31.D2
	SUBS $1, QCNT
	BNE gemmBcastF64_r4cw_loop

gemmBcastF64_r4cw_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r4cw_store
	WORD $0x4E68F610 // FMAX V16.2D, V16.2D, V8.2D
	WORD $0x4E68F631 // FMAX V17.2D, V17.2D, V8.2D
	WORD $0x4E68F652 // FMAX V18.2D, V18.2D, V8.2D
	WORD $0x4E68F673 // FMAX V19.2D, V19.2D, V8.2D
	WORD $0x4E68F694 // FMAX V20.2D, V20.2D, V8.2D
	WORD $0x4E68F6B5 // FMAX V21.2D, V21.2D, V8.2D
	WORD $0x4E68F6D6 // FMAX V22.2D, V22.2D, V8.2D
	WORD $0x4E68F6F7 // FMAX V23.2D, V23.2D, V8.2D
	WORD $0x4E68F718 // FMAX V24.2D, V24.2D, V8.2D
	WORD $0x4E68F739 // FMAX V25.2D, V25.2D, V8.2D
	WORD $0x4E68F75A // FMAX V26.2D, V26.2D, V8.2D
	WORD $0x4E68F77B // FMAX V27.2D, V27.2D, V8.2D
	WORD $0x4E68F79C // FMAX V28.2D, V28.2D, V8.2D
	WORD $0x4E68F7BD // FMAX V29.2D, V29.2D, V8.2D
	WORD $0x4E68F7DE // FMAX V30.2D, V30.2D, V8.2D
	WORD $0x4E68F7FF // FMAX V31.2D, V31.2D, V8.2D

gemmBcastF64_r4cw_store:
	ADD CPTR, JOFF, CP
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], (CP)(LDC)
	VST1.P [V20.D2, V21.D2, V22.D2, V23.D2], (CP)(LDC)
	VST1.P [V24.D2, V25.D2, V26.D2, V27.D2], (CP)(LDC)
	VST1.P [V28.D2, V29.D2, V30.D2, V31.D2], (CP)(LDC)
	ADD $64, JOFF
	SUB $8, NJ
	B gemmBcastF64_r4cw

gemmBcastF64_r4cn:
	CMP $2, NJ
	BLT gemmBcastF64_r4c1
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r4cn_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r4cn_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V28.B16, V28.B16, V28.B16
	B gemmBcastF64_r4cn_k

gemmBcastF64_r4cn_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.D2]
	VMOV V16.B16, V20.B16
	VMOV V16.B16, V24.B16
	VMOV V16.B16, V28.B16
	B gemmBcastF64_r4cn_k

gemmBcastF64_r4cn_accum:
	ADD CPTR, JOFF, CP
	VLD1.P (CP)(LDC), [V16.D2]
	VLD1.P (CP)(LDC), [V20.D2]
	VLD1.P (CP)(LDC), [V24.D2]
	VLD1.P (CP)(LDC), [V28.D2]

gemmBcastF64_r4cn_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r4cn_relu
	PCALIGN $16

gemmBcastF64_r4cn_loop:
	VLD1.P (BP)(LDB), [V0.D2] // a row of B
	VLD1R.P (A0)(AQS), [V4.D2] // A(i0+0, q), broadcast
	VLD1R.P (A1)(AQS), [V5.D2] // A(i0+1, q), broadcast
	VLD1R.P (A2)(AQS), [V6.D2] // A(i0+2, q), broadcast
	VLD1R.P (A3)(AQS), [V7.D2] // A(i0+3, q), broadcast
	VFMLA V0.D2, V4.D2, V16.D2
	VFMLA V0.D2, V5.D2, V20.D2
	VFMLA V0.D2, V6.D2, V24.D2
	VFMLA V0.D2, V7.D2, V28.D2
	SUBS $1, QCNT
	BNE gemmBcastF64_r4cn_loop

gemmBcastF64_r4cn_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r4cn_store
	WORD $0x4E68F610 // FMAX V16.2D, V16.2D, V8.2D
	WORD $0x4E68F694 // FMAX V20.2D, V20.2D, V8.2D
	WORD $0x4E68F718 // FMAX V24.2D, V24.2D, V8.2D
	WORD $0x4E68F79C // FMAX V28.2D, V28.2D, V8.2D

gemmBcastF64_r4cn_store:
	ADD CPTR, JOFF, CP
	VST1.P [V16.D2], (CP)(LDC)
	VST1.P [V20.D2], (CP)(LDC)
	VST1.P [V24.D2], (CP)(LDC)
	VST1.P [V28.D2], (CP)(LDC)
	ADD $16, JOFF
	SUB $2, NJ
	B gemmBcastF64_r4cn

gemmBcastF64_r4c1:
	CMP $1, NJ
	BLT gemmBcastF64_r4done
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r4c1_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r4c1_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V28.B16, V28.B16, V28.B16
	B gemmBcastF64_r4c1_k

gemmBcastF64_r4c1_bias:
	FMOVD (BIAS)(JOFF), F16
	FMOVD F16, F20
	FMOVD F16, F24
	FMOVD F16, F28
	B gemmBcastF64_r4c1_k

gemmBcastF64_r4c1_accum:
	ADD CPTR, JOFF, CP
	FMOVD (CP), F16
	ADD LDC, CP
	FMOVD (CP), F20
	ADD LDC, CP
	FMOVD (CP), F24
	ADD LDC, CP
	FMOVD (CP), F28
	ADD LDC, CP

gemmBcastF64_r4c1_k:
	MOVD APTR, A0
	ADD ARS, A0, A1
	ADD ARS, A1, A2
	ADD ARS, A2, A3
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r4c1_relu
	PCALIGN $16

gemmBcastF64_r4c1_loop:
	FMOVD (BP), F0
	ADD LDB, BP
	FMOVD (A0), F4
	ADD AQS, A0
	FMOVD (A1), F5
	ADD AQS, A1
	FMOVD (A2), F6
	ADD AQS, A2
	FMOVD (A3), F7
	ADD AQS, A3
	FMADDD F0, F16, F4, F16 // s += A(i0+0, q) * B(q, j)
	FMADDD F0, F20, F5, F20 // s += A(i0+1, q) * B(q, j)
	FMADDD F0, F24, F6, F24 // s += A(i0+2, q) * B(q, j)
	FMADDD F0, F28, F7, F28 // s += A(i0+3, q) * B(q, j)
	SUBS $1, QCNT
	BNE gemmBcastF64_r4c1_loop

gemmBcastF64_r4c1_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r4c1_store
	FMAXD F8, F16, F16
	FMAXD F8, F20, F20
	FMAXD F8, F24, F24
	FMAXD F8, F28, F28

gemmBcastF64_r4c1_store:
	ADD CPTR, JOFF, CP
	FMOVD F16, (CP)
	ADD LDC, CP
	FMOVD F20, (CP)
	ADD LDC, CP
	FMOVD F24, (CP)
	ADD LDC, CP
	FMOVD F28, (CP)
	ADD LDC, CP
	ADD $8, JOFF
	SUB $1, NJ
	B gemmBcastF64_r4c1

gemmBcastF64_r4done:
	ADD ARS<<2, APTR
	ADD LDC<<2, CPTR
	SUB $4, MROWS
	B gemmBcastF64_rows4

gemmBcastF64_rows1:
	CBZ MROWS, gemmBcastF64_done
	MOVD ZR, JOFF
	MOVD NCOLS, NJ

gemmBcastF64_r1cw:
	CMP $8, NJ
	BLT gemmBcastF64_r1cn
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r1cw_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r1cw_bias
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	B gemmBcastF64_r1cw_k

gemmBcastF64_r1cw_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.D2, V17.D2, V18.D2, V19.D2]
	B gemmBcastF64_r1cw_k

gemmBcastF64_r1cw_accum:
	ADD CPTR, JOFF, CP
	VLD1 (CP), [V16.D2, V17.D2, V18.D2, V19.D2]

gemmBcastF64_r1cw_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r1cw_relu
	PCALIGN $16

gemmBcastF64_r1cw_loop:
	VLD1.P (BP)(LDB), [V0.D2, V1.D2, V2.D2, V3.D2] // a row of B
	VLD1R.P (A0)(AQS), [V4.D2] // A(i, q), broadcast
	VFMLA V0.D2, V4.D2, V16.D2
	VFMLA V1.D2, V4.D2, V17.D2
	VFMLA V2.D2, V4.D2, V18.D2
	VFMLA V3.D2, V4.D2, V19.D2
	SUBS $1, QCNT
	BNE gemmBcastF64_r1cw_loop

gemmBcastF64_r1cw_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r1cw_store
	WORD $0x4E68F610 // FMAX V16.2D, V16.2D, V8.2D
	WORD $0x4E68F631 // FMAX V17.2D, V17.2D, V8.2D
	WORD $0x4E68F652 // FMAX V18.2D, V18.2D, V8.2D
	WORD $0x4E68F673 // FMAX V19.2D, V19.2D, V8.2D

gemmBcastF64_r1cw_store:
	ADD CPTR, JOFF, CP
	VST1 [V16.D2, V17.D2, V18.D2, V19.D2], (CP)
	ADD $64, JOFF
	SUB $8, NJ
	B gemmBcastF64_r1cw

gemmBcastF64_r1cn:
	CMP $2, NJ
	BLT gemmBcastF64_r1c1
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r1cn_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r1cn_bias
	VEOR V16.B16, V16.B16, V16.B16
	B gemmBcastF64_r1cn_k

gemmBcastF64_r1cn_bias:
	ADD BIAS, JOFF, BP
	VLD1 (BP), [V16.D2]
	B gemmBcastF64_r1cn_k

gemmBcastF64_r1cn_accum:
	ADD CPTR, JOFF, CP
	VLD1 (CP), [V16.D2]

gemmBcastF64_r1cn_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r1cn_relu
	PCALIGN $16

gemmBcastF64_r1cn_loop:
	VLD1.P (BP)(LDB), [V0.D2] // a row of B
	VLD1R.P (A0)(AQS), [V4.D2] // A(i, q), broadcast
	VFMLA V0.D2, V4.D2, V16.D2
	SUBS $1, QCNT
	BNE gemmBcastF64_r1cn_loop

gemmBcastF64_r1cn_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r1cn_store
	WORD $0x4E68F610 // FMAX V16.2D, V16.2D, V8.2D

gemmBcastF64_r1cn_store:
	ADD CPTR, JOFF, CP
	VST1 [V16.D2], (CP)
	ADD $16, JOFF
	SUB $2, NJ
	B gemmBcastF64_r1cn

gemmBcastF64_r1c1:
	CMP $1, NJ
	BLT gemmBcastF64_r1done
	TBNZ $ACCUM_BIT, FLAGS, gemmBcastF64_r1c1_accum
	TBNZ $BIAS_BIT, FLAGS, gemmBcastF64_r1c1_bias
	VEOR V16.B16, V16.B16, V16.B16
	B gemmBcastF64_r1c1_k

gemmBcastF64_r1c1_bias:
	FMOVD (BIAS)(JOFF), F16
	B gemmBcastF64_r1c1_k

gemmBcastF64_r1c1_accum:
	FMOVD (CPTR)(JOFF), F16

gemmBcastF64_r1c1_k:
	MOVD APTR, A0
	ADD BPTR, JOFF, BP
	MOVD KDIM, QCNT
	CBZ QCNT, gemmBcastF64_r1c1_relu
	PCALIGN $16

gemmBcastF64_r1c1_loop:
	FMOVD (BP), F0
	ADD LDB, BP
	FMOVD (A0), F4
	ADD AQS, A0
	FMADDD F0, F16, F4, F16 // s += A(i, q) * B(q, j)
	SUBS $1, QCNT
	BNE gemmBcastF64_r1c1_loop

gemmBcastF64_r1c1_relu:
	TBZ $RELU_BIT, FLAGS, gemmBcastF64_r1c1_store
	FMAXD F8, F16, F16

gemmBcastF64_r1c1_store:
	FMOVD F16, (CPTR)(JOFF)
	ADD $8, JOFF
	SUB $1, NJ
	B gemmBcastF64_r1c1

gemmBcastF64_r1done:
	ADD ARS, APTR
	ADD LDC, CPTR
	SUB $1, MROWS
	B gemmBcastF64_rows1

gemmBcastF64_done:
	RET

#undef MROWS
#undef NCOLS
#undef KDIM
#undef APTR
#undef ARS
#undef AQS
#undef BPTR
#undef LDB
#undef CPTR
#undef LDC
#undef BIAS
#undef FLAGS
#undef JOFF
#undef NJ
#undef QCNT
#undef A0
#undef A1
#undef A2
#undef A3
#undef BP
#undef CP

// Matrix kernels: dot products along k.

#define MROWS  R0   // rows of A left
#define NCOLS  R1   // rows of B: columns of C
#define KDIM   R2   // dot length
#define APTR   R3   // &a[i*lda]
#define LDA    R4   // in bytes
#define BPTR R5
#define LDB    R6   // in bytes
#define CPTR   R7   // &c[i*ldc]
#define LDC    R8   // in bytes
#define BIAS R9
#define FLAGS R10
#define PCNT   R11  // rows of B left for this row of A
#define BP0    R12  // &b[(p+r)*ldb + j]
#define BP1 R13
#define BP2 R14
#define BP3 R15
#define AP     R19  // &a[i*lda + j]
#define JCNT   R20  // chunks left
#define CP     R21  // &c[i*ldc + p]
#define BIASP  R22  // &bias[p]
#define BROW   R23  // &b[p*ldb]

// DOT1F32(loop, narrow, narrowloop, reduce, tail, done) sets F16 (lane 0
// of V16) to the dot product of the KDIM float32 at AP and at BP0, and
// advances both past them: four accumulators, 16 elements per step, then
// 4 per step, added pairwise, then the last KDIM mod 4 fused one at a
// time into the sum; it branches to done, which must follow it, when
// there are none. The arguments name its labels. gemmDotF32 (one row of
// B) and outputForwardF32 use it. Clobbers V0–V7, V17–V19 and JCNT.
#define DOT1F32(loop, narrow, narrowloop, reduce, tail, done) \
	VEOR V16.B16, V16.B16, V16.B16; \
	VEOR V17.B16, V17.B16, V17.B16; \
	VEOR V18.B16, V18.B16, V18.B16; \
	VEOR V19.B16, V19.B16, V19.B16; \
	LSR $4, KDIM, JCNT; \
	CBZ JCNT, narrow; \
	PCALIGN $16; \
loop: \
	VLD1.P 64(AP), [V0.S4, V1.S4, V2.S4, V3.S4]; \
	VLD1.P 64(BP0), [V4.S4, V5.S4, V6.S4, V7.S4]; \
	VFMLA V0.S4, V4.S4, V16.S4; \
	VFMLA V1.S4, V5.S4, V17.S4; \
	VFMLA V2.S4, V6.S4, V18.S4; \
	VFMLA V3.S4, V7.S4, V19.S4; \
	SUBS $1, JCNT; \
	BNE loop; \
narrow: \
	AND $15, KDIM, JCNT; \
	LSR $2, JCNT; \
	CBZ JCNT, reduce; \
narrowloop: \
	VLD1.P 16(AP), [V0.S4]; \
	VLD1.P 16(BP0), [V4.S4]; \
	VFMLA V0.S4, V4.S4, V16.S4; \
	SUBS $1, JCNT; \
	BNE narrowloop; \
reduce: \
	WORD $0x4E31D610 /* FADD V16.4S, V16.4S, V17.4S */; \
	WORD $0x4E33D652 /* FADD V18.4S, V18.4S, V19.4S */; \
	WORD $0x4E32D610 /* FADD V16.4S, V16.4S, V18.4S */; \
	WORD $0x6E30D610 /* FADDP V16.4S, V16.4S, V16.4S */; \
	WORD $0x7E30DA10 /* FADDP S16, V16.2S */; \
	AND $3, KDIM, JCNT; \
	CBZ JCNT, done; \
tail: \
	FMOVS.P 4(AP), F0; \
	FMOVS.P 4(BP0), F4; \
	FMADDS F0, F16, F4, F16; \
	SUBS $1, JCNT; \
	BNE tail

// DOT1F64 is DOT1F32 for float64: 8 elements per step, then 2, then the
// last KDIM mod 2. F16 is V16's lane 0.
#define DOT1F64(loop, narrow, narrowloop, reduce, tail, done) \
	VEOR V16.B16, V16.B16, V16.B16; \
	VEOR V17.B16, V17.B16, V17.B16; \
	VEOR V18.B16, V18.B16, V18.B16; \
	VEOR V19.B16, V19.B16, V19.B16; \
	LSR $3, KDIM, JCNT; \
	CBZ JCNT, narrow; \
	PCALIGN $16; \
loop: \
	VLD1.P 64(AP), [V0.D2, V1.D2, V2.D2, V3.D2]; \
	VLD1.P 64(BP0), [V4.D2, V5.D2, V6.D2, V7.D2]; \
	VFMLA V0.D2, V4.D2, V16.D2; \
	VFMLA V1.D2, V5.D2, V17.D2; \
	VFMLA V2.D2, V6.D2, V18.D2; \
	VFMLA V3.D2, V7.D2, V19.D2; \
	SUBS $1, JCNT; \
	BNE loop; \
narrow: \
	AND $7, KDIM, JCNT; \
	LSR $1, JCNT; \
	CBZ JCNT, reduce; \
narrowloop: \
	VLD1.P 16(AP), [V0.D2]; \
	VLD1.P 16(BP0), [V4.D2]; \
	VFMLA V0.D2, V4.D2, V16.D2; \
	SUBS $1, JCNT; \
	BNE narrowloop; \
reduce: \
	WORD $0x4E71D610 /* FADD V16.2D, V16.2D, V17.2D */; \
	WORD $0x4E73D652 /* FADD V18.2D, V18.2D, V19.2D */; \
	WORD $0x4E72D610 /* FADD V16.2D, V16.2D, V18.2D */; \
	WORD $0x7E70DA10 /* FADDP D16, V16.2D */; \
	AND $1, KDIM, JCNT; \
	CBZ JCNT, done; \
tail: \
	FMOVD.P 8(AP), F0; \
	FMOVD.P 8(BP0), F4; \
	FMADDD F0, F16, F4, F16; \
	SUBS $1, JCNT; \
	BNE tail

// func gemmDotF32(m, n, k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, flags int)
//
// C (m × n) = A (m × k) · Bᵀ for row-major A and B (n × k): dot products
// along the contiguous k. Four rows of B at a time against one row of A,
// one accumulator each, reduced with FADDP into four consecutive
// elements of C; then the last n mod 4 rows of B one at a time, with four
// accumulators, 16 elements per step (DOT1F32).
TEXT ·gemmDotF32(SB), NOSPLIT|NOFRAME, $0-88
	MOVD m+0(FP), MROWS
	MOVD n+8(FP), NCOLS
	MOVD k+16(FP), KDIM
	MOVD a+24(FP), APTR
	MOVD lda+32(FP), LDA
	MOVD b+40(FP), BPTR
	MOVD ldb+48(FP), LDB
	MOVD c+56(FP), CPTR
	MOVD ldc+64(FP), LDC
	MOVD bias+72(FP), BIAS
	MOVD flags+80(FP), FLAGS
	LSL $2, LDA
	LSL $2, LDB
	LSL $2, LDC
	VEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU

gemmDotF32_row:
	CBZ MROWS, gemmDotF32_done
	MOVD BPTR, BROW
	MOVD CPTR, CP
	MOVD BIAS, BIASP
	MOVD NCOLS, PCNT

gemmDotF32_p4:
	CMP $4, PCNT
	BLT gemmDotF32_p1
	MOVD BROW, BP0
	ADD LDB, BP0, BP1
	ADD LDB, BP1, BP2
	ADD LDB, BP2, BP3
	MOVD APTR, AP
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $2, KDIM, JCNT
	CBZ JCNT, gemmDotF32_p4_reduce
	PCALIGN $16

gemmDotF32_p4_loop:
	VLD1.P 16(AP), [V0.S4]
	VLD1.P 16(BP0), [V1.S4]
	VLD1.P 16(BP1), [V2.S4]
	VLD1.P 16(BP2), [V3.S4]
	VLD1.P 16(BP3), [V4.S4]
	VFMLA V0.S4, V1.S4, V16.S4
	VFMLA V0.S4, V2.S4, V17.S4
	VFMLA V0.S4, V3.S4, V18.S4
	VFMLA V0.S4, V4.S4, V19.S4
	SUBS $1, JCNT
	BNE gemmDotF32_p4_loop

gemmDotF32_p4_reduce:
	WORD $0x6E31D614 // FADDP V20.4S, V16.4S, V17.4S
	WORD $0x6E33D655 // FADDP V21.4S, V18.4S, V19.4S
	WORD $0x6E35D694 // FADDP V20.4S, V20.4S, V21.4S ; V20 = [s0, s1, s2, s3]
	AND $3, KDIM, JCNT
	CBZ JCNT, gemmDotF32_p4_bias

gemmDotF32_p4_tail:
	VLD1R.P 4(AP), [V0.S4]
	VLD1.P 4(BP0), V1.S[0]
	VLD1.P 4(BP1), V1.S[1]
	VLD1.P 4(BP2), V1.S[2]
	VLD1.P 4(BP3), V1.S[3]
	VFMLA V0.S4, V1.S4, V20.S4
	SUBS $1, JCNT
	BNE gemmDotF32_p4_tail

gemmDotF32_p4_bias:
	TBZ $BIAS_BIT, FLAGS, gemmDotF32_p4_relu
	VLD1 (BIASP), [V1.S4]
	WORD $0x4E34D434 // FADD V20.4S, V1.4S, V20.4S ; bias + s

gemmDotF32_p4_relu:
	TBZ $RELU_BIT, FLAGS, gemmDotF32_p4_store
	WORD $0x4E28F694 // FMAX V20.4S, V20.4S, V8.4S

gemmDotF32_p4_store:
	VST1.P [V20.S4], 16(CP)
	ADD $16, BIASP
	ADD LDB<<2, BROW
	SUB $4, PCNT
	B gemmDotF32_p4

gemmDotF32_p1:
	CBZ PCNT, gemmDotF32_next
	MOVD BROW, BP0
	MOVD APTR, AP
	DOT1F32(gemmDotF32_p1_loop, gemmDotF32_p1_narrow, gemmDotF32_p1_narrow_loop, gemmDotF32_p1_reduce, gemmDotF32_p1_tail, gemmDotF32_p1_bias)

gemmDotF32_p1_bias:
	TBZ $BIAS_BIT, FLAGS, gemmDotF32_p1_relu
	FMOVS (BIASP), F1
	FADDS F16, F1, F16 // bias + s

gemmDotF32_p1_relu:
	TBZ $RELU_BIT, FLAGS, gemmDotF32_p1_store
	FMAXS F8, F16, F16

gemmDotF32_p1_store:
	FMOVS.P F16, 4(CP)
	ADD $4, BIASP
	ADD LDB, BROW
	SUB $1, PCNT
	B gemmDotF32_p1

gemmDotF32_next:
	ADD LDA, APTR
	ADD LDC, CPTR
	SUB $1, MROWS
	B gemmDotF32_row

gemmDotF32_done:
	RET

// func gemmDotF64(m, n, k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, bias *float64, flags int)
//
// C (m × n) = A (m × k) · Bᵀ for row-major A and B (n × k): dot products
// along the contiguous k. Four rows of B at a time against one row of A,
// one accumulator each, reduced with FADDP into four consecutive
// elements of C; then the last n mod 4 rows of B one at a time, with four
// accumulators, 8 elements per step (DOT1F64).
TEXT ·gemmDotF64(SB), NOSPLIT|NOFRAME, $0-88
	MOVD m+0(FP), MROWS
	MOVD n+8(FP), NCOLS
	MOVD k+16(FP), KDIM
	MOVD a+24(FP), APTR
	MOVD lda+32(FP), LDA
	MOVD b+40(FP), BPTR
	MOVD ldb+48(FP), LDB
	MOVD c+56(FP), CPTR
	MOVD ldc+64(FP), LDC
	MOVD bias+72(FP), BIAS
	MOVD flags+80(FP), FLAGS
	LSL $3, LDA
	LSL $3, LDB
	LSL $3, LDC
	VEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU

gemmDotF64_row:
	CBZ MROWS, gemmDotF64_done
	MOVD BPTR, BROW
	MOVD CPTR, CP
	MOVD BIAS, BIASP
	MOVD NCOLS, PCNT

gemmDotF64_p4:
	CMP $4, PCNT
	BLT gemmDotF64_p1
	MOVD BROW, BP0
	ADD LDB, BP0, BP1
	ADD LDB, BP1, BP2
	ADD LDB, BP2, BP3
	MOVD APTR, AP
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $1, KDIM, JCNT
	CBZ JCNT, gemmDotF64_p4_reduce
	PCALIGN $16

gemmDotF64_p4_loop:
	VLD1.P 16(AP), [V0.D2]
	VLD1.P 16(BP0), [V1.D2]
	VLD1.P 16(BP1), [V2.D2]
	VLD1.P 16(BP2), [V3.D2]
	VLD1.P 16(BP3), [V4.D2]
	VFMLA V0.D2, V1.D2, V16.D2
	VFMLA V0.D2, V2.D2, V17.D2
	VFMLA V0.D2, V3.D2, V18.D2
	VFMLA V0.D2, V4.D2, V19.D2
	SUBS $1, JCNT
	BNE gemmDotF64_p4_loop

gemmDotF64_p4_reduce:
	WORD $0x6E71D614 // FADDP V20.2D, V16.2D, V17.2D ; V20 = [s0, s1]
	WORD $0x6E73D655 // FADDP V21.2D, V18.2D, V19.2D ; V21 = [s2, s3]
	AND $1, KDIM, JCNT
	CBZ JCNT, gemmDotF64_p4_bias

gemmDotF64_p4_tail:
	VLD1R.P 8(AP), [V0.D2]
	VLD1.P 8(BP0), V1.D[0]
	VLD1.P 8(BP1), V1.D[1]
	VLD1.P 8(BP2), V2.D[0]
	VLD1.P 8(BP3), V2.D[1]
	VFMLA V0.D2, V1.D2, V20.D2
	VFMLA V0.D2, V2.D2, V21.D2
	SUBS $1, JCNT
	BNE gemmDotF64_p4_tail

gemmDotF64_p4_bias:
	TBZ $BIAS_BIT, FLAGS, gemmDotF64_p4_relu
	VLD1 (BIASP), [V1.D2, V2.D2]
	WORD $0x4E74D434 // FADD V20.2D, V1.2D, V20.2D ; bias + s
	WORD $0x4E75D455 // FADD V21.2D, V2.2D, V21.2D

gemmDotF64_p4_relu:
	TBZ $RELU_BIT, FLAGS, gemmDotF64_p4_store
	WORD $0x4E68F694 // FMAX V20.2D, V20.2D, V8.2D
	WORD $0x4E68F6B5 // FMAX V21.2D, V21.2D, V8.2D

gemmDotF64_p4_store:
	VST1.P [V20.D2, V21.D2], 32(CP)
	ADD $32, BIASP
	ADD LDB<<2, BROW
	SUB $4, PCNT
	B gemmDotF64_p4

gemmDotF64_p1:
	CBZ PCNT, gemmDotF64_next
	MOVD BROW, BP0
	MOVD APTR, AP
	DOT1F64(gemmDotF64_p1_loop, gemmDotF64_p1_narrow, gemmDotF64_p1_narrow_loop, gemmDotF64_p1_reduce, gemmDotF64_p1_tail, gemmDotF64_p1_bias)

gemmDotF64_p1_bias:
	TBZ $BIAS_BIT, FLAGS, gemmDotF64_p1_relu
	FMOVD (BIASP), F1
	FADDD F16, F1, F16 // bias + s

gemmDotF64_p1_relu:
	TBZ $RELU_BIT, FLAGS, gemmDotF64_p1_store
	FMAXD F8, F16, F16

gemmDotF64_p1_store:
	FMOVD.P F16, 8(CP)
	ADD $8, BIASP
	ADD LDB, BROW
	SUB $1, PCNT
	B gemmDotF64_p1

gemmDotF64_next:
	ADD LDA, APTR
	ADD LDC, CPTR
	SUB $1, MROWS
	B gemmDotF64_row

gemmDotF64_done:
	RET

// func outputForwardF32(m, heads, k int, x *float32, ldx int, w, b, y *float32)
//
// The output layer, one unit per head: for each row of x, the heads one
// after another, each a dot product of length k (DOT1F32) of its inputs,
// x[i*ldx+h*k:][:k], and its weights, w[h*k:][:k], plus b[h], stored to
// y[h*m+i]. Head h+1's inputs and weights start where head h's end, so
// AP and BP0 run on from one head to the next. m, heads ≥ 1.
TEXT ·outputForwardF32(SB), NOSPLIT|NOFRAME, $0-64
	MOVD m+0(FP), MROWS
	MOVD k+16(FP), KDIM
	MOVD x+24(FP), APTR
	MOVD ldx+32(FP), LDA
	MOVD y+56(FP), CPTR
	LSL $2, LDA
	LSL $2, MROWS, LDC // m·4: from one head's outputs to the next's

outputForwardF32_row:
	MOVD APTR, AP
	MOVD w+40(FP), BP0
	MOVD b+48(FP), BIASP
	MOVD CPTR, CP
	MOVD heads+8(FP), PCNT

outputForwardF32_head:
	DOT1F32(outputForwardF32_loop, outputForwardF32_narrow, outputForwardF32_narrow_loop, outputForwardF32_reduce, outputForwardF32_tail, outputForwardF32_bias)

outputForwardF32_bias:
	FMOVS.P 4(BIASP), F1
	FADDS F16, F1, F16 // y[h*m+i] = b[h] + s
	FMOVS F16, (CP)
	ADD LDC, CP
	SUBS $1, PCNT
	BNE outputForwardF32_head
	ADD LDA, APTR
	ADD $4, CPTR
	SUBS $1, MROWS
	BNE outputForwardF32_row
	RET

// func outputForwardF64(m, heads, k int, x *float64, ldx int, w, b, y *float64)
//
// outputForwardF32 for float64, with DOT1F64.
TEXT ·outputForwardF64(SB), NOSPLIT|NOFRAME, $0-64
	MOVD m+0(FP), MROWS
	MOVD k+16(FP), KDIM
	MOVD x+24(FP), APTR
	MOVD ldx+32(FP), LDA
	MOVD y+56(FP), CPTR
	LSL $3, LDA
	LSL $3, MROWS, LDC // m·8: from one head's outputs to the next's

outputForwardF64_row:
	MOVD APTR, AP
	MOVD w+40(FP), BP0
	MOVD b+48(FP), BIASP
	MOVD CPTR, CP
	MOVD heads+8(FP), PCNT

outputForwardF64_head:
	DOT1F64(outputForwardF64_loop, outputForwardF64_narrow, outputForwardF64_narrow_loop, outputForwardF64_reduce, outputForwardF64_tail, outputForwardF64_bias)

outputForwardF64_bias:
	FMOVD.P 8(BIASP), F1
	FADDD F16, F1, F16 // y[h*m+i] = b[h] + s
	FMOVD F16, (CP)
	ADD LDC, CP
	SUBS $1, PCNT
	BNE outputForwardF64_head
	ADD LDA, APTR
	ADD $8, CPTR
	SUBS $1, MROWS
	BNE outputForwardF64_row
	RET

#undef MROWS
#undef NCOLS
#undef KDIM
#undef APTR
#undef LDA
#undef BPTR
#undef LDB
#undef CPTR
#undef LDC
#undef BIAS
#undef FLAGS
#undef PCNT
#undef BP0
#undef BP1
#undef BP2
#undef BP3
#undef AP
#undef JCNT
#undef CP
#undef BIASP
#undef BROW

// Element-wise kernels and reductions. Pointers in R0–R6, n in R7,
// the block count in R8, scalar arguments broadcast in V24–V29 (and 1 in V31).

// func mulF32(n int, x, y *float32)
//
// for i := range n {
//	x[i] *= y[i]
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·mulF32(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD y+16(FP), R1
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, mulF32_tail
	PCALIGN $16

mulF32_loop:
	VLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x6E24DC00 // FMUL V0.4S, V0.4S, V4.4S
	WORD $0x6E25DC21 // FMUL V1.4S, V1.4S, V5.4S
	WORD $0x6E26DC42 // FMUL V2.4S, V2.4S, V6.4S
	WORD $0x6E27DC63 // FMUL V3.4S, V3.4S, V7.4S
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS $1, R8
	BNE mulF32_loop

mulF32_tail:
	AND $15, R7, R8
	CBZ R8, mulF32_done

mulF32_tail_loop:
	FMOVS (R0), F0
	FMOVS.P 4(R1), F4
	FMULS F4, F0, F0
	FMOVS.P F0, 4(R0)
	SUBS $1, R8
	BNE mulF32_tail_loop

mulF32_done:
	RET

// func mulF64(n int, x, y *float64)
//
// for i := range n {
//	x[i] *= y[i]
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·mulF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD y+16(FP), R1
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, mulF64_tail
	PCALIGN $16

mulF64_loop:
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD $0x6E64DC00 // FMUL V0.2D, V0.2D, V4.2D
	WORD $0x6E65DC21 // FMUL V1.2D, V1.2D, V5.2D
	WORD $0x6E66DC42 // FMUL V2.2D, V2.2D, V6.2D
	WORD $0x6E67DC63 // FMUL V3.2D, V3.2D, V7.2D
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS $1, R8
	BNE mulF64_loop

mulF64_tail:
	AND $7, R7, R8
	CBZ R8, mulF64_done

mulF64_tail_loop:
	FMOVD (R0), F0
	FMOVD.P 8(R1), F4
	FMULD F4, F0, F0
	FMOVD.P F0, 8(R0)
	SUBS $1, R8
	BNE mulF64_tail_loop

mulF64_done:
	RET

// func mulToF32(n int, dst, x, y *float32)
//
// for i := range n {
//	dst[i] = x[i] * y[i]
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·mulToF32(SB), NOSPLIT|NOFRAME, $0-32
	MOVD n+0(FP), R7
	MOVD dst+8(FP), R0
	MOVD x+16(FP), R1
	MOVD y+24(FP), R2
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, mulToF32_tail
	PCALIGN $16

mulToF32_loop:
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x6E24DC00 // FMUL V0.4S, V0.4S, V4.4S
	WORD $0x6E25DC21 // FMUL V1.4S, V1.4S, V5.4S
	WORD $0x6E26DC42 // FMUL V2.4S, V2.4S, V6.4S
	WORD $0x6E27DC63 // FMUL V3.4S, V3.4S, V7.4S
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS $1, R8
	BNE mulToF32_loop

mulToF32_tail:
	AND $15, R7, R8
	CBZ R8, mulToF32_done

mulToF32_tail_loop:
	FMOVS.P 4(R1), F0
	FMOVS.P 4(R2), F4
	FMULS F4, F0, F0
	FMOVS.P F0, 4(R0)
	SUBS $1, R8
	BNE mulToF32_tail_loop

mulToF32_done:
	RET

// func mulToF64(n int, dst, x, y *float64)
//
// for i := range n {
//	dst[i] = x[i] * y[i]
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·mulToF64(SB), NOSPLIT|NOFRAME, $0-32
	MOVD n+0(FP), R7
	MOVD dst+8(FP), R0
	MOVD x+16(FP), R1
	MOVD y+24(FP), R2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, mulToF64_tail
	PCALIGN $16

mulToF64_loop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R2), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD $0x6E64DC00 // FMUL V0.2D, V0.2D, V4.2D
	WORD $0x6E65DC21 // FMUL V1.2D, V1.2D, V5.2D
	WORD $0x6E66DC42 // FMUL V2.2D, V2.2D, V6.2D
	WORD $0x6E67DC63 // FMUL V3.2D, V3.2D, V7.2D
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS $1, R8
	BNE mulToF64_loop

mulToF64_tail:
	AND $7, R7, R8
	CBZ R8, mulToF64_done

mulToF64_tail_loop:
	FMOVD.P 8(R1), F0
	FMOVD.P 8(R2), F4
	FMULD F4, F0, F0
	FMOVD.P F0, 8(R0)
	SUBS $1, R8
	BNE mulToF64_tail_loop

mulToF64_done:
	RET

// func scaleF32(n int, x *float32, a float32)
//
// for i := range n {
//	x[i] *= a
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·scaleF32(SB), NOSPLIT|NOFRAME, $0-20
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	FMOVS a+16(FP), F24
	VDUP V24.S[0], V24.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, scaleF32_tail
	PCALIGN $16

scaleF32_loop:
	VLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x6E38DC00 // FMUL V0.4S, V0.4S, V24.4S
	WORD $0x6E38DC21 // FMUL V1.4S, V1.4S, V24.4S
	WORD $0x6E38DC42 // FMUL V2.4S, V2.4S, V24.4S
	WORD $0x6E38DC63 // FMUL V3.4S, V3.4S, V24.4S
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS $1, R8
	BNE scaleF32_loop

scaleF32_tail:
	AND $15, R7, R8
	CBZ R8, scaleF32_done

scaleF32_tail_loop:
	FMOVS (R0), F0
	FMULS F24, F0, F0
	FMOVS.P F0, 4(R0)
	SUBS $1, R8
	BNE scaleF32_tail_loop

scaleF32_done:
	RET

// func scaleF64(n int, x *float64, a float64)
//
// for i := range n {
//	x[i] *= a
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·scaleF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	FMOVD a+16(FP), F24
	VDUP V24.D[0], V24.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, scaleF64_tail
	PCALIGN $16

scaleF64_loop:
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	WORD $0x6E78DC00 // FMUL V0.2D, V0.2D, V24.2D
	WORD $0x6E78DC21 // FMUL V1.2D, V1.2D, V24.2D
	WORD $0x6E78DC42 // FMUL V2.2D, V2.2D, V24.2D
	WORD $0x6E78DC63 // FMUL V3.2D, V3.2D, V24.2D
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS $1, R8
	BNE scaleF64_loop

scaleF64_tail:
	AND $7, R7, R8
	CBZ R8, scaleF64_done

scaleF64_tail_loop:
	FMOVD (R0), F0
	FMULD F24, F0, F0
	FMOVD.P F0, 8(R0)
	SUBS $1, R8
	BNE scaleF64_tail_loop

scaleF64_done:
	RET

// func axpyF32(n int, x, y *float32, a float32)
//
// for i := range n {
//	y[i] += a * x[i], fused (VFMLA, FMADD)
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·axpyF32(SB), NOSPLIT|NOFRAME, $0-28
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD y+16(FP), R1
	FMOVS a+24(FP), F24
	VDUP V24.S[0], V24.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, axpyF32_tail
	PCALIGN $16

axpyF32_loop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1 (R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	VFMLA V24.S4, V0.S4, V4.S4
	VFMLA V24.S4, V1.S4, V5.S4
	VFMLA V24.S4, V2.S4, V6.S4
	VFMLA V24.S4, V3.S4, V7.S4
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	SUBS $1, R8
	BNE axpyF32_loop

axpyF32_tail:
	AND $15, R7, R8
	CBZ R8, axpyF32_done

axpyF32_tail_loop:
	FMOVS.P 4(R0), F0
	FMOVS (R1), F4
	FMADDS F24, F4, F0, F4
	FMOVS.P F4, 4(R1)
	SUBS $1, R8
	BNE axpyF32_tail_loop

axpyF32_done:
	RET

// func axpyF64(n int, x, y *float64, a float64)
//
// for i := range n {
//	y[i] += a * x[i], fused (VFMLA, FMADD)
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·axpyF64(SB), NOSPLIT|NOFRAME, $0-32
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD y+16(FP), R1
	FMOVD a+24(FP), F24
	VDUP V24.D[0], V24.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, axpyF64_tail
	PCALIGN $16

axpyF64_loop:
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1 (R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	VFMLA V24.D2, V0.D2, V4.D2
	VFMLA V24.D2, V1.D2, V5.D2
	VFMLA V24.D2, V2.D2, V6.D2
	VFMLA V24.D2, V3.D2, V7.D2
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	SUBS $1, R8
	BNE axpyF64_loop

axpyF64_tail:
	AND $7, R7, R8
	CBZ R8, axpyF64_done

axpyF64_tail_loop:
	FMOVD.P 8(R0), F0
	FMOVD (R1), F4
	FMADDD F24, F4, F0, F4
	FMOVD.P F4, 8(R1)
	SUBS $1, R8
	BNE axpyF64_tail_loop

axpyF64_done:
	RET

// func tanhBackwardF32(n int, d, y *float32)
//
// for i := range n {
//	d[i] *= 1 - y[i]*y[i]
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·tanhBackwardF32(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD d+8(FP), R0
	MOVD y+16(FP), R1
	FMOVS $(1.0), F31
	VDUP V31.S[0], V31.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, tanhBackwardF32_tail
	PCALIGN $16

tanhBackwardF32_loop:
	VLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x6E24DC84 // FMUL V4.4S, V4.4S, V4.4S
	WORD $0x6E25DCA5 // FMUL V5.4S, V5.4S, V5.4S
	WORD $0x6E26DCC6 // FMUL V6.4S, V6.4S, V6.4S
	WORD $0x6E27DCE7 // FMUL V7.4S, V7.4S, V7.4S
	WORD $0x4EA4D7E4 // FSUB V4.4S, V31.4S, V4.4S
	WORD $0x4EA5D7E5 // FSUB V5.4S, V31.4S, V5.4S
	WORD $0x4EA6D7E6 // FSUB V6.4S, V31.4S, V6.4S
	WORD $0x4EA7D7E7 // FSUB V7.4S, V31.4S, V7.4S
	WORD $0x6E24DC00 // FMUL V0.4S, V0.4S, V4.4S
	WORD $0x6E25DC21 // FMUL V1.4S, V1.4S, V5.4S
	WORD $0x6E26DC42 // FMUL V2.4S, V2.4S, V6.4S
	WORD $0x6E27DC63 // FMUL V3.4S, V3.4S, V7.4S
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS $1, R8
	BNE tanhBackwardF32_loop

tanhBackwardF32_tail:
	AND $15, R7, R8
	CBZ R8, tanhBackwardF32_done

tanhBackwardF32_tail_loop:
	FMOVS (R0), F0
	FMOVS.P 4(R1), F4
	FMULS F4, F4, F4
	FSUBS F4, F31, F4
	FMULS F4, F0, F0
	FMOVS.P F0, 4(R0)
	SUBS $1, R8
	BNE tanhBackwardF32_tail_loop

tanhBackwardF32_done:
	RET

// func tanhBackwardF64(n int, d, y *float64)
//
// for i := range n {
//	d[i] *= 1 - y[i]*y[i]
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·tanhBackwardF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD d+8(FP), R0
	MOVD y+16(FP), R1
	FMOVD $(1.0), F31
	VDUP V31.D[0], V31.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, tanhBackwardF64_tail
	PCALIGN $16

tanhBackwardF64_loop:
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD $0x6E64DC84 // FMUL V4.2D, V4.2D, V4.2D
	WORD $0x6E65DCA5 // FMUL V5.2D, V5.2D, V5.2D
	WORD $0x6E66DCC6 // FMUL V6.2D, V6.2D, V6.2D
	WORD $0x6E67DCE7 // FMUL V7.2D, V7.2D, V7.2D
	WORD $0x4EE4D7E4 // FSUB V4.2D, V31.2D, V4.2D
	WORD $0x4EE5D7E5 // FSUB V5.2D, V31.2D, V5.2D
	WORD $0x4EE6D7E6 // FSUB V6.2D, V31.2D, V6.2D
	WORD $0x4EE7D7E7 // FSUB V7.2D, V31.2D, V7.2D
	WORD $0x6E64DC00 // FMUL V0.2D, V0.2D, V4.2D
	WORD $0x6E65DC21 // FMUL V1.2D, V1.2D, V5.2D
	WORD $0x6E66DC42 // FMUL V2.2D, V2.2D, V6.2D
	WORD $0x6E67DC63 // FMUL V3.2D, V3.2D, V7.2D
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS $1, R8
	BNE tanhBackwardF64_loop

tanhBackwardF64_tail:
	AND $7, R7, R8
	CBZ R8, tanhBackwardF64_done

tanhBackwardF64_tail_loop:
	FMOVD (R0), F0
	FMOVD.P 8(R1), F4
	FMULD F4, F4, F4
	FSUBD F4, F31, F4
	FMULD F4, F0, F0
	FMOVD.P F0, 8(R0)
	SUBS $1, R8
	BNE tanhBackwardF64_tail_loop

tanhBackwardF64_done:
	RET

// func sgdF32(n int, p2, p, gr *float32, lr float32)
//
// for i := range n {
//	p2[i] = p[i] - lr*gr[i]
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·sgdF32(SB), NOSPLIT|NOFRAME, $0-36
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD p+16(FP), R1
	MOVD gr+24(FP), R2
	FMOVS lr+32(FP), F24
	VDUP V24.S[0], V24.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, sgdF32_tail
	PCALIGN $16

sgdF32_loop:
	VLD1.P 64(R2), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x6E20DF00 // FMUL V0.4S, V24.4S, V0.4S
	WORD $0x6E21DF01 // FMUL V1.4S, V24.4S, V1.4S
	WORD $0x6E22DF02 // FMUL V2.4S, V24.4S, V2.4S
	WORD $0x6E23DF03 // FMUL V3.4S, V24.4S, V3.4S
	WORD $0x4EA0D484 // FSUB V4.4S, V4.4S, V0.4S
	WORD $0x4EA1D4A5 // FSUB V5.4S, V5.4S, V1.4S
	WORD $0x4EA2D4C6 // FSUB V6.4S, V6.4S, V2.4S
	WORD $0x4EA3D4E7 // FSUB V7.4S, V7.4S, V3.4S
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R0)
	SUBS $1, R8
	BNE sgdF32_loop

sgdF32_tail:
	AND $15, R7, R8
	CBZ R8, sgdF32_done

sgdF32_tail_loop:
	FMOVS.P 4(R2), F0
	FMOVS.P 4(R1), F4
	FMULS F0, F24, F0
	FSUBS F0, F4, F4
	FMOVS.P F4, 4(R0)
	SUBS $1, R8
	BNE sgdF32_tail_loop

sgdF32_done:
	RET

// func sgdF64(n int, p2, p, gr *float64, lr float64)
//
// for i := range n {
//	p2[i] = p[i] - lr*gr[i]
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·sgdF64(SB), NOSPLIT|NOFRAME, $0-40
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD p+16(FP), R1
	MOVD gr+24(FP), R2
	FMOVD lr+32(FP), F24
	VDUP V24.D[0], V24.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, sgdF64_tail
	PCALIGN $16

sgdF64_loop:
	VLD1.P 64(R2), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD $0x6E60DF00 // FMUL V0.2D, V24.2D, V0.2D
	WORD $0x6E61DF01 // FMUL V1.2D, V24.2D, V1.2D
	WORD $0x6E62DF02 // FMUL V2.2D, V24.2D, V2.2D
	WORD $0x6E63DF03 // FMUL V3.2D, V24.2D, V3.2D
	WORD $0x4EE0D484 // FSUB V4.2D, V4.2D, V0.2D
	WORD $0x4EE1D4A5 // FSUB V5.2D, V5.2D, V1.2D
	WORD $0x4EE2D4C6 // FSUB V6.2D, V6.2D, V2.2D
	WORD $0x4EE3D4E7 // FSUB V7.2D, V7.2D, V3.2D
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R0)
	SUBS $1, R8
	BNE sgdF64_loop

sgdF64_tail:
	AND $7, R7, R8
	CBZ R8, sgdF64_done

sgdF64_tail_loop:
	FMOVD.P 8(R2), F0
	FMOVD.P 8(R1), F4
	FMULD F0, F24, F0
	FSUBD F0, F4, F4
	FMOVD.P F4, 8(R0)
	SUBS $1, R8
	BNE sgdF64_tail_loop

sgdF64_done:
	RET

// func nesterovF32(n int, p2, v2, p, v, gr *float32, lr, mu float32)
//
// for i := range n {
//	t := lr*gr[i]; v2[i] = mu*v[i] - t; p2[i] = p[i] + mu*v2[i] - t
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·nesterovF32(SB), NOSPLIT|NOFRAME, $0-56
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD v2+16(FP), R1
	MOVD p+24(FP), R2
	MOVD v+32(FP), R3
	MOVD gr+40(FP), R4
	FMOVS lr+48(FP), F24
	VDUP V24.S[0], V24.S4
	FMOVS mu+52(FP), F25
	VDUP V25.S[0], V25.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, nesterovF32_tail
	PCALIGN $16

nesterovF32_loop:
	VLD1.P 64(R4), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R3), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P 64(R2), [V8.S4, V9.S4, V10.S4, V11.S4]
	WORD $0x6E20DF00 // FMUL V0.4S, V24.4S, V0.4S
	WORD $0x6E21DF01 // FMUL V1.4S, V24.4S, V1.4S
	WORD $0x6E22DF02 // FMUL V2.4S, V24.4S, V2.4S
	WORD $0x6E23DF03 // FMUL V3.4S, V24.4S, V3.4S
	WORD $0x6E24DF24 // FMUL V4.4S, V25.4S, V4.4S
	WORD $0x6E25DF25 // FMUL V5.4S, V25.4S, V5.4S
	WORD $0x6E26DF26 // FMUL V6.4S, V25.4S, V6.4S
	WORD $0x6E27DF27 // FMUL V7.4S, V25.4S, V7.4S
	WORD $0x4EA0D484 // FSUB V4.4S, V4.4S, V0.4S
	WORD $0x4EA1D4A5 // FSUB V5.4S, V5.4S, V1.4S
	WORD $0x4EA2D4C6 // FSUB V6.4S, V6.4S, V2.4S
	WORD $0x4EA3D4E7 // FSUB V7.4S, V7.4S, V3.4S
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	WORD $0x6E24DF2C // FMUL V12.4S, V25.4S, V4.4S
	WORD $0x6E25DF2D // FMUL V13.4S, V25.4S, V5.4S
	WORD $0x6E26DF2E // FMUL V14.4S, V25.4S, V6.4S
	WORD $0x6E27DF2F // FMUL V15.4S, V25.4S, V7.4S
	WORD $0x4E2CD508 // FADD V8.4S, V8.4S, V12.4S
	WORD $0x4E2DD529 // FADD V9.4S, V9.4S, V13.4S
	WORD $0x4E2ED54A // FADD V10.4S, V10.4S, V14.4S
	WORD $0x4E2FD56B // FADD V11.4S, V11.4S, V15.4S
	WORD $0x4EA0D508 // FSUB V8.4S, V8.4S, V0.4S
	WORD $0x4EA1D529 // FSUB V9.4S, V9.4S, V1.4S
	WORD $0x4EA2D54A // FSUB V10.4S, V10.4S, V2.4S
	WORD $0x4EA3D56B // FSUB V11.4S, V11.4S, V3.4S
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R0)
	SUBS $1, R8
	BNE nesterovF32_loop

nesterovF32_tail:
	AND $15, R7, R8
	CBZ R8, nesterovF32_done

nesterovF32_tail_loop:
	FMOVS.P 4(R4), F0
	FMOVS.P 4(R3), F4
	FMOVS.P 4(R2), F8
	FMULS F0, F24, F0
	FMULS F4, F25, F4
	FSUBS F0, F4, F4
	FMOVS.P F4, 4(R1)
	FMULS F4, F25, F12
	FADDS F12, F8, F8
	FSUBS F0, F8, F8
	FMOVS.P F8, 4(R0)
	SUBS $1, R8
	BNE nesterovF32_tail_loop

nesterovF32_done:
	RET

// func nesterovF64(n int, p2, v2, p, v, gr *float64, lr, mu float64)
//
// for i := range n {
//	t := lr*gr[i]; v2[i] = mu*v[i] - t; p2[i] = p[i] + mu*v2[i] - t
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·nesterovF64(SB), NOSPLIT|NOFRAME, $0-64
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD v2+16(FP), R1
	MOVD p+24(FP), R2
	MOVD v+32(FP), R3
	MOVD gr+40(FP), R4
	FMOVD lr+48(FP), F24
	VDUP V24.D[0], V24.D2
	FMOVD mu+56(FP), F25
	VDUP V25.D[0], V25.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, nesterovF64_tail
	PCALIGN $16

nesterovF64_loop:
	VLD1.P 64(R4), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P 64(R2), [V8.D2, V9.D2, V10.D2, V11.D2]
	WORD $0x6E60DF00 // FMUL V0.2D, V24.2D, V0.2D
	WORD $0x6E61DF01 // FMUL V1.2D, V24.2D, V1.2D
	WORD $0x6E62DF02 // FMUL V2.2D, V24.2D, V2.2D
	WORD $0x6E63DF03 // FMUL V3.2D, V24.2D, V3.2D
	WORD $0x6E64DF24 // FMUL V4.2D, V25.2D, V4.2D
	WORD $0x6E65DF25 // FMUL V5.2D, V25.2D, V5.2D
	WORD $0x6E66DF26 // FMUL V6.2D, V25.2D, V6.2D
	WORD $0x6E67DF27 // FMUL V7.2D, V25.2D, V7.2D
	WORD $0x4EE0D484 // FSUB V4.2D, V4.2D, V0.2D
	WORD $0x4EE1D4A5 // FSUB V5.2D, V5.2D, V1.2D
	WORD $0x4EE2D4C6 // FSUB V6.2D, V6.2D, V2.2D
	WORD $0x4EE3D4E7 // FSUB V7.2D, V7.2D, V3.2D
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	WORD $0x6E64DF2C // FMUL V12.2D, V25.2D, V4.2D
	WORD $0x6E65DF2D // FMUL V13.2D, V25.2D, V5.2D
	WORD $0x6E66DF2E // FMUL V14.2D, V25.2D, V6.2D
	WORD $0x6E67DF2F // FMUL V15.2D, V25.2D, V7.2D
	WORD $0x4E6CD508 // FADD V8.2D, V8.2D, V12.2D
	WORD $0x4E6DD529 // FADD V9.2D, V9.2D, V13.2D
	WORD $0x4E6ED54A // FADD V10.2D, V10.2D, V14.2D
	WORD $0x4E6FD56B // FADD V11.2D, V11.2D, V15.2D
	WORD $0x4EE0D508 // FSUB V8.2D, V8.2D, V0.2D
	WORD $0x4EE1D529 // FSUB V9.2D, V9.2D, V1.2D
	WORD $0x4EE2D54A // FSUB V10.2D, V10.2D, V2.2D
	WORD $0x4EE3D56B // FSUB V11.2D, V11.2D, V3.2D
	VST1.P [V8.D2, V9.D2, V10.D2, V11.D2], 64(R0)
	SUBS $1, R8
	BNE nesterovF64_loop

nesterovF64_tail:
	AND $7, R7, R8
	CBZ R8, nesterovF64_done

nesterovF64_tail_loop:
	FMOVD.P 8(R4), F0
	FMOVD.P 8(R3), F4
	FMOVD.P 8(R2), F8
	FMULD F0, F24, F0
	FMULD F4, F25, F4
	FSUBD F0, F4, F4
	FMOVD.P F4, 8(R1)
	FMULD F4, F25, F12
	FADDD F12, F8, F8
	FSUBD F0, F8, F8
	FMOVD.P F8, 8(R0)
	SUBS $1, R8
	BNE nesterovF64_tail_loop

nesterovF64_done:
	RET

// func rmspropF32(n int, p2, a2, p, a, gr *float32, lr, rho, c, eps float32)
//
// for i := range n {
//	a2[i] = rho*a[i] + (c*gr[i])*gr[i]; p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps)
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·rmspropF32(SB), NOSPLIT|NOFRAME, $0-64
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD a2+16(FP), R1
	MOVD p+24(FP), R2
	MOVD a+32(FP), R3
	MOVD gr+40(FP), R4
	FMOVS lr+48(FP), F24
	VDUP V24.S[0], V24.S4
	FMOVS rho+52(FP), F25
	VDUP V25.S[0], V25.S4
	FMOVS c+56(FP), F26
	VDUP V26.S[0], V26.S4
	FMOVS eps+60(FP), F27
	VDUP V27.S[0], V27.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, rmspropF32_tail
	PCALIGN $16

rmspropF32_loop:
	VLD1.P 64(R4), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R3), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P 64(R2), [V8.S4, V9.S4, V10.S4, V11.S4]
	WORD $0x6E24DF24 // FMUL V4.4S, V25.4S, V4.4S
	WORD $0x6E25DF25 // FMUL V5.4S, V25.4S, V5.4S
	WORD $0x6E26DF26 // FMUL V6.4S, V25.4S, V6.4S
	WORD $0x6E27DF27 // FMUL V7.4S, V25.4S, V7.4S
	WORD $0x6E20DF4C // FMUL V12.4S, V26.4S, V0.4S
	WORD $0x6E21DF4D // FMUL V13.4S, V26.4S, V1.4S
	WORD $0x6E22DF4E // FMUL V14.4S, V26.4S, V2.4S
	WORD $0x6E23DF4F // FMUL V15.4S, V26.4S, V3.4S
	WORD $0x6E20DD8C // FMUL V12.4S, V12.4S, V0.4S
	WORD $0x6E21DDAD // FMUL V13.4S, V13.4S, V1.4S
	WORD $0x6E22DDCE // FMUL V14.4S, V14.4S, V2.4S
	WORD $0x6E23DDEF // FMUL V15.4S, V15.4S, V3.4S
	WORD $0x4E2CD484 // FADD V4.4S, V4.4S, V12.4S
	WORD $0x4E2DD4A5 // FADD V5.4S, V5.4S, V13.4S
	WORD $0x4E2ED4C6 // FADD V6.4S, V6.4S, V14.4S
	WORD $0x4E2FD4E7 // FADD V7.4S, V7.4S, V15.4S
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	WORD $0x6EA1F884 // FSQRT V4.4S, V4.4S
	WORD $0x6EA1F8A5 // FSQRT V5.4S, V5.4S
	WORD $0x6EA1F8C6 // FSQRT V6.4S, V6.4S
	WORD $0x6EA1F8E7 // FSQRT V7.4S, V7.4S
	WORD $0x4E3BD484 // FADD V4.4S, V4.4S, V27.4S
	WORD $0x4E3BD4A5 // FADD V5.4S, V5.4S, V27.4S
	WORD $0x4E3BD4C6 // FADD V6.4S, V6.4S, V27.4S
	WORD $0x4E3BD4E7 // FADD V7.4S, V7.4S, V27.4S
	WORD $0x6E20DF00 // FMUL V0.4S, V24.4S, V0.4S
	WORD $0x6E21DF01 // FMUL V1.4S, V24.4S, V1.4S
	WORD $0x6E22DF02 // FMUL V2.4S, V24.4S, V2.4S
	WORD $0x6E23DF03 // FMUL V3.4S, V24.4S, V3.4S
	WORD $0x6E24FC00 // FDIV V0.4S, V0.4S, V4.4S
	WORD $0x6E25FC21 // FDIV V1.4S, V1.4S, V5.4S
	WORD $0x6E26FC42 // FDIV V2.4S, V2.4S, V6.4S
	WORD $0x6E27FC63 // FDIV V3.4S, V3.4S, V7.4S
	WORD $0x4EA0D508 // FSUB V8.4S, V8.4S, V0.4S
	WORD $0x4EA1D529 // FSUB V9.4S, V9.4S, V1.4S
	WORD $0x4EA2D54A // FSUB V10.4S, V10.4S, V2.4S
	WORD $0x4EA3D56B // FSUB V11.4S, V11.4S, V3.4S
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R0)
	SUBS $1, R8
	BNE rmspropF32_loop

rmspropF32_tail:
	AND $15, R7, R8
	CBZ R8, rmspropF32_done

rmspropF32_tail_loop:
	FMOVS.P 4(R4), F0
	FMOVS.P 4(R3), F4
	FMOVS.P 4(R2), F8
	FMULS F4, F25, F4
	FMULS F0, F26, F12
	FMULS F0, F12, F12
	FADDS F12, F4, F4
	FMOVS.P F4, 4(R1)
	FSQRTS F4, F4
	FADDS F27, F4, F4
	FMULS F0, F24, F0
	FDIVS F4, F0, F0
	FSUBS F0, F8, F8
	FMOVS.P F8, 4(R0)
	SUBS $1, R8
	BNE rmspropF32_tail_loop

rmspropF32_done:
	RET

// func rmspropF64(n int, p2, a2, p, a, gr *float64, lr, rho, c, eps float64)
//
// for i := range n {
//	a2[i] = rho*a[i] + (c*gr[i])*gr[i]; p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps)
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·rmspropF64(SB), NOSPLIT|NOFRAME, $0-80
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD a2+16(FP), R1
	MOVD p+24(FP), R2
	MOVD a+32(FP), R3
	MOVD gr+40(FP), R4
	FMOVD lr+48(FP), F24
	VDUP V24.D[0], V24.D2
	FMOVD rho+56(FP), F25
	VDUP V25.D[0], V25.D2
	FMOVD c+64(FP), F26
	VDUP V26.D[0], V26.D2
	FMOVD eps+72(FP), F27
	VDUP V27.D[0], V27.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, rmspropF64_tail
	PCALIGN $16

rmspropF64_loop:
	VLD1.P 64(R4), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P 64(R2), [V8.D2, V9.D2, V10.D2, V11.D2]
	WORD $0x6E64DF24 // FMUL V4.2D, V25.2D, V4.2D
	WORD $0x6E65DF25 // FMUL V5.2D, V25.2D, V5.2D
	WORD $0x6E66DF26 // FMUL V6.2D, V25.2D, V6.2D
	WORD $0x6E67DF27 // FMUL V7.2D, V25.2D, V7.2D
	WORD $0x6E60DF4C // FMUL V12.2D, V26.2D, V0.2D
	WORD $0x6E61DF4D // FMUL V13.2D, V26.2D, V1.2D
	WORD $0x6E62DF4E // FMUL V14.2D, V26.2D, V2.2D
	WORD $0x6E63DF4F // FMUL V15.2D, V26.2D, V3.2D
	WORD $0x6E60DD8C // FMUL V12.2D, V12.2D, V0.2D
	WORD $0x6E61DDAD // FMUL V13.2D, V13.2D, V1.2D
	WORD $0x6E62DDCE // FMUL V14.2D, V14.2D, V2.2D
	WORD $0x6E63DDEF // FMUL V15.2D, V15.2D, V3.2D
	WORD $0x4E6CD484 // FADD V4.2D, V4.2D, V12.2D
	WORD $0x4E6DD4A5 // FADD V5.2D, V5.2D, V13.2D
	WORD $0x4E6ED4C6 // FADD V6.2D, V6.2D, V14.2D
	WORD $0x4E6FD4E7 // FADD V7.2D, V7.2D, V15.2D
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	WORD $0x6EE1F884 // FSQRT V4.2D, V4.2D
	WORD $0x6EE1F8A5 // FSQRT V5.2D, V5.2D
	WORD $0x6EE1F8C6 // FSQRT V6.2D, V6.2D
	WORD $0x6EE1F8E7 // FSQRT V7.2D, V7.2D
	WORD $0x4E7BD484 // FADD V4.2D, V4.2D, V27.2D
	WORD $0x4E7BD4A5 // FADD V5.2D, V5.2D, V27.2D
	WORD $0x4E7BD4C6 // FADD V6.2D, V6.2D, V27.2D
	WORD $0x4E7BD4E7 // FADD V7.2D, V7.2D, V27.2D
	WORD $0x6E60DF00 // FMUL V0.2D, V24.2D, V0.2D
	WORD $0x6E61DF01 // FMUL V1.2D, V24.2D, V1.2D
	WORD $0x6E62DF02 // FMUL V2.2D, V24.2D, V2.2D
	WORD $0x6E63DF03 // FMUL V3.2D, V24.2D, V3.2D
	WORD $0x6E64FC00 // FDIV V0.2D, V0.2D, V4.2D
	WORD $0x6E65FC21 // FDIV V1.2D, V1.2D, V5.2D
	WORD $0x6E66FC42 // FDIV V2.2D, V2.2D, V6.2D
	WORD $0x6E67FC63 // FDIV V3.2D, V3.2D, V7.2D
	WORD $0x4EE0D508 // FSUB V8.2D, V8.2D, V0.2D
	WORD $0x4EE1D529 // FSUB V9.2D, V9.2D, V1.2D
	WORD $0x4EE2D54A // FSUB V10.2D, V10.2D, V2.2D
	WORD $0x4EE3D56B // FSUB V11.2D, V11.2D, V3.2D
	VST1.P [V8.D2, V9.D2, V10.D2, V11.D2], 64(R0)
	SUBS $1, R8
	BNE rmspropF64_loop

rmspropF64_tail:
	AND $7, R7, R8
	CBZ R8, rmspropF64_done

rmspropF64_tail_loop:
	FMOVD.P 8(R4), F0
	FMOVD.P 8(R3), F4
	FMOVD.P 8(R2), F8
	FMULD F4, F25, F4
	FMULD F0, F26, F12
	FMULD F0, F12, F12
	FADDD F12, F4, F4
	FMOVD.P F4, 8(R1)
	FSQRTD F4, F4
	FADDD F27, F4, F4
	FMULD F0, F24, F0
	FDIVD F4, F0, F0
	FSUBD F0, F8, F8
	FMOVD.P F8, 8(R0)
	SUBS $1, R8
	BNE rmspropF64_tail_loop

rmspropF64_done:
	RET

// func adamF32(n int, p2, m2, v2, p, m, v, gr *float32, lr, b1, c1, b2, c2, eps float32)
//
// for i := range n {
//	m2[i] = b1*m[i] + c1*gr[i]; v2[i] = b2*v[i] + (c2*gr[i])*gr[i]
//	p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps)
// }
//
// Blocks of 16 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·adamF32(SB), NOSPLIT|NOFRAME, $0-88
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD m2+16(FP), R1
	MOVD v2+24(FP), R2
	MOVD p+32(FP), R3
	MOVD m+40(FP), R4
	MOVD v+48(FP), R5
	MOVD gr+56(FP), R6
	FMOVS lr+64(FP), F24
	VDUP V24.S[0], V24.S4
	FMOVS b1+68(FP), F25
	VDUP V25.S[0], V25.S4
	FMOVS c1+72(FP), F27
	VDUP V27.S[0], V27.S4
	FMOVS b2+76(FP), F26
	VDUP V26.S[0], V26.S4
	FMOVS c2+80(FP), F28
	VDUP V28.S[0], V28.S4
	FMOVS eps+84(FP), F29
	VDUP V29.S[0], V29.S4
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, adamF32_tail
	PCALIGN $16

adamF32_loop:
	VLD1.P 64(R6), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R4), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P 64(R5), [V8.S4, V9.S4, V10.S4, V11.S4]
	VLD1.P 64(R3), [V12.S4, V13.S4, V14.S4, V15.S4]
	WORD $0x6E24DF24 // FMUL V4.4S, V25.4S, V4.4S
	WORD $0x6E25DF25 // FMUL V5.4S, V25.4S, V5.4S
	WORD $0x6E26DF26 // FMUL V6.4S, V25.4S, V6.4S
	WORD $0x6E27DF27 // FMUL V7.4S, V25.4S, V7.4S
	WORD $0x6E20DF70 // FMUL V16.4S, V27.4S, V0.4S
	WORD $0x6E21DF71 // FMUL V17.4S, V27.4S, V1.4S
	WORD $0x6E22DF72 // FMUL V18.4S, V27.4S, V2.4S
	WORD $0x6E23DF73 // FMUL V19.4S, V27.4S, V3.4S
	WORD $0x4E30D484 // FADD V4.4S, V4.4S, V16.4S
	WORD $0x4E31D4A5 // FADD V5.4S, V5.4S, V17.4S
	WORD $0x4E32D4C6 // FADD V6.4S, V6.4S, V18.4S
	WORD $0x4E33D4E7 // FADD V7.4S, V7.4S, V19.4S
	WORD $0x6E28DF48 // FMUL V8.4S, V26.4S, V8.4S
	WORD $0x6E29DF49 // FMUL V9.4S, V26.4S, V9.4S
	WORD $0x6E2ADF4A // FMUL V10.4S, V26.4S, V10.4S
	WORD $0x6E2BDF4B // FMUL V11.4S, V26.4S, V11.4S
	WORD $0x6E20DF90 // FMUL V16.4S, V28.4S, V0.4S
	WORD $0x6E21DF91 // FMUL V17.4S, V28.4S, V1.4S
	WORD $0x6E22DF92 // FMUL V18.4S, V28.4S, V2.4S
	WORD $0x6E23DF93 // FMUL V19.4S, V28.4S, V3.4S
	WORD $0x6E20DE10 // FMUL V16.4S, V16.4S, V0.4S
	WORD $0x6E21DE31 // FMUL V17.4S, V17.4S, V1.4S
	WORD $0x6E22DE52 // FMUL V18.4S, V18.4S, V2.4S
	WORD $0x6E23DE73 // FMUL V19.4S, V19.4S, V3.4S
	WORD $0x4E30D508 // FADD V8.4S, V8.4S, V16.4S
	WORD $0x4E31D529 // FADD V9.4S, V9.4S, V17.4S
	WORD $0x4E32D54A // FADD V10.4S, V10.4S, V18.4S
	WORD $0x4E33D56B // FADD V11.4S, V11.4S, V19.4S
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R2)
	WORD $0x6EA1F910 // FSQRT V16.4S, V8.4S
	WORD $0x6EA1F931 // FSQRT V17.4S, V9.4S
	WORD $0x6EA1F952 // FSQRT V18.4S, V10.4S
	WORD $0x6EA1F973 // FSQRT V19.4S, V11.4S
	WORD $0x4E3DD610 // FADD V16.4S, V16.4S, V29.4S
	WORD $0x4E3DD631 // FADD V17.4S, V17.4S, V29.4S
	WORD $0x4E3DD652 // FADD V18.4S, V18.4S, V29.4S
	WORD $0x4E3DD673 // FADD V19.4S, V19.4S, V29.4S
	WORD $0x6E24DF04 // FMUL V4.4S, V24.4S, V4.4S
	WORD $0x6E25DF05 // FMUL V5.4S, V24.4S, V5.4S
	WORD $0x6E26DF06 // FMUL V6.4S, V24.4S, V6.4S
	WORD $0x6E27DF07 // FMUL V7.4S, V24.4S, V7.4S
	WORD $0x6E30FC84 // FDIV V4.4S, V4.4S, V16.4S
	WORD $0x6E31FCA5 // FDIV V5.4S, V5.4S, V17.4S
	WORD $0x6E32FCC6 // FDIV V6.4S, V6.4S, V18.4S
	WORD $0x6E33FCE7 // FDIV V7.4S, V7.4S, V19.4S
	WORD $0x4EA4D58C // FSUB V12.4S, V12.4S, V4.4S
	WORD $0x4EA5D5AD // FSUB V13.4S, V13.4S, V5.4S
	WORD $0x4EA6D5CE // FSUB V14.4S, V14.4S, V6.4S
	WORD $0x4EA7D5EF // FSUB V15.4S, V15.4S, V7.4S
	VST1.P [V12.S4, V13.S4, V14.S4, V15.S4], 64(R0)
	SUBS $1, R8
	BNE adamF32_loop

adamF32_tail:
	AND $15, R7, R8
	CBZ R8, adamF32_done

adamF32_tail_loop:
	FMOVS.P 4(R6), F0
	FMOVS.P 4(R4), F4
	FMOVS.P 4(R5), F8
	FMOVS.P 4(R3), F12
	FMULS F4, F25, F4
	FMULS F0, F27, F16
	FADDS F16, F4, F4
	FMULS F8, F26, F8
	FMULS F0, F28, F16
	FMULS F0, F16, F16
	FADDS F16, F8, F8
	FMOVS.P F4, 4(R1)
	FMOVS.P F8, 4(R2)
	FSQRTS F8, F16
	FADDS F29, F16, F16
	FMULS F4, F24, F4
	FDIVS F16, F4, F4
	FSUBS F4, F12, F12
	FMOVS.P F12, 4(R0)
	SUBS $1, R8
	BNE adamF32_tail_loop

adamF32_done:
	RET

// func adamF64(n int, p2, m2, v2, p, m, v, gr *float64, lr, b1, c1, b2, c2, eps float64)
//
// for i := range n {
//	m2[i] = b1*m[i] + c1*gr[i]; v2[i] = b2*v[i] + (c2*gr[i])*gr[i]
//	p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps)
// }
//
// Blocks of 8 (four vectors), then a scalar tail with the same
// instructions in the same order.
TEXT ·adamF64(SB), NOSPLIT|NOFRAME, $0-112
	MOVD n+0(FP), R7
	MOVD p2+8(FP), R0
	MOVD m2+16(FP), R1
	MOVD v2+24(FP), R2
	MOVD p+32(FP), R3
	MOVD m+40(FP), R4
	MOVD v+48(FP), R5
	MOVD gr+56(FP), R6
	FMOVD lr+64(FP), F24
	VDUP V24.D[0], V24.D2
	FMOVD b1+72(FP), F25
	VDUP V25.D[0], V25.D2
	FMOVD c1+80(FP), F27
	VDUP V27.D[0], V27.D2
	FMOVD b2+88(FP), F26
	VDUP V26.D[0], V26.D2
	FMOVD c2+96(FP), F28
	VDUP V28.D[0], V28.D2
	FMOVD eps+104(FP), F29
	VDUP V29.D[0], V29.D2
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, adamF64_tail
	PCALIGN $16

adamF64_loop:
	VLD1.P 64(R6), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R4), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P 64(R5), [V8.D2, V9.D2, V10.D2, V11.D2]
	VLD1.P 64(R3), [V12.D2, V13.D2, V14.D2, V15.D2]
	WORD $0x6E64DF24 // FMUL V4.2D, V25.2D, V4.2D
	WORD $0x6E65DF25 // FMUL V5.2D, V25.2D, V5.2D
	WORD $0x6E66DF26 // FMUL V6.2D, V25.2D, V6.2D
	WORD $0x6E67DF27 // FMUL V7.2D, V25.2D, V7.2D
	WORD $0x6E60DF70 // FMUL V16.2D, V27.2D, V0.2D
	WORD $0x6E61DF71 // FMUL V17.2D, V27.2D, V1.2D
	WORD $0x6E62DF72 // FMUL V18.2D, V27.2D, V2.2D
	WORD $0x6E63DF73 // FMUL V19.2D, V27.2D, V3.2D
	WORD $0x4E70D484 // FADD V4.2D, V4.2D, V16.2D
	WORD $0x4E71D4A5 // FADD V5.2D, V5.2D, V17.2D
	WORD $0x4E72D4C6 // FADD V6.2D, V6.2D, V18.2D
	WORD $0x4E73D4E7 // FADD V7.2D, V7.2D, V19.2D
	WORD $0x6E68DF48 // FMUL V8.2D, V26.2D, V8.2D
	WORD $0x6E69DF49 // FMUL V9.2D, V26.2D, V9.2D
	WORD $0x6E6ADF4A // FMUL V10.2D, V26.2D, V10.2D
	WORD $0x6E6BDF4B // FMUL V11.2D, V26.2D, V11.2D
	WORD $0x6E60DF90 // FMUL V16.2D, V28.2D, V0.2D
	WORD $0x6E61DF91 // FMUL V17.2D, V28.2D, V1.2D
	WORD $0x6E62DF92 // FMUL V18.2D, V28.2D, V2.2D
	WORD $0x6E63DF93 // FMUL V19.2D, V28.2D, V3.2D
	WORD $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D
	WORD $0x6E61DE31 // FMUL V17.2D, V17.2D, V1.2D
	WORD $0x6E62DE52 // FMUL V18.2D, V18.2D, V2.2D
	WORD $0x6E63DE73 // FMUL V19.2D, V19.2D, V3.2D
	WORD $0x4E70D508 // FADD V8.2D, V8.2D, V16.2D
	WORD $0x4E71D529 // FADD V9.2D, V9.2D, V17.2D
	WORD $0x4E72D54A // FADD V10.2D, V10.2D, V18.2D
	WORD $0x4E73D56B // FADD V11.2D, V11.2D, V19.2D
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R1)
	VST1.P [V8.D2, V9.D2, V10.D2, V11.D2], 64(R2)
	WORD $0x6EE1F910 // FSQRT V16.2D, V8.2D
	WORD $0x6EE1F931 // FSQRT V17.2D, V9.2D
	WORD $0x6EE1F952 // FSQRT V18.2D, V10.2D
	WORD $0x6EE1F973 // FSQRT V19.2D, V11.2D
	WORD $0x4E7DD610 // FADD V16.2D, V16.2D, V29.2D
	WORD $0x4E7DD631 // FADD V17.2D, V17.2D, V29.2D
	WORD $0x4E7DD652 // FADD V18.2D, V18.2D, V29.2D
	WORD $0x4E7DD673 // FADD V19.2D, V19.2D, V29.2D
	WORD $0x6E64DF04 // FMUL V4.2D, V24.2D, V4.2D
	WORD $0x6E65DF05 // FMUL V5.2D, V24.2D, V5.2D
	WORD $0x6E66DF06 // FMUL V6.2D, V24.2D, V6.2D
	WORD $0x6E67DF07 // FMUL V7.2D, V24.2D, V7.2D
	WORD $0x6E70FC84 // FDIV V4.2D, V4.2D, V16.2D
	WORD $0x6E71FCA5 // FDIV V5.2D, V5.2D, V17.2D
	WORD $0x6E72FCC6 // FDIV V6.2D, V6.2D, V18.2D
	WORD $0x6E73FCE7 // FDIV V7.2D, V7.2D, V19.2D
	WORD $0x4EE4D58C // FSUB V12.2D, V12.2D, V4.2D
	WORD $0x4EE5D5AD // FSUB V13.2D, V13.2D, V5.2D
	WORD $0x4EE6D5CE // FSUB V14.2D, V14.2D, V6.2D
	WORD $0x4EE7D5EF // FSUB V15.2D, V15.2D, V7.2D
	VST1.P [V12.D2, V13.D2, V14.D2, V15.D2], 64(R0)
	SUBS $1, R8
	BNE adamF64_loop

adamF64_tail:
	AND $7, R7, R8
	CBZ R8, adamF64_done

adamF64_tail_loop:
	FMOVD.P 8(R6), F0
	FMOVD.P 8(R4), F4
	FMOVD.P 8(R5), F8
	FMOVD.P 8(R3), F12
	FMULD F4, F25, F4
	FMULD F0, F27, F16
	FADDD F16, F4, F4
	FMULD F8, F26, F8
	FMULD F0, F28, F16
	FMULD F0, F16, F16
	FADDD F16, F8, F8
	FMOVD.P F4, 8(R1)
	FMOVD.P F8, 8(R2)
	FSQRTD F8, F16
	FADDD F29, F16, F16
	FMULD F4, F24, F4
	FDIVD F16, F4, F4
	FSUBD F4, F12, F12
	FMOVD.P F12, 8(R0)
	SUBS $1, R8
	BNE adamF64_tail_loop

adamF64_done:
	RET

// func reluBackwardF32(n int, d, y *float32)
//
// The mask y > 0 (FCMGT, all ones where true, so false for NaN) ANDed into d.
TEXT ·reluBackwardF32(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD d+8(FP), R0
	MOVD y+16(FP), R1
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, reluBackwardF32_tail
	PCALIGN $16

reluBackwardF32_loop:
	VLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4EA0C884 // FCMGT V4.4S, V4.4S, #0 ; V4 = y > 0
	WORD $0x4EA0C8A5 // FCMGT V5.4S, V5.4S, #0 ; V5 = y > 0
	WORD $0x4EA0C8C6 // FCMGT V6.4S, V6.4S, #0 ; V6 = y > 0
	WORD $0x4EA0C8E7 // FCMGT V7.4S, V7.4S, #0 ; V7 = y > 0
	VAND V4.B16, V0.B16, V0.B16
	VAND V5.B16, V1.B16, V1.B16
	VAND V6.B16, V2.B16, V2.B16
	VAND V7.B16, V3.B16, V3.B16
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS $1, R8
	BNE reluBackwardF32_loop

reluBackwardF32_tail:
	AND $15, R7, R8
	CBZ R8, reluBackwardF32_done

reluBackwardF32_tail_loop:
	FMOVS.P 4(R1), F1
	FCMPS $(0.0), F1
	BGT reluBackwardF32_keep // y > 0; false when unordered
	MOVW ZR, (R0)   // d = 0

reluBackwardF32_keep:
	ADD $4, R0
	SUBS $1, R8
	BNE reluBackwardF32_tail_loop

reluBackwardF32_done:
	RET

// func reluBackwardF64(n int, d, y *float64)
//
// The mask y > 0 (FCMGT, all ones where true, so false for NaN) ANDed into d.
TEXT ·reluBackwardF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD d+8(FP), R0
	MOVD y+16(FP), R1
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, reluBackwardF64_tail
	PCALIGN $16

reluBackwardF64_loop:
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R1), [V4.D2, V5.D2, V6.D2, V7.D2]
	WORD $0x4EE0C884 // FCMGT V4.2D, V4.2D, #0 ; V4 = y > 0
	WORD $0x4EE0C8A5 // FCMGT V5.2D, V5.2D, #0 ; V5 = y > 0
	WORD $0x4EE0C8C6 // FCMGT V6.2D, V6.2D, #0 ; V6 = y > 0
	WORD $0x4EE0C8E7 // FCMGT V7.2D, V7.2D, #0 ; V7 = y > 0
	VAND V4.B16, V0.B16, V0.B16
	VAND V5.B16, V1.B16, V1.B16
	VAND V6.B16, V2.B16, V2.B16
	VAND V7.B16, V3.B16, V3.B16
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS $1, R8
	BNE reluBackwardF64_loop

reluBackwardF64_tail:
	AND $7, R7, R8
	CBZ R8, reluBackwardF64_done

reluBackwardF64_tail_loop:
	FMOVD.P 8(R1), F1
	FCMPD $(0.0), F1
	BGT reluBackwardF64_keep // y > 0; false when unordered
	MOVD ZR, (R0)   // d = 0

reluBackwardF64_keep:
	ADD $8, R0
	SUBS $1, R8
	BNE reluBackwardF64_tail_loop

reluBackwardF64_done:
	RET

// func allFiniteF32(n int, x *float32) bool
//
// x − x is 0 for a finite x and NaN otherwise; four accumulators of such
// differences stay 0 exactly when every element is finite.
TEXT ·allFiniteF32(SB), NOSPLIT|NOFRAME, $0-17
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, allFiniteF32_reduce
	PCALIGN $16

allFiniteF32_loop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4EA0D400 // FSUB V0.4S, V0.4S, V0.4S
	WORD $0x4EA1D421 // FSUB V1.4S, V1.4S, V1.4S
	WORD $0x4EA2D442 // FSUB V2.4S, V2.4S, V2.4S
	WORD $0x4EA3D463 // FSUB V3.4S, V3.4S, V3.4S
	WORD $0x4E20D610 // FADD V16.4S, V16.4S, V0.4S
	WORD $0x4E21D631 // FADD V17.4S, V17.4S, V1.4S
	WORD $0x4E22D652 // FADD V18.4S, V18.4S, V2.4S
	WORD $0x4E23D673 // FADD V19.4S, V19.4S, V3.4S
	SUBS $1, R8
	BNE allFiniteF32_loop

allFiniteF32_reduce:
	WORD $0x4E31D610 // FADD V16.4S, V16.4S, V17.4S
	WORD $0x4E33D652 // FADD V18.4S, V18.4S, V19.4S
	WORD $0x4E32D610 // FADD V16.4S, V16.4S, V18.4S
	WORD $0x6E30D610 // FADDP V16.4S, V16.4S, V16.4S
	WORD $0x7E30DA10 // FADDP S16, V16.2S
	AND $15, R7, R8
	CBZ R8, allFiniteF32_done

allFiniteF32_tail:
	FMOVS.P 4(R0), F0
	FSUBS F0, F0, F0
	FADDS F0, F16, F16
	SUBS $1, R8
	BNE allFiniteF32_tail

allFiniteF32_done:
	FCMPS $(0.0), F16
	CSET EQ, R0
	MOVB R0, ret+16(FP)
	RET

// func allFiniteF64(n int, x *float64) bool
//
// x − x is 0 for a finite x and NaN otherwise; four accumulators of such
// differences stay 0 exactly when every element is finite.
TEXT ·allFiniteF64(SB), NOSPLIT|NOFRAME, $0-17
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, allFiniteF64_reduce
	PCALIGN $16

allFiniteF64_loop:
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	WORD $0x4EE0D400 // FSUB V0.2D, V0.2D, V0.2D
	WORD $0x4EE1D421 // FSUB V1.2D, V1.2D, V1.2D
	WORD $0x4EE2D442 // FSUB V2.2D, V2.2D, V2.2D
	WORD $0x4EE3D463 // FSUB V3.2D, V3.2D, V3.2D
	WORD $0x4E60D610 // FADD V16.2D, V16.2D, V0.2D
	WORD $0x4E61D631 // FADD V17.2D, V17.2D, V1.2D
	WORD $0x4E62D652 // FADD V18.2D, V18.2D, V2.2D
	WORD $0x4E63D673 // FADD V19.2D, V19.2D, V3.2D
	SUBS $1, R8
	BNE allFiniteF64_loop

allFiniteF64_reduce:
	WORD $0x4E71D610 // FADD V16.2D, V16.2D, V17.2D
	WORD $0x4E73D652 // FADD V18.2D, V18.2D, V19.2D
	WORD $0x4E72D610 // FADD V16.2D, V16.2D, V18.2D
	WORD $0x7E70DA10 // FADDP D16, V16.2D
	AND $7, R7, R8
	CBZ R8, allFiniteF64_done

allFiniteF64_tail:
	FMOVD.P 8(R0), F0
	FSUBD F0, F0, F0
	FADDD F0, F16, F16
	SUBS $1, R8
	BNE allFiniteF64_tail

allFiniteF64_done:
	FCMPD $(0.0), F16
	CSET EQ, R0
	MOVB R0, ret+16(FP)
	RET

// func sumSquaresF32(n int, x *float32) float64
//
// Each block of 16 is widened to float64 (FCVTL, FCVTL2; the squares are
// then exact) and accumulated in eight float64×2 accumulators.
TEXT ·sumSquaresF32(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	LSR $4, R7, R8 // blocks of 16
	CBZ R8, sumSquaresF32_reduce
	PCALIGN $16

sumSquaresF32_loop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x0E617804 // FCVTL V4.2D, V0.2S
	WORD $0x4E617805 // FCVTL2 V5.2D, V0.4S
	WORD $0x0E617826 // FCVTL V6.2D, V1.2S
	WORD $0x4E617827 // FCVTL2 V7.2D, V1.4S
	WORD $0x0E617848 // FCVTL V8.2D, V2.2S
	WORD $0x4E617849 // FCVTL2 V9.2D, V2.4S
	WORD $0x0E61786A // FCVTL V10.2D, V3.2S
	WORD $0x4E61786B // FCVTL2 V11.2D, V3.4S
	VFMLA V4.D2, V4.D2, V16.D2
	VFMLA V5.D2, V5.D2, V17.D2
	VFMLA V6.D2, V6.D2, V18.D2
	VFMLA V7.D2, V7.D2, V19.D2
	VFMLA V8.D2, V8.D2, V20.D2
	VFMLA V9.D2, V9.D2, V21.D2
	VFMLA V10.D2, V10.D2, V22.D2
	VFMLA V11.D2, V11.D2, V23.D2
	SUBS $1, R8
	BNE sumSquaresF32_loop

sumSquaresF32_reduce:
	WORD $0x4E74D610 // FADD V16.2D, V16.2D, V20.2D
	WORD $0x4E75D631 // FADD V17.2D, V17.2D, V21.2D
	WORD $0x4E76D652 // FADD V18.2D, V18.2D, V22.2D
	WORD $0x4E77D673 // FADD V19.2D, V19.2D, V23.2D
	WORD $0x4E71D610 // FADD V16.2D, V16.2D, V17.2D
	WORD $0x4E73D652 // FADD V18.2D, V18.2D, V19.2D
	WORD $0x4E72D610 // FADD V16.2D, V16.2D, V18.2D
	WORD $0x7E70DA10 // FADDP D16, V16.2D
	AND $15, R7, R8
	CBZ R8, sumSquaresF32_done

sumSquaresF32_tail:
	FMOVS.P 4(R0), F0
	FCVTSD F0, F0
	FMADDD F0, F16, F0, F16 // s += x*x
	SUBS $1, R8
	BNE sumSquaresF32_tail

sumSquaresF32_done:
	FMOVD F16, ret+16(FP)
	RET

// func sumSquaresF64(n int, x *float64) float64
//
// Four float64×2 accumulators, fused multiply-adds.
TEXT ·sumSquaresF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $3, R7, R8 // blocks of 8
	CBZ R8, sumSquaresF64_reduce
	PCALIGN $16

sumSquaresF64_loop:
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VFMLA V0.D2, V0.D2, V16.D2
	VFMLA V1.D2, V1.D2, V17.D2
	VFMLA V2.D2, V2.D2, V18.D2
	VFMLA V3.D2, V3.D2, V19.D2
	SUBS $1, R8
	BNE sumSquaresF64_loop

sumSquaresF64_reduce:
	WORD $0x4E71D610 // FADD V16.2D, V16.2D, V17.2D
	WORD $0x4E73D652 // FADD V18.2D, V18.2D, V19.2D
	WORD $0x4E72D610 // FADD V16.2D, V16.2D, V18.2D
	WORD $0x7E70DA10 // FADDP D16, V16.2D
	AND $7, R7, R8
	CBZ R8, sumSquaresF64_done

sumSquaresF64_tail:
	FMOVD.P 8(R0), F0
	FMADDD F0, F16, F0, F16 // s += x*x
	SUBS $1, R8
	BNE sumSquaresF64_tail

sumSquaresF64_done:
	FMOVD F16, ret+16(FP)
	RET

// ---------------------------------------------------------------------
// The constants of the NEON special functions (gcpLossF64, tanhF32 and
// tanhF64), each stored twice, a whole vector, at offset NC_* of
// neonConst<>. With the table's address in KTAB, FMOVQ NC_X(KTAB), Fn
// loads constant X into Vn.

#define KTAB R9 // &neonConst<>

#define NC_ONE 0 // 1
#define NC_TWO 16 // 2
#define NC_HALF 32 // ½
#define NC_TEN 48 // 10, where the series start
#define NC_SIGN 64 // the sign bit
#define NC_INF 80 // +Inf
#define NC_NEGINF 96 // −Inf
#define NC_NAN 112 // NaN
#define NC_TINY 128 // 2⁻¹⁰²², the smallest normal
#define NC_TWO54 144 // 2⁵⁴, to scale subnormals
#define NC_54 160 // 54
#define NC_TWO52 176 // 2⁵², to turn exponent bits into a float
#define NC_TWO52P1022 192 // 2⁵² + 1022
#define NC_MANT 208 // the mantissa bits
#define NC_SQRTHALF 224 // √½
#define NC_LN2HI 240 // ln 2, high part
#define NC_LN2LO 256 // ln 2, low part
#define NC_L1 272 // fdlibm's log polynomial
#define NC_L2 288
#define NC_L3 304
#define NC_L4 320
#define NC_L5 336
#define NC_L6 352
#define NC_L7 368
#define NC_EXPMIN 384 // −746: below, exp is 0
#define NC_LOG2E 400 // 1/ln 2
#define NC_P1 416 // fdlibm's exp polynomial
#define NC_P2 432
#define NC_P3 448
#define NC_P4 464
#define NC_P5 480
#define NC_EXPBIAS 496 // 2⁵² + 1023: k + EXPBIAS holds 2^k in its low bits
#define NC_LOG2PI 512 // ln 2π
#define NC_SQRT2 528 // √2
#define NC_LG0 544 // lgammaHalfSeries
#define NC_LG1 560
#define NC_LG2 576
#define NC_LG3 592
#define NC_LG4 608
#define NC_LG5 624
#define NC_LG6 640
#define NC_LG7 656
#define NC_DG0 672 // digammaHalfSeries
#define NC_DG1 688
#define NC_DG2 704
#define NC_DG3 720
#define NC_DG4 736
#define NC_DG5 752
#define NC_DG6 768
#define NC_DG7 784
#define NC_DG8 800
#define NC_DG9 816
#define NC_C0625 832 // 0.625: from here up, tanh goes through exp
#define NC_TANHMAX 848 // ½·ln 2¹²⁷: tanh is ±1 above
#define NC_TP0 864 // math.tanh's tanhP and tanhQ
#define NC_TP1 880
#define NC_TP2 896
#define NC_TQ0 912
#define NC_TQ1 928
#define NC_TQ2 944

DATA neonConst<>+0(SB)/8, $0x3ff0000000000000
DATA neonConst<>+8(SB)/8, $0x3ff0000000000000
DATA neonConst<>+16(SB)/8, $0x4000000000000000
DATA neonConst<>+24(SB)/8, $0x4000000000000000
DATA neonConst<>+32(SB)/8, $0x3fe0000000000000
DATA neonConst<>+40(SB)/8, $0x3fe0000000000000
DATA neonConst<>+48(SB)/8, $0x4024000000000000
DATA neonConst<>+56(SB)/8, $0x4024000000000000
DATA neonConst<>+64(SB)/8, $0x8000000000000000
DATA neonConst<>+72(SB)/8, $0x8000000000000000
DATA neonConst<>+80(SB)/8, $0x7ff0000000000000
DATA neonConst<>+88(SB)/8, $0x7ff0000000000000
DATA neonConst<>+96(SB)/8, $0xfff0000000000000
DATA neonConst<>+104(SB)/8, $0xfff0000000000000
DATA neonConst<>+112(SB)/8, $0x7ff8000000000000
DATA neonConst<>+120(SB)/8, $0x7ff8000000000000
DATA neonConst<>+128(SB)/8, $0x0010000000000000
DATA neonConst<>+136(SB)/8, $0x0010000000000000
DATA neonConst<>+144(SB)/8, $0x4350000000000000
DATA neonConst<>+152(SB)/8, $0x4350000000000000
DATA neonConst<>+160(SB)/8, $0x404b000000000000
DATA neonConst<>+168(SB)/8, $0x404b000000000000
DATA neonConst<>+176(SB)/8, $0x4330000000000000
DATA neonConst<>+184(SB)/8, $0x4330000000000000
DATA neonConst<>+192(SB)/8, $0x43300000000003fe
DATA neonConst<>+200(SB)/8, $0x43300000000003fe
DATA neonConst<>+208(SB)/8, $0x000fffffffffffff
DATA neonConst<>+216(SB)/8, $0x000fffffffffffff
DATA neonConst<>+224(SB)/8, $0x3fe6a09e667f3bcd
DATA neonConst<>+232(SB)/8, $0x3fe6a09e667f3bcd
DATA neonConst<>+240(SB)/8, $0x3fe62e42fee00000
DATA neonConst<>+248(SB)/8, $0x3fe62e42fee00000
DATA neonConst<>+256(SB)/8, $0x3dea39ef35793c76
DATA neonConst<>+264(SB)/8, $0x3dea39ef35793c76
DATA neonConst<>+272(SB)/8, $0x3fe5555555555593
DATA neonConst<>+280(SB)/8, $0x3fe5555555555593
DATA neonConst<>+288(SB)/8, $0x3fd999999997fa04
DATA neonConst<>+296(SB)/8, $0x3fd999999997fa04
DATA neonConst<>+304(SB)/8, $0x3fd2492494229359
DATA neonConst<>+312(SB)/8, $0x3fd2492494229359
DATA neonConst<>+320(SB)/8, $0x3fcc71c51d8e78af
DATA neonConst<>+328(SB)/8, $0x3fcc71c51d8e78af
DATA neonConst<>+336(SB)/8, $0x3fc7466496cb03de
DATA neonConst<>+344(SB)/8, $0x3fc7466496cb03de
DATA neonConst<>+352(SB)/8, $0x3fc39a09d078c69f
DATA neonConst<>+360(SB)/8, $0x3fc39a09d078c69f
DATA neonConst<>+368(SB)/8, $0x3fc2f112df3e5244
DATA neonConst<>+376(SB)/8, $0x3fc2f112df3e5244
DATA neonConst<>+384(SB)/8, $0xc087500000000000
DATA neonConst<>+392(SB)/8, $0xc087500000000000
DATA neonConst<>+400(SB)/8, $0x3ff71547652b82fe
DATA neonConst<>+408(SB)/8, $0x3ff71547652b82fe
DATA neonConst<>+416(SB)/8, $0x3fc5555555555555
DATA neonConst<>+424(SB)/8, $0x3fc5555555555555
DATA neonConst<>+432(SB)/8, $0xbf66c16c16bebd93
DATA neonConst<>+440(SB)/8, $0xbf66c16c16bebd93
DATA neonConst<>+448(SB)/8, $0x3f11566aaf25de2c
DATA neonConst<>+456(SB)/8, $0x3f11566aaf25de2c
DATA neonConst<>+464(SB)/8, $0xbebbbd41c5d26bf1
DATA neonConst<>+472(SB)/8, $0xbebbbd41c5d26bf1
DATA neonConst<>+480(SB)/8, $0x3e66376972bea4d0
DATA neonConst<>+488(SB)/8, $0x3e66376972bea4d0
DATA neonConst<>+496(SB)/8, $0x43300000000003ff
DATA neonConst<>+504(SB)/8, $0x43300000000003ff
DATA neonConst<>+512(SB)/8, $0x3ffd67f1c864beb4
DATA neonConst<>+520(SB)/8, $0x3ffd67f1c864beb4
DATA neonConst<>+528(SB)/8, $0x3ff6a09e667f3bcd
DATA neonConst<>+536(SB)/8, $0x3ff6a09e667f3bcd
DATA neonConst<>+544(SB)/8, $0xbfc0000000000000
DATA neonConst<>+552(SB)/8, $0xbfc0000000000000
DATA neonConst<>+560(SB)/8, $0x3f75555555555555
DATA neonConst<>+568(SB)/8, $0x3f75555555555555
DATA neonConst<>+576(SB)/8, $0xbf5999999999999a
DATA neonConst<>+584(SB)/8, $0xbf5999999999999a
DATA neonConst<>+592(SB)/8, $0x3f536db6db6db6db
DATA neonConst<>+600(SB)/8, $0x3f536db6db6db6db
DATA neonConst<>+608(SB)/8, $0xbf5b8e38e38e38e4
DATA neonConst<>+616(SB)/8, $0xbf5b8e38e38e38e4
DATA neonConst<>+624(SB)/8, $0x3f6f68ba2e8ba2e9
DATA neonConst<>+632(SB)/8, $0x3f6f68ba2e8ba2e9
DATA neonConst<>+640(SB)/8, $0xbf8a413b13b13b14
DATA neonConst<>+648(SB)/8, $0xbf8a413b13b13b14
DATA neonConst<>+656(SB)/8, $0x3fae426888888889
DATA neonConst<>+664(SB)/8, $0x3fae426888888889
DATA neonConst<>+672(SB)/8, $0x3fc0000000000000
DATA neonConst<>+680(SB)/8, $0x3fc0000000000000
DATA neonConst<>+688(SB)/8, $0xbf90000000000000
DATA neonConst<>+696(SB)/8, $0xbf90000000000000
DATA neonConst<>+704(SB)/8, $0x3f80000000000000
DATA neonConst<>+712(SB)/8, $0x3f80000000000000
DATA neonConst<>+720(SB)/8, $0xbf81000000000000
DATA neonConst<>+728(SB)/8, $0xbf81000000000000
DATA neonConst<>+736(SB)/8, $0x3f8f000000000000
DATA neonConst<>+744(SB)/8, $0x3f8f000000000000
DATA neonConst<>+752(SB)/8, $0xbfa5980000000000
DATA neonConst<>+760(SB)/8, $0xbfa5980000000000
DATA neonConst<>+768(SB)/8, $0x3fc5550000000000
DATA neonConst<>+776(SB)/8, $0x3fc5550000000000
DATA neonConst<>+784(SB)/8, $0xbfec5e4200000000
DATA neonConst<>+792(SB)/8, $0xbfec5e4200000000
DATA neonConst<>+800(SB)/8, $0x40186e7980000000
DATA neonConst<>+808(SB)/8, $0x40186e7980000000
DATA neonConst<>+816(SB)/8, $0xc04a74c8aa000000
DATA neonConst<>+824(SB)/8, $0xc04a74c8aa000000
DATA neonConst<>+832(SB)/8, $0x3fe4000000000000
DATA neonConst<>+840(SB)/8, $0x3fe4000000000000
DATA neonConst<>+848(SB)/8, $0x404601e678fc457b
DATA neonConst<>+856(SB)/8, $0x404601e678fc457b
DATA neonConst<>+864(SB)/8, $0xbfeedc5baafd6f4b
DATA neonConst<>+872(SB)/8, $0xbfeedc5baafd6f4b
DATA neonConst<>+880(SB)/8, $0xc058d26a0e26682d
DATA neonConst<>+888(SB)/8, $0xc058d26a0e26682d
DATA neonConst<>+896(SB)/8, $0xc0993ac030580563
DATA neonConst<>+904(SB)/8, $0xc0993ac030580563
DATA neonConst<>+912(SB)/8, $0x405c33f28a581b86
DATA neonConst<>+920(SB)/8, $0x405c33f28a581b86
DATA neonConst<>+928(SB)/8, $0x40a176fa0e5535fa
DATA neonConst<>+936(SB)/8, $0x40a176fa0e5535fa
DATA neonConst<>+944(SB)/8, $0x40b2ec102442040c
DATA neonConst<>+952(SB)/8, $0x40b2ec102442040c
GLOBL neonConst<>(SB), RODATA|NOPTR, $960

// ---------------------------------------------------------------------
// gcpLossF64: the Student-t gradient loop of the GCP loss (gcpLossGeneric,
// gcpPoint, NormalGamma.Grad and LogPredictive), two samples at a time in
// the lanes of a float64×2 vector; the float32 wrapper converts in chunks.
// It follows the AVX2 gcpLossF64 of simd_amd64.s operation for operation:
// exp and ln as fdlibm's (GL_EXPNEG, GL_LOG, GL_LOG1P), ψ(α+½)−ψ(α) and
// lnΓ(α+½)−lnΓ(α) by the upward recurrence, masked per lane, then the
// asymptotic series of special.go. The branches of the scalar code
// (softplus and sigmoid by the sign of z, the residual for u ≤ 1 or u > 1
// and u = +Inf, ln σ for ν ≥ 1 or ν < 1, α ≥ 10) are evaluated on both
// sides and blended with BIT and BIF, and an invalid prior (ν, α or β not
// > 0) gives NaN everywhere, as in the scalar code.
//
// The constants come from neonConst<> (above). The macros work in V0–V9;
// the values that live through an iteration stay in registers (no scratch
// memory):
//
//	V10 the loss sum per lane   V11 scale         V12 fixedAlpha
//	V13 β     V14 σ(zb)         V15 ν             V16 σ(zn)
//	V17 α     V18 σ(za)         V19 valid: ν, α, β > 0
//	V20 σ = β(1+1/ν)            V21 w = 1/(1+u)   V22 v = u/(1+u)
//	V23 tw = t/(1+u)            V24 ln(1+u)       V25 ln σ
//	V26 lnΓ(α+½) − lnΓ(α)       V27 ψ(α+½) − ψ(α)
//	V28–V31 temporaries: the argument and sigmoid of GL_SOFTPLUS, t and
//	u, and the z, num and den of the recurrences

#define ZM R0    // &zm[i]
#define ZA R1    // &za[i], with α learned
#define ZB R2    // &zb[i]
#define ZN R3    // &zn[i]
#define YP R4    // &y[i]
#define GM R5    // &gm[i]
#define GA R6    // &ga[i], with α learned
#define GB R7    // &gb[i]
#define GN R8    // &gn[i]
#define PAIRS R10 // pairs of samples left
#define FIXED R11 // the bits of fixedAlpha: 0 when α is learned
#define CNT R12  // recurrence steps left
#define ANY R13  // lane masks, ORed: a lane is set
#define ANY1 R14


// GL_NONE(mask, label) branches to label when no lane of the vector
// register mask is set.
#define GL_NONE(mask, label) \
	VMOV mask.D[0], ANY; \
	VMOV mask.D[1], ANY1; \
	ORR ANY1, ANY; \
	CBZ ANY, label

// GL_LOG sets V0 = ln(V0), as fdlibm's log (Go's math.log): x = f1·2^k with
// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;
// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and
// ln(x < 0) = ln(NaN) = NaN. Clobbers V1–V7.
#define GL_LOG \
	FMOVQ NC_TINY(KTAB), F1; \
	WORD $0x6EE0E421 /* FCMGT V1.2D, V1.2D, V0.2D; x < 2⁻¹⁰²² */; \
	FMOVQ NC_TWO54(KTAB), F2; \
	WORD $0x6E62DC02 /* FMUL V2.2D, V0.2D, V2.2D */; \
	VBIF V1.B16, V0.B16, V2.B16; \
	FMOVQ NC_54(KTAB), F3; \
	VAND V1.B16, V3.B16, V3.B16; \
	VUSHR $52, V2.D2, V4.D2; \
	FMOVQ NC_TWO52(KTAB), F5; \
	VORR V5.B16, V4.B16, V4.B16; \
	FMOVQ NC_TWO52P1022(KTAB), F5; \
	WORD $0x4EE5D484 /* FSUB V4.2D, V4.2D, V5.2D; biased exponent − 1022 */; \
	WORD $0x4EE3D484 /* FSUB V4.2D, V4.2D, V3.2D */; \
	FMOVQ NC_MANT(KTAB), F5; \
	VAND V5.B16, V2.B16, V5.B16; \
	FMOVQ NC_HALF(KTAB), F6; \
	VORR V6.B16, V5.B16, V5.B16; \
	FMOVQ NC_SQRTHALF(KTAB), F6; \
	WORD $0x6EE5E4C6 /* FCMGT V6.2D, V6.2D, V5.2D; f1 < √½ */; \
	WORD $0x4E65D4A7 /* FADD V7.2D, V5.2D, V5.2D */; \
	VBIT V6.B16, V7.B16, V5.B16; \
	FMOVQ NC_ONE(KTAB), F7; \
	VAND V6.B16, V7.B16, V3.B16; \
	WORD $0x4EE3D484 /* FSUB V4.2D, V4.2D, V3.2D; k */; \
	WORD $0x4EE7D4A5 /* FSUB V5.2D, V5.2D, V7.2D; f = f1 − 1 */; \
	FMOVQ NC_TWO(KTAB), F6; \
	WORD $0x4E66D4A6 /* FADD V6.2D, V5.2D, V6.2D */; \
	WORD $0x6E66FCA6 /* FDIV V6.2D, V5.2D, V6.2D; s = f/(2+f) */; \
	WORD $0x6E66DCC7 /* FMUL V7.2D, V6.2D, V6.2D; s² */; \
	WORD $0x6E67DCE3 /* FMUL V3.2D, V7.2D, V7.2D; s⁴ */; \
	FMOVQ NC_L7(KTAB), F1; \
	FMOVQ NC_L5(KTAB), F2; \
	VFMLA V1.D2, V3.D2, V2.D2; \
	FMOVQ NC_L3(KTAB), F1; \
	VFMLA V2.D2, V3.D2, V1.D2; \
	FMOVQ NC_L1(KTAB), F2; \
	VFMLA V1.D2, V3.D2, V2.D2; \
	WORD $0x6E67DC41 /* FMUL V1.2D, V2.2D, V7.2D; t1 */; \
	FMOVQ NC_L6(KTAB), F7; \
	FMOVQ NC_L4(KTAB), F2; \
	VFMLA V7.D2, V3.D2, V2.D2; \
	FMOVQ NC_L2(KTAB), F7; \
	VFMLA V2.D2, V3.D2, V7.D2; \
	WORD $0x6E63DCE2 /* FMUL V2.2D, V7.2D, V3.2D; t2 */; \
	WORD $0x4E62D421 /* FADD V1.2D, V1.2D, V2.2D; R = t1 + t2 */; \
	WORD $0x6E65DCA2 /* FMUL V2.2D, V5.2D, V5.2D */; \
	FMOVQ NC_HALF(KTAB), F3; \
	WORD $0x6E63DC42 /* FMUL V2.2D, V2.2D, V3.2D; hfsq = ½f² */; \
	WORD $0x4E62D421 /* FADD V1.2D, V1.2D, V2.2D */; \
	WORD $0x6E66DC21 /* FMUL V1.2D, V1.2D, V6.2D */; \
	FMOVQ NC_LN2LO(KTAB), F3; \
	WORD $0x6E63DC83 /* FMUL V3.2D, V4.2D, V3.2D */; \
	WORD $0x4E63D421 /* FADD V1.2D, V1.2D, V3.2D; s(hfsq+R) + k·ln2lo */; \
	WORD $0x4EE1D442 /* FSUB V2.2D, V2.2D, V1.2D */; \
	WORD $0x4EE5D442 /* FSUB V2.2D, V2.2D, V5.2D */; \
	FMOVQ NC_LN2HI(KTAB), F3; \
	WORD $0x6E63DC84 /* FMUL V4.2D, V4.2D, V3.2D */; \
	WORD $0x4EE2D484 /* FSUB V4.2D, V4.2D, V2.2D; k·ln2hi − ((hfsq − …) − f) */; \
	WORD $0x4EE0D801 /* FCMEQ V1.2D, V0.2D, #0 */; \
	FMOVQ NC_NEGINF(KTAB), F2; \
	VBIT V1.B16, V2.B16, V4.B16; \
	FMOVQ NC_INF(KTAB), F2; \
	WORD $0x4E62E401 /* FCMEQ V1.2D, V0.2D, V2.2D */; \
	VBIT V1.B16, V2.B16, V4.B16; \
	WORD $0x6EE0C801 /* FCMGE V1.2D, V0.2D, #0; false for NaN */; \
	FMOVQ NC_NAN(KTAB), F2; \
	VBIF V1.B16, V2.B16, V4.B16; \
	VMOV V4.B16, V0.B16

// GL_LOG1P sets V0 = ln(1+V0) for V0 ≥ 0 (or NaN): with w = 1+x rounded,
// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding
// error of w (Goldberg), so tiny x keep full relative accuracy. Not for
// x = +Inf (NaN). Leaves x in V8 and w in V9; clobbers V1–V9.
#define GL_LOG1P \
	VMOV V0.B16, V8.B16; \
	FMOVQ NC_ONE(KTAB), F1; \
	WORD $0x4E61D409 /* FADD V9.2D, V0.2D, V1.2D; w = x + 1 */; \
	VMOV V9.B16, V0.B16; \
	GL_LOG; \
	FMOVQ NC_ONE(KTAB), F1; \
	WORD $0x4EE1D521 /* FSUB V1.2D, V9.2D, V1.2D */; \
	WORD $0x4EE1D501 /* FSUB V1.2D, V8.2D, V1.2D; x − (w−1) */; \
	WORD $0x6E69FC21 /* FDIV V1.2D, V1.2D, V9.2D */; \
	WORD $0x4E61D400 /* FADD V0.2D, V0.2D, V1.2D */

// GL_EXPPOLY sets V6 = P1 + t·(P2 + t·(P3 + t·(P4 + t·P5))) for t in V5,
// fdlibm's exp polynomial (Go's math.expmulti), with fused multiply-adds
// as math.Exp's arm64 assembly and the AVX2 kernel evaluate it. Clobbers
// V7.
#define GL_EXPPOLY \
	FMOVQ NC_P5(KTAB), F6; \
	FMOVQ NC_P4(KTAB), F7; \
	VFMLA V6.D2, V5.D2, V7.D2; \
	FMOVQ NC_P3(KTAB), F6; \
	VFMLA V7.D2, V5.D2, V6.D2; \
	FMOVQ NC_P2(KTAB), F7; \
	VFMLA V6.D2, V5.D2, V7.D2; \
	FMOVQ NC_P1(KTAB), F6; \
	VFMLA V7.D2, V5.D2, V6.D2

// GL_EXPY sets V5 = 1 − ((lo − r·c/(2−c)) − hi), fdlibm's exp(r) for hi
// in V2, lo in V3, r = hi − lo in V4 and c in V6. Clobbers V3 and V7.
#define GL_EXPY \
	WORD $0x6E66DC87 /* FMUL V7.2D, V4.2D, V6.2D */; \
	FMOVQ NC_TWO(KTAB), F5; \
	WORD $0x4EE6D4A5 /* FSUB V5.2D, V5.2D, V6.2D */; \
	WORD $0x6E65FCE7 /* FDIV V7.2D, V7.2D, V5.2D; r·c/(2−c) */; \
	WORD $0x4EE7D463 /* FSUB V3.2D, V3.2D, V7.2D */; \
	WORD $0x4EE2D463 /* FSUB V3.2D, V3.2D, V2.2D */; \
	FMOVQ NC_ONE(KTAB), F5; \
	WORD $0x4EE3D4A5 /* FSUB V5.2D, V5.2D, V3.2D; y = 1 − ((lo − r·c/(2−c)) − hi) */

// GL_EXPNEG sets V0 = exp(V0) for V0 ≤ 0 (or NaN), as fdlibm's exp (Go's
// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a rational
// approximation of exp(r), and the scaling by 2^k done as 2^⌊k/2⌋·2^(k−⌊k/2⌋)
// so that subnormal results round once. x < −746 (−Inf included) gives 0.
// Clobbers V1–V7.
#define GL_EXPNEG \
	FMOVQ NC_EXPMIN(KTAB), F1; \
	WORD $0x4E61F400 /* FMAX V0.2D, V0.2D, V1.2D; NaN stays NaN */; \
	FMOVQ NC_LOG2E(KTAB), F1; \
	WORD $0x6E61DC01 /* FMUL V1.2D, V0.2D, V1.2D */; \
	WORD $0x4E618821 /* FRINTN V1.2D, V1.2D; k */; \
	FMOVQ NC_LN2HI(KTAB), F2; \
	WORD $0x6E62DC22 /* FMUL V2.2D, V1.2D, V2.2D */; \
	WORD $0x4EE2D402 /* FSUB V2.2D, V0.2D, V2.2D; hi = x − k·ln2hi */; \
	FMOVQ NC_LN2LO(KTAB), F3; \
	WORD $0x6E63DC23 /* FMUL V3.2D, V1.2D, V3.2D; lo = k·ln2lo */; \
	WORD $0x4EE3D444 /* FSUB V4.2D, V2.2D, V3.2D; r = hi − lo */; \
	WORD $0x6E64DC85 /* FMUL V5.2D, V4.2D, V4.2D; t = r² */; \
	GL_EXPPOLY; \
	WORD $0x6E65DCC6 /* FMUL V6.2D, V6.2D, V5.2D */; \
	WORD $0x4EE6D486 /* FSUB V6.2D, V4.2D, V6.2D; c = r − t·P(t) */; \
	GL_EXPY; \
	FMOVQ NC_HALF(KTAB), F2; \
	WORD $0x6E62DC22 /* FMUL V2.2D, V1.2D, V2.2D */; \
	WORD $0x4E619842 /* FRINTM V2.2D, V2.2D; k1 = ⌊k/2⌋ */; \
	WORD $0x4EE2D423 /* FSUB V3.2D, V1.2D, V2.2D; k2 = k − k1 */; \
	FMOVQ NC_EXPBIAS(KTAB), F6; \
	WORD $0x4E66D442 /* FADD V2.2D, V2.2D, V6.2D */; \
	VSHL $52, V2.D2, V2.D2; \
	WORD $0x4E66D463 /* FADD V3.2D, V3.2D, V6.2D */; \
	VSHL $52, V3.D2, V3.D2; \
	WORD $0x6E62DCA5 /* FMUL V5.2D, V5.2D, V2.2D */; \
	WORD $0x6E63DCA0 /* FMUL V0.2D, V5.2D, V3.2D; y·2^k1·2^k2 */

// GL_SOFTPLUS_EXP and GL_SOFTPLUS_LOG set V0 = softplus(z) for z in V28,
// as special.go's softplus: z + ln(1+e) for z > 0 and ln(1+e) otherwise,
// with e = exp(−|z|) ≤ 1, which cannot overflow. GL_SOFTPLUS_EXP leaves e
// in V0 (GL_SOFTPLUS builds the sigmoid from it), GL_SOFTPLUS_LOG takes it
// there; each clobbers V1–V9 and keeps V28. softplus(+Inf) = +Inf,
// softplus(−Inf) = 0 and softplus(NaN) = NaN.
#define GL_SOFTPLUS_EXP \
	FMOVQ NC_SIGN(KTAB), F1; \
	VORR V1.B16, V28.B16, V0.B16; \
	GL_EXPNEG

#define GL_SOFTPLUS_LOG \
	GL_LOG1P; \
	WORD $0x4E60D781 /* FADD V1.2D, V28.2D, V0.2D; z + ln(1+e) */; \
	WORD $0x4EE0CB82 /* FCMGT V2.2D, V28.2D, #0 */; \
	VBIT V2.B16, V1.B16, V0.B16

// GL_SOFTPLUS sets V0 = softplus(z) and V29 = sigmoid(z) for z in V28, as
// softplus and sigmoid of special.go: sigmoid is 1/(1+e) for z ≥ 0 and
// e/(1+e) below, with e = exp(−|z|). Clobbers V1–V9.
#define GL_SOFTPLUS \
	GL_SOFTPLUS_EXP; \
	FMOVQ NC_ONE(KTAB), F1; \
	WORD $0x4E61D402 /* FADD V2.2D, V0.2D, V1.2D; 1 + e */; \
	WORD $0x6E62FC03 /* FDIV V3.2D, V0.2D, V2.2D; e/(1+e) */; \
	WORD $0x6E62FC3D /* FDIV V29.2D, V1.2D, V2.2D; 1/(1+e) */; \
	WORD $0x6EE0CB84 /* FCMGE V4.2D, V28.2D, #0 */; \
	VBIF V4.B16, V3.B16, V29.B16; \
	GL_SOFTPLUS_LOG

// func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64) float64
TEXT ·gcpLossF64(SB), NOSPLIT|NOFRAME, $0-104
	MOVD n+0(FP), PAIRS
	LSR $1, PAIRS
	MOVD zm+8(FP), ZM
	MOVD za+16(FP), ZA
	MOVD zb+24(FP), ZB
	MOVD zn+32(FP), ZN
	MOVD y+40(FP), YP
	MOVD gm+48(FP), GM
	MOVD ga+56(FP), GA
	MOVD gb+64(FP), GB
	MOVD gn+72(FP), GN
	MOVD fixedAlpha+80(FP), FIXED // +0: α is learned (the Go wrapper maps −0 to +0)
	FMOVD fixedAlpha+80(FP), F12
	VDUP V12.D[0], V12.D2
	FMOVD scale+88(FP), F11
	VDUP V11.D[0], V11.D2
	VEOR V10.B16, V10.B16, V10.B16 // sum = 0
	MOVD $neonConst<>(SB), KTAB
	CBZ PAIRS, gcpLossF64_done
	PCALIGN $16

gcpLossF64_loop:
	// β = softplus(zb), σ(zb)
	VLD1.P 16(ZB), [V28.D2]
	GL_SOFTPLUS
	VMOV V0.B16, V13.B16
	VMOV V29.B16, V14.B16
	// ν = softplus(zn), σ(zn)
	VLD1.P 16(ZN), [V28.D2]
	GL_SOFTPLUS
	VMOV V0.B16, V15.B16
	VMOV V29.B16, V16.B16
	VMOV V12.B16, V17.B16 // α = fixedAlpha
	CBNZ FIXED, gcpLossF64_fixed
	// α = 1 + softplus(za), σ(za)
	VLD1.P 16(ZA), [V28.D2]
	GL_SOFTPLUS
	FMOVQ NC_ONE(KTAB), F1
	WORD $0x4E61D411 // FADD V17.2D, V0.2D, V1.2D; α = softplus(za) + 1
	VMOV V29.B16, V18.B16

gcpLossF64_fixed:
	// valid = ν > 0 && α > 0 && β > 0 (false for NaN)
	WORD $0x4EE0C9F3 // FCMGT V19.2D, V15.2D, #0
	WORD $0x4EE0CA21 // FCMGT V1.2D, V17.2D, #0
	WORD $0x4EE0C9A2 // FCMGT V2.2D, V13.2D, #0
	VAND V1.B16, V19.B16, V19.B16
	VAND V2.B16, V19.B16, V19.B16
	// σ = β(1 + 1/ν); s = √(2σ)
	FMOVQ NC_ONE(KTAB), F1
	WORD $0x6E6FFC22 // FDIV V2.2D, V1.2D, V15.2D
	WORD $0x4E61D442 // FADD V2.2D, V2.2D, V1.2D
	WORD $0x6E62DDB4 // FMUL V20.2D, V13.2D, V2.2D; σ
	WORD $0x4E74D683 // FADD V3.2D, V20.2D, V20.2D
	WORD $0x6EE1F863 // FSQRT V3.2D, V3.2D; s
	// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN
	VLD1.P 16(YP), [V4.D2]
	VLD1.P 16(ZM), [V5.D2]
	WORD $0x4EE5D486 // FSUB V6.2D, V4.2D, V5.2D; r = y − m
	WORD $0x6E63FCDC // FDIV V28.2D, V6.2D, V3.2D; r/s
	WORD $0x6E63FC87 // FDIV V7.2D, V4.2D, V3.2D
	WORD $0x6E63FCA8 // FDIV V8.2D, V5.2D, V3.2D
	WORD $0x4EE8D4E7 // FSUB V7.2D, V7.2D, V8.2D; y/s − m/s
	WORD $0x4E7CE788 // FCMEQ V8.2D, V28.2D, V28.2D; r/s is not NaN
	VBIF V8.B16, V7.B16, V28.B16
	WORD $0x4EE0D8C8 // FCMEQ V8.2D, V6.2D, #0; r = 0
	VEOR V7.B16, V7.B16, V7.B16
	VBIT V8.B16, V7.B16, V28.B16 // t
	WORD $0x6E7CDF9D // FMUL V29.2D, V28.2D, V28.2D; u = t²
	// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)
	WORD $0x4E61D7A2 // FADD V2.2D, V29.2D, V1.2D
	WORD $0x6E62FC35 // FDIV V21.2D, V1.2D, V2.2D; w
	WORD $0x6E75DFA3 // FMUL V3.2D, V29.2D, V21.2D; u·w
	WORD $0x6E75DF84 // FMUL V4.2D, V28.2D, V21.2D; t·w
	WORD $0x6E7DFC36 // FDIV V22.2D, V1.2D, V29.2D
	WORD $0x4E61D6D6 // FADD V22.2D, V22.2D, V1.2D
	WORD $0x6E76FC36 // FDIV V22.2D, V1.2D, V22.2D; 1/(1+1/u)
	WORD $0x6E7CFC37 // FDIV V23.2D, V1.2D, V28.2D
	WORD $0x4E7CD6F7 // FADD V23.2D, V23.2D, V28.2D
	WORD $0x6E77FC37 // FDIV V23.2D, V1.2D, V23.2D; 1/(t+1/t)
	WORD $0x6E7DE425 // FCMGE V5.2D, V1.2D, V29.2D; u ≤ 1
	VBIT V5.B16, V3.B16, V22.B16 // v
	VBIT V5.B16, V4.B16, V23.B16 // tw
	// ln(1+u), or 2·ln|t| where u overflowed
	VMOV V29.B16, V0.B16
	GL_LOG1P
	VMOV V0.B16, V24.B16
	FMOVQ NC_INF(KTAB), F1
	WORD $0x4E61E7A2 // FCMEQ V2.2D, V29.2D, V1.2D; u = +Inf
	GL_NONE(V2, gcpLossF64_finiteu)
	WORD $0x4EE0FB80 // FABS V0.2D, V28.2D
	GL_LOG
	WORD $0x4E60D400 // FADD V0.2D, V0.2D, V0.2D
	FMOVQ NC_INF(KTAB), F1
	WORD $0x4E61E7A2 // FCMEQ V2.2D, V29.2D, V1.2D
	VBIT V2.B16, V0.B16, V24.B16

gcpLossF64_finiteu:
	// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below
	VMOV V13.B16, V0.B16
	GL_LOG
	VMOV V0.B16, V25.B16 // ln β
	FMOVQ NC_ONE(KTAB), F1
	WORD $0x6E6FFC22 // FDIV V2.2D, V1.2D, V15.2D; 1/ν
	WORD $0x6E61E5FE // FCMGE V30.2D, V15.2D, V1.2D; ν ≥ 1
	VMOV V15.B16, V0.B16
	VBIT V30.B16, V2.B16, V0.B16
	GL_LOG1P
	WORD $0x4E60D739 // FADD V25.2D, V25.2D, V0.2D
	VMOV V15.B16, V0.B16
	GL_LOG
	VEOR V1.B16, V1.B16, V1.B16
	VBIT V30.B16, V1.B16, V0.B16 // ν ≥ 1: 0
	WORD $0x4EE0D739 // FSUB V25.2D, V25.2D, V0.2D; ln σ
	// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is
	// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:
	// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.
	FMOVQ NC_ONE(KTAB), F1
	FMOVQ NC_TEN(KTAB), F3
	FMOVQ NC_HALF(KTAB), F5
	WORD $0x4E61D63C // FADD V28.2D, V17.2D, V1.2D; α + 1
	WORD $0x6E63E624 // FCMGE V4.2D, V17.2D, V3.2D; α ≥ 10
	VBIT V4.B16, V17.B16, V28.B16 // z
	WORD $0x4E65D63D // FADD V29.2D, V17.2D, V5.2D; num = α + ½
	VMOV V1.B16, V30.B16 // den = 1
	MOVD $9, CNT

gcpLossF64_lgstep:
	WORD $0x6EFCE466 // FCMGT V6.2D, V3.2D, V28.2D; z < 10
	GL_NONE(V6, gcpLossF64_lgdone)
	WORD $0x4E65D787 // FADD V7.2D, V28.2D, V5.2D
	WORD $0x6E67DFA7 // FMUL V7.2D, V29.2D, V7.2D
	VBIT V6.B16, V7.B16, V29.B16 // num *= z + ½
	WORD $0x6E7CDFC7 // FMUL V7.2D, V30.2D, V28.2D
	VBIT V6.B16, V7.B16, V30.B16 // den *= z
	VAND V6.B16, V1.B16, V7.B16
	WORD $0x4E67D79C // FADD V28.2D, V28.2D, V7.2D; z++
	SUBS $1, CNT
	BNE gcpLossF64_lgstep

gcpLossF64_lgdone:
	VMOV V28.B16, V0.B16
	GL_LOG
	FMOVQ NC_HALF(KTAB), F1
	WORD $0x6E61DC1A // FMUL V26.2D, V0.2D, V1.2D; ½ ln z
	FMOVQ NC_ONE(KTAB), F1
	WORD $0x6E7CFC22 // FDIV V2.2D, V1.2D, V28.2D; r = 1/z
	WORD $0x6E62DC43 // FMUL V3.2D, V2.2D, V2.2D; r²
	FMOVQ NC_LG7(KTAB), F4
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG6(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG5(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG4(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG3(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG2(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG1(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E63DC84 // FMUL V4.2D, V4.2D, V3.2D
	FMOVQ NC_LG0(KTAB), F5
	WORD $0x4E65D484 // FADD V4.2D, V4.2D, V5.2D
	WORD $0x6E62DC84 // FMUL V4.2D, V4.2D, V2.2D
	WORD $0x4E64D75A // FADD V26.2D, V26.2D, V4.2D; series(z)
	WORD $0x6E7EFFA0 // FDIV V0.2D, V29.2D, V30.2D; num/den
	GL_LOG
	WORD $0x4EE0D75F // FSUB V31.2D, V26.2D, V0.2D; − ln(num/den)
	VMOV V17.B16, V0.B16
	GL_LOG
	WORD $0x4E60D7FF // FADD V31.2D, V31.2D, V0.2D; + ln α
	FMOVQ NC_TEN(KTAB), F1
	WORD $0x6E61E622 // FCMGE V2.2D, V17.2D, V1.2D; α ≥ 10
	VBIF V2.B16, V31.B16, V26.B16
	// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),
	// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most
	// ten steps for α > 0.
	VMOV V17.B16, V28.B16 // z
	VEOR V29.B16, V29.B16, V29.B16 // num = 0
	FMOVQ NC_ONE(KTAB), F1
	VMOV V1.B16, V30.B16 // den = 1
	FMOVQ NC_TEN(KTAB), F3
	MOVD $10, CNT

gcpLossF64_psistep:
	WORD $0x6EFCE466 // FCMGT V6.2D, V3.2D, V28.2D; z < 10
	GL_NONE(V6, gcpLossF64_psidone)
	WORD $0x4E7CD787 // FADD V7.2D, V28.2D, V28.2D
	WORD $0x4E61D4E7 // FADD V7.2D, V7.2D, V1.2D
	WORD $0x6E67DF87 // FMUL V7.2D, V28.2D, V7.2D; d = z(2z+1)
	WORD $0x6E67DFA8 // FMUL V8.2D, V29.2D, V7.2D
	WORD $0x4E7ED508 // FADD V8.2D, V8.2D, V30.2D
	VBIT V6.B16, V8.B16, V29.B16 // num = num·d + den
	WORD $0x6E67DFC8 // FMUL V8.2D, V30.2D, V7.2D
	VBIT V6.B16, V8.B16, V30.B16 // den *= d
	VAND V6.B16, V1.B16, V7.B16
	WORD $0x4E67D79C // FADD V28.2D, V28.2D, V7.2D; z++
	SUBS $1, CNT
	BNE gcpLossF64_psistep

gcpLossF64_psidone:
	WORD $0x6E7CDF82 // FMUL V2.2D, V28.2D, V28.2D
	WORD $0x6E62FC22 // FDIV V2.2D, V1.2D, V2.2D; u = 1/z²
	FMOVQ NC_DG9(KTAB), F3
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG8(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG7(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG6(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG5(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG4(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG3(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG2(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG1(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D
	FMOVQ NC_DG0(KTAB), F4
	WORD $0x4E64D463 // FADD V3.2D, V3.2D, V4.2D
	WORD $0x6E62DC63 // FMUL V3.2D, V3.2D, V2.2D; u·P(u)
	FMOVQ NC_HALF(KTAB), F4
	WORD $0x6E7CFC84 // FDIV V4.2D, V4.2D, V28.2D; ½/z
	WORD $0x4E63D484 // FADD V4.2D, V4.2D, V3.2D
	WORD $0x6E7EFFA5 // FDIV V5.2D, V29.2D, V30.2D; num/den
	WORD $0x4E65D49B // FADD V27.2D, V4.2D, V5.2D
	// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]
	FMOVQ NC_HALF(KTAB), F1
	WORD $0x4E61D622 // FADD V2.2D, V17.2D, V1.2D; α + ½
	FMOVQ NC_LOG2PI(KTAB), F3
	WORD $0x4E63D723 // FADD V3.2D, V25.2D, V3.2D
	WORD $0x6E61DC63 // FMUL V3.2D, V3.2D, V1.2D
	WORD $0x4EE3D744 // FSUB V4.2D, V26.2D, V3.2D
	WORD $0x6E78DC45 // FMUL V5.2D, V2.2D, V24.2D
	WORD $0x4EE5D484 // FSUB V4.2D, V4.2D, V5.2D; ln p
	WORD $0x6EE0F884 // FNEG V4.2D, V4.2D; nll = −ln p
	// dα = ln(1+u) − [ψ(α+½) − ψ(α)]
	WORD $0x4EFBD706 // FSUB V6.2D, V24.2D, V27.2D
	// dm = −(α+½)·(tw·(√2/√σ))
	WORD $0x6EE1FA87 // FSQRT V7.2D, V20.2D
	FMOVQ NC_SQRT2(KTAB), F8
	WORD $0x6E67FD08 // FDIV V8.2D, V8.2D, V7.2D
	WORD $0x6E77DD08 // FMUL V8.2D, V8.2D, V23.2D
	WORD $0x6EE0F849 // FNEG V9.2D, V2.2D
	WORD $0x6E68DD29 // FMUL V9.2D, V9.2D, V8.2D; dm
	// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))
	WORD $0x6E61DEA1 // FMUL V1.2D, V21.2D, V1.2D; ½w
	WORD $0x6E76DE23 // FMUL V3.2D, V17.2D, V22.2D; α·v
	WORD $0x4EE3D421 // FSUB V1.2D, V1.2D, V3.2D; g
	WORD $0x6E6DFC23 // FDIV V3.2D, V1.2D, V13.2D; dβ
	FMOVQ NC_ONE(KTAB), F5
	WORD $0x4E65D5E5 // FADD V5.2D, V15.2D, V5.2D
	WORD $0x6E65DDE5 // FMUL V5.2D, V15.2D, V5.2D; ν(ν+1)
	WORD $0x6EE0F821 // FNEG V1.2D, V1.2D
	WORD $0x6E65FC21 // FDIV V1.2D, V1.2D, V5.2D; dν
	// chain through the links, scale, and NaN for an invalid prior
	FMOVQ NC_NAN(KTAB), F7
	WORD $0x6E70DC21 // FMUL V1.2D, V1.2D, V16.2D
	WORD $0x6E61DD61 // FMUL V1.2D, V11.2D, V1.2D
	VBIF V19.B16, V7.B16, V1.B16
	VST1.P [V1.D2], 16(GN) // gn = scale·dν·σ(zn)
	WORD $0x6E6EDC63 // FMUL V3.2D, V3.2D, V14.2D
	WORD $0x6E63DD63 // FMUL V3.2D, V11.2D, V3.2D
	VBIF V19.B16, V7.B16, V3.B16
	VST1.P [V3.D2], 16(GB) // gb = scale·dβ·σ(zb)
	WORD $0x6E69DD69 // FMUL V9.2D, V11.2D, V9.2D
	VBIF V19.B16, V7.B16, V9.B16
	VST1.P [V9.D2], 16(GM) // gm = scale·dm
	VBIF V19.B16, V7.B16, V4.B16
	WORD $0x4E6AD48A // FADD V10.2D, V4.2D, V10.2D; sum += nll
	CBNZ FIXED, gcpLossF64_next
	WORD $0x6E72DCC6 // FMUL V6.2D, V6.2D, V18.2D
	WORD $0x6E66DD66 // FMUL V6.2D, V11.2D, V6.2D
	VBIF V19.B16, V7.B16, V6.B16
	VST1.P [V6.D2], 16(GA) // ga = scale·dα·σ(za)

gcpLossF64_next:
	SUBS $1, PAIRS
	BNE gcpLossF64_loop

gcpLossF64_done:
	WORD $0x7E70D940 // FADDP D0, V10.2D
	FMOVD F0, ret+96(FP)
	RET

#undef ZM
#undef ZA
#undef ZB
#undef ZN
#undef YP
#undef GM
#undef GA
#undef GB
#undef GN
#undef PAIRS
#undef FIXED
#undef CNT
#undef ANY
#undef ANY1

// ---------------------------------------------------------------------
// tanhF32 and tanhF64: math.Tanh as Go compiles it for arm64, bit for bit,
// in the two float64 lanes of a vector (float32 widened exactly and the
// result rounded once, as the generic float32(math.Tanh(float64(v)))).
// math.tanh branches on z = |x|: ±1 above ½·ln 2¹²⁷ ≈ 44.01; from 0.625
// up, 1 − 2/(e^(2z)+1) with the sign of x, where e^(2z) is math.Exp's
// arm64 assembly (archExp: k = trunc(2z·log2e + ½), r = hi − lo, the
// polynomial fused as there, and an exact scaling by 2^k, as 2z ≤ 88 keeps
// the result normal); below, x + x·s·P(s)/Q(s) with s = x², fused as the
// compiler fuses it (Q's innermost term is fma(x, x, Q0), not s + Q0), and
// x itself for ±0. GT_TANH evaluates all three and blends them; the
// generic kernel's results are the oracle (TestKernelElementwise), so a Go
// release that compiled math.tanh or archExp otherwise would show there.

// GT_TANH sets V0 = tanh(V0), lane by lane; KTAB holds &neonConst<>.
// Clobbers V1–V9 and V12–V14.
#define GT_TANH \
	WORD $0x4EE0F808 /* FABS V8.2D, V0.2D; z = |x| */; \
	WORD $0x4E68D509 /* FADD V9.2D, V8.2D, V8.2D; w = 2z */; \
	FMOVQ NC_HALF(KTAB), F1; \
	FMOVQ NC_LOG2E(KTAB), F2; \
	VFMLA V2.D2, V9.D2, V1.D2; \
	WORD $0x4EE19821 /* FRINTZ V1.2D, V1.2D; k = trunc(w·log2e + ½) */; \
	FMOVQ NC_LN2HI(KTAB), F3; \
	VMOV V9.B16, V2.B16; \
	VFMLS V3.D2, V1.D2, V2.D2; \
	FMOVQ NC_LN2LO(KTAB), F3; \
	WORD $0x6E63DC23 /* FMUL V3.2D, V1.2D, V3.2D; lo = k·ln2lo */; \
	WORD $0x4EE3D444 /* FSUB V4.2D, V2.2D, V3.2D; r = hi − lo */; \
	WORD $0x6E64DC85 /* FMUL V5.2D, V4.2D, V4.2D; t = r² */; \
	GL_EXPPOLY; \
	VMOV V4.B16, V7.B16; \
	VFMLS V6.D2, V5.D2, V7.D2; \
	VMOV V7.B16, V6.B16; \
	GL_EXPY; \
	FMOVQ NC_EXPBIAS(KTAB), F2; \
	WORD $0x4E62D421 /* FADD V1.2D, V1.2D, V2.2D */; \
	VSHL $52, V1.D2, V1.D2; \
	WORD $0x6E61DCA5 /* FMUL V5.2D, V5.2D, V1.2D; e^w = y·2^k */; \
	FMOVQ NC_ONE(KTAB), F14; \
	WORD $0x4E6ED4AD /* FADD V13.2D, V5.2D, V14.2D */; \
	FMOVQ NC_TWO(KTAB), F12; \
	WORD $0x6E6DFD8D /* FDIV V13.2D, V12.2D, V13.2D */; \
	WORD $0x4EEDD5CD /* FSUB V13.2D, V14.2D, V13.2D; 1 − 2/(e^w+1) */; \
	FMOVQ NC_SIGN(KTAB), F12; \
	VAND V12.B16, V0.B16, V12.B16; \
	VORR V12.B16, V13.B16, V13.B16; \
	VORR V12.B16, V14.B16, V14.B16; \
	WORD $0x6E60DC02 /* FMUL V2.2D, V0.2D, V0.2D; s = x² */; \
	WORD $0x6E62DC03 /* FMUL V3.2D, V0.2D, V2.2D; x·s */; \
	FMOVQ NC_TP0(KTAB), F4; \
	FMOVQ NC_TP1(KTAB), F5; \
	VFMLA V4.D2, V2.D2, V5.D2; \
	FMOVQ NC_TP2(KTAB), F4; \
	VFMLA V5.D2, V2.D2, V4.D2; \
	WORD $0x6E64DC63 /* FMUL V3.2D, V3.2D, V4.2D; x·s·P(s) */; \
	FMOVQ NC_TQ0(KTAB), F5; \
	VFMLA V0.D2, V0.D2, V5.D2; \
	FMOVQ NC_TQ1(KTAB), F4; \
	VFMLA V5.D2, V2.D2, V4.D2; \
	FMOVQ NC_TQ2(KTAB), F5; \
	VFMLA V4.D2, V2.D2, V5.D2; \
	WORD $0x6E65FC63 /* FDIV V3.2D, V3.2D, V5.2D */; \
	WORD $0x4E63D403 /* FADD V3.2D, V0.2D, V3.2D; x + x·s·P(s)/Q(s) */; \
	WORD $0x4EE0D804 /* FCMEQ V4.2D, V0.2D, #0 */; \
	VBIT V4.B16, V0.B16, V3.B16; \
	FMOVQ NC_C0625(KTAB), F5; \
	WORD $0x6E65E504 /* FCMGE V4.2D, V8.2D, V5.2D; z ≥ 0.625 */; \
	VBIT V4.B16, V13.B16, V3.B16; \
	FMOVQ NC_TANHMAX(KTAB), F5; \
	WORD $0x6EE5E504 /* FCMGT V4.2D, V8.2D, V5.2D; z > ½·ln 2¹²⁷ */; \
	VBIT V4.B16, V14.B16, V3.B16; \
	VMOV V3.B16, V0.B16

// func tanhF32(n int, x *float32)
//
// for i := range n {
//	x[i] = float32(math.Tanh(float64(x[i])))
// }
//
// Blocks of 4, widened to two float64×2 vectors, then one at a time in
// lane 0 (lane 1 computes tanh(0)).
TEXT ·tanhF32(SB), NOSPLIT|NOFRAME, $0-16
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD $neonConst<>(SB), KTAB
	LSR $2, R7, R8 // blocks of 4
	CBZ R8, tanhF32_tail
	PCALIGN $16

tanhF32_loop:
	VLD1 (R0), [V16.S4]
	WORD $0x0E617A00 // FCVTL V0.2D, V16.2S
	GT_TANH
	VMOV V0.B16, V17.B16
	WORD $0x4E617A00 // FCVTL2 V0.2D, V16.4S
	GT_TANH
	WORD $0x0E616A30 // FCVTN V16.2S, V17.2D
	WORD $0x4E616810 // FCVTN2 V16.4S, V0.2D
	VST1.P [V16.S4], 16(R0)
	SUBS $1, R8
	BNE tanhF32_loop

tanhF32_tail:
	AND $3, R7, R8
	CBZ R8, tanhF32_done

tanhF32_tail_loop:
	FMOVS (R0), F16
	FCVTSD F16, F0 // clears lane 1
	GT_TANH
	FCVTDS F0, F0
	FMOVS.P F0, 4(R0)
	SUBS $1, R8
	BNE tanhF32_tail_loop

tanhF32_done:
	RET

// func tanhF64(n int, x *float64)
//
// for i := range n {
//	x[i] = math.Tanh(x[i])
// }
//
// Pairs, then the last element in lane 0 (lane 1 computes tanh(0)).
TEXT ·tanhF64(SB), NOSPLIT|NOFRAME, $0-16
	MOVD n+0(FP), R7
	MOVD x+8(FP), R0
	MOVD $neonConst<>(SB), KTAB
	LSR $1, R7, R8 // pairs
	CBZ R8, tanhF64_tail
	PCALIGN $16

tanhF64_loop:
	VLD1 (R0), [V0.D2]
	GT_TANH
	VST1.P [V0.D2], 16(R0)
	SUBS $1, R8
	BNE tanhF64_loop

tanhF64_tail:
	TBZ $0, R7, tanhF64_done
	FMOVD (R0), F0 // clears lane 1
	GT_TANH
	FMOVD F0, (R0)

tanhF64_done:
	RET

// ---------------------------------------------------------------------
// softplusF32 and softplusF64: the softplus link, written as float64, in
// the two float64 lanes of a vector, with gcpLossF64's exp and ln
// (GL_SOFTPLUS_EXP, GL_SOFTPLUS_LOG); float32 inputs are widened exactly,
// so both compute softplus(float64(x[i])) to within a few float64 ulps.

// SP_LINK sets V0 = softplus(V28), lane by lane; KTAB holds &neonConst<>.
// Clobbers V1–V9.
#define SP_LINK \
	GL_SOFTPLUS_EXP; \
	GL_SOFTPLUS_LOG

// func softplusF32(n int, dst *float64, x *float32)
//
// for i := range n {
//	dst[i] = softplus(float64(x[i]))
// }
//
// Blocks of 4, widened to two float64×2 vectors, then one at a time in
// lane 0 (lane 1 computes softplus(0)).
TEXT ·softplusF32(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD dst+8(FP), R0
	MOVD x+16(FP), R1
	MOVD $neonConst<>(SB), KTAB
	LSR $2, R7, R8 // blocks of 4
	CBZ R8, softplusF32_tail
	PCALIGN $16

softplusF32_loop:
	VLD1.P 16(R1), [V16.S4]
	WORD $0x0E617A1C // FCVTL V28.2D, V16.2S
	SP_LINK
	VMOV V0.B16, V17.B16
	WORD $0x4E617A1C // FCVTL2 V28.2D, V16.4S
	SP_LINK
	VMOV V0.B16, V18.B16
	VST1.P [V17.D2, V18.D2], 32(R0) // dst[i:i+4] = softplus(x[i:i+4])
	SUBS $1, R8
	BNE softplusF32_loop

softplusF32_tail:
	AND $3, R7, R8
	CBZ R8, softplusF32_done

softplusF32_tail_loop:
	FMOVS.P 4(R1), F16
	FCVTSD F16, F28 // clears lane 1
	SP_LINK
	FMOVD.P F0, 8(R0)
	SUBS $1, R8
	BNE softplusF32_tail_loop

softplusF32_done:
	RET

// func softplusF64(n int, dst, x *float64)
//
// for i := range n {
//	dst[i] = softplus(x[i])
// }
//
// Pairs, then the last element in lane 0 (lane 1 computes softplus(0)).
TEXT ·softplusF64(SB), NOSPLIT|NOFRAME, $0-24
	MOVD n+0(FP), R7
	MOVD dst+8(FP), R0
	MOVD x+16(FP), R1
	MOVD $neonConst<>(SB), KTAB
	LSR $1, R7, R8 // pairs
	CBZ R8, softplusF64_tail
	PCALIGN $16

softplusF64_loop:
	VLD1.P 16(R1), [V28.D2]
	SP_LINK
	VST1.P [V0.D2], 16(R0) // dst[i:i+2] = softplus(x[i:i+2])
	SUBS $1, R8
	BNE softplusF64_loop

softplusF64_tail:
	TBZ $0, R7, softplusF64_done
	FMOVD (R1), F28 // clears lane 1
	SP_LINK
	FMOVD F0, (R0)

softplusF64_done:
	RET
