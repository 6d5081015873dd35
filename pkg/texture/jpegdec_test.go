package texture

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

// checkFast decodes stream as a w×h level both ways and fails when the fast
// decoder returns pixels that image/jpeg's path does not give. It returns
// whether the fast decoder took the stream, and why not.
func checkFast(t testing.TB, stream []byte, w, h int, hasAlpha bool) (bool, error) {
	t.Helper()
	got, err := decodeBLPJPEGFast(stream, w, h, hasAlpha)
	if err != nil {
		var fb jpegFallback
		if !errors.As(err, &fb) {
			t.Fatalf("fast decoder returned %T %v, want a jpegFallback", err, err)
		}
		return false, err
	}
	want, werr := decodeBLPJPEGStd(stream, w, h, hasAlpha)
	if werr != nil {
		t.Fatalf("fast decoder returned pixels for a stream image/jpeg refuses: %v", werr)
	}
	if got.Rect != want.Rect || got.Stride != want.Stride {
		t.Fatalf("fast decoder made %v stride %d, image/jpeg path %v stride %d", got.Rect, got.Stride, want.Rect, want.Stride)
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		for i := range got.Pix {
			if got.Pix[i] != want.Pix[i] {
				p := i / 4
				t.Fatalf("%dx%d alpha=%v: pixel (%d,%d) channel %d is %d, image/jpeg path %d",
					w, h, hasAlpha, p%w, p/w, i%4, got.Pix[i], want.Pix[i])
			}
		}
	}
	return true, nil
}

// levelSizes are the level sizes to decode a w×h frame as: its own, and
// smaller and larger ones (the part not covered keeps the alpha rule).
func levelSizes(w, h int) [][2]int {
	return [][2]int{{w, h}, {max(1, w-5), max(1, h-3)}, {w + 7, h + 1}, {max(1, w/2), h + 9}}
}

func TestJPEGFastSynthetic(t *testing.T) {
	cases := []testJPEG{
		{w: 64, h: 64, comps: 4, quality: 75, transform: -1},
		{w: 37, h: 21, comps: 4, quality: 90, transform: -1},
		{w: 1, h: 1, comps: 4, quality: 50, transform: -1},
		{w: 200, h: 9, comps: 4, quality: 100, transform: -1, seed: 3},
		{w: 64, h: 48, comps: 4, quality: 20, transform: -1, seed: 4},
		{w: 57, h: 63, comps: 4, quality: 97, ri: 1, transform: -1, seed: 5},
		{w: 57, h: 63, comps: 4, quality: 60, ri: 7, transform: -1, seed: 6},
		{w: 64, h: 64, comps: 4, quality: 80, ri: 64, transform: -1, seed: 7}, // one interval: no marker
		{w: 40, h: 40, comps: 4, quality: 85, q16: true, transform: -1, seed: 8},
		{w: 33, h: 17, comps: 4, quality: 70, order: []int{3, 1, 0, 2}, transform: -1, seed: 9},
		{w: 48, h: 16, comps: 4, quality: 70, extended: true, transform: -1, seed: 10},
		{w: 48, h: 16, comps: 4, quality: 70, transform: 0, jfif: true, seed: 11}, // JFIF does not matter with four
		{w: 23, h: 31, comps: 3, quality: 75, transform: -1, seed: 12},
		{w: 16, h: 16, comps: 3, quality: 75, ri: 2, order: []int{2, 0, 1}, transform: -1, seed: 13},
		{w: 45, h: 13, comps: 1, quality: 75, transform: -1, seed: 14},
		{w: 8, h: 8, comps: 1, quality: 1, transform: -1, seed: 15},
		{w: 300, h: 200, comps: 4, quality: 95, transform: -1, seed: 16},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%dx%d_c%d_q%d_ri%d_q16%v_ord%v_sof1%v", c.w, c.h, c.comps, c.quality, c.ri, c.q16, c.order, c.extended)
		t.Run(name, func(t *testing.T) {
			s := blpStream(c.encode())
			for _, sz := range levelSizes(c.w, c.h) {
				for _, alpha := range []bool{true, false} {
					if ok, err := checkFast(t, s, sz[0], sz[1], alpha); !ok {
						t.Fatalf("%dx%d: fast path declined: %v", sz[0], sz[1], err)
					}
				}
			}
		})
	}
}

