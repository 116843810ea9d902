package main

// header writes the top of the file after its "Code generated" line: the
// build constraint of the kernels' Go declarations (the //go:build line
// of simd_arm64.go), the file's doc comment and textflag.h.
func header(a *asm, build string) {
	a.Line(build)
	// NEON kernels for arm64; see simd_arm64.go and simd_asm.go (the
	// element-wise stubs, shared with amd64) for the Go stubs and the
	// reference loop of each kernel, and simd_generic.go for the semantics.
	//
	// The Go assembler's only vector floating-point arithmetic is VFMLA/VFMLS
	// (VADD and friends are the integer instructions), so the other
	// floating-point vector instructions are WORDs, which the generator
	// (_asm/neon, encode.go holds the encodings) computes from the
	// instruction in ARM syntax and writes with it as the comment.
	// TestNEONWords (simd_arm64_words_test.go) disassembles the package and
	// checks that every WORD decodes to its comment, independently of the
	// encoder. The comparisons set a lane to all ones where they hold and to
	// zero where they do not (NaN included), for the assembler's VBIT, VBIF
	// and VAND to blend with. Scalar instructions (FADDS, FMULD, FSQRTD,
	// FMADDS, FMAXD, ...) and the loads, stores, FMOVQ, VMOV, VDUP, VLD1R,
	// VEOR, VAND, VORR, VBIT, VBIF, VUSHR, VSHL, VFMLA and VFMLS are the
	// assembler's own. Inside a #define a WORD's comment is written /* ... */,
	// since a // comment would swallow the line continuation.
	//
	// Element-wise kernels use the separate FMUL/FADD/FSUB/FDIV/FSQRT of the
	// generic code, in its order and with its operand order, so that they
	// match it bit for bit; only axpy and the matrix kernels fuse, and tanh
	// exactly where math.Tanh, as compiled for arm64, does. gcpLossF64
	// fuses where the AVX2 kernel of simd_amd64.s does (the polynomials of
	// exp and ln), so the two write the same gradients, bit for bit (up to
	// NaN payloads); only their loss sums add the lanes in another order.
	a.Comment()
	a.Include("textflag.h")
}

// gemmFlags are the bits of the flags argument of the matrix kernels.
type gemmFlags struct{ bias, accum, relu bit }

// defineGemmFlags #defines the bits of the flags argument.
func defineGemmFlags(a *asm) gemmFlags {
	// Bits of the flags argument of the matrix kernels (gemmBias, gemmAccum,
	// gemmReLU in simd_arm64.go).
	d := a.Defines()
	return gemmFlags{bias: d.Bit("BIAS", 0), accum: d.Bit("ACCUM", 1), relu: d.Bit("RELU", 2)}
}
