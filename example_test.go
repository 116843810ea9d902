package gcp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/gcpnet/gcp"
)

// A GCP network learns a mean and a variance that both depend on x.
func Example() {
	// y = 2x + noise whose standard deviation grows with |x|.
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float32, 2000), make([]float32, 2000)
	for i := range x {
		xi := 4*r.Float64() - 2
		x[i], y[i] = float32(xi), float32(2*xi+(0.1+0.5*math.Abs(xi))*r.NormFloat64())
	}
	model, err := gcp.New[float32](gcp.Config{Inputs: 1, Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(model, gcp.TrainConfig{LearningRate: 3e-3, BatchSize: 32})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float32]{Epochs: 200}); err != nil {
		panic(err)
	}
	ws := model.NewWorkspace() // one per goroutine
	for _, xi := range []float32{-1.5, 1.5} {
		p, err := model.Predict(ws, []float32{xi})
		if err != nil {
			panic(err)
		}
		// About 100 samples lie within 0.1 of x, with noise sd 0.85: the
		// mean is known to about ±0.085 there, so 0.25 is 3 standard errors.
		mean, sd := 2*float64(xi), 0.1+0.5*math.Abs(float64(xi))
		fmt.Printf("x=%+.1f: mean within 0.25 of %+.0f: %t; sd within 20%% of %.2f: %t\n", xi,
			mean, math.Abs(p.Mean-mean) < 0.25, sd, math.Abs(math.Sqrt(p.VarCorrected)/sd-1) < 0.2)
	}
	// Output:
	// x=-1.5: mean within 0.25 of -3: true; sd within 20% of 0.85: true
	// x=+1.5: mean within 0.25 of +3: true; sd within 20% of 0.85: true
}

// The outlier-corrected variance divides by α − A(α) instead of α − 1.
func ExampleNormalGamma_VarCorrected() {
	p := gcp.NormalGamma{M: 0, Nu: 1, Alpha: 2, Beta: 1}
	fmt.Printf("V_est = %.4f, corrected = %.4f\n", p.Var(), p.VarCorrected())
	// Output: V_est = 2.0000, corrected = 1.4481
}

// The GCP gradient of one observation is the gradient of −ln of the
// Student-t predictive (Lemma 2.1); GCPStep applies it.
func ExampleNormalGamma_GCPStep() {
	p := gcp.NormalGamma{M: 0, Nu: 1, Alpha: 2, Beta: 1}
	for i := 0; i < 3; i++ {
		p = p.GCPStep(1, 0.1) // observe y = 1 three times
	}
	fmt.Printf("m moved towards 1: %.3f\n", p.M)
	// Output: m moved towards 1: 0.282
}

// Intervals come from the Student-t predictive distribution.
func ExampleNormalGamma_Interval() {
	p := gcp.NormalGamma{M: 10, Nu: 1, Alpha: 3, Beta: 2}
	lo, hi, err := p.Interval(0.95)
	if err != nil {
		panic(err)
	}
	fmt.Printf("95%% of the predictive mass lies in [%.3f, %.3f]\n", lo, hi)
	// Output: 95% of the predictive mass lies in [7.175, 12.825]
}

// Training in the background while serving: predict from the model an
// atomic.Pointer holds, train a clone, and publish it. Prediction takes no
// lock, and no goroutine ever sees a model that is being trained.
func ExampleModel_Clone() {
	var live atomic.Pointer[gcp.Model[float64]]
	first, err := gcp.New[float64](gcp.Config{Inputs: 1, Hidden: []int{8}, Seed: 1})
	if err != nil {
		panic(err)
	}
	live.Store(first)

	var wg sync.WaitGroup
	for g := 0; g < 4; g++ { // the serving goroutines
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := live.Load().NewWorkspace() // fits every model of this shape
			for i := 0; i < 100; i++ {
				if _, err := live.Load().Predict(ws, []float64{0.5}); err != nil {
					panic(err)
				}
			}
		}()
	}

	x, y := []float64{0, 0.5, 1}, []float64{0, 1, 2}
	next := live.Load().Clone()
	trainer, err := gcp.NewTrainer(next, gcp.TrainConfig{BatchSize: 3})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float64]{Epochs: 10}); err != nil {
		panic(err)
	}
	live.Store(next) // publish; readers pick it up on their next Load
	wg.Wait()
	fmt.Println("serving the retrained model:", live.Load() == next)
	// Output: serving the retrained model: true
}

