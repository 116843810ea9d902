package gcp

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// A model of d ≥ 2 targets whose law is the Gaussian copula
// (docs/multivariate.md, Sec. 12): d one-target models, each a whole
// Model as the one-target recipe makes it (an ensemble, its transform,
// its calibration and conformal scores, its encoding), are its
// marginals, and the correlation matrix R of the normal scores
// u_j = Φ⁻¹(F_j(y_j)) joins them (copula.go). The model has no network
// of its own: Config is the first marginal's with Targets = d, NumParams
// the marginals' sum, and PredictMulti predicts each target by its
// marginal (MultiPrediction says how each method answers under the
// copula). What the marginals share, the model answers for: their
// feature names, ranges (the union of theirs) and encoding; its target
// names are the marginals' (FeatureNames: joined by commas, as a model of
// several targets names them), and TargetTransforms the marginals'
// transforms.
//
// It cannot be trained, standardized or recalibrated as a whole:
// NewTrainer, Calibrate, SetStandardization, SetVarScale, SetInputBound,
// SetTargetTransforms and SetFeatureNames return an error wrapping
// ErrConfig (its marginals were trained and calibrated each by the
// one-target recipe). SetEncoding gives each marginal the encoding with
// its own target's name (record.go), and SetCorrectedScale sets its
// calibrated region's scale, as for the joint t.

// newCopulaModel returns the model of the Gaussian copula of the
// one-target models margins (its targets in their order) with the
// correlation matrix R whose packed lower Cholesky factor, by rows, is
// corrChol (d(d+1)/2 values, each row of unit norm), its calibrated
// region's scale regionScale and degrees of freedom regionNu (+Inf for
// the Gaussian; calibrateRegion fits both to the squared distances
// copulaRegionDistance2 of rows the marginals did not train on) and the
// conformal calibration of that distance (jointConformalScores of the
// same rows; nil for none). The model holds margins as they are (not
// copies) and a copy of corrChol. Each marginal must be a one-target
// network model of the same Inputs, feature names and encoding (its
// other settings its own: the recipe searches each target's), whose
// Config with Targets = d is valid (LossGCP or LossGaussianML, learned
// α), with 2 ≤ d ≤ 16; R's factor finite, with a positive diagonal and
// rows of norm 1 within 1e-12; regionScale positive and finite,
// regionNu positive. Any other gives an error wrapping ErrConfig.
func newCopulaModel[T Float](margins []*Model[T], corrChol []float64, regionScale, regionNu float64, conformal *conformalScores) (*Model[T], error) {
	d := len(margins)
	if d < 2 || d > maxTargets {
		return nil, fmt.Errorf("%w: a copula of %d marginals, want 2 to %d", ErrConfig, d, maxTargets)
	}
	for j, g := range margins {
		if g == nil || g.lay == nil || g.margins != nil {
			return nil, fmt.Errorf("%w: marginal %d is nil, not built by New or a copula model", ErrConfig, j)
		}
		if err := copulaMarginConfig(g.cfg, margins[0].cfg.Inputs, d); err != nil {
			return nil, fmt.Errorf("marginal %d: %w", j, err)
		}
		switch {
		case !slices.Equal(g.featureNames, margins[0].featureNames):
			return nil, fmt.Errorf("%w: marginal %d's feature names differ from marginal 0's", ErrConfig, j)
		case !sameEncoding(g.ext.encoding, margins[0].ext.encoding):
			return nil, fmt.Errorf("%w: marginal %d's encoding differs from marginal 0's", ErrConfig, j)
		}
	}
	if err := checkCopulaFactor(corrChol, d); err != nil {
		return nil, err
	}
	switch {
	case !positiveFinite(regionScale):
		return nil, fmt.Errorf("%w: region scale %v, want positive and finite", ErrConfig, regionScale)
	case !(regionNu > 0):
		return nil, fmt.Errorf("%w: region degrees of freedom %v, want positive", ErrConfig, regionNu)
	}
	cfg := margins[0].cfg.withDefaults()
	cfg.Targets = d
	m := &Model[T]{cfg: cfg, k: kernelsFor[T](), margins: margins}
	m.ext.copula = &copulaLaw{chol: append([]float64(nil), corrChol...)}
	m.ext.region = &jointRegion{nu: regionNu, conformal: conformal}
	m.corrScale = regionScale
	m.deriveCopula()
	return m, nil
}

