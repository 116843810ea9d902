package bayes

import (
	"fmt"
	"slices"

	"github.com/gcpnet/gcp"
)

// Defaults of PBPConfig: the architecture and training length of the PBP
// paper's UCI experiments (Sec. 5), one hidden layer of 50 units and 40
// passes over the data. They are exported so that a program can report
// the settings a zero field selects.
const (
	PBPDefaultHidden = 50
	PBPDefaultEpochs = 40
)

// Limits on a model's shape. They bound what UnmarshalBinary may allocate
// from a stored header before it has checked the payload: six float64
// buffers of maxParams entries are 192 MiB.
const (
	maxInputs = 1 << 16
	maxWidth  = 1 << 16
	maxDepth  = 64
	maxParams = 1 << 22
	maxEpochs = 1 << 20
)

// PBPConfig is the shape of a PBP model and the length of its training. The
// zero values of the optional fields select the documented defaults.
type PBPConfig struct {
	// Inputs is the number of features of an input row. Required.
	Inputs int
	// Hidden is the number of units of each hidden layer. A nil Hidden
	// selects the paper's {50}; a non-nil empty one builds a network with
	// no hidden layer, Bayesian linear regression on the inputs.
	Hidden []int
	// Epochs is the number of passes over the data that Fit makes,
	// each an ADF pass followed by a refinement of the prior factors.
	// Default 40, the paper's.
	Epochs int
	// Seed fixes the initial weight means and the order in which every
	// epoch visits the training rows: the same PBPConfig and data give a
	// bit-identical model.
	Seed uint64
	// Standardization is how Fit standardizes the features and the
	// target: Robust (the default) or MeanSD, the paper's. Only Fit reads
	// it: the model keeps what it learned, and a saved model does not
	// store the rule, so a loaded one reports Robust.
	Standardization Standardization
}

// withDefaults returns c with its zero optional fields set to their
// defaults and Hidden copied, so that a caller's later change to its
// slice cannot reach the model.
func (c PBPConfig) withDefaults() PBPConfig {
	if c.Hidden == nil {
		c.Hidden = []int{PBPDefaultHidden}
	} else {
		c.Hidden = slices.Clone(c.Hidden)
	}
	if c.Epochs == 0 {
		c.Epochs = PBPDefaultEpochs
	}
	return c
}

// validate checks a PBPConfig after withDefaults against the package
// limits; the error wraps gcp.ErrConfig and names the field.
func (c PBPConfig) validate() error {
	if c.Inputs < 1 || c.Inputs > maxInputs {
		return fmt.Errorf("%w: Inputs = %d, want 1..%d", gcp.ErrConfig, c.Inputs, maxInputs)
	}
	if len(c.Hidden) > maxDepth {
		return fmt.Errorf("%w: %d hidden layers, at most %d", gcp.ErrConfig, len(c.Hidden), maxDepth)
	}
	for i, w := range c.Hidden {
		if w < 1 || w > maxWidth {
			return fmt.Errorf("%w: Hidden[%d] = %d, want 1..%d", gcp.ErrConfig, i, w, maxWidth)
		}
	}
	if c.Epochs < 1 || c.Epochs > maxEpochs {
		return fmt.Errorf("%w: Epochs = %d, want 1..%d", gcp.ErrConfig, c.Epochs, maxEpochs)
	}
	if err := c.Standardization.validate(); err != nil {
		return err
	}
	if p := paramCount(c.Inputs, c.Hidden); p > maxParams {
		return fmt.Errorf("%w: %d weights, at most %d", gcp.ErrConfig, p, maxParams)
	}
	return nil
}

// paramCount returns the number of weights, biases included, of a network
// with the given inputs and hidden widths and one output, in int64 so that
// the widest shapes the limits allow cannot overflow a 32-bit int.
func paramCount(inputs int, hidden []int) int64 {
	var p int64
	prev := int64(inputs)
	for _, w := range append(slices.Clip(hidden), 1) {
		p += (prev + 1) * int64(w)
		prev = int64(w)
	}
	return p
}
