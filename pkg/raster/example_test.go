package raster_test

import (
	"fmt"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// A renderer's frame: frame the model, project its vertices, draw one batch
// per layer in DrawOrder, resolve to an image.
func Example() {
	box := fauxgl.Box{Min: fauxgl.V(-10, -10, 0), Max: fauxgl.V(10, 10, 20)}
	cam, err := raster.Framing{Box: box, Yaw: 0, Pitch: 0}.Camera()
	if err != nil {
		panic(err)
	}
	vp := cam.ViewProjection(1)

	// A red square facing the camera (+X), counter-clockwise as seen from it.
	light := [3]float32{0, 0, 10000}
	var vs []raster.Vertex
	for _, p := range [][3]float32{{0, -5, 5}, {0, 5, 5}, {0, 5, 15}, {0, -5, 15}} {
		c := vp.MulPositionW(fauxgl.V(float64(p[0]), float64(p[1]), float64(p[2])))
		vs = append(vs, raster.Vertex{
			Position: [4]float32{float32(c.X), float32(c.Y), float32(c.Z), float32(c.W)},
			Normal:   [3]float32{1, 0, 0},
			Light:    raster.LightDir(p, light),
		})
	}
	layers := []raster.Batch{{
		State:    raster.LayerState(raster.FilterNone, 0),
		Color:    [4]float32{1, 0, 0, 1}, // geoset colour × layer alpha
		Vertices: vs,
		Indices:  []uint32{0, 1, 2, 0, 2, 3},
	}}
	items := []raster.DrawItem{{Filter: raster.FilterNone}}
	var ordered []raster.Batch
	for _, i := range raster.DrawOrder(items) {
		ordered = append(ordered, layers[i])
	}

	const size, ssaa = 32, 2
	tg, err := raster.NewTarget(size*ssaa, size*ssaa)
	if err != nil {
		panic(err)
	}
	if err := tg.Draw(ordered, raster.DrawOptions{}); err != nil {
		panic(err)
	}
	img, err := tg.Resolve(ssaa, nil)
	if err != nil {
		panic(err)
	}
	// A side-facing surface is lit at 70 %: 255·0.7 ≈ 179.
	fmt.Println(img.NRGBAAt(16, 16), img.NRGBAAt(1, 1))
	// Output: {179 0 0 255} {0 0 0 0}
}
