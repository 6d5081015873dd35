package raster

import (
	"bytes"
	"image/color"
	"math"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/fogleman/fauxgl"
)

var white = [4]float32{1, 1, 1, 1}

// TestBlendModes draws one full-screen layer of each filter mode over a known
// opaque destination and checks the premultiplied result against values
// worked out by hand from the GL blend functions of docs/rendering.md#filter-modes.
func TestBlendModes(t *testing.T) {
	dst := [4]float32{0.2, 0.4, 0.6, 1}
	src := [4]float32{1, 0.5, 0, 0.5} // straight
	cases := []struct {
		st   State
		src  [4]float32
		want [4]float32
	}{
		{replace, src, [4]float32{1, 0.5, 0, 1}},
		{cutout, src, dst}, // 0.5 < 0.75: discarded
		{cutout, [4]float32{1, 0.5, 0, 0.8}, [4]float32{1, 0.5, 0, 1}},
		{over, src, [4]float32{0.6, 0.45, 0.3, 1}},            // src·a + dst·(1−a)
		{add, src, [4]float32{0.7, 0.65, 0.6, 1}},             // dst + src·a
		{add, src, [4]float32{0.7, 0.65, 0.6, 1}},             // same as Additive in MV
		{modulate, src, [4]float32{0.2, 0.2, 0, 1}},           // dst·src
		{modulate2x, src, [4]float32{0.4, 0.4, 0, 1}},         // 2·dst·src
		{modulate, [4]float32{1, 1, 1, 0.01}, dst},            // alpha < 0.02: discarded
		{add, [4]float32{1, 1, 1, 1}, [4]float32{1, 1, 1, 1}}, // saturates like an 8-bit buffer
	}
	for _, c := range cases {
		tg := newTarget(t, 4, 4)
		tg.Clear(dst)
		vs, is := fullQuad(0)
		draw(t, tg, Batch{State: c.st, Color: c.src, Vertices: vs, Indices: is})
		for y := 0; y < 4; y++ {
			for x := 0; x < 4; x++ {
				if got := pixel(tg, x, y); !near(got, c.want, 1e-6) {
					t.Fatalf("state %+v src %v: pixel (%d,%d) = %v, want %v", c.st, c.src, x, y, got, c.want)
				}
			}
		}
	}
}

// TestBlendTransparentBackground checks the alpha side of each blend op on a
// transparent destination, where the premultiplied representation matters.
func TestBlendTransparentBackground(t *testing.T) {
	src := [4]float32{1, 0.5, 0, 0.5}
	cases := []struct {
		st   State
		want [4]float32
	}{
		{replace, [4]float32{1, 0.5, 0, 1}},
		{over, [4]float32{0.5, 0.25, 0, 0.5}},
		{add, [4]float32{0.5, 0.25, 0, 0}},   // light over nothing adds no coverage
		{modulate, [4]float32{0, 0, 0, 0.5}}, // darkens the background through alpha: 1−mean(src)
		{modulate2x, [4]float32{0, 0, 0, 0}}, // 2·mean = 1: background unchanged
	}
	for _, c := range cases {
		tg := newTarget(t, 2, 2)
		vs, is := fullQuad(0)
		draw(t, tg, Batch{State: c.st, Color: src, Vertices: vs, Indices: is})
		if got := pixel(tg, 1, 1); !near(got, c.want, 1e-6) {
			t.Errorf("state %+v: got %v, want %v", c.st, got, c.want)
		}
	}
}

func TestAlphaTestThresholds(t *testing.T) {
	cases := []struct {
		st    State
		alpha float32
		pass  bool
	}{
		{cutout, 0.75, true},
		{cutout, 192.0 / 255, true},
		{cutout, 191.0 / 255, false},
		{modulate, 0.02, true},
		{modulate, 5.0 / 255, false},
		{modulate2x, 6.0 / 255, true},
		{modulate2x, 5.0 / 255, false},
		{over, 0.001, true}, // no test
		{replace, 0, true},  // no test
	}
	for _, c := range cases {
		tg := newTarget(t, 2, 2)
		clear := [4]float32{0.2, 0.4, 0.5, 1}
		tg.Clear(clear)
		vs, is := fullQuad(0)
		// The alpha comes from the texel times the batch colour, as in the
		// viewer: the test runs on the final alpha.
		tex := constSampler{c: [4]float32{0.6, 0.6, 0.6, c.alpha * 2}, w: 1, h: 1}
		draw(t, tg, Batch{State: c.st, Texture: tex, Color: [4]float32{1, 1, 1, 0.5}, Vertices: vs, Indices: is})
		passed := pixel(tg, 0, 0) != clear
		if passed != c.pass {
			t.Errorf("state %+v alpha %v: passed=%v, want %v", c.st, c.alpha, passed, c.pass)
		}
	}
}

