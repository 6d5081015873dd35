package texture

import (
	"bytes"
	"image"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// fuzzOptions keeps a fuzz iteration's allocations small; the size limit
// itself is covered by TestBadInput.
var fuzzOptions = &Options{MaxDimension: 256}

// mipmappedTarget is the fuzz body of the formats that also open lazily
// (BLP, DDS): the lazy opening agrees with decode, and whatever decodes
// is what every successful decode must be.
func mipmappedTarget(decode func([]byte, *Options) (*Texture, error), config func([]byte) (Config, error)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		tex, err := decode(data, fuzzOptions)
		checkLazy(t, data, tex, err)
		if err != nil {
			return
		}
		checkDecoded(t, data, tex, config)
	}
}

// checkDecoded asserts what every successful decode must satisfy.
func checkDecoded(t *testing.T, data []byte, tex *Texture, config func([]byte) (Config, error)) {
	if len(tex.Levels) == 0 {
		t.Fatal("no levels")
	}
	w, h := tex.Width(), tex.Height()
	for i, l := range tex.Levels {
		lw, lh := mipSize(w, h, i)
		if l.Rect != image.Rect(0, 0, lw, lh) || len(l.Pix) != 4*lw*lh {
			t.Fatalf("level %d is %v with %d bytes, want %dx%d", i, l.Rect, len(l.Pix), lw, lh)
		}
	}
	cfg, err := config(data)
	if err != nil {
		t.Fatalf("Decode succeeded but DecodeConfig failed: %v", err)
	}
	if cfg.Width != w || cfg.Height != h {
		t.Fatalf("config %dx%d, decoded %dx%d", cfg.Width, cfg.Height, w, h)
	}
	tex.WithWrap(WrapWidth).Sample(0.3, 1.7, 0.6)
}

// checkLazy asserts that a Lazy agrees with the eager decoder: opening
// fails when decoding does for a reason the checks can see, Texture(0) is
// the decoded texture, and Texture(k) holds the decoded levels k and
// coarser wherever the eager chain has them.
func checkLazy(t *testing.T, data []byte, tex *Texture, decErr error) {
	l, err := OpenLazy(data, "fuzz", fuzzOptions)
	if err != nil {
		if decErr == nil {
			t.Fatalf("Decode succeeded, OpenLazy failed: %v", err)
		}
		return
	}
	// Extent, asked first (level 0 not decoded yet), must be the scan of
	// the level 0 Texture(0) gives, or fail when that fails.
	ext := askExtents(l)
	if l.Width() != tex0Width(tex, l) || l.Levels() < 1 {
		t.Fatalf("lazy %dx%d with %d levels", l.Width(), l.Height(), l.Levels())
	}
	all, err := l.Texture(0, nil)
	if (err == nil) != (decErr == nil) {
		t.Fatalf("Texture(0) error %v, Decode error %v", err, decErr)
	}
	checkExtents(t, all, err, ext)
	if err != nil {
		return
	}
	if len(all.Levels) != len(tex.Levels) {
		t.Fatalf("Texture(0) has %d levels, Decode %d", len(all.Levels), len(tex.Levels))
	}
	for k := range l.Levels() + 1 {
		part, err := l.Texture(k, nil)
		if err != nil {
			t.Fatalf("Texture(%d) failed after Texture(0) succeeded: %v", k, err)
		}
		first := part.First()
		if first > k || first >= len(part.Levels) {
			t.Fatalf("Texture(%d) starts at level %d of %d", k, first, len(part.Levels))
		}
		for i := first; i < min(len(part.Levels), len(tex.Levels)); i++ {
			if !bytes.Equal(part.Levels[i].Pix, tex.Levels[i].Pix) {
				t.Fatalf("Texture(%d) level %d differs from Decode's", k, i)
			}
		}
		part.Sample(0.3, 0.7, float32(k))
	}
}

func tex0Width(tex *Texture, l *Lazy) int {
	if tex == nil {
		return l.Width()
	}
	return tex.Width()
}

