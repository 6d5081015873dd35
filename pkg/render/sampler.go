package render

import (
	"image"

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
	if w == 0 || h == 0 || u != u || v != v {
		return [4]float32{1, 1, 1, 1}
	}
	x := u*float32(w) - 0.5
	y := v*float32(h) - 0.5
	// Keep huge coordinates in int range; repeat is periodic anyway.
	if x < -1e8 {
		x = -1e8
	} else if x > 1e8 {
		x = 1e8
	}
	if y < -1e8 {
		y = -1e8
	} else if y > 1e8 {
		y = 1e8
	}
	ix, iy := int(x), int(y)
	if float32(ix) > x {
		ix--
	}
	if float32(iy) > y {
		iy--
	}
	ax, ay := x-float32(ix), y-float32(iy)
	rx := s.t.Wrap&texture.WrapWidth != 0
	ry := s.t.Wrap&texture.WrapHeight != 0
	x0, y0 := wrapIndex(ix, w, rx), wrapIndex(iy, h, ry)
	x1, y1 := wrapIndex(ix+1, w, rx), wrapIndex(iy+1, h, ry)
	pix := img.Pix
	r0, r1 := y0*img.Stride, y1*img.Stride
	p00 := pix[r0+x0*4 : r0+x0*4+4 : r0+x0*4+4]
	p10 := pix[r0+x1*4 : r0+x1*4+4 : r0+x1*4+4]
	p01 := pix[r1+x0*4 : r1+x0*4+4 : r1+x0*4+4]
	p11 := pix[r1+x1*4 : r1+x1*4+4 : r1+x1*4+4]
	w00 := (1 - ax) * (1 - ay) / 255
	w10 := ax * (1 - ay) / 255
	w01 := (1 - ax) * ay / 255
	w11 := ax * ay / 255
	var out [4]float32
	for i := 0; i < 4; i++ {
		out[i] = float32(p00[i])*w00 + float32(p10[i])*w10 + float32(p01[i])*w01 + float32(p11[i])*w11
	}
	return out
}

// withGLMipmaps gives a single-level power-of-two texture decoded from an
// image format (TGA, PNG, JPEG, or a generated team colour) the mip chain
// the reference viewer asks GL to generate for such textures
// (gl.generateMipmap, a 2×2 box filter on the straight RGBA bytes). BLP and
// DDS files keep the levels they carry: the viewer uploads those as they
// are, and a BLP with a single level is sampled without mipmaps.
func withGLMipmaps(t *texture.Texture) *texture.Texture {
	if len(t.Levels) != 1 {
		return t
	}
	switch t.Format {
	case texture.FormatTGA, texture.FormatPNG, texture.FormatJPEG, texture.FormatSynthetic:
	default:
		return t
	}
	w, h := t.Width(), t.Height()
	if w <= 1 && h <= 1 || w&(w-1) != 0 || h&(h-1) != 0 {
		return t
	}
	out := *t
	out.Levels = []*image.NRGBA{t.Levels[0]}
	for prev := t.Levels[0]; w > 1 || h > 1; {
		nw, nh := max(w/2, 1), max(h/2, 1)
		next := image.NewNRGBA(image.Rect(0, 0, nw, nh))
		for y := 0; y < nh; y++ {
			y0, y1 := min(2*y, h-1), min(2*y+1, h-1)
			for x := 0; x < nw; x++ {
				x0, x1 := min(2*x, w-1), min(2*x+1, w-1)
				o := y*next.Stride + x*4
				a, b := prev.Pix[y0*prev.Stride+x0*4:], prev.Pix[y0*prev.Stride+x1*4:]
				c, d := prev.Pix[y1*prev.Stride+x0*4:], prev.Pix[y1*prev.Stride+x1*4:]
				for i := 0; i < 4; i++ {
					next.Pix[o+i] = uint8((int(a[i]) + int(b[i]) + int(c[i]) + int(d[i]) + 2) / 4)
				}
			}
		}
		out.Levels = append(out.Levels, next)
		prev, w, h = next, nw, nh
	}
	return &out
}
