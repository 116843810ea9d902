package bayes

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp"
)

// The second PCG words of FitSVGD's generators, one per purpose, so that
// one seed gives independent streams: the fractional bits of √13 and √19.
const (
	svgdShuffleStream = 0x9b05688c2b3e6c1f // the order of the rows, and so the development split
	svgdInitStream    = 0x5be0cd19137e2179 // the initial particles and their subsample
)

// The authors' development split (bayesian_nn.py): the last 10% of the
// training rows, at most 500, are held out of training to set each
// particle's noise precision at the end (tuneNoise).
const (
	svgdDevShare = 0.1
	svgdDevMax   = 500
)

// FitSVGD trains an SVGD on the rows of x (row-major, cfg.Inputs features
// each) and their targets y. The rows are shuffled by cfg.Seed; the last
// tenth of them (at most 500; none for fewer than 5 rows) is the development split
// that sets the particles' noise precisions, and the rest trains them.
// Inputs and targets are standardized from the training rows by
// cfg.Standardization (the median and the scaled interquartile range by
// default; the mean and standard deviation with MeanSD), and predictions
// are mapped back.
//
// An invalid cfg gives an error wrapping gcp.ErrConfig, no rows
// gcp.ErrBatch, len(x) ≠ Inputs·len(y) gcp.ErrShape, and a NaN or ±Inf in
// the data, a target scale that predictions could not map back (outside
// [2⁻²⁵⁶, 2²⁵⁶], as gcp.Trainer.Fit refuses it), a column that overflows
// once standardized, or training that overflows, gcp.ErrNonFinite.
func FitSVGD(cfg SVGDConfig, x, y []float64) (*SVGD, error) {
	return FitSVGDContext(context.Background(), cfg, x, y)
}

// FitSVGDContext is FitSVGD, stopped by ctx: it checks ctx before every
// iteration, and once ctx is done returns no model and an error wrapping
// ctx.Err(), after at most the iteration under way.
func FitSVGDContext(ctx context.Context, cfg SVGDConfig, x, y []float64) (*SVGD, error) {
	cfg = cfg.withDefaults()
	stack, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	if err := checkData(cfg.Inputs, x, y); err != nil {
		return nil, err
	}
	d := cfg.Inputs
	perm := rand.New(rand.NewPCG(cfg.Seed, svgdShuffleStream)).Perm(len(y))
	xp, yp := make([]float64, len(x)), make([]float64, len(y))
	for i, row := range perm {
		copy(xp[i*d:(i+1)*d], x[row*d:(row+1)*d])
		yp[i] = y[row]
	}
	nTrain := len(y) - min(int(math.Round(svgdDevShare*float64(len(y)))), svgdDevMax)
	m := &SVGD{cfg: cfg, stack: stack}
	if err := m.learnStandardization(xp[:nTrain*d], yp[:nTrain]); err != nil {
		return nil, err
	}
	xs, ys := make([]float64, len(x)), make([]float64, len(y))
	m.standardizeInputs(xs, xp)
	m.standardizeTargets(ys, yp)
	t, err := newSVGDTrainer(m, xs[:nTrain*d], ys[:nTrain])
	if err != nil {
		return nil, err
	}
	if err := t.initParticles(rand.New(rand.NewPCG(cfg.Seed, svgdInitStream))); err != nil {
		return nil, err
	}
	for i := range cfg.Iterations {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("bayes: SVGD stopped after %d iterations: %w", i, err)
		}
		if err := t.step(); err != nil {
			return nil, fmt.Errorf("training diverged: %w", err)
		}
	}
	// The authors' "model selection by using a development set": they
	// replace each particle's γ by 1/(mean squared residual on the split)
	// when that gives the split a higher likelihood than the trained γ.
	// As it is the maximum-likelihood precision of the split given the
	// particle's means, it always does (unless equal), so we set it
	// without the comparison. (Theirs also mixes units: the trained γ is
	// a precision of standardized targets, their residuals are in
	// original units. Ours are all standardized.)
	if nTrain < len(y) {
		if err := t.setNoise(xs[nTrain*d:], ys[nTrain:]); err != nil {
			return nil, err
		}
	}
	for _, v := range t.theta {
		if !finite(v) {
			return nil, fmt.Errorf("%w: training diverged", gcp.ErrNonFinite)
		}
	}
	m.theta = t.theta
	if err := m.stackNets(); err != nil {
		return nil, err
	}
	return m, nil
}

// svgdTrainer is the state of FitSVGD's loop.
type svgdTrainer struct {
	m      *SVGD
	post   *svgdPosterior
	stein  *steinKernel
	opt    svgdAdaGrad
	theta  []float64 // particles × (P+2): the particles
	score  []float64 // their log posterior's gradients
	phi    []float64 // their SVGD direction
	x, y   []float64 // the standardized training rows
	xb, yb []float64 // the minibatch
	next   int       // the training row the next minibatch starts at
}

// newSVGDTrainer returns the loop's state for the standardized training
// rows (x, y), with zero particles. A minibatch is cfg.BatchSize rows, or
// all of them if there are fewer.
func newSVGDTrainer(m *SVGD, x, y []float64) (*svgdTrainer, error) {
	batch := min(m.cfg.BatchSize, len(y))
	post, err := newSVGDPosterior(m.stack, m.cfg.Particles, batch)
	if err != nil {
		return nil, err
	}
	n := m.cfg.Particles * (post.weights + 2)
	return &svgdTrainer{
		m: m, post: post, stein: newSteinKernel(m.cfg.Particles, post.weights+2),
		opt:   svgdAdaGrad{hist: make([]float64, n)},
		theta: make([]float64, n), score: make([]float64, n), phi: make([]float64, n),
		x: x, y: y, xb: make([]float64, batch*m.cfg.Inputs), yb: make([]float64, batch),
	}, nil
}

// step takes one SVGD step on the next minibatch. The minibatches walk
// the training rows in order and wrap around, as the authors' do (row
// i mod N of iteration t's rows t·B … (t+1)·B − 1), but without
// repeating a row inside one minibatch when there are fewer rows than
// BatchSize (then every minibatch is the whole set).
func (t *svgdTrainer) step() error {
	d, n, rows := t.m.cfg.Inputs, len(t.yb), len(t.y)
	for i := range n {
		r := (t.next + i) % rows
		copy(t.xb[i*d:(i+1)*d], t.x[r*d:(r+1)*d])
		t.yb[i] = t.y[r]
	}
	t.next = (t.next + n) % rows
	if err := t.post.score(t.theta, t.xb, t.yb, rows, t.score); err != nil {
		return err
	}
	t.stein.direction(t.theta, t.score, t.phi)
	t.opt.step(t.theta, t.phi, t.m.cfg.LearningRate)
	return nil
}