func FuzzBLP(f *testing.F) {
	pal := testPalette()
	f.Add(blp1Palette(4, 2, 8, pal, [][]byte{make([]byte, 16), make([]byte, 4)}))
	f.Add(blp1Palette(8, 1, 1, pal, [][]byte{make([]byte, 9)}))
	f.Add(blp1Palette(2, 2, 4, pal, [][]byte{make([]byte, 6), make([]byte, 2)}))
	header, scan := splitJPEG(flatJPEG(16, 8, [4][]uint8{{10, 200}, {20, 100}, {30, 50}, {40, 255}}))
	_, scan1 := splitJPEG(flatJPEG(8, 4, [4][]uint8{{1}, {2}, {3}, {4}}))
	f.Add(hostile.BLP1JPEG(16, 8, 8, header, [][]byte{scan, scan1}))
	f.Add(blp2(4, 4, 2, 8, 7, nil, [][]byte{make([]byte, 16)}))
	f.Add(blp2(4, 4, 2, 1, 0, nil, [][]byte{make([]byte, 8)}))
	f.Add(blp2(2, 1, 3, 8, 8, nil, [][]byte{make([]byte, 8)}))
	f.Add(blp2(2, 1, 1, 4, 0, make([]byte, 1024), [][]byte{make([]byte, 3)}))
	f.Fuzz(mipmappedTarget(DecodeBLP, DecodeBLPConfig))
}

func FuzzDDS(f *testing.F) {
	blk := []byte{0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x1b, 0, 0}
	f.Add(dds(8, 4, 4, "DXT1", 0, 0, [4]uint32{}, repeat(blk, 5)))
	f.Add(dds(4, 4, 1, "DXT3", 0, 0, [4]uint32{}, repeat(blk, 2)))
	f.Add(dds(4, 4, 1, "DXT5", 0, 0, [4]uint32{}, repeat(blk, 2)))
	f.Add(dds(4, 4, 1, "ATI1", 0, 0, [4]uint32{}, blk))
	f.Add(dds(4, 4, 1, "ATI2", 0, 0, [4]uint32{}, repeat(blk, 2)))
	f.Add(dds(4, 4, 1, "DX10", 77, 0, [4]uint32{}, repeat(blk, 2)))
	f.Add(dds(2, 2, 2, "", 0, 32, [4]uint32{0xff0000, 0xff00, 0xff, 0xff000000}, make([]byte, 20)))
	f.Add(dds(2, 1, 1, "", 0, 16, [4]uint32{0xf800, 0x07e0, 0x1f, 0}, make([]byte, 4)))
	f.Fuzz(mipmappedTarget(DecodeDDS, DecodeDDSConfig))
}

// FuzzTGA exercises the guarded path into github.com/blezek/tga.
func FuzzTGA(f *testing.F) {
	im := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range im.Pix {
		im.Pix[i] = uint8(i * 11)
	}
	f.Add(tgaFile(im, 32, true))
	f.Add(tgaFile(im, 24, false))
	f.Add(tgaFile(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 24, false))
	// RLE 2×2: one run packet of 4 grey pixels; colour-mapped 2×1.
	f.Add([]byte{0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0x20, 0x83, 9, 8, 7})
	f.Add([]byte{0, 1, 1, 0, 0, 2, 0, 24, 0, 0, 0, 0, 2, 0, 1, 0, 8, 0x20, 1, 2, 3, 4, 5, 6, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		tex, err := DecodeTGA(data, fuzzOptions)
		if err != nil {
			return
		}
		checkDecoded(t, data, tex, DecodeTGAConfig)
	})
}

// FuzzStd exercises the PNG and JPEG path: the marker walk that bounds a
// JPEG's frame and scans before image/jpeg, and the PNG header checks.
// Whenever a JPEG decodes, the walk must have seen the frame it decoded.
func FuzzStd(f *testing.F) {
	f.Add(hostile.BaselineJPEG(16, 8, 3))
	f.Add(hostile.BaselineJPEG(9, 9, 1))
	f.Add(hostile.ProgressiveJPEG(24, 16, 3, 6))
	f.Add(hostile.SequentialJPEG(8, 8, 3, 2))
	f.Add(hostile.PNG(5, 3, 16, hostile.PNGRGBA))
	f.Add(hostile.PNG(4, 4, 8, hostile.PNGPalette))
	f.Add(hostile.PNG(7, 2, 8, hostile.PNGGrey))
	opt := &Options{MaxDimension: 256, MaxPixels: 1 << 18, MaxJPEGScans: 16}
	f.Fuzz(func(t *testing.T, data []byte) {
		tex, err := DecodeStd(data, opt)
		if err != nil {
			return
		}
		checkDecoded(t, data, tex, DecodeStdConfig)
		if tex.Format == FormatJPEG {
			fr, ferr := parseJPEGFrame(data)
			if ferr != nil || fr.width != tex.Width() || fr.height != tex.Height() || fr.scans == 0 || fr.scans > 16 {
				t.Fatalf("decoded %dx%d, but the marker walk saw %+v (%v)", tex.Width(), tex.Height(), fr, ferr)
			}
		}
	})
}
