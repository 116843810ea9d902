package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/plot"
)

// gcp plot for a model of several targets: each of a few rows' calibrated
// 95% region of two targets, an ellipse, over the row's outcome, and the
// joint regions' calibration over all rows.

// plotPairRows is how many rows the regions panel draws: enough to see
// how the ellipses turn and grow across the data, few enough that they
// stay apart.
const plotPairRows = 9

// plotEllipsePoints is how many points an ellipse's outline joins: the
// chord of 2π/120 departs from the ellipse by under 0.04% of its radius.
const plotEllipsePoints = 120

// errPair reports a -pair that does not name two different targets of
// the model.
var errPair = errors.New("want two different targets of the model, separated by a comma")

// plotSeveral draws gcp plot's image for n, a model of several targets,
// into dst (the file out): the regions panel of the targets pair names
// and the joint calibration panel, and says on stderr what it drew and
// how many outcomes the regions hold. It reads the data file as eval
// does, a chunk at a time, keeping of each row what the regions panel
// may draw (pairRow) and of all rows the joint regions' counts. As eval
// does, it leaves out the rows with a code no training row had (input_z
// +Inf), whose calibrated regions are unknown, and says how many.
func plotSeveral(a modelArgs, n network, pair, out string, dst atomicfile.Target, stderr io.Writer) error {
	names := targetNames(n)
	ia, ib, err := pairIndices(pair, names)
	if err != nil {
		return err
	}
	var rows []pairRow
	unseen := 0
	cal := newJointCounts()
	file, err := a.eachMultiTarget(stderr, n, func(p *gcp.MultiPrediction, y []float64) {
		if unseenRow(p) {
			unseen++
			return
		}
		rows = append(rows, newPairRow(p, y, ia, ib))
		cal.add(p, y)
	})
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("%s: no rows to plot", file)
	}
	regions, held, drawn := pairPanel(rows, names[ia], names[ib])
	panels := []*plot.Plot{regions, cal.panel()}
	ctx, stop := interruptContext()
	defer stop()
	err = plot.WritePNG(ctx, dst, plot.Grid(len(panels), plotPanelW, plotPanelH, panels...))
	if err = interrupted(ctx, err, "writing the image", out); err != nil {
		return err
	}
	left := ""
	if unseen > 0 {
		left = fmt.Sprintf("; %d rows with a level no training row had, whose calibrated regions are unknown, are left out", unseen)
	}
	_, err = fmt.Fprintf(stderr, "wrote %s: %s, %s, for %d of the %d rows of %s; their calibrated 95%% regions of (%s, %s) hold %d of %d outcomes (drawn red outside)%s\n",
		out, regions.Title, panels[1].Title, drawn, len(rows), file, names[ia], names[ib], held, drawn, left)
	return err
}

// pairRow is what the regions panel needs of a row for targets a and b:
// their predicted means, the centre (ZMean) and scale matrix of the
// calibrated predictive of the two as the model's network models them
// (RegionScale·ZCovCorrected, its 2×2 block), the squared radius r2 of its
// 95% region, their outcomes, and each target's transform (a logged
// target's axis is its logarithm, where the region is an ellipse).
type pairRow struct {
	ma, mb, za, zb, sxx, sxy, syy, r2, ya, yb float64
	ta, tb                                    gcp.TargetTransform
}

// newPairRow returns the pairRow of targets ia and ib of the prediction
// p of a row whose targets are y. The calibrated predictive is the t of
// ν = RegionNu() degrees of freedom and scale RegionScale·ZCovCorrected
// in z, whose marginal of two targets is the t of the same ν and that 2×2
// block (pairRadius2).
func newPairRow(p *gcp.MultiPrediction, y []float64, ia, ib int) pairRow {
	c, r2 := p.RegionScale(), pairRadius2(p.RegionNu(), 0.95)
	return pairRow{ma: p.Mean(ia), mb: p.Mean(ib), za: p.ZMean(ia), zb: p.ZMean(ib),
		sxx: c * p.ZCovCorrected(ia, ia), sxy: c * p.ZCovCorrected(ia, ib), syy: c * p.ZCovCorrected(ib, ib),
		r2: r2, ya: y[ia], yb: y[ib], ta: p.Marginal(ia).Transform, tb: p.Marginal(ib).Transform}
}

