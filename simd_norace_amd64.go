//go:build gc && !purego && !race

package gcp

import "unsafe"

// raceEnabled reports a race-detector build; see simd_race_amd64.go.
const raceEnabled = false

func raceReadRange(p unsafe.Pointer, n int)  {}
func raceWriteRange(p unsafe.Pointer, n int) {}
