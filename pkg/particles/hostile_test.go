package particles

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// stormSim decodes a hostile emitter model and starts its first sequence
// (a pre-roll of one lifespan) with opt.
func stormSim(t *testing.T, e hostile.Emitters, opt Options) *Sim {
	t.Helper()
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", e), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e.PREM > 0 {
		spawned, err := mdx.DecodeMDL(hostile.MDLSpawned(2000), budget.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		s.LoadSpawnedModels(func(string) (*mdx.Model, string, error) { return spawned, "spawned.mdl", nil })
	}
	s.Start(0, pose.View{})
	return s
}

func warned(s *Sim, what string) bool {
	for _, w := range s.Warnings() {
		if strings.Contains(w, what) {
			return true
		}
	}
	return false
}

// TestHostileStormsAreCapped runs the particle storms of the hostile-input
// table with short lifespans (long ones are stopped by the work budget,
// hostileWork is the work budget of the small hostile cases: 1/200 of
// the default, as their models are a small part of the full-size cases'.
const hostileWork = 1_000_000

// workCases are the expensive simulation paths, small: each would run
// its ten-minute pre-roll (36,000 steps) or far longer than maxSteps on
// hostileWork if its work were not priced as it is (budget.go), and must
// stop within maxSteps steps. The bound of each is its budget over the
// least its steps cost (prices in sixteenths of a unit), with a margin.
var workCases = []struct {
	name    string
	storm   hostile.Storm
	spawned func() []byte
	// autoPreroll runs the pre-roll of one lifespan, not the longest.
	autoPreroll bool
	// maxSteps bounds the updates (pre-roll included) before it stops.
	maxSteps int
}{
	// 10,000 live particles at 6/16: 3,750 units a step.
	{name: "PRE2 particles aged", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}}, maxSteps: 300},
	// 10 emitters asking for 1,000 births a step; the particles die in 2
	// steps, so the particle cap lets 5,000 be born a step, at 184/16:
	// 57,500 units a step.
	{name: "PRE2 births", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 3e4, Life: 0.02}}, maxSteps: 20},
	// 2,000 idle emitters, each a node (136/16) stepped (64/16): 25,000
	// units a step.
	{name: "PRE2 emitters with nothing to emit", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 2000, Rate: 0, Life: 600}}, maxSteps: 45},
	// 10 squirting emitters whose 8 tracks have 2,000 keys: each step
	// scans 3 of them (visibility, rate, key index), each birth 6: at
	// least 10 × 3 × 2,000 × 4/16 = 15,000 units a step.
	{name: "PRE2 squirt on tracks of 2,000 keys", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 1, Life: 600}, Keys: 2000, Squirt: true}, maxSteps: 70},
	// One ribbon making its 4,096 edges every step (4/16) and ageing
	// them (6/16): 2,560 units a step.
	{name: "ribbon edges born and aged", storm: hostile.Storm{Emitters: hostile.Emitters{Ribbons: 1, Rate: 4e9, Life: 600}}, maxSteps: 420},
	// 10 ribbons sampling 5 tracks of 2,000 keys a step: 25,000 units.
	{name: "ribbons on tracks of 2,000 keys", storm: hostile.Storm{Emitters: hostile.Emitters{Ribbons: 10, Rate: 1, Life: 600}, Keys: 2000}, maxSteps: 45},
	// A chain of 10,000 bones posed (136/16): 85,000 units a step.
	{name: "a chain of 10,000 bones", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 1, Life: 600}, Bones: 10_000}, maxSteps: 15},
	// 100 bones of 3 tracks of 2,000 keys: 150,000 units a step.
	{name: "bones on tracks of 2,000 keys", storm: hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 1, Life: 600}, Bones: 100, Keys: 2000}, maxSteps: 10},
	// 20 emitters spawning a 2,000-vertex model with the pre-roll of
	// its 10 s lifespan (600 steps, which cost little): the frame's 516
	// instances (the spawned-vertex cap) at about 5.7 units a vertex are
	// more than the budget, and AdvanceTo pays for them before drawing.
	{name: "spawned models of 2,000 vertices", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 20, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawned(2000) }, autoPreroll: true, maxSteps: 632},
	// Spawned models of 10 bones with tracks of 2,000 keys: each
	// instance in a frame costs 10 × 3 × 2,000 × 4/16 = 15,000 units.
	{name: "spawned models on tracks of 2,000 keys", storm: hostile.Storm{Emitters: hostile.Emitters{PREM: 4, Rate: 1000, Life: 10, SpawnPath: "s.mdl"}},
		spawned: func() []byte { return hostile.MDLSpawnedBones(20, 10, 2000) }, autoPreroll: true, maxSteps: 632},
}

