package gcp_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp"
)

// twoTargets returns a model of two targets trained on 2000 rows whose
// targets are standard normal with correlation 0.8, whatever the input.
func twoTargets() *gcp.Model[float64] {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 2000), make([]float64, 4000)
	for i := range x {
		x[i] = r.Float64()
		g := r.NormFloat64()
		y[2*i], y[2*i+1] = g, 0.8*g+0.6*r.NormFloat64()
	}
	model, err := gcp.New[float64](gcp.Config{Inputs: 1, Hidden: []int{8}, Targets: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(model, gcp.TrainConfig{LearningRate: 1e-2, BatchSize: 100})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float64]{Epochs: 30}); err != nil {
		panic(err)
	}
	return model
}

// Conditional gives the predictive of some targets once others are
// known: knowing that the first of two targets correlated at 0.8 came
// out at 1.5 moves the second's mean to about 0.8·1.5 and narrows it.
func ExampleMultiPrediction_Conditional() {
	model := twoTargets()
	var p, c gcp.MultiPrediction
	if err := model.PredictMulti(model.NewWorkspace(), []float64{0.5}, &p); err != nil {
		panic(err)
	}
	if err := p.Conditional(&c, []int{0}, []float64{1.5}); err != nil {
		panic(err)
	}
	fmt.Printf("correlation %.1f; target 1 alone: sd %.1f\n", p.Corr(0, 1), math.Sqrt(p.CovCorrected(1, 1)))
	fmt.Printf("given target 0 = 1.5: mean %.1f, sd %.1f\n", c.Mean(0), math.Sqrt(c.CovCorrected(0, 0)))
	// Output:
	// correlation 0.8; target 1 alone: sd 1.0
	// given target 0 = 1.5: mean 1.2, sd 0.6
}

// Sample draws target vectors from the joint predictive, for what has no
// closed form: here the chance that the two targets' sum exceeds 2.
func ExampleMultiPrediction_Sample() {
	model := twoTargets()
	var p gcp.MultiPrediction
	if err := model.PredictMulti(model.NewWorkspace(), []float64{0.5}, &p); err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(3, 4)) // one per goroutine
	y := make([]float64, 2)
	over := 0
	for range 10000 {
		if err := p.Sample(y, r); err != nil {
			panic(err)
		}
		if y[0]+y[1] > 2 {
			over++
		}
	}
	fmt.Printf("P(y0 + y1 > 2) ≈ %.1f\n", float64(over)/10000)
	// Output:
	// P(y0 + y1 > 2) ≈ 0.1
}

// Under the Gaussian copula (AutoOptions.Laws) Conditional gives each
// remaining target's law given the others as a Prediction of its own,
// with its intervals: the second target is x + 0.1·(0.8·g₁ + 0.6·g₂) and
// the first sin 3x + 0.2·g₁, so knowing the first leaves the second a
// noise of 0.06 where it had 0.1, and moves its mean by 0.08·g₁.
func ExampleMultiPrediction_Conditional_copula() {
	r := rand.New(rand.NewPCG(1, 7))
	x, y := make([]float64, 600), make([]float64, 1200)
	for i := range x {
		x[i] = 2*r.Float64() - 1
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		y[2*i] = math.Sin(3*x[i]) + 0.2*g1
		y[2*i+1] = x[i] + 0.1*(0.8*g1+0.6*g2)
	}
	opt := gcp.AutoOptions{Laws: []gcp.JointLaw{gcp.LawCopula}, LearningRates: []float64{3e-3},
		Dropouts: []float64{0}, Architectures: [][]int{{20}}, MaxEpochs: 100, Seed: 1}
	model, _, err := gcp.AutoFit(gcp.Config{Inputs: 1, Targets: 2, Members: 1, Seed: 1}, gcp.TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		panic(err)
	}
	var p, c gcp.MultiPrediction
	if err := model.PredictMulti(model.NewWorkspace(), []float64{0.2}, &p); err != nil {
		panic(err)
	}
	y0 := math.Sin(0.6) + 0.2*1.5 // the first target, g₁ = 1.5
	if err := p.Conditional(&c, []int{0}, []float64{y0}); err != nil {
		panic(err)
	}
	alone, given := p.Marginal(1), c.Marginal(0)
	lo, hi, _ := alone.Interval(0.95)
	glo, ghi, _ := given.Interval(0.95)
	fmt.Printf("target 1 alone: mean %.1f, 95%% interval width %.1f\n", alone.Mean, hi-lo)
	fmt.Printf("given target 0: mean %.1f, width %.1f of alone's\n", given.Mean, (ghi-glo)/(hi-lo))
	// Output:
	// target 1 alone: mean 0.2, 95% interval width 0.4
	// given target 0: mean 0.3, width 0.7 of alone's
}
