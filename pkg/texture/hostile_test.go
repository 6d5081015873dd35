package texture

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestPixelBudgetIsExact checks what each decoder charges against
// MaxPixels: a budget one pixel short of the need fails with a
// *budget.Error saying so, the exact need passes.
func TestPixelBudgetIsExact(t *testing.T) {
	pal := testPalette()
	blk := []byte{0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x1b, 0, 0}
	cases := []struct {
		name string
		data []byte
		need int64
	}{
		// 4×4, 2×2 and 1×1 levels: 21 pixels.
		{"BLP1 palette with 3 levels", blp1Palette(4, 4, 0, pal, [][]byte{make([]byte, 16), make([]byte, 4), make([]byte, 1)}), 21},
		// 8×4 and 4×2 levels: 40.
		{"DDS DXT1 with 2 levels", dds(8, 4, 2, "DXT1", 0, 0, [4]uint32{}, repeat(blk, 3)), 40},
		// The decoder's image and the NRGBA copy: 2 per pixel.
		{"TGA 3x2", tgaFile(image.NewNRGBA(image.Rect(0, 0, 3, 2)), 32, true), 12},
		// image/png's 8 bytes a pixel and the 4-byte copy: 3 per pixel.
		{"PNG 64x64 16-bit RGBA", hostile.PNG(64, 64, 16, hostile.PNGRGBA), 3 * 64 * 64},
		// 8-bit RGBA decodes to NRGBA, used as it is.
		{"PNG 64x64 8-bit RGBA", hostile.PNG(64, 64, 8, hostile.PNGRGBA), 64 * 64},
		// Four planes padded to whole blocks (64 samples each, one
		// pixel per four), the CMYK picture (one per pixel) and the
		// 16×8 level: 2·(16·8) + 16·8.
		{"BLP1 JPEG 16x8", blp1JPEGOneLevel(), 3 * 16 * 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data, &Options{MaxPixels: c.need - 1})
			var be *budget.Error
			if !errors.As(err, &be) || be.Limit != budget.TexturePixels || be.Value != c.need || be.Max != c.need-1 {
				t.Fatalf("budget %d: got %v, want a texture_pixels *budget.Error needing %d", c.need-1, err, c.need)
			}
			if _, err := Decode(c.data, &Options{MaxPixels: c.need}); err != nil {
				t.Fatalf("budget %d: %v", c.need, err)
			}
		})
	}
}

// blp1JPEGOneLevel is a 16×8 BLP1 JPEG with one level.
func blp1JPEGOneLevel() []byte {
	header, scan := splitJPEG(flatJPEG(16, 8, [4][]uint8{{10, 200}, {20, 100}, {30, 50}, {40, 255}}))
	return hostile.BLP1JPEG(16, 8, 8, header, [][]byte{scan})
}

// TestBudgetsCanBeRaised decodes what the default budgets refuse once the
// budget is raised, and checks that the error names the file.
func TestBudgetsCanBeRaised(t *testing.T) {
	dir := t.TempDir()
	prog := hostile.ProgressiveJPEG(64, 64, 3, 1800)
	path := filepath.Join(dir, "storm.jpg")
	if err := os.WriteFile(path, prog, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := DecodeFile(path, nil)
	var be *budget.Error
	if !errors.As(err, &be) || be.File != path || be.Limit != budget.JPEGScans || be.Value != 1800 || be.Max != budget.JPEGScans.Default() {
		t.Fatalf("got %v, want a jpeg_scans *budget.Error naming %s", err, path)
	}
	if !strings.HasPrefix(err.Error(), path+": JPEG: ") {
		t.Errorf("message %q does not start with the file", err)
	}
	tex, err := DecodeFile(path, &Options{MaxJPEGScans: 1800})
	if err != nil || tex.Width() != 64 {
		t.Fatalf("with MaxJPEGScans 1800: %v", err)
	}

	png16 := hostile.PNG(2048, 2048, 16, hostile.PNGRGBA)
	if _, err := Decode(png16, &Options{MaxPixels: 1 << 20}); !errors.As(err, &be) {
		t.Fatalf("2048² 16-bit PNG at 1 Mi pixels: %v", err)
	}
	if _, err := Decode(png16, nil); err != nil {
		t.Fatalf("2048² 16-bit PNG at the default budget: %v", err)
	}
}

// TestJPEGFrameParse checks the marker walk against image/jpeg's own view
// of the streams the hostile builders make, and counts their scans.
func TestJPEGFrameParse(t *testing.T) {
	for _, c := range []struct {
		data        []byte
		w, h, comps int
		prog        bool
		scans       int
	}{
		{hostile.BaselineJPEG(20, 9, 3), 20, 9, 3, false, 1},
		{hostile.SequentialJPEG(8, 8, 1, 7), 8, 8, 1, false, 7},
		{hostile.ProgressiveJPEG(40, 16, 4, 9), 40, 16, 4, true, 9},
	} {
		f, err := parseJPEGFrame(c.data)
		if err != nil {
			t.Fatal(err)
		}
		if f.width != c.w || f.height != c.h || f.comps != c.comps || f.progressive != c.prog || f.scans != c.scans {
			t.Errorf("got %+v, want %dx%d, %d components, progressive %v, %d scans", f, c.w, c.h, c.comps, c.prog, c.scans)
		}
	}
	// A progressive 40×16 frame has 5×2 MCUs: the first scan codes four
	// components (40 blocks), each of the 8 others one (10 blocks).
	f, _ := parseJPEGFrame(hostile.ProgressiveJPEG(40, 16, 4, 9))
	if f.blockVisits != 40+8*10 {
		t.Errorf("block visits %d, want 120", f.blockVisits)
	}
	for _, bad := range [][]byte{
		{0xff, 0xd9},
		append([]byte{0xff, 0xd8, 0xff, 0xc0, 0, 8, 8, 0, 0, 0, 8, 1}, 1, 0x11, 0),
		append([]byte{0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 2}, 1, 0x11, 0, 2, 0x11, 0),
		append([]byte{0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 1}, 1, 0x51, 0),
		{0xff, 0xd8, 0xff, 0xda, 0, 2},
		{0xff, 0xd8, 0xff, 0xc4, 0, 1},
	} {
		if _, err := parseJPEGFrame(bad); err == nil {
			t.Errorf("% x: no error", bad)
		}
	}
}
