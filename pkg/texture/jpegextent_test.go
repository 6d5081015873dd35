package texture

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// checkJPEGExtent compares blpJPEGExtent with the scan of the fast
// decoder's level, for every extentAsks; it returns whether the extent
// path took the stream.
func checkJPEGExtent(t testing.TB, stream []byte, w, h int, hasAlpha bool) bool {
	t.Helper()
	img, err := decodeBLPJPEGFast(stream, w, h, hasAlpha)
	taken := 0
	for _, k := range extentAsks {
		r, ok := blpJPEGExtent(stream, w, h, hasAlpha, k.c, k.least)
		if !ok {
			continue
		}
		taken++
		if err != nil {
			t.Fatalf("extent path took a stream the decoder declines (%v)", err)
		}
		if want := extentOf(img, k.c, k.least); r != want {
			t.Fatalf("%dx%d alpha=%v: extent%v = %v, the level scans to %v", w, h, hasAlpha, k, r, want)
		}
	}
	if taken != 0 && taken != len(extentAsks) {
		t.Fatalf("extent path took %d of %d asks", taken, len(extentAsks))
	}
	return taken != 0
}

// blob draws a transparent level with a soft opaque spot at (cx, cy) in
// the alpha plane, colour elsewhere: what a glow or a shadow looks like.
func blob(comps, cx, cy, r int) func(c, x, y int) uint8 {
	return func(c, x, y int) uint8 {
		d2 := (x-cx)*(x-cx) + (y-cy)*(y-cy)
		v := max(0, 255-255*d2/(r*r))
		if c == comps-1 || comps == 1 {
			return uint8(v)
		}
		return uint8((x*37 + y*11 + c*80) % 256)
	}
}

func TestJPEGExtentSynthetic(t *testing.T) {
	cases := []testJPEG{
		{w: 64, h: 64, comps: 4, quality: 75, transform: -1},
		{w: 37, h: 21, comps: 4, quality: 90, transform: -1},
		{w: 1, h: 1, comps: 4, quality: 50, transform: -1},
		{w: 57, h: 63, comps: 4, quality: 97, ri: 1, transform: -1, seed: 5},
		{w: 40, h: 40, comps: 4, quality: 85, q16: true, transform: -1, seed: 8},
		{w: 33, h: 17, comps: 4, quality: 70, order: []int{3, 1, 0, 2}, transform: -1, seed: 9},
		{w: 23, h: 31, comps: 3, quality: 75, transform: -1, seed: 12},
		{w: 45, h: 13, comps: 1, quality: 75, transform: -1, seed: 14},
		{w: 128, h: 96, comps: 4, quality: 80, transform: -1, draw: blob(4, 70, 40, 20)},
		{w: 128, h: 96, comps: 4, quality: 30, ri: 3, transform: -1, draw: blob(4, 3, 90, 9)},
		{w: 100, h: 100, comps: 4, quality: 95, order: []int{3, 2, 1, 0}, transform: -1, draw: blob(4, 99, 0, 30)},
		{w: 64, h: 64, comps: 4, quality: 60, transform: -1, draw: blob(4, 32, 32, 1)},
		{w: 64, h: 64, comps: 4, quality: 60, transform: -1, draw: func(c, x, y int) uint8 { return 0 }},
		{w: 72, h: 40, comps: 1, quality: 75, transform: -1, draw: blob(1, 20, 20, 12)},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%dx%d_c%d_q%d_ri%d_draw%v", c.w, c.h, c.comps, c.quality, c.ri, c.draw != nil)
		t.Run(name, func(t *testing.T) {
			s := blpStream(c.encode())
			for _, sz := range levelSizes(c.w, c.h) {
				for _, alpha := range []bool{true, false} {
					if !checkJPEGExtent(t, s, sz[0], sz[1], alpha) {
						t.Fatalf("%dx%d: the extent path declined", sz[0], sz[1])
					}
				}
			}
		})
	}
}

// TestJPEGExtentDeclines checks that the extent path leaves to the decode
// what the fast decoder leaves to image/jpeg, and progressive streams.
func TestJPEGExtentDeclines(t *testing.T) {
	for i, c := range progCases() {
		s := blpStream(c.e.encodeProgressive(c.o))
		if checkJPEGExtent(t, s, c.e.w, c.e.h, true) {
			t.Fatalf("case %d: progressive stream taken", i)
		}
	}
	ycck := blpStream((&testJPEG{w: 8, h: 8, comps: 4, quality: 75, transform: 2}).encode())
	if checkJPEGExtent(t, ycck, 8, 8, true) {
		t.Fatal("YCCK stream taken")
	}
	good := blpStream((&testJPEG{w: 24, h: 16, comps: 4, quality: 75, transform: -1}).encode())
	if checkJPEGExtent(t, good[:len(good)-40], 24, 16, true) {
		t.Fatal("truncated stream taken")
	}
}

