package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// storm is the hostile corpus' pre2_200_short at a small scale: PRE2
// emitters at the largest rate whose particles live a second, each quad
// covering the whole picture.
func storm(t *testing.T, emitters int) *mdx.Model {
	t.Helper()
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("storm", hostile.Emitters{PRE2: emitters, Rate: 3.4e38, Life: 1}), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRenderSizeBudget: a picture of more samples than MaxRenderPixels is
// refused before anything is allocated, naming the size, the SSAA and the
// budget.
func TestRenderSizeBudget(t *testing.T) {
	a := NewAnimator(cubeModel(), "cube.mdx", Textures{})
	start := time.Now()
	_, _, err := a.Render(View{Width: 8192, SSAA: 2})
	var be *budget.Error
	if !errors.As(err, &be) || be.Limit != budget.RenderPixels || be.Value != 16384*16384 || be.Max != budget.RenderPixels.Default() {
		t.Fatalf("got %v, want a render_pixels *budget.Error", err)
	}
	for _, want := range []string{"cube.mdx", "size 8192x8192 at ssaa 2", "16384x16384 samples", "render_pixels limit of 16Mi"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing took %v", d)
	}
	// The budget counts samples: at a budget of 64×64, 32 at ssaa 2 draws
	// and 33 does not.
	a.Meter = budget.NewMeter(budget.Limits{RenderPixels: 64 * 64})
	if _, _, err := a.Render(View{Width: 32, SSAA: 2}); err != nil {
		t.Errorf("at the budget: %v", err)
	}
	if _, _, err := a.Render(View{Width: 33, SSAA: 2}); !errors.As(err, &be) || be.Value != 66*66 || be.Max != 64*64 {
		t.Errorf("over a lowered budget: %v", err)
	}
	a.Meter = budget.NewMeter(budget.Limits{RenderPixels: 16384 * 16384})
	if err := a.checkSize(8192, 8192, 2); err != nil {
		t.Errorf("raised budget: %v", err)
	}
}

// TestOverdrawCapsPicture: a storm whose quads would cover the picture
// thousands of times is drawn with the triangles past MaxOverdraw left
// out, and a CappedPicture warning; the geometry drawn first is there.
func TestOverdrawCapsPicture(t *testing.T) {
	a := NewAnimator(storm(t, 20), "storm.mdl", Textures{})
	// A close camera: framed to fit, the spread-out quads cover the
	// picture only tens of times.
	v := View{Width: 64, Time: Ms(500), Distance: 60, Target: &fauxgl.Vector{}}
	start := time.Now()
	img, warns, err := a.Render(v)
	if err != nil {
		t.Fatal(err)
	}
	var capped string
	for _, w := range warns {
		if w.Code == CappedPicture {
			capped = w.Message
		}
	}
	if capped == "" || !strings.Contains(capped, "overdraw limit of 512") {
		t.Errorf("no CappedPicture warning naming the budget: %v", warns)
	}
	if st := a.stats; st.SkippedTriangles == 0 || st.Fragments > 512*64*64 {
		t.Errorf("stats %+v: want triangles left out, at most 512 × 4096 fragments drawn", st)
	}
	if img.Pix[3] == 0 {
		t.Error("nothing drawn")
	}
	t.Logf("%v; %s", time.Since(start), capped)

	// Raised, the budget lets every triangle through.
	a.Meter = budget.NewMeter(budget.Limits{Overdraw: 1 << 20})
	if _, warns, err := a.Render(v); err != nil || hasCode(warns, CappedPicture) {
		t.Errorf("raised budget: %v %v", err, warns)
	}
}

func hasCode(ws []Warning, c WarningCode) bool {
	for _, w := range ws {
		if w.Code == c {
			return true
		}
	}
	return false
}

// TestRenderCancel: a heavy storm (a long simulation, then drawing),
// cancelled after a few milliseconds, returns ctx's error promptly; so
// does a render whose deadline passes while it draws.
func TestRenderCancel(t *testing.T) {
	m := storm(t, 50)
	for _, c := range []struct {
		name string
		lim  budget.Limits
		v    View
	}{
		// Seconds of simulation (about 8 s at a load of 9 on two cores): a
		// long pre-roll of 100,000 particles.
		{"simulating", budget.Limits{Particles: 100_000, SimulationWork: 1 << 40}, View{Width: 64, Time: Ms(500), Particles: Particles{Preroll: 60_000}}},
		// Seconds of drawing (about 30 s): no overdraw budget, a large
		// picture.
		{"drawing", budget.Limits{Overdraw: 1 << 30}, View{Width: 1024, Time: Ms(100)}},
	} {
		a := NewAnimator(m, "storm.mdl", Textures{})
		a.Meter = budget.NewMeter(c.lim)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		start := time.Now()
		_, _, err := a.RenderContext(ctx, c.v)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: got %v, want context.DeadlineExceeded", c.name, err)
		}
		// A bound far below the uncancelled work, yet loose enough for a
		// loaded machine: cancellation must cut seconds to a fraction.
		if took > time.Second {
			t.Errorf("%s: returned after %v, deadline 5ms", c.name, took)
		}
		t.Logf("%s: returned after %v", c.name, took)
	}
}

