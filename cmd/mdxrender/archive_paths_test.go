package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render, inspect and texture take a file inside a map as
// MAP.w3x:path/inside; inspect of a map covers every model in it.
func TestArchivePaths(t *testing.T) {
	m := filepath.Join(sharedDir(t), "corpus", "archives", "DefendWintercastle", "Play", "Optimized", "dwc65.w3x")
	dir := t.TempDir()
	out := filepath.Join(dir, "hammer.png")
	if _, stderr, code := run(t, "render", m+":Units/Victor/Hammer.mdx", "-o", out, "--size", "64"); code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	if img := decodePNGFile(t, out); opaque(img) < 50 {
		t.Errorf("the hammer covers %d pixels", opaque(img))
	}
	stdout, stderr, code := run(t, "inspect", "--json", m)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var reports []struct {
		File string `json:"file"`
	}
	if err := json.Unmarshal([]byte(stdout), &reports); err != nil {
		t.Fatal(err)
	}
	if len(reports) != 81 || !strings.HasPrefix(reports[0].File, m+":") {
		t.Errorf("inspect of the map: %d reports, first %q", len(reports), reports[0].File)
	}
	png := filepath.Join(dir, "tex.png")
	if stdout, stderr, code := run(t, "texture", m+":war3mapMap.blp", "--info"); code != 0 || !strings.Contains(stdout, "BLP1") {
		t.Errorf("texture --info: exit %d: %s %s", code, stdout, stderr)
	}
	if _, stderr, code := run(t, "texture", m+":war3mapMap.blp", "-o", png); code != 0 {
		t.Errorf("texture: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(png); err != nil {
		t.Error(err)
	}
	// A name that is not in the map is an error naming both.
	if _, stderr, code := run(t, "render", m+":Units/Nobody.mdx", "-o", out); code == 0 || !strings.Contains(stderr, "dwc65.w3x") || !strings.Contains(stderr, "Nobody.mdx") {
		t.Errorf("missing file: exit %d: %s", code, stderr)
	}
}
