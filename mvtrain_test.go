package gcp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// eachMultiLoss runs f as a subtest for each loss a model of several
// targets supports (the GCP model and the Gaussian comparator), with
// cfg.Loss set to it.
func eachMultiLoss(t *testing.T, cfg Config, f func(*testing.T, Config)) {
	for _, loss := range []Loss{LossGCP, LossGaussianML} {
		cfg.Loss = loss
		t.Run(loss.String(), func(t *testing.T) { f(t, cfg) })
	}
}

// randomMultiBatch returns n rows of d standard-normal features and of
// targets standard-normal targets, correlated through a shared term so
// that the Cholesky heads' off-diagonal entries have something to fit.
func randomMultiBatch[T Float](seed uint64, n, d, targets int) (x, y []T) {
	r := rand.New(rand.NewPCG(seed, 8))
	x, y = make([]T, n*d), make([]T, n*targets)
	for i := range x {
		x[i] = T(r.NormFloat64())
	}
	for i := 0; i < n; i++ {
		c := r.NormFloat64()
		for j := 0; j < targets; j++ {
			y[i*targets+j] = T(float64(j+1)*r.NormFloat64() + c)
		}
	}
	return x, y
}

// TestMultiBackpropMatchesFiniteDifferences checks the gradient of the
// multivariate loss with respect to every parameter, through all three
// heads' links and the network, against central differences of the loss
// itself (for the GCP model's mean heads, of the targets' marginal
// losses: splitObjective), for d = 2, 3 and 8, a single network and an
// ensemble, ReLU and tanh, with and without dropout, for the GCP model
// and the Gaussian comparator (whose heads must be the mean and Cholesky
// ones only).
func TestMultiBackpropMatchesFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"d2", Config{Inputs: 3, Hidden: []int{5}, Targets: 2, Seed: 1}},
		{"d3-tanh-deep", Config{Inputs: 2, Hidden: []int{4, 3}, Targets: 3, Activation: Tanh, Seed: 2}},
		{"d3-ensemble-dropout", Config{Inputs: 3, Hidden: []int{4}, Targets: 3, Members: 2, Dropout: 0.3, Seed: 3}},
		{"d8", Config{Inputs: 2, Hidden: []int{3}, Targets: 8, Activation: Tanh, Seed: 4}},
		// The Gaussian comparator: the same heads but ν, ν = +Inf.
		{"gauss-d2", Config{Inputs: 3, Hidden: []int{5}, Targets: 2, Loss: LossGaussianML, Seed: 1}},
		{"gauss-d3-ensemble-dropout", Config{Inputs: 3, Hidden: []int{4}, Targets: 3, Members: 2, Dropout: 0.3, Loss: LossGaussianML, Seed: 3}},
		{"gauss-d8", Config{Inputs: 2, Hidden: []int{3}, Targets: 8, Activation: Tanh, Loss: LossGaussianML, Seed: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 5
			m := mustModel[float64](t, tc.cfg)
			tr := mustTrainer(t, m, TrainConfig{BatchSize: n, Seed: 9})
			x, y := randomMultiBatch[float64](11, n, tc.cfg.Inputs, tc.cfg.Targets)
			// A few steps first, off the zero biases' ReLU kinks (see
			// TestBackpropMatchesFiniteDifferences).
			for i := 0; i < 3; i++ {
				if _, err := tr.Step(x, y); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.standardizeRows(tr.a.x[:len(x)], x, tr.z); err != nil {
				t.Fatal(err)
			}
			m.standardizeTargets(tr.y[:len(y)], y)
			var mask []float64
			if tr.mask != nil {
				mask = tr.mask[:n*m.lay.width(m.lay.last())]
				dropoutMaskGeneric(&tr.src, m.cfg.Dropout, mask)
			}
			tr.gradientMasked(n, mask)
			grad := slices.Clone(tr.grad)
			kinds := mvHeadKinds
			if tc.cfg.Loss == LossGaussianML {
				kinds = mvHeadNu
			}
			if got := len(m.lay.layers) - len(m.lay.hidden); got != kinds {
				t.Errorf("%d kinds of head, want %d", got, kinds)
			}
			// Every kind of head's output layer has a gradient: a head
			// left out of the loss would pass the difference check below
			// with zeros on both sides.
			for c, ly := range m.lay.layers[len(m.lay.hidden):] {
				if g := grad[ly.w : ly.b+ly.blocks*ly.rows]; slices.Max(g) == 0 && slices.Min(g) == 0 {
					t.Errorf("head kind %d: zero gradient", c)
				}
			}
			// The exponential link of the Cholesky diagonal and the ν
			// head's digammas curve the loss more than the one-dimensional
			// heads do: at h = 1e-4 the truncation error O(h²L''') reached
			// 1.6e-6 relative. h = 1e-5 cuts it a hundredfold, while the
			// rounding error eps·|L|/h stays near 1e-10 absolute, 1e-7
			// relative to the smallest gradients compared; a chain-rule or
			// sign error is O(1).
			const h, tol = 1e-5, 1e-6
			eval := func() float64 {
				_, l := tr.gradientMasked(n, mask)
				return l
			}
			if kinds == mvHeadKinds {
				// The t's mean heads descend the marginal losses, the
				// other heads the joint one (marginalMeanGrad).
				tr.gradientMasked(n, mask)
				base := slices.Clone(tr.a.out[:n*m.lay.outputs])
				eval = func() float64 {
					tr.gradientMasked(n, mask)
					return splitObjective(m.lay, n, base, tr.a.out, tr.y)
				}
			}
			checkParamGradient(t, "backprop", m.params, grad, h, tol, eval)
		})
	}
}

