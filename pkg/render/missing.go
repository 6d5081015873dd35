package render

import (
	"fmt"
	"math"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Missing textures (docs/rendering.md#missing-textures). Half the models
// people render name some of the game's own textures, and a machine
// without the game has none of them. The reference viewer draws a white
// texture in their place, which leaves an unshaded layer, or a lit one
// facing the light from above, a flat white silhouette. By default the
// renderer draws such geometry in a neutral grey lit from beside the
// camera (standInShader), so that the form reads, and leaves out what a
// missing texture would only cover with squares: particles and ribbons,
// and layers that multiply (Modulate, Modulate2x, which white leaves
// unchanged anyway). View.MissingTextures = MissingWhite keeps the
// reference viewer's white.

// The grey stand-in: albedo, and the share of it an unlit side keeps.
// Lit head-on a surface is 0.6 (153 of 255); turned away it is 0.24.
const (
	standInGrey    = 0.6
	standInAmbient = 0.4
)

// standInLight is the direction towards the stand-in's light in camera
// coordinates (x right, y up, z towards the viewer): above, to the left
// and in front, the usual key light of a picture, so that the top and
// the left of a form are lit and its right and underside are not.
var standInLight = [3]float64{-0.45, 0.55, 0.7}

// standInShader shades geometry whose texture is missing: the stand-in
// grey times the geoset colour, lit by a light fixed to the camera
// (Lambert, per fragment, the normal renormalised), whatever the layer's
// shading flag. A face turned away from the camera (a two-sided layer's
// back) is lit as the side that shows.
type standInShader struct {
	light [3]float32 // unit, world space, towards the light
	fwd   [3]float32 // unit, world space, the camera's viewing direction
}

// newStandInShader places the stand-in's light for camera c.
func newStandInShader(c raster.Camera) standInShader {
	pc := particleCamera(c)
	var l [3]float64
	n := math.Sqrt(standInLight[0]*standInLight[0] + standInLight[1]*standInLight[1] + standInLight[2]*standInLight[2])
	for i, ax := range [3][3]float64{{pc.Right.X, pc.Right.Y, pc.Right.Z}, {pc.Up.X, pc.Up.Y, pc.Up.Z}, {-pc.Forward.X, -pc.Forward.Y, -pc.Forward.Z}} {
		for k := range 3 {
			l[k] += standInLight[i] / n * ax[k]
		}
	}
	return standInShader{
		light: [3]float32{float32(l[0]), float32(l[1]), float32(l[2])},
		fwd:   [3]float32{float32(pc.Forward.X), float32(pc.Forward.Y), float32(pc.Forward.Z)},
	}
}

func (s standInShader) Shade(f *raster.Fragment) [4]float32 {
	n := f.Normal
	d := n[0]*s.light[0] + n[1]*s.light[1] + n[2]*s.light[2]
	if n[0]*s.fwd[0]+n[1]*s.fwd[1]+n[2]*s.fwd[2] > 0 {
		d = -d
	}
	lit := float32(standInAmbient)
	if l2 := n[0]*n[0] + n[1]*n[1] + n[2]*n[2]; l2 > 0 && d > 0 {
		lit += (1 - standInAmbient) * d / float32(math.Sqrt(float64(l2)))
	}
	g := float32(standInGrey) * lit
	return [4]float32{g * f.Color[0], g * f.Color[1], g * f.Color[2], f.Color[3]}
}

// missingShown says what a missing texture gives a layer of filter mode
// mode, by View.MissingTextures: drawn (as the white texture the sampler
// holds, or through the grey stand-in when grey is true), or not at all.
func (r *frame) missingShown(mode mdx.FilterMode) (drawn, grey bool) {
	if r.opt.MissingTextures == MissingWhite {
		return true, false
	}
	switch normalizeFilter(mode) {
	case mdx.FilterModulate, mdx.FilterModulate2x:
		return false, false
	}
	return true, true
}

// emitterShown reports whether an emitter whose texture sampler is s is
// drawn: not when its texture is missing, unless View.MissingTextures
// asks for the reference viewer's white squares.
func (r *frame) emitterShown(s *texSampler) bool {
	return s == nil || !s.missing || r.opt.MissingTextures == MissingWhite
}

// missingSampler is the sampler of a texture that is missing (a white
// stand-in), with the warning about it.
func (r *frame) missingSampler(format string, args ...any) *texSampler {
	r.warn(MissingTexture, format, args...)
	s := standInSampler(r, texture.WhiteTexture())
	s.missing = true
	return s
}

// maxSearched bounds the places a warning lists: a hostile path may
// make many.
const maxSearched = 64

// textureWarning turns what the resolver went on without into the
// renderer's warning: one line, the places looked in beside it.
func textureWarning(w texture.Warning) Warning {
	code := MissingTexture
	switch w.Kind {
	case texture.Damaged:
		code = BadTexture
	case texture.NoTeamColor:
		code = TeamColor
	case texture.Substituted:
		code = SubstitutedTexture
	case texture.OverBudget:
		code = OverBudget
	}
	if code != MissingTexture {
		return Warning{Code: code, Message: clip.String(w.String(), 2048)}
	}
	out := Warning{Code: code, Message: clip.String(fmt.Sprintf("texture %s: %s", clip.Quote(w.Path), w.Reason), 2048)}
	for i, p := range w.Searched {
		if i == maxSearched {
			out.Searched = append(out.Searched, fmt.Sprintf("and %d more", len(w.Searched)-maxSearched))
			break
		}
		out.Searched = append(out.Searched, clip.String(p, clip.MaxQuote))
	}
	return out
}
