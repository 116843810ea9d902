package gcp

import "math"

// The calibrated joint region of a model of several targets, the
// multivariate t t_ν(m, s·Σ̃) whose scale s and degrees of freedom ν
// AutoFit fits on rows the model neither trained on nor was chosen by.

// RegionScale returns the scale s of the model's calibrated joint region
// (1 for a model AutoFit did not calibrate): the calibrated predictive is
// the multivariate t of RegionNu() degrees of freedom, location Mean and
// scale matrix s·CovCorrected (the Gaussian N(Mean, s·CovCorrected) for
// RegionNu() = +Inf). Under target transforms (Model.TargetTransforms)
// the calibrated predictive is that t of z = g(y) mapped back, with
// Mean and CovCorrected those of z (Marginal(i).ZMean, the location),
// and the calibrated region its image.
//
// Under the copula the calibrated region measures the calibrated
// marginals' normal scores ũ_j = Φ⁻¹(F̃_j(y_j)), F̃_j the CDF of
// Marginal(j)'s calibrated predictive, by q̃ = ũᵀR⁻¹ũ, and the region of
// probability p is q̃/s ≤ d·F⁻¹(p) (CalibratedInside): in the targets as
// the marginals model them, z, the ellipsoid of the multivariate t of ν
// degrees of freedom, location ZMean and scale s·ZCovCorrected, as for
// the joint t, since the calibrated marginals are Gaussian in z.
func (p *MultiPrediction) RegionScale() float64 { return p.regionScale }

// RegionNu returns the degrees of freedom ν of the model's calibrated
// joint region, +Inf where it is the Gaussian: for a model AutoFit did
// not calibrate, one saved before the calibrated region had them, or one
// whose calibration rows were no heavier-tailed than the Gaussian's. Its
// region of probability p is CalibratedMahalanobis(y)² ≤ d·F⁻¹(p), F the
// F distribution of d and ν degrees of freedom (χ²_d(p) for ν = +Inf).
func (p *MultiPrediction) RegionNu() float64 { return p.regionNu }

// CalibratedMahalanobis returns the Mahalanobis distance of the target
// vector y from the mean under the calibrated scale matrix
// RegionScale()·CovCorrected: Mahalanobis(y)/√RegionScale(). A y of the
// wrong length gives NaN. Under the copula it is √(q̃/s), q̃ = ũᵀR⁻¹ũ of
// the calibrated marginals' scores (RegionScale), the distance under
// s·ZCovCorrected of z = g(y) from ZMean.
func (p *MultiPrediction) CalibratedMahalanobis(y []float64) float64 {
	return p.regionDistance(y) / math.Sqrt(p.regionScale)
}

// regionDistance returns the distance of the target vector y that the
// calibrated and conformal regions measure, before the region's scale:
// Mahalanobis(y) under the joint t, √q̃ of the calibrated marginals'
// scores under the copula (copulaRegionDistance2). NaN for a y of the
// wrong length.
func (p *MultiPrediction) regionDistance(y []float64) float64 {
	if !p.cop.on() {
		return p.Mahalanobis(y)
	}
	if len(y) != p.d {
		return math.NaN()
	}
	return math.Sqrt(copulaRegionDistance2(p.cop.marg, p.cop.chol, y))
}

// CalibratedInside reports whether the target vector y lies inside the
// calibrated central p-region, the ellipsoid of the calibrated t that
// holds probability p: CalibratedMahalanobis(y)² ≤ d·F⁻¹(p), F the F
// distribution of d and RegionNu() degrees of freedom (χ²_d(p) for the
// Gaussian). It returns ErrLevel for p outside (0, 1) and ErrShape for a
// y of the wrong length, and allocates nothing.
func (p *MultiPrediction) CalibratedInside(y []float64, prob float64) (bool, error) {
	if err := p.checkRegion(y, prob); err != nil {
		return false, err
	}
	q := p.CalibratedMahalanobis(y)
	return q*q <= mvtRegionRadius2(prob, p.d, p.regionNu), nil
}

// CalibratedLogPDF returns the log density at the target vector y of the
// calibrated predictive, the density whose regions CalibratedInside
// tests: ln t_ν(y | Mean, RegionScale()·CovCorrected) with ν = RegionNu(),
// the Gaussian's for ν = +Inf; under target transforms, in original
// units with the Jacobian, as LogPDF. It allocates nothing. A y of the
// wrong length gives NaN.
//
// Under the copula it is the density of the calibrated region's law, the
// law SampleCalibrated draws from and CalibratedInside's regions hold
// their probability under: in the targets as the marginals model them, z,
// the multivariate t of RegionNu degrees of freedom, location ZMean and
// scale RegionScale·ZCovCorrected, ZCovCorrected_ij = R_ij·√(Ṽ_i Ṽ_j)
// from the calibrated marginals' Gaussians N(ZMean_j, Ṽ_j), as for the
// joint t; in original units with the Jacobian. At RegionScale 1 and
// RegionNu +Inf it is the copula's density of the calibrated marginals,
// whose marginals are then the one-target models' calibrated
// predictives.
func (p *MultiPrediction) CalibratedLogPDF(y []float64) float64 {
	if len(y) != p.d {
		return math.NaN()
	}
	var buf [maxTargets]float64
	zy, jac, ok := p.toModeled(y, &buf)
	if !ok {
		return outsideDensity(y)
	}
	if p.cop.on() {
		return p.cop.regionLogPDF(zy, p.regionScale, p.regionNu) + jac
	}
	// The packed Cholesky factor of s·Σ̃: √(s/c)·L for a single network
	// (Σ̃ = S/c), √s times the mixture's own factor for an ensemble.
	var l [maxTargets * (maxTargets + 1) / 2]float64
	var z [maxTargets]float64
	nl := mvtPackedLen(p.d)
	f, src := math.Sqrt(p.regionScale), p.corrChol
	if p.members == 1 {
		f, src = math.Sqrt(p.regionScale/p.corr[0]), p.chol
	}
	for i, v := range src[:nl] {
		l[i] = f * v
	}
	return mvtLogDensity(zy, p.mean, l[:nl], p.regionNu, z[:p.d]) + jac
}
