package m2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-4 }

func TestFixtureDecode(t *testing.T) {
	for _, v := range []uint32{256, 260, 263} {
		f, err := Decode(fixture(v))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if f.Name != "Fixture" || f.Header.Version != v || len(f.GlobalSequences) != 1 || f.GlobalSequences[0] != 1000 {
			t.Errorf("v%d header: %q %+v", v, f.Name, f.GlobalSequences)
		}
		if f.Header.VertexRadius != 1.2 || f.Header.VertexBox[1] != (mdx.Vec3{2, 1, 0}) || f.Header.BoundingRadius != 4 {
			t.Errorf("v%d bounds: %+v", v, f.Header)
		}
		s := f.Sequences
		if len(s) != 2 || s[1].ID != 4 || s[1].SubID != 1 || s[1].Start != 1000 || s[1].End != 1999 || s[1].MoveSpeed != 2.5 ||
			s[1].Frequency != 16384 || s[1].Replay != [2]uint32{1, 2} || s[0].BlendTime != 150 || s[1].Index != 1 || s[0].Flags != 0x20 {
			t.Errorf("v%d sequences: %+v", v, s)
		}
		b0, b1 := f.Bones[0], f.Bones[1]
		if b0.Parent != -1 || b1.Parent != 0 || b0.Flags != 8 || b1.Pivot != (mdx.Vec3{0, 0, 1}) {
			t.Errorf("v%d bones: %+v %+v", v, b0, b1)
		}
		if v >= 260 && b0.NameCRC != 0xABCD {
			t.Errorf("v%d bone CRC %#x", v, b0.NameCRC)
		}
		if tr := b0.Translation; tr.Interpolation != 1 || len(tr.Ranges) != 2 || tr.Ranges[1] != [2]uint32{2, 3} ||
			len(tr.Times) != 3 || tr.Values[2] != (mdx.Vec3{1, 0, 0}) {
			t.Errorf("v%d translation: %+v", v, tr)
		}
		q := b0.Rotation.Values[0]
		if !near(q[0], 0.5) || !near(q[1], 0) || !near(q[3], 0.8660254) {
			t.Errorf("v%d rotation: %v", v, q)
		}
		if sc := b1.Scaling; sc.Interpolation != 2 || sc.GlobalSeq != 0 || len(sc.Values) != 6 || sc.Values[3] != (mdx.Vec3{2, 2, 2}) {
			t.Errorf("v%d scaling: %+v", v, sc)
		}
		vx := f.Vertices[5]
		if len(f.Vertices) != 6 || vx.Position != (mdx.Vec3{2, 1, 0}) || vx.BoneWeights != [4]uint8{128, 127, 0, 0} ||
			vx.BoneIndices != [4]uint8{0, 1, 0, 0} || vx.Normal != (mdx.Vec3{0, 0, 1}) || vx.UV[0] != (mdx.Vec2{1, 1}) {
			t.Errorf("v%d vertex 5: %+v", v, vx)
		}
		if len(f.Views) != 2 || f.Views[1].BoneCount != 1 {
			t.Fatalf("v%d views", v)
		}
		vw := f.Views[0]
		if len(vw.Indices) != 6 || len(vw.Triangles) != 9 || len(vw.Properties) != 6 || len(vw.Submeshes) != 2 || len(vw.TexUnits) != 3 {
			t.Errorf("v%d view 0: %+v", v, vw)
		}
		sm := vw.Submeshes[1]
		if sm.ID != 101 || sm.VertexStart != 3 || sm.VertexCount != 3 || sm.TriangleStart != 6 || sm.TriangleCount != 3 || sm.Center != (mdx.Vec3{1, 1, 0}) {
			t.Errorf("v%d submesh 1: %+v", v, sm)
		}
		if v >= 260 && sm.SortRadius != 2 {
			t.Errorf("v%d submesh sort radius %v", v, sm.SortRadius)
		}
		tu := vw.TexUnits[1]
		if tu.PriorityPlane != 1 || tu.ColorIndex != -1 || tu.RenderFlags != 1 || tu.MaterialLayer != 1 || tu.TextureCombo != 1 || tu.Transparency != 1 {
			t.Errorf("v%d texture unit 1: %+v", v, tu)
		}
		if len(f.Colors) != 1 || f.Colors[0].Color.Values[0] != (mdx.Vec3{1, 0.5, 0.25}) || f.Colors[0].Alpha.Values[0] != 16384 {
			t.Errorf("v%d colors: %+v", v, f.Colors)
		}
		if len(f.Textures) != 2 || f.Textures[0].Filename != `Creature\Fixture\Fixture.blp` || f.Textures[0].Flags != 3 || f.Textures[1].Type != 11 {
			t.Errorf("v%d textures: %+v", v, f.Textures)
		}
		if len(f.Transparency) != 2 || f.Transparency[0].Values[1] != 0 || len(f.TextureAnims) != 1 ||
			f.TextureAnims[0].Translation.Values[1] != (mdx.Vec3{1, 0, 0}) {
			t.Errorf("v%d transparency/texture anims", v)
		}
		if len(f.RenderFlags) != 3 || f.RenderFlags[1].Blend != BlendAdd || len(f.BoneLookup) != 2 || len(f.TexUnitLookup) != 2 ||
			f.TextureAnimLookup[0] != -1 || len(f.TransparencyLookup) != 2 {
			t.Errorf("v%d render flags / lookups", v)
		}
	}
}

