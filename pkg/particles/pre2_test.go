package particles

import (
	"math"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// pre2Model is one bone and one PRE2 emitter (object 1) on it; the looping
// Stand is 0-1000, the non-looping Attack 2000-2500.
func pre2Model(edit func(e *mdx.ParticleEmitter2)) *mdx.Model {
	m := &mdx.Model{Version: 800}
	m.Sequences = []mdx.Sequence{
		{Name: "Stand", Interval: [2]uint32{0, 1000}},
		{Name: "Attack", Interval: [2]uint32{2000, 2500}, Flags: mdx.SeqNonLooping},
	}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}}
	e := mdx.ParticleEmitter2{
		Node:  mdx.Node{Name: "E", ObjectID: 1, ParentID: 0, Flags: mdx.NodeParticleEmitter},
		Speed: 10, LifeSpan: 10, EmissionRate: 1.5, Width: 2, Length: 2, Rows: 1, Columns: 1, Time: 0.5,
		SegmentScaling: mdx.Vec3{1, 1, 1}, SegmentAlphas: [3]uint8{255, 255, 255},
	}
	if edit != nil {
		edit(&e)
	}
	m.ParticleEmitters2 = []mdx.ParticleEmitter2{e}
	m.PivotPoints = []mdx.Vec3{{}, {0, 0, 10}}
	return m
}

// bareSim is a Sim of m without emitters or a meter, for tests that step
// emitters by hand: the default live-count caps and no work budget.
func bareSim(m *mdx.Model) *Sim {
	return &Sim{m: m, caps: capsOf(budget.DefaultLimits()), left: math.MaxInt64}
}

func newTestSim(t *testing.T, m *mdx.Model, seq int) *Sim {
	t.Helper()
	s, err := New(m, Options{Seed: DefaultSeed, StepMs: DefaultStepMs})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(seq, pose.View{})
	return s
}

func TestRNGIsTheViewersLCG(t *testing.T) {
	var r RNG
	r.Reset(6)
	if got, want := r.Float64(), 105103.0/233280; got != want {
		t.Fatalf("first value from seed 6 = %v, want %v", got, want)
	}
	r.Float64()
	if r.Draws() != 2 {
		t.Fatalf("draws = %d", r.Draws())
	}
	r.Reset(6)
	if r.Float64() != 105103.0/233280 || r.Draws() != 1 {
		t.Fatal("Reset does not restart the sequence")
	}
}

// The static rate 1.5/s is doubled to 3/s; 20 steps of 1/60 s add up to
// 1.0000000000000002, so the viewer's ceil rule emits two particles at
// step 20 and none before (docs/particles.md#emission).
func TestStaticRateDoubledAndCeilBurst(t *testing.T) {
	s := newTestSim(t, pre2Model(nil), 0)
	for i := 1; i <= 20; i++ {
		s.AdvanceTo(float64(i) * DefaultStepMs)
		want := 0
		if i == 20 {
			want = 2
		}
		if s.Live() != want {
			t.Fatalf("after %d steps %d live particles, want %d", i, s.Live(), want)
		}
	}
	if s.Draws() != 10 {
		t.Errorf("%d random draws for 2 particles, want 10", s.Draws())
	}
	// One second: 3/s gives 3 (the burst of 2, then 1 more at ~step 40).
	s.AdvanceTo(1000)
	if s.Live() < 3 || s.Live() > 4 {
		t.Errorf("after 1 s %d live particles, want 3 or 4", s.Live())
	}
}

// An animated KP2E value is not doubled.
func TestAnimatedRateNotDoubled(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) {
		e.EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.Linear, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 30}, {Frame: 1000, Value: 30}}}
	})
	s := newTestSim(t, m, 0)
	s.AdvanceTo(500)
	if s.Live() < 14 || s.Live() > 16 {
		t.Errorf("30/s for 0.5 s: %d live, want 15 ± 1 (doubled would be 30)", s.Live())
	}
}

// Squirt adds the whole KP2E key value when the key index changes (the
// first time at the first step), never per second; a constant track never
// squirts.
func TestSquirt(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) {
		e.Squirt = 1
		e.EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 7}, {Frame: 300, Value: 0}, {Frame: 600, Value: 4}}}
	})
	s := newTestSim(t, m, 0)
	for _, c := range []struct {
		ms   float64
		live int
	}{{17, 7}, {290, 7}, {400, 7}, {610, 11}, {900, 11}} {
		s.AdvanceTo(c.ms)
		if s.Live() != c.live {
			t.Errorf("at %v ms %d live, want %d", c.ms, s.Live(), c.live)
		}
	}
	m = pre2Model(func(e *mdx.ParticleEmitter2) {
		e.Squirt = 1
		e.EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 7}, {Frame: 500, Value: 7}}}
	})
	s = newTestSim(t, m, 0)
	s.AdvanceTo(900)
	if s.Live() != 0 {
		t.Errorf("constant squirt track: %d live, want 0", s.Live())
	}
}

