package render_test

import (
	"fmt"
	"image/color"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Render a model built in code: one triangle facing the default camera
// (+X), team-coloured, over black. Real models come from pkg/model, and
// their textures from the folder they were read from (Textures.Local).
func ExampleAnimator_Render() {
	m := &mdx.Model{Version: 800}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}} // team colour
	m.Materials = []mdx.Material{{Layers: []mdx.Layer{{FilterMode: mdx.FilterNone, Flags: mdx.LayerUnshaded, TextureAnimID: -1, Alpha: 1}}}}
	m.Geosets = []mdx.Geoset{{
		Vertices:   []mdx.Vec3{{0, -10, 0}, {0, 10, 0}, {0, 0, 20}},
		Normals:    []mdx.Vec3{{1, 0, 0}, {1, 0, 0}, {1, 0, 0}},
		UVSets:     [][]mdx.Vec2{{{0, 1}, {1, 1}, {0.5, 0}}},
		Faces:      []uint16{0, 1, 2},
		FaceTypes:  []uint32{4},
		FaceGroups: []uint32{3},
		// Every vertex in matrix group 0; the model has no bones, so the
		// geometry stays where it is.
		VertexGroups:  []uint8{0, 0, 0},
		MatrixGroups:  []uint32{1},
		MatrixIndices: []uint32{0},
	}}
	a := render.NewAnimator(m, "triangle.mdx", render.Textures{})
	img, warns, err := a.Render(render.View{
		Width: 64, Team: texture.Player(1), Background: color.Black,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(img.Bounds().Dx(), img.Bounds().Dy(), len(warns))
	fmt.Println(img.NRGBAAt(32, 36), img.NRGBAAt(2, 2))
	// Output:
	// 64 64 0
	// {0 66 255 255} {0 0 0 255}
}
