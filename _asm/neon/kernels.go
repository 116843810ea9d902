package main

import "fmt"

// f formats a line template.
var f = fmt.Sprintf

// kernels writes every kernel, in the order of the file.
func kernels() {
	misc0(none)
	k_gemmBcast(f32)
	k_gemmBcast(f64)
	misc1(none)
	k_DOT1(f32)
	k_DOT1(f64)
	k_gemmDot(f32)
	k_gemmDot(f64)
	k_outputForward(f32)
	k_outputForward(f64)
	misc2(none)
	k_mul(f32)
	k_mul(f64)
	k_mulTo(f32)
	k_mulTo(f64)
	k_scale(f32)
	k_scale(f64)
	k_axpy(f32)
	k_axpy(f64)
	k_tanhBackward(f32)
	k_tanhBackward(f64)
	k_sgd(f32)
	k_sgd(f64)
	k_nesterov(f32)
	k_nesterov(f64)
	k_rmsprop(f32)
	k_rmsprop(f64)
	k_adam(f32)
	k_adam(f64)
	k_reluBackward(f32)
	k_reluBackward(f64)
	k_allFinite(f32)
	k_allFinite(f64)
	k_sumSquares(f32)
	k_sumSquares(f64)
	misc3(none)
	k_gcpLossF64(none)
	misc4(none)
	k_tanh(f32)
	k_tanh(f64)
	misc5(none)
	k_softplus(f32)
	k_softplus(f64)
}

func misc0(t *typ) {
	p(t, "//go:build gc && !purego")
	p(t, "")
	p(t, "// NEON kernels for arm64; see simd_arm64.go and simd_asm.go (the")
	p(t, "// element-wise stubs, shared with amd64) for the Go stubs and the")
	p(t, "// reference loop of each kernel, and simd_generic.go for the semantics.")
	p(t, "//")
	p(t, "// The Go assembler's only vector floating-point arithmetic is VFMLA/VFMLS")
	p(t, "// (VADD and friends are the integer instructions), so the other")
	p(t, "// floating-point vector instructions are WORDs, which the generator")
	p(t, "// (_asm/neon, encode.go holds the encodings) computes from the")
	p(t, "// instruction in ARM syntax and writes with it as the comment.")
	p(t, "// TestNEONWords (simd_arm64_words_test.go) disassembles the package and")
	p(t, "// checks that every WORD decodes to its comment, independently of the")
	p(t, "// encoder. The comparisons set a lane to all ones where they hold and to")
	p(t, "// zero where they do not (NaN included), for the assembler's VBIT, VBIF")
	p(t, "// and VAND to blend with. Scalar instructions (FADDS, FMULD, FSQRTD,")
	p(t, "// FMADDS, FMAXD, ...) and the loads, stores, FMOVQ, VMOV, VDUP, VLD1R,")
	p(t, "// VEOR, VAND, VORR, VBIT, VBIF, VUSHR, VSHL, VFMLA and VFMLS are the")
	p(t, "// assembler's own. Inside a #define a WORD's comment is written /* ... */,")
	p(t, "// since a // comment would swallow the line continuation.")
	p(t, "//")
	p(t, "// Element-wise kernels use the separate FMUL/FADD/FSUB/FDIV/FSQRT of the")
	p(t, "// generic code, in its order and with its operand order, so that they")
	p(t, "// match it bit for bit; only axpy and the matrix kernels fuse, and tanh")
	p(t, "// exactly where math.Tanh, as compiled for arm64, does. gcpLossF64")
	p(t, "// fuses where the AVX2 kernel of simd_amd64.s does (the polynomials of")
	p(t, "// exp and ln), so the two write the same gradients, bit for bit (up to")
	p(t, "// NaN payloads); only their loss sums add the lanes in another order.")
	p(t, "")
	p(t, "#include \"textflag.h\"")
	p(t, "")
	p(t, "// Bits of the flags argument of the matrix kernels (gemmBias, gemmAccum,")
	p(t, "// gemmReLU in simd_arm64.go).")
	p(t, "#define BIAS_BIT 0")
	p(t, "#define ACCUM_BIT 1")
	p(t, "#define RELU_BIT 2")
	p(t, "")
	p(t, "// Matrix kernels: broadcast A, multiply rows of B.")
	p(t, "")
	p(t, "#define MROWS  R0   // rows of C left")
	p(t, "#define NCOLS  R1   // columns of C")
	p(t, "#define KDIM   R2   // inner dimension")
	p(t, "#define APTR   R3   // &A(i0, 0)")
	p(t, "#define ARS    R4   // A's row stride, in bytes")
	p(t, "#define AQS    R5   // A's inner stride, in bytes")
	p(t, "#define BPTR   R6   // &B(0, 0)")
	p(t, "#define LDB    R7   // B's row stride, in bytes")
	p(t, "#define CPTR   R8   // &C(i0, 0)")
	p(t, "#define LDC    R9   // C's row stride, in bytes")
	p(t, "#define BIAS   R10  // &bias[0]")
	p(t, "#define FLAGS R11")
	p(t, "#define JOFF   R12  // byte offset of the column tile in the rows of B, C and bias")
	p(t, "#define NJ     R13  // columns left")
	p(t, "#define QCNT   R14  // inner iterations left")
	p(t, "#define A0     R15  // &A(i0+r, q)")
	for i := 0; i < 3; i++ {
		p(t, f("#define A%d R%d", 1+i, 19+i))
	}
	p(t, "#define BP     R22  // &B(q, j)")
	p(t, "#define CP     R23  // &C(i0+r, j)")
	p(t, "")
}

