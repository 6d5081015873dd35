package m2

import (
	"fmt"
	"math"
	"sort"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Model converts the file, drawn with view (0 is the most detailed), into
// an mdx.Model with Version 1500. The package doc lists the mapping.
// Submeshes no texture unit draws are left out, as the game does.
func (f *File) Model(view int) (*mdx.Model, error) {
	if view < 0 || view >= len(f.Views) {
		return nil, &FormatError{Offset: int64(f.Header.Views.Offset), Block: "views", Reason: fmt.Sprintf("view %d of %d", view, len(f.Views))}
	}
	h := &f.Header
	m := &mdx.Model{Version: 1500, Name: f.Name,
		Extent:          mdx.Extent{BoundsRadius: h.VertexRadius, Min: h.VertexBox[0], Max: h.VertexBox[1]},
		GlobalSequences: append([]uint32(nil), f.GlobalSequences...)}

	for _, s := range f.Sequences {
		m.Sequences = append(m.Sequences, mdx.Sequence{
			Name:      SequenceName(s.ID, s.SubID),
			Interval:  [2]uint32{s.Start, s.End},
			MoveSpeed: s.MoveSpeed,
			Extent:    mdx.Extent{BoundsRadius: s.Radius, Min: s.BoxMin, Max: s.BoxMax},
			Frequency: float32(s.Frequency) / 32767,
			Replay:    s.Replay,
			BlendTime: s.BlendTime,
		})
	}

	for i := range f.Bones {
		b := &f.Bones[i]
		m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{
			Name:     fmt.Sprintf("Bone%d", i),
			ObjectID: int32(i),
			ParentID: int32(b.Parent),
			// The inherit (0x1-0x4) and billboard (0x8-0x40) bits are the
			// MDX node bits.
			Flags:       b.Flags&0x7F | mdx.NodeBone,
			Translation: track(b.Translation, same[mdx.Vec3]),
			Rotation:    track(b.Rotation, same[mdx.Quat]),
			Scaling:     track(b.Scaling, same[mdx.Vec3]),
		}, GeosetID: -1, GeosetAnimID: -1})
		m.PivotPoints = append(m.PivotPoints, b.Pivot)
	}

	for _, t := range f.Textures {
		m.Textures = append(m.Textures, mdx.Texture{ReplaceableID: t.Type, Path: t.Filename, Flags: t.Flags & 3})
	}
	for _, a := range f.TextureAnims {
		m.TextureAnims = append(m.TextureAnims, mdx.TextureAnim{
			Translation: track(a.Translation, same[mdx.Vec3]),
			Rotation:    track(a.Rotation, same[mdx.Quat]),
			Scaling:     track(a.Scaling, same[mdx.Vec3]),
		})
	}

	for i := range f.Cameras {
		c := &f.Cameras[i]
		m.Cameras = append(m.Cameras, mdx.Camera{
			Name:     cameraName(c.Type, i),
			Position: c.PositionBase, TargetPosition: c.TargetBase,
			FieldOfView: c.FieldOfView, FarClip: c.FarClip, NearClip: c.NearClip,
			Translation:       track(c.Position, same[mdx.Vec3]),
			TargetTranslation: track(c.Target, same[mdx.Vec3]),
			Rotation:          track(c.Roll, same[float32]),
		})
	}

	v := &f.Views[view]
	for k := range v.Submeshes {
		var units []TexUnit
		for _, u := range v.TexUnits {
			if int(u.Submesh) == k {
				units = append(units, u)
			}
		}
		if len(units) == 0 {
			continue
		}
		sort.SliceStable(units, func(a, b int) bool { return units[a].MaterialLayer < units[b].MaterialLayer })
		g, err := f.geoset(v, view, k)
		if err != nil {
			return nil, err
		}
		mat, err := f.material(units, view, k)
		if err != nil {
			return nil, err
		}
		g.MaterialID = uint32(len(m.Materials))
		m.Materials = append(m.Materials, mat)
		if c := units[0].ColorIndex; c >= 0 && int(c) < len(f.Colors) {
			m.GeosetAnims = append(m.GeosetAnims, colorAnim(&f.Colors[c], int32(len(m.Geosets))))
		}
		m.Geosets = append(m.Geosets, g)
	}
	f.convertEmitters(m)
	return m, nil
}