func TestDepth(t *testing.T) {
	vs, is := fullQuad(0)
	farVs, _ := fullQuad(0.5)
	red := [4]float32{1, 0, 0, 1}
	green := [4]float32{0, 1, 0, 1}
	half := [4]float32{0, 0, 1, 0.5}

	// A second layer on the same triangles passes at equal depth (LEQUAL).
	tg := newTarget(t, 4, 4)
	draw(t, tg,
		Batch{State: replace, Color: red, Vertices: vs, Indices: is},
		Batch{State: over, Color: half, Vertices: vs, Indices: is})
	if got := pixel(tg, 2, 2); !near(got, [4]float32{0.5, 0, 0.5, 1}, 1e-6) {
		t.Errorf("second layer at equal depth: %v", got)
	}
	if d := tg.Depth[5]; d != 0.5 {
		t.Errorf("depth written %v, want window depth 0.5 for NDC z 0", d)
	}

	// Something behind is rejected, unless NoDepthTest.
	for _, c := range []struct {
		st   State
		want [4]float32
	}{{replace, red}, {State{Blend: BlendReplace}, green}} {
		tg := newTarget(t, 4, 4)
		draw(t, tg,
			Batch{State: replace, Color: red, Vertices: vs, Indices: is},
			Batch{State: c.st, Color: green, Vertices: farVs, Indices: is})
		if got := pixel(tg, 1, 1); got != c.want {
			t.Errorf("state %+v: got %v, want %v", c.st, got, c.want)
		}
	}

	// NoDepthSet: an opaque layer in front does not hide what comes after.
	tg = newTarget(t, 4, 4)
	draw(t, tg,
		Batch{State: State{Blend: BlendReplace, DepthTest: true}, Color: red, Vertices: vs, Indices: is},
		Batch{State: replace, Color: green, Vertices: farVs, Indices: is})
	if got := pixel(tg, 1, 1); got != green {
		t.Errorf("NoDepthSet: got %v, want green", got)
	}
	// And a translucent layer never writes depth.
	tg = newTarget(t, 4, 4)
	draw(t, tg,
		Batch{State: over, Color: half, Vertices: vs, Indices: is},
		Batch{State: replace, Color: green, Vertices: farVs, Indices: is})
	if got := pixel(tg, 1, 1); got != green {
		t.Errorf("Blend wrote depth: got %v", got)
	}
}

func TestCulling(t *testing.T) {
	ccw := []uint32{0, 1, 2}
	cw := []uint32{0, 2, 1}
	vs := []Vertex{ndc(-1, -1, 0), ndc(1, -1, 0), ndc(-1, 1, 0)}
	for _, c := range []struct {
		name  string
		st    State
		idx   []uint32
		drawn bool
	}{
		{"front", replace, ccw, true},
		{"back", replace, cw, false},
		{"back two-sided", twoSided(replace), cw, true},
		{"front two-sided", twoSided(replace), ccw, true},
	} {
		tg := newTarget(t, 8, 8)
		draw(t, tg, Batch{State: c.st, Color: white, Vertices: vs, Indices: c.idx})
		// Pixel (1, 6) is near the bottom-left corner (NDC −1, −1), inside.
		if got := pixel(tg, 1, 6)[3] == 1; got != c.drawn {
			t.Errorf("%s: drawn=%v, want %v", c.name, got, c.drawn)
		}
		if pixel(tg, 6, 1)[3] != 0 {
			t.Errorf("%s: pixel outside the triangle drawn", c.name)
		}
	}
}

// TestFillRule draws a jittered grid mesh that covers the whole target (and
// beyond) with additive 0.25 light: every pixel must receive it exactly once,
// so shared edges are neither skipped nor drawn twice. Fans of triangles
// meeting at one vertex and exactly pixel-aligned edges are included.
func TestFillRule(t *testing.T) {
	const n = 9
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		tg := newTarget(t, 37, 29)
		var vs []Vertex
		for j := 0; j <= n; j++ {
			for i := 0; i <= n; i++ {
				x := -1.2 + 2.4*float32(i)/n
				y := -1.2 + 2.4*float32(j)/n
				if i > 0 && i < n && j > 0 && j < n {
					if trial%2 == 0 {
						// Under a quarter of the grid spacing, so every quad
						// stays convex and no triangle folds over another.
						x += (rng.Float32() - 0.5) * 0.12
						y += (rng.Float32() - 0.5) * 0.12
					} else {
						// Snap to pixel centres and pixel edges of the 37×29 grid.
						x = (float32(math.Round(float64((x+1)*37/2*2)))/2)*2/37 - 1
						y = (float32(math.Round(float64((y+1)*29/2*2)))/2)*2/29 - 1
					}
				}
				vs = append(vs, ndc(x, y, 0))
			}
		}
		var is []uint32
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				a := uint32(j*(n+1) + i)
				b, c, d := a+1, a+n+2, a+n+1
				if (i+j+trial)%2 == 0 {
					is = append(is, a, b, c, a, c, d)
				} else {
					is = append(is, a, b, d, b, c, d)
				}
			}
		}
		draw(t, tg, Batch{State: twoSided(add), Color: [4]float32{1, 1, 1, 0.25}, Vertices: vs, Indices: is})
		for y := 0; y < tg.Height; y++ {
			for x := 0; x < tg.Width; x++ {
				if got := pixel(tg, x, y)[0]; got != 0.25 {
					t.Fatalf("trial %d: pixel (%d,%d) received %v, want exactly 0.25", trial, x, y, got)
				}
			}
		}
	}
}

