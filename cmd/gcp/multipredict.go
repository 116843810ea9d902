package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// gcp predict and gcp eval for a model of several targets: the data file
// is read once, a chunk of rows at a time, as for one target, its feature
// columns picked by name, and each row predicted by PredictMulti.

// multiNetwork returns m's network and true if it has several targets.
func multiNetwork(m model) (network, bool) {
	n, ok := m.(network)
	return n, ok && n.Config().Targets > 1
}

// eachMultiChunk reads the data file of a once, a chunk of at most size
// rows at a time, as eachChunk does, with the model's features picked by
// name wherever they stand and other columns ignored, and calls each with
// every chunk and its rows' predictions by PredictMulti, which the chunks
// share: memory holds one chunk whatever the number of rows. An error
// names the row's line.
func (a modelArgs) eachMultiChunk(stderr io.Writer, n network, size int, wantTargets bool, each func(c *chunk, preds []gcp.MultiPrediction) error) error {
	sel := func(tab *table.Table) (selection, error) {
		s, _, err := multiColumns(n, tab, wantTargets)
		return s, err
	}
	ws := n.NewWorkspace()
	var preds []gcp.MultiPrediction
	return a.eachEncoded(stderr, n, sel, "", size, func(c *chunk) error {
		if len(preds) < c.tab.Rows() {
			preds = make([]gcp.MultiPrediction, c.tab.Rows())
		}
		p := preds[:c.tab.Rows()]
		if err := predictMultiRows(n, ws, c.tab, c.e.x, p); err != nil {
			return err
		}
		return each(c, p)
	})
}

// predictMultiRows predicts every row of tab, whose inputs x are encoded
// for n, by PredictMulti into p, one a row. An error names the row's
// line.
func predictMultiRows(n network, ws *gcp.Workspace[float64], tab *table.Table, x []float64, p []gcp.MultiPrediction) error {
	d := n.inputs()
	for i := range p {
		if err := n.PredictMulti(ws, x[i*d:(i+1)*d], &p[i]); err != nil {
			return fmt.Errorf("%s: line %d: %w", tab.File, tab.Line(i), err)
		}
	}
	return nil
}

// predictMulti writes gcp predict's rows for a model of several targets,
// as CSV or, if asJSON, as JSON Lines (rowWriter): for each target t,
// mean:t, each level's loL_cal:t and hiL_cal:t (the calibrated marginal),
// sd_corrected:t, each level's loL_student_t:t and hiL_student_t:t (the
// marginal t); corr:a:b for each pair of targets; the row's input_z,
// outside and unseen, which one target's predict writes and every target
// shares, as they are the input's; and for each target sd_epistemic:t and
// disagreement:t, an ensemble's own uncertainty of that target. With g
// (-given; nil without) the targets are those g leaves, and each row's
// prediction their law given the row's values of g's (givenTargets). It
// writes the header with the first chunk and each chunk's rows once all
// of them are predicted, so that an error in the first chunk writes
// nothing.
func predictMulti(a modelArgs, n network, levels []predictLevel, g *givenTargets, asJSON bool, stderr, stdout io.Writer) error {
	names := targetNames(n)
	if g != nil {
		names = g.rest
	}
	var rw *rowWriter
	d := n.inputs()
	err := a.eachMultiChunk(stderr, n, chunkRows, false, func(c *chunk, preds []gcp.MultiPrediction) error {
		if g != nil {
			var err error
			if preds, err = g.condition(c.tab, preds); err != nil {
				return err
			}
		}
		if rw == nil { // the first chunk
			rw = newRowWriter(stdout, multiHeader(names, levels), n.bits(), false, asJSON)
		}
		for i := range preds {
			outside, _ := n.OutsideRange(c.e.x[i*d : (i+1)*d])
			rw.vals = appendMultiValues(rw.vals[:0], &preds[i], levels, outside, c.e.notes[i].Unseen)
			if err := rw.write(""); err != nil {
				return err
			}
		}
		return nil
	})
	if rw != nil { // nothing to flush if no chunk came
		if ferr := rw.flush(); err == nil {
			err = ferr
		}
	}
	if err == nil && g != nil {
		fmt.Fprintln(stderr, g.summary())
	}
	return err
}

// multiHeader returns the columns of predictMulti for the targets names
// at the levels.
func multiHeader(names []string, levels []predictLevel) []string {
	var head []string
	for _, t := range names {
		head = append(head, "mean:"+t)
		for _, l := range levels {
			head = append(head, "lo"+l.label+"_cal:"+t, "hi"+l.label+"_cal:"+t)
		}
		head = append(head, "sd_corrected:"+t)
		for _, l := range levels {
			head = append(head, "lo"+l.label+"_student_t:"+t, "hi"+l.label+"_student_t:"+t)
		}
	}
	for i, s := range names {
		for _, t := range names[i+1:] {
			head = append(head, "corr:"+s+":"+t)
		}
	}
	head = append(head, "input_z", "outside", "unseen")
	for _, t := range names {
		head = append(head, "sd_epistemic:"+t, "disagreement:"+t)
	}
	return head
}

