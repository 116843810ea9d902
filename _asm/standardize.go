package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// standardize emits standardizeF32 or standardizeF64, the standardized
// input rows of a prediction or a training step and each row's InputZ,
// in float64 lanes: a YMM of four, or with AVX-512 a ZMM of eight, of a
// row's features at a time (a float32 x widened on the load, its u
// rounded, stored and widened again), with the subtraction, the product
// and the roundings of the generic loop, and no fused multiply-add, so
// that u is the generic one bit for bit. The last d mod lanes features
// of a row go as one masked vector, whose masked lanes (zeros of x, mean
// and inv) add 0 to the maximum. The maximum of the bits of |u| is an
// integer one: VPMAXUQ with AVX-512; AVX2 has none for 64-bit lanes, so
// it compares them as signed (the bits of |u| are below 2⁶³) and blends.
// The rows' maxima collect in X1 for the result.
func standardize(t elem) {
	var (
		j    = RAX // feature j
		dv   = RBX // d rounded down to whole vectors
		rows = RCX // rows left
		d    = RDX
		up   = RSI // &u[i*d]
		xp   = RDI // &x[i*d]
		mp   = R8  // &mean[0]
		ip   = R9  // &inv[0]
		zp   = R10 // &z[i]
		rb   = R11 // d·size: the distance between two rows
		tmp  = R12
	)
	l := kernel(t.name("standardize"))
	z := t.z()
	lanes := t.vec / 8 // float64 lanes
	scale := uint8(t.size)
	// w(i) is the float64 vector register i, h(i) the float32 one that
	// widens into it.
	w := func(i int) VecPhysical { return t.v(i) }
	h := func(i int) VecPhysical {
		if z {
			return y(i)
		}
		return x(i)
	}
	// maxInto sets dst to the lane-wise maximum of dst and src, as
	// unsigned 64-bit integers, through scratch on AVX2.
	maxInto := func(src, dst, scratch VecPhysical) {
		if z {
			VPMAXUQ(src, dst, dst)
			return
		}
		VPCMPGTQ(dst, src, scratch) // src > dst
		VBLENDVPD(scratch, src, dst, dst)
	}
	// The tail masks: the first d mod lanes float64 lanes (Y14, or K1 for
	// AVX-512, which serves the float32 lanes too) and float32 lanes (X13).
	k64, k32 := Op(Y14), Op(X13)
	if z {
		k64, k32 = K1, K1
	}

	Load(Param("rows"), rows)
	Load(Param("d"), d)
	VPXOR(X1, X1, X1)
	TESTQ(rows, rows)
	JEQ(l.L("done"))
	MOVQ(d, rb)
	SHLQ(U8(t.shift()), rb)
	MOVQ(d, dv)
	ANDQ(I32(-lanes), dv)
	MOVQ(d, tmp)
	SUBQ(dv, tmp) // d mod lanes
	if z {
		kmask(tmp, j, K1)
	} else {
		mask(f64, tmp, Y14, X14)
		if t.size == 4 {
			mask(f32, tmp, Y13, X13)
		}
	}
	Load(Param("u"), up)
	Load(Param("x"), xp)
	Load(Param("mean"), mp)
	Load(Param("inv"), ip)
	Load(Param("z"), zp)

	// chunk standardizes features j to j+lanes−1 of the row into w(2) as
	// the bits of |u|, and keeps their maximum in w(0); masked, the first
	// d mod lanes of them.
	chunk := func(masked bool) {
		xm, um, mm, im := at(xp, 0, j, scale), at(up, 0, j, scale), at(mp, 0, j, 8), at(ip, 0, j, 8)
		switch {
		case t.size == 8 && masked:
			f64.wideIf(z).maskLoad(xm, k64, w(2))
		case t.size == 8:
			VMOVUPD(xm, w(2))
		case masked:
			f32.wideIf(z).maskLoad(xm, k32, h(2))
			VCVTPS2PD(h(2), w(2))
		default:
			VCVTPS2PD(xm, w(2))
		}
		if masked {
			f64.wideIf(z).maskLoad(mm, k64, w(3))
			f64.wideIf(z).maskLoad(im, k64, w(4))
			VSUBPD(w(3), w(2), w(2))
			VMULPD(w(4), w(2), w(2))
		} else {
			VSUBPD(mm, w(2), w(2))
			VMULPD(im, w(2), w(2))
		}
		switch {
		case t.size == 8 && masked:
			f64.wideIf(z).maskStore(w(2), k64, um)
		case t.size == 8:
			VMOVUPD(w(2), um)
		default:
			if z {
				VCVTPD2PS(w(2), h(2))
			} else {
				VCVTPD2PSY(w(2), h(2))
			}
			if masked {
				f32.wideIf(z).maskStore(h(2), k32, um)
			} else {
				VMOVUPS(h(2), um)
			}
			VCVTPS2PD(h(2), w(2))
		}
		if z {
			VPANDQ(gc.Abs, w(2), w(2))
		} else {
			VANDPD(gc.Abs, w(2), w(2))
		}
		maxInto(w(2), w(0), w(3))
	}

	l.Set("row")
	VPXOR(X0, X0, X0)
	XORQ(j, j)
	l.Set("vec")
	CMPQ(j, dv)
	JGE(l.L("tail"))
	chunk(false)
	ADDQ(U8(lanes), j)
	JMP(l.L("vec"))
	l.Set("tail")
	CMPQ(dv, d)
	JEQ(l.L("max"))
	chunk(true)

	// The row's maximum into lane 0 of X0, then z[i] and X1.
	l.Set("max")
	if z {
		VEXTRACTI64X4(U8(1), Z0, Y2)
		VPMAXUQ(Y2, Y0, Y0)
	}
	VEXTRACTI128(U8(1), Y0, X2)
	maxInto(X2, X0, X3)
	VPSHUFD(U8(0x4e), X0, X2) // the upper lane down
	maxInto(X2, X0, X3)
	VMOVQ(X0, at(zp, 0, nil, 0))
	maxInto(X0, X1, X3)
	ADDQ(rb, up)
	ADDQ(rb, xp)
	ADDQ(U8(8), zp)
	DECQ(rows)
	JNZ(l.L("row"))

	// ok: every row's maximum below the bits of +Inf.
	l.Set("done")
	VMOVQ(X1, j)
	MOVQ(U64(absBitsInf), tmp)
	CMPQ(j, tmp)
	SETCS(ret())
	vzeroupper()
	RET()
}

// absBitsInf is the bits of +Inf: those of |v| are at least absBitsInf
// exactly when v is ±Inf or NaN.
const absBitsInf = 0x7ff0000000000000

// wideIf returns t with AVX-512's vectors when z holds.
func (t elem) wideIf(z bool) elem {
	if z {
		return t.wide()
	}
	return t
}