// TestNearClip draws a floor triangle that passes behind the eye (one vertex
// with w < 0). In view space the eye is at the origin looking down −Z, the
// floor is y = −1, fov 90°, near 1, far 100: the floor must cover exactly
// the rows below the horizon down to the near plane, nothing above.
func TestNearClip(t *testing.T) {
	proj := fauxgl.Perspective(90, 1, 1, 100)
	world := [][3]float64{{-1000, -1, -1000}, {1000, -1, -1000}, {0, -1, 1000}}
	var vs []Vertex
	for _, p := range world {
		c := proj.MulPositionW(fauxgl.Vector{X: p[0], Y: p[1], Z: p[2]})
		vs = append(vs, Vertex{Position: [4]float32{float32(c.X), float32(c.Y), float32(c.Z), float32(c.W)}})
	}
	if vs[2].Position[3] >= 0 {
		t.Fatal("test setup: third vertex should be behind the eye")
	}
	const size = 64
	tg := newTarget(t, size, size)
	draw(t, tg, Batch{State: twoSided(replace), Color: white, Vertices: vs, Indices: []uint32{0, 1, 2}})
	for y := 0; y < size; y++ {
		ndcY := 1 - (float64(y)+0.5)*2/size
		// Visible floor: between the near plane (ndcY = −1) and the far
		// plane (ndcY = −1/100).
		want := ndcY < -0.01
		for x := 0; x < size; x++ {
			if got := pixel(tg, x, y)[3] == 1; got != want {
				t.Fatalf("pixel (%d,%d): covered=%v, want %v", x, y, got, want)
			}
		}
	}
}

// TestPerspectiveUV checks the UV read back at pixel centres of a receding
// textured floor against a ray cast through each pixel centre.
func TestPerspectiveUV(t *testing.T) {
	proj := fauxgl.Perspective(90, 1, 0.5, 100)
	// Floor y = −1 from z = −1 to z = −21, x from −10 to 10; u along x,
	// v along depth.
	corners := [][5]float64{{-10, -1, -1, 0, 0}, {10, -1, -1, 1, 0}, {10, -1, -21, 1, 1}, {-10, -1, -21, 0, 1}}
	var vs []Vertex
	for _, p := range corners {
		c := proj.MulPositionW(fauxgl.Vector{X: p[0], Y: p[1], Z: p[2]})
		vs = append(vs, Vertex{Position: [4]float32{float32(c.X), float32(c.Y), float32(c.Z), float32(c.W)}, UV: [2]float32{float32(p[3]), float32(p[4])}})
	}
	const size = 64
	tg := newTarget(t, size, size)
	draw(t, tg, Batch{State: twoSided(replace), Texture: uvSampler{w: 1, h: 1}, Color: white, Vertices: vs, Indices: []uint32{0, 1, 2, 0, 2, 3}})
	checked, maxAffine := 0, 0.0
	for y := size/2 + 1; y < size; y++ {
		for x := 0; x < size; x++ {
			nx := (float64(x)+0.5)*2/size - 1
			ny := 1 - (float64(y)+0.5)*2/size
			// Ray (nx, ny, −1)·s hits y = −1 at s = −1/ny (tan 45° = 1).
			s := -1 / ny
			wx, wz := nx*s, -s
			if wz < -21 || wz > -1 || wx < -10 || wx > 10 {
				continue
			}
			u, v := (wx+10)/20, (-1-wz)/20
			got := pixel(tg, x, y)
			// 5e-4 allows for the 1/256-pixel vertex snap; an affine
			// interpolation is off by more than 0.1 here.
			if math.Abs(float64(got[0])-u) > 5e-4 || math.Abs(float64(got[1])-v) > 5e-4 {
				t.Fatalf("pixel (%d,%d): uv = %v,%v, want %v,%v", x, y, got[0], got[1], u, v)
			}
			// How far an affine (screen-linear) v would be off here, to show
			// the test can tell the two apart.
			vAff := (1 + ny*1) / (1 - 1.0/21) // v linear in ndcY between near edge (−1) and far edge (−1/21)
			maxAffine = math.Max(maxAffine, math.Abs(vAff-v))
			checked++
		}
	}
	if checked < 500 || maxAffine < 0.1 {
		t.Fatalf("test too weak: %d pixels checked, affine error %v", checked, maxAffine)
	}
}

