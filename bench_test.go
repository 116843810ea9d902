package gcp

import (
	"fmt"
	"math"
	"testing"
)

// benchSizes are the model shapes of the benchmarks: the paper's UCI
// networks (D = 13, as Boston, with 50 hidden units) and its MSD network
// (D = 90 with 100 hidden units).
var benchSizes = []struct{ inputs, hidden int }{{13, 50}, {90, 100}}

func sizeName(inputs, hidden int) string { return fmt.Sprintf("D%dH%d", inputs, hidden) }

// reportSamples reports throughput in samples per second.
func reportSamples(b *testing.B, samplesPerOp int) {
	b.ReportMetric(float64(samplesPerOp)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// benchImpl is one kernel table to benchmark: each assembly table the
// CPU runs ("impl=avx512", "impl=avx2fma", "impl=neon") and the pure-Go
// one ("impl=generic"); the key=value form lets benchstat -col /impl put
// them side by side.
type benchImpl[T Float] struct {
	name string
	k    *kernelSet[T]
}

// benchImpls returns the tables to compare: the assembly ones, the one
// models use first, and generic.
func benchImpls[T Float]() []benchImpl[T] {
	var ims []benchImpl[T]
	if act := kernelsFor[T](); act.name != "generic" {
		tables := ktTables[T]()
		for i := len(tables) - 1; i >= 0; i-- {
			ims = append(ims, benchImpl[T]{"impl=" + tables[i].name, tables[i]})
		}
	}
	return append(ims, benchImpl[T]{"impl=generic", genericKernelsFor[T]()})
}

// benchTypes runs f for float32 and float64, each once per kernel table.
func benchTypes(b *testing.B, f32 func(*testing.B, *kernelSet[float32]), f64 func(*testing.B, *kernelSet[float64])) {
	b.Run("float32", func(b *testing.B) {
		for _, im := range benchImpls[float32]() {
			b.Run(im.name, func(b *testing.B) { f32(b, im.k) })
		}
	})
	b.Run("float64", func(b *testing.B) {
		for _, im := range benchImpls[float64]() {
			b.Run(im.name, func(b *testing.B) { f64(b, im.k) })
		}
	})
}

func benchPredict[T Float](b *testing.B, k *kernelSet[T], cfg Config, rows int) {
	m := mustModel[T](b, cfg)
	m.k = k
	ws := m.NewWorkspace()
	x, _ := randomBatch[T](1, rows, cfg.Inputs)
	out := make([]Prediction, rows)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchCPU(b)
	for i := 0; i < b.N; i++ {
		if err := m.PredictBatch(ws, x, out); err != nil {
			b.Fatal(err)
		}
	}
	cpu()
	reportSamples(b, rows)
}

// BenchmarkPredict measures single-sample latency, VarCorrected included.
func BenchmarkPredict(b *testing.B) {
	for _, s := range benchSizes {
		cfg := Config{Inputs: s.inputs, Hidden: []int{s.hidden}, Seed: 1}
		b.Run(sizeName(s.inputs, s.hidden), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchPredict(b, k, cfg, 1) },
				func(b *testing.B, k *kernelSet[float64]) { benchPredict(b, k, cfg, 1) })
		})
	}
}

// BenchmarkPredictBatch measures throughput on batches of 256 rows.
func BenchmarkPredictBatch(b *testing.B) {
	for _, s := range benchSizes {
		cfg := Config{Inputs: s.inputs, Hidden: []int{s.hidden}, Seed: 1}
		b.Run(sizeName(s.inputs, s.hidden), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchPredict(b, k, cfg, 256) },
				func(b *testing.B, k *kernelSet[float64]) { benchPredict(b, k, cfg, 256) })
		})
	}
}

