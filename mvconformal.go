package gcp

import "fmt"

// ConformalInside reports whether the target vector y lies inside the
// conformal joint region of level prob: Mahalanobis(y) ≤ r, r the
// ⌈(n+1)·prob⌉-th smallest Mahalanobis distance under CovCorrected of the
// n rows of the model's conformal calibration (of many rows the model
// keeps a subset, and r is its distance just above that rank). The
// region is the ellipsoid of CovCorrected's shape through that row; it
// does not depend on the calibrated region's scale or degrees of
// freedom, nor on the small-data widening.
//
// What it guarantees is what the one-target conformal interval
// (Model.ConformalInterval) guarantees, with the distance in place of the
// normalized residual. If the calibration rows and a new row are
// exchangeable and the model that scores them did not train on any of
// them, the new row's distance is equally likely to take any rank among
// the n+1, so it is inside with probability at least
// ⌈(n+1)·prob⌉/(n+1) ≥ prob (split conformal: Lei et al. 2018, Theorem
// 2.2), whatever the law of the targets and however wrong the model's
// mean, covariance or tails. This is marginal coverage, over the new
// row and the calibration rows together, not coverage at a given input.
// AutoFit takes the calibration rows from the calibration half of a large
// hold-out, which the returned model did not train on (then the guarantee
// holds as stated, given the hyperparameters, which the search chose on
// the other half), or else from its cross-fitted predictions, each row
// scored by a fold model that did not train on it: then the guarantee
// holds exactly for a fold model and its held-out rows (given the
// hyperparameters, which the search chose on the same rows), and the
// returned model, fitted with the same settings on more rows, keeps it
// to the extent that its distances on new data are no larger than the
// fold models' on their held-out rows. That is the "CV" method of Barber
// et al. (2021), not their CV+, whose bound of 1 − 2α needs the fold
// models themselves at prediction time.
//
// It returns ErrLevel for prob outside (0, 1) and for a level so high
// that the calibration rows cannot bound the region (⌈(n+1)·prob⌉ > n:
// with 99 rows, any level above 0.99), ErrShape for a y of the wrong
// length, and ErrNoConformal for a model without a conformal calibration
// of its joint region (one AutoFit did not calibrate, or saved before
// the joint region had one). It allocates nothing unless it returns an
// error.
//
// Under the copula the distance is the calibrated region's, √q̃ of the
// calibrated marginals' normal scores (RegionScale), and the region is
// {y : √q̃ ≤ r}: in z the ellipsoid of ZCovCorrected's shape.
func (p *MultiPrediction) ConformalInside(y []float64, prob float64) (bool, error) {
	r, err := p.ConformalRadius(prob)
	if err != nil {
		return false, err
	}
	if len(y) != p.d {
		return false, fmt.Errorf("%w: %d targets, the prediction has %d", ErrShape, len(y), p.d)
	}
	return p.regionDistance(y) <= r, nil
}

// ConformalRadius returns the Mahalanobis distance under CovCorrected
// that bounds the conformal joint region of level prob, the r of
// ConformalInside, with its errors: ErrLevel for prob outside (0, 1) or
// beyond what the calibration rows can bound, ErrNoConformal for a model
// without a conformal calibration of its joint region.
func (p *MultiPrediction) ConformalRadius(prob float64) (float64, error) {
	switch {
	case !(prob > 0 && prob < 1):
		return 0, fmt.Errorf("%w: p = %v", ErrLevel, prob)
	case p.conformal == nil:
		return 0, ErrNoConformal
	}
	if p.conformal.rank(prob) > float64(p.conformal.n) {
		return 0, fmt.Errorf("%w: p = %v needs more than the %d calibration rows (at most %v)", ErrLevel, prob, p.conformal.n, float64(p.conformal.n)/float64(p.conformal.n+1))
	}
	return p.conformal.quantile(prob), nil
}