// TestHostileWorkIsBounded: every expensive path of workCases, with a
// work budget of hostileWork and a pre-roll of the longest allowed,
// stops with the meter's *budget.Error within its bound of steps, having
// charged no more than the budget; AdvanceTo keeps returning that error
// until Start.
func TestHostileWorkIsBounded(t *testing.T) {
	for _, c := range workCases {
		t.Run(c.name, func(t *testing.T) {
			m, err := mdx.DecodeMDL(hostile.MDLStorm("storm", c.storm), budget.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			meter := budget.NewMeter(budget.Limits{SimulationWork: hostileWork})
			opt := DefaultOptions()
			opt.Budget = meter
			if !c.autoPreroll {
				opt.PrerollMs = MaxPrerollMs
			}
			s, err := New(m, opt)
			if err != nil {
				t.Fatal(err)
			}
			if c.spawned != nil {
				spawned, err := mdx.DecodeMDL(c.spawned(), budget.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				s.LoadSpawnedModels(func(string) (*mdx.Model, string, error) { return spawned, "s.mdl", nil })
			}
			s.Start(0, pose.View{})
			err = s.AdvanceTo(500)
			var be *budget.Error
			if !errors.As(err, &be) || be.Limit != budget.SimulationWork || be.Max != hostileWork || be.Value <= be.Max || be.File != "" || !strings.Contains(be.What, "particle simulation stopped") {
				t.Fatalf("got %v, want a simulation_work *budget.Error", err)
			}
			if s.Updates() > c.maxSteps {
				t.Errorf("stopped after %d steps, want at most %d: %v", s.Updates(), c.maxSteps, err)
			}
			if used := meter.Used(budget.SimulationWork); used > hostileWork || used != s.Work() {
				t.Errorf("%d units charged to the meter, the Sim says %d: want them equal and within %d", used, s.Work(), hostileWork)
			}
			if err2 := s.AdvanceTo(600); err2 != err {
				t.Errorf("second AdvanceTo: %v, want the same error", err2)
			}
			if s.Meshes(benchCam) != nil {
				t.Error("meshes of a simulation stopped by its budget")
			}
		})
	}
}

// TestSharedBudget: simulations sharing a meter share its work budget:
// the second of two is stopped by what the first spent.
func TestSharedBudget(t *testing.T) {
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 2}), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := New(m, DefaultOptions())
	alone.Start(0, pose.View{})
	if err := alone.AdvanceTo(500); err != nil {
		t.Fatal(err)
	}
	w := alone.Work()
	meter := budget.NewMeter(budget.Limits{SimulationWork: w * 3 / 2})
	opt := DefaultOptions()
	opt.Budget = meter
	for i, want := range []bool{true, false} {
		s, _ := New(m, opt)
		s.Start(0, pose.View{})
		err := s.AdvanceTo(500)
		var be *budget.Error
		if ok := err == nil; ok != want || (!ok && !errors.As(err, &be)) {
			t.Errorf("simulation %d: %v", i, err)
		}
	}
	if meter.Used(budget.SimulationWork) > w*3/2 {
		t.Errorf("%d units charged, more than the %d allowed", meter.Used(budget.SimulationWork), w*3/2)
	}
}

// TestMeshesChargedAfterwards: the geometry of a frame is charged when
// Meshes builds it; a frame over the budget is drawn and the next
// AdvanceTo returns the error.
func TestMeshesChargedAfterwards(t *testing.T) {
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	probe, _ := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs})
	probe.Start(0, pose.View{})
	if err := probe.AdvanceTo(100); err != nil {
		t.Fatal(err)
	}
	// 10,000 quads at 176/16 units: 110,000 units a frame.
	meter := budget.NewMeter(budget.Limits{SimulationWork: probe.Work() + 50_000})
	s, _ := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs, Budget: meter})
	s.Start(0, pose.View{})
	if err := s.AdvanceTo(100); err != nil {
		t.Fatal(err)
	}
	// The first emitter's burst fills the particle cap.
	if ms := s.Meshes(benchCam); len(ms) != 1 || len(ms[0].Vertices) != 4*10_000 {
		t.Fatalf("%d meshes of the frame that passed the budget, want one of 10,000 quads", len(ms))
	}
	var be *budget.Error
	if err := s.AdvanceTo(120); !errors.As(err, &be) || !strings.Contains(be.What, "particle geometry of a frame") {
		t.Errorf("AdvanceTo after the frame: %v, want the geometry's *budget.Error", err)
	}
}

// TestSpawnedModelPosedOnce: emitters spawning one model share one pose
// of it, however many there are.
func TestSpawnedModelPosedOnce(t *testing.T) {
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", hostile.Emitters{PREM: 50, Rate: 10, Life: 1, SpawnPath: "s.mdl"}), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	spawned, err := mdx.DecodeMDL(hostile.MDLSpawned(100), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := New(m, DefaultOptions())
	s.LoadSpawnedModels(func(string) (*mdx.Model, string, error) { return spawned, "s.mdl", nil })
	first := s.prem[0].(*premEmitter).sp
	for _, e := range s.prem {
		if e.(*premEmitter).sp != first || first == nil {
			t.Fatal("emitters of one spawned model have poses of their own")
		}
	}
}