// BenchmarkPredictMLBayes measures the latency of one ML_Bayes
// prediction: 50 MC-dropout passes (the paper's count, after Kendall &
// Gal) and the law of total variance.
func BenchmarkPredictMLBayes(b *testing.B) {
	for _, s := range benchSizes {
		cfg := Config{Inputs: s.inputs, Hidden: []int{s.hidden}, Loss: LossMLBayes, Dropout: 0.4, Seed: 1}
		b.Run(sizeName(s.inputs, s.hidden), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchPredict(b, k, cfg, 1) },
				func(b *testing.B, k *kernelSet[float64]) { benchPredict(b, k, cfg, 1) })
		})
	}
}

func benchStep[T Float](b *testing.B, k *kernelSet[T], inputs, hidden, batch int) {
	benchStepConfig(b, k, Config{Inputs: inputs, Hidden: []int{hidden}, Dropout: 0.1, Seed: 1}, batch)
}

// benchStepConfig measures one Adam step of a model of cfg at minibatch
// batch. The steps cycle through the minibatches of stepBenchRows random
// rows (one minibatch if it is larger): a million steps on one row
// (BenchmarkStepOverhead's batch 1 for 3 s) fitted it until the update
// diverged. A model of several targets takes cfg.Targets random targets
// a row.
func benchStepConfig[T Float](b *testing.B, k *kernelSet[T], cfg Config, batch int) {
	inputs, d := cfg.Inputs, max(cfg.Targets, 1)
	m := mustModel[T](b, cfg)
	m.k = k // before NewTrainer, whose optimizer takes the model's table
	tr := mustTrainer(b, m, TrainConfig{BatchSize: batch, LearningRate: 1e-4})
	batches := max(1, stepBenchRows/batch)
	x, y := randomBatch[T](1, batches*batch, inputs)
	if d > 1 {
		y, _ = randomBatch[T](2, batches*batch, d)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchCPU(b)
	for i := 0; i < b.N; i++ {
		j := i % batches * batch
		if _, err := tr.Step(x[j*inputs:(j+batch)*inputs], y[j*d:(j+batch)*d]); err != nil {
			b.Fatal(err)
		}
	}
	cpu()
	reportSamples(b, batch)
}

// BenchmarkStep measures one Adam GCP update with dropout, at the paper's
// minibatch of 5, at 256, and at 5000 (the PyTorch comparison's large
// batch, bench/peers.py).
func BenchmarkStep(b *testing.B) {
	for _, s := range benchSizes {
		for _, batch := range []int{5, 256, 5000} {
			b.Run(fmt.Sprintf("%s/batch%d", sizeName(s.inputs, s.hidden), batch), func(b *testing.B) {
				benchTypes(b,
					func(b *testing.B, k *kernelSet[float32]) { benchStep(b, k, s.inputs, s.hidden, batch) },
					func(b *testing.B, k *kernelSet[float64]) { benchStep(b, k, s.inputs, s.hidden, batch) })
			})
		}
	}
}

// BenchmarkStepMulti measures one Adam step of the UCI network (D = 13,
// H = 50, dropout 0.1) with three targets, the multivariate t's loss,
// at AutoFit's minibatch of 32, beside the same network with one target
// (d1), so that a change to the joint loss can be weighed against a
// whole step.
func BenchmarkStepMulti(b *testing.B) {
	for _, d := range []int{1, 3} {
		cfg := Config{Inputs: 13, Hidden: []int{50}, Dropout: 0.1, Targets: d, Seed: 1}
		b.Run(fmt.Sprintf("d%d", d), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchStepConfig(b, k, cfg, 32) },
				func(b *testing.B, k *kernelSet[float64]) { benchStepConfig(b, k, cfg, 32) })
		})
	}
}

// stepBenchRows is about how many rows a step benchmark cycles through.
const stepBenchRows = 4096

// stepOverheadBatches are the minibatches of BenchmarkStepOverhead and
// of TestStepAllocatesNothing: one row, the paper's 5 and AutoFit's 32.
var stepOverheadBatches = []int{1, 5, 32}

