package particles

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// testDt is the viewer's step in seconds, rounded as it computes it
// (milliseconds, then ×0.001 at run time; a Go constant expression would
// round once and differ in the last bit).
var testDt = func() float64 { ms := 1000.0 / 60; return ms * 0.001 }()

// ribbonModel has one ribbon emitter at pivot (1, 2, 3) whose node moves
// along +X at 100 units a second through a 10-second looping sequence.
func ribbonModel() *mdx.Model {
	m := &mdx.Model{Version: 800}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 10000}}}
	m.Textures = []mdx.Texture{{Path: `Textures\ribbon.tga`}}
	m.Materials = []mdx.Material{{PriorityPlane: 3, Layers: []mdx.Layer{
		{FilterMode: mdx.FilterAdditive, TextureID: 0, TextureAnimID: -1, Alpha: 1},
	}}}
	m.RibbonEmitters = []mdx.RibbonEmitter{{
		Node: mdx.Node{Name: "Trail", ObjectID: 0, ParentID: -1, Flags: mdx.NodeRibbonEmitter,
			Translation: &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
				{Frame: 0, Value: mdx.Vec3{0, 0, 0}},
				{Frame: 10000, Value: mdx.Vec3{1000, 0, 0}},
			}},
		},
		HeightAbove: 10, HeightBelow: 5, Alpha: 1, Color: mdx.Vec3{1, 0.5, 0.25},
		LifeSpan: 1, EmissionRate: 15, Rows: 1, Columns: 1, MaterialID: 0,
	}}
	m.PivotPoints = []mdx.Vec3{{1, 2, 3}}
	return m
}

// ribbonRig drives one ribbon emitter the way the Sim does: advance the
// frame, pose the nodes, step the emitter.
type ribbonRig struct {
	t     *testing.T
	s     *Sim
	p     *pose.Pose
	e     *ribbonEmitter
	frame float64
	spawn bool
}

func newRibbonRig(t *testing.T, m *mdx.Model) *ribbonRig {
	t.Helper()
	s := bareSim(m)
	es := newRibbonEmitters(s)
	if len(es) != 1 {
		t.Fatalf("got %d ribbon emitters, warnings %q", len(es), s.Warnings())
	}
	p, err := pose.New(m)
	if err != nil {
		t.Fatal(err)
	}
	r := &ribbonRig{t: t, s: s, p: p, e: es[0].(*ribbonEmitter), spawn: true}
	r.p.Update(pose.Clock{Sequence: 0}, pose.View{})
	return r
}

// steps runs n fixed steps and returns how many edges each one emitted.
func (r *ribbonRig) steps(n int) []int {
	var born []int
	for i := 0; i < n; i++ {
		r.frame += testDt * 1000
		r.p.Update(pose.Clock{Sequence: 0, Frame: r.frame, Global: r.frame}, pose.View{})
		before := r.e.emitted
		r.e.step(r.s, r.p, testDt, r.spawn)
		born = append(born, r.e.emitted-before)
	}
	return born
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-3 }

func TestRibbonEdgeSpansNodeLocalY(t *testing.T) {
	m := ribbonModel()
	// Turn the node 90° about X: its local Y becomes world Z.
	s := float32(math.Sqrt(0.5))
	m.RibbonEmitters[0].Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1,
		Keys: []mdx.Key[mdx.Quat]{{Frame: 0, Value: mdx.Quat{s, 0, 0, s}}}}
	m.RibbonEmitters[0].EmissionRate = 0
	r := newRibbonRig(t, m)
	r.e.acc = 1 // the first step emits exactly one edge
	r.steps(1)
	if len(r.e.edges) != 1 {
		t.Fatalf("%d edges after one step, want 1", len(r.e.edges))
	}
	e := r.e.edges[0]
	x := float32(1000 * r.frame / 10000) // the node's translation at spawn
	wantA := [3]float32{1 + x, 2, 3 + 10}
	wantB := [3]float32{1 + x, 2, 3 - 5}
	for k := 0; k < 3; k++ {
		if !near(e.above[k], wantA[k]) || !near(e.below[k], wantB[k]) {
			t.Fatalf("edge above %v below %v, want %v and %v", e.above, e.below, wantA, wantB)
		}
	}
	if want := 1 - testDt; math.Abs(e.health-want) > 1e-12 {
		t.Errorf("health %v after the spawn step, want %v (edges age in the step they are born)", e.health, want)
	}
}

