package particles

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// spawnedTriangle is a one-triangle model with a 490 ms looping sequence
// starting at frame 100 and one geoset on material 0.
func spawnedTriangle() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "Spawned"}
	m.Sequences = []mdx.Sequence{{Name: "Birth", Interval: [2]uint32{100, 590}}}
	m.Materials = []mdx.Material{{PriorityPlane: 2, Layers: []mdx.Layer{{FilterMode: mdx.FilterBlend, TextureID: 0, TextureAnimID: -1, Alpha: 1}}}}
	m.Textures = []mdx.Texture{{Path: `Textures\spark.tga`}}
	m.Geosets = []mdx.Geoset{{
		Vertices:     []mdx.Vec3{{10, 0, 0}, {0, 10, 0}, {0, 0, 10}},
		Normals:      []mdx.Vec3{{1, 0, 0}, {1, 0, 0}, {1, 0, 0}},
		FaceTypes:    []uint32{4},
		FaceGroups:   []uint32{3},
		Faces:        []uint16{0, 1, 2},
		VertexGroups: []uint8{0, 0, 0},
		UVSets:       [][]mdx.Vec2{{{0, 0}, {1, 0}, {0, 1}}},
	}}
	return m
}

// spawnerModel has one PREM emitter at pivot (5, 0, 0) spawning
// "spark.mdl": rate 3 a second, lifespan 2 s, 150 units/s up, latitude 0
// (the reference harness's peer_spawner.mdl, moved off the origin).
func spawnerModel() *mdx.Model {
	m := &mdx.Model{Version: 800}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 10000}}}
	m.ParticleEmitters = []mdx.ParticleEmitter{{
		Node:         mdx.Node{Name: "Spawner", ObjectID: 0, ParentID: -1, Flags: mdx.NodeParticleEmitter | mdx.NodeEmitterUsesMDL},
		EmissionRate: 3, LifeSpan: 2, Speed: 150, Path: `Abilities\spark.mdl`,
	}}
	m.PivotPoints = []mdx.Vec3{{5, 0, 0}}
	return m
}

type premRig struct {
	s     *Sim
	p     *pose.Pose
	e     *premEmitter
	frame float64
}

func newPREMRig(t *testing.T, m *mdx.Model, spawned *mdx.Model) *premRig {
	t.Helper()
	s := bareSim(m)
	s.rng.Reset(DefaultSeed)
	s.prem = newPREMEmitters(s)
	if len(s.prem) != 1 {
		t.Fatalf("%d PREM emitters", len(s.prem))
	}
	s.LoadSpawnedModels(func(path string) (*mdx.Model, string, error) {
		if spawned == nil {
			return nil, "", fs.ErrNotExist
		}
		return spawned, "fx/spark.mdl", nil
	})
	p, err := pose.New(m)
	if err != nil {
		t.Fatal(err)
	}
	p.Update(pose.Clock{Sequence: 0}, pose.View{})
	return &premRig{s: s, p: p, e: s.prem[0].(*premEmitter)}
}

func (r *premRig) steps(n int) {
	for i := 0; i < n; i++ {
		r.frame += testDt * 1000
		r.p.Update(pose.Clock{Sequence: 0, Frame: r.frame, Global: r.frame}, pose.View{})
		r.e.step(r.s, r.p, testDt, true)
		r.s.gen++ // as Sim.update
	}
}