// TestSampleBound checks sampleBound against the transform on blocks
// within its limits: sparse and dense, at the limits, every position.
func TestSampleBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d fastJPEG
	dst := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	c := &jpegComp{ch: 0}
	check := func(blk [64]int32) {
		var rows uint32
		for k := 1; k < 64; k++ {
			if blk[zigzag[k]] != 0 {
				rows |= rowBits[k]
			}
		}
		b := sampleBound(&blk, rows)
		d.blk = blk
		d.store(dst, c, rows, 0, 0, 8, 8)
		d.clearBlock(rows)
		if d.blk != [64]int32{} {
			t.Fatal("block not cleared")
		}
		for i := 0; i < len(dst.Pix); i += 4 {
			if int(dst.Pix[i]) > b {
				t.Fatalf("sample %d over bound %d for block %v", dst.Pix[i], b, blk)
			}
		}
	}
	for n := range 200000 {
		var blk [64]int32
		blk[0] = int32(rng.IntN(2*boundMaxDC+1) - boundMaxDC)
		budget := rng.IntN(boundMaxAC + 1)
		switch n % 3 {
		case 0: // one coefficient takes it all
			k := 1 + rng.IntN(63)
			blk[k] = int32(budget)
			if rng.IntN(2) == 0 {
				blk[k] = -blk[k]
			}
		case 1: // a few
			for range 1 + rng.IntN(4) {
				v := rng.IntN(budget + 1)
				budget -= v
				if rng.IntN(2) == 0 {
					v = -v
				}
				blk[1+rng.IntN(63)] += int32(v)
			}
		default: // spread over all
			for budget > 0 {
				v := min(budget, 1+rng.IntN(20))
				budget -= v
				if rng.IntN(2) == 0 {
					v = -v
				}
				blk[1+rng.IntN(63)] += int32(v)
			}
		}
		check(blk)
	}
	// The signs that add up at one sample: every AC at the limit's
	// share, with the sign of its basis function at each corner.
	for _, corner := range [][2]int{{0, 0}, {7, 7}, {3, 4}, {0, 7}} {
		var blk [64]int32
		blk[0] = -boundMaxDC / 2
		for i := 1; i < 64; i++ {
			u, v := i%8, i/8
			sign := cosSign(u, corner[0]) * cosSign(v, corner[1])
			blk[i] = int32(sign * boundMaxAC / 63)
		}
		check(blk)
	}
}

// cosSign is the sign of cos((2x+1)uπ/16).
func cosSign(u, x int) int {
	// The angle (2x+1)u/16 half-turns, mod 2 turns.
	a := (2*x + 1) * u % 32
	if a < 8 || a > 24 {
		return 1
	}
	if a == 8 || a == 24 {
		return 0
	}
	return -1
}

// TestExtentCorpus compares Lazy.Extent with the scan of level 0 for every
// corpus texture, BLP JPEG or not.
func TestExtentCorpus(t *testing.T) {
	shared := sharedDir(t)
	rows := readTSV(t, filepath.Join(shared, "corpus", "manifest.tsv"))
	n, jpegs := 0, 0
	for _, r := range rows {
		switch r["magic"] {
		case "BLP1", "BLP2", "DDS", "TGA":
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join(shared, "corpus", r["local_path"]))
		if err != nil {
			t.Fatal(err)
		}
		l, err := OpenLazy(data, r["local_path"], &corpusBudgets)
		if err != nil {
			continue
		}
		n++
		if h, err := parseBLPHeader(data, nil); err == nil && h.content == blpJPEG {
			jpegs++
		}
		got := askExtents(l)
		again := askExtents(l) // remembered
		fresh, _ := OpenLazy(data, r["local_path"], &corpusBudgets)
		all, err := fresh.Texture(0)
		t.Run(r["local_path"], func(t *testing.T) {
			checkExtents(t, all, err, got)
			checkExtents(t, all, err, again)
		})
	}
	t.Logf("%d textures, %d BLP JPEG", n, jpegs)
	if jpegs == 0 {
		t.Error("no BLP JPEG in the corpus")
	}
}

// BenchmarkJPEGExtentCorpus finds the extents the framing asks for of
// every corpus BLP1 JPEG level 0 the fast decoder takes, against decoding
// them ("decode"); per level-0 pixel.
func BenchmarkJPEGExtentCorpus(b *testing.B) {
	shared := sharedDir(b)
	type level struct {
		s     []byte
		w, h  int
		alpha bool
	}
	var levels []level
	pixels := 0
	for _, r := range readTSV(b, filepath.Join(shared, "corpus", "manifest.tsv")) {
		if r["magic"] != "BLP1" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(shared, "corpus", r["local_path"]))
		if err != nil {
			b.Fatal(err)
		}
		h, err := parseBLPHeader(data, nil)
		if err != nil || h.content != blpJPEG {
			continue
		}
		streams, _, err := h.jpegStreams(data, newPixelBudget("BLP1", &corpusBudgets), &corpusBudgets)
		if err != nil || len(streams) == 0 {
			continue
		}
		if _, ok := blpJPEGExtent(streams[0], h.w, h.h, h.alphaBits != 0, ByAlpha, 16); ok {
			levels = append(levels, level{streams[0], h.w, h.h, h.alphaBits != 0})
			pixels += h.w * h.h
		}
	}
	for _, k := range []struct {
		name string
		c    Coverage
		l    int
	}{{"decode", 0, -1}, {"alpha", ByAlpha, 16}, {"glow", ByGlow, 4065}} {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				for _, lv := range levels {
					if k.l < 0 {
						if _, err := decodeBLPJPEGFast(lv.s, lv.w, lv.h, lv.alpha); err != nil {
							b.Fatal(err)
						}
					} else {
						blpJPEGExtent(lv.s, lv.w, lv.h, lv.alpha, k.c, k.l)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pixels), "ns/pixel")
		})
	}
}
