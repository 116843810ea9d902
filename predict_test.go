package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPredictExtrapolation checks that far out, every prediction is sane
// or an error: a model trained on x in [0, 1] is asked about x = 1000.
// regression: an underflowed β head reached the prediction as Var = 0, VarCorrected = NaN (issue 11).
func TestPredictExtrapolation(t *testing.T) {
	var x, y []float64
	for i := 0; i < 40; i++ {
		v := float64(i) / 39
		x = append(x, v)
		y = append(y, 2*v+0.1*math.Sin(7*v))
	}
	t.Run("float64", func(t *testing.T) { testPredictExtrapolation[float64](t, x, y) })
	t.Run("float32", func(t *testing.T) { testPredictExtrapolation[float32](t, x, y) })
}

func testPredictExtrapolation[T Float](t *testing.T, x, y []float64) {
	m := fitFresh[T](t, Config{Inputs: 1, Seed: 1}, x, y, 100)
	ws := m.NewWorkspace()
	p, err := m.Predict(ws, []T{1000}) // the reproduction of issue 11
	if err != nil {
		t.Fatalf("x = 1000: %v", err)
	}
	checkSane(t, p)
	for _, v := range []float64{-1e30, -1e6, -1e3, 30, 1e4, 1e6, 1e30} {
		p, err := m.Predict(ws, []T{T(v)})
		if err != nil {
			if !errors.Is(err, ErrNonFinite) {
				t.Fatalf("x = %g: %v, want a prediction or ErrNonFinite", v, err)
			}
			continue
		}
		checkSane(t, p)
	}
}

// TestPredictUnderflowingLinks drives each softplus head of a model to a
// raw output of ±1e4 through its output bias, as far extrapolation does:
// softplus(−1e4) underflows to 0 and softplus(1e4) = 1e4. A β, ν or α−1
// of 0 must not reach the prediction; a variance that overflows float64
// in original units must be ErrNonFinite.
// regression: a β, ν or α−1 underflowed to 0 gave NaN variances with a nil error (issue 11).
func TestPredictUnderflowingLinks(t *testing.T) {
	for _, loss := range []Loss{LossGCP, LossGaussianML, LossMLBayes} {
		cfg := Config{Inputs: 1, Hidden: []int{4}, Seed: 1, Loss: loss}
		if loss == LossMLBayes {
			cfg.Dropout, cfg.MCSamples = 0.5, 4
		}
		heads := cfg.memberHeads()
		overflows := 0
		// Every combination of −1e4 and +1e4 on the heads after m.
		for mask := 0; mask < 1<<(heads-1); mask++ {
			m := mustModel[float64](t, cfg)
			ly := m.lay.layers[len(m.lay.hidden)]
			for h := headBeta; h < heads; h++ {
				z := -1e4
				if mask>>(h-1)&1 == 1 {
					z = 1e4
				}
				clear(blockW(m.params, ly, h))
				blockB(m.params, ly, h)[0] = z
			}
			for _, yScale := range []float64{1, 0x1p-256, 0x1p256} {
				if err := m.SetStandardization([]float64{0}, []float64{1}, 0, yScale); err != nil {
					t.Fatal(err)
				}
				p, err := m.Predict(m.NewWorkspace(), []float64{0.5})
				if err != nil {
					if !errors.Is(err, ErrNonFinite) {
						t.Fatalf("%v, heads %b, yScale %g: %v", loss, mask, yScale, err)
					}
					overflows++
					continue
				}
				checkSane(t, p)
			}
		}
		// β = 1e4 with ν floored gives σ = 1e4·2²⁵⁶ in standardized
		// units, 1e4·2⁷⁶⁸ beyond float64 at yScale = 2²⁵⁶: the check of
		// the variances must have caught it.
		if loss == LossGCP && overflows == 0 {
			t.Errorf("%v: no combination overflowed, want ErrNonFinite for β = 1e4, ν = linkFloor, yScale = 2²⁵⁶", loss)
		}
	}
}

