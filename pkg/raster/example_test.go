package raster_test

import (
	"fmt"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// A frame: project the vertices with a camera, draw batches in order,
// resolve to an image. Here a red lit square faces the camera.
func Example() {
	cam := raster.Camera{
		Eye: fauxgl.V(60, 0, 10), Target: fauxgl.V(0, 0, 10), Up: fauxgl.V(0, 0, 1),
		Fov: 45, Near: 1, Far: 200,
	}
	vp := cam.ViewProjection(1)

	// Counter-clockwise as seen from the camera on +X.
	light := [3]float32{0, 0, 10000}
	var vs []raster.Vertex
	for _, p := range [][3]float32{{0, -5, 5}, {0, 5, 5}, {0, 5, 15}, {0, -5, 15}} {
		vs = append(vs, raster.Vertex{
			Position: raster.ClipPosition(vp, p),
			Normal:   [3]float32{1, 0, 0},
			Light:    raster.LightDir(p, light),
		})
	}
	batches := []raster.Batch{{
		State: raster.State{
			Blend: raster.BlendReplace, DepthTest: true, DepthWrite: true,
			Lit: true, Ambient: 0.7,
		},
		Color:    [4]float32{1, 0, 0, 1},
		Vertices: vs,
		Indices:  []uint32{0, 1, 2, 0, 2, 3},
	}}

	const size, ssaa = 32, 2
	tg, err := raster.NewTarget(size*ssaa, size*ssaa)
	if err != nil {
		panic(err)
	}
	if err := tg.Draw(batches, raster.DrawOptions{}); err != nil {
		panic(err)
	}
	img, err := tg.Resolve(ssaa, nil)
	if err != nil {
		panic(err)
	}
	// The light is almost straight above, so the side-facing square gets
	// the ambient term only: 255·0.7 ≈ 179.
	fmt.Println(img.NRGBAAt(16, 16), img.NRGBAAt(1, 1))
	// Output: {179 0 0 255} {0 0 0 0}
}
