package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/metrics"
	"github.com/gcpnet/gcp/internal/plot"
	"github.com/gcpnet/gcp/table"
)

// plotLevels are the central-interval levels of the calibration panel:
// every tenth, and the 95% and 99% that intervals are usually read at.
var plotLevels = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99}

// The size of one panel of gcp plot, in pixels: the demo's.
const plotPanelW, plotPanelH = 480, 360

// plotRows is what gcp plot draws for each row of the data file, in the
// order of its horizontal axis.
type plotRows struct {
	x, mean, lo, hi []float64 // the axis, the mean and the calibrated 95% interval
	y               []float64 // the targets, nil if the file has none
	inside          []bool    // whether each target lies in its interval
	disagreement    []float64 // log10 Prediction.Disagreement; nil for one network
}

// drawPlot draws a model's predictions on a data file as a PNG.
func drawPlot(args []string, stdout, stderr io.Writer) error {
	c := newCommand("plot",
		"plot -model MODEL.gcpm -data FILE.csv [-o PLOT.png] [-x COLUMN] [-target NAME] [-pair A,B] [-reorder] [-force]",
		`Draw the model's predictions on FILE.csv into a PNG image, one panel
each:
  predictions  every row's predicted mean and calibrated 95% interval
               (the lo95_cal and hi95_cal of gcp predict), with the target
               if FILE.csv has it: black inside the interval, red outside.
               The rows stand in order of their predicted mean, or of the
               column -x names (a feature, say, to see where the model
               widens its intervals); rows whose -x cell is missing are
               left out of every panel, and counted on stderr.
  calibration  (when FILE.csv has the target) the share of targets inside
               the central interval at levels 10% to 99%, for the
               calibrated predictive, the Student-t one and the conformal
               intervals (for a model that has them), against the
               diagonal a calibrated model follows.
  PIT          (when FILE.csv has the target) the histogram of the
               targets' places in their predictive distributions, F(y), in
               tenths, for the calibrated and the Student-t predictive: flat
               at 1 for a calibrated one, U-shaped where the intervals are
               too narrow, humped where too wide, sloped for a bias.
  disagreement (for an ensemble, train -members K) each row's
               disagreement, the members' spread over the noise, on a log
               scale and in the same order: near or above 1 (0 on the
               scale), the model has not seen data like the row.
It prints on stderr what it drew and how many targets the intervals
cover. -o must name a .png file and never replaces the model or the data
file (not through a link either), a device or a FIFO, nor, unless -force,
a file that is not a PNG image; the image is written atomically.

FILE.csv may leave out the target column: it is the column -target names,
or the model's target if FILE.csv has it, else (for a model saved without
names) the last of one column more than the model's features.

For a model of several targets (train -target a,b,c), FILE.csv must hold
every target, and the image has two panels:
  regions      for 9 rows spread over the predicted means of the first
               of the two targets -pair names (default: the model's first
               two), the calibrated 95% region of the two, an ellipse (the
               calibrated joint predictive's marginal over the pair), its
               mean, and the row's outcome: black inside, red outside.
               A target train logged is drawn as its logarithm (axis
               "ln a"), where its region is an ellipse.
  joint calibration  the share of all rows' target vectors inside their
               calibrated joint region and the predictive's own, at levels
               10% to 99%, against the diagonal.
`+columnsAbout)
	a := modelFlags(c, "name of the target column (default: the model's target)")
	out := c.fs.String("o", "plot.png", "the PNG file to write")
	force := c.fs.Bool("force", false, "overwrite -o even if it is not a PNG image")
	pair := c.fs.String("pair", "", "for a model of several targets, the two targets whose regions to draw, as a,b (default: its first two)")
	axis := c.fs.String("x", "", "a numeric column of FILE.csv for the horizontal axis, rows missing it left out (default: the rows in order of their predicted mean)")
	if err := a.parse(c, args, stdout, stderr); err != nil {
		return err
	}
	if !strings.EqualFold(filepath.Ext(*out), ".png") {
		return fmt.Errorf("-o %s: want a file name ending in .png", *out)
	}
	dst, err := output(*out, atomicfile.PNG, *force, *a.model, *a.data)
	if err != nil {
		return err
	}
	m, err := loadModel(*a.model)
	if err != nil {
		return err
	}
	if mn, multi := multiNetwork(m); multi {
		return plotSeveral(a, mn, *pair, *out, dst, stderr)
	}
	if *pair != "" {
		return fmt.Errorf("-pair %s: the model has one target: %w", *pair, errPair)
	}
	tab, e, err := a.load(m, stderr, false)
	if err != nil {
		return err
	}
	preds, err := predictRows(m, tab, e.x)
	if err != nil {
		return err
	}
	var y []float64
	if e.y != nil {
		// Rows without a target are left out of every panel.
		var rows []int
		for i, v := range e.y {
			if !math.IsNaN(v) {
				rows = append(rows, i)
			}
		}
		tab = tab.Select(rows)
		preds, y = withTargets(stderr, tab.File, preds, e.y)
	}
	var xv []float64
	if *axis != "" {
		// Rows whose -x cell is missing have no place on the axis and
		// are left out of every panel, as rows without a target are.
		var keep []int
		if xv, keep, err = axisValues(tab, *axis); err != nil {
			return err
		}
		if n := tab.Rows(); len(keep) < n {
			fmt.Fprintf(stderr, "%s: %d of %d rows have no -x %s (missing): left out of every panel\n", tab.File, n-len(keep), n, *axis)
			tab, preds = tab.Select(keep), pick(preds, keep)
			if y != nil {
				y = pick(y, keep)
			}
		}
	}
	if len(preds) == 0 {
		return fmt.Errorf("%s: no rows to plot", tab.File)
	}
	order, xs, xLabel := plotAxis(preds, xv, *axis)
	rows, err := arrange(preds, y, order, xs)
	if err != nil {
		return err
	}
	panels := []*plot.Plot{predictionPanel(rows, xLabel, targetLabel(m, *a.target))}
	if y != nil {
		p, err := calibrationPanel(m, preds, y)
		if err != nil {
			return err
		}
		pit, err := pitPanel(preds, y)
		if err != nil {
			return err
		}
		panels = append(panels, p, pit)
	}
	if rows.disagreement != nil {
		panels = append(panels, disagreementPanel(rows, xLabel))
	}
	ctx, stop := interruptContext()
	defer stop()
	err = plot.WritePNG(ctx, dst, plot.Grid(len(panels), plotPanelW, plotPanelH, panels...))
	if err = interrupted(ctx, err, "writing the image", *out); err != nil {
		return err
	}
	titles := make([]string, len(panels))
	for i, p := range panels {
		titles[i] = p.Title
	}
	fmt.Fprintf(stderr, "wrote %s: %s, for the %d rows of %s by %s\n", *out, strings.Join(titles, ", "), tab.Rows(), tab.File, xLabel)
	if y == nil {
		fmt.Fprintf(stderr, "%s has no target column: no targets drawn, no calibration panel\n", tab.File)
		return nil
	}
	return writeCoverage(stderr, m, preds, y, rows.inside)
}

