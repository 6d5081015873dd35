package mdx

import (
	"bytes"
	"errors"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

func mustMDL(t *testing.T, src string) *Model {
	t.Helper()
	m, err := decodeMDL([]byte(src))
	if err != nil {
		t.Fatalf("DecodeMDL: %v", err)
	}
	checkMDLStable(t, t.Name(), m)
	return m
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestMDLVersionModelSequences(t *testing.T) {
	m := mustMDL(t, `// a comment
Version {
	FormatVersion 800,
}
Model "Footman" {
	NumGeosets 0, // informational
	BlendTime 150,
	MinimumExtent { -1.5, -2, -3 },
	MaximumExtent { 1, 2, 3e2 },
	BoundsRadius 42.25,
	AnimationFile "anim.mdl",
}
Sequences 2 {
	Anim "Stand" {
		Interval { 0, 1000 },
		MoveSpeed 270,
		Rarity 0.5,
		MinimumExtent { -1, -1, -1 },
		BoundsRadius 3,
	}
	Anim "Death" {
		Interval { 1000, 2000 },
		NonLooping,
	}
}
GlobalSequences 2 {
	Duration 100,
	Duration 2500,
}
`)
	eq(t, "Version", m.Version, 800)
	eq(t, "Name", m.Name, "Footman")
	eq(t, "BlendTime", m.BlendTime, 150)
	eq(t, "Extent", m.Extent, Extent{42.25, Vec3{-1.5, -2, -3}, Vec3{1, 2, 300}})
	eq(t, "AnimationFile", m.AnimationFile, "anim.mdl")
	if len(m.Sequences) != 2 {
		t.Fatalf("%d sequences", len(m.Sequences))
	}
	s := m.Sequences[0]
	eq(t, "seq name", s.Name, "Stand")
	eq(t, "interval", s.Interval, [2]uint32{0, 1000})
	eq(t, "move speed", s.MoveSpeed, 270)
	eq(t, "rarity", s.Rarity, 0.5)
	eq(t, "seq extent", s.Extent, Extent{3, Vec3{-1, -1, -1}, Vec3{}})
	eq(t, "looping", s.NonLooping(), false)
	eq(t, "death non-looping", m.Sequences[1].NonLooping(), true)
	eq(t, "global sequences", len(m.GlobalSequences), 2)
	eq(t, "global sequence 1", m.GlobalSequences[1], 2500)
}

func TestMDLTexturesMaterials(t *testing.T) {
	m := mustMDL(t, `Version { FormatVersion 1000 }
Textures 2 {
	Bitmap { Image "a.blp", WrapWidth, WrapHeight, }
	Bitmap { Image "", ReplaceableId 1, }
}
Materials 1 {
	Material {
		ConstantColor,
		SortPrimsFarZ,
		FullResolution,
		PriorityPlane -2,
		Shader "Shader_HD_DefaultUnit",
		Layer {
			FilterMode Additive,
			Unshaded,
			TwoSided,
			Unlit,
			static TextureID 1,
			TVertexAnimId 0,
			CoordId 1,
			Alpha 2 {
				Hermite,
				GlobalSeqId 1,
				0: 0,
					InTan 0.25,
					OutTan 0.75,
				100: 1,
					InTan 1,
					OutTan 1,
			}
			static EmissiveGain 0.5,
			static FresnelColor { 1, 0.5, 0 },
			FresnelOpacity 1 {
				Linear,
				10: 0.3,
			}
			static FresnelTeamColor 0.2,
		}
		Layer {
			FilterMode Modulate2x,
			TextureID 2 {
				DontInterp,
				0: 0,
				50: 1,
			}
		}
	}
}
`)
	eq(t, "texture flags", m.Textures[0].Flags, TexWrapWidth|TexWrapHeight)
	eq(t, "replaceable", m.Textures[1].ReplaceableID, 1)
	mt := m.Materials[0]
	eq(t, "material flags", mt.Flags, uint32(MatConstantColor|MatSortPrimsFarZ|MatFullResolution))
	eq(t, "priority plane", mt.PriorityPlane, -2)
	eq(t, "shader", mt.Shader, "Shader_HD_DefaultUnit")
	l := mt.Layers[0]
	eq(t, "filter", l.FilterMode, FilterAdditive)
	eq(t, "layer flags", l.Flags, uint32(LayerUnshaded|LayerTwoSided|LayerUnlit))
	eq(t, "texture id", l.TextureID, 1)
	eq(t, "tvertex anim", l.TextureAnimID, 0)
	eq(t, "coord id", l.CoordID, 1)
	eq(t, "static alpha default", l.Alpha, 1)
	a := l.AlphaTrack
	if a == nil || len(a.Keys) != 2 {
		t.Fatalf("alpha track %+v", a)
	}
	eq(t, "interp", a.Interpolation, Hermite)
	eq(t, "global seq", a.GlobalSeqID, 1)
	eq(t, "key 0", a.Keys[0], Key[float32]{Frame: 0, Value: 0, InTan: 0.25, OutTan: 0.75})
	eq(t, "key 1 frame", a.Keys[1].Frame, 100)
	eq(t, "emissive", l.EmissiveGain, 0.5)
	eq(t, "fresnel colour (not reversed)", l.FresnelColor, Vec3{1, 0.5, 0})
	eq(t, "fresnel opacity key", l.FresnelOpacityTrack.Keys[0].Value, 0.3)
	eq(t, "fresnel opacity gs", l.FresnelOpacityTrack.GlobalSeqID, -1)
	eq(t, "fresnel team colour", l.FresnelTeamColor, 0.2)
	l2 := mt.Layers[1]
	eq(t, "layer 2 alpha", l2.Alpha, 1)
	eq(t, "layer 2 emissive default in v1000", l2.EmissiveGain, 1)
	eq(t, "layer 2 no texture anim", l2.TextureAnimID, -1)
	if l2.TextureIDTrack == nil || l2.TextureIDTrack.Keys[1].Value != 1 || l2.TextureIDTrack.Interpolation != DontInterp {
		t.Errorf("flipbook track %+v", l2.TextureIDTrack)
	}
}

func TestMDLLayerTextureSlotsV1100(t *testing.T) {
	m := mustMDL(t, `Version { FormatVersion 1100, }
Materials 1 {
	Material {
		Layer {
			FilterMode None,
			Shader "Shader_HD_DefaultUnit",
			static TextureID 0 <= 0,
			static TextureID 3 <= 1,
			TextureID 2 {
				DontInterp,
				0: 3,
				10: 4,
			} <= 1
			static TextureID 5 <= 5,
		}
	}
}
`)
	l := m.Materials[0].Layers[0]
	eq(t, "shader type", l.ShaderTypeID, 1)
	if len(l.Textures) != 3 {
		t.Fatalf("slots %+v", l.Textures)
	}
	eq(t, "slot 1 texture", l.Textures[1].TextureID, 3)
	eq(t, "slot 1", l.Textures[1].Slot, 1)
	eq(t, "slot 2", l.Textures[2].Slot, 5)
	if tr := l.Textures[1].TextureIDTrack; tr == nil || len(tr.Keys) != 2 || tr.Keys[1].Value != 4 {
		t.Errorf("slot track %+v", tr)
	}
	if l.TextureIDTrack != nil {
		t.Error("the slot's track went to the layer")
	}
}

func TestMDLTextureAnimsGeoset(t *testing.T) {
	m := mustMDL(t, `TextureAnims 1 {
	TVertexAnim {
		Translation 1 {
			Linear,
			0: { 0, 0.5, 0 },
		}
		Rotation 1 {
			Bezier,
			0: { 0, 0, 0, 1 },
				InTan { 0, 0, 0, 1 },
				OutTan { 0, 0, 1, 0 },
		}
	}
}
Geoset {
	Vertices 3 {
		{ 0, 0, 0 },
		{ 1, 0, 0 },
		{ 0, 1, 0 },
	}
	Normals 3 { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 }, }
	TVertices 3 { { 0, 0 }, { 1, 0 }, { 0, 1 }, }
	TVertices 3 { { 0.5, 0 }, { 1, 0.5 }, { 0, 1 }, }
	VertexGroup { 0, 0, 1, }
	Tangents 3 { { 1, 0, 0, 1 }, { 1, 0, 0, 1 }, { 1, 0, 0, -1 }, }
	SkinWeights 3 {
		0, 1, 0, 0, 128, 127, 0, 0,
		0, 0, 0, 0, 255, 0, 0, 0,
		1, 0, 0, 0, 255, 0, 0, 0,
	}
	Faces 2 6 {
		Triangles {
			{ 0, 1, 2 },
		}
		Triangles {
			{ 2, 1, 0 },
		}
	}
	Groups 2 3 {
		Matrices { 0 },
		Matrices { 0, 1 },
	}
	MinimumExtent { 0, 0, 0 },
	MaximumExtent { 1, 1, 0 },
	BoundsRadius 1,
	Anim { BoundsRadius 2, }
	Anim { MinimumExtent { -1, -1, -1 }, }
	MaterialID 3,
	SelectionGroup 2,
	Unselectable,
	LevelOfDetail 1,
	Name "Mesh_LOD1",
}
`)
	ta := m.TextureAnims[0]
	eq(t, "txan translation", ta.Translation.Keys[0].Value, Vec3{0, 0.5, 0})
	eq(t, "txan rotation out tan", ta.Rotation.Keys[0].OutTan, Quat{0, 0, 1, 0})
	eq(t, "txan scaling", ta.Scaling == nil, true)
	g := m.Geosets[0]
	eq(t, "vertices", len(g.Vertices), 3)
	eq(t, "vertex 1", g.Vertices[1], Vec3{1, 0, 0})
	eq(t, "UV sets", len(g.UVSets), 2)
	eq(t, "uv 2/0", g.UVSets[1][0], Vec2{0.5, 0})
	eq(t, "groups", string(g.VertexGroups), "\x00\x00\x01")
	eq(t, "tangent 2", g.Tangents[2], Vec4{1, 0, 0, -1})
	eq(t, "skin", len(g.Skin), 24)
	eq(t, "skin 5", g.Skin[5], 127)
	eq(t, "face groups", len(g.FaceGroups), 2)
	eq(t, "face type", g.FaceTypes[1], 4)
	eq(t, "faces", len(g.Faces), 6)
	eq(t, "face 3", g.Faces[3], 2)
	eq(t, "matrix groups", len(g.MatrixGroups), 2)
	eq(t, "matrix group 1", g.MatrixGroups[1], 2)
	eq(t, "matrix indices", len(g.MatrixIndices), 3)
	eq(t, "extent", g.Extent, Extent{1, Vec3{}, Vec3{1, 1, 0}})
	eq(t, "sequence extents", len(g.SequenceExtents), 2)
	eq(t, "sequence extent 1", g.SequenceExtents[1].Min, Vec3{-1, -1, -1})
	eq(t, "material", g.MaterialID, 3)
	eq(t, "selection group", g.SelectionGroup, 2)
	eq(t, "selection flags", g.SelectionFlags, 4)
	eq(t, "lod", g.LOD, 1)
	eq(t, "lod name", g.LODName, "Mesh_LOD1")
}

// TestMDLColourOrder: static colours are B,G,R in MDL (reversed into the
// model's MDX order); animated colour keys are copied unchanged.
func TestMDLColourOrder(t *testing.T) {
	m := mustMDL(t, `GeosetAnim {
	static Alpha 0.5,
	static Color { 0.1, 0.2, 0.3 },
	GeosetId 0,
}
GeosetAnim {
	DropShadow,
	Color 1 {
		Linear,
		0: { 0.1, 0.2, 0.3 },
	}
	GeosetId 1,
}
GeosetAnim {
	GeosetId 2,
}
Light "L" {
	ObjectId 0,
	Directional,
	static AttenuationStart 80,
	static AttenuationEnd 200,
	static Intensity 2,
	static Color { 1, 0, 0 },
	AmbIntensity 1 {
		DontInterp,
		0: 0.5,
	}
	static AmbColor { 0, 0, 1 },
	Visibility 1 {
		DontInterp,
		0: 1,
	}
}
RibbonEmitter "R" {
	ObjectId 1,
	static HeightAbove 10,
	static HeightBelow 5,
	static Alpha 1,
	static Color { 0.25, 0.5, 0.75 },
	static TextureSlot 0,
	EmissionRate 30,
	LifeSpan 0.5,
	Gravity 0,
	Rows 1,
	Columns 1,
	MaterialID 0,
}
`)
	a := m.GeosetAnims[0]
	eq(t, "GEOA colour (MDX order)", a.Color, Vec3{0.3, 0.2, 0.1})
	eq(t, "GEOA alpha", a.Alpha, 0.5)
	eq(t, "GEOA UseColor", a.Flags, GeoaUseColor)
	b := m.GeosetAnims[1]
	eq(t, "animated colour key unchanged", b.ColorTrack.Keys[0].Value, Vec3{0.1, 0.2, 0.3})
	eq(t, "flags", b.Flags, GeoaDropShadow|GeoaUseColor)
	c := m.GeosetAnims[2]
	eq(t, "default colour", c.Color, Vec3{1, 1, 1})
	eq(t, "default alpha", c.Alpha, 1)
	eq(t, "no colour flag", c.Flags, 0)
	l := m.Lights[0]
	eq(t, "light type", l.Type, LightDirectional)
	eq(t, "light colour", l.Color, Vec3{0, 0, 1})
	eq(t, "light amb colour", l.AmbColor, Vec3{1, 0, 0})
	eq(t, "light amb intensity key", l.AmbIntensityTrack.Keys[0].Value, 0.5)
	eq(t, "light flags", l.Flags, NodeLight)
	eq(t, "ribbon colour", m.RibbonEmitters[0].Color, Vec3{0.75, 0.5, 0.25})
	eq(t, "ribbon flags", m.RibbonEmitters[0].Flags, NodeRibbonEmitter)
}

func TestMDLNodes(t *testing.T) {
	m := mustMDL(t, `Bone "Root" {
	ObjectId 0,
	GeosetId Multiple,
	GeosetAnimId None,
	Translation 2 {
		Hermite,
		GlobalSeqId 0,
		0: { 0, 0, 0 },
			InTan { 0, 0, 0 },
			OutTan { 0, 0, 1 },
		100: { 0, 0, 10 },
			InTan { 0, 0, 0 },
			OutTan { 0, 0, 0 },
	}
}
Bone "Arm" {
	ObjectId 1,
	Parent 0,
	BillboardedLockZ,
	CameraAnchored,
	DontInherit { Rotation, Scaling },
	GeosetId 2,
	GeosetAnimId 1,
}
Helper "H" {
	ObjectId 2,
	Parent 0,
	BillboardLockX,
	Billboarded,
}
Attachment "Origin Ref" {
	ObjectId 3,
	AttachmentID 4,
	Path "x.mdl",
	Visibility 1 { DontInterp, 0: 0, }
}
ParticleEmitter "P" {
	ObjectId 4,
	EmitterUsesMDL,
	static EmissionRate 3,
	Gravity 1 { Linear, 0: 9.8, }
	static Longitude 0.1,
	static Latitude 0.2,
	Particle {
		static LifeSpan 2,
		InitVelocity 1 { Linear, 0: 7, }
		Path "Abilities\Spell.mdl",
	}
}
ParticleEmitter2 "P2" {
	ObjectId 5,
	Unshaded,
	LineEmitter,
	XYQuad,
	DontInherit { Translation },
	static Speed 100,
	static Variation 0.1,
	static Latitude 0.5,
	static Gravity -3,
	Visibility 1 { DontInterp, 0: 1, }
	Squirt,
	LifeSpan 1.5,
	Width 1 { Linear, 0: 20, }
	static Length 30,
	Modulate2x,
	Rows 4,
	Columns 2,
	Both,
	TailLength 0.25,
	Time 0.5,
	SegmentColor {
		Color { 1, 0, 0 },
		Color { 0, 1, 0 },
		Color { 0, 0, 0.5 },
	},
	Alpha { 255, 128, 0 },
	ParticleScaling { 1, 2, 3 },
	LifeSpanUVAnim { 0, 3, 1 },
	DecayUVAnim { 4, 7, 1 },
	TailUVAnim { 0, 0, 1 },
	TailDecayUVAnim { 1, 1, 1 },
	TextureID 0,
	ReplaceableId 2,
	PriorityPlane 3,
}
ParticleEmitterPopcorn "Pop" {
	ObjectId 6,
	static LifeSpan 1,
	static EmissionRate 10,
	static Speed 2,
	static Color { 0, 0.5, 1 },
	static Alpha 0.75,
	Visibility 1 { DontInterp, 0: 1, }
	ReplaceableId 0,
	Path "fx.pkfx",
	AnimVisibilityGuide "stand=1",
}
EventObject "FPT1" {
	ObjectId 7,
	EventTrack 2 {
		GlobalSeqId 0,
		10,
		500,
	}
}
CollisionShape "C1" {
	ObjectId 8,
	Sphere,
	Vertices 1 { { 1, 2, 3 }, }
	BoundsRadius 40,
}
CollisionShape "C2" {
	ObjectId 9,
	Box,
	Vertices 2 { { -1, -1, -1 }, { 1, 1, 1 }, }
}
PivotPoints 2 {
	{ 0, 0, 0 },
	{ 1, 2, 3 },
}
`)
	r := m.Bones[0]
	eq(t, "root parent", r.ParentID, -1)
	eq(t, "root geoset", r.GeosetID, -1)
	eq(t, "root flags", r.Flags, NodeBone)
	eq(t, "translation gs", r.Translation.GlobalSeqID, 0)
	eq(t, "translation out tan", r.Translation.Keys[0].OutTan, Vec3{0, 0, 1})
	a := m.Bones[1]
	eq(t, "arm flags", a.Flags, uint32(NodeBone|NodeBillboardedLockZ|NodeCameraAnchored|NodeDontInheritRotation|NodeDontInheritScaling))
	eq(t, "arm parent", a.ParentID, 0)
	eq(t, "arm geoset", a.GeosetID, 2)
	eq(t, "helper flags (Magos spelling)", m.Helpers[0].Flags, uint32(NodeBillboardedLockX|NodeBillboarded))
	at := m.Attachments[0]
	eq(t, "attachment", at.AttachmentID, 4)
	eq(t, "attachment path", at.Path, "x.mdl")
	eq(t, "attachment visibility", len(at.Visibility.Keys), 1)
	p := m.ParticleEmitters[0]
	eq(t, "prem flags", p.Flags, uint32(NodeParticleEmitter|NodeEmitterUsesMDL))
	eq(t, "prem gravity key", p.GravityTrack.Keys[0].Value, 9.8)
	eq(t, "prem InitVelocity -> KPES", p.SpeedTrack.Keys[0].Value, 7)
	eq(t, "prem life span", p.LifeSpan, 2)
	eq(t, "prem path", p.Path, `Abilities\Spell.mdl`)
	p2 := m.ParticleEmitters2[0]
	eq(t, "pre2 flags", p2.Flags, uint32(NodeParticleEmitter|NodeUnshaded|NodeLineEmitter|NodeXYQuad|NodeDontInheritTranslation))
	eq(t, "pre2 gravity", p2.Gravity, -3)
	eq(t, "pre2 squirt", p2.Squirt, 1)
	eq(t, "pre2 width key (KP2N)", p2.WidthTrack.Keys[0].Value, 20)
	eq(t, "pre2 length", p2.Length, 30)
	eq(t, "pre2 filter", p2.FilterMode, 3)
	eq(t, "pre2 head/tail", p2.HeadOrTail, 2)
	eq(t, "pre2 segment colour 0", p2.SegmentColors[0], Vec3{0, 0, 1})
	eq(t, "pre2 segment colour 2", p2.SegmentColors[2], Vec3{0.5, 0, 0})
	eq(t, "pre2 alphas", p2.SegmentAlphas, [3]uint8{255, 128, 0})
	eq(t, "pre2 scaling", p2.SegmentScaling, Vec3{1, 2, 3})
	eq(t, "pre2 decay", p2.HeadDecayIntervals, [3]uint32{4, 7, 1})
	eq(t, "pre2 replaceable", p2.ReplaceableID, 2)
	eq(t, "pre2 priority", p2.PriorityPlane, 3)
	c := m.PopcornEmitters[0]
	eq(t, "popcorn colour", c.Color, Vec3{1, 0.5, 0})
	eq(t, "popcorn guide", c.AnimVisibilityGuide, "stand=1")
	ev := m.EventObjects[0]
	eq(t, "event gs", ev.GlobalSeqID, 0)
	eq(t, "event frames", len(ev.Frames), 2)
	eq(t, "event frame 1", ev.Frames[1], 500)
	eq(t, "sphere", m.CollisionShapes[0].Type, ShapeSphere)
	eq(t, "sphere radius", m.CollisionShapes[0].BoundsRadius, 40)
	eq(t, "box max", m.CollisionShapes[1].Vertices[1], Vec3{1, 1, 1})
	eq(t, "pivots", len(m.PivotPoints), 2)
	eq(t, "pivot 1", m.PivotPoints[1], Vec3{1, 2, 3})
	if len(m.Nodes()) != 10 {
		t.Errorf("%d nodes", len(m.Nodes()))
	}
}

func TestMDLCameraFaceFXBindPose(t *testing.T) {
	m := mustMDL(t, `Camera "Portrait" {
	Position { 100, 0, 50 },
	Translation 1 { Linear, 0: { 1, 2, 3 }, }
	Rotation 1 { Linear, 0: 0.5, }
	FieldOfView 0.785398,
	FarClip 1000,
	NearClip 8,
	Target {
		Position { 0, 0, 40 },
		Translation 1 { DontInterp, 0: { 0, 0, 1 }, }
	}
}
FaceFX "Face" {
	Path "face.fxa",
}
BindPose {
	Matrices 2 {
		{ 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 },
		{ 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 6, 7 },
	}
}
`)
	c := m.Cameras[0]
	eq(t, "camera name", c.Name, "Portrait")
	eq(t, "position", c.Position, Vec3{100, 0, 50})
	eq(t, "fov", c.FieldOfView, 0.785398)
	eq(t, "roll key", c.Rotation.Keys[0].Value, 0.5)
	eq(t, "target", c.TargetPosition, Vec3{0, 0, 40})
	eq(t, "target translation", c.TargetTranslation.Keys[0].Value, Vec3{0, 0, 1})
	eq(t, "face fx type", m.FaceEffects[0].Type, "Face")
	eq(t, "face fx path", m.FaceEffects[0].Path, "face.fxa")
	eq(t, "bind pose", len(m.BindPose), 2)
	eq(t, "bind pose 1", m.BindPose[1][11], 7)
}

func TestMDLErrors(t *testing.T) {
	cases := []struct {
		src  string
		line int
		want string
	}{
		{"Version {\n\tFormatVersion abc,\n}", 2, "FormatVersion"},
		{"Model \"m\" {\n\tBlendTime 1,\n\tBogus 3,\n}", 3, `unknown property "Bogus" in Model`},
		{"Geoset {\n\tVertices 1 {\n\t\t{ 0, 0 },\n\t}\n}", 3, `expected 3 numbers in Vertices, found "}" after 2`},
		{"Geoset {\n\tVertices 1 {\n\t\t{ 0, 0, 0, 0 },\n\t}\n}", 3, `expected "}" after 3 numbers`},
		{"Bone \"b\" {\n\tObjectId 0,\n", 3, "unexpected end of file in Bone"},
		{"Wibble {\n}", 1, `unknown block "Wibble"`},
		{"Model \"unterminated {\n}", 1, "unterminated string"},
		{"/* never closed", 1, "unterminated /* comment"},
		{"Geoset {\n\tVertexGroup { 256 }\n}", 2, "out of range"},
		{"Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tAlpha 1 {\n\t\t\t\tLinear,\n\t\t\t\t0 0.5,\n", 6, `expected ":" after key frame`},
		{"Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tAlpha 1 {\n\t\t\t\t0: 0.5,\n", 5, "expected an interpolation type"},
		{"GlobalSequences 1 {\n\tDuration 99999999999999,\n}", 2, "out of range"},
		{"", 1, "no MDL blocks"},
		{"CollisionShape \"c\" {\n\tVertices 3 { {0,0,0}, {0,0,0}, {0,0,0} }\n}", 2, "at most two vertices"},
	}
	for _, c := range cases {
		_, err := decodeMDL([]byte(c.src))
		var me *MDLError
		if !errors.As(err, &me) {
			t.Errorf("%q: error %v, want *MDLError", c.src, err)
			continue
		}
		if me.Line != c.line || !strings.Contains(me.Error(), c.want) || !strings.Contains(me.Error(), "line "+strconv.Itoa(c.line)) {
			t.Errorf("%q: %v; want line %d and %q", c.src, err, c.line, c.want)
		}
	}
}

// TestMDLHugeCounts: counts in the text do not size allocations beyond what
// the remaining text could hold.
func TestMDLHugeCounts(t *testing.T) {
	for _, src := range []string{
		"Geoset {\n\tVertices 4294967295 {\n\t\t{ 0, 0, 0 },\n\t}\n}",
		"Sequences 4294967295 {\n}",
		"Geoset {\n\tSkinWeights 4294967295 { 1, 2 }\n}",
		"Geoset {\n\tFaces 1 4294967295 { Triangles { { 0, 1, 2 } } }\n}",
		"Bone \"b\" {\n\tTranslation 4294967295 {\n\t\tLinear,\n\t\t0: { 0, 0, 0 },\n\t}\n}",
		"PivotPoints 4294967295 {\n\t{ 0, 0, 0 },\n}",
		"BindPose { Matrices 4294967295 { } }",
	} {
		var err error
		grew := allocs.Bytes(func() { _, err = decodeMDL([]byte(src)) })
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if grew > 64<<10 {
			t.Errorf("%q: allocated %d bytes", src, grew)
		}
	}
	// Many lists that each lie about their size must not add up: the
	// pre-size budget is shared by the whole parse.
	var sb strings.Builder
	sb.WriteString("Bone \"b\" {\n")
	for i := 0; i < 20000; i++ {
		sb.WriteString("\tRotation 4294967295 { Hermite, }\n\tTranslation 4294967295 { Linear, }\n")
	}
	sb.WriteString("}\n")
	src := []byte(sb.String())
	var err error
	grew := allocs.Bytes(func() { _, err = decodeMDL(src) })
	if err != nil {
		t.Fatal(err)
	}
	if grew > uint64(16*len(src)) {
		t.Errorf("%d bytes of lying counts allocated %d bytes", len(src), grew)
	}
}

// TestMDLFloatsExact: every float32 the writer prints reads back to the
// same bits, through both the fast path and strconv.
func TestMDLFloatsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	p := &mdlParser{}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, 1e-45, math.MaxFloat32, -math.SmallestNonzeroFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), 16777216, 16777217, 0.3333333, 123456.79, 1e10, 1e-10}
	for i := 0; i < 200000; i++ {
		f := math.Float32frombits(rng.Uint32())
		if i%2 == 0 { // short decimals, the common case in real files
			f = float32(rng.Intn(2000000)-1000000) / float32(pow10f32[rng.Intn(7)])
		}
		vals = append(vals, f)
	}
	for _, f := range vals {
		if f != f {
			continue
		}
		s := strconv.AppendFloat(nil, float64(f), 'g', -1, 32)
		got := p.parseFloat(s, "x")
		if math.Float32bits(got) != math.Float32bits(f) {
			t.Fatalf("%s: got %v (%#x), want %v (%#x)", s, got, math.Float32bits(got), f, math.Float32bits(f))
		}
	}
	// Decimal forms other writers use (six decimals, MSVC specials).
	for s, want := range map[string]float32{"0.500000": 0.5, "-12.250000": -12.25, "1.#INF": float32(math.Inf(1)), "-1.#INF": float32(math.Inf(-1)), "3.": 3, ".5": 0.5, "+2": 2} {
		if got := p.parseFloat([]byte(s), "x"); got != want {
			t.Errorf("%s: %v, want %v", s, got, want)
		}
	}
	if got := p.parseFloat([]byte("-1.#IND"), "x"); got == got {
		t.Errorf("-1.#IND: %v, want NaN", got)
	}
	for _, s := range []string{"0.1234567891234", "1.17549435e-38", "3.4028235e+38", "7.006492e-46", "9.313226e-10", "1.50e10", "2.500e+00", "100", "0.000"} {
		want, _ := strconv.ParseFloat(s, 32)
		if got := p.parseFloat([]byte(s), "x"); math.Float32bits(got) != math.Float32bits(float32(want)) {
			t.Errorf("%s: %v, want %v", s, got, float32(want))
		}
	}
}

