package batch_test

import (
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

// Frames are sampled over a sequence's half-open interval; their durations
// add up to the sequence length, as sprite-sheet players expect.
func ExampleSampleSequence() {
	walk := batch.SequenceInfo{Name: "Walk", Start: 1000, End: 1700, Looping: true}
	for _, s := range batch.SampleSequence(walk, 3, 0) {
		fmt.Println(s.Time, s.Duration)
	}
	// Output:
	// 1000 233
	// 1233 233
	// 1466 234
}

// A sheet has one block of rows per yaw and one row per sequence; the
// caller renders Frames() with one camera, assembles the images and writes
// the metadata.
func ExampleLayoutSheet() {
	stand := batch.SequenceInfo{Name: "Stand", Start: 0, End: 1000, Looping: true}
	seqs := []batch.SheetSequence{{Index: 0, Info: stand, Samples: batch.SampleSequence(stand, 4, 0)}}
	l, err := batch.LayoutSheet(seqs, []float64{0, 90}, 64, 64, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Bounds().Size(), len(l.Frames()))
	for _, c := range l.Cells[3:5] {
		fmt.Println(c.Name, c.Rect.Min, c.Sample.Duration)
	}
	// Output:
	// (256,128) 8
	// Stand_000_003 (192,0) 250
	// Stand_090_000 (0,64) 250
}

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
