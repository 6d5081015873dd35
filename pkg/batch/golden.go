package batch

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// maxGoldenBytes bounds a golden file's size: a PNG of the largest picture
// the default limits draw, uncompressed, is 64 MiB.
const maxGoldenBytes = 96 << 20

// decodeGolden decodes the golden PNG name (a slash path) below the
// folder dir, read through an os.Root opened on dir, if it is size pixels
// large: golden folders come with the repository a pull request changes,
// so a golden that would decode to a picture of another size is reported
// as a mismatch from its header alone, never decoded, and no link leads
// the read outside dir.
func decodeGolden(dir, name string, size image.Point) (image.Image, image.Point, error) {
	label := filepath.Join(dir, filepath.FromSlash(name))
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, image.Point{}, err
	}
	defer r.Close()
	f, err := r.Open(name)
	if err != nil {
		return nil, image.Point{}, &fs.PathError{Op: "open", Path: label, Err: errors.Unwrap(err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, image.Point{}, fmt.Errorf("%s: not a regular file", label)
	}
	if st.Size() > maxGoldenBytes {
		return nil, image.Point{}, fmt.Errorf("%s: %d bytes, more than a golden picture can be (%d)", label, st.Size(), maxGoldenBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxGoldenBytes))
	if err != nil {
		return nil, image.Point{}, fmt.Errorf("%s: %w", label, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, image.Point{}, fmt.Errorf("%s: %w", label, err)
	}
	if got := image.Pt(cfg.Width, cfg.Height); got != size {
		return nil, got, nil
	}
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, size, fmt.Errorf("%s: %w", label, err)
	}
	return m, size, nil
}
