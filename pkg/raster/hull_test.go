package raster

import (
	"math"
	"math/rand/v2"
	"testing"
)

// hullLevel is a w×h level whose texels are random inside a random shape
// (a disc, a box, a few dots, everything or nothing) and empty outside
// it, in a way picked per level: zero alpha, zero colour, or both.
func hullLevel(rng *rand.Rand, w, h int) Level {
	pad := rng.IntN(2) * 4
	l := Level{Width: w, Height: h, Stride: 4*w + pad, Pix: make([]uint8, (4*w+pad)*h)}
	kind, empty := rng.IntN(6), rng.IntN(3)
	cx, cy := rng.Float64()*float64(w), rng.Float64()*float64(h)
	r := (0.1 + rng.Float64()*0.6) * float64(max(w, h))
	x0, x1 := rng.IntN(w), rng.IntN(w)
	y0, y1 := rng.IntN(h), rng.IntN(h)
	for y := range h {
		for x := range w {
			var in bool
			switch kind {
			case 0, 1:
				dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
				in = dx*dx+dy*dy < r*r
			case 2:
				in = x >= min(x0, x1) && x <= max(x0, x1) && y >= min(y0, y1) && y <= max(y0, y1)
			case 3:
				in = rng.IntN(w*h) < 2
			case 4:
				in = true
			}
			p := l.Pix[y*l.Stride+4*x:][:4]
			for i := range p {
				p[i] = uint8(1 + rng.IntN(255))
			}
			if rng.IntN(8) == 0 {
				p[rng.IntN(4)] = 0 // a channel may be 0 inside too
			}
			if !in {
				switch empty {
				case 0:
					p[3] = 0
				case 1:
					p[0], p[1], p[2] = 0, 0, 0
				default:
					clear(p)
				}
			}
		}
	}
	return l
}

// hullTexture is a w×h texture with a whole chain of hullLevels, each
// empty somewhere else, some left without texels.
func hullTexture(rng *rand.Rand, w, h int, repU, repV bool) *Texture {
	t := &Texture{W: w, H: h, RepeatU: repU, RepeatV: repV}
	for {
		l := hullLevel(rng, w, h)
		if rng.IntN(12) == 0 {
			l.Pix = nil
		}
		t.Levels = append(t.Levels, l)
		if w == 1 && h == 1 {
			return t
		}
		w, h = max(w/2, 1), max(h/2, 1)
	}
}

// TestHullHoldsSamples samples random levels at random points, many of
// them on texel edges and centres, and checks that every sample with a
// non-zero alpha lies in the level's alpha octagon and every sample with
// a colour in its colour octagon.
func TestHullHoldsSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	checked := 0
	for round := range 400 {
		w, h := 1+rng.IntN(40), 1+rng.IntN(40)
		if round%3 == 0 {
			w, h = 1<<rng.IntN(6), 1<<rng.IntN(6)
		}
		tex := &Texture{W: w, H: h, RepeatU: rng.IntN(2) == 0, RepeatV: rng.IntN(2) == 0, Levels: []Level{hullLevel(rng, w, h)}}
		// Level 0 of a texture of another size, so that the diagonals
		// are converted as a level's of a chain are.
		w0, h0 := float64(w), float64(h)
		if rng.IntN(2) == 0 {
			k := float64(int(1) << rng.IntN(3))
			w0, h0 = w0*k, h0*k
			if rng.IntN(3) == 0 {
				w0 *= 2
			}
		}
		l := tex.mipLevel(0)
		hl := hullOf(&l, w0, h0)
		for range 3000 {
			coord := func(n int, rep bool) float32 {
				lo, hi := -0.6, 1.6
				if rep {
					lo, hi = 0, 1
				}
				if rng.IntN(3) == 0 {
					// On a texel edge or centre, or just beside one.
					c := float64(rng.IntN(2*n+3)-1) / float64(2*n)
					c += float64(rng.IntN(3)-1) * 1e-7
					return float32(min(max(c, lo), hi))
				}
				return float32(lo + rng.Float64()*(hi-lo))
			}
			u, v := coord(w, tex.RepeatU), coord(h, tex.RepeatV)
			r, g, b, a := l.bilinear(u, v)
			f := [4]float64{float64(u), float64(v), float64(u)*w0 + float64(v)*h0, float64(u)*w0 - float64(v)*h0}
			inside := func(o *octagon) bool {
				for d := range 4 {
					// The float32 texel position rounds; 1e-5 of a
					// texel is far above that.
					m := 1e-5 * (1 + math.Abs(f[d]))
					if !(f[d] >= o.lo[d]-m && f[d] <= o.hi[d]+m) {
						return false
					}
				}
				return true
			}
			if a != 0 {
				checked++
				if !inside(&hl.alpha) {
					t.Fatalf("round %d (%d×%d, repeat %v %v, level 0 %v×%v): sample at (%v, %v) has alpha %v outside %+v", round, w, h, tex.RepeatU, tex.RepeatV, w0, h0, u, v, a, hl.alpha)
				}
			}
			if r != 0 || g != 0 || b != 0 {
				if !inside(&hl.rgb) {
					t.Fatalf("round %d (%d×%d, repeat %v %v, level 0 %v×%v): sample at (%v, %v) has colour %v %v %v outside %+v", round, w, h, tex.RepeatU, tex.RepeatV, w0, h0, u, v, r, g, b, hl.rgb)
				}
			}
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d samples with alpha", checked)
	}
}