// TestLighting checks the docs/rendering.md#lighting factor per fragment: clamp(clamp(N·L)+0.7).
func TestLighting(t *testing.T) {
	up := [3]float32{0, 0, 1}
	side := [3]float32{1, 0, 0}
	down := [3]float32{0, 0, -1}
	for _, c := range []struct {
		n    [3]float32
		want float32
	}{{up, 1}, {side, 0.7}, {down, 0.7}, {[3]float32{0, 0.6, 0.2}, 0.9}} {
		vs, is := fullQuad(0)
		for i := range vs {
			vs[i].Normal, vs[i].Light = c.n, up
		}
		tg := newTarget(t, 2, 2)
		draw(t, tg, Batch{State: lit(replace), Color: [4]float32{220.0 / 255, 1, 1, 1}, Vertices: vs, Indices: is})
		got := pixel(tg, 0, 0)
		if math.Abs(float64(got[1]-c.want)) > 1e-6 || to8(got[0]) != to8(220.0/255*c.want) {
			t.Errorf("normal %v: got %v, want factor %v", c.n, got, c.want)
		}
	}
	// Per fragment, not per vertex: one vertex facing up, two sideways. At a
	// point with N·L ≥ 0.3 the factor is 1; interpolating per-vertex factors
	// (1, 0.7, 0.7) would give less.
	vs := []Vertex{ndc(-1, -1, 0), ndc(1, -1, 0), ndc(-1, 1, 0)}
	vs[0].Normal, vs[1].Normal, vs[2].Normal = up, side, side
	for i := range vs {
		vs[i].Light = up
	}
	tg := newTarget(t, 16, 16)
	draw(t, tg, Batch{State: lit(replace), Color: white, Vertices: vs, Indices: []uint32{0, 1, 2}})
	// Pixel (3, 12): barycentric weight of vertex 0 is about 0.56.
	if got := pixel(tg, 3, 12)[0]; got != 1 {
		t.Errorf("per-fragment lighting: got %v, want 1", got)
	}
	// Unshaded ignores normals.
	tg = newTarget(t, 16, 16)
	draw(t, tg, Batch{State: replace, Color: white, Vertices: vs, Indices: []uint32{0, 1, 2}})
	if got := pixel(tg, 12, 3); got != [4]float32{0, 0, 0, 0} {
		t.Errorf("outside pixel drawn: %v", got)
	}
	if got := pixel(tg, 1, 14)[0]; got != 1 {
		t.Errorf("unshaded: got %v, want 1", got)
	}
}

// TestLOD maps a 256-texel texture onto 64 pixels (λ = 2) and onto 512
// pixels (λ = −1), and checks the bias.
func TestLOD(t *testing.T) {
	for _, c := range []struct {
		size int
		bias float32
		want float32
	}{{64, 0, 2}, {512, 0, -1}, {64, 1, 3}} {
		vs, is := fullQuad(0)
		vs[0].UV, vs[1].UV, vs[2].UV, vs[3].UV = [2]float32{0, 1}, [2]float32{1, 1}, [2]float32{1, 0}, [2]float32{0, 0}
		tg := newTarget(t, c.size, c.size)
		if err := tg.Draw([]Batch{{State: replace, Texture: uvSampler{w: 256, h: 256}, Color: white, Vertices: vs, Indices: is}}, DrawOptions{LODBias: c.bias}); err != nil {
			t.Fatal(err)
		}
		lod := (pixel(tg, c.size/3, c.size/2)[2] - 0.5) * 16
		if math.Abs(float64(lod-c.want)) > 1e-3 {
			t.Errorf("size %d bias %v: lod %v, want %v", c.size, c.bias, lod, c.want)
		}
		// Row 0 is the top of the image and v = 0 is the texture's top row.
		if v := pixel(tg, 0, 0)[1]; v > 0.01 {
			t.Errorf("top-left pixel v = %v, want ≈ 0 (no V flip)", v)
		}
	}
}