func TestRibbonEmissionDoubledAndCeiled(t *testing.T) {
	m := ribbonModel()
	m.RibbonEmitters[0].EmissionRate = 6 // 12 edges a second in the viewer
	m.RibbonEmitters[0].LifeSpan = 100
	r := newRibbonRig(t, m)
	born := r.steps(600)
	total, bursts := 0, 0
	acc := 0.0
	for i, n := range born {
		// The viewer's rule, spelled out independently: add rate·2·dt;
		// once at least 1, emit ceil(acc) and subtract as many.
		acc += 6 * 2 * testDt
		want := 0
		if acc >= 1 {
			want = int(math.Ceil(acc))
			for j := 0; j < want; j++ {
				acc--
			}
		}
		if n != want {
			t.Fatalf("step %d emitted %d, want %d", i+1, n, want)
		}
		if n > 1 {
			bursts++
		}
		total += n
	}
	if total < 119 || total > 121 {
		t.Errorf("%d edges in 10 s at static rate 6, want about 120 (the rate is doubled)", total)
	}
	if bursts == 0 {
		t.Errorf("no step emitted two edges; five steps of 0.2 sum to just above 1 in float64, so ceil gives bursts")
	}
	if len(r.e.edges) != total {
		t.Errorf("%d live edges, want %d (lifespan 100 s)", len(r.e.edges), total)
	}
}

func TestRibbonLifespanAndGravityQuirk(t *testing.T) {
	m := ribbonModel()
	m.RibbonEmitters[0].LifeSpan = 0.25
	m.RibbonEmitters[0].Gravity = 600
	r := newRibbonRig(t, m)
	r.e.acc = 0.999
	r.steps(1)
	first := r.e.edges[0]
	r.steps(9)
	// The same edge (the oldest) after 9 more updates: Y lost 10·g·dt²,
	// X and Z did not move (the viewer's gravity acts on world Y).
	old := r.e.edges[0]
	g := float32(600 * testDt * testDt)
	if !near(old.above[1], first.above[1]-9*g) || !near(old.below[1], first.below[1]-9*g) {
		t.Errorf("Y after 9 more steps: above %v below %v, want %v and %v", old.above[1], old.below[1], first.above[1]-9*g, first.below[1]-9*g)
	}
	if old.above[0] != first.above[0] || old.above[2] != first.above[2] {
		t.Errorf("gravity moved X or Z: %v -> %v", first.above, old.above)
	}
	r.steps(120)
	for _, e := range r.e.edges {
		if !(e.health > 0 && e.health <= 0.25) {
			t.Fatalf("live edge with health %v, lifespan 0.25", e.health)
		}
	}
	// 30 edges a second living 0.25 s: 7 or 8 alive.
	if n := len(r.e.edges); n < 6 || n > 9 {
		t.Errorf("%d live edges, want about 7.5", n)
	}
}

func TestRibbonVisibility(t *testing.T) {
	hidden := map[string]func(e *mdx.RibbonEmitter){
		"static alpha 0": func(e *mdx.RibbonEmitter) { e.Alpha = 0 },
		"KRVS 0": func(e *mdx.RibbonEmitter) {
			e.Visibility = &mdx.Track[float32]{GlobalSeqID: -1, Keys: []mdx.Key[float32]{{Frame: 0, Value: 0}}}
		},
		"KRAL without keys in the sequence": func(e *mdx.RibbonEmitter) {
			// The viewer's KRAL default is 0: hidden even with static alpha 1.
			e.AlphaTrack = &mdx.Track[float32]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[float32]{{Frame: 20000, Value: 1}}}
		},
	}
	for name, f := range hidden {
		m := ribbonModel()
		f(&m.RibbonEmitters[0])
		r := newRibbonRig(t, m)
		r.steps(60)
		if len(r.e.edges) != 0 {
			t.Errorf("%s: %d edges, want none", name, len(r.e.edges))
		}
	}
	// Alpha 0 only from 500 ms on: edges stop coming, the live ones age
	// and die; KRVS says visible throughout.
	m := ribbonModel()
	m.RibbonEmitters[0].AlphaTrack = &mdx.Track[float32]{GlobalSeqID: -1, Keys: []mdx.Key[float32]{{Frame: 0, Value: 1}, {Frame: 500, Value: 0}}}
	r := newRibbonRig(t, m)
	born := r.steps(29)
	if len(r.e.edges) == 0 {
		t.Fatal("no edges while alpha is 1")
	}
	born = r.steps(60)
	for i, n := range born {
		if n != 0 {
			t.Fatalf("%d edges born at step %d with alpha 0", n, 30+i)
		}
	}
	if len(r.e.edges) != 0 {
		t.Errorf("%d edges still alive 1 s after emission stopped (lifespan 1 s)", len(r.e.edges))
	}
}

