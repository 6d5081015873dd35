package icon

import (
	"image"
	"image/color"
)

// The frames, measured from the icons of the game and of maps
// (docs/icons.md#frames): at 64×64 a command button's bevel is four
// pixels, a dark outer line, two of grey metal lit from the top left and
// shaded on the bottom right, and a dark inner line, after which the
// picture itself darkens over three more pixels as if the frame stood
// above it. Disabled and passive icons have no bevel: four black pixels,
// then the same fade into the picture. Reforged's 256×256 icons keep the
// same bands at twice the width (eight pixels of frame), not four times.

// band is one ring of a frame, from the outside in: painted (light on the
// top and left sides, dark on the bottom and right) or, when shade is
// set, a darkening of the picture to shade per mille.
type band struct {
	width       int // in frame units
	light, dark color.NRGBA
	shade       int
}

func paint(w int, light, dark color.NRGBA) band { return band{width: w, light: light, dark: dark} }
func rgb(r, g, b uint8) color.NRGBA             { return color.NRGBA{r, g, b, 255} }

var (
	black      = rgb(0, 0, 0)
	innerShade = []band{{width: 1, shade: 500}, {width: 1, shade: 720}, {width: 1, shade: 900}}
	rimShade   = []band{{width: 1, shade: 250}, {width: 1, shade: 500}, {width: 1, shade: 750}}
)

// frames holds each kind's bands.
var frames = [...][]band{
	BTN: append([]band{
		paint(1, rgb(48, 44, 34), rgb(12, 10, 4)),
		paint(1, rgb(212, 210, 214), rgb(118, 116, 120)),
		paint(1, rgb(192, 192, 198), rgb(100, 100, 104)),
		paint(1, rgb(62, 62, 54), rgb(36, 34, 26)),
	}, innerShade...),
	DISBTN: {paint(4, black, black), {width: 1, shade: 350}, {width: 1, shade: 700}},
	PAS:    append([]band{paint(4, black, black)}, rimShade...),
	DISPAS: append([]band{paint(4, black, black)}, rimShade...),
	ATC: append([]band{
		paint(1, rgb(56, 40, 12), rgb(16, 12, 4)),
		paint(1, rgb(250, 216, 112), rgb(170, 122, 38)),
		paint(1, rgb(226, 180, 72), rgb(138, 96, 24)),
		paint(1, rgb(80, 58, 16), rgb(40, 28, 8)),
	}, innerShade...),
}

// frameUnit is the width of one frame unit in pixels at an icon size:
// one pixel up to 128, then one per 128 (two at 256).
func frameUnit(size int) int { return max(1, size/128) }

// Inner is the part of a size×size icon of kind k that the frame's
// painted rings leave: where the model should be.
func Inner(k Kind, size int) image.Rectangle {
	n := 0
	if int(k) < len(frames) {
		for _, b := range frames[k] {
			if b.shade == 0 {
				n += b.width
			}
		}
	}
	n *= frameUnit(size)
	return image.Rect(n, n, size-n, size-n)
}

// drawFrame draws kind k's frame over img, a square icon. Each pixel
// belongs to the ring of its distance to the nearest edge; the nearest
// edge says whether the light or the dark side paints it, and where a
// top or left edge is exactly as near as a bottom or right one (the
// top-right and bottom-left diagonals) the two sides are averaged, which
// mitres the corners.
func drawFrame(img *image.NRGBA, k Kind) {
	size := img.Rect.Dx()
	u := frameUnit(size)
	bands := frames[k]
	var bounds []int // outer edge of each band, in pixels
	at := 0
	for _, b := range bands {
		bounds = append(bounds, at)
		at += b.width * u
	}
	for y := range size {
		for x := range size {
			lightD := min(x, y)
			darkD := min(size-1-x, size-1-y)
			d := min(lightD, darkD)
			if d >= at {
				continue
			}
			bi := len(bounds) - 1
			for bi > 0 && bounds[bi] > d {
				bi--
			}
			b := bands[bi]
			p := img.Pix[y*img.Stride+4*x : y*img.Stride+4*x+3]
			if b.shade > 0 {
				for c := range p {
					p[c] = uint8((int(p[c])*b.shade + 500) / 1000)
				}
				continue
			}
			c := [3]int{int(b.light.R), int(b.light.G), int(b.light.B)}
			switch {
			case darkD < lightD:
				c = [3]int{int(b.dark.R), int(b.dark.G), int(b.dark.B)}
			case darkD == lightD:
				c = [3]int{(c[0] + int(b.dark.R) + 1) / 2, (c[1] + int(b.dark.G) + 1) / 2, (c[2] + int(b.dark.B) + 1) / 2}
			}
			p[0], p[1], p[2] = uint8(c[0]), uint8(c[1]), uint8(c[2])
		}
	}
}
