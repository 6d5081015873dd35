package mdx

import (
	"reflect"
	"strings"
	"testing"
)

// fillTracks sets every nil *Track[T] reachable from v to a two-key Hermite
// track whose values depend on seed, so that each track is distinct.
func fillTracks(v reflect.Value, seed *float32) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			if strings.HasPrefix(v.Type().Elem().Name(), "Track[") && v.CanSet() {
				t := reflect.New(v.Type().Elem())
				t.Elem().FieldByName("Interpolation").Set(reflect.ValueOf(Hermite))
				t.Elem().FieldByName("GlobalSeqID").Set(reflect.ValueOf(int32(-1)))
				keys := t.Elem().FieldByName("Keys")
				keys.Set(reflect.MakeSlice(keys.Type(), 2, 2))
				for i := 0; i < 2; i++ {
					k := keys.Index(i)
					k.FieldByName("Frame").SetInt(int64(100 * i))
					for _, f := range []string{"Value", "InTan", "OutTan"} {
						setNumbers(k.FieldByName(f), seed)
					}
				}
				v.Set(t)
			}
			return
		}
		fillTracks(v.Elem(), seed)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillTracks(v.Field(i), seed)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillTracks(v.Index(i), seed)
		}
	}
}

func setNumbers(v reflect.Value, seed *float32) {
	*seed += 0.25
	switch v.Kind() {
	case reflect.Float32:
		v.SetFloat(float64(*seed))
	case reflect.Uint32:
		v.SetUint(uint64(*seed * 4))
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			setNumbers(v.Index(i), seed)
		}
	}
}

// TestMDLEveryTrack animates every track of every record type, writes MDL,
// checks that each tag's MDL name (Tags[].Name) is used, and reads it back
// to the same model.
func TestMDLEveryTrack(t *testing.T) {
	m := &Model{Version: 1100,
		Materials:         []Material{{Layers: []Layer{{TextureAnimID: -1, Alpha: 1, EmissiveGain: 1, Textures: []LayerTexture{{TextureID: 0, Slot: 0}, {TextureID: 1, Slot: 1}}}}}},
		TextureAnims:      []TextureAnim{{}},
		GeosetAnims:       []GeosetAnim{{Alpha: 1, Color: Vec3{1, 1, 1}, Flags: GeoaUseColor, GeosetID: 0}},
		Bones:             []Bone{{Node: Node{Name: "b", Flags: NodeBone}, GeosetID: -1, GeosetAnimID: -1}},
		Lights:            []Light{{Node: Node{Name: "l", ObjectID: 1, ParentID: -1, Flags: NodeLight}}},
		Helpers:           []Helper{{Node: Node{Name: "h", ObjectID: 2, ParentID: 0}}},
		Attachments:       []Attachment{{Node: Node{Name: "a", ObjectID: 3, ParentID: -1, Flags: NodeAttachment}}},
		ParticleEmitters:  []ParticleEmitter{{Node: Node{Name: "p", ObjectID: 4, ParentID: -1, Flags: NodeParticleEmitter | NodeEmitterUsesTGA}}},
		ParticleEmitters2: []ParticleEmitter2{{Node: Node{Name: "p2", ObjectID: 5, ParentID: -1, Flags: NodeParticleEmitter | NodeModelSpace}}},
		PopcornEmitters:   []PopcornEmitter{{Node: Node{Name: "c", ObjectID: 6, ParentID: -1, Flags: NodeParticleEmitter}}},
		RibbonEmitters:    []RibbonEmitter{{Node: Node{Name: "r", ObjectID: 7, ParentID: -1, Flags: NodeRibbonEmitter}}},
		Cameras:           []Camera{{Name: "cam"}},
	}
	seed := float32(0)
	fillTracks(reflect.ValueOf(m), &seed)
	text, err := encodeMDLT(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range Tags() {
		if !strings.Contains(string(text), "\t"+tag.Name+" 2 {") {
			t.Errorf("%s (%s) is not written as %q", tag.Tag, tag.Owner, tag.Name)
		}
	}
	m2, err := decodeMDL(text)
	if err != nil {
		t.Fatal(err)
	}
	if d := modelDiff(m, m2, 10); len(d) > 0 {
		t.Fatalf("differs:\n%s\n%s", strings.Join(d, "\n"), text)
	}
	// And through MDX v1100 too.
	_, m3, err := viaMDX(m2)
	if err != nil {
		t.Fatal(err)
	}
	m3.ClearFileDetails()
	if d := modelDiff(m, m3, 10); len(d) > 0 {
		t.Fatalf("MDX differs:\n%s", strings.Join(d, "\n"))
	}
}
