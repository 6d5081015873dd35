package batch_test

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/pkg/batch"
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
			cfg := batch.DefaultOptions()
			cfg.Inputs.Files = models
			cfg.Output.Dir = b.TempDir()
			cfg.Output.Gallery = false
			cfg.Output.Name = "{path}-{ext}" // the corpus has x.mdl beside x.mdx
			cfg.Render.Size, cfg.Render.SSAA = batch.Square(256), 1
			cfg.Render.Particles = false
			cfg.Render.Background = color.NRGBA{A: 255} // black
			cfg.Jobs, cfg.Force = jobs, true
			if err := cfg.Validate(); err != nil {
				b.Fatal(err)
			}
			r := &batch.Runner{Options: &cfg, Renderer: batch.NewRenderer(cfg.TextureCache, cfg.Jobs), Version: "bench"}
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				// A new renderer per run: textures are decoded again, as in
				// a new process.
				r.Renderer = batch.NewRenderer(cfg.TextureCache, cfg.Jobs)
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
