package particles

import (
	"math"
	"reflect"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// wowModel is one bone at the origin (its translation track moves it to
// (0, 10, 0) at 1000 ms) and one WoW particle emitter on it; Stand loops
// over 0-1000 ms, Still over 2000-3000 ms with the bone at rest.
func wowModel(edit func(e *mdx.WoWParticleEmitter)) *mdx.Model {
	m := &mdx.Model{Version: 1500}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}, {Name: "Still", Interval: [2]uint32{2000, 3000}}}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone,
		Translation: &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1,
			Keys: []mdx.Key[mdx.Vec3]{{Frame: 0}, {Frame: 1000, Value: mdx.Vec3{0, 10, 0}}}}}, GeosetID: -1, GeosetAnimID: -1}}
	m.PivotPoints = []mdx.Vec3{{}}
	m.Textures = []mdx.Texture{{Path: "spark.blp"}}
	e := mdx.WoWParticleEmitter{Bone: 0, Position: mdx.Vec3{1, 2, 3}, EmitterType: mdx.WoWEmitterPlane,
		FilterMode: mdx.FilterAddAlpha, Rows: 1, Columns: 1, LifeSpan: 1, EmissionRate: 60, Visibility: 1,
		MiddleTime: 0.5, SegmentColors: [3]mdx.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, SegmentAlphas: [3]uint8{255, 255, 255},
		SegmentScaling: [3]float32{1, 1, 1}, TwinklePercent: 1, TwinkleScale: [2]float32{1, 1}}
	if edit != nil {
		edit(&e)
	}
	m.WoWParticleEmitters = []mdx.WoWParticleEmitter{e}
	return m
}

// wowSim simulates m's sequence seq without pre-roll to ms.
func wowSim(t *testing.T, m *mdx.Model, seq int, ms float64) *Sim {
	t.Helper()
	s, err := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs, PrerollMs: 0})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(seq, pose.View{})
	if err := s.AdvanceTo(ms); err != nil {
		t.Fatal(err)
	}
	return s
}

func wowParts(s *Sim) []wowParticle { return s.wow[0].(*wowEmitter).parts }

var testCam = Camera{Right: fauxgl.V(0, -1, 0), Up: fauxgl.V(0, 0, 1), Forward: fauxgl.V(-1, 0, 0)}

// A plane emitter spreads its particles over length × width about its
// position in the emitter's XY plane, 60 a second here.
func TestWoWPlaneArea(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) { e.AreaLength, e.AreaWidth = 4, 2 })
	s := wowSim(t, m, 1, 500)
	ps := wowParts(s)
	if len(ps) < 28 || len(ps) > 31 {
		t.Fatalf("%d live particles after 0.5 s at 60 a second", len(ps))
	}
	var spread [2]float64
	for _, q := range ps {
		if math.Abs(q.pos[0]-1) > 2 || math.Abs(q.pos[1]-2) > 1 || q.pos[2] != 3 {
			t.Fatalf("particle at %v, outside the 4×2 plane at (1, 2, 3)", q.pos)
		}
		spread[0] = math.Max(spread[0], math.Abs(q.pos[0]-1))
		spread[1] = math.Max(spread[1], math.Abs(q.pos[1]-2))
	}
	if spread[0] < 1 || spread[1] < 0.5 {
		t.Errorf("particles span only ±%v: not spread over the plane", spread)
	}
}

