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

// gcpChunk is how many float32 samples gcpLoss32 converts to float64 at a
// time, a multiple of gcpLanes.
const gcpChunk = 64

// gcpLoss64 is gcpLossGeneric for float64: the assembly (each
// architecture's gcpLossLanes) does whole groups of gcpLanes samples, the
// generic kernel the last len(y)%gcpLanes.
func gcpLoss64(zm, za, zb, zn, y []float64, fixedAlpha, scale float64, gm, ga, gb, gn []float64) float64 {
	n := len(y)
	zm, zb, zn, gm, gb, gn = zm[:n], zb[:n], zn[:n], gm[:n], gb[:n], gn[:n]
	learned := fixedAlpha == 0
	if learned {
		za, ga = za[:n], ga[:n]
		fixedAlpha = 0 // not −0: the assembly tests the bits
	}
	nv := n &^ (gcpLanes - 1)
	sum := 0.0
	if nv > 0 {
		if raceEnabled {
			raceRead(zm[:nv], zb[:nv], zn[:nv], y[:nv])
			raceWrite(gm[:nv], gb[:nv], gn[:nv])
			if learned {
				raceRead(za[:nv])
				raceWrite(ga[:nv])
			}
		}
		sum = gcpLossLanes(nv, ptr(zm), ptr(za), ptr(zb), ptr(zn), ptr(y), ptr(gm), ptr(ga), ptr(gb), ptr(gn), fixedAlpha, scale)
	}
	return sum + gcpLossTail(nv, zm, za, zb, zn, y, fixedAlpha, scale, gm, ga, gb, gn)
}

// gcpLoss32 is gcpLossGeneric for float32. The generic kernel computes in
// float64 and rounds the gradients to float32; so does this one, through
// gcpLossLanes on chunks converted to float64.
func gcpLoss32(zm, za, zb, zn, y []float32, fixedAlpha, scale float64, gm, ga, gb, gn []float32) float64 {
	n := len(y)
	zm, zb, zn, gm, gb, gn = zm[:n], zb[:n], zn[:n], gm[:n], gb[:n], gn[:n]
	learned := fixedAlpha == 0
	if learned {
		za, ga = za[:n], ga[:n]
		fixedAlpha = 0
	}
	nv := n &^ (gcpLanes - 1)
	sum := 0.0
	var in [5][gcpChunk]float64
	var out [4][gcpChunk]float64
	for s := 0; s < nv; s += gcpChunk {
		c := min(gcpChunk, nv-s)
		for i := 0; i < c; i++ {
			in[0][i], in[2][i], in[3][i], in[4][i] = float64(zm[s+i]), float64(zb[s+i]), float64(zn[s+i]), float64(y[s+i])
		}
		if learned {
			for i := 0; i < c; i++ {
				in[1][i] = float64(za[s+i])
			}
		}
		sum += gcpLossLanes(c, &in[0][0], &in[1][0], &in[2][0], &in[3][0], &in[4][0], &out[0][0], &out[1][0], &out[2][0], &out[3][0], fixedAlpha, scale)
		for i := 0; i < c; i++ {
			gm[s+i], gb[s+i], gn[s+i] = float32(out[0][i]), float32(out[2][i]), float32(out[3][i])
		}
		if learned {
			for i := 0; i < c; i++ {
				ga[s+i] = float32(out[1][i])
			}
		}
	}
	return sum + gcpLossTail(nv, zm, za, zb, zn, y, fixedAlpha, scale, gm, ga, gb, gn)
}

// gcpLossTail returns gcpLossGeneric over the samples from nv on, which the
// assembly leaves, and 0 when there are none.
func gcpLossTail[T Float](nv int, zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64 {
	if nv == len(y) {
		return 0
	}
	if fixedAlpha == 0 {
		za, ga = za[nv:], ga[nv:]
	}
	return gcpLossGeneric(zm[nv:], za, zb[nv:], zn[nv:], y[nv:], fixedAlpha, scale, gm[nv:], ga, gb[nv:], gn[nv:])
}
