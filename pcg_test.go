package gcp

import (
	"fmt"
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
// written out with math/rand/v2's PCG: each draw decides 64/width units by
// its width-bit parts, lowest first, a unit dropped (0) when its part is
// below p·2^width and kept (1/(1−p)) otherwise, a mask whose length is not
// a multiple of 64/width using the low parts of its last draw; and
// consecutive masks continue the stream. Training's masks
// (dropoutMaskGeneric) take 16 bits a unit, ML_Bayes's MC masks
// (dropoutMask32) 32.
func TestDropoutMaskRule(t *testing.T) {
	for _, width := range []uint{16, 32} {
		draw, draw32 := dropoutMaskGeneric[float64], dropoutMaskGeneric[float32]
		if width == 32 {
			draw, draw32 = dropoutMask32[float64], dropoutMask32[float32]
		}
		t.Run(fmt.Sprintf("width%d/float64", width), func(t *testing.T) { ktDropoutRule(t, width, draw) })
		t.Run(fmt.Sprintf("width%d/float32", width), func(t *testing.T) { ktDropoutRule(t, width, draw32) })
	}
}

func ktDropoutRule[T Float](t *testing.T, width uint, draw func(*pcg, float64, []T)) {
	per := int(64 / width)
	for _, p := range []float64{0.1, 0.5, 0.9, 1e-9, 0.999999} {
		ref := rand.NewPCG(7, dropoutStream)
		src := newPCG(7, dropoutStream)
		keep := T(1 / (1 - p))
		cut := uint64(p * float64(uint64(1)<<width))
		dropped, total := 0, 0
		for _, n := range []int{1, 2, 3, 5, 64, 1001, 4000} {
			mask := make([]T, n)
			draw(&src, p, mask)
			for i := 0; i < n; i += per {
				bits := ref.Uint64()
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

// TestPCGJump checks pcgJump against the steps it composes: A·s + C is
// the state n steps after s, for random states and several n.
func TestPCGJump(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 8, 13} {
		a, c := pcgJump(n)
		for i := 0; i < 100; i++ {
			s := pcg{r.Uint64(), r.Uint64()}
			want := s
			for range n {
				want, _ = want.next()
			}
			if got := add128(mul128(a, s), c); got != want {
				t.Fatalf("n=%d, state %v: jump gives %v, %d steps %v", n, s, got, n, want)
			}
		}
	}
}
