package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// compareRef measures b against the reference a as docs/fidelity.md#the-measure
// does: mismatch is the percentage of pixels with a channel off by more
// than 16; IoU compares the pixels that differ from the background bg by
// more than 16 in each image.
func compareRef(a image.Image, b *image.NRGBA, bg color.NRGBA) (mismatchPct, iou float64) {
	r := b.Rect
	if a.Bounds().Dx() != r.Dx() || a.Bounds().Dy() != r.Dy() {
		return 100, 0
	}
	bad, inter, union := 0, 0, 0
	far := func(c color.NRGBA, d color.NRGBA) bool {
		return absDiff(c.R, d.R) > 16 || absDiff(c.G, d.G) > 16 || absDiff(c.B, d.B) > 16
	}
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			ca := color.NRGBAModel.Convert(a.At(a.Bounds().Min.X+x, a.Bounds().Min.Y+y)).(color.NRGBA)
			cb := b.NRGBAAt(r.Min.X+x, r.Min.Y+y)
			if far(ca, cb) {
				bad++
			}
			fa, fb := far(ca, bg), far(cb, bg)
			if fa && fb {
				inter++
			}
			if fa || fb {
				union++
			}
		}
	}
	iou = 1
	if union > 0 {
		iou = float64(inter) / float64(union)
	}
	return 100 * float64(bad) / float64(r.Dx()*r.Dy()), iou
}

// TestParticleFixturesMatchReferenceViewer compares every particle golden
// view with the reference viewer's render of the same fixture, view, time
// and seed (testdata/golden/peer-particles, made with the harness in
// docs/fidelity.md#regenerating-references): the simulation must follow the
// viewer closely enough that under 1% of the pixels differ and the
// silhouettes agree (measured: at most 0.4%).
func TestParticleFixturesMatchReferenceViewer(t *testing.T) {
	refDir := filepath.Join(goldenDir, "peer-particles")
	for _, f := range particleFixtures() {
		path := particleFixturePath(f.name)
		m := loadFixture(t, path)
		for _, fr := range f.frames {
			opt := f.opt
			opt.Time = Ms(fr.time)
			if fr.edit != nil {
				fr.edit(&opt)
			}
			img, _, err := renderAt(m, path, opt)
			if err != nil {
				t.Fatal(err)
			}
			name := "particles_" + f.name + "_" + fr.label + ".png"
			ref := golden.ReadPNG(t, filepath.Join(refDir, name))
			pct, iou := compareRef(ref, img, *background(opt.Background))
			if pct >= 1 || iou < 0.98 {
				t.Errorf("%s: mismatch %.2f%% (want < 1%%), IoU %.3f (want ≥ 0.98)", name, pct, iou)
			}
		}
	}
}

// TestParticlesAgainstReferenceViewer renders a handful of the corpus'
// simulated reference views (../shared/reference/peer-particles) with
// their exact camera, time, step and seed. Each must have IoU ≥ 0.95 and
// under 2% mismatched pixels, and drawing no particles must do clearly
// worse (so the particles are what makes them match).
// scripts/fidelity-particles.sh runs all 44.
func TestParticlesAgainstReferenceViewer(t *testing.T) {
	shared := testshared.Dir(t, "reference/peer/jobs.tsv")
	want := map[string]bool{
		"dbz-tribute-reforged_maps_Tribute_Reforged.w3x_DodonParticle_mdx.t0500.png":     true,
		"warcraft3-icc_ICC.w3x_boneguardrockspike_spell02_mdx.t1500.png":                 true,
		"dbz-tribute-reforged_maps_Tribute_Reforged.w3x_IchigoBBR_mdx.t0500.png":         true,
		"warcraft3-icc_ICC.w3x_Aegis_mdx.t1500.png":                                      true,
		"warcraft3-icc_ICC.w3x_BlessingofMight_Base_mdx.t0500.png":                       true,
		"warcraft3-icc_models_spells_Lady_Deathwisper_Frostbolt_frostbolt_mdl.t1500.png": true,
		"War3ModelView_testmodel_vip14_mdx.t1500.png":                                    true,
	}
	cache := texture.NewCache(0)
	black := color.NRGBA{0, 0, 0, 255}
	for _, j := range peerJobs(t, shared, "peer-particles", want) {
		opt := j.view
		img, _, err := NewAnimator(j.model, j.path, besideModel(j.path, &texture.Resolver{Cache: cache})).Render(opt)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		ref := golden.ReadPNG(t, filepath.Join(shared, "reference", "peer-particles", j.name))
		pct, iou := compareRef(ref, img, black)
		if pct >= 2 || iou < 0.95 {
			t.Errorf("%s: mismatch %.2f%% (want < 2%%), IoU %.3f (want ≥ 0.95)", j.name, pct, iou)
		}
		opt.Particles.Off = true
		bare, _, err := NewAnimator(j.model, j.path, besideModel(j.path, &texture.Resolver{Cache: cache})).Render(opt)
		if err != nil {
			t.Fatal(err)
		}
		bpct, biou := compareRef(ref, bare, black)
		if !(bpct > pct+0.5 || biou < iou-0.05) {
			t.Errorf("%s: without particles mismatch %.2f%%, IoU %.3f: hardly worse than with (%.2f%%, %.3f)", j.name, bpct, biou, pct, iou)
		}
	}
}

