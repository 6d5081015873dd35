package anim

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"io"

	"github.com/mdxrender/mdxrender/internal/mediancut"
)

// EncodeGIF writes frames as a looping animated GIF. GIF has 256 colours
// and 1-bit transparency, so pixels with alpha < 128 become transparent and
// the rest are opaque; the palette is a median cut over all frames (one
// global palette, so colours do not flicker between frames) and frames are
// Floyd-Steinberg dithered. durations are in ms; they are rounded to GIF's
// 10 ms unit cumulatively, so the total stays right. Output is deterministic.
func EncodeGIF(w io.Writer, frames []*image.NRGBA, durations []uint32) error {
	if err := checkCounts("gif", frames, durations); err != nil {
		return err
	}
	b := frames[0].Bounds()
	opaque := make([]*image.NRGBA, len(frames))
	for i, f := range frames {
		if f.Bounds() != b {
			return fmt.Errorf("gif: frame %d is %v, frame 0 is %v", i, f.Bounds(), b)
		}
		opaque[i] = thresholdAlpha(f)
	}
	pal := mediancut.Palette(opaque, 255)
	pal = append(color.Palette{color.NRGBA{}}, pal...) // index 0: transparent
	g := &gif.GIF{LoopCount: 0, Config: image.Config{ColorModel: pal, Width: b.Dx(), Height: b.Dy()}}
	var cum, prev uint64
	for i, f := range opaque {
		p := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), pal)
		draw.FloydSteinberg.Draw(p, p.Bounds(), f, b.Min)
		cum += uint64(durations[i])
		next := (cum + 5) / 10
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, int(next-prev))
		g.Disposal = append(g.Disposal, gif.DisposalBackground)
		prev = next
	}
	return gif.EncodeAll(w, g)
}

// thresholdAlpha returns a copy with alpha forced to 0 or 255; transparent
// pixels become (0,0,0,0) so they match the palette's transparent entry
// exactly and diffuse no error.
func thresholdAlpha(src *image.NRGBA) *image.NRGBA {
	dst := image.NewNRGBA(src.Bounds())
	for y := 0; y < src.Rect.Dy(); y++ {
		s := src.Pix[y*src.Stride : y*src.Stride+4*src.Rect.Dx()]
		d := dst.Pix[y*dst.Stride : y*dst.Stride+4*dst.Rect.Dx()]
		for x := 0; x+3 < len(s); x += 4 {
			if s[x+3] >= 128 {
				d[x], d[x+1], d[x+2], d[x+3] = s[x], s[x+1], s[x+2], 255
			}
		}
	}
	return dst
}
