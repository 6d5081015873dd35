package render

import (
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// This file holds what drawing World of Warcraft models (MDX 1300/1400/1500
// and M2, which pkg/m2 converts to version 1500) does differently from
// Warcraft III. Their version numbers are above 800, so nothing here may be
// decided by "Version > 800 means Reforged".

// isWoW reports whether m is a WoW model.
func isWoW(m *mdx.Model) bool { return mdx.IsWoWVersion(m.Version) }

// hdTextures reports whether replaceable textures resolve to Reforged .dds
// files: Reforged models only (900–1100), not the WoW versions above them.
func hdTextures(m *mdx.Model) bool { return m.Version > 800 && !isWoW(m) }

// wowReplaceable handles a WoW texture that names no file but a replaceable
// id. The WoW ids mean something else than Warcraft III's (1 is the
// character skin, not team colour; 11 a creature skin, not a cliff), and
// the file comes from the game's databases (CreatureDisplayInfo, item and
// character textures), not from the model, so there is nothing to look up:
// the texture is missing (View.MissingTextures) and the warning says
// which slot it was.
func (r *frame) wowReplaceable(t *mdx.Texture) (*texSampler, bool) {
	if !isWoW(r.m) || t.Path != "" || t.ReplaceableID == 0 {
		return nil, false
	}
	return r.missingSampler("texture: WoW replaceable texture %d (%s) is chosen by the game at run time, not named in the model",
		t.ReplaceableID, mdx.WoWReplaceableName(t.ReplaceableID)), true
}

// WoW layer flag bits (MDLGEO; docs/rendering.md#world-of-warcraft-models) with no Warcraft III shading
// meaning: 0x4/0x8 wrap the texture (v1500) and 0x100 is "no
// fallback" (v1500), where Warcraft III has Unlit.
const wowLayerOnly = mdx.WoWLayerWrapWidth | mdx.WoWLayerWrapHeight | mdx.WoWLayerNoFallback

// layerFlags returns the shading flags the raster sees for a layer.
func (r *frame) layerFlags(l *mdx.Layer) uint32 {
	if isWoW(r.m) {
		return l.Flags &^ wowLayerOnly
	}
	return l.Flags
}

// layerWrap returns the extra texture wrap bits a WoW v1500 layer asks for
// (MODEL_GEO_WRAPWIDTH/WRAPHEIGHT), in texture.Wrap numbering.
func (r *frame) layerWrap(l *mdx.Layer) uint32 {
	if !isWoW(r.m) {
		return 0
	}
	var w uint32
	if l.Flags&mdx.WoWLayerWrapWidth != 0 {
		w |= uint32(texture.WrapWidth)
	}
	if l.Flags&mdx.WoWLayerWrapHeight != 0 {
		w |= uint32(texture.WrapHeight)
	}
	return w
}

// layerSampler adapts a layer's texture to the WoW blend modes. WoW's
// texture op 3 (M2 blend mode 3, "no alpha add") adds the colour with
// factors ONE, ONE; the raster's additive op weights by source alpha
// (SRC_ALPHA, ONE, Warcraft III's Additive and WoW's op 4), so the texture's
// alpha is taken as 1. The other WoW modes are the Warcraft III ones:
// opaque, alpha key (alpha test), alpha (SRC_ALPHA, ONE_MINUS_SRC_ALPHA),
// add alpha (SRC_ALPHA, ONE), modulate (DST_COLOR, ZERO) and modulate 2x
// (DST_COLOR, SRC_COLOR).
func (r *frame) layerSampler(s raster.Sampler, mode mdx.FilterMode) raster.Sampler {
	if isWoW(r.m) && mode == mdx.FilterAdditive {
		return opaqueSampler{s}
	}
	return s
}

// opaqueSampler samples with alpha 1.
type opaqueSampler struct{ raster.Sampler }

func (s opaqueSampler) Sample(u, v, lod float32) [4]float32 {
	c := s.Sampler.Sample(u, v, lod)
	c[3] = 1
	return c
}

// ForLOD implements raster.LazySampler for a lazy sampler inside.
func (s opaqueSampler) ForLOD(b raster.LODBound) raster.Sampler {
	if l, ok := s.Sampler.(raster.LazySampler); ok {
		return opaqueSampler{l.ForLOD(b)}
	}
	return s
}

// flatFraming reports whether the automatic camera should look down on the
// model: a WoW interface model, which the game shows from above and the
// default level view sees edge-on as nothing. That is a model whose drawn
// geometry is flat in Z (minimap arrows, interface quads lying in the XY
// plane) or made of triangles that all face ±Z (quads stacked at several
// heights, as UI-BuffOn's icon and glow); or, without drawn geometry, one
// whose emitters lie spread over the XY plane at one height
// (UI-AutoCastButton's four corners). Only the default pitch (0) is
// changed; yaw and an explicit pitch still apply.
func (r *frame) flatFraming() bool {
	if !isWoW(r.m) || r.opt.Pitch != 0 || r.camera != "" {
		return false
	}
	var b flatBox
	faces, level := 0, 0
	for gi := range r.m.Geosets {
		g := &r.m.Geosets[gi]
		if !drawn(g) {
			continue
		}
		for _, v := range g.Vertices {
			b.add(v)
		}
		for t := 0; t+2 < len(g.Faces); t += 3 {
			a, c, d := int(g.Faces[t]), int(g.Faces[t+1]), int(g.Faces[t+2])
			if a >= len(g.Vertices) || c >= len(g.Vertices) || d >= len(g.Vertices) {
				continue
			}
			nx, ny, nz := normal(g.Vertices[a], g.Vertices[c], g.Vertices[d])
			l := math.Sqrt(nx*nx + ny*ny + nz*nz)
			if !(l > 0) || math.IsInf(l, 0) {
				continue // degenerate
			}
			faces++
			if math.Abs(nz) >= 0.999*l {
				level++
			}
		}
	}
	if b.n >= 3 {
		return b.flat() || (faces > 0 && level == faces)
	}
	// Nothing drawn: the emitters' places.
	var e flatBox
	for i := range r.m.WoWParticleEmitters {
		e.add(r.m.WoWParticleEmitters[i].Position)
	}
	for i := range r.m.WoWRibbonEmitters {
		e.add(r.m.WoWRibbonEmitters[i].Position)
	}
	return e.n >= 3 && e.flat() && min(e.hi[0]-e.lo[0], e.hi[1]-e.lo[1]) > 0
}

// flatBox is the box of the points added to it.
type flatBox struct {
	lo, hi [3]float32
	n      int
}

func (b *flatBox) add(v mdx.Vec3) {
	if b.n == 0 {
		b.lo, b.hi = v, v
	}
	for k := range 3 {
		b.lo[k], b.hi[k] = min(b.lo[k], v[k]), max(b.hi[k], v[k])
	}
	b.n++
}

// flat reports whether the box is thin in Z: at most a tenth of its
// larger side in X or Y.
func (b *flatBox) flat() bool {
	w := max(b.hi[0]-b.lo[0], b.hi[1]-b.lo[1])
	return w > 0 && b.hi[2]-b.lo[2] <= w/10
}

// normal is the (unnormalised) normal of the triangle a, b, c.
func normal(a, b, c mdx.Vec3) (x, y, z float64) {
	u := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
	v := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
	return u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]
}

// wowEmitters reports whether the model has WoW particle or ribbon
// emitters.
func (r *frame) wowEmitters() bool {
	return len(r.m.WoWParticleEmitters)+len(r.m.WoWRibbonEmitters) > 0
}