// targetLabel names the target on the vertical axis: the column -target
// names, else the model's target, else "target".
func targetLabel(m model, target string) string {
	if target != "" {
		return target
	}
	if _, name := m.columns(); name != "" {
		return name
	}
	return "target"
}

// plotAxis returns the order of the rows along the horizontal axis, their
// positions on it and its label: the rank of the predicted mean if column
// is empty, else the row's value v of the column named column.
func plotAxis(preds []gcp.Prediction, v []float64, column string) (order []int, xs []float64, label string) {
	order = make([]int, len(preds))
	for i := range order {
		order[i] = i
	}
	if column == "" {
		slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(preds[i].Mean, preds[j].Mean) })
		xs = make([]float64, len(preds))
		for r := range xs {
			xs[r] = float64(r + 1)
		}
		return order, xs, "rank of the predicted mean"
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(v[i], v[j]) })
	xs = make([]float64, len(order))
	for r, i := range order {
		xs[r] = v[i]
	}
	return order, xs, column
}

// axisValues returns the numbers of the column of tab named column (-x)
// in the rows where it is not missing, and those rows; an error if tab
// has no such column or a cell is not a number.
func axisValues(tab *table.Table, column string) (v []float64, rows []int, err error) {
	k := slices.Index(tab.Header, column)
	if k < 0 {
		return nil, nil, fmt.Errorf("-x %s: %s has no such column (it has %s)", column, tab.File, strings.Join(tab.Header, ", "))
	}
	for i := range tab.Rows() {
		f, missing, err := tab.Number(i, k)
		if err != nil {
			return nil, nil, fmt.Errorf("-x %s: %w", column, tab.FieldError(i, k, err))
		}
		if !missing {
			v, rows = append(v, f), append(rows, i)
		}
	}
	return v, rows, nil
}

