package mdx_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// A model built in code encodes in canonical chunk order and decodes back to
// the same values.
func Example() {
	m := &mdx.Model{
		Version:   800,
		Name:      "Box",
		Sequences: []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}},
		Bones: []mdx.Bone{{
			Node: mdx.Node{Name: "Root", ParentID: -1, Flags: mdx.NodeBone,
				Rotation: &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{
					{Frame: 0, Value: mdx.Quat{0, 0, 0, 1}},
					{Frame: 1000, Value: mdx.Quat{0, 0, 1, 0}},
				}}},
			GeosetAnimID: -1,
		}},
		PivotPoints: []mdx.Vec3{{0, 0, 0}},
	}
	var buf bytes.Buffer
	if err := mdx.Encode(&buf, m); err != nil {
		fmt.Println(err)
		return
	}
	back, err := mdx.Decode(buf.Bytes(), budget.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rot := back.Bones[0].Rotation
	fmt.Println(back.Name, back.Version, back.Sequences[0].Name, rot.Interpolation, len(rot.Keys), rot.Keys[1].Value)
	// Output: Box 800 Stand Linear 2 [0 0 1 0]
}

// Malformed input gives a *FormatError with the chunk and byte offset.
func ExampleFormatError() {
	b := []byte("MDLX" + "GEOS" + "\x04\x00\x00\x00" + "\xff\xff\xff\xff")
	_, err := mdx.Decode(b, budget.Limits{})
	var fe *mdx.FormatError
	if errors.As(err, &fe) {
		fmt.Println(fe.Chunk, fe.Offset)
	}
	fmt.Println(err)
	// Output:
	// GEOS 12
	// mdx: GEOS at offset 0xc: geoset size 4294967295 exceeds remaining 4 bytes
}

// Flags and enumerations read as their MDL keywords; a bit without a name
// shows as hex. The WoW versions give some layer bits other meanings.
func ExampleLayer_FlagNames() {
	l := mdx.Layer{FilterMode: mdx.FilterAdditive, Flags: mdx.LayerUnshaded | mdx.LayerTwoSided | 0x4}
	fmt.Println(l.FilterMode, l.FlagNames(800), l.FlagNames(1500))
	// Output: Additive [Unshaded TwoSided 0x4] [Unshaded WrapWidth TwoSided]
}
