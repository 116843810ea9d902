package plot

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gcpnet/gcp/internal/atomicfile"
)

// canvas returns a white w×h image.
func canvas(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, img.Rect, img.Rect, white)
	return img
}

// painted returns the pixels of img that are not white, in row order.
func painted(img *image.RGBA) []image.Point {
	var pts []image.Point
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.RGBAAt(x, y) != (color.RGBA{255, 255, 255, 255}) {
				pts = append(pts, image.Point{x, y})
			}
		}
	}
	return pts
}

// at returns the colour of pixel (x, y) as an NRGBA.
func at(img *image.RGBA, x, y int) color.NRGBA {
	c := img.RGBAAt(x, y)
	return color.NRGBA(c)
}

// over returns c painted over white, as blend computes it.
func over(c color.NRGBA) color.NRGBA { return overOn(c, white) }

// overOn returns c painted over the opaque colour bg.
func overOn(c, bg color.NRGBA) color.NRGBA {
	a := uint32(c.A)
	mix := func(v, b uint8) uint8 { return uint8((uint32(v)*a + uint32(b)*(255-a) + 127) / 255) }
	return color.NRGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 255}
}

func TestSegmentPixels(t *testing.T) {
	tests := []struct {
		name           string
		x0, y0, x1, y1 int
		want           []image.Point
	}{
		{"horizontal", 2, 5, 6, 5, []image.Point{{2, 5}, {3, 5}, {4, 5}, {5, 5}, {6, 5}}},
		{"vertical, upwards", 3, 4, 3, 1, []image.Point{{3, 1}, {3, 2}, {3, 3}, {3, 4}}},
		{"diagonal", 0, 0, 3, 3, []image.Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}}},
		// Slope 1/3: the pixel nearest the line in every column.
		{"shallow", 0, 0, 6, 2, []image.Point{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 1}, {5, 2}, {6, 2}}},
		{"one point", 7, 7, 7, 7, []image.Point{{7, 7}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := canvas(10, 10)
			p := &pen{img: img, clip: img.Rect, c: Black, width: 1}
			p.segment(tt.x0, tt.y0, tt.x1, tt.y1)
			got := painted(img)
			slices.SortFunc(got, func(a, b image.Point) int { return a.X*100 + a.Y - b.X*100 - b.Y })
			if !slices.Equal(got, tt.want) {
				t.Errorf("painted %v, want %v", got, tt.want)
			}
			for _, pt := range got {
				if c := at(img, pt.X, pt.Y); c != Black {
					t.Errorf("pixel %v is %v, want black", pt, c)
				}
			}
		})
	}
}

func TestDashedWidePolyline(t *testing.T) {
	img := canvas(20, 10)
	p := &pen{img: img, clip: img.Rect, c: Black, width: 1, dash: 3}
	// Two segments meeting at (6, 2): the dash pattern runs on across the
	// joint, 3 pixels on, 3 off.
	p.segment(0, 2, 6, 2)
	p.segment(6, 2, 11, 2)
	var got []int
	for _, pt := range painted(img) {
		got = append(got, pt.X)
	}
	if want := []int{0, 1, 2, 6, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("dashed line paints columns %v, want %v", got, want)
	}

	img = canvas(10, 10)
	p = &pen{img: img, clip: img.Rect, c: Black, width: 3}
	p.segment(4, 4, 4, 4)
	if got := len(painted(img)); got != 9 {
		t.Errorf("a width-3 pen paints %d pixels at a point, want a 3×3 square", got)
	}
}

// TestPolylineJointBlendedOnce checks that a translucent polyline paints
// its joints once, like every other pixel.
func TestPolylineJointBlendedOnce(t *testing.T) {
	img := canvas(10, 10)
	c := Fade(Blue, 100)
	p := &pen{img: img, clip: img.Rect, c: c, width: 1}
	p.segment(1, 1, 5, 1)
	p.segment(5, 1, 5, 6)
	want := over(c)
	for _, pt := range painted(img) {
		if got := at(img, pt.X, pt.Y); got != want {
			t.Errorf("pixel %v is %v, want %v", pt, got, want)
		}
	}
	if n := len(painted(img)); n != 10 {
		t.Errorf("%d pixels painted, want 10", n)
	}
}