// BenchmarkStepOverhead measures the fixed cost of a step, what does not
// grow with the rows: Adam steps of the paper's UCI network (D = 13, H =
// 50, dropout 0.1) at the minibatches of stepOverheadBatches, whose time
// per step against the batch is close to a line; its intercept is the
// per-step overhead (the optimizer over all parameters, the checks, the
// calls of the kernels), its slope the work of a row. It runs on every
// kernel table the CPU has, float32 and float64.
func BenchmarkStepOverhead(b *testing.B) {
	for _, batch := range stepOverheadBatches {
		b.Run(fmt.Sprintf("batch%d", batch), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchStep(b, k, 13, 50, batch) },
				func(b *testing.B, k *kernelSet[float64]) { benchStep(b, k, 13, 50, batch) })
		})
	}
}

// linearBenchShapes are the first layers of the benchmark models, all four
// heads stacked (n = 4·H): a 5000-row batch of the MSD network (D = 90,
// H = 100) and of the UCI one (D = 13, H = 50), the UCI one's single row,
// the shape of Predict, and that row for an ensemble of five (n = 5·4·H),
// whose weights, 52 KB in float32, no longer fit a 32 KB L1 data cache:
// each call then streams them from L2, and its GFLOP/s fall to what L2
// delivers (about 32 bytes a cycle on AMD Zen 3, 4 bytes per FMA).
var linearBenchShapes = []struct{ rows, inputs, outputs int }{{5000, 90, 400}, {5000, 13, 200}, {1, 13, 200}, {1, 13, 1000}}

func benchLinearForward[T Float](b *testing.B, k *kernelSet[T], rows, inputs, outputs int) {
	x, _ := randomBatch[T](1, rows, inputs)
	w, bias := randomBatch[T](2, inputs, outputs)
	bias = append(bias, make([]T, outputs-len(bias))...)
	y := make([]T, rows*outputs)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchCPU(b)
	for i := 0; i < b.N; i++ {
		k.linearForward(rows, outputs, inputs, x, inputs, w, bias, y, outputs, true)
	}
	cpu()
	flops := 2 * float64(rows) * float64(inputs) * float64(outputs) * float64(b.N)
	b.ReportMetric(flops/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}

// BenchmarkLinearForward measures the first layer's forward kernel, ReLU
// fused, in GFLOP/s (2·B·D·n flops per call).
func BenchmarkLinearForward(b *testing.B) {
	for _, s := range linearBenchShapes {
		b.Run(fmt.Sprintf("B%dD%dn%d", s.rows, s.inputs, s.outputs), func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, k *kernelSet[float32]) { benchLinearForward(b, k, s.rows, s.inputs, s.outputs) },
				func(b *testing.B, k *kernelSet[float64]) { benchLinearForward(b, k, s.rows, s.inputs, s.outputs) })
		})
	}
}

// specialSink keeps benchmark results alive.
var specialSink float64

// specialBenchPoints returns n points spread evenly over [lo, hi], or
// log-uniformly if log is set.
func specialBenchPoints(n int, lo, hi float64, log bool) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		u := (float64(i) + 0.5) / float64(n)
		if log {
			xs[i] = lo * math.Pow(hi/lo, u)
		} else {
			xs[i] = lo + (hi-lo)*u
		}
	}
	return xs
}

// benchSpecialFunc times f over the points xs (len(xs) a power of two), cycling
// through them so that every branch is taken.
func benchSpecialFunc(b *testing.B, f func(float64) float64, xs []float64) {
	b.ReportAllocs()
	b.ResetTimer()
	mask := len(xs) - 1
	for i := 0; i < b.N; i++ {
		specialSink = f(xs[i&mask])
	}
}

func BenchmarkDigamma(b *testing.B) {
	benchSpecialFunc(b, digamma, specialBenchPoints(1024, 1e-2, 1e3, true))
}

