package gcp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDropoutMask checks the mask's statistics, through the dropped-out
// units of all-ones activations, which are the mask: a share p of zeros
// and, by inverted dropout, a mean of 1. Over n = 200000 units the share
// of zeros has standard deviation √(p(1−p)/n) ≈ 0.001 for p = 0.3; 5 of
// those bound it, and the mean 1/(1−p)·(share kept) inherits the same
// bound. Under tanh the trainer writes the mask too (its backward pass
// reads it), the same values; under a ReLU it need not.
func TestDropoutMask(t *testing.T) {
	const p, n = 0.3, 200000
	for _, act := range []Activation{ReLU, Tanh} {
		m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Activation: act, Dropout: p, Seed: 1})
		tr := mustTrainer(t, m, TrainConfig{BatchSize: 1, Seed: 3})
		mask, drop, ones := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range ones {
			ones[i] = 1
		}
		tr.drawMask(mask, ones, drop)
		if act == Tanh && !slices.Equal(drop, mask) {
			t.Errorf("%v: drop = 1·mask differs from mask", act)
		}
		var zeros int
		var sum float64
		for _, v := range drop {
			if v == 0 {
				zeros++
			}
			sum += float64(v)
		}
		tol := 5 * math.Sqrt(p*(1-p)/n)
		if share := float64(zeros) / n; math.Abs(share-p) > tol {
			t.Errorf("%v: dropped share %.4f, want %.2f ± %.4f", act, share, p, tol)
		}
		if mean := sum / n; math.Abs(mean-1) > tol/(1-p) {
			t.Errorf("%v: mask mean %.4f, want 1 ± %.4f", act, mean, tol/(1-p))
		}
	}
}

// TestNetworkGradient checks backpropagation through the whole network
// against central finite differences of the mean GCP loss, in float64, for
// every parameter.
func TestNetworkGradient(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"learned-alpha", Config{Inputs: 3, Hidden: []int{5}, Seed: 1}},
		{"fixed-alpha", Config{Inputs: 3, Hidden: []int{5}, FixedAlpha: 1.5, Seed: 2}},
		{"dropout", Config{Inputs: 3, Hidden: []int{6}, Dropout: 0.3, Seed: 3}},
		{"tanh-deep", Config{Inputs: 2, Hidden: []int{4, 3}, Activation: Tanh, Seed: 4}},
		{"relu-deep-dropout", Config{Inputs: 2, Hidden: []int{5, 4}, Dropout: 0.5, FixedAlpha: 3, Seed: 5}},
		{"gaussian-ml", Config{Inputs: 3, Hidden: []int{5}, Loss: LossGaussianML, Seed: 6}},
		{"dpd", Config{Inputs: 3, Hidden: []int{5, 3}, Loss: LossDPD, DPDGamma: 0.3, Seed: 7}},
		{"ml-bayes", Config{Inputs: 2, Hidden: []int{6}, Loss: LossMLBayes, Dropout: 0.4, Seed: 8}},
		{"ensemble-3", Config{Inputs: 3, Hidden: []int{5}, Members: 3, Seed: 10}},
		{"ensemble-3-deep-dropout", Config{Inputs: 2, Hidden: []int{4, 3}, Dropout: 0.3, Members: 3, Seed: 11}},
		{"ensemble-3-gaussian-ml", Config{Inputs: 3, Hidden: []int{5}, Loss: LossGaussianML, Members: 3, Seed: 12}},
		{"ensemble-2-ml-bayes", Config{Inputs: 2, Hidden: []int{6}, Loss: LossMLBayes, Dropout: 0.4, Members: 2, Seed: 13}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 4
			m := mustModel[float64](t, tc.cfg)
			tr := mustTrainer(t, m, TrainConfig{BatchSize: n, Seed: 9})
			x, y := randomBatch[float64](11, n, tc.cfg.Inputs)
			// Train a little first: at initialization the hidden biases are
			// exactly 0, so a unit whose inputs are all dead ReLUs sits
			// exactly on its kink, where the derivative is one-sided.
			for i := 0; i < 3; i++ {
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.standardizeRows(tr.a.x[:len(x)], x, tr.z); err != nil {
				t.Fatal(err)
			}
			copy(tr.y, y)
			var mask []float64 // the same dropout noise for every evaluation
			if tr.mask != nil {
				mask = tr.mask[:n*m.lay.width(m.lay.last())]
				dropoutMaskGeneric(&tr.src, m.cfg.Dropout, mask)
			}
			tr.gradientMasked(n, mask)
			grad := slices.Clone(tr.grad)
			// Central differences with h = 1e-4 have truncation error
			// O(h^2 L''') of about 1e-8 relative and rounding error
			// eps*|L|/h of about 1e-12; measured at most 1e-8 here, while a
			// sign or chain-rule error is O(1). A ReLU kink closer than h to a
			// pre-activation would break the comparison, which the fixed
			// seeds avoid. The scale floor keeps the relative error
			// meaningful for parameters whose gradient is zero (dead ReLU
			// units, dropped units).
			const h, tol = 1e-4, 1e-6
			checkParamGradient(t, "backprop", m.params, grad, h, tol, func() float64 {
				_, l := tr.gradientMasked(n, mask)
				return l
			})
		})
	}
}