// A sphere emitter places particles between the two radii and, with a
// speed, sends them outwards; a z source sends them away from it instead.
func TestWoWSphere(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmitterType, e.AreaLength, e.AreaWidth = mdx.WoWEmitterSphere, 1, 2
		e.VerticalRange, e.HorizontalRange, e.Speed = math.Pi, math.Pi, 1
	})
	s := wowSim(t, m, 1, 300)
	for _, q := range wowParts(s) {
		d := [3]float64{q.origin[0] - 1, q.origin[1] - 2, q.origin[2] - 3}
		if r := math.Sqrt(dot(d, d)); r < 1-1e-9 || r > 2+1e-9 {
			t.Fatalf("born %v from the centre, outside radii 1-2", r)
		}
		if dot(d, q.vel) <= 0 {
			t.Fatalf("velocity %v does not point away from the centre (offset %v)", q.vel, d)
		}
	}
	m.WoWParticleEmitters[0].ZSource = 5
	s = wowSim(t, m, 1, 300)
	for _, q := range wowParts(s) {
		d := [3]float64{q.origin[0] - 1, q.origin[1] - 2, q.origin[2] - 3 - 5}
		if c := dot(norm(d), norm(q.vel)); c < 0.999 {
			t.Fatalf("velocity %v not away from the z source (cos %v)", q.vel, c)
		}
	}
}

// A spline emitter is born on the path between the arc-length fractions
// length and width; without vertical range it moves along +Z.
func TestWoWSpline(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmitterType, e.AreaLength, e.AreaWidth, e.Speed = mdx.WoWEmitterSpline, 0.5, 1, 2
		e.Position = mdx.Vec3{}
		e.SplinePoints = []mdx.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}
	})
	s := wowSim(t, m, 1, 300)
	if len(wowParts(s)) == 0 {
		t.Fatal("no particle")
	}
	for _, q := range wowParts(s) {
		if q.origin[0] < 1.5-1e-6 || q.origin[0] > 3+1e-6 || math.Abs(q.origin[1]) > 1e-9 || math.Abs(q.origin[2]) > 1e-9 {
			t.Fatalf("born at %v, not on the second half of the path", q.origin)
		}
		if q.vel != [3]float64{0, 0, 2} {
			t.Fatalf("velocity %v, want (0, 0, 2)", q.vel)
		}
	}
	// Fewer than four points: a polyline; none: the emitter's position.
	sp := newSplinePath([]mdx.Vec3{{0, 0, 0}, {0, 2, 0}})
	if p := sp.at(0.25); p != [3]float64{0, 0.5, 0} {
		t.Errorf("polyline at 0.25: %v", p)
	}
	if p := (&splinePath{}).at(0.5); p != ([3]float64{}) {
		t.Errorf("empty path at 0.5: %v", p)
	}
}

// Gravity accelerates (z = −g·t²/2 exactly at a fixed step), drag takes
// drag·dt of the speed each step, and the particle dies past its lifespan.
func TestWoWMotion(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.Gravity, e.EmissionRate, e.LifeSpan = mdx.Vec3{0, 0, -9}, 0.1, 20
	})
	m.WoWParticleEmitters[0].EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
		Keys: []mdx.Key[float32]{{Frame: 2000, Value: 61}, {Frame: 2020, Value: 0}}} // one particle in the first step
	s := wowSim(t, m, 1, 1000)
	ps := wowParts(s)
	if len(ps) != 1 {
		t.Fatalf("%d particles, want 1", len(ps))
	}
	// Born in the first step, moved by the 60 steps to 1000 ms.
	q := ps[0]
	if want := 3 - 9.0/2; math.Abs(q.pos[2]-want) > 1e-9 {
		t.Errorf("after 1 s z = %v, want %v", q.pos[2], want)
	}
	if math.Abs(q.vel[2]+9) > 1e-9 {
		t.Errorf("velocity %v after 1 s", q.vel)
	}

	m.WoWParticleEmitters[0].Gravity = mdx.Vec3{}
	m.WoWParticleEmitters[0].Speed, m.WoWParticleEmitters[0].Drag = 1, 3
	s = wowSim(t, m, 1, 1000)
	q = wowParts(s)[0]
	if want := math.Pow(1-3.0/60, 60); math.Abs(q.vel[2]-want) > 1e-9 {
		t.Errorf("speed with drag 3 after 60 steps: %v, want %v", q.vel[2], want)
	}

	m.WoWParticleEmitters[0].LifeSpan = 0.5
	if s = wowSim(t, m, 1, 1000); len(wowParts(s)) != 0 {
		t.Errorf("a particle of a 0.5 s lifespan is alive after 1 s")
	}
}

