package bayes

import (
	"math"

	"github.com/gcpnet/gcp"
)

// Predict returns the model's posterior predictive for the input row x,
// in the original units of the targets: the Gaussian
// N(Mean, Var) of the PBP paper's predictive, whose mean and epistemic
// variance VarEpistemic are the moments of the network's output under the
// weight posterior (propagate) and whose aleatoric variance VarAleatoric is
// the expected noise variance E[1/γ] = b/(a−1) of the noise precision's
// Gamma posterior, as in the authors' code (network.c, predict:
// v_noise = b_noise/(a_noise − 1)).
//
// The result is an ordinary gcp.Prediction with Loss gcp.LossGaussianML
// and Members 1, so that its LogPDF, CDF, Quantile and Interval, and the
// Calibrated ones, are those of N(Mean, Var): Var = VarCorrected =
// VarAleatoric + VarEpistemic, Alpha is +Inf and Beta and Nu are 0.
// InputZ is the largest |x_j − mean_j|/sd_j with the mean and standard
// deviation of feature j in the training data, and Disagreement is
// √(VarEpistemic / min(VarAleatoric, s²)), s the targets' standard
// deviation, the model's own uncertainty in units of the noise as
// gcp.Prediction documents it.
//
// ws must come from NewWorkspace of a model of this shape; it is
// overwritten. Predict allocates nothing and may be called from many
// goroutines at once, each with its own PBPWorkspace. It returns
// gcp.ErrShape for a wrong len(x) or a PBPWorkspace of another shape,
// gcp.ErrNonFinite for a NaN or an infinity in x or a prediction that
// overflows float64, unwrapped so that the error costs no allocation.
func (m *PBP) Predict(ws *PBPWorkspace, x []float64) (gcp.Prediction, error) {
	if len(x) != m.cfg.Inputs || !ws.fits(m) {
		return gcp.Prediction{}, gcp.ErrShape
	}
	in := ws.input(m)
	var inputZ float64
	for j, v := range x {
		in[j] = (v - m.xMean[j]) / m.xScale[j]
		inputZ = max(inputZ, math.Abs(in[j]))
	}
	if !finite(inputZ) {
		return gcp.Prediction{}, gcp.ErrNonFinite
	}
	mu, s2 := m.propagate(ws)
	unit := m.yScale * m.yScale
	p := gcp.Prediction{
		Loss:         gcp.LossGaussianML,
		Mean:         m.yMean + m.yScale*mu,
		VarAleatoric: unit * m.noiseB / (m.noiseA - 1),
		VarEpistemic: unit * s2,
		Alpha:        math.Inf(1),
		InputZ:       inputZ,
		Members:      1,
	}
	p.Var = p.VarAleatoric + p.VarEpistemic
	p.VarCorrected = p.Var
	p.Disagreement = math.Sqrt(p.VarEpistemic / min(p.VarAleatoric, unit))
	if !finite(p.Mean) || !finite(p.Var) || !finite(p.Disagreement) {
		return gcp.Prediction{}, gcp.ErrNonFinite
	}
	return p, nil
}
