package render

import (
	"math"

	"github.com/mdxrender/mdxrender/pkg/texture"
)

// glSampler filters a texture the way the reference viewer's GL does:
// bilinear on the straight (not premultiplied) texels, linear between mip
// levels. texture.Texture.Sample weights texels by alpha instead, which is
// better for cut-outs but gives a different colour wherever alpha is 0,
// and a layer with FilterMode None ignores alpha and shows that colour (a
// TeamGlow texture on a None layer is a solid square in the game and in
// the reference viewer, not a disc).
type glSampler struct {
	t *texture.Texture
}

func (s glSampler) Width() int  { return s.t.Width() }
func (s glSampler) Height() int { return s.t.Height() }

func (s glSampler) Sample(u, v, lod float32) [4]float32 {
	levels := s.t.Levels
	n := len(levels)
	if n == 1 || lod <= 0 {
		return s.level(0, u, v)
	}
	maxL := float32(n - 1)
	if lod >= maxL {
		return s.level(n-1, u, v)
	}
	l0 := int(lod)
	f := lod - float32(l0)
	a := s.level(l0, u, v)
	if f == 0 {
		return a
	}
	b := s.level(l0+1, u, v)
	for i := range a {
		a[i] += (b[i] - a[i]) * f
	}
	return a
}

func wrapIndex(i, n int, repeat bool) int {
	if repeat {
		i %= n
		if i < 0 {
			i += n
		}
		return i
	}
	if i < 0 {
		return 0
	}
	if i >= n {
		return n - 1
	}
	return i
}

func (s glSampler) level(l int, u, v float32) [4]float32 {
	img := s.t.Levels[l]
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w == 0 || h == 0 || math.IsNaN(float64(u)) || math.IsNaN(float64(v)) {
		return [4]float32{1, 1, 1, 1}
	}
	x := float64(u)*float64(w) - 0.5
	y := float64(v)*float64(h) - 0.5
	// Keep huge coordinates in int range; repeat is periodic anyway.
	x = math.Max(-1e9, math.Min(1e9, x))
	y = math.Max(-1e9, math.Min(1e9, y))
	fx, fy := math.Floor(x), math.Floor(y)
	ax, ay := float32(x-fx), float32(y-fy)
	rx := s.t.Wrap&texture.WrapWidth != 0
	ry := s.t.Wrap&texture.WrapHeight != 0
	x0, y0 := wrapIndex(int(fx), w, rx), wrapIndex(int(fy), h, ry)
	x1, y1 := wrapIndex(int(fx)+1, w, rx), wrapIndex(int(fy)+1, h, ry)
	px := func(x, y int) [4]float32 {
		o := y*img.Stride + x*4
		p := img.Pix[o : o+4 : o+4]
		return [4]float32{float32(p[0]), float32(p[1]), float32(p[2]), float32(p[3])}
	}
	c00, c10, c01, c11 := px(x0, y0), px(x1, y0), px(x0, y1), px(x1, y1)
	var out [4]float32
	for i := range out {
		top := c00[i] + (c10[i]-c00[i])*ax
		bot := c01[i] + (c11[i]-c01[i])*ax
		out[i] = (top + (bot-top)*ay) / 255
	}
	return out
}
