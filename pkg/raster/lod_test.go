package raster

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// boundSampler is a LazySampler that records the bound Draw hands it and
// checks every λ it is then sampled at against it.
type boundSampler struct {
	w, h int
	mu   *sync.Mutex
	got  *[]LODBound
	low  *int     // samples below the bound
	gap  *float32 // smallest λ − bound seen
	n    *int
}

func (s boundSampler) Width() int  { return s.w }
func (s boundSampler) Height() int { return s.h }
func (s boundSampler) Sample(u, v, lod float32) [4]float32 {
	panic("sampled without ForLOD")
}

func (s boundSampler) ForLOD(b LODBound) Sampler {
	s.mu.Lock()
	*s.got = append(*s.got, b)
	s.mu.Unlock()
	return checkedSampler{s, b.Min(s.w, s.h), b.Level(s.w, s.h)}
}

type checkedSampler struct {
	boundSampler
	bound float32
	level int
}

func (s checkedSampler) Sample(u, v, lod float32) [4]float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	*s.n++
	if lod < s.bound || (lod > 0 && int(lod) < s.level) {
		*s.low++
	}
	if d := lod - s.bound; d < *s.gap {
		*s.gap = d
	}
	return [4]float32{u, v, 1, 1}
}

// boundShader is the same for a Shader, checking Fragment.LOD for
// several texture sizes.
type boundShader struct {
	bound *LODBound
	mu    *sync.Mutex
	low   *int
	n     *int
}

func (s boundShader) Shade(f *Fragment) [4]float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sz := range [][2]int{{1, 1}, {64, 64}, {512, 128}, {32, 2048}} {
		*s.n++
		lod := f.LOD(sz[0], sz[1])
		if lod < s.bound.Min(sz[0], sz[1]) {
			*s.low++
		}
	}
	return [4]float32{1, 1, 1, 1}
}

func (s boundShader) ForLOD(b LODBound) Shader {
	*s.bound = b
	return s
}

// The bound Draw gives a lazy sampler or shader is never above the λ of a
// fragment it then shades, over random perspective triangles (near-plane
// clipping, guard band, tiled and extreme UVs, supersampling biases), and
// is close to the smallest λ actually sampled, so that it saves work.
func TestLODBoundHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	var mu sync.Mutex
	var low, n, tight, batches int
	slack := float32(math.Inf(1))
	for iter := range 400 {
		size := []int{16, 64, 256}[iter%3]
		tg := newTarget(t, size, size)
		tex := boundSampler{w: 1 << rng.IntN(12), h: 1 << rng.IntN(12), mu: &mu, got: new([]LODBound), low: &low, gap: &slack, n: &n}
		var vs []Vertex
		var idx []uint32
		scale := float32(math.Pow(10, rng.Float64()*4-2)) // UV spans from 0.01 to 100
		off := float32(rng.NormFloat64() * 50)
		// One scene in four without perspective (one w for every vertex),
		// as an orthographic camera or a camera-facing quad has it.
		affine := iter%4 == 3
		wAll := float32(0.2 + rng.Float64()*5)
		for k := range 3 * (1 + rng.IntN(6)) {
			w := float32(0.2 + rng.Float64()*5)
			if affine {
				w = wAll
			} else if rng.IntN(8) == 0 {
				w = -w // behind the eye: clipped
			}
			v := Vertex{Position: [4]float32{
				float32(rng.NormFloat64()) * w, float32(rng.NormFloat64()) * w, float32(rng.Float64()*2-1) * w, w}}
			v.UV = [2]float32{off + scale*float32(rng.Float64()), off + scale*float32(rng.Float64())}
			vs = append(vs, v)
			idx = append(idx, uint32(k))
		}
		bias := []float32{0, 1, 2}[rng.IntN(3)]
		var sb LODBound
		var shLow, shN int
		sh := boundShader{bound: &sb, mu: &mu, low: &shLow, n: &shN}
		err := tg.Draw([]Batch{
			{State: twoSided(replace), Texture: tex, Color: white, Vertices: vs, Indices: idx},
			{State: twoSided(over), Shader: sh, Color: white, Vertices: vs, Indices: idx},
		}, DrawOptions{LODBias: bias, Workers: 1 + iter%2})
		if err != nil {
			t.Fatal(err)
		}
		low += shLow
		n += shN
		if len(*tex.got) > 0 {
			batches++
			b := (*tex.got)[0]
			if l := b.Min(tex.w, tex.h); l > -100 && !math.IsInf(float64(l), 0) {
				tight++
			}
		}
	}
	if low != 0 {
		t.Errorf("%d of %d samples below the bound", low, n)
	}
	if n < 10000 || batches < 200 {
		t.Errorf("only %d samples in %d batches: the scenes draw too little", n, batches)
	}
	// Most batches get a finite bound: it is not −Inf for safety's sake.
	if tight < batches*2/3 {
		t.Errorf("only %d of %d batches got a finite bound", tight, batches)
	}
	t.Logf("%d samples, %d batches (%d with a finite bound); closest λ above its bound by %g", n, batches, tight, slack)
}

// A batch without a triangle on screen does not ask for its levels.
func TestLazySamplerUnusedNotPrepared(t *testing.T) {
	var mu sync.Mutex
	var low, n int
	var slack float32
	tex := boundSampler{w: 64, h: 64, mu: &mu, got: new([]LODBound), low: &low, gap: &slack, n: &n}
	vs := []Vertex{ndc(2.5, 2.5, 0), ndc(3, 2.5, 0), ndc(3, 3, 0)} // off-screen
	draw(t, newTarget(t, 16, 16), Batch{State: replace, Texture: tex, Color: white, Vertices: vs, Indices: []uint32{0, 1, 2}})
	if len(*tex.got) != 0 {
		t.Errorf("ForLOD called for a batch with nothing to draw: %v", *tex.got)
	}
}

// settledSampler is a boundSampler that reports itself settled.
type settledSampler struct{ boundSampler }

func (s settledSampler) Settled() bool { return true }

// A settled sampler gets the zero bound (level 0) without Draw working it
// out; the same sampler unsettled gets a bound that spares levels.
func TestSettledSamplerGetsNoBound(t *testing.T) {
	var mu sync.Mutex
	var low, n int
	var slack float32
	// A quad over the whole target, UVs 0..1: a 256² texture on 16²
	// pixels is read at λ 4.
	vs, is := fullQuad(0)
	for i := range vs {
		vs[i].UV = [2]float32{vs[i].Position[0]*0.5 + 0.5, vs[i].Position[1]*0.5 + 0.5}
	}
	bs := boundSampler{w: 256, h: 256, mu: &mu, got: new([]LODBound), low: &low, gap: &slack, n: &n}
	draw(t, newTarget(t, 16, 16), Batch{State: replace, Texture: bs, Color: white, Vertices: vs, Indices: is})
	draw(t, newTarget(t, 16, 16), Batch{State: replace, Texture: settledSampler{bs}, Color: white, Vertices: vs, Indices: is})
	got := *bs.got
	if len(got) != 2 {
		t.Fatalf("ForLOD called %d times, want 2", len(got))
	}
	if l := got[0].Level(256, 256); l != 3 && l != 4 {
		t.Errorf("unsettled: bound at level %d (%+v), want 3 or 4", l, got[0])
	}
	if got[1].rho2 != 0 || got[1].Level(256, 256) != 0 {
		t.Errorf("settled: bound %+v, want none (level 0)", got[1])
	}
	if low != 0 || n != 2*16*16 {
		t.Errorf("%d of %d samples below the bound", low, n)
	}
}
