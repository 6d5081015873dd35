package raster

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomTexture is a w×h texture of random texels with its whole mip chain
// (each level random too: the kernel must read the level it is told).
func randomTexture(rng *rand.Rand, w, h int, repU, repV bool) *Texture {
	t := &Texture{W: w, H: h, RepeatU: repU, RepeatV: repV}
	for {
		pad := rng.IntN(3) * 4
		l := Level{Width: w, Height: h, Stride: 4*w + pad, Pix: make([]uint8, (4*w+pad)*h)}
		for i := range l.Pix {
			l.Pix[i] = uint8(rng.Uint32())
		}
		t.Levels = append(t.Levels, l)
		if w == 1 && h == 1 {
			return t
		}
		w, h = max(w/2, 1), max(h/2, 1)
	}
}

// vecCoord is a texture coordinate or level of detail for the tests: mostly
// ordinary values, sometimes the ones at the edges of the arithmetic.
func vecCoord(rng *rand.Rand, spread float32) float32 {
	switch rng.IntN(40) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1 - 2*rng.IntN(2)))
	case 2:
		return (rng.Float32() - 0.5) * 1e12
	case 3:
		return float32(rng.IntN(9)-4) / 8 // on texel edges and centres
	case 4:
		return float32(math.Copysign(0, float64(rng.IntN(2))-0.5))
	}
	return (rng.Float32() - 0.5) * spread
}

// vecGroups fills n fragments in groups of eight that mostly read one
// level, as a span does, and sometimes several.
func vecGroups(rng *rand.Rand, n, levels int) (u, v, lod []float32) {
	u, v, lod = make([]float32, n), make([]float32, n), make([]float32, n)
	for g := 0; g < n; g += 8 {
		base := (rng.Float32()*1.2 - 0.1) * float32(levels)
		// Most groups' λ lie within a level; some spread over two or
		// three, as a triangle seen nearly edge-on's do.
		spread := float32(0.3)
		if rng.IntN(4) == 0 {
			spread = 2.5
		}
		for i := g; i < min(g+8, n); i++ {
			u[i], v[i] = vecCoord(rng, 6), vecCoord(rng, 6)
			lod[i] = base + rng.Float32()*spread
			if rng.IntN(30) == 0 {
				lod[i] = vecCoord(rng, 4*float32(levels))
			}
		}
	}
	return u, v, lod
}

// sampleBoth runs sampleMul with the kernel and the Go loop on the same
// input and returns both results (r, g, b, a concatenated) and the number
// of groups the kernel took. The kernel runs twice, gathering texels and
// reading every level small enough as quads, and must give the same bits
// and take the same groups both ways.
func sampleBoth(t *testing.T, tex *Texture, u, v, lod []float32) (vec, ref []float32, took int) {
	t.Helper()
	var byQuads [2][]float32
	var tookBy [2]int
	for k, quads := range []int{0, 64} {
		byQuads[k], ref, tookBy[k] = sampleWith(t, tex, u, v, lod, quads)
	}
	if !slicesBitEqual(byQuads[0], byQuads[1]) || tookBy[0] != tookBy[1] {
		t.Fatalf("%d×%d texture, repeat %v %v: the kernel gives other bits (or takes %d groups, not %d) reading quads",
			tex.W, tex.H, tex.RepeatU, tex.RepeatV, tookBy[1], tookBy[0])
	}
	return byQuads[0], ref, tookBy[0]
}

