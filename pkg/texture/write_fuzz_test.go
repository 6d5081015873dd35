package texture

import (
	"bytes"
	"image"
	"testing"
)

// fuzzPicture turns fuzz bytes into a picture and the options to write it
// with: the first bytes choose the size (1 to 40 a side), a pattern and
// the options, the rest are pixels, repeated to fill the picture.
type fuzzPicture struct {
	img     *image.NRGBA
	flat    bool // every pixel alike
	quality int
	alpha   int
	pal     bool
	noMips  bool
	dds     DDSFormat
}

func newFuzzPicture(data []byte) (fuzzPicture, bool) {
	if len(data) < 6 {
		return fuzzPicture{}, false
	}
	w, h := 1+int(data[0])%40, 1+int(data[1])%40
	mode := data[2]
	f := fuzzPicture{
		quality: 1 + int(data[3])%100,
		alpha:   [4]int{0, 1, 4, 8}[data[4]&3],
		pal:     data[4]&4 != 0,
		noMips:  data[4]&8 != 0,
		dds:     DDSFormat(data[4] >> 4 % 3),
		flat:    mode&1 != 0,
	}
	if !f.pal && f.alpha != 8 {
		f.alpha = 0
	}
	if mode&2 != 0 {
		f.quality = 100
	}
	px := data[5:]
	if len(px) == 0 || f.flat {
		px = data[:4]
	}
	f.img = image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range f.img.Pix {
		f.img.Pix[i] = px[i%len(px)]
	}
	if mode&4 != 0 { // opaque
		for i := 3; i < len(f.img.Pix); i += 4 {
			f.img.Pix[i] = 255
		}
	}
	return f, true
}

func fuzzSeeds(f *testing.F) {
	f.Add([]byte{63, 63, 4, 84, 0, 10, 200, 30, 255, 40, 90, 120, 255})
	f.Add([]byte{0, 0, 0, 0, 0, 0})
	f.Add([]byte{7, 12, 2, 0, 8, 255, 0, 0, 128, 0, 255, 0, 255})
	f.Add([]byte{15, 15, 5, 50, 4 | 8, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{31, 3, 4, 99, 0x10, 9, 8, 7, 6, 5, 4, 3, 2, 1})
	f.Add([]byte{20, 20, 1, 1, 0x21, 77, 33, 11, 200})
	f.Add([]byte{9, 9, 6, 1, 5, 0, 255, 0, 255, 255, 255, 255, 0})
}

// wantLevels checks that tex has the picture's mip chain's levels (only
// the first without mips) at their sizes, and returns the chain.
func (p fuzzPicture) wantLevels(t *testing.T, tex *Texture) []*image.NRGBA {
	t.Helper()
	want := MipChain(p.img)
	if p.noMips {
		want = want[:1]
	}
	checkLevels(t, tex, want)
	return want
}

// pictureTarget is the fuzz body of the writers: check gets the picture
// the data describes, if any.
func pictureTarget(check func(*testing.T, fuzzPicture)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		if p, ok := newFuzzPicture(data); ok {
			check(t, p)
		}
	}
}

// FuzzEncodeBLP writes fuzzed pictures as BLP1 and reads them back with
// the decoder: every level is there at its size and within JPEG's
// tolerance of the writer's own mip chain, exact for a palettised
// picture that has few enough colours, and opaque without alpha bits.
func FuzzEncodeBLP(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(pictureTarget(checkBLPRoundTrip))
}

// FuzzEncodeDDS writes fuzzed pictures as DDS and reads them back: BGRA is
// exact, DXT1/DXT5 blocks are never worse than their mean colour alone
// and their alpha is within the format's steps.
func FuzzEncodeDDS(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(pictureTarget(checkDDSRoundTrip))
}

