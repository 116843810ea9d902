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