func TestPREMSpawnsRisingModels(t *testing.T) {
	r := newPREMRig(t, spawnerModel(), spawnedTriangle())
	r.steps(60)
	// 3 a second (not doubled) for 1 s; summing 0.05 a step reaches 1 from
	// below or above, so 3 or, with a ceil burst, 4.
	if n := len(r.e.parts); n < 3 || n > 4 {
		t.Fatalf("%d spawned models after 1 s at rate 3, want 3 (or 4 with a burst)", n)
	}
	for _, pt := range r.e.parts {
		age := 2 - pt.health
		if !near(pt.loc[0], 5) || !near(pt.loc[1], 0) {
			t.Errorf("particle left the vertical through the pivot: %v", pt.loc)
		}
		if want := float32(150 * age); math.Abs(float64(pt.loc[2]-want)) > 0.01 {
			t.Errorf("particle aged %.3f s at z %v, want %v", age, pt.loc[2], want)
		}
	}
	// Three random draws per particle, in the viewer's order; nothing else
	// draws.
	var ref RNG
	ref.Reset(DefaultSeed)
	for i := 0; i < 3*r.e.emitted; i++ {
		ref.Float64()
	}
	if got, want := r.s.Random(), ref.Float64(); got != want {
		t.Errorf("after %d particles the generator is not 3 draws each along (%v, want %v)", r.e.emitted, got, want)
	}
}

func TestPREMDirectionGravityAndScale(t *testing.T) {
	m := spawnerModel()
	e := &m.ParticleEmitters[0]
	e.Latitude = math.Pi / 2 // radians, as the viewer uses it
	e.Gravity = 100
	e.EmissionRate = 0
	// Scale the node by 2: speed and gravity scale with it.
	e.Scaling = &mdx.Track[mdx.Vec3]{GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{{Frame: 0, Value: mdx.Vec3{2, 2, 2}}}}
	r := newPREMRig(t, m, spawnedTriangle())
	r.e.acc = 1
	// Predict the draws: turn about Z, tilt about Y, instance turn.
	var ref RNG
	ref.Reset(DefaultSeed)
	a := -math.Pi + ref.Float64()*2*math.Pi
	b := -math.Pi/2 + ref.Float64()*math.Pi
	turn := ref.Float64() * 2 * math.Pi
	r.steps(1)
	if len(r.e.parts) != 1 {
		t.Fatalf("%d particles, want 1", len(r.e.parts))
	}
	pt := r.e.parts[0]
	dir := [3]float64{math.Sin(b) * math.Cos(a), math.Sin(b) * math.Sin(a), math.Cos(b)}
	want := [3]float64{300 * dir[0], 300 * dir[1], 300*dir[2] - 200*testDt}
	for k := 0; k < 3; k++ {
		if math.Abs(float64(pt.vel[k])-want[k]) > 1e-3 {
			t.Fatalf("velocity %v, want %v (speed 150 × scale 2, gravity 100 × 2 for one step)", pt.vel, want)
		}
	}
	if math.Abs(pt.rotZ-turn) > 1e-12 || pt.scale != [3]float32{2, 2, 2} || pt.gravity != 200 {
		t.Errorf("instance turn %v scale %v gravity %v, want %v, [2 2 2], 200", pt.rotZ, pt.scale, pt.gravity, turn)
	}
}

