//go:build (amd64 || arm64) && gc && !purego && race

package gcp

import (
	"runtime"
	"unsafe"
)

// raceEnabled reports a race-detector build. The detector cannot see the
// memory the assembly touches, so the wrappers of simd_amd64.go and
// simd_arm64.go report it through raceMat (klauspost/reedsolomon does the
// same).
const raceEnabled = true

func raceReadRange(p unsafe.Pointer, n int)  { runtime.RaceReadRange(p, n) }
func raceWriteRange(p unsafe.Pointer, n int) { runtime.RaceWriteRange(p, n) }
