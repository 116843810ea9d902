package gcp

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// The choice of a joint law for several targets (docs/multivariate.md,
// Sec. 12). Beside the joint network's recipe (autoFitMulti), the
// one-target recipe runs for each target on its own column, exactly as
// AutoFit of that column alone with the same options and seeds, all side
// by side. The one-target recipes and the joint one hold out the same
// rows and deal them into the same calibration folds (holdOut and
// newFolds draw from the number of rows and AutoOptions.Seed alone), so
// that all are calibrated on the same rows; only a fold that failed in
// one recipe could leave rows out, and the laws are compared on the rows
// all of them scored. On those rows each target's normal score
// u_j = Φ⁻¹(F_j(y_j)) under its one-target predictive (the Student t or
// the ensemble's mixture, calibrated as its model is) gives R and its
// shrinkage (fitCopula), and the copula's joint NLL, the sum of the
// marginals' NLLs less the nested-cross-validated gain G, is set against
// the joint network's on the same rows: the lower is kept, but the joint
// network only where its means lose no target more than 5% of the RMSE
// of the one-target models' (keepsJoint). The copula's
// calibrated region is fitted to the rows' distances under the
// calibrated marginals' scores (copulaRegionDistance2) as the joint t's
// is to its Mahalanobis distances (calibrateRegion), of the targets
// dequantized where they lie on a lattice, and the distances of the
// targets as observed are its conformal calibration.

// lawFit is what one recipe of autoFitLaws returned.
type lawFit[T Float] struct {
	m   *Model[T]
	res AutoResult
	cal calibrationRows[T]
	err error
}

// autoFitLaws is AutoFit for cfg.Targets ≥ 2: it runs the recipes of the
// laws of opt.Laws (by default both for LossGCP, the joint network alone
// otherwise) side by side, on Workers goroutines each, and returns the
// model of the law kept, with AutoResult.Law saying which and why. A law
// whose recipe fails leaves the other's model (LawChoice.Failed); where
// every one fails, the first error is returned.
func autoFitLaws[T Float](ctx context.Context, cfg Config, tc TrainConfig, x, y []T, opt AutoOptions) (*Model[T], AutoResult, error) {
	if err := opt.withDefaults(cfg, tc).validate(); err != nil {
		return nil, AutoResult{}, err
	}
	laws := opt.Laws
	if laws == nil {
		laws = []JointLaw{LawJoint}
		if cfg.Loss == LossGCP {
			laws = append(laws, LawCopula)
		}
	}
	d := cfg.Targets
	joint, copula := slices.Contains(laws, LawJoint), slices.Contains(laws, LawCopula)
	if copula && len(y) != len(y)/d*d {
		return nil, AutoResult{}, ErrShape
	}
	// Run 0 is the joint network's, runs 1 to d the targets' one-target
	// recipes; a law not asked for leaves its runs empty.
	fits := make([]lawFit[T], 1+d)
	sideBySide(len(fits), opt.Progress, func(i int, report func(AutoProgress)) {
		if i == 0 && !joint || i > 0 && !copula {
			return
		}
		o := opt
		if report != nil {
			o.Progress = func(r AutoProgress) {
				r.Marginal = i
				report(r)
			}
		}
		f := &fits[i]
		if i == 0 {
			f.m, f.res, f.cal, f.err = autoFitMulti(ctx, cfg, tc, x, y, o)
			return
		}
		one := cfg
		one.Targets = 0 // as gcp train makes a model of one target
		col := make([]T, len(y)/d)
		for r := range col {
			col[r] = y[r*d+i-1]
		}
		f.m, f.res, f.cal, f.err = autoFitTransforms(ctx, one, tc, x, col, o)
	})
	if err := ctx.Err(); err != nil {
		return nil, AutoResult{}, err
	}
	var failed error
	if copula {
		for j, f := range fits[1:] {
			if f.err != nil {
				failed = fmt.Errorf("the one-target recipe of target %d: %w", j, f.err)
				break
			}
		}
	}
	switch {
	case !copula:
		return fits[0].m, fits[0].res, fits[0].err
	case !joint && failed != nil:
		return nil, AutoResult{}, failed
	case joint && failed != nil && fits[0].err != nil:
		return nil, AutoResult{}, fits[0].err
	case joint && failed != nil:
		res := fits[0].res
		res.Law = LawChoice{Law: LawJoint, Failed: failed.Error()}
		return fits[0].m, res, nil
	}
	if joint && fits[0].err != nil {
		failed = fmt.Errorf("the joint network's recipe: %w", fits[0].err)
		joint = false
	}
	c := fitCopulaLaw(fits, d, len(y)/d, joint)
	law := LawChoice{Law: LawCopula, Compared: joint && c.rows > 0, CVRows: c.rows, Shrinkage: c.fit.lambda, Gain: c.fit.gain}
	law.CVNLL[LawJoint], law.CVNLL[LawCopula] = c.jointNLL, c.nll
	if law.Compared {
		law.CVRMSE = c.rmse
	}
	if failed != nil {
		law.Failed = failed.Error()
	}
	keepJoint := func(why string) (*Model[T], AutoResult, error) {
		law.Law = LawJoint
		if why != "" {
			law.Compared, law.Failed, law.CVRMSE = false, why, [2][]float64{}
		}
		res := fits[0].res
		res.Law = law
		return fits[0].m, res, nil
	}
	switch {
	case joint && c.rows == 0:
		return keepJoint("no row was calibrated by every recipe")
	case law.Compared && c.keepsJoint():
		return keepJoint("")
	}
	margins := make([]*Model[T], d)
	for j, f := range fits[1:] {
		margins[j] = f.m
	}
	m, err := newCopulaModel(margins, c.fit.chol, c.scale, c.nu, c.conformal)
	switch {
	case err != nil && joint:
		return keepJoint("the copula model: " + err.Error())
	case err != nil:
		return nil, AutoResult{}, err
	}
	return m, copulaResult(fits[1:], law, c), nil
}