func TestFixtureModel(t *testing.T) {
	for _, v := range []uint32{256, 263} {
		m := validModel(t, v, fixture(v))
		if m.Version != 1500 || m.Name != "Fixture" || m.Extent.BoundsRadius != 1.2 {
			t.Errorf("model header: %d %q %+v", m.Version, m.Name, m.Extent)
		}
		if s := m.Sequences[1]; s.Name != "Walk 2" || s.Interval != [2]uint32{1000, 1999} || !near(s.Frequency, 0.5) || s.Replay != [2]uint32{1, 2} {
			t.Errorf("sequence: %+v", s)
		}
		if m.Sequences[0].Name != "Stand" {
			t.Errorf("sequence 0 name %q", m.Sequences[0].Name)
		}
		root, child := m.Bones[0], m.Bones[1]
		if root.ObjectID != 0 || root.ParentID != -1 || root.Flags != mdx.NodeBone|mdx.NodeBillboarded ||
			child.Flags != mdx.NodeBone|mdx.NodeDontInheritTranslation || child.ParentID != 0 || m.PivotPoints[1] != (mdx.Vec3{0, 0, 1}) {
			t.Errorf("bones: %+v %+v", root.Node, child.Node)
		}
		tr := root.Translation
		if tr == nil || tr.Interpolation != mdx.Linear || len(tr.Keys) != 3 || tr.Keys[2].Frame != 1500 || tr.Keys[1].Value != (mdx.Vec3{0, 0, 1}) {
			t.Errorf("translation: %+v", tr)
		}
		if root.Scaling != nil || root.Rotation == nil || !near(root.Rotation.Keys[0].Value[0], 0.5) {
			t.Errorf("root tracks")
		}
		sc := child.Scaling
		if sc == nil || sc.Interpolation != mdx.Hermite || sc.GlobalSeqID != 0 || len(sc.Keys) != 2 || sc.Keys[1].Value != (mdx.Vec3{2, 2, 2}) {
			t.Errorf("hermite scaling: %+v", sc)
		}
		// Geosets: one per drawn submesh, vertices local to it.
		if len(m.Geosets) != 2 || len(m.Materials) != 2 {
			t.Fatalf("%d geosets, %d materials", len(m.Geosets), len(m.Materials))
		}
		g0, g1 := m.Geosets[0], m.Geosets[1]
		if len(g0.Vertices) != 5 || !equal16(g0.Faces, []uint16{0, 1, 3, 1, 2, 4}) || g0.SelectionGroup != 1 {
			t.Errorf("geoset 0: %d verts, faces %v", len(g0.Vertices), g0.Faces)
		}
		if len(g1.Vertices) != 3 || !equal16(g1.Faces, []uint16{0, 1, 2}) || g1.Vertices[2] != (mdx.Vec3{2, 1, 0}) || g1.SelectionGroup != 101 {
			t.Errorf("geoset 1: %+v", g1)
		}
		if !bytes.Equal(g1.Skin[16:24], []byte{0, 1, 0, 0, 128, 127, 0, 0}) || g1.UVSets[0][2] != (mdx.Vec2{1, 1}) {
			t.Errorf("geoset 1 skin %v uv %v", g1.Skin, g1.UVSets[0])
		}
		if g1.Extent.Min != (mdx.Vec3{0, 1, 0}) || g1.Extent.Max != (mdx.Vec3{2, 1, 0}) {
			t.Errorf("geoset 1 extent %+v", g1.Extent)
		}
		// Materials: submesh 0 has two layers in MaterialLayer order.
		m0 := m.Materials[g0.MaterialID]
		if len(m0.Layers) != 2 || m0.PriorityPlane != 0 {
			t.Fatalf("material 0: %+v", m0)
		}
		l0, l1 := m0.Layers[0], m0.Layers[1]
		if l0.FilterMode != mdx.FilterNone || l0.Flags != mdx.LayerTwoSided || l0.TextureID != 0 || l0.TextureAnimID != -1 || l0.AlphaTrack == nil ||
			len(l0.AlphaTrack.Keys) != 2 || l0.AlphaTrack.Keys[1].Value != 0 || l0.Alpha != 1 {
			t.Errorf("layer 0: %+v", l0)
		}
		if l1.FilterMode != mdx.FilterAdditive || l1.Flags != mdx.LayerUnshaded|mdx.LayerNoDepthSet || l1.TextureID != 1 || l1.TextureAnimID != -1 {
			t.Errorf("layer 1: %+v", l1)
		}
		l2 := m.Materials[g1.MaterialID].Layers[0]
		if l2.FilterMode != mdx.FilterModulate2x || l2.Flags != mdx.LayerUnfogged|mdx.LayerSphereEnvMap || l2.CoordID != 0 || l2.TextureAnimID != 0 {
			t.Errorf("layer 2: %+v", l2)
		}
		if m.Textures[0].Path != `Creature\Fixture\Fixture.blp` || m.Textures[0].Flags != mdx.TexWrapWidth|mdx.TexWrapHeight || m.Textures[1].ReplaceableID != mdx.WoWTexMonster1 {
			t.Errorf("textures: %+v", m.Textures)
		}
		if len(m.TextureAnims) != 1 || m.TextureAnims[0].Translation == nil {
			t.Errorf("texture anims")
		}
		// Colour: geoset 0's first unit uses colour 0 (RGB 1, .5, .25 ->
		// MDX order .25, .5, 1; alpha 16384/32767).
		if len(m.GeosetAnims) != 1 {
			t.Fatalf("%d geoset anims", len(m.GeosetAnims))
		}
		ga := m.GeosetAnims[0]
		if ga.GeosetID != 0 || ga.Color != (mdx.Vec3{0.25, 0.5, 1}) || ga.Flags&mdx.GeoaUseColor == 0 || !near(ga.Alpha, 0.5) || ga.AlphaTrack == nil {
			t.Errorf("geoset anim: %+v", ga)
		}
		// Another view.
		f, _ := Decode(fixture(v))
		if _, err := f.Model(1); err != nil {
			t.Errorf("view 1: %v", err)
		}
		if _, err := f.Model(2); err == nil {
			t.Error("view 2 of 2 accepted")
		}
		// The converted model is a valid v1500 MDX.
		out, err := encodeMDX(m)
		if err != nil {
			t.Fatalf("encode as MDX: %v", err)
		}
		back, err := mdx.Decode(out, budget.Limits{})
		if err != nil || len(back.Geosets) != 2 || len(back.Bones) != 2 || len(back.Geosets[1].Faces) != 3 {
			t.Errorf("MDX round trip: %v", err)
		}
	}
}

