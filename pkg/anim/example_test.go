package anim_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"log"

	"github.com/mdxrender/mdxrender/pkg/anim"
)

// A blinking red square: one frame with the square, one without, half a
// second each. GIF counts time in hundredths of a second.
func ExampleEncodeGIF() {
	on := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	draw.Draw(on, image.Rect(4, 4, 12, 12), image.NewUniform(color.NRGBA{255, 0, 0, 255}), image.Point{}, draw.Src)
	off := image.NewNRGBA(image.Rect(0, 0, 16, 16))

	var b bytes.Buffer
	if err := anim.EncodeGIF(&b, []*image.NRGBA{on, off}, []uint32{500, 500}); err != nil {
		log.Fatal(err)
	}
	g, err := gif.DecodeAll(&b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(g.Image), "frames, delays", g.Delay)
	// Output: 2 frames, delays [50 50]
}