// splitObjective is the objective whose gradient the GCP model of
// several targets follows, computed by hand from the raw outputs out of n
// rows against the standardized targets y: the mean joint NLL of the
// multivariate t with the means of base, plus the mean over rows of the
// targets' marginal NLLs, each the one-dimensional t with ν and
// S_jj = Σ_k L_jk² of base and the means of out. A parameter moves either
// the means or the other heads, never both, so that a difference of it
// is the derivative of the loss its heads descend.
func splitObjective(l *layout, n int, base, out, y []float64) float64 {
	d, w, nl := l.targets, l.outputs, mvtPackedLen(l.targets)
	chol, z := make([]float64, nl), make([]float64, d)
	var sum float64
	for k := range l.members {
		cm, cl, cn := l.multiColumn(mvHeadMean, k), l.multiColumn(mvHeadChol, k), l.multiColumn(mvHeadNu, k)
		for i := range n {
			b, o, yi := base[i*w:(i+1)*w], out[i*w:(i+1)*w], y[i*d:(i+1)*d]
			links := func(r []float64) float64 {
				for a := range d {
					for c := 0; c <= a; c++ {
						v := r[cl+a*(a+1)/2+c]
						if c == a {
							v = math.Exp(v)
						}
						chol[a*(a+1)/2+c] = v
					}
				}
				return mvNuMin + math.Log1p(math.Exp(r[cn]))
			}
			nu := links(o)
			sum -= mvtLogDensity(yi, b[cm:cm+d], chol, nu, z)
			nu = links(b)
			for j := range d {
				var s float64
				for _, v := range chol[j*(j+1)/2 : j*(j+1)/2+j+1] {
					s += v * v
				}
				e := yi[j] - o[cm+j]
				lg1, _ := math.Lgamma((nu + 1) / 2)
				lg0, _ := math.Lgamma(nu / 2)
				sum -= lg1 - lg0 - 0.5*math.Log(nu*math.Pi*s) - (nu+1)/2*math.Log1p(e*e/(nu*s))
			}
		}
	}
	return sum / float64(n)
}

// TestMultiStepLossIsTheDensity checks the NLL Step reports, in original
// units, against the multivariate t's density of each member's
// predictive mapped to original units by hand (handMember), and for the
// Gaussian comparator against the Gaussian density (gaussLogDensity).
func TestMultiStepLossIsTheDensity(t *testing.T) {
	eachMultiLoss(t, Config{Inputs: 2, Hidden: []int{4}, Targets: 3, Members: 2, Seed: 5}, testMultiStepLossIsTheDensity)
}

