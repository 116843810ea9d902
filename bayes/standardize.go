package bayes

import (
	"fmt"
	"slices"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/paper"
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
// reordering v. MeanSD's are the paper's protocol's (paper.MeanSD and
// paper.Scale, as gcp repro's folds have them): the mean and the
// population standard deviation, scale 1 for a constant column, and
// finite for finite data whose spread's square overflows.
func (s Standardization) centerScale(v []float64) (center, scale float64) {
	if s == MeanSD {
		mean, sd := paper.MeanSD(v, 0, 1)
		return mean, paper.Scale(sd)
	}
	return robust.CenterScale(v)
}
