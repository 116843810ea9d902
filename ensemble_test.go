package gcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// embedMember copies the parameters of the single network s into member
// k of the ensemble e, a model of the same Config but for Members: in the
// stacked first layer, s's head h occupies the columns of e's head
// e.lay.head(h, k); in the later, block-diagonal layers, its block.
func embedMember[T Float](e, s *Model[T], k int) {
	el, sl := e.lay, s.lay
	for i, ly := range sl.layers {
		ely := el.layers[i]
		if i > 0 {
			for h := range sl.heads {
				copy(blockW(e.params, ely, el.head(h, k)), blockW(s.params, ly, h))
				copy(blockB(e.params, ely, el.head(h, k)), blockB(s.params, ly, h))
			}
			continue
		}
		u := sl.hidden[0]
		for h := range sl.heads {
			at := el.head(h, k) * u
			for j := range sl.inputs { // input-major: row j holds every head's units
				copy(e.params[ely.w+j*ely.rows+at:][:u], s.params[ly.w+j*ly.rows+h*u:][:u])
			}
			copy(e.params[ely.b+at:][:u], s.params[ly.b+h*u:][:u])
		}
	}
}

// ensembleOfSingles returns K single networks of cfg, seeded 1..K, and
// the ensemble of K members holding exactly their parameters, all with
// the same standardization.
func ensembleOfSingles(t *testing.T, cfg Config, members int) (*Model[float64], []*Model[float64]) {
	t.Helper()
	ecfg := cfg
	ecfg.Members = members
	e := mustModel[float64](t, ecfg)
	xm, xs := make([]float64, cfg.Inputs), make([]float64, cfg.Inputs)
	for j := range xm {
		xm[j], xs[j] = 0.1*float64(j), 1+0.5*float64(j)
	}
	singles := make([]*Model[float64], members)
	for k := range singles {
		c := cfg
		c.Seed = uint64(k + 1)
		singles[k] = mustModel[float64](t, c)
		embedMember(e, singles[k], k)
	}
	for _, m := range append([]*Model[float64]{e}, singles...) {
		if err := m.SetStandardization(xm, xs, 0.5, 2); err != nil {
			t.Fatal(err)
		}
	}
	return e, singles
}

