package render

import (
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// Alpha-test references of the reference viewer's filter-mode table
// (docs/rendering.md#filter-modes): Transparent layers and AlphaKey
// particles cut out below 0.75, the modulate modes discard only what is
// nearly transparent.
const (
	transparentAlphaRef = 0.75
	modulateAlphaRef    = 0.02
)

// sdAmbient is the ambient term of Warcraft III's SD lighting,
// clamp(N·L + 0.7): a surface facing away from the light keeps 70 %.
const sdAmbient = 0.7

// normalizeFilter maps out-of-range filter modes to Blend, as the reference
// viewer does, so sorting and state selection agree on them.
func normalizeFilter(m mdx.FilterMode) mdx.FilterMode {
	if m > mdx.FilterModulate2x {
		return mdx.FilterBlend
	}
	return m
}

// opaqueFilter reports whether a layer of this mode belongs to the opaque
// group (None and Transparent), which is drawn first and never sorted.
func opaqueFilter(m mdx.FilterMode) bool { return normalizeFilter(m) <= mdx.FilterTransparent }

// layerState returns the raster state of a material layer with the given
// filter mode and shading flags (mdx.Layer* bits): opaque modes replace
// with depth write, Transparent adds the 0.75 alpha test, translucent modes
// blend without depth write, the modulate modes test alpha at 0.02.
// TwoSided disables culling, Unshaded lighting, NoDepthSet depth writes and
// NoDepthTest the depth test (and with it depth writes, as in GL).
// SphereEnvMap and Unfogged change nothing: no viewer draws them.
func layerState(mode mdx.FilterMode, flags uint32) raster.State {
	s := raster.State{DepthTest: true, Cull: raster.CullBack, Lit: true, Ambient: sdAmbient}
	switch normalizeFilter(mode) {
	case mdx.FilterNone:
		s.Blend, s.DepthWrite = raster.BlendReplace, true
	case mdx.FilterTransparent:
		s.Blend, s.DepthWrite = raster.BlendReplace, true
		s.AlphaTest, s.AlphaRef = true, transparentAlphaRef
	case mdx.FilterBlend:
		s.Blend = raster.BlendOver
	case mdx.FilterAdditive, mdx.FilterAddAlpha:
		s.Blend = raster.BlendAdd
	case mdx.FilterModulate:
		s.Blend = raster.BlendModulate
		s.AlphaTest, s.AlphaRef = true, modulateAlphaRef
	case mdx.FilterModulate2x:
		s.Blend = raster.BlendModulate2x
		s.AlphaTest, s.AlphaRef = true, modulateAlphaRef
	}
	if flags&mdx.LayerUnshaded != 0 {
		s.Lit = false
	}
	if flags&mdx.LayerTwoSided != 0 {
		s.Cull = raster.CullNone
	}
	if flags&mdx.LayerNoDepthSet != 0 {
		s.DepthWrite = false
	}
	if flags&mdx.LayerNoDepthTest != 0 {
		s.DepthTest, s.DepthWrite = false, false
	}
	return s
}

// Particle emitter 2 filter modes, as numbered in the PRE2 record.
const (
	emitterBlend      = 0
	emitterAdditive   = 1
	emitterModulate   = 2
	emitterModulate2x = 3
	emitterAlphaKey   = 4
)

// emitterState returns the state of particle quads: depth test on, no depth
// write, no culling, never lit. Unknown modes are drawn as Blend.
func emitterState(mode uint32) raster.State {
	s := raster.State{Blend: raster.BlendOver, DepthTest: true, Cull: raster.CullNone}
	switch mode {
	case emitterAdditive:
		s.Blend = raster.BlendAdd
	case emitterModulate:
		s.Blend = raster.BlendModulate
		s.AlphaTest, s.AlphaRef = true, modulateAlphaRef
	case emitterModulate2x:
		s.Blend = raster.BlendModulate2x
		s.AlphaTest, s.AlphaRef = true, modulateAlphaRef
	case emitterAlphaKey:
		s.AlphaTest, s.AlphaRef = true, transparentAlphaRef
	}
	return s
}
