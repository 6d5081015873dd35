package particles

import (
	"errors"
	"math"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// FuzzPRE2 simulates and meshes one PRE2 emitter with arbitrary record
// values and an arbitrary time: never a panic, a hang, more live particles
// than the bounds or an error other than the work budget's.
func FuzzPRE2(f *testing.F) {
	f.Add(float32(40), float32(0.2), float32(30), float32(10), float32(1), float32(10), float32(4), uint32(0), uint32(1), uint32(1), uint32(0), float32(0.5), uint32(0), uint32(4), uint32(1), float32(500))
	f.Add(float32(math.NaN()), float32(1e30), float32(-90), float32(-1e9), float32(0), float32(1e9), float32(1e30), uint32(4), uint32(0), uint32(0), uint32(2), float32(1), uint32(1), uint32(1<<31), uint32(7), float32(3000))
	f.Fuzz(func(t *testing.T, speed, variation, latitude, gravity, life, rate, size float32, filter, rows, cols, headOrTail uint32, middle float32, squirt, ivEnd, flags uint32, ms float32) {
		m := pre2Model(func(e *mdx.ParticleEmitter2) {
			e.Speed, e.Variation, e.Latitude, e.Gravity, e.LifeSpan, e.EmissionRate = speed, variation, latitude, gravity, life, rate
			e.Width, e.Length, e.FilterMode, e.Rows, e.Columns, e.HeadOrTail, e.Time = size, size, filter, rows, cols, headOrTail, middle
			e.Squirt = squirt
			e.HeadIntervals = [3]uint32{0, ivEnd, ivEnd}
			e.Flags |= (flags & 0x1F) << 15 // Unshaded .. XYQuad
			e.SegmentScaling = mdx.Vec3{size, 1, size}
			if squirt != 0 {
				e.EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
					Keys: []mdx.Key[float32]{{Frame: 0, Value: rate}, {Frame: 500, Value: rate / 2}}}
			}
		})
		s := fuzzSimulate(t, m, int(flags>>8)%3-1, ms)
		fuzzMeshes(t, s, Camera{Right: fauxgl.V(1, 0, 0), Up: fauxgl.V(0, 0, 1), Forward: fauxgl.V(0, 1, 0)})
	})
}

// fuzzSimulate runs m's emitters from the start of sequence seq to an
// arbitrary time (folded into 0-5 s) within a small work budget, which
// keeps every execution short: reaching it is an answer, not a failure.
// Any other error, or more live particles than the bounds, fails t.
func fuzzSimulate(t *testing.T, m *mdx.Model, seq int, ms float32) *Sim {
	t.Helper()
	meter := budget.NewMeter(budget.Limits{SimulationWork: 20_000_000})
	s, err := New(m, Options{Seed: 6, StepMs: DefaultStepMs, PrerollMs: -1, Budget: meter})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(seq, pose.View{})
	t32 := float64(ms)
	if math.IsNaN(t32) || t32 > 5000 || t32 < 0 {
		t32 = math.Mod(math.Abs(t32), 5000)
	}
	if err := s.AdvanceTo(t32); err != nil {
		var be *budget.Error
		if !errors.As(err, &be) || be.Limit != budget.SimulationWork || be.Value <= 20_000_000 || s.Work() > 20_000_000 {
			t.Fatal(err)
		}
	}
	if s.Live() > maxLivePerEmitter || int64(s.Live()) > budget.Particles.Default()+1 {
		t.Fatalf("%d live", s.Live())
	}
	return s
}

// fuzzMeshes wants every mesh's indices within its vertices.
func fuzzMeshes(t *testing.T, s *Sim, cam Camera) {
	t.Helper()
	for _, ms := range s.Meshes(cam) {
		for _, i := range ms.Indices {
			if int(i) >= len(ms.Vertices) {
				t.Fatalf("index %d of %d vertices", i, len(ms.Vertices))
			}
		}
	}
}

// FuzzWoW simulates and meshes one WoW particle emitter and one WoW ribbon
// with arbitrary parameters and an arbitrary time: never a panic, a hang,
// more live particles than the bounds or an error other than the work
// budget's.
func FuzzWoW(f *testing.F) {
	f.Add(uint8(1), float32(2), float32(0.5), float32(1), float32(3), float32(1), float32(30), float32(1), float32(2), float32(0), float32(9.8), float32(0.5), float32(0.5), uint32(0x10), uint8(2), uint8(4), uint8(4), float32(30), float32(0.5), float32(500))
	f.Add(uint8(3), float32(math.NaN()), float32(1e30), float32(-7), float32(1e9), float32(0), float32(3.4e38), float32(-1), float32(1e30), float32(-20), float32(-1e30), float32(-5), float32(0), uint32(0xFFFFFFFF), uint8(7), uint8(0), uint8(255), float32(4e9), float32(1e30), float32(3000))
	f.Fuzz(func(t *testing.T, shape uint8, speed, variation, vertical, horizontal, life, rate, length, width, zsource, gravity, drag, middle float32,
		flags uint32, kind, rows, cols uint8, eps, ribbonLife, ms float32) {
		m := wowModel(func(e *mdx.WoWParticleEmitter) {
			e.EmitterType, e.Speed, e.Variation, e.VerticalRange, e.HorizontalRange = uint32(shape%5), speed, variation, vertical, horizontal
			e.LifeSpan, e.EmissionRate, e.AreaLength, e.AreaWidth, e.ZSource = life, rate, length, width, zsource
			e.Gravity, e.Drag, e.MiddleTime, e.Flags = mdx.Vec3{0, gravity, -gravity}, drag, middle, flags
			e.ParticleType, e.Rows, e.Columns, e.TailLength, e.Spin = uint32(kind%4), uint32(rows), uint32(cols), drag, middle
			e.TwinklePercent, e.TwinkleScale, e.TwinkleSpeed = middle, [2]float32{0, speed}, rate
			e.HeadIntervals = [3]uint32{0, uint32(rows), uint32(cols)}
			for i := 0; i < int(kind%8); i++ {
				e.SplinePoints = append(e.SplinePoints, mdx.Vec3{float32(i) * length, width, zsource})
			}
		})
		m.WoWRibbonEmitters = []mdx.WoWRibbonEmitter{{Bone: 0, Layers: []mdx.Layer{{}}, Alpha: middle, HeightAbove: length,
			HeightBelow: width, Visibility: 1, EdgesPerSecond: eps, LifeSpan: ribbonLife, Gravity: gravity, Rows: uint32(rows), Columns: uint32(cols),
			TextureSlot: uint32(kind)}}
		s := fuzzSimulate(t, m, int(flags>>8)%3-1, ms)
		if n := len(s.wowRibbons[0].(*wowRibbon).edges); n > maxRibbonEdges {
			t.Fatalf("%d ribbon edges", n)
		}
		fuzzMeshes(t, s, testCam)
	})
}
