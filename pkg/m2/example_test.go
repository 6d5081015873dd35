package m2

import (
	"errors"
	"fmt"
)

// Decode reads an M2 and File.Model turns a view of it into the
// mdx.Model the renderer draws; newer files are refused with a typed
// error. (fixture builds a small v256 M2 in memory, see builder_test.go.)
func ExampleDecode() {
	f, err := Decode(fixture(256))
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := f.Model(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	l := m.Materials[0].Layers[1]
	fmt.Printf("%d geosets, %d bones, layer filter %v\n", len(m.Geosets), len(m.Bones), l.FilterMode)

	_, err = Decode(fixture(264))
	var ue *UnsupportedVersionError
	fmt.Println(errors.As(err, &ue), err)
	// Output:
	// 2 geosets, 2 bones, layer filter Additive
	// true m2: unsupported M2 version 264 (only 256-263; Wrath and later keep their views in .skin files)
}