// copulaFitted is the Gaussian copula fitted to the one-target models'
// calibration rows.
type copulaFitted struct {
	fit copulaFit
	// rows is how many rows every recipe calibrated on, which fit and
	// the figures below are of.
	rows int
	// nll is the copula's mean joint NLL over them in original units, and
	// jointNLL the joint network's (NaN where it was not fitted); rmse
	// holds each target's RMSE over them in original units, indexed by
	// law (nil for the joint network where it was not fitted).
	nll, jointNLL float64
	rmse          [2][]float64
	// scale and nu are the calibrated region's, fitted to the rows'
	// distances (copulaRegionDistance2), the conformal calibration those
	// distances, and cover95 the share inside the calibrated 95% region
	// of a region fitted without them (cvCoverage95).
	scale, nu float64
	conformal *conformalScores
	cover95   float64
}

// fitCopulaLaw fits the copula of the one-target recipes fits[1:] (of the
// d targets of n rows) to the rows that calibrated every one of them and,
// where joint, the joint network's fits[0] too, and scores both laws on
// them.
func fitCopulaLaw[T Float](fits []lawFit[T], d, n int, joint bool) copulaFitted {
	rows := fits[1].cal.rows
	for _, f := range fits[1:] {
		rows = commonRows(rows, f.cal.rows)
	}
	if joint {
		rows = commonRows(rows, fits[0].cal.rows)
	}
	k := len(rows)
	c := copulaFitted{rows: k, jointNLL: math.NaN(), scale: 1, nu: math.Inf(1)}
	u, marg := make([]float64, k*d), make([]Prediction, k*d)
	z, dq, q, fit := make([]float64, k*d), make([]float64, k*d), make([]float64, k), make([]float64, k)
	var margNLL float64
	c.rmse[LawCopula] = make([]float64, d)
	for j, f := range fits[1:] {
		at := rowPositions(f.cal.rows)
		for i, r := range rows {
			p := at[r]
			marg[i*d+j], z[i*d+j], dq[i*d+j] = f.cal.preds[p], float64(f.cal.z[p]), float64(f.cal.dq[p])
			u[i*d+j] = normalScore(&marg[i*d+j], z[i*d+j], false)
			margNLL += f.cal.nlls[p]
			c.rmse[LawCopula][j] += f.cal.sqErrs[0][p]
		}
	}
	c.fit = fitCopula(u, k, d)
	if k == 0 {
		c.nll = math.NaN()
		return c
	}
	c.nll = (margNLL - c.fit.gain*float64(k)) / float64(k)
	// The region is fitted to the distances of the dequantized targets,
	// the variable the marginals learned and were calibrated to
	// (calibrateScores), as the joint network's is (finishMulti); the
	// conformal distances and the coverage judged take the targets as
	// observed. Where no target is on a lattice the two are the same.
	for i := range rows {
		q[i] = copulaRegionDistance2(marg[i*d:(i+1)*d], c.fit.chol, z[i*d:(i+1)*d])
		fit[i] = copulaRegionDistance2(marg[i*d:(i+1)*d], c.fit.chol, dq[i*d:(i+1)*d])
	}
	c.scale, c.nu = calibrateRegion(fit, d, n)
	c.conformal, c.cover95 = jointConformalScores(q), cvCoverage95(fit, q, d, n)
	if joint {
		at := rowPositions(fits[0].cal.rows)
		c.jointNLL = 0
		c.rmse[LawJoint] = make([]float64, d)
		for _, r := range rows {
			c.jointNLL += fits[0].cal.nlls[at[r]] / float64(k)
			for j := range d {
				c.rmse[LawJoint][j] += fits[0].cal.sqErrs[j][at[r]]
			}
		}
	}
	for _, rmse := range c.rmse {
		for j, sum := range rmse {
			rmse[j] = math.Sqrt(sum / float64(k))
		}
	}
	return c
}

