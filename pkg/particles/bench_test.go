package particles

import (
	"slices"
	"testing"
	"time"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// costCase is one simulation path of the cost benchmarks: a hostile model
// (internal/hostile.MDLStorm), the model its PREM emitters spawn, and how
// long to simulate it.
type costCase struct {
	name    string
	storm   hostile.Storm
	build   func() *mdx.Model // instead of the storm: a model built in code (WoW emitters)
	spawned func() []byte     // nil: no PREM emitter
	// prerollMs is the pre-roll, ms the time AdvanceTo goes to after it.
	prerollMs, ms float64
}

// costCases are the simulation paths whose price the budget sets
// (docs/particles.md#work-units): each is a storm at or near a live-count
// cap, or an emitter, node or track shape that costs without any
// particle.
var costCases = []costCase{
	// PRE2: 10,000 live particles (the particle cap), heads, heads and
	// tails, a squirting emitter, and emitters with nothing to emit.
	{name: "pre2/storm", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}}, prerollMs: 1000, ms: 500},
	{name: "pre2/both", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}, Both: true}, prerollMs: 1000, ms: 500},
	{name: "pre2/squirt", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 1e5, Life: 600}, Keys: 64, Squirt: true}, prerollMs: 1000, ms: 500},
	{name: "pre2/birth", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 3e4, Life: 0.02}}, prerollMs: 1000, ms: 500},
	{name: "pre2/idle", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 2000, Rate: 0, Life: 1}}, prerollMs: 1000, ms: 500},
	{name: "pre2/keys", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 1e5, Life: 1}, Keys: 2000}, prerollMs: 1000, ms: 500},
	// Ribbons: one emitter at its own cap, 500 at the model's, and tracks
	// of many keys.
	{name: "ribbon/storm", storm: hostile.Storm{Emitters: hostile.Emitters{Ribbons: 1, Rate: 4e9, Life: 600}}, prerollMs: 1000, ms: 500},
	{name: "ribbon/many", storm: hostile.Storm{Emitters: hostile.Emitters{Ribbons: 500, Rate: 4e9, Life: 600}}, prerollMs: 1000, ms: 500},
	{name: "ribbon/keys", storm: hostile.Storm{Emitters: hostile.Emitters{Ribbons: 10, Rate: 100, Life: 1}, Keys: 2000}, prerollMs: 1000, ms: 500},
	// PREM: spawned models of 2,000 vertices (the spawned-vertex cap), of
	// 10 (the particle cap), of many bones, of bones with many keys.
	{name: "prem/2000v", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 100, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawned(2000) }, prerollMs: 1000, ms: 500},
	{name: "prem/10v", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 100, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawned(10) }, prerollMs: 1000, ms: 500},
	{name: "prem/bones", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 100, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawnedBones(200, 200, 2) }, prerollMs: 1000, ms: 500},
	{name: "prem/keys", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 10, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawnedBones(20, 10, 2000) }, prerollMs: 1000, ms: 500},
	// The model's own nodes: a chain of 10,000 bones, one of 100 bones
	// whose tracks have 10,000 keys.
	{name: "nodes/chain", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 100, Life: 1}, Bones: 10_000}, prerollMs: 1000, ms: 500},
	{name: "nodes/keys", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 100, Life: 1}, Bones: 100, Keys: 2000}, prerollMs: 1000, ms: 500},
	// WoW (M2) emitters: 10,000 live particles with heads and tails, a
	// stream of short-lived ones, and ribbons at their cap.
	{name: "wow/storm", build: func() *mdx.Model { return wowStorm(10, 1e6, 600, 0) }, prerollMs: 1000, ms: 500},
	{name: "wow/birth", build: func() *mdx.Model { return wowStorm(10, 3e4, 0.02, 0) }, prerollMs: 1000, ms: 500},
	{name: "wow/ribbons", build: func() *mdx.Model { return wowStorm(0, 0, 600, 50) }, prerollMs: 1000, ms: 500},
}

