package texture

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// progCase is a progressive stream for the tests: a picture, a script and
// whether the script sends every bit of every coefficient (so that the
// stream must decode to the pixels of the baseline one).
type progCase struct {
	name     string
	e        testJPEG
	o        progOptions
	complete bool
}

func progCases() []progCase {
	four := testJPEG{w: 64, h: 64, comps: 4, quality: 75, transform: -1, seed: 21}
	odd := testJPEG{w: 37, h: 21, comps: 4, quality: 90, transform: -1, seed: 22}
	// Spectral selection alone, DC scans one component each, in another
	// order, and tables in slots 2 and 3.
	var selection []progScanSpec
	for _, c := range []int{2, 0, 1} {
		selection = append(selection, progScanSpec{comps: []int{c}, dcSlot: 3})
	}
	for _, c := range []int{1, 2, 0} {
		selection = append(selection,
			progScanSpec{comps: []int{c}, ss: 1, se: 2, acSlot: 2},
			progScanSpec{comps: []int{c}, ss: 3, se: 20, acSlot: 3},
			progScanSpec{comps: []int{c}, ss: 21, se: 63, acSlot: 2})
	}
	// Deep successive approximation: DC and AC sent a bit at a time,
	// DC interleaved in two groups.
	deep := []progScanSpec{
		{comps: []int{3, 1}, al: 3},
		{comps: []int{0, 2}, al: 3, dcSlot: 1},
	}
	for c := range 4 {
		deep = append(deep, progScanSpec{comps: []int{c}, ss: 1, se: 63, al: 3, acSlot: c})
	}
	for al := 2; al >= 0; al-- {
		deep = append(deep, progScanSpec{comps: []int{0, 1, 2, 3}, ah: al + 1, al: al})
		for c := range 4 {
			deep = append(deep,
				progScanSpec{comps: []int{c}, ss: 1, se: 9, ah: al + 1, al: al, acSlot: 1},
				progScanSpec{comps: []int{c}, ss: 10, se: 63, ah: al + 1, al: al, acSlot: 2})
		}
	}
	gray := []progScanSpec{
		{comps: []int{0}, al: 2},
		{comps: []int{0}, ss: 1, se: 63, al: 1},
		{comps: []int{0}, ah: 2, al: 1},
		{comps: []int{0}, ah: 1, al: 0},
		{comps: []int{0}, ss: 1, se: 63, ah: 1, al: 0},
	}
	changed := [64]int{}
	for i := range changed {
		changed[i] = 1 + i%7
	}
	// The alpha component is never sent.
	noAlpha := libjpegScript(3)
	// End-of-band runs that a restart cuts (every AC scan), or that
	// outlast their scan (the first AC scans of the first component).
	cutRuns := libjpegScript(4)
	for i := range cutRuns {
		cutRuns[i].inflateRST = 3 + i
	}
	longRuns := libjpegScript(4)
	longRuns[1].inflateEnd, longRuns[2].skip = 2, 2
	longRuns[5].inflateEnd, longRuns[6].skip = 5, 5
	return []progCase{
		{"libjpeg 64x64", four, progOptions{script: libjpegScript(4)}, true},
		{"libjpeg odd size", odd, progOptions{script: libjpegScript(4)}, true},
		{"libjpeg restart 3", withRI(odd, 3), progOptions{script: libjpegScript(4)}, true},
		{"libjpeg restart 1", withRI(odd, 1), progOptions{script: libjpegScript(4)}, true},
		{"libjpeg 16-bit tables", testJPEG{w: 40, h: 24, comps: 4, quality: 85, q16: true, transform: -1, seed: 23}, progOptions{script: libjpegScript(4)}, true},
		{"libjpeg low quality", testJPEG{w: 200, h: 120, comps: 4, quality: 3, transform: -1, seed: 24}, progOptions{script: libjpegScript(4)}, true},
		{"libjpeg low quality restart 50", testJPEG{w: 200, h: 120, comps: 4, quality: 3, ri: 50, transform: -1, seed: 24}, progOptions{script: libjpegScript(4)}, true},
		{"libjpeg best quality", testJPEG{w: 24, h: 40, comps: 4, quality: 100, transform: -1, seed: 25}, progOptions{script: libjpegScript(4)}, true},
		{"three components", testJPEG{w: 23, h: 31, comps: 3, quality: 75, transform: -1, seed: 26}, progOptions{script: libjpegScript(3)}, true},
		{"spectral selection", testJPEG{w: 33, h: 17, comps: 3, quality: 80, ids: []byte{'R', 'G', 'B'}, transform: -1, seed: 27}, progOptions{script: selection}, true},
		{"deep approximation", testJPEG{w: 48, h: 40, comps: 4, quality: 95, ri: 7, transform: -1, seed: 28}, progOptions{script: deep}, true},
		{"gray", testJPEG{w: 45, h: 13, comps: 1, quality: 75, transform: -1, seed: 29}, progOptions{script: gray}, true},
		{"gray sampled 2x2", testJPEG{w: 45, h: 13, comps: 1, quality: 75, transform: -1, seed: 30}, progOptions{script: gray, sampling: 0x22}, true},
		{"quantisation table changed", four, progOptions{script: libjpegScript(4), dqtAfter: &changed, dqtAt: 5}, false},
		{"alpha never sent", four, progOptions{script: noAlpha}, false},
		{"runs cut by restarts", withRI(odd, 4), progOptions{script: cutRuns}, true},
		{"runs carried over", testJPEG{w: 64, h: 64, comps: 4, quality: 30, transform: -1, seed: 32}, progOptions{script: longRuns}, false},
		{"DC only", four, progOptions{script: libjpegScript(4)[:1]}, false},
	}
}