// Emitter-space particles follow their bone; world-space ones stay where
// they were born.
func TestWoWEmitterSpace(t *testing.T) {
	for _, flags := range []uint32{0, mdx.WoWParticleEmitterSpace} {
		m := wowModel(func(e *mdx.WoWParticleEmitter) { e.Flags, e.EmissionRate, e.LifeSpan = flags, 5, 10 })
		s := wowSim(t, m, 0, 900)
		cam := testCam
		var ys []float32
		for _, ms := range s.Meshes(cam) {
			for _, v := range ms.Vertices {
				ys = append(ys, v.Pos[1])
			}
		}
		if len(ys) == 0 {
			t.Fatalf("flags %#x: nothing drawn", flags)
		}
		// The bone has moved to y = 9 by 900 ms.
		lo := slicesMin(ys)
		if flags != 0 && lo < 9+2-1.5 {
			t.Errorf("emitter-space particles left behind (lowest y %v, the emitter is at y 11)", lo)
		}
		if flags == 0 && lo > 5 {
			t.Errorf("world-space particles follow the bone (lowest y %v)", lo)
		}
	}
}

func slicesMin(v []float32) float32 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

// The colour, alpha and scale ramps run start → middle → end over the
// life, split at the middle time; a head quad is 2·scale wide.
func TestWoWRamps(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmissionRate, e.LifeSpan, e.MiddleTime = 0, 1, 0.25
		e.SegmentColors = [3]mdx.Vec3{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}} // red, green, blue (MDX order)
		e.SegmentAlphas = [3]uint8{255, 128, 0}
		e.SegmentScaling = [3]float32{1, 2, 4}
	})
	s := wowSim(t, m, 1, 0)
	w := s.wow[0].(*wowEmitter)
	w.life = 1
	for _, c := range []struct {
		age   float64
		rgb   [3]float32
		alpha float32
		size  float64
	}{
		{0, [3]float32{1, 0, 0}, 1, 2},
		{0.125, [3]float32{0.5, 0.5, 0}, (255 + 128) / 2.0 / 255, 3},
		{0.25, [3]float32{0, 1, 0}, 128.0 / 255, 4},
		{0.625, [3]float32{0, 0.5, 0.5}, 64.0 / 255, 6},
	} {
		w.parts = []wowParticle{{pos: [3]float64{0, 0, 0}, age: c.age}}
		ms := s.Meshes(testCam)
		if len(ms) != 1 {
			t.Fatalf("age %v: %d meshes", c.age, len(ms))
		}
		v := ms[0].Vertices
		col := v[0].Color
		for k := range 3 {
			if math.Abs(float64(col[k]-c.rgb[k])) > 1e-6 {
				t.Errorf("age %v: colour %v, want %v", c.age, col, c.rgb)
				break
			}
		}
		if math.Abs(float64(col[3]-c.alpha)) > 1e-6 {
			t.Errorf("age %v: alpha %v, want %v", c.age, col[3], c.alpha)
		}
		// testCam's right is −Y: the quad spans 2·scale in Y.
		if size := math.Abs(float64(v[2].Pos[1] - v[0].Pos[1])); math.Abs(size-c.size) > 1e-5 {
			t.Errorf("age %v: quad %v wide, want %v", c.age, size, c.size)
		}
	}
}

