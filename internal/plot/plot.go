// Package plot draws the figures of the gcp command (the panels of the
// paper's Sec. 6: data, means, ±3 sd bands, RMSE(n) curves) into PNG
// images with the standard library alone. A Plot is one panel: axes with
// tick labels in a built-in 5×7 bitmap font, then points, lines (solid or
// dashed), filled bands and a legend; Grid lays panels out in one image
// and WritePNG saves it, atomically.
//
// Drawing is exact and unantialiased, so that tests can check pixels: a
// line is Bresenham's, a band fills whole pixel columns. Non-finite values
// are left out: a line breaks at them, a point or a band column is not
// drawn.
package plot

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"

	"github.com/gcpnet/gcp/internal/atomicfile"
)

// Range is the span of an axis. A Range whose Max is not above its Min,
// like the zero Range, is fitted to the data.
type Range struct{ Min, Max float64 }

// fixed reports whether r was set.
func (r Range) fixed() bool { return r.Max > r.Min }

// Corner places a legend.
type Corner int

// The corners of the plot area.
const (
	TopLeft Corner = iota
	TopRight
	BottomLeft
	BottomRight
)

// Style says how an item is drawn. Lines use Width and Dash, points
// Radius; every item uses Color, with its alpha.
type Style struct {
	Color  color.NRGBA
	Width  int // line width in pixels; 0 means 1
	Dash   int // dash and gap length in pixels; 0 draws a solid line
	Radius int // point radius in pixels
}

// Common colours.
var (
	Black = color.NRGBA{0, 0, 0, 255}
	Red   = color.NRGBA{214, 39, 40, 255}
	Blue  = color.NRGBA{31, 119, 180, 255}
	Green = color.NRGBA{44, 160, 44, 255}
	// Orange, Purple, Teal, Brown, Olive and Pink complete a palette of
	// distinguishable lines (the tab10 palette's).
	Orange = color.NRGBA{255, 127, 14, 255}
	Purple = color.NRGBA{148, 103, 189, 255}
	Teal   = color.NRGBA{23, 190, 207, 255}
	Brown  = color.NRGBA{140, 86, 75, 255}
	Olive  = color.NRGBA{188, 189, 34, 255}
	Pink   = color.NRGBA{227, 119, 194, 255}
	gray   = color.NRGBA{90, 90, 90, 255}
	light  = color.NRGBA{225, 225, 225, 255}
	white  = color.NRGBA{255, 255, 255, 255}
)

// Fade returns c with its alpha set to a, for bands.
func Fade(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}

type kind int

const (
	lineItem kind = iota
	pointItem
	bandItem
)

// item is one thing drawn in a plot: ys is the line, the points or the
// band's lower edge; hi is the band's upper edge.
type item struct {
	kind   kind
	xs, ys []float64
	hi     []float64
	style  Style
	label  string
}

// Plot is one panel. Set the exported fields, add items, then draw it
// with Grid.
type Plot struct {
	Title, XLabel, YLabel string
	X, Y                  Range  // axis spans; fitted to the data when not set
	Legend                Corner // where the legend goes, if any item has a label
	items                 []item
}

// Line adds the polyline through the points (xs[i], ys[i]), labelled in
// the legend unless label is empty.
func (p *Plot) Line(label string, xs, ys []float64, s Style) {
	p.items = append(p.items, item{kind: lineItem, xs: xs, ys: ys, style: s, label: label})
}

// Points adds a disc at each (xs[i], ys[i]).
func (p *Plot) Points(label string, xs, ys []float64, s Style) {
	p.items = append(p.items, item{kind: pointItem, xs: xs, ys: ys, style: s, label: label})
}

// Band adds the area between lo and hi over the ascending xs, filled
// with c; a translucent c lets earlier items show through.
func (p *Plot) Band(label string, xs, lo, hi []float64, c color.NRGBA) {
	p.items = append(p.items, item{kind: bandItem, xs: xs, ys: lo, hi: hi, style: Style{Color: c}, label: label})
}

// ranges returns the plot's axis spans: the fixed ones, and the others
// fitted to the finite data with 5% to spare on each side.
func (p *Plot) ranges() (x, y Range) {
	x, y = p.X, p.Y
	fx, fy := Range{math.Inf(1), math.Inf(-1)}, Range{math.Inf(1), math.Inf(-1)}
	for _, it := range p.items {
		for i, v := range it.xs {
			if !finite(v) {
				continue
			}
			fx.add(v)
			fy.add(it.ys[i])
			if it.hi != nil {
				fy.add(it.hi[i])
			}
		}
	}
	if !x.fixed() {
		x = fx.padded()
	}
	if !y.fixed() {
		y = fy.padded()
	}
	return x, y
}