func testMultiStepLossIsTheDensity(t *testing.T, cfg Config) {
	m := mustModel[float64](t, cfg)
	x, y := randomMultiBatch[float64](3, 6, 2, 3)
	for j := range y {
		y[j] = 10 + 3*y[j] // a standardization far from the identity
	}
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 6, Seed: 1})
	if _, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	var want float64
	z := make([]float64, 3)
	for i := range 6 {
		for k := range 2 {
			mean, l, nu := handMember(t, m, x[i*2:i*2+2], k)
			if cfg.Loss == LossGaussianML {
				want -= gaussLogDensity(y[i*3:i*3+3], mean, l) / 12
			} else {
				want -= mvtLogDensity(y[i*3:i*3+3], mean, l, nu, z) / 12
			}
		}
	}
	got, err := tr.Step(x, y)
	if err != nil {
		t.Fatal(err)
	}
	// The same sums in another order and through the standardized units:
	// a few ulps of terms of about 10.
	if math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("Step's NLL = %.17g, density gives %.17g", got, want)
	}
}

// TestMultiTargetsBadInput checks the errors of a model of several
// targets: too many targets, a loss or field it does not support, a
// target count that does not divide, a non-finite target, a validation
// set of the wrong length, and the one-target Predict; the model
// unchanged by each.
func TestMultiTargetsBadInput(t *testing.T) {
	for _, cfg := range []Config{
		{Inputs: 2, Targets: maxTargets + 1},
		{Inputs: 2, Targets: -1},
		{Inputs: 2, Targets: 2, Loss: LossDPD},
		{Inputs: 2, Targets: 2, Loss: LossMLBayes, Dropout: 0.1},
		{Inputs: 2, Targets: 2, FixedAlpha: 3},
	} {
		if _, err := New[float64](cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", cfg, err)
		}
	}
	if _, err := New[float32](Config{Inputs: 2, Targets: maxTargets}); err != nil {
		t.Errorf("Targets = %d: %v", maxTargets, err)
	}
	m := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{3}, Targets: 3, Seed: 1})
	if _, err := NewTrainer(m, TrainConfig{ScaleWeighting: 1}); !errors.Is(err, ErrConfig) {
		t.Errorf("ScaleWeighting: %v, want ErrConfig", err)
	}
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 4})
	before := slices.Clone(m.params)
	x, y := randomMultiBatch[float32](1, 4, 2, 3)
	nan := slices.Clone(y)
	nan[7] = float32(math.Inf(1))
	for _, c := range []struct {
		name string
		y    []float32
		want error
	}{
		{"one target short", y[:11], ErrShape},
		{"a row too many", append(slices.Clone(y), 1, 2, 3), ErrBatch},
		{"non-finite target", nan, ErrNonFinite},
	} {
		if _, err := tr.Step(x, c.y); !errors.Is(err, c.want) {
			t.Errorf("Step, %s: %v, want %v", c.name, err, c.want)
		}
		if _, err := tr.Fit(x, c.y, FitOptions[float32]{Epochs: 1}); !errors.Is(err, ErrShape) && !errors.Is(err, c.want) {
			t.Errorf("Fit, %s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: 1, ValX: x[:4], ValY: y[:5]}); !errors.Is(err, ErrShape) {
		t.Errorf("Fit with a validation row of 5 targets: %v, want ErrShape", err)
	}
	if !slices.Equal(m.params, before) || m.standardized {
		t.Error("a rejected call changed the model")
	}
	if _, err := m.Predict(m.NewWorkspace(), x[:2]); !errors.Is(err, ErrShape) {
		t.Errorf("one-target Predict: %v, want ErrShape", err)
	}
}

// TestMultiFitStandardizesEachTarget checks that Fit learns each target's
// centre and scale from its own column: targets on scales 1, 100 and
// 0.01 about centres −5, 0 and 7 have medians and robust scales that
// differ by those factors, which a single map would not give.
func TestMultiFitStandardizesEachTarget(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{3}, Targets: 3, Seed: 1})
	x, y := randomMultiBatch[float64](2, 400, 2, 3)
	scale, centre := []float64{1, 100, 0.01}, []float64{-5, 0, 7}
	cols := make([][]float64, 3)
	for i := range 400 {
		for j := range 3 {
			y[i*3+j] = centre[j] + scale[j]*y[i*3+j]
			cols[j] = append(cols[j], y[i*3+j])
		}
	}
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 32})
	if _, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 1}); err != nil {
		t.Fatal(err)
	}
	for j := range 3 {
		slices.Sort(cols[j])
		med := (cols[j][199] + cols[j][200]) / 2
		if m.ext.targets.means[j] != med {
			t.Errorf("target %d: centre %v, median %v", j, m.ext.targets.means[j], med)
		}
		// The column's spread is (j+1)·scale (randomMultiBatch) plus the
		// shared term's, about √((j+1)² + 1)·scale: a robust scale
		// within 20% of it (400 rows: sampling error about 7%).
		want := math.Sqrt(float64((j+1)*(j+1)+1)) * scale[j]
		if r := m.ext.targets.scales[j] / want; r < 0.8 || r > 1.2 {
			t.Errorf("target %d: scale %v, want about %v", j, m.ext.targets.scales[j], want)
		}
	}
}

