package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

// standSecond writes the hermite fixture with its sequences renamed so
// that the first is "Attack" (model time 0-1000) and the second "Stand"
// (2000-3000): the default must pick Stand, not the first.
func standSecond(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, "hermite_bezier.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(`Anim "Stand"`, `Anim "Attack"`, `Anim "Attack"`, `Anim "Stand"`).Replace(string(b))
	p := filepath.Join(dir, "unit.mdl")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// flagCommand builds the arguments of one command run with extra flags;
// it returns the PNG whose size and corner tell what the flags did.
type flagCommand struct {
	name string
	args func(dir, model string) []string
	png  func(dir string) string
}

func vocabularyCommands(t *testing.T) []flagCommand {
	return []flagCommand{
		{"render", func(dir, m string) []string { return []string{"render", m, "--output", filepath.Join(dir, "r.png")} },
			func(dir string) string { return filepath.Join(dir, "r.png") }},
		{"sheet", func(dir, m string) []string {
			return []string{"sheet", m, "--output", filepath.Join(dir, "s"), "--format", "png"}
		}, func(dir string) string { return filepath.Join(dir, "s", "unit.png") }},
		{"batch", func(dir, m string) []string { return []string{"batch", m, "--output", filepath.Join(dir, "b")} },
			func(dir string) string { return filepath.Join(dir, "b", "unit-default.png") }},
		{"check", func(dir, m string) []string {
			return []string{"check", m, "--output", filepath.Join(dir, "c"), "--golden", filepath.Join(dir, "g"), "--update"}
		}, func(dir string) string { return filepath.Join(dir, "c", "unit-default.png") }},
	}
}

// Every shared flag takes the same value forms on render, sheet, batch
// and check, and refuses the same bad values with exit status 2.
func TestFlagFormsAcrossCommands(t *testing.T) {
	for _, c := range vocabularyCommands(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := standSecond(t, dir)
			for _, tc := range []struct {
				flags  []string
				w, h   int
				corner [4]uint8 // straight RGBA of pixel (0,0); alpha 0 for transparent
			}{
				{[]string{"--size", "40x24", "--bg", "#102030"}, 40, 24, [4]uint8{0x10, 0x20, 0x30, 255}},
				{[]string{"--size", "32", "--team", "red", "--bg", "transparent"}, 32, 32, [4]uint8{}},
				{[]string{"--size", "24X16", "--team", "27", "--bg", "#10203080"}, 24, 16, [4]uint8{0x10, 0x20, 0x30, 255}}, // a background makes the picture opaque
				{[]string{"--size", "16", "--team", "#ff8800", "--ssaa", "2", "--time", "50%", "--yaw", "30", "--pitch", "10",
					"--particles=false", "--seed", "3", "--step-ms", "1000/30", "--preroll-ms", "auto", "--textures", dir}, 16, 16, [4]uint8{}},
			} {
				args := append(c.args(dir, m), tc.flags...)
				if so, se, code := run(t, args...); code != 0 {
					t.Fatalf("%v: exit %d\n%s%s", tc.flags, code, so, se)
				}
				img := decodePNG(t, c.png(dir))
				px := img.NRGBAAt(0, 0)
				corner := [4]uint8{}
				if px.A != 0 {
					corner = [4]uint8{px.R, px.G, px.B, px.A}
				}
				if img.Bounds().Dx() != tc.w || img.Bounds().Dy() != tc.h || corner != tc.corner {
					t.Errorf("%v: %v, corner %v; want %dx%d, corner %v", tc.flags, img.Bounds().Size(), corner, tc.w, tc.h, tc.corner)
				}
			}
			for _, bad := range []struct{ flag, value, says string }{
				{"--size", "12.5", "want N or WxH"},
				{"--size", "4", "want 8 to 8192"},
				{"--team", "28", "0-27"},
				{"--team", "mauve", "0-27"},
				{"--bg", "red", "#rrggbb"},
				{"--time", "soon", "share like"},
				{"--ssaa", "9", "want 1 to 8"},
				{"--pitch", "100", "-90 to 90"},
				{"--step-ms", "0", "positive number of ms"},
			} {
				_, se, code := run(t, append(c.args(dir, m), bad.flag, bad.value)...)
				if code != exitUsage || !strings.Contains(se, bad.says) || !strings.Contains(se, bad.flag) {
					t.Errorf("%s %s: exit %d, want 2 and a message naming the flag and %q:\n%s", bad.flag, bad.value, code, bad.says, se)
				}
			}
		})
	}
}

