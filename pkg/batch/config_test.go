package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

const precedenceYAML = `inputs:
  files: [a.mdx]
render:
  size: 512
  background: "#102030"
`

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"a.mdx": "seq Stand 0 1000"})
	p := filepath.Join(dir, "batch.yaml")
	if err := os.WriteFile(p, []byte(precedenceYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(args ...string) *Config {
		t.Helper()
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.Int("size", 256, "")
		fs.Int("ssaa", 1, "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		c, err := LoadConfig(LoadOptions{File: p, Flags: fs, FlagKeys: map[string]string{"size": "render.size", "ssaa": "render.ssaa"}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := load(); c.Render.Size != 512 || c.Render.SSAA != 1 || c.Render.Background != "#102030" {
		t.Errorf("file layer: size %d ssaa %d bg %q, want 512 1 #102030", c.Render.Size, c.Render.SSAA, c.Render.Background)
	}
	t.Setenv("MDXR_RENDER_SIZE", "128")
	t.Setenv("MDXR_RENDER_SSAA", "2")
	if c := load(); c.Render.Size != 128 || c.Render.SSAA != 2 {
		t.Errorf("env over file: size %d ssaa %d, want 128 2", c.Render.Size, c.Render.SSAA)
	}
	if c := load("--size", "64"); c.Render.Size != 64 || c.Render.SSAA != 2 {
		t.Errorf("flag over env: size %d ssaa %d, want 64 2", c.Render.Size, c.Render.SSAA)
	}
	// A flag left at its default must not hide the env or the file.
	if c := load("--ssaa", "1"); c.Render.Size != 128 || c.Render.SSAA != 1 {
		t.Errorf("explicit flag equal to its default: size %d ssaa %d, want 128 1", c.Render.Size, c.Render.SSAA)
	}
	// Built-in default for a key nobody set.
	if c := load(); c.Sheet.Frames != DefaultConfig().Sheet.Frames || c.Output.Name != "{path}-{view}" {
		t.Errorf("defaults: frames %d name %q", c.Sheet.Frames, c.Output.Name)
	}
	// List keys from env are comma-separated.
	t.Setenv("MDXR_OUTPUT_FORMATS", "png,gif")
	if c := load(); strings.Join(c.Output.Formats, "+") != "png+gif" {
		t.Errorf("env list: %q", c.Output.Formats)
	}
}

func loadErr(t *testing.T, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(LoadOptions{File: p})
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
			[]string{"c.yaml:4: render.size: want an integer, got \"big\""}},
		{"list wanted", "inputs:\n  files: a.mdx\n",
			[]string{"c.yaml:2: inputs.files: want a list"}},
		{"invalid values, all reported", "inputs:\n  files: [a.mdx]\nrender:\n  size: 4\n  pitch: 120\nsequences:\n  select: some\noutput:\n  formats: [png, webp]\n",
			[]string{"c.yaml:4: render.size: want 8 to 8192", "c.yaml:5: render.pitch: want -90 to 90",
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
			[]string{"c.json:3: render.size: want an integer"}},
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
	if !strings.Contains(got, "env MDXR_RENDER_SIZE: render.size: want an integer, got \"huge\"") {
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
	c, err := LoadConfig(LoadOptions{File: p})
	if err != nil {
		t.Fatal(err)
	}
	if c.Render.Size != 128 {
		t.Errorf("size %d, want 128", c.Render.Size)
	}
	os.WriteFile(p, []byte("[inputs]\nfiles = [\"a.mdx\"]\n[render]\nsise = 128\n"), 0o644)
	if _, err := LoadConfig(LoadOptions{File: p}); err == nil || !strings.Contains(err.Error(), "render.sise: unknown key") {
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
		if _, err := LoadConfig(LoadOptions{File: f}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

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
	// An env variable pins the key: the override no longer changes it.
	t.Setenv("MDXR_RENDER_SIZE", "32")
	c = loadYAML(t, dir, y)
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

// Model arguments are relative to the working directory even when the
// config file lives elsewhere, and a folder argument is searched for
// models like inputs.dirs.
func TestArgsRelativeToWorkingDir(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{
		"conf/batch.yaml":     "render:\n  size: 16\n",
		"work/a.mdx":          "x",
		"work/more/b.mdx":     "y",
		"work/more/sub/c.mdl": "z",
		"work/more/notes.txt": "not a model",
	})
	t.Chdir(filepath.Join(dir, "work"))
	c, err := LoadConfig(LoadOptions{File: filepath.Join(dir, "conf", "batch.yaml"), Args: []string{"a.mdx", "more"}})
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
