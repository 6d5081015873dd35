package render

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// The particle fixtures in testdata/models (particles_*.mdl) show one PRE2
// emitter feature each. Like the other fixtures they are MDL generated
// from the Go below (UPDATE_FIXTURES=1 go test -run
// TestParticleFixtureModels ./pkg/render); TestGoldenParticles renders each
// at several times into testdata/golden/particles_<name>_t<ms>.png
// (UPDATE_GOLDEN=1 rewrites them).

// particleFixture is one model and the frames of its goldens; the frames
// of one model are rendered by one Animator in the order given, so the
// goldens also cover a simulation continued from frame to frame.
type particleFixture struct {
	name   string
	m      *mdx.Model
	opt    View
	frames []particleFrame
}

type particleFrame struct {
	label string // golden suffix
	time  float64
	edit  func(*View)
}

// pre2 returns a PRE2 emitter with neutral defaults: one white head
// particle texture cell, full alpha, constant size.
func pre2(name string) mdx.ParticleEmitter2 {
	return mdx.ParticleEmitter2{
		Node:  mdx.Node{Name: name, ParentID: -1, Flags: mdx.NodeParticleEmitter},
		Speed: 40, LifeSpan: 1, EmissionRate: 10, Width: 4, Length: 4,
		Rows: 1, Columns: 1, Time: 0.5,
		SegmentColors:  [3]mdx.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
		SegmentAlphas:  [3]uint8{255, 255, 255},
		SegmentScaling: mdx.Vec3{3, 3, 3},
		HeadIntervals:  [3]uint32{0, 0, 1}, HeadDecayIntervals: [3]uint32{0, 0, 1},
		TailIntervals: [3]uint32{0, 0, 1}, TailDecayIntervals: [3]uint32{0, 0, 1},
		TextureID: texChecker,
	}
}

// addPRE2 appends e with the next object id (emitters follow every bone,
// as Nodes() orders them), pivot at p and the given parent bone.
func addPRE2(m *mdx.Model, e mdx.ParticleEmitter2, parent int32, p mdx.Vec3) {
	e.ObjectID = int32(len(m.Bones) + len(m.ParticleEmitters2))
	e.ParentID = parent
	m.ParticleEmitters2 = append(m.ParticleEmitters2, e)
	m.PivotPoints = append(m.PivotPoints, p)
}

// ground is a stripes floor quad at z = 0, so the particles have a
// reference and an opaque background to blend over.
func ground(m *mdx.Model, size float32) {
	mat := addMaterial(m, 0, layer(mdx.FilterNone, texStripes, mdx.LayerUnshaded))
	m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, 0, 0}, size, size, true, mat, 0))
}

var particleView = View{
	Width: 96, Yaw: 30, Pitch: 20, Background: &color.NRGBA{20, 20, 28, 255}, Target: &fauxgl.Vector{X: 0, Y: 0, Z: 35}, Distance: 170, Particles: Particles{Seed: 6, Preroll: NoPreroll},
}

