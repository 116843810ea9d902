package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gcpnet/gcp"
)

// jointLevels are the levels of the calibrated joint regions whose
// coverage eval reports for a model of several targets.
var jointLevels = []float64{0.5, 0.9, 0.95}

// multiTally is what gcp eval keeps of the rows of a model of several
// targets: running sums, added a row at a time in the file's order, never
// the rows, so that its memory does not grow with them.
type multiTally struct {
	names []string
	rows  int
	// sq, nll, crps and cov are each target's sums of squared errors,
	// negative log densities of the marginal t, CRPS, and rows inside the
	// calibrated marginal 95% interval.
	sq, nll, crps, cov []float64
	// joint and conformal count the rows inside the calibrated and the
	// conformal joint region of each of jointLevels (conformal NaN where
	// the model has no conformal calibration or its rows cannot bound the
	// level); jnll, jnllCal and energy sum the joint negative log density
	// of the t and of the calibrated predictive, and the energy score,
	// whose draws come from r.
	joint, conformal      []float64
	jnll, jnllCal, energy float64
	r                     *rand.Rand
	// unseen counts the rows with a code no training row had (input_z
	// +Inf), whose calibrated intervals and regions are unknown: as for
	// one target, the densities, intervals and regions leave them out,
	// and unseenIn95 counts those inside the t's own 95% region.
	unseen, unseenIn95 int
}

// newMultiTally returns the empty tally of a model of the targets names,
// its energy score's draws from a fixed seed.
func newMultiTally(names []string) *multiTally {
	d := len(names)
	return &multiTally{names: names, sq: make([]float64, d), nll: make([]float64, d), crps: make([]float64, d),
		cov: make([]float64, d), joint: make([]float64, len(jointLevels)), conformal: make([]float64, len(jointLevels)), r: rand.New(rand.NewPCG(1, 2))}
}

// unseenRow reports whether the row predicted as p has a code no training
// row had (input_z +Inf, shared by every target), whose calibrated
// intervals and regions are unknown: eval and plot leave such rows out.
func unseenRow(p *gcp.MultiPrediction) bool { return math.IsInf(p.Marginal(0).InputZ, 1) }

// add adds the row whose prediction is p and targets y: each target's
// squared error and CRPS and the energy score of every row; each target's
// density and interval and the joint measures (addJoint) of a row whose
// codes training knew, or else the unseen count.
func (t *multiTally) add(p *gcp.MultiPrediction, y []float64) {
	t.rows++
	unseen := unseenRow(p)
	for i := range t.names {
		q := p.Marginal(i)
		e := q.Mean - y[i]
		t.sq[i] += e * e
		t.crps[i] += q.CRPS(y[i])
		if unseen {
			continue
		}
		t.nll[i] -= q.LogPDF(y[i])
		if lo, hi, _ := q.CalibratedInterval(0.95); lo <= y[i] && y[i] <= hi {
			t.cov[i]++
		}
	}
	t.energy += energyScore(p, y, t.r)
	if unseen {
		t.unseen++
		if in, _ := p.Inside(y, 0.95); in {
			t.unseenIn95++
		}
		return
	}
	t.addJoint(p, y)
}

// addJoint adds the joint measures of the row whose prediction is p and
// targets y: its negative log densities under the multivariate t and the
// calibrated predictive, and whether each calibrated and each conformal
// joint region holds y.
func (t *multiTally) addJoint(p *gcp.MultiPrediction, y []float64) {
	t.jnll -= p.LogPDF(y)
	t.jnllCal -= p.CalibratedLogPDF(y)
	for k, l := range jointLevels {
		if in, _ := p.CalibratedInside(y, l); in {
			t.joint[k]++
		}
		if in, err := p.ConformalInside(y, l); err != nil {
			t.conformal[k] = math.NaN()
		} else if in {
			t.conformal[k]++
		}
	}
}

// tallyLine is one of a tally's measures: its key, its value and the
// verb that prints it.
type tallyLine struct {
	key    string
	value  float64
	format string
}

// lines returns the tally's measures, as write prints them: N; per
// target t, RMSE:t, NLL:t (the marginal t), CRPS:t and cov95-cal:t (the
// calibrated marginal interval); and the joint section: joint-NLL (the
// mean negative log density of the multivariate t per row, original
// units), joint-NLL-cal (that of the calibrated predictive, the t of
// RegionNu degrees of freedom and scale RegionScale·CovCorrected),
// joint-cov50-cal, joint-cov90-cal and joint-cov95-cal (the shares of rows
// inside the calibrated joint regions), joint-cov50-conformal,
// joint-cov90-conformal and joint-cov95-conformal (inside the conformal
// ones; NaN for a model without a conformal calibration or a level its
// rows cannot bound), and energy-score, the multivariate CRPS E‖X − y‖ −
// ½E‖X − X′‖ of the calibrated predictive, by Monte Carlo from a fixed
// seed (+Inf where the predictive has no mean, finiteMean). NLL:t, cov95-cal:t and the joint-NLL and joint-cov lines are means
// over the rows whose codes training knew; if some row had a code no
// training row had, unseen-rows gives their count and unseen-joint-cov95
// the share of them inside the t's own 95% region.
func (t *multiTally) lines() []tallyLine {
	n, known := float64(t.rows), float64(t.rows-t.unseen)
	out := []tallyLine{{"N", n, "%d"}}
	for i, name := range t.names {
		out = append(out, tallyLine{"RMSE:" + name, math.Sqrt(t.sq[i] / n), "%.6g"}, tallyLine{"NLL:" + name, t.nll[i] / known, "%.6g"},
			tallyLine{"CRPS:" + name, t.crps[i] / n, "%.6g"}, tallyLine{"cov95-cal:" + name, t.cov[i] / known, "%.4f"})
	}
	out = append(out, tallyLine{"joint-NLL", t.jnll / known, "%.6g"}, tallyLine{"joint-NLL-cal", t.jnllCal / known, "%.6g"})
	for k, l := range jointLevels {
		out = append(out, tallyLine{fmt.Sprintf("joint-cov%g-cal", 100*l), t.joint[k] / known, "%.4f"})
	}
	for k, l := range jointLevels {
		out = append(out, tallyLine{fmt.Sprintf("joint-cov%g-conformal", 100*l), t.conformal[k] / known, "%.4f"})
	}
	out = append(out, tallyLine{"energy-score", t.energy / n, "%.6g"})
	if t.unseen > 0 {
		out = append(out, tallyLine{"unseen-rows", float64(t.unseen), "%d"}, tallyLine{"unseen-joint-cov95", float64(t.unseenIn95) / float64(t.unseen), "%.4f"})
	}
	return out
}

// text returns the line's value as write prints it.
func (l tallyLine) text() string {
	if l.format == "%d" {
		return fmt.Sprintf("%d", int(l.value))
	}
	return fmt.Sprintf(l.format, l.value)
}

// write prints the tally's KEY VALUE lines, those of lines.
func (t *multiTally) write(out io.Writer) error {
	w := bufio.NewWriter(out)
	for _, l := range t.lines() {
		fmt.Fprintf(w, "%s %s\n", l.key, l.text())
	}
	return w.Flush()
}
