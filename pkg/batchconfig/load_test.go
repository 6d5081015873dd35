package batchconfig

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// fixture writes files (slash path -> content) below dir.
func fixture(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte(content), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
}

// loadYAML writes a YAML configuration into dir and loads it with the
// settings given, no variables.
func loadYAML(t *testing.T, dir, text string, flags ...Setting) *batch.Options {
	t.Helper()
	p := filepath.Join(dir, "batch.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Load(Layers{File: p, Flags: flags})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return o
}

// The built-in defaults are batch.DefaultOptions written as a file
// writes them: read back, they give DefaultOptions.
func TestDefaultIsDefaultOptions(t *testing.T) {
	c := Default()
	o := convert(&c, "", func(key string, err error) { t.Errorf("%s: %v", key, err) })
	if want := batch.DefaultOptions(); !reflect.DeepEqual(*o, want) {
		t.Errorf("the defaults read back as\n%+v\nwant\n%+v", *o, want)
	}
}

// Every text form of the file reaches the options as its value, and
// relative paths are relative to the file's folder.
func TestLoadReadsTextForms(t *testing.T) {
	dir := t.TempDir()
	o := loadYAML(t, dir, `inputs: {dirs: [m]}
shard: 1/3
model_timeout: 2.5
texture_cache_mb: 16
render: {size: 96x64, background: "#10203080", team_color: blue, time: 50%}
views: {top: {pitch: 60, size: 32}}
sequences: {select: match, pattern: "Walk*, Attack*"}
team_colors: [red, "7", "#ff8800"]
output: {formats: [png, gif]}
sheet: {metadata: [godot]}
overrides:
  - match: "fx/**"
    render: {background: transparent, time: "250"}
    team_colors: [neutral]
limits: {particles: 50000, read_bytes: 1000}
`)
	want := batch.DefaultOptions()
	want.Base = dir
	want.Inputs.Dirs = []string{"m"}
	want.Shard = batch.Shard{Index: 1, Count: 3}
	want.ModelTimeout = 2500 * time.Millisecond
	want.TextureCache = 16 << 20
	want.Render.Size = batch.Size{W: 96, H: 64}
	want.Render.Background = color.NRGBA{0x10, 0x20, 0x30, 0x80}
	want.Render.Team = batch.Team{Name: "blue", Color: texture.Player(1)}
	want.Render.Time = render.Share(0.5)
	pitch := 60.0
	want.Views = map[string]batch.View{"top": {Pitch: &pitch, Size: batch.Square(32)}}
	want.Sequences = batch.Sequences{Select: batch.SelectMatch, Patterns: []string{"Walk*", "Attack*"}}
	want.Teams = []batch.Team{{Name: "red", Color: texture.Player(0)}, {Name: "7", Color: texture.Player(7)},
		{Name: "#ff8800", Color: texture.TeamRGB([3]uint8{0xff, 0x88, 0})}}
	want.Output.Formats = []batch.Format{batch.FormatPNG, batch.FormatGIF}
	want.Sheet.Metadata = []batch.Metadata{batch.MetaGodot}
	ms := render.Ms(250)
	want.Overrides = []batch.Override{{Match: "fx/**", Render: batch.RenderPatch{Background: &color.NRGBA{}, Time: &ms},
		Teams: []batch.Team{{Name: "neutral", Color: texture.Player(texture.TeamNeutral)}}}}
	want.Limits.Set(budget.Particles, 50000)
	want.Limits.Set(budget.ReadBytes, 1000)
	if !reflect.DeepEqual(*o, want) {
		t.Errorf("got\n%+v\nwant\n%+v", *o, want)
	}
}

// A key set by a variable or a flag is pinned: the file's per-model
// overrides no longer change it, while their other keys still apply.
func TestPinnedKeysBeatOverrides(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/units/a.mdx": "x", "m/fx/b.mdx": "y"})
	const y = `inputs: {dirs: [m]}
overrides:
  - match: "units/**"
    render: {size: 128, ssaa: 2}
    team_colors: [red, blue]
    sequences: {select: all}
  - match: "fx/**"
    render: {preroll_ms: 2000, seed: 11, step_ms: 20}
`
	plan := func(o *batch.Options) (fx, units batch.Job) {
		t.Helper()
		jobs, err := o.Plan()
		if err != nil || len(jobs) != 2 {
			t.Fatalf("plan: %d jobs, %v", len(jobs), err)
		}
		return jobs[0], jobs[1]
	}
	fx, units := plan(loadYAML(t, dir, y))
	if units.Render.Size != batch.Square(128) || units.Render.SSAA != 2 || len(units.Teams) != 2 || units.Sequences.Select != batch.SelectAll {
		t.Errorf("units override: %+v", units)
	}
	if r := fx.Render; r.PrerollMs != 2000 || r.Seed != 11 || r.StepMs != 20 {
		t.Errorf("fx override: %+v", r)
	}
	t.Setenv("MDXR_RENDER_SIZE", "32")
	t.Setenv("MDXR_RENDER_PREROLL_MS", "0")
	p := filepath.Join(dir, "batch.yaml")
	o, err := Load(Layers{File: p, Env: os.LookupEnv, Flags: []Setting{
		{Key: "render.seed", Value: 3, Where: "flag --seed"},
		{Key: "sequences.select", Value: "stand", Where: "flag --sequence"},
		{Key: "render.team_color", Value: "3", Where: "flag --team"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	fx, units = plan(o)
	if r := units.Render; r.Size != batch.Square(32) || r.SSAA != 2 {
		t.Errorf("units: size %v ssaa %d, want 32 (env) 2 (override)", r.Size, r.SSAA)
	}
	if r := fx.Render; r.PrerollMs != 0 || r.Seed != 3 || r.StepMs != 20 {
		t.Errorf("fx: preroll %g seed %d step %g, want 0 (env) 3 (flag) 20 (override)", r.PrerollMs, r.Seed, r.StepMs)
	}
	if units.Sequences.Select != batch.SelectStand {
		t.Errorf("units: the flag's sequences lost to the override's: %+v", units.Sequences)
	}
	// --team beats the file's lists of team colours, its own and the
	// overrides', as every flag beats the file.
	if len(units.Teams) != 1 || units.Teams[0].Name != "3" {
		t.Errorf("units: teams %+v, want the flag's", units.Teams)
	}
}

func TestShardFromEnv(t *testing.T) {
	env := map[string]string{"JOB_COMPLETION_INDEX": "2", ShardCountEnv: "5"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	if s, ok, err := ShardFromEnv(lookup); !ok || err != nil || s != (batch.Shard{Index: 2, Count: 5}) {
		t.Errorf("ShardFromEnv: %v %v %v", s, ok, err)
	}
	env["JOB_COMPLETION_INDEX"] = "5"
	if _, _, err := ShardFromEnv(lookup); err == nil {
		t.Error("index 5 of 5 accepted")
	}
	delete(env, ShardCountEnv)
	if _, ok, _ := ShardFromEnv(lookup); ok {
		t.Error("shard without count")
	}
	// Load takes the shard from them when nothing else sets one.
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	os.WriteFile(p, []byte("inputs: {files: [a.mdx]}\n"), 0o644)
	env = map[string]string{"JOB_COMPLETION_INDEX": "1", ShardCountEnv: "2"}
	if o, err := Load(Layers{File: p, Env: lookup}); err != nil || o.Shard != (batch.Shard{Index: 1, Count: 2}) {
		t.Errorf("Load: shard %v, %v", o.Shard, err)
	}
	env["MDXR_SHARD"] = "0/3"
	if o, err := Load(Layers{File: p, Env: lookup}); err != nil || o.Shard != (batch.Shard{Index: 0, Count: 3}) {
		t.Errorf("Load with MDXR_SHARD: shard %v, %v", o.Shard, err)
	}
}

// Problems are reported once: a key in error is left at its default, and
// nothing is said of the default.
func TestProblemsNotRepeated(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	os.WriteFile(p, []byte("inputs: {files: [a.mdx]}\nrender: {size: 2x2, background: red}\n"), 0o644)
	_, err := Load(Layers{File: p, Flags: []Setting{{Key: "render.size", Where: "flag --size", Err: errors.New("want N or WxH")}}})
	var ce *Errors
	if !errors.As(err, &ce) || ce.Len() != 2 {
		t.Fatalf("want two problems, the flag's and the background's: %v", err)
	}
	for i, want := range []string{"flag --size: render.size: want N or WxH", fmt.Sprintf("%s:2: render.background: background:", p)} {
		if got := ce.Errs[i].Error(); !strings.HasPrefix(got, want) {
			t.Errorf("problem %d: %s, want %s…", i, got, want)
		}
	}
}

// Each key's value is the highest layer's that sets it, as viper weighs
// them: a flag beats a variable, which beats the file, which beats the
// built-in default, for a nested key and a list key alike. Paths follow
// their layer: the file's stay relative to its folder (Base), a
// variable's and a flag's are made absolute from the working directory.
func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "batch.yaml")
	env := map[string]string{}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	load := func(file string, flags ...Setting) *batch.Options {
		t.Helper()
		if err := os.WriteFile(p, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := Load(Layers{File: p, Env: lookup, Flags: flags})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		return o
	}
	abs := func(p string) string {
		t.Helper()
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	check := func(layer string, o *batch.Options, size batch.Size, dirs []string) {
		t.Helper()
		if o.Render.Size != size || !slices.Equal(o.Inputs.Dirs, dirs) {
			t.Errorf("%s: render.size %v, inputs.dirs %q; want %v, %q", layer, o.Render.Size, o.Inputs.Dirs, size, dirs)
		}
		if o.Base != dir {
			t.Errorf("%s: base %q, want the file's folder", layer, o.Base)
		}
	}
	const file = "inputs: {files: [a.mdx], dirs: [m, n]}\nrender: {size: 96}\n"
	check("default", load("inputs: {files: [a.mdx]}\n"), batch.DefaultOptions().Render.Size, nil)
	check("file", load(file), batch.Square(96), []string{"m", "n"})
	env["MDXR_RENDER_SIZE"] = "64x48"
	env["MDXR_INPUTS_DIRS"] = "env-a, env-b"
	check("env", load(file), batch.Size{W: 64, H: 48}, []string{abs("env-a"), abs("env-b")})
	flags := []Setting{{Key: "render.size", Value: "32", Where: "flag --size"},
		{Key: "inputs.dirs", Value: []string{"flag"}, Where: "flag --dirs"}}
	check("flag", load(file, flags...), batch.Square(32), []string{abs("flag")})
	// A layer that does not set a key leaves it to the layers below.
	delete(env, "MDXR_RENDER_SIZE")
	check("env dirs only", load(file), batch.Square(96), []string{abs("env-a"), abs("env-b")})
	check("flag size only", load(file, flags[0]), batch.Square(32), []string{abs("env-a"), abs("env-b")})
}

// Load reads variables through Layers.Env only: without it, the
// process's MDXR_ variables are not read.
func TestLoadReadsNoEnvironmentWithoutEnv(t *testing.T) {
	t.Setenv("MDXR_RENDER_SIZE", "32")
	t.Setenv("MDXR_JOBS", "lots")
	o := loadYAML(t, t.TempDir(), "inputs: {files: [a.mdx]}\nrender: {size: 96}\n")
	if o.Render.Size != batch.Square(96) || o.Jobs != batch.DefaultOptions().Jobs {
		t.Errorf("size %v jobs %d: the process's variables were read", o.Render.Size, o.Jobs)
	}
}

// A variable's bad value is blamed on the variable: one that does not
// read, even when a flag beats it, and one out of range, including an
// element of a list that replaced the file's.
func TestLoadEnvErrorsNameTheVariable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "batch.yaml")
	os.WriteFile(p, []byte("inputs: {files: [a.mdx]}\nrender: {size: 96}\noutput:\n  formats:\n    - png\n    - gif\n"), 0o644)
	for _, tc := range []struct {
		env   map[string]string
		flags []Setting
		want  string
	}{
		{map[string]string{"MDXR_RENDER_SIZE": "huge"}, nil,
			`env MDXR_RENDER_SIZE: render.size: want N or WxH in whole pixels, got "huge"`},
		{map[string]string{"MDXR_RENDER_SIZE": "huge"}, []Setting{{Key: "render.size", Value: "64", Where: "flag --size"}},
			`env MDXR_RENDER_SIZE: render.size: want N or WxH in whole pixels, got "huge"`},
		{map[string]string{"MDXR_RENDER_SIZE": "4"}, nil,
			"env MDXR_RENDER_SIZE: render.size: want 8 to 8192 pixels a side, got 4"},
		{map[string]string{"MDXR_OUTPUT_FORMATS": "png,webp"}, nil,
			`env MDXR_OUTPUT_FORMATS: output.formats[1]: unknown format "webp"`},
		{nil, []Setting{{Key: "output.formats", Value: []string{"png", "webp"}, Where: "flag --format"}},
			`flag --format: output.formats[1]: unknown format "webp"`},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		_, err := Load(Layers{File: p, Env: lookup, Flags: tc.flags})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Count(err.Error(), "\n") != 0 {
			t.Errorf("env %v, flags %v: %v\nwant the one problem %s…", tc.env, tc.flags, err, tc.want)
		}
	}
}

// viper folds keys to lower case and splits them at dots: every key
// must be its own folding, with no empty part, to reach viper and come
// back unchanged.
func TestKeysSurviveViper(t *testing.T) {
	for _, k := range Keys() {
		if k.Name != strings.ToLower(k.Name) || slices.Contains(strings.Split(k.Name, "."), "") {
			t.Errorf("key %q", k.Name)
		}
	}
}
