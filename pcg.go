package gcp

import "math/bits"

// pcg is math/rand/v2's PCG source, the PCG-DXSM generator (a 128-bit
// linear congruential state, 64-bit outputs by the "double xorshift
// multiply" permutation), as a value: newPCG(seed1, seed2) draws the
// numbers that rand.NewPCG(seed1, seed2) does, bit for bit
// (TestPCGMatchesRand). The dropout masks of a large batch take half a
// million draws a step, which through a rand.Rand, whose Source interface
// keeps the state in memory and hides it from the compiler, took half of
// a 5000-row step; a pcg copied into a local variable keeps the state in
// registers, and a copy saves or restores it.
type pcg struct{ hi, lo uint64 }

func newPCG(seed1, seed2 uint64) pcg { return pcg{seed1, seed2} }

// Uint64 advances the state and returns its next output, as
// rand.(*PCG).Uint64.
func (p *pcg) Uint64() uint64 {
	var x uint64
	*p, x = p.next()
	return x
}

// The multiplier and increment of pcg's linear congruential step,
// state = state·mul + inc modulo 2¹²⁸, as (hi, lo) pairs.
var (
	pcgMul = pcg{2549297995355413924, 4865540595714422341}
	pcgInc = pcg{6364136223846793005, 1442695040888963407}
)

// mul128 returns a·b modulo 2¹²⁸; add128 returns a + b modulo 2¹²⁸.
func mul128(a, b pcg) pcg {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return pcg{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func add128(a, b pcg) pcg {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return pcg{hi, lo}
}

// pcgJump returns (A, C) such that n steps of pcg take a state s to
// A·s + C modulo 2¹²⁸: the composition of n steps (mul, inc).
func pcgJump(n int) (a, c pcg) {
	a, c = pcg{0, 1}, pcg{}
	for range n {
		a, c = mul128(pcgMul, a), add128(mul128(pcgMul, c), pcgInc)
	}
	return a, c
}

// next returns the state after p and its output: a loop that writes
// g, x = g.next() keeps g in registers, where a pointer method's
// receiver would live in memory.
func (p pcg) next() (pcg, uint64) {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	// state = state·mul + inc, modulo 2¹²⁸ (mul128 and add128 written
	// out, with the constants inline)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	next := pcg{hi, lo}
	// DXSM
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return next, hi * (lo | 1)
}
