// Package bayes implements probabilistic backpropagation (PBP), the
// scalable Bayesian neural network of Hernández-Lobato & Adams,
// "Probabilistic Backpropagation for Scalable Learning of Bayesian Neural
// Networks" (ICML 2015), for regression.
//
// A PBP model is a ReLU multi-layer perceptron whose weights are not point
// estimates but independent Gaussians N(m, v), with a Gamma posterior over
// the precision γ of the Gaussian noise on the targets and another over the
// precision λ of the Gaussian prior on the weights. Training is assumed
// density filtering (ADF): one training pair at a time, the moments of the
// network's output are propagated forward through the layers (the ReLU's
// output moments in closed form), the log marginal likelihood log Z of the
// target is differentiated with respect to every weight's mean and
// variance, and the posterior is replaced by the Gaussian whose moments
// match those of the posterior after seeing the pair. After each pass over
// the data the prior factors are refined by expectation propagation.
//
// A model's predictions are ordinary gcp.Predictions with Loss
// gcp.LossGaussianML: the Gaussian N(Mean, Var) whose variance is the
// expected noise variance (VarAleatoric) plus the output's variance under
// the weight posterior (VarEpistemic), so that every interval, density
// and evaluation routine of package gcp applies to them unchanged.
// Prediction allocates nothing and is safe for concurrent use with one
// PBPWorkspace per goroutine; a seed reproduces a model bit for bit on the
// same machine and build; bad input gets an error matchable with
// errors.Is against the sentinel errors of package gcp, never a panic.
package bayes
