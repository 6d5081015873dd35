package particles_test

import (
	"image/color"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Fixture models for ribbon and PREM emitters, in testdata/models as MDL
// generated from the Go below (UPDATE_FIXTURES=1 go test -run
// TestEmitterFixtureModels ./pkg/particles rewrites them), with golden
// images at several times in testdata/golden (UPDATE_GOLDEN=1 rewrites
// them). They reuse the render fixtures' textures in
// testdata/models/Textures.

var (
	fixModelsDir = filepath.Join("..", "..", "testdata", "models")
	fixGoldenDir = filepath.Join("..", "..", "testdata", "golden")
)

// fixTol is pkg/render's golden tolerance: a pixel differs when a channel
// is off by more than 4; an image fails above 0.2% such pixels.
var fixTol = golden.Tolerance{Channel: 4, MaxPercent: 0.2}

type emitterFixture struct {
	name  string
	m     *mdx.Model
	times []float64 // ms; no goldens when empty (a file other fixtures use)
	warn  string    // a warning every render must give; "" for none
}

func qAxis(axis [3]float64, deg float64) mdx.Quat {
	r := deg * math.Pi / 180
	s := math.Sin(r / 2)
	return mdx.Quat{float32(axis[0] * s), float32(axis[1] * s), float32(axis[2] * s), float32(math.Cos(r / 2))}
}

func linear[T mdx.TrackValue](keys ...mdx.Key[T]) *mdx.Track[T] {
	return &mdx.Track[T]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: keys}
}

func step[T mdx.TrackValue](keys ...mdx.Key[T]) *mdx.Track[T] {
	return &mdx.Track[T]{Interpolation: mdx.DontInterp, GlobalSeqID: -1, Keys: keys}
}

func key[T mdx.TrackValue](f int32, v T) mdx.Key[T] { return mdx.Key[T]{Frame: f, Value: v} }

// spin turns about Z once a second, in quarter keys.
func spin() *mdx.Track[mdx.Quat] {
	z := [3]float64{0, 0, 1}
	return linear(key(0, qAxis(z, 0)), key(250, qAxis(z, 90)), key(500, qAxis(z, 180)), key(750, qAxis(z, 270)), key(1000, qAxis(z, 360)))
}

// emitterBase has a looping "Stand" (0-1000), the render fixtures' two
// textures and a bone "Arm" at (0, 0, 50) that turns about Z once a
// second; its extent is the box the camera frames.
func emitterBase(name string) *mdx.Model {
	m := &mdx.Model{Version: 800, Name: name, BlendTime: 150}
	ext := mdx.Extent{BoundsRadius: 87, Min: mdx.Vec3{-60, -60, 0}, Max: mdx.Vec3{60, 60, 100}}
	m.Extent = ext
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}, Extent: ext}}
	m.Textures = []mdx.Texture{
		{Path: `Textures\fixture_checker.tga`},
		{Path: `Textures\fixture_stripes.tga`, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
	}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Arm", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone, Rotation: spin()}, GeosetID: -1, GeosetAnimID: -1}}
	m.PivotPoints = []mdx.Vec3{{0, 0, 50}}
	return m
}

func addRibbon(m *mdx.Model, r mdx.RibbonEmitter, pivot mdx.Vec3) {
	r.ObjectID = int32(len(m.PivotPoints))
	r.Flags |= mdx.NodeRibbonEmitter
	m.RibbonEmitters = append(m.RibbonEmitters, r)
	m.PivotPoints = append(m.PivotPoints, pivot)
}

// cubeGeoset is an axis-aligned cube of half-size h centred at c, all on
// bone 0, each face showing the whole texture.
func cubeGeoset(c mdx.Vec3, h float32, mat uint32) mdx.Geoset {
	g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{0}}
	uvs := []mdx.Vec2{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	for axis := 0; axis < 3; axis++ {
		for _, sgn := range []float32{-1, 1} {
			var n mdx.Vec3
			n[axis] = sgn
			u, v := (axis+1)%3, (axis+2)%3
			base := uint16(len(g.Vertices))
			for _, k := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				p := c
				p[axis] += sgn * h
				p[u] += k[0] * h * sgn
				p[v] += k[1] * h
				g.Vertices = append(g.Vertices, p)
				g.Normals = append(g.Normals, n)
				g.VertexGroups = append(g.VertexGroups, 0)
			}
			g.Faces = append(g.Faces, base, base+1, base+2, base, base+2, base+3)
		}
	}
	g.UVSets = [][]mdx.Vec2{nil}
	for i := 0; i < 6; i++ {
		g.UVSets[0] = append(g.UVSets[0], uvs...)
	}
	g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
	g.Extent = mdx.Extent{Min: mdx.Vec3{c[0] - h, c[1] - h, c[2] - h}, Max: mdx.Vec3{c[0] + h, c[1] + h, c[2] + h}}
	return g
}

