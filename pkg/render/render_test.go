package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// cubeModel is a 20-unit cube on the origin with one bone that turns about
// +Z over sequence 0 and a two-layer material (team colour under a Blend
// layer with alpha 0.5), plus a Transparent second geoset.
func cubeModel() *mdx.Model {
	m := &mdx.Model{Version: 800}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}, {Path: "missing.blp"}}
	m.Materials = []mdx.Material{
		{Layers: []mdx.Layer{
			{FilterMode: mdx.FilterNone, TextureID: 0, TextureAnimID: -1, Alpha: 1},
			{FilterMode: mdx.FilterBlend, TextureID: 1, TextureAnimID: -1, Alpha: 0.5},
		}},
	}
	b := mdx.Bone{Node: mdx.Node{Name: "root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}
	b.Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{
		{Frame: 0, Value: mdx.Quat{0, 0, 0, 1}}, {Frame: 1000, Value: mdx.Quat{0, 0, 0.7071068, 0.7071068}}}}
	m.Bones = []mdx.Bone{b}
	m.PivotPoints = []mdx.Vec3{{0, 0, 0}}
	m.Geosets = []mdx.Geoset{cube(10, 0)}
	return m
}

// cube builds a cube of half-size h centred at (0,0,h+z0), outward
// counter-clockwise faces, all vertices in matrix group 0 (bone 0).
func cube(h, z0 float32) mdx.Geoset {
	g := mdx.Geoset{MatrixGroups: []uint32{1}, MatrixIndices: []uint32{0}}
	faces := [6][3]float32{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}
	var uvs []mdx.Vec2
	for _, n := range faces {
		// Two axes spanning the face, u × v = n.
		var u, v [3]float32
		switch {
		case n[0] != 0:
			u, v = [3]float32{0, n[0], 0}, [3]float32{0, 0, 1}
		case n[1] != 0:
			u, v = [3]float32{-n[1], 0, 0}, [3]float32{0, 0, 1}
		default:
			u, v = [3]float32{1, 0, 0}, [3]float32{0, n[2], 0}
		}
		base := uint16(len(g.Vertices))
		for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p mdx.Vec3
			for k := 0; k < 3; k++ {
				p[k] = h * (n[k] + c[0]*u[k] + c[1]*v[k])
			}
			p[2] += h + z0
			g.Vertices = append(g.Vertices, p)
			g.Normals = append(g.Normals, mdx.Vec3(n))
			g.VertexGroups = append(g.VertexGroups, 0)
			uvs = append(uvs, mdx.Vec2{(c[0] + 1) / 2, (1 - c[1]) / 2})
		}
		g.Faces = append(g.Faces, base, base+1, base+2, base, base+2, base+3)
	}
	g.FaceTypes = []uint32{4}
	g.FaceGroups = []uint32{uint32(len(g.Faces))}
	g.UVSets = [][]mdx.Vec2{uvs}
	return g
}

func encodePNG(t testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRenderCube(t *testing.T) {
	m := cubeModel()
	img, warns, err := renderAt(m, "testdata/none.mdx", View{Width: 64, Yaw: 30, Pitch: 20, Time: Ms(250), Background: &color.NRGBA{0, 0, 0, 255}, Particles: Particles{Off: true},
		MissingTextures: MissingWhite})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "missing.blp") {
		t.Fatalf("warnings = %v, want one naming missing.blp", warns)
	}
	// The centre is a side face (lit at 70%): team red (255,3,3) under the
	// missing texture's white (the reference viewer's stand-in,
	// MissingWhite) at layer alpha 0.5: R = 0.7·255 = 179,
	// G = B = 0.7·(0.5·3 + 0.5·255) = 90.
	c := img.NRGBAAt(32, 32)
	if absDiff(c.R, 179) > 1 || absDiff(c.G, 90) > 1 || c.B != c.G || c.A != 255 {
		t.Fatalf("centre pixel = %v, want {179 90 90 255}", c)
	}
	if c := img.NRGBAAt(1, 1); c != (color.NRGBA{0, 0, 0, 255}) {
		t.Fatalf("corner = %v, want background", c)
	}
}