// handMember returns member k's predictive for the input row x in
// original units, computed here apart from the model's code: a forward
// pass, then location yMeans + yScales·m, the Cholesky factor's rows
// scaled by yScales with exp on the diagonal, and ν = 2 + ln(1 + e^z),
// or +Inf for the Gaussian comparator.
func handMember(t *testing.T, m *Model[float64], x []float64, k int) (mean, l []float64, nu float64) {
	t.Helper()
	d, lay := m.cfg.Targets, m.lay
	a := newActivations[float64](lay, 1, false)
	if err := m.standardizeRows(a.x, x, make([]float64, 1)); err != nil {
		t.Fatal(err)
	}
	forward(m.k, lay, m.cfg.Activation, m.params, a, 1)
	mean, l = make([]float64, d), make([]float64, d*(d+1)/2)
	for j := range d {
		mean[j] = m.ext.targets.means[j] + m.ext.targets.scales[j]*a.out[lay.multiColumn(mvHeadMean, k)+j]
		for c := 0; c <= j; c++ {
			v := a.out[lay.multiColumn(mvHeadChol, k)+j*(j+1)/2+c]
			if c == j {
				v = math.Exp(v)
			}
			l[j*(j+1)/2+c] = m.ext.targets.scales[j] * v
		}
	}
	if m.cfg.Loss == LossGaussianML {
		return mean, l, math.Inf(1)
	}
	return mean, l, 2 + math.Log1p(math.Exp(a.out[lay.multiColumn(mvHeadNu, k)]))
}

// TestMultiFitEarlyStopping checks Fit's validation for several targets:
// with early stopping on a validation set, the model it returns scores,
// by a joint negative log density computed here from PredictMulti row
// by row, exactly the BestValNLL it reports, at an epoch no later than
// the last; the rows ValidationShare holds out are scored the same way.
func TestMultiFitEarlyStopping(t *testing.T) {
	cfg := Config{Inputs: 2, Hidden: []int{8}, Targets: 2, Members: 2, Seed: 3}
	x, y := randomMultiBatch[float64](5, 200, 2, 2)
	vx, vy := randomMultiBatch[float64](6, 50, 2, 2)
	m := mustModel[float64](t, cfg)
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 20, LearningRate: 1e-2, Seed: 1})
	st, err := tr.Fit(x, y, FitOptions[float64]{Epochs: 60, Seed: 2, ValX: vx, ValY: vy, Patience: 3})
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	var p MultiPrediction
	ws := m.NewWorkspace()
	for i := range 50 {
		if err := m.PredictMulti(ws, vx[2*i:2*i+2], &p); err != nil {
			t.Fatal(err)
		}
		want -= p.LogPDF(vy[2*i:2*i+2]) / 50
	}
	// The same terms summed in the same order: equal up to the division
	// by 50 once against 50 times, a few ulps.
	if st.BestEpoch < 1 || st.BestEpoch > st.Epoch || math.Abs(st.BestValNLL-want) > 1e-13*math.Abs(want) {
		t.Errorf("BestEpoch %d of %d, BestValNLL %.17g; the returned model scores %.17g", st.BestEpoch, st.Epoch, st.BestValNLL, want)
	}
	if st.Epoch == 60 {
		t.Logf("no early stop in 60 epochs (best %d)", st.BestEpoch)
	}
	m2 := mustModel[float64](t, cfg)
	st2, err := mustTrainer(t, m2, TrainConfig{BatchSize: 20, Seed: 1}).Fit(x, y, FitOptions[float64]{Epochs: 2, Seed: 2, ValidationShare: 0.2})
	if err != nil || math.IsNaN(st2.ValNLL) {
		t.Errorf("ValidationShare: ValNLL %v, err %v", st2.ValNLL, err)
	}
}

