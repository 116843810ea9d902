//go:build gc && !purego && race

package gcp

import (
	"runtime"
	"unsafe"
)

// raceEnabled reports a race-detector build. The detector cannot see the
// memory the assembly touches, so the wrappers in simd_amd64.go report it
// (klauspost/reedsolomon does the same).
const raceEnabled = true

func raceReadRange(p unsafe.Pointer, n int)  { runtime.RaceReadRange(p, n) }
func raceWriteRange(p unsafe.Pointer, n int) { runtime.RaceWriteRange(p, n) }
