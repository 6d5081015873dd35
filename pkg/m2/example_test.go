package m2

import (
	"errors"
	"fmt"
)

// DecodeModel turns an M2 into the mdx.Model the renderer draws; newer
// files are refused with a typed error. (fixture builds a small v256 M2 in
// memory, see builder_test.go.)
func ExampleDecodeModel() {
	m, err := DecodeModel(fixture(256))
	if err != nil {
		fmt.Println(err)
		return
	}
	l := m.Materials[0].Layers[1]
	fmt.Printf("%d geosets, %d bones, layer filter %v\n", len(m.Geosets), len(m.Bones), l.FilterMode)

	newer := fixture(264)
	_, err = DecodeModel(newer)
	var ue *UnsupportedVersionError
	fmt.Println(errors.As(err, &ue), err)
	// Output:
	// 2 geosets, 2 bones, layer filter Additive
	// true m2: unsupported M2 version 264 (only 256-263; Wrath and later keep their views in .skin files)
}
