package gcp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// FitOptions configures Trainer.Fit.
type FitOptions[T Float] struct {
	// Epochs is the most passes over the training data; at least 1.
	Epochs int
	// Seed fixes the order in which each epoch visits the data, and which
	// rows ValidationShare holds out.
	Seed uint64
	// ValX and ValY are an optional validation set (row-major, original
	// units), scored after every epoch.
	ValX, ValY []T
	// ValidationShare, in (0, 1), holds out that share of the rows of x
	// and y, drawn with Seed, as the validation set when ValX and ValY are
	// empty. The held-out rows are never trained on, and the
	// standardization Fit learns does not see them. 0 holds out nothing.
	ValidationShare float64
	// Patience, when > 0, turns on early stopping: training ends once the
	// validation NLL has not improved for Patience epochs in a row, and
	// Fit then restores the parameters of the epoch with the lowest
	// validation NLL, bit for bit (the trainer's optimizer state stays the
	// last epoch's). It needs a validation set. 0 trains all Epochs and
	// keeps the last epoch's parameters.
	Patience int
	// Progress, if set, is called after every epoch; returning false stops
	// training.
	Progress func(EpochStats) bool
}

// EpochStats summarizes one epoch of Fit.
type EpochStats struct {
	Epoch    int     // 1-based
	TrainNLL float64 // mean negative log predictive density of the epoch's steps, original units
	ValNLL   float64 // the same on the validation set after the epoch; NaN without one
	// BestEpoch is the epoch with the lowest ValNLL so far, BestValNLL
	// that NLL; 0 and NaN without a validation set.
	BestEpoch  int
	BestValNLL float64
}

// Fit trains on the row-major inputs x (len(y) rows) and targets y for up
// to opt.Epochs epochs of shuffled minibatches of the trainer's
// BatchSize, stopping early when opt.Patience says so. If
// the model has no standardization yet, Fit first learns it from x and y
// (less any rows ValidationShare holds out)
// and stores it in the model, so that predictions come in original units:
// every feature and the target are centred on their median and divided by
// a robust estimate of their standard deviation (robustCenterScale). On
// clean data that is the paper's zero mean and unit variance
// (appendixHyperparameters) up to sampling noise; to reproduce the paper
// exactly, call SetStandardization with means and standard deviations
// before Fit. It returns the last epoch's statistics, whose BestEpoch
// names the epoch whose parameters the model holds when early stopping
// is on. Errors are those of Step, plus ErrConfig for Epochs < 1, a
// Patience or ValidationShare out of range, or Patience without a
// validation set, ErrBatch for a ValidationShare that leaves no row on
// either side, and ErrNonFinite, naming the column, for a column that
// cannot be standardized in T (learnStandardization); a
// step that fails ends training with the model as it was before that step
// (and without the learned standardization if that was the first step).
// Fit allocates its buffers once; its steps allocate nothing.
func (t *Trainer[T]) Fit(x, y []T, opt FitOptions[T]) (EpochStats, error) {
	if t == nil || t.m == nil {
		return EpochStats{}, fmt.Errorf("%w: a nil or zero Trainer: use NewTrainer", ErrConfig)
	}
	m := t.m
	d, n := m.cfg.Inputs, len(y)
	if opt.Epochs < 1 {
		return EpochStats{}, fmt.Errorf("%w: Epochs = %d, want at least 1", ErrConfig, opt.Epochs)
	}
	if opt.Patience < 0 {
		return EpochStats{}, fmt.Errorf("%w: Patience = %d, want 0 (off) or more", ErrConfig, opt.Patience)
	}
	if !(opt.ValidationShare >= 0 && opt.ValidationShare < 1) {
		return EpochStats{}, fmt.Errorf("%w: ValidationShare = %v, want [0, 1)", ErrConfig, opt.ValidationShare)
	}
	if n < 1 {
		return EpochStats{}, ErrBatch
	}
	if len(x) != n*d || len(opt.ValX) != len(opt.ValY)*d {
		return EpochStats{}, ErrShape
	}
	for _, s := range [][]T{x, y, opt.ValX, opt.ValY} {
		if !m.k.allFinite(s) {
			return EpochStats{}, ErrNonFinite
		}
	}
	valX, valY, allX := opt.ValX, opt.ValY, x
	if len(valY) == 0 && opt.ValidationShare > 0 {
		var err error
		if x, y, valX, valY, err = holdOut(x, y, d, opt.ValidationShare, opt.Seed); err != nil {
			return EpochStats{}, err
		}
	}
	if opt.Patience > 0 && len(valY) == 0 {
		return EpochStats{}, fmt.Errorf("%w: Patience = %d needs a validation set: ValX and ValY, or ValidationShare", ErrConfig, opt.Patience)
	}
	r, err := newFitRun(t, x, y, valX, valY, opt.Seed, opt.Patience > 0)
	if err != nil {
		return EpochStats{}, err
	}
	for r.stats.Epoch < opt.Epochs {
		if err := r.epoch(); err != nil {
			return r.stats, err
		}
		if r.stats.Epoch == 1 {
			m.extendRanges(allX)
		}
		if opt.Progress != nil && !opt.Progress(r.stats) {
			break
		}
		if opt.Patience > 0 && r.stats.Epoch-r.stats.BestEpoch >= opt.Patience {
			break
		}
	}
	r.restoreBest()
	return r.stats, nil
}

