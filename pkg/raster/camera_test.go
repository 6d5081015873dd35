package raster

import (
	"math"
	"testing"

	"github.com/fogleman/fauxgl"
)

func TestClipPosition(t *testing.T) {
	cam := orbitCamera(fauxgl.Box{Min: fauxgl.V(-50, -50, 0), Max: fauxgl.V(50, 50, 100)}, 40, 30, 1.1)
	vp := cam.ViewProjection(1.5)
	p := [3]float32{12, -7, 33}
	want := vp.MulPositionW(fauxgl.V(12, -7, 33))
	got := ClipPosition(vp, p)
	for i, w := range []float64{want.X, want.Y, want.Z, want.W} {
		if math.Abs(float64(got[i])-w) > 1e-4*math.Max(1, math.Abs(w)) {
			t.Errorf("component %d: %v, want %v", i, got[i], w)
		}
	}
}

// orbitCamera is a camera on the bounding sphere of box seen from yaw and
// pitch (degrees), with +Z up and a 45° field of view: the automatic
// camera renderers frame models with, for test scenes.
func orbitCamera(box fauxgl.Box, yaw, pitch, margin float64) Camera {
	r, fov := box.Max.Sub(box.Min).Length()/2, 45.0
	d := margin * r / math.Sin(fov*math.Pi/360)
	y, p := yaw*math.Pi/180, pitch*math.Pi/180
	dir := fauxgl.V(math.Cos(p)*math.Cos(y), math.Cos(p)*math.Sin(y), math.Sin(p))
	return Camera{Eye: box.Center().Add(dir.MulScalar(d)), Target: box.Center(), Up: fauxgl.V(0, 0, 1),
		Fov: fov, OrthoHalfHeight: margin * r, Near: d / 100, Far: d + 4*r + 10}
}