// TestJPEGFastFallback checks streams the fast decoder must leave to
// image/jpeg (and that it does no harm on them).
func TestJPEGFastFallback(t *testing.T) {
	good := testJPEG{w: 24, h: 16, comps: 4, quality: 75, ri: 2, transform: -1}
	enc := good.encode()
	var rgbJPEG, grayJPEG bytes.Buffer
	rgb := image.NewRGBA(image.Rect(0, 0, 19, 13))
	for i := range rgb.Pix {
		rgb.Pix[i] = uint8(i * 7)
	}
	if err := jpeg.Encode(&rgbJPEG, rgb, nil); err != nil {
		t.Fatal(err)
	}
	sos := bytes.Index(enc, []byte{0xff, 0xda})
	eoi := len(enc) - 2
	cases := map[string][]byte{
		"4:2:0 colour":       blpStream(rgbJPEG.Bytes()),
		"YCCK":               blpStream((&testJPEG{w: 8, h: 8, comps: 4, quality: 75, transform: 2}).encode()),
		"JFIF with three":    blpStream((&testJPEG{w: 8, h: 8, comps: 3, quality: 75, transform: -1, jfif: true}).encode()),
		"YCbCr transform":    blpStream((&testJPEG{w: 8, h: 8, comps: 3, quality: 75, transform: 1}).encode()),
		"no Adobe marker":    enc,
		"truncated":          blpStream(enc[:len(enc)-40]),
		"no EOI":             blpStream(enc[:eoi]),
		"data cut short":     blpStream(append(append([]byte(nil), enc[:sos+40]...), 0xff, 0xd9)),
		"junk before marker": blpStream(append(append(append([]byte(nil), enc[:sos]...), 0x00), enc[sos:]...)),
		"restart out of order": blpStream(func() []byte {
			b := append([]byte(nil), enc...)
			b[bytes.Index(b, []byte{0xff, 0xd1})+1] = 0xd3
			return b
		}()),
	}
	grayImg := image.NewGray(image.Rect(0, 0, 9, 9))
	if err := jpeg.Encode(&grayJPEG, grayImg, nil); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			if ok, _ := checkFast(t, cases[n], 24, 16, true); ok {
				t.Error("fast path took a stream it should leave to image/jpeg")
			}
		})
	}
	// Sanity: the unmodified stream does take the fast path.
	if ok, err := checkFast(t, blpStream(enc), 24, 16, true); !ok {
		t.Fatalf("fast path declined the unmodified stream: %v", err)
	}
}

// TestJPEGFastStdEncoder compares on grey streams from image/jpeg's own
// encoder (standard tables, odd sizes, all qualities).
func TestJPEGFastStdEncoder(t *testing.T) {
	for _, q := range []int{1, 30, 75, 100} {
		for _, sz := range [][2]int{{1, 1}, {7, 9}, {16, 16}, {61, 35}, {128, 3}} {
			g := image.NewGray(image.Rect(0, 0, sz[0], sz[1]))
			for i := range g.Pix {
				x, y := i%sz[0], i/sz[0]
				g.Pix[i] = uint8(128 + 100*math.Sin(float64(x*x+3*y)*0.37))
			}
			var b bytes.Buffer
			if err := jpeg.Encode(&b, g, &jpeg.Options{Quality: q}); err != nil {
				t.Fatal(err)
			}
			s := blpStream(b.Bytes())
			for _, l := range levelSizes(sz[0], sz[1]) {
				if ok, err := checkFast(t, s, l[0], l[1], q%2 == 0); !ok {
					t.Fatalf("q%d %v: fast path declined: %v", q, sz, err)
				}
			}
		}
	}
}