func BenchmarkErfcx(b *testing.B) {
	benchSpecialFunc(b, erfcx, specialBenchPoints(1024, -5, 30, false))
}

// BenchmarkCorrectionA spreads α over [1e-7, 1e9], through every branch.
func BenchmarkCorrectionA(b *testing.B) {
	benchSpecialFunc(b, correctionA, specialBenchPoints(1024, 1e-7, 1e9, true))
}

func BenchmarkDigammaHalfStep(b *testing.B) {
	benchSpecialFunc(b, digammaHalfStep, specialBenchPoints(1024, 1e-1, 1e3, true))
}

func BenchmarkLgammaHalfStep(b *testing.B) {
	benchSpecialFunc(b, lgammaHalfStep, specialBenchPoints(1024, 1e-1, 1e3, true))
}

// studentTSink keeps the benchmarked calls from being optimized away.
var studentTSink float64

// studentTBenchPs are the probabilities the benchmarks cycle through:
// both tails, the body and the centre, so that every method is timed.
var studentTBenchPs = [...]float64{1e-12, 1e-6, 0.01, 0.2, 0.45, 0.7, 0.99, 1 - 1e-9}

func BenchmarkStudentTCDF(b *testing.B) {
	for _, dof := range []float64{1, 10, 1e3, 1e6} {
		var ts [len(studentTBenchPs)]float64
		for i, p := range studentTBenchPs {
			ts[i] = studentTQuantile(p, dof)
		}
		b.Run(fmt.Sprintf("dof=%g", dof), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				studentTSink = studentTCDF(ts[i%len(ts)], dof)
			}
		})
	}
}

func BenchmarkStudentTQuantile(b *testing.B) {
	for _, dof := range []float64{1, 10, 1e3, 1e6} {
		b.Run(fmt.Sprintf("dof=%g", dof), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				studentTSink = studentTQuantile(studentTBenchPs[i%len(studentTBenchPs)], dof)
			}
		})
	}
}

func benchGCPLoss[T Float](b *testing.B, k *kernelSet[T], n int) {
	z, y := randomBatch[T](3, n, 4)
	zm, za, zb, zn := make([]T, n), make([]T, n), make([]T, n), make([]T, n)
	for i := range y {
		zm[i], za[i], zb[i], zn[i] = z[4*i], z[4*i+1], z[4*i+2], z[4*i+3]
	}
	gm, ga, gb, gn := make([]T, n), make([]T, n), make([]T, n), make([]T, n)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchCPU(b)
	for i := 0; i < b.N; i++ {
		specialSink = k.gcpLoss(zm, za, zb, zn, y, 0, 1/float64(n), gm, ga, gb, gn)
	}
	cpu()
	reportSamples(b, n)
}

// BenchmarkGCPLoss measures the loss and gradient of a 256-row batch with
// a learned α, the Student-t part of Step.
func BenchmarkGCPLoss(b *testing.B) {
	benchTypes(b,
		func(b *testing.B, k *kernelSet[float32]) { benchGCPLoss(b, k, 256) },
		func(b *testing.B, k *kernelSet[float64]) { benchGCPLoss(b, k, 256) })
}

// ensembleSizes are the members of the ensemble benchmarks: a single
// network and Deep Ensembles' five.
var ensembleSizes = []int{1, 5}

