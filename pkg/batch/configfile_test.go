package batch

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, name, text string) *ConfigFile {
	t.Helper()
	f, err := DecodeConfigFile(name, []byte(text))
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
	if !reflect.DeepEqual(f.Values, want) {
		t.Errorf("values %#v, want %#v", f.Values, want)
	}
	for k, w := range map[string]string{"render.size": "c.yaml:4", "inputs.files": "c.yaml:2", "overrides[0].render.seed": "c.yaml:7"} {
		if f.Origins[k] != w {
			t.Errorf("origin of %s: %q, want %q", k, f.Origins[k], w)
		}
	}
	j, err := DecodeConfigFile("c.json", []byte("{\"render\": {\n\"size\": 64}}"))
	if err != nil || !reflect.DeepEqual(j.Values["render"], want["render"]) || j.Origins["render.size"] != "c.json:2" {
		t.Errorf("JSON: %+v, %v", j, err)
	}
	for _, empty := range []string{"", "# nothing\n", "~\n"} {
		if f, err := DecodeConfigFile("e.yml", []byte(empty)); err != nil || f.Values != nil {
			t.Errorf("empty file %q: %+v, %v", empty, f, err)
		}
	}
}

// Every problem of a file comes back at once, each a *ConfigError naming
// file, line and key.
func TestDecodeConfigFileErrors(t *testing.T) {
	f, err := DecodeConfigFile("c.yaml", []byte("rendr: 1\nrender:\n  size: big\n  ssaa: 2.5\n  yaw: 10\njobs: [1]\nsheet: {frames: 4, fps: x}\n"))
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v is not a *ConfigError", err)
	}
	for _, w := range []string{"c.yaml:1: rendr: unknown key", "c.yaml:3: render.size: want N or WxH in whole pixels, got \"big\"",
		"c.yaml:4: render.ssaa: want an integer, got \"2.5\"", "c.yaml:6: jobs: want an integer, got a list", "c.yaml:7: sheet.fps: want a number"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	// The keys in error are left out; the others are kept for the range
	// checks of the same pass.
	if f == nil || f.Values["rendr"] != nil || f.Values["jobs"] != nil || fmt.Sprint(f.Values["render"]) != "map[yaw:10]" || fmt.Sprint(f.Values["sheet"]) != "map[frames:4]" {
		t.Errorf("values kept: %+v", f)
	}
	// A fraction where a whole number is wanted is an error, in TOML too.
	for name, data := range map[string]string{"s.yaml": "render: {size: 12.5}\n", "s.toml": "[render]\nsize = 12.5\n", "j.yaml": "jobs: 1.0\n"} {
		if _, err := DecodeConfigFile(name, []byte(data)); err == nil {
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
		f, err := DecodeConfigFile(name, []byte(data))
		var ce *ConfigError
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
	if !reflect.DeepEqual(f.Values, want) {
		t.Errorf("values %#v\nwant %#v", f.Values, want)
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
	_, err := DecodeConfigFile("c.toml", []byte(bad))
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
	if _, err := DecodeConfigFile("c.yaml", []byte(b.String())); err == nil || strings.Contains(err.Error(), "keys and list elements") {
		t.Fatalf("got %v, want the check's errors", err)
	}
	if n := testing.AllocsPerRun(1, func() { DecodeConfigFile("c.yaml", []byte(b.String())) }); n > 100_000 {
		t.Errorf("%.0f allocations for 1,000 aliases of a 1,000-element anchor", n)
	}
}
