package render

import (
	"math"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// hdBatch builds the one batch of HD pass hp on geoset gi
// (docs/rendering.md#reforged-hd-materials); ok is false when the pass is
// hidden (geoset or layer alpha at or below skipAlpha).
func (r *frame) hdBatch(gi int, mi int, hp *HDPass, idx []uint32, vp fauxgl.Matrix) (raster.Batch, drawItem, bool) {
	m := r.m
	g := &m.Geosets[gi]
	mat := &m.Materials[mi]
	l := &mat.Layers[hp.Layer]
	// Geoset alpha hides and fades HD geosets as it does SD ones (the
	// reference viewer ignores it here; its open fix, and the game, do
	// not).
	gc := r.p.GeosetColor(gi)
	la := r.p.LayerAlpha(l)
	if !visible(gc[3], la) {
		return raster.Batch{}, drawItem{}, false
	}
	if !hp.Implemented && !r.warnedShader[mi] {
		if r.warnedShader == nil {
			r.warnedShader = map[int]bool{}
		}
		r.warnedShader[mi] = true
		r.warn(UnsupportedMaterial, "material %d: shader %q is not implemented; drawn as %s", mi, hp.Shader, ShaderHD)
	}

	pos, nrm := r.p.Vertices(gi)
	tan, bin, hasFrame := r.p.TangentFrames(gi)
	uvs := layerUVs(g, l)
	tt := r.p.TextureTransform(l.TextureAnimID)
	lightW := r.hdLightPosition()
	vs := make([]raster.Vertex, len(pos))
	for v, pp := range pos {
		vs[v].Position = raster.ClipPosition(vp, pp)
		if v < len(uvs) {
			vs[v].UV = tt.Apply(uvs[v])
		}
		// The light direction in the vertex's tangent frame (x along the
		// tangent, y the binormal, z the normal), as the viewer's HD vertex
		// shader passes it on; the fragment dots it with the normal map.
		// Without a frame the normal map cannot be used: only z, the
		// light along the vertex normal, matters (the flat normal).
		L := raster.LightDir(pp, lightW)
		n := unit(nrm[v])
		ln := dot3(L, n)
		if !hasFrame {
			vs[v].Light = [3]float32{0, 0, ln}
			continue
		}
		t, b := unit(tan[v]), unit(bin[v])
		vs[v].Light = unit([3]float32{dot3(L, t), dot3(L, b), ln})
	}

	sh := &hdShader{flatNormal: !hasFrame, unshaded: l.Flags&mdx.LayerUnshaded != 0, anim: r.anim, neutral: r.hdNeutral()}
	sh.emissiveGain = r.p.EmissiveGain(l)
	for s := SlotDiffuse; s <= SlotTeamColor; s++ {
		sh.slots[s] = r.hdSlot(mat, hp, s)
	}
	mode := normalizeFilter(l.FilterMode)
	st := layerState(mode, r.layerFlags(l))
	st.Lit = false // the shader lights
	return raster.Batch{
			State:    st,
			Shader:   sh,
			Color:    [4]float32{gc[0], gc[1], gc[2], gc[3] * la},
			Vertices: vs,
			Indices:  idx,
		},
		drawItem{filter: mode, priorityPlane: int(mat.PriorityPlane)}, true
}

// hdNeutral are the values a slot takes when its texture is missing (not
// found, not decodable, or no such slot): white diffuse, the flat normal
// (0.5, 0.5) → (0, 0, 1), ORM with no occlusion and no team mask, black
// emissive. The reference viewer samples its white stand-in instead, which
// turns a model whose emissive map is missing flat white. By default
// (MissingGrey) a missing diffuse map is the grey of the SD stand-in
// (hdNeutralGrey), so that a model whose textures are all missing looks
// alike in SD and HD.
var hdNeutral = [NumSlots][4]float32{
	SlotDiffuse:     {1, 1, 1, 1},
	SlotNormal:      {0.5, 0.5, 1, 1},
	SlotORM:         {1, 1, 0, 0},
	SlotEmissive:    {0, 0, 0, 1},
	SlotTeamColor:   {1, 1, 1, 1},
	SlotEnvironment: {0, 0, 0, 1},
}

// hdNeutralGrey is hdNeutral with the stand-in grey as the diffuse
// value.
var hdNeutralGrey = func() [NumSlots][4]float32 {
	n := hdNeutral
	n[SlotDiffuse] = [4]float32{standInGrey, standInGrey, standInGrey, 1}
	return n
}()

// hdNeutral returns the neutral slot values View.MissingTextures asks for.
func (r *frame) hdNeutral() *[NumSlots][4]float32 {
	if r.opt.MissingTextures == MissingWhite {
		return &hdNeutral
	}
	return &hdNeutralGrey
}

// hdSlot returns what slot s of pass hp samples now: its texture, or the
// neutral value where the texture is missing. A team colour slot whose
// texture is replaceable id 1 or 2 shows the team's colour texture.
func (r *frame) hdSlot(mat *mdx.Material, hp *HDPass, s Slot) hdTexture {
	id := slotTexture(r.m, r.p, mat, hp, s)
	if id < 0 {
		return hdTexture{c: r.hdNeutral()[s]}
	}
	var smp *texSampler
	if s == SlotTeamColor && id < len(r.m.Textures) {
		if rid := r.m.Textures[id].ReplaceableID; rid == texture.ReplaceableTeamColor || rid == texture.ReplaceableTeamGlow {
			smp = r.replaceable(texture.ReplaceableTeamColor)
		}
	}
	if smp == nil {
		smp = r.texture(id, 0)
	}
	if t := smp.l.Decoded(); t != nil && texture.IsStandIn(t) {
		return hdTexture{c: r.hdNeutral()[s]}
	}
	return hdTexture{src: smp, w: smp.Width(), h: smp.Height()}
}

// ForLOD implements raster.LazyShader: it decodes the levels of every
// slot's texture that the batch can sample and returns the shader ready
// to shade. A slot whose texture turns out not to decode takes its
// neutral value; a texture of one colour at every level (a team colour, a
// black emissive map) becomes that constant, which samples the same and
// costs nothing per fragment.
func (s *hdShader) ForLOD(b raster.LODBound) raster.Shader {
	p := *s
	for k := range p.slots {
		t := &p.slots[k]
		if t.src == nil {
			continue
		}
		gs := t.src.from(b.Level(t.w, t.h))
		if texture.IsStandIn(gs.t) {
			*t = hdTexture{c: s.neutral[k]}
			continue
		}
		if c, ok := s.anim.uniformColor(t.src, gs.t); ok {
			*t = hdTexture{c: c}
			continue
		}
		t.smp, t.ok = gs, true
	}
	p.prepare()
	return &p
}

// hdLightPosition is the world position of the HD light. The reference
// viewer's HD shader subtracts view-space positions from the scene's light
// position, so the light sits at View.Light taken in camera coordinates:
// by default 10000 units behind the camera, lighting what the camera sees
// head-on. We place it there so that the pictures agree.
func (r *frame) hdLightPosition() [3]float32 {
	if r.hdLight != nil {
		return *r.hdLight
	}
	p := r.cam.View().Inverse().MulPosition(r.opt.light())
	l := [3]float32{float32(p.X), float32(p.Y), float32(p.Z)}
	r.hdLight = &l
	return l
}

// uniformColor reports whether every texel of every level of the texture
// src samples is the same colour, remembering the answer per texture. t
// holds the levels a batch samples; only when they are all one colour
// are the finer levels decoded to settle it, which happens for the small
// one-colour maps this is for.
func (a *Animator) uniformColor(src *texSampler, t *texture.Texture) ([4]float32, bool) {
	key := src.l
	if u, ok := a.uniform[key]; ok {
		return u.c, u.ok
	}
	var u uniformTex
	first := t.Levels[t.First()].Pix[:4]
	u.ok = uniformLevels(t, first)
	if u.ok && t.First() > 0 {
		u.ok = uniformLevels(src.from(0).t, first)
	}
	if u.ok {
		for i := range 4 {
			u.c[i] = float32(first[i]) / 255
		}
	}
	if src.r.ctx.Err() != nil {
		return u.c, u.ok // levels of an abandoned decode: not remembered
	}
	if a.uniform == nil {
		a.uniform = map[*texture.Lazy]uniformTex{}
	}
	a.uniform[key] = u
	return u.c, u.ok
}

// uniformLevels reports whether every texel of t's levels is c.
func uniformLevels(t *texture.Texture, c []uint8) bool {
	for _, lv := range t.Levels {
		if lv == nil {
			continue
		}
		pix := lv.Pix
		for i := 0; i+4 <= len(pix); i += 4 {
			if pix[i] != c[0] || pix[i+1] != c[1] || pix[i+2] != c[2] || pix[i+3] != c[3] {
				return false
			}
		}
	}
	return true
}

type uniformTex struct {
	c  [4]float32
	ok bool
}

func dot3(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// unit normalises v; the zero vector stays zero.
func unit(v [3]float32) [3]float32 {
	n := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if n == 0 {
		return v
	}
	return [3]float32{v[0] / n, v[1] / n, v[2] / n}
}

// hdTexture is one slot as the shader samples it: a texture, or a
// constant colour when ok is false. shared marks a texture laid out like
// the shader's base texture (same level sizes and wrapping), which reuses
// the base's footprint (see hdFootprint).
type hdTexture struct {
	src    *texSampler // the texture, until ForLOD decodes it into smp
	smp    glSampler
	w, h   int
	ok     bool
	shared bool
	c      [4]float32
}

// hdShader is the HD fragment rule, after the reference viewer's HD
// fragment shader (docs/rendering.md#reforged-hd-materials):
//
//	colour = diffuse.rgb
//	if orm.a > 0.1: colour *= teamColour.rgb · orm.a
//	colour = colour · clamp(clamp(N·L, 0, 1) · orm.r + 0.1, 0, 1) + emissive.rgb · gain
//	out = (colour · geosetColour, diffuse.a · geosetAlpha · layerAlpha)
//
// with N the normal map's tangent-space normal (x, y from red and green
// mapped to −1..1, z = √(1 − x² − y²); a texel outside the unit disc gets
// N·L = 0, as the viewer's NaN does) and L the interpolated tangent-space
// light direction of the vertices. Shade is the whole rule,
// so a rewritten raster loop can call it as it is.
type hdShader struct {
	anim         *Animator // its uniformColor answers
	slots        [SlotTeamColor + 1]hdTexture
	base         *texture.Texture // the first textured slot's texture: shared slots use its footprint
	flatNormal   bool             // no tangents: the normal map is not used
	unshaded     bool             // Unshaded layer: no lighting term
	emissiveGain float32
	// neutral are the values of slots whose texture is missing.
	neutral *[NumSlots][4]float32
	// fused: diffuse, normal and ORM are all textures sharing the base
	// footprint and all three are needed, the usual case; Shade then
	// reads them in one pass (hdFootprint.fetchDNO).
	fused bool
}

// prepare finds the base texture and the slots that can share its
// footprint: a Reforged material's diffuse, normal and ORM maps are
// usually the same size, so the level of detail, the texel addresses and
// the bilinear weights are worked out once per fragment for all of them.
func (s *hdShader) prepare() {
	for k := range s.slots {
		t := &s.slots[k]
		if !t.ok {
			continue
		}
		if s.base == nil {
			s.base = t.smp.t
		}
		t.shared = sameLayout(s.base, t.smp.t)
	}
	d, n, o := &s.slots[SlotDiffuse], &s.slots[SlotNormal], &s.slots[SlotORM]
	s.fused = d.ok && d.shared && n.ok && n.shared && o.ok && o.shared && !s.flatNormal && !s.unshaded
}

// sameLayout reports whether two textures have the same levels (sizes and
// strides) and wrapping, so one footprint addresses both.
func sameLayout(a, b *texture.Texture) bool {
	if a.Wrap != b.Wrap || len(a.Levels) != len(b.Levels) {
		return false
	}
	for i, l := range a.Levels {
		m := b.Levels[i]
		if l == nil || m == nil {
			if l != m {
				return false
			}
			continue
		}
		if l.Rect != m.Rect || l.Stride != m.Stride || len(l.Pix) != len(m.Pix) {
			return false
		}
	}
	return true
}

// fragSamples samples the slots of one fragment, computing the base
// footprint at most once.
type fragSamples struct {
	s    *hdShader
	f    *raster.Fragment
	fp   hdFootprint
	have bool
}

func (q *fragSamples) at(k Slot) [4]float32 {
	t := &q.s.slots[k]
	if !t.ok {
		return t.c
	}
	if !t.shared {
		return t.smp.Sample(q.f.UV[0], q.f.UV[1], q.f.LOD(t.w, t.h))
	}
	if !q.have {
		q.fp.set(q.s.base, q.f.UV[0], q.f.UV[1], q.f.LOD(t.w, t.h))
		q.have = true
	}
	return q.fp.fetch(t.smp.t)
}

// Shade implements raster.Shader.
func (s *hdShader) Shade(f *raster.Fragment) [4]float32 {
	q := fragSamples{s: s, f: f}
	var d [4]float32
	var nm, orm [2]float32 // normal map red, green; ORM occlusion, team mask
	if s.fused {
		t := &s.slots[SlotDiffuse]
		q.fp.set(s.base, f.UV[0], f.UV[1], f.LOD(t.w, t.h))
		q.have = true
		d, nm, orm = q.fp.fetchDNO(t.smp.t, s.slots[SlotNormal].smp.t, s.slots[SlotORM].smp.t)
	} else {
		d = q.at(SlotDiffuse)
		o := q.at(SlotORM)
		orm = [2]float32{o[0], o[3]}
		if !s.flatNormal && !s.unshaded {
			n := q.at(SlotNormal)
			nm = [2]float32{n[0], n[1]}
		}
	}
	r, g, b := d[0], d[1], d[2]
	if orm[1] > 0.1 {
		tc := q.at(SlotTeamColor)
		r, g, b = r*tc[0]*orm[1], g*tc[1]*orm[1], b*tc[2]*orm[1]
	}
	if !s.unshaded {
		l := f.Light
		nl := l[2]
		if !s.flatNormal {
			// Outside the unit disc there is no z: the viewer's square root
			// is NaN there, its clamp turns the diffuse term into 0, and
			// the texel keeps only the ambient 0.1.
			x, y := nm[0]*2-1, nm[1]*2-1
			nl = 0
			if zz := 1 - x*x - y*y; zz >= 0 {
				nl = x*l[0] + y*l[1] + float32(math.Sqrt(float64(zz)))*l[2]
			}
		}
		k := min(max(min(max(nl, 0), 1)*orm[0]+0.1, 0), 1)
		r, g, b = r*k, g*k, b*k
	}
	e := q.at(SlotEmissive)
	c := f.Color
	return [4]float32{
		(r + e[0]*s.emissiveGain) * c[0],
		(g + e[1]*s.emissiveGain) * c[1],
		(b + e[2]*s.emissiveGain) * c[2],
		d[3] * c[3],
	}
}
