package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dropoutMask emits dropoutMaskF32AVX512 or dropoutMaskF64AVX512: the
// dropout mask of dropoutMaskGeneric, 32 units (eight draws of the
// splitMix) per group, with the generator's counters in eight lanes. Lane
// j of group g holds the counter of draw 8g+j+1, state + (8g+j+1)·γ; its
// output (the finalizer, as splitMixOut) is one qword whose four words,
// low first, decide units 32g+4j … 32g+4j+3: kept (keep) where the word is
// at least cut, unsigned, and 0 where below, by an opmask of the 32
// words; each vector of the mask is stored, and multiplied by the same
// units of act into drop (VMULPS, as mulTo), with the mask still in a
// register. Then each lane steps eight draws ahead, adding 8·γ. With a
// nil mask it stores drop alone.
func dropoutMask(t elem) {
	n, mp, ap, dp := dmRegs()
	ctr, step, mix1, mix2, cut, keep := dmVecs()
	l := kernel(t.name("dropoutMask"))
	Load(Param("groups"), n)
	Load(Param("mask"), mp)
	Load(Param("act"), ap)
	Load(Param("drop"), dp)
	// The counters: state + (j+1)·γ in lane j, built as state + γ in
	// every lane plus j·γ, the lane's index times γ.
	MOVQ(U64(splitMixGamma), RAX)
	VPBROADCASTQ(RAX, step)
	Load(Param("state"), RBX)
	ADDQ(RAX, RBX)
	VPBROADCASTQ(RBX, ctr)
	MOVL(U32(0xff), EAX)
	KMOVB(EAX, K1)
	for j := 1; j < 8; j++ { // lanes j..7 += γ, seven times
		KSHIFTLB(U8(1), K1, K1)
		VPADDQ(step, ctr, K1, ctr)
	}
	VPSLLQ(U8(3), step, step) // 8·γ
	MOVQ(U64(0xbf58476d1ce4e5b9), RAX)
	VPBROADCASTQ(RAX, mix1)
	MOVQ(U64(0x94d049bb133111eb), RAX)
	VPBROADCASTQ(RAX, mix2)
	MOVQ(arg("cut"), RAX)
	VPBROADCASTW(EAX, cut)
	t.BROADCAST(arg("keep"), keep)

	// The loop of groups, twice: storing the mask, and with a nil mask,
	// which stores drop alone.
	TESTQ(mp, mp)
	JZ(l.L("dropOnly"))
	dropoutGroups(t, l, "group", true)
	l.Set("dropOnly")
	dropoutGroups(t, l, "groupD", false)
}

// dropoutGroups emits dropoutMask's loop over the groups, labelled name,
// with the mask's stores if mask, and its return.
func dropoutGroups(t elem, l labels, name string, mask bool) {
	n, mp, ap, dp := dmRegs()
	ctr, step, mix1, mix2, cut, keep := dmVecs()
	l.Set(name)
	// The outputs: z ^= z>>30; z *= mix1; z ^= z>>27; z *= mix2; z ^= z>>31.
	VPSRLQ(U8(30), ctr, Z12)
	VPXORQ(ctr, Z12, Z12)
	VPMULLQ(mix1, Z12, Z12)
	VPSRLQ(U8(27), Z12, Z13)
	VPXORQ(Z13, Z12, Z12)
	VPMULLQ(mix2, Z12, Z12)
	VPSRLQ(U8(31), Z12, Z13)
	VPXORQ(Z13, Z12, Z12)
	VPADDQ(step, ctr, ctr)
	// Kept where the word is at least cut (unsigned): bit u of K1 is unit
	// 32g+u, each store takes the next vector of them.
	VPCMPUW(U8(5), cut, Z12, K1)
	per := t.lanes()
	for v := 0; v < 32/per; v++ {
		k := K1
		if v > 0 {
			KSHIFTRD(U8(v*per), K1, K2)
			k = K2
		}
		t.MOVU_Z(keep, k, Z13)
		if mask {
			t.MOVU(Z13, at(mp, 64*v, nil, 0))
		}
		t.MUL(at(ap, 64*v, nil, 0), Z13, Z13)
		t.MOVU(Z13, at(dp, 64*v, nil, 0))
	}
	if mask {
		ADDQ(U32(32*t.size), mp)
	}
	ADDQ(U32(32*t.size), ap)
	ADDQ(U32(32*t.size), dp)
	DECQ(n)
	JNZ(l.L(name))
	VZEROUPPER()
	RET()
}

// dmRegs returns dropoutMask's pointer registers: the groups left, and
// &mask[32g], &act[32g] and &drop[32g].
func dmRegs() (n, mp, ap, dp GPPhysical) { return RCX, RDI, R8, R9 }

// dmVecs returns dropoutMask's constant vector registers: the counters,
// their step 8·γ, the finalizer's multipliers, the cut (in every word)
// and keep.
func dmVecs() (ctr, step, mix1, mix2, cut, keep VecPhysical) { return Z0, Z1, Z2, Z3, Z10, Z11 }

// splitMixGamma is the package's splitMixGamma, SplitMix64's increment.
const splitMixGamma = 0x9e3779b97f4a7c15