func emitterFixtures() []emitterFixture {
	var fs []emitterFixture

	// A flat ring: an additive two-sided ribbon on the turning arm, 40
	// units out, spanning the arm's local Y (radial) from 30 to 50 units;
	// red turning blue through the second; the viewer's gravity quirk pulls
	// every edge towards −Y by 300·dt² a step.
	{
		m := emitterBase("RibbonTrail")
		m.Materials = []mdx.Material{{PriorityPlane: 0, Layers: []mdx.Layer{
			{FilterMode: mdx.FilterAdditive, TextureID: 0, TextureAnimID: -1, Alpha: 1, Flags: mdx.LayerUnshaded | mdx.LayerTwoSided},
		}}}
		addRibbon(m, mdx.RibbonEmitter{
			Node:        mdx.Node{Name: "Trail", ParentID: 0},
			HeightAbove: 10, HeightBelow: 10, Alpha: 1, Color: mdx.Vec3{1, 1, 1},
			ColorTrack: linear(key(0, mdx.Vec3{1, 0.3, 0.3}), key(1000, mdx.Vec3{0.3, 0.4, 1})),
			LifeSpan:   0.5, EmissionRate: 30, Rows: 1, Columns: 1, MaterialID: 0, Gravity: 300,
		}, mdx.Vec3{0, 40, 50})
		fs = append(fs, emitterFixture{name: "ribbon_trail", m: m, times: []float64{250, 500, 900}})
	}

	// A wall: the ribbon node is turned 90° about X, so its local Y is
	// world Z and the strip stands upright round the arm, which turns
	// clockwise. Its Blend layer is one-sided, so the viewer culls the half
	// of the band seen from behind (here the far half of the ring). A 2×2 atlas with KRTX
	// stepping through slots 0-3, which the viewer maps wrongly past the
	// first row (a known fault of it). KRAL drops to 0 from 600 to 800 ms: no
	// edges are born then (the alpha rule of visibility), the live ones
	// are drawn with alpha 0, and afterwards one long quad bridges the gap.
	{
		m := emitterBase("RibbonWall")
		z := [3]float64{0, 0, 1} // the arm turns clockwise here
		m.Bones[0].Rotation = linear(key(0, qAxis(z, 0)), key(250, qAxis(z, -90)), key(500, qAxis(z, -180)), key(750, qAxis(z, -270)), key(1000, qAxis(z, -360)))
		m.Materials = []mdx.Material{{PriorityPlane: 0, Layers: []mdx.Layer{
			{FilterMode: mdx.FilterBlend, TextureID: 1, TextureAnimID: -1, Alpha: 1, Flags: mdx.LayerUnshaded},
		}}}
		addRibbon(m, mdx.RibbonEmitter{
			Node: mdx.Node{Name: "Wall", ParentID: 0,
				Rotation: linear(key(0, qAxis([3]float64{1, 0, 0}, 90)))},
			HeightAbove: 15, HeightBelow: 5, Alpha: 1, Color: mdx.Vec3{1, 1, 1},
			AlphaTrack:       step(key(0, float32(0.9)), key(600, float32(0)), key(800, float32(0.9))),
			TextureSlotTrack: step(key(0, uint32(0)), key(250, uint32(1)), key(500, uint32(2)), key(750, uint32(3))),
			LifeSpan:         0.9, EmissionRate: 25, Rows: 2, Columns: 2, MaterialID: 0,
		}, mdx.Vec3{0, 45, 50})
		fs = append(fs, emitterFixture{name: "ribbon_wall", m: m, times: []float64{300, 550, 950}})
	}

	// The spawned model of prem_spawner: a checker cube that spins once a
	// second about Z and fades to half alpha over its "Birth" (0-800 ms,
	// looping).
	{
		m := &mdx.Model{Version: 800, Name: "PremSpark", BlendTime: 150}
		ext := mdx.Extent{BoundsRadius: 14, Min: mdx.Vec3{-8, -8, -8}, Max: mdx.Vec3{8, 8, 8}}
		m.Extent = ext
		m.Sequences = []mdx.Sequence{{Name: "Birth", Interval: [2]uint32{0, 800}, Extent: ext}}
		m.Textures = []mdx.Texture{{Path: `Textures\fixture_checker.tga`}}
		m.Materials = []mdx.Material{{Layers: []mdx.Layer{{FilterMode: mdx.FilterBlend, TextureID: 0, TextureAnimID: -1, Alpha: 1}}}}
		m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Spin", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone, Rotation: spin()}, GeosetID: 0, GeosetAnimID: 0}}
		m.PivotPoints = []mdx.Vec3{{0, 0, 0}}
		m.Geosets = []mdx.Geoset{cubeGeoset(mdx.Vec3{}, 6, 0)}
		m.GeosetAnims = []mdx.GeosetAnim{{Alpha: 1, Color: mdx.Vec3{1, 1, 1}, GeosetID: 0,
			AlphaTrack: linear(key(0, float32(1)), key(800, float32(0.5)))}}
		fs = append(fs, emitterFixture{name: "prem_spark", m: m})
	}

	// An old ParticleEmitter on the turning arm, 20 units out, that spawns
	// prem_spark.mdl 4 times a second (not doubled), 60 units/s up within
	// 0.5 rad, gravity 40, each living 1.5 s.
	{
		m := emitterBase("PremSpawner")
		m.ParticleEmitters = []mdx.ParticleEmitter{{
			Node:         mdx.Node{Name: "Sparks", ObjectID: 1, ParentID: 0, Flags: mdx.NodeParticleEmitter | mdx.NodeEmitterUsesMDL},
			EmissionRate: 4, Gravity: 40, Latitude: 0.5, LifeSpan: 1.5, Speed: 60, Path: "prem_spark.mdl",
		}}
		m.PivotPoints = append(m.PivotPoints, mdx.Vec3{0, 20, 20})
		fs = append(fs, emitterFixture{name: "prem_spawner", m: m, times: []float64{500, 1200}})
	}

	// The same emitter naming a model that does not exist: a warning, no
	// particles, the rest (a ribbon) drawn.
	{
		m := emitterBase("PremMissing")
		m.Materials = []mdx.Material{{Layers: []mdx.Layer{
			{FilterMode: mdx.FilterAdditive, TextureID: 0, TextureAnimID: -1, Alpha: 1, Flags: mdx.LayerUnshaded | mdx.LayerTwoSided},
		}}}
		m.ParticleEmitters = []mdx.ParticleEmitter{{
			Node:         mdx.Node{Name: "Lost", ObjectID: 1, ParentID: 0, Flags: mdx.NodeParticleEmitter | mdx.NodeEmitterUsesMDL},
			EmissionRate: 4, LifeSpan: 1.5, Speed: 60, Path: `Abilities\NoSuchSpark.mdl`,
		}}
		m.PivotPoints = append(m.PivotPoints, mdx.Vec3{0, 20, 20})
		addRibbon(m, mdx.RibbonEmitter{
			Node:        mdx.Node{Name: "Trail", ParentID: 0},
			HeightAbove: 5, HeightBelow: 5, Alpha: 1, Color: mdx.Vec3{0.4, 1, 0.4},
			LifeSpan: 0.3, EmissionRate: 30, Rows: 1, Columns: 1, MaterialID: 0,
		}, mdx.Vec3{0, 40, 50})
		fs = append(fs, emitterFixture{name: "prem_missing", m: m, times: []float64{500}, warn: "NoSuchSpark"})
	}
	return fs
}

