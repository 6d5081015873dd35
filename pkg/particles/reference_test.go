package particles

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// TestRandomDrawsAndLiveCountsMatchViewer replays every simulated job of
// ../shared/reference/peer-particles (the reference viewer stepped from
// the sequence start, seed 6) and wants, after the same number of steps,
// the viewer's number of random draws (so emission counts and the draw
// order per particle agree: 5 per PRE2 particle, 4 for a LineEmitter, 3
// per PREM one) and its number of live PRE2 particles.
func TestRandomDrawsAndLiveCountsMatchViewer(t *testing.T) {
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	n, nonzero := 0, 0
	for _, j := range viewerJobs(t) {
		finder := resolverFinder{res, []texture.Source{texture.Folder(filepath.Dir(j.path))}}
		c := j.Camera
		s := j.replay(t, finder, pose.View{Rotation: pose.LookRotation(fauxgl.V(c.Eye[0], c.Eye[1], c.Eye[2]), fauxgl.V(c.Target[0], c.Target[1], c.Target[2]), fauxgl.V(0, 0, 1))})
		n++
		if j.Simulation.Draws > 0 {
			nonzero++
		}
		if s.Draws() != j.Simulation.Draws || s.Live() != j.Simulation.Live.Particle2 {
			t.Errorf("%s: %d random draws, %d live PRE2 particles; the viewer had %d and %d",
				j.Image, s.Draws(), s.Live(), j.Simulation.Draws, j.Simulation.Live.Particle2)
		}
	}
	if n < 40 || nonzero < 20 {
		t.Fatalf("replayed %d jobs (%d with draws); expected the 44 reference jobs", n, nonzero)
	}
}

// viewerJob is one job of the reference viewer's simulated particle
// renders (reference/peer-particles/jobs.jsonl, docs/fidelity.md): what it
// drew and how, and what its simulation held at the end.
type viewerJob struct {
	Image    string  `json:"image"`
	Model    string  `json:"model"`
	OK       *bool   `json:"ok"`
	Time     float64 `json:"time"`
	Sequence struct {
		Index int `json:"index"`
	} `json:"sequence"`
	Camera struct {
		Eye    [3]float64 `json:"eye"`
		Target [3]float64 `json:"target"`
	} `json:"camera"`
	Simulation struct {
		Seed      uint32  `json:"seed"`
		StepMs    float64 `json:"step_ms"`
		PrerollMs float64 `json:"preroll_ms"`
		Draws     int     `json:"random_draws"`
		Live      struct {
			Particle2 int `json:"particle2"`
			Ribbon    int `json:"ribbon"`
			Particle  int `json:"particle"`
		} `json:"live"`
	} `json:"simulation"`

	path  string // the model's path
	model *mdx.Model
}

// viewerJobs reads the jobs whose model the viewer loaded, with their
// models, skipping t without the shared folder.
func viewerJobs(t *testing.T) []viewerJob {
	t.Helper()
	path := filepath.Join(testshared.Root(), "reference", "peer-particles", "jobs.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("reference jobs not found (%v)", err)
	}
	var jobs []viewerJob
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var j viewerJob
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			t.Fatal(err)
		}
		if j.OK != nil && !*j.OK {
			continue // the viewer failed to load the model
		}
		j.path = filepath.Join(testshared.Root(), "reference", j.Model)
		if j.model, err = testmodel.LoadPath(j.path); err != nil {
			t.Fatalf("%s: %v", j.path, err)
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// replay runs the job's simulation as the viewer did: its seed and step,
// from its sequence's start (the bind pose when the model has none) to
// its time, with spawned models found by f.
func (j *viewerJob) replay(t *testing.T, f Finder, view pose.View) *Sim {
	t.Helper()
	s, err := New(j.model, Options{Seed: j.Simulation.Seed, StepMs: j.Simulation.StepMs, PrerollMs: j.Simulation.PrerollMs})
	if err != nil {
		t.Fatal(err)
	}
	s.LoadSpawnedModels(FileModelLoader(f, budget.Limits{}))
	seq := j.Sequence.Index
	if len(j.model.Sequences) == 0 {
		seq = -1
	}
	s.Start(seq, view)
	s.AdvanceTo(j.Time)
	return s
}

// resolverFinder finds spawned models as pkg/render does: with the texture
// resolver, from the model's folder.
type resolverFinder struct {
	r     *texture.Resolver
	local []texture.Source
}

func (f resolverFinder) ReadFile(p string) ([]byte, string, []string, error) {
	b, file, tried, err := f.r.ReadFile(f.local, p, nil)
	return b, file.String(), tried, err
}