// TestMultiValidationScoresMeanScore: the mean heads' score of a model of
// several targets is the sum over targets of the log of each one's mean
// squared error, worked here from PredictMulti's means row by row, so
// that no target's units decide the mean heads' epoch; the NLL is the
// mean joint negative log density.
// regression: the score was the squared errors summed over targets in
// original units, which the noisiest targets decided.
func TestMultiValidationScoresMeanScore(t *testing.T) {
	const d, ty, n = 3, 3, 40
	m := mustModel[float64](t, Config{Inputs: d, Hidden: []int{8}, Targets: ty, Seed: 5})
	r := rand.New(rand.NewPCG(5, 6))
	x, y := make([]float64, n*d), make([]float64, n*ty)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = r.NormFloat64() * []float64{1, 100, 0.01}[i%ty] // three scales
	}
	set := allRows(x, y, d)
	set.ty = ty
	ws := m.NewWorkspace()
	var p MultiPrediction
	var nll float64
	sq := make([]float64, ty)
	for i := range n {
		if err := m.PredictMulti(ws, x[i*d:(i+1)*d], &p); err != nil {
			t.Fatal(err)
		}
		for j := range ty {
			e := p.Mean(j) - y[i*ty+j]
			sq[j] += e * e
		}
		nll -= p.LogPDF(y[i*ty:(i+1)*ty]) / n
	}
	var want float64
	for _, v := range sq {
		want += math.Log(v / n)
	}
	gotNLL, got := m.multiValidationScores(m.NewWorkspace(), set, make([]float64, workspaceRows*d), make([]float64, workspaceRows*ty))
	// The same sums in another order: only rounding differs.
	if math.Abs(got-want) > 1e-12*math.Abs(want) || math.Abs(gotNLL-nll) > 1e-12*math.Abs(nll) {
		t.Errorf("scores (%v, %v), want (%v, %v)", gotNLL, got, nll, want)
	}
}

// TestLastGainWaitsForTheMeans: early stopping counts its patience from
// the best NLL's epoch for one target, and for several from the later of
// it and the mean heads' epoch.
func TestLastGainWaitsForTheMeans(t *testing.T) {
	r := &fitRun[float64]{stats: EpochStats{BestEpoch: 10}, meanEpoch: 30}
	if got := (&search[float64]{}).lastGain(r); got != 10 {
		t.Errorf("one target: %d, want the best NLL's epoch 10", got)
	}
	s := &search[float64]{targets: identityTargets(2)}
	if got := s.lastGain(r); got != 30 {
		t.Errorf("several targets: %d, want the mean heads' epoch 30", got)
	}
	r.meanEpoch = 5
	if got := s.lastGain(r); got != 10 {
		t.Errorf("several targets, mean heads' epoch 5: %d, want 10", got)
	}
}

