package main

import (
	"bytes"
	"context"
	"os"
	pathpkg "path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// render draws particles by default; --particles=false leaves them out;
// --seed changes them; bad --step-ms and --preroll-ms values are errors
// that name the flag.
func TestRenderParticleFlags(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(fixtureDir, "particles_fountain.mdl")
	render := func(name string, extra ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append([]string{"render", model, "-o", out, "--size", "64", "--time", "600", "--pitch", "20", "--bg", "#000000"}, extra...)
		if _, stderr, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	on := render("on.png")
	if bytes.Equal(on, render("off.png", "--particles=false")) {
		t.Error("--particles=false draws the same as the default")
	}
	if !bytes.Equal(on, render("same.png", "--seed", "6", "--step-ms", "1000/60", "--preroll-ms", "auto")) {
		t.Error("the explicit defaults differ from the defaults")
	}
	if bytes.Equal(on, render("seed.png", "--seed", "7")) {
		t.Error("--seed 7 draws the same as seed 6")
	}
	for _, bad := range [][]string{{"--step-ms", "0"}, {"--step-ms", "1/0"}, {"--step-ms", "x"}, {"--preroll-ms", "1e9"}, {"--preroll-ms", "soon"}} {
		_, stderr, code := run(t, append([]string{"render", model, "-o", filepath.Join(dir, "bad.png")}, bad...)...)
		if code == 0 || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

// sheet and batch accept the particle flags.
func TestSheetAndBatchParticleFlags(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(fixtureDir, "particles_tails.mdl")
	if _, stderr, code := run(t, "sheet", model, "-o", filepath.Join(dir, "sheet"), "--frames", "3", "--size", "32",
		"--sequence", "Stand", "--seed", "3", "--step-ms", "20", "--preroll-ms", "0"); code != 0 {
		t.Fatalf("sheet: exit %d: %s", code, stderr)
	}
	if _, stderr, code := run(t, "batch", model, "-o", filepath.Join(dir, "batch"), "--size", "32",
		"--particles=false", "--seed", "3", "--step-ms", "20", "--preroll-ms", "100"); code != 0 {
		t.Fatalf("batch: exit %d: %s", code, stderr)
	}
	if _, _, code := run(t, "batch", model, "-o", filepath.Join(dir, "batch2"), "--seed", "-4"); code == 0 {
		t.Error("batch --seed -4 accepted")
	}
}

// A batch model's cache dependencies include the model its PREM emitter
// spawns, so changing that file re-renders the spawner.
func TestBatchDependsOnSpawnedModel(t *testing.T) {
	dir := t.TempDir()
	spawned, err := os.ReadFile(filepath.Join(fixtureDir, "particles_fountain.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Spawned.mdl"), spawned, 0o644); err != nil {
		t.Fatal(err)
	}
	m := &mdx.Model{Version: 800, Name: "spawner"}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}}
	m.ParticleEmitters = []mdx.ParticleEmitter{{
		Node: mdx.Node{Name: "P", ObjectID: 0, ParentID: -1, Flags: mdx.NodeParticleEmitter | mdx.NodeEmitterUsesMDL},
		Path: `Units\Spawned.mdx`, EmissionRate: 2, LifeSpan: 1, Speed: 10,
	}}
	m.PivotPoints = []mdx.Vec3{{}}
	data, err := testmodel.EncodeMDL(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spawner.mdl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bm, err := batch.NewRenderer(8<<20, 1).Open(context.Background(), &batch.Job{Input: batch.Input{Path: path, Key: "spawner.mdl"}, Teams: []batch.Team{{Name: "0"}}}, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	deps := bm.Info().Dependencies
	if len(deps) != 1 || pathpkg.Base(deps[0].Name) != "Spawned.mdl" {
		t.Errorf("dependencies %v, want the spawned Spawned.mdl", deps)
	}
}