// TestResolveAlpha renders at 4× on a transparent background and checks that
// edge pixels keep their full colour with partial alpha (no dark fringe),
// and the composite over a background colour.
func TestResolveAlpha(t *testing.T) {
	const k = 4
	tg := newTarget(t, 8*k, 8*k)
	// Left half of the screen (x < 0 in NDC) plus a quarter pixel: output
	// column 4 is 25 % covered.
	edge := float32(2 * 0.25 / 8) // a quarter of an output pixel in NDC
	vs := []Vertex{ndc(-1, -1, 0), ndc(edge, -1, 0), ndc(edge, 1, 0), ndc(-1, 1, 0)}
	is := []uint32{0, 1, 2, 0, 2, 3}
	draw(t, tg, Batch{State: replace, Color: [4]float32{1, 0.5, 0, 1}, Vertices: vs, Indices: is})
	img, err := tg.Resolve(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.NRGBAAt(4, 3); got != (color.NRGBA{255, 128, 0, 64}) {
		t.Errorf("edge pixel %v, want {255 128 0 64}", got)
	}
	if got := img.NRGBAAt(1, 3); got != (color.NRGBA{255, 128, 0, 255}) {
		t.Errorf("inside pixel %v", got)
	}
	if got := img.NRGBAAt(6, 3); got != (color.NRGBA{}) {
		t.Errorf("outside pixel %v", got)
	}
	bg := color.NRGBA{0, 0, 255, 255}
	img, _ = tg.Resolve(k, &bg)
	if got := img.NRGBAAt(4, 3); got != (color.NRGBA{64, 32, 191, 255}) {
		t.Errorf("edge over blue %v, want {64 32 191 255}", got)
	}
	// Half-transparent Blend layer alone: straight colour, alpha 128.
	tg.Clear([4]float32{})
	draw(t, tg, Batch{State: over, Color: [4]float32{0.2, 0.4, 1, 0.5}, Vertices: vs, Indices: is})
	img, _ = tg.Resolve(k, nil)
	if got := img.NRGBAAt(1, 1); got != (color.NRGBA{51, 102, 255, 128}) {
		t.Errorf("blend over transparent %v, want {51 102 255 128}", got)
	}
	// Additive light over nothing: alpha rises to the brightest channel so
	// the picture over black is exact.
	tg.Clear([4]float32{})
	draw(t, tg, Batch{State: add, Color: [4]float32{1, 0.5, 0, 0.5}, Vertices: vs, Indices: is})
	img, _ = tg.Resolve(k, nil)
	if got := img.NRGBAAt(1, 1); got != (color.NRGBA{255, 128, 0, 128}) {
		t.Errorf("additive over transparent %v, want {255 128 0 128}", got)
	}
	if _, err := tg.Resolve(3, nil); err == nil {
		t.Error("resolve by a factor that does not divide the size should fail")
	}
}

func TestDrawErrors(t *testing.T) {
	tg := newTarget(t, 4, 4)
	vs, _ := fullQuad(0)
	err := tg.Draw([]Batch{{State: lit(replace), Color: white, Vertices: vs, Indices: []uint32{0, 1, 4}}}, DrawOptions{})
	if err == nil {
		t.Fatal("out-of-range index accepted")
	}
	for _, c := range tg.Color {
		if c != 0 {
			t.Fatal("a failed Draw drew something")
		}
	}
	short := mipChecker(8, 2, white, white)
	short.Levels[1].Pix = short.Levels[1].Pix[:len(short.Levels[1].Pix)-1]
	if err := tg.Draw([]Batch{{State: replace, Texture: short, Color: white, Vertices: vs, Indices: []uint32{0, 1, 2}}}, DrawOptions{}); err == nil {
		t.Error("a texture level too short for its size accepted")
	}
	for _, c := range tg.Color {
		if c != 0 {
			t.Fatal("a failed Draw drew something")
		}
	}
	if _, err := NewTarget(0, 4); err == nil {
		t.Error("zero-width target accepted")
	}
	if _, err := NewTarget(MaxSide+1, 4); err == nil {
		t.Error("oversized target accepted")
	}
	// NaN and infinite positions are dropped, not drawn and not a panic.
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	bad := []Vertex{{Position: [4]float32{nan, 0, 0, 1}}, ndc(1, -1, 0), ndc(1, 1, 0), {Position: [4]float32{inf, inf, 0, 1}}}
	draw(t, tg, Batch{State: lit(twoSided(replace)), Color: white, Vertices: bad, Indices: []uint32{0, 1, 2, 3, 1, 2}})
}

// randomScene is a pile of overlapping translucent and opaque triangles of
// every filter mode, some two-sided, some lit, with textures.
func randomScene(seed int64, nTris int) []Batch {
	rng := rand.New(rand.NewSource(seed))
	var bs []Batch
	for b := 0; b < 12; b++ {
		var vs []Vertex
		var is []uint32
		for i := 0; i < nTris/12; i++ {
			cx, cy := rng.Float32()*2.4-1.2, rng.Float32()*2.4-1.2
			for k := 0; k < 3; k++ {
				v := ndc(cx+rng.Float32()*0.8-0.4, cy+rng.Float32()*0.8-0.4, rng.Float32()*2-1)
				v.Position[3] = 0.5 + rng.Float32()
				for j := 0; j < 3; j++ {
					v.Position[j] *= v.Position[3]
				}
				v.UV = [2]float32{rng.Float32(), rng.Float32()}
				v.Normal = [3]float32{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}
				v.Light = [3]float32{0, 0, 1}
				v.Color = [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}
				vs = append(vs, v)
				is = append(is, uint32(len(vs)-1))
			}
		}
		bs = append(bs, Batch{
			State:       randomState(b, rng.Intn(2) == 1, rng.Intn(2) == 0),
			Texture:     uvSampler{w: 64, h: 64},
			Color:       [4]float32{0.9, 0.8, 0.7, 0.6},
			VertexColor: b%3 == 0,
			Vertices:    vs,
			Indices:     is,
		})
	}
	return bs
}

// TestDeterminism renders the same scene with different GOMAXPROCS and
// worker counts: the colour and depth buffers must be bit-identical.
func TestDeterminism(t *testing.T) {
	scene := randomScene(7, 1200)
	render := func(workers int) *Target {
		tg := newTarget(t, 160, 120)
		tg.Clear([4]float32{0.1, 0.1, 0.1, 1})
		if err := tg.Draw(scene, DrawOptions{Workers: workers}); err != nil {
			t.Fatal(err)
		}
		return tg
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref *Target
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, workers := range []int{0, 3, 7} {
			tg := render(workers)
			if ref == nil {
				ref = tg
				continue
			}
			for i := range ref.Color {
				if math.Float32bits(ref.Color[i]) != math.Float32bits(tg.Color[i]) {
					t.Fatalf("GOMAXPROCS %d workers %d: colour differs at %d", procs, workers, i)
				}
			}
			for i := range ref.Depth {
				if math.Float32bits(ref.Depth[i]) != math.Float32bits(tg.Depth[i]) {
					t.Fatalf("GOMAXPROCS %d workers %d: depth differs at %d", procs, workers, i)
				}
			}
		}
	}
	// The scene must actually exercise blending.
	distinct := map[[4]float32]bool{}
	for i := 0; i < len(ref.Color); i += 4 {
		distinct[[4]float32(ref.Color[i:i+4])] = true
	}
	if len(distinct) < 1000 {
		t.Fatalf("scene too simple: %d distinct colours", len(distinct))
	}
}

// TestFillRuleClipped is TestFillRule for a mesh whose shared edges are cut
// by the near plane and the guard band: a jittered floor grid that passes
// under and behind the eye. No pixel may receive light twice, and the part
// of the floor in front of the near plane must have no holes.
func TestFillRuleClipped(t *testing.T) {
	proj := fauxgl.Perspective(90, 1, 1, 1000)
	rng := rand.New(rand.NewSource(3))
	const n = 24
	var vs []Vertex
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x := -60 + 120*float64(i)/n
			z := -70 + 110*float64(j)/n
			if i > 0 && i < n && j > 0 && j < n {
				x += (rng.Float64() - 0.5) * 2
				z += (rng.Float64() - 0.5) * 2
			}
			c := proj.MulPositionW(fauxgl.Vector{X: x, Y: -1, Z: z})
			vs = append(vs, Vertex{Position: [4]float32{float32(c.X), float32(c.Y), float32(c.Z), float32(c.W)}})
		}
	}
	var is []uint32
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a := uint32(j*(n+1) + i)
			is = append(is, a, a+1, a+n+2, a, a+n+2, a+n+1)
		}
	}
	const size = 96
	tg := newTarget(t, size, size)
	draw(t, tg, Batch{State: twoSided(add), Color: [4]float32{1, 1, 1, 0.25}, Vertices: vs, Indices: is})
	for y := 0; y < size; y++ {
		ndcY := 1 - (float64(y)+0.5)*2/size
		for x := 0; x < size; x++ {
			got := pixel(tg, x, y)[0]
			if got != 0 && got != 0.25 {
				t.Fatalf("pixel (%d,%d) received %v", x, y, got)
			}
			// Rows whose floor point is nearer than z = −40 (ndcY < −1/40) and
			// columns well inside ±60 there must be covered.
			if ndcY < -1.0/30 && math.Abs((float64(x)+0.5)*2/size-1) < 0.9 && got != 0.25 {
				t.Fatalf("hole at (%d,%d)", x, y)
			}
		}
	}
}

