package mdx_test

import (
	"fmt"
	"os"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// MDL text in, model out: static colours are B,G,R in the text and MDX
// order in the model.
func ExampleDecodeMDL() {
	m, err := mdx.DecodeMDL([]byte(`Version { FormatVersion 800, }
Model "Crate" { BlendTime 150, }
GeosetAnim {
	static Color { 0, 0.5, 1 }, // blue, green, red
	GeosetId 0,
}
`), budget.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Name, m.Version, m.GeosetAnims[0].Color)

	_, err = mdx.DecodeMDL([]byte("Model \"x\" {\n\tBlendTime fast,\n}\n"), budget.Limits{})
	fmt.Println(err)
	// Output:
	// Crate 800 [1 0.5 0]
	// mdl: line 2, column 12: expected a whole number for BlendTime, found "fast"
}

// EncodeMDL writes floats in their shortest exact form, so MDX -> MDL -> MDX
// gives back the same numbers.
func ExampleEncodeMDL() {
	m := &mdx.Model{Version: 800, Name: "Tiny", GlobalSequences: []uint32{1000}}
	if err := mdx.EncodeMDL(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// // Written by mdxrender
	// Version {
	// 	FormatVersion 800,
	// }
	// Model "Tiny" {
	// 	BlendTime 0,
	// }
	// GlobalSequences 1 {
	// 	Duration 1000,
	// }
}
