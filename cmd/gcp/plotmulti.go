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

// plotSeveral draws gcp plot's image for m, a model of several targets,
// into dst (the file out): the regions panel of the targets pair names
// and the joint calibration panel, and says on stderr what it drew and
// how many outcomes the regions hold.
func plotSeveral(a modelArgs, m *gcp.Model[float64], pair, out string, dst atomicfile.Target, stderr io.Writer) error {
	md, err := readMulti(a, m, true)
	if err != nil {
		return err
	}
	ia, ib, err := pairIndices(pair, md.names)
	if err != nil {
		return err
	}
	if len(md.preds) == 0 {
		return fmt.Errorf("%s: no rows to plot", md.tab.File)
	}
	regions, held, drawn := pairPanel(md, ia, ib)
	panels := []*plot.Plot{regions, jointCalibrationPanel(md)}
	ctx, stop := interruptContext()
	defer stop()
	err = plot.WritePNG(ctx, dst, plot.Grid(len(panels), plotPanelW, plotPanelH, panels...))
	if err = interrupted(ctx, err, "writing the image", out); err != nil {
		return err
	}
	n := len(md.preds)
	_, err = fmt.Fprintf(stderr, "wrote %s: %s, %s, for %d of the %d rows of %s; their calibrated 95%% regions of (%s, %s) hold %d of %d outcomes (drawn red outside)\n",
		out, regions.Title, panels[1].Title, drawn, n, md.tab.File, md.names[ia], md.names[ib], held, drawn)
	return err
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

// pairPanel draws, for plotPairRows rows spread over the predicted means
// of target ia (spreadRows), the calibrated 95% region of the targets ia
// and ib, its mean and the row's outcome, black inside and red outside;
// it returns the panel, how many outcomes the regions hold and how many
// rows it drew. The region is the calibrated predictive
// N(Mean, RegionScale·CovCorrected) marginalised to the pair, the
// Gaussian of that 2×2 block, whose 95% region is its Mahalanobis
// distance squared below χ²₂(0.95) = −2 ln 0.05.
func pairPanel(md multiData, ia, ib int) (p *plot.Plot, held, drawn int) {
	na, nb := md.names[ia], md.names[ib]
	p = &plot.Plot{Title: "95% regions of " + na + ", " + nb, XLabel: na, YLabel: nb, Legend: plot.TopLeft}
	r2 := -2 * math.Log(0.05)
	d := len(md.names)
	var mx, my, inX, inY, outX, outY []float64
	for k, i := range spreadRows(md.preds, ia, plotPairRows) {
		q := &md.preds[i]
		c := q.RegionScale()
		sxx, sxy, syy := c*q.CovCorrected(ia, ia), c*q.CovCorrected(ia, ib), c*q.CovCorrected(ib, ib)
		xs, ys := ellipse(q.Mean(ia), q.Mean(ib), sxx, sxy, syy, r2, plotEllipsePoints)
		label := ""
		if k == 0 {
			label = "calibrated 95% region"
		}
		p.Line(label, xs, ys, plot.Style{Color: plot.Fade(plot.Blue, 160)})
		mx, my = append(mx, q.Mean(ia)), append(my, q.Mean(ib))
		ya, yb := md.y[i*d+ia], md.y[i*d+ib]
		if pairMahalanobis2(ya-q.Mean(ia), yb-q.Mean(ib), sxx, sxy, syy) <= r2 {
			inX, inY = append(inX, ya), append(inY, yb)
			held++
		} else {
			outX, outY = append(outX, ya), append(outY, yb)
		}
		drawn++
	}
	p.Points("predicted mean", mx, my, plot.Style{Color: plot.Blue, Radius: 2})
	p.Points("outcome inside", inX, inY, plot.Style{Color: plot.Black, Radius: 2})
	p.Points("outcome outside", outX, outY, plot.Style{Color: plot.Red, Radius: 2})
	return p, held, drawn
}

// spreadRows returns k rows of preds (all of them if there are fewer),
// the ones at evenly spaced ranks of the predicted mean of target t, from
// the lowest to the highest: a deterministic choice spread over the data.
func spreadRows(preds []gcp.MultiPrediction, t, k int) []int {
	order := make([]int, len(preds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(preds[i].Mean(t), preds[j].Mean(t)) })
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

// jointCalibrationPanel draws the share of the rows whose target vector
// lies inside its central joint region at each of plotLevels, for the
// calibrated region (MultiPrediction.CalibratedInside) and the
// predictive's own (Inside), against the diagonal of perfect
// calibration.
func jointCalibrationPanel(md multiData) *plot.Plot {
	p := &plot.Plot{Title: "joint calibration", XLabel: "region level", YLabel: "share of target vectors inside",
		X: plot.Range{Min: 0, Max: 1}, Y: plot.Range{Min: 0, Max: 1}, Legend: plot.TopLeft}
	p.Line("ideal", []float64{0, 1}, []float64{0, 1}, plot.Style{Color: plot.Black, Dash: 6})
	d := len(md.names)
	for _, c := range []struct {
		label  string
		inside func(*gcp.MultiPrediction, []float64, float64) (bool, error)
		style  plot.Style
	}{
		{"calibrated", (*gcp.MultiPrediction).CalibratedInside, plot.Style{Color: plot.Blue, Width: 2, Radius: 3}},
		{"predictive", (*gcp.MultiPrediction).Inside, plot.Style{Color: plot.Orange, Width: 2, Radius: 3}},
	} {
		cover := make([]float64, len(plotLevels))
		for l, level := range plotLevels {
			for i := range md.preds {
				// plotLevels are in (0, 1) and y has the model's d targets.
				if in, _ := c.inside(&md.preds[i], md.y[i*d:(i+1)*d], level); in {
					cover[l]++
				}
			}
			cover[l] /= float64(len(md.preds))
		}
		p.Line(c.label, plotLevels, cover, c.style)
		p.Points("", plotLevels, cover, c.style)
	}
	return p
}