// inside reports whether the row's outcome lies in its region: its image
// in z within the ellipse; never where it is outside a transform's
// domain.
func (r pairRow) inside() bool {
	_, _, za, zb, ok := r.axes()
	return ok && pairMahalanobis2(za-r.za, zb-r.zb, r.sxx, r.sxy, r.syy) <= r.r2
}

// axes returns the row's predicted means and outcomes in the panel's
// coordinates, a logged target's as its logarithm (where the region is
// an ellipse), and whether the outcome lies in the transforms' domain.
func (r pairRow) axes() (ma, mb, ya, yb float64, ok bool) {
	ma, _ = r.ta.Apply(r.ma) // a log-normal mean is positive
	mb, _ = r.tb.Apply(r.mb)
	ya, erra := r.ta.Apply(r.ya)
	yb, errb := r.tb.Apply(r.yb)
	return ma, mb, ya, yb, erra == nil && errb == nil
}

// axisLabel returns the label of target name's axis: "ln name" for a
// logged target.
func axisLabel(t gcp.TargetTransform, name string) string {
	if t == gcp.TransformLog {
		return "ln " + name
	}
	return name
}

// pairIndices returns the indices in names of the two targets that pair
// names, "a,b"; the first two if pair is empty; errPair otherwise.
func pairIndices(pair string, names []string) (ia, ib int, err error) {
	if pair == "" {
		return 0, 1, nil
	}
	two := strings.Split(pair, ",")
	if len(two) == 2 {
		ia, ib = slices.Index(names, two[0]), slices.Index(names, two[1])
		if ia >= 0 && ib >= 0 && ia != ib {
			return ia, ib, nil
		}
	}
	return 0, 0, fmt.Errorf("-pair %q: %w (its targets: %s)", pair, errPair, strings.Join(names, ", "))
}

// pairRadius2 returns the squared Mahalanobis radius of the central
// p-region of a bivariate t of nu degrees of freedom (+Inf: the
// Gaussian). Its squared distance q has q/2 ∼ F(2, ν), whose distribution
// function 1 − (1 + q/ν)^(−ν/2) gives q ≤ ν((1 − p)^(−2/ν) − 1), and
// −2 ln(1 − p) (χ²₂) for the Gaussian.
func pairRadius2(nu, p float64) float64 {
	if math.IsInf(nu, 1) {
		return -2 * math.Log(1-p)
	}
	return nu * (math.Pow(1-p, -2/nu) - 1)
}

// pairPanel draws, for plotPairRows of rows spread over the predicted
// means of target a (spreadRows), the calibrated 95% region of the
// targets a and b, its mean and the row's outcome, black inside and red
// outside; it returns the panel, how many outcomes the regions hold and
// how many rows it drew. The region is the calibrated predictive
// marginalised to the pair (newPairRow). A logged target's axis is its
// logarithm, labelled "ln": there the region is an ellipse, where in
// original units its image would stretch the axis over orders of
// magnitude.
func pairPanel(rows []pairRow, na, nb string) (p *plot.Plot, held, drawn int) {
	if len(rows) > 0 {
		na, nb = axisLabel(rows[0].ta, na), axisLabel(rows[0].tb, nb)
	}
	p = &plot.Plot{Title: "95% regions of " + na + ", " + nb, XLabel: na, YLabel: nb, Legend: plot.TopLeft}
	means := make([]float64, len(rows))
	for i, r := range rows {
		means[i] = r.ma
	}
	var mx, my, inX, inY, outX, outY []float64
	for k, i := range spreadRows(means, plotPairRows) {
		r := rows[i]
		xs, ys := ellipse(r.za, r.zb, r.sxx, r.sxy, r.syy, r.r2, plotEllipsePoints)
		label := ""
		if k == 0 {
			label = "calibrated 95% region"
		}
		p.Line(label, xs, ys, plot.Style{Color: plot.Fade(plot.Blue, 160)})
		ma, mb, ya, yb, ok := r.axes()
		mx, my = append(mx, ma), append(my, mb)
		switch {
		case r.inside():
			inX, inY = append(inX, ya), append(inY, yb)
			held++
		case ok: // an outcome outside a log's domain has no point to draw
			outX, outY = append(outX, ya), append(outY, yb)
		}
		drawn++
	}
	p.Points("predicted mean", mx, my, plot.Style{Color: plot.Blue, Radius: 2})
	p.Points("outcome inside", inX, inY, plot.Style{Color: plot.Black, Radius: 2})
	p.Points("outcome outside", outX, outY, plot.Style{Color: plot.Red, Radius: 2})
	return p, held, drawn
}

