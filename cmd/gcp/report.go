package main

import (
	"errors"
	"fmt"
	"io"
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

// predictiveRows returns the predictives of eval's report of m: the
// Student t, the calibrated Gaussian and, for a model with a conformal
// calibration, the conformal intervals.
func predictiveRows(m model) []predictiveRow {
	rows := []predictiveRow{
		{"student-t", "", metrics.StudentT, metrics.StudentT, true},
		{"calibrated", "_calibrated", metrics.Calibrated, metrics.Calibrated, true},
	}
	if hasConformal(m) {
		rows = append(rows, predictiveRow{name: "conformal", suffix: "_conformal", intervals: conformal{m}})
	}
	return rows
}

// writeReport writes eval's report of the rows tallied in t to w, with
// the measures s of the point prediction already computed: those
// measures and each predictive's as name-value lines, then the interval
// table, then the PIT histograms.
func writeReport(w io.Writer, t *evalTally, s scores) error {
	var b strings.Builder
	line := func(name string, v float64) { fmt.Fprintf(&b, "%-32s %.6g\n", name, v) }
	fmt.Fprintf(&b, "%-32s %d\n", "N", len(t.y))
	line("RMSE", s.rmse)
	line("RMSE_curve_area", s.auc)
	line("RMSE_curve_area_corr", s.aucCorr)
	var areas []string
	for i, r := range t.rows {
		if !r.dist {
			continue
		}
		line("CRPS"+r.suffix, t.crps[i].Value())
		areas = append(areas, fmt.Sprintf("%-32s %.6g\n", "miscalibration_area"+r.suffix, t.pit[i].MiscalibrationArea()))
	}
	b.WriteString(strings.Join(areas, ""))
	fmt.Fprintf(&b, "\n%-12s %10s %8s %10s %10s %14s\n", "predictive", "NLL", "level", "coverage", "width", "interval_score")
	for i, r := range t.rows {
		if t.unseenRows == len(t.y) {
			break // no row for the table
		}
		nll := "-"
		if r.dist {
			nll = strconv.FormatFloat(t.nll[i].Value(), 'g', 6, 64)
		}
		for j, level := range calibrationLevels {
			st := t.intervals[i][j].Stats()
			name, nllText := "", ""
			if j == 0 {
				name, nllText = r.name, nll
			}
			fmt.Fprintf(&b, "%-12s %10s %7g%% %10.4f %10.4g %14.4g\n", name, nllText, 100*level, st.Coverage, st.Width, st.Score)
		}
	}
	if n := t.unseenRows; n > 0 {
		fmt.Fprintf(&b, "%d of %d rows hold a level training never saw (input_z +Inf) and are left out of the table: their calibrated and conformal intervals are unknown; their Student-t 95%% intervals held %.4f of their targets\n",
			n, len(t.y), t.unseen.Stats().Coverage)
	}
	fmt.Fprintf(&b, "\nPIT histogram: the share of targets in each tenth of their predictive CDF, 0.1 each where calibrated\n")
	counts := make([]int, pitBins)
	for i, r := range t.rows {
		if !r.dist {
			continue
		}
		t.pit[i].Histogram(counts)
		fmt.Fprintf(&b, "%-12s", r.name)
		for _, c := range counts {
			fmt.Fprintf(&b, " %5.3f", float64(c)/float64(len(t.y)))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
