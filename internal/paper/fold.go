// Package paper is the protocol of the GCP paper's experiments on UCI
// data (Sec. 6.4 and 6.5, Appendix E), in one place for the gcp
// command's repro, the Bayesian comparators and their tests: the random
// 95/5 folds, the outliers injected into a training split, and the
// standardization by the mean and the population standard deviation, as
// the authors' code does (np.mean, np.std).
package paper

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// TestShare is the share of rows in each test split: the paper's folds
// train on 95%.
const TestShare = 0.05

// OutlierScale is how many standard deviations of the clean training
// targets wide the outlier distribution is (Sec. 6.5).
const OutlierScale = 10

// TestSize returns the number of test rows of a 95/5 split of n rows,
// round(n/20).
func TestSize(n int) int { return int(math.Round(TestShare * float64(n))) }

// Fold is one train/test split of the protocol.
type Fold struct {
	TrainX, TrainY []float64 // the training split; TrainY with its outliers
	TestX, TestY   []float64 // the test split, untouched
	// Outliers lists the training rows whose targets were replaced, in
	// the order they were drawn.
	Outliers []int
	// The seeds of the model's weights, of the trainer's dropout masks and
	// of Fit's shuffling, each drawn from the fold's stream.
	ModelSeed, TrainSeed, FitSeed uint64
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

// NewFold draws fold f of the rows (x, y), d features a row in the
// row-major x, from the stream of seed and f, in this order: a random
// permutation of the rows, whose first TestSize(n) rows are the test
// split and the rest, in permuted order, the training split; then, for
// an outlier share p > 0, round(p·n_train) distinct training rows, whose
// targets are replaced by draws from N(μ, (10σ)²), μ and σ the mean and
// the standard deviation of the clean training targets (Sec. 6.5, by
// MeanSD); last, the seeds of training. A constant target has σ = 0, and
// its outliers are its value: the outliers' width is a multiple of the
// targets' spread, in the targets' units, and a column without spread
// has none to give them (the scale 1 that standardizes such a column is
// a convention for dividing by, not a width: in metres or in
// millimetres it would give the same outliers).
func NewFold(x, y []float64, d int, seed uint64, f int, p float64) Fold {
	r := foldRand(seed, f)
	n := len(y)
	perm := r.Perm(n)
	nTest := TestSize(n)
	var fd Fold
	for i, row := range perm {
		xi, yi := x[row*d:(row+1)*d], y[row]
		if i < nTest {
			fd.TestX, fd.TestY = append(fd.TestX, xi...), append(fd.TestY, yi)
		} else {
			fd.TrainX, fd.TrainY = append(fd.TrainX, xi...), append(fd.TrainY, yi)
		}
	}
	if k := int(math.Round(p * float64(len(fd.TrainY)))); k > 0 {
		mean, sd := MeanSD(fd.TrainY, 0, 1)
		fd.Outliers = r.Perm(len(fd.TrainY))[:k]
		for _, i := range fd.Outliers {
			fd.TrainY[i] = mean + OutlierScale*sd*r.NormFloat64()
		}
	}
	fd.ModelSeed, fd.TrainSeed, fd.FitSeed = r.Uint64(), r.Uint64(), r.Uint64()
	return fd
}

// Standardization returns the paper's standardization of the fold's
// training split, d features a row (Appendix E): every feature and the
// target to zero mean and unit variance, by MeanSD and Scale.
func (fd Fold) Standardization(d int) (xMean, xScale []float64, yMean, yScale float64) {
	xMean, xScale = make([]float64, d), make([]float64, d)
	for j := range xMean {
		m, sd := MeanSD(fd.TrainX, j, d)
		xMean[j], xScale[j] = m, Scale(sd)
	}
	yMean, sd := MeanSD(fd.TrainY, 0, 1)
	return xMean, xScale, yMean, Scale(sd)
}