func k_gemmBcast(t *typ) {
	p(t, "// func gemmBcast⟨F⟩(m, n, k int, a *⟨T⟩, ars, aqs int, b *⟨T⟩, ldb int, c *⟨T⟩, ldc int, bias *⟨T⟩, flags int)")
	p(t, "//")
	p(t, "// C (m × n) = A (m × k) · B (k × n), A(i, q) = a[i*ars + q*aqs], B row-major.")
	p(t, "// Tiles of 4 rows × ⟨16|8⟩ columns: 16 accumulators V16–V31, a row of B in")
	p(t, "// V0–V3 and four broadcast A(i, q) in V4–V7; then 4 rows × ⟨4|2⟩, 4 rows × 1,")
	p(t, "// and the same for the last m mod 4 rows one at a time.")
	p(t, "TEXT ·gemmBcast⟨F⟩(SB), NOSPLIT|NOFRAME, $0-96")
	p(t, "\tMOVD m+0(FP), MROWS")
	p(t, "\tMOVD n+8(FP), NCOLS")
	p(t, "\tMOVD k+16(FP), KDIM")
	p(t, "\tMOVD a+24(FP), APTR")
	p(t, "\tMOVD ars+32(FP), ARS")
	p(t, "\tMOVD aqs+40(FP), AQS")
	p(t, "\tMOVD b+48(FP), BPTR")
	p(t, "\tMOVD ldb+56(FP), LDB")
	p(t, "\tMOVD c+64(FP), CPTR")
	p(t, "\tMOVD ldc+72(FP), LDC")
	p(t, "\tMOVD bias+80(FP), BIAS")
	p(t, "\tMOVD flags+88(FP), FLAGS")
	p(t, "\tLSL $⟨2|3⟩, ARS")
	p(t, "\tLSL $⟨2|3⟩, AQS")
	p(t, "\tLSL $⟨2|3⟩, LDB")
	p(t, "\tLSL $⟨2|3⟩, LDC")
	p(t, "\tVEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_rows4:")
	p(t, "\tCMP $4, MROWS")
	p(t, "\tBLT gemmBcast⟨F⟩_rows1")
	p(t, "\tMOVD ZR, JOFF")
	p(t, "\tMOVD NCOLS, NJ")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw:")
	p(t, "\tCMP $⟨16|8⟩, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r4cn")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r4cw_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r4cw_bias")
	for i := 0; i < 16; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+i, 16+i, 16+i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4cw_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_bias:")
	p(t, "\tADD BIAS, JOFF, BP")
	p(t, "\tVLD1 (BP), [V16.⟨A⟩, V17.⟨A⟩, V18.⟨A⟩, V19.⟨A⟩]")
	for i := 0; i < 4; i++ {
		p(t, f("\tVMOV V%d.B16, V%d.B16", 16+i, 20+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVMOV V%d.B16, V%d.B16", 16+i, 24+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVMOV V%d.B16, V%d.B16", 16+i, 28+i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4cw_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_accum:")
	p(t, "\tADD CPTR, JOFF, CP")
	for i := 0; i < 4; i++ {
		p(t, f("\tVLD1.P (CP)(LDC), [V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩]", 16+4*i, 17+4*i, 18+4*i, 19+4*i))
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_k:")
	p(t, "\tMOVD APTR, A0")
	for i := 0; i < 3; i++ {
		p(t, f("\tADD ARS, A%d, A%d", i, 1+i))
	}
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r4cw_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_loop:")
	p(t, "\tVLD1.P (BP)(LDB), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩] // a row of B")
	for i := 0; i < 4; i++ {
		p(t, f("\tVLD1R.P (A%d)(AQS), [V%d.⟨A⟩] // A(i0+%d, q), broadcast", i, 4+i, i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V%d.⟨A⟩, V4.⟨A⟩, V%d.⟨A⟩", i, 16+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V%d.⟨A⟩, V5.⟨A⟩, V%d.⟨A⟩", i, 20+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V%d.⟨A⟩, V6.⟨A⟩, V%d.⟨A⟩", i, 24+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V%d.⟨A⟩, V7.⟨A⟩, V%d.⟨A⟩", i, 28+i))
	}
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r4cw_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r4cw_store")
	for i := 0; i < 16; i++ {
		word(t, f("FMAX V%d.⟨AA⟩, V%d.⟨AA⟩, V8.⟨AA⟩", 16+i, 16+i), "", false, false)
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cw_store:")
	p(t, "\tADD CPTR, JOFF, CP")
	for i := 0; i < 4; i++ {
		p(t, f("\tVST1.P [V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩], (CP)(LDC)", 16+4*i, 17+4*i, 18+4*i, 19+4*i))
	}
	p(t, "\tADD $64, JOFF")
	p(t, "\tSUB $⟨16|8⟩, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r4cw")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn:")
	p(t, "\tCMP $⟨4|2⟩, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r4c1")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r4cn_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r4cn_bias")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+4*i, 16+4*i, 16+4*i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4cn_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_bias:")
	p(t, "\tADD BIAS, JOFF, BP")
	p(t, "\tVLD1 (BP), [V16.⟨A⟩]")
	for i := 0; i < 3; i++ {
		p(t, f("\tVMOV V16.B16, V%d.B16", 20+4*i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4cn_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_accum:")
	p(t, "\tADD CPTR, JOFF, CP")
	for i := 0; i < 4; i++ {
		p(t, f("\tVLD1.P (CP)(LDC), [V%d.⟨A⟩]", 16+4*i))
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_k:")
	p(t, "\tMOVD APTR, A0")
	for i := 0; i < 3; i++ {
		p(t, f("\tADD ARS, A%d, A%d", i, 1+i))
	}
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r4cn_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_loop:")
	p(t, "\tVLD1.P (BP)(LDB), [V0.⟨A⟩] // a row of B")
	for i := 0; i < 4; i++ {
		p(t, f("\tVLD1R.P (A%d)(AQS), [V%d.⟨A⟩] // A(i0+%d, q), broadcast", i, 4+i, i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V0.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩", 4+i, 16+4*i))
	}
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r4cn_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r4cn_store")
	for i := 0; i < 4; i++ {
		word(t, f("FMAX V%d.⟨AA⟩, V%d.⟨AA⟩, V8.⟨AA⟩", 16+4*i, 16+4*i), "", false, false)
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4cn_store:")
	p(t, "\tADD CPTR, JOFF, CP")
	for i := 0; i < 4; i++ {
		p(t, f("\tVST1.P [V%d.⟨A⟩], (CP)(LDC)", 16+4*i))
	}
	p(t, "\tADD $16, JOFF")
	p(t, "\tSUB $⟨4|2⟩, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r4cn")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1:")
	p(t, "\tCMP $1, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r4done")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r4c1_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r4c1_bias")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+4*i, 16+4*i, 16+4*i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4c1_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_bias:")
	p(t, "\tFMOV⟨S⟩ (BIAS)(JOFF), F16")
	for i := 0; i < 3; i++ {
		p(t, f("\tFMOV⟨S⟩ F16, F%d", 20+4*i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r4c1_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_accum:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tFMOV⟨S⟩ (CP), F16")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ (CP), F20")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ (CP), F24")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ (CP), F28")
	p(t, "\tADD LDC, CP")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_k:")
	p(t, "\tMOVD APTR, A0")
	for i := 0; i < 3; i++ {
		p(t, f("\tADD ARS, A%d, A%d", i, 1+i))
	}
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r4c1_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_loop:")
	p(t, "\tFMOV⟨S⟩ (BP), F0")
	p(t, "\tADD LDB, BP")
	p(t, "\tFMOV⟨S⟩ (A0), F4")
	p(t, "\tADD AQS, A0")
	p(t, "\tFMOV⟨S⟩ (A1), F5")
	p(t, "\tADD AQS, A1")
	p(t, "\tFMOV⟨S⟩ (A2), F6")
	p(t, "\tADD AQS, A2")
	p(t, "\tFMOV⟨S⟩ (A3), F7")
	p(t, "\tADD AQS, A3")
	for i := 0; i < 4; i++ {
		p(t, f("\tFMADD⟨S⟩ F0, F%d, F%d, F%d // s += A(i0+%d, q) * B(q, j)", 16+4*i, 4+i, 16+4*i, i))
	}
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r4c1_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r4c1_store")
	for i := 0; i < 4; i++ {
		p(t, f("\tFMAX⟨S⟩ F8, F%d, F%d", 16+4*i, 16+4*i))
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4c1_store:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tFMOV⟨S⟩ F16, (CP)")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ F20, (CP)")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ F24, (CP)")
	p(t, "\tADD LDC, CP")
	p(t, "\tFMOV⟨S⟩ F28, (CP)")
	p(t, "\tADD LDC, CP")
	p(t, "\tADD $⟨4|8⟩, JOFF")
	p(t, "\tSUB $1, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r4c1")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r4done:")
	p(t, "\tADD ARS<<2, APTR")
	p(t, "\tADD LDC<<2, CPTR")
	p(t, "\tSUB $4, MROWS")
	p(t, "\tB gemmBcast⟨F⟩_rows4")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_rows1:")
	p(t, "\tCBZ MROWS, gemmBcast⟨F⟩_done")
	p(t, "\tMOVD ZR, JOFF")
	p(t, "\tMOVD NCOLS, NJ")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw:")
	p(t, "\tCMP $⟨16|8⟩, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r1cn")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r1cw_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r1cw_bias")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+i, 16+i, 16+i))
	}
	p(t, "\tB gemmBcast⟨F⟩_r1cw_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_bias:")
	p(t, "\tADD BIAS, JOFF, BP")
	p(t, "\tVLD1 (BP), [V16.⟨A⟩, V17.⟨A⟩, V18.⟨A⟩, V19.⟨A⟩]")
	p(t, "\tB gemmBcast⟨F⟩_r1cw_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_accum:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tVLD1 (CP), [V16.⟨A⟩, V17.⟨A⟩, V18.⟨A⟩, V19.⟨A⟩]")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_k:")
	p(t, "\tMOVD APTR, A0")
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r1cw_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_loop:")
	p(t, "\tVLD1.P (BP)(LDB), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩] // a row of B")
	p(t, "\tVLD1R.P (A0)(AQS), [V4.⟨A⟩] // A(i, q), broadcast")
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V%d.⟨A⟩, V4.⟨A⟩, V%d.⟨A⟩", i, 16+i))
	}
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r1cw_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r1cw_store")
	for i := 0; i < 4; i++ {
		word(t, f("FMAX V%d.⟨AA⟩, V%d.⟨AA⟩, V8.⟨AA⟩", 16+i, 16+i), "", false, false)
	}
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cw_store:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tVST1 [V16.⟨A⟩, V17.⟨A⟩, V18.⟨A⟩, V19.⟨A⟩], (CP)")
	p(t, "\tADD $64, JOFF")
	p(t, "\tSUB $⟨16|8⟩, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r1cw")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn:")
	p(t, "\tCMP $⟨4|2⟩, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r1c1")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r1cn_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r1cn_bias")
	p(t, "\tVEOR V16.B16, V16.B16, V16.B16")
	p(t, "\tB gemmBcast⟨F⟩_r1cn_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_bias:")
	p(t, "\tADD BIAS, JOFF, BP")
	p(t, "\tVLD1 (BP), [V16.⟨A⟩]")
	p(t, "\tB gemmBcast⟨F⟩_r1cn_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_accum:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tVLD1 (CP), [V16.⟨A⟩]")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_k:")
	p(t, "\tMOVD APTR, A0")
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r1cn_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_loop:")
	p(t, "\tVLD1.P (BP)(LDB), [V0.⟨A⟩] // a row of B")
	p(t, "\tVLD1R.P (A0)(AQS), [V4.⟨A⟩] // A(i, q), broadcast")
	p(t, "\tVFMLA V0.⟨A⟩, V4.⟨A⟩, V16.⟨A⟩")
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r1cn_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r1cn_store")
	word(t, "FMAX V16.⟨AA⟩, V16.⟨AA⟩, V8.⟨AA⟩", "", false, false)
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1cn_store:")
	p(t, "\tADD CPTR, JOFF, CP")
	p(t, "\tVST1 [V16.⟨A⟩], (CP)")
	p(t, "\tADD $16, JOFF")
	p(t, "\tSUB $⟨4|2⟩, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r1cn")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1:")
	p(t, "\tCMP $1, NJ")
	p(t, "\tBLT gemmBcast⟨F⟩_r1done")
	p(t, "\tTBNZ $ACCUM_BIT, FLAGS, gemmBcast⟨F⟩_r1c1_accum")
	p(t, "\tTBNZ $BIAS_BIT, FLAGS, gemmBcast⟨F⟩_r1c1_bias")
	p(t, "\tVEOR V16.B16, V16.B16, V16.B16")
	p(t, "\tB gemmBcast⟨F⟩_r1c1_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_bias:")
	p(t, "\tFMOV⟨S⟩ (BIAS)(JOFF), F16")
	p(t, "\tB gemmBcast⟨F⟩_r1c1_k")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_accum:")
	p(t, "\tFMOV⟨S⟩ (CPTR)(JOFF), F16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_k:")
	p(t, "\tMOVD APTR, A0")
	p(t, "\tADD BPTR, JOFF, BP")
	p(t, "\tMOVD KDIM, QCNT")
	p(t, "\tCBZ QCNT, gemmBcast⟨F⟩_r1c1_relu")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_loop:")
	p(t, "\tFMOV⟨S⟩ (BP), F0")
	p(t, "\tADD LDB, BP")
	p(t, "\tFMOV⟨S⟩ (A0), F4")
	p(t, "\tADD AQS, A0")
	p(t, "\tFMADD⟨S⟩ F0, F16, F4, F16 // s += A(i, q) * B(q, j)")
	p(t, "\tSUBS $1, QCNT")
	p(t, "\tBNE gemmBcast⟨F⟩_r1c1_loop")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmBcast⟨F⟩_r1c1_store")
	p(t, "\tFMAX⟨S⟩ F8, F16, F16")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1c1_store:")
	p(t, "\tFMOV⟨S⟩ F16, (CPTR)(JOFF)")
	p(t, "\tADD $⟨4|8⟩, JOFF")
	p(t, "\tSUB $1, NJ")
	p(t, "\tB gemmBcast⟨F⟩_r1c1")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_r1done:")
	p(t, "\tADD ARS, APTR")
	p(t, "\tADD LDC, CPTR")
	p(t, "\tSUB $1, MROWS")
	p(t, "\tB gemmBcast⟨F⟩_rows1")
	p(t, "")
	p(t, "gemmBcast⟨F⟩_done:")
	p(t, "\tRET")
	if t.size == 4 {
		p(t, "")
	}
}

func misc1(t *typ) {
	p(t, "")
	p(t, "#undef MROWS")
	p(t, "#undef NCOLS")
	p(t, "#undef KDIM")
	p(t, "#undef APTR")
	p(t, "#undef ARS")
	p(t, "#undef AQS")
	p(t, "#undef BPTR")
	p(t, "#undef LDB")
	p(t, "#undef CPTR")
	p(t, "#undef LDC")
	p(t, "#undef BIAS")
	p(t, "#undef FLAGS")
	p(t, "#undef JOFF")
	p(t, "#undef NJ")
	p(t, "#undef QCNT")
	for i := 0; i < 4; i++ {
		p(t, f("#undef A%d", i))
	}
	p(t, "#undef BP")
	p(t, "#undef CP")
	p(t, "")
	p(t, "// Matrix kernels: dot products along k.")
	p(t, "")
	p(t, "#define MROWS  R0   // rows of A left")
	p(t, "#define NCOLS  R1   // rows of B: columns of C")
	p(t, "#define KDIM   R2   // dot length")
	p(t, "#define APTR   R3   // &a[i*lda]")
	p(t, "#define LDA    R4   // in bytes")
	p(t, "#define BPTR R5")
	p(t, "#define LDB    R6   // in bytes")
	p(t, "#define CPTR   R7   // &c[i*ldc]")
	p(t, "#define LDC    R8   // in bytes")
	p(t, "#define BIAS R9")
	p(t, "#define FLAGS R10")
	p(t, "#define PCNT   R11  // rows of B left for this row of A")
	p(t, "#define BP0    R12  // &b[(p+r)*ldb + j]")
	for i := 0; i < 3; i++ {
		p(t, f("#define BP%d R%d", 1+i, 13+i))
	}
	p(t, "#define AP     R19  // &a[i*lda + j]")
	p(t, "#define JCNT   R20  // chunks left")
	p(t, "#define CP     R21  // &c[i*ldc + p]")
	p(t, "#define BIASP  R22  // &bias[p]")
	p(t, "#define BROW   R23  // &b[p*ldb]")
	p(t, "")
}

func k_DOT1(t *typ) {
	if t.size == 4 {
		p(t, "// DOT1F32(loop, narrow, narrowloop, reduce, tail, done) sets F16 (lane 0")
		p(t, "// of V16) to the dot product of the KDIM float32 at AP and at BP0, and")
		p(t, "// advances both past them: four accumulators, 16 elements per step, then")
		p(t, "// 4 per step, added pairwise, then the last KDIM mod 4 fused one at a")
		p(t, "// time into the sum; it branches to done, which must follow it, when")
		p(t, "// there are none. The arguments name its labels. gemmDotF32 (one row of")
		p(t, "// B) and outputForwardF32 use it. Clobbers V0–V7, V17–V19 and JCNT.")
	} else {
		p(t, "// DOT1F64 is DOT1F32 for float64: 8 elements per step, then 2, then the")
		p(t, "// last KDIM mod 2. F16 is V16's lane 0.")
	}
	p(t, "#define DOT1⟨F⟩(loop, narrow, narrowloop, reduce, tail, done) \\")
	p(t, "\tVEOR V16.B16, V16.B16, V16.B16; \\")
	p(t, "\tVEOR V17.B16, V17.B16, V17.B16; \\")
	p(t, "\tVEOR V18.B16, V18.B16, V18.B16; \\")
	p(t, "\tVEOR V19.B16, V19.B16, V19.B16; \\")
	p(t, "\tLSR $⟨4|3⟩, KDIM, JCNT; \\")
	p(t, "\tCBZ JCNT, narrow; \\")
	p(t, "\tPCALIGN $16; \\")
	p(t, "loop: \\")
	p(t, "\tVLD1.P 64(AP), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]; \\")
	p(t, "\tVLD1.P 64(BP0), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]; \\")
	p(t, "\tVFMLA V0.⟨A⟩, V4.⟨A⟩, V16.⟨A⟩; \\")
	p(t, "\tVFMLA V1.⟨A⟩, V5.⟨A⟩, V17.⟨A⟩; \\")
	p(t, "\tVFMLA V2.⟨A⟩, V6.⟨A⟩, V18.⟨A⟩; \\")
	p(t, "\tVFMLA V3.⟨A⟩, V7.⟨A⟩, V19.⟨A⟩; \\")
	p(t, "\tSUBS $1, JCNT; \\")
	p(t, "\tBNE loop; \\")
	p(t, "narrow: \\")
	p(t, "\tAND $⟨15|7⟩, KDIM, JCNT; \\")
	p(t, "\tLSR $⟨2|1⟩, JCNT; \\")
	p(t, "\tCBZ JCNT, reduce; \\")
	p(t, "narrowloop: \\")
	p(t, "\tVLD1.P 16(AP), [V0.⟨A⟩]; \\")
	p(t, "\tVLD1.P 16(BP0), [V4.⟨A⟩]; \\")
	p(t, "\tVFMLA V0.⟨A⟩, V4.⟨A⟩, V16.⟨A⟩; \\")
	p(t, "\tSUBS $1, JCNT; \\")
	p(t, "\tBNE narrowloop; \\")
	p(t, "reduce: \\")
	word(t, "FADD V16.⟨AA⟩, V16.⟨AA⟩, V17.⟨AA⟩", "", true, true)
	word(t, "FADD V18.⟨AA⟩, V18.⟨AA⟩, V19.⟨AA⟩", "", true, true)
	if t.size == 4 {
		word(t, "FADD V16.4S, V16.4S, V18.4S", "", true, true)
		word(t, "FADDP V16.4S, V16.4S, V16.4S", "", true, true)
		word(t, "FADDP S16, V16.2S", "", true, true)
		p(t, "\tAND $3, KDIM, JCNT; \\")
	} else {
		word(t, "FADD V16.2D, V16.2D, V18.2D", "", true, true)
		word(t, "FADDP D16, V16.2D", "", true, true)
		p(t, "\tAND $1, KDIM, JCNT; \\")
	}
	p(t, "\tCBZ JCNT, done; \\")
	p(t, "tail: \\")
	p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(AP), F0; \\")
	p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(BP0), F4; \\")
	p(t, "\tFMADD⟨S⟩ F0, F16, F4, F16; \\")
	p(t, "\tSUBS $1, JCNT; \\")
	p(t, "\tBNE tail")
	p(t, "")
}

func k_gemmDot(t *typ) {
	p(t, "// func gemmDot⟨F⟩(m, n, k int, a *⟨T⟩, lda int, b *⟨T⟩, ldb int, c *⟨T⟩, ldc int, bias *⟨T⟩, flags int)")
	p(t, "//")
	p(t, "// C (m × n) = A (m × k) · Bᵀ for row-major A and B (n × k): dot products")
	p(t, "// along the contiguous k. Four rows of B at a time against one row of A,")
	p(t, "// one accumulator each, reduced with FADDP into four consecutive")
	p(t, "// elements of C; then the last n mod 4 rows of B one at a time, with four")
	p(t, "// accumulators, ⟨16|8⟩ elements per step (DOT1⟨F⟩).")
	p(t, "TEXT ·gemmDot⟨F⟩(SB), NOSPLIT|NOFRAME, $0-88")
	p(t, "\tMOVD m+0(FP), MROWS")
	p(t, "\tMOVD n+8(FP), NCOLS")
	p(t, "\tMOVD k+16(FP), KDIM")
	p(t, "\tMOVD a+24(FP), APTR")
	p(t, "\tMOVD lda+32(FP), LDA")
	p(t, "\tMOVD b+40(FP), BPTR")
	p(t, "\tMOVD ldb+48(FP), LDB")
	p(t, "\tMOVD c+56(FP), CPTR")
	p(t, "\tMOVD ldc+64(FP), LDC")
	p(t, "\tMOVD bias+72(FP), BIAS")
	p(t, "\tMOVD flags+80(FP), FLAGS")
	p(t, "\tLSL $⟨2|3⟩, LDA")
	p(t, "\tLSL $⟨2|3⟩, LDB")
	p(t, "\tLSL $⟨2|3⟩, LDC")
	p(t, "\tVEOR V8.B16, V8.B16, V8.B16 // zero, for ReLU")
	p(t, "")
	p(t, "gemmDot⟨F⟩_row:")
	p(t, "\tCBZ MROWS, gemmDot⟨F⟩_done")
	p(t, "\tMOVD BPTR, BROW")
	p(t, "\tMOVD CPTR, CP")
	p(t, "\tMOVD BIAS, BIASP")
	p(t, "\tMOVD NCOLS, PCNT")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4:")
	p(t, "\tCMP $4, PCNT")
	p(t, "\tBLT gemmDot⟨F⟩_p1")
	p(t, "\tMOVD BROW, BP0")
	for i := 0; i < 3; i++ {
		p(t, f("\tADD LDB, BP%d, BP%d", i, 1+i))
	}
	p(t, "\tMOVD APTR, AP")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+i, 16+i, 16+i))
	}
	p(t, "\tLSR $⟨2|1⟩, KDIM, JCNT")
	p(t, "\tCBZ JCNT, gemmDot⟨F⟩_p4_reduce")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_loop:")
	p(t, "\tVLD1.P 16(AP), [V0.⟨A⟩]")
	for i := 0; i < 4; i++ {
		p(t, f("\tVLD1.P 16(BP%d), [V%d.⟨A⟩]", i, 1+i))
	}
	for i := 0; i < 4; i++ {
		p(t, f("\tVFMLA V0.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩", 1+i, 16+i))
	}
	p(t, "\tSUBS $1, JCNT")
	p(t, "\tBNE gemmDot⟨F⟩_p4_loop")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_reduce:")
	if t.size == 4 {
		word(t, "FADDP V20.4S, V16.4S, V17.4S", "", false, false)
		word(t, "FADDP V21.4S, V18.4S, V19.4S", "", false, false)
		word(t, "FADDP V20.4S, V20.4S, V21.4S", "; V20 = [s0, s1, s2, s3]", false, false)
		p(t, "\tAND $3, KDIM, JCNT")
	} else {
		word(t, "FADDP V20.2D, V16.2D, V17.2D", "; V20 = [s0, s1]", false, false)
		word(t, "FADDP V21.2D, V18.2D, V19.2D", "; V21 = [s2, s3]", false, false)
		p(t, "\tAND $1, KDIM, JCNT")
	}
	p(t, "\tCBZ JCNT, gemmDot⟨F⟩_p4_bias")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_tail:")
	p(t, "\tVLD1R.P ⟨4|8⟩(AP), [V0.⟨A⟩]")
	p(t, "\tVLD1.P ⟨4|8⟩(BP0), V1.⟨S⟩[0]")
	p(t, "\tVLD1.P ⟨4|8⟩(BP1), V1.⟨S⟩[1]")
	p(t, "\tVLD1.P ⟨4|8⟩(BP2), ⟨V1|V2⟩.⟨S⟩[⟨2|0⟩]")
	p(t, "\tVLD1.P ⟨4|8⟩(BP3), ⟨V1|V2⟩.⟨S⟩[⟨3|1⟩]")
	p(t, "\tVFMLA V0.⟨A⟩, V1.⟨A⟩, V20.⟨A⟩")
	if t.size == 8 {
		p(t, "\tVFMLA V0.D2, V2.D2, V21.D2")
	}
	p(t, "\tSUBS $1, JCNT")
	p(t, "\tBNE gemmDot⟨F⟩_p4_tail")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_bias:")
	p(t, "\tTBZ $BIAS_BIT, FLAGS, gemmDot⟨F⟩_p4_relu")
	if t.size == 4 {
		p(t, "\tVLD1 (BIASP), [V1.S4]")
	} else {
		p(t, "\tVLD1 (BIASP), [V1.D2, V2.D2]")
	}
	word(t, "FADD V20.⟨AA⟩, V1.⟨AA⟩, V20.⟨AA⟩", "; bias + s", false, false)
	if t.size == 8 {
		word(t, "FADD V21.2D, V2.2D, V21.2D", "", false, false)
	}
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmDot⟨F⟩_p4_store")
	word(t, "FMAX V20.⟨AA⟩, V20.⟨AA⟩, V8.⟨AA⟩", "", false, false)
	if t.size == 8 {
		word(t, "FMAX V21.2D, V21.2D, V8.2D", "", false, false)
	}
	p(t, "")
	p(t, "gemmDot⟨F⟩_p4_store:")
	if t.size == 4 {
		p(t, "\tVST1.P [V20.S4], 16(CP)")
		p(t, "\tADD $16, BIASP")
	} else {
		p(t, "\tVST1.P [V20.D2, V21.D2], 32(CP)")
		p(t, "\tADD $32, BIASP")
	}
	p(t, "\tADD LDB<<2, BROW")
	p(t, "\tSUB $4, PCNT")
	p(t, "\tB gemmDot⟨F⟩_p4")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p1:")
	p(t, "\tCBZ PCNT, gemmDot⟨F⟩_next")
	p(t, "\tMOVD BROW, BP0")
	p(t, "\tMOVD APTR, AP")
	p(t, "\tDOT1⟨F⟩(gemmDot⟨F⟩_p1_loop, gemmDot⟨F⟩_p1_narrow, gemmDot⟨F⟩_p1_narrow_loop, gemmDot⟨F⟩_p1_reduce, gemmDot⟨F⟩_p1_tail, gemmDot⟨F⟩_p1_bias)")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p1_bias:")
	p(t, "\tTBZ $BIAS_BIT, FLAGS, gemmDot⟨F⟩_p1_relu")
	p(t, "\tFMOV⟨S⟩ (BIASP), F1")
	p(t, "\tFADD⟨S⟩ F16, F1, F16 // bias + s")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p1_relu:")
	p(t, "\tTBZ $RELU_BIT, FLAGS, gemmDot⟨F⟩_p1_store")
	p(t, "\tFMAX⟨S⟩ F8, F16, F16")
	p(t, "")
	p(t, "gemmDot⟨F⟩_p1_store:")
	p(t, "\tFMOV⟨S⟩.P F16, ⟨4|8⟩(CP)")
	p(t, "\tADD $⟨4|8⟩, BIASP")
	p(t, "\tADD LDB, BROW")
	p(t, "\tSUB $1, PCNT")
	p(t, "\tB gemmDot⟨F⟩_p1")
	p(t, "")
	p(t, "gemmDot⟨F⟩_next:")
	p(t, "\tADD LDA, APTR")
	p(t, "\tADD LDC, CPTR")
	p(t, "\tSUB $1, MROWS")
	p(t, "\tB gemmDot⟨F⟩_row")
	p(t, "")
	p(t, "gemmDot⟨F⟩_done:")
	p(t, "\tRET")
	p(t, "")
}

func k_outputForward(t *typ) {
	p(t, "// func outputForward⟨F⟩(m, heads, k int, x *⟨T⟩, ldx int, w, b, y *⟨T⟩)")
	p(t, "//")
	if t.size == 4 {
		p(t, "// The output layer, one unit per head: for each row of x, the heads one")
		p(t, "// after another, each a dot product of length k (DOT1F32) of its inputs,")
		p(t, "// x[i*ldx+h*k:][:k], and its weights, w[h*k:][:k], plus b[h], stored to")
		p(t, "// y[h*m+i]. Head h+1's inputs and weights start where head h's end, so")
		p(t, "// AP and BP0 run on from one head to the next. m, heads ≥ 1.")
	} else {
		p(t, "// outputForwardF32 for float64, with DOT1F64.")
	}
	p(t, "TEXT ·outputForward⟨F⟩(SB), NOSPLIT|NOFRAME, $0-64")
	p(t, "\tMOVD m+0(FP), MROWS")
	p(t, "\tMOVD k+16(FP), KDIM")
	p(t, "\tMOVD x+24(FP), APTR")
	p(t, "\tMOVD ldx+32(FP), LDA")
	p(t, "\tMOVD y+56(FP), CPTR")
	p(t, "\tLSL $⟨2|3⟩, LDA")
	p(t, "\tLSL $⟨2|3⟩, MROWS, LDC // m·⟨4|8⟩: from one head's outputs to the next's")
	p(t, "")
	p(t, "outputForward⟨F⟩_row:")
	p(t, "\tMOVD APTR, AP")
	p(t, "\tMOVD w+40(FP), BP0")
	p(t, "\tMOVD b+48(FP), BIASP")
	p(t, "\tMOVD CPTR, CP")
	p(t, "\tMOVD heads+8(FP), PCNT")
	p(t, "")
	p(t, "outputForward⟨F⟩_head:")
	p(t, "\tDOT1⟨F⟩(outputForward⟨F⟩_loop, outputForward⟨F⟩_narrow, outputForward⟨F⟩_narrow_loop, outputForward⟨F⟩_reduce, outputForward⟨F⟩_tail, outputForward⟨F⟩_bias)")
	p(t, "")
	p(t, "outputForward⟨F⟩_bias:")
	p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(BIASP), F1")
	p(t, "\tFADD⟨S⟩ F16, F1, F16 // y[h*m+i] = b[h] + s")
	p(t, "\tFMOV⟨S⟩ F16, (CP)")
	p(t, "\tADD LDC, CP")
	p(t, "\tSUBS $1, PCNT")
	p(t, "\tBNE outputForward⟨F⟩_head")
	p(t, "\tADD LDA, APTR")
	p(t, "\tADD $⟨4|8⟩, CPTR")
	p(t, "\tSUBS $1, MROWS")
	p(t, "\tBNE outputForward⟨F⟩_row")
	p(t, "\tRET")
	if t.size == 4 {
		p(t, "")
	}
}

func misc2(t *typ) {
	p(t, "")
	p(t, "#undef MROWS")
	p(t, "#undef NCOLS")
	p(t, "#undef KDIM")
	p(t, "#undef APTR")
	p(t, "#undef LDA")
	p(t, "#undef BPTR")
	p(t, "#undef LDB")
	p(t, "#undef CPTR")
	p(t, "#undef LDC")
	p(t, "#undef BIAS")
	p(t, "#undef FLAGS")
	p(t, "#undef PCNT")
	for i := 0; i < 4; i++ {
		p(t, f("#undef BP%d", i))
	}
	p(t, "#undef AP")
	p(t, "#undef JCNT")
	p(t, "#undef CP")
	p(t, "#undef BIASP")
	p(t, "#undef BROW")
	p(t, "")
	p(t, "// Element-wise kernels and reductions. Pointers in R0–R6, n in R7,")
	p(t, "// the block count in R8, scalar arguments broadcast in V24–V29 (and 1 in V31).")
	p(t, "")
}

func k_mul(t *typ) {
	neonElementwise(t, neonEW{
		name: "mul", sig: "n int, x, y *⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tx[i] *= y[i]",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs: []string{"x", "y"},
		loop: func() {
			p(t, "\tVLD1 (R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R1), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", i, i, 4+i), "", false, false)
			}
			p(t, "\tVST1.P [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩], 64(R0)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩ (R0), F0")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R1), F4")
			p(t, "\tFMUL⟨S⟩ F4, F0, F0")
			p(t, "\tFMOV⟨S⟩.P F0, ⟨4|8⟩(R0)")
		},
	})
}

func k_mulTo(t *typ) {
	neonElementwise(t, neonEW{
		name: "mulTo", sig: "n int, dst, x, y *⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tdst[i] = x[i] * y[i]",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs: []string{"dst", "x", "y"},
		loop: func() {
			p(t, "\tVLD1.P 64(R1), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R2), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", i, i, 4+i), "", false, false)
			}
			p(t, "\tVST1.P [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩], 64(R0)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R1), F0")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R2), F4")
			p(t, "\tFMUL⟨S⟩ F4, F0, F0")
			p(t, "\tFMOV⟨S⟩.P F0, ⟨4|8⟩(R0)")
		},
	})
}

