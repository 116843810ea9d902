package bayes

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp"
)

// The Gamma(a, b) priors of the noise precision γ and of the weights'
// prior precision λ, both Gamma(6, 6), as in the authors' code (prior.py:
// 2·n_samples with n_samples = 3 pseudo-observations of unit variance;
// network.c, init_network): a prior mean of 1 on the precision of
// standardized targets and of the weights.
const (
	priorShape = 6
	priorRate  = 6
)

// The PCG streams of a model's random numbers, each seeded with
// PBPConfig.Seed: one for the initial weight means and one per epoch for its
// order of the training rows, so that training n epochs and then m more
// gives the same model as n+m at once.
const (
	initStream    = 0
	shuffleStream = 1 << 32 // + the number of epochs trained before
)

// PBP is a Bayesian neural network trained by PBP: a factorized
// Gaussian posterior over its weights and Gamma posteriors over the noise
// and prior precisions, with the standardization of its training data.
// Create one with Fit or UnmarshalBinary. Predict may be called from many
// goroutines at once; Train and UnmarshalBinary must not run concurrently
// with anything else on the same PBP.
type PBP struct {
	cfg PBPConfig
	lay layout
	// mean and variance are the posterior N(mean, variance) of every
	// weight, in the order of layout; mHat, vHat, aHat and bHat the
	// natural parameters of each weight's approximate prior factor
	// (refinePrior). All six are views into buf, one contiguous buffer.
	mean, variance, mHat, vHat, aHat, bHat []float64
	buf                                    []float64
	noiseA, noiseB                         float64 // Gamma posterior of the noise precision γ
	priorA, priorB                         float64 // Gamma posterior of the weights' prior precision λ
	epochs                                 int     // epochs trained, which picks the next one's shuffle stream
	// The standardization of inputs and targets learned from Fit's data
	// (by PBPConfig.Standardization: xMean and yMean are centres, medians
	// or means): the network sees (x − xMean)/xScale and predicts
	// (y − yMean)/yScale.
	xMean, xScale []float64
	yMean, yScale float64
}

// newModel returns an untrained model of shape cfg, already validated,
// with its buffers allocated and everything else zero.
func newModel(cfg PBPConfig) *PBP {
	m := &PBP{cfg: cfg, lay: newLayout(cfg.Inputs, cfg.Hidden)}
	p, d := m.lay.params(), cfg.Inputs
	var v [][]float64
	m.buf, v = carve(p, p, p, p, p, p, d, d)
	m.mean, m.variance, m.mHat, m.vHat, m.aHat, m.bHat, m.xMean, m.xScale = v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	return m
}

// Fit trains a PBP model of shape cfg on the row-major inputs x
// (len(y) rows of cfg.Inputs features) and the targets y: it learns the
// standardization of both from the data (cfg.Standardization), draws the
// initial weights from cfg.Seed and makes cfg.Epochs passes over the
// rows.
//
// Errors wrap gcp.ErrConfig for an invalid cfg, gcp.ErrBatch for no
// rows, gcp.ErrShape for len(x) ≠ cfg.Inputs·len(y) and gcp.ErrNonFinite
// for a NaN or an infinity in x or y, a target scale that predictions
// could not map back (outside [2⁻²⁵⁶, 2²⁵⁶], as gcp.Trainer.Fit refuses
// it) or a column that overflows once standardized.
func FitPBP(cfg PBPConfig, x, y []float64) (*PBP, error) {
	return FitPBPContext(context.Background(), cfg, x, y)
}

// FitPBPContext is FitPBP, stopped by ctx: it checks ctx before every
// epoch, and once ctx is done returns no model and an error wrapping
// ctx.Err(), after at most the epoch under way.
func FitPBPContext(ctx context.Context, cfg PBPConfig, x, y []float64) (*PBP, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := checkData(cfg.Inputs, x, y); err != nil {
		return nil, err
	}
	m := newModel(cfg)
	if err := m.standardize(x, y); err != nil {
		return nil, err
	}
	m.initialize()
	if err := m.train(ctx, x, y, cfg.Epochs); err != nil {
		return nil, err
	}
	return m, nil
}

// Train makes epochs more passes over the rows x, y, which are
// standardized as the model's training data were: Fit followed by Train
// with n epochs gives the same model as Fit with PBPConfig.Epochs increased
// by n. It returns the errors of Fit, gcp.ErrConfig for epochs outside
// 1..2²⁰, and leaves the model unchanged on error.
func (m *PBP) Train(x, y []float64, epochs int) error {
	if epochs < 1 || epochs > maxEpochs {
		return fmt.Errorf("%w: epochs = %d, want 1..%d", gcp.ErrConfig, epochs, maxEpochs)
	}
	if err := checkData(m.cfg.Inputs, x, y); err != nil {
		return err
	}
	return m.train(context.Background(), x, y, epochs)
}

