package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/bayes"
)

// The protocol of the paper's Sec. 6.4 and
// Sec. 6.5, one fold at a time.

// testShare is the share of rows in each test split: the paper's folds
// train on 95%.
const testShare = 0.05

// outlierScale is how many training-target standard deviations wide the
// outlier distribution is (Sec. 6.5).
const outlierScale = 10

// minTest is the smallest test split: the AUC needs two points.
const minTest = 2

// testSize returns the number of test rows of a 95/5 split of n rows,
// round(n/20).
func testSize(n int) int { return int(math.Round(testShare * float64(n))) }

// table is a data set in memory: len(y) rows of d features, row-major in
// x.
type table struct {
	x, y []float64
	d    int
}

// fold is one train/test split of the protocol.
type fold struct {
	trainX, trainY []float64 // the training split; trainY with its outliers
	testX, testY   []float64 // the test split, untouched
	// outliers lists the training rows whose targets were replaced, in
	// the order they were drawn.
	outliers []int
	// The seeds of the model's weights, of the trainer's dropout masks and
	// of Fit's shuffling, each drawn from the fold's stream.
	modelSeed, trainSeed, fitSeed uint64
}

// foldRand returns the random stream of fold f of a run seeded with seed:
// ChaCha8 keyed by both, so that every fold has a stream of its own and
// its draws do not depend on which goroutine runs it or when.
func foldRand(seed uint64, f int) *rand.Rand {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], seed)
	binary.LittleEndian.PutUint64(key[8:], uint64(f))
	copy(key[16:], "gcp repro folds")
	return rand.New(rand.NewChaCha8(key))
}

// newFold draws fold f from foldRand(seed, f), in this order: a random
// permutation of the rows, whose first testSize(n) rows are the test split
// and the rest, in permuted order, the training split; then, for
// outliers p > 0, round(p·n_train) distinct training rows, whose targets
// are replaced by draws from N(μ, (10σ)²), μ and σ the mean and standard
// deviation of the clean training targets (Sec. 6.5); last,
// the seeds of training.
func newFold(t table, seed uint64, f int, p float64) fold {
	r := foldRand(seed, f)
	n, d := len(t.y), t.d
	perm := r.Perm(n)
	nTest := testSize(n)
	var fd fold
	for i, row := range perm {
		x, y := t.x[row*d:(row+1)*d], t.y[row]
		if i < nTest {
			fd.testX, fd.testY = append(fd.testX, x...), append(fd.testY, y)
		} else {
			fd.trainX, fd.trainY = append(fd.trainX, x...), append(fd.trainY, y)
		}
	}
	if k := int(math.Round(p * float64(len(fd.trainY)))); k > 0 {
		mean, sd := meanSD(fd.trainY, 0, 1)
		fd.outliers = r.Perm(len(fd.trainY))[:k]
		for _, i := range fd.outliers {
			fd.trainY[i] = mean + outlierScale*sd*r.NormFloat64()
		}
	}
	fd.modelSeed, fd.trainSeed, fd.fitSeed = r.Uint64(), r.Uint64(), r.Uint64()
	return fd
}

// meanSD returns the mean and the standard deviation (dividing by the
// count, as NumPy's std does) of column j of the row-major v with stride
// columns per row. A standard deviation of at most n·ε·|mean| (n values,
// ε = 2⁻⁵²) is returned as 0: it is below the rounding error of the mean
// of n equal values by recursive summation, (n−1)·u·|c| with u = ε/2
// (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
// eq. 4.4), plus u·|c| for the division, so the column is constant. Forty
// copies of 0.1 would otherwise have a standard deviation of 4e-17 about
// their computed mean, and a scale of 4e-17 makes every fold diverge.
func meanSD(v []float64, j, stride int) (mean, sd float64) {
	n := float64(len(v) / stride)
	for i := j; i < len(v); i += stride {
		mean += v[i]
	}
	mean /= n
	var ss float64
	for i := j; i < len(v); i += stride {
		ss += (v[i] - mean) * (v[i] - mean)
	}
	sd = math.Sqrt(ss / n)
	if sd <= n*0x1p-52*math.Abs(mean) {
		sd = 0
	}
	return mean, sd
}