// keepsJoint reports whether the joint network is kept over the copula
// fitted beside it: where its cross-fitted joint NLL is not above the
// copula's and no target's RMSE under it exceeds the copula's by more
// than jointMeanTolerance (a NaN RMSE of the joint network's, or a
// copula's of 0 against one above it, counts as exceeding; a NaN one of
// the copula's does not, as a NaN copula NLL keeps the joint network).
func (c copulaFitted) keepsJoint() bool {
	if c.nll < c.jointNLL {
		return false
	}
	for j, e := range c.rmse[LawJoint] {
		if cop := c.rmse[LawCopula][j]; !(e <= jointMeanTolerance*cop) && !math.IsNaN(cop) {
			return false
		}
	}
	return true
}

// commonRows returns the rows of a that b holds too, in a's order.
func commonRows(a, b []int32) []int32 {
	in := rowPositions(b)
	return slices.DeleteFunc(slices.Clone(a), func(r int32) bool {
		_, ok := in[r]
		return !ok
	})
}

// rowPositions returns each row's position in rows.
func rowPositions(rows []int32) map[int32]int {
	at := make(map[int32]int, len(rows))
	for i, r := range rows {
		at[r] = i
	}
	return at
}

// copulaResult returns the AutoResult of a copula model over the
// one-target recipes fits, the choice law and the copula c
// (AutoResult.Law says which fields it fills, and how).
func copulaResult[T Float](fits []lawFit[T], law LawChoice, c copulaFitted) AutoResult {
	first := fits[0].res
	res := AutoResult{
		CVNLL: c.nll, CVCoverage95: c.cover95, CVRows: c.rows, CVFolds: first.CVFolds,
		VarScale: 1, CorrectedScale: c.scale, RegionNu: c.nu,
		SmallData: first.SmallData, TrainRows: first.TrainRows, ValRows: first.ValRows,
		Law: law, Margins: make([]AutoResult, len(fits)), Transforms: make([]TransformChoice, len(fits)),
	}
	for j, f := range fits {
		res.Margins[j], res.Transforms[j] = f.res, f.res.Transform
		res.Transform.Transform = max(res.Transform.Transform, f.res.Transform.Transform)
		if f.res.Quantum > 0 {
			if res.Quanta == nil {
				res.Quanta = make([]float64, len(fits))
			}
			res.Quanta[j] = f.res.Quantum
		}
	}
	return res
}