func checkBLPRoundTrip(t *testing.T, p fuzzPicture) {
	t.Helper()
	opt := &BLPOptions{Palette: p.pal, Quality: p.quality, AlphaBits: p.alpha, NoMips: p.noMips}
	var buf bytes.Buffer
	if err := EncodeBLP(&buf, p.img, opt); err != nil {
		t.Fatalf("EncodeBLP(%+v): %v", opt, err)
	}
	var again bytes.Buffer
	if err := EncodeBLP(&again, p.img, opt); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Fatal("a second EncodeBLP wrote other bytes")
	}
	tex, err := DecodeBLP(buf.Bytes(), &Options{Strict: true})
	if err != nil {
		t.Fatalf("DecodeBLP of our own %+v file: %v", opt, err)
	}
	want := p.wantLevels(t, tex)
	for i, l := range tex.Levels {
		w := want[i]
		switch {
		case p.pal:
			if i == 0 && colours(w) <= 256 {
				checkClose(t, i, l, w, 0, alphaTolerance(p.alpha, w))
			}
		default:
			tol := -1 // any, at low qualities
			if p.quality == 100 {
				tol = jpegTolerance100
			}
			if p.flat {
				// Only the DC term: off by at most half its quantiser
				// over the 8 the DCT scales it by, plus rounding.
				tol = int(jpegQuant(p.quality)[0])/16 + 1
			}
			atol := -1 // alpha is lossy like colour, or not kept
			if p.alpha == 8 {
				atol = tol
			}
			checkClose(t, i, l, w, tol, atol)
		}
		if p.alpha == 0 {
			for k := 3; k < len(l.Pix); k += 4 {
				if l.Pix[k] != 255 {
					t.Fatalf("level %d: alpha %d without alpha bits", i, l.Pix[k])
				}
			}
		}
	}
}

// jpegTolerance100 is the largest channel error of a round trip at
// quality 100 (every quantiser 1): the rounding of the coefficients and
// of the decoder's integer IDCT, and the clamping of overshoot, on
// pictures of noise. Measured: at most 2 over 300 pictures of noise up to 40×40.
const jpegTolerance100 = 3

// alphaTolerance is how far a decoded alpha may be from the picture's:
// -1 when the alpha is not kept at all (0 bits, checked apart), 0 when 8
// bits keep it (palettised) or when every alpha is 0 or 255 and 1 bit
// keeps it, else one step of the bit depth.
func alphaTolerance(bits int, img *image.NRGBA) int {
	switch bits {
	case 0:
		return -1
	case 8:
		return 0
	case 4:
		return 255 / 15 / 2
	}
	for k := 3; k < len(img.Pix); k += 4 {
		if a := img.Pix[k]; a != 0 && a != 255 {
			return 127
		}
	}
	return 0
}

func checkLevels(t *testing.T, tex *Texture, want []*image.NRGBA) {
	t.Helper()
	if len(tex.Levels) != len(want) {
		t.Fatalf("decoded %d levels, wrote %d", len(tex.Levels), len(want))
	}
	for i, l := range tex.Levels {
		if l.Rect != want[i].Rect {
			t.Fatalf("level %d decoded %v, wrote %v", i, l.Rect, want[i].Rect)
		}
	}
}

// checkClose compares colour within tol and alpha within atol (-1: not
// at all).
func checkClose(t *testing.T, level int, got, want *image.NRGBA, tol, atol int) {
	t.Helper()
	for i := range got.Pix {
		lim := tol
		if i%4 == 3 {
			lim = atol
		}
		if lim < 0 {
			continue
		}
		if d := int(got.Pix[i]) - int(want.Pix[i]); d > lim || -d > lim {
			t.Fatalf("level %d pixel %d channel %d: read %d, wrote %d (tolerance %d)", level, i/4, i%4, got.Pix[i], want.Pix[i], lim)
		}
	}
}

// colours counts a picture's distinct RGB colours, up to 257.
func colours(img *image.NRGBA) int {
	seen := map[[3]uint8]bool{}
	for i := 0; i+3 < len(img.Pix) && len(seen) <= 256; i += 4 {
		seen[[3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}] = true
	}
	return len(seen)
}