func TestTextGlyph(t *testing.T) {
	img := canvas(20, 20)
	text(img, img.Rect, 3, 2, "1", Black, 1)
	// '1' is 04 0C 04 04 04 04 0E: the middle column, a serif at the top
	// left and a foot three pixels wide.
	want := []image.Point{{5, 2}, {4, 3}, {5, 3}, {5, 4}, {5, 5}, {5, 6}, {5, 7}, {4, 8}, {5, 8}, {6, 8}}
	if got := painted(img); !slices.Equal(got, want) {
		t.Errorf("'1' painted %v, want %v", got, want)
	}
	img = canvas(20, 20)
	text(img, img.Rect, 0, 0, "1", Black, 2)
	if got := len(painted(img)); got != 4*len(want) {
		t.Errorf("'1' at scale 2 painted %d pixels, want %d", got, 4*len(want))
	}
	if w := textWidth("ab±", 2); w != (3*advance-1)*2 {
		t.Errorf("textWidth = %d", w)
	}
}

func TestDisc(t *testing.T) {
	img := canvas(11, 11)
	disc(img, img.Rect, 5, 5, 2, Red)
	for _, tt := range []struct {
		x, y int
		in   bool
	}{{5, 5, true}, {7, 5, true}, {5, 3, true}, {6, 6, true}, {8, 5, false}, {7, 7, false}} {
		if got := at(img, tt.x, tt.y) == Red; got != tt.in {
			t.Errorf("pixel (%d, %d) red: %t, want %t", tt.x, tt.y, got, tt.in)
		}
	}
}

// drawn draws p alone on a w×h image and returns the image and p's frame.
func drawn(t *testing.T, p *Plot, w, h int) (*image.RGBA, frame) {
	t.Helper()
	img := Grid(1, w, h, p)
	f, ok := p.layout(img.Rect)
	if !ok {
		t.Fatal("no room for the plot area")
	}
	return img, f
}

// TestPlotLineMapsToCorners checks the data-to-pixel map: a line from
// (x.Min, y.Min) to (x.Max, y.Max) runs from the area's bottom-left
// pixel to its top-right one.
func TestPlotLineMapsToCorners(t *testing.T) {
	p := &Plot{Title: "t", XLabel: "x", YLabel: "y", X: Range{-2, 2}, Y: Range{10, 30}}
	p.Line("", []float64{-2, 2}, []float64{10, 30}, Style{Color: Red})
	img, f := drawn(t, p, 300, 200)
	a := f.area
	for _, pt := range []image.Point{{a.Min.X, a.Max.Y - 1}, {a.Max.X - 1, a.Min.Y}} {
		if c := at(img, pt.X, pt.Y); c != Red {
			t.Errorf("corner %v is %v, want the line's red", pt, c)
		}
	}
	// Nothing red outside the area: the frame and the labels are other
	// colours.
	for _, pt := range painted(img) {
		if at(img, pt.X, pt.Y) == Red && !pt.In(a) {
			t.Errorf("red pixel %v outside the plot area %v", pt, a)
		}
	}
}

// TestLineFarOutside checks that a segment ending far outside the axes
// is clipped, not walked pixel by pixel, and that its visible part is
// drawn; a NaN breaks the line.
func TestLineFarOutside(t *testing.T) {
	p := &Plot{X: Range{0, 1}, Y: Range{0, 1}}
	p.Line("", []float64{0, 1, 2, 3}, []float64{0, 1e300, math.NaN(), 0.5}, Style{Color: Red})
	img, f := drawn(t, p, 200, 150)
	if c := at(img, f.area.Min.X, f.area.Max.Y-1); c != Red {
		t.Errorf("the visible start of the steep segment is %v, want red", c)
	}
}

