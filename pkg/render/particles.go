package render

import (
	"math"
	"path"
	"slices"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// particleCamera returns the world-space camera axes particle quads are
// built from: the columns of the look-at rotation (docs/particles.md#drawing-particles).
func particleCamera(c raster.Camera) particles.Camera {
	f := c.Target.Sub(c.Eye).Normalize()
	right := f.Cross(c.Up).Normalize()
	up := right.Cross(f)
	return particles.Camera{
		Right:   right,
		Up:      up,
		Forward: f,
	}
}

// emitterBatches appends one batch per emitter mesh and its draw item:
// emitters join the translucent pass by priority plane (drawOrder).
// PRE2 quads use the emitter filter-mode state; ribbons and model
// particles the state of their material's first layer (culled unless
// TwoSided, as the reference viewer draws ribbons), unlit: the viewer's
// particle shader has no lighting.
func (r *frame) emitterBatches(vp fauxgl.Matrix, all []raster.Batch, items []drawItem) ([]raster.Batch, []drawItem) {
	for _, ms := range r.sim.Meshes(particleCamera(r.cam)) {
		b := raster.Batch{Color: [4]float32{1, 1, 1, 1}, VertexColor: true, Indices: ms.Indices}
		switch ms.Kind {
		case particles.KindParticle2:
			b.State = emitterState(ms.Filter)
			s := r.emitterTexture(ms)
			if !r.emitterShown(s) {
				continue
			}
			b.Texture = s
		case particles.KindModel:
			all, items = r.modelParticleBatches(vp, ms, all, items)
			continue
		case particles.KindWoW:
			// Drawn like a layer of the model: its blend and depth state,
			// never lit, WoW's no-alpha additive taking the texel as opaque.
			mode := mdx.FilterMode(ms.Filter)
			b.State = layerState(mode, ms.LayerFlags)
			b.State.Lit = false
			s := r.texture(ms.TextureID, 0)
			if !r.emitterShown(s) {
				continue
			}
			b.Texture = r.layerSampler(s, normalizeFilter(mode))
		default: // ribbons
			if ms.Material < 0 || ms.Material >= len(r.m.Materials) || len(r.m.Materials[ms.Material].Layers) == 0 {
				r.warn(ParticleProblem, "emitter node %d: material %d does not exist; not drawn", ms.Node, ms.Material)
				continue
			}
			l := &r.m.Materials[ms.Material].Layers[0]
			b.State = layerState(l.FilterMode, l.Flags)
			b.State.Lit = false
			s := r.ribbonTexture(ms)
			if !r.emitterShown(s) {
				continue
			}
			b.Texture = s
		}
		b.Vertices = make([]raster.Vertex, len(ms.Vertices))
		for i, v := range ms.Vertices {
			b.Vertices[i] = raster.Vertex{
				Position: raster.ClipPosition(vp, mdx.Vec3(v.Pos)),
				UV:       v.UV,
				Color:    v.Color,
			}
		}
		all = append(all, b)
		items = append(items, drawItem{emitter: true, priorityPlane: ms.PriorityPlane})
	}
	return all, items
}

// emitterTexture returns the texture of a PRE2 emitter's mesh: a
// replaceable one by id, else the model's texture.
func (r *frame) emitterTexture(ms particles.Mesh) *texSampler {
	if ms.ReplaceableID != 0 {
		return r.replaceable(ms.ReplaceableID)
	}
	return r.texture(ms.TextureID, 0)
}

// ribbonTexture returns the texture of a ribbon's mesh, its material's
// first layer's; nil when the material or the layer does not exist.
func (r *frame) ribbonTexture(ms particles.Mesh) *texSampler {
	if ms.Material < 0 || ms.Material >= len(r.m.Materials) || len(r.m.Materials[ms.Material].Layers) == 0 {
		return nil
	}
	l := &r.m.Materials[ms.Material].Layers[0]
	id := int(l.TextureID)
	if len(l.Textures) > 0 {
		id = int(l.Textures[0].TextureID)
	}
	return r.texture(id, 0)
}

// replaceable returns the team colour (1), team glow (2) or
// ReplaceableTextures table texture (> 2) a PRE2 emitter names by id.
func (r *frame) replaceable(id uint32) *texSampler {
	key := texKey{id: -1 - int(id&math.MaxInt32), wrap: 0}
	if smp, ok := r.tex[key]; ok {
		return smp
	}
	req := texture.Request{Local: r.local, ReplaceableID: id, HD: hdTextures(r.m), Team: r.opt.Team, Meter: r.anim.meter()}
	l, ws := r.load(req)
	r.textureWarnings(ws)
	smp := newTexSampler(r, l, 0, req.Name())
	smp.missing = isMissing(l, ws)
	r.tex[key] = smp
	return smp
}

// modelParticleBatches draws one geoset of a PREM spawned model instance
// like a geoset of that model: every layer of its material, lit through
// the mesh normals unless Unshaded, opaque layers in the opaque pass.
func (r *frame) modelParticleBatches(vp fauxgl.Matrix, ms particles.Mesh, all []raster.Batch, items []drawItem) ([]raster.Batch, []drawItem) {
	src := ms.Source
	local := r.local
	if f, ok := r.anim.spawned[ms.SourcePath]; ok {
		// the spawned model's textures are found beside it
		local = []texture.Source{texture.FSSource(f.Source.Name, f.Source.FS, path.Dir(f.Name))}
	}
	if src == nil || ms.Material < 0 || ms.Material >= len(src.Materials) {
		return all, items
	}
	mat := &src.Materials[ms.Material]
	light := r.opt.light()
	lightF := [3]float32{float32(light.X), float32(light.Y), float32(light.Z)}
	base := make([]raster.Vertex, len(ms.Vertices))
	for i, v := range ms.Vertices {
		base[i] = raster.Vertex{
			Position: raster.ClipPosition(vp, mdx.Vec3(v.Pos)),
			UV:       v.UV,
			Light:    raster.LightDir(mdx.Vec3(v.Pos), lightF),
			Color:    v.Color,
		}
		if i < len(ms.Normals) {
			base[i].Normal = ms.Normals[i]
		}
	}
	for li := range mat.Layers {
		l := &mat.Layers[li]
		if l.Alpha <= skipAlpha && l.AlphaTrack == nil {
			continue
		}
		mode := normalizeFilter(l.FilterMode)
		st := layerState(mode, l.Flags)
		if len(ms.Normals) != len(ms.Vertices) {
			st.Lit = false
		}
		id := int(l.TextureID)
		if len(l.Textures) > 0 {
			id = int(l.Textures[0].TextureID)
		}
		b := raster.Batch{
			State:       st,
			Color:       [4]float32{1, 1, 1, l.Alpha},
			VertexColor: true,
			Vertices:    base,
			Indices:     ms.Indices,
		}
		smp := r.foreignTexture(src, local, id)
		b.Texture = smp
		if smp.missing {
			drawn, grey := r.missingShown(mode)
			if !drawn {
				continue
			}
			if grey {
				pos := make([]mdx.Vec3, len(ms.Vertices))
				for i, v := range ms.Vertices {
					pos[i] = v.Pos
				}
				nrm := make([]mdx.Vec3, len(ms.Normals))
				for i, n := range ms.Normals {
					nrm[i] = n
				}
				vs := slices.Clone(b.Vertices)
				newStandIn(r.cam).colour(vs, pos, nrm)
				b = standInBatch(b, vs)
			}
		}
		all = append(all, b)
		items = append(items, drawItem{filter: mode, priorityPlane: int(mat.PriorityPlane)})
	}
	return all, items
}

// foreignTexture loads texture id of another model (a PREM spawned
// model), relative to that model's folder. Not cached per frame: spawned
// models are rare and the decoded texture is cached by the resolver.
func (r *frame) foreignTexture(m *mdx.Model, local []texture.Source, id int) *texSampler {
	if id < 0 || id >= len(m.Textures) {
		return r.missingSampler("spawned model: texture id %d out of range (model has %d textures)", id, len(m.Textures))
	}
	t := &m.Textures[id]
	req := texture.Request{Local: local, Path: t.Path, ReplaceableID: t.ReplaceableID, HD: hdTextures(m), Team: r.opt.Team, Meter: r.anim.meter()}
	l, ws := r.load(req)
	r.textureWarnings(ws)
	smp := newTexSampler(r, l, texture.Wrap(t.Flags), req.Name())
	smp.missing = isMissing(l, ws)
	return smp
}
