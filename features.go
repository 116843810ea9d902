package gcp

import (
	"fmt"
)

// What a model remembers of the data it was trained on, so that data of
// another shape or meaning can be refused and inputs far outside the
// training data can be flagged: the names of its features and target, and
// each feature's range over the training rows.

// SetFeatureNames stores the names of the model's input features, in
// order, and of its target, so that a program can check that its data has
// the columns the model was trained on (the gcp command does, by name).
// Names must be valid UTF-8 of at most 1024 bytes, and the feature names
// distinct and non-empty; target may be empty. It returns an error
// wrapping ErrShape for the wrong number of names and ErrConfig for a bad
// name; the model is then unchanged. The names are saved with the model.
// A model with an Encoding (SetEncoding) takes its names from it, and
// SetFeatureNames returns ErrConfig, as does a model whose law is the
// Gaussian copula of one-target models, whose names are its marginals'.
// It must not run beside prediction or any other method on m (see Model).
func (m *Model[T]) SetFeatureNames(features []string, target string) error {
	if m != nil && m.margins != nil {
		return errCopula("SetFeatureNames")
	}
	if m == nil || m.lay == nil || m.ext.encoding != nil {
		return fmt.Errorf("%w: the model is nil, was not built by New, or names its inputs by its encoding", ErrConfig)
	}
	if len(features) != m.cfg.Inputs {
		return fmt.Errorf("%w: %d feature names for %d inputs", ErrShape, len(features), m.cfg.Inputs)
	}
	if err := checkNames(features, target); err != nil {
		return err
	}
	m.featureNames, m.targetName = append([]string(nil), features...), target
	return nil
}

// FeatureNames returns copies of the names set by SetFeatureNames, or nil
// and "" if none were (or m is nil). For a model with an Encoding they
// are the names of its inputs (Encoding.InputNames) and its target.
func (m *Model[T]) FeatureNames() (features []string, target string) {
	if m == nil {
		return nil, ""
	}
	if e := m.ext.encoding; e != nil {
		return e.InputNames(), e.target
	}
	return append([]string(nil), m.featureNames...), m.targetName
}