func equal16(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBlendModes(t *testing.T) {
	want := []mdx.FilterMode{mdx.FilterNone, mdx.FilterTransparent, mdx.FilterBlend, mdx.FilterAdditive,
		mdx.FilterAddAlpha, mdx.FilterModulate, mdx.FilterModulate2x, mdx.FilterBlend}
	for i, w := range want {
		if got := FilterMode(uint16(i)); got != w {
			t.Errorf("blend %d: %v, want %v", i, got, w)
		}
	}
	for _, c := range []struct{ in, want uint32 }{
		{RenderUnlit, mdx.LayerUnshaded},
		{RenderUnfogged, mdx.LayerUnfogged},
		{RenderTwoSided, mdx.LayerTwoSided},
		{RenderNoDepthTest, mdx.LayerNoDepthTest},
		{RenderNoDepthWrite, mdx.LayerNoDepthSet},
		{0x1F, mdx.LayerUnshaded | mdx.LayerUnfogged | mdx.LayerTwoSided | mdx.LayerNoDepthTest | mdx.LayerNoDepthSet},
	} {
		if got := LayerFlags(uint16(c.in)); got != c.want {
			t.Errorf("render flags %#x: layer flags %#x, want %#x", c.in, got, c.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := fixture(256)
	var fe *FormatError
	var ue *UnsupportedVersionError
	for _, v := range []uint32{0, 255, 264, 272, 274} {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[4:], v)
		_, err := Decode(b)
		if !errors.As(err, &ue) || ue.Version != v || !strings.Contains(err.Error(), "unsupported M2 version") {
			t.Errorf("v%d: %v", v, err)
		}
	}
	if _, err := Decode([]byte("MDLX....")); !errors.Is(err, ErrNotM2) {
		t.Errorf("MDLX: %v", err)
	}
	if _, err := Decode(good[:100]); !errors.As(err, &fe) || fe.Block != "header" {
		t.Errorf("short header: %v", err)
	}
	// Every truncation is a typed error, never a panic.
	for cut := headerSize; cut < len(good); cut += 7 {
		if _, err := decodeModel(good[:cut]); err != nil && !errors.As(err, &fe) {
			t.Fatalf("cut %d: %v", cut, err)
		}
	}
	put := func(at int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[at:], v)
		return b
	}
	// A huge vertex count is refused before allocating.
	if _, err := Decode(put(0x44, 0xFFFFFFF0)); !errors.As(err, &fe) || fe.Block != "vertices" {
		t.Errorf("vertex count: %v", err)
	}
	// An offset past the end.
	if _, err := Decode(put(0x60, 0x7FFFFFFF)); !errors.As(err, &fe) || fe.Block != "textures" {
		t.Errorf("texture offset: %v", err)
	}
	// A view index naming a vertex that does not exist.
	f, _ := Decode(good)
	idx := int(binary.LittleEndian.Uint32(good[f.Header.Views.Offset+4:]))
	b := bytes.Clone(good)
	binary.LittleEndian.PutUint16(b[idx:], 60)
	if _, err := Decode(b); !errors.As(err, &fe) || !strings.Contains(fe.Block, "view 0 indices") {
		t.Errorf("bad index: %v", err)
	}
	// A triangle outside its submesh's vertices fails the conversion.
	tri := int(binary.LittleEndian.Uint32(good[f.Header.Views.Offset+12:]))
	b = bytes.Clone(good)
	binary.LittleEndian.PutUint16(b[tri+12:], 0) // submesh 1 starts at vertex 3
	if _, err := decodeModel(b); !errors.As(err, &fe) || !strings.Contains(fe.Block, "submesh 1") {
		t.Errorf("bad triangle: %v", err)
	}
	// A texture lookup naming a missing texture.
	tl := int(f.Header.TextureLookup.Offset)
	b = bytes.Clone(good)
	binary.LittleEndian.PutUint16(b[tl:], 9)
	if _, err := decodeModel(b); !errors.As(err, &fe) || !strings.Contains(fe.Reason, "texture combo") {
		t.Errorf("bad texture lookup: %v", err)
	}
	// Tracks that overlap the same bytes many times are bounded.
	b = bytes.Clone(good)
	vo := f.Header.Vertices.Offset
	binary.LittleEndian.PutUint32(b[0x68:], 1000) // many transparencies
	binary.LittleEndian.PutUint32(b[0x6C:], vo)   // pointing into the vertices
	if _, err := Decode(b); err == nil {
		t.Error("garbage transparency blocks accepted")
	}
}

// TestCamera: the fixture's portrait camera decodes from its 124-byte
// record (spline keys read as their values) and becomes an MDX camera the
// pose stage places at base + offset.
func TestCamera(t *testing.T) {
	f, err := Decode(fixture(256))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cameras) != 1 {
		t.Fatalf("%d cameras", len(f.Cameras))
	}
	c := f.Cameras[0]
	if c.Type != 0 || c.FieldOfView != 0.8 || c.FarClip != 100 || c.NearClip != 0.5 ||
		c.PositionBase != (mdx.Vec3{5, 0, 1}) || c.TargetBase != (mdx.Vec3{0, 0, 1}) ||
		len(c.Position.Values) != 2 || c.Position.Values[1] != (mdx.Vec3{0, 0, 1}) || len(c.Target.Times) != 0 ||
		len(c.Roll.Values) != 1 || c.Roll.Values[0] != 0.25 {
		t.Fatalf("camera %+v", c)
	}
	m, err := f.Model(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cameras) != 1 {
		t.Fatalf("%d model cameras", len(m.Cameras))
	}
	mc := m.Cameras[0]
	if mc.Name != "Portrait" || mc.Position != c.PositionBase || mc.TargetPosition != c.TargetBase || mc.FieldOfView != 0.8 ||
		mc.Translation == nil || len(mc.Translation.Keys) != 2 || mc.Translation.Keys[1].Frame != 999 ||
		mc.Translation.Keys[1].Value != (mdx.Vec3{0, 0, 1}) || mc.TargetTranslation != nil || mc.Rotation == nil {
		t.Errorf("model camera %+v", mc)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

// encodeMDX encodes m as MDX in memory.
func encodeMDX(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.Encode(&b, m)
	return b.Bytes(), err
}

// validModel is decodeModel for a version v fixture that must decode
// into a model that passes Validate.
func validModel(t *testing.T, v uint32, b []byte) *mdx.Model {
	t.Helper()
	m, err := decodeModel(b)
	if err == nil {
		err = m.Validate()
	}
	if err != nil {
		t.Fatalf("v%d: %v", v, err)
	}
	return m
}

// decodeModel decodes an M2 and converts its most detailed view.
func decodeModel(b []byte) (*mdx.Model, error) {
	f, err := Decode(b)
	if err != nil {
		return nil, err
	}
	return f.Model(0)
}