// fixtureOptions frames the fixtures' common box from a three-quarter
// view, as the reference jobs do.
func fixtureOptions(ms float64) render.View {
	return render.View{
		Width: 128, Yaw: 30, Pitch: 20, Target: &fauxgl.Vector{X: 0, Y: 0, Z: 50}, Distance: 240,
		Background: color.Black,
		Time:       render.Ms(ms), Particles: render.Particles{Seed: 6, Preroll: render.NoPreroll},
	}
}

// TestEmitterFixtureModels checks that the fixture MDL files match their
// generator, and rewrites them with UPDATE_FIXTURES=1.
func TestEmitterFixtureModels(t *testing.T) {
	for _, f := range emitterFixtures() {
		header := "// mdxrender fixture " + f.name + ": generated by pkg/particles/ribbon_fixtures_test.go\n// (UPDATE_FIXTURES=1 go test -run TestEmitterFixtureModels ./pkg/particles).\n"
		testmodel.CheckFixture(t, filepath.Join(fixModelsDir, f.name+".mdl"), header, f.m)
	}
}

// TestEmitterGoldens renders every fixture as checked in at its times
// with particles on and compares decoded pixels with
// testdata/golden/<name>_t<ms>.png.
func TestEmitterGoldens(t *testing.T) {
	for _, f := range emitterFixtures() {
		for _, ms := range f.times {
			name := f.name + "_t" + itoa(int(ms))
			t.Run(name, func(t *testing.T) {
				path := filepath.Join(fixModelsDir, f.name+".mdl")
				m, err := mdxrender.Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				img, warns, err := m.Render(fixtureOptions(ms))
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, w := range warns {
					if w.Code == render.BlankPicture {
						continue // a golden may be empty on purpose; its pixels are compared below
					}
					if f.warn != "" && strings.Contains(w.Message, f.warn) {
						found = true
						continue
					}
					t.Errorf("warning: %v", w)
				}
				if f.warn != "" && !found {
					t.Errorf("no warning naming %q (got %v)", f.warn, warns)
				}
				golden.Check(t, filepath.Join(fixGoldenDir, name+".png"), img, fixTol)
			})
		}
	}
}

func itoa(n int) string {
	s := ""
	if n == 0 {
		return "0"
	}
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	if len(s) < 4 {
		s = strings.Repeat("0", 4-len(s)) + s
	}
	return s
}