func particleFixtures() []particleFixture {
	var fs []particleFixture
	at := func(ts ...float64) []particleFrame {
		var out []particleFrame
		for _, t := range ts {
			out = append(out, particleFrame{label: fmt.Sprintf("t%04.0f", t), time: t})
		}
		return out
	}

	// Fountain: Blend heads thrown up within ±25° latitude, ±30% speed
	// variation, pulled down by gravity; colour red → yellow → blue,
	// alpha 255 → 255 → 0, size 2 → 6 → 3 with the middle at 40% of the
	// 1.2 s life. At 1300 ms the 1000 ms loop has wrapped once. The
	// pre-roll frame is the looping Stand at 0 ms after one lifetime
	// (auto pre-roll): already full, where no pre-roll would be empty.
	{
		m := fixtureBase("particles_fountain")
		ground(m, 80)
		e := pre2("Fountain")
		e.Speed, e.Variation, e.Latitude, e.Gravity = 70, 0.3, 25, 60
		e.LifeSpan, e.EmissionRate, e.Time = 1.2, 15, 0.4
		e.SegmentColors = [3]mdx.Vec3{{1, 0.2, 0.1}, {1, 0.9, 0.2}, {0.2, 0.4, 1}}
		e.SegmentAlphas = [3]uint8{255, 255, 0}
		e.SegmentScaling = mdx.Vec3{2, 6, 3}
		addPRE2(m, e, 0, mdx.Vec3{0, 0, 5})
		fs = append(fs, particleFixture{"fountain", finish(m), particleView, append(at(300, 1300),
			particleFrame{label: "preroll_t0000", time: 0, edit: func(o *View) { o.Particles.Preroll = PrerollAuto }})})
	}
	// Tails: an Additive tail emitter (tail length 0.15 s of velocity,
	// width from the segment scale) and a Both emitter whose heads and
	// tails use the AlphaKey filter (texels under 0.75 alpha dropped).
	{
		m := fixtureBase("particles_tails")
		ground(m, 80)
		a := pre2("Tail")
		a.HeadOrTail, a.FilterMode, a.TailLength = 1, 1, 0.15
		a.Speed, a.Latitude, a.EmissionRate, a.LifeSpan = 90, 35, 20, 0.9
		a.SegmentColors = [3]mdx.Vec3{{0.2, 1, 1}, {0.2, 0.6, 1}, {0.1, 0.1, 1}}
		a.SegmentScaling = mdx.Vec3{2, 2, 1}
		addPRE2(m, a, 0, mdx.Vec3{0, -20, 5})
		b := pre2("Both")
		b.HeadOrTail, b.FilterMode, b.TailLength = 2, 4, 0.1
		b.Speed, b.Latitude, b.EmissionRate, b.Gravity = 60, 15, 6, 40
		b.SegmentScaling = mdx.Vec3{4, 4, 4}
		addPRE2(m, b, 0, mdx.Vec3{0, 20, 5})
		fs = append(fs, particleFixture{"tails", finish(m), particleView, at(400, 900)})
	}
	// Squirt: KP2E keys 40 at 0, 0 at 400, 25 at 700 (DontInterp); a
	// squirt emitter adds the whole key value when the key changes, so
	// bursts leave at 0 and 700 ms and nothing in between.
	{
		m := fixtureBase("particles_squirt")
		ground(m, 80)
		e := pre2("Burst")
		e.Squirt, e.FilterMode = 1, 1
		e.Speed, e.Latitude, e.Variation, e.LifeSpan = 60, 80, 0.4, 0.8
		e.EmissionRateTrack = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 40}, {Frame: 400, Value: 0}, {Frame: 700, Value: 25}}}
		e.SegmentColors = [3]mdx.Vec3{{1, 1, 0.5}, {1, 0.5, 0.1}, {0.6, 0.1, 0}}
		e.SegmentAlphas = [3]uint8{255, 200, 0}
		addPRE2(m, e, 0, mdx.Vec3{0, 0, 35})
		fs = append(fs, particleFixture{"squirt", finish(m), particleView, at(200, 800)})
	}
	// Sprite sheet: the checker texture as 2×2 cells (red, green, blue,
	// white). Heads run through cells 0-3 twice in the first 50% of life
	// (LifeSpanUVAnim 0,4,2), then cells 2-3 (DecayUVAnim 2,4,1); a tail
	// emitter uses cell 1 (TailUVAnim 1,2,1) then cell 3.
	{
		m := fixtureBase("particles_sprites")
		ground(m, 80)
		e := pre2("Cells")
		e.Rows, e.Columns = 2, 2
		e.HeadIntervals, e.HeadDecayIntervals = [3]uint32{0, 4, 2}, [3]uint32{2, 4, 1}
		e.Speed, e.Latitude, e.EmissionRate, e.LifeSpan = 30, 30, 4, 1.6
		e.SegmentScaling = mdx.Vec3{6, 7, 6}
		addPRE2(m, e, 0, mdx.Vec3{0, -15, 10})
		t := pre2("TailCells")
		t.Rows, t.Columns, t.HeadOrTail, t.TailLength = 2, 2, 1, 0.3
		t.TailIntervals, t.TailDecayIntervals = [3]uint32{1, 2, 1}, [3]uint32{3, 4, 1}
		t.Speed, t.Latitude, t.EmissionRate, t.LifeSpan = 50, 20, 5, 1.2
		t.SegmentScaling = mdx.Vec3{4, 4, 4}
		addPRE2(m, t, 0, mdx.Vec3{0, 20, 10})
		fs = append(fs, particleFixture{"sprites", finish(m), particleView, at(300, 900)})
	}
	// Emitter spaces, seen from above: a ModelSpace emitter on a bone that
	// turns 360° per second (its still particles, spread over a 30×30
	// square, turn with the node and stay a square patch), a world-space
	// one on the same bone (its particles stay behind: a ring), a
	// LineEmitter (latitude only tilts within the node's YZ plane: a fan)
	// and an XYQuad emitter (flat quads facing their velocity).
	{
		m := fixtureBase("particles_spaces")
		ground(m, 120)
		spin := addBone(m, "Spin", 0, mdx.Vec3{}, 0)
		spin.Rotation = lin(k(0, qz(0)), k(250, qz(90)), k(500, qz(180)), k(750, qz(270)), k(1000, qz(360)))
		ms := pre2("ModelSpace")
		ms.Flags |= mdx.NodeModelSpace
		ms.Speed, ms.Latitude, ms.EmissionRate, ms.LifeSpan = 0, 0, 20, 0.9
		ms.Width, ms.Length = 30, 30
		ms.SegmentColors = [3]mdx.Vec3{{1, 0.3, 0.3}, {1, 0.3, 0.3}, {1, 0.3, 0.3}}
		addPRE2(m, ms, 1, mdx.Vec3{35, 0, 10})
		ws := pre2("WorldSpace")
		ws.Speed, ws.Latitude, ws.EmissionRate, ws.LifeSpan = 0, 0, 20, 0.9
		ws.Width, ws.Length = 30, 30
		ws.SegmentColors = [3]mdx.Vec3{{0.3, 1, 0.3}, {0.3, 1, 0.3}, {0.3, 1, 0.3}}
		addPRE2(m, ws, 1, mdx.Vec3{-35, 0, 10})
		line := pre2("Line")
		line.Flags |= mdx.NodeLineEmitter
		line.Speed, line.Latitude, line.EmissionRate, line.LifeSpan = 50, 60, 25, 1
		line.SegmentColors = [3]mdx.Vec3{{0.4, 0.5, 1}, {0.4, 0.5, 1}, {0.4, 0.5, 1}}
		line.SegmentScaling = mdx.Vec3{2, 2, 2}
		addPRE2(m, line, 0, mdx.Vec3{0, 0, 5})
		xy := pre2("XYQuad")
		xy.Flags |= mdx.NodeXYQuad
		xy.Speed, xy.Latitude, xy.EmissionRate, xy.LifeSpan = 30, 90, 6, 1.5
		xy.SegmentScaling = mdx.Vec3{5, 5, 5}
		addPRE2(m, xy, 0, mdx.Vec3{0, 0, 20})
		opt := particleView
		opt.Pitch, opt.Distance, opt.Target = 70, 230, &fauxgl.Vector{X: 0, Y: 0, Z: 20}
		fs = append(fs, particleFixture{"spaces", finish(m), opt, at(500, 900)})
	}
	// Visibility, team colour and modulate: a team-coloured emitter
	// (replaceable 1, team 1 blue) hidden by KP2V from 300 to 600 ms (its
	// live particles go on), and a Modulate2x emitter with grey and dark
	// segments darkening and brightening the floor.
	{
		m := fixtureBase("particles_visibility")
		ground(m, 80)
		tc := pre2("Team")
		tc.ReplaceableID, tc.TextureID = 1, -1
		tc.Speed, tc.Latitude, tc.EmissionRate, tc.LifeSpan = 50, 20, 15, 1
		tc.Visibility = &mdx.Track[float32]{Interpolation: mdx.DontInterp, GlobalSeqID: -1,
			Keys: []mdx.Key[float32]{{Frame: 0, Value: 1}, {Frame: 300, Value: 0}, {Frame: 600, Value: 1}}}
		addPRE2(m, tc, 0, mdx.Vec3{0, -15, 10})
		mod := pre2("Modulate2x")
		mod.FilterMode, mod.TextureID = 3, texStripes
		mod.Speed, mod.Latitude, mod.EmissionRate, mod.LifeSpan = 10, 60, 8, 1.5
		mod.SegmentColors = [3]mdx.Vec3{{0.5, 0.5, 0.5}, {0.2, 0.2, 0.2}, {1, 1, 1}}
		mod.SegmentScaling = mdx.Vec3{8, 8, 8}
		addPRE2(m, mod, 0, mdx.Vec3{0, 20, 10})
		opt := particleView
		opt.Team = texture.Player(1)
		fs = append(fs, particleFixture{"visibility", finish(m), opt, at(450, 950)})
	}
	// Non-looping sequence: Attack (1000 ms) emits until its end, then
	// emission stops and the 0.6 s particles die out; at 1400 ms only
	// those born in the last 0.2 s remain, at 1700 ms none.
	{
		m := fixtureBase("particles_nonlooping")
		ground(m, 80)
		e := pre2("Stream")
		e.Speed, e.Latitude, e.EmissionRate, e.LifeSpan = 80, 10, 20, 0.6
		e.SegmentColors = [3]mdx.Vec3{{1, 1, 1}, {1, 0.6, 0.6}, {1, 0.2, 0.2}}
		addPRE2(m, e, 0, mdx.Vec3{0, 0, 5})
		opt := particleView
		opt.Sequence = SequenceNamed("Attack")
		fs = append(fs, particleFixture{"nonlooping", finish(m), opt, at(900, 1400, 1700)})
	}
	return fs
}

