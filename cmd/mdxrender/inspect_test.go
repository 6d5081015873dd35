package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
)

func TestInspectText(t *testing.T) {
	dir := t.TempDir()
	p := writeModel(t, dir, "tester.mdx", testModel())
	out, stderr, code := run(t, "inspect", p)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// Column widths depend on the content; compare with runs of spaces
	// squashed.
	flat := squash(out)
	for _, want := range []string{
		"format MDX, version 800, ",
		"name Tester",
		"extent min (-1, -2, -3) max (1, 2, 3) radius 5",
		"0 Stand 0 1000 1000 loop",
		"1 Death 2000 2500 500 once",
		"0 1234 ms",
		`0 Textures\Tester.blp WrapWidth,WrapHeight`,
		"1 replaceable 1 (team colour)",
		"0 priority 2 ConstantColor",
		"layer 1 Blend texture 0 alpha 0.5 Unshaded,TwoSided animated: alpha",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The node tree: children under parents, the dangling parent and the
	// cycle shown as roots with a note, every node exactly once.
	tree := out[strings.Index(out, "\nNodes (6)"):]
	lines := regexp.MustCompile(`(?m)^  \S.*$|^  [├└│ ].*$`).FindAllString(tree, -1)
	wantOrder := []string{"  Root ", "  └─ Chest ", "     └─ Head Ref ", "  Lost ", "  CycleA ", "  └─ CycleB "}
	if len(lines) != len(wantOrder) {
		t.Fatalf("node tree has %d lines, want %d:\n%s", len(lines), len(wantOrder), tree)
	}
	for i, w := range wantOrder {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("tree line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[3], "(parent 42 not found)") {
		t.Errorf("dangling parent not noted: %q", lines[3])
	}
	if !strings.Contains(lines[4], "(parent cycle)") {
		t.Errorf("cycle not noted: %q", lines[4])
	}
	if !strings.Contains(lines[1], "Billboarded") || strings.Contains(lines[1], "Bone") {
		t.Errorf("Chest flags: %q (want Billboarded, the Bone type bit left out)", lines[1])
	}
	for i, l := range strings.Split(out, "\n") {
		if strings.TrimRight(l, " ") != l {
			t.Errorf("line %d has trailing spaces: %q", i, l)
		}
	}
}

func TestInspectJSON(t *testing.T) {
	dir := t.TempDir()
	m := testModel()
	p := writeModel(t, dir, "tester.mdx", m)
	out, stderr, code := run(t, "inspect", "--json", p)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var reports []struct {
		File     string         `json:"file"`
		Format   string         `json:"format"`
		Version  int            `json:"version"`
		Name     string         `json:"name"`
		Counts   map[string]int `json:"counts"`
		Extent   jsonExtentIn   `json:"extent"`
		Problem  *string        `json:"problem"`
		Textures []struct {
			ReplaceableID int    `json:"replaceable_id"`
			Replaceable   string `json:"replaceable"`
		} `json:"textures"`
		Sequences []struct {
			Interval [2]int `json:"interval"`
			Looping  bool   `json:"looping"`
		} `json:"sequences"`
		Materials []struct {
			Layers []struct {
				FilterMode string   `json:"filter_mode"`
				FlagNames  []string `json:"flag_names"`
				Animated   []string `json:"animated"`
			} `json:"layers"`
		} `json:"materials"`
		Nodes []struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			ParentID int    `json:"parent_id"`
			TreeNote string `json:"tree_note"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if len(reports) != 1 {
		t.Fatalf("%d reports, want 1", len(reports))
	}
	r := reports[0]
	if r.File != p || r.Format != "mdx" || r.Version != 800 || r.Name != "Tester" {
		t.Errorf("header: %+v", r)
	}
	want := map[string]int{
		"geosets": 1, "vertices": 4, "faces": 2, "face_indices": 6, "bones": 2, "helpers": 3,
		"attachments": 1, "sequences": 2, "global_sequences": 1, "materials": 1, "layers": 2,
		"textures": 2, "lights": 0, "particle_emitters2": 0, "pivot_points": 6, "nodes": 6,
	}
	for k, v := range want {
		got, ok := r.Counts[k]
		if !ok || got != v {
			t.Errorf("counts[%q] = %d (present %v), want %d", k, got, ok, v)
		}
	}
	if r.Extent.Max != [3]float64{1, 2, 3} || r.Extent.BoundsRadius != 5 {
		t.Errorf("extent %+v", r.Extent)
	}
	if r.Problem == nil || *r.Problem != "" {
		t.Errorf("problem = %v, want present and empty", r.Problem)
	}
	if len(r.Textures) != 2 || r.Textures[1].ReplaceableID != 1 || r.Textures[1].Replaceable != "team colour" {
		t.Errorf("textures %+v", r.Textures)
	}
	if len(r.Sequences) != 2 || !r.Sequences[0].Looping || r.Sequences[1].Looping || r.Sequences[1].Interval != [2]int{2000, 2500} {
		t.Errorf("sequences %+v", r.Sequences)
	}
	l := r.Materials[0].Layers[1]
	if l.FilterMode != "Blend" || strings.Join(l.FlagNames, ",") != "Unshaded,TwoSided" || strings.Join(l.Animated, ",") != "alpha" {
		t.Errorf("layer 1 %+v", l)
	}
	if len(r.Nodes) != 6 || r.Nodes[2].Name != "Lost" || r.Nodes[2].TreeNote != "parent 42 not found" || r.Nodes[5].Type != "attachment" {
		t.Errorf("nodes %+v", r.Nodes)
	}

	// Same input, same bytes.
	again, _, _ := run(t, "inspect", "--json", p)
	if again != out {
		t.Error("two runs gave different JSON")
	}
}

var spaces = regexp.MustCompile(` +`)

func squash(s string) string { return spaces.ReplaceAllString(s, " ") }

type jsonExtentIn struct {
	Min          [3]float64 `json:"min"`
	Max          [3]float64 `json:"max"`
	BoundsRadius float64    `json:"bounds_radius"`
}

func TestInspectMDL(t *testing.T) {
	dir := t.TempDir()
	b, err := testmodel.EncodeMDL(testModel())
	if err != nil {
		t.Fatal(err)
	}
	// Named .mdx on purpose: the format comes from the contents.
	p := filepath.Join(dir, "text.mdx")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, "inspect", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if flat := squash(out); !strings.Contains(flat, "format MDL, version 800") || !strings.Contains(flat, "name Tester") {
		t.Errorf("output:\n%s", out)
	}
}

func TestInspectBadFileContinues(t *testing.T) {
	dir := t.TempDir()
	good := writeModel(t, dir, "good.mdx", testModel())
	garbage := filepath.Join(dir, "garbage.mdx")
	if err := os.WriteFile(garbage, []byte("this is not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A truncated MDX: the decoder must report the chunk, not panic.
	b, _ := os.ReadFile(good)
	truncated := filepath.Join(dir, "truncated.mdx")
	if err := os.WriteFile(truncated, b[:len(b)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.mdx")

	out, stderr, code := run(t, "inspect", garbage, good, truncated, missing)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(squash(out), "name Tester") {
		t.Errorf("good file after a bad one was not inspected:\n%s", out)
	}
	errLines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(errLines) != 3 {
		t.Fatalf("stderr has %d lines, want 3:\n%s", len(errLines), stderr)
	}
	for i, f := range []string{garbage, truncated, missing} {
		if !strings.HasPrefix(errLines[i], "mdxrender: ") || !strings.Contains(errLines[i], f) {
			t.Errorf("stderr line %q does not name %s", errLines[i], f)
		}
	}
	if !strings.Contains(errLines[1], "offset") {
		t.Errorf("truncated MDX error has no offset: %q", errLines[1])
	}

	// --json keeps one entry per argument, in order, with the error.
	out, _, code = run(t, "inspect", "--json", garbage, good)
	var reports []map[string]any
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	if code != 1 || len(reports) != 2 || reports[0]["file"] != garbage || reports[0]["error"] == nil || reports[1]["name"] != "Tester" {
		t.Errorf("exit %d, reports %v", code, reports)
	}
}

// TestInspectCorpus runs inspect --json over a sample of corpus MDX files and
// compares the counts with the reference parser's (peer-parse.jsonl).
func TestInspectCorpus(t *testing.T) {
	shared := sharedDir(t)
	f, err := os.Open(filepath.Join(shared, "reference", "peer-parse.jsonl"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	type peer struct {
		File   string         `json:"file"`
		Format string         `json:"format"`
		Counts map[string]any `json:"counts"`
	}
	var sample []peer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	i := 0
	for sc.Scan() {
		var p peer
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if p.Format != "mdx" || p.Counts == nil {
			continue
		}
		if v, _ := p.Counts["version"].(float64); v < 800 || v > 1100 {
			continue
		}
		// Every 12th: a spread over the corpus's sources and versions.
		if i%12 == 0 {
			sample = append(sample, p)
		}
		i++
	}
	if len(sample) < 5 {
		t.Fatalf("only %d sample files", len(sample))
	}
	args := []string{"inspect", "--json"}
	for _, p := range sample {
		args = append(args, filepath.Join(shared, "corpus", strings.TrimPrefix(p.File, "../corpus/")))
	}
	out, stderr, code := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var reports []struct {
		File    string             `json:"file"`
		Version float64            `json:"version"`
		Counts  map[string]float64 `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatal(err)
	}
	if len(reports) != len(sample) {
		t.Fatalf("%d reports for %d files", len(reports), len(sample))
	}
	for k, p := range sample {
		r := reports[k]
		if r.Version != p.Counts["version"] {
			t.Errorf("%s: version %v, reference %v", p.File, r.Version, p.Counts["version"])
		}
		compared := 0
		for key, v := range p.Counts {
			want, isNum := v.(float64)
			got, ok := r.Counts[key]
			if !ok || !isNum || key == "version" {
				continue // version, name, extent: not in our counts
			}
			compared++
			if got != want {
				t.Errorf("%s: %s = %v, reference %v", p.File, key, got, want)
			}
		}
		if compared < 20 {
			t.Errorf("%s: only %d counts compared", p.File, compared)
		}
	}
	t.Logf("%d corpus files, counts equal the reference parser's", len(sample))
}
