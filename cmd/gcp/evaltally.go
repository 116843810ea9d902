package main

import (
	"math"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/metrics"
)

// evalTally is what gcp eval keeps of the rows it scores, added a chunk
// at a time: four numbers a row for the RMSE and the RMSE curves' areas,
// which rank every row by its variance, the PIT values, which the
// miscalibration area sorts, and running sums for the other measures,
// never the rows' predictions.
type evalTally struct {
	rows []predictiveRow
	// mean, y, v and vc are each row's predicted mean, target, Student-t
	// variance and corrected variance.
	mean, y, v, vc []float64
	// nll, crps and pit are, for each distribution of rows, its measures;
	// intervals, for each of rows and each of calibrationLevels, its
	// central intervals'.
	nll, crps []metrics.Mean
	pit       []metrics.PITValues
	intervals [][]metrics.IntervalTally
	// unseen is the Student-t 95% intervals of the rows with a code no
	// training row had (input_z +Inf), whose calibrated and conformal
	// intervals are unknown: nll and intervals leave them out (the table
	// of NLLs and intervals is over the other rows), so that their
	// infinite widths do not make every mean infinite, and the report
	// gives their count and coverage apart.
	unseen     metrics.IntervalTally
	unseenRows int
}

// newEvalTally returns the empty tally of the predictives of m.
func newEvalTally(m model) *evalTally {
	rows := predictiveRows(m)
	t := &evalTally{rows: rows, nll: make([]metrics.Mean, len(rows)), crps: make([]metrics.Mean, len(rows)),
		pit: make([]metrics.PITValues, len(rows)), intervals: make([][]metrics.IntervalTally, len(rows))}
	for i := range t.intervals {
		t.intervals[i] = make([]metrics.IntervalTally, len(calibrationLevels))
	}
	return t
}

// add adds the predictions preds of the targets y, none missing.
func (t *evalTally) add(preds []gcp.Prediction, y []float64) error {
	if len(y) == 0 {
		return nil
	}
	for _, p := range preds {
		t.mean, t.v, t.vc = append(t.mean, p.Mean), append(t.v, p.Var), append(t.vc, p.VarCorrected)
	}
	t.y = append(t.y, y...)
	known, yKnown, unseen, yUnseen := splitUnseen(preds, y)
	if len(unseen) > 0 {
		t.unseenRows += len(unseen)
		if err := t.unseen.Add(unseen, yUnseen, 0.95, metrics.StudentT); err != nil {
			return err
		}
	}
	for i, r := range t.rows {
		if r.dist {
			if err := t.crps[i].AddCRPS(preds, y, r.kind); err != nil {
				return err
			}
			if err := metrics.AddPIT(&t.pit[i], preds, y, r.kind); err != nil {
				return err
			}
		}
		if len(known) == 0 {
			continue
		}
		if r.dist {
			if err := t.nll[i].AddNLL(known, yKnown, r.kind); err != nil {
				return err
			}
		}
		for j, level := range calibrationLevels {
			if err := t.intervals[i][j].Add(known, yKnown, level, r.intervals); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitUnseen splits the predictions and their targets into those of rows
// whose levels training knew and those of rows with a code no training row
// had (InputZ +Inf).
func splitUnseen(preds []gcp.Prediction, y []float64) (known []gcp.Prediction, yKnown []float64, unseen []gcp.Prediction, yUnseen []float64) {
	for i, p := range preds {
		if math.IsInf(p.InputZ, 1) {
			unseen, yUnseen = append(unseen, p), append(yUnseen, y[i])
		} else {
			known, yKnown = append(known, p), append(yKnown, y[i])
		}
	}
	return known, yKnown, unseen, yUnseen
}