func TestRenderSkipsInvisibleAndLOD(t *testing.T) {
	m := cubeModel()
	m.GeosetAnims = []mdx.GeosetAnim{{Alpha: 0.005, Color: mdx.Vec3{1, 1, 1}, GeosetID: 0}}
	img, _, err := renderAt(m, "x.mdx", View{Width: 32, Particles: Particles{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	if c := img.NRGBAAt(16, 16); c.A != 0 {
		t.Fatalf("geoset alpha 0.005 should be skipped: %v", c)
	}
	m.GeosetAnims = nil
	m.Geosets[0].LOD = 1
	img, _, _ = renderAt(m, "x.mdx", View{Width: 32, Fit: FitExtent, Particles: Particles{Off: true}})
	if c := img.NRGBAAt(16, 16); c.A != 0 {
		t.Fatalf("LOD 1 geoset should not be drawn: %v", c)
	}
}

func TestSequenceAndCameraIndex(t *testing.T) {
	m := cubeModel()
	m.Sequences = append(m.Sequences, mdx.Sequence{Name: "Attack Slam"}, mdx.Sequence{Name: "attack"})
	for s, want := range map[Sequence]int{{}: 0, BindPose(): -1, SequenceAt(2): 2, SequenceNamed("ATTACK"): 2, SequenceNamed("attack s"): 1} {
		if got, err := s.Index(m); err != nil || got != want {
			t.Errorf("Sequence %q: Index = %d, %v; want %d", s, got, err, want)
		}
	}
	if _, err := SequenceNamed("walk").Index(m); err == nil || !strings.Contains(err.Error(), `2 "attack"`) {
		t.Errorf("unknown sequence name: %v, want an error listing the sequences", err)
	}
	if _, err := SequenceAt(7).Index(m); err == nil {
		t.Error("sequence index out of range should fail")
	}
	m.Cameras = []mdx.Camera{{Name: "Portrait"}}
	if i, err := cameraIndex(m, "portrait"); err != nil || i != 0 {
		t.Errorf("cameraIndex = %d, %v", i, err)
	}
	if _, err := cameraIndex(m, "1"); err == nil {
		t.Error("camera index out of range should fail")
	}
}

func TestPortraitCamera(t *testing.T) {
	m := cubeModel()
	// Looking at the cube from +X, 45° vertical fov: the cube fills the
	// middle of the frame.
	m.Cameras = []mdx.Camera{{Name: "Portrait", Position: mdx.Vec3{80, 0, 10}, TargetPosition: mdx.Vec3{0, 0, 10}, FieldOfView: 0.785398, NearClip: 1, FarClip: 1000}}
	img, _, err := renderAt(m, "x.mdx", View{Width: 64, Camera: "Portrait", Sequence: BindPose(), Particles: Particles{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	if img.NRGBAAt(32, 32).A != 255 || img.NRGBAAt(2, 32).A != 0 {
		t.Fatalf("portrait framing: centre %v, edge %v", img.NRGBAAt(32, 32), img.NRGBAAt(2, 32))
	}
}

func TestRenderErrors(t *testing.T) {
	m := cubeModel()
	if _, _, err := renderAt(m, "x.mdx", View{Width: -1, Particles: Particles{Off: true}}); err == nil {
		t.Error("negative size should fail")
	}
	m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{Name: "a", ObjectID: 1, ParentID: 2}}, mdx.Bone{Node: mdx.Node{Name: "b", ObjectID: 2, ParentID: 1}})
	if _, _, err := renderAt(m, "x.mdx", View{Particles: Particles{Off: true}}); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cycle: err = %v", err)
	}
}

// The same render gives the same bytes whatever GOMAXPROCS is.
func TestDeterminism(t *testing.T) {
	type job struct {
		name string
		m    *mdx.Model
		path string
	}
	jobs := []job{{"cube", cubeModel(), "x.mdx"}}
	p := filepath.Join(testshared.Root(), "corpus", "files", "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx")
	if b, err := os.ReadFile(p); err == nil {
		m, err := testmodel.Load(b)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{"evilshadowhunter", m, p})
	} else {
		t.Logf("corpus model not found, determinism checked on the built-in cube only (%v)", err)
	}
	for _, j := range jobs {
		sameOnAnyCores(t, j.name, j.m, j.path, View{Width: 96, SSAA: 2, Yaw: 40, Pitch: 25, Time: Ms(300), Particles: Particles{Off: true}}, 1, 2, 8)
	}
}

// sameOnAnyCores renders m, read from path, at v with GOMAXPROCS set to
// each of procs in turn, and wants the same PNG bytes every time.
func sameOnAnyCores(t *testing.T, name string, m *mdx.Model, path string, v View, procs ...int) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []byte
	for _, n := range procs {
		runtime.GOMAXPROCS(n)
		img, _, err := renderAt(m, path, v)
		if err != nil {
			t.Fatal(err)
		}
		b := encodePNG(t, img)
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Fatalf("%s: GOMAXPROCS %d gives different bytes from GOMAXPROCS %d", name, n, procs[0])
		}
	}
}

