package bayes

import (
	"math"
	"testing"

	"github.com/gcpnet/gcp"
)

// svgdLogPosterior returns the authors' log posterior (bayesian_nn.py's
// log_posterior, constants included) of the one-particle θ on the
// minibatch (x, y) of a training set of total rows, with the network's
// outputs from a one-net gcp.Stack.
func svgdLogPosterior(t *testing.T, stack *gcp.Stack[float64], theta, x, y []float64, total int) float64 {
	t.Helper()
	p := stack.Params()
	ps, err := stack.NewPass(len(y))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(y))
	if err := stack.Forward(ps, theta[:p], x, out); err != nil {
		t.Fatal(err)
	}
	logGamma, logLambda := theta[p], theta[p+1]
	gamma, lambda := math.Exp(logGamma), math.Exp(logLambda)
	n := float64(len(y))
	var sse, ww float64
	for i, f := range out {
		sse += (f - y[i]) * (f - y[i])
	}
	for _, w := range theta[:p] {
		ww += w * w
	}
	const a0, b0 = 1, 0.1
	logLik := -0.5*n*(math.Log(2*math.Pi)-logGamma) - gamma/2*sse
	logPriorData := (a0-1)*logGamma - b0*gamma + logGamma
	logPriorW := -0.5*float64(p)*(math.Log(2*math.Pi)-logLambda) - lambda/2*ww + (a0-1)*logLambda - b0*lambda + logLambda
	return logLik*float64(total)/n + logPriorData + logPriorW
}

// TestSVGDOneParticle checks that SVGD with one particle is gradient
// ascent on the log posterior with the authors' AdaGrad: the kernel of a
// particle with itself is 1 and its gradient 0, so φ is the score, and
// the first step is lr·φ/(10⁻⁶ + √φ²).
//
// The score is checked against central differences of the log posterior
// written out as the authors do (svgdLogPosterior), with h = 10⁻⁶: the
// difference's error is about ε·|log p|/h ≈ 1e-7 for |log p| ≈ 500,
// plus h²·f‴/6, small at the seeded point away from the ReLU kinks;
// 1e-5·(1 + |g|) is well above both. The direction forms
// (s − c·x) + c·x, c = 2/h: φ equals the score up to rounding at the
// scale of c·|x|, 1e-14·(|s| + c·|x|). The step is then checked bit for
// bit, being the same operations on the same φ.
func TestSVGDOneParticle(t *testing.T) {
	tr := svgdTestTrainer(t, 1, 30)
	theta0 := append([]float64(nil), tr.theta...)
	if err := tr.step(); err != nil {
		t.Fatal(err)
	}
	const h = 1e-6
	x, y := tr.xb, tr.yb // the first minibatch: rows 0..9, which step left in place
	c := 2 / newSteinKernel(1, len(theta0)).bandwidth(theta0)
	theta := append([]float64(nil), theta0...)
	for i := range theta {
		v := theta[i]
		theta[i] = v + h
		up := svgdLogPosterior(t, tr.m.stack, theta, x, y, len(tr.y))
		theta[i] = v - h
		down := svgdLogPosterior(t, tr.m.stack, theta, x, y, len(tr.y))
		theta[i] = v
		fd := (up - down) / (2 * h)
		if s := tr.score[i]; math.Abs(s-fd) > 1e-5*(1+math.Abs(s)) {
			t.Errorf("∂log p/∂θ[%d] = %.10g, finite difference %.10g", i, s, fd)
		}
		if phi, s := tr.phi[i], tr.score[i]; math.Abs(phi-s) > 1e-14*(math.Abs(s)+c*math.Abs(v)) {
			t.Errorf("φ[%d] = %.17g, score %.17g", i, phi, s)
		}
		phi := tr.phi[i]
		if want := v + tr.m.cfg.LearningRate*phi/(svgdFudge+math.Sqrt(phi*phi)); tr.theta[i] != want {
			t.Errorf("θ[%d] = %.17g after the step, AdaGrad %.17g", i, tr.theta[i], want)
		}
	}
}
