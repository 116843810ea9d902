//go:build (amd64 || arm64) && gc && !purego && !race

package gcp

import "unsafe"

// raceEnabled reports a race-detector build; see simd_race.go.
const raceEnabled = false

func raceReadRange(p unsafe.Pointer, n int)  {}
func raceWriteRange(p unsafe.Pointer, n int) {}