// TestMultiRunDequantizesEachLatticeColumn: a run of a model of several
// targets trains on each lattice column plus uniform noise of its own
// spacing, and on a column off any lattice as it is: the last minibatch
// the run trained on holds, in column 0 (spacing 1), values within ±1/2
// of the rows' integers and not equal to them, and in column 1 the rows'
// values exactly.
// regression: the targets of several were never dequantized, so the
// t's density piled up on the lattice points (edm's joint NLL −3.0).
func TestMultiRunDequantizesEachLatticeColumn(t *testing.T) {
	const d, ty, n = 2, 2, 50
	r := rand.New(rand.NewPCG(8, 9))
	x, y := make([]float64, n*d), make([]float64, n*ty)
	for i := range n {
		x[i*d], x[i*d+1] = r.NormFloat64(), r.NormFloat64()
		y[i*ty], y[i*ty+1] = float64(r.IntN(3)-1), r.NormFloat64()
	}
	data := allRows(x, y, d)
	data.ty = ty
	m := mustModel[float64](t, Config{Inputs: d, Hidden: []int{4}, Targets: ty, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{BatchSize: 8, Seed: 1})
	run, err := newFitRun(tr, data, rowSet[float64]{}, runOptions{seed: 3, quanta: targetLattices(y, ty)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.pass(1); err != nil {
		t.Fatal(err)
	}
	last := (n - 1) / 8 * 8
	moved := 0
	for i := range n - last {
		row := run.train.row(last + i)
		got0, got1 := run.yb[i*ty], run.yb[i*ty+1]
		if e := got0 - y[row*ty]; !(math.Abs(e) < 0.5) {
			t.Errorf("row %d: column 0 trained on %v, want within 1/2 of %v", row, got0, y[row*ty])
		} else if e != 0 {
			moved++
		}
		if got1 != y[row*ty+1] {
			t.Errorf("row %d: column 1 trained on %v, want %v as it is", row, got1, y[row*ty+1])
		}
	}
	if moved == 0 {
		t.Error("no value of the lattice column was dequantized")
	}
}

// TestMultiMeanGradientIsEachTargetsOwn checks that the GCP model's mean
// head for one target is moved by that target's residual alone, as a
// one-target model's is: with strongly correlated targets (L₂₁ = 0.9),
// moving the other target's value changes the Cholesky heads' gradient
// but not the first mean's, which is the hand-computed derivative of the
// marginal t, (ν+1)e/(νS₁₁+e²) with S₁₁ = L₁₁², while the Gaussian
// comparator's, the joint likelihood's, does change.
// regression: the joint gradient w·S⁻¹e carried the other target's
// residual into every mean.
func TestMultiMeanGradientIsEachTargetsOwn(t *testing.T) {
	zm := []float64{0.2, -0.1}
	zl := []float64{math.Log(0.5), 0.9, math.Log(0.7)} // L₁₁ = 0.5, L₂₁ = 0.9, L₂₂ = 0.7
	zn := []float64{1.5}
	nu := mvNuMin + softplus(zn[0])
	chol, work := make([]float64, 3), make([]float64, 4)
	grad := func(y2 float64, zn []float64) (gm, gl []float64) {
		gm, gl, gn := make([]float64, 2), make([]float64, 3), make([]float64, len(zn))
		mvtPoint(zm, zl, zn, []float64{1.1, y2}, 1, chol, work, gm, gl, gn)
		return gm, gl
	}
	e := 1.1 - 0.2
	want := -(nu + 1) * e / (nu*0.25 + e*e) // the loss's gradient: minus the log density's
	for _, y2 := range []float64{-3, 0, 2.5} {
		gm, _ := grad(y2, zn)
		// Rounding only: the same formula in another order.
		if math.Abs(gm[0]-want) > 1e-12 {
			t.Errorf("y₂ = %g: ∂/∂m₁ = %.15g, want %.15g", y2, gm[0], want)
		}
	}
	if _, a := grad(-3, zn); slices.Equal(a, func() []float64 { _, b := grad(2.5, zn); return b }()) {
		t.Error("the Cholesky heads' gradient does not depend on the other target")
	}
	if a, _ := grad(-3, nil); a[0] == func() float64 { b, _ := grad(2.5, nil); return b[0] }() {
		t.Error("the Gaussian comparator's mean gradient does not depend on the other target: it is the joint likelihood's")
	}
}