func k_scale(t *typ) {
	neonElementwise(t, neonEW{
		name: "scale", sig: "n int, x *⟨T⟩, a ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tx[i] *= a",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"x"},
		scalars: []neonScalar{{"a", 24}},
		loop: func() {
			p(t, "\tVLD1 (R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V24.⟨AA⟩", i, i), "", false, false)
			}
			p(t, "\tVST1.P [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩], 64(R0)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩ (R0), F0")
			p(t, "\tFMUL⟨S⟩ F24, F0, F0")
			p(t, "\tFMOV⟨S⟩.P F0, ⟨4|8⟩(R0)")
		},
	})
}

func k_axpy(t *typ) {
	neonElementwise(t, neonEW{
		name: "axpy", sig: "n int, x, y *⟨T⟩, a ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\ty[i] += a * x[i], fused (VFMLA, FMADD)",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"x", "y"},
		scalars: []neonScalar{{"a", 24}},
		loop: func() {
			p(t, "\tVLD1.P 64(R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1 (R1), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				p(t, f("\tVFMLA V24.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩", i, 4+i))
			}
			p(t, "\tVST1.P [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩], 64(R1)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R0), F0")
			p(t, "\tFMOV⟨S⟩ (R1), F4")
			p(t, "\tFMADD⟨S⟩ F24, F4, F0, F4")
			p(t, "\tFMOV⟨S⟩.P F4, ⟨4|8⟩(R1)")
		},
	})
}

func k_tanhBackward(t *typ) {
	neonElementwise(t, neonEW{
		name: "tanhBackward", sig: "n int, d, y *⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\td[i] *= 1 - y[i]*y[i]",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs: []string{"d", "y"},
		setup: func() {
			p(t, "\tFMOV⟨S⟩ $(1.0), F31")
			p(t, "\tVDUP V31.⟨S⟩[0], V31.⟨A⟩")
		},
		loop: func() {
			p(t, "\tVLD1 (R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R1), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V31.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", i, i, 4+i), "", false, false)
			}
			p(t, "\tVST1.P [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩], 64(R0)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩ (R0), F0")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R1), F4")
			p(t, "\tFMUL⟨S⟩ F4, F4, F4")
			p(t, "\tFSUB⟨S⟩ F4, F31, F4")
			p(t, "\tFMUL⟨S⟩ F4, F0, F0")
			p(t, "\tFMOV⟨S⟩.P F0, ⟨4|8⟩(R0)")
		},
	})
}

func k_sgd(t *typ) {
	neonElementwise(t, neonEW{
		name: "sgd", sig: "n int, p2, p, gr *⟨T⟩, lr ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tp2[i] = p[i] - lr*gr[i]",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"p2", "p", "gr"},
		scalars: []neonScalar{{"lr", 24}},
		finite:  true,
		loop: func() {
			p(t, "\tVLD1.P 64(R2), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R1), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V24.⟨AA⟩, V%d.⟨AA⟩", i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, i), "", false, false)
			}
			p(t, "\tVST1.P [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩], 64(R0)")
			neonCheck(t, 4)
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R2), F0")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R1), F4")
			p(t, "\tFMUL⟨S⟩ F0, F24, F0")
			p(t, "\tFSUB⟨S⟩ F0, F4, F4")
			p(t, "\tFMOV⟨S⟩.P F4, ⟨4|8⟩(R0)")
			neonCheckScalar(t, 4)
		},
	})
}

