package particles

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
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
	path := filepath.Join(testshared.Root(), "reference", "peer-particles", "jobs.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("reference jobs not found (%v)", err)
	}
	defer f.Close()
	type job struct {
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
			} `json:"live"`
		} `json:"simulation"`
	}
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	n, nonzero := 0, 0
	for sc.Scan() {
		var j job
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatal(err)
		}
		if j.OK != nil && !*j.OK {
			continue // the viewer failed to load the model
		}
		mpath := filepath.Join(testshared.Root(), "reference", j.Model)
		b, err := os.ReadFile(mpath)
		if err != nil {
			t.Fatal(err)
		}
		m, err := testmodel.Load(b)
		if err != nil {
			t.Fatalf("%s: %v", mpath, err)
		}
		s, err := New(m, Options{Seed: j.Simulation.Seed, StepMs: j.Simulation.StepMs, PrerollMs: j.Simulation.PrerollMs})
		if err != nil {
			t.Fatal(err)
		}
		s.LoadSpawnedModels(FileModelLoader(resolverFinder{res, []texture.Source{texture.Folder(filepath.Dir(mpath))}}, budget.Limits{}))
		seq := j.Sequence.Index
		if len(m.Sequences) == 0 {
			seq = -1
		}
		s.Start(seq, pose.View{Rotation: pose.LookRotation(fauxgl.V(j.Camera.Eye[0], j.Camera.Eye[1], j.Camera.Eye[2]), fauxgl.V(j.Camera.Target[0], j.Camera.Target[1], j.Camera.Target[2]), fauxgl.V(0, 0, 1))})
		s.AdvanceTo(j.Time)
		n++
		if j.Simulation.Draws > 0 {
			nonzero++
		}
		if s.Draws() != j.Simulation.Draws || s.Live() != j.Simulation.Live.Particle2 {
			t.Errorf("%s: %d random draws, %d live PRE2 particles; the viewer had %d and %d",
				j.Image, s.Draws(), s.Live(), j.Simulation.Draws, j.Simulation.Live.Particle2)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 40 || nonzero < 20 {
		t.Fatalf("replayed %d jobs (%d with draws); expected the 44 reference jobs", n, nonzero)
	}
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
