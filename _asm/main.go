// Command _asm generates simd_amd64.s, the AVX2+FMA kernels of package
// gcp, with avo:
//
//	cd _asm && go run . -out ../simd_amd64.s
//
// Each kernel is a Go function here that takes the element type (elem) and
// emits the float32 or the float64 kernel; the stubs, with their reference
// loops, stay hand-written in the package, and avo checks every TEXT
// against its stub (Implement). CI regenerates the file and fails if it
// differs from the committed one.
package main

import (
	"os"

	. "github.com/mmcloughlin/avo/build"
)

func main() {
	// avo reads the stubs of the amd64 build, whatever the host.
	os.Setenv("GOARCH", "amd64")
	Package("github.com/gcpnet/gcp")
	ConstraintExpr("gc,!purego")
	for _, t := range elems2 {
		gemmBcast(t)
		gemmBcast1(t)
		gemmDot(t)
		outputBackward(t)
	}
	for _, t := range elems {
		outputForward(t)
	}
	elementwise()
	declareConsts()
	gcpLoss(ymm)
	gcpLoss(zmm)
	gcpLoss(vx{z: false, in32: true})
	gcpLoss(vx{z: true, in32: true})
	for _, t := range elems2 {
		softplus(t)
	}
	for _, t := range elems2 {
		standardize(t)
	}
	for _, t := range elems {
		dropoutMask(t.wide())
	}
	Generate()
}

// kernel starts the TEXT of the stub named name: a leaf, NOSPLIT, with the
// signature avo reads from the stub.
func kernel(name string) labels {
	Implement(name)
	Attributes(NOSPLIT)
	return labels(name)
}