// sampleWith is sampleBoth with quads for the first quads held levels.
func sampleWith(t *testing.T, tex *Texture, u, v, lod []float32, quads int) (vec, ref []float32, took int) {
	t.Helper()
	tg := &Target{}
	m := tg.prepareTexture(tex)
	if !tg.prepareVec(&m) {
		t.Fatalf("the kernel does not take a %d×%d texture, repeat %v %v", tex.W, tex.H, tex.RepeatU, tex.RepeatV)
	}
	tg.prepareQuads(&m, quads)
	n := len(u)
	col := func() []float32 {
		c := make([]float32, 4*n)
		for i := range c {
			c[i] = float32(i%7+1) / 7
		}
		return c
	}
	vec, ref = col(), col()
	m.sampleMul(u, v, lod, vec[:n], vec[n:2*n], vec[2*n:3*n], vec[3*n:], nil, false)
	m.sampleMulGo(u, v, lod, ref[:n], ref[n:2*n], ref[2*n:3*n], ref[3*n:])
	vt := m.vt
	vt.levels = &m.vec[0]
	scratch := slices.Clone(vec)
	for i := 0; i+8 <= n; i += 8 {
		a := smArgs{t: &vt, u: &u[i], v: &v[i], lod: &lod[i], r: &scratch[i], g: &scratch[n+i], b: &scratch[2*n+i], a: &scratch[3*n+i], n: 1}
		if sampleMulN(&a) == 1 {
			took++
		}
	}
	// One colour for all, given to sampleMul instead of written into the
	// arrays (which hold NaN, to show if they are read): the bits of
	// filling them with it first. Every array has room for a last group
	// of eight, so the kernel takes that group too.
	c := [4]float32{0.3, 0.6, 0.9, 0.45}
	roomy := func(x []float32) []float32 { return append(make([]float32, 0, len(x)+8), x...) }
	uc, vc, lc := roomy(u), roomy(v), roomy(lod)
	var byC, filled [4][]float32
	for ch := range 4 {
		byC[ch], filled[ch] = make([]float32, n, n+8), make([]float32, n)
		for i := range n {
			byC[ch][i], filled[ch][i] = float32(math.NaN()), c[ch]
		}
	}
	m.sampleMul(uc, vc, lc, byC[0], byC[1], byC[2], byC[3], &c, false)
	m.sampleMulGo(u, v, lod, filled[0], filled[1], filled[2], filled[3])
	for ch := range 4 {
		for i := range n {
			if !sameBits(byC[ch][i], filled[ch][i]) {
				t.Fatalf("fragment %d channel %d: with the colour given %v, with it filled in %v", i, ch, byC[ch][i], filled[ch][i])
			}
		}
	}
	// With lod0 every λ is 0, and the kernel reads level 0 without
	// looking at them.
	zero := make([]float32, n)
	l0, l0ref := col(), col()
	m.sampleMul(u, v, zero, l0[:n], l0[n:2*n], l0[2*n:3*n], l0[3*n:], nil, true)
	m.sampleMulGo(u, v, zero, l0ref[:n], l0ref[n:2*n], l0ref[2*n:3*n], l0ref[3*n:])
	if !slicesBitEqual(l0, l0ref) {
		t.Fatalf("%d×%d texture, repeat %v %v: with lod0 the kernel gives other bits", tex.W, tex.H, tex.RepeatU, tex.RepeatV)
	}
	return vec, ref, took
}

// TestVecSample checks that the vector kernel gives the Go loop's bits on
// textures of every addressing it takes, power-of-two and other sizes,
// padded rows, and coordinates and levels of detail of every kind.
func TestVecSample(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := [][2]int{{1, 1}, {2, 1}, {1, 8}, {4, 4}, {64, 32}, {256, 256}, {16, 128}}
	took := 0
	for _, sz := range sizes {
		for _, rep := range [][2]bool{{false, false}, {true, true}, {true, false}, {false, true}} {
			tex := randomTexture(rng, sz[0], sz[1], rep[0], rep[1])
			u, v, lod := vecGroups(rng, 8*200+5, len(tex.Levels))
			vec, ref, k := sampleBoth(t, tex, u, v, lod)
			took += k
			for i := range vec {
				if !sameBits(vec[i], ref[i]) {
					f := i % len(u)
					t.Fatalf("%d×%d repeat %v: fragment %d (u %v, v %v, lod %v) channel %d: kernel %v, Go %v",
						sz[0], sz[1], rep, f, u[f], v[f], lod[f], i/len(u), vec[i], ref[i])
				}
			}
		}
	}
	// Not a test of speed, but the comparison above means nothing if the
	// kernel turned every group down.
	if took < 1000 {
		t.Fatalf("the kernel took %d groups of eight only", took)
	}
	// Clamped sides that are not powers of two.
	tex := randomTexture(rng, 48, 20, false, false)
	u, v, lod := vecGroups(rng, 8*100, len(tex.Levels))
	vec, ref, _ := sampleBoth(t, tex, u, v, lod)
	if !slicesBitEqual(vec, ref) {
		t.Fatal("48×20 clamped texture: kernel and Go loop differ")
	}
}

