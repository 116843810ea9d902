package gcp

import "math"

// The pure-Go kernels. Every hot loop of the library is one of these small
// functions, so that an assembly version can replace it one for one; they
// are always compiled, because the tests use them as the oracle for the
// assembly. Lengths are validated by the callers: the kernels trust them.
//
// Element-wise kernels (the optimizer steps, masks, derivatives) round
// every product on its own: the explicit T(x*y) conversions forbid the
// compiler from fusing a multiply and an add (it does so on arm64), so the
// result is the same on every architecture and an assembly version can
// match it bit for bit. Products and sums along a dimension (dot, axpy
// and the layer kernels) are free to use fused multiply-adds.
//
// Activations are row-major with an explicit leading dimension (the
// distance between rows), so a kernel can work on the column block of one
// head inside a wider activation buffer. A layer's weights w are stored
// input-major, [k × n] for k inputs and n outputs, so that the forward
// product runs along contiguous outputs (broadcast one input, multiply a
// row of w, accumulate) and needs no horizontal sums. For a single output
// (n = 1) the two layouts coincide and every kernel works along k instead.

// linearForwardGeneric computes the layer y = x·w + b for m rows, with an
// optional fused ReLU:
//
//	for i := range m { for j := range n {
//		s := b[j]; for p := range k { s += x[i*ldx+p] * w[p*n+j] }
//		if relu { s = max(s, 0) }; y[i*ldy+j] = s } }
func linearForwardGeneric[T Float](m, n, k int, x []T, ldx int, w, b []T, y []T, ldy int, relu bool) {
	for i := 0; i < m; i++ {
		xi := x[i*ldx : i*ldx+k]
		yi := y[i*ldy : i*ldy+n]
		if n == 1 {
			yi[0] = b[0] + dotGeneric(xi, w)
		} else {
			copy(yi, b[:n])
			axpy4Generic(xi, w, n, yi)
		}
		if relu {
			for j, v := range yi {
				yi[j] = max(v, 0) // NaN stays NaN
			}
		}
	}
}

// linearBackwardWeightsGeneric accumulates the weight and bias gradients of
// a layer, dw += xᵀ·dy and db += column sums of dy (none for a nil db):
//
//	for i := range m { for j := range n {
//		db[j] += dy[i*lddy+j]
//		for p := range k { dw[p*n+j] += x[i*ldx+p] * dy[i*lddy+j] } } }
func linearBackwardWeightsGeneric[T Float](m, n, k int, dy []T, lddy int, x []T, ldx int, dw, db []T) {
	var col [4]T // four rows' values of one input
	for i := 0; i < m; i++ {
		dyi := dy[i*lddy : i*lddy+n]
		if db != nil {
			axpyGeneric(1, dyi, db)
		}
		if n == 1 {
			axpyGeneric(dyi[0], x[i*ldx:i*ldx+k], dw)
		}
	}
	if n == 1 {
		return
	}
	// dw[p,:] += Σ_i x[i,p]·dy[i,:], four rows i per pass over dw.
	i := 0
	for ; i+4 <= m; i += 4 {
		for p := 0; p < k; p++ {
			for r := range col {
				col[r] = x[(i+r)*ldx+p]
			}
			axpy4Generic(col[:], dy[i*lddy:], lddy, dw[p*n:p*n+n])
		}
	}
	for ; i < m; i++ {
		dyi := dy[i*lddy : i*lddy+n]
		for p, v := range x[i*ldx : i*ldx+k] {
			axpyGeneric(v, dyi, dw[p*n:p*n+n])
		}
	}
}

// linearBackwardInputGeneric computes the gradient with respect to the
// layer's input, dx = dy·wᵀ (overwriting dx):
//
//	for i := range m { for p := range k {
//		s := 0; for j := range n { s += dy[i*lddy+j] * w[p*n+j] }
//		dx[i*lddx+p] = s } }
func linearBackwardInputGeneric[T Float](m, n, k int, dy []T, lddy int, w []T, dx []T, lddx int) {
	for i := 0; i < m; i++ {
		dxi := dx[i*lddx : i*lddx+k]
		dyi := dy[i*lddy : i*lddy+n]
		for p := range dxi {
			dxi[p] = dotGeneric(dyi, w[p*n:p*n+n])
		}
	}
}

