package gcp

import (
	"math"
	"testing"
)

// TestOptimizerUpdates checks the four update rules, with weight decay
// and gradient clipping, against their textbook forms, written here
// independently of optim.go: SGD; Adam as in Kingma & Ba (2015),
// Algorithm 1, with the bias-corrected moments m̂ = m/(1−β₁ᵗ) and
// v̂ = v/(1−β₂ᵗ) and ε added to √v̂ (optim.go folds the corrections into
// the learning rate and ε instead); RMSProp with a running mean of g²;
// and Nesterov's momentum in the form of Sutskever et al. (2013), Eq. (3)
// and (4), v ← μv − lr·G(θ + μv), θ ← θ + v, whose look-ahead point θ + μv
// is the parameter the reformulated update keeps. G is the gradient of
// the quadratic f(θ) = ½Σ aᵢ(θᵢ − cᵢ)², plus λθ (WeightDecay), scaled to
// norm ClipNorm when longer. The optimizer gets the gradient at its own
// parameters, as a Trainer gives it, so that the reference's trajectory
// depends on every earlier step. ε = 0.05 and lr = 0.1 are large, so that
// a misplaced ε or bias correction moves a step by percents.
func TestOptimizerUpdates(t *testing.T) {
	a := []float64{1, 4, 0.5, 2, 9}
	c := []float64{3, -2, 1, 0.5, -1}
	const (
		lr, b1, b2, eps, rho, mu = 0.1, 0.8, 0.95, 0.05, 0.7, 0.6
		decay, clip              = 0.01, 6
		steps                    = 40
	)
	// grad returns G at theta and whether it was clipped.
	grad := func(theta []float64) ([]float64, bool) {
		g := make([]float64, len(theta))
		var norm float64
		for i := range g {
			g[i] = a[i]*(theta[i]-c[i]) + decay*theta[i]
			norm += g[i] * g[i]
		}
		norm = math.Sqrt(norm)
		if norm <= clip {
			return g, false
		}
		for i := range g {
			g[i] *= clip / norm
		}
		return g, true
	}
	for _, opt := range []Optimizer{SGD, Nesterov, RMSProp, Adam} {
		cfg := TrainConfig{Optimizer: opt, LearningRate: lr, Beta1: b1, Beta2: b2, Epsilon: eps,
			Rho: rho, Momentum: mu, WeightDecay: decay, ClipNorm: clip}.withDefaults()
		o := newOptimizer(kernelsFor[float64](), cfg, len(a))
		p := make([]float64, len(a)) // the optimizer's parameters, from 0
		theta := make([]float64, len(a))
		s1, s2 := make([]float64, len(a)), make([]float64, len(a)) // the reference's state
		var clipped, unclipped int
		for step := 1; step <= steps; step++ {
			// The reference's step, from its own state.
			switch opt {
			case SGD:
				g, _ := grad(theta)
				for i := range theta {
					theta[i] -= lr * g[i]
				}
			case Nesterov: // s1 is v
				ahead := make([]float64, len(theta))
				for i := range ahead {
					ahead[i] = theta[i] + mu*s1[i]
				}
				g, _ := grad(ahead)
				for i := range theta {
					s1[i] = mu*s1[i] - lr*g[i]
					theta[i] += s1[i]
				}
			case RMSProp: // s1 is the mean of g²
				g, _ := grad(theta)
				for i := range theta {
					s1[i] = rho*s1[i] + (1-rho)*g[i]*g[i]
					theta[i] -= lr * g[i] / (math.Sqrt(s1[i]) + eps)
				}
			case Adam: // s1, s2 are m and v
				g, _ := grad(theta)
				for i := range theta {
					s1[i] = b1*s1[i] + (1-b1)*g[i]
					s2[i] = b2*s2[i] + (1-b2)*g[i]*g[i]
					mHat := s1[i] / (1 - math.Pow(b1, float64(step)))
					vHat := s2[i] / (1 - math.Pow(b2, float64(step)))
					theta[i] -= lr * mHat / (math.Sqrt(vHat) + eps)
				}
			}
			// The optimizer's step, given the raw gradient at p.
			g := make([]float64, len(p))
			for i := range g {
				g[i] = a[i] * (p[i] - c[i])
			}
			if _, ok := grad(p); ok {
				clipped++
			} else {
				unclipped++
			}
			next, err := o.update(p, g)
			if err != nil {
				t.Fatalf("%v step %d: %v", opt, step, err)
			}
			p, next = next, p
			o.commit(next)
			want := theta
			if opt == Nesterov {
				want = make([]float64, len(theta))
				for i := range want {
					want[i] = theta[i] + mu*s1[i]
				}
			}
			// Both sides round each operation at 1.1e-16 relative, on
			// values of order 1 to 10 over 40 steps; Adam's and RMSProp's
			// divisions by √v + ε can amplify that by 1/ε = 20: a few
			// 1e-15 at most (9e-16 measured). 1e-12 leaves a margin of
			// hundreds; a misplaced ε, bias correction, decay or clip
			// changes a step by 1e-4 or more here (lr·ε/√v̂ and up).
			for i := range p {
				if d := math.Abs(p[i] - want[i]); !(d <= 1e-12*math.Max(1, math.Abs(want[i]))) {
					t.Errorf("%v step %d: θ[%d] = %.17g, textbook %.17g", opt, step, i, p[i], want[i])
				}
			}
		}
		// The data must exercise both sides of the clipping.
		if clipped == 0 || unclipped == 0 {
			t.Errorf("%v: %d clipped and %d unclipped steps, want both", opt, clipped, unclipped)
		}
	}
}

// TestBiasPowers checks Adam's bias-correction powers against math.Pow:
// a float64 model's are math.Pow's, bit for bit; a float32 model's, the
// running products, within their rounding, (t+1)·2⁻⁵³ relative (each
// product rounds once, on top of the errors it carries) and, once they
// are subnormal, one subnormal unit, 2⁻¹⁰⁷⁴, a product, over 200,000
// updates and the TrainConfig defaults and a β₂ that decays fast.
func TestBiasPowers(t *testing.T) {
	for _, betas := range [][2]float64{{0.9, 0.999}, {0.5, 0.9}} {
		cfg := TrainConfig{Beta1: betas[0], Beta2: betas[1]}.withDefaults()
		o32 := newOptimizer(kernelsFor[float32](), cfg, 1)
		o64 := newOptimizer(kernelsFor[float64](), cfg, 1)
		for step := 1; step <= 200000; step++ {
			p1, p2 := o32.biasPowers()
			q1, q2 := o64.biasPowers()
			w1, w2 := math.Pow(betas[0], float64(step)), math.Pow(betas[1], float64(step))
			if q1 != w1 || q2 != w2 {
				t.Fatalf("betas %v, update %d: float64 powers %v, %v, math.Pow %v, %v", betas, step, q1, q2, w1, w2)
			}
			rel, abs := float64(step+1)*0x1p-53, float64(step)*0x1p-1074
			if math.Abs(p1-w1) > rel*w1+abs || math.Abs(p2-w2) > rel*w2+abs {
				t.Fatalf("betas %v, update %d: float32 powers %v, %v, math.Pow %v, %v", betas, step, p1, p2, w1, w2)
			}
			o32.commit(o32.next)
			o64.commit(o64.next)
		}
	}
}