// TestCopyMeanHeads checks copyMeanHeads by what the network computes:
// after copying src's mean heads into dst, a forward pass gives every
// member's m output exactly as src's parameters do and every other raw
// output exactly as dst's do. Each head is a separate network, so a
// parameter copied too many or too few changes one of them; tanh keeps
// every unit live, so that no parameter hides behind a dead ReLU. For
// several targets the m head is one network of Targets outputs a member,
// the members' side by side at the front of each row.
// regression: for several targets it also copied the Cholesky and ν
// heads' output layers.
func TestCopyMeanHeads(t *testing.T) {
	for _, tc := range []Config{
		{Inputs: 3, Hidden: []int{5}, Members: 1, Activation: Tanh},
		{Inputs: 2, Hidden: []int{4, 3}, Members: 3, Activation: Tanh},
		{Inputs: 4, Hidden: []int{3, 2, 5}, Members: 2, FixedAlpha: 2, Activation: Tanh},
		{Inputs: 3, Hidden: []int{4, 4}, Members: 2, Loss: LossGaussianML, Activation: Tanh},
		{Inputs: 3, Hidden: []int{4, 3}, Members: 2, Targets: 3, Activation: Tanh},
		{Inputs: 2, Hidden: []int{5}, Members: 3, Targets: 2, Loss: LossGaussianML, Activation: Tanh},
	} {
		src, dst := mustModel[float64](t, tc), mustModel[float64](t, tc)
		r := rand.New(rand.NewPCG(1, 2))
		for i := range src.params {
			src.params[i], dst.params[i] = r.NormFloat64(), r.NormFloat64()
		}
		spliced := slices.Clone(dst.params)
		copyMeanHeads(src.lay, spliced, src.params)
		const n = 3
		outs := make([][]float64, 3)
		for i, p := range [][]float64{src.params, dst.params, spliced} {
			a := newActivations[float64](src.lay, n, false)
			for j := range a.x {
				a.x[j] = float64(j%7) - 3
			}
			forward(src.k, src.lay, Tanh, p, a, n)
			outs[i] = slices.Clone(a.out)
		}
		if l := src.lay; l.targets > 1 { // row-major raw outputs, the means of member k at multiColumn
			for i := range n * l.outputs {
				row, col := i/l.outputs, i%l.outputs
				want := outs[1][i]
				if c := col - l.multiColumn(mvHeadMean, 0); c < l.members*l.targets && c >= 0 {
					want = outs[0][i]
				}
				if got := outs[2][i]; got != want {
					t.Errorf("%+v: row %d raw output %d = %v, want %v", tc, row, col, got, want)
				}
			}
			continue
		}
		for h := 0; h < src.lay.heads; h++ {
			want := outs[1] // dst's
			if h < src.lay.members {
				want = outs[0] // src's: the m heads come first
			}
			if got := outs[2][h*n : h*n+n]; !slices.Equal(got, want[h*n:h*n+n]) {
				t.Errorf("%+v: raw output %d = %v, want %v", tc, h, got, want[h*n:h*n+n])
			}
		}
	}
}