// add widens r to hold a finite v.
func (r *Range) add(v float64) {
	if finite(v) {
		r.Min, r.Max = math.Min(r.Min, v), math.Max(r.Max, v)
	}
}

// padded returns r widened by 5% on each side; an empty r becomes [0, 1]
// and a single value v becomes [v−1, v+1].
func (r Range) padded() Range {
	switch {
	case r.Min > r.Max:
		return Range{0, 1}
	case r.Min == r.Max:
		return Range{r.Min - 1, r.Max + 1}
	}
	pad := 0.05 * (r.Max - r.Min)
	return Range{r.Min - pad, r.Max + pad}
}

func finite(v float64) bool { return v-v == 0 }

// frame maps data coordinates to the pixels of a plot area.
type frame struct {
	area image.Rectangle
	x, y Range
}

// fx and fy return the pixel coordinates of data x and y, unrounded: the
// area's left column is x.Min, its right column x.Max, its bottom row
// y.Min and its top row y.Max.
func (f frame) fx(x float64) float64 {
	return float64(f.area.Min.X) + (x-f.x.Min)/(f.x.Max-f.x.Min)*float64(f.area.Dx()-1)
}

func (f frame) fy(y float64) float64 {
	return float64(f.area.Max.Y-1) - (y-f.y.Min)/(f.y.Max-f.y.Min)*float64(f.area.Dy()-1)
}

// dataX returns the data x of pixel column px, the inverse of fx.
func (f frame) dataX(px int) float64 {
	return f.x.Min + float64(px-f.area.Min.X)/float64(f.area.Dx()-1)*(f.x.Max-f.x.Min)
}

// Text sizes and the space around the plot area.
const (
	titleScale = 2
	pad        = 8 // pixels between text and the panel's edge or the axes
	tickLen    = 4
	swatchW    = 24 // legend swatch width
)

// layout returns the frame of the plot drawn in the rectangle r: the
// plot area, inside room for the title, the axis labels and the tick
// labels, and the axis spans; ok is false when r leaves no room.
func (p *Plot) layout(r image.Rectangle) (f frame, ok bool) {
	xr, yr := p.ranges()
	xw, yw := maxLabelWidth(xr), maxLabelWidth(yr)
	top := r.Min.Y + pad
	if p.Title != "" {
		top += textHeight(titleScale) + pad
	}
	if p.YLabel != "" {
		top += textHeight(1) + pad/2
	}
	bottom := r.Max.Y - pad - tickLen - textHeight(1) - pad/2
	if p.XLabel != "" {
		bottom -= textHeight(1) + pad/2
	}
	// The x tick labels are centred on their ticks: leave half the widest
	// on each side.
	left := r.Min.X + max(pad+yw+tickLen+pad/2, xw/2+pad)
	right := r.Max.X - max(2*pad, xw/2+pad)
	area := image.Rect(left, top, right, bottom)
	return frame{area: area, x: xr, y: yr}, area.Dx() >= 2 && area.Dy() >= 2
}

// maxLabelWidth returns the width of the widest tick label of r.
func maxLabelWidth(r Range) int {
	vals, decimals := ticks(r)
	w := 0
	for _, v := range vals {
		w = max(w, textWidth(tickLabel(v, decimals), 1))
	}
	return w
}

