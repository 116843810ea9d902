//go:build gc && !purego

package gcp

// NEON is part of the arm64 baseline, so the assembly kernels of
// simd_arm64.s need no feature detection: init installs them in every
// build with gc and without the purego tag.
func init() {
	s32, s64 := baseSets()
	k32, k64 := asmKernels("neon", s32, s64)
	k32.tanh = inPlaceNEON(tanhF32)
	k64.tanh = inPlaceNEON(tanhF64)
	installKernels(k32, k64)
}