// TestIntervalNearOne checks intervals at the level 1 − 2⁻⁵³, the largest
// float64 below 1, where the upper tail's probability 1 − (1 − level)/2
// rounds to 1: the bounds must be the two tails' quantiles, at 2⁻⁵⁴ and
// 1 − 2⁻⁵⁴. The references are mpmath's: for 2α = 2 degrees of freedom
// the Student-t quantile is (2p−1)/√(2p(1−p)) in closed form, times the
// scale √(σ/α) = √2; for the Gaussian √2·erfinv(2p−1). The tolerances are
// 1e-13 relative, about 500 ulps, the accuracy the quantile tests accept
// far in the tails.
// regression: the upper bound taken as Quantile(1), +Inf or 0 (issue 11).
func TestIntervalNearOne(t *testing.T) {
	level := math.Nextafter(1, 0)
	check := func(name string, lo, hi float64, err error, want float64) {
		t.Helper()
		if err != nil || math.Abs(lo+want) > 1e-13*want || math.Abs(hi-want) > 1e-13*want {
			t.Errorf("%s: Interval(1 − 2⁻⁵³) = [%v, %v] (%v), want ±%v", name, lo, hi, err, want)
		}
	}
	const studentT, gauss = 134217727.9999999888241291046142575540061, 8.29236107581359553823415231377928942719
	ng := NormalGamma{M: 0, Nu: 1, Alpha: 1, Beta: 1}
	lo, hi, err := ng.Interval(level)
	check("NormalGamma", lo, hi, err, studentT)
	lo, hi, err = Prediction{Loss: LossGCP, Nu: 1, Alpha: 1, Beta: 1}.Interval(level)
	check("GCP Prediction", lo, hi, err, studentT)
	lo, hi, err = Prediction{Loss: LossGaussianML, Var: 1, VarCorrected: 1, Alpha: math.Inf(1)}.Interval(level)
	check("ML Prediction", lo, hi, err, gauss)
}