// TestLambda: the level of detail is the reference's piecewise-linear
// log2, never above the exact λ and at most 0.022 below it, exact where
// ρ² is a power of four, never decreasing as ρ² grows, and the same as
// the float64 form LODBound uses.
func TestLambda(t *testing.T) {
	prev := float32(math.Inf(-1))
	for x := float32(1e-9); x < 1e9; x *= 1.0137 {
		got := lambda(x)
		exact := 0.5 * math.Log2(float64(x))
		if d := exact - float64(got); d < -1e-6 || d > 0.022 {
			t.Fatalf("lambda(%g) = %v, exact %v", x, got, exact)
		}
		if got < prev {
			t.Fatalf("lambda(%g) = %v, below %v for a smaller ρ²", x, got, prev)
		}
		prev = got
		if b := plog2(float64(x)*float64(x)) / 4; math.Abs(b-float64(got)) > 1e-5 {
			t.Fatalf("lambda(%g) = %v, plog2 form %v", x, got, b)
		}
	}
	for _, c := range []struct{ rho2, want float32 }{{1, 0}, {4, 1}, {0.25, -1}, {1 << 20, 10}, {1e30, 32}} {
		if got := lambda(c.rho2); got != c.want {
			t.Errorf("lambda(%g) = %v, want %v", c.rho2, got, c.want)
		}
	}
}