// standardization returns the paper's standardization of a training
// split (Appendix E): every feature and the target to zero
// mean and unit variance. A constant column, whose standard deviation is
// 0, keeps the scale 1: it is only centred.
func (fd fold) standardization(d int) (xMean, xScale []float64, yMean, yScale float64) {
	scale := func(sd float64) float64 {
		if sd > 0 {
			return sd
		}
		return 1
	}
	xMean, xScale = make([]float64, d), make([]float64, d)
	for j := range xMean {
		m, sd := meanSD(fd.trainX, j, d)
		xMean[j], xScale[j] = m, scale(sd)
	}
	yMean, sd := meanSD(fd.trainY, 0, 1)
	return xMean, xScale, yMean, scale(sd)
}

// errStopped reports a fold that stopped because another one failed.
var errStopped = errors.New("stopped")

// train trains a float32 model of the given loss by h on the fold's
// training split, standardized by fd.standardization. After every epoch
// it calls epoch, which returns false to stop: train then returns
// errStopped.
func (fd fold) train(d int, loss gcp.Loss, h hyper, epoch func() bool) (*gcp.Model[float32], error) {
	model, err := gcp.New[float32](gcp.Config{Inputs: d, Hidden: h.hidden, Dropout: h.dropout, Seed: fd.modelSeed, Loss: loss, Members: h.members})
	if err != nil {
		return nil, err
	}
	if err := model.SetStandardization(fd.standardization(d)); err != nil {
		return nil, err
	}
	tr, err := gcp.NewTrainer(model, gcp.TrainConfig{Optimizer: h.optimizer, Rho: h.rho, LearningRate: h.lr, BatchSize: h.batch, Seed: fd.trainSeed})
	if err != nil {
		return nil, err
	}
	stopped := false
	progress := func(gcp.EpochStats) bool {
		stopped = !epoch()
		return !stopped
	}
	if _, err := tr.Fit(convert[float32](fd.trainX), convert[float32](fd.trainY),
		gcp.FitOptions[float32]{Epochs: h.epochs, Seed: fd.fitSeed, Progress: progress}); err != nil {
		return nil, trainingError(err)
	}
	if stopped {
		return nil, errStopped
	}
	return model, nil
}

// network trains a model as train does and returns its predictions of
// the test split, in original units.
func (fd fold) network(d int, loss gcp.Loss, h hyper, epoch func() bool) ([]gcp.Prediction, error) {
	model, err := fd.train(d, loss, h, epoch)
	if err != nil {
		return nil, err
	}
	preds := make([]gcp.Prediction, len(fd.testY))
	if err := model.PredictBatch(model.NewWorkspace(), convert[float32](fd.testX), preds); err != nil {
		return nil, fmt.Errorf("predicting the test split: %w", err)
	}
	return preds, nil
}

// bayes trains the Bayesian comparator m by h on the fold's training
// split (which it standardizes itself by the mean and standard deviation,
// bayes.MeanSD, as fd.standardization does) and
// returns its predictions of the test split, stopped by ctx. It counts
// h.epochs epochs when done; epoch returning false then gives errStopped.
func (fd fold) bayes(ctx context.Context, m method, h hyper, epoch func() bool) ([]gcp.Prediction, error) {
	model, err := fitBayes(ctx, m, bayesHyper{epochs: h.epochs, hidden: h.hidden, seed: fd.modelSeed, lr: h.lr, batch: h.batch, standardize: bayes.MeanSD}, fd.trainX, fd.trainY)
	if err != nil {
		return nil, err
	}
	for range h.epochs {
		if !epoch() {
			return nil, errStopped
		}
	}
	preds, _, err := predictRowsOf(model, fd.testX)
	if err != nil {
		return nil, fmt.Errorf("predicting the test split: %w", err)
	}
	return preds, nil
}

// parallel calls do(0), …, do(n−1) on up to workers goroutines and
// returns the error of the lowest-numbered call that failed with an
// error other than errStopped. After a failure, stop reports true, so
// that calls under way can end early; calls not yet started are skipped.
func parallel(n, workers int, do func(i int, stop func() bool) error) error {
	var failed atomic.Bool
	stop := failed.Load
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if failed.Load() {
					continue // skip what was handed out before the failure
				}
				if err := do(i, stop); err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		}()
	}
	for i := 0; i < n && !failed.Load(); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, errStopped) {
			return err
		}
	}
	return nil
}