// outputForwardGeneric computes the output layer of all heads at once: it
// is block-diagonal with one unit per head, so head h's k weights
// w[h*k : h*k+k] and bias b[h] act on its own k inputs, columns h*k… of
// each row of x, and its m outputs go head-major to y[h*m : h*m+m]:
//
//	for h := range heads { for i := range m {
//		s := b[h]; for p := range k { s += x[i*ldx+h*k+p] * w[h*k+p] }
//		y[h*m+i] = s } }
func outputForwardGeneric[T Float](m, heads, k int, x []T, ldx int, w, b, y []T) {
	for h := 0; h < heads; h++ {
		wh := w[h*k : h*k+k]
		for i := 0; i < m; i++ {
			xi := x[i*ldx+h*k : i*ldx+h*k+k]
			y[h*m+i] = b[h] + dotGeneric(xi, wh)
		}
	}
}

// dotGeneric returns the inner product of x and y[:len(x)]:
//
//	for i, v := range x { s += v * y[i] }
func dotGeneric[T Float](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy4Generic computes y += Σ_p a[p]·w[p*ldw : p*ldw+len(y)], four terms
// per pass over y so that y is loaded and stored a quarter as often:
//
//	for p, v := range a { for j := range y { y[j] += v * w[p*ldw+j] } }
func axpy4Generic[T Float](a, w []T, ldw int, y []T) {
	n := len(y)
	p := 0
	for ; p+4 <= len(a); p += 4 {
		a0, a1, a2, a3 := a[p], a[p+1], a[p+2], a[p+3]
		w0, w1, w2, w3 := w[p*ldw:][:n], w[(p+1)*ldw:][:n], w[(p+2)*ldw:][:n], w[(p+3)*ldw:][:n]
		for j := range y {
			y[j] += a0*w0[j] + a1*w1[j] + a2*w2[j] + a3*w3[j]
		}
	}
	for ; p < len(a); p++ {
		axpyGeneric(a[p], w[p*ldw:p*ldw+n], y)
	}
}

// axpyGeneric computes y += a·x over len(x) elements:
//
//	for i, v := range x { y[i] += a * v }
func axpyGeneric[T Float](a T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

// scaleGeneric computes x *= a:
//
//	for i := range x { x[i] *= a }
func scaleGeneric[T Float](a T, x []T) {
	for i := range x {
		x[i] *= a
	}
}

// mulGeneric computes the element-wise product x *= y over len(x)
// elements; it applies a dropout mask:
//
//	for i := range x { x[i] *= y[i] }
func mulGeneric[T Float](x, y []T) {
	y = y[:len(x)]
	for i := range x {
		x[i] *= y[i]
	}
}

// mulToGeneric writes the element-wise product dst = x·y over len(dst)
// elements:
//
//	for i := range dst { dst[i] = x[i] * y[i] }
func mulToGeneric[T Float](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

// reluBackwardGeneric masks a gradient by the ReLU derivative, read off the
// layer's output y:
//
//	for i := range d { if !(y[i] > 0) { d[i] = 0 } }
func reluBackwardGeneric[T Float](d, y []T) {
	y = y[:len(d)]
	for i := range d {
		if !(y[i] > 0) {
			d[i] = 0
		}
	}
}

// tanhBackwardGeneric multiplies a gradient by the tanh derivative 1−y²,
// read off the layer's output y:
//
//	for i := range d { d[i] *= 1 - y[i]*y[i] }
func tanhBackwardGeneric[T Float](d, y []T) {
	y = y[:len(d)]
	for i := range d {
		d[i] *= 1 - T(y[i]*y[i])
	}
}

// sumSquaresGeneric returns Σ x[i]², accumulated in float64 so that the
// gradient norm of a float32 model does not overflow:
//
//	for _, v := range x { s += float64(v) * float64(v) }
func sumSquaresGeneric[T Float](x []T) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}

// allFiniteGeneric reports whether no element of x is NaN or ±Inf: v−v is
// 0 for a finite v and NaN otherwise, and a NaN survives any sum:
//
//	for _, v := range x { s += v - v }; return s == 0
func allFiniteGeneric[T Float](x []T) bool {
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] - x[i]
		s1 += x[i+1] - x[i+1]
		s2 += x[i+2] - x[i+2]
		s3 += x[i+3] - x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] - x[i]
	}
	return s0+s1+s2+s3 == 0
}

