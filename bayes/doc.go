// Package bayes implements the two Bayesian neural networks the GCP paper
// compares with (Gurevich & Stuke, Sec. 6), for regression: probabilistic
// backpropagation (PBP; FitPBP) and Stein variational gradient descent
// (SVGD; FitSVGD). They estimate the model's own (epistemic) uncertainty
// and a noise variance that does not depend on the input.
//
// A PBP model (Hernández-Lobato & Adams, "Probabilistic Backpropagation
// for Scalable Learning of Bayesian Neural Networks", ICML 2015) is a ReLU
// multi-layer perceptron whose weights are not point estimates but
// independent Gaussians N(m, v), with a Gamma posterior over the precision
// γ of the Gaussian noise on the targets and another over the precision λ
// of the Gaussian prior on the weights. Training is assumed density
// filtering (ADF): one training pair at a time, the moments of the
// network's output are propagated forward through the layers (the ReLU's
// output moments in closed form), the log marginal likelihood log Z of
// the target is differentiated with respect to every weight's mean and
// variance, and the posterior is replaced by the Gaussian whose moments
// match those of the posterior after seeing the pair. After each pass
// over the data the prior factors are refined by expectation propagation.
//
// An SVGD model (Liu & Wang, "Stein Variational Gradient Descent", NeurIPS
// 2016, its Bayesian neural network experiment) is a set of particles,
// each a ReLU network with its own noise and weight precisions under Gamma
// priors. Every step moves each particle along the kernel-weighted
// gradients of the log posterior of all particles plus a repulsion
// between them (an RBF kernel with the median-heuristic bandwidth), so
// that together they approximate the posterior. The particles' networks
// are the nets of one gcp.Stack: one matrix product per layer serves all
// of them, on the SIMD kernels of package gcp.
//
// Both models' predictions are ordinary gcp.Predictions with Loss
// gcp.LossGaussianML, so that every interval, density and evaluation
// routine of package gcp applies to them unchanged. PBP's is the Gaussian
// N(Mean, Var) whose variance is the expected noise variance
// (VarAleatoric) plus the output's variance under the weight posterior
// (VarEpistemic); SVGD's is the uniform mixture of its particles'
// Gaussians (Components), with the law of total variance's split.
// Prediction allocates nothing and is safe for concurrent use with one
// workspace per goroutine; a seed reproduces a model bit for bit on the
// same machine and build; bad input gets an error matchable with
// errors.Is against the sentinel errors of package gcp, never a panic.
// Models save and load in checksummed, versioned formats of their own
// (MarshalBinary, UnmarshalBinary).
package bayes
