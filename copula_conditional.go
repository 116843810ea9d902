package gcp

import "math"

// copulaConditional is Conditional for a copula prediction p, its
// arguments checked (conditionArgs): perm lists the given targets first,
// then the rest, and values are the given targets' values in original
// units. With the permuted R = LLᵀ, L's first rows L_O, the scores of
// the given targets u_O = normalScore(y_O) and w = L_O⁻¹u_O, the rest's
// scores are Gaussian, of mean μ = R_UO R_OO⁻¹ u_O = [rows of L below
// L_O, its first o columns]·w and covariance Σ = L_{U|O}L_{U|O}ᵀ, L_{U|O}
// the rest of those rows: so each target j of U has σ_j the norm of its
// row of L_{U|O}, and R′ = D^(−1/2)ΣD^(−1/2) the factor D^(−1/2)L_{U|O},
// lower triangular of positive diagonal, rows of unit norm. The
// calibrated scores ũ_O (normalScore's calibrated) give the calibrated
// conditional's centres by the same rows, and its region's q̃_O = |L_O⁻¹ũ_O|².
// It changes dst only once nothing can fail.
func (p *MultiPrediction) copulaConditional(dst *MultiPrediction, perm []int, values []float64) error {
	d, o := len(perm), len(values)
	n := d - o
	var s [maxTargets * maxTargets]float64
	var l [maxTargets * (maxTargets + 1) / 2]float64
	var u, uc, w, wc [maxTargets]float64
	for a := range d {
		for b := range a + 1 {
			s[a*d+b] = p.cop.corr(perm[a], perm[b])
		}
	}
	if !cholesky(l[:], s[:], d) {
		return errConditionNonFinite
	}
	for a := range d {
		if v := l[a*(a+1)/2+a]; v*v < conditionPivotMin*s[a*d+a] {
			return errConditionSingular
		}
	}
	for a := range o {
		m := &p.cop.marg[perm[a]]
		u[a], uc[a] = normalScore(m, values[a], false), normalScore(m, values[a], true)
		if !finite(u[a]) || !finite(uc[a]) {
			return errConditionNonFinite
		}
	}
	q := copulaSolve(l[:], u[:o], w[:o])
	qc := copulaSolve(l[:], uc[:o], wc[:o])
	if !finite(q) || !finite(qc) {
		return errConditionNonFinite
	}
	// mu, muc and sigma of each target of U; L_{U|O}'s rows scaled to
	// unit norm into l in place.
	var mu, muc, sigma [maxTargets]float64
	for i := range n {
		row := l[(o+i)*(o+i+1)/2:]
		for j := range o {
			mu[i] += row[j] * w[j]
			muc[i] += row[j] * wc[j]
		}
		var ss float64
		for j := range i + 1 {
			ss += row[o+j] * row[o+j]
		}
		sigma[i] = math.Sqrt(ss)
		if !finite(mu[i]) || !finite(muc[i]) || !(sigma[i] > 0) {
			return errConditionNonFinite
		}
	}
	nu, scale := p.regionNu, p.regionScale
	if !math.IsInf(nu, 1) {
		nu = p.regionNu + float64(o)
		scale = p.regionScale * (p.regionNu + qc/p.regionScale) / nu
		if !finite(scale) {
			return errConditionNonFinite
		}
	}
	dst.resizeCopula(n)
	nl := mvtPackedLen(n)
	if cap(dst.cop.own) < nl {
		dst.cop.own = make([]float64, nl)
	}
	own := dst.cop.own[:nl]
	dst.tr, dst.logged = [maxTargets]TargetTransform{}, false
	for i := range n {
		t := perm[o+i]
		src := &p.cop.marg[t]
		centre := p.cop.modeledMean(t) + math.Sqrt(modeledCorrected(src))*muc[i]
		vc := modeledCorrected(src) * sigma[i] * sigma[i]
		g := &dst.cop.marg[i]
		*g = *src
		g.condition(mu[i], sigma[i], centre, vc)
		row := l[(o+i)*(o+i+1)/2+o:]
		for j := range i + 1 {
			own[i*(i+1)/2+j] = row[j] / sigma[i]
		}
		dst.tr[i] = p.tr[t]
		dst.logged = dst.logged || dst.tr[i] != TransformNone
	}
	dst.loss, dst.inputZ = p.loss, p.inputZ
	dst.regionNu, dst.regionScale, dst.conformal = nu, scale, nil
	dst.cop.chol = own
	return nil
}
