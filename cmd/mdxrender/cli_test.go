package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// run executes the CLI in-process as main would and returns what it printed
// and the exit status main would give.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := newRootCmd()
	var out, errb bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs(args)
	c, err := cmd.ExecuteC()
	code = reportCommand(c, err, &errb)
	return out.String(), errb.String(), code
}

// testModel builds a small v800 model that exercises every inspect section:
// looping and non-looping sequences, a global sequence, a plain and a
// replaceable texture, a two-layer material, a geoset, and a node hierarchy
// with a dangling parent and a parent cycle.
func testModel() *mdx.Model {
	m := &mdx.Model{
		Version:   800,
		Name:      "Tester",
		BlendTime: 150,
		Extent:    mdx.Extent{BoundsRadius: 5, Min: mdx.Vec3{-1, -2, -3}, Max: mdx.Vec3{1, 2, 3}},
		Sequences: []mdx.Sequence{
			{Name: "Stand", Interval: [2]uint32{0, 1000}, Rarity: 0},
			{Name: "Death", Interval: [2]uint32{2000, 2500}, Flags: mdx.SeqNonLooping},
		},
		GlobalSequences: []uint32{1234},
		Textures: []mdx.Texture{
			{Path: `Textures\Tester.blp`, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
			{ReplaceableID: 1},
		},
		Materials: []mdx.Material{{
			PriorityPlane: 2,
			Flags:         mdx.MatConstantColor,
			Layers: []mdx.Layer{
				{FilterMode: mdx.FilterNone, TextureID: 1, TextureAnimID: -1, Alpha: 1},
				{FilterMode: mdx.FilterBlend, Flags: mdx.LayerUnshaded | mdx.LayerTwoSided, TextureID: 0, TextureAnimID: -1, Alpha: 0.5,
					AlphaTrack: &mdx.Track[float32]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[float32]{{Frame: 0, Value: 1}}}},
			},
		}},
		Geosets: []mdx.Geoset{{
			Vertices:        []mdx.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}},
			Normals:         []mdx.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
			FaceTypes:       []uint32{4},
			FaceGroups:      []uint32{6},
			Faces:           []uint16{0, 1, 2, 2, 1, 3},
			VertexGroups:    []uint8{0, 0, 0, 0},
			MatrixGroups:    []uint32{1},
			MatrixIndices:   []uint32{0},
			SequenceExtents: []mdx.Extent{{}, {}},
			UVSets:          [][]mdx.Vec2{{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		}},
	}
	node := func(name string, id, parent int32, flags uint32) mdx.Node {
		return mdx.Node{Name: name, ObjectID: id, ParentID: parent, Flags: flags}
	}
	root := node("Root", 0, -1, mdx.NodeBone)
	root.Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{{Frame: 0, Value: mdx.Quat{0, 0, 0, 1}}}}
	m.Bones = []mdx.Bone{
		{Node: root, GeosetID: 0, GeosetAnimID: -1},
		{Node: node("Chest", 1, 0, mdx.NodeBone|mdx.NodeBillboarded), GeosetID: -1, GeosetAnimID: -1},
	}
	m.Helpers = []mdx.Helper{
		{Node: node("Lost", 2, 42, 0)},  // parent does not exist
		{Node: node("CycleA", 3, 4, 0)}, // CycleA and CycleB are each other's parent
		{Node: node("CycleB", 4, 3, 0)},
	}
	m.Attachments = []mdx.Attachment{{Node: node("Head Ref", 5, 1, mdx.NodeAttachment), AttachmentID: 0}}
	m.PivotPoints = make([]mdx.Vec3, 6)
	return m
}

// writeModel encodes m as MDX into dir/name and returns the path.
func writeModel(t *testing.T, dir, name string, m *mdx.Model) string {
	t.Helper()
	b, err := testmodel.EncodeMDX(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sharedDir is the shared folder (testshared.Corpus): the test skips
// when it is absent.
func sharedDir(t *testing.T) string {
	t.Helper()
	return testshared.Corpus(t)
}

// listDir returns the names in dir, for checking that nothing stray was left.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}