// Without --sequence, render and batch show Stand, wherever it is in the
// model (here second); render's picture is that of --sequence Stand.
func TestDefaultSequenceIsStandEverywhere(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	render := func(extra ...string) []byte {
		out := filepath.Join(dir, fmt.Sprintf("r%d.png", len(extra)))
		args := append([]string{"render", m, "-o", out, "--size", "48", "--time", "300"}, extra...)
		if so, se, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", extra, code, so, se)
		}
		b, _ := os.ReadFile(out)
		return b
	}
	def, stand, first := render(), render("--sequence", "Stand"), render("--sequence", "0", "--yaw", "0")
	if !bytes.Equal(def, stand) {
		t.Error("render's default is not Stand")
	}
	if bytes.Equal(def, first) {
		t.Error("Stand and the first sequence draw the same picture: the test shows nothing")
	}
	out := filepath.Join(dir, "b")
	if so, se, code := run(t, "batch", m, "-o", out, "--size", "48", "--format", "png"); code != 0 {
		t.Fatalf("batch: exit %d\n%s%s", code, so, se)
	}
	if r := readManifest(t, filepath.Join(out, "manifest.json")).Models[0]; r.Outputs[0].Sequence != "Stand" {
		t.Errorf("batch still shows %q", r.Outputs[0].Sequence)
	}
	_, se, code := run(t, "render", m, "-o", filepath.Join(dir, "x.png"), "--sequence", "Walk")
	if code != exitFailed || !strings.Contains(se, `0 "Attack", 1 "Stand"`) {
		t.Errorf("unknown sequence: exit %d, %s", code, se)
	}
}

// A texture in a --textures folder replaces the one beside the model, so
// a reskin previews; the same folder order holds for batch.
func TestTexturesFolderWinsOverModelFolder(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "model")
	os.MkdirAll(models, 0o755)
	src, err := os.ReadFile(filepath.Join(fixtureDir, "team_color.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(models, "unit.mdl")
	os.WriteFile(m, src, 0o644)
	// team_color.mdl draws a texture named in the fixture's Textures folder;
	// copy that folder beside the model, and a recoloured copy as the skin.
	texDir := filepath.Join(fixtureDir, "Textures")
	ents, _ := os.ReadDir(texDir)
	skin := filepath.Join(dir, "skin")
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(texDir, e.Name()))
		os.MkdirAll(filepath.Join(models, "Textures"), 0o755)
		os.WriteFile(filepath.Join(models, "Textures", e.Name()), b, 0o644)
	}
	plain := filepath.Join(dir, "plain.png")
	if _, se, code := run(t, "render", m, "-o", plain, "--size", "32"); code != 0 {
		t.Fatal(se)
	}
	// The skin folder holds every texture as a solid colour.
	for _, e := range ents {
		writeSolidTGA(t, filepath.Join(skin, "Textures", strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))+filepath.Ext(e.Name())))
	}
	skinned := filepath.Join(dir, "skinned.png")
	if _, se, code := run(t, "render", m, "-o", skinned, "--size", "32", "--textures", skin); code != 0 {
		t.Fatal(se)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(skinned)
	if bytes.Equal(a, b) {
		t.Error("the --textures folder did not replace the textures beside the model")
	}
}

// writeSolidTGA writes a 4×4 magenta TGA (what any name the resolver
// tries is sniffed as) at p.
func writeSolidTGA(t *testing.T, p string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	h := []byte{0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4, 0, 32, 8}
	for i := 0; i < 16; i++ {
		h = append(h, 255, 0, 255, 255) // BGRA
	}
	if err := os.WriteFile(p, h, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Exit statuses: 0 good, 1 a model failed, 2 usage or configuration, 130
// interrupted (TestBatchCommandInterrupted).
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	good := fixtureModel(t, dir, "hermite_bezier.mdl", "good.mdl")
	bad := filepath.Join(dir, "bad.mdx")
	os.WriteFile(bad, []byte("MDLXVERS\x04\x00\x00\x00"), 0o644)
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("inputs: {files: [good.mdl]}\nrender: {size: 12.5}\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"render", good, "-o", filepath.Join(dir, "a.png"), "--size", "16"}, 0},
		{[]string{"batch", good, "-o", filepath.Join(dir, "b1"), "--size", "16"}, 0},
		{[]string{"render", bad, "-o", filepath.Join(dir, "b.png")}, 1},
		{[]string{"batch", good, bad, "-o", filepath.Join(dir, "b2"), "--size", "16"}, 1},
		{[]string{"render", good}, 2},
		{[]string{"render", good, "-o", "x.png", "--nope"}, 2},
		{[]string{"render"}, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"batch", "-c", cfg}, 2},
		{[]string{"batch", "-c", filepath.Join(dir, "missing.yaml")}, 2},
		{[]string{"check", good, "-o", filepath.Join(dir, "b3")}, 2},
		{[]string{"merge", "-o", filepath.Join(dir, "m.json"), filepath.Join(dir, "none-*.json")}, 2},
	} {
		if so, se, code := run(t, c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, so, se)
		}
	}
}

