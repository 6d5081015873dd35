package particles

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// stormSim decodes a hostile emitter model and starts its first sequence
// (a pre-roll of one lifespan) with opt.
func stormSim(t *testing.T, e hostile.Emitters, opt Options) *Sim {
	t.Helper()
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", e))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e.PREM > 0 {
		spawned, err := mdx.DecodeMDL(hostile.MDLSpawned(2000))
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
// TestHostileStormStopsOnWork) at the default budgets: each is drawn with
// the model-wide live count capped (not 20,000 particles or 4,096 edges
// per emitter), and a warning says so.
func TestHostileStormsAreCapped(t *testing.T) {
	t.Run("PRE2", func(t *testing.T) {
		s := stormSim(t, hostile.Emitters{PRE2: 40, Rate: 3.4e38, Life: 1}, DefaultOptions())
		if err := s.AdvanceTo(500); err != nil {
			t.Fatal(err)
		}
		if s.Live() > 10_000 || !warned(s, "particle budget reached") {
			t.Errorf("%d live particles (want at most 10000, and a warning); warnings %q", s.Live(), s.Warnings())
		}
	})
	t.Run("ribbons", func(t *testing.T) {
		s := stormSim(t, hostile.Emitters{Ribbons: 500, Rate: 4e9, Life: 1}, DefaultOptions())
		if err := s.AdvanceTo(500); err != nil {
			t.Fatal(err)
		}
		edges := 0
		for _, e := range s.ribbons {
			edges += len(e.(*ribbonEmitter).edges)
		}
		if edges > 20_000 || !warned(s, "ribbon budget reached") {
			t.Errorf("%d live ribbon edges (want at most 20000, and a warning); warnings %q", edges, s.Warnings())
		}
	})
	t.Run("PREM", func(t *testing.T) {
		s := stormSim(t, hostile.Emitters{PREM: 20, Rate: 1000, Life: 10, SpawnPath: "spawned.mdl"}, DefaultOptions())
		if err := s.AdvanceTo(500); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range s.prem {
			n += len(e.(*premEmitter).parts)
		}
		// A spawned model counts its 2,000 vertices and 32 for its node.
		if n > (1<<20)/2032 || !warned(s, "spawned-model budget reached") {
			t.Errorf("%d live spawned models (want at most %d, and a warning); warnings %q", n, (1<<20)/2032, s.Warnings())
		}
	})
}

// TestHostileStormStopsOnWork: a storm whose pre-roll is ten minutes stops
// when its work passes MaxWork, with a *BudgetError that AdvanceTo keeps
// returning until Start.
func TestHostileStormStopsOnWork(t *testing.T) {
	opt := DefaultOptions()
	opt.MaxWork = 5_000_000
	s := stormSim(t, hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}, opt)
	err := s.AdvanceTo(500)
	var be *BudgetError
	if !errors.As(err, &be) || be.Budget != "MaxWork" || be.Limit != 5_000_000 || be.Value <= be.Limit || be.Value != s.Work() {
		t.Fatalf("got %v, want a MaxWork *BudgetError", err)
	}
	// One step of 10,000 particles and 10 emitters is about 10,000 units:
	// the simulation stopped at the step that passed the budget.
	if s.Work() > 5_000_000+100_000 {
		t.Errorf("work %d: the simulation went on past the budget", s.Work())
	}
	if err2 := s.AdvanceTo(600); err2 != err {
		t.Errorf("second AdvanceTo: %v, want the same error", err2)
	}
	opt.MaxWork = 0 // the default; a short sequence time and no pre-roll fit
	opt.PrerollMs = 0
	s2 := stormSim(t, hostile.Emitters{PRE2: 10, Rate: 3.4e38, Life: 600}, opt)
	if err := s2.AdvanceTo(500); err != nil {
		t.Errorf("without pre-roll: %v", err)
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

// TestCorpusWithinBudgets simulates the first sequences of every model of
// the shared corpus that has emitters, through each sequence (up to 30 s,
// as a sprite sheet would), with a quarter of every default budget: none
// may be reached, so the defaults are at least four times what real
// models need.
func TestCorpusWithinBudgets(t *testing.T) {
	root := filepath.Join(sharedRoot(), "corpus", "files")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not found (%v)", err)
	}
	opt := DefaultOptions()
	opt.MaxParticles = DefaultMaxParticles / 4
	opt.MaxRibbonEdges = DefaultMaxRibbonEdges / 4
	opt.MaxSpawnedVertices = DefaultMaxSpawnedVertices / 4
	opt.MaxWork = DefaultMaxWork / 4
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	models, worst := 0, int64(0)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(path))
		if err != nil || d.IsDir() || (ext != ".mdx" && ext != ".mdl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := mdx.DecodeAny(b)
		if err != nil || len(m.ParticleEmitters)+len(m.ParticleEmitters2)+len(m.RibbonEmitters) == 0 {
			return nil // broken fixtures are other tests' business
		}
		models++
		for seq := range min(len(m.Sequences), 4) {
			s, err := New(m, opt)
			if err != nil {
				return err
			}
			s.LoadSpawnedModels(FileModelLoader(resolverFinder{res, []texture.Source{texture.Folder(filepath.Dir(path))}}, budget.Limits{}))
			s.Start(seq, pose.View{})
			iv := m.Sequences[seq].Interval
			end := min(float64(iv[1])-float64(iv[0]), 30_000)
			for ms := 0.0; ; ms += 1000 {
				if err := s.AdvanceTo(min(ms, end)); err != nil {
					t.Errorf("%s sequence %d: %v", path, seq, err)
					break
				}
				if ms >= end {
					break
				}
			}
			for _, w := range s.Warnings() {
				if strings.Contains(w, "budget") {
					t.Errorf("%s sequence %d: %s", path, seq, w)
				}
			}
			worst = max(worst, s.Work())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d models with emitters; most work %d", models, worst)
	if models < 20 {
		t.Errorf("only %d models with emitters", models)
	}
}
