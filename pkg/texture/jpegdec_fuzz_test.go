package texture

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// FuzzJPEGFast is differential: whenever the fast decoder returns pixels,
// image/jpeg's path must decode the same stream to the same pixels; and
// the fast decoder must never panic or answer anything but pixels or a
// jpegFallback. dw and dh move the level size off the frame size.
func FuzzJPEGFast(f *testing.F) {
	for _, e := range []testJPEG{
		{w: 16, h: 16, comps: 4, quality: 75, transform: -1},
		{w: 13, h: 9, comps: 4, quality: 90, ri: 1, transform: -1, seed: 1},
		{w: 24, h: 8, comps: 4, quality: 60, ri: 2, q16: true, order: []int{2, 3, 0, 1}, transform: 0, seed: 2},
		{w: 9, h: 17, comps: 3, quality: 80, transform: -1, seed: 3},
		{w: 11, h: 5, comps: 1, quality: 50, ri: 1, extended: true, transform: -1, seed: 4},
		{w: 8, h: 8, comps: 4, quality: 100, jfif: true, transform: 0, seed: 5},
	} {
		f.Add(blpStream(e.encode()), int8(0), int8(0), true)
	}
	f.Add(blpStream(hostile.BaselineJPEG(16, 8, 4)), int8(-3), int8(2), false)
	f.Add(blpStream(hostile.ProgressiveJPEG(8, 8, 4, 2)), int8(0), int8(0), true)
	// Progressive streams: every kind of scan, restarts, runs carried
	// over, small enough for the fuzzer to mutate.
	for i, c := range progCases() {
		if c.e.w*c.e.h > 64*64 {
			continue
		}
		f.Add(blpStream(c.e.encodeProgressive(c.o)), int8(i%3), int8(i%2), i%2 == 0)
	}
	var gray bytes.Buffer
	g := image.NewGray(image.Rect(0, 0, 10, 7))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 37)
	}
	if err := jpeg.Encode(&gray, g, &jpeg.Options{Quality: 90}); err != nil {
		f.Fatal(err)
	}
	f.Add(blpStream(gray.Bytes()), int8(1), int8(-1), false)
	f.Fuzz(func(t *testing.T, stream []byte, dw, dh int8, alpha bool) {
		w, h := 16, 16
		if fr, err := parseJPEGFrame(stream); err == nil && fr.comps != 0 {
			w, h = fr.width, fr.height
		}
		w = min(max(1, w+int(dw)%9), 1024)
		h = min(max(1, h+int(dh)%9), 1024)
		d := &fastJPEG{data: stream, hasAlpha: alpha}
		got, err := d.decode(w, h)
		if err != nil {
			var fb jpegFallback
			if !errors.As(err, &fb) {
				t.Fatalf("fast decoder returned %T %v, want a jpegFallback", err, err)
			}
			return
		}
		if got.Rect != image.Rect(0, 0, w, h) {
			t.Fatalf("fast decoder made %v, want %dx%d", got.Rect, w, h)
		}
		if d.width*d.height > 1<<20 {
			t.Skip("frame too large to decode with image/jpeg here")
		}
		want, err := decodeBLPJPEGStd(stream, w, h, alpha)
		if err != nil {
			t.Fatalf("fast decoder returned pixels for a stream image/jpeg refuses: %v", err)
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatal("fast decoder and image/jpeg path differ")
		}
	})
}