func TestRibbonSharedColourAndSlot(t *testing.T) {
	m := ribbonModel()
	e := &m.RibbonEmitters[0]
	e.Alpha = 0.5
	e.TextureSlot = 1 // ignored by the viewer: KRTX falls back to 0
	e.ColorTrack = &mdx.Track[mdx.Vec3]{Interpolation: mdx.DontInterp, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
		{Frame: 0, Value: mdx.Vec3{1, 0, 0}},
		{Frame: 400, Value: mdx.Vec3{0, 1.2, 0.5}},
	}}
	r := newRibbonRig(t, m)
	r.steps(20) // 333 ms: red
	for _, ed := range r.e.edges {
		if ed.color != [4]uint8{255, 0, 0, 127} || ed.slot != 0 {
			t.Fatalf("edge colour %v slot %d at 333 ms, want [255 0 0 127] slot 0", ed.color, ed.slot)
		}
	}
	r.steps(10) // 500 ms: every edge, old or new, takes the current colour
	for _, ed := range r.e.edges {
		// 1.2·255 = 306 wraps to 50 and 0.5·255 truncates to 127, as a
		// Uint8Array store does.
		if ed.color != [4]uint8{0, 50, 127, 127} {
			t.Fatalf("edge colour %v at 500 ms, want [0 50 127 127]", ed.color)
		}
	}
}

