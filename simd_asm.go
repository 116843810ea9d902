//go:build (amd64 || arm64) && gc && !purego

package gcp

import "unsafe"

// This file holds what the assembly wrappers of simd_amd64.go and
// simd_arm64.go share.

// ptr returns the address of s's first element without a bounds check; the
// assembly reads through it only where need (or a reslice) has checked.
func ptr[T Float](s []T) *T { return unsafe.SliceData(s) }

// raceMat reports to the race detector, in race builds, the assembly's
// reads (or writes) of rows rows of cols elements, ld apart, of s.
func raceMat[T Float](s []T, rows, ld, cols int, write bool) {
	if !raceEnabled || rows <= 0 || cols <= 0 {
		return
	}
	size := int(unsafe.Sizeof(s[0]))
	for i := 0; i < rows; i++ {
		if p := unsafe.Pointer(&s[i*ld]); write {
			raceWriteRange(p, cols*size)
		} else {
			raceReadRange(p, cols*size)
		}
	}
}

// raceRead and raceWrite report the assembly's accesses to whole vectors.
func raceRead[T Float](s ...[]T) {
	for _, v := range s {
		raceMat(v, 1, 0, len(v), false)
	}
}

func raceWrite[T Float](s ...[]T) {
	for _, v := range s {
		raceMat(v, 1, 0, len(v), true)
	}
}
