package plot

import (
	"image"
	"image/color"
)

// blend paints c over the pixel at (x, y) with c's alpha, if the pixel
// lies inside clip: out = a·c + (1−a)·old. An opaque c replaces the pixel;
// a translucent one, as bands use, lets what lies below show through.
func blend(img *image.RGBA, clip image.Rectangle, x, y int, c color.NRGBA) {
	if !(image.Point{x, y}).In(clip) {
		return
	}
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+4 : i+4]
	a := uint32(c.A)
	for k, v := range [3]uint8{c.R, c.G, c.B} {
		p[k] = uint8((uint32(v)*a + uint32(p[k])*(255-a) + 127) / 255)
	}
	p[3] = uint8(a + (uint32(p[3])*(255-a)+127)/255)
}

// fillRect paints c over every pixel of r inside clip.
func fillRect(img *image.RGBA, clip image.Rectangle, r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(clip)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			blend(img, clip, x, y, c)
		}
	}
}

// pen draws polylines: connected segments of a given width, solid or
// dashed, with the dash pattern running on from one segment to the next.
type pen struct {
	img   *image.RGBA
	clip  image.Rectangle
	c     color.NRGBA
	width int // pixels; the pen is a width×width square
	dash  int // length of each dash and of each gap in pixels; 0 draws solid
	steps int // pixels visited so far, the position in the dash pattern
}

// segment draws the segment from (x0, y0) to (x1, y1) by Bresenham's
// algorithm. Every segment after the first leaves out its first pixel,
// the last of the one before, so that no pixel of a polyline is visited
// twice.
func (p *pen) segment(x0, y0, x1, y1 int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	skip := p.steps > 0
	for {
		if !skip {
			p.stamp(x0, y0)
		}
		skip = false
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

// stamp paints the pen at (x, y) if the dash pattern is on there.
func (p *pen) stamp(x, y int) {
	on := p.dash == 0 || (p.steps/p.dash)%2 == 0
	p.steps++
	if !on {
		return
	}
	lo := (p.width - 1) / 2
	fillRect(p.img, p.clip, image.Rect(x-lo, y-lo, x-lo+p.width, y-lo+p.width), p.c)
}

// disc paints a filled disc of radius r centred on (x, y).
func disc(img *image.RGBA, clip image.Rectangle, x, y, r int, c color.NRGBA) {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if dx*dx+dy*dy <= r*r+r {
				blend(img, clip, x+dx, y+dy, c)
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