func TestPREMSpawnedClockAndMesh(t *testing.T) {
	m := spawnerModel()
	m.ParticleEmitters[0].EmissionRate = 0
	m.ParticleEmitters[0].LifeSpan = 100
	r := newPREMRig(t, m, spawnedTriangle())
	r.e.acc = 1
	r.steps(1)
	pt := &r.e.parts[0]
	if pt.seq != 0 || math.Abs(pt.frame-(100+1000*testDt)) > 1e-9 {
		t.Fatalf("spawned clock seq %d frame %v after its birth step, want 0 and %v", pt.seq, pt.frame, 100+1000*testDt)
	}
	// 490 ms loop at 16.67 ms a step: the 30th step reaches 600 ≥ 590 and
	// the frame wraps to 100, dropping the 10 ms overshoot, like the main
	// instance.
	r.steps(29)
	if math.Abs(pt.frame-100) > 1e-9 {
		t.Errorf("frame %v after 30 steps, want 100 (wrapped, overshoot dropped)", pt.frame)
	}
	r.steps(3)
	out := r.e.appendMeshes(r.s, r.p, Camera{}, nil)
	if len(out) != 1 {
		t.Fatalf("%d meshes, want 1", len(out))
	}
	ms := out[0]
	if ms.Kind != KindModel || ms.Source == nil || ms.Source.Name != "Spawned" || ms.SourcePath != "fx/spark.mdl" || ms.Material != 0 || ms.PriorityPlane != 2 || ms.Node != 0 {
		t.Errorf("mesh header kind %v source %v %q material %d plane %d node %d", ms.Kind, ms.Source != nil, ms.SourcePath, ms.Material, ms.PriorityPlane, ms.Node)
	}
	if len(ms.Vertices) != 3 || len(ms.Indices) != 3 || len(ms.Normals) != 3 {
		t.Fatalf("%d vertices, %d indices, %d normals", len(ms.Vertices), len(ms.Indices), len(ms.Normals))
	}
	// Vertex (10, 0, 0) turned by the instance's Z rotation, placed at the
	// particle.
	c, s := math.Cos(pt.rotZ), math.Sin(pt.rotZ)
	want := [3]float32{pt.loc[0] + float32(10*c), pt.loc[1] + float32(10*s), pt.loc[2]}
	got := ms.Vertices[0].Pos
	for k := 0; k < 3; k++ {
		if !near(got[k], want[k]) {
			t.Fatalf("vertex 0 at %v, want %v", got, want)
		}
	}
	if !near(ms.Normals[0][0], float32(c)) || !near(ms.Normals[0][1], float32(s)) {
		t.Errorf("normal %v, want (%v, %v, 0)", ms.Normals[0], c, s)
	}
	if ms.Vertices[1].UV != [2]float32{1, 0} || ms.Vertices[0].Color != [4]float32{1, 1, 1, 1} {
		t.Errorf("vertex 1 UV %v, vertex 0 colour %v", ms.Vertices[1].UV, ms.Vertices[0].Color)
	}

	// A hidden geoset (GEOA alpha 0) is left out.
	r.e.spawned.GeosetAnims = []mdx.GeosetAnim{{Alpha: 0, Color: mdx.Vec3{1, 1, 1}, GeosetID: 0}}
	r.s.gen++ // a new state: the geometry of the last one is kept until then
	if out := r.e.appendMeshes(r.s, r.p, Camera{}, nil); len(out) != 0 {
		t.Errorf("%d meshes for a geoset with alpha 0", len(out))
	}
}

func TestPREMParticlesDie(t *testing.T) {
	m := spawnerModel()
	m.ParticleEmitters[0].LifeSpan = 0.5
	m.ParticleEmitters[0].EmissionRate = 30
	r := newPREMRig(t, m, spawnedTriangle())
	r.steps(120)
	for _, pt := range r.e.parts {
		if !(pt.health > 0 && pt.health <= 0.5) {
			t.Fatalf("live particle with health %v", pt.health)
		}
	}
	if n := len(r.e.parts); n < 13 || n > 17 {
		t.Errorf("%d live, want about 15 (30/s × 0.5 s)", n)
	}
	r.e.reset()
	if len(r.e.parts) != 0 || r.e.acc != 0 {
		t.Error("reset kept particles")
	}
}

func TestPREMMissingModelWarnsAndEmitsNothing(t *testing.T) {
	r := newPREMRig(t, spawnerModel(), nil)
	r.steps(120)
	if len(r.e.parts) != 0 {
		t.Errorf("%d particles without a model", len(r.e.parts))
	}
	w := r.s.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "Spawner") || !strings.Contains(w[0], `spark.mdl`) {
		t.Errorf("warnings %q", w)
	}
	// Without a loader at all: one warning at the first step.
	s := bareSim(spawnerModel())
	s.prem = newPREMEmitters(s)
	p, _ := pose.New(s.m)
	for i := 0; i < 3; i++ {
		s.prem[0].step(s, p, testDt, true)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "loader") {
		t.Errorf("warnings without a loader %q", w)
	}
}