func TestJSUint8(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want uint8
	}{{0, 0}, {127.5, 127}, {255, 255}, {255.9, 255}, {256, 0}, {306, 50}, {-1, 255}, {-0.5, 0}, {math.NaN(), 0}, {math.Inf(1), 0}} {
		if got := jsUint8(c.in); got != c.want {
			t.Errorf("jsUint8(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestRibbonUV(t *testing.T) {
	b := func(x float64) float32 { return float32(math.Floor(x*255) / 255) }
	cases := []struct {
		slot             uint32
		k                int
		chain, cols, rws float64
		l, r, t, bt      float32
	}{
		// Two quads, one cell: the oldest quad covers u [0.5, 1], the newest [0, 0.5].
		{0, 0, 0.5, 1, 1, b(0.5), 1, 0, 1},
		{0, 1, 0.5, 1, 1, 0, b(0.5), 0, 1},
		// Four columns, slot 2: left = (2 + 1 − 0.25 − 0.25)/4, packed to a
		// byte, then divided by the columns again in the shader; so is
		// right = left + chain. top = 2/4, bottom = top + 1, both ÷ rows.
		{2, 1, 0.25, 4, 2, b(2.5/4) / 4, b(2.5/4+0.25) / 4, b(0.5) / 2, (b(0.5) + 1) / 2},
	}
	for _, c := range cases {
		l, r, tp, bt := ribbonUV(c.slot, c.k, c.chain, c.cols, c.rws)
		if !near(l, c.l) || !near(r, c.r) || !near(tp, c.t) || !near(bt, c.bt) {
			t.Errorf("ribbonUV(slot %d, k %d, chain %v, %vx%v) = %v %v %v %v, want %v %v %v %v",
				c.slot, c.k, c.chain, c.cols, c.rws, l, r, tp, bt, c.l, c.r, c.t, c.bt)
		}
	}
}

func TestRibbonMesh(t *testing.T) {
	r := newRibbonRig(t, ribbonModel())
	if out := r.e.appendMeshes(r.s, r.p, Camera{}, nil); len(out) != 0 {
		t.Fatalf("%d meshes before any edge", len(out))
	}
	r.steps(30)
	edges := r.e.edges
	if len(edges) < 3 {
		t.Fatalf("%d edges after 0.5 s", len(edges))
	}
	out := r.e.appendMeshes(r.s, r.p, Camera{}, nil)
	if len(out) != 1 {
		t.Fatalf("%d meshes, want 1", len(out))
	}
	ms := out[0]
	n := len(edges) - 1
	if ms.Kind != KindRibbon || ms.Material != 0 || ms.PriorityPlane != 3 || ms.TextureID != 0 || ms.Node != 0 || !ms.Unshaded {
		t.Errorf("mesh header %+v", ms)
	}
	if len(ms.Vertices) != 4*n || len(ms.Indices) != 6*n {
		t.Fatalf("%d vertices, %d indices for %d quads", len(ms.Vertices), len(ms.Indices), n)
	}
	for k := 0; k < n; k++ {
		v := ms.Vertices[4*k : 4*k+4]
		if v[0].Pos != edges[k].above || v[1].Pos != edges[k].below || v[2].Pos != edges[k+1].below || v[3].Pos != edges[k+1].above {
			t.Fatalf("quad %d joins the wrong edges", k)
		}
		// Older edges sit at larger u; above is v top.
		if !(v[0].UV[0] > v[3].UV[0]) || v[0].UV[1] != 0 || v[1].UV[1] != 1 {
			t.Fatalf("quad %d UVs %v %v %v %v", k, v[0].UV, v[1].UV, v[2].UV, v[3].UV)
		}
		if v[0].Color != [4]float32{1, 127.0 / 255, 63.0 / 255, 1} {
			t.Fatalf("quad %d colour %v", k, v[0].Color)
		}
	}
	if u := ms.Vertices[0].UV[0]; u != 1 {
		t.Errorf("oldest edge at u %v, want 1", u)
	}
	if u := ms.Vertices[4*n-1].UV[0]; u != 0 {
		t.Errorf("newest edge at u %v, want 0", u)
	}
	want := []uint32{0, 1, 2, 0, 2, 3}
	for i, x := range want {
		if ms.Indices[i] != x {
			t.Fatalf("indices %v, want %v first", ms.Indices[:6], want)
		}
	}
	r.e.reset()
	if len(r.e.edges) != 0 || r.e.acc != 0 {
		t.Error("reset kept edges or the accumulator")
	}
}

func TestRibbonMissingMaterialWarns(t *testing.T) {
	m := ribbonModel()
	m.RibbonEmitters[0].MaterialID = 89
	s := bareSim(m)
	if es := newRibbonEmitters(s); len(es) != 0 {
		t.Fatalf("%d emitters for a ribbon without its material", len(es))
	}
	w := s.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "Trail") || !strings.Contains(w[0], "89") {
		t.Errorf("warnings %q, want one naming the emitter and material 89", w)
	}
}

// Hostile values must neither hang, nor grow without bound, nor reach the
// rasteriser as NaN positions.
func TestRibbonHostileValues(t *testing.T) {
	m := ribbonModel()
	e := &m.RibbonEmitters[0]
	e.EmissionRate = math.MaxUint32
	e.LifeSpan = float32(math.Inf(1))
	r := newRibbonRig(t, m)
	r.steps(5)
	if n := len(r.e.edges); n != maxRibbonEdges {
		t.Errorf("%d live edges, want the bound %d", n, maxRibbonEdges)
	}
	m = ribbonModel()
	m.RibbonEmitters[0].HeightAbove = float32(math.NaN())
	r = newRibbonRig(t, m)
	r.steps(30)
	for _, ms := range r.e.appendMeshes(r.s, r.p, Camera{}, nil) {
		for _, v := range ms.Vertices {
			if !finite3(v.Pos) {
				t.Fatalf("non-finite vertex %v", v.Pos)
			}
		}
	}
	m = ribbonModel()
	m.RibbonEmitters[0].LifeSpan = float32(math.NaN())
	r = newRibbonRig(t, m)
	r.steps(30)
	if len(r.e.edges) != 0 {
		t.Errorf("%d edges with a NaN lifespan, want none (they die at once)", len(r.e.edges))
	}
}

func BenchmarkRibbonStepAndMesh(b *testing.B) {
	m := ribbonModel()
	m.RibbonEmitters[0].EmissionRate = 60 // 120 edges a second, 1 s each
	s := bareSim(m)
	e := newRibbonEmitters(s)[0].(*ribbonEmitter)
	p, _ := pose.New(m)
	frame := 0.0
	b.ReportAllocs()
	for b.Loop() {
		frame = math.Mod(frame+testDt*1000, 10000)
		p.Update(pose.Clock{Sequence: 0, Frame: frame, Global: frame}, pose.View{})
		e.step(s, p, testDt, true)
		_ = e.appendMeshes(s, p, Camera{}, nil)
	}
}

// TestFixtureLiveCountsMatchViewer steps the fixture models through the
// Sim as the reference harness does (seed 6, 1000/60 ms, no pre-roll) and
// compares live ribbon edges, spawned models and random draws with what
// mdx-m3-viewer 5.12.0 reported for the same jobs (render.mjs --simulate,
// simulation.live and random_draws).
func TestFixtureLiveCountsMatchViewer(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "models")
	cases := []struct {
		model         string
		ms            float64
		ribbons, prem int
		draws         int
	}{
		{"ribbon_trail", 250, 16, 0, 0},
		{"ribbon_trail", 500, 30, 0, 0},
		{"ribbon_trail", 900, 30, 0, 0},
		{"ribbon_wall", 300, 16, 0, 0},
		{"ribbon_wall", 550, 28, 0, 0},
		{"ribbon_wall", 950, 32, 0, 0},
		{"prem_spawner", 500, 0, 2, 6},
		{"prem_spawner", 1200, 0, 4, 12},
		{"prem_missing", 500, 18, 0, 0},
	}
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join(dir, c.model+".mdl"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := testmodel.Load(b)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs, PrerollMs: 0})
		if err != nil {
			t.Fatal(err)
		}
		s.LoadSpawnedModels(FileModelLoader(dirFinder(dir), budget.Limits{}))
		s.Start(0, pose.View{})
		s.AdvanceTo(c.ms)
		ribbons, prem, emitted := 0, 0, 0
		for _, e := range s.ribbons {
			ribbons += len(e.(*ribbonEmitter).edges)
		}
		for _, e := range s.prem {
			prem += len(e.(*premEmitter).parts)
			emitted += e.(*premEmitter).emitted
		}
		if ribbons != c.ribbons || prem != c.prem || 3*emitted != c.draws {
			t.Errorf("%s at %v ms: %d edges, %d spawned models, %d draws; the viewer had %d, %d, %d",
				c.model, c.ms, ribbons, prem, 3*emitted, c.ribbons, c.prem, c.draws)
		}
	}
}