// sgdGeneric writes the plain gradient step p2 = p − lr·g and reports
// whether every value it wrote is finite, summing v − v over them as
// allFiniteGeneric does, so that the optimizer needs no second pass over
// its candidates. So do the other optimizer steps below.
//
//	for i := range p2 { p2[i] = p[i] - lr*g[i] }
func sgdGeneric[T Float](p2, p, g []T, lr T) bool {
	p, g = p[:len(p2)], g[:len(p2)]
	var s T
	for i := range p2 {
		pi := p[i] - T(lr*g[i])
		p2[i] = pi
		s += pi - pi
	}
	return s == 0
}

// nesterovGeneric writes one Nesterov-momentum step with velocity v
// (Sutskever et al. 2013, in the form of Lasagne's nesterov_momentum) and
// reports whether every value it wrote is finite:
//
//	for i := range p2 {
//		v2[i] = mu*v[i] - lr*g[i]
//		p2[i] = p[i] + mu*v2[i] - lr*g[i] }
func nesterovGeneric[T Float](p2, v2, p, v, g []T, lr, mu T) bool {
	v2, p, v, g = v2[:len(p2)], p[:len(p2)], v[:len(p2)], g[:len(p2)]
	var s T
	for i := range p2 {
		vi := T(mu*v[i]) - T(lr*g[i])
		pi := p[i] + T(mu*vi) - T(lr*g[i])
		v2[i], p2[i] = vi, pi
		s += (vi - vi) + (pi - pi)
	}
	return s == 0
}

// rmspropGeneric writes one RMSProp step with the running mean a of g²
// (Tieleman & Hinton 2012) and reports whether every value it wrote is
// finite:
//
//	for i := range p2 {
//		a2[i] = rho*a[i] + (1-rho)*g[i]*g[i]
//		p2[i] = p[i] - lr*g[i]/(sqrt(a2[i])+eps) }
func rmspropGeneric[T Float](p2, a2, p, a, g []T, lr, rho, eps T) bool {
	a2, p, a, g = a2[:len(p2)], p[:len(p2)], a[:len(p2)], g[:len(p2)]
	c := 1 - rho
	var s T
	for i := range p2 {
		ai := T(rho*a[i]) + T(T(c*g[i])*g[i])
		pi := p[i] - T(lr*g[i])/(T(math.Sqrt(float64(ai)))+eps)
		a2[i], p2[i] = ai, pi
		s += (ai - ai) + (pi - pi)
	}
	return s == 0
}

// adamGeneric writes one Adam step (Kingma & Ba 2015, Algorithm 1 with
// the bias corrections folded into lr and eps by the caller) and reports
// whether every value it wrote is finite:
//
//	for i := range p2 {
//		m2[i] = b1*m[i] + (1-b1)*g[i]
//		v2[i] = b2*v[i] + (1-b2)*g[i]*g[i]
//		p2[i] = p[i] - lr*m2[i]/(sqrt(v2[i])+eps) }
func adamGeneric[T Float](p2, m2, v2, p, m, v, g []T, lr, b1, b2, eps T) bool {
	m2, v2, p, m, v, g = m2[:len(p2)], v2[:len(p2)], p[:len(p2)], m[:len(p2)], v[:len(p2)], g[:len(p2)]
	c1, c2 := 1-b1, 1-b2
	var s T
	for i := range p2 {
		mi := T(b1*m[i]) + T(c1*g[i])
		vi := T(b2*v[i]) + T(T(c2*g[i])*g[i])
		pi := p[i] - T(lr*mi)/(T(math.Sqrt(float64(vi)))+eps)
		m2[i], v2[i], p2[i] = mi, vi, pi
		s += (mi - mi) + (vi - vi) + (pi - pi)
	}
	return s == 0
}