// The paper's comparators share the machinery: here ML_Bayes, a Gaussian
// network trained with dropout that predicts by MC dropout and splits its
// variance into the noise of the data and its own uncertainty, which grows
// away from the data.
func ExampleLoss() {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float32, 500), make([]float32, 500)
	for i := range x {
		xi := 2*r.Float64() - 1 // data only on [−1, 1]
		x[i], y[i] = float32(xi), float32(xi+0.3*r.NormFloat64())
	}
	model, err := gcp.New[float32](gcp.Config{Inputs: 1, Loss: gcp.LossMLBayes, Dropout: 0.3, Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(model, gcp.TrainConfig{LearningRate: 3e-3, BatchSize: 32})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float32]{Epochs: 100}); err != nil {
		panic(err)
	}
	ws := model.NewWorkspace()
	in, err := model.Predict(ws, []float32{0.5})
	if err != nil {
		panic(err)
	}
	out, err := model.Predict(ws, []float32{5})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v: noise sd within 20%% of 0.3: %t\n", in.Loss, math.Abs(math.Sqrt(in.VarAleatoric)/0.3-1) < 0.2)
	fmt.Printf("epistemic variance grows away from the data: %t\n", out.VarEpistemic > 10*in.VarEpistemic)
	// Output:
	// ML_Bayes: noise sd within 20% of 0.3: true
	// epistemic variance grows away from the data: true
}

// AutoFit chooses the learning rate, dropout and architecture on held-out
// rows, stops each candidate early, trains an ensemble of AutoMembers
// networks with the winner's settings and calibrates it: the recipe for
// data nobody has tuned for. The test data stays out of it. Here
// AutoOptions narrows the search to a second or so: two learning rates
// by two dropout rates on a layer of 20 units, then a layer of 50, at
// most 100 epochs each; the zero AutoOptions searches 16 pairs and three
// architectures for up to 2000 epochs.
func ExampleAutoFit() {
	// y = sin(3x) + noise with sd 0.05 + 0.2|x|; 500 rows to train on and
	// 5000 held back to check the intervals.
	draw := func(seed uint64, n int) (x, y []float32) {
		r := rand.New(rand.NewPCG(seed, 7))
		x, y = make([]float32, n), make([]float32, n)
		for i := range x {
			xi := 2*r.Float64() - 1
			x[i], y[i] = float32(xi), float32(math.Sin(3*xi)+(0.05+0.2*math.Abs(xi))*r.NormFloat64())
		}
		return x, y
	}
	x, y := draw(1, 500)
	opt := gcp.AutoOptions{
		LearningRates: []float64{1e-3, 3e-3},
		Dropouts:      []float64{0, 0.1},
		Architectures: [][]int{{20}, {50}},
		MaxEpochs:     100,
		Seed:          1,
	}
	model, res, err := gcp.AutoFit(gcp.Config{Inputs: 1, Seed: 1}, gcp.TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		panic(err)
	}
	fmt.Printf("searched %d candidates on %d rows, %d held out\n", res.Candidates, res.TrainRows, res.ValRows)

	testX, testY := draw(2, 5000)
	preds := make([]gcp.Prediction, len(testY))
	if err := model.PredictBatch(model.NewWorkspace(), testX, preds); err != nil {
		panic(err)
	}
	inside := 0
	for i, p := range preds {
		lo, hi, _ := p.CalibratedInterval(0.9)
		if lo <= float64(testY[i]) && float64(testY[i]) <= hi {
			inside++
		}
	}
	// With 5000 points the sampling error of a coverage is 0.4 points;
	// the rest of the 3 is the calibration's own error on 500 rows.
	cover := float64(inside) / float64(len(testY))
	fmt.Printf("90%% intervals cover within 3 points of 90%%: %t\n", math.Abs(cover-0.9) < 0.03)
	// Output:
	// searched 5 candidates on 450 rows, 50 held out
	// 90% intervals cover within 3 points of 90%: true
}

// InputZ says how far an input lies from the training data, in robust
// standard deviations, and OutsideRange whether it left the range of any
// feature: the model's variances say nothing about such inputs.
func ExamplePrediction_InputZ() {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 500), make([]float64, 500)
	for i := range x {
		x[i] = r.Float64() // features in [0, 1)
		y[i] = 2*x[i] + 0.1*r.NormFloat64()
	}
	model, err := gcp.New[float64](gcp.Config{Inputs: 1, Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(model, gcp.TrainConfig{})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float64]{Epochs: 5}); err != nil {
		panic(err)
	}
	ws := model.NewWorkspace()
	for _, xi := range []float64{0.5, 1e6} {
		p, err := model.Predict(ws, []float64{xi})
		if err != nil {
			panic(err)
		}
		outside, _ := model.OutsideRange([]float64{xi})
		fmt.Printf("x = %g: InputZ above 4: %t, features outside the training range: %d\n", xi, p.InputZ > 4, outside)
	}
	// Output:
	// x = 0.5: InputZ above 4: false, features outside the training range: 0
	// x = 1e+06: InputZ above 4: true, features outside the training range: 1
}