// An MDL lifespan of 0.1 s is the double 0.1 in the viewer: after 6
// steps of 1/60 s the edge's health is ≤ 0 and it dies, where
// float32(0.1) would live a step longer.
func TestRibbonMDLLifespanIsDecimal(t *testing.T) {
	m := ribbonModel()
	m.RibbonEmitters[0].EmissionRate = 0
	m.RibbonEmitters[0].LifeSpan = 0.1
	r := newRibbonRig(t, m)
	r.e.acc = 1
	r.steps(5)
	if len(r.e.edges) != 1 {
		t.Fatalf("%d edges after 5 steps, want 1", len(r.e.edges))
	}
	r.steps(1)
	if len(r.e.edges) != 0 {
		t.Errorf("edge alive after 6 steps with health %v", r.e.edges[0].health)
	}
}

// TestRibbonAndPREMLiveCountsMatchViewer replays the reference viewer's
// simulated corpus jobs (../shared/reference/peer-particles/jobs.jsonl)
// and wants its live ribbon edges and spawned models after the same steps.
func TestRibbonAndPREMLiveCountsMatchViewer(t *testing.T) {
	checked, withRibbons := 0, 0
	for _, j := range viewerJobs(t) {
		if len(j.model.RibbonEmitters) == 0 && len(j.model.ParticleEmitters) == 0 {
			continue
		}
		s := j.replay(t, dirFinder(filepath.Dir(j.path)), pose.View{})
		ribbons, prem := 0, 0
		for _, e := range s.ribbons {
			ribbons += len(e.(*ribbonEmitter).edges)
		}
		for _, e := range s.prem {
			prem += len(e.(*premEmitter).parts)
		}
		checked++
		if j.Simulation.Live.Ribbon > 0 {
			withRibbons++
		}
		if ribbons != j.Simulation.Live.Ribbon || prem != j.Simulation.Live.Particle {
			t.Errorf("%s: %d ribbon edges, %d spawned models; the viewer had %d and %d",
				j.Image, ribbons, prem, j.Simulation.Live.Ribbon, j.Simulation.Live.Particle)
		}
	}
	if checked < 10 || withRibbons < 3 {
		t.Fatalf("checked %d jobs, %d with live ribbons; expected the corpus ribbon and PREM jobs", checked, withRibbons)
	}
	t.Logf("%d jobs with ribbon or PREM emitters, %d with live ribbon edges", checked, withRibbons)
}

// TestSubtractOnes: one subtraction gives what the viewer's loop of
// acc−− gives, for accumulators of every size up to 2¹⁶ and fractions of
// every scale.
func TestSubtractOnes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 100_000 {
		var acc float64
		switch i % 3 {
		case 0:
			if i%30 != 0 {
				continue
			}
			acc = 1 + r.Float64()*float64(r.IntN(1<<16-1))
		case 1:
			acc = 1 + r.Float64()*3
		default:
			acc = float64(r.IntN(300)+1) + math.Ldexp(r.Float64(), -r.IntN(60))
		}
		n := math.Ceil(acc)
		want := acc
		for k := n; k > 0; k-- {
			want--
		}
		if got := subtractOnes(acc, n); got != want {
			t.Fatalf("subtractOnes(%v, %v) = %v, the loop gives %v", acc, n, got, want)
		}
	}
}