// TestMDLGeneratedRoundTrip: a model built in code survives EncodeMDL and
// DecodeMDL, and MDX bytes made from either are equal.
func TestMDLGeneratedRoundTrip(t *testing.T) {
	m := generatedModel(5000)
	_, m2, err := viaMDL(m)
	if err != nil {
		t.Fatal(err)
	}
	if d := modelDiff(m, m2, 5); len(d) > 0 {
		t.Fatalf("differs:\n%s", strings.Join(d, "\n"))
	}
	a, _ := encodeBytesT(m)
	b, _ := encodeBytesT(m2)
	if !bytes.Equal(a, b) {
		t.Error("MDX encodings differ")
	}
}

func TestMDLWriterRefuses(t *testing.T) {
	if _, err := encodeMDLT(&Model{Name: `say "hi"`}); err == nil {
		t.Error("a name with a double quote was written")
	}
	if _, err := encodeMDLT(&Model{Unknown: []RawChunk{{Tag: "ABCD"}}}); err == nil {
		t.Error("an unknown chunk was dropped silently")
	}
	g := Geoset{Faces: []uint16{0, 1, 2}}
	if _, err := encodeMDLT(&Model{Geosets: []Geoset{g}}); err == nil {
		t.Error("faces without a primitive group were written")
	}
}