// Cells: the head interval of the segment, as PRE2; the texture shows
// upright (the top-left corner of the quad shows the cell's top left).
func TestWoWCells(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmissionRate, e.Rows, e.Columns = 0, 2, 4
		e.HeadIntervals, e.HeadDecayIntervals = [3]uint32{0, 4, 1}, [3]uint32{5, 5, 1}
	})
	s := wowSim(t, m, 1, 0)
	w := s.wow[0].(*wowEmitter)
	w.life = 1
	for _, c := range []struct {
		age    float64
		u0, v0 float32
	}{{0, 0, 0}, {0.3, 0.5, 0}, {0.7, 0.25, 0.5}} {
		w.parts = []wowParticle{{age: c.age}}
		v := s.Meshes(testCam)[0].Vertices
		// Vertex 0 is the left, top corner: −right + up.
		if v[0].UV != [2]float32{c.u0, c.v0} || v[0].Pos[2] <= v[1].Pos[2] {
			t.Errorf("age %v: top-left UV %v at %v, want (%v, %v)", c.age, v[0].UV, v[0].Pos, c.u0, c.v0)
		}
	}
}

// Without an enabled value above 0 nothing is emitted.
func TestWoWVisibility(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) { e.Visibility = 0 })
	if n := len(wowParts(wowSim(t, m, 1, 500))); n != 0 {
		t.Errorf("%d particles from a disabled emitter", n)
	}
	m.WoWParticleEmitters[0].VisibilityTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
		Keys: []mdx.Key[float32]{{Frame: 2000, Value: 1}, {Frame: 2250, Value: 0}}}
	if n := len(wowParts(wowSim(t, m, 1, 500))); n < 14 || n > 16 {
		t.Errorf("%d particles from an emitter enabled for 250 ms at 60 a second", n)
	}
}

// The same model, options and times give the same meshes.
func TestWoWDeterministic(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmitterType, e.AreaLength, e.AreaWidth, e.Speed, e.Variation = mdx.WoWEmitterSphere, 1, 2, 3, 0.5
		e.VerticalRange, e.HorizontalRange, e.Gravity, e.Drag = 1, 3, mdx.Vec3{0, 0, -2}, 0.5
		e.TwinklePercent, e.TwinkleScale, e.TwinkleSpeed = 0.8, [2]float32{0.5, 1.5}, 10
		e.ParticleType, e.TailLength, e.Flags = 2, 0.1, mdx.WoWParticleRandomCell
		e.Rows, e.Columns, e.Spin = 2, 2, 1
	})
	a := wowSim(t, m, 0, 750).Meshes(testCam)
	b := wowSim(t, m, 0, 750).Meshes(testCam)
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Error("two simulations of the same model differ")
	}
}

// The particle budget caps WoW particles with PRE2 ones, with one warning.
func TestWoWParticleBudget(t *testing.T) {
	m := wowModel(func(e *mdx.WoWParticleEmitter) { e.EmissionRate, e.LifeSpan = 1e6, 10 })
	meter := budget.NewMeter(budget.Limits{Particles: 100})
	s, err := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs, Budget: meter})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(0, pose.View{})
	if err := s.AdvanceTo(200); err != nil {
		t.Fatal(err)
	}
	if s.Live() != 100 || len(s.Warnings()) != 1 {
		t.Errorf("%d live, warnings %q", s.Live(), s.Warnings())
	}
	if s.Work() == 0 {
		t.Error("no work charged")
	}
}

// wowRibbonModel is wowModel's bone with one WoW ribbon on it instead.
func wowRibbonModel(edit func(e *mdx.WoWRibbonEmitter)) *mdx.Model {
	m := wowModel(nil)
	m.WoWParticleEmitters = nil
	e := mdx.WoWRibbonEmitter{Bone: 0, Position: mdx.Vec3{0, 0, 1}, Layers: []mdx.Layer{{TextureID: 0, FilterMode: mdx.FilterNone}},
		Color: mdx.Vec3{0, 0.5, 1}, Alpha: 1, HeightAbove: 1, HeightBelow: 0.5, Visibility: 1,
		EdgesPerSecond: 30, LifeSpan: 0.5, Rows: 1, Columns: 2, TextureSlot: 1}
	if edit != nil {
		edit(&e)
	}
	m.WoWRibbonEmitters = []mdx.WoWRibbonEmitter{e}
	// The bone moves along X, across the edges' Y span.
	m.Bones[0].Translation.Keys[1].Value = mdx.Vec3{10, 0, 0}
	return m
}