// gcpLossGeneric is the Student-t gradient loop of the GCP loss. For each
// sample i it maps the raw head outputs (zm, za, zb, zn) through the links
// to (m, α, β, ν), adds −ln t₂α(y_i | m, β(ν+1)/(να)) to the returned
// sum, and writes scale times the gradient with respect to the raw outputs,
// softplus chain included (gcpPoint). With a fixed α, za and ga are empty.
//
//	for i := range y {
//		l, dm, da, db, dn := gcpPoint(zm[i], za[i], zb[i], zn[i], y[i], fixedAlpha)
//		sum += l; gm[i], ga[i], gb[i], gn[i] = scale*dm, scale*da, scale*db, scale*dn }
func gcpLossGeneric[T Float](zm, za, zb, zn, y []T, fixedAlpha, scale float64, gm, ga, gb, gn []T) float64 {
	var sum float64
	for i := range y {
		var a float64
		if fixedAlpha == 0 {
			a = float64(za[i])
		}
		l, dm, da, db, dn := gcpPoint(float64(zm[i]), a, float64(zb[i]), float64(zn[i]), float64(y[i]), fixedAlpha)
		sum += l
		gm[i], gb[i], gn[i] = T(scale*dm), T(scale*db), T(scale*dn)
		if fixedAlpha == 0 {
			ga[i] = T(scale * da)
		}
	}
	return sum
}

// standardizeGeneric writes u = T((x − mean)·inv), the standardized
// features of the len(z) rows of len(mean) features of the row-major x,
// and into z each row's largest |u| (Prediction.InputZ), and reports
// whether every u is finite:
//
//	for i := range z { for j := range mean {
//		u[i*d+j] = T((float64(x[i*d+j]) - mean[j]) * inv[j]) }
//		z[i] = max |u[i*d:(i+1)*d]| }; return z and u are finite
//
// One number per row serves both: the largest float64 bits of |u| as an
// integer. The bits of non-negative floats order as their values do, and
// those of ±Inf and NaN are the largest of all (from absBitsInf on), so
// the row's largest is z's bits when the row is finite, and at least
// absBitsInf when it is not. An integer max is a conditional move, where
// comparisons of the values branched on every feature's sign, and a sum
// of u − u over the rows made one chain of dependent additions.
func standardizeGeneric[T Float](u, x []T, mean, inv, z []float64) bool {
	d := len(mean)
	ok := true
	for i := range z {
		big := standardizeRow(u[i*d:(i+1)*d], x[i*d:(i+1)*d], mean, inv)
		z[i] = math.Float64frombits(big)
		ok = ok && big < absBitsInf
	}
	return ok
}

// standardizeRow writes the row x, standardized, into u and returns the
// largest float64 bits of |u|. It is a function of its own, kept from
// inlining, so that its loop keeps every value in a register: inlined, the
// loop kept its maximum on the stack, 20 instructions a feature against
// 14.
//
//go:noinline
func standardizeRow[T Float](u, x []T, mean, inv []float64) (big uint64) {
	u, mean, inv = u[:len(x)], mean[:len(x)], inv[:len(x)]
	for j, v := range x {
		s := T((float64(v) - mean[j]) * inv[j])
		u[j] = s
		big = max(big, math.Float64bits(float64(s))&^signBit)
	}
	return big
}

// signBit is the sign of a float64's bits, and absBitsInf the bits of
// +Inf: those of |v| are at least absBitsInf exactly when v is ±Inf or
// NaN.
const (
	signBit    = 1 << 63
	absBitsInf = 0x7ff0000000000000
)

