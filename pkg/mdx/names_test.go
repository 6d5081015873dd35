package mdx

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// The derived tables are built from the name tables at init; a bit missing
// from its source table would silently drop a keyword, a misplaced one
// reorder the names.
func TestDerivedFlagTables(t *testing.T) {
	words := func(t flagTable) string {
		var s []string
		for _, f := range t {
			s = append(s, f.name)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		name string
		t    flagTable
		want string
	}{
		{"wow layer", wowLayerFlags, "Unshaded SphereEnvMap WrapWidth WrapHeight TwoSided Unfogged NoDepthTest NoDepthSet NoFallback"},
		{"material", mdlMaterialFlags, "ConstantColor TwoSided SortPrimsNearZ SortPrimsFarZ FullResolution"},
		{"node", mdlNodeFlags, "BillboardedLockZ BillboardedLockY BillboardedLockX Billboarded CameraAnchored"},
		{"DontInherit", mdlDontInherit, "Translation Rotation Scaling"},
		{"emitter2", mdlEmitter2Flags, "SortPrimsFarZ Unshaded LineEmitter Unfogged ModelSpace XYQuad"},
	} {
		if got := words(c.t); got != c.want {
			t.Errorf("%s keywords %q, want %q", c.name, got, c.want)
		}
	}
	if materialFlags.mask()&matTwoSided != 0 {
		t.Error("materialFlags names 0x2; Material.FlagNames would change")
	}
}

func TestFlagNames(t *testing.T) {
	node := func(flags uint32) Node { return Node{Flags: flags} }
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"texture none", (&Texture{}).FlagNames(), nil},
		{"texture", (&Texture{Flags: TexWrapWidth | TexWrapHeight | 0x40}).FlagNames(), []string{"WrapWidth", "WrapHeight", "0x40"}},
		{"material 0x2 unnamed", (&Material{Flags: MatConstantColor | 0x2 | 0x4}).FlagNames(), []string{"ConstantColor", "0x6"}},
		{"layer wc3", (&Layer{Flags: LayerUnshaded | LayerTwoSided | 0x104}).FlagNames(800), []string{"Unshaded", "TwoSided", "Unlit", "0x4"}},
		{"layer wow", (&Layer{Flags: LayerUnshaded | LayerTwoSided | 0x104}).FlagNames(1500), []string{"Unshaded", "WrapWidth", "TwoSided", "NoFallback"}},
		{"sequence", (&Sequence{Flags: 3}).FlagNames(), []string{"NonLooping", "0x2"}},
		{"geoset", (&Geoset{SelectionFlags: GeosetUnselectable}).SelectionFlagNames(), []string{"Unselectable"}},
		{"bone drops its type bit", (&Bone{Node: node(NodeBone | NodeBillboarded | NodeLight)}).FlagNames(), []string{"Billboarded", "Light"}},
		{"helper names every bit", (&Helper{Node: node(NodeBone | NodeDontInheritRotation)}).FlagNames(), []string{"DontInheritRotation", "Bone"}},
		{"emitter", (&ParticleEmitter{Node: node(NodeParticleEmitter | NodeEmitterUsesMDL | NodeEmitterUsesTGA)}).FlagNames(), []string{"EmitterUsesMDL", "EmitterUsesTGA"}},
		{"emitter2", (&ParticleEmitter2{Node: node(NodeParticleEmitter | NodeUnshaded | NodeXYQuad | 0x200000)}).FlagNames(), []string{"Unshaded", "XYQuad", "0x200000"}},
		{"popcorn keeps the emitter bit", (&PopcornEmitter{Node: node(NodeParticleEmitter | 0x8000)}).FlagNames(), []string{"ParticleEmitter", "0x8000"}},
		{"collision", (&CollisionShape{Node: node(NodeCollisionShape | NodeCameraAnchored)}).FlagNames(), []string{"CameraAnchored"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestEnumNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FilterModulate2x.String(), "Modulate2x"},
		{FilterMode(7).String(), "FilterMode(7)"},
		{LightAmbient.String(), "Ambient"},
		{ShapeCylinder.String(), "Cylinder"},
		{(&ParticleEmitter2{FilterMode: 4}).FilterModeName(), "AlphaKey"},
		{(&ParticleEmitter2{FilterMode: 5}).FilterModeName(), "FilterMode(5)"},
		{(&LayerTexture{Slot: 4}).SlotName(), "TeamColor"},
		{(&LayerTexture{Slot: 6}).SlotName(), ""},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		version, id uint32
		name        string
		ok          bool
	}{
		{800, 0, "", false}, {800, 1, "team colour", true}, {1000, 37, "Outland mushroom tree", true},
		{800, 3, "", false}, {1500, 1, "Skin", true}, {1300, 14, "ItemIcon", true}, {1300, 15, "", false},
		{1400, 0, "", false},
	} {
		if name, ok := ReplaceableName(c.version, c.id); name != c.name || ok != c.ok {
			t.Errorf("ReplaceableName(%d, %d) = %q, %v; want %q, %v", c.version, c.id, name, ok, c.name, c.ok)
		}
	}
}