// slicesBitEqual reports whether a and b hold the same float32 bits, where
// any two NaNs count as equal: which NaN an operation on two NaNs returns
// depends on the order of its operands, which Go does not fix, and no NaN
// reaches a picture (clamp01 makes it 0, mipPick level 0, and a NaN
// coordinate samples white).
func slicesBitEqual(a, b []float32) bool {
	for i := range a {
		if !sameBits(a[i], b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// bufferDiff describes the first difference between two colour and depth
// buffers, (c0, d0) and (c1, d1), drawn two ways (with the kernels and
// without, say), or returns "": colours must have the same bits, depths
// too (any two NaNs alike).
func bufferDiff(c0, c1, d0, d1 []float32) string {
	for i := range c0 {
		if math.Float32bits(c0[i]) != math.Float32bits(c1[i]) {
			return fmt.Sprintf("colour %d is %v against %v", i, c0[i], c1[i])
		}
	}
	if !slicesBitEqual(d0, d1) {
		return "the depth buffers differ"
	}
	return ""
}

// TestVecEmptyLevels checks textures with levels left empty, as a lazily
// decoded texture has its levels finer than the bound (and, here, one in
// the middle of the chain): the kernel takes the groups that read held
// levels only, and every fragment has the Go loop's bits, white from an
// empty level included. A group whose lanes start on two neighbouring
// levels, lo and lo+1, reads lo, lo+1 and lo+2 (when there is one); on
// three, lo to lo+3.
func TestVecEmptyLevels(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, empty := range [][]int{{0}, {0, 1, 2}, {3}, {1, 4}} {
		tex := randomTexture(rng, 64, 32, true, false)
		for _, l := range empty {
			tex.Levels[l].Pix = nil
		}
		u, v, lod := vecGroups(rng, 8*400, len(tex.Levels))
		vec, ref, took := sampleBoth(t, tex, u, v, lod)
		if !slicesBitEqual(vec, ref) {
			t.Fatalf("levels %v empty: kernel and Go loop differ", empty)
		}
		// The groups that read held levels, and only those, are the
		// kernel's.
		held := func(l int) bool { return !slices.Contains(empty, l) }
		want := 0
		n := len(tex.Levels)
		for g := 0; g+8 <= len(u); g += 8 {
			lo, hi, second := n, -1, false
			for _, l := range lod[g : g+8] {
				a, b, _ := mipPick(n, l)
				lo, hi, second = min(lo, a), max(hi, a), second || b >= 0
			}
			switch {
			case lo == hi && held(lo) && (!second || held(lo+1)):
				want++
			case hi == lo+1 && held(lo) && held(lo+1) && (lo+2 >= n || held(lo+2)):
				want++
			case hi == lo+2 && held(lo) && held(lo+1) && held(lo+2) && (lo+3 >= n || held(lo+3)):
				want++
			}
		}
		if took != want || took == 0 {
			t.Fatalf("levels %v empty: the kernel took %d groups, %d read held levels only", empty, took, want)
		}
	}
}

// TestVecTurnsDown checks the textures the kernel must leave to the Go loop.
func TestVecTurnsDown(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, tex := range map[string]*Texture{
		"repeat over 48 texels": randomTexture(rng, 48, 16, true, true),
		"repeat over 20 rows":   randomTexture(rng, 16, 20, false, true),
		"no level with texels": func() *Texture {
			tx := randomTexture(rng, 16, 16, true, true)
			for i := range tx.Levels {
				tx.Levels[i].Pix = nil
			}
			return tx
		}(),
		"no levels": {W: 4, H: 4},
	} {
		tg := &Target{}
		m := tg.prepareTexture(tex)
		if tg.prepareVec(&m) || m.vec != nil {
			t.Errorf("%s: the kernel takes it", name)
		}
	}
}

// TestVecFrames checks whole frames: the benchmark's unit scene, drawn with
// and without the kernel, has the same bits at ssaa 1 and 4.
func TestVecFrames(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	for _, ssaa := range []int{1, 4} {
		var frames [2][]float32
		for k, on := range []bool{true, false} {
			haveVec = on
			tg, batches := unitScene(t, 128, ssaa)
			tg.Clear([4]float32{})
			if err := tg.Draw(batches, DrawOptions{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			frames[k] = tg.Color
		}
		haveVec = true
		if !slicesBitEqual(frames[0], frames[1]) {
			t.Fatalf("ssaa %d: the frame differs with the kernel", ssaa)
		}
	}
}

// FuzzVecSample compares the kernel with the Go loop on a texture and eight
// fragments read from the input: the texture's size and addressing, then
// u, v and lod of each fragment as raw float32 bits, so NaNs, infinities,
// huge values and the edges of levels all come up.
func FuzzVecSample(f *testing.F) {
	if !haveVec {
		f.Skip("no vector kernel on this build or CPU")
	}
	f.Add([]byte{2, 3, 1}, make([]byte, 96))
	seed := make([]byte, 96)
	for i := range 8 {
		for j, x := range []float32{0.3 + 0.01*float32(i), 0.7, 1.5 + 0.05*float32(i)} {
			b := math.Float32bits(x)
			seed[12*i+4*j], seed[12*i+4*j+1], seed[12*i+4*j+2], seed[12*i+4*j+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
		}
	}
	f.Add([]byte{5, 4, 2}, seed)
	f.Fuzz(func(t *testing.T, shape, frags []byte) {
		if len(shape) < 3 || len(frags) < 96 {
			return
		}
		// Sides of 1 to 128 texels, powers of two when they repeat.
		w, h := int(shape[0]%8), int(shape[1]%8)
		repU, repV := shape[2]&1 != 0, shape[2]&2 != 0
		sw, sh := 1<<w, 1<<h
		if !repU && shape[2]&4 != 0 {
			sw += int(shape[0] >> 3)
		}
		if !repV && shape[2]&8 != 0 {
			sh += int(shape[1] >> 3)
		}
		tex := randomTexture(rand.New(rand.NewPCG(uint64(shape[0]), uint64(shape[1]))), sw, sh, repU, repV)
		var u, v, lod [8]float32
		for i := range 8 {
			for j, p := range []*float32{&u[i], &v[i], &lod[i]} {
				o := 12*i + 4*j
				*p = math.Float32frombits(uint32(frags[o]) | uint32(frags[o+1])<<8 | uint32(frags[o+2])<<16 | uint32(frags[o+3])<<24)
			}
		}
		vec, ref, _ := sampleBoth(t, tex, u[:], v[:], lod[:])
		if !slicesBitEqual(vec, ref) {
			t.Fatalf("%d×%d repeat %v %v, u %v v %v lod %v: kernel %v, Go %v", sw, sh, repU, repV, u, v, lod, vec, ref)
		}
	})
}

// vecValue is a random attribute or weight, sometimes one of the values at
// the edges of the arithmetic (NaN, infinities, signed zeros, huge).
func vecValue(rng *rand.Rand) float32 {
	switch rng.IntN(30) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1 - 2*rng.IntN(2)))
	case 2:
		return float32(math.Copysign(0, float64(rng.IntN(2))-0.5))
	case 3:
		return (rng.Float32() - 0.5) * 1e30
	}
	return (rng.Float32() - 0.5) * 4
}

// TestVecPasses checks the texture-coordinate, lookup and blend kernels
// through shadeSpan: random triangles, weights and ambient terms,
// specials included, give the same colours, coordinates and levels of
// detail, and the same colour buffer, with the kernels as without.
func TestVecPasses(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	defer func() { haveVec = true }()
	rng := rand.New(rand.NewPCG(5, 6))
	tex := randomTexture(rng, 32, 32, true, true)
	for round := range 2000 {
		n := 1 + rng.IntN(shadeBatch)
		var tr tri
		for k := range tr.attr {
			for j := range tr.attr[k] {
				tr.attr[k][j] = vecValue(rng)
			}
		}
		for j := range 2 {
			tr.du[j], tr.dv[j], tr.dq[j] = vecValue(rng), vecValue(rng), vecValue(rng)
		}
		amb := vecValue(rng)
		lodBias := float32(rng.IntN(5)-2) / 2
		st := State{Lit: rng.IntN(4) != 0, Ambient: amb, Blend: BlendOp(rng.IntN(5)),
			AlphaTest: rng.IntN(2) == 0, AlphaRef: vecValue(rng), DepthWrite: rng.IntN(2) == 0}
		// A target as draws leave one: colours in 0..1, some −0.
		bg := make([]float32, 16*16*4)
		for i := range bg {
			bg[i] = rng.Float32()
			if rng.IntN(20) == 0 {
				bg[i] = float32(math.Copysign(0, -1))
			}
		}
		// Distinct pixels, as a triangle's fragments are: in any order, or
		// (half the rounds) ascending in runs with gaps, as rasterTri's
		// rows give them and blend4 takes four at a time.
		pix := rng.Perm(256)[:n]
		if round%2 == 0 {
			pix = pix[:0]
			for p := rng.IntN(8); len(pix) < n && p < 256; p++ {
				if rng.IntN(12) == 0 {
					p += rng.IntN(3)
				}
				if p < 256 {
					pix = append(pix, p)
				}
			}
			n = len(pix)
		}
		var out [2]struct {
			sp           *spanBuf
			color, depth []float32
		}
		for k, on := range []bool{true, false} {
			haveVec = on
			tg, err := NewTarget(16, 16)
			if err != nil {
				t.Fatal(err)
			}
			copy(tg.Color, bg)
			tg.mips = append(tg.mips[:0], tg.prepareTexture(tex))
			tg.prepareVec(&tg.mips[0])
			b := batchInfo{st: st, tex: tex, texW: 32, texH: 32, color: [4]float32{1, 0.5, 0.25, 1}, mip: 1}
			sp := new(spanBuf)
			sp.grow(n + 8) // as rasterTri leaves room for a last group of eight
			r := rand.New(rand.NewPCG(uint64(round), 7))
			for i, p := range pix {
				sp.pix[i] = int32(p)
				sp.p0[i], sp.p1[i], sp.p2[i], sp.iq[i] = vecValue(r), vecValue(r), vecValue(r), vecValue(r)
			}
			for i := range n {
				sp.z[i] = r.Float32()
			}
			tg.shadeSpan(&tr, &b, n, lodBias, sp)
			out[k].sp, out[k].color, out[k].depth = sp, tg.Color, tg.Depth
		}
		a, b := out[0].sp, out[1].sp
		for name, pair := range map[string][2][]float32{"u": {a.u, b.u}, "v": {a.v, b.v}, "lod": {a.lod, b.lod},
			"r": {a.r, b.r}, "g": {a.g, b.g}, "b": {a.b, b.b}, "a": {a.a, b.a}} {
			if !slicesBitEqual(pair[0][:n], pair[1][:n]) {
				for i := range n {
					if !sameBits(pair[0][i], pair[1][i]) {
						t.Fatalf("round %d, %s of fragment %d of %d: %v with the kernels, %v without (p %v %v %v, iq %v, ambient %v)",
							round, name, i, n, pair[0][i], pair[1][i], a.p0[i], a.p1[i], a.p2[i], a.iq[i], amb)
					}
				}
			}
		}
		if d := bufferDiff(out[0].color, out[1].color, out[0].depth, out[1].depth); d != "" {
			t.Fatalf("round %d (%+v): %s", round, st, d)
		}
	}
}

// TestVecRandomScenes draws random scenes (triangles crossing the edges of
// the target and its near plane, at random depths and w, in every test
// state, textured or not) with and without the kernels and compares the
// colour and depth buffers bit for bit: pass1x8's depth tests, weights and
// compaction included.
func TestVecRandomScenes(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	defer func() { haveVec = true }()
	rng := rand.New(rand.NewPCG(7, 8))
	tex := randomTexture(rng, 64, 64, true, false)
	for scene := range 150 {
		w, h := 8+rng.IntN(90), 8+rng.IntN(90)
		var batches []Batch
		for range 1 + rng.IntN(4) {
			var vs []Vertex
			var idx []uint32
			for k := range 3 * (1 + rng.IntN(12)) {
				ww := 0.2 + rng.Float32()*3
				v := Vertex{Position: [4]float32{(rng.Float32()*3 - 1.5) * ww, (rng.Float32()*3 - 1.5) * ww, (rng.Float32()*2.2 - 1.1) * ww, ww},
					UV: [2]float32{rng.Float32()*4 - 2, rng.Float32()*4 - 2}, Color: [4]float32{1, rng.Float32(), 1, rng.Float32()},
					Normal: [3]float32{0, 0, 1}, Light: [3]float32{rng.Float32(), 0, 0.5}}
				vs = append(vs, v)
				idx = append(idx, uint32(k))
			}
			st := randomState(rng.IntN(7), rng.IntN(2) == 0, rng.IntN(2) == 0)
			st.DepthTest, st.DepthWrite = rng.IntN(4) != 0, rng.IntN(3) != 0
			b := Batch{State: st, Color: [4]float32{1, 1, 1, 0.8}, Vertices: vs, Indices: idx, VertexColor: rng.IntN(2) == 0}
			if rng.IntN(3) != 0 {
				b.Texture = tex
			}
			batches = append(batches, b)
		}
		var out [2]*Target
		for k, on := range []bool{true, false} {
			haveVec = on
			tg := newTarget(t, w, h)
			tg.Clear([4]float32{0.1, 0.2, 0.3, 1})
			if err := tg.Draw(batches, DrawOptions{Workers: 1 + rng.IntN(3)}); err != nil {
				t.Fatal(err)
			}
			out[k] = tg
		}
		if d := bufferDiff(out[0].Color, out[1].Color, out[0].Depth, out[1].Depth); d != "" {
			t.Fatalf("scene %d (%d×%d): %s", scene, w, h, d)
		}
	}
}

// TestVecResolve compares Resolve with and without its kernels on
// random buffers (specials included), supersampling factors 1 to 5, over
// transparency and over a colour.
func TestVecResolve(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	defer func() { haveVec = true }()
	rng := rand.New(rand.NewPCG(9, 10))
	for round := range 60 {
		k := 1 + round%5
		w, h := k*(1+rng.IntN(20)), k*(1+rng.IntN(20))
		if k == 1 {
			w = 1 + rng.IntN(100)
		}
		tg := newTarget(t, w, h)
		for i := range tg.Color {
			tg.Color[i] = rng.Float32()*1.3 - 0.1
			if rng.IntN(10) == 0 {
				tg.Color[i] = vecValue(rng)
			}
		}
		// Never-drawn pixels (all +0, which the kernel skips), alone and
		// in runs of up to 40, some with a −0 channel (which it must not).
		for p := 0; p < len(tg.Color)/4; p++ {
			if rng.IntN(3) == 0 {
				run := 1
				if rng.IntN(4) == 0 {
					run = rng.IntN(40)
				}
				for ; run > 0 && p < len(tg.Color)/4; run, p = run-1, p+1 {
					clear(tg.Color[4*p : 4*p+4])
					if rng.IntN(30) == 0 {
						tg.Color[4*p+rng.IntN(4)] = float32(math.Copysign(0, -1))
					}
				}
			}
		}
		var bg *color.NRGBA
		if round%2 == 1 {
			bg = &color.NRGBA{R: 10, G: 200, B: 77, A: 255}
		}
		var out [2][]uint8
		for j, on := range []bool{true, false} {
			haveVec = on
			img, err := tg.Resolve(k, bg)
			if err != nil {
				t.Fatal(err)
			}
			out[j] = img.Pix
		}
		if !slices.Equal(out[0], out[1]) {
			t.Fatalf("round %d (k %d, %d×%d, bg %v): Resolve differs with the kernel", round, k, w, h, bg)
		}
	}
	// One drawn pixel in a row of never-drawn ones, at every place in
	// the kernel's groups of eight and in the pairs after the last.
	for w := 2; w <= 22; w++ {
		for x := range w {
			tg := newTarget(t, w, 1)
			tg.Color[4*x], tg.Color[4*x+3] = 0.25, 0.5
			haveVec = true
			img, err := tg.Resolve(1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Pix[4*x : 4*x+4]; !slices.Equal(got, []uint8{128, 0, 0, 128}) {
				t.Fatalf("%d pixels, drawn at %d: resolved to %v", w, x, got)
			}
		}
	}
}

// FuzzVecScene draws a scene read from the input with and without the
// kernels and compares the colour and depth buffers: the first bytes pick
// the target size and each triangle's state, the rest are vertex positions
// (as raw float32 bits, so NaNs, infinities and huge values come up),
// texture coordinates and colours. Without the kernels it still checks
// that such geometry draws without a panic.
func FuzzVecScene(f *testing.F) {
	// Seeds: scenes of on-screen triangles, which the mutator then bends.
	rng := rand.New(rand.NewPCG(13, 14))
	for s := range 4 {
		seed := []byte{byte(20 + s*13), byte(30 + s*7), byte(s), byte(s * 45)}
		f.Add(seedVertices(seed, rng, 3*(2+s*3), false))
	}
	tex := randomTexture(rand.New(rand.NewPCG(11, 12)), 32, 16, true, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 4+48 {
			return
		}
		w, h := 4+int(in[0]%64), 4+int(in[1]%64)
		st, vs, idx := fuzzScene(in, 4, in[3]&1 != 0)
		b := Batch{State: st, Color: [4]float32{1, 0.7, 0.4, 0.9}, Vertices: vs, Indices: idx, VertexColor: in[3]&32 != 0}
		if in[3]&64 != 0 {
			b.Texture = tex
		}
		// Without the kernels (another build or CPU) this still draws
		// hostile geometry, which must not panic.
		vec := haveVec
		defer func() { haveVec = vec }()
		out, ok := fuzzDraw(t, in, w, h, b, DrawOptions{Workers: 1}, func(on bool) { haveVec = on }, [2]bool{vec, false})
		if !ok {
			return
		}
		if d := bufferDiff(out[0].Color, out[1].Color, out[0].Depth, out[1].Depth); d != "" {
			t.Fatal(d)
		}
		// The same buffers resolve to the same bytes over transparency
		// with the kernel and without.
		var pix [2][]uint8
		for k, on := range []bool{vec, false} {
			haveVec = on
			img, err := out[0].Resolve(1, nil)
			if err != nil {
				t.Fatal(err)
			}
			pix[k] = img.Pix
		}
		if !slices.Equal(pix[0], pix[1]) {
			t.Fatal("Resolve differs with the kernel")
		}
	})
}

// fuzzScene reads a fuzz input's state and triangles: in[2] and in[3]
// pick the state (twoSide aside), and from in[from] on every 48 bytes are
// a vertex (position, texture coordinates, two colour channels, a normal
// and a light direction, as raw float32 bits).
func fuzzScene(in []byte, from int, twoSide bool) (State, []Vertex, []uint32) {
	st := randomState(int(in[2]), twoSide, in[3]&2 != 0)
	st.DepthTest, st.DepthWrite, st.AlphaTest = in[3]&4 != 0, in[3]&8 != 0, in[3]&16 != 0
	st.AlphaRef = float32(in[2]) / 255
	f32 := func(b []byte) float32 {
		return math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	}
	var vs []Vertex
	for p := in[from:]; len(p) >= 48; p = p[48:] {
		vs = append(vs, Vertex{
			Position: [4]float32{f32(p[0:]), f32(p[4:]), f32(p[8:]), f32(p[12:])},
			UV:       [2]float32{f32(p[16:]), f32(p[20:])},
			Color:    [4]float32{f32(p[24:]), 1, f32(p[28:]), 0.5},
			Normal:   [3]float32{f32(p[32:]), 0, 1},
			Light:    [3]float32{f32(p[36:]), f32(p[40:]), f32(p[44:])},
		})
	}
	idx := make([]uint32, len(vs)/3*3)
	for i := range idx {
		idx[i] = uint32(i)
	}
	return st, vs, idx
}

// seedVertices appends n vertices of an on-screen scene to seed, as
// fuzzScene reads them; uv01 keeps their texture coordinates and first
// colour channels in 0..1.
func seedVertices(seed []byte, rng *rand.Rand, n int, uv01 bool) []byte {
	for range n {
		for j := range 12 {
			x := rng.Float32()*3 - 1.5
			switch {
			case j == 2:
				x = rng.Float32()*1.8 - 0.9
			case j == 3:
				x = 0.5 + rng.Float32()
			case uv01 && j >= 4 && j < 8:
				x = rng.Float32()
			}
			b := math.Float32bits(x)
			seed = append(seed, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
		}
	}
	return seed
}

// fuzzDraw draws b twice over itself on new w×h targets, cleared to a
// colour unless in[3] has its top bit set (transparent black, as NewTarget
// leaves them), calling set(modes[k]) before the k-th; false when Draw
// refuses the batch.
func fuzzDraw(t *testing.T, in []byte, w, h int, b Batch, opt DrawOptions, set func(bool), modes [2]bool) ([2]*Target, bool) {
	var out [2]*Target
	for k, on := range modes {
		set(on)
		tg, err := NewTarget(w, h)
		if err != nil {
			t.Fatal(err)
		}
		if in[3]&128 == 0 {
			tg.Clear([4]float32{0.25, 0.5, 0.75, 1})
		}
		if err := tg.Draw([]Batch{b, b}, opt); err != nil {
			return out, false
		}
		out[k] = tg
	}
	return out, true
}

// TestVecLOD0Scenes draws scenes whose textures are magnified and
// minified about equally (λ around 0) with the kernels, which leave λ out
// for triangles whose bound says they sample level 0 alone, and with the
// Go loop, which computes every fragment's λ: the pictures must be the
// same bits. Each level of the texture is random, so a fragment sampled
// at level 0 alone where it should have blended in level 1 shows.
func TestVecLOD0Scenes(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	defer func() { haveVec = true }()
	rng := rand.New(rand.NewPCG(11, 12))
	took, near := 0, 0
	for scene := range 300 {
		tw := 1 << (3 + rng.IntN(5))
		tex := randomTexture(rng, tw, tw, rng.IntN(2) == 0, rng.IntN(2) == 0)
		w, h := 40+rng.IntN(160), 40+rng.IntN(160)
		// A UV span of about the picture's size in texels, give or take
		// a factor of four: λ from about −2 to 2.
		span := float32(w) / float32(tw) * float32(math.Pow(2, rng.Float64()*4-2))
		var vs []Vertex
		var idx []uint32
		for k := range 3 * (4 + rng.IntN(8)) {
			ww := 0.5 + rng.Float32()*2
			v := Vertex{Position: [4]float32{(rng.Float32()*2.4 - 1.2) * ww, (rng.Float32()*2.4 - 1.2) * ww, (rng.Float32()*1.8 - 0.9) * ww, ww},
				UV: [2]float32{rng.Float32() * span, rng.Float32() * span}}
			vs = append(vs, v)
			idx = append(idx, uint32(k))
		}
		st := randomState(rng.IntN(7), true, false)
		batches := []Batch{{State: st, Color: [4]float32{1, 1, 1, 0.8}, Vertices: vs, Indices: idx, Texture: tex}}
		bias := []float32{0, 0, 0.5, -0.7}[rng.IntN(4)]
		var out [2]*Target
		for k, on := range []bool{true, false} {
			haveVec = on
			tg := newTarget(t, w, h)
			tg.Clear([4]float32{0.1, 0.2, 0.3, 1})
			if err := tg.Draw(batches, DrawOptions{Workers: 1, LODBias: bias}); err != nil {
				t.Fatal(err)
			}
			out[k] = tg
		}
		if d := bufferDiff(out[0].Color, out[1].Color, out[0].Depth, out[1].Depth); d != "" {
			t.Fatalf("scene %d (%d×%d, %d² texture, UV span %g, bias %g): %s", scene, w, h, tw, span, bias, d)
		}
		for i := range out[0].tris {
			tr := &out[0].tris[i]
			if (int(tr.maxX)-int(tr.minX)+1)*(int(tr.maxY)-int(tr.minY)+1) < lod0Area {
				continue
			}
			switch l := triLODMax(tr, float64(tw), float64(tw)) + float64(bias); {
			case l < -lodMargin:
				took++
			case l < 1:
				near++ // blends level 1 in somewhere, or the bound is loose
			}
		}
	}
	// The comparison means nothing unless many triangles left λ out, and
	// many did not, close to the line.
	if took < 100 || near < 100 {
		t.Fatalf("%d triangles sampled level 0 alone by the bound, %d within a level of it", took, near)
	}
	t.Logf("%d triangles sampled level 0 alone by the bound, %d within a level of it", took, near)
}

// BenchmarkVecSample measures the texture lookup of shadeSpan's pass 3
// alone, spans of 128 fragments with one colour for all, as a glow layer
// (a 32² texture magnified, read as quads) and a textured body (a 256²
// texture minified, trilinear, read as texel pairs) have them, and the
// body where λ crosses 1 inside half the groups.
func BenchmarkVecSample(b *testing.B) {
	for _, bc := range []struct {
		name        string
		size        int
		scale, lod0 float32
	}{
		{"magnified", 32, 1.0 / 200, -2},
		{"trilinear", 256, 1.0 / 150, 0.2},
		{"crossing", 256, 1.0 / 150, 0.95},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tex := mipChecker(bc.size, 8, [4]float32{0.9, 0.8, 0.6, 1}, [4]float32{0.3, 0.4, 0.7, 0.5})
			tg := &Target{}
			m := tg.prepareTexture(tex)
			if tg.prepareVec(&m) {
				tg.prepareQuads(&m, quadLevels)
			}
			const n = 128
			u, v, lod := make([]float32, n, n+8), make([]float32, n, n+8), make([]float32, n, n+8)
			for i := range n {
				// A span of 16 by 8 pixels at an angle to the texels.
				x, y := float32(i%16), float32(i/16)
				u[i], v[i] = 0.3+(x*0.9+y*0.3)*bc.scale, 0.2+(y*0.9-x*0.2)*bc.scale
				lod[i] = bc.lod0 + float32(i%16)*0.01
			}
			var ch [4][]float32
			for k := range ch {
				ch[k] = make([]float32, n, n+8)
			}
			c := [4]float32{1, 0.5, 0.2, 0.3}
			b.ResetTimer()
			for range b.N {
				m.sampleMul(u, v, lod, ch[0], ch[1], ch[2], ch[3], &c, false)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n/8), "ns/group")
		})
	}
}

// TestPass1Narrow runs pass1x8 on random triangles whose edge values lie
// on either side of the int32 bound, on random spans inside their
// bounding boxes: the int32 path (where setupPass1 takes it) and the
// int64 path must append the fragments the Go loop finds, bit for bit.
func TestPass1Narrow(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	const W = 512
	depth := make([]float32, W)
	type out struct {
		pix               []int32
		z, iq, p0, p1, p2 []float32
	}
	mk := func() out {
		const n = W + 8
		return out{make([]int32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)}
	}
	res := [3]out{mk(), mk(), mk()}
	narrow := 0
	for trial := range 20000 {
		var tr tri
		// Edge values reach about |a|·256·width: widths and slopes such
		// that the largest straddles 2³¹.
		tr.minX = int32(rng.IntN(W / 2))
		tr.maxX = tr.minX + int32(rng.IntN(W/2))
		ys := rng.IntN(1000)
		ye := ys + rng.IntN(200)
		span := int64(tr.maxX-tr.minX+1) + int64(ye-ys+1)
		lim := int64(1)<<31/(subOne*span) + 1
		for k := range tr.e {
			a, b := rng.Int64N(3*lim)-3*lim/2, rng.Int64N(3*lim)-3*lim/2
			// The edge passes through a random point of the box.
			px := (int64(tr.minX)+rng.Int64N(span))*subOne + rng.Int64N(subOne)
			py := (int64(ys)+rng.Int64N(span))*subOne + rng.Int64N(subOne)
			tr.e[k] = edge{a: a, b: b, c: -a*px - b*py}
		}
		tr.invArea = rng.Float32() * 1e-6
		tr.z = [3]float32{rng.Float32(), rng.Float32(), rng.Float32()}
		tr.q = [3]float32{rng.Float32() + 0.1, rng.Float32() + 0.1, rng.Float32() + 0.1}
		for i := range depth {
			depth[i] = rng.Float32() * 2e5
		}
		depthTest := rng.IntN(4) != 0
		var pa p1Args
		if !setupPass1(&pa, &tr, ys, ye, depthTest) {
			continue
		}
		if pa.narrow == 1 {
			narrow++
		}
		y := ys + rng.IntN(ye-ys+1)
		xl := int64(tr.minX) + rng.Int64N(int64(tr.maxX-tr.minX)+1)
		xr := xl + rng.Int64N(int64(tr.maxX)-xl+1)
		py := int64(y)*subOne + subOne/2
		pxl := xl*subOne + subOne/2
		e0, e1, e2 := tr.e[0], tr.e[1], tr.e[2]
		w0, w1, w2 := e0.a*pxl+e0.b*py+e0.c, e1.a*pxl+e1.b*py+e1.c, e2.a*pxl+e2.b*py+e2.c
		var n [3]int
		for k := range 2 {
			if k == 1 {
				pa.setEdges(&tr, false)
			}
			o := &res[k]
			pa.x, pa.xr, pa.w0, pa.w1, pa.w2 = xl, xr, w0, w1, w2
			pa.row, pa.pixBase = &depth[0], int64(y*W)
			pa.pix, pa.zs, pa.iq = &o.pix[0], &o.z[0], &o.iq[0]
			pa.p0, pa.p1, pa.p2 = &o.p0[0], &o.p1[0], &o.p2[0]
			n[k] = pass1x8(&pa)
		}
		// The Go loop's arithmetic (rasterTri's).
		o := &res[2]
		s0, s1, s2 := e0.a*subOne, e1.a*subOne, e2.a*subOne
		inv := tr.invArea
		for x := xl; x <= xr; x, w0, w1, w2 = x+1, w0+s0, w1+s1, w2+s2 {
			l0, l1, l2 := float32(w0)*inv, float32(w1)*inv, float32(w2)*inv
			z := interp(l0, l1, l2, tr.z[0], tr.z[1], tr.z[2])
			if depthTest && z > depth[x] {
				continue
			}
			q := interp(l0, l1, l2, tr.q[0], tr.q[1], tr.q[2])
			iq := 1 / q
			i := n[2]
			o.pix[i], o.z[i], o.iq[i] = int32(y*W+int(x)), z, iq
			o.p0[i], o.p1[i], o.p2[i] = l0*tr.q[0]*iq, l1*tr.q[1]*iq, l2*tr.q[2]*iq
			n[2]++
		}
		for k := range 2 {
			a, b := &res[k], &res[2]
			m := n[2]
			if n[k] != m || !slices.Equal(a.pix[:m], b.pix[:m]) || !slicesBitEqual(a.z[:m], b.z[:m]) || !slicesBitEqual(a.iq[:m], b.iq[:m]) ||
				!slicesBitEqual(a.p0[:m], b.p0[:m]) || !slicesBitEqual(a.p1[:m], b.p1[:m]) || !slicesBitEqual(a.p2[:m], b.p2[:m]) {
				t.Fatalf("trial %d (narrow %v, int32 kernel %v), row %d, span %d..%d, edges %+v: %d fragments, the Go loop %d",
					trial, pa.narrow == 1, k == 0, y, xl, xr, tr.e, n[k], m)
			}
		}
	}
	if narrow < 5000 || narrow > 15000 {
		t.Errorf("%d of 20000 trials took the int32 path; the test wants both paths", narrow)
	}
}