// appendMultiValues appends to v predictMulti's numbers of the prediction
// p at the levels, of an input with outside features outside the
// training range (or levels no training row had) and unseen levels the
// model does not know, in multiHeader's order.
func appendMultiValues(v []float64, p *gcp.MultiPrediction, levels []predictLevel, outside, unseen int) []float64 {
	for t := range p.Dim() {
		q := p.Marginal(t)
		v = append(v, q.Mean)
		for _, l := range levels {
			lo, hi, _ := q.CalibratedInterval(l.p) // levels are in (0, 1)
			v = append(v, lo, hi)
		}
		v = append(v, math.Sqrt(q.VarCorrected))
		for _, l := range levels {
			lo, hi, _ := q.Interval(l.p)
			v = append(v, lo, hi)
		}
	}
	for i := range p.Dim() {
		for j := i + 1; j < p.Dim(); j++ {
			v = append(v, p.Corr(i, j))
		}
	}
	v = append(v, p.Marginal(0).InputZ, float64(outside), float64(unseen))
	for t := range p.Dim() {
		q := p.Marginal(t)
		v = append(v, math.Sqrt(q.VarEpistemic), q.Disagreement)
	}
	return v
}

// evalMulti writes gcp eval's KEY VALUE lines for a model of several
// targets (multiTally), reading the data file with every target
// (eachMultiTarget).
func evalMulti(a modelArgs, n network, stderr, stdout io.Writer) error {
	t := newMultiTally(targetNames(n))
	file, err := a.eachMultiTarget(stderr, n, t.add)
	if err != nil {
		return err
	}
	if t.rows < 2 {
		return fmt.Errorf("eval: %s: %d rows: want at least 2", file, t.rows)
	}
	return t.write(stdout)
}

// eachMultiTarget reads the data file of a as eachMultiChunk does and
// calls each with every row's prediction and its targets, in file order
// (y is reused between calls), and returns the file's name. Every target
// must be there: a missing one is an error naming its line and column
// (table.ErrMissing), as in training.
func (a modelArgs) eachMultiTarget(stderr io.Writer, n network, each func(p *gcp.MultiPrediction, y []float64)) (string, error) {
	var cols []int
	y := make([]float64, n.Config().Targets)
	file := ""
	err := a.eachMultiChunk(stderr, n, chunkRows, true, func(c *chunk, preds []gcp.MultiPrediction) error {
		if cols == nil { // the first chunk's header
			var err error
			if _, cols, err = multiColumns(n, c.tab, true); err != nil {
				return err
			}
		}
		file = c.tab.File
		return eachRowTargets(c.tab, cols, preds, y, each)
	})
	return file, err
}

// eachRowTargets calls each with the prediction preds[i] of every row i
// of tab and its targets, the columns cols, in y (reused between calls).
// A missing target is an error naming its line and column
// (table.ErrMissing).
func eachRowTargets(tab *table.Table, cols []int, preds []gcp.MultiPrediction, y []float64, each func(p *gcp.MultiPrediction, y []float64)) error {
	for i := range preds {
		if err := rowNumbers(tab, i, cols, y); err != nil {
			return err
		}
		each(&preds[i], y)
	}
	return nil
}

// rowNumbers reads into y the numbers of row i of tab in the columns
// cols. A missing field (empty, NA, NULL, …: gcp.ParseNumber) is an error
// naming its line and column that wraps table.ErrMissing; text or an
// infinity one that wraps gcp.ErrNotNumber or gcp.ErrNonFinite.
func rowNumbers(tab *table.Table, i int, cols []int, y []float64) error {
	for j, k := range cols {
		v, missing, err := tab.Number(i, k)
		if missing {
			err = table.ErrMissing
		}
		if err != nil {
			return tab.FieldError(i, k, err)
		}
		y[j] = v
	}
	return nil
}

// energySamples is how many draws of the calibrated predictive the energy
// score averages over per row: its Monte Carlo error is then about 3% of
// the predictive's spread, small beside the score's spread over rows.
const energySamples = 200

// energyScore returns the Monte Carlo energy score of y under p's
// calibrated predictive t_ν(mean, s·Σ̃) (RegionNu, RegionScale): the mean
// of ‖X_k − y‖ over draws X_k of MultiPrediction.SampleCalibrated from r,
// less half the mean distance of consecutive draws. Where the predictive
// has no finite mean (finiteMean), the score E‖X − y‖ − ½E‖X − X′‖ is
// +Inf, and so is what it returns: the draws' average would be a finite
// number that grows without bound with their count.
func energyScore(p *gcp.MultiPrediction, y []float64, r *rand.Rand) float64 {
	d := p.Dim()
	logged := false
	for j := range d {
		logged = logged || p.Marginal(j).Transform == gcp.TransformLog
	}
	if !finiteMean(p.RegionNu(), logged) {
		return math.Inf(1)
	}
	dist := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
		return math.Sqrt(s)
	}
	x, prev := make([]float64, d), make([]float64, d)
	var toY, between float64
	// SampleCalibrated cannot fail here: x has p's d entries, r is set.
	_ = p.SampleCalibrated(prev, r)
	for range energySamples {
		_ = p.SampleCalibrated(x, r)
		toY += dist(x, y)
		between += dist(x, prev)
		x, prev = prev, x
	}
	return toY/energySamples - between/(2*energySamples)
}

// finiteMean reports whether a multivariate t of nu degrees of freedom
// (+Inf for the Gaussian), some of its coordinates mapped through exp if
// logged, has a finite mean: a t has one only for ν > 1, and exp of a t of
// any finite ν has none (its tail falls as a power of ln y), while exp of
// a Gaussian is a log-normal, whose mean is finite.
func finiteMean(nu float64, logged bool) bool {
	return nu > 1 && (!logged || math.IsInf(nu, 1))
}
