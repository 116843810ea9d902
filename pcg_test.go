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

// TestDropoutMaskRule checks dropoutMaskGeneric against drawMask's rule,
// written out with math/rand/v2's PCG: each draw decides two units by its
// halves, low half first, a unit dropped (0) when its half is below p·2³²
// and kept (1/(1−p)) otherwise, a mask of odd length using the low half of
// its last draw; and consecutive masks continue the stream.
func TestDropoutMaskRule(t *testing.T) {
	t.Run("float32", func(t *testing.T) { ktDropoutRule[float32](t) })
	t.Run("float64", func(t *testing.T) { ktDropoutRule[float64](t) })
}

func ktDropoutRule[T Float](t *testing.T) {
	for _, p := range []float64{0.1, 0.5, 0.9, 1e-9, 0.999999} {
		ref := rand.NewPCG(7, dropoutStream)
		src := newPCG(7, dropoutStream)
		keep := T(1 / (1 - p))
		cut := uint64(p * (1 << 32))
		dropped, total := 0, 0
		for _, n := range []int{1, 2, 3, 64, 1001, 4000} {
			mask := make([]T, n)
			dropoutMaskGeneric(&src, p, mask)
			for i := 0; i < n; i += 2 {
				bits := ref.Uint64()
				for h := 0; h < 2 && i+h < n; h++ {
					want := keep
					if half := bits >> (32 * h) & (1<<32 - 1); half < cut {
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
		// The share dropped, against p: a binomial's 6 standard deviations.
		if sd := math.Sqrt(p * (1 - p) / float64(total)); math.Abs(float64(dropped)/float64(total)-p) > 6*sd+1e-9 {
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