// hullScene is a few batches of large triangles textured with hullTexture,
// in perspective, in the states that can leave fragments out and some
// that cannot, with colours that are sometimes not finite.
func hullScene(rng *rand.Rand, tex []*Texture) []Batch {
	var batches []Batch
	for range 1 + rng.IntN(3) {
		var vs []Vertex
		var idx []uint32
		uvLo, uvHi := float32(0), float32(1)
		if rng.IntN(4) == 0 {
			uvLo, uvHi = -0.3, 1.3
		}
		for k := range 3 * (1 + rng.IntN(5)) {
			ww := 0.3 + rng.Float32()*2.5
			v := Vertex{Position: [4]float32{(rng.Float32()*2.4 - 1.2) * ww, (rng.Float32()*2.4 - 1.2) * ww, (rng.Float32()*1.8 - 0.9) * ww, ww},
				UV:     [2]float32{uvLo + rng.Float32()*(uvHi-uvLo), uvLo + rng.Float32()*(uvHi-uvLo)},
				Color:  [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()},
				Normal: [3]float32{0, rng.Float32(), 1}, Light: [3]float32{rng.Float32(), 0, 0.5}}
			if rng.IntN(8) == 0 {
				v.Color[rng.IntN(4)] = []float32{float32(math.NaN()), float32(math.Inf(1)), 1e30}[rng.IntN(3)]
			}
			if rng.IntN(40) == 0 {
				v.Normal[0] = float32(math.NaN())
			}
			vs = append(vs, v)
			idx = append(idx, uint32(k))
		}
		st := randomState(rng.IntN(7), true, rng.IntN(3) == 0)
		st.DepthTest, st.DepthWrite = rng.IntN(3) != 0, rng.IntN(3) == 0
		if rng.IntN(3) == 0 {
			st.AlphaTest, st.AlphaRef = true, []float32{0, 0.004, 0.5, float32(math.NaN())}[rng.IntN(4)]
		}
		c := [4]float32{1, 0.9, 0.8, 0.7}
		if rng.IntN(30) == 0 {
			c[rng.IntN(4)] = float32(math.NaN())
		}
		batches = append(batches, Batch{State: st, Color: c, Vertices: vs, Indices: idx, VertexColor: rng.IntN(2) == 0,
			Texture: tex[rng.IntN(len(tex))]})
	}
	return batches
}

// culled sums the triangles and rows the octagons left out in t's draws.
func culled(t *Target) int {
	n := 0
	for _, s := range t.spans {
		n += s.culled
	}
	return n
}