// Every keyword of the flag tables goes through MDL and back to the same
// bit, so the writer and the reader, which share the tables, agree.
func TestMDLFlagKeywordsRoundTrip(t *testing.T) {
	check := func(what string, t0 flagTable, set func(m *Model, bit uint32), get func(m *Model) uint32) {
		t.Helper()
		for _, f := range t0 {
			m := &Model{Version: 800}
			set(m, f.bit)
			b, err := encodeMDLT(m)
			if err != nil {
				t.Fatalf("%s %s: %v", what, f.name, err)
			}
			if !bytes.Contains(b, []byte(f.name)) {
				t.Errorf("%s %s: keyword not written:\n%s", what, f.name, b)
			}
			back, err := decodeMDL(b)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", what, f.name, err, b)
			}
			if got := get(back); got != f.bit {
				t.Errorf("%s %s: read back %#x, want %#x", what, f.name, got, f.bit)
			}
		}
	}
	check("texture", textureFlags, func(m *Model, b uint32) { m.Textures = []Texture{{Flags: b}} },
		func(m *Model) uint32 { return m.Textures[0].Flags })
	check("material", mdlMaterialFlags, func(m *Model, b uint32) { m.Materials = []Material{{Flags: b}} },
		func(m *Model) uint32 { return m.Materials[0].Flags })
	check("layer", layerFlags, func(m *Model, b uint32) {
		m.Materials = []Material{{Layers: []Layer{{Flags: b, TextureAnimID: -1, Alpha: 1}}}}
	}, func(m *Model) uint32 { return m.Materials[0].Layers[0].Flags })
	check("sequence", sequenceFlags, func(m *Model, b uint32) { m.Sequences = []Sequence{{Name: "S", Flags: b}} },
		func(m *Model) uint32 { return m.Sequences[0].Flags })
	node := func(b uint32) Node { return Node{Name: "N", ParentID: -1, Flags: b} }
	for _, tb := range []flagTable{mdlNodeFlags, mdlDontInherit} {
		check("bone", tb, func(m *Model, b uint32) { m.Bones = []Bone{{Node: node(NodeBone | b), GeosetAnimID: -1}} },
			func(m *Model) uint32 { return m.Bones[0].Flags &^ NodeBone })
	}
	check("emitter", emitterFlags, func(m *Model, b uint32) {
		m.ParticleEmitters = []ParticleEmitter{{Node: node(NodeParticleEmitter | b)}}
	}, func(m *Model) uint32 { return m.ParticleEmitters[0].Flags &^ NodeParticleEmitter })
	check("emitter2", mdlEmitter2Flags, func(m *Model, b uint32) {
		m.ParticleEmitters2 = []ParticleEmitter2{{Node: node(NodeParticleEmitter | b)}}
	}, func(m *Model) uint32 { return m.ParticleEmitters2[0].Flags &^ NodeParticleEmitter })
}
