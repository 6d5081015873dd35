package main

import (
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyWoWFixtures copies the WoW fixture files and the textures they use
// into a fresh folder and returns it.
func copyWoWFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "Textures"), 0o755)
	for _, f := range []string{"m2_skinned.m2", "wow_v1500.mdx", "Textures/fixture_checker.tga", "Textures/fixture_stripes.tga"} {
		fixtureModel(t, dir, filepath.FromSlash(f), filepath.FromSlash(f))
	}
	return dir
}

func readPNGFile(t *testing.T, p string) image.Image {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// drawnFraction is the share of pixels with alpha > 0.
func drawnFraction(img image.Image) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a > 0 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

// TestWoWCommands runs every command that reads models on an M2 and a WoW
// MDX fixture, unchanged: inspect (text and JSON with the WoW fields),
// render, sheet, batch (which collects .m2 files by default) and check.
func TestWoWCommands(t *testing.T) {
	dir := copyWoWFixtures(t)
	m2File := filepath.Join(dir, "m2_skinned.m2")
	mdxFile := filepath.Join(dir, "wow_v1500.mdx")

	stdout, stderr, code := run(t, "inspect", m2File, mdxFile)
	if code != 0 {
		t.Fatalf("inspect: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"M2 (MD20), version 260", "drawn as WoW MDX version 1500", "0 of 1 (0 is the most detailed)",
		"frequency", "replay", "MDX, version 1500", "group 0000", "2 blended, up to 2 bones"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("inspect text lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = run(t, "inspect", "--json", m2File, mdxFile)
	var reps []struct {
		Format    string
		Version   uint32
		Sequences []struct {
			Frequency *float64
			BlendTime *uint32 `json:"blend_time"`
		}
		Geosets []struct {
			Skinned        bool
			SelectionGroup *uint32 `json:"selection_group"`
			MultiBone      *int    `json:"multi_bone_vertices"`
			MaxBones       *int    `json:"max_bones_per_vertex"`
		}
		M2 *struct {
			Version      uint32
			Views, View  int
			BoneWeighted int `json:"bone_weighted_vertices"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil || code != 0 || len(reps) != 2 {
		t.Fatalf("inspect --json: exit %d, %v\n%s", code, err, stdout)
	}
	m2r, mdxr := reps[0], reps[1]
	if m2r.Format != "m2" || m2r.Version != 1500 || m2r.M2 == nil || m2r.M2.Version != 260 || m2r.M2.Views != 1 || m2r.M2.BoneWeighted != 24 {
		t.Errorf("M2 report: %+v m2 %+v", m2r, m2r.M2)
	}
	if len(m2r.Sequences) != 1 || m2r.Sequences[0].Frequency == nil || *m2r.Sequences[0].Frequency != 1 || *m2r.Sequences[0].BlendTime != 150 {
		t.Errorf("M2 sequences: %+v", m2r.Sequences)
	}
	if mdxr.Format != "mdx" || mdxr.M2 != nil || len(mdxr.Geosets) != 4 || !mdxr.Geosets[0].Skinned || mdxr.Geosets[0].SelectionGroup == nil {
		t.Errorf("MDX report: %+v", mdxr)
	}
	// wow_v1500's strip: its middle row (2 vertices) is half and half.
	if g := mdxr.Geosets[0]; g.MultiBone == nil || *g.MultiBone != 2 || *g.MaxBones != 2 {
		t.Errorf("MDX strip weights: %+v", g)
	}
	// m2_skinned: the middle box (24 vertices) is half and half.
	multi := 0
	for _, g := range m2r.Geosets {
		if g.MultiBone != nil {
			multi += *g.MultiBone
		}
	}
	if multi != 24 {
		t.Errorf("M2 geosets: %d vertices blend bones, want 24", multi)
	}

	out := filepath.Join(dir, "m2.png")
	if _, stderr, code := run(t, "render", m2File, "-o", out, "--size", "64", "--yaw", "60", "--time", "500"); code != 0 || stderr != "" {
		t.Fatalf("render: exit %d\n%s", code, stderr)
	}
	if f := drawnFraction(readPNGFile(t, out)); f < 0.1 {
		t.Errorf("render drew %.1f%% of the picture", 100*f)
	}

	sheets := filepath.Join(dir, "sheets")
	if _, stderr, code := run(t, "sheet", m2File, "-o", sheets, "--frames", "4", "--size", "32"); code != 0 {
		t.Fatalf("sheet: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(sheets, "m2_skinned-sheet.png")); err != nil {
		t.Error(err)
	}

	models := filepath.Join(dir, "models")
	os.MkdirAll(filepath.Join(models, "Textures"), 0o755)
	for _, f := range []string{"m2_skinned.m2", "wow_v1500.mdx", "Textures/fixture_checker.tga", "Textures/fixture_stripes.tga"} {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		os.WriteFile(filepath.Join(models, filepath.FromSlash(f)), b, 0o644)
	}
	bcfg := filepath.Join(dir, "batch.yaml")
	os.WriteFile(bcfg, []byte("inputs:\n  dirs: [models]\noutput:\n  dir: batch\nrender:\n  size: 32\n"), 0o644)
	stdout, stderr, code = run(t, "batch", "-c", bcfg)
	if code != 0 || !strings.Contains(stdout, "2 models: 2 rendered") {
		t.Fatalf("batch: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"m2_skinned-default.png", "wow_v1500-default.png"} {
		if d := drawnFraction(readPNGFile(t, filepath.Join(dir, "batch", f))); d < 0.05 {
			t.Errorf("batch %s drew %.1f%%", f, 100*d)
		}
	}
	cfg := filepath.Join(dir, "check.yaml")
	os.WriteFile(cfg, []byte("inputs:\n  dirs: [models]\noutput:\n  dir: out\nrender:\n  size: 32\ncheck:\n  golden: golden\n"), 0o644)
	if stdout, stderr, code := run(t, "check", "-c", cfg, "--update"); code != 0 || !strings.Contains(stdout, "2 updated") {
		t.Fatalf("check --update: exit %d\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := run(t, "check", "-c", cfg); code != 0 || !strings.Contains(stdout, "2 checks, 0 regressions") {
		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestWoWCorpusCommands: the newer M2s of the corpus (Wrath and later)
// fail through the CLI with the unsupported-version error naming the
// file and leave no output; Boar.mdx renders with the WoW replaceable
// warning.
func TestWoWCorpusCommands(t *testing.T) {
	files := filepath.Join(sharedDir(t), "corpus", "files")
	var newer []string
	for _, d := range []string{"jsWoWModelViewer", "wowserhq-format", "blizzardry"} {
		filepath.WalkDir(filepath.Join(files, d), func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.EqualFold(filepath.Ext(p), ".m2") {
				newer = append(newer, p)
			}
			return nil
		})
	}
	if len(newer) != 5 {
		t.Errorf("%d newer M2s in the corpus, want 5", len(newer))
	}
	dir := t.TempDir()
	for _, p := range newer {
		out := filepath.Join(dir, "x.png")
		for _, args := range [][]string{{"inspect", p}, {"render", p, "-o", out}} {
			_, stderr, code := run(t, args...)
			if code != 1 || !strings.Contains(stderr, p+": m2: unsupported M2 version ") || strings.Contains(stderr, "panic") {
				t.Errorf("%s %s: exit %d\n%s", args[0], p, code, stderr)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("render of %s left %s", p, out)
		}
	}

	boar := filepath.Join(files, "MDX-Parser", "MDXParser", "Files", "Boar.mdx")
	out := filepath.Join(dir, "boar.png")
	_, stderr, code := run(t, "render", boar, "-o", out, "--yaw", "90", "--sequence", "Stand", "--size", "96")
	if code != 0 || !strings.Contains(stderr, "WoW replaceable texture 11 (Monster1)") || strings.Contains(stderr, "Cliff") {
		t.Errorf("render Boar.mdx: exit %d\n%s", code, stderr)
	}
	if f := drawnFraction(readPNGFile(t, out)); f < 0.08 {
		t.Errorf("Boar drew %.1f%% of the picture", 100*f)
	}
}