// TestJPEGFastCorpus decodes every level of the BLP1 JPEGs in the shared
// corpus both ways. Every level, baseline or progressive, must take the
// fast path. By default it covers every 8th file of each kind (alpha bits,
// baseline or progressive), MDXR_FULL=1 every file.
func TestJPEGFastCorpus(t *testing.T) {
	shared := testshared.Corpus(t)
	rows := testshared.ReadTSV(t, filepath.Join(shared, "corpus", "manifest.tsv"))
	var files, levels, fast, progressive int
	reasons := map[string]int{}
	sample := sweep.New(8)
	for _, r := range rows {
		if r["magic"] != "BLP1" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(shared, "corpus", r["local_path"]))
		if err != nil {
			t.Fatal(err)
		}
		h, err := parseBLPHeader(data, nil)
		if err != nil || h.content != blpJPEG {
			continue
		}
		streams, _, err := h.jpegStreams(data, newPixelBudget("BLP1", &corpusBudgets), &corpusBudgets)
		if err != nil {
			t.Errorf("%s: %v", r["local_path"], err)
			continue
		}
		var kind string
		if len(streams) > 0 {
			f, _ := parseJPEGFrame(streams[0])
			kind = fmt.Sprintf("alpha%d progressive %v", h.alphaBits, f.progressive)
		}
		if !sample.Take(kind) {
			continue
		}
		files++
		for i, s := range streams {
			w, hh := mipSize(h.w, h.h, i)
			levels++
			f, _ := parseJPEGFrame(s)
			if f.progressive {
				progressive++
			}
			ok, why := checkFast(t, s, w, hh, h.alphaBits != 0)
			if ok {
				fast++
				// The other alpha rule, and a level size that crops
				// (progressive frames larger than their level are left
				// to image/jpeg) or grows.
				checkFast(t, s, w, hh, h.alphaBits == 0)
				checkFast(t, s, max(1, w-3), max(1, hh-1), h.alphaBits != 0)
				checkFast(t, s, w+5, hh+2, h.alphaBits != 0)
				continue
			}
			reasons[why.Error()]++
			t.Errorf("%s level %d (progressive %v): %v", r["local_path"], i, f.progressive, why)
		}
	}
	t.Logf("BLP1 JPEG files %s, %d levels (%d progressive): %d took the fast path, fallbacks %v",
		sample, levels, progressive, fast, reasons)
	if files == 0 || progressive == 0 {
		t.Error("no BLP1 JPEG, or no progressive one, in the corpus")
	}
}

// TestIDCTConstants checks the fixed-point constants against the values
// they stand for.
func TestIDCTConstants(t *testing.T) {
	r := 1 / math.Sqrt2
	a := func(k float64) float64 { return k * math.Pi / 16 }
	for _, c := range []struct {
		got  int32
		x    float64
		bits int
	}{
		{idctR8, r, 8}, {idctR14, r, 14},
		{idctRC6x18, r * math.Cos(a(6)), 18}, {idctRS6x18, r * math.Sin(a(6)), 18},
		{idctRC6x12, r * math.Cos(a(6)), 12}, {idctRS6x12, r * math.Sin(a(6)), 12},
		{idctC1, math.Cos(a(1)), 12}, {idctS1, math.Sin(a(1)), 12},
		{idctC3, math.Cos(a(3)), 12}, {idctS3, math.Sin(a(3)), 12},
	} {
		if want := int32(math.Round(c.x * float64(int(1)<<c.bits))); c.got != want {
			t.Errorf("constant %d, want %d", c.got, want)
		}
	}
}

// benchLevel is a BLP-like 4-component level of size n×n.
func benchLevel(n int) []byte {
	return blpStream((&testJPEG{w: n, h: n, comps: 4, quality: 85, transform: -1, seed: 1}).encode())
}

func benchJPEGLevel(b *testing.B, n int, dec func([]byte, int, int, bool) (*image.NRGBA, error)) {
	s := benchLevel(n)
	if _, err := dec(s, n, n, true); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	cpu := cputime.Process()
	for b.Loop() {
		if _, err := dec(s, n, n, true); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu, n*n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*n), "ns/pixel")
}

// reportCPU reports the process CPU time per pixel since start, for a
// benchmark of pixels pixels per op: on the shared machine it is steadier
// than the wall clock.
func reportCPU(b *testing.B, start time.Duration, pixels int) {
	b.ReportMetric(float64((cputime.Process()-start).Nanoseconds())/float64(b.N)/float64(pixels), "cpu-ns/pixel")
}