func particleFixturePath(name string) string {
	return filepath.Join(modelsDir, "particles_"+name+".mdl")
}

// TestParticleFixtureModels checks that every particle fixture MDL is what
// its generator writes, and rewrites them with UPDATE_FIXTURES=1.
func TestParticleFixtureModels(t *testing.T) {
	for _, f := range particleFixtures() {
		header := "// mdxrender particle fixture " + f.name + ": generated by pkg/render/particles_fixtures_test.go\n// (UPDATE_FIXTURES=1 go test -run TestParticleFixtureModels ./pkg/render).\n"
		testmodel.CheckFixture(t, particleFixturePath(f.name), header, f.m)
	}
}

func loadFixture(t testing.TB, path string) *mdx.Model {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := testmodel.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoldenParticles renders the particle fixtures as checked in, each
// model's frames with one Animator, and compares decoded pixels with
// testdata/golden/particles_<name>_<label>.png.
func TestGoldenParticles(t *testing.T) {
	for _, f := range particleFixtures() {
		t.Run(f.name, func(t *testing.T) {
			path := particleFixturePath(f.name)
			anim := NewAnimator(loadFixture(t, path), path, besideModel(path, nil))
			for _, fr := range f.frames {
				opt := f.opt
				opt.Time = Ms(fr.time)
				if fr.edit != nil {
					fr.edit(&opt)
				}
				img, warns, err := anim.Render(opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range warns {
					t.Errorf("warning: %v", w)
				}
				name := "particles_" + f.name + "_" + fr.label
				golden.Check(t, filepath.Join(goldenDir, name+".png"), img, goldenTol)
			}
		})
	}
}