// softplusGeneric writes the softplus link of x to dst in float64, for
// float32 models too, since predictions are float64: the map of the β, ν
// and α−1 heads' raw outputs to positive values (paper: Eq. (5.2)):
//
//	for i := range dst { dst[i] = softplus(float64(x[i])) }
func softplusGeneric[T Float](dst []float64, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = softplus(float64(v))
	}
}

// tanhGeneric applies tanh in place:
//
//	for i := range x { x[i] = tanh(x[i]) }
func tanhGeneric[T Float](x []T) {
	for i, v := range x {
		x[i] = T(math.Tanh(float64(v)))
	}
}

// dropoutMaskGeneric fills mask with inverted-dropout factors for rate p,
// drawn from src as drawMask describes: each draw decides four units by
// its 16-bit quarters, lowest first, a unit dropped (0) where its quarter
// is below p·2¹⁶ and kept (1/(1−p)) otherwise, and a mask whose length is
// not a multiple of four leaves the rest of its last draw unused. It is
// the generic kernel of the tables' dropoutMask, which the AVX-512 table
// does eight draws at a time (dropoutMaskAVX512). The state stays in a
// local copy for the loop, and each factor is looked up by the sign of
// quarter − cut, with no branch: the units drop at random, so a branch on
// them would be mispredicted for about one unit in ten at p = 0.1. The
// four units of a draw are written out: as a loop over them it took
// 10.5 µs for 6,400 float32 units, more than the 9.4 µs of the 32-bit
// halves before, against 5.5 µs (AMD Zen 4, PCG's draws then).
func dropoutMaskGeneric[T Float](src *splitMix, p float64, mask []T) {
	g := *src
	factor := [2]T{dropoutKeep[T](p), 0} // kept, dropped
	cut := uint64(p * (1 << 16))         // p < 1, so cut < 2¹⁶
	whole := len(mask) &^ 3
	var bits uint64
	for i := 0; i < whole; i += 4 {
		g, bits = g.next()
		u := (*[4]T)(mask[i : i+4])
		u[0] = factor[(bits&0xffff-cut)>>63]
		u[1] = factor[(bits>>16&0xffff-cut)>>63]
		u[2] = factor[(bits>>32&0xffff-cut)>>63]
		u[3] = factor[(bits>>48-cut)>>63]
	}
	if whole < len(mask) {
		g, bits = g.next()
		for j := whole; j < len(mask); j++ {
			mask[j] = factor[(bits&0xffff-cut)>>63]
			bits >>= 16
		}
	}
	*src = g
}

// keptBackward is the dropout and ReLU part of the output layer's backward
// pass under the trainer's own dropout mask (see outputBackwardVia):
//
//	for i := range dx { dx[i] = 0 < x[i] ? dx[i]·keep : +0 }
//
// x being the units the mask kept, act·mask.
func keptBackward[T Float](dx, x []T, keep T) {
	x = x[:len(dx)]
	for i, v := range x {
		if 0 < v {
			dx[i] *= keep
		} else {
			dx[i] = 0
		}
	}
}

// dropoutKeep is the factor 1/(1−p) of the units an inverted-dropout
// mask of rate p keeps.
func dropoutKeep[T Float](p float64) T { return T(1 / (1 - p)) }

// dropoutMask32 fills mask as dropoutMaskGeneric does but with two units
// a draw, decided by its 32-bit halves against p·2³²: ML_Bayes's MC masks
// (mcDropoutMasks), drawn as when the saved models were written, so that
// a model read back predicts what it predicted.
func dropoutMask32[T Float](src *pcg, p float64, mask []T) {
	g := *src
	keep := T(1 / (1 - p))
	cut := int64(p * (1 << 32)) // p < 1, so cut < 2³²
	var bits uint64
	for i := 0; i < len(mask); i += 2 {
		g, bits = g.next()
		mask[i] = keep * T(1+(int64(uint32(bits))-cut)>>63)
		if i+1 < len(mask) {
			mask[i+1] = keep * T(1+(int64(bits>>32)-cut)>>63)
		}
	}
	*src = g
}
