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
// model: a WoW model whose drawn geometry is flat in Z (minimap arrows,
// interface quads lying in the XY plane), which the default level view
// sees edge-on as nothing. Only the default pitch (0) is changed; yaw and
// an explicit pitch still apply.
func (r *frame) flatFraming() bool {
	if !isWoW(r.m) || r.opt.Pitch != 0 || r.camera != "" {
		return false
	}
	lo := [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	n := 0
	for gi := range r.m.Geosets {
		g := &r.m.Geosets[gi]
		if !drawn(g) {
			continue
		}
		for _, v := range g.Vertices {
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
			}
			n++
		}
	}
	if n < 3 {
		return false
	}
	flat := max(hi[0]-lo[0], hi[1]-lo[1])
	return flat > 0 && hi[2]-lo[2] <= flat/10
}
