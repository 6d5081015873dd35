package raster

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// clusterScene is a few batches of triangles around one random point of
// the target, a random size, so that what they cover is anything from a
// few pixels to all of it.
func clusterScene(rng *rand.Rand, tex []*Texture) []Batch {
	cx, cy := rng.Float32()*2.4-1.2, rng.Float32()*2.4-1.2
	size := 0.02 + rng.Float32()*rng.Float32()*1.5
	var batches []Batch
	for range 1 + rng.IntN(3) {
		var vs []Vertex
		var idx []uint32
		for k := range 3 * (1 + rng.IntN(6)) {
			v := Vertex{Position: [4]float32{cx + size*(rng.Float32()*2-1), cy + size*(rng.Float32()*2-1), rng.Float32()*1.8 - 0.9, 1},
				UV:     [2]float32{rng.Float32(), rng.Float32()},
				Color:  [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()},
				Normal: [3]float32{0, rng.Float32(), 1}, Light: [3]float32{rng.Float32(), 0, 0.5}}
			vs = append(vs, v)
			idx = append(idx, uint32(k))
		}
		st := randomState(rng.IntN(7), true, rng.IntN(3) == 0)
		st.DepthTest, st.DepthWrite = rng.IntN(4) != 0, rng.IntN(2) == 0
		batches = append(batches, Batch{State: st, Color: [4]float32{1, 0.9, 0.8, 0.7}, Vertices: vs, Indices: idx,
			VertexColor: rng.IntN(2) == 0, Texture: tex[rng.IntN(len(tex))]})
	}
	return batches
}

// TestDrawOnly draws the same random scenes into two targets, one with
// DrawOnly, clearing them between pictures to the same colour or to
// another: their buffers must hold the same bits after every Clear and
// Draw, and Resolve (every supersampling factor, over transparency and
// over a background) must give the same bytes. Some pictures must cover
// part of the target only, or the windows would go untested.
func TestDrawOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tex := []*Texture{mipChecker(64, 8, [4]float32{1, 0.5, 0.2, 1}, [4]float32{0.1, 0.3, 0.9, 0.4}), hullTexture(rng, 32, 32, false, true)}
	partial, cut := 0, 0
	for trial := range 160 {
		// Half the trials draw large triangles, of textures empty in
		// places, into larger targets: rows cut to the octagons.
		hull := trial%2 == 1
		k := 1 + rng.IntN(3)
		w, h := k*(4+rng.IntN(40)), k*(4+rng.IntN(40))
		if hull {
			w, h = k*(40+rng.IntN(80)), k*(40+rng.IntN(80))
			tex = tex[:1]
			for range 2 {
				tw, th := 1<<(2+rng.IntN(7)), 1<<(2+rng.IntN(7))
				tex = append(tex, hullTexture(rng, tw, th, rng.IntN(2) == 0, rng.IntN(2) == 0))
			}
		}
		a, b := newTarget(t, w, h), newTarget(t, w, h)
		a.DrawOnly = true
		same := func(when string) {
			t.Helper()
			if d := bufferDiff(a.Color, b.Color, a.Depth, b.Depth); d != "" {
				t.Fatalf("trial %d, %dx%d, %s: %s", trial, w, h, when, d)
			}
		}
		before := 0
		for round := range 6 {
			var c [4]float32
			if rng.IntN(5) == 0 {
				c = [4]float32{0.2, 0.1, 0, 0.5}
			}
			a.Clear(c)
			b.Clear(c)
			same("after Clear")
			for range rng.IntN(3) {
				bs := clusterScene(rng, tex)
				if hull {
					bs = hullScene(rng, tex[1:])
				}
				draw(t, a, bs...)
				draw(t, b, bs...)
			}
			same("after Draw")
			if r := a.drawn; !r.Empty() && r != image.Rect(0, 0, w, h) {
				partial++
			}
			if n := culled(a); n > before {
				cut, before = cut+1, n
			}
			for _, bg := range []*color.NRGBA{nil, {R: 10, G: 200, B: 30, A: 255}} {
				ia, err := a.Resolve(k, bg)
				if err != nil {
					t.Fatal(err)
				}
				ib, _ := b.Resolve(k, bg)
				if !bytes.Equal(ia.Pix, ib.Pix) {
					t.Fatalf("trial %d round %d, %dx%d ssaa %d, background %v: Resolve differs with DrawOnly", trial, round, w, h, k, bg)
				}
			}
		}
	}
	t.Logf("%d pictures partial, %d cut", partial, cut)
	if partial < 100 || cut < 20 {
		t.Errorf("%d pictures covered part of their target, want 100 or more; %d had rows cut to an octagon, want 20 or more", partial, cut)
	}
}