func TestPREMTextureParticlesWarn(t *testing.T) {
	m := spawnerModel()
	m.ParticleEmitters[0].Path = `Textures\Dust.blp`
	m.ParticleEmitters[0].Flags = mdx.NodeParticleEmitter | mdx.NodeEmitterUsesTGA
	called := false
	s := bareSim(m)
	s.prem = newPREMEmitters(s)
	s.LoadSpawnedModels(func(string) (*mdx.Model, string, error) { called = true; return spawnedTriangle(), "", nil })
	if called {
		t.Error("loader asked for a texture path")
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "texture") {
		t.Errorf("warnings %q", w)
	}
}

// dirFinder finds a path under one folder, exactly as written.
type dirFinder string

func (d dirFinder) ReadFile(path string) ([]byte, string, []string, error) {
	f := filepath.Join(string(d), filepath.FromSlash(strings.ReplaceAll(path, `\`, "/")))
	b, err := os.ReadFile(f)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", []string{f}, fs.ErrNotExist
	}
	return b, f, []string{f}, err
}

func TestFileModelLoader(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "Abilities"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := testmodel.EncodeMDL(spawnedTriangle())
	if err != nil {
		t.Fatal(err)
	}
	// Only the .mdl exists; the model asks for the .mdx.
	if err := os.WriteFile(filepath.Join(dir, "Abilities", "spark.mdl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	load := FileModelLoader(dirFinder(dir), budget.Limits{})
	m, file, err := load(`Abilities\spark.mdx`)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(file) != "spark.mdl" {
		t.Errorf("loaded from %q, want the .mdl", file)
	}
	if len(m.Geosets) != 1 || m.Name != "Spawned" {
		t.Errorf("loaded %q with %d geosets", m.Name, len(m.Geosets))
	}
	_, _, err = load(`Abilities\missing.mdl`)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.mdx") {
		t.Errorf("missing model: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.mdx"), []byte("this is not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := load("bad.mdx"); err == nil || !strings.Contains(err.Error(), "bad.mdx") {
		t.Errorf("corrupt model: %v, want an error naming the file", err)
	}
}

func TestSpawnPathVariants(t *testing.T) {
	for in, want := range map[string]string{
		`a\b.mdl`: `a\b.mdl a\b.mdx`,
		`a\b.MDX`: `a\b.MDX a\b.mdl`,
		`a\b`:     `a\b.mdx a\b.mdl`,
		`a.x\b`:   `a.x\b.mdx a.x\b.mdl`,
	} {
		if got := strings.Join(spawnPathVariants(in), " "); got != want {
			t.Errorf("spawnPathVariants(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPREMHostileValues(t *testing.T) {
	m := spawnerModel()
	e := &m.ParticleEmitters[0]
	e.EmissionRate = 1e30
	e.LifeSpan = 1e30
	r := newPREMRig(t, m, spawnedTriangle())
	r.steps(3)
	if n := len(r.e.parts); n != maxPREMParticles {
		t.Errorf("%d live spawned models, want the bound %d", n, maxPREMParticles)
	}
	m = spawnerModel()
	m.ParticleEmitters[0].Speed = float32(math.NaN())
	r = newPREMRig(t, m, spawnedTriangle())
	r.steps(30)
	if len(r.e.parts) == 0 {
		t.Fatal("no particles")
	}
	if out := r.e.appendMeshes(r.s, r.p, Camera{}, nil); len(out) != 0 {
		t.Errorf("%d meshes from particles at NaN positions", len(out))
	}
}

func TestPREMDrawOrderBackToFront(t *testing.T) {
	e := &premEmitter{parts: []premParticle{
		{loc: [3]float32{0, 0, 10}, born: 1},
		{loc: [3]float32{0, 0, 10}, born: 2}, // same place: the later-born first
		{loc: [3]float32{50, 0, 0}, born: 3}, // farthest along Forward
		{loc: [3]float32{-50, 0, 0}, born: 4},
	}}
	got := e.drawOrder(Camera{Forward: fauxgl.V(1, 0, 0)})
	want := []int{2, 1, 0, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("draw order %v, want %v (far first, ties later-born first)", got, want)
		}
	}
}
