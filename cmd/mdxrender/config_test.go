package main

import (
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// touch creates the files (slash paths below dir), each holding its name.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte(n), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
}

const precedenceYAML = `inputs:
  files: [a.mdx]
render:
  size: 512
  background: "#102030"
`

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "batch.yaml")
	if err := os.WriteFile(p, []byte(precedenceYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(args ...string) *batch.Options {
		t.Helper()
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.String("size", "256", "")
		fs.Int("ssaa", 1, "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(configLayers{File: p, Flags: fs, FlagKeys: map[string]string{"size": "render.size", "ssaa": "render.ssaa"}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := load(); c.Render.Size != batch.Square(512) || c.Render.SSAA != 1 || c.Render.Background != (color.NRGBA{0x10, 0x20, 0x30, 0xff}) {
		t.Errorf("file layer: size %d ssaa %d bg %q, want 512 1 #102030", c.Render.Size, c.Render.SSAA, c.Render.Background)
	}
	t.Setenv("MDXR_RENDER_SIZE", "128")
	t.Setenv("MDXR_RENDER_SSAA", "2")
	if c := load(); c.Render.Size != batch.Square(128) || c.Render.SSAA != 2 {
		t.Errorf("env over file: size %d ssaa %d, want 128 2", c.Render.Size, c.Render.SSAA)
	}
	if c := load("--size", "64"); c.Render.Size != batch.Square(64) || c.Render.SSAA != 2 {
		t.Errorf("flag over env: size %d ssaa %d, want 64 2", c.Render.Size, c.Render.SSAA)
	}
	// A flag left at its default must not hide the env or the file.
	if c := load("--ssaa", "1"); c.Render.Size != batch.Square(128) || c.Render.SSAA != 1 {
		t.Errorf("explicit flag equal to its default: size %d ssaa %d, want 128 1", c.Render.Size, c.Render.SSAA)
	}
	// Built-in default for a key nobody set.
	if c := load(); c.Sheet.Frames != batch.DefaultOptions().Sheet.Frames || c.Output.Name != "{path}-{view}" {
		t.Errorf("defaults: frames %d name %q", c.Sheet.Frames, c.Output.Name)
	}
	// List keys from env are comma-separated; strings are taken as they are.
	t.Setenv("MDXR_OUTPUT_FORMATS", "png,gif")
	t.Setenv("MDXR_RENDER_TIME", "100%")
	if c := load(); !slices.Equal(c.Output.Formats, []batch.Format{batch.FormatPNG, batch.FormatGIF}) || c.Render.Time != render.Share(1) {
		t.Errorf("env list %q, time %q", c.Output.Formats, c.Render.Time)
	}
}

func loadErr(t *testing.T, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := loadConfig(configLayers{File: p})
	if err == nil {
		t.Fatalf("%s loaded without error:\n%s", name, content)
	}
	return strings.ReplaceAll(err.Error(), p, name)
}

func TestConfigErrorsNameKeyAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string
	}{
		{"unknown key", "inputs:\n  files: [a.mdx]\nrendr:\n  size: 3\n",
			[]string{"c.yaml:3: rendr: unknown key"}},
		{"unknown nested key", "inputs:\n  files: [a.mdx]\nrender:\n  size: 64\n  sise: 3\n",
			[]string{"c.yaml:5: render.sise: unknown key (known here: size, ssaa"}},
		{"bad type", "inputs:\n  files: [a.mdx]\nrender:\n  size: big\n",
			[]string{"c.yaml:4: render.size: want N or WxH in whole pixels, got \"big\""}},
		{"list wanted", "inputs:\n  files: a.mdx\n",
			[]string{"c.yaml:2: inputs.files: want a list"}},
		{"invalid values, all reported", "inputs:\n  files: [a.mdx]\nrender:\n  size: 4\n  pitch: 120\nsequences:\n  select: some\noutput:\n  formats: [png, webp]\n",
			[]string{"c.yaml:4: render.size: want 8 to 8192 pixels a side, got 4", "c.yaml:5: render.pitch: want -90 to 90",
				"c.yaml:7: sequences.select: want stand, all or match", "c.yaml:9: output.formats[1]: unknown format \"webp\""}},
		{"override values", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"units/**\"\n    render:\n      ssaa: 99\n    views: [top]\n",
			[]string{"c.yaml:6: overrides[0].render.ssaa: want 1 to 8", "c.yaml:7: overrides[0].views[0]: no view named \"top\""}},
		{"view names", "inputs:\n  files: [a.mdx]\nviews:\n  Front:\n    yaw: 10\n",
			[]string{"c.yaml:4: views.Front: name \"Front\" must be lower-case"}},
		{"template", "inputs:\n  files: [a.mdx]\noutput:\n  name: \"{model}-{view}\"\n",
			[]string{"c.yaml:4: output.name: unknown placeholder"}},
		{"duplicate key", "inputs:\n  files: [a.mdx]\njobs: 2\njobs: 3\n",
			[]string{"c.yaml:4: jobs: key given twice"}},
		{"no inputs", "jobs: 2\n", []string{"inputs: no models"}},
		{"json", "{\n  \"inputs\": {\"files\": [\"a.mdx\"]},\n  \"render\": {\"size\": \"x\"}\n}\n",
			[]string{"c.json:3: render.size: want N or WxH"}},
		{"shard", "inputs:\n  files: [a.mdx]\nshard: 4/4\n", []string{"c.yaml:3: shard: want i/n with 0 <= i < n"}},
		{"still time", "inputs:\n  files: [a.mdx]\nrender:\n  time: soon\n",
			[]string{"c.yaml:4: render.time: want ms after the sequence start"}},
		{"override still time", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"*\"\n    render:\n      time: 150%\n",
			[]string{"c.yaml:6: overrides[0].render.time: want a share of the sequence from 0% to 100%"}},
		{"override seed", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"*\"\n    render:\n      seed: -3\n",
			[]string{"c.yaml:6: overrides[0].render.seed: want 0 to"}},
		{"override step", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"*\"\n    render:\n      step_ms: 0\n",
			[]string{"c.yaml:6: overrides[0].render.step_ms: want a step"}},
		{"override preroll", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"*\"\n    render:\n      preroll_ms: 1e9\n",
			[]string{"c.yaml:6: overrides[0].render.preroll_ms: want at most"}},
		{"override particles", "inputs:\n  files: [a.mdx]\noverrides:\n  - match: \"*\"\n    render:\n      particles: maybe\n",
			[]string{"c.yaml:6: overrides[0].render.particles: want true or false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "c.yaml"
			if strings.HasPrefix(tc.content, "{") {
				name = "c.json"
			}
			got := loadErr(t, name, tc.content)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("error does not contain %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestConfigEnvErrors(t *testing.T) {
	t.Setenv("MDXR_RENDER_SIZE", "huge")
	t.Setenv("MDXR_CHECK_MAX_MISMATCH", "2")
	got := loadErr(t, "c.yaml", "inputs:\n  files: [a.mdx]\n")
	if !strings.Contains(got, "env MDXR_RENDER_SIZE: render.size: want N or WxH in whole pixels, got \"huge\"") {
		t.Errorf("type error from env: %s", got)
	}
	t.Setenv("MDXR_RENDER_SIZE", "64")
	got = loadErr(t, "c.yaml", "inputs:\n  files: [a.mdx]\n")
	if !strings.Contains(got, "env MDXR_CHECK_MAX_MISMATCH: check.max_mismatch: want a share from 0 to 1") {
		t.Errorf("range error from env: %s", got)
	}
}

func TestConfigTOML(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.toml")
	os.WriteFile(p, []byte("[inputs]\nfiles = [\"a.mdx\"]\n[render]\nsize = 128\n"), 0o644)
	c, err := loadConfig(configLayers{File: p})
	if err != nil {
		t.Fatal(err)
	}
	if c.Render.Size != batch.Square(128) {
		t.Errorf("size %d, want 128", c.Render.Size)
	}
	os.WriteFile(p, []byte("[inputs]\nfiles = [\"a.mdx\"]\n[render]\nsise = 128\n"), 0o644)
	if _, err := loadConfig(configLayers{File: p}); err == nil || !strings.Contains(err.Error(), "render.sise: unknown key") {
		t.Errorf("TOML unknown key: %v", err)
	}
}

// The documented examples in configs/ must load and validate.
func TestExampleConfigs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "configs", "*.yaml"))
	if len(files) < 3 {
		t.Fatalf("want at least 3 example configs, found %v", files)
	}
	for _, f := range files {
		if _, err := loadConfig(configLayers{File: f}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Model arguments are relative to the working directory even when the
// config file lives elsewhere, and a folder argument is searched for
// models like inputs.dirs.
func TestArgsRelativeToWorkingDir(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "conf/batch.yaml", "work/a.mdx", "work/more/b.mdx", "work/more/sub/c.mdl", "work/more/notes.txt")
	if err := os.WriteFile(filepath.Join(dir, "conf", "batch.yaml"), []byte("render:\n  size: 16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "work"))
	c, err := loadConfig(configLayers{File: filepath.Join(dir, "conf", "batch.yaml"), Args: []string{"a.mdx", "more"}})
	if err != nil {
		t.Fatal(err)
	}
	in, err := c.ExpandInputs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range in {
		got = append(got, i.Rel)
	}
	sort.Strings(got)
	if want := []string{"a.mdx", "b.mdx", "sub/c.mdl"}; !reflect.DeepEqual(got, want) {
		t.Errorf("inputs %v, want %v", got, want)
	}
}

// A key set by a variable or a changed flag is pinned: the file's
// per-model overrides no longer change it, while their other keys still
// apply.
func TestEnvAndFlagsBeatOverrides(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "m/units/a.mdx", "m/fx/b.mdx")
	p := filepath.Join(dir, "batch.yaml")
	const y = `inputs:
  dirs: [m]
overrides:
  - match: "units/**"
    render: {size: 128, ssaa: 2}
  - match: "fx/**"
    render: {preroll_ms: 2000, seed: 11, step_ms: 20}
`
	if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MDXR_RENDER_SIZE", "32")
	t.Setenv("MDXR_RENDER_PREROLL_MS", "0")
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Int("seed", 6, "")
	if err := fs.Parse([]string{"--seed", "3"}); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(configLayers{File: p, Flags: fs, FlagKeys: map[string]string{"seed": "render.seed"}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := c.Plan()
	if err != nil || len(jobs) != 2 {
		t.Fatalf("plan: %d jobs, %v", len(jobs), err)
	}
	fx, units := jobs[0].Render, jobs[1].Render
	if units.Size != batch.Square(32) || units.SSAA != 2 {
		t.Errorf("units: size %d ssaa %d, want 32 (env) 2 (override)", units.Size, units.SSAA)
	}
	if fx.PrerollMs != 0 || fx.Seed != 3 || fx.StepMs != 20 {
		t.Errorf("fx: preroll %g seed %d step %g, want 0 (env) 3 (flag) 20 (override)", fx.PrerollMs, fx.Seed, fx.StepMs)
	}
}

// --team beats the file's team_colors, as every flag beats the file.
func TestTeamFlagBeatsTeamColors(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "m/a.mdx")
	p := filepath.Join(dir, "batch.yaml")
	os.WriteFile(p, []byte("inputs: {dirs: [m]}\nteam_colors: [red, blue]\n"), 0o644)
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("team", "", "")
	load := func(args ...string) []batch.Job {
		t.Helper()
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(configLayers{File: p, Flags: fs, FlagKeys: map[string]string{"team": "render.team_color"}})
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := c.Plan()
		if err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	if j := load(); len(j[0].Teams) != 2 {
		t.Errorf("file: %d teams", len(j[0].Teams))
	}
	if j := load("--team", "3"); len(j[0].Teams) != 1 || j[0].Teams[0].Name != "3" {
		t.Errorf("flag: %+v", j[0].Teams)
	}
}