// spreadRows returns the indices of k of the rows whose predicted means
// are means (all of them if there are fewer), the ones at evenly spaced
// ranks of the mean, from the lowest to the highest: a deterministic
// choice spread over the data.
func spreadRows(means []float64, k int) []int {
	order := make([]int, len(means))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(means[i], means[j]) })
	n := len(order)
	if n <= k {
		return order
	}
	rows := make([]int, k)
	for j := range rows {
		rows[j] = order[int(math.Round(float64(j)*float64(n-1)/float64(k-1)))]
	}
	return rows
}

// ellipse returns n + 1 points closing the outline of the ellipse
// {(x, y) : (x − mx, y − my) Σ⁻¹ (x − mx, y − my)ᵀ = r2} of the covariance
// Σ = [sxx sxy; sxy syy]: the centre plus √r2·L(cos θ, sin θ), L the
// Cholesky factor of Σ.
func ellipse(mx, my, sxx, sxy, syy, r2 float64, n int) (xs, ys []float64) {
	l11 := math.Sqrt(sxx)
	l21 := sxy / l11
	l22 := math.Sqrt(max(syy-l21*l21, 0))
	r := math.Sqrt(r2)
	xs, ys = make([]float64, n+1), make([]float64, n+1)
	for k := range n + 1 {
		s, c := math.Sincos(2 * math.Pi * float64(k%n) / float64(n))
		xs[k], ys[k] = mx+r*l11*c, my+r*(l21*c+l22*s)
	}
	return xs, ys
}

// pairMahalanobis2 returns (ex, ey) Σ⁻¹ (ex, ey)ᵀ for the covariance
// Σ = [sxx sxy; sxy syy], by its 2×2 inverse.
func pairMahalanobis2(ex, ey, sxx, sxy, syy float64) float64 {
	return (syy*ex*ex - 2*sxy*ex*ey + sxx*ey*ey) / (sxx*syy - sxy*sxy)
}

// jointCounts counts, over the rows added, the target vectors inside
// their central joint region at each of plotLevels, for the calibrated
// region (MultiPrediction.CalibratedInside) and the predictive's own
// (Inside).
type jointCounts struct {
	calibrated, predictive []float64
	rows                   int
}

func newJointCounts() *jointCounts {
	return &jointCounts{calibrated: make([]float64, len(plotLevels)), predictive: make([]float64, len(plotLevels))}
}

// add counts the row whose prediction is p and whose targets are y.
func (c *jointCounts) add(p *gcp.MultiPrediction, y []float64) {
	c.rows++
	for l, level := range plotLevels {
		// plotLevels are in (0, 1) and y has the model's targets.
		if in, _ := p.CalibratedInside(y, level); in {
			c.calibrated[l]++
		}
		if in, _ := p.Inside(y, level); in {
			c.predictive[l]++
		}
	}
}

// panel draws the share of the rows inside at each level, for the
// calibrated and the predictive regions, against the diagonal of perfect
// calibration.
func (c *jointCounts) panel() *plot.Plot {
	p := &plot.Plot{Title: "joint calibration", XLabel: "region level", YLabel: "share of target vectors inside",
		X: plot.Range{Min: 0, Max: 1}, Y: plot.Range{Min: 0, Max: 1}, Legend: plot.TopLeft}
	p.Line("ideal", []float64{0, 1}, []float64{0, 1}, plot.Style{Color: plot.Black, Dash: 6})
	for _, s := range []struct {
		label string
		count []float64
		style plot.Style
	}{
		{"calibrated", c.calibrated, plot.Style{Color: plot.Blue, Width: 2, Radius: 3}},
		{"predictive", c.predictive, plot.Style{Color: plot.Orange, Width: 2, Radius: 3}},
	} {
		cover := make([]float64, len(plotLevels))
		for l, k := range s.count {
			cover[l] = k / float64(c.rows)
		}
		p.Line(s.label, plotLevels, cover, s.style)
		p.Points("", plotLevels, cover, s.style)
	}
	return p
}
