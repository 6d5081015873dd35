package render

import (
	"image"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// bust builds a standing figure 78 units tall: legs and torso (30 wide),
// shoulders (66 wide) from 44 to 60, and a 16-unit head from 62 to 78,
// all team-coloured; its second bone is named head, with its pivot at
// the neck, unless head is "".
func bust(head string) *mdx.Model {
	m := &mdx.Model{Version: 800}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}}
	m.Materials = []mdx.Material{{Layers: []mdx.Layer{{FilterMode: mdx.FilterNone, TextureID: 0, TextureAnimID: -1, Alpha: 1}}}}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}}
	m.PivotPoints = []mdx.Vec3{{0, 0, 0}}
	name := head
	if name == "" {
		name = "Spine"
	}
	m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{Name: name, ObjectID: 1, ParentID: 0, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1})
	m.PivotPoints = append(m.PivotPoints, mdx.Vec3{0, 0, 62})
	for _, b := range []struct {
		c mdx.Vec3
		h float32
	}{{mdx.Vec3{0, 0, 15}, 15}, {mdx.Vec3{0, 0, 45}, 15}, {mdx.Vec3{0, 25, 52}, 8}, {mdx.Vec3{0, -25, 52}, 8}, {mdx.Vec3{0, 0, 70}, 8}} {
		g := cube(b.h, 0)
		for i := range g.Vertices {
			g.Vertices[i][0] += b.c[0]
			g.Vertices[i][1] += b.c[1]
			g.Vertices[i][2] += b.c[2] - b.h
		}
		m.Geosets = append(m.Geosets, g)
	}
	return m
}

// bustShape returns the box of a picture's visible pixels and the width
// of its fourth row from the top: the head's, in a picture of bust.
func bustShape(img *image.NRGBA) (box image.Rectangle, headWidth int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	widths := make([]int, h)
	box = image.Rectangle{Min: image.Pt(w, h), Max: image.Pt(-1, -1)}
	for y := range h {
		x0, x1 := w, -1
		for x := range w {
			if img.Pix[y*img.Stride+4*x+3] > 128 {
				x0, x1 = min(x0, x), max(x1, x)
			}
		}
		if x1 >= 0 {
			widths[y] = x1 - x0 + 1
			box.Min.X, box.Max.X = min(box.Min.X, x0), max(box.Max.X, x1+1)
			box.Min.Y, box.Max.Y = min(box.Min.Y, y), max(box.Max.Y, y+1)
		}
	}
	if box.Max.Y < 0 {
		return box, 0
	}
	return box, widths[min(box.Min.Y+3, h-1)]
}

// TestFitHead frames the bust whole and by its head: framed by the head,
// its crown is at the top margin, the head is several times wider than
// when framed whole, and the body runs out of the bottom edge; framed
// whole, the feet stand inside the margin. Without a head bone the top of
// the silhouette gives nearly the same picture.
func TestFitHead(t *testing.T) {
	const size = 100
	draw := func(m *mdx.Model, fit Fit) (image.Rectangle, int) {
		t.Helper()
		img, _, err := NewAnimator(m, "bust", Textures{}).Render(View{Width: size, Fit: fit, Particles: Particles{Off: true}})
		if err != nil {
			t.Fatal(err)
		}
		return bustShape(img)
	}
	whole, wholeHead := draw(bust("Bip01 Head"), FitVertices)
	if whole.Max.Y >= size || wholeHead > size/4 || wholeHead == 0 {
		t.Errorf("framed whole: silhouette %v, head %d pixels wide", whole, wholeHead)
	}
	for _, name := range []string{"Bip01 Head", ""} {
		box, head := draw(bust(name), FitHead)
		t.Logf("head bone %q: silhouette %v, head %d pixels wide; whole: %v, %d", name, box, head, whole, wholeHead)
		if box.Max.Y != size || box.Min.Y > size/10 {
			t.Errorf("head bone %q: silhouette %v, want the top within the margin and the body cut by the bottom edge", name, box)
		}
		if head < 3*wholeHead {
			t.Errorf("head bone %q: head %d pixels wide, framed whole %d", name, head, wholeHead)
		}
	}
}