// copulaMarginConfig reports, as an error wrapping ErrConfig, a Config c
// that cannot be a marginal of a copula model of d targets and the given
// inputs: one of other inputs, of several targets, or one whose Config
// with Targets = d is not valid (a loss other than LossGCP and
// LossGaussianML, a fixed α), as Config.validate says.
func copulaMarginConfig(c Config, inputs, d int) error {
	if c.Inputs != inputs || c.targets() != 1 {
		return fmt.Errorf("%w: a marginal of %d inputs and %d targets, want %d inputs and one target", ErrConfig, c.Inputs, c.targets(), inputs)
	}
	c.Targets = d
	if err := c.validate(); err != nil {
		return fmt.Errorf("a marginal's Config with Targets = %d: %w", d, err)
	}
	return nil
}

// deriveCopula sets what a copula model m answers for from its marginals
// (m.margins, validated): its identity standardization, VarScale 1, the
// feature names, target names, ranges, encoding and target transforms.
// The file format keeps none of these: the loader derives them again.
func (m *Model[T]) deriveCopula() {
	d, in, g := len(m.margins), m.cfg.Inputs, m.margins[0]
	m.xMean, m.xScale, m.xInvScale = make([]float64, in), make([]float64, in), make([]float64, in)
	m.resetStandardization()
	m.ext.targets = identityTargets(d)
	m.varScale = 1
	names := make([]string, d)
	for j, h := range m.margins {
		names[j] = h.targetName
		m.ext.transforms[j] = h.ext.transform
	}
	m.targetName = ""
	if !slices.Contains(names, "") {
		m.targetName = strings.Join(names, ",")
	}
	m.featureNames = append([]string(nil), g.featureNames...)
	if g.featureNames == nil {
		m.featureNames = nil
	}
	if e := g.ext.encoding; e != nil {
		m.ext.encoding = newEncoding(m.targetName, e.columns)
	}
	m.xMin, m.xMax = nil, nil
	for _, h := range m.margins {
		if h.xMin == nil {
			return
		}
	}
	m.xMin, m.xMax = append([]float64(nil), g.xMin...), append([]float64(nil), g.xMax...)
	for _, h := range m.margins[1:] {
		for i := range m.xMin {
			m.xMin[i], m.xMax[i] = math.Min(m.xMin[i], h.xMin[i]), math.Max(m.xMax[i], h.xMax[i])
		}
	}
}

// checkCopulaFactor reports, as an error wrapping ErrConfig, a packed
// factor l that is not the lower Cholesky factor of a d×d correlation
// matrix: of the wrong length, not finite, a diagonal entry not positive
// or a row whose norm is not 1 within 1e-12.
func checkCopulaFactor(l []float64, d int) error {
	if len(l) != mvtPackedLen(d) {
		return fmt.Errorf("%w: R's factor has %d values, want %d for %d targets", ErrConfig, len(l), mvtPackedLen(d), d)
	}
	for i := range d {
		row := l[i*(i+1)/2 : i*(i+1)/2+i+1]
		var s float64
		for _, v := range row {
			if !finite(v) {
				return fmt.Errorf("%w: R's factor, row %d: %v", ErrConfig, i, v)
			}
			s += v * v
		}
		if !(row[i] > 0) || !(math.Abs(s-1) <= 1e-12) {
			return fmt.Errorf("%w: R's factor, row %d: diagonal %v, squared norm %v; want a positive diagonal and norm 1", ErrConfig, i, row[i], s)
		}
	}
	return nil
}

// errCopula returns the error of a method that does not apply to a
// model whose law is the Gaussian copula of one-target models.
func errCopula(method string) error {
	return fmt.Errorf("%w: %s does not apply to a model whose law is the Gaussian copula of one-target models (its marginals are trained, standardized and calibrated each by its own)", ErrConfig, method)
}

// sameEncoding reports whether a and b encode records alike (the same
// columns), both nil included.
func sameEncoding(a, b *Encoding) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(a.columns, b.columns)
}