// BenchmarkEnsemble measures a GCP ensemble on the paper's UCI network (D
// = 13, H = 50 per head) against a single network: one prediction, a
// batch of 256 (samples/s, so that per-member throughput is samples/s ×
// members), an Adam step at minibatch 32, and the central 95% interval of
// a prediction.
func BenchmarkEnsemble(b *testing.B) {
	const inputs, hidden = 13, 50
	for _, k := range ensembleSizes {
		cfg := Config{Inputs: inputs, Hidden: []int{hidden}, Seed: 1, Members: k}
		name := fmt.Sprintf("members=%d", k)
		b.Run("Predict/"+name, func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, ks *kernelSet[float32]) { benchPredict(b, ks, cfg, 1) },
				func(b *testing.B, ks *kernelSet[float64]) { benchPredict(b, ks, cfg, 1) })
		})
		b.Run("PredictBatch/"+name, func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, ks *kernelSet[float32]) { benchPredict(b, ks, cfg, 256) },
				func(b *testing.B, ks *kernelSet[float64]) { benchPredict(b, ks, cfg, 256) })
		})
		b.Run("Step/batch32/"+name, func(b *testing.B) {
			benchTypes(b,
				func(b *testing.B, ks *kernelSet[float32]) { benchStepConfig(b, ks, cfg, 32) },
				func(b *testing.B, ks *kernelSet[float64]) { benchStepConfig(b, ks, cfg, 32) })
		})
		b.Run("Interval/"+name, func(b *testing.B) {
			m := trainFew[float32](b, cfg, TrainConfig{BatchSize: 32, LearningRate: 1e-3}, 50)
			x, _ := randomBatch[float32](3, 1, inputs)
			p, err := m.Predict(m.NewWorkspace(), x)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if sinkLoss, _, err = p.Interval(0.95); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mixtureBenchSizes are the ensemble sizes K of the mixture benchmarks:
// one member, the typical five and the largest ensemble.
var mixtureBenchSizes = []int{1, 5, MaxMembers}

// mixtureBenchMembers returns k typical GCP members: dof log-spread over
// [20, 2000], scales within a factor 2 of each other and means spread over
// 0.3 scale, the fractions taken from the golden-ratio sequence so that
// every k covers the ranges evenly.
func mixtureBenchMembers(k int) []Component {
	c := make([]Component, k)
	for i := range c {
		u := math.Mod(0.5+float64(i)*0.6180339887498949, 1)
		v := math.Mod(0.3+float64(i)*0.7548776662466927, 1)
		w := math.Mod(0.1+float64(i)*0.5698402909980532, 1)
		c[i] = Component{Mean: 0.3 * (u - 0.5), Scale: 1 + v, DoF: 20 * math.Pow(100, w)}
	}
	return c
}

// BenchmarkMixtureInterval times the central intervals of the levels an
// ensemble's prediction reports, 0.5 to 0.99, in turn.
func BenchmarkMixtureInterval(b *testing.B) {
	levels := [...]float64{0.5, 0.8, 0.9, 0.95, 0.99}
	for _, k := range mixtureBenchSizes {
		c := mixtureBenchMembers(k)
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				lo, hi := mixtureInterval(c, levels[i%len(levels)])
				mixtureSink = lo + hi
			}
		})
	}
}

// BenchmarkMixtureQuantile times quantiles from 0.005 to 0.995 in turn.
func BenchmarkMixtureQuantile(b *testing.B) {
	probs := [...]float64{0.005, 0.025, 0.1, 0.5, 0.9, 0.975, 0.995}
	for _, k := range mixtureBenchSizes {
		c := mixtureBenchMembers(k)
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				mixtureSink = mixtureQuantile(c, probs[i%len(probs)])
			}
		})
	}
}

// BenchmarkMixtureJump times the intervals of BenchmarkMixtureInterval's
// levels on mixtures with a point member (jumpMixtures: the oes97 row, of
// five DoF-2 members, and 20 members with one), whose CDF jumps by 1/K
// within an ulp: the solver's way around the jump, beside the ordinary
// mixtures' one evaluation per end.
func BenchmarkMixtureJump(b *testing.B) {
	levels := [...]float64{0.5, 0.8, 0.9, 0.95, 0.99}
	for _, tc := range jumpMixtures() {
		if tc.name != "oes97" && tc.name != "max-members" {
			continue
		}
		c := tc.c
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				lo, hi := mixtureInterval(c, levels[i%len(levels)])
				mixtureSink = lo + hi
			}
		})
	}
}
