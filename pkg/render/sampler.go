package render

import (
	"image"
	"sync"

	"github.com/mdxrender/mdxrender/internal/beside"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// texSampler is a texture a frame has found and checked but not decoded:
// when Draw has set up the triangles of a batch that uses it, ForLOD
// decodes the levels the batch can sample (texture.Lazy) and the batch is
// drawn with the glSampler of those levels. A thumbnail thus decodes the
// small levels of a large texture only, and a texture whose geometry is
// all off-screen or culled is not decoded at all. The pixels are those of
// a glSampler of the whole chain: Draw's bound is never above the λ of a
// fragment, and glSampler reads level ⌊λ⌋ and coarser only.
//
// A texSampler belongs to one frame (its warnings go there); ForLOD runs
// on the goroutine that called Draw.
type texSampler struct {
	l    *texture.Lazy
	wrap texture.Wrap
	r    *frame
	path string // for warnings
	// at caches ForLOD's samplers by finest level; warned marks a decoding
	// problem already reported this frame.
	at     map[int]glSampler
	warned bool
	// missing marks the white stand-in of a texture that was not
	// found (or not opened): View.MissingTextures says how it is drawn.
	missing bool
	// all is the whole chain, for Sample calls made without ForLOD.
	once sync.Once
	all  glSampler
}

func newTexSampler(r *frame, l *texture.Lazy, wrap texture.Wrap, path string) *texSampler {
	return &texSampler{l: l, wrap: wrap & (texture.WrapWidth | texture.WrapHeight), r: r, path: path}
}

// standInSampler is a texSampler of a texture decoded already (a stand-in).
func standInSampler(r *frame, t *texture.Texture) *texSampler {
	return newTexSampler(r, texture.LazyOf(t), 0, "")
}

func (s *texSampler) Width() int  { return s.l.Width() }
func (s *texSampler) Height() int { return s.l.Height() }

// Sample samples the whole chain; Draw samples through ForLOD instead.
func (s *texSampler) Sample(u, v, lod float32) [4]float32 {
	s.once.Do(func() { s.all = s.levels(0, false) })
	return s.all.Sample(u, v, lod)
}

// ForLOD implements raster.LazySampler: Draw samples the levels the
// bound reaches through a raster.Texture.
func (s *texSampler) ForLOD(b raster.LODBound) raster.Sampler {
	return s.from(b.Level(s.Width(), s.Height())).rt
}

// Settled implements raster.SettledSampler: once every level is decoded
// (a warm render of an opened model, a stand-in), Draw need not bound the
// levels a batch samples.
func (s *texSampler) Settled() bool { return s.l.Settled() }

// from returns the glSampler of levels finest and coarser.
func (s *texSampler) from(finest int) glSampler {
	if s.l.Decoded() != nil {
		finest = 0
	}
	if g, ok := s.at[finest]; ok {
		return g
	}
	g := s.levels(finest, true)
	if s.at == nil {
		s.at = map[int]glSampler{}
	}
	s.at[finest] = g
	return g
}

// levels decodes levels finest and coarser; warn reports problems to the
// frame (once).
func (s *texSampler) levels(finest int, warn bool) glSampler {
	if t := s.l.Decoded(); t != nil {
		return newGLSampler(withGLMipmaps(t.WithWrap(s.wrap)))
	}
	type decoded struct {
		t   *texture.Texture
		err error
	}
	got := beside.Run(s.r.ctx, func() decoded {
		t, err := s.l.Texture(finest, s.r.anim.meter())
		return decoded{t, err}
	})
	if got == nil { // the frame is abandoned; Draw stops before shading
		return newGLSampler(texture.WhiteTexture())
	}
	t, err := got.t, got.err
	var w *texture.Warning
	switch {
	case err != nil:
		w = &texture.Warning{Kind: texture.Damaged, Path: s.path, Reason: "cannot decode: " + err.Error()}
		t = texture.WhiteTexture()
	case t.LevelErr != nil && t.LevelErr != s.l.LevelErr():
		w = &texture.Warning{Kind: texture.Damaged, Path: s.path, Reason: "mip chain cut short: " + t.LevelErr.Error()}
	}
	if w != nil && warn {
		s.warnOnce(*w)
	}
	return newGLSampler(t.WithWrap(s.wrap))
}

// warnOnce reports w to the frame unless a problem with the texture was
// reported already.
func (s *texSampler) warnOnce(w texture.Warning) {
	if !s.warned {
		s.warned = true
		s.r.textureWarnings([]texture.Warning{w})
	}
}

// glSampler filters a texture the way the reference viewer's GL does:
// bilinear on the straight (not premultiplied) texels, linear between mip
// levels (raster.Texture). texture.Texture.Sample weights texels by alpha
// instead, which is better for cut-outs but gives a different colour
// wherever alpha is 0, and a layer with FilterMode None ignores alpha and
// shows that colour (a TeamGlow texture on a None layer is a solid square
// in the game and in the reference viewer, not a disc). rt is t as the
// rasteriser reads it (sharing its pixels), which is what Draw samples.
type glSampler struct {
	t  *texture.Texture
	rt *raster.Texture
}

func newGLSampler(t *texture.Texture) glSampler {
	rt := &raster.Texture{W: t.Width(), H: t.Height(), Levels: make([]raster.Level, len(t.Levels)),
		RepeatU: t.Wrap&texture.WrapWidth != 0, RepeatV: t.Wrap&texture.WrapHeight != 0}
	for i, l := range t.Levels {
		if l != nil {
			rt.Levels[i] = raster.Level{Width: l.Rect.Dx(), Height: l.Rect.Dy(), Stride: l.Stride, Pix: l.Pix}
		}
	}
	return glSampler{t, rt}
}

func (s glSampler) Width() int                          { return s.t.Width() }
func (s glSampler) Height() int                         { return s.t.Height() }
func (s glSampler) Sample(u, v, lod float32) [4]float32 { return s.rt.Sample(u, v, lod) }

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

// hdFootprint is where glSampler.Sample reads one texture at (u, v, lod):
// one or two mip levels, each four texel offsets and bilinear weights. The
// HD shader works it out once per fragment and fetches every slot texture
// laid out like the one it was set for (sameLayout) through it, with
// exactly Sample's arithmetic, so the result is what Sample returns.
type hdFootprint struct {
	n     int    // levels read: 1, or 2 blended by frac
	level [2]int // their indices
	frac  float32
	tap   [2]hdTap
	white bool // a level with no texels or a NaN coordinate: opaque white
}

// hdTap is one level's bilinear read: four offsets into Pix and weights
// already divided by 255.
type hdTap struct {
	off [4]int
	w   [4]float32
}

// set computes the footprint of texture t at (u, v, lod), choosing levels
// as glSampler.Sample does.
func (fp *hdFootprint) set(t *texture.Texture, u, v, lod float32) {
	*fp = hdFootprint{n: 1}
	n := len(t.Levels)
	switch {
	case n == 1 || lod <= 0:
	case lod >= float32(n-1):
		fp.level[0] = n - 1
	default:
		l0 := int(lod)
		fp.level[0] = l0
		if f := lod - float32(l0); f != 0 {
			fp.n, fp.level[1], fp.frac = 2, l0+1, f
		}
	}
	for i := 0; i < fp.n; i++ {
		if !fp.tap[i].set(t, fp.level[i], u, v) {
			fp.white = true
		}
	}
}

// set mirrors glSampler.level's addressing; false means Sample would
// return white.
func (tp *hdTap) set(t *texture.Texture, l int, u, v float32) bool {
	img := t.Levels[l]
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w == 0 || h == 0 || u != u || v != v {
		return false
	}
	x := min(max(u*float32(w)-0.5, -1e8), 1e8)
	y := min(max(v*float32(h)-0.5, -1e8), 1e8)
	ix, iy := int(x), int(y)
	if float32(ix) > x {
		ix--
	}
	if float32(iy) > y {
		iy--
	}
	ax, ay := x-float32(ix), y-float32(iy)
	rx := t.Wrap&texture.WrapWidth != 0
	ry := t.Wrap&texture.WrapHeight != 0
	x0, y0 := wrapIndex(ix, w, rx), wrapIndex(iy, h, ry)
	x1, y1 := wrapIndex(ix+1, w, rx), wrapIndex(iy+1, h, ry)
	r0, r1 := y0*img.Stride, y1*img.Stride
	tp.off = [4]int{r0 + x0*4, r0 + x1*4, r1 + x0*4, r1 + x1*4}
	tp.w = [4]float32{(1 - ax) * (1 - ay) / 255, ax * (1 - ay) / 255, (1 - ax) * ay / 255, ax * ay / 255}
	return true
}

// fetch reads texture t, laid out like the texture the footprint was set
// for.
func (fp *hdFootprint) fetch(t *texture.Texture) [4]float32 {
	if fp.white {
		return [4]float32{1, 1, 1, 1}
	}
	a := fp.tap[0].read(t.Levels[fp.level[0]].Pix)
	if fp.n == 1 {
		return a
	}
	b := fp.tap[1].read(t.Levels[fp.level[1]].Pix)
	for i := range a {
		a[i] += (b[i] - a[i]) * fp.frac
	}
	return a
}

func (tp *hdTap) read(pix []uint8) [4]float32 {
	p00 := (*[4]uint8)(pix[tp.off[0]:])
	p10 := (*[4]uint8)(pix[tp.off[1]:])
	p01 := (*[4]uint8)(pix[tp.off[2]:])
	p11 := (*[4]uint8)(pix[tp.off[3]:])
	w := &tp.w
	var out [4]float32
	for i := 0; i < 4; i++ {
		out[i] = float32(p00[i])*w[0] + float32(p10[i])*w[1] + float32(p01[i])*w[2] + float32(p11[i])*w[3]
	}
	return out
}

// fetchDNO reads the three textures most HD fragments need, all laid out
// like the footprint's texture, in one pass and only the channels the
// shader uses: the diffuse map's RGBA, the normal map's red and green,
// the ORM map's red (occlusion) and alpha (team mask). Each channel is
// computed exactly as fetch computes it.
func (fp *hdFootprint) fetchDNO(d, n, o *texture.Texture) (dc [4]float32, nc, oc [2]float32) {
	if fp.white {
		return [4]float32{1, 1, 1, 1}, [2]float32{1, 1}, [2]float32{1, 1}
	}
	l := fp.level[0]
	dc, nc, oc = fp.tap[0].readDNO(d.Levels[l].Pix, n.Levels[l].Pix, o.Levels[l].Pix)
	if fp.n == 1 {
		return dc, nc, oc
	}
	l = fp.level[1]
	d1, n1, o1 := fp.tap[1].readDNO(d.Levels[l].Pix, n.Levels[l].Pix, o.Levels[l].Pix)
	f := fp.frac
	for i := range dc {
		dc[i] += (d1[i] - dc[i]) * f
	}
	for i := range nc {
		nc[i] += (n1[i] - nc[i]) * f
		oc[i] += (o1[i] - oc[i]) * f
	}
	return dc, nc, oc
}

func (tp *hdTap) readDNO(d, n, o []uint8) (dc [4]float32, nc, oc [2]float32) {
	w0, w1, w2, w3 := tp.w[0], tp.w[1], tp.w[2], tp.w[3]
	o0, o1, o2, o3 := tp.off[0], tp.off[1], tp.off[2], tp.off[3]
	px := func(p []uint8, c int) float32 {
		return float32(p[o0+c])*w0 + float32(p[o1+c])*w1 + float32(p[o2+c])*w2 + float32(p[o3+c])*w3
	}
	dc = [4]float32{px(d, 0), px(d, 1), px(d, 2), px(d, 3)}
	nc = [2]float32{px(n, 0), px(n, 1)}
	oc = [2]float32{px(o, 0), px(o, 3)}
	return dc, nc, oc
}