// Both emits a head and a tail per pass, each counting one (so the
// accumulator pays for both); a LineEmitter draws 4 random numbers per
// particle instead of 5.
func TestBothAndLineEmitterDraws(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) { e.HeadOrTail = 2; e.EmissionRate = 15 })
	s := newTestSim(t, m, 0)
	s.AdvanceTo(1000)
	e := s.pre2[0].(*pre2Emitter)
	tails := 0
	for _, o := range e.objects {
		if o.tail {
			tails++
		}
	}
	// 30 passes a second would give 60 objects; each pass costs 2.
	if n := s.Live(); n < 28 || n > 32 || tails*2 != n || s.Draws() != 5*n {
		t.Errorf("Both for 1 s at 30/s: %d live, %d tails, %d draws; want ~30 in head/tail pairs, 5 draws each", n, tails, s.Draws())
	}
	m = pre2Model(func(e *mdx.ParticleEmitter2) { e.Flags |= mdx.NodeLineEmitter; e.EmissionRate = 15 })
	s = newTestSim(t, m, 0)
	s.AdvanceTo(1000)
	if n := s.Live(); n < 28 || n > 32 || s.Draws() != 4*n {
		t.Errorf("LineEmitter: %d live, %d draws; want ~30, 4 each", n, s.Draws())
	}
}

// Visibility 0 stops emission, not the live particles; a non-looping
// sequence stops emitting at its end and its particles die out.
func TestVisibilityAndNonLooping(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) {
		e.EmissionRate, e.LifeSpan = 30, 0.5
		e.Visibility = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 1}, {Frame: 200, Value: 0}}}
	})
	s := newTestSim(t, m, 0)
	s.AdvanceTo(190)
	n := s.Live()
	s.AdvanceTo(400)
	if n == 0 || s.Live() != n {
		t.Errorf("hidden emitter: %d live before, %d after; want the same, > 0", n, s.Live())
	}
	s.AdvanceTo(750)
	if s.Live() != 0 {
		t.Errorf("%d particles outlive their 0.5 s", s.Live())
	}

	m = pre2Model(func(e *mdx.ParticleEmitter2) { e.EmissionRate, e.LifeSpan = 30, 0.3 })
	s = newTestSim(t, m, 1) // Attack, 500 ms, non-looping
	s.AdvanceTo(490)
	if s.Live() == 0 || !s.SpawnAllowed() {
		t.Fatal("nothing emitted during the sequence")
	}
	s.AdvanceTo(900)
	if s.Live() != 0 || s.SpawnAllowed() || s.Clock().Frame != 2500 {
		t.Errorf("after the end: %d live, spawn %v, frame %v; want 0, false, 2500", s.Live(), s.SpawnAllowed(), s.Clock().Frame)
	}
}

// A looping sequence drops the overshoot at each wrap: 60 steps of
// 1/60 s leave the frame just under 1000 ms, the 61st wraps it to the
// start, so at 1500 ms (90 steps) it is 29 steps past the start.
func TestLoopDropsOvershoot(t *testing.T) {
	s := newTestSim(t, pre2Model(nil), 0)
	s.AdvanceTo(1000)
	if f := s.Clock().Frame; !(f > 999.99 && f < 1000) {
		t.Fatalf("after 60 steps frame %v, want just under 1000", f)
	}
	s.AdvanceTo(61 * DefaultStepMs)
	if f := s.Clock().Frame; f != 0 {
		t.Fatalf("after 61 steps frame %v, want 0", f)
	}
	s.AdvanceTo(1500)
	if f := s.Clock().Frame; math.Abs(f-29*DefaultStepMs) > 1e-6 {
		t.Fatalf("after 90 steps frame %v, want %v", f, 29*DefaultStepMs)
	}
	if g := s.Clock().Global; math.Abs(g-1500) > 1e-6 {
		t.Fatalf("counter %v, want 1500", g)
	}
}