// pick returns the elements of s at rows, in order.
func pick[T any](s []T, rows []int) []T {
	out := make([]T, len(rows))
	for k, i := range rows {
		out[k] = s[i]
	}
	return out
}

// arrange gathers what the panels draw of each row, in the given order.
func arrange(preds []gcp.Prediction, y []float64, order []int, xs []float64) (plotRows, error) {
	n := len(order)
	r := plotRows{x: xs, mean: make([]float64, n), lo: make([]float64, n), hi: make([]float64, n)}
	if y != nil {
		r.y, r.inside = make([]float64, n), make([]bool, n)
	}
	ensemble := slices.ContainsFunc(preds, func(p gcp.Prediction) bool { return p.VarEpistemic > 0 })
	if ensemble {
		r.disagreement = make([]float64, n)
	}
	for k, i := range order {
		p := preds[i]
		lo, hi, err := p.CalibratedInterval(0.95)
		if err != nil {
			return r, err
		}
		r.mean[k], r.lo[k], r.hi[k] = p.Mean, lo, hi
		if y != nil {
			r.y[k], r.inside[k] = y[i], lo <= y[i] && y[i] <= hi // as metrics.Coverage counts
		}
		if ensemble {
			r.disagreement[k] = math.Log10(p.Disagreement)
		}
	}
	return r, nil
}

// predictionPanel draws each row's calibrated 95% interval as a vertical
// bar, its mean as a dot and its target, if known, black inside the
// interval and red outside.
func predictionPanel(r plotRows, xLabel, yLabel string) *plot.Plot {
	p := &plot.Plot{Title: "predictions", XLabel: xLabel, YLabel: yLabel, Legend: plot.TopLeft}
	bar := plot.Style{Color: plot.Fade(plot.Blue, 90)}
	for k, x := range r.x {
		label := ""
		if k == 0 {
			label = "calibrated 95% interval"
		}
		p.Line(label, []float64{x, x}, []float64{r.lo[k], r.hi[k]}, bar)
	}
	p.Points("predicted mean", r.x, r.mean, plot.Style{Color: plot.Blue, Radius: 1})
	if r.y == nil {
		return p
	}
	var inX, inY, outX, outY []float64
	for k, y := range r.y {
		if r.inside[k] {
			inX, inY = append(inX, r.x[k]), append(inY, y)
		} else {
			outX, outY = append(outX, r.x[k]), append(outY, y)
		}
	}
	p.Points("target inside", inX, inY, plot.Style{Color: plot.Black, Radius: 2})
	p.Points("target outside", outX, outY, plot.Style{Color: plot.Red, Radius: 2})
	return p
}

// calibrationPanel draws the share of the targets y inside their central
// interval at each of plotLevels, for both predictives and m's conformal
// intervals if it has them, against the diagonal of perfect calibration.
func calibrationPanel(m model, preds []gcp.Prediction, y []float64) (*plot.Plot, error) {
	p := &plot.Plot{Title: "calibration", XLabel: "interval level", YLabel: "share of targets inside",
		X: plot.Range{Min: 0, Max: 1}, Y: plot.Range{Min: 0, Max: 1}, Legend: plot.TopLeft}
	p.Line("ideal", []float64{0, 1}, []float64{0, 1}, plot.Style{Color: plot.Black, Dash: 6})
	type curve struct {
		intervals metrics.Intervals
		label     string
		color     plot.Style
	}
	curves := []curve{
		{metrics.Calibrated, "calibrated", plot.Style{Color: plot.Blue, Width: 2, Radius: 3}},
		{metrics.StudentT, "Student t", plot.Style{Color: plot.Orange, Width: 2, Radius: 3}},
	}
	if hasConformal(m) {
		curves = append(curves, curve{conformal{m}, "conformal", plot.Style{Color: plot.Green, Width: 2, Radius: 3}})
	}
	for _, c := range curves {
		cover := make([]float64, len(plotLevels))
		for i, level := range plotLevels {
			var err error
			if cover[i], _, err = metrics.Coverage(preds, y, level, c.intervals); err != nil {
				return nil, err
			}
		}
		p.Line(c.label, plotLevels, cover, c.color)
		p.Points("", plotLevels, cover, c.color)
	}
	return p, nil
}

