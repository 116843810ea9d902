package gcp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPCGMatchesRand checks pcg against math/rand/v2's PCG, the source
// the dropout masks were drawn from before: the same numbers for the
// package's seeds and streams, edge seeds, and random ones, over enough
// draws to wrap the low word's carries many times.
func TestPCGMatchesRand(t *testing.T) {
	seeds := [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), ^uint64(0)}, {0, dropoutStream}, {42, mcDropoutStream}}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		seeds = append(seeds, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, s := range seeds {
		want := rand.NewPCG(s[0], s[1])
		got := newPCG(s[0], s[1])
		for i := 0; i < 10000; i++ {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("seed %v, draw %d: %#x, math/rand/v2 %#x", s, i, g, w)
			}
		}
	}
}

// TestDropoutMaskRule checks the dropout masks against their rule,
// written out with the numbers of their generator drawn one by one: each
// draw decides 64/width units by its width-bit parts, lowest first, a unit
// dropped (0) when its part is below p·2^width and kept (1/(1−p))
// otherwise, a mask whose length is not a multiple of 64/width using the
// low parts of its last draw; and consecutive masks continue the stream.
// Training's masks (dropoutMaskGeneric) take 16 bits a unit of splitMix's
// draws, ML_Bayes's MC masks (dropoutMask32) 32 of math/rand/v2's PCG.
func TestDropoutMaskRule(t *testing.T) {
	t.Run("width16/float64", func(t *testing.T) { ktDropoutRule(t, 16, splitMixRule(dropoutMaskGeneric[float64])) })
	t.Run("width16/float32", func(t *testing.T) { ktDropoutRule(t, 16, splitMixRule(dropoutMaskGeneric[float32])) })
	t.Run("width32/float64", func(t *testing.T) { ktDropoutRule(t, 32, pcgRule(dropoutMask32[float64])) })
	t.Run("width32/float32", func(t *testing.T) { ktDropoutRule(t, 32, pcgRule(dropoutMask32[float32])) })
}

// A dropoutRule returns, for a fresh generator of seed 7 and the dropout
// stream, the mask kernel drawing from it and the generator's numbers
// one by one from a copy.
type dropoutRule[T Float] func() (draw func(p float64, mask []T), ref func() uint64)

func splitMixRule[T Float](kernel func(*splitMix, float64, []T)) dropoutRule[T] {
	return func() (func(float64, []T), func() uint64) {
		src := newSplitMix(7, dropoutStream)
		ref := src
		return func(p float64, mask []T) { kernel(&src, p, mask) }, func() uint64 {
			var x uint64
			ref, x = ref.next()
			return x
		}
	}
}

func pcgRule[T Float](kernel func(*pcg, float64, []T)) dropoutRule[T] {
	return func() (func(float64, []T), func() uint64) {
		src := newPCG(7, dropoutStream)
		return func(p float64, mask []T) { kernel(&src, p, mask) }, rand.NewPCG(7, dropoutStream).Uint64
	}
}

func ktDropoutRule[T Float](t *testing.T, width uint, rule dropoutRule[T]) {
	per := int(64 / width)
	for _, p := range []float64{0.1, 0.5, 0.9, 1e-9, 0.999999} {
		draw, ref := rule()
		keep := T(1 / (1 - p))
		cut := uint64(p * float64(uint64(1)<<width))
		dropped, total := 0, 0
		for _, n := range []int{1, 2, 3, 5, 64, 1001, 4000} {
			mask := make([]T, n)
			draw(p, mask)
			for i := 0; i < n; i += per {
				bits := ref()
				for h := 0; h < per && i+h < n; h++ {
					want := keep
					if part := bits >> (width * uint(h)) & (1<<width - 1); part < cut {
						want = 0
						dropped++
					}
					total++
					if mask[i+h] != want || math.Signbit(float64(mask[i+h])) {
						t.Fatalf("p=%v n=%d unit %d: %v, want %v", p, n, i+h, mask[i+h], want)
					}
				}
			}
		}
		// The share dropped, against p: a binomial's 6 standard
		// deviations, and the 2^−width to which the cut honours p.
		if sd := math.Sqrt(p * (1 - p) / float64(total)); math.Abs(float64(dropped)/float64(total)-p) > 6*sd+1/float64(uint64(1)<<width) {
			t.Errorf("p=%v: dropped %d of %d", p, dropped, total)
		}
	}
}