func TestBandFills(t *testing.T) {
	c := Fade(Blue, 128)
	p := &Plot{X: Range{0, 1}, Y: Range{0, 1}}
	xs, lo, hi := []float64{0, 0.5, 1}, []float64{0.2, 0.3, 0.1}, []float64{0.6, 0.9, 0.7}
	// edge interpolates an edge linearly between the xs.
	edge := func(e []float64, x float64) float64 {
		if x <= 0.5 {
			return e[0] + (e[1]-e[0])*x/0.5
		}
		return e[1] + (e[2]-e[1])*(x-0.5)/0.5
	}
	p.Band("", xs, lo, hi, c)
	img, f := drawn(t, p, 300, 200)
	px := func(x float64) int { return int(math.Round(f.fx(x))) }
	py := func(y float64) int { return int(math.Round(f.fy(y))) }
	// Off the grid lines (the ticks are at multiples of 0.2).
	for _, x := range []float64{0.1, 0.3, 0.45, 0.7, 0.9} {
		l, h := edge(lo, x), edge(hi, x)
		if got := at(img, px(x), py((l+h)/2)); got != over(c) {
			t.Errorf("inside the band at x = %g: %v, want %v", x, got, over(c))
		}
		for _, y := range []float64{l - 0.03, h + 0.03} {
			if got := at(img, px(x), py(y)); got != white {
				t.Errorf("outside the band at (%g, %g): %v, want white", x, y, got)
			}
		}
	}
	// A column is filled exactly from the upper edge's row to the lower
	// edge's, over white or over a grid line.
	for _, col := range []int{px(0.3), px(0.75)} {
		var rows []int
		for y := f.area.Min.Y; y < f.area.Max.Y; y++ {
			if p := at(img, col, y); p == over(c) || p == overOn(c, light) {
				rows = append(rows, y)
			}
		}
		x := f.dataX(col)
		top, bot := py(edge(hi, x)), py(edge(lo, x))
		if len(rows) == 0 || rows[0] != top || rows[len(rows)-1] != bot || len(rows) != bot-top+1 {
			t.Errorf("column %d filled in rows %v, want %d to %d", col, rows, top, bot)
		}
	}
}

// TestBandSkipsNonFinite checks that the columns of a band next to a
// non-finite edge are left empty and the others filled.
func TestBandSkipsNonFinite(t *testing.T) {
	c := Fade(Green, 200)
	p := &Plot{X: Range{0, 4}, Y: Range{0, 1}}
	p.Band("", []float64{0, 1, 2, 3, 4}, []float64{0.1, 0.1, 0.1, 0.1, 0.1}, []float64{0.9, 0.9, math.Inf(1), 0.9, 0.9}, c)
	img, f := drawn(t, p, 300, 200)
	y := int(math.Round(f.fy(0.5)))
	for _, tt := range []struct {
		x      float64
		filled bool
	}{{0.5, true}, {1.5, false}, {2.5, false}, {3.5, true}} {
		if got := at(img, int(math.Round(f.fx(tt.x))), y) == over(c); got != tt.filled {
			t.Errorf("band at x = %g filled: %t, want %t", tt.x, got, tt.filled)
		}
	}
}