// TestHullScenes draws random scenes of large triangles with textures
// that are empty in places, with the octagons and without, and compares
// the colour and depth buffers bit for bit. The octagons must leave out
// something, or the test would pass without testing them.
func TestHullScenes(t *testing.T) {
	defer func() { useHulls = true }()
	rng := rand.New(rand.NewPCG(33, 34))
	left := 0
	for scene := range 400 {
		var tex []*Texture
		for range 2 {
			w, h := 1<<(2+rng.IntN(7)), 1<<(2+rng.IntN(7))
			if rng.IntN(4) == 0 {
				w, h = 3+rng.IntN(60), 3+rng.IntN(60)
			}
			tex = append(tex, hullTexture(rng, w, h, rng.IntN(2) == 0, rng.IntN(2) == 0))
		}
		batches := hullScene(rng, tex)
		w, h := 40+rng.IntN(120), 40+rng.IntN(120)
		opt := DrawOptions{Workers: 1 + rng.IntN(3)}
		if rng.IntN(3) == 0 {
			opt.LODBias = rng.Float32()*5 - 1
		}
		bg := [4]float32{0.1, 0.2, 0.3, rng.Float32()}
		var out [2]*Target
		for k, on := range []bool{true, false} {
			useHulls = on
			tg := newTarget(t, w, h)
			tg.Clear(bg)
			if err := tg.Draw(batches, opt); err != nil {
				t.Fatal(err)
			}
			out[k] = tg
		}
		if d := bufferDiff(out[0].Color, out[1].Color, out[0].Depth, out[1].Depth); d != "" {
			t.Fatalf("scene %d (%d×%d): %s", scene, w, h, d)
		}
		left += culled(out[0])
		if c := culled(out[1]); c != 0 {
			t.Fatalf("scene %d: %d left out with the octagons off", scene, c)
		}
	}
	if left < 500 {
		t.Fatalf("the octagons left out %d triangles and rows in all", left)
	}
	t.Logf("%d triangles and rows left out", left)
}

// FuzzHullScene draws a scene read from the input with the octagons and
// without and compares the buffers: bytes 0-3 and the vertices from byte
// 5 on are read as FuzzVecScene reads them (fuzzScene), with larger
// targets so that triangles are large enough to be cut, and byte 4 picks
// the texture and the level-of-detail bias.
func FuzzHullScene(f *testing.F) {
	rng := rand.New(rand.NewPCG(35, 36))
	for s := range 4 {
		// Add, Over, an alpha test with a depth write, and Add lit: each
		// can leave fragments out.
		seed := []byte{byte(60 + s*23), byte(50 + s*17), []byte{3 + 7*20, 2 + 7*10, 1 + 7*30, 4 + 7*5}[s],
			[]byte{0x00, 0x24, 0x1c, 0x06}[s], byte(s * 70)}
		f.Add(seedVertices(seed, rng, 3*(1+s), true))
	}
	trng := rand.New(rand.NewPCG(37, 38))
	var texs []*Texture
	for k := range 8 {
		texs = append(texs, hullTexture(trng, 4<<(k%4), 32>>(k%3), k&1 != 0, k&2 != 0))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 5+48 {
			return
		}
		w, h := 16+int(in[0]%128), 16+int(in[1]%128)
		st, vs, idx := fuzzScene(in, 5, true)
		b := Batch{State: st, Color: [4]float32{1, 0.7, 0.4, 0.9}, Vertices: vs, Indices: idx, VertexColor: in[3]&32 != 0,
			Texture: texs[in[4]%8]}
		opt := DrawOptions{Workers: 1, LODBias: float32(int(in[4]>>3)-8) / 4}
		defer func() { useHulls = true }()
		out, ok := fuzzDraw(t, in, w, h, b, opt, func(on bool) { useHulls = on }, [2]bool{true, false})
		if !ok {
			return
		}
		if d := bufferDiff(out[0].Color, out[1].Color, out[0].Depth, out[1].Depth); d != "" {
			t.Fatal(d)
		}
	})
}
