package pngenc

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/png"
	"testing"
)

// FuzzRoundTrip encodes pictures made from the input (its first two bytes
// the size, the rest the pixels, repeated to fill) and reads them back
// with image/png: every pixel must come back, and a second encoding must
// give the same bytes. The deflate encoder is a dependency; this is what
// we rely on it for.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{3, 2, 0, 0, 0, 0, 255, 255, 255, 255})
	f.Add([]byte{40, 7, 1, 2, 3, 255})
	f.Add(bytes.Repeat([]byte{200, 90, 0, 0, 0, 0, 0, 0, 7}, 40))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 3 {
			return
		}
		w, h := int(in[0])%300+1, int(in[1])%300+1
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		src := in[2:]
		for i := range img.Pix {
			img.Pix[i] = src[i%len(src)]
		}
		b, err := Bytes(img)
		if err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for y := range h {
			for x := range w {
				want := img.NRGBAAt(x, y)
				var got [4]uint8
				switch bk := back.(type) {
				case *image.NRGBA:
					c := bk.NRGBAAt(x, y)
					got = [4]uint8{c.R, c.G, c.B, c.A}
				case *image.RGBA:
					c := bk.RGBAAt(x, y)
					got = [4]uint8{c.R, c.G, c.B, c.A}
				default:
					t.Fatalf("decoded as %T", back)
				}
				if got != [4]uint8{want.R, want.G, want.B, want.A} {
					t.Fatalf("%dx%d: pixel (%d, %d) is %v, want %v", w, h, x, y, got, want)
				}
			}
		}
		if again, _ := Bytes(img); !bytes.Equal(again, b) {
			t.Fatal("a second encoding differs")
		}
	})
}

// FuzzAdler compares the checksum with hash/adler32's over the input
// written in pieces (the first byte sets their length).
func FuzzAdler(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add(bytes.Repeat([]byte{255}, 100))
	f.Add(append([]byte{31}, bytes.Repeat([]byte{255, 0, 128}, 50)...))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		step, data := int(in[0])+1, in[1:]
		want := adler32.Checksum(data)
		a := newAdler()
		for p := data; len(p) > 0; {
			k := min(step, len(p))
			a.write(p[:k])
			p = p[k:]
		}
		if got := a.sum(); got != want {
			t.Fatalf("%d bytes in pieces of %d: %08x, hash/adler32 %08x", len(data), step, got, want)
		}
	})
}
