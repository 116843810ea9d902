package bayes

import "github.com/gcpnet/gcp"

// SVGD is a Bayesian neural network trained by Stein variational gradient
// descent (Liu & Wang, "Stein Variational Gradient Descent: A General
// Purpose Bayesian Inference Algorithm", NeurIPS 2016, Sec. 5's Bayesian
// neural network), the comparator of the GCP paper's Sec. 6: M particles,
// each a ReLU network f(x; W) giving the mean of a Gaussian target with
// its own noise precision γ and weight precision λ, moved together
// towards the posterior of the authors' model: a Gaussian likelihood of
// precision γ, N(0, 1/λ) priors on every weight and bias, and Gamma(1,
// 0.1) priors (shape, rate) on γ and λ, on standardized data. Where the
// paper is silent it follows the authors' code,
// DartML/Stein-Variational-Gradient-Descent, python/bayesian_nn.py.
//
// Its prediction is the uniform mixture of the particles' Gaussians
// N(f_k(x), 1/γ_k): a gcp.Prediction with Loss gcp.LossGaussianML and
// the particles as its Components. The noise variance is homoscedastic
// per particle (aleatoric) and the spread of the particles' means grows
// away from the data (epistemic).
//
// An SVGD is read-only once fitted: Predict is safe for concurrent use,
// one SVGDWorkspace per goroutine.
type SVGD struct {
	cfg   SVGDConfig
	stack *gcp.Stack[float64]
	// theta holds the particles, row k = (W, log γ, log λ) of particle k:
	// W in the order of gcp.Stack.Net, γ the noise precision of the
	// standardized targets.
	theta []float64
	nets  []float64 // the particles' networks stacked, for prediction
	// Standardization: feature j enters the networks as
	// (x_j − xMean[j])/xScale[j]; a network's output o means
	// yMean + yScale·o.
	xMean, xScale []float64
	yMean, yScale float64
}

// Config returns the model's configuration with the defaults filled in.
func (m *SVGD) Config() SVGDConfig {
	c := m.cfg
	c.Hidden = append([]int(nil), c.Hidden...)
	return c
}

// weights returns P, the parameters of one particle's network.
func (m *SVGD) weights() int { return m.stack.Params() / m.cfg.Particles }

// stackNets fills m.nets from the particles.
func (m *SVGD) stackNets() error {
	m.nets = make([]float64, m.stack.Params())
	return stackParticles(m.stack, m.theta, m.nets, m.cfg.Particles)
}