func checkDDSRoundTrip(t *testing.T, p fuzzPicture) {
	t.Helper()
	opt := &DDSOptions{Format: p.dds, NoMips: p.noMips}
	var buf bytes.Buffer
	if err := EncodeDDS(&buf, p.img, opt); err != nil {
		t.Fatalf("EncodeDDS(%+v): %v", opt, err)
	}
	tex, err := DecodeDDS(buf.Bytes(), &Options{Strict: true})
	if err != nil {
		t.Fatalf("DecodeDDS of our own %v file: %v", p.dds, err)
	}
	want := p.wantLevels(t, tex)
	for i, l := range tex.Levels {
		w := want[i]
		switch p.dds {
		case DDSBGRA:
			checkClose(t, i, l, w, 0, 0)
		default:
			checkBlocks(t, i, l, w, p.dds)
		}
	}
}

// checkBlocks holds a DXT level to what the format can promise: per 4×4
// block, the colour error of its visible pixels is at most that of the
// block's mean colour in RGB565, and alpha is DXT1's cut at 128 or
// within half a step of DXT5's ramp between the block's extremes.
func checkBlocks(t *testing.T, level int, got, want *image.NRGBA, f DDSFormat) {
	t.Helper()
	w, h := want.Rect.Dx(), want.Rect.Dy()
	for by := 0; by < h; by += 4 {
		for bx := 0; bx < w; bx += 4 {
			var idx []int
			lo, hi := 255, 0
			for y := by; y < min(by+4, h); y++ {
				for x := bx; x < min(bx+4, w); x++ {
					i := 4 * (y*w + x)
					idx = append(idx, i)
					a := int(want.Pix[i+3])
					lo, hi = min(lo, a), max(hi, a)
				}
			}
			// The encoder sees the block padded by repeating edges; the
			// mean it is held to is over that padded block.
			var mean [3]int
			n := 0
			for k := range 16 {
				x, y := min(bx+k%4, w-1), min(by+k/4, h-1)
				i := 4 * (y*w + x)
				if f == DDSDXT5 || want.Pix[i+3] >= 128 {
					for c := range 3 {
						mean[c] += int(want.Pix[i+c])
					}
					n++
				}
			}
			var flatErr, gotErr int
			if n > 0 {
				for c := range 3 {
					mean[c] = (mean[c] + n/2) / n
				}
				m := expand565(to565(mean))
				for k := range 16 {
					x, y := min(bx+k%4, w-1), min(by+k/4, h-1)
					i := 4 * (y*w + x)
					if f == DDSDXT5 || want.Pix[i+3] >= 128 {
						for c := range 3 {
							d := int(want.Pix[i+c]) - m[c]
							flatErr += d * d
						}
					}
				}
			}
			// The decoded error over the same padded block.
			for k := range 16 {
				x, y := min(bx+k%4, w-1), min(by+k/4, h-1)
				i := 4 * (y*w + x)
				if f == DDSDXT5 || want.Pix[i+3] >= 128 {
					for c := range 3 {
						d := int(want.Pix[i+c]) - int(got.Pix[i+c])
						gotErr += d * d
					}
				}
			}
			if gotErr > flatErr {
				t.Fatalf("level %d block at %d,%d: squared error %d, the mean colour alone gives %d", level, bx, by, gotErr, flatErr)
			}
			for _, i := range idx {
				a, ga := int(want.Pix[i+3]), int(got.Pix[i+3])
				if f == DDSDXT1 {
					if (a >= 128) != (ga == 255) || (a < 128 && ga != 0) {
						t.Fatalf("level %d pixel %d: alpha %d read as %d", level, i/4, a, ga)
					}
					continue
				}
				step := (hi - lo + 13) / 14
				if d := a - ga; d > step || -d > step {
					t.Fatalf("level %d pixel %d: alpha %d read as %d (block %d..%d)", level, i/4, a, ga, lo, hi)
				}
			}
		}
	}
}
