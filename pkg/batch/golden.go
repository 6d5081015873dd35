package batch

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
)

// Check statuses.
const (
	CheckPass    = "pass"
	CheckFail    = "fail"
	CheckMissing = "missing" // no golden stored: a failure until --update
	CheckUpdated = "updated"
)

// CheckResult is one output compared with its golden.
type CheckResult struct {
	Output string `json:"output"` // relative to the output folder
	Golden string `json:"golden"`
	Status string `json:"status"`
	// Mismatched pixels of Total; MaxDiff is the largest channel difference.
	Mismatched int     `json:"mismatched"`
	Total      int     `json:"total"`
	Share      float64 `json:"share"`
	MaxDiff    int     `json:"maxDiff"`
	// Diff is the diff image (relative to the output folder), for failures.
	Diff    string `json:"diff,omitempty"`
	Message string `json:"message,omitempty"`
}

// Failed reports a regression or a missing golden.
func (c *CheckResult) Failed() bool { return c.Status == CheckFail || c.Status == CheckMissing }

// Comparison is the outcome of comparing two images.
type Comparison struct {
	Mismatched, Total, MaxDiff int
	// SizeMismatch is set when the images differ in size; then every pixel
	// counts as mismatched.
	SizeMismatch bool
}

// Share is the fraction of mismatched pixels.
func (c Comparison) Share() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Mismatched) / float64(c.Total)
}

// Compare compares decoded pixels of got and want. Colours are compared
// premultiplied by alpha, so the hidden colour of a fully transparent pixel
// does not count. A pixel mismatches when any channel differs by more than
// tol. The diff image shows want in faded grey and mismatches in red
// (brighter for larger differences).
func Compare(got, want image.Image, tol int) (Comparison, *image.NRGBA) {
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Size() != wb.Size() {
		r := image.Rect(0, 0, max(gb.Dx(), wb.Dx()), max(gb.Dy(), wb.Dy()))
		diff := image.NewNRGBA(r)
		draw.Draw(diff, r, &image.Uniform{color.NRGBA{255, 0, 0, 255}}, image.Point{}, draw.Src)
		n := r.Dx() * r.Dy()
		return Comparison{Mismatched: n, Total: n, MaxDiff: 255, SizeMismatch: true}, diff
	}
	g, w := toNRGBA(got), toNRGBA(want)
	diff := image.NewNRGBA(image.Rect(0, 0, gb.Dx(), gb.Dy()))
	var c Comparison
	c.Total = gb.Dx() * gb.Dy()
	for y := 0; y < gb.Dy(); y++ {
		for x := 0; x < gb.Dx(); x++ {
			gi, wi := g.PixOffset(x, y), w.PixOffset(x, y)
			gp, wp := g.Pix[gi:gi+4:gi+4], w.Pix[wi:wi+4:wi+4]
			d := 0
			for k := 0; k < 4; k++ {
				a, b := int(gp[k]), int(wp[k])
				if k < 3 {
					a = (a*int(gp[3]) + 127) / 255
					b = (b*int(wp[3]) + 127) / 255
				}
				if a < b {
					a, b = b, a
				}
				d = max(d, a-b)
			}
			c.MaxDiff = max(c.MaxDiff, d)
			di := diff.PixOffset(x, y)
			if d > tol {
				c.Mismatched++
				diff.Pix[di], diff.Pix[di+1], diff.Pix[di+2], diff.Pix[di+3] = uint8(128+d/2), 0, 0, 255
			} else {
				// faded grey of the golden over white
				l := (299*int(wp[0]) + 587*int(wp[1]) + 114*int(wp[2])) / 1000
				l = 255 - (255-l)*int(wp[3])/255/4
				diff.Pix[di], diff.Pix[di+1], diff.Pix[di+2], diff.Pix[di+3] = uint8(l), uint8(l), uint8(l), 255
			}
		}
	}
	return c, diff
}

func toNRGBA(m image.Image) *image.NRGBA {
	if n, ok := m.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := m.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, m, b.Min, draw.Src)
	return n
}

// DecodePNGFile decodes a PNG file with image/png (never image.Decode, so
// other registered formats cannot claim it).
func DecodePNGFile(name string) (image.Image, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return decodePNG(name, b)
}

// decodePNG decodes the PNG file name holds b.
func decodePNG(name string, b []byte) (image.Image, error) {
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}