func TestHeadNode(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  int
	}{
		{[]string{"Root", "Bip01 Head"}, 1},
		{[]string{"bone_head", "Head Ref"}, 0},
		{[]string{"OverHead Ref", "Spine", "BoneHead"}, 2},
		{[]string{"bone_lionhead_L", "Overhead"}, -1},
		{[]string{"Head Right"}, 0},
	} {
		m := &mdx.Model{}
		for i, n := range c.names {
			m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{Name: n, ObjectID: int32(i), ParentID: -1}})
		}
		i, ok := headNode(m)
		if !ok {
			i = -1
		}
		if i != c.want {
			t.Errorf("%q: head node %d, want %d", c.names, i, c.want)
		}
	}
	// An attachment counts when no bone does, a bone wins over it.
	m := &mdx.Model{Bones: []mdx.Bone{{Node: mdx.Node{Name: "Root"}}}, Attachments: []mdx.Attachment{{Node: mdx.Node{Name: "Head Ref"}}}}
	if i, ok := headNode(m); !ok || i != 1 {
		t.Errorf("attachment: %d %v", i, ok)
	}
}

func TestPortraitCameraChoice(t *testing.T) {
	m := &mdx.Model{Cameras: []mdx.Camera{{Name: "Camera01"}, {Name: "Portrait_Camera"}}}
	if i, ok := PortraitCamera(m, "Units/Footman.mdx"); !ok || i != 1 {
		t.Errorf("named: %d %v", i, ok)
	}
	// A unit's Portrait camera is its icon's, not its thumbnail's.
	if _, ok := DefaultCamera(m, "Units/Footman.mdx"); ok {
		t.Error("a unit's thumbnail looks through its portrait camera")
	}
	if i, ok := DefaultCamera(m, "Units/Footman_Portrait.mdx"); !ok || i != 1 {
		t.Errorf("portrait model: %d %v", i, ok)
	}
	m.Cameras[1].Name = "Side"
	if _, ok := PortraitCamera(m, "Footman.mdx"); ok {
		t.Error("a camera not named like Portrait chosen")
	}
	for _, name := range []string{"Footman_Portrait.mdx", `units\human\Footman_portrait.MDL`, "maps/a.w3x:war3mapImported/Hero_PORTRAIT.mdx"} {
		if i, ok := PortraitCamera(m, name); !ok || i != 0 {
			t.Errorf("%s: any: %d %v", name, i, ok)
		}
		if i, ok := DefaultCamera(m, name); !ok || i != 0 {
			t.Errorf("%s: default: %d %v", name, i, ok)
		}
	}
	for _, name := range []string{"Portraits/Footman.mdx", "FootmanPortrait.mdx", "Footman_Portrait_old.mdx", "Footman_Portrait.mdx/x.mdx"} {
		if IsPortraitModel(name) {
			t.Errorf("%s taken for a portrait model", name)
		}
	}
	if _, ok := DefaultCamera(&mdx.Model{}, "X_Portrait.mdx"); ok {
		t.Error("a portrait model without cameras has a default camera")
	}
}

// A portrait model has no Stand: the picture shows its Portrait sequence,
// not a Walk its camera does not see nor a talking one.
func TestStandSequencePortrait(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  int
	}{
		{[]string{"Walk", "Portrait - 1", "Portrait Talk - 1"}, 1},
		{[]string{"Portrait Talk 1", "Portrait 2"}, 1},
		{[]string{"Walk", "Portrait", "Stand Ready"}, 2},
		{[]string{"Portrait Talk"}, 0},
		{[]string{"Birth", "Death"}, 0},
	} {
		got := StandSequence(len(c.names), func(i int) string { return c.names[i] })
		if got != c.want {
			t.Errorf("%q: sequence %d, want %d", c.names, got, c.want)
		}
	}
}
