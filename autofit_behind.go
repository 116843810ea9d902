package gcp

// The learning-curve rule of AutoFit's architecture stage. Each further
// architecture trains with the grid winner's settings to the full epoch
// budget and early stopping, and is kept only when its held-out scores
// are clearly better than the winner's at their best epochs (replaces).
// A deeper head that has been clearly worse than the winner was at the
// same epoch, and has stopped improving, is not kept in practice;
// training it on to the patience's end (a tenth of the budget, 200
// epochs on small data, where a head of two layers costs about six times
// the grid's) only confirms that. The winner has finished before the
// stage starts, so the rule holds a run to a complete curve, never to
// another run in progress: what it stops depends on the runs' results
// alone, not on the order in which the workers trained them.

const (
	// behindMargin is how far, in nats per held-out row, a candidate's
	// best held-out NLL must be above the lead's at the same epoch to be
	// clearly behind. On the inner splits of Boston, Yacht and Concrete
	// (gcp splits -inner) a head that the stage then kept was behind the
	// winner's curve by up to 0.104 nats while it was still learning, and
	// by up to 0.080 once it had not improved for 20 epochs;
	// docs/reproduction.md records the measurement.
	behindMargin = 0.1
	// behindStall is the share of the patience, as a divisor, for which
	// a candidate must not have improved before it can be stopped as
	// behind: one still learning may yet overtake.
	behindStall = 10
)

// behind reports whether a run whose best held-out NLL is best after
// its epoch epoch, reached at bestEpoch, has fallen clearly behind the
// learning curve lead (lead[e-1] is the best held-out NLL of a finished
// run after its epoch e): best is above the lead's after the same epoch
// (after its last, if it stopped earlier) by more than behindMargin, and
// has not improved for a tenth of the patience (behindStall) or one
// epoch, whichever is more. An empty lead never scored: nothing is
// behind it.
func behind(lead []float64, best float64, epoch, bestEpoch, patience int) bool {
	if len(lead) == 0 || epoch-bestEpoch < max(1, patience/behindStall) {
		return false
	}
	return best > lead[min(epoch, len(lead))-1]+behindMargin
}
