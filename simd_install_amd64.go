//go:build gc && !purego

package gcp

// init installs the assembly kernels the CPU supports: the AVX2 and FMA3
// tables where useAVX2FMA holds, and over them the AVX-512 ones where
// useAVX512 does. It sits above simd_asm.go, whose tables it fills, while
// simd_amd64.go sits below it.
func init() {
	if !useAVX2FMA {
		return
	}
	s32, s64 := baseSets()
	s32.outputBackward, s64.outputBackward = outputBackwardF32, outputBackwardF64
	k32, k64 := asmKernels("avx2fma", s32, s64)
	k32.standardize, k64.standardize = standardizeKernel[float32](false), standardizeKernel[float64](false)
	installKernels(k32, k64)
	if useAVX512 {
		installKernels(avx512Tables())
	}
}
