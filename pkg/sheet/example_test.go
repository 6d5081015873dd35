package sheet_test

import (
	"fmt"
	"image"
	"log"

	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// A walk cycle seen from two sides, four frames each, on a sheet of 32x32
// frames; draw stands in for a renderer.
func Example() {
	walk := sheet.Sequence{Name: "Walk", Start: 1000, End: 1800, Looping: true}
	strips := []sheet.Strip{{Index: 1, Sequence: walk, Samples: sheet.SampleSequence(walk, 4, 0)}}
	l, err := sheet.NewLayout(strips, []float64{0, 180}, 32, 32, 0)
	if err != nil {
		log.Fatal(err)
	}
	draw := func(f sheet.Frame) *image.NRGBA { return image.NewNRGBA(image.Rect(0, 0, 32, 32)) }

	var frames []*image.NRGBA
	for _, f := range l.Frames() {
		frames = append(frames, draw(f))
	}
	img, err := l.Assemble(frames)
	if err != nil {
		log.Fatal(err)
	}
	meta, err := l.TexturePackerJSON("walk-sheet.png", "example")
	if err != nil {
		log.Fatal(err)
	}
	_ = meta // saved next to walk-sheet.png for Phaser or PixiJS

	fmt.Println("sheet", img.Bounds().Size())
	for _, c := range l.Cells[:5] {
		fmt.Println(c.Name, c.Rect.Min, "at", c.Sample.Time, "ms for", c.Sample.Duration, "ms")
	}
	// Output:
	// sheet (128,64)
	// Walk_000_000 (0,0) at 1000 ms for 200 ms
	// Walk_000_001 (32,0) at 1200 ms for 200 ms
	// Walk_000_002 (64,0) at 1400 ms for 200 ms
	// Walk_000_003 (96,0) at 1600 ms for 200 ms
	// Walk_180_000 (0,32) at 1000 ms for 200 ms
}

// Frames are sampled over a sequence's half-open interval; their durations
// add up to the sequence length, as sprite-sheet players expect.
func ExampleSampleSequence() {
	walk := sheet.Sequence{Name: "Walk", Start: 1000, End: 1700, Looping: true}
	for _, s := range sheet.SampleSequence(walk, 3, 0) {
		fmt.Println(s.Time, s.Duration)
	}
	// Output:
	// 1000 233
	// 1233 233
	// 1466 234
}

// A sheet has one block of rows per yaw and one row per sequence.
func ExampleNewLayout() {
	stand := sheet.Sequence{Name: "Stand", Start: 0, End: 1000, Looping: true}
	strips := []sheet.Strip{{Index: 0, Sequence: stand, Samples: sheet.SampleSequence(stand, 4, 0)}}
	l, err := sheet.NewLayout(strips, []float64{0, 90}, 64, 64, 0)
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
