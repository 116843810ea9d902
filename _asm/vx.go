package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// vx is the vector width of the special-function code of gcpLossF64 and
// the softplus kernels (glLog, glExpNeg, sp32Link and the others), which
// is written once for both: four float64 lanes in YMM for AVX2, or eight
// in ZMM for AVX-512. Its registers are numbered as the AVX2 code's were:
// r(i) holds float64 lanes, h(i) as many float32 (XMM or YMM).
//
// A comparison's result, mask m, is a vector of all-ones lanes in YMM m
// with AVX2, and an opmask register with AVX-512 (opmask), on which the
// blends, the masked constants and the tests act instead.
//
// in32, for gcpLoss alone, says that the samples' operands in memory are
// float32 (gcpLossF32, gcpLossF32AVX512): load widens them to float64,
// exactly, and store rounds the gradients to float32 (to nearest, as Go's
// conversion), so that the kernel computes what gcpLossF64 computes on
// the converted samples, with no buffers of converted copies.
type vx struct{ z, in32 bool }

var (
	ymm = vx{z: false}
	zmm = vx{z: true}
)

// elemBytes is the size of an operand's element in memory.
func (x vx) elemBytes() int {
	if x.in32 {
		return 4
	}
	return 8
}

// vec is the vector width in bytes.
func (x vx) vec() int {
	if x.z {
		return 64
	}
	return 32
}

// r returns vector register i of float64 lanes: YMM or ZMM.
func (x vx) r(i int) VecPhysical {
	if x.z {
		return f64.wide().v(i)
	}
	return y(i)
}

// h returns vector register i of as many float32 lanes: XMM or YMM.
func (x vx) h(i int) VecPhysical {
	if x.z {
		return y(i)
	}
	return X(i)
}

// X returns XMM register i.
func X(i int) VecPhysical { return x(i) }

// opmask maps the AVX2 code's mask registers to opmask registers so that
// no two masks alive at once share one: glLog's 1, 6 and 2, the links'
// 15, gcpLoss's 5, 12, 13 and 1, sp32Link's 7, 14 and 2. K6 and K7 are
// gcpLoss's lanes in use and valid priors (gcLive, gcValid).
var opmask = map[int]Op{1: K1, 2: K2, 3: K3, 4: K4, 5: K5, 6: K3, 7: K4, 12: K1, 13: K2, 14: K3, 15: K3}

// The opmask registers gcpLossF64AVX512 keeps through each group of
// samples: the lanes that hold samples, and those whose prior is valid,
// which is mask maskValid.
var gcLive, gcValid = K6, K7

const maskValid = 16

func init() { opmask[maskValid] = gcValid }

// load loads the float64 lanes at m; with AVX-512 only those of gcLive,
// zeros in the others, which it does not read.
func (x vx) load(m Mem, dst Op) {
	switch {
	case x.in32 && x.z:
		VCVTPS2PD_Z(m, gcLive, dst)
	case x.in32:
		VCVTPS2PD(m, dst)
	case x.z:
		VMOVUPD_Z(m, gcLive, dst)
	default:
		VMOVUPD(m, dst)
	}
}

// store stores the float64 lanes of r(i) at m; with AVX-512 only those
// of gcLive. With in32 it rounds them to float32 in h(i) first, which
// clobbers r(i).
func (x vx) store(i int, m Mem) {
	switch {
	case x.in32 && x.z:
		VCVTPD2PS(x.r(i), x.h(i)) // r(i) is not read again
		VMOVUPS(x.h(i), gcLive, m)
	case x.in32:
		VCVTPD2PSY(x.r(i), x.h(i))
		VMOVUPS(x.h(i), m)
	case x.z:
		VMOVUPD(x.r(i), gcLive, m)
	default:
		VMOVUPD(x.r(i), m)
	}
}

// m returns mask m: YMM m, or its opmask register.
func (x vx) m(m int) Op {
	if x.z {
		k, ok := opmask[m]
		if !ok {
			panic("no opmask register for mask " + itoa(m))
		}
		return k
	}
	return y(m)
}

// hm returns mask m of float32 lanes: XMM m, or its opmask register.
func (x vx) hm(m int) Op {
	if x.z {
		return x.m(m)
	}
	return X(m)
}

// cmp sets mask m to the comparison pred of float64 lanes, as VCMPPD.
func (x vx) cmp(pred, b, a Op, m int) { VCMPPD(pred, b, a, x.m(m)) }

// cmps is cmp for float32 lanes.
func (x vx) cmps(pred, b, a Op, m int) { VCMPPS(pred, b, a, x.hm(m)) }

// blend sets dst = mask m ? t : f, lane by lane, as VBLENDVPD(m, t, f, dst).
func (x vx) blend(m int, t, f, dst Op) {
	if x.z {
		VBLENDMPD(t, f, x.m(m), dst)
	} else {
		VBLENDVPD(y(m), t, f, dst)
	}
}

// blends is blend for float32 lanes.
func (x vx) blends(m int, t, f, dst Op) {
	if x.z {
		VBLENDMPS(t, f, x.hm(m), dst)
	} else {
		VBLENDVPS(X(m), t, f, dst)
	}
}

// and sets dst = mask m ? c : 0, as VANDPD(c, m, dst).
func (x vx) and(c Op, m int, dst Op) {
	if x.z {
		VMOVUPD_Z(c, x.m(m), dst)
	} else {
		VANDPD(c, y(m), dst)
	}
}

// ands is and for float32 lanes.
func (x vx) ands(c Op, m int, dst Op) {
	if x.z {
		VMOVUPS_Z(c, x.hm(m), dst)
	} else {
		VANDPS(c, X(m), dst)
	}
}

// none sets ZF when mask m selects no lane, as VTESTPD(m, m).
func (x vx) none(m int) {
	if x.z {
		KORTESTB(x.m(m), x.m(m))
	} else {
		VTESTPD(y(m), y(m))
	}
}

// round rounds float64 lanes as VROUNDPD(imm, …): 0 to nearest, 1 down.
func (x vx) round(imm, a, dst Op) {
	if x.z {
		VRNDSCALEPD(imm, a, dst)
	} else {
		VROUNDPD(imm, a, dst)
	}
}

// rounds is round for float32 lanes.
func (x vx) rounds(imm, a, dst Op) {
	if x.z {
		VRNDSCALEPS(imm, a, dst)
	} else {
		VROUNDPS(imm, a, dst)
	}
}

// or is the bitwise OR of integer lanes, VPOR.
func (x vx) or(a, b, dst Op) {
	if x.z {
		VPORQ(a, b, dst)
	} else {
		VPOR(a, b, dst)
	}
}

// hsum adds the float64 lanes of register 0 into X0's first.
func (x vx) hsum() {
	d := f64
	d.vec = x.vec()
	hsum(d)
}
