package gcp

import "math/bits"

// pcg is math/rand/v2's PCG source, the PCG-DXSM generator (a 128-bit
// linear congruential state, 64-bit outputs by the "double xorshift
// multiply" permutation), as a value: newPCG(seed1, seed2) draws the
// numbers that rand.NewPCG(seed1, seed2) does, bit for bit
// (TestPCGMatchesRand). It draws ML_Bayes's MC-dropout masks, as it
// did when the saved models were written (a Trainer's masks come from
// splitMix). Through a rand.Rand, whose Source interface keeps the state
// in memory and hides it from the compiler, the draws of a large batch
// took half of a 5000-row step; a pcg copied into a local variable keeps
// the state in registers, and a copy saves or restores it.
type pcg struct{ hi, lo uint64 }

func newPCG(seed1, seed2 uint64) pcg { return pcg{seed1, seed2} }

// Uint64 advances the state and returns its next output, as
// rand.(*PCG).Uint64.
func (p *pcg) Uint64() uint64 {
	var x uint64
	*p, x = p.next()
	return x
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
