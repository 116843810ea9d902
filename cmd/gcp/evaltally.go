package main

import (
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
	for i, r := range t.rows {
		if r.dist {
			if err := t.nll[i].AddNLL(preds, y, r.kind); err != nil {
				return err
			}
			if err := t.crps[i].AddCRPS(preds, y, r.kind); err != nil {
				return err
			}
			if err := metrics.AddPIT(&t.pit[i], preds, y, r.kind); err != nil {
				return err
			}
		}
		for j, level := range calibrationLevels {
			if err := t.intervals[i][j].Add(preds, y, level, r.intervals); err != nil {
				return err
			}
		}
	}
	return nil
}
