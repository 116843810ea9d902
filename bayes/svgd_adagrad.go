package bayes

import "math"

// The authors' "adagrad with momentum" (bayesian_nn.py): an exponential
// moving average of the squared directions, started at the first one,
// divides each step, so that every parameter moves by about the master
// step size. (It is RMSprop, despite the name.)
const (
	svgdAutoCorr = 0.9  // auto_corr, the average's weight on the past
	svgdFudge    = 1e-6 // fudge_factor, added to the root of the average
)

// svgdAdaGrad is the state of the authors' AdaGrad over a parameter
// vector.
type svgdAdaGrad struct {
	hist    []float64 // historical_grad: the moving average of φ²
	started bool
}

// step moves theta by lr·φ/(fudge + √hist) after folding φ² into hist:
// hist = φ² at the first step, then hist = 0.9·hist + 0.1·φ². SVGD
// ascends, so the step is added.
func (a *svgdAdaGrad) step(theta, phi []float64, lr float64) {
	hist := a.hist[:len(theta)]
	phi = phi[:len(theta)]
	if !a.started {
		for i, g := range phi {
			hist[i] = g * g
		}
		a.started = true
	} else {
		for i, g := range phi {
			hist[i] = svgdAutoCorr*hist[i] + (1-svgdAutoCorr)*g*g
		}
	}
	for i, g := range phi {
		theta[i] += lr * g / (svgdFudge + math.Sqrt(hist[i]))
	}
}