// pitPanel draws the histograms of the PIT values of the targets y, in
// tenths as densities, for the calibrated and the Student-t predictive,
// against the uniform density 1 of a calibrated predictive.
func pitPanel(preds []gcp.Prediction, y []float64) (*plot.Plot, error) {
	p := &plot.Plot{Title: "PIT", XLabel: "F(target)", YLabel: "density",
		X: plot.Range{Min: 0, Max: 1}, Y: plot.Range{Min: 0, Max: 2}, Legend: plot.TopLeft}
	p.Line("uniform: calibrated", []float64{0, 1}, []float64{1, 1}, plot.Style{Color: plot.Black, Dash: 6})
	counts := make([]int, pitBins)
	for _, c := range []struct {
		kind  metrics.Predictive
		label string
		color plot.Style
	}{
		{metrics.Calibrated, "calibrated", plot.Style{Color: plot.Blue, Width: 2}},
		{metrics.StudentT, "Student t", plot.Style{Color: plot.Orange, Width: 2}},
	} {
		h, err := metrics.PIT(preds, y, c.kind)
		if err != nil {
			return nil, err
		}
		h.Histogram(counts)
		// A step line: each bin's density, count/(N·width), across it.
		var xs, ds []float64
		for j, n := range counts {
			d := float64(n) * pitBins / float64(len(y))
			xs = append(xs, float64(j)/pitBins, float64(j+1)/pitBins)
			ds = append(ds, d, d)
			p.Y.Max = max(p.Y.Max, 1.1*d) // from 0 to at least 2, and every bin
		}
		p.Line(c.label, xs, ds, c.color)
	}
	return p, nil
}

// disagreementPanel draws each row's disagreement on a log scale, with
// the level 1 at which the members differ as much as the noise.
func disagreementPanel(r plotRows, xLabel string) *plot.Plot {
	p := &plot.Plot{Title: "disagreement", XLabel: xLabel, YLabel: "log10 disagreement", Legend: plot.BottomRight}
	p.Line("1: the members differ as much as the noise", []float64{r.x[0], r.x[len(r.x)-1]}, []float64{0, 0}, plot.Style{Color: plot.Black, Dash: 6})
	p.Points("a row", r.x, r.disagreement, plot.Style{Color: plot.Red, Radius: 2})
	return p
}

// writeCoverage writes how many of the targets y the 95% intervals hold:
// the calibrated ones' as the prediction panel colours them (inside), the
// Student-t ones' and, for a model that has them, the conformal ones' by
// metrics.Coverage; and how many rows hold a level training never saw,
// whose unknown intervals hold every target, with their Student-t
// coverage.
func writeCoverage(w io.Writer, m model, preds []gcp.Prediction, y []float64, inside []bool) error {
	outside := 0
	for _, in := range inside {
		if !in {
			outside++
		}
	}
	coverT, _, err := metrics.Coverage(preds, y, 0.95, metrics.StudentT)
	if err != nil {
		return err
	}
	n := float64(len(y))
	conf := ""
	if hasConformal(m) {
		c, _, err := metrics.Coverage(preds, y, 0.95, conformal{m})
		if err != nil {
			return err
		}
		conf = fmt.Sprintf(", the conformal ones %.3f", c)
	}
	if _, _, unseen, yUnseen := splitUnseen(preds, y); len(unseen) > 0 {
		c, _, err := metrics.Coverage(unseen, yUnseen, 0.95, metrics.StudentT)
		if err != nil {
			return err
		}
		conf += fmt.Sprintf("; %d rows hold a level training never saw, whose calibrated and conformal intervals are unknown, -Inf to +Inf, and hold them (their Student-t ones hold %.3f)", len(unseen), c)
	}
	_, err = fmt.Fprintf(w, "the calibrated 95%% intervals hold %.3f of the targets (%d of %d outside, drawn red), the Student-t ones %.3f%s\n",
		1-float64(outside)/n, outside, len(y), coverT, conf)
	return err
}
