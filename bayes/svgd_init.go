package bayes

import (
	"math"
	"math/rand/v2"
)

// svgdGammaSubsample is how many training rows, at most, set the
// particles' initial noise precision (the authors' min(N, 1000)).
const svgdGammaSubsample = 1000

// initParticles draws the particles as the authors' init_weights does:
// every layer's weights from N(0, 1/(fan-in + 1)) (their 1/√(d+1) and
// 1/√(n_hidden+1)), the biases 0, and λ from np.random.gamma(a0, b0),
// whose second argument is a scale: Gamma(1, scale 0.1), the exponential
// of mean 0.1 (although the prior's b0 is a rate, of mean 10; we keep
// their draw). Then, as their "better initialization for gamma", γ is
// 1/(mean squared residual) of the particle's network on a random
// subsample of min(N, 1000) training rows. They draw a subsample per
// particle; we draw one for all, which is the same for N ≤ 1000.
func (t *svgdTrainer) initParticles(r *rand.Rand) error {
	cfg := t.m.cfg
	p := t.post.weights
	widths := append(append([]int{cfg.Inputs}, cfg.Hidden...), 1)
	for k := range cfg.Particles {
		row := t.theta[k*(p+2) : (k+1)*(p+2)]
		off := 0
		for l := 1; l < len(widths); l++ {
			in, out := widths[l-1], widths[l]
			sd := 1 / math.Sqrt(float64(in+1))
			for j := range in * out {
				row[off+j] = sd * r.NormFloat64()
			}
			off += in*out + out // the biases stay 0
		}
		row[p+1] = math.Log(svgdPriorRate * r.ExpFloat64()) // Gamma(a0 = 1, scale b0)
	}
	d, n := cfg.Inputs, len(t.y)
	sub := r.Perm(n)[:min(n, svgdGammaSubsample)]
	xs, ys := make([]float64, len(sub)*d), make([]float64, len(sub))
	for i, row := range sub {
		copy(xs[i*d:(i+1)*d], t.x[row*d:(row+1)*d])
		ys[i] = t.y[row]
	}
	return t.setNoise(xs, ys)
}

// setNoise sets every particle's log γ to −log(mean squared residual) of
// its network on the rows (x, y), keeping it where the residuals are all
// 0.
func (t *svgdTrainer) setNoise(x, y []float64) error {
	p := t.post.weights
	mse := make([]float64, t.m.cfg.Particles)
	if err := t.post.meanSquaredErrors(t.theta, x, y, mse); err != nil {
		return err
	}
	for k, v := range mse {
		if v > 0 {
			t.theta[k*(p+2)+p] = -math.Log(v)
		}
	}
	return nil
}