// TestDrawSteadyStateAllocs: once the target's buffers have grown, a frame
// allocates nothing in setup or rasterisation (single worker; more workers
// only add their goroutines).
func TestDrawSteadyStateAllocs(t *testing.T) {
	tg, batches := unitScene(t, 64, 1)
	allocs := testing.AllocsPerRun(5, func() {
		tg.Clear([4]float32{})
		if err := tg.Draw(batches, DrawOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per frame", allocs)
	}
}

func TestVertexColor(t *testing.T) {
	vs, is := fullQuad(0)
	for i := range vs {
		vs[i].Color = [4]float32{0.5, 1, 1, 0.5}
	}
	for _, use := range []bool{true, false} {
		tg := newTarget(t, 2, 2)
		draw(t, tg, Batch{State: over, Color: [4]float32{1, 0.5, 1, 1}, VertexColor: use, Vertices: vs, Indices: is})
		want := [4]float32{1, 0.5, 1, 1} // batch colour alone, opaque
		if use {
			want = [4]float32{0.25, 0.25, 0.5, 0.5} // (0.5, 0.5, 1) at alpha 0.5, premultiplied
		}
		if got := pixel(tg, 1, 0); !near(got, want, 1e-6) {
			t.Errorf("VertexColor=%v: got %v, want %v", use, got, want)
		}
	}
}

// TestSpanMatchesEdgeFunctions checks the per-row span solver against a
// brute-force test of every pixel centre against the three edge functions,
// for random triangles, including vertices on pixel centres and edges.
func TestSpanMatchesEdgeFunctions(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	const w, h = 23, 19
	tg := newTarget(t, w, h)
	for trial := 0; trial < 2000; trial++ {
		var vs []Vertex
		for k := 0; k < 3; k++ {
			x, y := rng.Float32()*2.6-1.3, rng.Float32()*2.6-1.3
			if trial%3 == 0 { // on the half-pixel grid
				x = float32(math.Round(float64((x+1)*w)))/w - 1
				y = float32(math.Round(float64((y+1)*h)))/h - 1
			}
			vs = append(vs, ndc(x, y, 0))
		}
		tg.Clear([4]float32{})
		draw(t, tg, Batch{State: twoSided(add), Color: [4]float32{1, 1, 1, 0.5}, Vertices: vs, Indices: []uint32{0, 1, 2}})
		var tr *tri
		if len(tg.tris) == 1 {
			tr = &tg.tris[0]
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				want := float32(0)
				if tr != nil {
					px, py := int64(x)*subOne+subOne/2, int64(y)*subOne+subOne/2
					in := true
					for _, e := range tr.e {
						in = in && e.a*px+e.b*py+e.c+e.bias >= 0
					}
					if in {
						want = 0.5
					}
				}
				if got := pixel(tg, x, y)[0]; got != want {
					t.Fatalf("trial %d pixel (%d,%d): got %v, want %v", trial, x, y, got, want)
				}
			}
		}
	}
}

// TestTargetBytes checks that Bytes counts the buffers and what a Draw
// grows, so that a pool of Targets can bound what it keeps.
func TestTargetBytes(t *testing.T) {
	tg, batches := unitScene(t, 64, 1)
	before := tg.Bytes()
	if before < 64*64*20 {
		t.Fatalf("a new 64×64 target holds %d bytes, less than its buffers' %d", before, 64*64*20)
	}
	if err := tg.Draw(batches, DrawOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	// The unit scene sets up a few thousand triangles.
	if after := tg.Bytes(); after < before+1000*int64(unsafe.Sizeof(tri{})) {
		t.Errorf("after drawing %d bytes, before %d: the triangle storage is not counted", after, before)
	}
}

// TestResolveBackgroundRuns checks Resolve over a background against the
// compositing formula pixel by pixel, on rows with runs of equal colours
// (which Resolve reuses), lone pixels, signed zeros and NaN.
func TestResolveBackgroundRuns(t *testing.T) {
	const w, h = 37, 5
	tg, err := NewTarget(w, h)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(34))
	special := []float32{0, float32(math.Copysign(0, -1)), 1, 0.5, float32(math.NaN()), 1.5}
	var c [4]float32
	for i := 0; i < w*h; i++ {
		if rng.Intn(3) == 0 { // else repeat the last pixel
			for k := range c {
				c[k] = rng.Float32()
				if rng.Intn(4) == 0 {
					c[k] = special[rng.Intn(len(special))]
				}
			}
		}
		copy(tg.Color[4*i:], c[:])
	}
	bg := &color.NRGBA{40, 90, 200, 255}
	img, err := tg.Resolve(1, bg)
	if err != nil {
		t.Fatal(err)
	}
	bgc := [3]float32{40.0 / 255, 90.0 / 255, 200.0 / 255}
	for i := 0; i < w*h; i++ {
		s := tg.Color[4*i : 4*i+4]
		k := 1 - clamp01(s[3])
		want := [4]uint8{to8(s[0] + k*bgc[0]), to8(s[1] + k*bgc[1]), to8(s[2] + k*bgc[2]), 255}
		if got := [4]uint8(img.Pix[4*i : 4*i+4]); got != want {
			t.Fatalf("pixel %d (%v): %v, want %v", i, s, got, want)
		}
	}
}

// TestTextureSampleNaNLOD: a NaN level of detail samples level 0, as λ ≤ 0
// does, instead of indexing the chain with int(NaN).
func TestTextureSampleNaNLOD(t *testing.T) {
	tex := mipChecker(16, 4, [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1})
	got, want := tex.Sample(0.3, 0.3, float32(math.NaN())), tex.Sample(0.3, 0.3, 0)
	if got != want {
		t.Errorf("Sample at a NaN lod = %v, want level 0's %v", got, want)
	}
}

// TestResolveSupersampled checks Resolve(k) against the box filter written
// out plainly: each output pixel the sum of its k×k samples, row by row
// and left to right, times 1/k², then the same conversion as k = 1.
func TestResolveSupersampled(t *testing.T) {
	const k, w, h = 3, 7, 4
	tg, err := NewTarget(w*k, h*k)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(35))
	for i := range tg.Color {
		tg.Color[i] = rng.Float32() * 1.2
	}
	small, err := NewTarget(w, h)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s [4]float32
			for sy := 0; sy < k; sy++ {
				for sx := 0; sx < k; sx++ {
					o := ((y*k+sy)*w*k + x*k + sx) * 4
					for c := range s {
						s[c] += tg.Color[o+c]
					}
				}
			}
			for c := range s {
				small.Color[(y*w+x)*4+c] = s[c] * (1.0 / (k * k))
			}
		}
	}
	for _, bg := range []*color.NRGBA{nil, {R: 40, G: 90, B: 200, A: 255}} {
		got, err := tg.Resolve(k, bg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := small.Resolve(1, bg)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("background %v: Resolve(%d) differs from the plain box filter", bg, k)
		}
	}
}