// holdOut splits the n rows of x and y in two, drawn with seed: the
// training rows and round(share·n) validation rows, at least one of each.
func holdOut[T Float](x, y []T, d int, share float64, seed uint64) (trainX, trainY, valX, valY []T, err error) {
	n := len(y)
	k := int(math.Round(share * float64(n)))
	k = max(k, 1)
	if k >= n {
		return nil, nil, nil, nil, fmt.Errorf("%w: ValidationShare = %v of %d rows leaves no training row", ErrBatch, share, n)
	}
	perm := rand.New(rand.NewPCG(seed, holdOutStream)).Perm(n)
	trainX, trainY = make([]T, 0, (n-k)*d), make([]T, 0, n-k)
	valX, valY = make([]T, 0, k*d), make([]T, 0, k)
	for i, row := range perm {
		if i < k {
			valX, valY = append(valX, x[row*d:(row+1)*d]...), append(valY, y[row])
		} else {
			trainX, trainY = append(trainX, x[row*d:(row+1)*d]...), append(trainY, y[row])
		}
	}
	return trainX, trainY, valX, valY, nil
}

// fitStandardization sets the standardization of every feature and of the
// target to its median and robust scale (learnStandardization), or
// returns learnStandardization's error and leaves m as it was.
func (m *Model[T]) fitStandardization(x, y []T) error {
	center, scale, yCenter, yScale, err := learnStandardization(x, y, m.cfg.Inputs)
	if err != nil {
		return err
	}
	m.setStandardization(center, scale, yCenter, yScale)
	return nil
}

// learnStandardization returns the median and robust scale
// (robustCenterScale) of every feature of the row-major x, with d
// features per row, and of the targets y. A target scale that predictions
// cannot map back (targetScaleOK), or a column whose extreme values
// overflow T once standardized, one that spans more than float64's range
// about its median, or a float32 column whose outliers lie beyond
// float32's range in units of its scale, gives an error that wraps
// ErrNonFinite and names the column.
func learnStandardization[T Float](x, y []T, d int) (center, scale []float64, yCenter, yScale float64, err error) {
	n := len(y)
	buf := make([]float64, n)
	center, scale = make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		for i := range buf {
			buf[i] = float64(x[i*d+j])
		}
		center[j], scale[j] = robustCenterScale(buf)
		if err := standardizable[T](buf, center[j], scale[j]); err != nil {
			return nil, nil, 0, 0, fmt.Errorf("%w: feature %d: %v", ErrNonFinite, j, err)
		}
	}
	for i, v := range y {
		buf[i] = float64(v)
	}
	yCenter, yScale = robustCenterScale(buf)
	if !targetScaleOK(yScale) {
		return nil, nil, 0, 0, fmt.Errorf("%w: the target's scale %g lies outside [2⁻²⁵⁶, 2²⁵⁶], so its variances would over- or underflow float64: rescale the targets", ErrNonFinite, yScale)
	}
	if err := standardizable[T](buf, yCenter, yScale); err != nil {
		return nil, nil, 0, 0, fmt.Errorf("%w: the target: %v", ErrNonFinite, err)
	}
	return center, scale, yCenter, yScale, nil
}

// standardizable returns an error unless the smallest and largest of the
// sorted v, standardized by center and scale as standardizeRows and Step
// do it, are finite in T: then every value of v is.
func standardizable[T Float](v []float64, center, scale float64) error {
	inv := 1 / scale
	for _, e := range [...]float64{v[0], v[len(v)-1]} {
		if z := T((e - center) * inv); !finite(float64(z)) {
			return fmt.Errorf("%g is %v in %T once standardized by its median %g and scale %g", e, z, z, center, scale)
		}
	}
	return nil
}

