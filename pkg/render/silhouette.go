package render

import (
	"image"
	"math"

	"github.com/mdxrender/mdxrender/internal/beside"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// What the automatic camera frames is what shows, not every vertex: a
// unit's ground glow or shadow is a large quad whose texture is clear but
// for a spot in its middle, and framing its corners would leave the unit
// small. So a textured triangle counts only with the part of it whose
// texels show (docs/rendering.md#silhouette): its texture's visible
// rectangle of coordinates, clipped against the triangle in texture space
// and mapped back onto it.

// framingAlpha is the least opacity (alpha, or brightness times alpha for
// additive layers) of a texel that counts as shown for framing: fainter
// texels are the fringes of glows.
const framingAlpha = 1.0 / 16

// framingParticleAlpha is the least vertex alpha of a particle quad that
// counts for framing: that of a texel that shows (framingAlpha), so that
// nothing that shows is left out of the picture, fading particles, which
// are farthest out, included.
const framingParticleAlpha = framingAlpha

// visClass is how a texel shows under a blend mode.
type visClass uint8

const (
	visAll      visClass = iota // every texel (opaque and modulating modes)
	visAlpha                    // alpha ≥ framingAlpha (blending)
	visKey                      // alpha ≥ 0.75 (alpha-tested)
	visAdditive                 // alpha × brightest channel ≥ framingAlpha
)

// layerClass is the visClass of a geoset layer's filter mode.
func layerClass(mode mdx.FilterMode) visClass {
	switch normalizeFilter(mode) {
	case mdx.FilterTransparent:
		return visKey
	case mdx.FilterBlend:
		return visAlpha
	case mdx.FilterAdditive, mdx.FilterAddAlpha:
		return visAdditive
	}
	return visAll
}

// emitterClass is the visClass of a particle emitter's filter mode.
func emitterClass(mode uint32) visClass {
	switch mode {
	case emitterAdditive:
		return visAdditive
	case emitterAlphaKey:
		return visKey
	case emitterModulate, emitterModulate2x:
		return visAll
	}
	return visAlpha
}

// uvRect is a rectangle of texture coordinates; empty when no texel
// shows.
type uvRect struct {
	u0, v0, u1, v1 float32
	empty          bool
}

var fullUV = uvRect{0, 0, 1, 1, false}

type uvKey struct {
	tex   *texture.Lazy // shared by the texture's wrap variants
	c     visClass
	alpha uint8 // the alpha the texture is drawn with, in 64ths
}

// visibleUV returns the rectangle of texture coordinates holding the
// texels of s that show under class c when drawn with opacity alpha
// (layer and geoset alpha, or a particle's), computed once per texture
// and opacity (in 64ths, rounded up). It is exact in level-0 texels, so
// the framing does not depend on the picture's size; the texture finds
// it from level 0 alone and remembers it (texture.Lazy.Extent).
func (a *Animator) visibleUV(s raster.Sampler, c visClass, alpha float32) uvRect {
	ts, ok := s.(*texSampler)
	if !ok || c == visAll {
		return fullUV
	}
	q := uint8(min(64, max(1, math.Ceil(float64(alpha)*64))))
	k := uvKey{ts.l, c, q}
	if r, ok := a.uvRects[k]; ok {
		return r
	}
	// A texel shows when its own opacity times the drawing's reaches
	// framingAlpha. Its weight (alpha, or alpha times its brightest
	// channel) is a whole number, so it reaches the float threshold
	// exactly when it reaches the threshold's ceiling.
	need := min(1, framingAlpha*64/float32(q))
	if c == visKey {
		need = 0.75
	}
	cov, limit := texture.ByAlpha, 255*need
	if c == visAdditive {
		cov, limit = texture.ByGlow, 255*255*need
	}
	least := int(math.Ceil(float64(limit)))
	type answer struct {
		r   image.Rectangle
		err error
	}
	got := beside.Run(ts.r.ctx, func() answer {
		r, err := ts.l.Extent(cov, least)
		return answer{r, err}
	})
	if got == nil {
		return fullUV // a stand-in for an abandoned decode: not remembered
	}
	r := fullUV
	switch e := got.r; {
	case got.err != nil:
		// The texture draws white, which shows everywhere.
		ts.warnOnce(texture.Warning{Kind: texture.Damaged, Path: ts.path, Reason: "cannot decode: " + got.err.Error()})
	case e.Empty():
		r = uvRect{empty: true}
	default:
		w, h := float32(ts.l.Width()), float32(ts.l.Height())
		r = uvRect{float32(e.Min.X) / w, float32(e.Min.Y) / h, float32(e.Max.X) / w, float32(e.Max.Y) / h, false}
	}
	if a.uvRects == nil {
		a.uvRects = map[uvKey]uvRect{}
	}
	a.uvRects[k] = r
	return r
}

// addShown calls add with the corners of the part of triangle p (texture
// coordinates uv) whose texture coordinates lie in r. Coordinates outside
// 0..1 (a repeating texture) count the whole triangle.
func addShown(p [3][3]float32, uv [3][2]float32, r uvRect, add func([3]float32)) {
	if r.empty {
		return
	}
	inside, outside01 := true, false
	for _, t := range uv {
		if t[0] < r.u0 || t[0] > r.u1 || t[1] < r.v0 || t[1] > r.v1 {
			inside = false
		}
		if t[0] < 0 || t[0] > 1 || t[1] < 0 || t[1] > 1 {
			outside01 = true
		}
	}
	if inside || outside01 {
		add(p[0])
		add(p[1])
		add(p[2])
		return
	}
	// Barycentric coordinates from texture coordinates.
	e1 := [2]float32{uv[1][0] - uv[0][0], uv[1][1] - uv[0][1]}
	e2 := [2]float32{uv[2][0] - uv[0][0], uv[2][1] - uv[0][1]}
	det := e1[0]*e2[1] - e1[1]*e2[0]
	if det == 0 {
		add(p[0])
		add(p[1])
		add(p[2])
		return
	}
	poly := clipRect([][2]float32{uv[0], uv[1], uv[2]}, r)
	for _, t := range poly {
		d := [2]float32{t[0] - uv[0][0], t[1] - uv[0][1]}
		b1 := (d[0]*e2[1] - d[1]*e2[0]) / det
		b2 := (e1[0]*d[1] - e1[1]*d[0]) / det
		b0 := 1 - b1 - b2
		var q [3]float32
		for k := range 3 {
			q[k] = b0*p[0][k] + b1*p[1][k] + b2*p[2][k]
		}
		add(q)
	}
}

// clipRect clips a convex polygon against r (Sutherland–Hodgman).
func clipRect(poly [][2]float32, r uvRect) [][2]float32 {
	for edge := range 4 {
		if len(poly) == 0 {
			return nil
		}
		in := func(p [2]float32) bool {
			switch edge {
			case 0:
				return p[0] >= r.u0
			case 1:
				return p[0] <= r.u1
			case 2:
				return p[1] >= r.v0
			}
			return p[1] <= r.v1
		}
		cross := func(a, b [2]float32) [2]float32 {
			var t float32
			switch edge {
			case 0:
				t = (r.u0 - a[0]) / (b[0] - a[0])
			case 1:
				t = (r.u1 - a[0]) / (b[0] - a[0])
			case 2:
				t = (r.v0 - a[1]) / (b[1] - a[1])
			default:
				t = (r.v1 - a[1]) / (b[1] - a[1])
			}
			return [2]float32{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
		}
		var out [][2]float32
		for i, cur := range poly {
			prev := poly[(i+len(poly)-1)%len(poly)]
			switch {
			case in(cur) && in(prev):
				out = append(out, cur)
			case in(cur):
				out = append(out, cross(prev, cur), cur)
			case in(prev):
				out = append(out, cross(prev, cur))
			}
		}
		poly = out
	}
	return poly
}

// addGeoset calls add with the shown part of geoset gi as posed: the
// parts of its triangles that its visible layers' textures show.
func (r *frame) addGeoset(gi int, add func([3]float32)) int {
	g := &r.m.Geosets[gi]
	pos, _ := r.p.Vertices(gi)
	if int(g.MaterialID) >= len(r.m.Materials) {
		return 0
	}
	mat := &r.m.Materials[g.MaterialID]
	gc := r.p.GeosetColor(gi)
	n := 0
	all := func() {
		for _, v := range pos {
			add(v)
		}
		n += len(pos)
	}
	for _, d := range r.materialDraws(int(g.MaterialID)) {
		if d.hd != nil {
			all()
			return n
		}
		l := &mat.Layers[d.layer]
		la := r.p.LayerAlpha(l)
		if !visible(gc[3], la) {
			continue
		}
		texID := r.p.LayerTexture(l)
		if len(l.Textures) > 0 && l.TextureIDTrack == nil {
			texID = int(l.Textures[0].TextureID)
		}
		smp := r.texture(texID, r.layerWrap(l))
		if drawn, _ := r.missingShown(l.FilterMode); smp.missing && !drawn {
			continue
		}
		class := layerClass(l.FilterMode)
		if class == visAll || len(g.UVSets) == 0 {
			all()
			return n
		}
		opacity := gc[3] * la
		if class == visAdditive { // a dark colour adds nothing
			opacity *= max(gc[0], gc[1], gc[2])
		}
		rect := r.anim.visibleUV(smp, class, opacity)
		if rect == fullUV {
			all()
			return n
		}
		uvs := layerUVs(g, l)
		tt := r.p.TextureTransform(l.TextureAnimID)
		for t := 0; t+2 < len(g.Faces); t += 3 {
			a, b, c := int(g.Faces[t]), int(g.Faces[t+1]), int(g.Faces[t+2])
			if a >= len(pos) || b >= len(pos) || c >= len(pos) || a >= len(uvs) || b >= len(uvs) || c >= len(uvs) {
				continue
			}
			addShown([3][3]float32{pos[a], pos[b], pos[c]},
				[3][2]float32{tt.Apply(uvs[a]), tt.Apply(uvs[b]), tt.Apply(uvs[c])}, rect, add)
			n += 3
		}
	}
	return n
}

// addParticles calls add with the shown part of what the particle
// simulation draws for a camera looking along −dir: particle quads
// clipped by their textures, ribbons and model particles whole; nearly
// transparent vertices are left out.
func (r *frame) addParticles(cam particles.Camera, add func([3]float32)) int {
	n := 0
	for _, ms := range r.sim.Meshes(cam) {
		var s raster.Sampler
		class := visAll
		switch ms.Kind {
		case particles.KindParticle2:
			ts := r.emitterTexture(ms)
			if !r.emitterShown(ts) {
				continue
			}
			s = ts
			class = emitterClass(ms.Filter)
		case particles.KindRibbon:
			if ts := r.ribbonTexture(ms); ts != nil && !r.emitterShown(ts) {
				continue
			}
		case particles.KindWoW:
			ts := r.texture(ms.TextureID, 0)
			if !r.emitterShown(ts) {
				continue
			}
			s = ts
			class = layerClass(mdx.FilterMode(ms.Filter))
		}
		v := ms.Vertices
		for t := 0; t+2 < len(ms.Indices); t += 3 {
			a, b, c := int(ms.Indices[t]), int(ms.Indices[t+1]), int(ms.Indices[t+2])
			if a >= len(v) || b >= len(v) || c >= len(v) {
				continue
			}
			alpha := float32(0)
			for _, k := range [3]int{a, b, c} {
				o := v[k].Color[3]
				if class == visAdditive { // a dark colour adds nothing
					o *= max(v[k].Color[0], v[k].Color[1], v[k].Color[2])
				}
				alpha = max(alpha, o)
			}
			if alpha < framingParticleAlpha {
				continue
			}
			rect := fullUV
			if s != nil {
				rect = r.anim.visibleUV(s, class, alpha)
			}
			addShown([3][3]float32{v[a].Pos, v[b].Pos, v[c].Pos}, [3][2]float32{v[a].UV, v[b].UV, v[c].UV}, rect, add)
			n += 3
		}
	}
	return n
}