func (f *File) geoset(v *View, view, k int) (mdx.Geoset, error) {
	s := &v.Submeshes[k]
	blk := fmt.Sprintf("view %d submesh %d", view, k)
	nv := int(s.VertexCount)
	g := mdx.Geoset{
		Vertices: make([]mdx.Vec3, nv), Normals: make([]mdx.Vec3, nv), Skin: make([]byte, 8*nv),
		UVSets:         [][]mdx.Vec2{make([]mdx.Vec2, nv), make([]mdx.Vec2, nv)},
		SelectionGroup: uint32(s.ID),
	}
	for j := 0; j < nv; j++ {
		vx := &f.Vertices[v.Indices[int(s.VertexStart)+j]]
		g.Vertices[j] = vx.Position
		g.Normals[j] = vx.Normal
		copy(g.Skin[8*j:], vx.BoneIndices[:])
		copy(g.Skin[8*j+4:], vx.BoneWeights[:])
		g.UVSets[0][j], g.UVSets[1][j] = vx.UV[0], vx.UV[1]
	}
	first := s.TriangleFirst()
	g.Faces = make([]uint16, s.TriangleCount)
	for j := range g.Faces {
		t := int(v.Triangles[first+j]) - int(s.VertexStart)
		if t < 0 || t >= nv {
			return g, &FormatError{Offset: int64(f.Header.Views.Offset) + 44*int64(view), Block: blk,
				Reason: fmt.Sprintf("triangle index %d (entry %d) is outside the submesh's vertices %d..%d", v.Triangles[first+j], first+j, s.VertexStart, int(s.VertexStart)+nv-1)}
		}
		g.Faces[j] = uint16(t)
	}
	g.FaceTypes = []uint32{4}
	g.FaceGroups = []uint32{uint32(len(g.Faces))}
	lo, hi := box(g.Vertices)
	r := float32(0)
	c := mdx.Vec3{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	for _, p := range g.Vertices {
		d := (p[0]-c[0])*(p[0]-c[0]) + (p[1]-c[1])*(p[1]-c[1]) + (p[2]-c[2])*(p[2]-c[2])
		r = max(r, d)
	}
	g.Extent = mdx.Extent{BoundsRadius: sqrt32(r), Min: lo, Max: hi}
	return g, nil
}

// FilterMode maps an M2 blend mode onto the MDX filter mode the raster
// draws it with. The numbering is the same (M2 kept the MDX texture ops);
// modes beyond Mod2x, which pre-Wrath files do not use, draw as Blend.
func FilterMode(blend uint16) mdx.FilterMode {
	switch blend {
	case BlendOpaque:
		return mdx.FilterNone
	case BlendAlphaKey:
		return mdx.FilterTransparent
	case BlendAlpha:
		return mdx.FilterBlend
	case BlendAdd:
		return mdx.FilterAdditive
	case BlendAddAlpha:
		return mdx.FilterAddAlpha
	case BlendMod:
		return mdx.FilterModulate
	case BlendMod2x:
		return mdx.FilterModulate2x
	}
	return mdx.FilterBlend
}

// LayerFlags maps M2 render flags onto MDX layer shading flags.
func LayerFlags(flags uint16) uint32 {
	var l uint32
	if flags&RenderUnlit != 0 {
		l |= mdx.LayerUnshaded
	}
	if flags&RenderUnfogged != 0 {
		l |= mdx.LayerUnfogged
	}
	if flags&RenderTwoSided != 0 {
		l |= mdx.LayerTwoSided
	}
	if flags&RenderNoDepthWrite != 0 {
		l |= mdx.LayerNoDepthSet
	}
	if flags&RenderNoDepthTest != 0 {
		l |= mdx.LayerNoDepthTest
	}
	return l
}

func (f *File) material(units []TexUnit, view, k int) (mdx.Material, error) {
	mat := mdx.Material{PriorityPlane: int32(units[0].PriorityPlane)}
	for i, u := range units {
		blk := fmt.Sprintf("view %d submesh %d texture unit %d", view, k, i)
		bad := func(format string, args ...any) error {
			return &FormatError{Offset: int64(f.Header.Views.Offset) + 44*int64(view), Block: blk, Reason: fmt.Sprintf(format, args...)}
		}
		if int(u.RenderFlags) >= len(f.RenderFlags) {
			return mat, bad("render flags %d of %d", u.RenderFlags, len(f.RenderFlags))
		}
		rf := f.RenderFlags[u.RenderFlags]
		if int(u.TextureCombo) >= len(f.TextureLookup) || int(f.TextureLookup[u.TextureCombo]) >= len(f.Textures) {
			return mat, bad("texture combo %d does not name one of the %d textures", u.TextureCombo, len(f.Textures))
		}
		l := mdx.Layer{
			FilterMode:    FilterMode(rf.Blend),
			Flags:         LayerFlags(rf.Flags),
			TextureID:     int32(f.TextureLookup[u.TextureCombo]),
			TextureAnimID: -1,
			Alpha:         1,
		}
		if int(u.CoordCombo) < len(f.TexUnitLookup) {
			switch c := f.TexUnitLookup[u.CoordCombo]; {
			case c == 0xFFFF:
				l.Flags |= mdx.LayerSphereEnvMap
			case c < 2:
				l.CoordID = uint32(c)
			}
		}
		if int(u.TextureAnim) < len(f.TextureAnimLookup) {
			if a := f.TextureAnimLookup[u.TextureAnim]; a >= 0 && int(a) < len(f.TextureAnims) {
				l.TextureAnimID = int32(a)
			}
		}
		if int(u.Transparency) < len(f.TransparencyLookup) {
			if t := f.TransparencyLookup[u.Transparency]; int(t) < len(f.Transparency) {
				l.AlphaTrack = track(f.Transparency[t], unfix)
				if l.AlphaTrack != nil && l.AlphaTrack.GlobalSeqID < 0 && len(l.AlphaTrack.Keys) > 0 {
					l.Alpha = l.AlphaTrack.Keys[0].Value
				}
			}
		}
		mat.Layers = append(mat.Layers, l)
	}
	return mat, nil
}

// colorAnim turns an M2 colour (RGB, 0..1) into a GeosetAnim, whose colours
// are in MDX order (blue, green, red).
func colorAnim(c *Color, geoset int32) mdx.GeosetAnim {
	ga := mdx.GeosetAnim{GeosetID: geoset, Alpha: 1, Color: mdx.Vec3{1, 1, 1},
		ColorTrack: track(c.Color, bgr), AlphaTrack: track(c.Alpha, unfix)}
	if ga.ColorTrack != nil {
		ga.Flags |= mdx.GeoaUseColor
		if len(ga.ColorTrack.Keys) > 0 {
			ga.Color = ga.ColorTrack.Keys[0].Value
		}
	}
	if ga.AlphaTrack != nil && len(ga.AlphaTrack.Keys) > 0 {
		ga.Alpha = ga.AlphaTrack.Keys[0].Value
	}
	return ga
}

// cameraName names a camera by its type: the portrait and character-info
// cameras the game looks for, or "Camera<i>" (type -1, e.g. the login
// screen scenes' cameras).
func cameraName(typ int32, i int) string {
	switch typ {
	case 0:
		return "Portrait"
	case 1:
		return "CharacterInfo"
	}
	return fmt.Sprintf("Camera%d", i)
}

func same[T any](v T) T        { return v }
func unfix(v int16) float32    { return float32(v) / 32767 }
func bgr(v mdx.Vec3) mdx.Vec3  { return mdx.Vec3{v[2], v[1], v[0]} }
func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }

