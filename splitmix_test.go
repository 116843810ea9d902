package gcp

import "testing"

// TestSplitMixMatchesReference checks splitMix against the published
// outputs of the reference SplitMix64 (splitmix64.c): seeded with 1234567
// its first five draws, and seeded with 0 its first.
func TestSplitMixMatchesReference(t *testing.T) {
	g := splitMix{1234567}
	for i, want := range []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821} {
		var got uint64
		g, got = g.next()
		if got != want {
			t.Fatalf("draw %d: %d, want %d", i, got, want)
		}
	}
	if _, got := (splitMix{}).next(); got != 0xe220a8397b1dcdaf {
		t.Errorf("seed 0: %#x, want 0xe220a8397b1dcdaf", got)
	}
}

// TestNewSplitMixSeparatesStreams checks that seeds and streams a unit
// apart, and the package's streams for one seed, start at states more
// than a million draws apart in either direction, so that their masks
// share no draw in any realistic training run.
func TestNewSplitMixSeparatesStreams(t *testing.T) {
	// splitMixGamma⁻¹ modulo 2⁶⁴ by Newton's iteration, each step of
	// which doubles the correct low bits (three to start with, for an odd
	// number)
	var inv uint64 = splitMixGamma
	for range 5 {
		inv *= 2 - splitMixGamma*inv
	}
	if splitMixGamma*inv != 1 {
		t.Fatal("inv is not the inverse of the increment")
	}
	starts := []splitMix{newSplitMix(1, dropoutStream), newSplitMix(2, dropoutStream), newSplitMix(0, dropoutStream),
		newSplitMix(1, dropoutStream+1), newSplitMix(1, memberDropoutStream), newSplitMix(1, 0)}
	for i, a := range starts {
		for _, b := range starts[i+1:] {
			// the number of draws from a to b
			if d := (b.s - a.s) * inv; d < 1e6 || -d < 1e6 {
				t.Errorf("states %#x and %#x are %d draws apart", a.s, b.s, d)
			}
		}
	}
}
