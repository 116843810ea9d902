package gcp

import (
	"errors"

	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/binfmt"
)

// Sentinel errors. They are returned bare on hot paths so that returning
// them allocates nothing; match them with errors.Is.
var (
	// ErrConfig reports an invalid Config or TrainConfig field; the
	// returned error wraps it and names the field.
	ErrConfig = errors.New("gcp: invalid configuration")
	// ErrShape reports a slice whose length does not match the model.
	ErrShape = errors.New("gcp: length does not match the model's shape")
	// ErrNonFinite reports a NaN or ±Inf in an input, a target, a
	// standardization or a stored model, a value that overflows the
	// model's element type, a target scale whose square over- or
	// underflows, or a prediction whose variance overflows float64.
	ErrNonFinite = errors.New("gcp: value is NaN, Inf or overflows")
	// ErrBatch reports an empty batch or one larger than the trainer's
	// BatchSize.
	ErrBatch = errors.New("gcp: batch size out of range")
	// ErrTooFewRows reports data too small for AutoFit to hold rows out
	// to choose and calibrate a model on: fewer than MinAutoFitRows. A
	// model trained on a handful of rows without them states intervals it
	// cannot know (2 rows gave a "95%" interval that covered 30% of new
	// targets), so AutoFit refuses rather than pretend.
	ErrTooFewRows = errors.New("gcp: too few rows")
	// ErrTargetIndex reports target indices a MultiPrediction cannot
	// condition on: one out of range or repeated, none, or every target
	// (which leaves nothing to predict).
	ErrTargetIndex = errors.New("gcp: target index out of range or repeated, or none or every target given")
	// ErrLevel reports an interval level outside (0, 1).
	ErrLevel = errors.New("gcp: interval level outside (0, 1)")
	// ErrNoConformal reports a model without the conformal calibration
	// that Model.ConformalInterval needs.
	ErrNoConformal = errors.New("gcp: the model has no conformal calibration")
	// ErrProbability reports a probability outside (0, 1).
	ErrProbability = errors.New("gcp: probability outside (0, 1)")
	// ErrNotRegular reports a path to save a model to that exists and is
	// not a regular file, such as a directory, a device or a FIFO:
	// SaveFile would replace it with one.
	ErrNotRegular = errors.New("gcp: path exists and is not a regular file")
	// ErrForeignFile reports a path to save a model to that holds a
	// regular file other than a saved model (or an empty file): SaveFile
	// would lose it.
	ErrForeignFile = errors.New("gcp: path holds a file of another kind, which a save would lose")
	// ErrDomain reports a target outside the domain of a
	// TargetTransform: one that is not positive, for TransformLog.
	ErrDomain = errors.New("gcp: target outside the target transform's domain")
	// ErrDiverged reports a training step that would have made the loss,
	// a gradient or a parameter non-finite. The step is not applied: the
	// model and the optimizer state are left exactly as they were.
	ErrDiverged = errors.New("gcp: step rejected: it would make the model non-finite")
)

// Sentinel errors of loading a saved model (UnmarshalBinary, ReadFrom,
// LoadFile). Each is one way stored bytes can fail to be a model, so a
// caller can tell a file that was cut short from one that was damaged or
// written by a newer release; the returned error wraps it and names the
// field or offset. A non-finite stored value gives ErrNonFinite and an
// invalid stored Config gives ErrConfig, as they do elsewhere.
var (
	// ErrMagic reports data that does not start with the saved-model
	// magic: not a saved model at all, or one mangled by a text-mode
	// transfer that rewrote line endings or stripped the eighth bit.
	ErrMagic = errors.New("gcp: not a saved model (bad magic)")
	// ErrVersion reports a format version this package cannot read, for
	// example one written by a newer release, or a version-5 section of
	// a kind it does not know, which a newer release added.
	ErrVersion = errors.New("gcp: unsupported saved-model format version")
	// ErrTruncated reports data that ends before the model does, as after
	// an interrupted copy.
	ErrTruncated = errors.New("gcp: saved model is truncated")
	// ErrChecksum reports a CRC-32C mismatch: the bytes changed after they
	// were written.
	ErrChecksum = errors.New("gcp: saved model fails its CRC-32C check")
	// ErrFormat reports bytes that pass the checksum but break the format:
	// a size beyond the package's limits, a parameter count that does not
	// match the stored Config, an unknown element type or flag, a
	// standardization marked unset that is not the identity, a version-5
	// section that breaks its kind's format, or bytes after the model's
	// end. A file this package wrote gives it only if
	// something was appended to it.
	ErrFormat = errors.New("gcp: malformed saved model")
	// ErrOverflow reports a float64 model value too large for float32,
	// met while loading a float64 model as Model[float32]; load it as
	// Model[float64] instead.
	ErrOverflow = errors.New("gcp: saved float64 value overflows float32")
)

// init has the packages that read and write model files return this
// package's load and save errors, so that errors.Is matches what they
// return to these sentinels (and their messages stay these).
func init() {
	binfmt.ErrMagic, binfmt.ErrVersion, binfmt.ErrTruncated = ErrMagic, ErrVersion, ErrTruncated
	binfmt.ErrChecksum, binfmt.ErrFormat = ErrChecksum, ErrFormat
	atomicfile.ErrNotRegular, atomicfile.ErrForeign = ErrNotRegular, ErrForeignFile
}
