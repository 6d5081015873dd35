package inspect

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
)

func TestJSONFloatNonFinite(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want string
	}{{float32(math.NaN()), `"NaN"`}, {float32(math.Inf(1)), `"+Inf"`}, {float32(math.Inf(-1)), `"-Inf"`}, {0.1, `0.1`}, {-172.722, `-172.722`}} {
		b, err := json.Marshal(Float(c.v))
		if err != nil || string(b) != c.want {
			t.Errorf("Float(%v) = %s, %v; want %s", c.v, b, err, c.want)
		}
	}
}

func TestLayoutTreeTerminates(t *testing.T) {
	// A long chain, a self-parent, a three-node cycle with a child hanging
	// off it, and a repeated object id: every node printed once.
	var nodes []Node
	for i := range 10000 {
		nodes = append(nodes, Node{Name: "chain", ObjectID: int32(i), ParentID: int32(i - 1)})
	}
	nodes = append(nodes,
		Node{Name: "self", ObjectID: 20000, ParentID: 20000},
		Node{Name: "hang", ObjectID: 20004, ParentID: 20001},
		Node{Name: "c1", ObjectID: 20001, ParentID: 20003},
		Node{Name: "c2", ObjectID: 20002, ParentID: 20001},
		Node{Name: "c3", ObjectID: 20003, ParentID: 20002},
		Node{Name: "dup", ObjectID: 5, ParentID: -1},
	)
	lines, treeNotes := layoutTree(nodes)
	seen := make([]int, len(nodes))
	for _, l := range lines {
		seen[l.node]++
		if len(l.prefix) > 4*maxTreeIndent+20 {
			t.Fatalf("prefix of %d bytes: the drawing keeps growing with depth", len(l.prefix))
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("node %d (%s) printed %d times", i, nodes[i].Name, n)
		}
	}
	notes := map[string]string{}
	for i, n := range nodes[10000:] {
		notes[n.Name] = treeNotes[10000+i]
	}
	if notes["self"] != "parent is itself" || notes["dup"] != "duplicate object id" || notes["hang"] != "" {
		t.Errorf("notes %v", notes)
	}
	cycleNotes := 0
	for _, c := range []string{"c1", "c2", "c3"} {
		if notes[c] == "parent cycle" {
			cycleNotes++
		}
	}
	if cycleNotes != 1 {
		t.Errorf("want exactly one cycle member noted as the cycle's root, notes %v", notes)
	}
}

func load(t *testing.T, path string) *model.File {
	t.Helper()
	f, err := testmodel.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The report of the repository's fixture that holds every kind of block:
// the names come from pkg/mdx, and each node leaves out only the type bit
// its record implies.
func TestBuildAllBlocks(t *testing.T) {
	r := Build(load(t, filepath.Join("..", "mdx", "testdata", "mdl", "allblocks_v1000.mdl")), "allblocks")
	if r.File != "allblocks" || r.Format != "mdl" || r.Version != 1000 || r.M2 != nil || r.Problem != "" {
		t.Errorf("header %q %q %d m2=%v problem=%q", r.File, r.Format, r.Version, r.M2, r.Problem)
	}
	if r.Counts.Nodes != 11 || len(r.Nodes) != 11 || r.Counts.Layers != 1 || r.Counts.Faces != 1 || r.Counts.FaceIndices != 3 {
		t.Errorf("counts %+v", *r.Counts)
	}
	if got := r.Textures[1].Replaceable; got != "team colour" {
		t.Errorf("replaceable 1 = %q", got)
	}
	flags := map[string]string{}
	for _, n := range r.Nodes {
		flags[n.Name] = n.Type + ":" + strings.Join(n.FlagNames, ",")
	}
	for name, want := range map[string]string{
		"Root": "bone:", "Child": "bone:DontInheritScaling", "Helper01": "helper:BillboardedLockZ",
		"Spawn": "particle_emitter:EmitterUsesMDL", "Sparks": "particle_emitter2:Unshaded",
		"Popcorn": "popcorn_emitter:ParticleEmitter", "Collision": "collision_shape:",
	} {
		if flags[name] != want {
			t.Errorf("node %s: %q, want %q", name, flags[name], want)
		}
	}
	sparks := r.Nodes[slices.IndexFunc(r.Nodes, func(n Node) bool { return n.Name == "Sparks" })]
	if sparks.FilterMode != "Additive" || sparks.TextureID == nil || *sparks.TextureID != 0 {
		t.Errorf("Sparks %+v", sparks)
	}
	// The PopcornFX emitter's effect is not drawn: the header says so,
	// naming the emitter and the effect file.
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	popcorn := r.Nodes[slices.IndexFunc(r.Nodes, func(n Node) bool { return n.Name == "Popcorn" })]
	want := "not drawn   1 PopcornFX emitter, whose effect files the model only names: Popcorn (" + popcorn.Path + ")"
	if popcorn.Path == "" || !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

// WoW files name their replaceable ids and layer bits the WoW way and carry
// the WoW sequence and geoset fields; M2 files add the m2 object.
func TestBuildWoW(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "models")
	r := Build(load(t, filepath.Join(root, "wow_v1500.mdx")), "wow")
	if r.Version != 1500 || len(r.Sequences) == 0 || r.Sequences[0].Frequency == nil || len(r.Geosets) == 0 || r.Geosets[0].SelectionGroup == nil {
		t.Errorf("WoW fields missing: version %d, sequences %+v, geosets %+v", r.Version, r.Sequences, r.Geosets)
	}
	for _, c := range []struct {
		version, id uint32
		want        string
	}{{1500, 0, ""}, {1500, 11, "Monster1"}, {1500, 99, "Replaceable(99)"}, {800, 2, "team glow"}, {800, 99, "unknown"}, {800, 0, ""}} {
		if got := replaceable(c.version, c.id); got != c.want {
			t.Errorf("replaceable(%d, %d) = %q, want %q", c.version, c.id, got, c.want)
		}
	}
	wowLayer := layerOf(&mdx.Layer{Flags: 0x104, TextureAnimID: -1}, 1500)
	if strings.Join(wowLayer.FlagNames, ",") != "WrapWidth,NoFallback" {
		t.Errorf("WoW layer flags %q", wowLayer.FlagNames)
	}

	m2 := Build(load(t, filepath.Join(root, "m2_skinned.m2")), "skinned")
	if m2.Format != "m2" || m2.M2 == nil || m2.M2.Views == 0 || m2.M2.Vertices == 0 || m2.M2.NotDrawn == nil {
		t.Errorf("m2 %+v", m2.M2)
	}
	// Emitters are counted and drawn: "not drawn" leaves them out.
	rib := Build(load(t, filepath.Join(root, "m2_ribbon.m2")), "ribbon")
	if rib.M2 == nil || rib.M2.Ribbons != 1 || rib.M2.Particles != 0 || rib.M2.NotDrawn["particle_emitters"] != 0 {
		t.Errorf("m2 ribbon %+v", rib.M2)
	}
	var text strings.Builder
	if err := rib.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "m2 emitters  0 particle, 1 ribbon") || strings.Contains(text.String(), "not drawn") {
		t.Errorf("text:\n%s", text.String())
	}
}

