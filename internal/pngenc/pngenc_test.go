package pngenc

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
)

// Pictures read back exactly with image/png: opaque ones as RGB, others as
// RGBA (straight alpha, every channel kept), sub-images, a size that
// needs several IDAT chunks; the same picture always gives the same bytes.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	picture := func(w, h int, opaque bool) *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(4) * 60) // runs and changes
			if opaque && i%4 == 3 {
				img.Pix[i] = 255
			}
		}
		return img
	}
	big := picture(700, 300, false)
	for name, n := range map[string]*image.NRGBA{
		"opaque":       picture(13, 7, true),
		"alpha":        picture(9, 17, false),
		"one pixel":    picture(1, 1, false),
		"several IDAT": big,
		"sub-image":    big.SubImage(image.Rect(101, 33, 350, 290)).(*image.NRGBA),
	} {
		b, err := Bytes(n)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, h := n.Rect.Dx(), n.Rect.Dy()
		if back.Bounds() != image.Rect(0, 0, w, h) {
			t.Fatalf("%s: bounds %v, want %dx%d", name, back.Bounds(), w, h)
		}
		for y := range h {
			for x := range w {
				want := n.NRGBAAt(n.Rect.Min.X+x, n.Rect.Min.Y+y)
				var got [4]uint8
				switch bk := back.(type) {
				case *image.NRGBA: // RGBA
					c := bk.NRGBAAt(x, y)
					got = [4]uint8{c.R, c.G, c.B, c.A}
				case *image.RGBA: // RGB
					c := bk.RGBAAt(x, y)
					got = [4]uint8{c.R, c.G, c.B, c.A}
				default:
					t.Fatalf("%s: decoded as %T", name, back)
				}
				if got != [4]uint8{want.R, want.G, want.B, want.A} {
					t.Fatalf("%s: pixel (%d, %d) is %v, want %v", name, x, y, got, want)
				}
			}
		}
		if _, rgb := back.(*image.RGBA); rgb != n.Opaque() {
			t.Errorf("%s: opaque %v, decoded as %T", name, n.Opaque(), back)
		}
		if again, _ := Bytes(n); !bytes.Equal(again, b) {
			t.Errorf("%s: a second encoding differs", name)
		}
	}
	// EncodeRGBA keeps the alpha channel of an opaque picture.
	var buf bytes.Buffer
	if err := EncodeRGBA(&buf, picture(4, 4, true)); err != nil {
		t.Fatal(err)
	}
	if back, err := png.Decode(&buf); err != nil {
		t.Fatal(err)
	} else if _, ok := back.(*image.NRGBA); !ok {
		t.Errorf("EncodeRGBA wrote %T", back)
	}
}

// BenchmarkEncode encodes a 256² thumbnail: a picture over a transparent
// background, a third of it covered.
func BenchmarkEncode(b *testing.B) {
	img := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	rng := rand.New(rand.NewPCG(3, 4))
	for y := 80; y < 200; y++ {
		for x := 60; x < 190; x++ {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x), uint8(y), uint8(rng.IntN(16)), 255
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Bytes(img); err != nil {
			b.Fatal(err)
		}
	}
}

// TestUpFilter checks the filter byte by byte, over lengths around its
// 8-byte words and the borrow's edge cases.
func TestUpFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 100 {
		cur, prev, got := make([]byte, n), make([]byte, n), make([]byte, n+1)
		for trial := range 50 {
			for i := range cur {
				cur[i], prev[i] = byte(rng.Uint32()), byte(rng.Uint32())
				if trial%5 == 0 { // the edge cases of the borrow
					cur[i], prev[i] = []byte{0, 0x7f, 0x80, 0xff}[rng.IntN(4)], []byte{0, 0x7f, 0x80, 0xff}[rng.IntN(4)]
				}
			}
			got[n] = 0xee
			upFilter(got[:n], cur, prev)
			for i := range n {
				if want := cur[i] - prev[i]; got[i] != want {
					t.Fatalf("n=%d: byte %d: %#x − %#x gave %#x, want %#x", n, i, cur[i], prev[i], got[i], want)
				}
			}
			if got[n] != 0xee {
				t.Fatalf("n=%d: wrote past the end", n)
			}
		}
	}
}