// track converts an M2 animation block; nil when it has no keys. Ranges are
// not needed: pre-Wrath timestamps are already on the model's single
// timeline that Sequence intervals cut up.
func track[S any, T mdx.TrackValue](t Track[S], conv func(S) T) *mdx.Track[T] {
	if len(t.Times) == 0 {
		return nil
	}
	out := &mdx.Track[T]{Interpolation: mdx.Interpolation(min(t.Interpolation, 3)), GlobalSeqID: int32(t.GlobalSeq),
		Keys: make([]mdx.Key[T], len(t.Times))}
	triples := t.Interpolation > 1 && len(t.Values) == 3*len(t.Times)
	if t.Interpolation > 1 && !triples {
		out.Interpolation = mdx.Linear
	}
	for i, tm := range t.Times {
		k := &out.Keys[i]
		k.Frame = int32(tm)
		if triples {
			k.Value, k.InTan, k.OutTan = conv(t.Values[3*i]), conv(t.Values[3*i+1]), conv(t.Values[3*i+2])
		} else if i < len(t.Values) {
			k.Value = conv(t.Values[i])
		}
	}
	return out
}

func box(vs []mdx.Vec3) (lo, hi mdx.Vec3) {
	if len(vs) == 0 {
		return
	}
	lo, hi = vs[0], vs[0]
	for _, v := range vs[1:] {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
		}
	}
	return
}

// SequenceName names an animation id (AnimationData.dbc's first entries);
// variations after the first get " 2", " 3"...
func SequenceName(id, sub uint16) string {
	names := [...]string{"Stand", "Death", "Spell", "Stop", "Walk", "Run", "Dead", "Rise", "StandWound",
		"CombatWound", "CombatCritical", "ShuffleLeft", "ShuffleRight", "Walkbackwards", "Stun",
		"HandsClosed", "AttackUnarmed", "Attack1H", "Attack2H", "Attack2HL", "ParryUnarmed", "Parry1H",
		"Parry2H", "Parry2HL", "ShieldBlock", "ReadyUnarmed", "Ready1H", "Ready2H", "Ready2HL", "ReadyBow",
		"Dodge", "SpellPrecast", "SpellCast", "SpellCastArea", "NPCWelcome", "NPCGoodbye", "Block",
		"JumpStart", "Jump", "JumpEnd", "Fall", "SwimIdle", "Swim", "SwimLeft", "SwimRight", "SwimBackwards"}
	n := fmt.Sprintf("Anim%d", id)
	if int(id) < len(names) {
		n = names[id]
	}
	if sub > 0 {
		n = fmt.Sprintf("%s %d", n, sub+1)
	}
	return n
}
