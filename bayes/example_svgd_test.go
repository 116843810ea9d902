package bayes_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp/bayes"
)

// ExampleFitSVGD fits SVGD's 20 particles to a noisy line and reads the
// mixture's mean, its split of the variance, and an interval.
func ExampleFitSVGD() {
	r := rand.New(rand.NewPCG(1, 2))
	var x, y []float64
	for range 200 {
		v := 4*r.Float64() - 2
		x = append(x, v)
		y = append(y, 1+2*v+0.5*r.NormFloat64()) // noise sd 0.5
	}
	m, err := bayes.FitSVGD(bayes.SVGDConfig{Inputs: 1, Hidden: []int{20}, LearningRate: 0.005, Iterations: 1000, Seed: 1}, x, y)
	if err != nil {
		panic(err)
	}
	ws := m.NewWorkspace()
	var spread [2]float64
	for i, v := range []float64{1, 5} {
		p, err := m.Predict(ws, []float64{v})
		if err != nil {
			panic(err)
		}
		lo, hi, _ := p.Interval(0.95)
		spread[i] = math.Sqrt(p.VarEpistemic)
		fmt.Printf("x = %g: %d particles, mean %.1f, noise sd %.1f, 95%% interval width %.1f\n",
			v, p.Members, p.Mean, math.Sqrt(p.VarAleatoric), hi-lo)
	}
	// Far outside the data (x = 5; the inputs were in [−2, 2]) the
	// particles spread apart and the interval widens.
	fmt.Println("the particles' spread at x = 5 is over 5 times that at x = 1:", spread[1] > 5*spread[0])

	// Output:
	// x = 1: 20 particles, mean 3.0, noise sd 0.6, 95% interval width 2.3
	// x = 5: 20 particles, mean 10.3, noise sd 0.6, 95% interval width 2.6
	// the particles' spread at x = 5 is over 5 times that at x = 1: true
}
