package texture

import (
	"encoding/binary"
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

func px(t *testing.T, im *image.NRGBA, x, y int) [4]uint8 {
	t.Helper()
	i := im.PixOffset(x, y)
	return [4]uint8(im.Pix[i : i+4])
}

func testPalette() [256][4]uint8 {
	var pal [256][4]uint8
	for i := range pal {
		pal[i] = [4]uint8{uint8(i), uint8(255 - i), uint8(i * 3), 0}
	}
	return pal
}

func TestBLP1PaletteAlphaBits(t *testing.T) {
	pal := testPalette()
	const w, h = 4, 2
	idx := []byte{0, 1, 2, 3, 10, 20, 30, 255}
	alphas := map[uint32][]uint8{
		0: nil,
		1: {1, 0, 1, 1, 0, 0, 1, 0},
		4: {0, 1, 2, 15, 7, 8, 14, 3},
		8: {0, 17, 128, 255, 1, 2, 3, 254},
	}
	for bits, a := range alphas {
		level := append(append([]byte(nil), idx...), packLSB(a, int(bits))...)
		// A second 2×1 level after the first.
		level1 := append([]byte{5, 6}, packLSB([]uint8{1, 1}, int(bits))...)
		if bits == 0 {
			level1 = []byte{5, 6}
		}
		data := blp1Palette(w, h, bits, pal, [][]byte{level, level1})
		tex, err := DecodeBLP(data, nil)
		if err != nil {
			t.Fatalf("alphaBits %d: %v", bits, err)
		}
		if tex.Format != FormatBLP1Palette || len(tex.Levels) != 2 {
			t.Fatalf("alphaBits %d: format %q, %d levels", bits, tex.Format, len(tex.Levels))
		}
		scale := map[uint32]uint8{1: 255, 4: 17, 8: 1}[bits]
		for i, c := range idx {
			got := px(t, tex.Levels[0], i%w, i/w)
			want := [4]uint8{pal[c][0], pal[c][1], pal[c][2], 255}
			if bits != 0 {
				want[3] = a[i] * scale
			}
			if got != want {
				t.Errorf("alphaBits %d pixel %d: got %v, want %v", bits, i, got, want)
			}
		}
		if got := px(t, tex.Levels[1], 1, 0); got[0] != pal[6][0] || got[1] != pal[6][1] {
			t.Errorf("alphaBits %d level 1: got %v", bits, got)
		}
	}
}

func TestBLP1JPEGPlanes(t *testing.T) {
	// 16×8: two blocks. Stored planes are B, G, R, A.
	planes := [4][]uint8{{10, 200}, {20, 100}, {30, 50}, {40, 255}}
	header, scan := splitJPEG(flatJPEG(16, 8, planes))
	// Level 1 (8×4) is one block.
	_, scan1 := splitJPEG(flatJPEG(8, 4, [4][]uint8{{1}, {2}, {3}, {4}}))
	for _, alphaBits := range []uint32{0, 8} {
		data := hostile.BLP1JPEG(16, 8, alphaBits, header, [][]byte{scan, scan1})
		tex, err := DecodeBLP(data, nil)
		if err != nil {
			t.Fatalf("alphaBits %d: %v", alphaBits, err)
		}
		for blk := range 2 {
			for _, p := range [][2]int{{0, 0}, {7, 7}, {3, 5}} {
				got := px(t, tex.Levels[0], blk*8+p[0], p[1])
				want := [4]uint8{planes[2][blk], planes[1][blk], planes[0][blk], planes[3][blk]}
				if alphaBits == 0 {
					want[3] = 255
				}
				if got != want {
					t.Errorf("alphaBits %d block %d %v: got %v, want %v", alphaBits, blk, p, got, want)
				}
			}
		}
		if len(tex.Levels) != 2 || tex.Levels[1].Rect.Dx() != 8 {
			t.Fatalf("levels: %d", len(tex.Levels))
		}
		if got := px(t, tex.Levels[1], 2, 2); got[0] != 3 || got[1] != 2 || got[2] != 1 {
			t.Errorf("level 1: got %v, want (3,2,1,...)", got)
		}
	}
}

func TestBLP1JPEGTruncated(t *testing.T) {
	planes := [4][]uint8{{10, 200}, {20, 100}, {30, 50}, {40, 255}}
	header, scan := splitJPEG(flatJPEG(16, 8, planes))
	_, scan1 := splitJPEG(flatJPEG(8, 4, [4][]uint8{{1}, {2}, {3}, {4}}))
	// Damage level 1: the texture keeps level 0 and says why.
	data := hostile.BLP1JPEG(16, 8, 8, header, [][]byte{scan, scan1[:2]})
	tex, err := DecodeBLP(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	if len(tex.Levels) != 1 || !errors.As(tex.LevelErr, &fe) || fe.Mip != 1 {
		t.Fatalf("levels %d, LevelErr %v", len(tex.Levels), tex.LevelErr)
	}
	if _, err := DecodeBLP(data, &Options{Strict: true}); !errors.As(err, &fe) || fe.Mip != 1 {
		t.Errorf("strict: %v", err)
	}
	// Damage level 0: an error naming the level.
	data = hostile.BLP1JPEG(16, 8, 8, header, [][]byte{scan[:3]})
	_, err = DecodeBLP(data, nil)
	if !errors.As(err, &fe) || fe.Mip != 0 || !strings.Contains(err.Error(), "mip 0") {
		t.Errorf("truncated level 0: %v", err)
	}
}

func TestBLP2(t *testing.T) {
	pal := make([]byte, 1024)
	for i := range 256 {
		copy(pal[4*i:], []byte{uint8(i), 0, 255 - uint8(i), 0}) // B,G,R,A
	}
	cases := []struct {
		name  string
		data  []byte
		want  [4]uint8 // pixel (0,0)
		want1 [4]uint8 // pixel (1,0)
	}{
		{"palette alpha 8", blp2(2, 1, 1, 8, 8, pal, [][]byte{{7, 9, 100, 200}}), [4]uint8{248, 0, 7, 100}, [4]uint8{246, 0, 9, 200}},
		{"palette alpha 1", blp2(2, 1, 1, 1, 0, pal, [][]byte{{7, 9, 0b10}}), [4]uint8{248, 0, 7, 0}, [4]uint8{246, 0, 9, 255}},
		{"raw", blp2(2, 1, 3, 8, 8, nil, [][]byte{{1, 2, 3, 4, 5, 6, 7, 8}}), [4]uint8{3, 2, 1, 4}, [4]uint8{7, 6, 5, 8}},
		{"raw no alpha", blp2(2, 1, 3, 0, 0, nil, [][]byte{{1, 2, 3, 4, 5, 6, 7, 8}}), [4]uint8{3, 2, 1, 255}, [4]uint8{7, 6, 5, 255}},
		// DXT1 block: c0 = white, c1 = black, c0 > c1: indices 0,1,2,3.
		{"dxt1", blp2(2, 1, 2, 0, 0, nil, [][]byte{{0xff, 0xff, 0, 0, 0b00_00_01_00, 0, 0, 0}}), [4]uint8{255, 255, 255, 255}, [4]uint8{0, 0, 0, 255}},
		// DXT1 with c0 <= c1: index 3 is transparent black when the file has alpha...
		{"dxt1 alpha", blp2(2, 1, 2, 1, 0, nil, [][]byte{{0, 0, 0xff, 0xff, 0b00_00_11_10, 0, 0, 0}}), [4]uint8{127, 127, 127, 255}, [4]uint8{0, 0, 0, 0}},
		// ...and opaque black when it declares none.
		{"dxt1 opaque", blp2(2, 1, 2, 0, 0, nil, [][]byte{{0, 0, 0xff, 0xff, 0b00_00_11_10, 0, 0, 0}}), [4]uint8{127, 127, 127, 255}, [4]uint8{0, 0, 0, 255}},
		// DXT3: explicit 4-bit alpha 0x3 and 0xc; colour white/black.
		{"dxt3", blp2(2, 1, 2, 8, 1, nil, [][]byte{{0xc3, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0b0100, 0, 0, 0}}), [4]uint8{255, 255, 255, 51}, [4]uint8{0, 0, 0, 204}},
		// DXT5: a0=255, a1=0, indices 0 and 1.
		{"dxt5", blp2(2, 1, 2, 8, 7, nil, [][]byte{{255, 0, 0b001_000, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0}}), [4]uint8{255, 255, 255, 255}, [4]uint8{255, 255, 255, 0}},
	}
	for _, c := range cases {
		tex, err := DecodeBLP(c.data, nil)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := px(t, tex.Levels[0], 0, 0); got != c.want {
			t.Errorf("%s (0,0): got %v, want %v", c.name, got, c.want)
		}
		if got := px(t, tex.Levels[0], 1, 0); got != c.want1 {
			t.Errorf("%s (1,0): got %v, want %v", c.name, got, c.want1)
		}
	}
}

func TestBCBlocks(t *testing.T) {
	// BC1 four-colour mode: c0 = pure red (0xf800), c1 = pure blue (0x001f).
	// Index 2 is 2/3 red + 1/3 blue.
	blk := []byte{0x00, 0xf8, 0x1f, 0x00, 0b11_10_01_00, 0, 0, 0}
	im, err := decodeBC(1, blk, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := [][4]uint8{{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}}
	for i, w := range want {
		if got := px(t, im, i, 0); got != w {
			t.Errorf("BC1 index %d: got %v, want %v", i, got, w)
		}
	}
	// BC3 alpha in six-value mode (a0 <= a1): index 6 is 0, 7 is 255, and
	// a 3-bit index straddling bytes 2 and 3 (pixel 2: bits 6..8 = 5,
	// which is (a0 + 4·a1)/5).
	var a [16]uint8
	bc4Block(&a, []byte{40, 240, 0b01_111_110, 0b0000000_1, 0, 0, 0, 0})
	if a[0] != 0 || a[1] != 255 || a[2] != 200 {
		t.Errorf("BC4 six-value: got %v", a[:3])
	}
	// Eight-value mode: index 2 is (6*a0 + a1)/7.
	bc4Block(&a, []byte{210, 0, 2, 0, 0, 0, 0, 0})
	if a[0] != 180 || a[1] != 210 {
		t.Errorf("BC4 eight-value: got %v", a[:2])
	}
	// Blocks crop at sizes that are not multiples of 4.
	im, err = decodeBC(1, append(blk, blk...), 6, 2)
	if err != nil || im.Rect.Dx() != 6 || px(t, im, 5, 0) != want[1] {
		t.Errorf("cropped BC1: %v %v", im.Rect, err)
	}
	if _, err := decodeBC(3, blk, 4, 4); err == nil {
		t.Error("short BC3 data decoded without error")
	}
}

func TestDDS(t *testing.T) {
	blk := []byte{0x00, 0xf8, 0x1f, 0x00, 0, 0, 0, 0}                         // all red
	blk5 := []byte{255, 0, 0, 0, 0, 0, 0, 0, 0xe0, 0x07, 0, 0, 0, 0, 0, 0}    // green, alpha 255
	bc5 := []byte{255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0b111_111, 0, 0, 0, 0, 0} // r=255; g index 7 (six-value) = 255
	cases := []struct {
		name   string
		data   []byte
		levels int
		want   [4]uint8
	}{
		{"dxt1 mips", dds(8, 4, 4, "DXT1", 0, 0, [4]uint32{}, repeat(blk, 2+1+1+1)), 4, [4]uint8{255, 0, 0, 255}},
		{"dxt5", dds(4, 4, 0, "DXT5", 0, 0, [4]uint32{}, blk5), 1, [4]uint8{0, 255, 0, 255}},
		{"ati2", dds(4, 4, 1, "ATI2", 0, 0, [4]uint32{}, bc5), 1, [4]uint8{255, 255, 0, 255}},
		{"dx10 bc1", dds(4, 4, 1, "DX10", 71, 0, [4]uint32{}, blk), 1, [4]uint8{255, 0, 0, 255}},
		{"dx10 bgra", dds(1, 1, 1, "DX10", 87, 0, [4]uint32{}, []byte{1, 2, 3, 4}), 1, [4]uint8{3, 2, 1, 4}},
		{"argb8888", dds(1, 1, 1, "", 0, 32, [4]uint32{0xff0000, 0xff00, 0xff, 0xff000000}, []byte{1, 2, 3, 4}), 1, [4]uint8{3, 2, 1, 4}},
		{"rgb565", dds(1, 1, 1, "", 0, 16, [4]uint32{0xf800, 0x07e0, 0x1f, 0}, []byte{0x00, 0xf8}), 1, [4]uint8{255, 0, 0, 255}},
		{"rgb24", dds(1, 1, 1, "", 0, 24, [4]uint32{0xff0000, 0xff00, 0xff, 0}, []byte{1, 2, 3}), 1, [4]uint8{3, 2, 1, 255}},
	}
	for _, c := range cases {
		tex, err := DecodeDDS(c.data, nil)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(tex.Levels) != c.levels {
			t.Errorf("%s: %d levels, want %d", c.name, len(tex.Levels), c.levels)
		}
		if got := px(t, tex.Levels[0], 0, 0); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		if cfg, err := DecodeConfig(c.data); err != nil || cfg.Levels != c.levels {
			t.Errorf("%s: config %+v, %v", c.name, cfg, err)
		}
	}
}

func repeat(b []byte, n int) []byte {
	var out []byte
	for range n {
		out = append(out, b...)
	}
	return out
}

func TestBadInput(t *testing.T) {
	pal := testPalette()
	good := blp1Palette(4, 4, 8, pal, [][]byte{make([]byte, 32)})
	huge := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(huge[12:], 1<<20)
	pastEnd := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(pastEnd[92:], 1<<30)
	shortPal := blp1Palette(4, 4, 8, pal, [][]byte{make([]byte, 20)})
	ddsBig := dds(1<<14, 4, 1, "DXT1", 0, 0, [4]uint32{}, nil)
	ddsShort := dds(8, 8, 1, "DXT5", 0, 0, [4]uint32{}, make([]byte, 30))
	tgaBig := tgaFile(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 32, false)
	binary.LittleEndian.PutUint16(tgaBig[12:], 4000)
	binary.LittleEndian.PutUint16(tgaBig[14:], 4000)
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", "unrecognised"},
		{"blp1 short header", "BLP1\x00\x00", "too short"},
		{"blp1 huge", string(huge), "exceeds the limit"},
		{"blp1 mip past end", string(pastEnd), "mip 0"},
		{"blp1 palette data short", string(shortPal), "needs 32 bytes"},
		{"blp0", "BLP0" + strings.Repeat("\x00", 200), "unsupported"},
		{"dds huge", string(ddsBig), "exceeds the limit"},
		{"dds short", string(ddsShort), "mip 0"},
		{"dds bc7", string(dds(4, 4, 1, "DX10", 98, 0, [4]uint32{}, make([]byte, 16))), "DXGI format 98"},
		{"tga declared larger than file", string(tgaBig), "needs at least"},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.data), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A JPEG frame header claiming far more pixels than the data can
	// hold is refused before the JPEG decoder allocates it (the BLP
	// declares the same size: a frame larger than the texture is refused
	// sooner, see TestHostileTextures).
	jh, js := splitJPEG(flatJPEG(8, 8, [4][]uint8{{1}, {2}, {3}, {4}}))
	bomb := append([]byte(nil), js...)
	sof := bytesIndex(bomb, []byte{0xff, 0xc0})
	binary.BigEndian.PutUint16(bomb[sof+5:], 4096)
	binary.BigEndian.PutUint16(bomb[sof+7:], 4096)
	if _, err := Decode(hostile.BLP1JPEG(4096, 4096, 8, jh, [][]byte{bomb}), nil); err == nil || !strings.Contains(err.Error(), "cannot be stored") {
		t.Errorf("JPEG frame bomb: %v", err)
	}
	var ue *UnsupportedError
	if _, err := Decode([]byte("BLP0"+strings.Repeat("\x00", 200)), nil); !errors.As(err, &ue) {
		t.Errorf("BLP0 error is %T, want *UnsupportedError", err)
	}
	if _, err := Decode(good, &Options{MaxDimension: 2}); err == nil {
		t.Error("MaxDimension 2 accepted a 4×4 texture")
	}
}

func TestTGA(t *testing.T) {
	im := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	copy(im.Pix, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	for _, c := range []struct {
		bpp    int
		footer bool
	}{{32, true}, {32, false}, {24, false}} {
		data := tgaFile(im, c.bpp, c.footer)
		if Sniff(data) != FormatTGA {
			t.Fatalf("%d bpp footer %v: not sniffed as TGA", c.bpp, c.footer)
		}
		tex, err := Decode(data, nil)
		if err != nil {
			t.Fatalf("%d bpp: %v", c.bpp, err)
		}
		for i := 0; i < 16; i += 4 {
			want := [4]uint8(im.Pix[i : i+4])
			if c.bpp == 24 {
				want[3] = 255
			}
			if got := [4]uint8(tex.Levels[0].Pix[i : i+4]); got != want {
				t.Errorf("%d bpp pixel %d: got %v, want %v", c.bpp, i/4, got, want)
			}
		}
	}
	// A 1×1 24-bit file is 21 bytes: the decoder's footer probe would seek
	// before the start without the padding guard.
	one := tgaFile(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 24, false)
	if len(one) != 21 {
		t.Fatalf("fixture is %d bytes", len(one))
	}
	if _, err := Decode(one, nil); err != nil {
		t.Errorf("21-byte TGA: %v", err)
	}
}

// splitJPEG cuts a JPEG after its quantisation table, as BLP1 files keep
// the tables all levels share in one header.
func splitJPEG(header, scan []byte) ([]byte, []byte) {
	full := append(append([]byte(nil), header...), scan...)
	const dqtEnd = 2 + 4 + 65
	return full[:dqtEnd], full[dqtEnd:]
}

func bytesIndex(b, sep []byte) int {
	for i := 0; i+len(sep) <= len(b); i++ {
		if string(b[i:i+len(sep)]) == string(sep) {
			return i
		}
	}
	return -1
}
