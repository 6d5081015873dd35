package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestLimitFlag: --limit sets the budgets the batch configuration's
// limits.* keys name, dashes or underscores alike, and says what it wants
// when it cannot.
func TestLimitFlag(t *testing.T) {
	lf := limitFlags{vals: []string{"particles=50k", "render-pixels=64Mi", "overdraw=1000"}}
	c := budget.Limits{Particles: 1, Vertices: 7}
	if err := lf.apply(&c); err != nil {
		t.Fatal(err)
	}
	if c.Particles != 50000 || c.RenderPixels != 64<<20 || c.Overdraw != 1000 || c.Vertices != 7 {
		t.Errorf("applied: %+v", c)
	}
	l, err := lf.limits()
	if err != nil || l.Particles != 50000 || l.RenderPixels != 64<<20 || l.Get(budget.Vertices) != 512<<10 {
		t.Errorf("limits: %+v %v", l, err)
	}
	for _, c := range []struct{ val, want string }{
		{"particles", "want NAME=VALUE"},
		{"nope=1", `no limit named "nope" (limits: read_bytes, vertices`},
		{"vertices=-3", `--limit "vertices=-3": want a positive whole number`},
		{"vertices=" + strings.Repeat("9", 500), "(509 bytes)"},
	} {
		lf := limitFlags{vals: []string{c.val}}
		if _, err := lf.limits(); err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 300 {
			t.Errorf("%.20q: got %v, want an error containing %q", c.val, err, c.want)
		}
	}
}

// TestRenderSizeRefused is the hostile-input table's `render --size 8192
// --ssaa 2`: refused by the render_pixels budget (which is checked before
// any sample is made), naming the size, the SSAA, the budget and the flag
// that raises it.
func TestRenderSizeRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "big.png")
	_, stderr, code := run(t, "render", filepath.Join(fixtureDir, "portrait_camera.mdl"), "-o", out, "--size", "8192", "--ssaa", "2")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"portrait_camera.mdl", "size 8192x8192 at ssaa 2", "render_pixels limit of 16Mi", "--limit render_pixels=N"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output was written")
	}
}

// TestLimitFlagReachesDecoders: the flag's budgets reach the model
// decoder (inspect, convert, render), the texture decoder and the batch.
func TestLimitFlagReachesDecoders(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "grid.mdl")
	if err := os.WriteFile(model, hostile.MDLGeometry(300, 10), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"inspect", model},
		{"convert", model, filepath.Join(dir, "grid.mdx")},
		{"render", model, "-o", filepath.Join(dir, "grid.png")},
		{"batch", model, "-o", filepath.Join(dir, "out")},
	} {
		if _, stderr, code := run(t, args...); code != 0 {
			t.Errorf("%s within the defaults: exit %d: %s", args[0], code, stderr)
		}
		stdout, stderr, code := run(t, append(args, "--limit", "vertices=299")...)
		msg := stdout + stderr
		if code == 0 || !strings.Contains(msg, "more than 299 vertices") {
			t.Errorf("%s --limit vertices=299: exit %d: %s", args[0], code, msg)
		}
		if args[0] != "batch" && !strings.Contains(msg, "--limit vertices=N") {
			t.Errorf("%s: no hint: %s", args[0], msg)
		}
	}
	tex := filepath.Join(dir, "big.png")
	if err := os.WriteFile(tex, hostile.PNG(64, 64, 8, hostile.PNGRGBA), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, "texture", tex, "-o", filepath.Join(dir, "t.png"), "--limit", "texture_pixels=1000"); code == 0 || !strings.Contains(stderr, "--limit texture_pixels=N") {
		t.Errorf("texture over its budget: exit %d: %s", code, stderr)
	}
}