// A report read back from its JSON prints the same text: the text writer
// needs nothing that JSON does not carry (the tree is laid out again).
func TestJSONRoundTripText(t *testing.T) {
	for _, p := range []string{
		filepath.Join("..", "mdx", "testdata", "mdl", "allblocks_v1000.mdl"),
		filepath.Join("..", "..", "testdata", "models", "wow_v1400.mdx"),
		filepath.Join("..", "..", "testdata", "models", "m2_blend_modes.m2"),
		filepath.Join("testdata", "box.mdl"),
	} {
		r := Build(load(t, p), p)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var want, got bytes.Buffer
		if err := r.WriteText(&want); err != nil {
			t.Fatal(err)
		}
		if err := back.WriteText(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: text from JSON differs:\n%s\nwant\n%s", p, got.String(), want.String())
		}
	}
}

// An empty model gives [] (not null) for every list, and a zero Report
// prints without failing.
func TestBuildEmpty(t *testing.T) {
	r := Build(&model.File{Model: &mdx.Model{Version: 800}, Format: model.FormatMDX}, "empty")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("null")) {
		t.Errorf("null in %s", b)
	}
	var buf bytes.Buffer
	if err := (&Report{Nodes: []Node{{Name: "x", ParentID: -1, Animated: []string{""}}}}).WriteText(&buf); err != nil || !strings.Contains(buf.String(), "Nodes (1)") {
		t.Errorf("zero report: %v\n%s", err, buf.String())
	}
}

// NaN and infinities in a hostile file reach the JSON as strings.
func TestNonFiniteExtent(t *testing.T) {
	m := &mdx.Model{Version: 800, Extent: mdx.Extent{BoundsRadius: float32(math.Inf(1)), Min: mdx.Vec3{float32(math.NaN()), 0, 0}}}
	b, err := json.Marshal(Build(&model.File{Model: m, Format: model.FormatMDX}, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"extent":{"min":["NaN",0,0],"max":[0,0,0],"bounds_radius":"+Inf"}`)) {
		t.Errorf("extent in %s", b)
	}
}

// HD materials say so, with their slots, in every version; SD materials of
// the same model and classic models do not; the text names them.
func TestBuildHD(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "models")
	want := []Slot{{"diffuse", 6}, {"normal", 1}, {"orm", 2}, {"emissive", 3}, {"teamcolor", 4}, {"environment", 5}}
	for _, name := range []string{"hd_alpha_test", "hd_diffuse_v1100"} {
		r := Build(load(t, filepath.Join(root, name+".mdl")), name)
		mt := r.Materials[0]
		if !mt.HD || len(mt.HDPasses) != 1 || !mt.HDPasses[0].Implemented || mt.HDPasses[0].Shader != "Shader_HD_DefaultUnit" || !slices.Equal(mt.HDPasses[0].Slots, want) {
			t.Errorf("%s material 0: %+v", name, mt)
		}
		var buf bytes.Buffer
		if err := r.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "HD from layer 0: diffuse=6 normal=1 orm=2 emissive=3 teamcolor=4 environment=5") {
			t.Errorf("%s text:\n%s", name, buf.String())
		}
	}
	r := Build(load(t, filepath.Join(root, "hd_alpha_test.mdl")), "sd")
	if sd := r.Materials[1]; sd.HD || len(sd.HDPasses) != 0 {
		t.Errorf("SD material of an HD model: %+v", sd)
	}
	r = Build(load(t, filepath.Join(root, "hd_unknown_shader.mdl")), "crystal")
	if p := r.Materials[0].HDPasses; len(p) != 1 || p[0].Implemented || p[0].Shader != "Shader_HD_Crystal" {
		t.Errorf("Shader_HD_Crystal: %+v", p)
	}
	b, err := json.Marshal(Build(load(t, filepath.Join("testdata", "box.mdl")), "box"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"hd":false,"hd_passes":[]`)) {
		t.Errorf("classic material JSON: %s", b)
	}
}
