package gcp

import "errors"

// Sentinel errors. They are returned bare on hot paths so that returning
// them allocates nothing; match them with errors.Is.
var (
	// ErrConfig reports an invalid Config or TrainConfig field; the
	// returned error wraps it and names the field.
	ErrConfig = errors.New("gcp: invalid configuration")
	// ErrShape reports a slice whose length does not match the model.
	ErrShape = errors.New("gcp: length does not match the model's shape")
	// ErrNonFinite reports a NaN or ±Inf in an input or target.
	ErrNonFinite = errors.New("gcp: input or target is NaN or Inf")
	// ErrBatch reports an empty batch or one larger than the trainer's
	// BatchSize.
	ErrBatch = errors.New("gcp: batch size out of range")
	// ErrLevel reports an interval level outside (0, 1).
	ErrLevel = errors.New("gcp: interval level outside (0, 1)")
	// ErrProbability reports a probability outside (0, 1).
	ErrProbability = errors.New("gcp: probability outside (0, 1)")
	// ErrDiverged reports a training step that would have made the loss,
	// a gradient or a parameter non-finite. The step is not applied: the
	// model and the optimizer state are left exactly as they were.
	ErrDiverged = errors.New("gcp: step rejected: it would make the model non-finite")
)
