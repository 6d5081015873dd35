package mpq_test

import (
	"fmt"
	"io/fs"
	"log"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// A packed map is an fs.FS: list it, and read files by the names models
// use for them.
func Example() {
	a, err := mpq.Open("../../testdata/mpq/map.w3x", budget.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	fmt.Println("MPQ header at", a.Header().Offset)
	fs.WalkDir(a, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fmt.Println(p)
		}
		return err
	})
	// Case and '\' versus '/' do not matter.
	b, err := fs.ReadFile(a, `TEXTURES\Stone.blp`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s... %d bytes\n", b[:4], len(b))
	// Output:
	// MPQ header at 512
	// (attributes)
	// textures/stone.blp
	// war3map.imp
	// war3map.j
	// war3mapImported/unit.mdx
	// BLP1... 3004 bytes
}

// Files lists every entry, including those no name is known for.
func ExampleArchive_Files() {
	a, err := mpq.Open("../../testdata/mpq/no-listfile.mpq", budget.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	for _, f := range a.Files() {
		cs, _ := f.Compressions()
		fmt.Printf("block %d %q %d bytes %v %v\n", f.BlockIndex, f.Name, f.Size, mpq.FlagNames(f.Flags), cs)
	}
	// Output:
	// block 0 "war3map.j" 56 bytes [compress encrypted exists] [zlib]
	// block 1 "" 15108 bytes [compress encrypted exists] [zlib]
	// block 2 "" 6004 bytes [compress encrypted exists] [zlib]
	// block 4 "(attributes)" 148 bytes [compress encrypted fix-key exists] [zlib]
}