// The auto pre-roll (negative PrerollMs) simulates one lifetime for a
// looping sequence, so the effect is populated at time 0; an explicit 0
// and a non-looping sequence get none.
func TestPreroll(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) { e.EmissionRate, e.LifeSpan = 30, 0.5 })
	for _, c := range []struct {
		pre   float64
		seq   int
		alive bool
	}{{-1, 0, true}, {0, 0, false}, {-1, 1, false}, {300, 1, true}} {
		s, err := New(m, Options{Seed: 6, StepMs: DefaultStepMs, PrerollMs: c.pre})
		if err != nil {
			t.Fatal(err)
		}
		s.Start(c.seq, pose.View{})
		s.AdvanceTo(0)
		if (s.Live() > 0) != c.alive {
			t.Errorf("pre-roll %v, sequence %d: %d live at time 0", c.pre, c.seq, s.Live())
		}
		if s.Clock().Frame != float64(m.Sequences[c.seq].Interval[0]) {
			t.Errorf("pre-roll %v: frame %v after the restart", c.pre, s.Clock().Frame)
		}
	}
	if _, err := New(m, Options{StepMs: -1}); err == nil {
		t.Error("negative step accepted")
	}
	if _, err := New(m, Options{StepMs: 1, PrerollMs: 1e12}); err == nil {
		t.Error("huge pre-roll accepted")
	}
}

// A hostile emission rate is bounded.
func TestHostileRateBounded(t *testing.T) {
	m := pre2Model(func(e *mdx.ParticleEmitter2) { e.EmissionRate = 1e30 })
	s := newTestSim(t, m, 0)
	s.AdvanceTo(100)
	if s.Live() > maxLivePerEmitter {
		t.Fatalf("%d live particles", s.Live())
	}
}

func TestSpriteCell(t *testing.T) {
	for _, c := range []struct {
		iv   [3]uint32
		f    float64
		want float64
	}{
		{[3]uint32{0, 4, 1}, 0, 0},
		{[3]uint32{0, 4, 1}, 0.26, 1},
		{[3]uint32{0, 4, 1}, 1, 3}, // floor(4) mod 4 = 0 → start? no: 0+0; capped below
		{[3]uint32{0, 4, 2}, 0.6, 0},
		{[3]uint32{2, 4, 1}, 0.75, 3},
		{[3]uint32{3, 3, 1}, 0.5, 3},   // empty interval: start
		{[3]uint32{0, 16, 1}, 0.99, 3}, // capped at the last cell of 2×2
	} {
		got := spriteCell(c.iv, c.f, 2, 2)
		if c.iv == [3]uint32{0, 4, 1} && c.f == 1 {
			c.want = 0 // floor(4·1·1) mod 4 = 0: the viewer wraps at the very end
		}
		if got != c.want {
			t.Errorf("spriteCell(%v, %v) = %v, want %v", c.iv, c.f, got, c.want)
		}
	}
}

// Hostile values never hang or panic: NaN and infinite rates, speeds and
// lifespans, a head-or-tail value that emits nothing, a huge time.
func TestHostileValues(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for i, edit := range []func(e *mdx.ParticleEmitter2){
		func(e *mdx.ParticleEmitter2) { e.EmissionRate = inf },
		func(e *mdx.ParticleEmitter2) { e.EmissionRate = inf; e.HeadOrTail = 7 },
		func(e *mdx.ParticleEmitter2) { e.EmissionRate = nan },
		func(e *mdx.ParticleEmitter2) { e.Speed, e.Latitude, e.Gravity, e.Variation = nan, inf, inf, nan },
		func(e *mdx.ParticleEmitter2) { e.LifeSpan = inf; e.EmissionRate = 1e6 },
		func(e *mdx.ParticleEmitter2) { e.LifeSpan, e.Time = 0, 0; e.Rows, e.Columns = 0, 0 },
		func(e *mdx.ParticleEmitter2) {
			e.Rows, e.Columns = 1<<31, 1<<31
			e.HeadIntervals = [3]uint32{0, 1 << 31, 1 << 31}
		},
	} {
		s := newTestSim(t, pre2Model(edit), 0)
		if err := s.AdvanceTo(300); err != nil {
			t.Fatal(err)
		}
		if s.Live() > maxLivePerEmitter {
			t.Errorf("case %d: %d live", i, s.Live())
		}
		_ = s.Meshes(Camera{Right: fauxgl.V(1, 0, 0), Up: fauxgl.V(0, 0, 1), Forward: fauxgl.V(0, 1, 0)})
	}
	s := newTestSim(t, pre2Model(nil), 0)
	if err := s.AdvanceTo(1e12); err == nil {
		t.Error("a 1e12 ms time is accepted")
	}
	if _, err := New(pre2Model(nil), Options{StepMs: 1e-6, PrerollMs: 1000}); err == nil {
		t.Error("a 1e9-step pre-roll is accepted")
	}
}