// wowStorm is a model of n WoW sphere emitters of the given rate and
// lifespan, drawing heads and tails, and of r WoW ribbons.
func wowStorm(n int, rate, life float32, r int) *mdx.Model {
	m := wowModel(func(e *mdx.WoWParticleEmitter) {
		e.EmitterType, e.AreaLength, e.AreaWidth, e.Speed, e.Variation = mdx.WoWEmitterSphere, 1, 2, 3, 0.5
		e.VerticalRange, e.HorizontalRange, e.Gravity, e.Drag = 1, 3, mdx.Vec3{0, 0, -2}, 0.5
		e.TwinklePercent, e.TwinkleScale, e.TwinkleSpeed = 0.9, [2]float32{0.5, 1.5}, 10
		e.ParticleType, e.TailLength, e.Spin, e.EmissionRate, e.LifeSpan = 2, 0.1, 1, rate, life
	})
	m.WoWParticleEmitters = slices.Repeat(m.WoWParticleEmitters, n)
	ribbon := wowRibbonModel(func(e *mdx.WoWRibbonEmitter) { e.EdgesPerSecond, e.LifeSpan = 1e4, life })
	m.WoWRibbonEmitters = slices.Repeat(ribbon.WoWRibbonEmitters, r)
	return m
}

// load decodes the case's models.
func (c *costCase) load(tb testing.TB) (m, spawned *mdx.Model) {
	tb.Helper()
	if c.build != nil {
		return c.build(), nil
	}
	m, err := mdx.DecodeMDL(hostile.MDLStorm(c.name, c.storm), budget.Limits{})
	if err != nil {
		tb.Fatal(err)
	}
	if c.spawned != nil {
		if spawned, err = mdx.DecodeMDL(c.spawned(), budget.Limits{}); err != nil {
			tb.Fatal(err)
		}
	}
	return m, spawned
}

// run simulates the case once with opt and returns the Sim.
func (c *costCase) run(tb testing.TB, m, spawned *mdx.Model, opt Options) (*Sim, error) {
	opt.PrerollMs = c.prerollMs
	s, err := New(m, opt)
	if err != nil {
		tb.Fatal(err)
	}
	if spawned != nil {
		s.LoadSpawnedModels(func(string) (*mdx.Model, string, error) { return spawned, "s.mdl", nil })
	}
	if err := s.StartContext(tb.Context(), 0, pose.View{}); err != nil {
		return s, err
	}
	return s, s.AdvanceTo(c.ms)
}

var benchCam = Camera{Right: fauxgl.V(1, 0, 0), Up: fauxgl.V(0, 0, 1), Forward: fauxgl.V(0, 1, 0)}

// BenchmarkSimulate times every path of costCases, New to AdvanceTo and
// the frame's Meshes, and reports its price: ns/unit, the nanoseconds one work unit takes, which
// the prices in budget.go aim to hold at 10-20 everywhere
// (scripts/bench-particles.sh).
func BenchmarkSimulate(b *testing.B) {
	for i := range costCases {
		c := &costCases[i]
		b.Run(c.name, func(b *testing.B) {
			m, spawned := c.load(b)
			opt := DefaultOptions()
			opt.Budget = budget.NewMeter(budget.Limits{SimulationWork: 1 << 62})
			var work int64
			cpu := cputime.Process()
			for b.Loop() {
				s, err := c.run(b, m, spawned, opt)
				if err != nil {
					b.Fatal(err)
				}
				s.Meshes(benchCam) // the frame AdvanceTo paid for
				work += s.Work()
			}
			reportPrice(b, work, cputime.Process()-cpu)
		})
	}
}

// BenchmarkMeshes times Sim.Meshes, the geometry of one frame, at the
// state each costCases path reaches, spawned models posed afresh each
// time as after a step.
func BenchmarkMeshes(b *testing.B) {
	for i := range costCases {
		c := &costCases[i]
		b.Run(c.name, func(b *testing.B) {
			m, spawned := c.load(b)
			opt := DefaultOptions()
			opt.Budget = budget.NewMeter(budget.Limits{SimulationWork: 1 << 62})
			s, err := c.run(b, m, spawned, opt)
			if err != nil {
				b.Fatal(err)
			}
			before := s.Work()
			cpu := cputime.Process()
			for b.Loop() {
				s.gen++ // a new state, whose geometry AdvanceTo did not pay for
				s.Meshes(benchCam)
			}
			reportPrice(b, s.Work()-before, cputime.Process()-cpu)
		})
	}
}

// reportPrice reports the work per op and the price of a unit: the
// process's CPU time per unit (cpu-ns/unit, what the prices aim at: it
// counts the garbage collector's work and not other processes', so it
// holds on a loaded machine) and the wall time per unit (ns/unit).
func reportPrice(b *testing.B, work int64, cpu time.Duration) {
	b.ReportMetric(float64(work)/float64(b.N), "units/op")
	if work > 0 && cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(work), "cpu-ns/unit")
	}
	if work > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(work), "ns/unit")
	}
}
