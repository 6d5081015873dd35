package batch

import (
	"errors"
	"strings"
	"testing"
)

// Overrides change the options of the models whose path matches: their
// picture options, teams and views, or leave them out.
func TestOverrides(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/units/a.mdx": "x", "m/doodads/b.mdx": "y", "m/skip/c.mdx": "z"})
	c := options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"m"}
		o.Views = map[string]View{"front": {Yaw: ptr(0.0)}, "side": {Yaw: ptr(90.0), Size: Square(64)}}
		o.Overrides = []Override{
			{Match: "units/**", Render: RenderPatch{Size: ptr(Square(128)), SSAA: ptr(2)}, Teams: []Team{team("red", 0), team("blue", 1)}},
			{Match: "doodads/*.mdx", Views: []string{"front"}},
			{Match: "skip/**", Skip: true},
		}
	})
	jobs, err := c.Plan()
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
	if len(d.Views) != 1 || d.Views[0].Name != "front" || d.Render.Size != Square(256) || len(d.Teams) != 1 || d.Teams[0] != c.Render.Team {
		t.Errorf("doodads override: %+v", d)
	}
}

func TestOutputNameCollisions(t *testing.T) {
	eachSortMemory(t, testOutputNameCollisions)
}

func testOutputNameCollisions(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a/x.mdx": "", "m/a/x.mdl": "", "m/b/x.mdx": ""})
	// The error names a template that works, and it does.
	for _, c := range []struct {
		edit func(o *Options)
		want string
	}{
		{func(o *Options) {}, `both write a/x-default; output.name "{path}-{view}-{ext}" keeps every model apart`},
		{func(o *Options) {
			o.Output.Name, o.Output.Formats = "{name}", []Format{FormatPNG}
			o.Overrides = []Override{{Match: "**/*.mdl", Skip: true}}
		}, `both write x; output.name "{path}" keeps every model apart`},
	} {
		cfg := options(dir, func(o *Options) {
			o.Inputs.Dirs = []string{"m"}
			c.edit(o)
		})
		_, err := cfg.Plan()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v\nwant %s", err, c.want)
			continue
		}
		fix := c.want[strings.Index(c.want, `output.name "`)+len(`output.name "`):]
		fix = fix[:strings.Index(fix, `"`)]
		var clash *NameClashError
		if !errors.As(err, &clash) || clash.Suggest != fix || clash.Template != cfg.Output.Name {
			t.Errorf("%#v: want a *NameClashError of %q suggesting %q", err, cfg.Output.Name, fix)
		}
		cfg.Output.Name = fix
		if _, err := cfg.Plan(); err != nil {
			t.Errorf("the suggested %q does not work: %v", cfg.Output.Name, err)
		}
	}
	c := options(dir, func(o *Options) { o.Inputs.Dirs, o.Output.Name = []string{"m"}, "{path}-{ext}" })
	jobs, err := c.Plan()
	if err != nil || len(jobs) != 3 || c.Stem(&jobs[0], "default", "") != "a/x-mdl" {
		t.Errorf("{ext}: %v", err)
	}
}

// Two input folders holding the same relative path: those inputs get
// their folder's name in front, the others keep theirs; {root} names the
// folder in any template.
func TestOutputNamesOfTwoRoots(t *testing.T) {
	eachSortMemory(t, testOutputNamesOfTwoRoots)
}

func testOutputNamesOfTwoRoots(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"modsA/units/x.mdx": "", "modsB/units/x.mdx": "", "modsB/only.mdx": ""})
	c := options(dir, func(o *Options) { o.Inputs.Dirs = []string{"modsA", "modsB"} })
	jobs, err := c.Plan()
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
