package gcp

// AutoPhase names a stage of AutoFit, as AutoRound reports it.
type AutoPhase int

const (
	// PhaseSearch is a round of the successive-halving search: Done of
	// Total rounds.
	PhaseSearch AutoPhase = iota
	// PhaseEnsemble is an epoch of the ensemble's run (Config.Members >
	// 1), while the calibration folds train behind it: Done epochs of at
	// most Total, which early stopping usually cuts short.
	PhaseEnsemble
	// PhaseCalibration is the cross-fitted calibration: Done of the Total
	// epochs its five fold models train, once Total is known (after the
	// search for a single network, after the ensemble's run for an
	// ensemble, which the folds have followed some way already).
	PhaseCalibration
)

// String returns the phase's name: "search", "ensemble" or "calibration".
func (p AutoPhase) String() string {
	switch p {
	case PhaseEnsemble:
		return "ensemble"
	case PhaseCalibration:
		return "calibration"
	}
	return "search"
}

// relay runs work on another goroutine and calls Progress, if set, on
// this one with every round work reports, in the order reported: the
// calibration folds and the ensemble train on the workers' goroutines,
// and Progress is called from the goroutine that called AutoFit, as
// AutoOptions says.
func (s *search[T]) relay(work func(report func(AutoRound))) {
	if s.opt.Progress == nil {
		work(func(AutoRound) {})
		return
	}
	rounds, done := make(chan AutoRound, 64), make(chan struct{})
	go func() {
		defer close(done)
		work(func(r AutoRound) { rounds <- r })
	}()
	for {
		select {
		case r := <-rounds:
			s.opt.Progress(r)
		case <-done:
			for {
				select {
				case r := <-rounds:
					s.opt.Progress(r)
				default:
					return
				}
			}
		}
	}
}