// TestResolveUnaligned: a Color slice that is not 8-byte aligned (a
// caller's own) resolves to the same bytes as an aligned one.
func TestResolveUnaligned(t *testing.T) {
	const w, h = 9, 3
	tg, err := NewTarget(w, h)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(36))
	for i := range tg.Color {
		tg.Color[i] = rng.Float32()
	}
	buf := make([]float32, len(tg.Color)+1)
	odd := buf[1:]
	copy(odd, tg.Color)
	for _, bg := range []*color.NRGBA{nil, {R: 40, G: 90, B: 200, A: 255}} {
		want, err := tg.Resolve(1, bg)
		if err != nil {
			t.Fatal(err)
		}
		u := &Target{Width: w, Height: h, Color: odd, Depth: tg.Depth}
		got, err := u.Resolve(1, bg)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("background %v: an unaligned Color resolves differently", bg)
		}
	}
}

// spanByDivision returns the pixel columns of row y whose centres are
// inside all three edges of tr, each bound an exact integer division:
// what spanWalk must give.
func spanByDivision(tr *tri, y int) (int64, int64) {
	py := int64(y)*subOne + subOne/2
	xl, xr := int64(tr.minX), int64(tr.maxX)
	for k := range tr.e {
		e := &tr.e[k]
		r := e.b*py + e.c + e.bias + e.a*(subOne/2)
		switch {
		case e.a > 0:
			xl = max(xl, ceilDiv(-r, e.a*subOne))
		case e.a < 0:
			xr = min(xr, floorDiv(-r, e.a*subOne))
		case r < 0:
			xr = -1
		}
	}
	return xl, xr
}

// TestSpanWalk walks runs of rows from random ones and checks every
// row's span against the exact integer divisions, on edges up to the
// largest the target size and guard band allow, on small ones and on
// nearly horizontal ones, with and without a bounding box.
func TestSpanWalk(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	const maxCoord = 3 * MaxSide * subOne // a guard-band vertex, in subpixels
	var w spanWalk
	for trial := 0; trial < 100000; trial++ {
		scale := []int64{4, 1 << 12, maxCoord}[trial%3]
		var tr tri
		tr.minX, tr.maxX = -1<<30, 1<<30
		for k := range tr.e {
			ax, ay := rng.Int63n(2*scale)-scale, rng.Int63n(2*scale)-scale
			dx, dy := rng.Int63n(4*scale)-2*scale, rng.Int63n(4*scale)-2*scale
			if trial%7 == 0 {
				dy = int64(rng.Intn(3) - 1) // nearly horizontal edges
			}
			tr.e[k] = edge{a: -dy, b: dx, c: dy*ax - dx*ay, bias: -int64(rng.Intn(2))}
		}
		y0 := rng.Intn(MaxSide)
		py := int64(y0)*subOne + subOne/2
		if trial%5 == 0 {
			// An edge through a pixel centre on the first row.
			e := &tr.e[0]
			if e.a == 0 {
				e.a = 1
			}
			x := rng.Int63n(2*scale) - scale
			e.c = -e.a*subOne*x - (e.b*py + e.bias + e.a*(subOne/2))
		}
		if trial%3 == 1 {
			tr.minX, tr.maxX = int32(rng.Intn(100)), int32(100+rng.Intn(100))
		}
		w.start(&tr, y0)
		for y := y0; y < y0+1+rng.Intn(40); y++ {
			xl, xr := w.next()
			// The exact bounds, as divisions.
			if wl, wr := spanByDivision(&tr, y); xl != wl || xr != wr {
				t.Fatalf("trial %d, rows from %d, row %d, edges %+v: walk %d..%d, divisions give %d..%d", trial, y0, y, tr.e, xl, xr, wl, wr)
			}
		}
	}
}

// TestDrawChecksIndices: an index past a batch's vertices fails the Draw,
// naming the batch, before anything is drawn, also when the batch shares
// its index slice with an earlier one that has enough vertices.
func TestDrawChecksIndices(t *testing.T) {
	vs, idx := fullQuad(0)
	short := vs[:len(vs)-1]
	for _, c := range []struct {
		name    string
		batches []Batch
		bad     string
	}{
		{"valid, shared", []Batch{{State: replace, Color: white, Vertices: vs, Indices: idx}, {State: add, Color: white, Vertices: vs, Indices: idx}}, ""},
		{"index past the vertices", []Batch{{State: replace, Color: white, Vertices: short, Indices: idx}}, "batch 0"},
		{"shared, fewer vertices", []Batch{{State: replace, Color: white, Vertices: vs, Indices: idx}, {State: add, Color: white, Vertices: short, Indices: idx}}, "batch 1"},
	} {
		tg := newTarget(t, 8, 8)
		tg.Clear([4]float32{})
		err := tg.Draw(c.batches, DrawOptions{})
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.bad)
		case c.bad != "" && pixel(tg, 4, 4) != [4]float32{}:
			t.Errorf("%s: drew %v before failing", c.name, pixel(tg, 4, 4))
		}
	}
}