// iqrPerSD is the interquartile range of a normal distribution in units of
// its standard deviation, 2·Φ⁻¹(¾).
const iqrPerSD = 1.3489795003921634

// robustCenterScale sorts v and returns its median and a robust scale: the
// interquartile range divided by iqrPerSD, which equals the standard
// deviation for normal data but, like the median, ignores the few gross
// outliers that GCP is built to withstand (with mean and standard
// deviation, one target of 1e300 would crush every other target into a
// sliver of width 1e-299). When more than half the values tie, so that
// the interquartile range is zero, the scale is the standard deviation;
// for a constant column (constantSpread) it is 1, which leaves the column
// unscaled.
func robustCenterScale(v []float64) (center, scale float64) {
	slices.Sort(v)
	center = quantileSorted(v, 0.5)
	// Halving the quartiles keeps their difference finite near
	// ±MaxFloat64 and, both scalings being exact for normal quartiles,
	// changes no bit elsewhere; a scale beyond MaxFloat64 is clamped to
	// it.
	scale = min((quantileSorted(v, 0.75)/2-quantileSorted(v, 0.25)/2)/(iqrPerSD/2), math.MaxFloat64)
	if constantSpread(scale, center, len(v)) {
		scale = stdDev(v)
	}
	if constantSpread(scale, center, len(v)) {
		return center, 1
	}
	// A subnormal scale has no finite reciprocal (SetStandardization
	// rejects it): the smallest normal float64 has one, 2¹⁰²², and the
	// column's standardized spread then shrinks below 1 but not to 0.
	return center, max(scale, minNormal)
}

// minNormal is the smallest positive normal float64, 2⁻¹⁰²².
const minNormal = 0x1p-1022

// constantSpread reports whether spread, the computed scale of n values
// centred on center, says that they are all equal: it is 0, not finite,
// or at most n·ε·|center| (ε = 2⁻⁵², the float64 machine epsilon). That
// bound is the rounding error of a mean of n equal values c by recursive
// summation, at most (n−1)·u·|c| with u = ε/2 (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., eq. 4.4), plus u·|c| for
// the division by n: a standard deviation about that mean below it cannot
// be told from the rounding. Forty copies of 0.1 have a standard deviation
// of 4e-17 about their computed mean, and 1/4e-17 would turn the next
// input of 0.10001 into a standardized feature of 2.5e11.
func constantSpread(spread, center float64, n int) bool {
	return !positiveFinite(spread) || spread <= float64(n)*epsilon*math.Abs(center)
}

// epsilon is the float64 machine epsilon, the gap between 1 and the next
// float64.
const epsilon = 0x1p-52

// quantileSorted returns the q-quantile of the sorted v by linear
// interpolation between order statistics. The gap between neighbours is
// taken as the difference of their halves, doubled after the product:
// scalings that are exact for normal values, so that they change no bit
// of the result, but keep the gap of −1e308 and 1e308 from overflowing.
func quantileSorted(v []float64, q float64) float64 {
	h := q * float64(len(v)-1)
	lo := int(h)
	if lo+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[lo] + (h-float64(lo))*(v[lo+1]/2-v[lo]/2)*2
}

// stdDev returns the standard deviation of v. Summing v[i]/n for the mean,
// and taking deviations as differences of halves divided by the largest
// one before squaring, keeps every step finite for values near the float64
// range; a result beyond MaxFloat64 is clamped to it. For n equal values
// the mean is still within n·u of them (constantSpread).
func stdDev(v []float64) float64 {
	n := float64(len(v))
	var mean float64
	for _, x := range v {
		mean += x / n
	}
	var big float64
	for _, x := range v {
		big = max(big, math.Abs(x/2-mean/2))
	}
	if big == 0 {
		return 0
	}
	var ss float64
	for _, x := range v {
		r := (x/2 - mean/2) / big
		ss += r * r
	}
	return min(math.Sqrt(ss/n)*big*2, math.MaxFloat64)
}

// meanNLL returns the mean negative log predictive density of the
// validated row-major inputs x and targets y, in the units of the target
// the network models (TargetTransform).
func (m *Model[T]) meanNLL(ws *Workspace[T], x, y []T) float64 {
	var buf [workspaceRows]Prediction
	d := m.cfg.Inputs
	var sum float64
	for s := 0; s < len(y); s += workspaceRows {
		k := min(workspaceRows, len(y)-s)
		if err := m.predictModeled(ws, x[s*d:(s+k)*d], buf[:k]); err != nil {
			return math.NaN()
		}
		for i, p := range buf[:k] {
			sum -= p.LogPDF(float64(y[s+i]))
		}
	}
	return sum / float64(len(y))
}
