package render

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// BenchmarkRender renders 256² stills on one worker with a warm texture
// cache: a small unit (evilshadowhunter, 539 triangles) and the largest
// corpus model (Undead3D_Exp, 71,401 triangles, a glue-screen scene whose
// sky dome makes the subject small), and a large textured hero (vip14,
// 28,233 triangles), at ssaa 1 and 4. Each
// iteration is a whole Render: pose, framing, batches, raster, resolve.
func BenchmarkRender(b *testing.B) {
	models := []struct{ name, path string }{
		{"unit", "war3-ap-maps/mods/apimports/evilshadowhunter.mdx"},
		{"largest", "wc3lib/src/mdlx/test/Undead3D_Exp.mdx"},
		{"vip14", "War3ModelView/testmodel/vip14.mdx"},
	}
	for _, mm := range models {
		m, p := corpusModel(b, mm.path)
		cache := texture.NewCache(0)
		for _, k := range []int{1, 4} {
			// Each picture with a new framebuffer, and ("reuse") as a batch
			// and the root package's Model render: the last one's reused.
			for _, reuse := range []bool{false, true} {
				name := fmt.Sprintf("%s/ssaa%d", mm.name, k)
				if reuse {
					name += "/reuse"
				}
				b.Run(name, func(b *testing.B) {
					opt := View{Width: 256, SSAA: k, Yaw: 30, Pitch: 20, Time: Ms(300), Workers: 1, Particles: Particles{Off: true}}
					var fbs *Framebuffers
					if reuse {
						fbs = new(Framebuffers)
					}
					render := func() {
						a := NewAnimator(m, p, besideModel(p, &texture.Resolver{Cache: cache}))
						a.Framebuffers = fbs
						if _, _, err := a.Render(opt); err != nil {
							b.Fatal(err)
						}
					}
					cputime.Bench(b, render)
				})
			}
		}
	}
}

// BenchmarkRenderCold is the whole per-model cost of a thumbnail, for
// comparison with the reference viewer's per-model throughput: decode the
// model file, find and decode its textures (fresh cache), pose, render
// 256² at ssaa 1 on one worker, encode nothing.
func BenchmarkRenderCold(b *testing.B) {
	p := filepath.Join(testshared.Root(), "corpus", "files", "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx")
	data, err := os.ReadFile(p)
	if err != nil {
		b.Skipf("corpus model not found: %v", err)
	}
	b.ReportAllocs()
	cpu := cputime.Process()
	defer func() { b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		m, err := testmodel.Load(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := renderAt(m, p, View{Width: 256, Yaw: 30, Pitch: 20, Workers: 1, Particles: Particles{Off: true}}); err != nil {
			b.Fatal(err)
		}
	}
}
