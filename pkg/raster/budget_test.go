package raster

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// storm is n full-screen quads blended over each other, textured: the
// particle storm of the hostile-input corpus, in its rasteriser form.
func storm(n int) []Batch {
	vs, is := fullQuad(0.5)
	var bs []Batch
	for i := 0; i < n; i++ {
		bs = append(bs, Batch{State: twoSided(add), Texture: uvSampler{w: 64, h: 64}, Color: [4]float32{0.01, 0.01, 0.01, 1}, Vertices: vs, Indices: is})
	}
	return bs
}

// TestMaxFragments: the estimate of a full-screen quad is the picture's
// pixels; the bound leaves out the triangles past it, in order, and the
// picture is then exactly that of the triangles kept; a bound that is not
// reached changes nothing.
func TestMaxFragments(t *testing.T) {
	const w, h = 64, 48
	bs := storm(10)
	full := newTarget(t, w, h)
	st, err := full.DrawContext(context.Background(), bs, DrawOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Triangles != 20 || st.Fragments != 20*w*h/2 || st.SkippedTriangles != 0 {
		t.Errorf("unbounded: %+v, want 20 triangles of %d fragments each", st, w*h/2)
	}
	same := newTarget(t, w, h)
	if st2, err := same.DrawContext(context.Background(), bs, DrawOptions{MaxFragments: int64(10 * w * h)}); err != nil || st2 != st {
		t.Errorf("a bound just reached: %+v, %v", st2, err)
	}
	if !slices.Equal(same.Color, full.Color) {
		t.Error("a bound that is not passed changed the picture")
	}

	capped := newTarget(t, w, h)
	st, err = capped.DrawContext(context.Background(), bs, DrawOptions{MaxFragments: int64(3*w*h + w*h/4)})
	if err != nil {
		t.Fatal(err)
	}
	if st.Triangles != 6 || st.SkippedTriangles != 14 || st.Fragments != 3*w*h || st.SkippedFragments != 7*w*h {
		t.Errorf("capped: %+v, want 6 triangles drawn, 14 left out", st)
	}
	first := newTarget(t, w, h)
	draw(t, first, bs[:3]...)
	if !slices.Equal(capped.Color, first.Color) {
		t.Error("the capped picture is not that of the first three quads")
	}
}

// cancelSampler is uvSampler that cancels a context at the first
// fragment it shades and counts the fragments it shades after that.
// Past the cancel it yields at every fragment, so that the goroutine
// context.AfterFunc starts to set the Draw's stop flag runs at once on a
// busy machine, and what is drawn after the cancel is what the stop rule
// lets through, not what the scheduler's delay did.
type cancelSampler struct {
	uvSampler
	cancel context.CancelFunc
	after  *atomic.Int64
	limit  int64 // past this many it stops yielding: the test fails anyway
}

func (s cancelSampler) Sample(u, v, lod float32) [4]float32 {
	s.cancel()
	if s.after.Add(1) <= s.limit {
		runtime.Gosched()
	}
	return s.uvSampler.Sample(u, v, lod)
}

// TestDrawContextCancel: a Draw of seconds of work, cancelled at its
// first fragment, returns ctx's error with any number of workers, having
// drawn after the cancel at most what the stop rule allows, far from the
// whole; a context that is not cancelled gives the picture Draw gives.
func TestDrawContextCancel(t *testing.T) {
	const size = 512
	for _, workers := range []int{1, 2} {
		tg := newTarget(t, size, size)
		ctx, cancel := context.WithCancel(context.Background())
		// After the flag is set a worker finishes the triangle it is on
		// and at most stopEvery more of its band, each at most the whole
		// picture: a bound a hundred times below the storm's 8,000
		// half-picture triangles (1 G fragments).
		limit := int64(workers * (stopEvery + 2) * size * size)
		var after atomic.Int64
		bs := storm(4000)
		for i := range bs {
			bs[i].Texture = cancelSampler{uvSampler: uvSampler{w: 64, h: 64}, cancel: cancel, after: &after, limit: limit}
		}
		_, err := tg.DrawContext(ctx, bs, DrawOptions{Workers: workers})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("workers %d: got %v, want context.Canceled", workers, err)
		}
		if n := after.Load(); n > limit {
			t.Errorf("workers %d: %d fragments shaded after the cancel, want at most %d", workers, n, limit)
		} else {
			t.Logf("workers %d: %d fragments shaded after the cancel", workers, n)
		}
	}
	small := storm(3)
	a, b := newTarget(t, 32, 32), newTarget(t, 32, 32)
	draw(t, a, small...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := b.DrawContext(ctx, small, DrawOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Color, b.Color) || !slices.Equal(a.Depth, b.Depth) {
		t.Error("a live context changed the picture")
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := b.DrawContext(done, small, DrawOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a context done before the call: %v", err)
	}
}

// TestMaxFragmentsLazy: a lazy sampler whose batch MaxFragments leaves
// out whole is not asked for its levels (nothing would sample them),
// while one with triangles kept is.
func TestMaxFragmentsLazy(t *testing.T) {
	const w, h = 64, 48
	var mu sync.Mutex
	var low, n int
	var slack float32
	kept := boundSampler{w: 64, h: 64, mu: &mu, got: new([]LODBound), low: &low, gap: &slack, n: &n}
	cut := boundSampler{w: 64, h: 64, mu: &mu, got: new([]LODBound), low: &low, gap: &slack, n: &n}
	vs, is := fullQuad(0.5)
	for i := range vs {
		vs[i].UV = [2]float32{vs[i].Position[0], vs[i].Position[1]}
	}
	bs := []Batch{
		{State: twoSided(add), Texture: kept, Color: white, Vertices: vs, Indices: is},
		{State: twoSided(add), Texture: cut, Color: white, Vertices: vs, Indices: is},
	}
	st, err := newTarget(t, w, h).DrawContext(context.Background(), bs, DrawOptions{MaxFragments: w * h})
	if err != nil {
		t.Fatal(err)
	}
	if st.Triangles != 2 || st.SkippedTriangles != 2 {
		t.Fatalf("%+v, want the first quad drawn and the second left out", st)
	}
	if len(*kept.got) != 1 || len(*cut.got) != 0 {
		t.Errorf("ForLOD calls: %d for the batch drawn (want 1), %d for the batch left out (want 0)", len(*kept.got), len(*cut.got))
	}
	if low != 0 {
		t.Errorf("%d fragments sampled below their bound", low)
	}
}
