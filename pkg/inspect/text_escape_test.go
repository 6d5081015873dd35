package inspect

import (
	"bytes"
	"strings"
	"testing"
)

// Names from a file reach the text report quoted, with their control
// characters escaped and clipped: a node name cannot clear the screen,
// start a line of its own, show the rest of its line backwards or fill the
// terminal. Plain names stay as they are.
func TestWriteTextEscapesNames(t *testing.T) {
	evil := []string{"a\x1b[2Jb", "line\nbreak", "cr\rhidden", "evil\u202egpj.exe", "c1\u0085x", "tab\there", strings.Repeat("long", 100_000)}
	r := &Report{File: "map.w3x:war3mapImported/\x1b]0;owned\a.mdx", Format: "mdx", Name: evil[0], AnimationFile: evil[1],
		Problem: "node \x1b[31m\"x\" has no parent", Counts: &Counts{}}
	for i, s := range evil {
		r.Sequences = append(r.Sequences, Sequence{Name: s})
		r.Textures = append(r.Textures, Texture{Path: s})
		r.Materials = append(r.Materials, Material{Shader: s})
		r.Nodes = append(r.Nodes, Node{Name: s, Path: s, ObjectID: int32(i), ParentID: -1})
		r.Cameras = append(r.Cameras, s)
		r.UnknownChunks = append(r.UnknownChunks, UnknownChunk{Tag: s})
	}
	r.Nodes = append(r.Nodes, Node{Name: "Bone_Root", ObjectID: 99, ParentID: -1})
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
			t.Fatalf("raw %U in:\n%s", r, out)
		}
	}
	for _, want := range []string{`"a\x1b[2Jb"`, `"line\nbreak"`, `"evil\u202egpj.exe"`, `"tab\there"`, `… (400000 bytes)`, "Bone_Root", `\x1b[31m`} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %s:\n%.2000s", want, out)
		}
	}
	if len(out) > 30_000 {
		t.Errorf("%d bytes for %d names", len(out), 6*len(evil))
	}
}