// corpusModel loads the shared corpus file rel (slash-separated, under
// corpus/files), skipping tb when it is absent.
func corpusModel(tb testing.TB, rel string) (*mdx.Model, string) {
	tb.Helper()
	p := filepath.Join(testshared.Root(), "corpus", "files", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("corpus model not found: %v", err)
	}
	return loadFixture(tb, p), p
}

// A few reference-viewer views, rendered with their exact cameras, must
// stay under 1% mismatched pixels (channel difference > 16, over black),
// the measure of docs/fidelity.md#the-measure. scripts/fidelity.sh runs all.
func TestAgainstReferenceViewer(t *testing.T) {
	shared := testshared.Dir(t, "reference/peer/jobs.tsv")
	want := map[string]bool{
		"War3ModelView_testmodel_49_mdx.a.png":                                   true,
		"war3-ap-maps_mods_apimports_eviljaina_portrait_mdx.a.png":               true,
		"wc3-map-edemium-legacy_map_SkeletonMage2_mdx.b.png":                     true,
		"dbz-tribute-reforged_maps_Tribute_Reforged.w3x_VidelLongHair_mdx.b.png": true,
		"warcraft3-icc_ICC.w3x_boneguardrockspike_spell02_mdx.b.png":             true,
		"War3ModelView_testmodel_File00001202_98f1fm0_mdl.a.png":                 true,
		"wc3lib_src_mdlx_test_interpolation_geosetanim_mdl.b.png":                true,
	}
	cache := texture.NewCache(0)
	for _, j := range peerJobs(t, shared, "peer", want) {
		j.view.Particles = Particles{Off: true}
		img, _, err := NewAnimator(j.model, j.path, besideModel(j.path, &texture.Resolver{Cache: cache})).Render(j.view)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		ref := golden.ReadPNG(t, filepath.Join(shared, "reference", "peer", j.name))
		if pct := mismatch(ref, img, 16); pct >= 1 {
			t.Errorf("%s: %.2f%% mismatched pixels, want < 1%%", j.name, pct)
		}
	}
}

// peerJob is one view of a reference viewer job list.
type peerJob struct {
	name  string // the reference image's file name
	path  string // the model's path
	model *mdx.Model
	view  View // the view as the harness rendered it: 256 wide over black
}

