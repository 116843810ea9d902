package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dropoutMask emits dropoutMaskF32AVX512 or dropoutMaskF64AVX512: the
// dropout mask of dropoutMaskGeneric, 32 units (eight draws of the PCG)
// per group, with the generator's state in eight lanes. Lane j holds the
// state after draw 8g+j+1, as the 128-bit (hi, lo) in Z0 and Z1; its
// output (DXSM, as pcg.next) is one qword whose four words, low first,
// decide units 32g+4j … 32g+4j+3: kept (keep) where the word is at least
// cut, unsigned, and 0 where below, by an opmask of the 32 words; each
// vector of the mask is stored, and multiplied by the same units of act
// into drop (VMULPS, as mulTo), with the mask still in a register. Then each
// lane steps eight draws ahead at once, s = A·s + C modulo 2¹²⁸ with the
// jump constants (A, C) of eight steps: the low 64 bits of the products
// by VPMULLQ, and the high 64 bits of lo·A.lo from four 32-bit products.
// After the last group the lanes are stored back unadvanced, so that lane
// 7 holds the state after the last draw.
func dropoutMask(t elem) {
	var (
		n     = RCX // groups left
		mp    = RDI // &mask[32g]
		lanes = RSI
		ap    = R8 // &act[32g]
		dp    = R9 // &drop[32g]
	)
	l := kernel(t.name("dropoutMask"))
	hi, lo := Z0, Z1
	aLo, aHi, cLo, cHi, aLo1, low32, cheap, one, cut, keep := Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11
	Load(Param("groups"), n)
	Load(Param("mask"), mp)
	Load(Param("lanes"), lanes)
	Load(Param("act"), ap)
	Load(Param("drop"), dp)
	Load(Param("jump"), RAX)
	VMOVDQU64(at(lanes, 0, nil, 0), hi)
	VMOVDQU64(at(lanes, 64, nil, 0), lo)
	VPBROADCASTQ(at(RAX, 0, nil, 0), aLo)
	VPBROADCASTQ(at(RAX, 8, nil, 0), aHi)
	VPBROADCASTQ(at(RAX, 16, nil, 0), cLo)
	VPBROADCASTQ(at(RAX, 24, nil, 0), cHi)
	VPSRLQ(U8(32), aLo, aLo1) // A.lo's high dword, for VPMULUDQ
	MOVL(U32(0xffffffff), EAX)
	VPBROADCASTQ(RAX, low32)
	MOVQ(U64(0xda942042e4dd58b5), RAX)
	VPBROADCASTQ(RAX, cheap)
	MOVL(U32(1), EAX)
	VPBROADCASTQ(RAX, one)
	MOVQ(arg("cut"), RAX)
	VPBROADCASTW(EAX, cut)
	t.BROADCAST(arg("keep"), keep)

	l.Set("group")
	// The outputs: h ^= h>>32; h *= cheapMul; h ^= h>>48; h *= lo|1.
	VPSRLQ(U8(32), hi, Z12)
	VPXORQ(Z12, hi, Z12)
	VPMULLQ(cheap, Z12, Z12)
	VPSRLQ(U8(48), Z12, Z13)
	VPXORQ(Z13, Z12, Z12)
	VPORQ(one, lo, Z13)
	VPMULLQ(Z13, Z12, Z12)
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
		t.MOVU(Z13, at(mp, 64*v, nil, 0))
		t.MUL(at(ap, 64*v, nil, 0), Z13, Z13)
		t.MOVU(Z13, at(dp, 64*v, nil, 0))
	}
	ADDQ(U32(32*t.size), mp)
	ADDQ(U32(32*t.size), ap)
	ADDQ(U32(32*t.size), dp)
	DECQ(n)
	JZ(l.L("done"))

	// s = A·s + C: hi = mulhi(lo, A.lo) + lo·A.hi + hi·A.lo + C.hi + carry,
	// lo = lo·A.lo + C.lo.
	VPSRLQ(U8(32), lo, Z14)  // a1
	VPMULUDQ(aLo, lo, Z15)   // a0·b0
	VPMULUDQ(aLo1, lo, Z16)  // a0·b1
	VPMULUDQ(aLo, Z14, Z17)  // a1·b0
	VPMULUDQ(aLo1, Z14, Z18) // a1·b1
	VPSRLQ(U8(32), Z15, Z19) // mid = (a0·b0)>>32 + low dwords of a0·b1 and a1·b0
	VPANDQ(low32, Z16, Z20)
	VPADDQ(Z20, Z19, Z19)
	VPANDQ(low32, Z17, Z20)
	VPADDQ(Z20, Z19, Z19)
	VPSRLQ(U8(32), Z16, Z16) // mulhi = a1·b1 + their high dwords + mid>>32
	VPADDQ(Z16, Z18, Z18)
	VPSRLQ(U8(32), Z17, Z17)
	VPADDQ(Z17, Z18, Z18)
	VPSRLQ(U8(32), Z19, Z19)
	VPADDQ(Z19, Z18, Z18)
	VPMULLQ(aHi, lo, Z16)
	VPADDQ(Z16, Z18, Z18)
	VPMULLQ(aLo, hi, Z16)
	VPADDQ(Z16, Z18, Z18)
	VPMULLQ(aLo, lo, lo)
	VPADDQ(cLo, lo, lo)
	VPCMPUQ(U8(1), cLo, lo, K3) // the carry: lo < C.lo after the addition
	VPADDQ(cHi, Z18, hi)
	VPADDQ(one, hi, K3, hi)
	JMP(l.L("group"))

	l.Set("done")
	VMOVDQU64(hi, at(lanes, 0, nil, 0))
	VMOVDQU64(lo, at(lanes, 64, nil, 0))
	vzeroupper(Z16, Z17, Z18, Z19, Z20)
	RET()
}
