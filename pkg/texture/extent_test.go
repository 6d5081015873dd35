package texture

import (
	"image"
	"math/rand/v2"
	"testing"
)

// extentAsks are the weights and thresholds the extent tests ask for:
// the framing's (alpha 1/16 and 3/4, glow 1/16 of 255²) and the edges.
var extentAsks = []extentKey{
	{ByAlpha, 16}, {ByAlpha, 192}, {ByAlpha, 1}, {ByAlpha, 255}, {ByAlpha, 256}, {ByAlpha, 0},
	{ByGlow, 4065}, {ByGlow, 1}, {ByGlow, 255 * 255}, {ByGlow, 40000},
}

type extentAnswer struct {
	r   image.Rectangle
	err error
}

// askExtents asks l every extentAsks, before anything else decodes.
func askExtents(l *Lazy) []extentAnswer {
	var out []extentAnswer
	for _, k := range extentAsks {
		r, err := l.Extent(k.c, k.least)
		out = append(out, extentAnswer{r, err})
	}
	return out
}

// checkExtents compares the answers of askExtents with the scan of
// Texture(0)'s level 0 (all, or its error texErr).
func checkExtents(t *testing.T, all *Texture, texErr error, got []extentAnswer) {
	t.Helper()
	for i, k := range extentAsks {
		g := got[i]
		if texErr != nil {
			if g.err == nil {
				t.Fatalf("Extent%v succeeded, Texture(0) failed: %v", k, texErr)
			}
			continue
		}
		if g.err != nil {
			t.Fatalf("Extent%v failed, Texture(0) succeeded: %v", k, g.err)
		}
		if want := extentOf(all.Levels[0], k.c, k.least); g.r != want {
			t.Fatalf("Extent%v = %v, level 0 scans to %v", k, g.r, want)
		}
	}
}

func TestExtent(t *testing.T) {
	const w, h = 8, 4
	idx := make([]byte, w*h)
	alpha := make([]byte, w*h)
	alpha[1*w+5], alpha[2*w+6], alpha[3*w+1] = 16, 200, 15
	// Palette 0 is B 0, G 255, R 0: a texel's glow is 255 × its alpha.
	data := blp1Palette(w, h, 8, testPalette(), [][]byte{append(idx, alpha...), make([]byte, 2*4*2)})
	cases := []struct {
		c     Coverage
		least int
		want  image.Rectangle
	}{
		{ByAlpha, 16, image.Rect(5, 1, 7, 3)},
		{ByAlpha, 15, image.Rect(1, 1, 7, 4)},
		{ByAlpha, 200, image.Rect(6, 2, 7, 3)},
		{ByAlpha, 201, image.Rectangle{}},
		{ByAlpha, 0, image.Rect(0, 0, w, h)},
		{ByGlow, 16 * 255, image.Rect(5, 1, 7, 3)},
		{ByGlow, 16*255 + 1, image.Rect(6, 2, 7, 3)},
	}
	l, err := OpenLazy(data, "t.blp", nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second time from memory
		for _, c := range cases {
			if r, err := l.Extent(c.c, c.least); err != nil || r != c.want {
				t.Errorf("Extent(%d, %d) = %v, %v; want %v", c.c, c.least, r, err, c.want)
			}
		}
	}
	if l.levels[1] != nil {
		t.Error("Extent decoded level 1")
	}
	// A decoded texture answers from its level 0.
	tex, err := DecodeBLP(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := LazyOf(tex).Extent(ByAlpha, 16); err != nil || r != cases[0].want {
		t.Errorf("LazyOf: Extent = %v, %v", r, err)
	}
}

// extentOf skips texels that cannot change its answer; on random sparse
// and dense levels of many shapes it must give the answer of looking at
// every texel.
func TestExtentOfScansEnough(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	every := func(img *image.NRGBA, c Coverage, least int) image.Rectangle {
		var r image.Rectangle
		for y := range img.Rect.Dy() {
			for x := range img.Rect.Dx() {
				p := img.Pix[y*img.Stride+4*x:]
				if c.weight(int(p[0]), int(p[1]), int(p[2]), int(p[3])) >= least {
					r = r.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		return r
	}
	for trial := range 3000 {
		w, h := 1+rng.IntN(20), 1+rng.IntN(12)
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		density := rng.IntN(5) // 0: none set, 4: most
		for i := 0; i < len(img.Pix); i += 4 {
			switch {
			case rng.IntN(8) < density*2-1:
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(1+rng.IntN(255))
			case rng.IntN(2) == 0: // colour without alpha
				img.Pix[i], img.Pix[i+1], img.Pix[i+2] = uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))
			}
		}
		for _, c := range []Coverage{ByAlpha, ByGlow} {
			least := rng.IntN(300) - 5
			if c == ByGlow {
				least = rng.IntN(70000)
			}
			if got, want := extentOf(img, c, least), every(img, c, least); got != want {
				t.Fatalf("trial %d, %dx%d, coverage %d, least %d: %v, want %v", trial, w, h, c, least, got, want)
			}
		}
	}
}