func withRI(e testJPEG, ri int) testJPEG {
	e.ri = ri
	return e
}

// TestJPEGProgEncoder holds the test encoder to the format: a complete
// progressive stream must decode (by image/jpeg) to exactly the baseline
// stream's pixels, and an incomplete one must not.
func TestJPEGProgEncoder(t *testing.T) {
	for _, c := range progCases() {
		t.Run(c.name, func(t *testing.T) {
			prog, err := jpeg.Decode(bytes.NewReader(blpStream(c.e.encodeProgressive(c.o))))
			if err != nil {
				t.Fatal(err)
			}
			base, err := jpeg.Decode(bytes.NewReader(blpStream(c.e.encode())))
			if err != nil {
				t.Fatal(err)
			}
			if same := samePixels(prog, base); same != c.complete {
				t.Errorf("progressive and baseline pixels the same: %v, want %v", same, c.complete)
			}
		})
	}
}

// samePixels compares two pictures image/jpeg returned.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	switch a := a.(type) {
	case *image.CMYK:
		return bytes.Equal(a.Pix, b.(*image.CMYK).Pix)
	case *image.RGBA:
		return bytes.Equal(a.Pix, b.(*image.RGBA).Pix)
	case *image.Gray:
		return bytes.Equal(a.Pix, b.(*image.Gray).Pix)
	}
	return false
}

// TestJPEGFastProgressive decodes the progressive streams both ways: the
// fast path must take every one and give image/jpeg's pixels.
func TestJPEGFastProgressive(t *testing.T) {
	streams := map[string][]byte{}
	for _, c := range progCases() {
		streams[c.name] = blpStream(c.e.encodeProgressive(c.o))
	}
	// End-of-band runs longer than the scan: the rest carries over
	// into the next scan.
	streams["hostile long runs"] = blpStream(hostile.ProgressiveJPEG(16, 16, 4, 3))
	streams["hostile long runs 2"] = blpStream(hostile.ProgressiveJPEG(24, 8, 3, 9))
	for name, s := range streams {
		t.Run(name, func(t *testing.T) {
			f, err := parseJPEGFrame(s)
			if err != nil || !f.progressive {
				t.Fatalf("not a progressive stream: %v", err)
			}
			for _, sz := range [][2]int{{f.width, f.height}, {f.width + 7, f.height + 1}} {
				for _, alpha := range []bool{true, false} {
					if ok, err := checkFast(t, s, sz[0], sz[1], alpha); !ok {
						t.Fatalf("%dx%d alpha %v: fast path declined: %v", sz[0], sz[1], alpha, err)
					}
				}
			}
		})
	}
}

// TestJPEGFastProgressiveFallback checks progressive streams the fast
// decoder must leave to image/jpeg.
func TestJPEGFastProgressiveFallback(t *testing.T) {
	e := testJPEG{w: 24, h: 16, comps: 4, quality: 75, ri: 2, transform: -1, seed: 31}
	good := blpStream(e.encodeProgressive(progOptions{script: libjpegScript(4)}))
	if ok, err := checkFast(t, good, 24, 16, true); !ok {
		t.Fatalf("fast path declined the unmodified stream: %v", err)
	}
	// The frame is larger than the level: its coefficients would not be
	// bounded by the level.
	for _, sz := range [][2]int{{23, 16}, {24, 15}} {
		if ok, _ := checkFast(t, good, sz[0], sz[1], true); ok {
			t.Errorf("%v: fast path took a frame larger than its level", sz)
		}
	}
	sos := bytes.Index(good, []byte{0xff, 0xda})
	mod := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	cases := map[string][]byte{
		// Ss=0 with Se=5 in the first (DC) scan.
		"bad spectral selection": mod(func(b []byte) { b[sos+4+1+2*4+1] = 5 }),
		// Ah=3, Al=1.
		"bad approximation": mod(func(b []byte) { b[sos+4+1+2*4+2] = 0x31 }),
		"truncated":         append(append([]byte(nil), good[:len(good)-30]...), 0xff, 0xd9),
		"restart out of order": mod(func(b []byte) {
			b[bytes.Index(b, []byte{0xff, 0xd1})+1] = 0xd3
		}),
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			if ok, _ := checkFast(t, s, 24, 16, true); ok {
				t.Error("fast path took a stream it should leave to image/jpeg")
			}
		})
	}
}