// BenchmarkBLPJPEGLevel times one level's decode by image/jpeg and the
// conversion (std) and by the fast decoder (fast).
func BenchmarkBLPJPEGLevel(b *testing.B) {
	for _, n := range []int{256, 512} {
		b.Run(fmt.Sprintf("std/%d", n), func(b *testing.B) { benchJPEGLevel(b, n, decodeBLPJPEGStd) })
		b.Run(fmt.Sprintf("fast/%d", n), func(b *testing.B) { benchJPEGLevel(b, n, decodeBLPJPEGFast) })
	}
}

// BenchmarkBLPJPEGCorpus decodes every level of the benchmark BLP1 JPEG
// from the shared corpus both ways (per pixel over all its levels).
func BenchmarkBLPJPEGCorpus(b *testing.B) {
	h, streams := benchJPEGStreams(b, benchBLP1JPEG)
	benchBLPJPEG(b, h, streams, blpJPEGDecoder{"std", decodeBLPJPEGStd}, blpJPEGDecoder{"fast", decodeBLPJPEGFast})
}

// blpJPEGDecoder is a way of decoding a BLP1 JPEG level, by name.
type blpJPEGDecoder struct {
	name string
	f    func([]byte, int, int, bool) (*image.NRGBA, error)
}

// benchBLPJPEG decodes the first len(streams) levels of the BLP1 file h
// with each decoder, per pixel over those levels.
func benchBLPJPEG(b *testing.B, h *blpHeader, streams [][]byte, decs ...blpJPEGDecoder) {
	pixels := 0
	for i := range streams {
		w, hh := mipSize(h.w, h.h, i)
		pixels += w * hh
	}
	for _, dec := range decs {
		b.Run(dec.name, func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				for i, s := range streams {
					w, hh := mipSize(h.w, h.h, i)
					if _, err := dec.f(s, w, hh, h.alphaBits != 0); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportCPU(b, cpu, pixels)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pixels), "ns/pixel")
		})
	}
}

// TestJPEGFastAllocs checks that a level costs the fast decoder one
// allocation: the level itself.
func TestJPEGFastAllocs(t *testing.T) {
	s := benchLevel(64)
	n := testing.AllocsPerRun(5, func() {
		if _, err := decodeBLPJPEGFast(s, 64, 64, true); err != nil {
			t.Fatal(err)
		}
	})
	if n > 2 {
		t.Errorf("%v allocations per level, want at most 2 (the image and its pixels)", n)
	}
}

// benchBLP1Progressive is the corpus's largest progressive BLP1 JPEG
// level: the 1024×1024 first level of 001.mdl's texture (18 scans, four
// components, no alpha bits).
const benchBLP1Progressive = "corpus/files/War3ModelView/testmodel/wangqishou_base.blp"

// BenchmarkBLPJPEGProgressive decodes that level by image/jpeg and the
// conversion (std) and by decodeBLPJPEG, which takes the fast path when
// it can (auto).
func BenchmarkBLPJPEGProgressive(b *testing.B) {
	h, streams := benchJPEGStreams(b, benchBLP1Progressive)
	benchBLPJPEG(b, h, streams[:1], blpJPEGDecoder{"std", decodeBLPJPEGStd}, blpJPEGDecoder{"auto", decodeBLPJPEG})
}

// benchJPEGStreams returns the header and the JPEG level streams of a
// shared-corpus BLP1 file (skipping the benchmark without the shared
// data).
func benchJPEGStreams(b *testing.B, path string) (*blpHeader, [][]byte) {
	data := benchFile(b, path)
	h, err := parseBLPHeader(data, nil)
	if err != nil {
		b.Fatal(err)
	}
	streams, _, err := h.jpegStreams(data, newPixelBudget("BLP1", nil), nil)
	if err != nil {
		b.Fatal(err)
	}
	return h, streams
}

// jpegStreams is jpegLevels with every level's stream put together, each
// in a buffer of its own.
func (h *blpHeader) jpegStreams(data []byte, budget *pixelBudget, o *Options) (streams [][]byte, lerr, err error) {
	header, mips, lerr, err := h.jpegLevels(data, budget, o)
	for _, m := range mips {
		streams = append(streams, appendJPEGLevel(nil, header, m))
	}
	return streams, lerr, err
}
