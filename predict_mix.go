package gcp

import "math"

// memberPredictives holds the predictive of every member of a model for
// the rows of a chunk, in original units: one run of members·n values per
// quantity, member k's for row i at k·n + i. Each loss fills one
// (gcpPredictives, gaussianPredictives, mcPredictives) and mixRows mixes
// the members of each row into its Prediction.
//
// A run may be another's, or a run of zeros: a GCP or Gaussian member's
// aleatoric variance is its variance, and its epistemic one 0; a Gaussian
// member's VarCorrected is its variance, and its β and ν are 0. scale,
// each member's Component scale, is filled for an ensemble only.
type memberPredictives struct {
	mean, variance, corrected []float64 // m, Var and VarCorrected
	aleatoric, epistemic      []float64 // the parts of Var
	alpha, beta, nu           []float64 // the normal-gamma prior's; +Inf, 0 and 0 for a Gaussian predictive
	scale, sigma              []float64 // sigma is scratch for GCP's σ
	zero                      []float64 // a run of zeros that nothing writes
}

// The runs of newMemberPredictives, each of members·rows values: those a
// memberPredictives may take, and a run of zeros that nothing writes.
const (
	runMean = iota
	runVariance
	runCorrected
	runAleatoric
	runEpistemic
	runAlpha
	runScale
	runSigma
	runZero
	memberRuns
)

// newMemberPredictives returns a memberPredictives of runs of
// members·rows values in a buffer of its own, each quantity its own run
// but beta and nu, which are the zeros (GCP points them at its links).
// Its runs hold up to rows rows, member k's row i at k·n + i for a chunk
// of n rows, so that a loss fills what it needs of a copy of it without
// reslicing every run.
func newMemberPredictives(members, rows int) memberPredictives {
	kr := members * rows
	buf := make([]float64, memberRuns*kr)
	run := func(r int) []float64 { return buf[r*kr : (r+1)*kr] }
	zero := run(runZero)
	return memberPredictives{mean: run(runMean), variance: run(runVariance), corrected: run(runCorrected),
		aleatoric: run(runAleatoric), epistemic: run(runEpistemic), alpha: run(runAlpha), beta: zero, nu: zero,
		scale: run(runScale), sigma: run(runSigma), zero: zero}
}

// mixRows writes into out the prediction of each of its rows, with InputZ
// from z: the uniform mixture of the members' predictives in p. It reports
// whether every one keeps the promise of Prediction: a finite mean, finite
// positive variances (Var may be +Inf for a FixedAlpha ≤ 1) and, for an
// ensemble, finite means and positive finite scales of its members
// (gcpPredictives checks what a Student-t member needs more).
//
// Each moment is the mean of the members' values, each sum taken from 0 in
// the members' order, and every variance but the aleatoric one adds the
// variance of their means, the between-member term of the law of total
// variance; corrScale then multiplies VarCorrected. The members' variances
// already include varScale, and so that VarScale scales the whole
// predictive about its mean, as it does a single network's, the spread of
// the members' means is scaled by it too: the variance of the means by
// varScale, each member's mean's offset from the mixture mean (its
// Component's Mean) by its square root. A single network's sums are its
// values, and are not divided by 1.
//
// A row's values stay in registers until they are stored, once each, and
// the loop calls nothing, so that the core overlaps the rows' divisions
// and square roots.
func (m *Model[T]) mixRows(p *memberPredictives, z []float64, out []Prediction) bool {
	K, n := m.lay.members, len(out)
	kn := K * n
	kf := float64(K)
	mean, variance, corrected := p.mean[:kn], p.variance[:kn], p.corrected[:kn]
	aleatoric, epistemic := p.aleatoric[:kn], p.epistemic[:kn]
	alpha, beta, nu := p.alpha[:kn], p.beta[:kn], p.nu[:kn]
	unit := m.varianceUnit()
	r := math.Sqrt(m.varScale)
	// With a FixedAlpha ≤ 1 no variance exists, and Var is +Inf.
	noVar := m.cfg.FixedAlpha > 0 && m.cfg.FixedAlpha <= 1
	ok := true
	for i := range out {
		var mu, v, vc, va, ve, a, b, nv float64
		for j := i; j < kn; j += n {
			mu += mean[j]
			v += variance[j]
			vc += corrected[j]
			va += aleatoric[j]
			ve += epistemic[j]
			a += alpha[j]
			b += beta[j]
			nv += nu[j]
		}
		o := &out[i]
		var between float64
		if K > 1 {
			mu, v, vc, va, ve, a, b, nv = mu/kf, v/kf, vc/kf, va/kf, ve/kf, a/kf, b/kf, nv/kf
			for j := i; j < kn; j += n {
				d := mean[j] - mu
				between += d * d
			}
			between = between / kf * m.varScale
			for k, j := 0, i; k < K; k, j = k+1, j+n {
				c := Component{Mean: mu + r*(mean[j]-mu), Scale: p.scale[j], DoF: 2 * alpha[j]}
				o.Components[k] = c
				ok = ok && finite(c.Mean) && positiveFinite(c.Scale)
			}
			clear(o.Components[K:])
		} else {
			o.Components = [MaxMembers]Component{}
		}
		v += between
		ve += between
		vc = (vc + between) * m.corrScale
		o.Loss, o.Members = m.cfg.Loss, K
		o.Transform, o.ZMean, o.ZVar, o.ZVarCorrected = TransformNone, 0, 0, 0
		o.given = scoreMap{} // out may hold a conditional marginal
		o.Mean, o.Var, o.VarCorrected, o.VarAleatoric, o.VarEpistemic = mu, v, vc, va, ve
		o.Alpha, o.Beta, o.Nu = a, b, nv
		o.InputZ = z[i]
		o.Disagreement = math.Sqrt(ve / min(va, unit))
		if noVar && math.IsInf(v, 1) {
			v = 1 // as documented
		}
		ok = ok && finite(mu) && positiveFinite(v) && positiveFinite(vc)
	}
	return ok
}

// varianceUnit is what a variance in standardized units is multiplied by
// to give it in original units: yScale², times the calibration VarScale.
func (m *Model[T]) varianceUnit() float64 { return m.yScale * m.yScale * m.varScale }