// TestSharedSetup draws random scenes whose batches include further layers
// of earlier batches' triangles (the same vertex and index slices, other
// states, culling and textures, some with other batches between), once as
// they are and once with every batch given copies of its slices, which
// sets each up afresh: the buffers must hold the same bits. Some layers
// must have taken their set-up from an earlier batch, or the copy would go
// untested.
func TestSharedSetup(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	tex := []*Texture{mipChecker(64, 8, [4]float32{1, 0.5, 0.2, 1}, [4]float32{0.1, 0.3, 0.9, 0.4}), hullTexture(rng, 32, 32, false, true)}
	shared, fresh := newTarget(t, 96, 64), newTarget(t, 96, 64)
	copied := 0
	var bounds []LODBound // what the lazy layers are handed, in order
	for trial := range 300 {
		var batches []Batch
		for range 1 + rng.IntN(3) {
			batches = append(batches, clusterScene(rng, tex)...)
		}
		// Layers of random earlier batches, each at a random place after
		// the batch it repeats.
		for range rng.IntN(6) {
			k := rng.IntN(len(batches))
			l := batches[k]
			l.State = randomState(rng.IntN(7), rng.IntN(2) == 0, rng.IntN(3) == 0)
			l.State.DepthTest, l.State.DepthWrite = rng.IntN(4) != 0, rng.IntN(2) == 0
			l.Texture = nil
			switch rng.IntN(4) {
			case 1, 2:
				l.Texture = tex[rng.IntN(len(tex))]
			case 3:
				l.Texture = &boundLog{Texture: tex[rng.IntN(len(tex))], log: &bounds}
			}
			l.VertexColor = rng.IntN(2) == 0
			at := k + 1 + rng.IntN(len(batches)-k)
			batches = append(batches[:at], append([]Batch{l}, batches[at:]...)...)
		}
		own := make([]Batch, len(batches))
		for i, b := range batches {
			b.Vertices, b.Indices = slices.Clone(b.Vertices), slices.Clone(b.Indices)
			own[i] = b
		}
		for _, tg := range []*Target{shared, fresh} {
			tg.Clear([4]float32{0.2, 0.1, 0, 0.5})
		}
		bounds = bounds[:0]
		if err := shared.Draw(batches, DrawOptions{Workers: 1 + trial%2}); err != nil {
			t.Fatal(err)
		}
		copied += len(batches) - len(shared.setups)
		got := slices.Clone(bounds)
		bounds = bounds[:0]
		if err := fresh.Draw(own, DrawOptions{Workers: 1 + trial%2}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, bounds) {
			t.Fatalf("trial %d: lazy layers were handed %v shared, %v set up afresh", trial, got, bounds)
		}
		if len(fresh.setups) != len(own) {
			t.Fatalf("trial %d: %d batches with their own slices made %d set-ups", trial, len(own), len(fresh.setups))
		}
		for i := range shared.Color {
			if math.Float32bits(shared.Color[i]) != math.Float32bits(fresh.Color[i]) {
				t.Fatalf("trial %d: colour %d is %v shared, %v set up afresh", trial, i, shared.Color[i], fresh.Color[i])
			}
		}
		for i := range shared.Depth {
			if math.Float32bits(shared.Depth[i]) != math.Float32bits(fresh.Depth[i]) {
				t.Fatalf("trial %d: depth %d is %v shared, %v set up afresh", trial, i, shared.Depth[i], fresh.Depth[i])
			}
		}
	}
	if copied < 100 {
		t.Fatalf("only %d batches took an earlier batch's set-up", copied)
	}
	t.Logf("%d batches took an earlier batch's set-up", copied)
}

// boundLog is a *Texture as a LazySampler that logs the bounds it is
// handed.
type boundLog struct {
	*Texture
	log *[]LODBound
}

func (s *boundLog) ForLOD(b LODBound) Sampler {
	*s.log = append(*s.log, b)
	return s.Texture
}