func k_nesterov(t *typ) {
	neonElementwise(t, neonEW{
		name: "nesterov", sig: "n int, p2, v2, p, v, gr *⟨T⟩, lr, mu ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tt := lr*gr[i]; v2[i] = mu*v[i] - t; p2[i] = p[i] + mu*v2[i] - t",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"p2", "v2", "p", "v", "gr"},
		scalars: []neonScalar{{"lr", 24}, {"mu", 25}},
		finite:  true,
		loop: func() {
			for i := 0; i < 3; i++ {
				p(t, f("\tVLD1.P 64(R%d), [V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩]", 4+-1*i, 4*i, 1+4*i, 2+4*i, 3+4*i))
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V24.⟨AA⟩, V%d.⟨AA⟩", i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V25.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, i), "", false, false)
			}
			p(t, "\tVST1.P [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩], 64(R1)")
			neonCheck(t, 4)
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V25.⟨AA⟩, V%d.⟨AA⟩", 12+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 8+i, 8+i, 12+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 8+i, 8+i, i), "", false, false)
			}
			p(t, "\tVST1.P [V8.⟨A⟩, V9.⟨A⟩, V10.⟨A⟩, V11.⟨A⟩], 64(R0)")
			neonCheck(t, 8)
		},
		tail: func() {
			for i := 0; i < 3; i++ {
				p(t, f("\tFMOV⟨S⟩.P ⟨4|8⟩(R%d), F%d", 4+-1*i, 4*i))
			}
			p(t, "\tFMUL⟨S⟩ F0, F24, F0")
			p(t, "\tFMUL⟨S⟩ F4, F25, F4")
			p(t, "\tFSUB⟨S⟩ F0, F4, F4")
			p(t, "\tFMOV⟨S⟩.P F4, ⟨4|8⟩(R1)")
			neonCheckScalar(t, 4)
			p(t, "\tFMUL⟨S⟩ F4, F25, F12")
			p(t, "\tFADD⟨S⟩ F12, F8, F8")
			p(t, "\tFSUB⟨S⟩ F0, F8, F8")
			p(t, "\tFMOV⟨S⟩.P F8, ⟨4|8⟩(R0)")
			neonCheckScalar(t, 8)
		},
	})
}

func k_rmsprop(t *typ) {
	neonElementwise(t, neonEW{
		name: "rmsprop", sig: "n int, p2, a2, p, a, gr *⟨T⟩, lr, rho, c, eps ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\ta2[i] = rho*a[i] + (c*gr[i])*gr[i]; p2[i] = p[i] - lr*gr[i]/(sqrt(a2[i])+eps)",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"p2", "a2", "p", "a", "gr"},
		scalars: []neonScalar{{"lr", 24}, {"rho", 25}, {"c", 26}, {"eps", 27}},
		finite:  true,
		loop: func() {
			for i := 0; i < 3; i++ {
				p(t, f("\tVLD1.P 64(R%d), [V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩, V%d.⟨A⟩]", 4+-1*i, 4*i, 1+4*i, 2+4*i, 3+4*i))
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V25.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V26.⟨AA⟩, V%d.⟨AA⟩", 12+i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 12+i, 12+i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, 12+i), "", false, false)
			}
			p(t, "\tVST1.P [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩], 64(R1)")
			neonCheck(t, 4)
			for i := 0; i < 4; i++ {
				word(t, f("FSQRT V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V27.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V24.⟨AA⟩, V%d.⟨AA⟩", i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FDIV V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", i, i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 8+i, 8+i, i), "", false, false)
			}
			p(t, "\tVST1.P [V8.⟨A⟩, V9.⟨A⟩, V10.⟨A⟩, V11.⟨A⟩], 64(R0)")
			neonCheck(t, 8)
		},
		tail: func() {
			for i := 0; i < 3; i++ {
				p(t, f("\tFMOV⟨S⟩.P ⟨4|8⟩(R%d), F%d", 4+-1*i, 4*i))
			}
			p(t, "\tFMUL⟨S⟩ F4, F25, F4")
			p(t, "\tFMUL⟨S⟩ F0, F26, F12")
			p(t, "\tFMUL⟨S⟩ F0, F12, F12")
			p(t, "\tFADD⟨S⟩ F12, F4, F4")
			p(t, "\tFMOV⟨S⟩.P F4, ⟨4|8⟩(R1)")
			neonCheckScalar(t, 4)
			p(t, "\tFSQRT⟨S⟩ F4, F4")
			p(t, "\tFADD⟨S⟩ F27, F4, F4")
			p(t, "\tFMUL⟨S⟩ F0, F24, F0")
			p(t, "\tFDIV⟨S⟩ F4, F0, F0")
			p(t, "\tFSUB⟨S⟩ F0, F8, F8")
			p(t, "\tFMOV⟨S⟩.P F8, ⟨4|8⟩(R0)")
			neonCheckScalar(t, 8)
		},
	})
}

func k_adam(t *typ) {
	neonElementwise(t, neonEW{
		name: "adam", sig: "n int, p2, m2, v2, p, m, v, gr *⟨T⟩, lr, b1, c1, b2, c2, eps ⟨T⟩",
		doc: []string{
			"//",
			"// for i := range n {",
			"//\tm2[i] = b1*m[i] + c1*gr[i]; v2[i] = b2*v[i] + (c2*gr[i])*gr[i]",
			"//\tp2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps)",
			"// }",
			"//",
			"// Blocks of ⟨16|8⟩ (four vectors), then a scalar tail with the same",
			"// instructions in the same order.",
		},
		ptrs:    []string{"p2", "m2", "v2", "p", "m", "v", "gr"},
		scalars: []neonScalar{{"lr", 24}, {"b1", 25}, {"c1", 27}, {"b2", 26}, {"c2", 28}, {"eps", 29}},
		finite:  true,
		loop: func() {
			p(t, "\tVLD1.P 64(R6), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R4), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			p(t, "\tVLD1.P 64(R5), [V8.⟨A⟩, V9.⟨A⟩, V10.⟨A⟩, V11.⟨A⟩]")
			p(t, "\tVLD1.P 64(R3), [V12.⟨A⟩, V13.⟨A⟩, V14.⟨A⟩, V15.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V25.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V27.⟨AA⟩, V%d.⟨AA⟩", 16+i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, 16+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V26.⟨AA⟩, V%d.⟨AA⟩", 8+i, 8+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V28.⟨AA⟩, V%d.⟨AA⟩", 16+i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 16+i, 16+i, i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 8+i, 8+i, 16+i), "", false, false)
			}
			p(t, "\tVST1.P [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩], 64(R1)")
			p(t, "\tVST1.P [V8.⟨A⟩, V9.⟨A⟩, V10.⟨A⟩, V11.⟨A⟩], 64(R2)")
			neonCheck(t, 4)
			neonCheck(t, 8)
			for i := 0; i < 4; i++ {
				word(t, f("FSQRT V%d.⟨AA⟩, V%d.⟨AA⟩", 16+i, 8+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V29.⟨AA⟩", 16+i, 16+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FMUL V%d.⟨AA⟩, V24.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FDIV V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 4+i, 4+i, 16+i), "", false, false)
			}
			for i := 0; i < 4; i++ {
				word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 12+i, 12+i, 4+i), "", false, false)
			}
			p(t, "\tVST1.P [V12.⟨A⟩, V13.⟨A⟩, V14.⟨A⟩, V15.⟨A⟩], 64(R0)")
			neonCheck(t, 12)
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R6), F0")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R4), F4")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R5), F8")
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R3), F12")
			p(t, "\tFMUL⟨S⟩ F4, F25, F4")
			p(t, "\tFMUL⟨S⟩ F0, F27, F16")
			p(t, "\tFADD⟨S⟩ F16, F4, F4")
			p(t, "\tFMUL⟨S⟩ F8, F26, F8")
			p(t, "\tFMUL⟨S⟩ F0, F28, F16")
			p(t, "\tFMUL⟨S⟩ F0, F16, F16")
			p(t, "\tFADD⟨S⟩ F16, F8, F8")
			p(t, "\tFMOV⟨S⟩.P F4, ⟨4|8⟩(R1)")
			p(t, "\tFMOV⟨S⟩.P F8, ⟨4|8⟩(R2)")
			neonCheckScalar(t, 4)
			neonCheckScalar(t, 8)
			p(t, "\tFSQRT⟨S⟩ F8, F16")
			p(t, "\tFADD⟨S⟩ F29, F16, F16")
			p(t, "\tFMUL⟨S⟩ F4, F24, F4")
			p(t, "\tFDIV⟨S⟩ F16, F4, F4")
			p(t, "\tFSUB⟨S⟩ F4, F12, F12")
			p(t, "\tFMOV⟨S⟩.P F12, ⟨4|8⟩(R0)")
			neonCheckScalar(t, 12)
		},
	})
}

func k_reluBackward(t *typ) {
	neonElementwise(t, neonEW{
		name: "reluBackward", sig: "n int, d, y *⟨T⟩",
		doc: []string{
			"//",
			"// The mask y > 0 (FCMGT, all ones where true, so false for NaN) ANDed into d.",
		},
		ptrs: []string{"d", "y"},
		loop: func() {
			p(t, "\tVLD1 (R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
			p(t, "\tVLD1.P 64(R1), [V4.⟨A⟩, V5.⟨A⟩, V6.⟨A⟩, V7.⟨A⟩]")
			for i := 0; i < 4; i++ {
				word(t, f("FCMGT V%d.⟨AA⟩, V%d.⟨AA⟩, #0", 4+i, 4+i), f("; V%d = y > 0", 4+i), false, false)
			}
			for i := 0; i < 4; i++ {
				p(t, f("\tVAND V%d.B16, V%d.B16, V%d.B16", 4+i, i, i))
			}
			p(t, "\tVST1.P [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩], 64(R0)")
		},
		tail: func() {
			p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R1), F1")
			p(t, "\tFCMP⟨S⟩ $(0.0), F1")
			p(t, "\tBGT reluBackward⟨F⟩_keep // y > 0; false when unordered")
			p(t, "\t⟨MOVW|MOVD⟩ ZR, (R0) // d = 0")
			p(t, "")
			p(t, "reluBackward⟨F⟩_keep:")
			p(t, "\tADD $⟨4|8⟩, R0")
		},
	})
}

func k_allFinite(t *typ) {
	p(t, "// func allFinite⟨F⟩(n int, x *⟨T⟩) bool")
	p(t, "//")
	p(t, "// x − x is 0 for a finite x and NaN otherwise; four accumulators of such")
	p(t, "// differences stay 0 exactly when every element is finite.")
	p(t, "TEXT ·allFinite⟨F⟩(SB), NOSPLIT|NOFRAME, $0-17")
	p(t, "\tMOVD n+0(FP), R7")
	p(t, "\tMOVD x+8(FP), R0")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+i, 16+i, 16+i))
	}
	p(t, "\tLSR $⟨4|3⟩, R7, R8 // blocks of ⟨16|8⟩")
	p(t, "\tCBZ R8, allFinite⟨F⟩_reduce")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "allFinite⟨F⟩_loop:")
	p(t, "\tVLD1.P 64(R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
	for i := 0; i < 4; i++ {
		word(t, f("FSUB V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", i, i, i), "", false, false)
	}
	for i := 0; i < 4; i++ {
		word(t, f("FADD V%d.⟨AA⟩, V%d.⟨AA⟩, V%d.⟨AA⟩", 16+i, 16+i, i), "", false, false)
	}
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE allFinite⟨F⟩_loop")
	p(t, "")
	p(t, "allFinite⟨F⟩_reduce:")
	word(t, "FADD V16.⟨AA⟩, V16.⟨AA⟩, V17.⟨AA⟩", "", false, false)
	word(t, "FADD V18.⟨AA⟩, V18.⟨AA⟩, V19.⟨AA⟩", "", false, false)
	if t.size == 4 {
		word(t, "FADD V16.4S, V16.4S, V18.4S", "", false, false)
		word(t, "FADDP V16.4S, V16.4S, V16.4S", "", false, false)
		word(t, "FADDP S16, V16.2S", "", false, false)
		p(t, "\tAND $15, R7, R8")
	} else {
		word(t, "FADD V16.2D, V16.2D, V18.2D", "", false, false)
		word(t, "FADDP D16, V16.2D", "", false, false)
		p(t, "\tAND $7, R7, R8")
	}
	p(t, "\tCBZ R8, allFinite⟨F⟩_done")
	p(t, "")
	p(t, "allFinite⟨F⟩_tail:")
	p(t, "\tFMOV⟨S⟩.P ⟨4|8⟩(R0), F0")
	p(t, "\tFSUB⟨S⟩ F0, F0, F0")
	p(t, "\tFADD⟨S⟩ F0, F16, F16")
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE allFinite⟨F⟩_tail")
	p(t, "")
	p(t, "allFinite⟨F⟩_done:")
	p(t, "\tFCMP⟨S⟩ $(0.0), F16")
	p(t, "\tCSET EQ, R0")
	p(t, "\tMOVB R0, ret+16(FP)")
	p(t, "\tRET")
	p(t, "")
}

