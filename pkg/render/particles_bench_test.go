package render

import (
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// heavyEmitterModel is a synthetic effect with about 6,400 live particles
// after 2 s: four Blend/Additive head emitters at 800 particles a second
// each (static 400, doubled) living 2 s, spread over a ring, one of them
// with tails.
func heavyEmitterModel() *mdx.Model {
	m := fixtureBase("heavy")
	ground(m, 120)
	for i := 0; i < 4; i++ {
		e := pre2("Heavy")
		e.EmissionRate, e.LifeSpan, e.Speed, e.Latitude, e.Gravity = 400, 2, 40, 45, 10
		e.FilterMode = uint32(i % 2)
		if i == 3 {
			e.HeadOrTail, e.TailLength = 2, 0.1
		}
		e.SegmentAlphas = [3]uint8{200, 160, 0}
		addPRE2(m, e, 0, mdx.Vec3{float32(30 * (i%2*2 - 1)), float32(30 * (i/2*2 - 1)), 5})
	}
	return finish(m)
}

// benchSheet renders a 2-second sprite sheet of m: 24 frames at 12 fps,
// 128², one Animator (one simulation stepped through the frames), with a
// warm texture cache. It reports CPU time per sheet next to wall time (the
// machine is shared) and the live particle count at the end.
func benchSheet(b *testing.B, m *mdx.Model, path string, opt View) {
	opt.Width, opt.Particles = 128, Particles{Seed: 6, Preroll: NoPreroll}
	res := &texture.Resolver{Cache: texture.NewCache(0)}
	sheet := func() {
		anim := NewAnimator(m, path, besideModel(path, res))
		for f := 0; f < 24; f++ {
			o := opt
			o.Time = Ms(float64(f) * 2000 / 23)
			if _, _, err := anim.Render(o); err != nil {
				b.Fatal(err)
			}
		}
	}
	cputime.Bench(b, sheet)
}

// BenchmarkParticleSheet simulates and renders 2-second sheets: the
// synthetic heavy emitter model (always available) and the corpus' busiest
// emitter model, boneguardrockspike_spell02 (~700 live PRE2 particles),
// when ../shared is present. Workers 1: one core per sheet, as in a batch.
func BenchmarkParticleSheet(b *testing.B) {
	b.Run("synthetic6400", func(b *testing.B) {
		benchSheet(b, heavyEmitterModel(), filepath.Join(modelsDir, "heavy.mdl"), View{
			Yaw: 30, Pitch: 30, Target: &fauxgl.Vector{X: 0, Y: 0, Z: 30}, Distance: 260, Workers: 1, Particles: Particles{Off: true},
		})
	})
	b.Run("boneguardrockspike", func(b *testing.B) {
		m, p := corpusModel(b, "warcraft3-icc/ICC.w3x/boneguardrockspike_spell02.mdx")
		benchSheet(b, m, p, View{Yaw: 30, Pitch: 20, Workers: 1, Particles: Particles{Off: true}})
	})
}

// BenchmarkParticleSimulation is the simulation alone: the heavy model
// stepped 2 s (120 steps) from the sequence start, no drawing.
func BenchmarkParticleSimulation(b *testing.B) {
	m := heavyEmitterModel()
	opt := View{Width: 8, Time: Ms(2000), Workers: 1, Particles: Particles{Seed: 6, Preroll: NoPreroll}}
	b.ReportAllocs()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		a := NewAnimator(m, "heavy.mdl", besideModel("heavy.mdl", nil))
		if _, _, err := a.Render(opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
}
