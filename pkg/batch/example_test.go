package batch_test

import (
	"fmt"

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
