package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/spf13/cobra"
)

func newInspectCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect FILE...",
		Short: "Summarise MDX/MDL/M2 models: sequences, textures, materials, node tree",
		Long: `Print what is in each model file: format and version, counts, sequences
(interval, length, looping), global sequences, textures (with replaceable
ids), materials and their layers (filter mode, flags, texture), geosets, the
node hierarchy as a tree, and the extent. The format is taken from the file's
contents, not its name. World of Warcraft files (MDX 1300-1500, M2 256-263)
add their sequence fields (frequency, replay, blend time) and geoset
selection groups; an M2 is shown as the WoW MDX v1500 model it is drawn as,
plus an "m2" object (JSON) or lines (text) with its own version, the view
drawn, and what is not drawn (lights, attachments, emitters).

A file that cannot be read is reported on stderr (naming the file) and the
others are still inspected; the exit status is 1 if any file failed.

With --json the output is one JSON array with one object per FILE argument,
in argument order. A file that failed has only "file" and "error". The keys of
"counts" are those of the reference parser's peer-parse.jsonl (geosets,
vertices, faces, bones, ...) plus a few it does not have (popcorn_emitters,
face_effects, bind_poses, sound_tracks, unknown_chunks, nodes). Floats that
are not finite are written as the strings "NaN", "+Inf" and "-Inf". Keys are
only ever added, never renamed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failed := 0
			reports := []any{}
			out := cmd.OutOrStdout()
			for i, path := range args {
				f, err := model.LoadFile(path)
				if err != nil {
					failed++
					fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %v\n", err)
					if asJSON {
						reports = append(reports, inspectFailure{File: path, Error: err.Error()})
					}
					continue
				}
				r := summarize(path, string(f.Format), f.Size, f.Model)
				r.M2 = m2Info(f)
				if asJSON {
					reports = append(reports, r)
					continue
				}
				if i > 0 {
					fmt.Fprintln(out)
				}
				if err := writeInspectText(out, r); err != nil {
					return err
				}
			}
			if asJSON {
				b, err := json.MarshalIndent(reports, "", "  ")
				if err != nil {
					return err
				}
				if _, err := out.Write(append(b, '\n')); err != nil {
					return err
				}
			}
			if failed > 0 {
				return exitCodeError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array (one object per file) instead of text")
	return cmd
}

// loadModel reads and decodes a model file (MDX, MDL or M2, detected by
// content through pkg/model). Errors name the file.
func loadModel(path string) (m *mdx.Model, format string, size int64, err error) {
	f, err := model.LoadFile(path)
	if err != nil {
		return nil, "", 0, err
	}
	return f.Model, string(f.Format), f.Size, nil
}

// inspectReport is the --json object for one file. Field names are part of
// the command's interface: add, do not rename.
type inspectReport struct {
	File            string             `json:"file"`
	Format          string             `json:"format"` // "mdx" or "mdl"
	Bytes           int64              `json:"bytes"`
	Version         uint32             `json:"version"`
	Name            string             `json:"name"`
	AnimationFile   string             `json:"animation_file"`
	BlendTime       uint32             `json:"blend_time"`
	Extent          *jsonExtent        `json:"extent"`
	Counts          *inspectCounts     `json:"counts"`
	Sequences       []jsonSequence     `json:"sequences"`
	GlobalSequences []uint32           `json:"global_sequences"` // durations in ms
	Textures        []jsonTexture      `json:"textures"`
	Materials       []jsonMaterial     `json:"materials"`
	Geosets         []jsonGeoset       `json:"geosets"`
	Nodes           []jsonNode         `json:"nodes"`
	Cameras         []string           `json:"cameras"`
	UnknownChunks   []jsonUnknownChunk `json:"unknown_chunks"`
	// Problem is the first cross-reference error Model.Validate finds ("" if
	// none): the file decodes but a renderer would index out of range.
	Problem string `json:"problem"`
	// M2 is present for M2 files: what the file holds beyond the model
	// drawn from it.
	M2   *jsonM2    `json:"m2,omitempty"`
	tree []treeLine // text output only
}

// jsonM2 describes an M2 (MD20) file: its own version (the model is shown
// as the WoW MDX v1500 it converts to), the view (level of detail) drawn,
// and the blocks the conversion leaves out.
type jsonM2 struct {
	Version        uint32         `json:"version"`
	Views          int            `json:"views"`
	View           int            `json:"view"` // the view the model was built from (0, the most detailed)
	Submeshes      int            `json:"submeshes"`
	SubmeshesDrawn int            `json:"submeshes_drawn"` // with a texture unit; the others are not converted
	TextureUnits   int            `json:"texture_units"`
	Vertices       int            `json:"vertices"`               // the file's vertex pool, shared by the views
	BoneWeighted   int            `json:"bone_weighted_vertices"` // vertices with more than one bone
	NotDrawn       map[string]int `json:"not_drawn"`              // lights, attachments, ribbons, particles (cameras are converted)
}

func m2Info(f *model.File) *jsonM2 {
	if f.M2 == nil {
		return nil
	}
	h := &f.M2.Header
	j := &jsonM2{Version: h.Version, Views: len(f.M2.Views), View: f.View, Vertices: len(f.M2.Vertices),
		NotDrawn: map[string]int{"lights": int(h.Lights.Count),
			"attachments": int(h.Attachments.Count), "ribbon_emitters": int(h.RibbonEmitters.Count),
			"particle_emitters": int(h.Particles.Count)}}
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

// inspectFailure is the --json object for a file that could not be read.
type inspectFailure struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// inspectCounts uses the key names of reference/peer-parse.jsonl where it
// has them; faces are triangles (face_indices / 3).
type inspectCounts struct {
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
	// Not in peer-parse.jsonl.
	PopcornEmitters int `json:"popcorn_emitters"`
	FaceEffects     int `json:"face_effects"`
	BindPoses       int `json:"bind_poses"`
	SoundTracks     int `json:"sound_tracks"`
	UnknownChunks   int `json:"unknown_chunks"`
	Nodes           int `json:"nodes"`
}

// jf is a float32 that marshals non-finite values as strings, which plain
// encoding/json refuses (and hostile files do contain them).
type jf float32

func (f jf) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(float32(f))
}

func (f jf) String() string { return fmtF(float32(f)) }

type jsonExtent struct {
	Min          [3]jf `json:"min"`
	Max          [3]jf `json:"max"`
	BoundsRadius jf    `json:"bounds_radius"`
}

type jsonSequence struct {
	Name      string    `json:"name"`
	Interval  [2]uint32 `json:"interval"` // [start, end] in ms
	Length    int64     `json:"length"`   // end - start
	Looping   bool      `json:"looping"`
	MoveSpeed jf        `json:"move_speed"`
	Rarity    jf        `json:"rarity"`
	Flags     uint32    `json:"flags"`
	// WoW files (v1300+, M2) only: how often a variation plays (0..1),
	// the replay range and the blend time in ms.
	Frequency *jf        `json:"frequency,omitempty"`
	Replay    *[2]uint32 `json:"replay,omitempty"`
	BlendTime *uint32    `json:"blend_time,omitempty"`
}

type jsonTexture struct {
	Path          string   `json:"path"`
	ReplaceableID uint32   `json:"replaceable_id"`
	Replaceable   string   `json:"replaceable"` // what the id stands for
	Flags         uint32   `json:"flags"`
	FlagNames     []string `json:"flag_names"`
}

type jsonMaterial struct {
	PriorityPlane int32       `json:"priority_plane"`
	Flags         uint32      `json:"flags"`
	FlagNames     []string    `json:"flag_names"`
	Shader        string      `json:"shader"`
	Layers        []jsonLayer `json:"layers"`
}

type jsonLayer struct {
	FilterMode    string   `json:"filter_mode"`
	Flags         uint32   `json:"flags"`
	FlagNames     []string `json:"flag_names"`
	TextureID     int32    `json:"texture_id"`
	TextureAnimID int32    `json:"texture_anim_id"` // -1 = none
	CoordID       uint32   `json:"coord_id"`
	Alpha         jf       `json:"alpha"`
	// Animated names the tracks present: texture_id, alpha, emissive_gain,
	// fresnel_color, fresnel_opacity, fresnel_team_color.
	Animated     []string           `json:"animated"`
	ShaderTypeID *uint32            `json:"shader_type_id,omitempty"` // v1100
	Textures     []jsonLayerTexture `json:"textures,omitempty"`       // v1100 slots
}

type jsonLayerTexture struct {
	TextureID uint32 `json:"texture_id"`
	Slot      uint32 `json:"slot"`
	SlotName  string `json:"slot_name"`
	Animated  bool   `json:"animated"`
}

type jsonGeoset struct {
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

// jsonNode is one node in Model.Nodes order; the tree follows parent_id.
type jsonNode struct {
	Type      string   `json:"type"` // bone, light, helper, attachment, ...
	Name      string   `json:"name"`
	ObjectID  int32    `json:"object_id"`
	ParentID  int32    `json:"parent_id"` // -1 = root
	Flags     uint32   `json:"flags"`
	FlagNames []string `json:"flag_names"`
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

type jsonUnknownChunk struct {
	Tag   string `json:"tag"`
	Bytes int    `json:"bytes"`
}

// summarize gathers everything inspect shows from a decoded model.
func summarize(path, format string, size int64, m *mdx.Model) *inspectReport {
	r := &inspectReport{
		File: path, Format: format, Bytes: size, Version: m.Version,
		Name: m.Name, AnimationFile: m.AnimationFile, BlendTime: m.BlendTime,
		Extent:          extentOf(m.Extent),
		GlobalSequences: append([]uint32{}, m.GlobalSequences...),
		Sequences:       []jsonSequence{}, Textures: []jsonTexture{}, Materials: []jsonMaterial{},
		Geosets: []jsonGeoset{}, Cameras: []string{}, UnknownChunks: []jsonUnknownChunk{},
	}
	c := &inspectCounts{
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
		js := jsonSequence{
			Name: s.Name, Interval: s.Interval,
			Length:  int64(s.Interval[1]) - int64(s.Interval[0]),
			Looping: !s.NonLooping(), MoveSpeed: jf(s.MoveSpeed), Rarity: jf(s.Rarity), Flags: s.Flags,
		}
		if wow {
			f, rp, bt := jf(s.Frequency), s.Replay, s.BlendTime
			js.Frequency, js.Replay, js.BlendTime = &f, &rp, &bt
		}
		r.Sequences = append(r.Sequences, js)
	}
	for _, t := range m.Textures {
		r.Textures = append(r.Textures, jsonTexture{
			Path: t.Path, ReplaceableID: t.ReplaceableID, Replaceable: replaceableName(m.Version, t.ReplaceableID),
			Flags: t.Flags, FlagNames: flagNames(t.Flags, textureFlags),
		})
	}
	for _, mt := range m.Materials {
		jm := jsonMaterial{PriorityPlane: mt.PriorityPlane, Flags: mt.Flags, FlagNames: flagNames(mt.Flags, materialFlags), Shader: mt.Shader, Layers: []jsonLayer{}}
		for i := range mt.Layers {
			jm.Layers = append(jm.Layers, layerOf(&mt.Layers[i], m.Version))
		}
		c.Layers += len(mt.Layers)
		r.Materials = append(r.Materials, jm)
	}
	for i := range m.Geosets {
		g := &m.Geosets[i]
		c.Vertices += len(g.Vertices)
		c.FaceIndices += len(g.Faces)
		c.Faces += len(g.Faces) / 3
		jg := jsonGeoset{
			Vertices: len(g.Vertices), Faces: len(g.Faces) / 3, MaterialID: g.MaterialID,
			UVSets: len(g.UVSets), MatrixGroups: len(g.MatrixGroups), Skinned: g.Skin != nil,
			LOD: g.LOD, LODName: g.LODName,
		}
		if wow {
			sg, bw := g.SelectionGroup, len(g.BoneWeights)
			jg.SelectionGroup, jg.BoneWeights = &sg, &bw
			if len(g.Skin) == 8*len(g.Vertices) {
				multi, most := 0, 0
				for v := 0; v < len(g.Vertices); v++ {
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
		}
		r.Geosets = append(r.Geosets, jg)
	}
	r.Nodes = nodesOf(m)
	c.Nodes = len(r.Nodes)
	r.tree = buildTree(r.Nodes)
	for _, cam := range m.Cameras {
		r.Cameras = append(r.Cameras, cam.Name)
	}
	for _, u := range m.Unknown {
		r.UnknownChunks = append(r.UnknownChunks, jsonUnknownChunk{Tag: u.Tag, Bytes: len(u.Data)})
	}
	if err := m.Validate(); err != nil {
		r.Problem = err.Error()
	}
	return r
}

func extentOf(e mdx.Extent) *jsonExtent {
	return &jsonExtent{
		Min:          [3]jf{jf(e.Min[0]), jf(e.Min[1]), jf(e.Min[2])},
		Max:          [3]jf{jf(e.Max[0]), jf(e.Max[1]), jf(e.Max[2])},
		BoundsRadius: jf(e.BoundsRadius),
	}
}

func layerOf(l *mdx.Layer, version uint32) jsonLayer {
	names := layerFlags
	if mdx.IsWoWVersion(version) {
		names = wowLayerFlags
	}
	jl := jsonLayer{
		FilterMode: l.FilterMode.String(), Flags: l.Flags, FlagNames: flagNames(l.Flags, names),
		TextureID: l.TextureID, TextureAnimID: l.TextureAnimID, CoordID: l.CoordID, Alpha: jf(l.Alpha),
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
		for _, t := range l.Textures {
			jl.Textures = append(jl.Textures, jsonLayerTexture{
				TextureID: t.TextureID, Slot: t.Slot, SlotName: slotName(t.Slot), Animated: t.TextureIDTrack != nil,
			})
		}
	}
	return jl
}

// nodesOf lists the nodes in Model.Nodes order (bones, lights, helpers,
// attachments, emitters, ribbons, events, collision shapes).
func nodesOf(m *mdx.Model) []jsonNode {
	out := []jsonNode{}
	base := func(typ string, n *mdx.Node, vis bool) jsonNode {
		j := jsonNode{Type: typ, Name: n.Name, ObjectID: n.ObjectID, ParentID: n.ParentID, Flags: n.Flags,
			FlagNames: nodeFlagNames(typ, n.Flags), Animated: []string{}}
		for _, a := range []struct {
			ok   bool
			name string
		}{{n.Translation != nil, "translation"}, {n.Rotation != nil, "rotation"}, {n.Scaling != nil, "scaling"}, {vis, "visibility"}} {
			if a.ok {
				j.Animated = append(j.Animated, a.name)
			}
		}
		return j
	}
	for i := range m.Bones {
		out = append(out, base("bone", &m.Bones[i].Node, false))
	}
	for i := range m.Lights {
		l := &m.Lights[i]
		j := base("light", &l.Node, l.Visibility != nil)
		j.LightType = l.Type.String()
		out = append(out, j)
	}
	for i := range m.Helpers {
		out = append(out, base("helper", &m.Helpers[i].Node, false))
	}
	for i := range m.Attachments {
		a := &m.Attachments[i]
		j := base("attachment", &a.Node, a.Visibility != nil)
		j.Path = a.Path
		out = append(out, j)
	}
	for i := range m.ParticleEmitters {
		p := &m.ParticleEmitters[i]
		j := base("particle_emitter", &p.Node, p.Visibility != nil)
		j.Path = p.Path
		out = append(out, j)
	}
	for i := range m.ParticleEmitters2 {
		p := &m.ParticleEmitters2[i]
		j := base("particle_emitter2", &p.Node, p.Visibility != nil)
		tid := p.TextureID
		j.TextureID = &tid
		j.FilterMode = pre2FilterName(p.FilterMode)
		out = append(out, j)
	}
	for i := range m.PopcornEmitters {
		p := &m.PopcornEmitters[i]
		j := base("popcorn_emitter", &p.Node, p.Visibility != nil)
		j.Path = p.Path
		out = append(out, j)
	}
	for i := range m.RibbonEmitters {
		p := &m.RibbonEmitters[i]
		j := base("ribbon_emitter", &p.Node, p.Visibility != nil)
		mid := p.MaterialID
		j.MaterialID = &mid
		out = append(out, j)
	}
	for i := range m.EventObjects {
		e := &m.EventObjects[i]
		j := base("event_object", &e.Node, false)
		nf := len(e.Frames)
		j.EventFrames = &nf
		out = append(out, j)
	}
	for i := range m.CollisionShapes {
		s := &m.CollisionShapes[i]
		j := base("collision_shape", &s.Node, false)
		j.Shape = s.Type.String()
		out = append(out, j)
	}
	return out
}

// maxTreeIndent is the deepest level drawn with tree lines. Real models
// nest about 20 levels.
const maxTreeIndent = 40

// treeLine is one line of the node tree: which node, and the drawing in
// front of its name.
type treeLine struct {
	node   int
	prefix string
}

// buildTree orders the nodes depth-first under their parents (resolved by
// ObjectID; the first node wins when ids repeat). Nodes whose parent does not
// exist, is themselves, or lies on a cycle become roots, with a TreeNote, so
// every node is printed exactly once and a cycle cannot loop.
func buildTree(nodes []jsonNode) []treeLine {
	n := len(nodes)
	first := make(map[int32]int, n)
	for i := range nodes {
		if _, dup := first[nodes[i].ObjectID]; dup {
			nodes[i].TreeNote = "duplicate object id"
			continue
		}
		first[nodes[i].ObjectID] = i
	}
	parent := make([]int, n)
	for i := range nodes {
		parent[i] = -1
		pid := nodes[i].ParentID
		if pid == -1 {
			continue
		}
		p, ok := first[pid]
		switch {
		case !ok:
			nodes[i].TreeNote = joinNote(nodes[i].TreeNote, fmt.Sprintf("parent %d not found", pid))
		case p == i:
			nodes[i].TreeNote = joinNote(nodes[i].TreeNote, "parent is itself")
		default:
			parent[i] = p
		}
	}
	children := make([][]int, n)
	for i, p := range parent {
		if p >= 0 {
			children[p] = append(children[p], i)
		}
	}
	visited := make([]bool, n)
	var lines []treeLine
	walk := func(root int) {
		visited[root] = true
		lines = append(lines, treeLine{node: root})
		type item struct {
			node   int
			depth  int
			indent string // drawing in front of the node's branch
			last   bool
		}
		// An explicit stack keeps deep (hostile) hierarchies off the Go stack.
		var stack []item
		push := func(of, depth int, indent string) {
			kids := children[of]
			for k := len(kids) - 1; k >= 0; k-- {
				if !visited[kids[k]] {
					stack = append(stack, item{node: kids[k], depth: depth, indent: indent, last: k == len(kids)-1})
				}
			}
		}
		push(root, 1, "")
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[it.node] {
				continue
			}
			visited[it.node] = true
			branch, more := "├─ ", "│  "
			if it.last {
				branch, more = "└─ ", "   "
			}
			if it.depth > maxTreeIndent {
				// Past this depth the drawing stops growing (a hostile chain
				// would make the output quadratic) and shows the depth.
				lines = append(lines, treeLine{node: it.node, prefix: it.indent + "[" + strconv.Itoa(it.depth) + "] "})
				push(it.node, it.depth+1, it.indent)
				continue
			}
			lines = append(lines, treeLine{node: it.node, prefix: it.indent + branch})
			push(it.node, it.depth+1, it.indent+more)
		}
	}
	for i := range nodes {
		if parent[i] < 0 {
			walk(i)
		}
	}
	// What is left hangs off a cycle: climb to a node on the cycle and show
	// the cycle from there.
	mark := make([]int, n)
	for i := range nodes {
		if visited[i] {
			continue
		}
		j := i
		for mark[j] != i+1 {
			mark[j] = i + 1
			j = parent[j]
		}
		nodes[j].TreeNote = joinNote(nodes[j].TreeNote, "parent cycle")
		walk(j)
	}
	return lines
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

type flagName struct {
	bit  uint32
	name string
}

var (
	textureFlags  = []flagName{{mdx.TexWrapWidth, "WrapWidth"}, {mdx.TexWrapHeight, "WrapHeight"}}
	materialFlags = []flagName{{mdx.MatConstantColor, "ConstantColor"}, {mdx.MatSortPrimsNearZ, "SortPrimsNearZ"},
		{mdx.MatSortPrimsFarZ, "SortPrimsFarZ"}, {mdx.MatFullResolution, "FullResolution"}}
	layerFlags = []flagName{{mdx.LayerUnshaded, "Unshaded"}, {mdx.LayerSphereEnvMap, "SphereEnvMap"},
		{mdx.LayerTwoSided, "TwoSided"}, {mdx.LayerUnfogged, "Unfogged"}, {mdx.LayerNoDepthTest, "NoDepthTest"},
		{mdx.LayerNoDepthSet, "NoDepthSet"}, {mdx.LayerUnlit, "Unlit"}}
	// WoW v1300+ reuses 0x100 and gives 0x4 and 0x8 meanings.
	wowLayerFlags = []flagName{{mdx.LayerUnshaded, "Unshaded"}, {mdx.LayerSphereEnvMap, "SphereEnvMap"},
		{mdx.WoWLayerWrapWidth, "WrapWidth"}, {mdx.WoWLayerWrapHeight, "WrapHeight"},
		{mdx.LayerTwoSided, "TwoSided"}, {mdx.LayerUnfogged, "Unfogged"}, {mdx.LayerNoDepthTest, "NoDepthTest"},
		{mdx.LayerNoDepthSet, "NoDepthSet"}, {mdx.WoWLayerNoFallback, "NoFallback"}}
	nodeFlagsCommon = []flagName{{mdx.NodeDontInheritTranslation, "DontInheritTranslation"},
		{mdx.NodeDontInheritScaling, "DontInheritScaling"}, {mdx.NodeDontInheritRotation, "DontInheritRotation"},
		{mdx.NodeBillboarded, "Billboarded"}, {mdx.NodeBillboardedLockX, "BillboardedLockX"},
		{mdx.NodeBillboardedLockY, "BillboardedLockY"}, {mdx.NodeBillboardedLockZ, "BillboardedLockZ"},
		{mdx.NodeCameraAnchored, "CameraAnchored"}}
	// The type bits restate the node's kind; the one matching its own
	// type is left out of the names.
	nodeTypeBits = []struct {
		flagName
		typ string
	}{{flagName{mdx.NodeBone, "Bone"}, "bone"}, {flagName{mdx.NodeLight, "Light"}, "light"},
		{flagName{mdx.NodeEventObject, "EventObject"}, "event_object"}, {flagName{mdx.NodeAttachment, "Attachment"}, "attachment"},
		{flagName{mdx.NodeParticleEmitter, "ParticleEmitter"}, "particle_emitter|particle_emitter2"},
		{flagName{mdx.NodeCollisionShape, "CollisionShape"}, "collision_shape"},
		{flagName{mdx.NodeRibbonEmitter, "RibbonEmitter"}, "ribbon_emitter"}}
	premFlags = []flagName{{mdx.NodeEmitterUsesMDL, "EmitterUsesMDL"}, {mdx.NodeEmitterUsesTGA, "EmitterUsesTGA"}}
	pre2Flags = []flagName{{mdx.NodeUnshaded, "Unshaded"}, {mdx.NodeSortPrimsFarZ, "SortPrimsFarZ"},
		{mdx.NodeLineEmitter, "LineEmitter"}, {mdx.NodeUnfogged, "Unfogged"}, {mdx.NodeModelSpace, "ModelSpace"},
		{mdx.NodeXYQuad, "XYQuad"}}
)

// flagNames names the set bits; bits without a name appear as hex.
func flagNames(v uint32, names []flagName) []string {
	var out []string
	for _, f := range names {
		if v&f.bit != 0 {
			out = append(out, f.name)
			v &^= f.bit
		}
	}
	if v != 0 {
		out = append(out, fmt.Sprintf("%#x", v))
	}
	if out == nil {
		out = []string{} // JSON [] rather than null
	}
	return out
}

func nodeFlagNames(typ string, v uint32) []string {
	names := append([]flagName(nil), nodeFlagsCommon...)
	for _, t := range nodeTypeBits {
		if v&t.bit != 0 && strings.Contains("|"+t.typ+"|", "|"+typ+"|") {
			v &^= t.bit // implied by the type
			continue
		}
		names = append(names, t.flagName)
	}
	switch typ {
	case "particle_emitter":
		names = append(names, premFlags...)
	case "particle_emitter2":
		names = append(names, pre2Flags...)
	}
	return flagNames(v, names)
}

func pre2FilterName(f uint32) string {
	names := [...]string{"Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"}
	if int(f) < len(names) {
		return names[f]
	}
	return "FilterMode(" + strconv.FormatUint(uint64(f), 10) + ")"
}

// replaceableName says what a TEXS replaceable id stands for
// (RENDERING.md §5.4); WoW files number them differently.
func replaceableName(version, id uint32) string {
	if mdx.IsWoWVersion(version) {
		if id == 0 {
			return ""
		}
		return mdx.WoWReplaceableName(id)
	}
	switch id {
	case 0:
		return ""
	case 1:
		return "team colour"
	case 2:
		return "team glow"
	case 11:
		return "cliff"
	case 21:
		return "cursor"
	case 31:
		return "Lordaeron tree"
	case 32:
		return "Ashenvale tree"
	case 33:
		return "Barrens tree"
	case 34:
		return "Northrend tree"
	case 35:
		return "mushroom tree"
	case 36:
		return "ruins tree"
	case 37:
		return "Outland mushroom tree"
	}
	return "unknown"
}

func slotName(s uint32) string {
	names := [...]string{"Diffuse", "Normal", "ORM", "Emissive", "TeamColor", "Reflections"}
	if int(s) < len(names) {
		return names[s]
	}
	return ""
}

// fmtF prints a float32 with the fewest digits that read back the same value.
func fmtF(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

func fmtVec(v [3]jf) string {
	return "(" + v[0].String() + ", " + v[1].String() + ", " + v[2].String() + ")"
}

// writeInspectText prints the human-readable summary of one file.
func writeInspectText(out io.Writer, r *inspectReport) error {
	var buf bytes.Buffer
	renderInspectText(&buf, r)
	// tabwriter pads every cell, including the last one of a line.
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	var trimmed bytes.Buffer
	for _, l := range lines {
		body := bytes.TrimRight(l, " \n")
		trimmed.Write(body)
		if len(l) > 0 && l[len(l)-1] == '\n' {
			trimmed.WriteByte('\n')
		}
	}
	_, err := out.Write(trimmed.Bytes())
	return err
}

func renderInspectText(w *bytes.Buffer, r *inspectReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	section := func(title string) {
		tw.Flush()
		fmt.Fprintf(w, "\n%s\n", title)
	}
	c := r.Counts

	fmt.Fprintf(w, "%s\n", r.File)
	if r.M2 != nil {
		p("  format\tM2 (MD20), version %d, %d bytes; drawn as WoW MDX version %d\n", r.M2.Version, r.Bytes, r.Version)
	} else {
		p("  format\t%s, version %d, %d bytes\n", strings.ToUpper(r.Format), r.Version, r.Bytes)
	}
	p("  name\t%s\n", quoteIfOdd(r.Name))
	if r.AnimationFile != "" {
		p("  animation file\t%s\n", r.AnimationFile)
	}
	p("  blend time\t%d ms\n", r.BlendTime)
	e := r.Extent
	p("  extent\tmin %s  max %s  radius %s\n", fmtVec(e.Min), fmtVec(e.Max), e.BoundsRadius)
	if r.Problem != "" {
		p("  problem\t%s\n", r.Problem)
	}
	if m := r.M2; m != nil {
		p("  m2 view\t%d of %d (0 is the most detailed): %d texture units; %d of %d submeshes have one and are drawn\n",
			m.View, m.Views, m.TextureUnits, m.SubmeshesDrawn, m.Submeshes)
		p("  m2 vertices\t%d in the file, %d weighted to more than one bone\n", m.Vertices, m.BoneWeighted)
		var nd []string
		for _, k := range []string{"lights", "attachments", "ribbon_emitters", "particle_emitters"} {
			if n := m.NotDrawn[k]; n > 0 {
				nd = append(nd, fmt.Sprintf("%d %s", n, strings.ReplaceAll(k, "_", " ")))
			}
		}
		if len(nd) > 0 {
			p("  m2 not drawn\t%s\n", strings.Join(nd, ", "))
		}
	}

	section("Counts")
	type kv struct {
		k string
		v int
	}
	all := []kv{
		{"geosets", c.Geosets}, {"vertices", c.Vertices}, {"faces", c.Faces},
		{"materials", c.Materials}, {"layers", c.Layers}, {"textures", c.Textures},
		{"texture anims", c.TextureAnims}, {"geoset anims", c.GeosetAnims},
		{"sequences", c.Sequences}, {"global seqs", c.GlobalSequences},
		{"nodes", c.Nodes}, {"bones", c.Bones}, {"helpers", c.Helpers}, {"attachments", c.Attachments},
		{"lights", c.Lights}, {"emitters", c.ParticleEmitters}, {"emitters 2", c.ParticleEmitters2},
		{"popcorn", c.PopcornEmitters}, {"ribbons", c.RibbonEmitters}, {"event objects", c.EventObjects},
		{"collision", c.CollisionShapes}, {"cameras", c.Cameras}, {"pivot points", c.PivotPoints},
		{"face effects", c.FaceEffects}, {"bind poses", c.BindPoses}, {"sound tracks", c.SoundTracks},
		{"unknown chunks", c.UnknownChunks},
	}
	// Zero counts of the rarer chunks are noise; the first row always shows.
	var shown []kv
	for i, x := range all {
		if i < 6 || x.v != 0 {
			shown = append(shown, x)
		}
	}
	for i, x := range shown {
		if i%4 == 0 {
			p(" ")
		}
		p(" %s\t%d\t", x.k, x.v)
		if i%4 == 3 || i == len(shown)-1 {
			p("\n")
		}
	}

	if len(r.Sequences) > 0 {
		section(fmt.Sprintf("Sequences (%d)", len(r.Sequences)))
		wow := len(r.Sequences) > 0 && r.Sequences[0].Frequency != nil
		if wow {
			p("  #\tname\tstart\tend\tlength\tplay\tmove speed\tfrequency\treplay\tblend\n")
		} else {
			p("  #\tname\tstart\tend\tlength\tplay\tmove speed\trarity\n")
		}
		for i, s := range r.Sequences {
			play := "loop"
			if !s.Looping {
				play = "once"
			}
			p("  %d\t%s\t%d\t%d\t%d\t%s\t%s\t", i, quoteIfOdd(s.Name), s.Interval[0], s.Interval[1], s.Length, play, s.MoveSpeed)
			if wow && s.Frequency != nil && s.Replay != nil && s.BlendTime != nil {
				p("%s\t%d-%d\t%d ms\n", *s.Frequency, s.Replay[0], s.Replay[1], *s.BlendTime)
			} else {
				p("%s\n", s.Rarity)
			}
		}
	}
	if len(r.GlobalSequences) > 0 {
		section(fmt.Sprintf("Global sequences (%d)", len(r.GlobalSequences)))
		for i, d := range r.GlobalSequences {
			p("  %d\t%d ms\n", i, d)
		}
	}
	if len(r.Textures) > 0 {
		section(fmt.Sprintf("Textures (%d)", len(r.Textures)))
		for i, t := range r.Textures {
			what := quoteIfOdd(t.Path)
			if t.ReplaceableID != 0 {
				rep := fmt.Sprintf("replaceable %d (%s)", t.ReplaceableID, t.Replaceable)
				if t.Path == "" {
					what = rep
				} else {
					what += "  " + rep
				}
			}
			p("  %d\t%s\t%s\n", i, what, strings.Join(t.FlagNames, ","))
		}
	}
	if len(r.Materials) > 0 {
		section(fmt.Sprintf("Materials (%d)", len(r.Materials)))
		for i, mt := range r.Materials {
			p("  %d\tpriority %d", i, mt.PriorityPlane)
			if len(mt.FlagNames) > 0 {
				p("  %s", strings.Join(mt.FlagNames, ","))
			}
			if mt.Shader != "" {
				p("  shader %s", mt.Shader)
			}
			if len(mt.Layers) == 0 {
				p("  (no layers)")
			}
			p("\n")
			for j, l := range mt.Layers {
				p("\t  layer %d\t%s\ttexture %d", j, l.FilterMode, l.TextureID)
				if l.TextureAnimID >= 0 {
					p("  tex anim %d", l.TextureAnimID)
				}
				if l.CoordID != 0 {
					p("  uv %d", l.CoordID)
				}
				p("\talpha %s", l.Alpha)
				if len(l.FlagNames) > 0 {
					p("  %s", strings.Join(l.FlagNames, ","))
				}
				if len(l.Animated) > 0 {
					p("  animated: %s", strings.Join(l.Animated, ","))
				}
				if l.ShaderTypeID != nil {
					hd := "SD"
					if *l.ShaderTypeID == 1 {
						hd = "HD"
					} else if *l.ShaderTypeID != 0 {
						hd = fmt.Sprintf("shader type %d", *l.ShaderTypeID)
					}
					p("  %s", hd)
					for _, t := range l.Textures {
						name := t.SlotName
						if name == "" {
							name = fmt.Sprintf("slot %d", t.Slot)
						}
						p("  %s=%d", name, t.TextureID)
						if t.Animated {
							p("(animated)")
						}
					}
				}
				p("\n")
			}
		}
	}
	if len(r.Geosets) > 0 {
		section(fmt.Sprintf("Geosets (%d)", len(r.Geosets)))
		p("  #\tvertices\tfaces\tmaterial\tuv sets\tgroups\t\n")
		for i, g := range r.Geosets {
			p("  %d\t%d\t%d\t%d\t%d\t%d\t", i, g.Vertices, g.Faces, g.MaterialID, g.UVSets, g.MatrixGroups)
			if g.Skinned {
				p("skinned  ")
			}
			if g.SelectionGroup != nil {
				p("group %04d  ", *g.SelectionGroup)
			}
			if g.BoneWeights != nil && *g.BoneWeights > 0 {
				p("BIDX/BWGT %d (unused)  ", *g.BoneWeights)
			}
			if g.MultiBone != nil && g.MaxBones != nil {
				p("%d blended, up to %d bones  ", *g.MultiBone, *g.MaxBones)
			}
			if r.Version >= 900 && !mdx.IsWoWVersion(r.Version) {
				p("lod %d", g.LOD)
				if g.LODName != "" {
					p(" %s", quoteIfOdd(g.LODName))
				}
			}
			p("\n")
		}
	}
	if len(r.Nodes) > 0 {
		section(fmt.Sprintf("Nodes (%d): tree by parent; id, type, animated tracks (T R S V), flags", len(r.Nodes)))
		for _, tl := range r.tree {
			nd := &r.Nodes[tl.node]
			p("  %s%s\t%d\t%s\t%s\t%s\n", tl.prefix, quoteIfOdd(nd.Name), nd.ObjectID, nodeTypeLabel(nd), animLetters(nd.Animated), nodeDetail(nd))
		}
	}
	if len(r.Cameras) > 0 {
		section(fmt.Sprintf("Cameras (%d)", len(r.Cameras)))
		for i, name := range r.Cameras {
			p("  %d\t%s\n", i, quoteIfOdd(name))
		}
	}
	if len(r.UnknownChunks) > 0 {
		section(fmt.Sprintf("Unknown chunks (%d), kept as raw bytes", len(r.UnknownChunks)))
		for _, u := range r.UnknownChunks {
			p("  %s\t%d bytes\n", quoteIfOdd(u.Tag), u.Bytes)
		}
	}
	tw.Flush()
}

func nodeTypeLabel(n *jsonNode) string {
	s := strings.ReplaceAll(n.Type, "_", " ")
	switch n.Type {
	case "light":
		s += " " + n.LightType
	case "collision_shape":
		s += " " + n.Shape
	}
	return s
}

// animLetters abbreviates the animated tracks of a node as T R S V.
func animLetters(a []string) string {
	var b strings.Builder
	for _, s := range a {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(strings.ToUpper(s[:1])[0])
	}
	return b.String()
}

func nodeDetail(n *jsonNode) string {
	var parts []string
	if n.TreeNote != "" {
		parts = append(parts, "("+n.TreeNote+")")
	}
	if n.Path != "" {
		parts = append(parts, quoteIfOdd(n.Path))
	}
	if n.TextureID != nil {
		parts = append(parts, fmt.Sprintf("texture %d %s", *n.TextureID, n.FilterMode))
	}
	if n.MaterialID != nil {
		parts = append(parts, fmt.Sprintf("material %d", *n.MaterialID))
	}
	if n.EventFrames != nil {
		parts = append(parts, fmt.Sprintf("%d frames", *n.EventFrames))
	}
	if len(n.FlagNames) > 0 {
		parts = append(parts, strings.Join(n.FlagNames, ","))
	}
	return strings.Join(parts, "  ")
}

// quoteIfOdd quotes names that would otherwise be invisible or break the
// layout (empty, surrounding spaces, control characters, tabs).
func quoteIfOdd(s string) string {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffd }) {
		return strconv.Quote(s)
	}
	return s
}
