package render

import (
	"image"
	"testing"
)

// TestBlank: a picture is blank when every pixel has the first pixel's
// four bytes, and not when any one byte of any pixel differs, in a whole
// picture and in a sub-picture (whose rows are not contiguous).
func TestBlank(t *testing.T) {
	full := image.NewNRGBA(image.Rect(0, 0, 5, 4))
	for i := range full.Pix {
		full.Pix[i] = []byte{10, 20, 30, 255}[i%4]
	}
	sub := full.SubImage(image.Rect(1, 1, 4, 3)).(*image.NRGBA)
	for _, img := range []*image.NRGBA{full, sub} {
		if !Blank(img) {
			t.Fatalf("%v: one colour not blank", img.Rect)
		}
		for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
			for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
				for c := range 4 {
					o := img.PixOffset(x, y) + c
					img.Pix[o]++
					if Blank(img) {
						t.Fatalf("%v: byte %d of pixel (%d,%d) differs, yet blank", img.Rect, c, x, y)
					}
					img.Pix[o]--
				}
			}
		}
	}
	if !Blank(image.NewNRGBA(image.Rect(0, 0, 0, 0))) {
		t.Error("an empty picture is not blank")
	}
	// Outside the sub-picture nothing counts.
	full.Pix[0] = 0
	if !Blank(sub) {
		t.Error("a pixel outside the sub-picture counted")
	}
}