func k_sumSquares(t *typ) {
	p(t, "// func sumSquares⟨F⟩(n int, x *⟨T⟩) float64")
	p(t, "//")
	if t.size == 4 {
		p(t, "// Each block of 16 is widened to float64 (FCVTL, FCVTL2; the squares are")
		p(t, "// then exact) and accumulated in eight float64×2 accumulators.")
	} else {
		p(t, "// Four float64×2 accumulators, fused multiply-adds.")
	}
	p(t, "TEXT ·sumSquares⟨F⟩(SB), NOSPLIT|NOFRAME, $0-24")
	p(t, "\tMOVD n+0(FP), R7")
	p(t, "\tMOVD x+8(FP), R0")
	for i := 0; i < 4; i++ {
		p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 16+i, 16+i, 16+i))
	}
	if t.size == 4 {
		for i := 0; i < 4; i++ {
			p(t, f("\tVEOR V%d.B16, V%d.B16, V%d.B16", 20+i, 20+i, 20+i))
		}
		p(t, "\tLSR $4, R7, R8 // blocks of 16")
	} else {
		p(t, "\tLSR $3, R7, R8 // blocks of 8")
	}
	p(t, "\tCBZ R8, sumSquares⟨F⟩_reduce")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "sumSquares⟨F⟩_loop:")
	p(t, "\tVLD1.P 64(R0), [V0.⟨A⟩, V1.⟨A⟩, V2.⟨A⟩, V3.⟨A⟩]")
	if t.size == 4 {
		word(t, "FCVTL V4.2D, V0.2S", "", false, false)
		word(t, "FCVTL2 V5.2D, V0.4S", "", false, false)
		word(t, "FCVTL V6.2D, V1.2S", "", false, false)
		word(t, "FCVTL2 V7.2D, V1.4S", "", false, false)
		word(t, "FCVTL V8.2D, V2.2S", "", false, false)
		word(t, "FCVTL2 V9.2D, V2.4S", "", false, false)
		word(t, "FCVTL V10.2D, V3.2S", "", false, false)
		word(t, "FCVTL2 V11.2D, V3.4S", "", false, false)
		for i := 0; i < 8; i++ {
			p(t, f("\tVFMLA V%d.D2, V%d.D2, V%d.D2", 4+i, 4+i, 16+i))
		}
	} else {
		for i := 0; i < 4; i++ {
			p(t, f("\tVFMLA V%d.D2, V%d.D2, V%d.D2", i, i, 16+i))
		}
	}
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE sumSquares⟨F⟩_loop")
	p(t, "")
	p(t, "sumSquares⟨F⟩_reduce:")
	if t.size == 4 {
		for i := 0; i < 4; i++ {
			word(t, f("FADD V%d.2D, V%d.2D, V%d.2D", 16+i, 16+i, 20+i), "", false, false)
		}
	}
	word(t, "FADD V16.2D, V16.2D, V17.2D", "", false, false)
	word(t, "FADD V18.2D, V18.2D, V19.2D", "", false, false)
	word(t, "FADD V16.2D, V16.2D, V18.2D", "", false, false)
	word(t, "FADDP D16, V16.2D", "", false, false)
	p(t, "\tAND $⟨15|7⟩, R7, R8")
	p(t, "\tCBZ R8, sumSquares⟨F⟩_done")
	p(t, "")
	p(t, "sumSquares⟨F⟩_tail:")
	if t.size == 4 {
		p(t, "\tFMOVS.P 4(R0), F0")
		p(t, "\tFCVTSD F0, F0")
	} else {
		p(t, "\tFMOVD.P 8(R0), F0")
	}
	p(t, "\tFMADDD F0, F16, F0, F16 // s += x*x")
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE sumSquares⟨F⟩_tail")
	p(t, "")
	p(t, "sumSquares⟨F⟩_done:")
	p(t, "\tFMOVD F16, ret+16(FP)")
	p(t, "\tRET")
	if t.size == 4 {
		p(t, "")
	}
}

func misc3(t *typ) {
	p(t, "")
	p(t, "// ---------------------------------------------------------------------")
	p(t, "// The constants of the NEON special functions (gcpLossF64, tanhF32 and")
	p(t, "// tanhF64), each stored twice, a whole vector, at offset NC_* of")
	p(t, "// neonConst<>. With the table's address in KTAB, FMOVQ NC_X(KTAB), Fn")
	p(t, "// loads constant X into Vn.")
	p(t, "")
	p(t, "#define KTAB   R9   // &neonConst<>")
	p(t, "")
	writeNeonConst()
	p(t, "")
	p(t, "// ---------------------------------------------------------------------")
	p(t, "// gcpLossF64: the Student-t gradient loop of the GCP loss (gcpLossGeneric,")
	p(t, "// gcpPoint, NormalGamma.Grad and LogPredictive), two samples at a time in")
	p(t, "// the lanes of a float64×2 vector; the float32 wrapper converts in chunks.")
	p(t, "// It follows the AVX2 gcpLossF64 of simd_amd64.s operation for operation:")
	p(t, "// exp and ln as fdlibm's (GL_EXP_NEG, GL_LOG, GL_LOG1P), ψ(α+½)−ψ(α) and")
	p(t, "// lnΓ(α+½)−lnΓ(α) by the upward recurrence, masked per lane, then the")
	p(t, "// asymptotic series of special.go. The branches of the scalar code")
	p(t, "// (softplus and sigmoid by the sign of z, the residual for u ≤ 1 or u > 1")
	p(t, "// and u = +Inf, ln σ for ν ≥ 1 or ν < 1, α ≥ 10) are evaluated on both")
	p(t, "// sides and blended with BIT and BIF, and an invalid prior (ν, α or β not")
	p(t, "// > 0) gives NaN everywhere, as in the scalar code.")
	p(t, "//")
	p(t, "// The constants come from neonConst<> (above). The macros work in V0–V9;")
	p(t, "// the values that live through an iteration stay in registers (no scratch")
	p(t, "// memory):")
	p(t, "//")
	p(t, "//\tV10 the loss sum per lane   V11 scale         V12 fixedAlpha")
	p(t, "//\tV13 β     V14 σ(zb)         V15 ν             V16 σ(zn)")
	p(t, "//\tV17 α     V18 σ(za)         V19 valid: ν, α, β > 0")
	p(t, "//\tV20 σ = β(1+1/ν)            V21 w = 1/(1+u)   V22 v = u/(1+u)")
	p(t, "//\tV23 tw = t/(1+u)            V24 ln(1+u)       V25 ln σ")
	p(t, "//\tV26 lnΓ(α+½) − lnΓ(α)       V27 ψ(α+½) − ψ(α)")
	p(t, "//\tV28–V31 temporaries: the argument and sigmoid of GL_SOFTPLUS, t and")
	p(t, "//\tu, and the z, num and den of the recurrences")
	p(t, "")
	p(t, "#define ZM     R0   // &zm[i]")
	p(t, "#define ZA     R1   // &za[i], with α learned")
	p(t, "#define ZB     R2   // &zb[i]")
	p(t, "#define ZN     R3   // &zn[i]")
	p(t, "#define YP     R4   // &y[i]")
	p(t, "#define GM     R5   // &gm[i]")
	p(t, "#define GA     R6   // &ga[i], with α learned")
	p(t, "#define GB     R7   // &gb[i]")
	p(t, "#define GN     R8   // &gn[i]")
	p(t, "#define PAIRS  R10  // pairs of samples left")
	p(t, "#define FIXED  R11  // the bits of fixedAlpha: 0 when α is learned")
	p(t, "#define CNT    R12  // recurrence steps left")
	p(t, "#define ANY    R13  // lane masks, ORed: a lane is set")
	p(t, "#define ANY1 R14")
	p(t, "")
	p(t, "// GL_NONE(mask, label) branches to label when no lane of the vector")
	p(t, "// register mask is set.")
	p(t, "#define GL_NONE(mask, label) \\")
	p(t, "\tVMOV mask.D[0], ANY; \\")
	p(t, "\tVMOV mask.D[1], ANY1; \\")
	p(t, "\tORR ANY1, ANY; \\")
	p(t, "\tCBZ ANY, label")
	p(t, "")
	p(t, "// GL_LOG sets V0 = ln(V0), as fdlibm's log (Go's math.log): x = f1·2^k with")
	p(t, "// f1 in [√½, √2), s = f/(2+f) for f = f1−1, and a minimax polynomial in s²;")
	p(t, "// subnormals are scaled by 2^54 first. ln(±0) = −Inf, ln(+Inf) = +Inf and")
	p(t, "// ln(x < 0) = ln(NaN) = NaN. Clobbers V1–V7.")
	p(t, "#define GL_LOG \\")
	p(t, "\tFMOVQ NC_TINY(KTAB), F1; \\")
	word(t, "FCMGT V1.2D, V1.2D, V0.2D", "; x < 2⁻¹⁰²²", true, true)
	p(t, "\tFMOVQ NC_TWO54(KTAB), F2; \\")
	word(t, "FMUL V2.2D, V0.2D, V2.2D", "", true, true)
	p(t, "\tVBIF V1.B16, V0.B16, V2.B16; \\")
	p(t, "\tFMOVQ NC_54(KTAB), F3; \\")
	p(t, "\tVAND V1.B16, V3.B16, V3.B16; \\")
	p(t, "\tVUSHR $52, V2.D2, V4.D2; \\")
	p(t, "\tFMOVQ NC_TWO52(KTAB), F5; \\")
	p(t, "\tVORR V5.B16, V4.B16, V4.B16; \\")
	p(t, "\tFMOVQ NC_TWO52P1022(KTAB), F5; \\")
	word(t, "FSUB V4.2D, V4.2D, V5.2D", "; biased exponent − 1022", true, true)
	word(t, "FSUB V4.2D, V4.2D, V3.2D", "", true, true)
	p(t, "\tFMOVQ NC_MANT(KTAB), F5; \\")
	p(t, "\tVAND V5.B16, V2.B16, V5.B16; \\")
	p(t, "\tFMOVQ NC_HALF(KTAB), F6; \\")
	p(t, "\tVORR V6.B16, V5.B16, V5.B16; \\")
	p(t, "\tFMOVQ NC_SQRTHALF(KTAB), F6; \\")
	word(t, "FCMGT V6.2D, V6.2D, V5.2D", "; f1 < √½", true, true)
	word(t, "FADD V7.2D, V5.2D, V5.2D", "", true, true)
	p(t, "\tVBIT V6.B16, V7.B16, V5.B16; \\")
	p(t, "\tFMOVQ NC_ONE(KTAB), F7; \\")
	p(t, "\tVAND V6.B16, V7.B16, V3.B16; \\")
	word(t, "FSUB V4.2D, V4.2D, V3.2D", "; k", true, true)
	word(t, "FSUB V5.2D, V5.2D, V7.2D", "; f = f1 − 1", true, true)
	p(t, "\tFMOVQ NC_TWO(KTAB), F6; \\")
	word(t, "FADD V6.2D, V5.2D, V6.2D", "", true, true)
	word(t, "FDIV V6.2D, V5.2D, V6.2D", "; s = f/(2+f)", true, true)
	word(t, "FMUL V7.2D, V6.2D, V6.2D", "; s²", true, true)
	word(t, "FMUL V3.2D, V7.2D, V7.2D", "; s⁴", true, true)
	p(t, "\tFMOVQ NC_L7(KTAB), F1; \\")
	p(t, "\tFMOVQ NC_L5(KTAB), F2; \\")
	p(t, "\tVFMLA V1.D2, V3.D2, V2.D2; \\")
	p(t, "\tFMOVQ NC_L3(KTAB), F1; \\")
	p(t, "\tVFMLA V2.D2, V3.D2, V1.D2; \\")
	p(t, "\tFMOVQ NC_L1(KTAB), F2; \\")
	p(t, "\tVFMLA V1.D2, V3.D2, V2.D2; \\")
	word(t, "FMUL V1.2D, V2.2D, V7.2D", "; t1", true, true)
	p(t, "\tFMOVQ NC_L6(KTAB), F7; \\")
	p(t, "\tFMOVQ NC_L4(KTAB), F2; \\")
	p(t, "\tVFMLA V7.D2, V3.D2, V2.D2; \\")
	p(t, "\tFMOVQ NC_L2(KTAB), F7; \\")
	p(t, "\tVFMLA V2.D2, V3.D2, V7.D2; \\")
	word(t, "FMUL V2.2D, V7.2D, V3.2D", "; t2", true, true)
	word(t, "FADD V1.2D, V1.2D, V2.2D", "; R = t1 + t2", true, true)
	word(t, "FMUL V2.2D, V5.2D, V5.2D", "", true, true)
	p(t, "\tFMOVQ NC_HALF(KTAB), F3; \\")
	word(t, "FMUL V2.2D, V2.2D, V3.2D", "; hfsq = ½f²", true, true)
	word(t, "FADD V1.2D, V1.2D, V2.2D", "", true, true)
	word(t, "FMUL V1.2D, V1.2D, V6.2D", "", true, true)
	p(t, "\tFMOVQ NC_LN2LO(KTAB), F3; \\")
	word(t, "FMUL V3.2D, V4.2D, V3.2D", "", true, true)
	word(t, "FADD V1.2D, V1.2D, V3.2D", "; s(hfsq+R) + k·ln2lo", true, true)
	word(t, "FSUB V2.2D, V2.2D, V1.2D", "", true, true)
	word(t, "FSUB V2.2D, V2.2D, V5.2D", "", true, true)
	p(t, "\tFMOVQ NC_LN2HI(KTAB), F3; \\")
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", true, true)
	word(t, "FSUB V4.2D, V4.2D, V2.2D", "; k·ln2hi − ((hfsq − …) − f)", true, true)
	word(t, "FCMEQ V1.2D, V0.2D, #0", "", true, true)
	p(t, "\tFMOVQ NC_NEGINF(KTAB), F2; \\")
	p(t, "\tVBIT V1.B16, V2.B16, V4.B16; \\")
	p(t, "\tFMOVQ NC_INF(KTAB), F2; \\")
	word(t, "FCMEQ V1.2D, V0.2D, V2.2D", "", true, true)
	p(t, "\tVBIT V1.B16, V2.B16, V4.B16; \\")
	word(t, "FCMGE V1.2D, V0.2D, #0", "; false for NaN", true, true)
	p(t, "\tFMOVQ NC_NAN(KTAB), F2; \\")
	p(t, "\tVBIF V1.B16, V2.B16, V4.B16; \\")
	p(t, "\tVMOV V4.B16, V0.B16")
	p(t, "")
	p(t, "// GL_LOG1P sets V0 = ln(1+V0) for V0 ≥ 0 (or NaN): with w = 1+x rounded,")
	p(t, "// ln(1+x) = ln w + (x − (w−1))/w, where x − (w−1) is the exact rounding")
	p(t, "// error of w (Goldberg), so tiny x keep full relative accuracy. Not for")
	p(t, "// x = +Inf (NaN). Leaves x in V8 and w in V9; clobbers V1–V9.")
	p(t, "#define GL_LOG1P \\")
	p(t, "\tVMOV V0.B16, V8.B16; \\")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1; \\")
	word(t, "FADD V9.2D, V0.2D, V1.2D", "; w = x + 1", true, true)
	p(t, "\tVMOV V9.B16, V0.B16; \\")
	p(t, "\tGL_LOG; \\")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1; \\")
	word(t, "FSUB V1.2D, V9.2D, V1.2D", "", true, true)
	word(t, "FSUB V1.2D, V8.2D, V1.2D", "; x − (w−1)", true, true)
	word(t, "FDIV V1.2D, V1.2D, V9.2D", "", true, true)
	word(t, "FADD V0.2D, V0.2D, V1.2D", "", true, false)
	p(t, "")
	p(t, "// GL_EXP_POLY sets V6 = P1 + t·(P2 + t·(P3 + t·(P4 + t·P5))) for t in V5,")
	p(t, "// fdlibm's exp polynomial (Go's math.expmulti), with fused multiply-adds")
	p(t, "// as math.Exp's arm64 assembly and the AVX2 kernel evaluate it. Clobbers")
	p(t, "// V7.")
	p(t, "#define GL_EXP_POLY \\")
	p(t, "\tFMOVQ NC_P5(KTAB), F6; \\")
	p(t, "\tFMOVQ NC_P4(KTAB), F7; \\")
	p(t, "\tVFMLA V6.D2, V5.D2, V7.D2; \\")
	p(t, "\tFMOVQ NC_P3(KTAB), F6; \\")
	p(t, "\tVFMLA V7.D2, V5.D2, V6.D2; \\")
	p(t, "\tFMOVQ NC_P2(KTAB), F7; \\")
	p(t, "\tVFMLA V6.D2, V5.D2, V7.D2; \\")
	p(t, "\tFMOVQ NC_P1(KTAB), F6; \\")
	p(t, "\tVFMLA V7.D2, V5.D2, V6.D2")
	p(t, "")
	p(t, "// GL_EXP_Y sets V5 = 1 − ((lo − r·c/(2−c)) − hi), fdlibm's exp(r) for hi")
	p(t, "// in V2, lo in V3, r = hi − lo in V4 and c in V6. Clobbers V3 and V7.")
	p(t, "#define GL_EXP_Y \\")
	word(t, "FMUL V7.2D, V4.2D, V6.2D", "", true, true)
	p(t, "\tFMOVQ NC_TWO(KTAB), F5; \\")
	word(t, "FSUB V5.2D, V5.2D, V6.2D", "", true, true)
	word(t, "FDIV V7.2D, V7.2D, V5.2D", "; r·c/(2−c)", true, true)
	word(t, "FSUB V3.2D, V3.2D, V7.2D", "", true, true)
	word(t, "FSUB V3.2D, V3.2D, V2.2D", "", true, true)
	p(t, "\tFMOVQ NC_ONE(KTAB), F5; \\")
	word(t, "FSUB V5.2D, V5.2D, V3.2D", "; y = 1 − ((lo − r·c/(2−c)) − hi)", true, false)
	p(t, "")
	p(t, "// GL_EXP_NEG sets V0 = exp(V0) for V0 ≤ 0 (or NaN), as fdlibm's exp (Go's")
	p(t, "// math.expmulti): k = round(x/ln 2), r = x − k·ln 2 in two parts, a rational")
	p(t, "// approximation of exp(r), and the scaling by 2^k done as 2^⌊k/2⌋·2^(k−⌊k/2⌋)")
	p(t, "// so that subnormal results round once. x < −746 (−Inf included) gives 0.")
	p(t, "// Clobbers V1–V7.")
	p(t, "#define GL_EXP_NEG \\")
	p(t, "\tFMOVQ NC_EXPMIN(KTAB), F1; \\")
	word(t, "FMAX V0.2D, V0.2D, V1.2D", "; NaN stays NaN", true, true)
	p(t, "\tFMOVQ NC_LOG2E(KTAB), F1; \\")
	word(t, "FMUL V1.2D, V0.2D, V1.2D", "", true, true)
	word(t, "FRINTN V1.2D, V1.2D", "; k", true, true)
	p(t, "\tFMOVQ NC_LN2HI(KTAB), F2; \\")
	word(t, "FMUL V2.2D, V1.2D, V2.2D", "", true, true)
	word(t, "FSUB V2.2D, V0.2D, V2.2D", "; hi = x − k·ln2hi", true, true)
	p(t, "\tFMOVQ NC_LN2LO(KTAB), F3; \\")
	word(t, "FMUL V3.2D, V1.2D, V3.2D", "; lo = k·ln2lo", true, true)
	word(t, "FSUB V4.2D, V2.2D, V3.2D", "; r = hi − lo", true, true)
	word(t, "FMUL V5.2D, V4.2D, V4.2D", "; t = r²", true, true)
	p(t, "\tGL_EXP_POLY; \\")
	word(t, "FMUL V6.2D, V6.2D, V5.2D", "", true, true)
	word(t, "FSUB V6.2D, V4.2D, V6.2D", "; c = r − t·P(t)", true, true)
	p(t, "\tGL_EXP_Y; \\")
	p(t, "\tFMOVQ NC_HALF(KTAB), F2; \\")
	word(t, "FMUL V2.2D, V1.2D, V2.2D", "", true, true)
	word(t, "FRINTM V2.2D, V2.2D", "; k1 = ⌊k/2⌋", true, true)
	word(t, "FSUB V3.2D, V1.2D, V2.2D", "; k2 = k − k1", true, true)
	p(t, "\tFMOVQ NC_EXPBIAS(KTAB), F6; \\")
	word(t, "FADD V2.2D, V2.2D, V6.2D", "", true, true)
	p(t, "\tVSHL $52, V2.D2, V2.D2; \\")
	word(t, "FADD V3.2D, V3.2D, V6.2D", "", true, true)
	p(t, "\tVSHL $52, V3.D2, V3.D2; \\")
	word(t, "FMUL V5.2D, V5.2D, V2.2D", "", true, true)
	word(t, "FMUL V0.2D, V5.2D, V3.2D", "; y·2^k1·2^k2", true, false)
	p(t, "")
	p(t, "// GL_SOFTPLUS_EXP and GL_SOFTPLUS_LOG set V0 = softplus(z) for z in V28,")
	p(t, "// as special.go's softplus: z + ln(1+e) for z > 0 and ln(1+e) otherwise,")
	p(t, "// with e = exp(−|z|) ≤ 1, which cannot overflow. GL_SOFTPLUS_EXP leaves e")
	p(t, "// in V0 (GL_SOFTPLUS builds the sigmoid from it), GL_SOFTPLUS_LOG takes it")
	p(t, "// there; each clobbers V1–V9 and keeps V28. softplus(+Inf) = +Inf,")
	p(t, "// softplus(−Inf) = 0 and softplus(NaN) = NaN.")
	p(t, "#define GL_SOFTPLUS_EXP \\")
	p(t, "\tFMOVQ NC_SIGN(KTAB), F1; \\")
	p(t, "\tVORR V1.B16, V28.B16, V0.B16; \\")
	p(t, "\tGL_EXP_NEG")
	p(t, "")
	p(t, "#define GL_SOFTPLUS_LOG \\")
	p(t, "\tGL_LOG1P; \\")
	word(t, "FADD V1.2D, V28.2D, V0.2D", "; z + ln(1+e)", true, true)
	word(t, "FCMGT V2.2D, V28.2D, #0", "", true, true)
	p(t, "\tVBIT V2.B16, V1.B16, V0.B16")
	p(t, "")
	p(t, "// GL_SOFTPLUS sets V0 = softplus(z) and V29 = sigmoid(z) for z in V28, as")
	p(t, "// softplus and sigmoid of special.go: sigmoid is 1/(1+e) for z ≥ 0 and")
	p(t, "// e/(1+e) below, with e = exp(−|z|). Clobbers V1–V9.")
	p(t, "#define GL_SOFTPLUS \\")
	p(t, "\tGL_SOFTPLUS_EXP; \\")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1; \\")
	word(t, "FADD V2.2D, V0.2D, V1.2D", "; 1 + e", true, true)
	word(t, "FDIV V3.2D, V0.2D, V2.2D", "; e/(1+e)", true, true)
	word(t, "FDIV V29.2D, V1.2D, V2.2D", "; 1/(1+e)", true, true)
	word(t, "FCMGE V4.2D, V28.2D, #0", "", true, true)
	p(t, "\tVBIF V4.B16, V3.B16, V29.B16; \\")
	p(t, "\tGL_SOFTPLUS_LOG")
	p(t, "")
}