// TestAdvanceToContext: a done context stops Start's pre-roll and
// AdvanceTo between steps, and the simulation then goes on to the same
// state as one never stopped.
func TestAdvanceToContext(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) { e.EmissionRate = 50; e.LifeSpan = 2 })
	want, err := New(m, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want.Start(0, pose.View{})
	if err := want.AdvanceTo(700); err != nil {
		t.Fatal(err)
	}

	done, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := New(m, DefaultOptions())
	if err := s.StartContext(done, 0, pose.View{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("StartContext with a done context: %v", err)
	}
	if err := s.AdvanceToContext(done, 700); !errors.Is(err, context.Canceled) {
		t.Fatalf("AdvanceToContext with a done context: %v", err)
	}
	if err := s.AdvanceTo(700); err != nil {
		t.Fatal(err)
	}
	if s.Live() != want.Live() || s.Draws() != want.Draws() || s.Steps() != want.Steps() {
		t.Errorf("after stopping: %d live, %d draws, %d steps; uninterrupted %d, %d, %d",
			s.Live(), s.Draws(), s.Steps(), want.Live(), want.Draws(), want.Steps())
	}
}

// corpusModel is a model of the shared corpus that has emitters.
type corpusModel struct {
	path string
	m    *mdx.Model
}

// corpusModels decodes every model of the shared corpus that has
// emitters, skipping the test when there is no corpus.
func corpusModels(tb testing.TB) []corpusModel {
	tb.Helper()
	root := filepath.Join(testshared.Root(), "corpus", "files")
	if _, err := os.Stat(root); err != nil {
		tb.Skipf("corpus not found (%v)", err)
	}
	var out []corpusModel
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(path))
		if err != nil || d.IsDir() || (ext != ".mdx" && ext != ".mdl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := testmodel.Load(b)
		if err != nil || len(m.ParticleEmitters)+len(m.ParticleEmitters2)+len(m.RibbonEmitters) == 0 {
			return nil // broken fixtures are other tests' business
		}
		out = append(out, corpusModel{path, m})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// simulate runs sequence seq of the model as a sprite sheet would: the
// pre-roll, then a frame each second up to 30 s of the sequence, each
// frame's meshes built once, all charged to meter.
func (c corpusModel) simulate(seq int, meter *budget.Meter, res *texture.Resolver) (*Sim, error) {
	opt := DefaultOptions()
	opt.Budget = meter
	s, err := New(c.m, opt)
	if err != nil {
		return nil, err
	}
	s.LoadSpawnedModels(FileModelLoader(resolverFinder{res, []texture.Source{texture.Folder(filepath.Dir(c.path))}}, budget.Limits{}))
	s.Start(seq, pose.View{})
	iv := c.m.Sequences[seq].Interval
	end := min(float64(iv[1])-float64(iv[0]), 30_000)
	for ms := 0.0; ; ms += 1000 {
		if err := s.AdvanceTo(min(ms, end)); err != nil {
			return s, err
		}
		s.Meshes(benchCam)
		if ms >= end {
			return s, nil
		}
	}
}

// TestCorpusWithinBudgets simulates the first sequences of every model of
// the shared corpus that has emitters, through each sequence (up to 30 s,
// as a sprite sheet would, drawing a frame a second), with a quarter of
// every default budget: none may be reached, so the defaults are at least
// four times what real models need.
func TestCorpusWithinBudgets(t *testing.T) {
	var quarter budget.Limits
	for _, k := range []budget.Kind{budget.Particles, budget.RibbonEdges, budget.SpawnedVertices, budget.SimulationWork} {
		quarter.Set(k, k.Default()/4)
	}
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	models := corpusModels(t)
	worst, busiest := int64(0), ""
	for _, c := range models {
		for seq := range min(len(c.m.Sequences), 4) {
			s, err := c.simulate(seq, budget.NewMeter(quarter), res)
			if err != nil {
				t.Errorf("%s sequence %d: %v", c.path, seq, err)
				continue
			}
			for _, w := range s.Warnings() {
				if strings.Contains(w, "budget") {
					t.Errorf("%s sequence %d: %s", c.path, seq, w)
				}
			}
			if s.Work() > worst {
				worst, busiest = s.Work(), fmt.Sprintf("%s sequence %d", filepath.Base(c.path), seq)
			}
		}
	}
	t.Logf("%d models with emitters; most work %d units (%s)", len(models), worst, busiest)
	if len(models) < 20 {
		t.Errorf("only %d models with emitters", len(models))
	}
}

// BenchmarkCorpus prices the real models' simulation (as
// TestCorpusWithinBudgets runs it, with the default budget): cpu-ns/unit
// should be that of the hostile paths (BenchmarkSimulate).
func BenchmarkCorpus(b *testing.B) {
	models := corpusModels(b)
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	var work int64
	cpu := cputime.Process()
	for b.Loop() {
		for _, c := range models {
			for seq := range min(len(c.m.Sequences), 4) {
				s, err := c.simulate(seq, nil, res)
				if err != nil {
					b.Fatal(err)
				}
				work += s.Work()
			}
		}
	}
	reportPrice(b, work, cputime.Process()-cpu)
}