// TestEnsembleMembersTrainAlone checks Config.Members' training recipe:
// an ensemble whose members start from the weights of K single networks
// and train on the same minibatches ends where the K networks end when
// trained alone, for every loss without MC dropout, and its Step reports
// their mean NLL. Adam's update is per coordinate and the ensemble's
// objective the sum of the members', so each member must get exactly its
// own gradient: a coupling between members (a shared normalization, one
// member's loss leaking into another's heads) moves the parameters by
// far more than the tolerance. The kernels tile the ensemble's wider
// matrices differently, which may change the order of the sums over the
// batch: 1e-10 relative to the parameters' scale after 40 Adam steps.
func TestEnsembleMembersTrainAlone(t *testing.T) {
	for _, loss := range []Loss{LossGCP, LossGaussianML, LossDPD} {
		t.Run(loss.String(), func(t *testing.T) {
			const K, batch = 3, 8
			cfg := Config{Inputs: 3, Hidden: []int{6, 4}, Loss: loss}
			e, singles := ensembleOfSingles(t, cfg, K)
			tc := TrainConfig{BatchSize: batch, LearningRate: 1e-2}
			et := mustTrainer(t, e, tc)
			st := make([]*Trainer[float64], K)
			for k := range st {
				st[k] = mustTrainer(t, singles[k], tc)
			}
			for step := range 40 {
				x, y := randomBatch[float64](uint64(100+step), batch, cfg.Inputs)
				got, err := et.Step(x, y)
				if err != nil {
					t.Fatal(err)
				}
				var want float64
				for _, tr := range st {
					l, err := tr.Step(x, y)
					if err != nil {
						t.Fatal(err)
					}
					want += l / K
				}
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Fatalf("step %d: ensemble NLL %v, members' mean %v", step, got, want)
				}
			}
			check := mustModel[float64](t, Config{Inputs: cfg.Inputs, Hidden: cfg.Hidden, Loss: loss, Members: K})
			for k, s := range singles {
				embedMember(check, s, k)
			}
			var worst, scale float64
			for i, v := range e.params {
				worst = max(worst, math.Abs(v-check.params[i]))
				scale = max(scale, math.Abs(v))
			}
			if worst > 1e-10*scale {
				t.Errorf("members drift from the networks trained alone by %.3g (parameter scale %.3g)", worst, scale)
			}
		})
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

// TestEnsembleEpistemicCubic is the experiment of Sec.
// Sec. 6.2 (Fig. 6.1) for a GCP ensemble of five,
// trained as the demo trains its panels (2000 epochs of minibatch 5,
// learning rate 3e-3): 20 points on [−4, −2] ∪ [2, 4], y ~ N(x³, 3²). Its
// epistemic standard deviation must grow in the gap (x = 0) and beyond the
// data (the mean of x = ±6) to at least 3× its mean over the training
// inputs, as ML_Bayes's does (TestEpistemicUncertainty); a model without
// epistemic uncertainty, or whose members all extrapolate alike, fails.
// Each side is logged: the members share their minibatches, and on one
// side they may extrapolate alike (x = −6: 0.81×, x = +6: 33× with these
// seeds). Then the newcomer's case: at a million times the training
// range the members disagree by far more than the noise, Disagreement ≫
// 1, while on the training inputs Disagreement stays below 1. Seeds: data
// 1, weights 1, shuffles and dropout 1.
func TestEnsembleEpistemicCubic(t *testing.T) {
	x, y := cubicData(20, 1)
	m := mustModel[float32](t, Config{Inputs: 1, Hidden: []int{50}, Members: 5, Seed: 1})
	tr := mustTrainer(t, m, TrainConfig{LearningRate: 3e-3, BatchSize: 5, Seed: 1})
	if _, err := tr.Fit(x, y, FitOptions[float32]{Epochs: 2000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	predict := func(v float64) Prediction {
		p, err := m.Predict(ws, []float32{float32(v)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sd := func(v float64) float64 { return math.Sqrt(predict(v).VarEpistemic) }
	var train, disagree float64
	for _, v := range x {
		train += sd(float64(v)) / float64(len(x))
		disagree = max(disagree, predict(float64(v)).Disagreement)
	}
	for _, v := range []float64{-6, 0, 6} {
		t.Logf("epistemic sd at x = %v: %.3g, %.2f× its mean %.3g over the training inputs", v, sd(v), sd(v)/train, train)
	}
	if gap := sd(0); !(gap >= 3*train) {
		t.Errorf("epistemic sd in the gap %.3g, want at least 3× its training mean %.3g", gap, train)
	}
	if beyond := (sd(-6) + sd(6)) / 2; !(beyond >= 3*train) {
		t.Errorf("epistemic sd at |x| = 6 %.3g, want at least 3× its training mean %.3g", beyond, train)
	}
	if !(disagree < 1) {
		t.Errorf("Disagreement up to %.3g on the training inputs, want below 1", disagree)
	}
	for _, v := range []float64{-4e6, 4e6} {
		if d := predict(v).Disagreement; !(d > 100) {
			t.Errorf("Disagreement %.3g at x = %g, a million times the training range: want ≫ 1", d, v)
		}
	}
}

// TestEnsembleConfig checks Members' validation and defaults.
func TestEnsembleConfig(t *testing.T) {
	for _, k := range []int{-1, MaxMembers + 1} {
		if _, err := New[float32](Config{Inputs: 2, Members: k}); !errors.Is(err, ErrConfig) {
			t.Errorf("Members = %d: got %v, want ErrConfig", k, err)
		}
	}
	one := mustModel[float32](t, Config{Inputs: 2})
	if got := one.Config().Members; got != 1 {
		t.Errorf("default Members = %d, want 1", got)
	}
	five := mustModel[float32](t, Config{Inputs: 2, Members: 5})
	if got, want := five.NumParams(), 5*one.NumParams(); got != want {
		t.Errorf("5 members have %d parameters, want 5 × %d", got, one.NumParams())
	}
	// A workspace of a single network does not serve an ensemble of the
	// same total width.
	wide := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}, Members: 2, Loss: LossGaussianML})
	narrow := mustModel[float32](t, Config{Inputs: 2, Hidden: []int{4}})
	if _, err := wide.Predict(narrow.NewWorkspace(), []float32{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("a 4-head single network's workspace for 2 members of 2 heads: got %v, want ErrShape", err)
	}
}

// TestEnsembleOneMemberUnchanged checks that Members: 1 is today's model:
// the same parameters, predictions and saved bytes as a Config without
// Members, for every loss.
func TestEnsembleOneMemberUnchanged(t *testing.T) {
	for _, loss := range allLosses {
		cfg := Config{Inputs: 3, Hidden: []int{5}, Loss: loss, Seed: 4}
		if loss == LossMLBayes {
			cfg.Dropout = 0.3
		}
		a := trainFew[float64](t, cfg, TrainConfig{BatchSize: 4, Seed: 2}, 5)
		cfg.Members = 1
		b := trainFew[float64](t, cfg, TrainConfig{BatchSize: 4, Seed: 2}, 5)
		ba, _ := a.MarshalBinary()
		bb, _ := b.MarshalBinary()
		if string(ba) != string(bb) {
			t.Errorf("%v: Members 1 saves other bytes than Members 0", loss)
		}
		x, _ := randomBatch[float64](9, 3, 3)
		pa, pb := make([]Prediction, 3), make([]Prediction, 3)
		if err := a.PredictBatch(a.NewWorkspace(), x, pa); err != nil {
			t.Fatal(err)
		}
		if err := b.PredictBatch(b.NewWorkspace(), x, pb); err != nil {
			t.Fatal(err)
		}
		for i := range pa {
			if pa[i] != pb[i] || pa[i].Members != 1 || pa[i].Components != [MaxMembers]Component{} {
				t.Errorf("%v row %d: %+v and %+v", loss, i, pa[i], pb[i])
			}
		}
	}
}
