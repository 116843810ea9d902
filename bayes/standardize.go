package bayes

import (
	"fmt"
	"math"
	"slices"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/robust"
)

// Standardization is how FitPBP and FitSVGD standardize the features and
// the target of their training rows: the network sees
// (x − centre)/scale and predicts (y − centre)/scale, and predictions are
// mapped back. The model keeps the centre and scale of every column, and
// its saved file stores them, whichever rule learned them: a file means
// the same whatever its rule, and the files of earlier releases, which
// all used MeanSD, load and predict as before.
type Standardization int

const (
	// Robust centres every column on its median and divides it by its
	// interquartile range over that of a normal (a standard deviation for
	// normal data), as gcp.Trainer.Fit does: one gross outlier among the
	// targets cannot drag every prediction along with it, as it does
	// through the mean and standard deviation. The default.
	Robust Standardization = iota
	// MeanSD uses the mean and the population standard deviation, as the
	// authors' code does (PBP_net.py and bayesian_nn.py: np.mean, np.std)
	// and so the GCP paper's comparison; gcp repro uses it.
	MeanSD
)

// String returns the rule's name: "robust" or "mean-sd".
func (s Standardization) String() string {
	switch s {
	case Robust:
		return "robust"
	case MeanSD:
		return "mean-sd"
	}
	return fmt.Sprintf("Standardization(%d)", int(s))
}

// validate returns an error wrapping gcp.ErrConfig for a rule that is
// neither Robust nor MeanSD.
func (s Standardization) validate() error {
	if s != Robust && s != MeanSD {
		return fmt.Errorf("%w: Standardization = %d, want Robust or MeanSD", gcp.ErrConfig, int(s))
	}
	return nil
}

// learn returns the centre and scale, by rule s, of every feature of the
// row-major training rows x (d features a row) and of their targets y,
// which it leaves as they are. A target scale outside the range
// predictions can map back (robust.TargetScaleOK: [2⁻²⁵⁶, 2²⁵⁶], as for
// gcp.Trainer.Fit), or a column whose extreme values overflow once
// standardized, gives an error wrapping gcp.ErrNonFinite that names the
// column.
func (s Standardization) learn(x, y []float64, d int) (xCenter, xScale []float64, yCenter, yScale float64, err error) {
	buf := make([]float64, len(y))
	xCenter, xScale = make([]float64, d), make([]float64, d)
	for j := 0; j <= d; j++ {
		what := "the target"
		if j < d {
			what = fmt.Sprintf("feature %d", j)
			for i := range buf {
				buf[i] = x[i*d+j]
			}
		} else {
			copy(buf, y)
		}
		lo, hi := slices.Min(buf), slices.Max(buf)
		center, scale := s.centerScale(buf)
		if j == d {
			yCenter, yScale = center, scale
			if err := robust.CheckTargetScale(scale); err != nil {
				return nil, nil, 0, 0, fmt.Errorf("%w: %v", gcp.ErrNonFinite, err)
			}
		} else {
			xCenter[j], xScale[j] = center, scale
		}
		if err := robust.Standardizable[float64](lo, hi, center, scale); err != nil {
			return nil, nil, 0, 0, fmt.Errorf("%w: %s: %v", gcp.ErrNonFinite, what, err)
		}
	}
	return xCenter, xScale, yCenter, yScale, nil
}

// centerScale returns the centre and scale of the column v by rule s,
// reordering v.
func (s Standardization) centerScale(v []float64) (center, scale float64) {
	if s == MeanSD {
		return meanScale(v)
	}
	return robust.CenterScale(v)
}

// meanScale returns the mean and the population standard deviation of v,
// with scale 1 for a constant column, as the authors' code does. A
// deviation of at most n·ε·|mean| counts as constant: it is the rounding
// error of the mean of n equal values, and dividing by it would blow the
// column up. A spread whose square overflows is computed from the values
// scaled by their largest magnitude, so that finite data always give a
// finite, positive scale.
func meanScale(v []float64) (mean, scale float64) {
	var peak float64
	for _, x := range v {
		peak = max(peak, math.Abs(x))
	}
	if peak == 0 {
		return 0, 1
	}
	n := float64(len(v))
	var sum float64
	for _, x := range v {
		sum += x / peak
	}
	mean = sum / n
	var ss float64
	for _, x := range v {
		d := x/peak - mean
		ss += d * d
	}
	mean, scale = mean*peak, math.Sqrt(ss/n)*peak
	if !(scale > n*0x1p-52*math.Abs(mean)) || !finite(scale) {
		scale = 1
	}
	return mean, scale
}
