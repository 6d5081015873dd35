package raster

import (
	"math"
	"testing"
)

// constSampler is a w×h texture of one colour.
type constSampler struct {
	c    [4]float32
	w, h int
}

func (s constSampler) Size() (int, int)                    { return s.w, s.h }
func (s constSampler) Sample(u, v, lod float32) [4]float32 { return s.c }

// uvSampler returns the coordinates it is asked for as colour, so a test can
// read back the interpolated UV; blue carries lod/16+0.5.
type uvSampler struct{ w, h int }

func (s uvSampler) Size() (int, int) { return s.w, s.h }
func (s uvSampler) Sample(u, v, lod float32) [4]float32 {
	return [4]float32{u, v, lod/16 + 0.5, 1}
}

// ndc makes a vertex at normalised device coordinates (w = 1).
func ndc(x, y, z float32) Vertex { return Vertex{Position: [4]float32{x, y, z, 1}} }

// fullQuad covers the whole target at depth z, front-facing (CCW in NDC).
func fullQuad(z float32) ([]Vertex, []uint32) {
	return []Vertex{ndc(-1, -1, z), ndc(1, -1, z), ndc(1, 1, z), ndc(-1, 1, z)}, []uint32{0, 1, 2, 0, 2, 3}
}

func unlit(s State) State { s.Lit = false; return s }

func newTarget(t testing.TB, w, h int) *Target {
	t.Helper()
	tg, err := NewTarget(w, h)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func draw(t testing.TB, tg *Target, bs ...Batch) {
	t.Helper()
	if err := tg.Draw(bs, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
}

func pixel(tg *Target, x, y int) [4]float32 {
	i := (y*tg.Width + x) * 4
	return [4]float32{tg.Color[i], tg.Color[i+1], tg.Color[i+2], tg.Color[i+3]}
}

func near(a, b [4]float32, tol float32) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > float64(tol) {
			return false
		}
	}
	return true
}
