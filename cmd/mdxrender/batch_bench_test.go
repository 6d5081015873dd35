package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/batch"
)

// corpusModels lists up to n MDX/MDL files of the shared corpus (absolute
// paths), skipping the benchmark or test when it is absent.
func corpusModels(tb testing.TB, n int) []string {
	tb.Helper()
	dir := testshared.Corpus(tb)
	f, err := os.Open(filepath.Join(dir, "corpus", "manifest.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var list []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(list) < n {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) > 5 && (fs[5] == "MDLX" || strings.HasSuffix(strings.ToLower(fs[0]), ".mdl")) {
			abs, _ := filepath.Abs(filepath.Join(dir, "corpus", fs[0]))
			list = append(list, abs)
		}
	}
	return list
}

// BenchmarkBatchCorpus renders thumbnails of corpus models at 256x256 and
// reports models/s, for ssaa 1 and 4 and 1 and 2 workers. Set
// MDXR_BENCH_MODELS to change the number of models (default 100; 1000 takes
// the whole corpus, 237 models).
func BenchmarkBatchCorpus(b *testing.B) {
	n := 100
	fmt.Sscan(os.Getenv("MDXR_BENCH_MODELS"), &n)
	models := corpusModels(b, n)
	for _, ssaa := range []int{1, 4} {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("ssaa%d/jobs%d", ssaa, jobs), func(b *testing.B) {
				cfg := batch.DefaultOptions()
				cfg.Inputs.Files = models
				cfg.Output.Dir = b.TempDir()
				cfg.Output.Gallery = false
				// the corpus has x.mdl beside x.mdx
				cfg.Output.Name = "{path}-{ext}-{view}"
				cfg.Render.Size, cfg.Render.SSAA = batch.Square(256), ssaa
				cfg.Jobs, cfg.Force = jobs, true
				r := &batch.Runner{Options: &cfg, Version: "bench"}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					m, err := r.Run(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if i == 0 {
						b.ReportMetric(float64(m.Summary.Failed), "failed")
					}
				}
				b.ReportMetric(float64(len(models)*b.N)/b.Elapsed().Seconds(), "models/s")
			})
		}
	}
}
