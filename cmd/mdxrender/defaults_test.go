package main

import (
	"bytes"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// box is an axis-aligned box from lo to hi on bone 0 with material mat,
// its faces' normals pointing out.
func box(lo, hi mdx.Vec3, mat uint32) mdx.Geoset {
	g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{0}}
	var uvs []mdx.Vec2
	for axis := range 3 {
		for _, side := range []float32{-1, 1} {
			u, v := (axis+1)%3, (axis+2)%3
			if side < 0 {
				u, v = v, u
			}
			var n mdx.Vec3
			n[axis] = side
			base := uint16(len(g.Vertices))
			for _, c := range [4][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
				var p mdx.Vec3
				p[axis] = hi[axis]
				if side < 0 {
					p[axis] = lo[axis]
				}
				p[u], p[v] = [2]float32{lo[u], hi[u]}[c[0]], [2]float32{lo[v], hi[v]}[c[1]]
				g.Vertices = append(g.Vertices, p)
				g.Normals = append(g.Normals, n)
				g.VertexGroups = append(g.VertexGroups, 0)
				uvs = append(uvs, mdx.Vec2{float32(c[0]), float32(c[1])})
			}
			g.Faces = append(g.Faces, base, base+1, base+2, base, base+2, base+3)
		}
	}
	g.UVSets = [][]mdx.Vec2{uvs}
	g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
	g.Extent = mdx.Extent{Min: lo, Max: hi}
	return g
}

// portraitModel is a portrait model as the game's are: a head before a
// backdrop plane a hundred times its size (a Reforged portrait's), seen
// by its camera Portrait_Camera from half a metre; its first sequence is
// a Walk the camera does not see, its Portrait is the second. The head is
// team-coloured, the backdrop names a game texture that is missing.
func portraitModel() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "Hero_Portrait"}
	m.Sequences = []mdx.Sequence{
		{Name: "Walk", Interval: [2]uint32{0, 1000}},
		{Name: "Portrait", Interval: [2]uint32{2000, 4000}},
	}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}, {Path: `Textures\Portrait_BG_Diffuse.blp`}}
	m.Materials = []mdx.Material{
		{Layers: []mdx.Layer{{FilterMode: mdx.FilterNone, TextureID: 0, TextureAnimID: -1, Alpha: 1}}},
		{Layers: []mdx.Layer{{FilterMode: mdx.FilterNone, TextureID: 1, TextureAnimID: -1, Alpha: 1, Flags: mdx.LayerUnshaded}}},
	}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}}
	m.PivotPoints = []mdx.Vec3{{}}
	m.Geosets = []mdx.Geoset{
		box(mdx.Vec3{24, -8, 92}, mdx.Vec3{36, 8, 112}, 0),
		box(mdx.Vec3{-401, -1000, -900}, mdx.Vec3{-400, 1000, 1100}, 1),
	}
	m.Cameras = []mdx.Camera{{Name: "Portrait_Camera", Position: mdx.Vec3{90, 0, 104}, TargetPosition: mdx.Vec3{30, 0, 102},
		FieldOfView: 0.6, NearClip: 8, FarClip: 5000}}
	m.Extent = mdx.Extent{Min: mdx.Vec3{-401, -1000, -900}, Max: mdx.Vec3{36, 1000, 1100}}
	return m
}

// nrgbaPNG reads a PNG the command wrote as straight RGBA, whatever
// colour type the encoder chose (an opaque picture is written as RGB).
func nrgbaPNG(t *testing.T, name string) *image.NRGBA {
	t.Helper()
	return toNRGBA(readPNGFile(t, name))
}

func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	return out
}

// redShare is the share of img's pixels that are the team colour's red.
func redShare(img *image.NRGBA) float64 {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] > 120 && img.Pix[i+1] < 40 && img.Pix[i+2] < 40 && img.Pix[i+3] == 255 {
			n++
		}
	}
	return float64(n) / float64(len(img.Pix)/4)
}