// An ensemble (Config.Members) knows where it has not seen data: its
// members agree where the training inputs were dense and drift apart in a
// gap and beyond the data, which Prediction.Disagreement measures in units
// of the noise.
func ExampleConfig_members() {
	// y = x³ + noise on [−4, −2] ∪ [2, 4], as in the paper's Sec. 6.2.
	r := rand.New(rand.NewPCG(1, 2))
	var x, y []float32
	for range 200 {
		xi := 2 + 2*r.Float64()
		if r.IntN(2) == 0 {
			xi = -xi
		}
		x, y = append(x, float32(xi)), append(y, float32(xi*xi*xi+3*r.NormFloat64()))
	}
	model, err := gcp.New[float32](gcp.Config{Inputs: 1, Members: 5, Seed: 1})
	if err != nil {
		panic(err)
	}
	trainer, err := gcp.NewTrainer(model, gcp.TrainConfig{LearningRate: 3e-3, Seed: 1})
	if err != nil {
		panic(err)
	}
	if _, err := trainer.Fit(x, y, gcp.FitOptions[float32]{Epochs: 300, Seed: 1}); err != nil {
		panic(err)
	}
	ws := model.NewWorkspace()
	disagreement := func(at float32) float64 {
		p, err := model.Predict(ws, []float32{at})
		if err != nil {
			panic(err)
		}
		return p.Disagreement
	}
	data, gap, far := disagreement(3), disagreement(0), disagreement(1e6)
	fmt.Printf("in the gap the members disagree more than on the data: %t\n", gap > data)
	fmt.Printf("on the data: trust it: %t; at a million: trust it: %t\n", data < 1, far < 1)
	// Output:
	// in the gap the members disagree more than on the data: true
	// on the data: trust it: true; at a million: trust it: false
}

// AutoFit trains a model of several targets from targets given row-major,
// Targets a row; PredictMulti then gives their joint predictive: here two
// targets whose noise correlates at 0.8, and the share of 5000 new rows
// inside the calibrated 95% region.
func ExampleAutoFit_severalTargets() {
	draw := func(seed uint64, n int) (x, y []float64) {
		r := rand.New(rand.NewPCG(seed, 7))
		x, y = make([]float64, n), make([]float64, 2*n)
		for i := range x {
			x[i] = 2*r.Float64() - 1
			g1, g2 := r.NormFloat64(), r.NormFloat64()
			y[2*i] = math.Sin(3*x[i]) + 0.2*g1
			y[2*i+1] = x[i] + 0.1*(0.8*g1+0.6*g2)
		}
		return x, y
	}
	x, y := draw(1, 600)
	opt := gcp.AutoOptions{LearningRates: []float64{3e-3}, Dropouts: []float64{0}, Architectures: [][]int{{20}}, MaxEpochs: 100, Seed: 1}
	model, _, err := gcp.AutoFit(gcp.Config{Inputs: 1, Targets: 2, Members: 1, Seed: 1}, gcp.TrainConfig{Seed: 1}, x, y, opt)
	if err != nil {
		panic(err)
	}
	testX, testY := draw(2, 5000)
	ws := model.NewWorkspace()
	var p gcp.MultiPrediction
	var corr float64
	inside := 0
	for i := range testX {
		if err := model.PredictMulti(ws, testX[i:i+1], &p); err != nil {
			panic(err)
		}
		corr += p.Corr(0, 1) / float64(len(testX))
		if in, _ := p.CalibratedInside(testY[2*i:2*i+2], 0.95); in {
			inside++
		}
	}
	fmt.Printf("mean predicted correlation %.1f\n", corr)
	// The sampling error of a coverage on 5000 rows is 0.3 points; the
	// rest of the 3 is the calibration's own on 600 rows.
	fmt.Printf("95%% region covers within 3 points of 95%%: %t\n", math.Abs(float64(inside)/float64(len(testX))-0.95) < 0.03)
	// Output:
	// mean predicted correlation 0.8
	// 95% region covers within 3 points of 95%: true
}