// draw draws the plot into the rectangle r of img.
func (p *Plot) draw(img *image.RGBA, r image.Rectangle) {
	fillRect(img, r, r, white)
	f, ok := p.layout(r)
	if !ok {
		return // no room to plot
	}
	area := f.area
	if p.Title != "" {
		text(img, r, r.Min.X+(r.Dx()-textWidth(p.Title, titleScale))/2, r.Min.Y+pad, p.Title, Black, titleScale)
	}
	xt, xd := ticks(f.x)
	for _, v := range xt {
		px := int(math.Round(f.fx(v)))
		fillRect(img, r, image.Rect(px, area.Min.Y, px+1, area.Max.Y), light)
		fillRect(img, r, image.Rect(px, area.Max.Y, px+1, area.Max.Y+tickLen), gray)
		s := tickLabel(v, xd)
		text(img, r, px-textWidth(s, 1)/2, area.Max.Y+tickLen+pad/2, s, Black, 1)
	}
	yt, yd := ticks(f.y)
	for _, v := range yt {
		py := int(math.Round(f.fy(v)))
		fillRect(img, r, image.Rect(area.Min.X, py, area.Max.X, py+1), light)
		fillRect(img, r, image.Rect(area.Min.X-tickLen, py, area.Min.X, py+1), gray)
		s := tickLabel(v, yd)
		text(img, r, area.Min.X-tickLen-pad/2-textWidth(s, 1), py-textHeight(1)/2, s, Black, 1)
	}
	if p.XLabel != "" {
		text(img, r, area.Min.X+(area.Dx()-textWidth(p.XLabel, 1))/2, area.Max.Y+tickLen+pad+textHeight(1), p.XLabel, Black, 1)
	}
	if p.YLabel != "" {
		text(img, r, area.Min.X, area.Min.Y-pad/2-textHeight(1), p.YLabel, Black, 1)
	}
	for _, it := range p.items {
		it.draw(img, f)
	}
	outline(img, r, area.Inset(-1), gray)
	p.drawLegend(img, area)
}

// outline draws the one-pixel border just inside rect.
func outline(img *image.RGBA, clip, rect image.Rectangle, c color.NRGBA) {
	m, n := rect.Min, rect.Max
	fillRect(img, clip, image.Rect(m.X, m.Y, n.X, m.Y+1), c)
	fillRect(img, clip, image.Rect(m.X, n.Y-1, n.X, n.Y), c)
	fillRect(img, clip, image.Rect(m.X, m.Y+1, m.X+1, n.Y-1), c)
	fillRect(img, clip, image.Rect(n.X-1, m.Y+1, n.X, n.Y-1), c)
}

// draw draws the item inside f's area.
func (it item) draw(img *image.RGBA, f frame) {
	switch it.kind {
	case lineItem:
		it.drawLine(img, f)
	case pointItem:
		for i, x := range it.xs {
			px, py := f.fx(x), f.fy(it.ys[i])
			// Far-off points are skipped before rounding, which could overflow.
			if finite(px) && finite(py) && math.Abs(px) < 1e6 && math.Abs(py) < 1e6 {
				disc(img, f.area, int(math.Round(px)), int(math.Round(py)), it.style.Radius, it.style.Color)
			}
		}
	case bandItem:
		it.drawBand(img, f)
	}
}

// drawLine draws the polyline, broken at non-finite points, each segment
// clipped to the area before it is rounded to pixels.
func (it item) drawLine(img *image.RGBA, f frame) {
	p := &pen{img: img, clip: f.area, c: it.style.Color, width: max(it.style.Width, 1), dash: it.style.Dash}
	box := [4]float64{float64(f.area.Min.X), float64(f.area.Min.Y), float64(f.area.Max.X - 1), float64(f.area.Max.Y - 1)}
	for i := 1; i < len(it.xs); i++ {
		x0, y0, x1, y1 := f.fx(it.xs[i-1]), f.fy(it.ys[i-1]), f.fx(it.xs[i]), f.fy(it.ys[i])
		if !(finite(x0) && finite(y0) && finite(x1) && finite(y1)) {
			continue
		}
		if x0, y0, x1, y1, ok := clipSegment(box, x0, y0, x1, y1); ok {
			p.segment(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1)))
		}
	}
}

// clipSegment clips the segment (x0, y0)–(x1, y1) to the box {minX,
// minY, maxX, maxY} by the Liang–Barsky algorithm; ok is false when no
// part of it lies inside.
func clipSegment(box [4]float64, x0, y0, x1, y1 float64) (cx0, cy0, cx1, cy1 float64, ok bool) {
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{
		{-dx, x0 - box[0]}, {dx, box[2] - x0},
		{-dy, y0 - box[1]}, {dy, box[3] - y0},
	} {
		q, d := e[0], e[1]
		if q == 0 {
			if d < 0 {
				return 0, 0, 0, 0, false // parallel to this edge and outside it
			}
			continue
		}
		t := d / q
		if q < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
	}
	if t0 > t1 {
		return 0, 0, 0, 0, false
	}
	return x0 + t0*dx, y0 + t0*dy, x0 + t1*dx, y0 + t1*dy, true
}

