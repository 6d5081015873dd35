package batch_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

// Every input lands in exactly one shard, decided by its path alone.
func ExampleShard_Contains() {
	var n [3]int
	for i := 0; i < 300; i++ {
		key := fmt.Sprintf("units/model%03d.mdx", i)
		for s := 0; s < 3; s++ {
			if (batch.Shard{Index: s, Count: 3}).Contains(key) {
				n[s]++
			}
		}
	}
	fmt.Println(n[0]+n[1]+n[2], n[0] > 0 && n[1] > 0 && n[2] > 0)
	// Output: 300 true
}

// A batch over any fs.FS — here a folder, but an archive or an embedded
// file system works the same: every model in it is rendered into out/,
// with a manifest of what was written. The options are values; a
// configuration file is read into them by pkg/batchconfig.
func Example_batch() {
	out, err := os.MkdirTemp("", "mdxrender-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	o := batch.DefaultOptions()
	o.Inputs.Trees = []batch.Tree{{Name: "fixtures", FS: os.DirFS("../../testdata/models")}}
	o.Inputs.Extensions = []string{".mdl"}
	o.Output.Dir = out
	o.Render.Size = batch.Square(64)
	run := batch.Runner{Options: &o, Version: "example"}
	manifest, err := run.Run(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(manifest.Summary.Models > 20, manifest.Summary.Failed)
	// Output: true 0
}
