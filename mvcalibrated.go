package gcp

import (
	"fmt"
	"math"
)

// The calibrated joint region of a model of several targets, the
// Gaussian N(m, c·Σ̃) whose scalar c AutoFit fits on rows the model
// neither trained on nor was chosen by.

// RegionScale returns the calibration scale c of the model's joint region
// (1 for a model AutoFit did not calibrate): the calibrated predictive is
// the Gaussian N(Mean, c·CovCorrected), whose region of probability p is
// CalibratedMahalanobis(y)² ≤ χ²_d(p).
func (p *MultiPrediction) RegionScale() float64 { return p.regionScale }

// CalibratedMahalanobis returns the Mahalanobis distance of the target
// vector y from the mean under the calibrated covariance
// RegionScale()·CovCorrected: Mahalanobis(y)/√RegionScale(). A y of the
// wrong length gives NaN.
func (p *MultiPrediction) CalibratedMahalanobis(y []float64) float64 {
	return p.Mahalanobis(y) / math.Sqrt(p.regionScale)
}

// CalibratedInside reports whether the target vector y lies inside the
// calibrated central p-region, the ellipsoid
// CalibratedMahalanobis(y)² ≤ χ²_d(p) of N(Mean, RegionScale()·CovCorrected).
// It returns ErrLevel for p outside (0, 1) and ErrShape for a y of the
// wrong length.
func (p *MultiPrediction) CalibratedInside(y []float64, prob float64) (bool, error) {
	if !(prob > 0 && prob < 1) {
		return false, fmt.Errorf("%w: p = %v", ErrLevel, prob)
	}
	if len(y) != p.d {
		return false, fmt.Errorf("%w: %d targets, the prediction has %d", ErrShape, len(y), p.d)
	}
	q := p.CalibratedMahalanobis(y)
	return q*q <= mvtRegionRadius2(prob, p.d, math.Inf(1)), nil
}