// TestHotSwap exercises the documented pattern for training while serving:
// goroutines predict from the model an atomic.Pointer holds, while a
// trainer trains a clone and publishes it. Under -race it shows that
// prediction never reads what training writes.
func TestHotSwap(t *testing.T) {
	var live atomic.Pointer[Model[float32]]
	live.Store(mustModel[float32](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 1}))
	x, y := randomBatch[float32](2, 32, 3)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := live.Load().NewWorkspace() // fits every model of the same shape
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p, err := live.Load().Predict(ws, x[(i%32)*3:(i%32)*3+3])
				if err != nil || !finite(p.Mean) || !finite(p.VarCorrected) {
					errs <- errors.New("prediction during a swap failed")
					return
				}
			}
		}()
	}
	for swap := 0; swap < 10; swap++ {
		next := live.Load().Clone()
		tr := mustTrainer(t, next, TrainConfig{BatchSize: 32})
		for s := 0; s < 5; s++ {
			if _, err := tr.Step(x, y); err != nil {
				t.Fatal(err)
			}
		}
		live.Store(next)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestEnsemblePredictionIsMixture checks an ensemble's prediction against
// its members' predictions made by K single networks holding the same
// parameters: the mean of the means; Var, VarCorrected and the epistemic
// variance by the law of total variance; VarAleatoric, Alpha, Beta and Nu
// as the members' means; Components as each member's predictive; LogPDF
// and CDF of the uniform mixture. Then that VarScale scales the whole
// mixture about its mean. Both routes compute the same sums in other
// orders: 1e-12 relative.
func TestEnsemblePredictionIsMixture(t *testing.T) {
	for _, loss := range []Loss{LossGCP, LossGaussianML} {
		t.Run(loss.String(), func(t *testing.T) {
			const K = 4
			e, singles := ensembleOfSingles(t, Config{Inputs: 2, Hidden: []int{5}, Loss: loss}, K)
			// Train the members apart a little, so that their means differ.
			for k, s := range singles {
				tr := mustTrainer(t, s, TrainConfig{BatchSize: 8, LearningRate: 1e-2})
				for step := range 20 {
					x, y := randomBatch[float64](uint64(10*k+step), 8, 2)
					if _, err := tr.Step(x, y); err != nil {
						t.Fatal(err)
					}
				}
				embedMember(e, s, k)
			}
			close := func(what string, got, want float64) {
				t.Helper()
				if got != want && !(math.Abs(got-want) <= 1e-12*max(math.Abs(got), math.Abs(want))) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			x, _ := randomBatch[float64](7, 10, 2)
			ws := e.NewWorkspace()
			for i := range 10 {
				row := x[2*i : 2*i+2]
				p, err := e.Predict(ws, row)
				if err != nil {
					t.Fatal(err)
				}
				var q [K]Prediction
				var mean, v, vc, alpha, beta, nu float64
				for k, s := range singles {
					if q[k], err = s.Predict(s.NewWorkspace(), row); err != nil {
						t.Fatal(err)
					}
					mean += q[k].Mean / K
					v += q[k].Var / K
					vc += q[k].VarCorrected / K
					alpha += q[k].Alpha / K
					beta += q[k].Beta / K
					nu += q[k].Nu / K
				}
				var between float64
				for _, qk := range q {
					between += (qk.Mean - mean) * (qk.Mean - mean) / K
				}
				if p.Members != K {
					t.Fatalf("Members = %d, want %d", p.Members, K)
				}
				close("Mean", p.Mean, mean)
				close("Var", p.Var, v+between)
				close("VarCorrected", p.VarCorrected, vc+between)
				close("VarAleatoric", p.VarAleatoric, v)
				close("VarEpistemic", p.VarEpistemic, between)
				close("Disagreement", p.Disagreement, math.Sqrt(between/min(v, 4))) // yScale 2
				close("Alpha", p.Alpha, alpha)
				close("Beta", p.Beta, beta)
				close("Nu", p.Nu, nu)
				for k, qk := range q {
					c := p.Components[k]
					scale, dof := math.Sqrt(qk.Var), math.Inf(1)
					if loss == LossGCP {
						scale, dof = qk.Prior().scale(), 2*qk.Alpha
					}
					close(fmt.Sprintf("Components[%d].Mean", k), c.Mean, qk.Mean)
					close(fmt.Sprintf("Components[%d].Scale", k), c.Scale, scale)
					close(fmt.Sprintf("Components[%d].DoF", k), c.DoF, dof)
				}
				for _, d := range []float64{-3, -0.5, 0, 0.7, 4} {
					y := p.Mean + d*math.Sqrt(p.Var)
					var pdf, cdf float64
					for _, qk := range q {
						pdf += math.Exp(qk.LogPDF(y)) / K
						cdf += qk.CDF(y) / K
					}
					close("LogPDF", p.LogPDF(y), math.Log(pdf))
					close("CDF", p.CDF(y), cdf)
				}
				// VarScale c scales the mixture about its mean by √c.
				if err := e.SetVarScale(2.5); err != nil {
					t.Fatal(err)
				}
				ps, err := e.Predict(ws, row)
				if err != nil {
					t.Fatal(err)
				}
				if err := e.SetVarScale(1); err != nil {
					t.Fatal(err)
				}
				close("Mean at VarScale 2.5", ps.Mean, p.Mean)
				close("Var at VarScale 2.5", ps.Var, 2.5*p.Var)
				close("VarEpistemic at VarScale 2.5", ps.VarEpistemic, 2.5*p.VarEpistemic)
				for _, d := range []float64{-2, 0.3, 1.5} {
					y := p.Mean + d*math.Sqrt(p.Var)
					close("CDF at VarScale 2.5", ps.CDF(p.Mean+math.Sqrt(2.5)*(y-p.Mean)), p.CDF(y))
				}
			}
		})
	}
}

// TestEnsembleMomentsMonteCarlo checks a trained GCP ensemble's Mean, Var
// and CDF against 400,000 draws from its members' predictives (a member
// chosen uniformly, then its Student t by inversion with
// studentTQuantile): the law of total variance against sampling. The
// members' degrees of freedom exceed 4, so the sample variance has a
// finite variance; each check allows 5 standard errors, which a wrong
// between-member term (a factor K, a missing square) exceeds by far.
func TestEnsembleMomentsMonteCarlo(t *testing.T) {
	x, y := cubicData(40, 3)
	m := fitLoss(t, Config{Inputs: 1, Hidden: []int{20}, Members: 5, Seed: 3}, x, y, 300)
	ws := m.NewWorkspace()
	for _, at := range []float32{-3, 0, 5} {
		p, err := m.Predict(ws, []float32{at})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Components[:p.Members] {
			if !(c.DoF > 4) {
				t.Skipf("a member with %v degrees of freedom has no finite fourth moment", c.DoF)
			}
		}
		r := rand.New(rand.NewPCG(4, 5))
		const n = 400_000
		probes := []float64{p.Mean - math.Sqrt(p.Var), p.Mean, p.Mean + 0.5*math.Sqrt(p.Var)}
		var s1, s2, s4 float64
		below := make([]int, len(probes))
		draws := make([]float64, n)
		for i := range draws {
			c := p.Components[r.IntN(p.Members)]
			v := c.Mean + c.Scale*studentTQuantile(r.Float64(), c.DoF)
			draws[i] = v
			s1 += v
			for j, b := range probes {
				if v <= b {
					below[j]++
				}
			}
		}
		mean := s1 / n
		for _, v := range draws {
			d := (v - mean) * (v - mean)
			s2 += d
			s4 += d * d
		}
		variance := s2 / n
		seMean := math.Sqrt(variance / n)
		seVar := math.Sqrt((s4/n - variance*variance) / n)
		if math.Abs(mean-p.Mean) > 5*seMean {
			t.Errorf("x = %v: sampled mean %.6g, Mean %.6g (SE %.3g)", at, mean, p.Mean, seMean)
		}
		if math.Abs(variance-p.Var) > 5*seVar {
			t.Errorf("x = %v: sampled variance %.6g, Var %.6g (SE %.3g)", at, variance, p.Var, seVar)
		}
		for j, b := range probes {
			f := float64(below[j]) / n
			if se := math.Sqrt(f * (1 - f) / n); math.Abs(f-p.CDF(b)) > 5*se {
				t.Errorf("x = %v: sampled P(Y ≤ %.4g) = %.5f, CDF %.5f (SE %.2g)", at, b, f, p.CDF(b), se)
			}
		}
	}
}

func TestPredictRejectsBadInput(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 3, Seed: 1})
	ws := m.NewWorkspace()
	other := mustModel[float64](t, Config{Inputs: 3, Hidden: []int{7}})
	out := make([]Prediction, 2)
	for _, tc := range []struct {
		name string
		ws   *Workspace[float64]
		x    []float64
		want error
	}{
		{"short", ws, []float64{1, 2}, ErrShape},
		{"nil-workspace", nil, []float64{1, 2, 3}, ErrShape},
		{"other-shape-workspace", other.NewWorkspace(), []float64{1, 2, 3}, ErrShape},
		{"nan", ws, []float64{1, math.NaN(), 3}, ErrNonFinite},
		{"inf", ws, []float64{math.Inf(-1), 2, 3}, ErrNonFinite},
	} {
		if _, err := m.Predict(tc.ws, tc.x); !errors.Is(err, tc.want) {
			t.Errorf("%s: Predict = %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := m.PredictBatch(ws, make([]float64, 5), out); !errors.Is(err, ErrShape) {
		t.Errorf("PredictBatch with 5 values for 2 rows = %v, want ErrShape", err)
	}
	p, err := m.Predict(ws, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []float64{0, 1, -0.5, math.NaN()} {
		if _, _, err := p.Interval(level); !errors.Is(err, ErrLevel) {
			t.Errorf("Interval(%v) = %v, want ErrLevel", level, err)
		}
		if _, err := p.Quantile(level); !errors.Is(err, ErrProbability) {
			t.Errorf("Quantile(%v) = %v, want ErrProbability", level, err)
		}
	}
}

// TestPredictionInOriginalUnits checks that standardization is undone
// exactly: a target standardized as (y − a)/s has the prior
// (a + s·m, ν, α, s²·β) (the normal-gamma family's affine map).
func TestPredictionInOriginalUnits(t *testing.T) {
	m := mustModel[float64](t, Config{Inputs: 2, Hidden: []int{5}, Seed: 4})
	ws := m.NewWorkspace()
	x := []float64{0.3, -1.2}
	raw, err := m.Predict(ws, x)
	if err != nil {
		t.Fatal(err)
	}
	const a, s = 1000, 25
	xs := []float64{0.3*3 + 5, -1.2*3 + 5} // the same network input under x ↦ (x−5)/3
	if err := m.SetStandardization([]float64{5, 5}, []float64{3, 3}, a, s); err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(ws, xs)
	if err != nil {
		t.Fatal(err)
	}
	want := Prediction{Mean: a + s*raw.Mean, Var: s * s * raw.Var, VarCorrected: s * s * raw.VarCorrected,
		Alpha: raw.Alpha, Beta: s * s * raw.Beta, Nu: raw.Nu, VarAleatoric: s * s * raw.Var,
		InputZ: 1.2, Members: 1} // |−1.2| before, |(−1.2·3+5−5)/3| after
	// A few roundings in the affine maps and the network input: 1e-13.
	if diff := cmp.Diff(want, got, cmpRel(1e-13)); diff != "" {
		t.Errorf("prediction after standardization (-want +got):\n%s", diff)
	}
	lo, hi, err := got.Interval(0.9)
	if err != nil {
		t.Fatal(err)
	}
	// The interval holds its level of the predictive mass, and quantiles
	// invert the CDF; both within the Student-t functions' 1e-12.
	if mass := got.CDF(hi) - got.CDF(lo); math.Abs(mass-0.9) > 1e-12 {
		t.Errorf("interval mass %.15g, want 0.9", mass)
	}
	q, err := got.Quantile(0.3)
	if err != nil || math.Abs(got.CDF(q)-0.3) > 1e-12 {
		t.Errorf("CDF(Quantile(0.3)) = %.15g (err %v), want 0.3", got.CDF(q), err)
	}
}

// TestPredictAlphaAtOne checks Var where the learned α rounds to 1: with
// the α head's output fixed at −60, α−1 = softplus(−60) ≈ 8.8e-27 is far
// below half the spacing of float64 at 1, so α = 1 exactly, and Var =
// σ/(α−1) must still be finite, divided by the link's α−1 (to within the
// link kernels' tolerance, simd_test.go's ktSoftplusTol), on every kernel
// table.
func TestPredictAlphaAtOne(t *testing.T) {
	t.Run("float32", testPredictAlphaAtOne[float32])
	t.Run("float64", testPredictAlphaAtOne[float64])
}

func testPredictAlphaAtOne[T Float](t *testing.T) {
	for _, k := range []*kernelSet[T]{kernelsFor[T](), genericKernelsFor[T]()} {
		m := mustModel[T](t, Config{Inputs: 2, Hidden: []int{3}, Seed: 1})
		m.k = k
		out := m.lay.layers[len(m.lay.hidden)]
		clear(blockW(m.params, out, headAlpha))
		blockB(m.params, out, headAlpha)[0] = -60
		p, err := m.Predict(m.NewWorkspace(), []T{0.5, -1})
		if err != nil {
			t.Fatal(err)
		}
		want := p.Prior().sigma() / softplus(-60)
		if p.Alpha != 1 || !(math.Abs(p.Var-want) <= ktSoftplusTol[T]()*want) || !finite(p.VarCorrected) {
			t.Errorf("%s kernels: Alpha %v, Var %v (want %v), VarCorrected %v", k.name, p.Alpha, p.Var, want, p.VarCorrected)
		}
	}
}

// TestConcurrentPredict predicts from one model on many goroutines, each
// with its own Workspace, and compares with serial results; under -race it
// also checks that prediction does not write shared state.
func TestConcurrentPredict(t *testing.T) {
	for _, members := range []int{1, 5} {
		t.Run(fmt.Sprintf("members=%d", members), func(t *testing.T) { testConcurrentPredict(t, members) })
	}
}

func testConcurrentPredict(t *testing.T, members int) {
	m := trainFew[float32](t, Config{Inputs: 3, Hidden: []int{8}, Seed: 2, Members: members}, TrainConfig{BatchSize: 4}, 5)
	x, _ := randomBatch[float32](3, 100, 3)
	want := make([]Prediction, 100)
	if err := m.PredictBatch(m.NewWorkspace(), x, want); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := m.NewWorkspace()
			for i := 0; i < 100; i++ {
				p, err := m.Predict(ws, x[i*3:i*3+3])
				if err != nil || p != want[i] {
					errs <- errors.New("concurrent prediction differs from serial")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestMCDropoutPrediction rebuilds an ML_Bayes prediction by hand: for
// each of the model's MC-dropout masks, a Gaussian ML network whose output
// weights are multiplied by that mask predicts (m_s, σ²_s); the law of
// total variance then gives the mean, the aleatoric and the epistemic
// variance. It also checks that a prediction does not depend on the
// batch it is part of.
func TestMCDropoutPrediction(t *testing.T) {
	cfg := Config{Inputs: 3, Hidden: []int{7}, Loss: LossMLBayes, Dropout: 0.4, MCSamples: 11, Seed: 5}
	m := trainFew[float64](t, cfg, TrainConfig{BatchSize: 8, LearningRate: 1e-2}, 30)
	if err := m.SetStandardization([]float64{1, 2, 3}, []float64{0.5, 2, 1}, -4, 3); err != nil {
		t.Fatal(err)
	}
	x, _ := randomBatch[float64](7, 3, 3)
	got := make([]Prediction, 3)
	if err := m.PredictBatch(m.NewWorkspace(), x, got); err != nil {
		t.Fatal(err)
	}
	plain := cfg
	plain.Loss, plain.Dropout, plain.MCSamples = LossGaussianML, 0, 0
	single := mustModel[float64](t, plain)
	xm, xs, ym, ys := m.Standardization()
	if err := single.SetStandardization(xm, xs, ym, ys); err != nil {
		t.Fatal(err)
	}
	out, hidden := m.lay.layers[len(m.lay.hidden)], cfg.Hidden[0]
	width := m.lay.width(m.lay.last())
	ws := single.NewWorkspace()
	for i := range got {
		var means, vars []float64
		for s := 0; s < cfg.MCSamples; s++ {
			copy(single.params, m.params)
			mask := m.mcMask[s*width : (s+1)*width]
			for h := 0; h < m.lay.heads; h++ {
				w := blockW(single.params, out, h)
				for j := range w {
					w[j] *= mask[h*hidden+j]
				}
			}
			p, err := single.Predict(ws, x[i*3:i*3+3])
			if err != nil {
				t.Fatal(err)
			}
			means, vars = append(means, p.Mean), append(vars, p.Var)
		}
		mean, aleatoric := meanOf(means), meanOf(vars)
		var epistemic float64
		for _, v := range means {
			epistemic += (v - mean) * (v - mean)
		}
		epistemic /= float64(len(means))
		// The standardization above maps x_j to (x_j − xm_j)/xs_j.
		var z float64
		for j := range 3 {
			z = max(z, math.Abs((x[i*3+j]-xm[j])/xs[j]))
		}
		want := Prediction{Loss: LossMLBayes, Mean: mean, Var: aleatoric + epistemic, VarCorrected: aleatoric + epistemic,
			Alpha: math.Inf(1), VarAleatoric: aleatoric, VarEpistemic: epistemic, InputZ: z,
			Disagreement: math.Sqrt(epistemic / min(aleatoric, ys*ys)), Members: 1}
		// The two routes round differently (the library multiplies each
		// mask into the products of hidden units and weights, this test
		// into the weights; means in standardized or original units):
		// 1e-12 relative.
		if d := cmp.Diff(want, got[i], cmpRel(1e-12)); d != "" {
			t.Errorf("row %d (-by hand +PredictBatch):\n%s", i, d)
		}
		if !(got[i].VarEpistemic > 0) {
			t.Errorf("row %d: epistemic variance %v, want > 0 with dropout 0.4", i, got[i].VarEpistemic)
		}
		alone, err := m.Predict(m.NewWorkspace(), x[i*3:i*3+3])
		if err != nil || alone != got[i] {
			t.Errorf("row %d: Predict alone %+v (%v), in a batch %+v", i, alone, err, got[i])
		}
	}
}

// TestWorkspaceForMCDropout checks that a workspace without MC-dropout
// buffers, or with too few rows, is refused with ErrShape.
func TestWorkspaceForMCDropout(t *testing.T) {
	bayes := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Loss: LossMLBayes, Dropout: 0.2, MCSamples: 100, Seed: 1})
	ml := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Loss: LossGaussianML, Seed: 1})
	few := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Loss: LossMLBayes, Dropout: 0.2, MCSamples: 3, Seed: 1})
	x := []float32{0.5, -1}
	for name, ws := range map[string]*Workspace[float32]{"ML's": ml.NewWorkspace(), "3 samples'": few.NewWorkspace()} {
		if _, err := bayes.Predict(ws, x); err != ErrShape {
			t.Errorf("%s workspace: %v, want ErrShape", name, err)
		}
	}
	if _, err := ml.Predict(bayes.NewWorkspace(), x); err != nil {
		t.Errorf("ML with an ML_Bayes workspace of the same shape: %v", err)
	}
}