func TestLegendSwatches(t *testing.T) {
	p := &Plot{X: Range{0, 1}, Y: Range{0, 1}, Legend: TopRight}
	p.Line("mean", []float64{0, 1}, []float64{0.1, 0.1}, Style{Color: Orange})
	p.Points("data", []float64{0.1}, []float64{0.1}, Style{Color: Purple, Radius: 2})
	img, f := drawn(t, p, 300, 200)
	// The legend sits in the top-right quarter: the swatches' colours
	// appear there.
	quarter := image.Rect(f.area.Min.X+f.area.Dx()/2, f.area.Min.Y, f.area.Max.X, f.area.Min.Y+f.area.Dy()/2)
	found := map[color.NRGBA]bool{}
	for y := quarter.Min.Y; y < quarter.Max.Y; y++ {
		for x := quarter.Min.X; x < quarter.Max.X; x++ {
			found[at(img, x, y)] = true
		}
	}
	if !found[Orange] || !found[Purple] || !found[Black] {
		t.Errorf("legend colours orange %t, purple %t, black text %t; want all", found[Orange], found[Purple], found[Black])
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		r        Range
		want     []string
		decimals int
	}{
		{Range{0, 1}, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}, 1},
		{Range{-216, 216}, []string{"-200", "-100", "0", "100", "200"}, 0},
		{Range{-0.05, 0.3}, []string{"0.0", "0.1", "0.2", "0.3"}, 1},
		{Range{0, 0.25}, []string{"0.00", "0.05", "0.10", "0.15", "0.20", "0.25"}, 2},
	}
	for _, tt := range tests {
		vals, d := ticks(tt.r)
		var got []string
		for _, v := range vals {
			got = append(got, tickLabel(v, d))
		}
		if d != tt.decimals || !slices.Equal(got, tt.want) {
			t.Errorf("ticks(%v) = %v with %d decimals, want %v with %d", tt.r, got, d, tt.want, tt.decimals)
		}
	}
	if s := tickLabel(math.Copysign(0, -1), 1); s != "0.0" {
		t.Errorf("tickLabel(-0) = %q", s)
	}
}

func TestRangesFitData(t *testing.T) {
	p := &Plot{Y: Range{-1, 1}}
	p.Points("", []float64{2, 4, math.NaN()}, []float64{0, 0, 0}, Style{})
	p.Band("", []float64{1, 3}, []float64{-5, -5}, []float64{50, math.Inf(1)}, Black)
	x, y := p.ranges()
	if x != (Range{0.85, 4.15}) || y != (Range{-1, 1}) {
		t.Errorf("ranges = %v, %v; want x fitted to [1, 4] with 5%% to spare and y as set", x, y)
	}
	if r := (Range{math.Inf(1), math.Inf(-1)}).padded(); r != (Range{0, 1}) {
		t.Errorf("the range of no data pads to %v, want [0, 1]", r)
	}
	if r := (Range{3, 3}).padded(); r != (Range{2, 4}) {
		t.Errorf("the range of one value pads to %v, want [2, 4]", r)
	}
}

func TestGridWritePNG(t *testing.T) {
	a := &Plot{Title: "a"}
	a.Line("l", []float64{0, 1}, []float64{0, 1}, Style{Color: Blue, Width: 2})
	b := &Plot{Title: "b"}
	b.Points("p", []float64{0, 1}, []float64{1, 0}, Style{Color: Red, Radius: 3})
	c := &Plot{Title: "c"}
	img := Grid(2, 160, 120, a, b, c)
	if got := img.Bounds(); got != image.Rect(0, 0, 320, 240) {
		t.Fatalf("Grid of 3 panels, 2 to a row: bounds %v, want 320×240", got)
	}
	path := filepath.Join(t.TempDir(), "g.png")
	if err := WritePNG(context.Background(), atomicfile.Target{Path: path}, img); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if dec.Bounds() != img.Bounds() {
		t.Fatalf("decoded bounds %v, want %v", dec.Bounds(), img.Bounds())
	}
	for y := 0; y < 240; y += 7 {
		for x := 0; x < 320; x += 5 {
			r1, g1, b1, a1 := dec.At(x, y).RGBA()
			r2, g2, b2, a2 := img.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel (%d, %d) decodes to %v, drawn %v", x, y, dec.At(x, y), img.At(x, y))
			}
		}
	}
	if err := WritePNG(context.Background(), atomicfile.Target{Path: filepath.Join(t.TempDir(), "no", "g.png")}, img); err == nil {
		t.Error("WritePNG into a missing directory succeeded")
	}
}
