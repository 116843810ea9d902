package gcp

// Parameter averaging. Minibatch training moves the parameters around
// their optimum by the noise of its steps: on small data, at the learning
// rates AutoFit finds, a network's held-out RMSE swung by 14–70% from one
// epoch to the next (Yacht, inner hold-outs), and early stopping kept
// whichever epoch the held-out NLL happened to favour. An exponential
// moving average of the parameters over the last steps (Polyak
// averaging; Polyak & Juditsky 1992, Izmailov et al. 2018) averages that
// noise out. A run that averages scores, keeps and returns the average
// in place of the last step's parameters, while training goes on from
// the last step's, so that the optimizer's state stays consistent with
// the parameters it moves.

// minAverageSteps is the shortest horizon of the average, in steps: an
// epoch of a small data set is a few steps, too few to average over.
const minAverageSteps = 100

// paramAverage is an exponential moving average of a model's parameters
// over a horizon of max(one epoch, minAverageSteps) steps. Until that
// many steps have passed it is the plain mean of the steps so far, so
// that the initial weights carry no weight once the horizon has passed.
type paramAverage[T Float] struct {
	avg     []T     // the average
	spare   []T     // the last step's parameters while the average is swapped in
	horizon float64 // in steps
	steps   int
	k       *kernelSet[T]
}

// newParamAverage returns an average of params over an epoch of
// epochSteps steps, starting from params.
func newParamAverage[T Float](k *kernelSet[T], params []T, epochSteps int) *paramAverage[T] {
	return &paramAverage[T]{
		avg: append([]T(nil), params...), spare: make([]T, len(params)),
		horizon: float64(max(epochSteps, minAverageSteps)), k: k,
	}
}

// update folds the parameters of one more step into the average:
//
//	avg += (params − avg) / min(steps, horizon)
func (a *paramAverage[T]) update(params []T) {
	a.steps++
	w := T(1 / min(float64(a.steps), a.horizon))
	a.k.scale(1-w, a.avg)
	a.k.axpy(w, params, a.avg)
}

// swap exchanges params and the average in place: once to score or keep
// the average, once more to train on.
func (a *paramAverage[T]) swap(params []T) {
	copy(a.spare, params)
	copy(params, a.avg)
	a.avg, a.spare = a.spare, a.avg
}