// A portrait model gets one picture whatever draws it: render, the
// library's View{}, a batch's still, sheet's still and a one-frame
// sheet of its Portrait sequence are the same pixels, seen through its
// portrait camera (the head fills the picture; the orbit camera would
// show the backdrop and a speck of a head).
func TestPortraitSamePictureEverywhere(t *testing.T) {
	dir := t.TempDir()
	p := writeModel(t, dir, "Hero_Portrait.mdx", portraitModel())

	out := filepath.Join(dir, "render.png")
	if so, se, code := run(t, "render", p, "-o", out); code != 0 {
		t.Fatalf("render: exit %d\n%s%s", code, so, se)
	}
	want := nrgbaPNG(t, out)
	if s := redShare(want); s < 0.2 {
		t.Errorf("the head covers %.1f%% of the picture: not seen through the portrait camera", 100*s)
	}
	orbit := filepath.Join(dir, "orbit.png")
	if so, se, code := run(t, "render", p, "-o", orbit, "--camera", "orbit"); code != 0 {
		t.Fatalf("render --camera orbit: exit %d\n%s%s", code, so, se)
	}
	if s := redShare(nrgbaPNG(t, orbit)); s > 0.02 {
		t.Errorf("the orbit camera shows the head at %.1f%% of the picture; the fixture does not test the rule", 100*s)
	}

	m, err := mdxrender.Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	lib, _, err := m.Render(mdxrender.View{})
	if err != nil {
		t.Fatal(err)
	}
	same := func(what string, img *image.NRGBA) {
		t.Helper()
		if img.Rect != want.Rect || !bytes.Equal(img.Pix, want.Pix) {
			t.Errorf("%s draws another picture than render", what)
		}
	}
	same("View{}", toNRGBA(lib))

	bout := filepath.Join(dir, "batch")
	if so, se, code := run(t, "batch", p, "-o", bout); code != 0 {
		t.Fatalf("batch: exit %d\n%s%s", code, so, se)
	}
	stills, _ := filepath.Glob(filepath.Join(bout, "Hero_Portrait*.png"))
	if len(stills) != 1 {
		t.Fatalf("batch wrote %v", stills)
	}
	same("batch", nrgbaPNG(t, stills[0]))

	sout := filepath.Join(dir, "sheet")
	if so, se, code := run(t, "sheet", p, "-o", sout, "--format", "png,sheet", "--sequence", "Portrait", "--frames", "1", "--trim=false"); code != 0 {
		t.Fatalf("sheet: exit %d\n%s%s", code, so, se)
	}
	same("sheet's still", nrgbaPNG(t, filepath.Join(sout, "Hero_Portrait.png")))
	same("a one-frame sheet", nrgbaPNG(t, filepath.Join(sout, "Hero_Portrait-sheet.png")))
}

// A missing texture is one warning line: its code, the path the model
// gives and what to pass to supply it; --verbose lists the places looked
// in below it.
func TestMissingTextureWarningLine(t *testing.T) {
	dir := t.TempDir()
	p := writeModel(t, dir, "Hero_Portrait.mdx", portraitModel())
	out := filepath.Join(dir, "x.png")
	_, stderr, code := run(t, "render", p, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(l, "Portrait_BG_Diffuse") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d lines name the missing texture, want 1:\n%s", len(lines), stderr)
	}
	for _, want := range []string{"missing-texture", `"Textures\\Portrait_BG_Diffuse.blp"`, "--textures DIR", "--game-data DIR"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("%q lacks %q", lines[0], want)
		}
	}
	if strings.Contains(lines[0], "looked for") || len(lines[0]) > 400 {
		t.Errorf("%q: the places looked in belong to --verbose", lines[0])
	}
	_, stderr, _ = run(t, "render", p, "-o", out, "--verbose")
	if !strings.Contains(stderr, "looked for "+filepath.Join(dir, "Textures", "Portrait_BG_Diffuse.blp")) &&
		!strings.Contains(stderr, "looked for "+filepath.ToSlash(filepath.Join(dir, "Textures", "Portrait_BG_Diffuse.blp"))) {
		t.Errorf("--verbose does not list the places looked in:\n%s", stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// The corpus' portrait models: render's picture and the batch's still are
// the same pixels.
func TestCorpusPortraitsSameInRenderAndBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the corpus' portraits twice")
	}
	shared := sharedDir(t)
	var models []string
	filepath.WalkDir(filepath.Join(shared, "corpus", "files"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(strings.ToLower(strings.TrimSuffix(d.Name(), filepath.Ext(d.Name()))), "_portrait") {
			models = append(models, p)
		}
		return nil
	})
	if len(models) < 5 {
		t.Fatalf("%d portrait models in the corpus", len(models))
	}
	for i, p := range models {
		dir := t.TempDir()
		out := filepath.Join(dir, "render.png")
		if so, se, code := run(t, "render", p, "-o", out, "--size", "128"); code != 0 {
			t.Errorf("%s: render: exit %d\n%s%s", p, code, so, se)
			continue
		}
		bout := filepath.Join(dir, "batch")
		if so, se, code := run(t, "batch", p, "-o", bout, "--size", "128"); code != 0 {
			t.Errorf("%s: batch: exit %d\n%s%s", p, code, so, se)
			continue
		}
		stills, _ := filepath.Glob(filepath.Join(bout, "*.png"))
		if len(stills) != 1 {
			t.Errorf("%s: batch wrote %v", p, stills)
			continue
		}
		a, b := nrgbaPNG(t, out), nrgbaPNG(t, stills[0])
		if a.Rect != b.Rect || !bytes.Equal(a.Pix, b.Pix) {
			t.Errorf("%d %s: render and batch draw different pictures", i, p)
		}
	}
}
