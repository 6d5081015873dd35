package batch

import (
	"strings"
	"testing"
)

func TestOverridesAndPinnedKeys(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/units/a.mdx": "x", "m/doodads/b.mdx": "y", "m/skip/c.mdx": "z"})
	const y = `inputs:
  dirs: [m]
views:
  front: {yaw: 0}
  side: {yaw: 90, size: 64}
overrides:
  - match: "units/**"
    render: {size: 128, ssaa: 2}
    team_colors: [red, blue]
  - match: "doodads/*.mdx"
    views: [front]
  - match: "skip/**"
    skip: true
`
	c := loadYAML(t, dir, y)
	jobs, err := c.Plan(Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2 (skip/ left out)", len(jobs))
	}
	d, u := jobs[0], jobs[1] // sorted: doodads before units
	if u.Input.Rel != "units/a.mdx" || u.Render.Size != 128 || u.Render.SSAA != 2 || len(u.Teams) != 2 {
		t.Errorf("units override: %+v", u)
	}
	if len(u.Views) != 2 || u.Views[0].Size != 128 || u.Views[1].Size != 64 {
		t.Errorf("views: %+v", u.Views)
	}
	if len(d.Views) != 1 || d.Views[0].Name != "front" || d.Render.Size != 256 {
		t.Errorf("doodads override: %+v", d)
	}
	// A key pinned by a variable or flag: the override no longer changes it.
	c = loadYAML(t, dir, y)
	c.Render.Size = 32
	c.Pin("render.size", "env MDXR_RENDER_SIZE")
	jobs, _ = c.Plan(Shard{})
	if jobs[1].Render.Size != 32 || jobs[1].Render.SSAA != 2 {
		t.Errorf("pinned size: %d ssaa %d, want 32 2", jobs[1].Render.Size, jobs[1].Render.SSAA)
	}
}

func TestOutputNameCollisions(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a/x.mdx": "", "m/a/x.mdl": "", "m/b/x.mdx": ""})
	c := loadYAML(t, dir, "inputs:\n  dirs: [m]\n")
	if _, err := c.Plan(Shard{}); err == nil || !strings.Contains(err.Error(), "both write a/x-default; add {ext}") {
		t.Errorf("same stem, two extensions: %v", err)
	}
	c = loadYAML(t, dir, "inputs:\n  dirs: [m]\noutput:\n  name: \"{name}\"\n  formats: [png]\noverrides:\n  - match: \"**/*.mdl\"\n    skip: true\n")
	if _, err := c.Plan(Shard{}); err == nil || !strings.Contains(err.Error(), "use {path} instead of {name}") {
		t.Errorf("same name in two folders: %v", err)
	}
	c = loadYAML(t, dir, "inputs:\n  dirs: [m]\noutput:\n  name: \"{path}-{ext}\"\n")
	jobs, err := c.Plan(Shard{})
	if err != nil || len(jobs) != 3 || c.Stem(&jobs[0], "default", "") != "a/x-mdl" {
		t.Errorf("{ext}: %v", err)
	}
}
