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
	if u.Input.Rel != "units/a.mdx" || u.Render.Size != Square(128) || u.Render.SSAA != 2 || len(u.Teams) != 2 {
		t.Errorf("units override: %+v", u)
	}
	if len(u.Views) != 2 || u.Views[0].Size != Square(128) || u.Views[1].Size != Square(64) {
		t.Errorf("views: %+v", u.Views)
	}
	if len(d.Views) != 1 || d.Views[0].Name != "front" || d.Render.Size != Square(256) {
		t.Errorf("doodads override: %+v", d)
	}
	// A key pinned by a variable or flag: the override no longer changes it.
	c = loadYAML(t, dir, y)
	c.Render.Size = Square(32)
	c.Pin("render.size", "env MDXR_RENDER_SIZE")
	jobs, _ = c.Plan(Shard{})
	if jobs[1].Render.Size != Square(32) || jobs[1].Render.SSAA != 2 {
		t.Errorf("pinned size: %d ssaa %d, want 32 2", jobs[1].Render.Size, jobs[1].Render.SSAA)
	}
}

func TestOutputNameCollisions(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a/x.mdx": "", "m/a/x.mdl": "", "m/b/x.mdx": ""})
	// The error names a template that works, and it does.
	for _, c := range []struct{ yaml, want string }{
		{"inputs:\n  dirs: [m]\n", `both write a/x-default; output.name "{path}-{view}-{ext}" keeps every model apart`},
		{"inputs:\n  dirs: [m]\noutput:\n  name: \"{name}\"\n  formats: [png]\noverrides:\n  - match: \"**/*.mdl\"\n    skip: true\n", `both write x; output.name "{path}" keeps every model apart`},
	} {
		cfg := loadYAML(t, dir, c.yaml)
		_, err := cfg.Plan(Shard{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v\nwant %s", err, c.want)
			continue
		}
		fix := c.want[strings.Index(c.want, `output.name "`)+len(`output.name "`):]
		cfg.Output.Name = fix[:strings.Index(fix, `"`)]
		if _, err := cfg.Plan(Shard{}); err != nil {
			t.Errorf("the suggested %q does not work: %v", cfg.Output.Name, err)
		}
	}
	c := loadYAML(t, dir, "inputs:\n  dirs: [m]\noutput:\n  name: \"{path}-{ext}\"\n")
	jobs, err := c.Plan(Shard{})
	if err != nil || len(jobs) != 3 || c.Stem(&jobs[0], "default", "") != "a/x-mdl" {
		t.Errorf("{ext}: %v", err)
	}
}

// Two input folders holding the same relative path: those inputs get
// their folder's name in front, the others keep theirs; {root} names the
// folder in any template.
func TestOutputNamesOfTwoRoots(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"modsA/units/x.mdx": "", "modsB/units/x.mdx": "", "modsB/only.mdx": ""})
	c := loadYAML(t, dir, "inputs:\n  dirs: [modsA, modsB]\n")
	jobs, err := c.Plan(Shard{})
	if err != nil || len(jobs) != 3 {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
	var stems []string
	for i := range jobs {
		stems = append(stems, c.Stem(&jobs[i], "default", ""))
	}
	if got := strings.Join(stems, " "); got != "modsA/units/x-default only-default modsB/units/x-default" {
		t.Errorf("stems: %s", got)
	}
	c.Output.Name = "{root}/{path}"
	if s := c.Stem(&jobs[1], "default", ""); s != "modsB/only" {
		t.Errorf("{root}: %s", s)
	}
}