// TestParticlesDeterministic renders particle fixtures, the WoW (M2)
// emitter fixtures (and, with ../shared, the corpus' busiest emitter
// model and the M2 login scene with 28 emitters) twice at each of
// GOMAXPROCS 1, 2 and 8 (raster bands then split differently) and wants
// identical PNG bytes every time.
func TestParticlesDeterministic(t *testing.T) {
	type job struct {
		path string
		m    *mdx.Model
		opt  View
	}
	var jobs []job
	for _, name := range []string{"fountain", "tails", "spaces"} {
		path := particleFixturePath(name)
		opt := particleView
		opt.Width, opt.Time, opt.Particles.Preroll = 160, Ms(1300), PrerollAuto
		jobs = append(jobs, job{path, loadFixture(t, path), opt})
	}
	for _, name := range []string{"m2_particles_plane", "m2_particles_sphere", "m2_particles_spline", "m2_ribbon"} {
		path := filepath.Join(modelsDir, name+".m2")
		jobs = append(jobs, job{path, loadFixture(t, path), View{Width: 128, Yaw: 30, Pitch: 20, Time: Ms(1700), Particles: Particles{Seed: 6}}})
	}
	if p := filepath.Join(testshared.Root(), "corpus", "files", "warcraft3-icc", "ICC.w3x", "boneguardrockspike_spell02.mdx"); fileExists(p) {
		jobs = append(jobs, job{p, loadFixture(t, p), View{Width: 200, Yaw: 30, Pitch: 20, Time: Ms(1500), Particles: Particles{Seed: 6}}})
	}
	if p := filepath.Join(testshared.Root(), "corpus", "files", "vanilla-wow-interface-textures", "Interface", "Glues", "Models", "UI_MainMenu", "UI_MainMenu.m2"); fileExists(p) {
		jobs = append(jobs, job{p, loadFixture(t, p), View{Width: 200, Height: 150, Camera: "0", Time: Ms(700), Particles: Particles{Seed: 6}}})
	}
	for _, j := range jobs {
		sameOnAnyCores(t, j.path, j.m, j.path, j.opt, 1, 2, 8, 1, 2, 8)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestAnimatorMatchesFreshRenders: a sheet's frames rendered by one
// Animator (one simulation stepped forward, with a restart when the time
// goes back and separate simulations per yaw) are the same images as
// independent renders.
func TestAnimatorMatchesFreshRenders(t *testing.T) {
	path := particleFixturePath("tails")
	m := loadFixture(t, path)
	anim := NewAnimator(m, path, besideModel(path, nil))
	for _, fr := range []struct{ yaw, time float64 }{{30, 100}, {30, 350}, {120, 200}, {30, 700}, {120, 900}, {30, 200}} {
		opt := particleView
		opt.Yaw, opt.Time = fr.yaw, Ms(fr.time)
		a, _, err := anim.Render(opt)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := renderAt(m, path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Pix, b.Pix) {
			t.Errorf("yaw %v time %v: animator frame differs from a fresh render", fr.yaw, fr.time)
		}
	}
}

// TestParticlesOffAndSeed: Particles false draws exactly what a model
// without emitters draws; another seed moves the particles; a bad step
// is an error.
func TestParticlesOffAndSeed(t *testing.T) {
	path := particleFixturePath("fountain")
	m := loadFixture(t, path)
	opt := particleView
	opt.Time = Ms(600)
	on, _, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Particles.Off = true
	off, _, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	bare := *m
	bare.ParticleEmitters2 = nil
	opt.Particles.Off = false
	none, _, err := renderAt(&bare, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(off.Pix, none.Pix) {
		t.Error("Particles: false differs from the model without emitters")
	}
	if bytes.Equal(on.Pix, off.Pix) {
		t.Error("particles on draws nothing")
	}
	opt.Particles.Seed = 7
	other, _, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(on.Pix, other.Pix) {
		t.Error("seed 7 gives the same picture as seed 6")
	}
	opt.Particles.StepMs = math.NaN()
	if _, _, err := renderAt(m, path, opt); err == nil {
		t.Error("a NaN step renders without error")
	}
}

// Hostile emitter values (NaN and infinite speeds, sizes, lifespans)
// render without a panic or a hang, and a time too far for the
// simulation is an error.
func TestParticlesHostileRender(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	m := fixtureBase("hostile")
	ground(m, 40)
	for i, edit := range []func(e *mdx.ParticleEmitter2){
		func(e *mdx.ParticleEmitter2) { e.Speed, e.Gravity = nan, inf },
		func(e *mdx.ParticleEmitter2) { e.SegmentScaling = mdx.Vec3{inf, nan, 1e30} },
		func(e *mdx.ParticleEmitter2) { e.LifeSpan, e.Time = inf, nan },
		func(e *mdx.ParticleEmitter2) { e.HeadOrTail, e.TailLength, e.Speed = 1, inf, 1e30 },
		func(e *mdx.ParticleEmitter2) { e.EmissionRate, e.Width = 1e9, 1e30 },
	} {
		e := pre2("H")
		edit(&e)
		addPRE2(m, e, 0, mdx.Vec3{float32(i), 0, 5})
	}
	finish(m)
	opt := particleView
	opt.Time = Ms(300)
	if _, _, err := renderAt(m, "hostile.mdl", opt); err != nil {
		t.Fatal(err)
	}
	opt.Time = Ms(1e12)
	if _, _, err := renderAt(m, "hostile.mdl", opt); err == nil {
		t.Error("a 1e12 ms simulation renders without error")
	}
}

// A sheet's cost is one simulation: 24 frames over 2 s through one
// Animator run the 120 steps of 2 s (plus the pre-roll and one dt = 0
// update per frame), not 24 simulations from the start.
func TestAnimatorSimulatesOnce(t *testing.T) {
	path := particleFixturePath("fountain")
	anim := NewAnimator(loadFixture(t, path), path, besideModel(path, nil))
	opt := particleView
	opt.Particles.Preroll = PrerollAuto // 1.2 s lifespan: 72 steps
	for f := 0; f < 24; f++ {
		opt.Time = Ms(float64(f) * 2000 / 23)
		if _, _, err := anim.Render(opt); err != nil {
			t.Fatal(err)
		}
	}
	if len(anim.sims) != 1 {
		t.Fatalf("%d simulations for one sequence and view", len(anim.sims))
	}
	for _, s := range anim.sims {
		if got, want := s.Updates(), 72+120+24; got != want {
			t.Errorf("%d updates, want %d (pre-roll 72 + 120 steps + 24 dt=0)", got, want)
		}
	}
}

// seedOf is the Particles.Seed of a seed number n (0 is ZeroSeed).
func seedOf(n int) uint32 {
	if n == 0 {
		return ZeroSeed
	}
	return uint32(n)
}
