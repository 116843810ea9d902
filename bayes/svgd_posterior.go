package bayes

import (
	"math"

	"github.com/gcpnet/gcp"
)

// The authors' model (bayesian_nn.py, after Hernández-Lobato & Adams):
//
//	p(y | W, X, γ) = Π_i N(y_i | f(x_i; W), 1/γ)
//	p(W | λ)       = Π_w N(w | 0, 1/λ)
//	p(γ), p(λ)     = Gamma(a0, b0), shape a0 and rate b0,
//
// with every weight and bias of the network in W, on standardized data.
// A particle is θ = (W, log γ, log λ): the precisions are updated in the
// log domain, which keeps them positive, and their log priors then carry
// the Jacobian, + log γ and + log λ.
const (
	svgdPriorShape = 1   // a0
	svgdPriorRate  = 0.1 // b0
)

// svgdPosterior evaluates the gradient of the log posterior of every
// particle on a minibatch, their networks stacked in one gcp.Stack so
// that one pass per layer serves all of them.
type svgdPosterior struct {
	stack     *gcp.Stack[float64]
	pass      *gcp.StackPass[float64]
	weights   int       // P: the parameters of one network; a particle has P + 2
	nets      []float64 // the particles' networks, stacked
	grad      []float64 // the gradient of Σ dOut·out with respect to nets
	out, dOut []float64 // particles × rows: the networks' outputs and the loss's gradient
}

// newSVGDPosterior returns the buffers of m particles' networks in stack
// for minibatches of up to rows rows.
func newSVGDPosterior(stack *gcp.Stack[float64], m, rows int) (*svgdPosterior, error) {
	pass, err := stack.NewPass(rows)
	if err != nil {
		return nil, err
	}
	return &svgdPosterior{
		stack: stack, pass: pass, weights: stack.Params() / m,
		nets: make([]float64, stack.Params()), grad: make([]float64, stack.Params()),
		out: make([]float64, m*rows), dOut: make([]float64, m*rows),
	}, nil
}

// particles returns how many particles the posterior holds.
func (q *svgdPosterior) particles() int { return len(q.nets) / q.weights }

// stackParticles copies the networks of the particles theta (rows of
// P + 2, P = len(nets)/particles) into nets, stack's buffer.
func stackParticles(stack *gcp.Stack[float64], theta, nets []float64, particles int) error {
	p := len(nets) / particles
	for k := range particles {
		if err := stack.SetNet(nets, k, theta[k*(p+2):k*(p+2)+p]); err != nil {
			return err
		}
	}
	return nil
}

// forward loads the particles theta and runs their networks on the n
// rows of x; net k's outputs are then q.out[k·n : (k+1)·n].
func (q *svgdPosterior) forward(theta, x []float64, n int) error {
	if err := stackParticles(q.stack, theta, q.nets, q.particles()); err != nil {
		return err
	}
	return q.stack.Forward(q.pass, q.nets, x, q.out[:q.particles()*n])
}

// score writes to score (particles × (P+2), as theta) the gradient of the
// log posterior of every particle of theta given the minibatch (x, y) of
// n = len(y) rows, whose log likelihood is scaled by total/n to estimate
// that of the whole training set of total rows (log_lik_data·N/X.shape[0]
// in bayesian_nn.py). With r_i = f(x_i) − y_i:
//
//	∂/∂W     = −(total/n)·γ·Σ_i r_i·∂f(x_i)/∂W − λ·W
//	∂/∂log γ = total/2 − (total/n)·(γ/2)·Σ_i r_i² + (a0 − 1) − b0·γ + 1
//	∂/∂log λ = P/2 − (λ/2)·‖W‖² + (a0 − 1) − b0·λ + 1
//
// It returns gcp.ErrNonFinite if a network output or a precision
// overflows.
func (q *svgdPosterior) score(theta, x, y []float64, total int, score []float64) error {
	n, m, p := len(y), q.particles(), q.weights
	if err := q.forward(theta, x, n); err != nil {
		return err
	}
	scale := float64(total) / float64(n)
	for k := range m {
		row := score[k*(p+2) : (k+1)*(p+2)]
		gamma := math.Exp(theta[k*(p+2)+p])
		var sse float64
		for i, f := range q.out[k*n : (k+1)*n] {
			r := f - y[i]
			sse += r * r
			q.dOut[k*n+i] = -scale * gamma * r
		}
		row[p] = float64(total)/2 - scale*gamma/2*sse + (svgdPriorShape - 1) - svgdPriorRate*gamma + 1
	}
	clear(q.grad)
	if err := q.stack.Backward(q.pass, q.nets, q.dOut[:m*n], q.grad); err != nil {
		return err
	}
	for k := range m {
		row := score[k*(p+2) : (k+1)*(p+2)]
		if err := q.stack.Net(q.grad, k, row[:p]); err != nil {
			return err
		}
		w := theta[k*(p+2) : k*(p+2)+p]
		lambda := math.Exp(theta[k*(p+2)+p+1])
		var ww float64
		for j, v := range w {
			ww += v * v
			row[j] -= lambda * v
		}
		row[p+1] = float64(p)/2 - lambda/2*ww + (svgdPriorShape - 1) - svgdPriorRate*lambda + 1
	}
	return nil
}

// meanSquaredErrors writes to mse the mean squared residual of every
// particle's network of theta on the rows (x, y), in passes of as many
// rows as the posterior's buffers hold.
func (q *svgdPosterior) meanSquaredErrors(theta, x, y, mse []float64) error {
	m := q.particles()
	d, rows := len(x)/len(y), len(q.out)/m
	clear(mse)
	for start := 0; start < len(y); start += rows {
		n := min(rows, len(y)-start)
		if err := q.forward(theta, x[start*d:(start+n)*d], n); err != nil {
			return err
		}
		for k := range m {
			for i, f := range q.out[k*n : (k+1)*n] {
				r := f - y[start+i]
				mse[k] += r * r
			}
		}
	}
	for k := range mse {
		mse[k] /= float64(len(y))
	}
	return nil
}
