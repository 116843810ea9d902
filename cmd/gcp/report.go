package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/metrics"
)

// calibrationLevels are the interval levels eval reports.
var calibrationLevels = []float64{0.5, 0.8, 0.9, 0.95, 0.99}

// pitBins is the number of bins of eval's PIT histograms: tenths.
const pitBins = 10

// conformalModel is a model with conformal intervals, or without: the
// command's model, or a gcp.Model of either type.
type conformalModel interface {
	ConformalInterval(p gcp.Prediction, level float64) (lo, hi float64, err error)
}

// conformal is a model's conformal intervals as metrics.Intervals.
type conformal struct{ m conformalModel }

func (c conformal) Interval(p gcp.Prediction, level float64) (lo, hi float64, err error) {
	return c.m.ConformalInterval(p, level)
}

// hasConformal reports whether m has a conformal calibration.
func hasConformal(m conformalModel) bool {
	_, _, err := m.ConformalInterval(gcp.Prediction{VarCorrected: 1}, 0.5)
	return !errors.Is(err, gcp.ErrNoConformal)
}

// predictiveRow is one predictive of eval's report: its name in the
// table, the suffix of its measures' names, and its intervals.
type predictiveRow struct {
	name, suffix string
	intervals    metrics.Intervals
	kind         metrics.Predictive // for the distribution's measures; unused by conformal
	dist         bool               // it is a distribution: NLL, CRPS, PIT
}

// writeReport writes eval's report of the predictions preds of m against
// the targets y to w, from the measures s already computed: the measures
// of the point prediction and of each predictive as name-value lines,
// then the interval table, then the PIT histograms.
func writeReport(w io.Writer, m model, preds []gcp.Prediction, y []float64, s scores) error {
	rows := []predictiveRow{
		{"student-t", "", metrics.StudentT, metrics.StudentT, true},
		{"calibrated", "_calibrated", metrics.Calibrated, metrics.Calibrated, true},
	}
	if hasConformal(m) {
		rows = append(rows, predictiveRow{name: "conformal", suffix: "_conformal", intervals: conformal{m}})
	}
	var b strings.Builder
	line := func(name string, v float64) { fmt.Fprintf(&b, "%-32s %.6g\n", name, v) }
	fmt.Fprintf(&b, "%-32s %d\n", "N", len(y))
	line("RMSE", s.rmse)
	line("RMSE_curve_area", s.auc)
	line("RMSE_curve_area_corr", s.aucCorr)
	pits := make([]*metrics.PITValues, len(rows))
	var areas []string
	for i, r := range rows {
		if !r.dist {
			continue
		}
		crps, err := metrics.MeanCRPS(preds, y, r.kind)
		if err != nil {
			return err
		}
		if pits[i], err = metrics.PIT(preds, y, r.kind); err != nil {
			return err
		}
		line("CRPS"+r.suffix, crps)
		areas = append(areas, fmt.Sprintf("%-32s %.6g\n", "miscalibration_area"+r.suffix, pits[i].MiscalibrationArea()))
	}
	b.WriteString(strings.Join(areas, ""))
	known, yKnown, unseen, yUnseen := splitUnseen(preds, y)
	fmt.Fprintf(&b, "\n%-12s %10s %8s %10s %10s %14s\n", "predictive", "NLL", "level", "coverage", "width", "interval_score")
	for _, r := range rows {
		if len(known) == 0 {
			break
		}
		nll := "-"
		if r.dist {
			v, err := metrics.MeanNLL(known, yKnown, r.kind)
			if err != nil {
				return err
			}
			nll = strconv.FormatFloat(v, 'g', 6, 64)
		}
		for i, level := range calibrationLevels {
			st, err := metrics.CentralIntervals(known, yKnown, level, r.intervals)
			if err != nil {
				return err
			}
			name, nllText := "", ""
			if i == 0 {
				name, nllText = r.name, nll
			}
			fmt.Fprintf(&b, "%-12s %10s %7g%% %10.4f %10.4g %14.4g\n", name, nllText, 100*level, st.Coverage, st.Width, st.Score)
		}
	}
	if len(unseen) > 0 {
		cover, _, err := metrics.Coverage(unseen, yUnseen, 0.95, metrics.StudentT)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%d of %d rows hold a level training never saw (input_z +Inf) and are left out of the table: their calibrated and conformal intervals are unknown; their Student-t 95%% intervals held %.4f of their targets\n",
			len(unseen), len(y), cover)
	}
	fmt.Fprintf(&b, "\nPIT histogram: the share of targets in each tenth of their predictive CDF, 0.1 each where calibrated\n")
	counts := make([]int, pitBins)
	for i, r := range rows {
		if !r.dist {
			continue
		}
		pits[i].Histogram(counts)
		fmt.Fprintf(&b, "%-12s", r.name)
		for _, c := range counts {
			fmt.Fprintf(&b, " %5.3f", float64(c)/float64(len(y)))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// splitUnseen splits the predictions and their targets into those of rows
// whose levels training knew and those of rows with a code no training row
// had (InputZ +Inf), whose calibrated and conformal intervals are unknown:
// eval's interval table is over the first, and reports the second apart,
// so that their infinite widths do not make every mean infinite.
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