// peerJobs reads the rows named in want from shared/reference/<dir>/jobs.tsv
// (docs/fidelity.md) with their models, failing t unless it finds them all.
// The view has the row's sequence, time, team and exact camera and, in a
// job list of simulated particles, its seed and step with no pre-roll.
func peerJobs(t *testing.T, shared, dir string, want map[string]bool) []peerJob {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shared, "reference", dir, "jobs.tsv"))
	if err != nil {
		t.Skip(err)
	}
	var jobs []peerJob
	for _, line := range strings.Split(string(data), "\n") {
		col := strings.Split(line, "\t")
		if len(col) < 14 || !want[col[0]] {
			continue
		}
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(col[i], 64)
			if err != nil {
				t.Fatalf("%s: column %d: %v", col[0], i, err)
			}
			return v
		}
		var tv [3]float64
		for i, s := range strings.Split(col[11], ",") {
			tv[i], _ = strconv.ParseFloat(s, 64)
		}
		tgt := fauxgl.V(tv[0], tv[1], tv[2])
		team, _ := strconv.Atoi(col[5])
		j := peerJob{name: col[0], path: filepath.Join(shared, "reference", col[1])}
		if j.model, err = testmodel.LoadPath(j.path); err != nil {
			t.Fatalf("%s: %v", j.path, err)
		}
		j.view = View{
			Width: 256, Sequence: harnessSequence(col[2]), Time: Ms(num(4)), Team: texture.Player(team), Background: &color.NRGBA{0, 0, 0, 255}, Yaw: num(7), Pitch: num(8), Fov: num(9), Distance: num(10), Target: &tgt, Near: num(12), Far: num(13),
		}
		if len(col) >= 18 {
			seed, _ := strconv.Atoi(col[17])
			j.view.Particles = Particles{Seed: seedOf(seed), StepMs: num(16), Preroll: NoPreroll}
		}
		jobs = append(jobs, j)
	}
	if len(jobs) != len(want) {
		t.Fatalf("found %d of %d reference views in %s/jobs.tsv", len(jobs), len(want), dir)
	}
	return jobs
}

func absDiff(a, b uint8) int {
	d := int(a) - int(b)
	if d < 0 {
		return -d
	}
	return d
}

// mismatch is the percentage of pixels with any channel (over black)
// differing by more than tol.
func mismatch(a, b image.Image, tol int) float64 {
	r := a.Bounds()
	if r != b.Bounds() {
		return 100
	}
	bad := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			pa, pb := overBlack(ca), overBlack(cb)
			for k := 0; k < 3; k++ {
				d := pa[k] - pb[k]
				if d < 0 {
					d = -d
				}
				if d > tol {
					bad++
					break
				}
			}
		}
	}
	return 100 * float64(bad) / float64(r.Dx()*r.Dy())
}

func overBlack(c color.NRGBA) [3]int {
	return [3]int{int(c.R) * int(c.A) / 255, int(c.G) * int(c.A) / 255, int(c.B) * int(c.A) / 255}
}

// renderAt draws a still of m, read from path, with its textures found in
// the model's folder.
func renderAt(m *mdx.Model, path string, v View) (*image.NRGBA, []Warning, error) {
	return NewAnimator(m, path, besideModel(path, nil)).Render(v)
}

// besideModel finds textures in the folder of the model at path, then with
// res (nil: a private resolver).
func besideModel(path string, res *texture.Resolver) Textures {
	return Textures{Local: []texture.Source{texture.Folder(filepath.Dir(path))}, Resolver: res}
}

// harnessSequence reads a sequence as the reference harness's job lists
// name it: an index, -1 for the bind pose, anything else a name.
func harnessSequence(s string) Sequence {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return SequenceNamed(s)
	case n == -1:
		return BindPose()
	}
	return SequenceAt(n)
}

// harnessTime reads a time as the reference harness's job lists give it:
// ms after the sequence start.
func harnessTime(s string) (Time, error) {
	v, err := strconv.ParseFloat(s, 64)
	return Ms(v), err
}
