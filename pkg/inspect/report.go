package inspect

import (
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Report is what inspect shows about one model file. Its JSON form, as
// encoding/json writes it, is the object `mdxrender inspect --json` prints
// for the file: the keys are an interface that only ever gains keys, so
// never rename a field's tag. Slices that can be empty are non-nil in a
// built Report, so that they marshal as [] rather than null.
type Report struct {
	File            string         `json:"file"`   // as given to Build
	Format          string         `json:"format"` // "mdx", "mdl" or "m2" (model.Format)
	Bytes           int64          `json:"bytes"`
	Version         uint32         `json:"version"` // the model's; an M2's own is in M2
	Name            string         `json:"name"`
	AnimationFile   string         `json:"animation_file"`
	BlendTime       uint32         `json:"blend_time"`
	Extent          *Extent        `json:"extent"`
	Counts          *Counts        `json:"counts"`
	Sequences       []Sequence     `json:"sequences"`
	GlobalSequences []uint32       `json:"global_sequences"` // durations in ms
	Textures        []Texture      `json:"textures"`
	Materials       []Material     `json:"materials"`
	Geosets         []Geoset       `json:"geosets"`
	Nodes           []Node         `json:"nodes"` // in Model.Nodes order
	Cameras         []string       `json:"cameras"`
	UnknownChunks   []UnknownChunk `json:"unknown_chunks"`
	// Problem is the first cross-reference error Model.Validate finds ("" if
	// none): the file decodes but a renderer would index out of range.
	Problem string `json:"problem"`
	// M2 is present for M2 files: what the file holds beyond the model
	// drawn from it.
	M2 *M2 `json:"m2,omitempty"`
}

// M2 describes an M2 (MD20) file: its own version (the model is shown
// as the WoW MDX v1500 it converts to), the view (level of detail) drawn,
// and the blocks the conversion leaves out.
type M2 struct {
	Version        uint32         `json:"version"`
	Views          int            `json:"views"`
	View           int            `json:"view"` // the view the model was built from (0, the most detailed)
	Submeshes      int            `json:"submeshes"`
	SubmeshesDrawn int            `json:"submeshes_drawn"` // with a texture unit; the others are not converted
	TextureUnits   int            `json:"texture_units"`
	Vertices       int            `json:"vertices"`               // the file's vertex pool, shared by the views
	BoneWeighted   int            `json:"bone_weighted_vertices"` // vertices with more than one bone
	Particles      int            `json:"particle_emitters"`      // drawn unless of a shape not simulated (not_drawn)
	Ribbons        int            `json:"ribbon_emitters"`
	NotDrawn       map[string]int `json:"not_drawn"` // lights, attachments, particle_emitters of a shape not simulated (emitters and cameras are converted)
}

// Counts counts what the model holds. Most keys are those of the counts of
// the reference parser the decoder was checked against (geosets, vertices,
// faces, bones, ...); faces are triangles (face_indices / 3).
type Counts struct {
	Geosets           int `json:"geosets"`
	Vertices          int `json:"vertices"`
	Faces             int `json:"faces"`
	FaceIndices       int `json:"face_indices"`
	Bones             int `json:"bones"`
	Helpers           int `json:"helpers"`
	Attachments       int `json:"attachments"`
	Sequences         int `json:"sequences"`
	GlobalSequences   int `json:"global_sequences"`
	Materials         int `json:"materials"`
	Layers            int `json:"layers"`
	Textures          int `json:"textures"`
	TextureAnims      int `json:"texture_animations"`
	GeosetAnims       int `json:"geoset_animations"`
	Lights            int `json:"lights"`
	ParticleEmitters  int `json:"particle_emitters"`
	ParticleEmitters2 int `json:"particle_emitters2"`
	RibbonEmitters    int `json:"ribbon_emitters"`
	EventObjects      int `json:"event_objects"`
	Cameras           int `json:"cameras"`
	CollisionShapes   int `json:"collision_shapes"`
	PivotPoints       int `json:"pivot_points"`
	// The reference parser does not count these.
	PopcornEmitters int `json:"popcorn_emitters"`
	FaceEffects     int `json:"face_effects"`
	BindPoses       int `json:"bind_poses"`
	SoundTracks     int `json:"sound_tracks"`
	UnknownChunks   int `json:"unknown_chunks"`
	Nodes           int `json:"nodes"`
}

// Extent is the model's bounding box and radius.
type Extent struct {
	Min          [3]Float `json:"min"`
	Max          [3]Float `json:"max"`
	BoundsRadius Float    `json:"bounds_radius"`
}

// Sequence is one animation.
type Sequence struct {
	Name      string    `json:"name"`
	Interval  [2]uint32 `json:"interval"` // [start, end] in ms
	Length    int64     `json:"length"`   // end - start
	Looping   bool      `json:"looping"`
	MoveSpeed Float     `json:"move_speed"`
	Rarity    Float     `json:"rarity"`
	Flags     uint32    `json:"flags"`
	// WoW files (v1300+, M2) only: how often a variation plays (0..1),
	// the replay range and the blend time in ms.
	Frequency *Float     `json:"frequency,omitempty"`
	Replay    *[2]uint32 `json:"replay,omitempty"`
	BlendTime *uint32    `json:"blend_time,omitempty"`
}

// Texture is one texture entry.
type Texture struct {
	Path          string   `json:"path"`
	ReplaceableID uint32   `json:"replaceable_id"`
	Replaceable   string   `json:"replaceable"` // what the id stands for ("" for 0, "unknown" for an unknown Warcraft III id)
	Flags         uint32   `json:"flags"`
	FlagNames     []string `json:"flag_names"`
}

// Material is one material and its layers.
type Material struct {
	PriorityPlane int32    `json:"priority_plane"`
	Flags         uint32   `json:"flags"`
	FlagNames     []string `json:"flag_names"`
	Shader        string   `json:"shader"`
	Layers        []Layer  `json:"layers"`
	// HD says whether the renderer draws (part of) the material with the
	// Reforged HD path (docs/rendering.md#reforged-hd-materials); HDPasses
	// lists those draws, empty for an SD material.
	HD       bool     `json:"hd"`
	HDPasses []HDPass `json:"hd_passes"`
}

// HDPass is one HD draw of a material (render.HDPass).
type HDPass struct {
	Layer       int    `json:"layer"`       // the layer giving filter mode, flags and alpha
	Shader      string `json:"shader"`      // the shader asked for
	Implemented bool   `json:"implemented"` // false: drawn as Shader_HD_DefaultUnit, with a warning
	Slots       []Slot `json:"slots"`       // the slots the material has, in slot order
}

// Slot is one texture slot of an HD draw.
type Slot struct {
	Slot      string `json:"slot"` // diffuse, normal, orm, emissive, teamcolor, environment
	TextureID int    `json:"texture_id"`
}

// Layer is one layer of a material.
type Layer struct {
	FilterMode    string   `json:"filter_mode"`
	Flags         uint32   `json:"flags"`
	FlagNames     []string `json:"flag_names"`
	TextureID     int32    `json:"texture_id"`
	TextureAnimID int32    `json:"texture_anim_id"` // -1 = none
	CoordID       uint32   `json:"coord_id"`
	Alpha         Float    `json:"alpha"`
	// Animated names the tracks present: texture_id, alpha, emissive_gain,
	// fresnel_color, fresnel_opacity, fresnel_team_color.
	Animated     []string       `json:"animated"`
	ShaderTypeID *uint32        `json:"shader_type_id,omitempty"` // v1100
	Textures     []LayerTexture `json:"textures,omitempty"`       // v1100 slots
}

// LayerTexture is one texture slot of a v1100 layer.
type LayerTexture struct {
	TextureID uint32 `json:"texture_id"`
	Slot      uint32 `json:"slot"`
	SlotName  string `json:"slot_name"` // "" for a slot Reforged does not use
	Animated  bool   `json:"animated"`
}

// Geoset is one geoset (mesh).
type Geoset struct {
	Vertices     int    `json:"vertices"`
	Faces        int    `json:"faces"`
	MaterialID   uint32 `json:"material_id"`
	UVSets       int    `json:"uv_sets"`
	MatrixGroups int    `json:"matrix_groups"`
	Skinned      bool   `json:"skinned"` // has SKIN (v900+)
	LOD          uint32 `json:"lod"`
	LODName      string `json:"lod_name"`
	// WoW files only: the selection group (character geoset or M2 mesh
	// part id, section*100+variant) and the v1300/1400 BIDX/BWGT entries
	// (kept, not used: they are not in vertex order).
	SelectionGroup *uint32 `json:"selection_group,omitempty"`
	BoneWeights    *int    `json:"bone_weight_entries,omitempty"`
	// MultiBone counts the vertices whose per-vertex weights (v1500, M2)
	// blend two or more bones; MaxBones is the most bones one vertex uses.
	MultiBone *int `json:"multi_bone_vertices,omitempty"`
	MaxBones  *int `json:"max_bones_per_vertex,omitempty"`
}

// Node is one node in Model.Nodes order; the tree follows ParentID.
type Node struct {
	// Type is bone, light, helper, attachment, particle_emitter,
	// particle_emitter2, popcorn_emitter, ribbon_emitter, event_object or
	// collision_shape.
	Type      string   `json:"type"`
	Name      string   `json:"name"`
	ObjectID  int32    `json:"object_id"`
	ParentID  int32    `json:"parent_id"` // -1 = root
	Flags     uint32   `json:"flags"`
	FlagNames []string `json:"flag_names"` // without the type bit the record implies
	// Animated names the tracks present: translation, rotation, scaling,
	// visibility.
	Animated []string `json:"animated"`
	// TreeNote says why a node with a parent is drawn as a root or is
	// otherwise odd: parent missing, parent is itself, parent cycle,
	// duplicate object id.
	TreeNote string `json:"tree_note"`
	// Type-specific details.
	Path        string `json:"path,omitempty"`         // attachment, particle_emitter, popcorn_emitter
	TextureID   *int32 `json:"texture_id,omitempty"`   // particle_emitter2
	MaterialID  *int32 `json:"material_id,omitempty"`  // ribbon_emitter
	FilterMode  string `json:"filter_mode,omitempty"`  // particle_emitter2
	LightType   string `json:"light_type,omitempty"`   // light
	Shape       string `json:"shape,omitempty"`        // collision_shape
	EventFrames *int   `json:"event_frames,omitempty"` // event_object
}

// UnknownChunk is a chunk the decoder kept as raw bytes.
type UnknownChunk struct {
	Tag   string `json:"tag"`
	Bytes int    `json:"bytes"`
}

// Build gathers the report of a decoded model file, as model.Load returns
// it; name is what the report calls the file
// (usually its path). Build reads f and never changes it.
func Build(f *model.File, name string) *Report {
	m := f.Model
	r := &Report{
		File: name, Format: string(f.Format), Bytes: f.Size, Version: m.Version,
		Name: m.Name, AnimationFile: m.AnimationFile, BlendTime: m.BlendTime,
		Extent:          extentOf(m.Extent),
		GlobalSequences: append([]uint32{}, m.GlobalSequences...),
		Sequences:       []Sequence{}, Textures: []Texture{}, Materials: []Material{},
		Geosets: []Geoset{}, Cameras: []string{}, UnknownChunks: []UnknownChunk{},
	}
	c := &Counts{
		Geosets: len(m.Geosets), Bones: len(m.Bones), Helpers: len(m.Helpers),
		Attachments: len(m.Attachments), Sequences: len(m.Sequences),
		GlobalSequences: len(m.GlobalSequences), Materials: len(m.Materials),
		Textures: len(m.Textures), TextureAnims: len(m.TextureAnims),
		GeosetAnims: len(m.GeosetAnims), Lights: len(m.Lights),
		ParticleEmitters: len(m.ParticleEmitters), ParticleEmitters2: len(m.ParticleEmitters2),
		RibbonEmitters: len(m.RibbonEmitters), EventObjects: len(m.EventObjects),
		Cameras: len(m.Cameras), CollisionShapes: len(m.CollisionShapes),
		PivotPoints: len(m.PivotPoints), PopcornEmitters: len(m.PopcornEmitters),
		FaceEffects: len(m.FaceEffects), BindPoses: len(m.BindPose),
		SoundTracks: len(m.SoundTracks), UnknownChunks: len(m.Unknown),
	}
	r.Counts = c
	wow := mdx.IsWoWVersion(m.Version)
	for _, s := range m.Sequences {
		js := Sequence{
			Name: s.Name, Interval: s.Interval,
			Length:  int64(s.Interval[1]) - int64(s.Interval[0]),
			Looping: !s.NonLooping(), MoveSpeed: Float(s.MoveSpeed), Rarity: Float(s.Rarity), Flags: s.Flags,
		}
		if wow {
			f, rp, bt := Float(s.Frequency), s.Replay, s.BlendTime
			js.Frequency, js.Replay, js.BlendTime = &f, &rp, &bt
		}
		r.Sequences = append(r.Sequences, js)
	}
	for i := range m.Textures {
		t := &m.Textures[i]
		r.Textures = append(r.Textures, Texture{
			Path: t.Path, ReplaceableID: t.ReplaceableID, Replaceable: replaceable(m.Version, t.ReplaceableID),
			Flags: t.Flags, FlagNames: orEmpty(t.FlagNames()),
		})
	}
	for i := range m.Materials {
		mt := &m.Materials[i]
		jm := Material{PriorityPlane: mt.PriorityPlane, Flags: mt.Flags, FlagNames: orEmpty(mt.FlagNames()), Shader: mt.Shader, Layers: []Layer{}, HDPasses: []HDPass{}}
		for i := range mt.Layers {
			jm.Layers = append(jm.Layers, layerOf(&mt.Layers[i], m.Version))
		}
		for _, p := range render.HDPasses(m, i) {
			jp := HDPass{Layer: p.Layer, Shader: p.Shader, Implemented: p.Implemented, Slots: []Slot{}}
			for s, id := range p.Textures {
				if id >= 0 {
					jp.Slots = append(jp.Slots, Slot{Slot: render.Slot(s).String(), TextureID: id})
				}
			}
			jm.HD = true
			jm.HDPasses = append(jm.HDPasses, jp)
		}
		c.Layers += len(mt.Layers)
		r.Materials = append(r.Materials, jm)
	}
	for i := range m.Geosets {
		g := &m.Geosets[i]
		c.Vertices += len(g.Vertices)
		c.FaceIndices += len(g.Faces)
		c.Faces += len(g.Faces) / 3
		r.Geosets = append(r.Geosets, geosetOf(g, wow))
	}
	r.Nodes = nodesOf(m)
	c.Nodes = len(r.Nodes)
	_, notes := layoutTree(r.Nodes)
	for i := range r.Nodes {
		r.Nodes[i].TreeNote = notes[i]
	}
	for _, cam := range m.Cameras {
		r.Cameras = append(r.Cameras, cam.Name)
	}
	for _, u := range m.Unknown {
		r.UnknownChunks = append(r.UnknownChunks, UnknownChunk{Tag: u.Tag, Bytes: len(u.Data)})
	}
	if err := m.Validate(); err != nil {
		r.Problem = err.Error()
	}
	r.M2 = m2Of(f)
	return r
}

// orEmpty turns a nil list of names into an empty one, which marshals as
// [] like the other lists of the report.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// replaceable says what a replaceable id stands for, spelling the ids the
// game does not define as the report always has: "unknown" in a Warcraft
// III model, "Replaceable(n)" in a WoW one.
func replaceable(version, id uint32) string {
	if name, ok := mdx.ReplaceableName(version, id); ok || id == 0 {
		return name
	}
	if mdx.IsWoWVersion(version) {
		return mdx.WoWReplaceableName(id)
	}
	return "unknown"
}

func extentOf(e mdx.Extent) *Extent {
	return &Extent{
		Min:          [3]Float{Float(e.Min[0]), Float(e.Min[1]), Float(e.Min[2])},
		Max:          [3]Float{Float(e.Max[0]), Float(e.Max[1]), Float(e.Max[2])},
		BoundsRadius: Float(e.BoundsRadius),
	}
}

func layerOf(l *mdx.Layer, version uint32) Layer {
	jl := Layer{
		FilterMode: l.FilterMode.String(), Flags: l.Flags, FlagNames: orEmpty(l.FlagNames(version)),
		TextureID: l.TextureID, TextureAnimID: l.TextureAnimID, CoordID: l.CoordID, Alpha: Float(l.Alpha),
		Animated: []string{},
	}
	add := func(present bool, name string) {
		if present {
			jl.Animated = append(jl.Animated, name)
		}
	}
	add(l.TextureIDTrack != nil, "texture_id")
	add(l.AlphaTrack != nil, "alpha")
	add(l.EmissiveGainTrack != nil, "emissive_gain")
	add(l.FresnelColorTrack != nil, "fresnel_color")
	add(l.FresnelOpacityTrack != nil, "fresnel_opacity")
	add(l.FresnelTeamColorTrack != nil, "fresnel_team_color")
	if version >= 1100 && !mdx.IsWoWVersion(version) {
		st := l.ShaderTypeID
		jl.ShaderTypeID = &st
		for i := range l.Textures {
			t := &l.Textures[i]
			jl.Textures = append(jl.Textures, LayerTexture{
				TextureID: t.TextureID, Slot: t.Slot, SlotName: t.SlotName(), Animated: t.TextureIDTrack != nil,
			})
		}
	}
	return jl
}

func geosetOf(g *mdx.Geoset, wow bool) Geoset {
	jg := Geoset{
		Vertices: len(g.Vertices), Faces: len(g.Faces) / 3, MaterialID: g.MaterialID,
		UVSets: len(g.UVSets), MatrixGroups: len(g.MatrixGroups), Skinned: g.Skin != nil,
		LOD: g.LOD, LODName: g.LODName,
	}
	if !wow {
		return jg
	}
	sg, bw := g.SelectionGroup, len(g.BoneWeights)
	jg.SelectionGroup, jg.BoneWeights = &sg, &bw
	// SKIN holds four bone indices then four weights per vertex.
	if len(g.Skin) == 8*len(g.Vertices) {
		multi, most := 0, 0
		for v := range len(g.Vertices) {
			n := 0
			for _, w := range g.Skin[8*v+4 : 8*v+8] {
				if w > 0 {
					n++
				}
			}
			if n > 1 {
				multi++
			}
			most = max(most, n)
		}
		jg.MultiBone, jg.MaxBones = &multi, &most
	}
	return jg
}

// nodesOf lists the nodes in Model.Nodes order (bones, lights, helpers,
// attachments, emitters, ribbons, events, collision shapes).
func nodesOf(m *mdx.Model) []Node {
	out := []Node{}
	// add appends a node and returns it for the type-specific details; the
	// pointer is used before the next add moves the slice.
	add := func(typ string, n *mdx.Node, flagNames []string, vis bool) *Node {
		j := Node{Type: typ, Name: n.Name, ObjectID: n.ObjectID, ParentID: n.ParentID, Flags: n.Flags,
			FlagNames: orEmpty(flagNames), Animated: []string{}}
		for _, a := range []struct {
			ok   bool
			name string
		}{{n.Translation != nil, "translation"}, {n.Rotation != nil, "rotation"}, {n.Scaling != nil, "scaling"}, {vis, "visibility"}} {
			if a.ok {
				j.Animated = append(j.Animated, a.name)
			}
		}
		out = append(out, j)
		return &out[len(out)-1]
	}
	for i := range m.Bones {
		b := &m.Bones[i]
		add("bone", &b.Node, b.FlagNames(), false)
	}
	for i := range m.Lights {
		l := &m.Lights[i]
		add("light", &l.Node, l.FlagNames(), l.Visibility != nil).LightType = l.Type.String()
	}
	for i := range m.Helpers {
		h := &m.Helpers[i]
		add("helper", &h.Node, h.FlagNames(), false)
	}
	for i := range m.Attachments {
		a := &m.Attachments[i]
		add("attachment", &a.Node, a.FlagNames(), a.Visibility != nil).Path = a.Path
	}
	for i := range m.ParticleEmitters {
		p := &m.ParticleEmitters[i]
		add("particle_emitter", &p.Node, p.FlagNames(), p.Visibility != nil).Path = p.Path
	}
	for i := range m.ParticleEmitters2 {
		p := &m.ParticleEmitters2[i]
		j := add("particle_emitter2", &p.Node, p.FlagNames(), p.Visibility != nil)
		tid := p.TextureID
		j.TextureID, j.FilterMode = &tid, p.FilterModeName()
	}
	for i := range m.PopcornEmitters {
		p := &m.PopcornEmitters[i]
		add("popcorn_emitter", &p.Node, p.FlagNames(), p.Visibility != nil).Path = p.Path
	}
	for i := range m.RibbonEmitters {
		p := &m.RibbonEmitters[i]
		mid := p.MaterialID
		add("ribbon_emitter", &p.Node, p.FlagNames(), p.Visibility != nil).MaterialID = &mid
	}
	for i := range m.EventObjects {
		e := &m.EventObjects[i]
		nf := len(e.Frames)
		add("event_object", &e.Node, e.FlagNames(), false).EventFrames = &nf
	}
	for i := range m.CollisionShapes {
		s := &m.CollisionShapes[i]
		add("collision_shape", &s.Node, s.FlagNames(), false).Shape = s.Type.String()
	}
	return out
}

// m2Of describes what an M2 file holds beyond the model drawn from it; nil
// for other formats.
func m2Of(f *model.File) *M2 {
	if f.M2 == nil {
		return nil
	}
	h := &f.M2.Header
	// Particle emitters of the three shapes pkg/particles generates, and
	// every ribbon, are drawn.
	shapeless := 0
	for _, e := range f.M2.Particles {
		if e.EmitterType < mdx.WoWEmitterPlane || e.EmitterType > mdx.WoWEmitterSpline {
			shapeless++
		}
	}
	j := &M2{Version: h.Version, Views: len(f.M2.Views), View: f.View, Vertices: len(f.M2.Vertices),
		Particles: len(f.M2.Particles), Ribbons: len(f.M2.Ribbons),
		NotDrawn: map[string]int{"lights": int(h.Lights.Count),
			"attachments": int(h.Attachments.Count), "particle_emitters": shapeless}}
	if f.View < len(f.M2.Views) {
		v := &f.M2.Views[f.View]
		j.Submeshes, j.TextureUnits = len(v.Submeshes), len(v.TexUnits)
		drawn := map[uint16]bool{}
		for _, u := range v.TexUnits {
			drawn[u.Submesh] = true
		}
		j.SubmeshesDrawn = len(drawn)
	}
	for _, v := range f.M2.Vertices {
		n := 0
		for _, w := range v.BoneWeights {
			if w > 0 {
				n++
			}
		}
		if n > 1 {
			j.BoneWeighted++
		}
	}
	return j
}
