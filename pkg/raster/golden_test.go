package raster

import (
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/internal/golden"
)

// quad returns a world-space rectangle as two CCW triangles facing +X (the
// default camera), spanning y in [y0, y1] and z in [z0, z1] at depth x.
func quad(x, y0, y1, z0, z1 float32) mesh {
	n := [3]float32{1, 0, 0}
	return mesh{
		pos:    [][3]float32{{x, y0, z0}, {x, y1, z0}, {x, y1, z1}, {x, y0, z1}},
		normal: [][3]float32{n, n, n, n},
		uv:     [][2]float32{{0, 1}, {1, 1}, {1, 0}, {0, 0}},
		idx:    []uint32{0, 1, 2, 0, 2, 3},
	}
}

// TestGoldenScene: a lit, textured opaque sphere (lighter on top, 70 % on
// the sides), a Transparent checker card in front with alpha-tested holes,
// a blue Blend card crossing the sphere, and an orange Additive card, at
// 128² with 2× supersampling on a transparent background.
func TestGoldenScene(t *testing.T) {
	const size, k = 128, 2
	box := fauxgl.Box{Min: fauxgl.V(-60, -60, 0), Max: fauxgl.V(60, 60, 120)}
	cam := orbitCamera(box, 20, 15, 0.9)
	vp := cam.ViewProjection(1)
	ball := sphere([3]float32{0, 0, 60}, 45, 24, 32)
	tex := checker(64, 8, [4]float32{0.95, 0.85, 0.6, 1}, [4]float32{0.55, 0.2, 0.15, 1})
	holes := checker(32, 4, [4]float32{0.2, 0.8, 0.3, 1}, [4]float32{1, 1, 1, 0.5})
	card := quad(50, -70, -10, 10, 70)
	glass := quad(20, -10, 60, 40, 110)
	glow := quad(55, 10, 65, 0, 40)
	tg := newTarget(t, size*k, size*k)
	batches := []Batch{
		{State: lit(replace), Texture: tex, Color: white, Vertices: ball.project(vp, nil), Indices: ball.idx},
		{State: lit(twoSided(cutout)), Texture: holes, Color: white, Vertices: card.project(vp, nil), Indices: card.idx},
		{State: over, Color: [4]float32{0.2, 0.4, 1, 0.5}, Vertices: glass.project(vp, nil), Indices: glass.idx},
		{State: add, Color: [4]float32{1, 0.5, 0.1, 0.8}, Vertices: glow.project(vp, nil), Indices: glow.idx},
	}
	if err := tg.Draw(batches, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	img, err := tg.Resolve(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "raster_scene.png"), img, golden.Tolerance{Channel: 2})
}

// TestGoldenModes: one square per filter mode (None … Modulate2x, left to
// right, top row) over a horizontal grey ramp with a red bar, drawn with a
// vertical alpha ramp texture (alpha 1 at the top to 0 at the bottom) in a
// light-blue tint, composited over the ramp (opaque).
func TestGoldenModes(t *testing.T) {
	const w, h = 7 * 24, 40
	tg := newTarget(t, w, h)
	ramp := &imageSampler{w: 1, h: 16, pix: make([][4]float32, 16), clamp: true}
	for i := range ramp.pix {
		ramp.pix[i] = [4]float32{0.6, 0.8, 1, 1 - float32(i)/15}
	}
	// Background: grey ramp left to right, red bar in the middle rows.
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g := float32(x) / float32(w-1)
			c := [4]float32{g, g, g, 1}
			if y >= 16 && y < 24 {
				c = [4]float32{0.9, 0.1, 0.1, 1}
			}
			copy(tg.Color[(y*w+x)*4:], c[:])
		}
	}
	var batches []Batch
	for m := 0; m < 7; m++ {
		x0 := (float32(m*24+2))/w*2 - 1
		x1 := (float32(m*24+22))/w*2 - 1
		vs := []Vertex{ndc(x0, -0.9, 0), ndc(x1, -0.9, 0), ndc(x1, 0.9, 0), ndc(x0, 0.9, 0)}
		vs[0].UV, vs[1].UV, vs[2].UV, vs[3].UV = [2]float32{0.5, 1}, [2]float32{0.5, 1}, [2]float32{0.5, 0}, [2]float32{0.5, 0}
		batches = append(batches, Batch{State: []State{replace, cutout, over, add, add, modulate, modulate2x}[m], Texture: ramp, Color: white, Vertices: vs, Indices: []uint32{0, 1, 2, 0, 2, 3}})
	}
	if err := tg.Draw(batches, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	img, err := tg.Resolve(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "raster_modes.png"), img, golden.Tolerance{Channel: 2})
}
