package gcp

import (
	"fmt"
	"math"
)

// Conditional writes into dst the predictive of the targets not in given,
// in increasing order of their indices, given that the targets given[a]
// took the values values[a]. It is a MultiPrediction of d − len(given)
// targets whose methods (LogPDF, Inside, Mahalanobis, Marginal, Sample,
// the calibrated region…) then answer for those targets.
//
// For a t with ν degrees of freedom, location m and scale S, observing the
// targets O at y_O leaves over the others U the t with ν + |O| degrees of
// freedom, location m_U + S_UO S_OO⁻¹(y_O − m_O) and scale
// ((ν + q_O)/(ν + |O|))·(S_UU − S_UO S_OO⁻¹ S_OU), q_O the squared
// Mahalanobis distance of y_O under S_OO: the farther y_O lies from its
// prediction, the wider the rest. The corrected covariance becomes the
// corrected Gaussian's conditional, Σ̃_UU − Σ̃_UO Σ̃_OO⁻¹ Σ̃_OU, which does
// not depend on y_O. The calibrated predictive t_ν(Mean, s·Σ̃) (RegionNu,
// RegionScale) conditions as the t does: ν + |O| degrees of freedom and
// the scale s·(ν + q̃_O)/(ν + |O|), q̃_O the squared distance of y_O under
// s·Σ̃_OO (s itself for the Gaussian, ν = +Inf). The conformal scores
// are distances of all d targets and answer for none of fewer: dst has
// none (ConformalInside returns ErrNoConformal). The Gaussian
// comparator's conditional is the Gaussian one.
//
// An ensemble's conditional is the mixture of its members' conditionals,
// each weighed by its member's marginal density at y_O (Bayes' rule over
// the members): the members that predicted y_O better count for more. Its
// mean and covariances are that weighted mixture's; its corrected
// covariance that of the members' corrected conditionals under the same
// weights, by the law of total covariance. Marginal then answers with a
// moment-matched t, as it explains.
//
// Under target transforms (Model.TargetTransforms) the values are in
// original units and the model conditions in z = g(y), where it is the t:
// observing y_O is observing z_O = g(y_O), since each g_j is one to one,
// and dst keeps the transforms of its targets, so that its methods answer
// in original units as p's do.
//
// It returns ErrShape if len(values) ≠ len(given), ErrTargetIndex for an
// index out of range or repeated, no index or every index, ErrNonFinite
// for a value that is NaN or ±Inf, one so far out that the conditional
// scale overflows or that a logged target's median or Mean in original
// units underflows to 0 or overflows, and where the conditional is not
// determined in float64 (a target within a correlation of about 1 − 5·10⁻¹⁰ of a
// linear function of the given ones, or of those before it: a scale matrix
// of the given targets of condition number 10⁷⁴, say; the bound keeps the
// conditional within about 10⁻⁶ of the truth), ErrDomain for a value outside its target's transform's
// domain (≤ 0 under the log), and ErrConfig for a nil dst or dst = p. dst is left
// unchanged on the argument errors. It only reads p, allocates nothing
// once dst has held a prediction of its shape, and may run on many
// goroutines at once, each with its own dst.
//
// Under the copula (docs/multivariate.md, Sec. 12) the given values'
// normal scores u_O = Φ⁻¹(F_O(y_O)) leave the rest's scores Gaussian,
// N(μ, Σ) with μ = R_UO R_OO⁻¹ u_O and Σ = R_UU − R_UO R_OO⁻¹ R_OU, so
// that y_U is again a Gaussian copula: of the conditional marginals
// G_j(y) = Φ((Φ⁻¹(F_j(y)) − μ_j)/σ_j), σ_j = √Σ_jj ≤ 1, and the
// correlation R′ = D^(−1/2)ΣD^(−1/2), D = diag Σ. dst is that copula,
// R′'s factor in dst's own storage, and dst.Marginal(j) a Prediction that
// answers for G_j (Prediction says how). Its calibrated law, the
// calibrated region's t_ν(m, s·Σ̃) in z conditioned on z_O as for the
// joint t, has the centres m_j + √Ṽ_j·(R_UO R_OO⁻¹ ũ_O)_j of the
// calibrated scores ũ_O = (z_O − m_O)/√Ṽ_O, the corrected variances
// Ṽ_j·σ_j² (each conditional marginal's VarCorrected, ZVarCorrected
// under a transform), the correlation R′, ν + |O| degrees of freedom and
// the scale s·(ν + q̃_O/s)/(ν + |O|), q̃_O = ũ_Oᵀ R_OO⁻¹ ũ_O. Conditioning
// dst again composes the maps on the same unconditional marginals, and
// equals conditioning on the union at once. ErrNonFinite reports a given
// value whose score is infinite, R's pivots as the joint t's scale's, and
// a given value so far out that a remaining target's law leaves float64
// (its median beyond the largest float64, or a mean, variance or
// calibrated centre that exists but overflows, or under the log a median
// or mean that underflows to 0); dst is left unchanged on
// every error. Each conditional marginal's Mean
// and Var are integrals (Prediction says how), which make most of its
// cost: about 0.25 ms a remaining target on a 2-core AMD EPYC (Zen 4)
// (BenchmarkConditionalCopula), against the joint t's 0.24 µs in all.
func (p *MultiPrediction) Conditional(dst *MultiPrediction, given []int, values []float64) error {
	perm, zv, err := p.conditionArgs(dst, given, values)
	if err != nil {
		return err
	}
	if p.cop.on() {
		return p.copulaConditional(dst, perm[:p.d], values)
	}
	d, o := p.d, len(given)
	values = zv[:o]
	u := d - o
	dst.resize(u, p.members)
	dst.loss, dst.inputZ, dst.regionScale = p.loss, p.inputZ, p.regionScale
	dst.tr, dst.logged = [maxTargets]TargetTransform{}, false
	for i := range u {
		dst.spread[i] = p.spread[perm[o+i]]
		dst.tr[i] = p.tr[perm[o+i]]
		dst.logged = dst.logged || dst.tr[i] != TransformNone
	}
	for k := range p.members {
		lw, err := p.conditionMember(dst, k, perm[:d], values)
		if err != nil {
			return err
		}
		dst.weight[k] = lw
	}
	if dst.weighted = p.members > 1; dst.weighted {
		// w_k ∝ (prior weight)·p_k(y_O), normalised by log-sum-exp.
		for k := range dst.weight {
			dst.weight[k] += math.Log(p.weightOf(k))
		}
		if _, sum := expShift(dst.weight); !(sum > 0) {
			return ErrNonFinite
		}
		var sum float64
		for _, w := range dst.weight {
			sum += w
		}
		for k := range dst.weight {
			dst.weight[k] /= sum
		}
	}
	if !dst.mix() {
		return ErrNonFinite
	}
	dst.conformal, dst.regionNu, dst.regionScale = nil, p.regionNu, p.regionScale
	if !math.IsInf(p.regionNu, 1) {
		q, ok := p.correctedDistance2(given, values)
		dst.regionNu = p.regionNu + float64(o)
		dst.regionScale = p.regionScale * (p.regionNu + q/p.regionScale) / dst.regionNu
		if !ok || !finite(dst.regionScale) {
			return ErrNonFinite
		}
	}
	if !dst.loggedLawsRepresentable() {
		return errConditionBeyond
	}
	return nil
}

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
	// |w|² is not needed, and q̃_O = |wc|² only for a region of finite
	// ν: a given value so far out that it overflows (a calibrated score
	// beyond 1e154) leaves the Gaussian region's scale as it is.
	copulaSolve(l[:], u[:o], w[:o])
	qc := copulaSolve(l[:], uc[:o], wc[:o])
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
	// The conditional marginals, made apart so that dst stays as it is if
	// one lies beyond float64.
	var gs [maxTargets]Prediction
	for i := range n {
		t := perm[o+i]
		src := &p.cop.marg[t]
		centre := p.cop.modeledMean(t) + math.Sqrt(modeledCorrected(src))*muc[i]
		vc := modeledCorrected(src) * sigma[i] * sigma[i]
		gs[i] = *src
		if !gs[i].condition(mu[i], sigma[i], centre, vc) {
			return errConditionBeyond
		}
	}
	dst.resizeCopula(n)
	own := dst.cop.own[:mvtPackedLen(n)]
	dst.tr, dst.logged = [maxTargets]TargetTransform{}, false
	for i := range n {
		t := perm[o+i]
		dst.cop.marg[i] = gs[i]
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

// loggedLawsRepresentable reports whether the law in original units of
// each target of p under the log transform lies within float64: e to
// the location in z of each member of positive weight, its median, is
// positive and finite (so is then the mixture's median, which lies
// between them, each member's t being symmetric about its location),
// and so is the Mean. A member whose weight given y_O underflowed to 0
// takes no part in the law, wherever its location lies. A Conditional
// given values far from their prediction moves a logged target's
// location by S_UO S_OO⁻¹(z_O − m_O), unbounded: e^z then underflows to
// 0 or overflows, every quantile of y would be 0 or +Inf, and
// Conditional refuses it, as it refuses the copula's
// (Prediction.condition).
func (p *MultiPrediction) loggedLawsRepresentable() bool {
	for i := range p.d {
		if p.tr[i] == TransformNone {
			continue
		}
		for k := range p.members {
			if p.weightOf(k) != 0 && !positiveFinite(p.tr[i].invert(p.loc[k*p.d+i])) {
				return false
			}
		}
		// The Mean is e^(m + v/2), m = p.mean[i] and v = s·k·Σ̃_ii the
		// calibrated variance in z (calibratedVar), k =
		// regionMarginalFactor(ν) ≥ 1: where e^m is positive and e^(m +
		// s·Σ̃_ii·K/2) finite, K k's bound over ν ≥ 1 (a Conditional's ν +
		// |O|), so is the Mean, without the t quantile that k takes.
		m, v := p.mean[i], p.regionScale*p.ZCovCorrected(i, i)
		if p.regionNu >= 1 && math.Exp(m) > 0 && math.Exp(m+regionMarginalFactorBound*v/2) <= math.MaxFloat64 {
			continue
		}
		if !positiveFinite(p.Mean(i)) {
			return false
		}
	}
	return true
}

// regionMarginalFactorBound bounds regionMarginalFactor(ν) over ν ≥ 1,
// where it is largest at ν = 1, the Cauchy's (tan(0.475π)/z(0.975))² =
// 42.03 (TestRegionMarginalFactorBound).
const regionMarginalFactorBound = 42.1

// conditionArgs checks Conditional's arguments and returns its errors
// for them, before it changes dst: perm lists the given targets first,
// then the rest in increasing order, and zv holds the values as the
// targets' models model them, z = g(y).
func (p *MultiPrediction) conditionArgs(dst *MultiPrediction, given []int, values []float64) (perm [maxTargets]int, zv [maxTargets]float64, err error) {
	if dst == nil || dst == p {
		return perm, zv, ErrConfig
	}
	if len(values) != len(given) {
		return perm, zv, fmt.Errorf("%w: %d values for %d given targets", ErrShape, len(values), len(given))
	}
	d, o := p.d, len(given)
	var seen [maxTargets]bool
	for a, i := range given {
		switch {
		case i < 0 || i >= d:
			return perm, zv, fmt.Errorf("%w: target %d of %d", ErrTargetIndex, i, d)
		case seen[i]:
			return perm, zv, fmt.Errorf("%w: target %d given twice", ErrTargetIndex, i)
		case !finite(values[a]):
			return perm, zv, fmt.Errorf("%w: target %d given as %v", ErrNonFinite, i, values[a])
		}
		var ok bool
		if zv[a], ok = p.tr[i].forward(values[a]); !ok {
			return perm, zv, fmt.Errorf("%w: target %d given as %v under the %v transform", ErrDomain, i, values[a], p.tr[i])
		}
		seen[i] = true
	}
	if o == 0 || o == d {
		return perm, zv, fmt.Errorf("%w: %d of %d targets given, want 1 to %d", ErrTargetIndex, o, d, d-1)
	}
	copy(perm[:], given)
	u := o
	for i := range d {
		if !seen[i] {
			perm[u] = i
			u++
		}
	}
	return perm, zv, nil
}

// correctedDistance2 returns (y_O − m_O)ᵀ Σ̃_OO⁻¹ (y_O − m_O), the squared
// Mahalanobis distance under the corrected covariance of the targets
// given at values from their Mean, and whether it is finite.
func (p *MultiPrediction) correctedDistance2(given []int, values []float64) (float64, bool) {
	o := len(given)
	var a [maxTargets * maxTargets]float64
	var l [maxTargets * (maxTargets + 1) / 2]float64
	var m, z [maxTargets]float64
	for i, t := range given {
		m[i] = p.mean[t]
		for j := range i + 1 {
			a[i*o+j] = p.ZCovCorrected(t, given[j])
		}
	}
	if !cholesky(l[:], a[:], o) {
		return 0, false
	}
	_, sigma, r, _ := mvtStandardize(z[:o], values, m[:o], l[:])
	q := sigma * sigma * r
	return q, finite(q)
}

// conditionPivotMin bounds from below each pivot of the Cholesky factor
// that Conditional forms of a member's scale S with the given targets
// first, relative to its diagonal entry: L_aa² ≥ 2⁻³⁰·S_aa. The factor is
// that of S formed in float64 from the member's own factor, and a pivot
// L_aa² = r·S_aa carries an error of about 4ε/r of itself (ε = 2⁻⁵³,
// measured on a 16-target ensemble against math/big,
// TestConditionalOfANearlySingularScale): at r = 2⁻³⁰ the conditional's
// mean and covariance are within about 10⁻⁶ of the truth (in the
// conditional's standard deviations); at r = 6·10⁻¹⁵ they were 0.48
// standard deviations and 16% off. A pivot that small says a target is
// within a correlation of 1 − 5·10⁻¹⁰ of a linear function of those
// before it.
const conditionPivotMin = 0x1p-30

// The errors of a member's conditioning: a pivot below conditionPivotMin,
// and a scale, location or density that is not finite.
var (
	errConditionSingular  = fmt.Errorf("%w: a target's scale, given the targets before it, is below 2⁻³⁰ of its own: the conditional is not determined in float64", ErrNonFinite)
	errConditionNonFinite = fmt.Errorf("%w: the conditional's scale, location or density", ErrNonFinite)
	errConditionBeyond    = fmt.Errorf("%w: a remaining target's conditional law lies beyond float64 (its median, mean, variance or calibrated centre overflows, or a logged target's median or mean underflows to 0)", ErrNonFinite)
)

// conditionMember writes member k of p conditioned on the targets
// perm[:len(values)] at values into member k of dst (whose targets are
// perm[len(values):]), and returns the log of the member's marginal
// density at values, or errConditionSingular or errConditionNonFinite
// (conditionPivotMin). The Cholesky factor
// of the scale with its rows and columns in the order perm holds the
// given targets' factor L_O in its first rows, and below it the rows
// [S_UO L_O⁻ᵀ | L_{U|O}], L_{U|O} the factor of S_UU − S_UO S_OO⁻¹ S_OU.
func (p *MultiPrediction) conditionMember(dst *MultiPrediction, k int, perm []int, values []float64) (float64, error) {
	d, o := len(perm), len(values)
	u := d - o
	var s [maxTargets * maxTargets]float64
	var l [maxTargets * (maxTargets + 1) / 2]float64
	var mo, z [maxTargets]float64
	for a := range d {
		for b := range a + 1 {
			s[a*d+b] = p.memberScale(k, perm[a], perm[b])
		}
	}
	if !cholesky(l[:], s[:], d) {
		return 0, errConditionNonFinite
	}
	for a := range d {
		if v := l[a*(a+1)/2+a]; v*v < conditionPivotMin*s[a*d+a] {
			return 0, errConditionSingular
		}
	}
	loc := p.loc[k*d : (k+1)*d]
	for a := range o {
		mo[a] = loc[perm[a]]
	}
	nu := p.nu[k]
	lnSigma, sigma, r, lnDiag := mvtStandardize(z[:o], values, mo[:o], l[:])
	lw := mvtLogDensityOf(o, nu, lnSigma, sigma, r, lnDiag)
	f, nuU := 1.0, nu // the scale factor (ν + q_O)/(ν + |O|); ν + |O|
	dst.tfac[k] = 1
	if !math.IsInf(nu, 1) {
		nuU = nu + float64(o)
		f = (nu + sigma*sigma*r) / nuU
		dst.tfac[k] = nuU / (nuU - 2)
	}
	rf := math.Sqrt(f)
	nl := mvtPackedLen(u)
	dloc, dchol := dst.loc[k*u:(k+1)*u], dst.chol[k*nl:(k+1)*nl]
	for i := range u {
		row := l[(o+i)*(o+i+1)/2:]
		m := loc[perm[o+i]]
		for j := range o {
			m += row[j] * z[j] * sigma
		}
		dloc[i] = m
		if !finite(m) {
			return 0, errConditionNonFinite
		}
		for j := range i + 1 {
			dchol[i*(i+1)/2+j] = rf * row[o+j]
		}
	}
	dst.nu[k] = nuU
	// CovCorrected = scale/corr = S_{U|O}/c_d(ν): the corrected Gaussian's
	// conditional covariance.
	dst.corr[k] = f * p.corr[k]
	if !(finite(lw) || math.IsInf(lw, -1)) || !finite(rf) {
		return 0, errConditionNonFinite
	}
	return lw, nil
}
