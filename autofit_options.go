package gcp

import "fmt"

// validate checks the options after their defaults are filled in and
// returns an error wrapping ErrConfig that names the first bad field: an
// empty or oversized grid, a scale weighting outside [0, 1], a learning rate that is not finite and
// positive (0 would train at TrainConfig's default and report 0), a
// dropout rate outside [0, 1), a ValidationShare outside (0, 1), and a
// MaxEpochs, Patience or Workers below 0 or above its bound.
func (o AutoOptions) validate() error {
	if len(o.LearningRates) == 0 || len(o.Dropouts) == 0 || len(o.Architectures) == 0 || len(o.ScaleWeightings) == 0 {
		return fmt.Errorf("%w: AutoOptions: an empty grid", ErrConfig)
	}
	// Each factor is at most maxCandidates, so that the product of four
	// cannot overflow an int before the comparison.
	n := 1
	for _, k := range [...]int{len(o.LearningRates), len(o.Dropouts), len(o.Architectures), len(o.ScaleWeightings)} {
		if n = n * min(k, maxCandidates+1); n > maxCandidates {
			return fmt.Errorf("%w: AutoOptions: %d learning rates × %d dropout rates × %d architectures × %d scale weightings, want at most %d candidates",
				ErrConfig, len(o.LearningRates), len(o.Dropouts), len(o.Architectures), len(o.ScaleWeightings), maxCandidates)
		}
	}
	if o.TargetTransform > TransformLog {
		return fmt.Errorf("%w: AutoOptions.TargetTransform = %v", ErrConfig, o.TargetTransform)
	}
	for i, b := range o.ScaleWeightings {
		if err := checkScaleWeighting(b); err != nil {
			return fmt.Errorf("AutoOptions.ScaleWeightings[%d]: %w", i, err)
		}
	}
	for i, lr := range o.LearningRates {
		if !positiveFinite(lr) {
			return fmt.Errorf("%w: AutoOptions.LearningRates[%d] = %v, want finite and > 0", ErrConfig, i, lr)
		}
	}
	for i, p := range o.Dropouts {
		if !(p >= 0 && p < 1) {
			return fmt.Errorf("%w: AutoOptions.Dropouts[%d] = %v, want [0, 1)", ErrConfig, i, p)
		}
	}
	if !(o.ValidationShare > 0 && o.ValidationShare < 1) {
		return fmt.Errorf("%w: AutoOptions.ValidationShare = %v, want (0, 1)", ErrConfig, o.ValidationShare)
	}
	for _, f := range [...]struct {
		name   string
		v, max int
	}{{"MaxEpochs", o.MaxEpochs, maxEpochs}, {"Patience", o.Patience, maxEpochs}, {"Workers", o.Workers, maxWorkers}} {
		if f.v < 0 || f.v > f.max {
			return fmt.Errorf("%w: AutoOptions.%s = %d, want 0..%d", ErrConfig, f.name, f.v, f.max)
		}
	}
	return nil
}
