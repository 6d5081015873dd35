package raster

import (
	"sync/atomic"
	"testing"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/internal/cputime"
)

// countingSampler counts Sample calls, i.e. shaded textured fragments.
type countingSampler struct {
	Sampler
	n *atomic.Int64
}

func (s countingSampler) Sample(u, v, lod float32) [4]float32 {
	s.n.Add(1)
	return s.Sampler.Sample(u, v, lod)
}

// unitScene is a stand-in for a typical unit: a textured, lit sphere of
// 2,976 triangles framed by the default camera, plus a second, additive
// layer on the same triangles (a glow pass), as multi-layer materials do.
// The texture is a 256² raster.Texture with its mip chain, sampled
// trilinearly, as the renderer's are.
func unitScene(tb testing.TB, size, ssaa int) (*Target, []Batch) {
	m := sphere([3]float32{0, 0, 60}, 60, 32, 48)
	box := fauxgl.Box{Min: fauxgl.V(-60, -60, 0), Max: fauxgl.V(60, 60, 120)}
	cam := orbitCamera(box, 30, 20, 1.1)
	vs := m.project(cam.ViewProjection(1), nil)
	tex := mipChecker(256, 8, [4]float32{0.9, 0.8, 0.6, 1}, [4]float32{0.3, 0.4, 0.7, 1})
	tg, err := NewTarget(size*ssaa, size*ssaa)
	if err != nil {
		tb.Fatal(err)
	}
	return tg, []Batch{
		{State: lit(replace), Texture: tex, Color: white, Vertices: vs, Indices: m.idx},
		{State: add, Texture: tex, Color: [4]float32{1, 0.5, 0.2, 0.3}, Vertices: vs, Indices: m.idx},
	}
}

func benchFrame(b *testing.B, size, ssaa, workers int) {
	tg, batches := unitScene(b, size, ssaa)
	// Count the fragments one frame shades (those that pass the depth test
	// and reach the texture).
	var n atomic.Int64
	counted := make([]Batch, len(batches))
	for i, bt := range batches {
		bt.Texture = countingSampler{bt.Texture, &n}
		counted[i] = bt
	}
	tg.Clear([4]float32{})
	if err := tg.Draw(counted, DrawOptions{Workers: 1}); err != nil {
		b.Fatal(err)
	}
	frags := n.Load()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		tg.Clear([4]float32{})
		if err := tg.Draw(batches, DrawOptions{Workers: workers}); err != nil {
			b.Fatal(err)
		}
		if _, err := tg.Resolve(ssaa, nil); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cputime.Process() - cpu0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(frags), "ns/fragment")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(frags), "cpu-ns/fragment")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(frags), "fragments")
}

// BenchmarkUnit256 renders a 2,976-triangle textured unit stand-in at 256²:
// clear, draw (two layers), resolve to NRGBA. "1core" uses one worker;
// measured on one core, its process pinned to one CPU (GOMAXPROCS 1),
// cpu-ns is that worker's. With a second CPU the collector, which the
// frame's new 256 KB picture sets going every dozen frames, takes it for
// its own worker, and that CPU is counted too: 10-25 % more here.
func BenchmarkUnit256SSAA1core(b *testing.B) { benchFrame(b, 256, 1, 1) }
func BenchmarkUnit256SSAA4core(b *testing.B) { benchFrame(b, 256, 4, 1) }
func BenchmarkUnit256SSAA1(b *testing.B)     { benchFrame(b, 256, 1, 0) }
func BenchmarkUnit256SSAA4(b *testing.B)     { benchFrame(b, 256, 4, 0) }

// BenchmarkFillFragment measures the per-fragment cost alone: full-screen
// textured, lit quads blended over each other, so setup is negligible.
func BenchmarkFillFragment(b *testing.B) {
	tex := mipChecker(64, 8, [4]float32{1, 1, 1, 1}, [4]float32{0.5, 0.5, 0.5, 1})
	vs, is := fullQuad(0)
	for i := range vs {
		vs[i].UV = [2]float32{vs[i].Position[0], vs[i].Position[1]}
		vs[i].Normal, vs[i].Light = [3]float32{0, 0.6, 0.8}, [3]float32{0, 0, 1}
	}
	tg, _ := NewTarget(256, 256)
	batch := []Batch{{State: lit(over), Texture: tex, Color: [4]float32{1, 1, 1, 0.5}, Vertices: vs, Indices: is}}
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		if err := tg.Draw(batch, DrawOptions{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(256*256), "ns/fragment")
	b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N)/(256*256), "cpu-ns/fragment")
}

// BenchmarkBlend measures the last pass alone: 128 fragments on
// consecutive pixels blended into the colour buffer, per blend.
func BenchmarkBlend(b *testing.B) {
	for _, op := range []BlendOp{BlendReplace, BlendOver, BlendAdd} {
		b.Run([]string{"replace", "over", "add"}[op], func(b *testing.B) {
			tg, err := NewTarget(256, 256)
			if err != nil {
				b.Fatal(err)
			}
			const n = 128
			sp := new(spanBuf)
			sp.grow(n)
			for i := range n {
				sp.pix[i] = int32(1000 + i)
				sp.r[i], sp.g[i], sp.b[i], sp.a[i] = 0.5, 0.25, 0.75, 0.6
				sp.z[i] = 0.5
			}
			st := State{Blend: op, DepthWrite: op == BlendReplace}
			b.ResetTimer()
			for range b.N {
				tg.blendSpan(&st, n, sp)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/fragment")
		})
	}
}