// A path on the command line is relative to the working directory, a path
// in the config file to the file's folder.
func TestCommandLinePathsFromWorkingDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "configs", "models"), 0o755)
	fixtureModel(t, filepath.Join(dir, "configs", "models"), "hermite_bezier.mdl", "u.mdl")
	os.WriteFile(filepath.Join(dir, "configs", "x.yaml"), []byte("inputs: {dirs: [models]}\nrender: {size: 16}\n"), 0o644)
	t.Chdir(dir)
	if so, se, code := run(t, "batch", "-c", "configs/x.yaml", "-o", "out/tty"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "tty", "u-default.png")); err != nil {
		t.Errorf("-o out/tty is not relative to the working directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "configs", "out")); err == nil {
		t.Error("wrote below the config's folder")
	}
	// The same through the environment.
	t.Setenv("MDXR_OUTPUT_DIR", "out/env")
	if so, se, code := run(t, "batch", "-c", "configs/x.yaml"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "env", "u-default.png")); err != nil {
		t.Errorf("MDXR_OUTPUT_DIR is not relative to the working directory: %v", err)
	}
}

// Every problem of a configuration, from the file, variables and flags,
// key and type errors and values alike, comes in one pass; a huge value
// is not echoed whole.
func TestConfigProblemsInOnePass(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	huge := strings.Repeat("#", 512<<10) // the 50 MB of the report, scaled down to fit a file
	os.WriteFile(cfg, []byte("inputs: {files: [a.mdx]}\nrendr: 1\nrender:\n  size: 12.5\n  pitch: 120\n  background: \""+huge+"\"\njobs: [1]\nsheet: {frames: 0}\n"+strings.Repeat("k", 1000)+": 1\n"), 0o644)
	t.Setenv("MDXR_RENDER_SSAA", "lots")
	t.Setenv("MDXR_CHECK_TOLERANCE", "300")
	_, se, code := run(t, "batch", "-c", cfg, "--team", "99")
	if code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"c.yaml:2: rendr: unknown key", "c.yaml:4: render.size: want N or WxH in whole pixels, got \"12.5\"",
		"c.yaml:7: jobs: want an integer", "c.yaml:5: render.pitch: want -90 to 90", "c.yaml:8: sheet.frames: want 1 to 1024",
		"env MDXR_RENDER_SSAA: render.ssaa: want an integer", "env MDXR_CHECK_TOLERANCE: check.tolerance: want 0 to 255",
		"--team: team 99", "c.yaml:6: render.background:", "(524288 bytes)"} {
		if !strings.Contains(se, want) {
			t.Errorf("missing %q", want)
		}
	}
	if len(se) > 10000 {
		t.Errorf("%d bytes of errors", len(se))
	}
}

