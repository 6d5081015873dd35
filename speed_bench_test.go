package mdxrender_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// BenchmarkThumbnailCold is the cold thumbnail of the speed targets (at
// most 3 ms, docs/performance.md) through the package's front door, as a
// program that makes thumbnails one model after another pays for each:
// read and decode the model file (Open), find and decode its textures into
// a new cache, render 256² at ssaa 1 on one worker, encode the PNG.
// Framebuffers come from the package's pool, as every Render's do; the
// first iteration (outside the timer) fills it.
func BenchmarkThumbnailCold(b *testing.B) {
	p := unitModel(b)
	v := mdxrender.View{Width: 256, SSAA: 1, Yaw: 30, Pitch: 20, Workers: 1, Particles: render.Particles{Off: true}}
	thumb := func() {
		m, err := mdxrender.Open(p, nil)
		if err != nil {
			b.Fatal(err)
		}
		img, _, err := m.Render(v)
		if err != nil {
			b.Fatal(err)
		}
		if err := mdxrender.EncodePNG(io.Discard, img); err != nil {
			b.Fatal(err)
		}
	}
	cputime.Bench(b, thumb)
}

// BenchmarkThumbnailWarm is the warm render of the speed targets (at
// most 1 ms, docs/performance.md) through the front door: the unit opened
// once, then rendered again and again as a program showing it would
// (256², ssaa 1, one worker), its textures decoded and its folder listed
// by the first render, outside the timer.
func BenchmarkThumbnailWarm(b *testing.B) {
	p := unitModel(b)
	m, err := mdxrender.Open(p, nil)
	if err != nil {
		b.Fatal(err)
	}
	v := mdxrender.View{Width: 256, SSAA: 1, Yaw: 30, Pitch: 20, Workers: 1, Particles: render.Particles{Off: true}}
	cputime.Bench(b, func() {
		if _, _, err := m.Render(v); err != nil {
			b.Fatal(err)
		}
	})
}

// unitModel is the path of the typical unit the speed targets measure
// (evilshadowhunter.mdx, 539 triangles) in the shared corpus; it skips tb
// without it.
func unitModel(tb testing.TB) string {
	p := filepath.Join(testshared.Corpus(tb), "corpus", "files", "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("corpus model not found: %v", err)
	}
	return p
}
