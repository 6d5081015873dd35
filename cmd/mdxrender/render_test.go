package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fixtureDir = filepath.Join("..", "..", "testdata", "models")

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cam.png")
	_, stderr, code := run(t, "render", filepath.Join(fixtureDir, "portrait_camera.mdl"), "-o", out,
		"--camera", "Portrait", "--time", "500", "--size", "80x60", "--bg", "#102030", "--ssaa", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 80 || b.Dy() != 60 {
		t.Fatalf("size %v, want 80x60", b)
	}
	if r, g, b, _ := img.At(0, 0).RGBA(); r>>8 != 0x10 || g>>8 != 0x20 || b>>8 != 0x30 {
		t.Fatalf("corner %v, want the background", img.At(0, 0))
	}
	// No temporary files are left next to the output.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("output folder holds %d entries, want 1", len(ents))
	}
}

func TestRenderCommandWarningsAndErrors(t *testing.T) {
	dir := t.TempDir()
	// A model whose texture folder is missing still renders, with warnings.
	src, err := os.ReadFile(filepath.Join(fixtureDir, "flipbook.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "flipbook.mdl")
	if err := os.WriteFile(model, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "a.png")
	_, stderr, code := run(t, "render", model, "-o", out, "--yaw", "30", "--pitch", "20", "--ortho", "--fit", "extent")
	if code != 0 || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "fixture_checker.tga") {
		t.Fatalf("exit %d, stderr %q: want success with a warning naming the texture", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"render", model, "-o", filepath.Join(dir, "b.png"), "--sequence", "Walk"},
		{"render", model, "-o", filepath.Join(dir, "b.png"), "--size", "0"},
		{"render", model, "-o", filepath.Join(dir, "b.png"), "--bg", "red"},
		{"render", model, "-o", filepath.Join(dir, "b.png"), "--fit", "box"},
		{"render", model, "-o", filepath.Join(dir, "b.png"), "--camera", "Portrait"},
		{"render", filepath.Join(dir, "nope.mdx"), "-o", filepath.Join(dir, "b.png")},
		{"render", model},
	} {
		_, stderr, code := run(t, args...)
		if code == 0 {
			t.Errorf("%v: exit 0, want failure", args[2:])
		}
		if stderr == "" {
			t.Errorf("%v: no message", args[2:])
		}
		if _, err := os.Stat(filepath.Join(dir, "b.png")); err == nil {
			t.Fatalf("%v: wrote an image", args[2:])
		}
	}
}

// A picture with nothing on it is written (it may be what the user asked
// for) but gets a warning, so a CI log shows why a thumbnail is empty.
func TestRenderCommandWarnsWhenBlank(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(fixtureDir, "portrait_camera.mdl")
	_, stderr, code := run(t, "render", model, "-o", filepath.Join(dir, "a.png"), "--size", "32")
	if code != 0 || strings.Contains(stderr, "shows nothing") {
		t.Fatalf("exit %d, stderr %q: want a silent success", code, stderr)
	}
	// Looking at a point far above the model, which is beyond the far plane.
	_, stderr, code = run(t, "render", model, "-o", filepath.Join(dir, "b.png"), "--size", "32", "--target", "0,0,100000", "--distance", "10")
	if code != 0 || !strings.Contains(stderr, "shows nothing") {
		t.Fatalf("exit %d, stderr %q: want success with a blank-picture warning", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.png")); err != nil {
		t.Fatal(err)
	}
}

// --time takes a share of the chosen sequence: 25% of Stand (1000 ms
// long) is the same picture as --time 250, and differs from its start.
func TestRenderCommandTimeShare(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(fixtureDir, "dont_inherit.mdl")
	render := func(name string, args ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		_, stderr, code := run(t, append([]string{"render", model, "-o", out, "--size", "48", "--sequence", "Stand"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	share, ms, start := render("a.png", "--time", "25%"), render("b.png", "--time", "250"), render("c.png")
	if string(share) != string(ms) {
		t.Error("--time 25% differs from --time 250 on a 1000 ms sequence")
	}
	if string(share) == string(start) {
		t.Error("--time 25% gave the sequence start: the fixture does not move, so this test cannot tell")
	}
	for _, bad := range []string{"150%", "soon", "NaN"} {
		if _, stderr, code := run(t, "render", model, "-o", filepath.Join(dir, "d.png"), "--time", bad); code == 0 || !strings.Contains(stderr, "--time") {
			t.Errorf("--time %s: exit %d, stderr %q: want an error naming --time", bad, code, stderr)
		}
	}
}