// drawBand fills, in every pixel column between the first and the last
// x, the rows between the band's edges, interpolated linearly in x.
func (it item) drawBand(img *image.RGBA, f frame) {
	n := len(it.xs)
	if n < 2 {
		return
	}
	left := max(int(math.Ceil(f.fx(it.xs[0])-1e-9)), f.area.Min.X)
	right := min(int(math.Floor(f.fx(it.xs[n-1])+1e-9)), f.area.Max.X-1)
	seg := 1
	for px := left; px <= right; px++ {
		x := f.dataX(px)
		for seg < n-1 && it.xs[seg] < x {
			seg++
		}
		x0, x1 := it.xs[seg-1], it.xs[seg]
		t := 0.0
		if x1 > x0 {
			t = (x - x0) / (x1 - x0)
		}
		lo := f.fy(it.ys[seg-1] + t*(it.ys[seg]-it.ys[seg-1]))
		hi := f.fy(it.hi[seg-1] + t*(it.hi[seg]-it.hi[seg-1]))
		if !finite(lo) || !finite(hi) {
			continue
		}
		// fy grows downwards: hi is the upper row.
		top := max(int(math.Round(math.Min(lo, hi))), f.area.Min.Y)
		bot := min(int(math.Round(math.Max(lo, hi))), f.area.Max.Y-1)
		fillRect(img, f.area, image.Rect(px, top, px+1, bot+1), it.style.Color)
	}
}

// drawLegend draws a box listing the labelled items in the legend's
// corner of the area.
func (p *Plot) drawLegend(img *image.RGBA, area image.Rectangle) {
	var items []item
	textW := 0
	for _, it := range p.items {
		if it.label != "" {
			items = append(items, it)
			textW = max(textW, textWidth(it.label, 1))
		}
	}
	if len(items) == 0 {
		return
	}
	const rowH = 12
	w, h := pad+swatchW+pad/2+textW+pad, len(items)*rowH+pad
	x, y := area.Min.X+pad, area.Min.Y+pad
	if p.Legend == TopRight || p.Legend == BottomRight {
		x = area.Max.X - pad - w
	}
	if p.Legend == BottomLeft || p.Legend == BottomRight {
		y = area.Max.Y - pad - h
	}
	box := image.Rect(x, y, x+w, y+h)
	fillRect(img, area, box, Fade(white, 230))
	outline(img, area, box, gray)
	for i, it := range items {
		sx, cy := x+pad, y+pad/2+i*rowH+rowH/2
		switch it.kind {
		case lineItem:
			pn := &pen{img: img, clip: area, c: it.style.Color, width: max(it.style.Width, 1), dash: it.style.Dash}
			pn.segment(sx, cy, sx+swatchW-1, cy)
		case pointItem:
			disc(img, area, sx+swatchW/2, cy, it.style.Radius, it.style.Color)
		case bandItem:
			fillRect(img, area, image.Rect(sx, cy-4, sx+swatchW, cy+5), it.style.Color)
		}
		text(img, area, sx+swatchW+pad/2, cy-textHeight(1)/2, it.label, Black, 1)
	}
}

// ticks returns about six round tick values spanning r (steps of 1, 2 or
// 5 times a power of ten) and the decimals their labels need.
func ticks(r Range) (vals []float64, decimals int) {
	raw := (r.Max - r.Min) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	decimals = max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	first := math.Ceil(r.Min/step - 1e-9)
	for i := first; i*step <= r.Max+1e-9*step; i++ {
		vals = append(vals, i*step)
	}
	return vals, decimals
}

// tickLabel formats a tick value with the given decimals, without a
// minus sign on zero.
func tickLabel(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if z := strconv.FormatFloat(0, 'f', decimals, 64); s == "-"+z {
		return z
	}
	return s
}

// Grid draws the plots side by side, cols to a row, each in a panel of
// w×h pixels, and returns the image.
func Grid(cols, w, h int, plots ...*Plot) *image.RGBA {
	rows := (len(plots) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*w, rows*h))
	fillRect(img, img.Rect, img.Rect, white)
	for i, p := range plots {
		x, y := (i%cols)*w, (i/cols)*h
		p.draw(img, image.Rect(x, y, x+w, y+h))
	}
	return img
}

// WritePNG writes img as a PNG to the file t names, atomically and
// stopped by ctx (atomicfile.Target.Write): never over a file that is not
// a PNG (unless t.Force), nor over one of t.Inputs.
func WritePNG(ctx context.Context, t atomicfile.Target, img image.Image) error {
	t.Kind = atomicfile.PNG
	return t.Write(ctx, func(w io.Writer) error { return png.Encode(w, img) })
}
