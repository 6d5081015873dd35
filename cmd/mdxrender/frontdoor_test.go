package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// TestFrontDoorMatchesRenderCommand checks that the library's defaults are
// the command line's: mdxrender.Open + Render(DefaultView()) (and the zero
// View) give the very pixels of `mdxrender render MODEL` with no flags, on
// a fixture with particles and on a corpus unit with textures; and that a
// View setting only the sequence and time keeps the other defaults, as
// the flags do.
func TestFrontDoorMatchesRenderCommand(t *testing.T) {
	type job struct {
		model string
		flags []string
		view  mdxrender.View
	}
	jobs := []job{
		{filepath.Join(fixtureDir, "particles_fountain.mdl"), nil, render.DefaultView()},
		{filepath.Join(fixtureDir, "particles_fountain.mdl"), nil, mdxrender.View{}},
		{filepath.Join(fixtureDir, "particles_fountain.mdl"), []string{"--sequence", "Stand", "--time", "500"},
			mdxrender.View{Sequence: render.SequenceNamed("Stand"), Time: render.Ms(500)}},
	}
	dir := testshared.Root()
	if unit := filepath.Join(dir, "corpus", "files", "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx"); fileExists(unit) {
		jobs = append(jobs, job{unit, nil, render.DefaultView()}, job{unit, []string{"--yaw", "30"}, mdxrender.View{Yaw: 30}})
	} else {
		t.Log("shared corpus absent: fixture only")
	}
	for _, j := range jobs {
		out := filepath.Join(t.TempDir(), "cli.png")
		if _, stderr, code := run(t, append([]string{"render", j.model, "-o", out}, j.flags...)...); code != 0 {
			t.Fatalf("%s %v: exit %d: %s", j.model, j.flags, code, stderr)
		}
		cli := decodePNGFile(t, out)
		m, err := mdxrender.Open(j.model, nil)
		if err != nil {
			t.Fatal(err)
		}
		img, _, err := m.Render(j.view)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(img.Pix, cli.Pix) || img.Rect != cli.Rect {
			t.Errorf("%s %v: the library's picture differs from the command's", filepath.Base(j.model), j.flags)
		}
		if opaque(img) < 500 {
			t.Errorf("%s %v: only %d pixels drawn; the comparison proves little", filepath.Base(j.model), j.flags, opaque(img))
		}
	}
}

// decodePNGFile reads a PNG the command wrote, as the NRGBA image it is.
func decodePNGFile(t *testing.T, name string) *image.NRGBA {
	t.Helper()
	n, ok := readPNGFile(t, name).(*image.NRGBA)
	if !ok {
		t.Fatalf("%s does not decode as *image.NRGBA", name)
	}
	return n
}

// opaque counts the pixels with any coverage.
func opaque(img *image.NRGBA) int {
	n := 0
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 0 {
			n++
		}
	}
	return n
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
