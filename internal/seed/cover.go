package seed

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"strconv"
)

// Covers are drawn here rather than shipped, so the demo needs no assets and
// every install gets the same pictures. No CJK font can be assumed on the
// machine (and the standard library has no font renderer), so a cover does
// not try to show its Chinese title: it is a gradient in a colour derived
// from the video id, diagonal stripes, a play button, and "No.<id>" in a
// small built-in pixel font. The title is beside the cover in every list.

// font5x7 holds the glyphs the covers and banners use, 5 columns by 7 rows,
// '#' for an inked cell.
var font5x7 = map[rune][7]string{
	'0': {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3': {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6': {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
	'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9': {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
	'A': {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'B': {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
	'C': {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
	'D': {"###..", "#..#.", "#...#", "#...#", "#...#", "#..#.", "###.."},
	'E': {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
	'F': {"#####", "#....", "#....", "####.", "#....", "#....", "#...."},
	'G': {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"},
	'H': {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'I': {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'J': {"..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."},
	'K': {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"},
	'L': {"#....", "#....", "#....", "#....", "#....", "#....", "#####"},
	'M': {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
	'N': {"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"},
	'O': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'P': {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."},
	'Q': {".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"},
	'R': {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
	'S': {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
	'T': {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
	'U': {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'V': {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."},
	'W': {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."},
	'X': {"#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"},
	'Y': {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."},
	'Z': {"#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"},
	'o': {".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."},
	'.': {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."},
	':': {".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."},
	'-': {".....", ".....", ".....", ".###.", ".....", ".....", "....."},
	'%': {"##..#", "##..#", "...#.", "..#..", ".#...", "#..##", "#..##"},
	' ': {".....", ".....", ".....", ".....", ".....", ".....", "....."},
}

// textWidth is the width in pixels of s drawn at scale (one blank column
// between glyphs).
func textWidth(s string, scale int) int {
	n := len([]rune(s))
	if n == 0 {
		return 0
	}
	return (n*6 - 1) * scale
}

// canvas is an RGBA image with the few drawing operations covers need.
type canvas struct {
	img  *image.RGBA
	w, h int
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), w: w, h: h}
}

// blend mixes c over the pixel at (x, y) with opacity a in [0, 1].
func (c *canvas) blend(x, y int, col color.RGBA, a float64) {
	if x < 0 || y < 0 || x >= c.w || y >= c.h || a <= 0 {
		return
	}
	if a > 1 {
		a = 1
	}
	i := c.img.PixOffset(x, y)
	p := c.img.Pix[i : i+4 : i+4]
	p[0] = uint8(float64(p[0])*(1-a) + float64(col.R)*a + 0.5)
	p[1] = uint8(float64(p[1])*(1-a) + float64(col.G)*a + 0.5)
	p[2] = uint8(float64(p[2])*(1-a) + float64(col.B)*a + 0.5)
	p[3] = 255
}

// background fills a diagonal gradient from top-left colour a to
// bottom-right colour b, with faint diagonal stripes. The gradient depends
// only on x+y and the stripes only on x-y, so both are tabulated once and a
// pixel costs a few integer operations.
func (c *canvas) background(a, b color.RGBA) {
	span := c.w + c.h
	grad := make([][3]int32, span)
	for i := range grad {
		t := float64(i) / float64(span)
		grad[i] = [3]int32{lerp(a.R, b.R, t), lerp(a.G, b.G, t), lerp(a.B, b.B, t)}
	}
	// light[x-y+h] is how much to lighten towards white, in 1/256ths: a soft
	// band over the first 35% of each stripe period.
	period := float64(max(c.w, c.h)) / 12
	light := make([]int32, span)
	for i := range light {
		s := math.Mod(float64(i), period) / period
		if s < 0.35 {
			light[i] = int32(256 * 0.07 * math.Sin(s/0.35*math.Pi))
		}
	}
	for y := 0; y < c.h; y++ {
		row := c.img.Pix[y*c.img.Stride : y*c.img.Stride+4*c.w]
		for x := 0; x < c.w; x++ {
			g, l := grad[x+y], light[x-y+c.h]
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0] = uint8(g[0] + (255-g[0])*l/256)
			p[1] = uint8(g[1] + (255-g[1])*l/256)
			p[2] = uint8(g[2] + (255-g[2])*l/256)
			p[3] = 255
		}
	}
}

func lerp(a, b uint8, t float64) int32 {
	return int32(float64(a)*(1-t) + float64(b)*t + 0.5)
}

// disc draws a filled circle with an anti-aliased edge.
func (c *canvas) disc(cx, cy, r float64, col color.RGBA, alpha float64) {
	for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
		for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			c.blend(x, y, col, alpha*clamp01(r-d+0.5))
		}
	}
}

// triangle draws a filled triangle (vertices in clockwise order) with
// anti-aliased edges: each pixel's coverage is its distance inside the
// nearest edge.
func (c *canvas) triangle(p [3][2]float64, col color.RGBA, alpha float64) {
	minX, maxX := math.Min(p[0][0], math.Min(p[1][0], p[2][0])), math.Max(p[0][0], math.Max(p[1][0], p[2][0]))
	minY, maxY := math.Min(p[0][1], math.Min(p[1][1], p[2][1])), math.Max(p[0][1], math.Max(p[1][1], p[2][1]))
	for y := int(minY) - 1; y <= int(maxY)+1; y++ {
		for x := int(minX) - 1; x <= int(maxX)+1; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			inside := math.Inf(1)
			for i := range 3 {
				ax, ay := p[i][0], p[i][1]
				bx, by := p[(i+1)%3][0], p[(i+1)%3][1]
				ex, ey := bx-ax, by-ay
				// Signed distance to the edge line, positive inside for a
				// clockwise triangle in image coordinates.
				d := (ex*(py-ay) - ey*(px-ax)) / math.Hypot(ex, ey)
				inside = math.Min(inside, d)
			}
			c.blend(x, y, col, alpha*clamp01(inside+0.5))
		}
	}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// rect fills a rectangle.
func (c *canvas) rect(x0, y0, x1, y1 int, col color.RGBA, alpha float64) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c.blend(x, y, col, alpha)
		}
	}
}

// text draws s in the pixel font with its top-left corner at (x, y), each
// font cell a scale-by-scale square, over a soft shadow.
func (c *canvas) text(s string, x, y, scale int, col color.RGBA) {
	shadow := max(1, scale/3)
	for pass := range 2 {
		cx := x
		for _, r := range s {
			g, ok := font5x7[r]
			if !ok {
				g = font5x7[' ']
			}
			for row, line := range g {
				for colN, ch := range line {
					if ch != '#' {
						continue
					}
					px, py := cx+colN*scale, y+row*scale
					if pass == 0 {
						c.rect(px+shadow, py+shadow, px+shadow+scale, py+shadow+scale, color.RGBA{0, 0, 0, 255}, 0.35)
					} else {
						c.rect(px, py, px+scale, py+scale, col, 1)
					}
				}
			}
			cx += 6 * scale
		}
	}
}

// hsv converts hue (turns, any real), saturation and value in [0, 1] to RGB.
func hsv(h, s, v float64) color.RGBA {
	h = math.Mod(h, 1)
	if h < 0 {
		h++
	}
	i := int(h * 6)
	f := h*6 - float64(i)
	p, q, t := v*(1-s), v*(1-f*s), v*(1-(1-f)*s)
	var r, g, b float64
	switch i % 6 {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return color.RGBA{uint8(r*255 + 0.5), uint8(g*255 + 0.5), uint8(b*255 + 0.5), 255}
}

// golden spreads consecutive ids around the colour wheel.
const golden = 0.6180339887498949

// artwork describes one generated picture.
type artwork struct {
	W, H  int
	Hue   float64 // in turns
	Label string  // in the pixel font (uppercase, digits, "No."): top-right on a cover, centred on a banner
	Play  bool    // a play button in the middle: a cover rather than a banner
	Scene bool    // a sun and hills under the label: a gallery picture
}

// coverArt is the cover of video id at w by h.
func coverArt(id int64, w, h int) artwork {
	return artwork{W: w, H: h, Hue: float64(id) * golden, Label: "No." + strconv.FormatInt(id, 10), Play: true}
}

// render draws a.
func (a artwork) render() *image.RGBA {
	c := newCanvas(a.W, a.H)
	c.background(hsv(a.Hue, 0.55, 0.88), hsv(a.Hue+0.09, 0.75, 0.32))
	short := float64(min(a.W, a.H))
	if a.Play {
		cx, cy := float64(a.W)/2, float64(a.H)/2
		r := short * 0.17
		c.disc(cx, cy, r, color.RGBA{0, 0, 0, 255}, 0.30)
		// The triangle's centroid sits a little right of the circle's centre,
		// which is what makes a play symbol look centred.
		s := r * 0.95
		c.triangle([3][2]float64{{cx - s*0.38, cy - s*0.55}, {cx + s*0.62, cy}, {cx - s*0.38, cy + s*0.55}}, color.RGBA{255, 255, 255, 255}, 0.92)
	}
	if a.Scene {
		w, h := float64(a.W), float64(a.H)
		c.disc(w*0.72, h*0.28, short*0.12, hsv(a.Hue+0.5, 0.35, 1), 0.85)
		c.triangle([3][2]float64{{-w * 0.1, h}, {w * 0.35, h * 0.55}, {w * 0.8, h}}, hsv(a.Hue+0.2, 0.6, 0.25), 0.8)
		c.triangle([3][2]float64{{w * 0.3, h}, {w * 0.75, h * 0.62}, {w * 1.2, h}}, hsv(a.Hue+0.25, 0.5, 0.18), 0.85)
	}
	if a.Label != "" && !a.Play {
		// A banner: the label is the picture, centred and large.
		scale := max(2, min(int(float64(a.W)*0.6)/textWidth(a.Label, 1), int(float64(a.H)*0.35)/7))
		x := (a.W - textWidth(a.Label, scale)) / 2
		c.text(a.Label, x, (a.H-7*scale)/2, scale, color.RGBA{255, 255, 255, 255})
	} else if a.Label != "" {
		// The label takes up to 40% of the width on landscape art (more on
		// portrait), in whole font cells.
		maxW := float64(a.W) * 0.4
		if a.H > a.W {
			maxW = float64(a.W) * 0.6
		}
		scale := max(2, int(maxW/float64(textWidth(a.Label, 1))))
		scale = min(scale, int(short/30)+1)
		margin := int(short * 0.07)
		// Top right: the app lays its price badge over the top-left corner
		// and play count and duration along the bottom.
		c.text(a.Label, a.W-margin-textWidth(a.Label, scale), margin, scale, color.RGBA{255, 255, 255, 255})
	}
	return c.img
}

// jpegBytes encodes a at quality 80: a 480x270 cover comes to a few KB.
func (a artwork) jpegBytes() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(a.W * a.H / 8)
	if err := jpeg.Encode(&buf, a.render(), &jpeg.Options{Quality: 80}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
