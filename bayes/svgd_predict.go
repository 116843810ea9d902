package bayes

import (
	"math"

	"github.com/gcpnet/gcp"
)

// SVGDWorkspace holds the buffers of one goroutine's predictions. Create
// one per goroutine with SVGD.NewWorkspace; it must not be shared by
// goroutines at the same time.
type SVGDWorkspace struct {
	pass   *gcp.StackPass[float64]
	x, out []float64 // the standardized input row, and the particles' outputs
}

// NewWorkspace returns buffers for predicting with m, or with any SVGD of
// the same shape. For an SVGD that FitSVGD or UnmarshalBinary did not
// build it returns an empty workspace, with which Predict returns
// gcp.ErrShape.
func (m *SVGD) NewWorkspace() *SVGDWorkspace {
	if m == nil || m.stack == nil {
		return &SVGDWorkspace{}
	}
	pass, err := m.stack.NewPass(1)
	if err != nil { // cannot happen: one row of a validated Stack
		return &SVGDWorkspace{}
	}
	return &SVGDWorkspace{pass: pass, x: make([]float64, m.cfg.Inputs), out: make([]float64, m.cfg.Particles)}
}

// Predict returns the predictive distribution for the input row x of
// Inputs features, in the target's original units: the uniform mixture
// of the particles' Gaussians N(f_k(x), 1/γ_k), with Loss
// gcp.LossGaussianML, Members the number of particles and Components
// their Gaussians (DoF +Inf) when there are several, so that LogPDF, CDF,
// Quantile and Interval are the mixture's. By the law of total variance
// (the GCP paper's Sec. 6.2) VarAleatoric
// is the particles' mean noise variance, VarEpistemic the variance of
// their means, and Var = VarCorrected their sum; Alpha is +Inf, Beta and
// Nu 0. InputZ is the largest |x_j − mean_j|/sd_j over the features, with
// the training rows' means and standard deviations, and Disagreement
// √(VarEpistemic/min(VarAleatoric, s²)), s the training targets'
// standard deviation, as gcp.Prediction defines them.
//
// It returns gcp.ErrConfig for a nil model, gcp.ErrShape for a row of
// the wrong length, a workspace of another shape or a model not built by
// FitSVGD or UnmarshalBinary, and gcp.ErrNonFinite for a NaN or ±Inf in
// x or an input so extreme that a network or a variance overflows. It
// allocates nothing.
func (m *SVGD) Predict(ws *SVGDWorkspace, x []float64) (gcp.Prediction, error) {
	if m == nil {
		return gcp.Prediction{}, gcp.ErrConfig
	}
	if m.stack == nil || ws == nil || len(x) != m.cfg.Inputs || len(ws.x) != len(x) || len(ws.out) != m.cfg.Particles {
		return gcp.Prediction{}, gcp.ErrShape
	}
	for _, v := range x {
		if !finite(v) {
			return gcp.Prediction{}, gcp.ErrNonFinite
		}
	}
	m.standardizeInputs(ws.x, x)
	if err := m.stack.Forward(ws.pass, m.nets, ws.x, ws.out); err != nil {
		return gcp.Prediction{}, err
	}
	k := m.cfg.Particles
	pr := gcp.Prediction{Loss: gcp.LossGaussianML, Members: k, Alpha: math.Inf(1)}
	for _, v := range ws.x {
		pr.InputZ = max(pr.InputZ, math.Abs(v))
	}
	p := m.weights()
	for i, o := range ws.out {
		mean := m.yMean + m.yScale*o
		// σ_k = s/√γ_k, with γ_k the precision of standardized targets.
		sd := m.yScale * math.Exp(-m.theta[i*(p+2)+p]/2)
		pr.Mean += mean
		pr.VarAleatoric += sd * sd
		if k > 1 {
			pr.Components[i] = gcp.Component{Mean: mean, Scale: sd, DoF: math.Inf(1)}
		}
		if !finite(mean) || !(sd > 0 && sd <= math.MaxFloat64) {
			return gcp.Prediction{}, gcp.ErrNonFinite
		}
	}
	pr.Mean /= float64(k)
	pr.VarAleatoric /= float64(k)
	if k > 1 {
		for _, c := range pr.Components[:k] {
			pr.VarEpistemic += (c.Mean - pr.Mean) * (c.Mean - pr.Mean)
		}
		pr.VarEpistemic /= float64(k)
	}
	pr.Var = pr.VarAleatoric + pr.VarEpistemic
	pr.VarCorrected = pr.Var
	pr.Disagreement = math.Sqrt(pr.VarEpistemic / min(pr.VarAleatoric, m.yScale*m.yScale))
	if !finite(pr.Mean) || !(pr.Var > 0 && pr.Var <= math.MaxFloat64) {
		return gcp.Prediction{}, gcp.ErrNonFinite
	}
	return pr, nil
}