// Merge through the command: a missing shard fails (exit 2) unless
// --partial; the merged check reports are rebuilt beside the manifest.
func TestMergeCommandChecksShardsAndRebuildsReports(t *testing.T) {
	dir := t.TempDir()
	checkModels(t, dir)
	cfg := filepath.Join(dir, "check.yaml")
	os.WriteFile(cfg, []byte("inputs: {dirs: [models]}\noutput: {dir: out}\nrender: {size: 24}\ncheck: {golden: golden}\n"), 0o644)
	if _, se, code := run(t, "check", "-c", cfg, "--update"); code != 0 {
		t.Fatal(se)
	}
	for i := 0; i < 2; i++ {
		if so, se, code := run(t, "check", "-c", cfg, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d: %d\n%s%s", i, code, so, se)
		}
	}
	out := filepath.Join(dir, "out")
	for _, f := range []string{"junit-0-of-2.xml", "junit-1-of-2.xml", "summary-0-of-2.md", "index-1-of-2.html", "manifest-0-of-2.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("shard report: %v", err)
		}
	}
	os.Remove(filepath.Join(out, "junit.xml"))
	merged := filepath.Join(out, "manifest.json")
	if _, se, code := run(t, "merge", "-o", merged, filepath.Join(out, "manifest-0-of-2.json")); code != exitUsage || !strings.Contains(se, "shards 1/2 of 2 are missing") || !strings.Contains(se, "--partial") {
		t.Errorf("missing shard: exit %d\n%s", code, se)
	}
	if _, se, code := run(t, "merge", "--partial", "-o", merged, filepath.Join(out, "manifest-0-of-2.json")); code != 0 || !strings.Contains(se, "1/2 missing") {
		t.Errorf("--partial: exit %d\n%s", code, se)
	}
	so, se, code := run(t, "merge", "-o", merged, out) // a folder: its shard manifests, no shell glob needed
	if code != 0 || !strings.Contains(so, "2 manifests, 4 models") {
		t.Fatalf("merge: exit %d\n%s%s", code, so, se)
	}
	j, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil || !bytes.Contains(j, []byte(`tests="4"`)) {
		t.Errorf("merged junit.xml: %v\n%s", err, j)
	}
	for _, f := range []string{"summary.md", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// Shards run with other options do not merge.
	os.WriteFile(cfg, []byte("inputs: {dirs: [models]}\noutput: {dir: out}\nrender: {size: 32}\ncheck: {golden: golden}\n"), 0o644)
	run(t, "check", "-c", cfg, "--shard", "1/2")
	if _, se, code := run(t, "merge", "-o", merged, out); code != exitUsage || !strings.Contains(se, "other options") {
		t.Errorf("mismatched options: exit %d\n%s", code, se)
	}
}

// The version comes from the build: a link-time value, the module
// version Go stamps, or the commit.
func TestVersionFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		override string
		bi       *debug.BuildInfo
		want     string
	}{
		{"v9", bi, "v9"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"", bi, "devel-0123456789ab+dirty"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"", nil, "dev"},
	} {
		if got := versionFrom(c.override, c.bi); got != c.want {
			t.Errorf("%q %+v: %s, want %s", c.override, c.bi, got, c.want)
		}
	}
	so, _, code := run(t, "--version")
	if code != 0 || !strings.Contains(so, version) {
		t.Errorf("--version: %s", so)
	}
	// The manifest carries it.
	dir := t.TempDir()
	m := fixtureModel(t, dir, "hermite_bezier.mdl", "u.mdl")
	run(t, "batch", m, "-o", filepath.Join(dir, "o"), "--size", "16")
	if v := readManifest(t, filepath.Join(dir, "o", "manifest.json")).Version; v != version {
		t.Errorf("manifest version %q", v)
	}
	var _ = batch.Manifest{}
}

// batch --prune removes the outputs of a model taken out of the inputs,
// and a linked input folder given as an argument is followed.
func TestBatchPruneAndLinkedFolderArgument(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	os.MkdirAll(models, 0o755)
	fixtureModel(t, models, "hermite_bezier.mdl", "a.mdl")
	b := fixtureModel(t, models, "billboards.mdl", "b.mdl")
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(models, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	out := filepath.Join(dir, "out")
	if so, se, code := run(t, "batch", link, "-o", out, "--size", "16"); code != 0 || !strings.Contains(so, "2 models: 2 rendered") {
		t.Fatalf("linked folder: exit %d\n%s%s", code, so, se)
	}
	os.Remove(b)
	so, se, code := run(t, "batch", link, "-o", out, "--size", "16", "--prune")
	if code != 0 || !strings.Contains(so, "1 model: 0 rendered, 1 unchanged") || !strings.Contains(so, "1 file pruned") {
		t.Fatalf("prune: exit %d\n%s%s", code, so, se)
	}
	if _, err := os.Stat(filepath.Join(out, "b-default.png")); err == nil {
		t.Error("the removed model's still is still there")
	}
	if _, err := os.Stat(filepath.Join(out, "a-default.png")); err != nil {
		t.Error(err)
	}
}
