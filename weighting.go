package gcp

import (
	"fmt"
	"math"
)

// Scale weighting. The GCP update moves the mean at each sample by
// ∂K/∂m = (α+½)(m−y)/(σ + (m−y)²/2) (paper, Eq. (3.4)): in proportion to
// the predicted precision. Where the network predicts a large variance —
// at hard inputs, where the mean is still wrong — the mean learns slowly,
// and it stays wrong: the pitfall of every likelihood-trained
// heteroscedastic network (Seitzer et al., "On the pitfalls of
// heteroscedastic uncertainty estimation with probabilistic neural
// networks", ICLR 2022). TrainConfig.ScaleWeighting = b multiplies each
// sample's gradient, of every head, by w = (s²)^b, where s² is the
// squared scale of its predictive (β(ν+1)/(να) for the Student t of
// LossGCP, the variance for the Gaussian losses), treated as a constant
// (their β-NLL; b = ½ is their recommendation) and divided by the mean of
// w over the minibatch, so that the step size does not drift as the
// variances shrink. A weight that depends on the sample only through the
// prediction at its input moves no equilibrium: at each input x, the
// mean still settles at E[y|x] (paper, Theorem 3.1) and α, β, ν
// where their own updates vanish; what changes is how much each input's
// error weighs against the others' while the shared weights learn. The
// paper's experiments are b = 0, the default of a Trainer; AutoFit's
// default is ½ (AutoOptions.ScaleWeightings).

// maxScaleWeighting bounds TrainConfig.ScaleWeighting: at b = 1 a sample's
// mean gradient is already its residual, as for squared error, and beyond
// it the hard samples would outweigh the rest.
const maxScaleWeighting = 1

// checkScaleWeighting returns an error wrapping ErrConfig for an exponent
// outside [0, maxScaleWeighting].
func checkScaleWeighting(b float64) error {
	if !(b >= 0 && b <= maxScaleWeighting) {
		return fmt.Errorf("%w: ScaleWeighting = %v, want [0, %d]", ErrConfig, b, maxScaleWeighting)
	}
	return nil
}

// scaleWeights turns the squared scales s2 of one member's predictives
// into the weights (s²)^b divided by their mean, in place: b = ½, the
// common case, is a square root.
func scaleWeights(s2 []float64, b float64) {
	var sum float64
	for i, v := range s2 {
		w := math.Sqrt(v)
		if b != 0.5 {
			w = math.Pow(v, b)
		}
		s2[i] = w
		sum += w
	}
	// A sum that is not positive and finite (a variance that overflowed)
	// leaves the step unweighted rather than spreading NaN through it;
	// the step's own checks judge the gradient.
	if !positiveFinite(sum) {
		for i := range s2 {
			s2[i] = 1
		}
		return
	}
	inv := float64(len(s2)) / sum
	for i := range s2 {
		s2[i] *= inv
	}
}

// weightGradients multiplies each of the gradients gs, one value per
// sample, by the samples' weights w; a nil gradient (the α head's, with
// a fixed α) is skipped.
func weightGradients[T Float](w []float64, gs ...[]T) {
	for _, g := range gs {
		if g == nil {
			continue
		}
		for i := range w {
			g[i] = T(float64(g[i]) * w[i])
		}
	}
}
