package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/allocs"
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
	var err error
	grew := allocs.Bytes(func() { _, _, err = a.Render(View{Width: 8192, SSAA: 2}) })
	var be *budget.Error
	if !errors.As(err, &be) || be.Limit != budget.RenderPixels || be.Value != 16384*16384 || be.Max != budget.RenderPixels.Default() {
		t.Fatalf("got %v, want a render_pixels *budget.Error", err)
	}
	for _, want := range []string{"cube.mdx", "size 8192x8192 at ssaa 2", "16384x16384 samples", "render_pixels limit of 16Mi"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	// The frame would be 4 GiB of samples.
	if grew > 1<<20 {
		t.Errorf("refusing allocated %d bytes", grew)
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

// endingCtx is a context whose end (context.Canceled) a test places
// rather than the clock: done is closed once, and Err reports the end
// without looking at anything else.
type endingCtx struct {
	context.Context
	once sync.Once
	done chan struct{}
}

func newEndingCtx() endingCtx {
	return endingCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *endingCtx) Done() <-chan struct{} { return c.done }

func (c *endingCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// workCtx is an endingCtx that ends at the first look at its Done channel
// once meter has been charged work of kind k: a cancel that lands while
// that work runs, placed by the work done.
type workCtx struct {
	endingCtx
	meter  *budget.Meter
	k      budget.Kind
	usedAt int64 // what the meter had of k when the context ended
}

func newWorkCtx(meter *budget.Meter, k budget.Kind) *workCtx {
	return &workCtx{endingCtx: newEndingCtx(), meter: meter, k: k}
}

func (c *workCtx) Done() <-chan struct{} {
	if used := c.meter.Used(c.k); used > 0 {
		c.once.Do(func() { c.usedAt = used; close(c.done) })
	}
	return c.done
}

// drawCtx is an endingCtx that ends when a Draw starts watching it: the
// rasteriser registers its stop flag with context.AfterFunc, which hands
// the registration to a context that has an AfterFunc method. The cancel
// so lands after every earlier look at the context, in the draw.
type drawCtx struct {
	endingCtx
}

func (c *drawCtx) AfterFunc(f func()) func() bool {
	c.once.Do(func() { close(c.done) })
	go f()
	return func() bool { return false }
}

// TestRenderCancel: a heavy storm (a long simulation, then drawing)
// cancelled while it simulates, or once it draws, returns ctx's error,
// and the simulation stops at the step the cancel lands before: it
// charges no more work after the cancel than the step before it did,
// where the whole pre-roll is 3,600 steps. (pkg/raster's
// TestDrawContextCancel counts what a cancelled Draw still draws.)
func TestRenderCancel(t *testing.T) {
	m := storm(t, 50)
	// Seconds of simulation: a long pre-roll of 100,000 particles.
	lim := budget.Limits{Particles: 100_000, SimulationWork: 1 << 40}
	a := NewAnimator(m, "storm.mdl", Textures{})
	a.Meter = budget.NewMeter(lim)
	ctx := newWorkCtx(a.Meter, budget.SimulationWork)
	_, _, err := a.RenderContext(ctx, View{Width: 64, Time: Ms(500), Particles: Particles{Preroll: 60_000}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("simulating: got %v, want context.Canceled", err)
	}
	if used := a.Meter.Used(budget.SimulationWork); ctx.usedAt == 0 || used > 2*ctx.usedAt {
		t.Errorf("simulating: %d units of work charged, %d of them before the cancel", used, ctx.usedAt)
	}

	// Seconds of drawing: no overdraw budget, a large picture.
	a = NewAnimator(m, "storm.mdl", Textures{})
	a.Meter = budget.NewMeter(budget.Limits{Overdraw: 1 << 30})
	dc := &drawCtx{newEndingCtx()}
	if _, _, err := a.RenderContext(dc, View{Width: 1024, Time: Ms(100)}); !errors.Is(err, context.Canceled) {
		t.Errorf("drawing: got %v, want context.Canceled", err)
	}
}

// gateFS is an fs.FS whose file reads wait for release, after saying on
// reading that one has started.
type gateFS struct {
	fstest.MapFS
	reading chan struct{}
	once    sync.Once
	release chan struct{}
}

func (g *gateFS) Open(name string) (fs.File, error) {
	f, err := g.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return gateFile{f, g}, nil
}

// ReadFile reads through Open, so that no reader passes the gate.
func (g *gateFS) ReadFile(name string) ([]byte, error) {
	f, err := g.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

type gateFile struct {
	fs.File
	g *gateFS
}

func (f gateFile) Read(p []byte) (int, error) {
	f.g.once.Do(func() { close(f.g.reading) })
	<-f.g.release
	return f.File.Read(p)
}

// TestRenderCancelWhileDecoding: a render waiting for a texture load
// that does not end by itself (its file's reads wait for the test)
// returns ctx's error when ctx is cancelled; the load goes on into the
// cache once released, and a later render uses it.
func TestRenderCancelWhileDecoding(t *testing.T) {
	g := &gateFS{MapFS: fstest.MapFS{"big.png": {Data: hostile.PNG(256, 256, 8, hostile.PNGRGBA)}},
		reading: make(chan struct{}), release: make(chan struct{})}
	var release sync.Once
	defer release.Do(func() { close(g.release) })
	// Hang guard: a render that kept waiting for the load would end
	// (with a picture, and fail below) once the read goes on; a render
	// that stops waiting never meets it.
	guard := time.AfterFunc(5*time.Minute, func() { release.Do(func() { close(g.release) }) })
	defer guard.Stop()
	m, err := mdx.DecodeMDL(hostile.MDLTextured("big.png"), budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(m, "quad.mdl", Textures{Local: []texture.Source{texture.FSSource("gate", g, "")}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-g.reading
		cancel()
	}()
	if _, _, err := a.RenderContext(ctx, View{Width: 32}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	release.Do(func() { close(g.release) })
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