// TestRenderCancelWhileDecoding: a render waiting for a texture that
// takes a second to decode returns ctx's error when its deadline passes;
// the decode goes on into the cache, and a later render uses it.
func TestRenderCancelWhileDecoding(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.png"), hostile.PNG(4096, 4096, 8, hostile.PNGRGBA), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mdx.DecodeMDL(hostile.MDLTextured("big.png"), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(m, filepath.Join(dir, "quad.mdl"), Textures{Local: []texture.Source{texture.Folder(dir)}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = a.RenderContext(ctx, View{Width: 32})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || took > 500*time.Millisecond {
		t.Errorf("got %v after %v, want context.DeadlineExceeded at once", err, took)
	}
	t.Logf("returned after %v", took)
	if _, warns, err := a.Render(View{Width: 32}); err != nil || len(warns) > 1 {
		t.Errorf("the render after: %v %v", err, warns)
	}
}

// TestParticleCapWarnedNow: a live-count budget reached while advancing to
// this frame is reported with this frame, not the next.
func TestParticleCapWarnedNow(t *testing.T) {
	a := NewAnimator(storm(t, 2), "storm.mdl", Textures{})
	a.Meter = budget.NewMeter(budget.Limits{Particles: 10})
	_, warns, err := a.Render(View{Width: 32, Time: Ms(100), Particles: Particles{Preroll: NoPreroll}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range warns {
		found = found || (w.Code == ParticleProblem && strings.Contains(w.Message, "the particles limit"))
	}
	if !found {
		t.Errorf("no particles-limit warning with the frame that reached it: %v", warns)
	}
}

// TestMessagesBounded: a model whose texture path and sequence name are
// 100 KB each gets warnings of at most a few KB.
func TestMessagesBounded(t *testing.T) {
	m, err := mdx.DecodeMDL(hostile.MDLTextured(strings.Repeat("a", 100_000)+".blp"), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m.Sequences[0].Name = strings.Repeat("S", 100_000)
	_, warns, err := NewAnimator(m, "long.mdl", Textures{}).Render(View{Width: 16})
	if err != nil || len(warns) == 0 {
		t.Fatalf("%v %v", err, warns)
	}
	for _, w := range warns {
		// Quoted values say their length, names shown unquoted how much
		// of them was left out.
		if len(w.Message) > 3000 || !strings.Contains(w.Message, "(100004 bytes)") && !strings.Contains(w.Message, "(99920 more bytes)") {
			t.Errorf("%s warning of %d bytes: %.300s", w.Code, len(w.Message), w.Message)
		}
	}
	if _, _, err := NewAnimator(m, "long.mdl", Textures{}).Render(View{Sequence: SequenceAt(3)}); err == nil || len(err.Error()) > 300 {
		t.Errorf("sequence error of %d bytes", len(err.Error()))
	}
}

// TestSpawnedModelQuotas: the models PREM emitters spawn are decoded
// within the model's geometry limits too.
func TestSpawnedModelQuotas(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "spawned.mdl"), hostile.MDLSpawned(300), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mdx.DecodeMDL(hostile.MDLEmitters("prem", hostile.Emitters{PREM: 1, Rate: 10, Life: 1, SpawnPath: "spawned.mdl"}), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tex := Textures{Local: []texture.Source{texture.Folder(dir)}}
	a := NewAnimator(m, filepath.Join(dir, "prem.mdl"), tex)
	a.Meter = budget.NewMeter(budget.Limits{Vertices: 299})
	_, warns, err := a.Render(View{Width: 16, Time: Ms(500)})
	if err != nil || !hasCode(warns, ParticleProblem) || !strings.Contains(fmt.Sprint(warns), "more than 299 vertices") {
		t.Errorf("spawned model over MaxVertices: %v %v", err, warns)
	}
	a = NewAnimator(m, filepath.Join(dir, "prem.mdl"), tex)
	if _, warns, err := a.Render(View{Width: 16, Time: Ms(500)}); err != nil || strings.Contains(fmt.Sprint(warns), "vertices") {
		t.Errorf("within the defaults: %v %v", err, warns)
	}
}

// TestDrawWorkBoundsRuns: a run of frames of a heavy model (the shape of
// a sprite sheet of a model at the geometry limits with many sequences)
// is refused once its drawing work passes draw_work, before the frame that
// would pass it is drawn; within the limit every frame is drawn.
func TestDrawWorkBoundsRuns(t *testing.T) {
	m, err := mdx.DecodeMDL(hostile.WithSequences(hostile.MDLGeometry(4000, 8000), 8), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var frames []Frame
	for s := range 8 {
		for k := range 8 {
			frames = append(frames, Frame{Sequence: s, Time: float64(k) * 10})
		}
	}
	// Each frame poses and sets up 4,000 vertices and 8,000 triangles
	// twice (framing, drawing): 24,000 units, and 32² samples.
	a := NewAnimator(m, "heavy.mdl", Textures{})
	a.Meter = budget.NewMeter(budget.Limits{DrawWork: 10 * 24_000})
	_, _, err = a.RenderFrames(context.Background(), View{Width: 32}, frames)
	var be *budget.Error
	if !errors.As(err, &be) || be.Limit != budget.DrawWork {
		t.Fatalf("got %v, want a draw_work *budget.Error", err)
	}
	if used := a.Meter.Used(budget.DrawWork); used > 10*24_000 {
		t.Errorf("%d units spent past the limit", used)
	}
	a = NewAnimator(m, "heavy.mdl", Textures{})
	a.Meter = budget.NewMeter(budget.Limits{DrawWork: 64 * 30_000})
	if pics, _, err := a.RenderFrames(context.Background(), View{Width: 32}, frames); err != nil || len(pics) != 64 {
		t.Errorf("within the limit: %d pictures, %v", len(pics), err)
	}
}
