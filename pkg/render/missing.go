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
// camera (standIn), so that the form reads, and leaves out what a
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

// standIn lights geometry whose texture is missing: the stand-in grey lit
// by a light fixed to the camera (Lambert at each vertex, the normal
// renormalised), whatever the layer's shading flag. A vertex whose normal
// faces away from the eye (a two-sided layer's back) is lit as the side
// that shows. The colour goes into the vertices, so the batch is drawn by
// the rasteriser's fixed rule without a texture: a per-fragment shader
// made such a picture half again as slow, and the models are coarse
// enough that lighting per vertex shows their form as well.
type standIn struct {
	light [3]float64 // unit, world space, towards the light
	eye   [3]float64
	fwd   [3]float64 // the viewing direction, for an orthographic camera
	ortho bool
}

// newStandIn places the stand-in's light for camera c.
func newStandIn(c raster.Camera) standIn {
	pc := particleCamera(c)
	var l [3]float64
	n := math.Sqrt(standInLight[0]*standInLight[0] + standInLight[1]*standInLight[1] + standInLight[2]*standInLight[2])
	for i, ax := range [3][3]float64{{pc.Right.X, pc.Right.Y, pc.Right.Z}, {pc.Up.X, pc.Up.Y, pc.Up.Z}, {-pc.Forward.X, -pc.Forward.Y, -pc.Forward.Z}} {
		for k := range 3 {
			l[k] += standInLight[i] / n * ax[k]
		}
	}
	return standIn{light: l, eye: [3]float64{c.Eye.X, c.Eye.Y, c.Eye.Z},
		fwd: [3]float64{pc.Forward.X, pc.Forward.Y, pc.Forward.Z}, ortho: c.Ortho}
}

// shade returns the stand-in's grey at a vertex at p with normal n.
func (s standIn) shade(p, n mdx.Vec3) float32 {
	nx, ny, nz := float64(n[0]), float64(n[1]), float64(n[2])
	v := s.fwd
	if !s.ortho {
		v = [3]float64{float64(p[0]) - s.eye[0], float64(p[1]) - s.eye[1], float64(p[2]) - s.eye[2]}
	}
	d := nx*s.light[0] + ny*s.light[1] + nz*s.light[2]
	if nx*v[0]+ny*v[1]+nz*v[2] > 0 {
		d = -d
	}
	lit := standInAmbient
	if l2 := nx*nx + ny*ny + nz*nz; l2 > 0 && d > 0 && !math.IsInf(l2, 0) {
		lit += (1 - standInAmbient) * d / math.Sqrt(l2)
	}
	return float32(standInGrey * lit)
}

// colour sets the stand-in's grey, by shade, into vertices whose
// positions and normals are pos and nrm.
func (s standIn) colour(vs []raster.Vertex, pos, nrm []mdx.Vec3) {
	for i := range vs {
		var n, p mdx.Vec3
		if i < len(nrm) {
			n = nrm[i]
		}
		if i < len(pos) {
			p = pos[i]
		}
		g := s.shade(p, n)
		vs[i].Color = [4]float32{g, g, g, 1}
	}
}

// standInBatch turns b, whose texture is missing, into the stand-in's,
// drawn with vertices vs that standIn.colour set: no texture, no
// lighting of its own.
func standInBatch(b raster.Batch, vs []raster.Vertex) raster.Batch {
	b.Vertices, b.VertexColor, b.Texture, b.Shader = vs, true, nil, nil
	b.State.Lit = false
	return b
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