func k_gcpLossF64(t *typ) {
	p(t, "// func gcpLossF64(n int, zm, za, zb, zn, y, gm, ga, gb, gn *float64, fixedAlpha, scale float64, tmp *float64) float64")
	p(t, "TEXT ·gcpLossF64(SB), NOSPLIT|NOFRAME, $0-112") // tmp (+96) is not used: no scratch memory
	p(t, "\tMOVD n+0(FP), PAIRS")
	p(t, "\tLSR $1, PAIRS")
	p(t, "\tMOVD zm+8(FP), ZM")
	p(t, "\tMOVD za+16(FP), ZA")
	p(t, "\tMOVD zb+24(FP), ZB")
	p(t, "\tMOVD zn+32(FP), ZN")
	p(t, "\tMOVD y+40(FP), YP")
	p(t, "\tMOVD gm+48(FP), GM")
	p(t, "\tMOVD ga+56(FP), GA")
	p(t, "\tMOVD gb+64(FP), GB")
	p(t, "\tMOVD gn+72(FP), GN")
	p(t, "\tMOVD fixedAlpha+80(FP), FIXED // +0: α is learned (the Go wrapper maps −0 to +0)")
	p(t, "\tFMOVD fixedAlpha+80(FP), F12")
	p(t, "\tVDUP V12.D[0], V12.D2")
	p(t, "\tFMOVD scale+88(FP), F11")
	p(t, "\tVDUP V11.D[0], V11.D2")
	p(t, "\tVEOR V10.B16, V10.B16, V10.B16 // sum = 0")
	p(t, "\tMOVD $neonConst<>(SB), KTAB")
	p(t, "\tCBZ PAIRS, gcpLossF64_done")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "gcpLossF64_loop:")
	p(t, "\t// β = softplus(zb), σ(zb)")
	p(t, "\tVLD1.P 16(ZB), [V28.D2]")
	p(t, "\tGL_SOFTPLUS")
	p(t, "\tVMOV V0.B16, V13.B16")
	p(t, "\tVMOV V29.B16, V14.B16")
	p(t, "\t// ν = softplus(zn), σ(zn)")
	p(t, "\tVLD1.P 16(ZN), [V28.D2]")
	p(t, "\tGL_SOFTPLUS")
	p(t, "\tVMOV V0.B16, V15.B16")
	p(t, "\tVMOV V29.B16, V16.B16")
	p(t, "\tVMOV V12.B16, V17.B16 // α = fixedAlpha")
	p(t, "\tCBNZ FIXED, gcpLossF64_fixed")
	p(t, "\t// α = 1 + softplus(za), σ(za)")
	p(t, "\tVLD1.P 16(ZA), [V28.D2]")
	p(t, "\tGL_SOFTPLUS")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	word(t, "FADD V17.2D, V0.2D, V1.2D", "; α = softplus(za) + 1", false, false)
	p(t, "\tVMOV V29.B16, V18.B16")
	p(t, "")
	p(t, "gcpLossF64_fixed:")
	p(t, "\t// valid = ν > 0 && α > 0 && β > 0 (false for NaN)")
	word(t, "FCMGT V19.2D, V15.2D, #0", "", false, false)
	word(t, "FCMGT V1.2D, V17.2D, #0", "", false, false)
	word(t, "FCMGT V2.2D, V13.2D, #0", "", false, false)
	p(t, "\tVAND V1.B16, V19.B16, V19.B16")
	p(t, "\tVAND V2.B16, V19.B16, V19.B16")
	p(t, "\t// σ = β(1 + 1/ν); s = √(2σ)")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	word(t, "FDIV V2.2D, V1.2D, V15.2D", "", false, false)
	word(t, "FADD V2.2D, V2.2D, V1.2D", "", false, false)
	word(t, "FMUL V20.2D, V13.2D, V2.2D", "; σ", false, false)
	word(t, "FADD V3.2D, V20.2D, V20.2D", "", false, false)
	word(t, "FSQRT V3.2D, V3.2D", "; s", false, false)
	p(t, "\t// t = (y−m)/s, 0 when y = m, y/s − m/s when (y−m)/s is NaN")
	p(t, "\tVLD1.P 16(YP), [V4.D2]")
	p(t, "\tVLD1.P 16(ZM), [V5.D2]")
	word(t, "FSUB V6.2D, V4.2D, V5.2D", "; r = y − m", false, false)
	word(t, "FDIV V28.2D, V6.2D, V3.2D", "; r/s", false, false)
	word(t, "FDIV V7.2D, V4.2D, V3.2D", "", false, false)
	word(t, "FDIV V8.2D, V5.2D, V3.2D", "", false, false)
	word(t, "FSUB V7.2D, V7.2D, V8.2D", "; y/s − m/s", false, false)
	word(t, "FCMEQ V8.2D, V28.2D, V28.2D", "; r/s is not NaN", false, false)
	p(t, "\tVBIF V8.B16, V7.B16, V28.B16")
	word(t, "FCMEQ V8.2D, V6.2D, #0", "; r = 0", false, false)
	p(t, "\tVEOR V7.B16, V7.B16, V7.B16")
	p(t, "\tVBIT V8.B16, V7.B16, V28.B16 // t")
	word(t, "FMUL V29.2D, V28.2D, V28.2D", "; u = t²", false, false)
	p(t, "\t// w = 1/(1+u); u ≤ 1: v = u·w, tw = t·w; else v = 1/(1+1/u), tw = 1/(t+1/t)")
	word(t, "FADD V2.2D, V29.2D, V1.2D", "", false, false)
	word(t, "FDIV V21.2D, V1.2D, V2.2D", "; w", false, false)
	word(t, "FMUL V3.2D, V29.2D, V21.2D", "; u·w", false, false)
	word(t, "FMUL V4.2D, V28.2D, V21.2D", "; t·w", false, false)
	word(t, "FDIV V22.2D, V1.2D, V29.2D", "", false, false)
	word(t, "FADD V22.2D, V22.2D, V1.2D", "", false, false)
	word(t, "FDIV V22.2D, V1.2D, V22.2D", "; 1/(1+1/u)", false, false)
	word(t, "FDIV V23.2D, V1.2D, V28.2D", "", false, false)
	word(t, "FADD V23.2D, V23.2D, V28.2D", "", false, false)
	word(t, "FDIV V23.2D, V1.2D, V23.2D", "; 1/(t+1/t)", false, false)
	word(t, "FCMGE V5.2D, V1.2D, V29.2D", "; u ≤ 1", false, false)
	p(t, "\tVBIT V5.B16, V3.B16, V22.B16 // v")
	p(t, "\tVBIT V5.B16, V4.B16, V23.B16 // tw")
	p(t, "\t// ln(1+u), or 2·ln|t| where u overflowed")
	p(t, "\tVMOV V29.B16, V0.B16")
	p(t, "\tGL_LOG1P")
	p(t, "\tVMOV V0.B16, V24.B16")
	p(t, "\tFMOVQ NC_INF(KTAB), F1")
	word(t, "FCMEQ V2.2D, V29.2D, V1.2D", "; u = +Inf", false, false)
	p(t, "\tGL_NONE(V2, gcpLossF64_finiteu)")
	word(t, "FABS V0.2D, V28.2D", "", false, false)
	p(t, "\tGL_LOG")
	word(t, "FADD V0.2D, V0.2D, V0.2D", "", false, false)
	p(t, "\tFMOVQ NC_INF(KTAB), F1")
	word(t, "FCMEQ V2.2D, V29.2D, V1.2D", "", false, false)
	p(t, "\tVBIT V2.B16, V0.B16, V24.B16")
	p(t, "")
	p(t, "gcpLossF64_finiteu:")
	p(t, "\t// ln σ = ln β + ln(1 + 1/ν) for ν ≥ 1, ln β + ln(1+ν) − ln ν below")
	p(t, "\tVMOV V13.B16, V0.B16")
	p(t, "\tGL_LOG")
	p(t, "\tVMOV V0.B16, V25.B16 // ln β")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	word(t, "FDIV V2.2D, V1.2D, V15.2D", "; 1/ν", false, false)
	word(t, "FCMGE V30.2D, V15.2D, V1.2D", "; ν ≥ 1", false, false)
	p(t, "\tVMOV V15.B16, V0.B16")
	p(t, "\tVBIT V30.B16, V2.B16, V0.B16")
	p(t, "\tGL_LOG1P")
	word(t, "FADD V25.2D, V25.2D, V0.2D", "", false, false)
	p(t, "\tVMOV V15.B16, V0.B16")
	p(t, "\tGL_LOG")
	p(t, "\tVEOR V1.B16, V1.B16, V1.B16")
	p(t, "\tVBIT V30.B16, V1.B16, V0.B16 // ν ≥ 1: 0")
	word(t, "FSUB V25.2D, V25.2D, V0.2D", "; ln σ", false, false)
	p(t, "\t// lnΓ(α+½) − lnΓ(α): z = α ≥ 10 gives the series alone; below, z = α+1 is")
	p(t, "\t// stepped up to 10 with num/den = Π (α+k+½)/(α+k), as in lgammaHalfStep:")
	p(t, "\t// series(z) − ln(num/den) + ln α. At most nine steps for α > 0.")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	p(t, "\tFMOVQ NC_TEN(KTAB), F3")
	p(t, "\tFMOVQ NC_HALF(KTAB), F5")
	word(t, "FADD V28.2D, V17.2D, V1.2D", "; α + 1", false, false)
	word(t, "FCMGE V4.2D, V17.2D, V3.2D", "; α ≥ 10", false, false)
	p(t, "\tVBIT V4.B16, V17.B16, V28.B16 // z")
	word(t, "FADD V29.2D, V17.2D, V5.2D", "; num = α + ½", false, false)
	p(t, "\tVMOV V1.B16, V30.B16 // den = 1")
	p(t, "\tMOVD $9, CNT")
	p(t, "")
	p(t, "gcpLossF64_lgstep:")
	word(t, "FCMGT V6.2D, V3.2D, V28.2D", "; z < 10", false, false)
	p(t, "\tGL_NONE(V6, gcpLossF64_lgdone)")
	word(t, "FADD V7.2D, V28.2D, V5.2D", "", false, false)
	word(t, "FMUL V7.2D, V29.2D, V7.2D", "", false, false)
	p(t, "\tVBIT V6.B16, V7.B16, V29.B16 // num *= z + ½")
	word(t, "FMUL V7.2D, V30.2D, V28.2D", "", false, false)
	p(t, "\tVBIT V6.B16, V7.B16, V30.B16 // den *= z")
	p(t, "\tVAND V6.B16, V1.B16, V7.B16")
	word(t, "FADD V28.2D, V28.2D, V7.2D", "; z++", false, false)
	p(t, "\tSUBS $1, CNT")
	p(t, "\tBNE gcpLossF64_lgstep")
	p(t, "")
	p(t, "gcpLossF64_lgdone:")
	p(t, "\tVMOV V28.B16, V0.B16")
	p(t, "\tGL_LOG")
	p(t, "\tFMOVQ NC_HALF(KTAB), F1")
	word(t, "FMUL V26.2D, V0.2D, V1.2D", "; ½ ln z", false, false)
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	word(t, "FDIV V2.2D, V1.2D, V28.2D", "; r = 1/z", false, false)
	word(t, "FMUL V3.2D, V2.2D, V2.2D", "; r²", false, false)
	p(t, "\tFMOVQ NC_LG7(KTAB), F4")
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG6(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG5(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG4(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG3(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG2(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG1(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V3.2D", "", false, false)
	p(t, "\tFMOVQ NC_LG0(KTAB), F5")
	word(t, "FADD V4.2D, V4.2D, V5.2D", "", false, false)
	word(t, "FMUL V4.2D, V4.2D, V2.2D", "", false, false)
	word(t, "FADD V26.2D, V26.2D, V4.2D", "; series(z)", false, false)
	word(t, "FDIV V0.2D, V29.2D, V30.2D", "; num/den", false, false)
	p(t, "\tGL_LOG")
	word(t, "FSUB V31.2D, V26.2D, V0.2D", "; − ln(num/den)", false, false)
	p(t, "\tVMOV V17.B16, V0.B16")
	p(t, "\tGL_LOG")
	word(t, "FADD V31.2D, V31.2D, V0.2D", "; + ln α", false, false)
	p(t, "\tFMOVQ NC_TEN(KTAB), F1")
	word(t, "FCMGE V2.2D, V17.2D, V1.2D", "; α ≥ 10", false, false)
	p(t, "\tVBIF V2.B16, V31.B16, V26.B16")
	p(t, "\t// ψ(α+½) − ψ(α): z = α stepped up to 10 with num/den = Σ 1/(z(2z+1)),")
	p(t, "\t// then 1/(2z) + u·P(u) + num/den, u = 1/z², as digammaHalfStep. At most")
	p(t, "\t// ten steps for α > 0.")
	p(t, "\tVMOV V17.B16, V28.B16 // z")
	p(t, "\tVEOR V29.B16, V29.B16, V29.B16 // num = 0")
	p(t, "\tFMOVQ NC_ONE(KTAB), F1")
	p(t, "\tVMOV V1.B16, V30.B16 // den = 1")
	p(t, "\tFMOVQ NC_TEN(KTAB), F3")
	p(t, "\tMOVD $10, CNT")
	p(t, "")
	p(t, "gcpLossF64_psistep:")
	word(t, "FCMGT V6.2D, V3.2D, V28.2D", "; z < 10", false, false)
	p(t, "\tGL_NONE(V6, gcpLossF64_psidone)")
	word(t, "FADD V7.2D, V28.2D, V28.2D", "", false, false)
	word(t, "FADD V7.2D, V7.2D, V1.2D", "", false, false)
	word(t, "FMUL V7.2D, V28.2D, V7.2D", "; d = z(2z+1)", false, false)
	word(t, "FMUL V8.2D, V29.2D, V7.2D", "", false, false)
	word(t, "FADD V8.2D, V8.2D, V30.2D", "", false, false)
	p(t, "\tVBIT V6.B16, V8.B16, V29.B16 // num = num·d + den")
	word(t, "FMUL V8.2D, V30.2D, V7.2D", "", false, false)
	p(t, "\tVBIT V6.B16, V8.B16, V30.B16 // den *= d")
	p(t, "\tVAND V6.B16, V1.B16, V7.B16")
	word(t, "FADD V28.2D, V28.2D, V7.2D", "; z++", false, false)
	p(t, "\tSUBS $1, CNT")
	p(t, "\tBNE gcpLossF64_psistep")
	p(t, "")
	p(t, "gcpLossF64_psidone:")
	word(t, "FMUL V2.2D, V28.2D, V28.2D", "", false, false)
	word(t, "FDIV V2.2D, V1.2D, V2.2D", "; u = 1/z²", false, false)
	p(t, "\tFMOVQ NC_DG9(KTAB), F3")
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG8(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG7(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG6(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG5(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG4(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG3(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG2(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG1(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "", false, false)
	p(t, "\tFMOVQ NC_DG0(KTAB), F4")
	word(t, "FADD V3.2D, V3.2D, V4.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V2.2D", "; u·P(u)", false, false)
	p(t, "\tFMOVQ NC_HALF(KTAB), F4")
	word(t, "FDIV V4.2D, V4.2D, V28.2D", "; ½/z", false, false)
	word(t, "FADD V4.2D, V4.2D, V3.2D", "", false, false)
	word(t, "FDIV V5.2D, V29.2D, V30.2D", "; num/den", false, false)
	word(t, "FADD V27.2D, V4.2D, V5.2D", "", false, false)
	p(t, "\t// nll = −[lnΓ ratio − ½(ln 2π + ln σ) − (α+½)·ln(1+u)]")
	p(t, "\tFMOVQ NC_HALF(KTAB), F1")
	word(t, "FADD V2.2D, V17.2D, V1.2D", "; α + ½", false, false)
	p(t, "\tFMOVQ NC_LOG2PI(KTAB), F3")
	word(t, "FADD V3.2D, V25.2D, V3.2D", "", false, false)
	word(t, "FMUL V3.2D, V3.2D, V1.2D", "", false, false)
	word(t, "FSUB V4.2D, V26.2D, V3.2D", "", false, false)
	word(t, "FMUL V5.2D, V2.2D, V24.2D", "", false, false)
	word(t, "FSUB V4.2D, V4.2D, V5.2D", "; ln p", false, false)
	word(t, "FNEG V4.2D, V4.2D", "; nll = −ln p", false, false)
	p(t, "\t// dα = ln(1+u) − [ψ(α+½) − ψ(α)]")
	word(t, "FSUB V6.2D, V24.2D, V27.2D", "", false, false)
	p(t, "\t// dm = −(α+½)·(tw·(√2/√σ))")
	word(t, "FSQRT V7.2D, V20.2D", "", false, false)
	p(t, "\tFMOVQ NC_SQRT2(KTAB), F8")
	word(t, "FDIV V8.2D, V8.2D, V7.2D", "", false, false)
	word(t, "FMUL V8.2D, V8.2D, V23.2D", "", false, false)
	word(t, "FNEG V9.2D, V2.2D", "", false, false)
	word(t, "FMUL V9.2D, V9.2D, V8.2D", "; dm", false, false)
	p(t, "\t// g = ½w − α·v; dβ = g/β; dν = −g/(ν(ν+1))")
	word(t, "FMUL V1.2D, V21.2D, V1.2D", "; ½w", false, false)
	word(t, "FMUL V3.2D, V17.2D, V22.2D", "; α·v", false, false)
	word(t, "FSUB V1.2D, V1.2D, V3.2D", "; g", false, false)
	word(t, "FDIV V3.2D, V1.2D, V13.2D", "; dβ", false, false)
	p(t, "\tFMOVQ NC_ONE(KTAB), F5")
	word(t, "FADD V5.2D, V15.2D, V5.2D", "", false, false)
	word(t, "FMUL V5.2D, V15.2D, V5.2D", "; ν(ν+1)", false, false)
	word(t, "FNEG V1.2D, V1.2D", "", false, false)
	word(t, "FDIV V1.2D, V1.2D, V5.2D", "; dν", false, false)
	p(t, "\t// chain through the links, scale, and NaN for an invalid prior")
	p(t, "\tFMOVQ NC_NAN(KTAB), F7")
	word(t, "FMUL V1.2D, V1.2D, V16.2D", "", false, false)
	word(t, "FMUL V1.2D, V11.2D, V1.2D", "", false, false)
	p(t, "\tVBIF V19.B16, V7.B16, V1.B16")
	p(t, "\tVST1.P [V1.D2], 16(GN) // gn = scale·dν·σ(zn)")
	word(t, "FMUL V3.2D, V3.2D, V14.2D", "", false, false)
	word(t, "FMUL V3.2D, V11.2D, V3.2D", "", false, false)
	p(t, "\tVBIF V19.B16, V7.B16, V3.B16")
	p(t, "\tVST1.P [V3.D2], 16(GB) // gb = scale·dβ·σ(zb)")
	word(t, "FMUL V9.2D, V11.2D, V9.2D", "", false, false)
	p(t, "\tVBIF V19.B16, V7.B16, V9.B16")
	p(t, "\tVST1.P [V9.D2], 16(GM) // gm = scale·dm")
	p(t, "\tVBIF V19.B16, V7.B16, V4.B16")
	word(t, "FADD V10.2D, V4.2D, V10.2D", "; sum += nll", false, false)
	p(t, "\tCBNZ FIXED, gcpLossF64_next")
	word(t, "FMUL V6.2D, V6.2D, V18.2D", "", false, false)
	word(t, "FMUL V6.2D, V11.2D, V6.2D", "", false, false)
	p(t, "\tVBIF V19.B16, V7.B16, V6.B16")
	p(t, "\tVST1.P [V6.D2], 16(GA) // ga = scale·dα·σ(za)")
	p(t, "")
	p(t, "gcpLossF64_next:")
	p(t, "\tSUBS $1, PAIRS")
	p(t, "\tBNE gcpLossF64_loop")
	p(t, "")
	p(t, "gcpLossF64_done:")
	word(t, "FADDP D0, V10.2D", "", false, false)
	p(t, "\tFMOVD F0, ret+104(FP)")
	p(t, "\tRET")
}

func misc4(t *typ) {
	p(t, "")
	p(t, "#undef ZM")
	p(t, "#undef ZA")
	p(t, "#undef ZB")
	p(t, "#undef ZN")
	p(t, "#undef YP")
	p(t, "#undef GM")
	p(t, "#undef GA")
	p(t, "#undef GB")
	p(t, "#undef GN")
	p(t, "#undef PAIRS")
	p(t, "#undef FIXED")
	p(t, "#undef CNT")
	p(t, "#undef ANY")
	p(t, "#undef ANY1")
	p(t, "")
	p(t, "// ---------------------------------------------------------------------")
	p(t, "// tanhF32 and tanhF64: math.Tanh as Go compiles it for arm64, bit for bit,")
	p(t, "// in the two float64 lanes of a vector (float32 widened exactly and the")
	p(t, "// result rounded once, as the generic float32(math.Tanh(float64(v)))).")
	p(t, "// math.tanh branches on z = |x|: ±1 above ½·ln 2¹²⁷ ≈ 44.01; from 0.625")
	p(t, "// up, 1 − 2/(e^(2z)+1) with the sign of x, where e^(2z) is math.Exp's")
	p(t, "// arm64 assembly (archExp: k = trunc(2z·log2e + ½), r = hi − lo, the")
	p(t, "// polynomial fused as there, and an exact scaling by 2^k, as 2z ≤ 88 keeps")
	p(t, "// the result normal); below, x + x·s·P(s)/Q(s) with s = x², fused as the")
	p(t, "// compiler fuses it (Q's innermost term is fma(x, x, Q0), not s + Q0), and")
	p(t, "// x itself for ±0. GT_TANH evaluates all three and blends them; the")
	p(t, "// generic kernel's results are the oracle (TestKernelElementwise), so a Go")
	p(t, "// release that compiled math.tanh or archExp otherwise would show there.")
	p(t, "")
	p(t, "// GT_TANH sets V0 = tanh(V0), lane by lane; KTAB holds &neonConst<>.")
	p(t, "// Clobbers V1–V9 and V12–V14.")
	p(t, "#define GT_TANH \\")
	word(t, "FABS V8.2D, V0.2D", "; z = |x|", true, true)
	word(t, "FADD V9.2D, V8.2D, V8.2D", "; w = 2z", true, true)
	p(t, "\tFMOVQ NC_HALF(KTAB), F1; \\")
	p(t, "\tFMOVQ NC_LOG2E(KTAB), F2; \\")
	p(t, "\tVFMLA V2.D2, V9.D2, V1.D2; \\")
	word(t, "FRINTZ V1.2D, V1.2D", "; k = trunc(w·log2e + ½)", true, true)
	p(t, "\tFMOVQ NC_LN2HI(KTAB), F3; \\")
	p(t, "\tVMOV V9.B16, V2.B16; \\")
	p(t, "\tVFMLS V3.D2, V1.D2, V2.D2; \\")
	p(t, "\tFMOVQ NC_LN2LO(KTAB), F3; \\")
	word(t, "FMUL V3.2D, V1.2D, V3.2D", "; lo = k·ln2lo", true, true)
	word(t, "FSUB V4.2D, V2.2D, V3.2D", "; r = hi − lo", true, true)
	word(t, "FMUL V5.2D, V4.2D, V4.2D", "; t = r²", true, true)
	p(t, "\tGL_EXP_POLY; \\")
	p(t, "\tVMOV V4.B16, V7.B16; \\")
	p(t, "\tVFMLS V6.D2, V5.D2, V7.D2; \\")
	p(t, "\tVMOV V7.B16, V6.B16; \\")
	p(t, "\tGL_EXP_Y; \\")
	p(t, "\tFMOVQ NC_EXPBIAS(KTAB), F2; \\")
	word(t, "FADD V1.2D, V1.2D, V2.2D", "", true, true)
	p(t, "\tVSHL $52, V1.D2, V1.D2; \\")
	word(t, "FMUL V5.2D, V5.2D, V1.2D", "; e^w = y·2^k", true, true)
	p(t, "\tFMOVQ NC_ONE(KTAB), F14; \\")
	word(t, "FADD V13.2D, V5.2D, V14.2D", "", true, true)
	p(t, "\tFMOVQ NC_TWO(KTAB), F12; \\")
	word(t, "FDIV V13.2D, V12.2D, V13.2D", "", true, true)
	word(t, "FSUB V13.2D, V14.2D, V13.2D", "; 1 − 2/(e^w+1)", true, true)
	p(t, "\tFMOVQ NC_SIGN(KTAB), F12; \\")
	p(t, "\tVAND V12.B16, V0.B16, V12.B16; \\")
	p(t, "\tVORR V12.B16, V13.B16, V13.B16; \\")
	p(t, "\tVORR V12.B16, V14.B16, V14.B16; \\")
	word(t, "FMUL V2.2D, V0.2D, V0.2D", "; s = x²", true, true)
	word(t, "FMUL V3.2D, V0.2D, V2.2D", "; x·s", true, true)
	p(t, "\tFMOVQ NC_TP0(KTAB), F4; \\")
	p(t, "\tFMOVQ NC_TP1(KTAB), F5; \\")
	p(t, "\tVFMLA V4.D2, V2.D2, V5.D2; \\")
	p(t, "\tFMOVQ NC_TP2(KTAB), F4; \\")
	p(t, "\tVFMLA V5.D2, V2.D2, V4.D2; \\")
	word(t, "FMUL V3.2D, V3.2D, V4.2D", "; x·s·P(s)", true, true)
	p(t, "\tFMOVQ NC_TQ0(KTAB), F5; \\")
	p(t, "\tVFMLA V0.D2, V0.D2, V5.D2; \\")
	p(t, "\tFMOVQ NC_TQ1(KTAB), F4; \\")
	p(t, "\tVFMLA V5.D2, V2.D2, V4.D2; \\")
	p(t, "\tFMOVQ NC_TQ2(KTAB), F5; \\")
	p(t, "\tVFMLA V4.D2, V2.D2, V5.D2; \\")
	word(t, "FDIV V3.2D, V3.2D, V5.2D", "", true, true)
	word(t, "FADD V3.2D, V0.2D, V3.2D", "; x + x·s·P(s)/Q(s)", true, true)
	word(t, "FCMEQ V4.2D, V0.2D, #0", "", true, true)
	p(t, "\tVBIT V4.B16, V0.B16, V3.B16; \\")
	p(t, "\tFMOVQ NC_C0625(KTAB), F5; \\")
	word(t, "FCMGE V4.2D, V8.2D, V5.2D", "; z ≥ 0.625", true, true)
	p(t, "\tVBIT V4.B16, V13.B16, V3.B16; \\")
	p(t, "\tFMOVQ NC_TANHMAX(KTAB), F5; \\")
	word(t, "FCMGT V4.2D, V8.2D, V5.2D", "; z > ½·ln 2¹²⁷", true, true)
	p(t, "\tVBIT V4.B16, V14.B16, V3.B16; \\")
	p(t, "\tVMOV V3.B16, V0.B16")
	p(t, "")
}

func k_tanh(t *typ) {
	p(t, "// func tanh⟨F⟩(n int, x *⟨T⟩)")
	p(t, "//")
	p(t, "// for i := range n {")
	if t.size == 4 {
		p(t, "//\tx[i] = float32(math.Tanh(float64(x[i])))")
	} else {
		p(t, "//\tx[i] = math.Tanh(x[i])")
	}
	p(t, "// }")
	p(t, "//")
	if t.size == 4 {
		p(t, "// Blocks of 4, widened to two float64×2 vectors, then one at a time in")
		p(t, "// lane 0 (lane 1 computes tanh(0)).")
	} else {
		p(t, "// Pairs, then the last element in lane 0 (lane 1 computes tanh(0)).")
	}
	p(t, "TEXT ·tanh⟨F⟩(SB), NOSPLIT|NOFRAME, $0-16")
	p(t, "\tMOVD n+0(FP), R7")
	p(t, "\tMOVD x+8(FP), R0")
	p(t, "\tMOVD $neonConst<>(SB), KTAB")
	if t.size == 4 {
		p(t, "\tLSR $2, R7, R8 // blocks of 4")
	} else {
		p(t, "\tLSR $1, R7, R8 // pairs")
	}
	p(t, "\tCBZ R8, tanh⟨F⟩_tail")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "tanh⟨F⟩_loop:")
	if t.size == 4 {
		p(t, "\tVLD1 (R0), [V16.S4]")
		word(t, "FCVTL V0.2D, V16.2S", "", false, false)
	} else {
		p(t, "\tVLD1 (R0), [V0.D2]")
	}
	p(t, "\tGT_TANH")
	if t.size == 4 {
		p(t, "\tVMOV V0.B16, V17.B16")
		word(t, "FCVTL2 V0.2D, V16.4S", "", false, false)
		p(t, "\tGT_TANH")
		word(t, "FCVTN V16.2S, V17.2D", "", false, false)
		word(t, "FCVTN2 V16.4S, V0.2D", "", false, false)
		p(t, "\tVST1.P [V16.S4], 16(R0)")
	} else {
		p(t, "\tVST1.P [V0.D2], 16(R0)")
	}
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE tanh⟨F⟩_loop")
	p(t, "")
	p(t, "tanh⟨F⟩_tail:")
	if t.size == 4 {
		p(t, "\tAND $3, R7, R8")
		p(t, "\tCBZ R8, tanhF32_done")
		p(t, "")
		p(t, "tanhF32_tail_loop:")
		p(t, "\tFMOVS (R0), F16")
		p(t, "\tFCVTSD F16, F0 // clears lane 1")
	} else {
		p(t, "\tTBZ $0, R7, tanhF64_done")
		p(t, "\tFMOVD (R0), F0 // clears lane 1")
	}
	p(t, "\tGT_TANH")
	if t.size == 4 {
		p(t, "\tFCVTDS F0, F0")
		p(t, "\tFMOVS.P F0, 4(R0)")
		p(t, "\tSUBS $1, R8")
		p(t, "\tBNE tanhF32_tail_loop")
	} else {
		p(t, "\tFMOVD F0, (R0)")
	}
	p(t, "")
	p(t, "tanh⟨F⟩_done:")
	p(t, "\tRET")
	if t.size == 4 {
		p(t, "")
	}
}

func misc5(t *typ) {
	p(t, "")
	p(t, "// ---------------------------------------------------------------------")
	p(t, "// softplusF32 and softplusF64: the softplus link, written as float64, in")
	p(t, "// the two float64 lanes of a vector, with gcpLossF64's exp and ln")
	p(t, "// (GL_SOFTPLUS_EXP, GL_SOFTPLUS_LOG); float32 inputs are widened exactly,")
	p(t, "// so both compute softplus(float64(x[i])) to within a few float64 ulps.")
	p(t, "")
	p(t, "// SP_LINK sets V0 = softplus(V28), lane by lane; KTAB holds &neonConst<>.")
	p(t, "// Clobbers V1–V9.")
	p(t, "#define SP_LINK \\")
	p(t, "\tGL_SOFTPLUS_EXP; \\")
	p(t, "\tGL_SOFTPLUS_LOG")
	p(t, "")
}

func k_softplus(t *typ) {
	if t.size == 4 {
		p(t, "// func softplusF32(n int, dst *float64, x *float32)")
	} else {
		p(t, "// func softplusF64(n int, dst, x *float64)")
	}
	p(t, "//")
	p(t, "// for i := range n {")
	if t.size == 4 {
		p(t, "//\tdst[i] = softplus(float64(x[i]))")
	} else {
		p(t, "//\tdst[i] = softplus(x[i])")
	}
	p(t, "// }")
	p(t, "//")
	if t.size == 4 {
		p(t, "// Blocks of 4, widened to two float64×2 vectors, then one at a time in")
		p(t, "// lane 0 (lane 1 computes softplus(0)).")
	} else {
		p(t, "// Pairs, then the last element in lane 0 (lane 1 computes softplus(0)).")
	}
	p(t, "TEXT ·softplus⟨F⟩(SB), NOSPLIT|NOFRAME, $0-24")
	p(t, "\tMOVD n+0(FP), R7")
	p(t, "\tMOVD dst+8(FP), R0")
	p(t, "\tMOVD x+16(FP), R1")
	p(t, "\tMOVD $neonConst<>(SB), KTAB")
	if t.size == 4 {
		p(t, "\tLSR $2, R7, R8 // blocks of 4")
	} else {
		p(t, "\tLSR $1, R7, R8 // pairs")
	}
	p(t, "\tCBZ R8, softplus⟨F⟩_tail")
	p(t, "\tPCALIGN $16")
	p(t, "")
	p(t, "softplus⟨F⟩_loop:")
	if t.size == 4 {
		p(t, "\tVLD1.P 16(R1), [V16.S4]")
		word(t, "FCVTL V28.2D, V16.2S", "", false, false)
	} else {
		p(t, "\tVLD1.P 16(R1), [V28.D2]")
	}
	p(t, "\tSP_LINK")
	if t.size == 4 {
		p(t, "\tVMOV V0.B16, V17.B16")
		word(t, "FCVTL2 V28.2D, V16.4S", "", false, false)
		p(t, "\tSP_LINK")
		p(t, "\tVMOV V0.B16, V18.B16")
		p(t, "\tVST1.P [V17.D2, V18.D2], 32(R0) // dst[i:i+4] = softplus(x[i:i+4])")
	} else {
		p(t, "\tVST1.P [V0.D2], 16(R0) // dst[i:i+2] = softplus(x[i:i+2])")
	}
	p(t, "\tSUBS $1, R8")
	p(t, "\tBNE softplus⟨F⟩_loop")
	p(t, "")
	p(t, "softplus⟨F⟩_tail:")
	if t.size == 4 {
		p(t, "\tAND $3, R7, R8")
		p(t, "\tCBZ R8, softplusF32_done")
		p(t, "")
		p(t, "softplusF32_tail_loop:")
		p(t, "\tFMOVS.P 4(R1), F16")
		p(t, "\tFCVTSD F16, F28 // clears lane 1")
	} else {
		p(t, "\tTBZ $0, R7, softplusF64_done")
		p(t, "\tFMOVD (R1), F28 // clears lane 1")
	}
	p(t, "\tSP_LINK")
	if t.size == 4 {
		p(t, "\tFMOVD.P F0, 8(R0)")
		p(t, "\tSUBS $1, R8")
		p(t, "\tBNE softplusF32_tail_loop")
	} else {
		p(t, "\tFMOVD F0, (R0)")
	}
	p(t, "")
	p(t, "softplus⟨F⟩_done:")
	p(t, "\tRET")
	if t.size == 4 {
		p(t, "")
	}
}
