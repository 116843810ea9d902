package bayes_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp/bayes"
)

// Example fits a PBP network to a noisy sine on [−3, 3] and predicts
// inside the data and far outside it. The predictions are gcp.Predictions,
// so their intervals come from package gcp.
func ExampleFitPBP() {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 500), make([]float64, 500)
	for i := range x {
		x[i] = 6*r.Float64() - 3
		y[i] = math.Sin(x[i]) + 0.2*r.NormFloat64()
	}
	model, err := bayes.FitPBP(bayes.PBPConfig{Inputs: 1}, x, y) // one hidden layer of 50 units, 40 epochs
	if err != nil {
		log.Fatal(err)
	}

	ws := model.NewWorkspace() // one per goroutine
	near, err := model.Predict(ws, []float64{1})
	if err != nil {
		log.Fatal(err)
	}
	lo, hi, err := near.Interval(0.95)
	if err != nil {
		log.Fatal(err)
	}
	far, err := model.Predict(ws, []float64{30})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("at x = 1: noise sd %.1f\n", math.Sqrt(near.VarAleatoric))
	fmt.Println("the mean is within 0.1 of sin(1):", math.Abs(near.Mean-math.Sin(1)) < 0.1)
	fmt.Println("sin(1) is inside the 95% interval:", lo < math.Sin(1) && math.Sin(1) < hi)
	fmt.Println("far from the data, the model's own uncertainty dominates:", far.VarEpistemic > 5*far.VarAleatoric)
	// Output:
	// at x = 1: noise sd 0.2
	// the mean is within 0.1 of sin(1): true
	// sin(1) is inside the 95% interval: true
	// far from the data, the model's own uncertainty dominates: true
}