func TestDetectAndDecode(t *testing.T) {
	mdl := []byte("Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n}\n")
	m, err := decodeAny(mdl, budget.Limits{})
	if err != nil || m.Name != "x" {
		t.Fatalf("MDL: %v %+v", err, m)
	}
	mdx, err := encodeBytesT(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := decodeAny(mdx, budget.Limits{})
	if err != nil || m2.Name != "x" {
		t.Fatalf("MDX: %v", err)
	}
	// A fragment without FormatVersion (Detect misses it) still reads.
	if m3, err := decodeAny([]byte("// no version\nBone \"b\" {\n\tObjectId 0,\n}\n"), budget.Limits{}); err != nil || len(m3.Bones) != 1 {
		t.Errorf("fragment: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("hello world"), {0x89, 'P', 'N', 'G'}} {
		if _, err := decodeAny(bad, budget.Limits{}); !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%q: %v, want ErrUnknownFormat", bad, err)
		}
	}
	// MDX with the magic but broken content is an MDX error, not "unknown".
	var fe *FormatError
	if _, err := decodeAny(mdx[:len(mdx)-3], budget.Limits{}); !errors.As(err, &fe) {
		t.Errorf("truncated MDX: %v, want *FormatError", err)
	}
}

// TestMDLTestdata parses every MDL under testdata/mdl and checks the
// rewrite is stable.
func TestMDLTestdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mdl", "*.mdl"))
	if len(files) == 0 {
		t.Skip("no testdata/mdl files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := decodeMDL(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkMDLStable(t, f, m)
		// MDL -> MDX -> model gives the same model.
		_, m2, err := viaMDX(m)
		if err != nil {
			t.Errorf("%s: MDX: %v", f, err)
			continue
		}
		m2.ClearFileDetails()
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Errorf("%s: MDL -> MDX -> model differs:\n%s", f, strings.Join(d, "\n"))
		}
	}
}