func TestPackRGB(t *testing.T) {
	for n := range 20 {
		src := make([]byte, 4*n)
		for i := range src {
			src[i] = byte(i*7 + 1)
		}
		dst := make([]byte, 3*n+5) // room past the end must stay untouched
		for i := range dst {
			dst[i] = 0xee
		}
		packRGB(dst, src)
		for x := range n {
			for c := range 3 {
				if dst[3*x+c] != src[4*x+c] {
					t.Fatalf("n=%d: pixel %d channel %d is %d, want %d", n, x, c, dst[3*x+c], src[4*x+c])
				}
			}
		}
		for i := 3 * n; i < len(dst); i++ {
			if dst[i] != 0xee {
				t.Fatalf("n=%d: byte %d past the pixels written", n, i)
			}
		}
	}
}

// TestOpaque: opaque agrees with image.NRGBA.Opaque on whole pictures and
// sub-pictures of every small width, opaque or with one alpha byte off
// anywhere, including in the bytes between a sub-picture's rows.
func TestOpaque(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for w := 1; w <= 9; w++ {
		for h := 1; h <= 3; h++ {
			full := image.NewNRGBA(image.Rect(0, 0, w+2, h+1))
			for i := range full.Pix {
				full.Pix[i] = byte(rng.Uint32())
			}
			for i := 3; i < len(full.Pix); i += 4 {
				full.Pix[i] = 0xff
			}
			for _, img := range []*image.NRGBA{full, full.SubImage(image.Rect(1, 1, w+1, h+1)).(*image.NRGBA)} {
				for i := -1; i < len(full.Pix)/4; i++ {
					if i >= 0 {
						full.Pix[4*i+3] = 0xfe
					}
					if got, want := opaque(img), img.Opaque(); got != want {
						t.Fatalf("%dx%d %v, alpha off at pixel %d: opaque %v, Opaque %v", w, h, img.Rect, i, got, want)
					}
					if i >= 0 {
						full.Pix[4*i+3] = 0xff
					}
				}
			}
		}
	}
}

// An encoder's state (close to a megabyte) outlives garbage collections:
// an encoding after two of them allocates little.
func TestStateKeptAcrossGC(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	if err := Encode(io.Discard, img); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	var err error
	if got := allocs.Bytes(func() { err = Encode(io.Discard, img) }); err != nil {
		t.Fatal(err)
	} else if got > 64<<10 {
		t.Errorf("an encoding after two collections allocated %d bytes", got)
	}
}

// TestAdler compares the checksum with hash/adler32's on random data of
// every length up to 300 and on long runs of 0xff (the largest sums, over
// several reductions), written whole and in random pieces.
func TestAdler(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(data []byte) {
		t.Helper()
		want := adler32.Checksum(data)
		a, b := newAdler(), newAdler()
		a.write(data)
		for p := data; len(p) > 0; {
			k := min(1+rng.IntN(100), len(p))
			b.write(p[:k])
			p = p[k:]
		}
		if a.sum() != want || b.sum() != want {
			t.Fatalf("%d bytes: %08x whole, %08x in pieces, hash/adler32 %08x", len(data), a.sum(), b.sum(), want)
		}
	}
	for n := range 300 {
		data := make([]byte, n)
		for i := range data {
			data[i] = uint8(rng.Uint32())
		}
		check(data)
	}
	for _, n := range []int{4095, 4096, 4097, 1<<18 + 33, 3<<18 + 5} {
		check(bytes.Repeat([]byte{0xff}, n))
	}
}

// BenchmarkAdler sums a 256-pixel RGBA row with its filter byte.
func BenchmarkAdler(b *testing.B) {
	data := make([]byte, 1025)
	for i := range data {
		data[i] = uint8(i * 7)
	}
	b.SetBytes(int64(len(data)))
	b.Run("ours", func(b *testing.B) {
		a := newAdler()
		for b.Loop() {
			a.write(data)
		}
	})
	b.Run("hash/adler32", func(b *testing.B) {
		a := adler32.New()
		for b.Loop() {
			a.Write(data)
		}
	})
}
