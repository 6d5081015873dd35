package batchconfig

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"
)

func mustDecode(t *testing.T, name, text string) *File {
	t.Helper()
	f, err := DecodeFile(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A YAML file gives its values as nested maps for the layered loader, and
// where each key stands; a JSON file is read the same way.
func TestDecodeConfigFileValuesAndOrigins(t *testing.T) {
	const y = "inputs:\n  files: [a.mdx]\nrender:\n  size: 64\noverrides:\n  - match: \"fx/**\"\n    render: {seed: 3}\n"
	f := mustDecode(t, "c.yaml", y)
	want := map[string]any{
		"inputs":    map[string]any{"files": []any{"a.mdx"}},
		"render":    map[string]any{"size": 64},
		"overrides": []any{map[string]any{"match": "fx/**", "render": map[string]any{"seed": 3}}},
	}
	if !reflect.DeepEqual(values(f), want) {
		t.Errorf("values %#v, want %#v", values(f), want)
	}
	for k, w := range map[string]string{"render.size": "c.yaml:4", "inputs.files": "c.yaml:2", "overrides[0].render.seed": "c.yaml:7"} {
		if f.Origins[k] != w {
			t.Errorf("origin of %s: %q, want %q", k, f.Origins[k], w)
		}
	}
	j, err := DecodeFile("c.json", []byte("{\"render\": {\n\"size\": 64}}"))
	if err != nil || !reflect.DeepEqual(values(j)["render"], want["render"]) || j.Origins["render.size"] != "c.json:2" {
		t.Errorf("JSON: %+v, %v", j, err)
	}
	for _, empty := range []string{"", "# nothing\n", "~\n"} {
		if f, err := DecodeFile("e.yml", []byte(empty)); err != nil || values(f) != nil {
			t.Errorf("empty file %q: %+v, %v", empty, f, err)
		}
	}
}

// Every problem of a file comes back at once, each a *Error naming
// file, line and key.
func TestDecodeConfigFileErrors(t *testing.T) {
	f, err := DecodeFile("c.yaml", []byte("rendr: 1\nrender:\n  size: big\n  ssaa: 2.5\n  yaw: 10\njobs: [1]\nsheet: {frames: 4, fps: x}\n"))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err %v is not a *Error", err)
	}
	for _, w := range []string{"c.yaml:1: rendr: unknown key", "c.yaml:3: render.size: want N or WxH in whole pixels, got \"big\"",
		"c.yaml:4: render.ssaa: want an integer, got \"2.5\"", "c.yaml:6: jobs: want an integer, got a list", "c.yaml:7: sheet.fps: want a number"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	// The keys in error are left out; the others are kept for the range
	// checks of the same pass.
	if f == nil || values(f)["rendr"] != nil || values(f)["jobs"] != nil || fmt.Sprint(values(f)["render"]) != "map[yaw:10]" || fmt.Sprint(values(f)["sheet"]) != "map[frames:4]" {
		t.Errorf("values kept: %+v", f)
	}
	// A fraction where a whole number is wanted is an error, in TOML too.
	for name, data := range map[string]string{"s.yaml": "render: {size: 12.5}\n", "s.toml": "[render]\nsize = 12.5\n", "j.yaml": "jobs: 1.0\n"} {
		if _, err := DecodeFile(name, []byte(data)); err == nil {
			t.Errorf("%s: %q accepted", name, data)
		}
	}
	// A file that does not parse is one error, naming its line.
	for name, want := range map[string]string{
		"c.yaml": "c.yaml:2: not valid YAML: did not find expected node content",
		"c.json": "c.json:3: not valid JSON: did not find expected ',' or '}'",
		"d.yaml": "d.yaml:4: not valid YAML: did not find expected key",
		"e.yaml": "e.yaml:3: not valid YAML: unknown anchor 'nope' referenced",
		"c.toml": "c.toml:2: not valid TOML: expected character ]",
		"d.toml": "d.toml:4: not valid TOML: key jobs is already defined",
		"e.toml": "e.toml:3: not valid TOML: key render should be a table, not a value",
		"f.toml": "f.toml:3: not valid TOML: table render already exists",
		"c.ini":  `c.ini: unknown extension "ini" (want .yaml, .yml, .toml or .json)`,
	} {
		data := map[string]string{"c.yaml": "jobs: 1\na: [", "c.json": "{\"jobs\": 1,\n\"a\": 2\n\"b\": 3}",
			"d.yaml": "jobs: 1\nforce: true\nprune: true\n- a\n", "e.yaml": "jobs: 1\nforce: true\nprune: *nope\n", "c.toml": "jobs = 1\n[inputs\n",
			"d.toml": "jobs = 1\n\nJobs = 2\njobs = 3\n", "e.toml": "render = 1\n\n[render]\n",
			"f.toml": "[render]\n[sheet]\n[render]\n", "c.ini": "a=1"}[name]
		f, err := DecodeFile(name, []byte(data))
		var ce *Error
		if f != nil || !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%s: %v, %v; want %s", name, f, err, want)
		}
	}
}

// TOML keys, view names included, are case-blind and may be dotted, as they
// were when TOML went through viper; an empty table sets nothing. Keys and
// errors have their lines, as in YAML.
func TestDecodeConfigFileTOML(t *testing.T) {
	const y = "jobs = 2\n\"render.ssaa\" = 2\n[Inputs]\nFiles = [\"a.mdx\"]\n[render]\nSize = 128\n[[overrides]]\nMatch = \"x/*\"\n[views.Front]\nyaw = 1.5\n[sheet]\n"
	f := mustDecode(t, "c.toml", y)
	want := map[string]any{
		"jobs":      2,
		"inputs":    map[string]any{"files": []any{"a.mdx"}},
		"render":    map[string]any{"size": 128, "ssaa": 2},
		"overrides": []any{map[string]any{"match": "x/*"}},
		"views":     map[string]any{"front": map[string]any{"yaw": 1.5}},
	}
	if !reflect.DeepEqual(values(f), want) {
		t.Errorf("values %#v\nwant %#v", values(f), want)
	}
	// A key's line is where it is first written: "render" first
	// appears in the dotted key of line 2.
	for k, w := range map[string]string{"jobs": "c.toml:1", "render": "c.toml:2", "render.ssaa": "c.toml:2", "render.size": "c.toml:6",
		"inputs.files": "c.toml:4", "overrides[0]": "c.toml:7", "overrides[0].match": "c.toml:8", "views.front.yaw": "c.toml:10"} {
		if f.Origins[k] != w {
			t.Errorf("origin of %s: %q, want %q", k, f.Origins[k], w)
		}
	}
	const bad = "[render]\nsise = 1\n[[overrides]]\nmatch = \"a\"\n[[overrides]]\nskip = 2\nrender = {ssaa = 2.5, Seed = \"x\"}\nteam_colors = [\n  \"red\",\n  [1]]\n"
	_, err := DecodeFile("c.toml", []byte(bad))
	for _, w := range []string{"c.toml:2: render.sise: unknown key", "c.toml:6: overrides[1].skip: want true or false, got \"2\"",
		"c.toml:7: overrides[1].render.ssaa: want an integer, got \"2.5\"", "c.toml:7: overrides[1].render.seed: want an integer, got \"x\"",
		"c.toml:10: overrides[1].team_colors[1]: want a string, got a list"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

// Many aliases of a large anchor are checked once, not once per alias:
// counted in allocations, checking 1,000 aliases of a 1,000-element
// anchor once makes about 14,000, once per alias about 6 million. (The
// file stays under the scan's 10,000 keys and list elements, which would
// refuse it before the check.)
func TestDecodeConfigFileAliasFanOut(t *testing.T) {
	var b strings.Builder
	b.WriteString("x: &m {match: a, team_colors: [")
	for i := 0; i < 1000; i++ {
		b.WriteString("0,")
	}
	b.WriteString("0]}\noverrides: [")
	for i := 0; i < 1000; i++ {
		b.WriteString("*m,")
	}
	b.WriteString("*m]\n")
	if _, err := DecodeFile("c.yaml", []byte(b.String())); err == nil || strings.Contains(err.Error(), "keys and list elements") {
		t.Fatalf("got %v, want the check's errors", err)
	}
	if n := testing.AllocsPerRun(1, func() { DecodeFile("c.yaml", []byte(b.String())) }); n > 100_000 {
		t.Errorf("%.0f allocations for 1,000 aliases of a 1,000-element anchor", n)
	}
}

// values is what f sets, as nested map[string]any, lists and scalars;
// nil for an empty file.
func values(f *File) map[string]any {
	if f.root == nil {
		return nil
	}
	var m map[string]any
	if err := f.root.Decode(&m); err != nil {
		panic(err)
	}
	return m
}

// TOML is read as the earlier loader read it through viper's parser
// (keys folded to lower case, dotted keys split into tables, empty tables
// dropped), so that files written for it still mean the same: the same
// values, the same schema errors, the same parse errors, each now with its
// line. Each document's reference is what viper 1.21 read it as, written
// out as YAML (whose lines are those of that YAML), or viper's error.
func TestTOMLReadAsViperDid(t *testing.T) {
	lines := regexp.MustCompile(`c\.(yaml|toml):\d+`)
	for _, c := range tomlAsViperRead {
		got, err := DecodeFile("c.toml", []byte(c.toml))
		if c.err != "" {
			if err == nil || !lines.MatchString(err.Error()) || !strings.HasSuffix(err.Error(), ": not valid TOML: "+c.err) {
				t.Errorf("%q: error %v, viper's %s", c.toml, err, c.err)
			}
			continue
		}
		want, werr := DecodeFile("c.yaml", []byte(c.yaml))
		switch {
		case werr != nil:
			if err == nil || lines.ReplaceAllString(err.Error(), "c") != lines.ReplaceAllString(werr.Error(), "c") {
				t.Errorf("%q: error\n%v\nwant\n%v", c.toml, err, werr)
			}
		case err != nil:
			t.Errorf("%q: %v", c.toml, err)
		case !reflect.DeepEqual(values(got), values(want)):
			t.Errorf("%q:\n got %#v\nwant %#v", c.toml, values(got), values(want))
		}
	}
}

// tomlAsViperRead are TOML documents and what viper 1.21 read each as,
// written out as YAML, or the end of viper's error.
var tomlAsViperRead = []struct{ toml, yaml, err string }{
	{"[inputs]\nfiles = [\"a.mdx\"]\n[render]\nsize = 128\n",
		"inputs:\n    files:\n        - a.mdx\nrender:\n    size: 128\n", ""},
	{"Jobs = 2\n\"render.SSAA\" = 2\nrender.size = 64\n[Inputs]\nFiles = [\"a.mdx\"]\n[views.Front]\nYaw = 1.5\n[sheet]\n",
		"inputs:\n    files:\n        - a.mdx\njobs: 2\nrender:\n    size: 64\n    ssaa: 2\nviews:\n    front:\n        yaw: 1.5\n", ""},
	{"[[overrides]]\nMatch = \"fx/*\"\nRender = {Seed = 3, step_ms = 20.5}\n[[overrides]]\nmatch = \"*\"\nskip = true\nteam_colors = [\"red\", 3]\n",
		"overrides:\n    - match: fx/*\n      render:\n        seed: 3\n        step_ms: 20.5\n    - match: '*'\n      skip: true\n      team_colors:\n        - red\n        - 3\n", ""},
	{"shard = 1979-05-27\nforce = 1979-05-27T07:32:00Z\n[output]\nformats = [[\"png\"], {A = 1}]\n",
		"force: 1979-05-27T07:32:00Z\noutput:\n    formats:\n        - - png\n        - a: 1\nshard: \"1979-05-27\"\n", ""},
	{"[render.x.Y]\nz = 1\n[Sequences]\nselect = 3\n",
		"render:\n    x:\n        \"y\":\n            z: 1\nsequences:\n    select: 3\n", ""},
	{"[check]\ngolden = \"\"\"\nx\"\"\"\ntolerance = 0x1f\nmax_mismatch = inf\n[sheet]\nfps = 1e3\nyaws = [1, 2.5]\n",
		"check:\n    golden: x\n    max_mismatch: .inf\n    tolerance: 31\nsheet:\n    fps: 1000\n    yaws:\n        - 1\n        - 2.5\n", ""},
	{"[inputs\nfiles = 1\n", "", "expected character ]"},
	{"a = 1\na = 2\n", "", "key a is already defined"},
}

// The references of TestTOMLReadAsViperDid are what the viper this
// module requires reads.
func TestTOMLReferencesAreViper(t *testing.T) {
	for _, c := range tomlAsViperRead {
		v := viper.New()
		v.SetConfigType("toml")
		if err := v.ReadConfig(strings.NewReader(c.toml)); err != nil {
			if c.err == "" || !strings.HasSuffix(err.Error(), c.err) {
				t.Errorf("%q: viper: %v; want %s", c.toml, err, c.err)
			}
			continue
		}
		b, err := yaml.Marshal(v.AllSettings())
		if err != nil {
			t.Fatal(err)
		}
		if c.err != "" || string(b) != c.yaml {
			t.Errorf("%q: viper reads\n%s\nwant\n%s%s", c.toml, b, c.yaml, c.err)
		}
	}
}