// A ribbon leaves edgesPerSecond edges a second along the bone's path,
// each spanning the heights along Y, kept for its lifespan, plus the edge
// at the emitter; its UVs run over one cell from the newest edge.
func TestWoWRibbon(t *testing.T) {
	s := wowSim(t, wowRibbonModel(nil), 0, 900)
	r := s.wowRibbons[0].(*wowRibbon)
	if n := len(r.edges); n < 14 || n > 16 {
		t.Errorf("%d edges, want 15 (30 a second for 0.5 s)", n)
	}
	ms := s.Meshes(testCam)
	if len(ms) != 1 || ms[0].Kind != KindWoW || mdx.FilterMode(ms[0].Filter) != mdx.FilterBlend {
		t.Fatalf("meshes %+v (an opaque layer draws blended)", ms)
	}
	v := ms[0].Vertices
	last := v[len(v)-2:] // the current edge: above, below
	if math.Abs(float64(last[0].Pos[0])-9) > 1e-4 || last[0].Pos[1] != 1 || last[1].Pos[1] != -0.5 || last[0].Pos[2] != 1 {
		t.Errorf("current edge %v %v, want at x 9 from y −0.5 to 1", last[1].Pos, last[0].Pos)
	}
	// Slot 1 of 2 columns: u from 0.5 (newest) to 1 (oldest); below at
	// the cell's top, above at its bottom.
	if last[0].UV != [2]float32{0.5, 1} || last[1].UV != [2]float32{0.5, 0} || last[0].Color != [4]float32{1, 0.5, 0, 1} {
		t.Errorf("current edge UV %v %v colour %v", last[0].UV, last[1].UV, last[0].Color)
	}
	first := v[0]
	if first.UV[0] < 0.9 || first.UV[0] > 1 || first.Pos[0] > 9-4 {
		t.Errorf("oldest edge at %v UV %v", first.Pos, first.UV)
	}
	// Two layers draw the strip twice; hidden, no new edge.
	s = wowSim(t, wowRibbonModel(func(e *mdx.WoWRibbonEmitter) {
		e.Layers = append(e.Layers, mdx.Layer{FilterMode: mdx.FilterAdditive})
		e.Visibility = 0
	}), 0, 900)
	if n := len(s.wowRibbons[0].(*wowRibbon).edges); n != 0 {
		t.Errorf("%d edges from a hidden ribbon", n)
	}
	s = wowSim(t, wowRibbonModel(func(e *mdx.WoWRibbonEmitter) {
		e.Layers = append(e.Layers, mdx.Layer{FilterMode: mdx.FilterAdditive})
	}), 0, 900)
	if ms := s.Meshes(testCam); len(ms) != 2 || mdx.FilterMode(ms[1].Filter) != mdx.FilterAdditive {
		t.Errorf("%d meshes for two layers", len(ms))
	}
}

// Ribbon edges rise by gravity·age².
func TestWoWRibbonGravity(t *testing.T) {
	m := wowRibbonModel(func(e *mdx.WoWRibbonEmitter) { e.Gravity, e.LifeSpan = 2, 2 })
	m.Bones[0].Translation = nil
	s := wowSim(t, m, 0, 500)
	// Within the birth step the edge rises from its place along the
	// path: at most gravity·dt² from 1 + gravity·age².
	for _, e := range s.wowRibbons[0].(*wowRibbon).edges {
		if want := 1 + 2*e.age*e.age; math.Abs(e.below[2]-want) > 2.0/3600+1e-9 {
			t.Fatalf("edge %v s old at z %v, want %v", e.age, e.below[2], want)
		}
	}
}
