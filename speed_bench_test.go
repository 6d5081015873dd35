package mdxrender_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// BenchmarkCorpusThumbnails is the whole-corpus batch of
// scripts/bench-vs-reference.sh inside one test binary, for CPU profiles
// (-cpuprofile) and CPU time per model: every .mdx/.mdl file under the
// shared corpus (or the files listed one per line in MDXR_BENCH_LIST), one
// 256² PNG each, ssaa 1, no particles, over black, jobs 1 and the default.
func BenchmarkCorpusThumbnails(b *testing.B) {
	models := corpusModelFiles(b)
	for _, jobs := range []int{1, 0} {
		b.Run(fmt.Sprintf("jobs%d", jobs), func(b *testing.B) {
			cfg := batch.DefaultConfig()
			cfg.Inputs.Files = models
			cfg.Output.Dir = b.TempDir()
			cfg.Output.Gallery = false
			cfg.Output.Name = "{path}-{ext}" // the corpus has x.mdl beside x.mdx
			cfg.Render.Size, cfg.Render.SSAA = batch.Square(256), 1
			cfg.Render.Particles = false
			cfg.Render.Background = "#000000"
			cfg.Jobs, cfg.Force = jobs, true
			if err := cfg.Validate(); err != nil {
				b.Fatal(err)
			}
			r := &batch.Runner{Config: &cfg, Renderer: mdxrender.NewBatchRenderer(int64(cfg.TextureCacheMB)<<20, cfg.Jobs), Version: "bench"}
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				// A new renderer per run: textures are decoded again, as in
				// a new process.
				r.Renderer = mdxrender.NewBatchRenderer(int64(cfg.TextureCacheMB)<<20, cfg.Jobs)
				m, err := r.Run(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					b.ReportMetric(float64(m.Summary.Failed), "failed")
				}
			}
			b.ReportMetric(float64(len(models)*b.N)/b.Elapsed().Seconds(), "models/s")
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N*len(models)), "cpu-ns/model")
		})
	}
}

func corpusModelFiles(tb testing.TB) []string {
	if l := os.Getenv("MDXR_BENCH_LIST"); l != "" {
		b, err := os.ReadFile(l)
		if err != nil {
			tb.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	var out []string
	root := filepath.Join(sharedDir(tb), "corpus", "files")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".mdx" || ext == ".mdl") {
			abs, _ := filepath.Abs(p)
			out = append(out, abs)
		}
		return nil
	})
	if err != nil || len(out) == 0 {
		tb.Skipf("shared corpus not available (%v); set MDXR_SHARED", err)
	}
	return out
}

// BenchmarkThumbnailCold is issue 15's cold thumbnail through the
// package's front door, as a program that makes thumbnails one model after
// another pays for each: read and decode the model file (Open), find and
// decode its textures into a new cache, render 256² at ssaa 1 on one
// worker, encode the PNG. Framebuffers come from the package's pool, as
// every Render's do; the first iteration (outside the timer) fills it.
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

// BenchmarkThumbnailWarm is issue 15's warm render through the front
// door: the unit opened once, then rendered again and again as a program
// showing it would (256², ssaa 1, one worker), its textures decoded and
// its folder listed by the first render, outside the timer.
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

// unitModel is the path of issue 15's typical unit (evilshadowhunter.mdx,
// 539 triangles) in the shared corpus; it skips tb without it.
func unitModel(tb testing.TB) string {
	p := filepath.Join(sharedDir(tb), "corpus", "files", "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("corpus model not found: %v", err)
	}
	return p
}