// PBPConfig returns the model's shape, with the defaults filled in.
func (m *PBP) Config() PBPConfig {
	c := m.cfg
	c.Hidden = append([]int{}, c.Hidden...)
	return c
}

// checkData validates a training set of rows with the given number of
// features.
func checkData(inputs int, x, y []float64) error {
	if len(y) == 0 {
		return fmt.Errorf("%w: no training rows", gcp.ErrBatch)
	}
	if len(x) != inputs*len(y) {
		return fmt.Errorf("%w: %d input values for %d rows of %d features", gcp.ErrShape, len(x), len(y), inputs)
	}
	for i, v := range x {
		if !finite(v) {
			return fmt.Errorf("%w: input row %d, feature %d is %g", gcp.ErrNonFinite, i/inputs, i%inputs, v)
		}
	}
	for i, v := range y {
		if !finite(v) {
			return fmt.Errorf("%w: target %d is %g", gcp.ErrNonFinite, i, v)
		}
	}
	return nil
}

// finite reports whether v is neither NaN nor infinite, by a comparison
// (see the root package's finite: v−v == 0 fails on arm64 and s390x where
// it is fused with the product that computed v, which made every MeanSD
// scale 1 there).
func finite(v float64) bool { return math.Abs(v) <= math.MaxFloat64 }

// standardize learns the centre and scale of every feature and of the
// targets by the configured rule (Standardization.learn) and stores them
// in the model, or returns learn's error and leaves the model as it was.
func (m *PBP) standardize(x, y []float64) error {
	xc, xs, yc, ys, err := m.cfg.Standardization.learn(x, y, m.cfg.Inputs)
	if err != nil {
		return err
	}
	copy(m.xMean, xc)
	copy(m.xScale, xs)
	m.yMean, m.yScale = yc, ys
	return nil
}

// initialize sets the posterior and the prior factors to their starting
// values, as in the authors' code (prior.py, get_initial_params; network.c,
// init_network): every weight mean drawn from N(0, 1/fan-in), the fan-in
// counting the bias, every variance the prior's expected variance
// priorRate/(priorShape−1), every prior factor a Gaussian of that
// precision with mean 0 and no Gamma part, and both precisions' Gammas at
// the prior Gamma(6, 6).
func (m *PBP) initialize() {
	r := rand.New(rand.NewPCG(m.cfg.Seed, initStream))
	l := &m.lay
	for k := 1; k <= l.layers(); k++ {
		lo, hi := l.weights(k)
		s := 1 / math.Sqrt(float64(l.fanIn(k)))
		for i := lo; i < hi; i++ {
			m.mean[i] = s * r.NormFloat64()
		}
	}
	for i := range m.variance {
		m.variance[i] = priorRate / (priorShape - 1.0)
		m.vHat[i] = (priorShape - 1.0) / priorRate
	}
	clear(m.mHat)
	clear(m.aHat)
	clear(m.bHat)
	m.noiseA, m.noiseB = priorShape, priorRate
	m.priorA, m.priorB = priorShape, priorRate
}

// train makes epochs passes over the rows x, y after standardizing them
// with the model's maps. Each pass visits the rows in a fresh random
// order, drawn from the epoch's own stream, with one ADF step per row, and
// ends with refinePrior, as in the authors' code (network.c,
// one_learning_epoch; pbp.py, do_pbp). It checks ctx before each pass and
// returns an error wrapping ctx.Err() once it is done, the model then
// holding the passes made.
func (m *PBP) train(ctx context.Context, x, y []float64, epochs int) error {
	d, n := m.cfg.Inputs, len(y)
	xs, ys := make([]float64, len(x)), make([]float64, n)
	for i := range n {
		for j := range d {
			xs[i*d+j] = (x[i*d+j] - m.xMean[j]) / m.xScale[j]
		}
		ys[i] = (y[i] - m.yMean) / m.yScale
	}
	t := newTrainer(m)
	for range epochs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("bayes: PBP stopped after %d epochs: %w", m.epochs, err)
		}
		r := rand.New(rand.NewPCG(m.cfg.Seed, shuffleStream+uint64(m.epochs)))
		for _, i := range r.Perm(n) {
			t.step(xs[i*d:(i+1)*d], ys[i])
		}
		m.refinePrior()
		m.epochs++
	}
	return nil
}
