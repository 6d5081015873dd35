package texture

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// allocated returns the bytes f allocates (the test must not run in
// parallel with others for the figure to mean anything).
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// blpLevels wraps JPEG streams as the levels of one BLP1: the first
// stream's part before its scan is the shared header, and every level keeps
// its own stream from the first scan on.
func blpLevels(w, h int, streams ...[]byte) []byte {
	header, _ := hostile.SplitJPEG(streams[0])
	var levels [][]byte
	for _, s := range streams {
		hs, rest := hostile.SplitJPEG(s)
		if string(hs) != string(header) {
			// A level with its own tables and frame: put them in the
			// level, after an empty shared header.
			header, levels = nil, nil
			for _, s := range streams {
				levels = append(levels, s)
			}
			return hostile.BLP1JPEG(w, h, header, levels)
		}
		levels = append(levels, rest)
	}
	return hostile.BLP1JPEG(w, h, header, levels)
}

func repeatStream(s []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestHostileTextures decodes the crafted textures of the hostile-input
// table at the default budgets. Each must fail with a clear error before
// the decoder allocates what the file asks for: at most maxAlloc bytes are
// allocated (the input is built beforehand).
func TestHostileTextures(t *testing.T) {
	cases := []struct {
		name     string
		data     func() []byte
		want     string
		maxAlloc uint64
	}{
		{
			// The table's case at full scale: the JPEG says 8192×8192,
			// the BLP 64×64 (1.55 GB before).
			name: "BLP1 JPEG frame 8192x8192 in a 64x64 BLP",
			data: func() []byte { return blpLevels(64, 64, hostile.BaselineJPEG(8192, 8192, 4)) },
			want: "JPEG frame 8192x8192 is larger than the 64x64 texture", maxAlloc: 4 << 20,
		},
		{
			// 12 levels of a 2048×2048 BLP, each carrying a full-size
			// frame: every level fits the texture, together they do not
			// fit the budget (1.3 s and 1.6 GB of garbage before).
			name: "BLP1 2048x2048 whose 12 levels carry 2048x2048 frames",
			data: func() []byte { return blpLevels(2048, 2048, repeatStream(hostile.BaselineJPEG(2048, 2048, 4), 12)...) },
			want: "over the MaxPixels budget", maxAlloc: 4 << 20,
		},
		{
			name: "BLP1 progressive JPEG with 1800 scans",
			data: func() []byte { return blpLevels(64, 64, hostile.ProgressiveJPEG(64, 64, 4, 1800)) },
			want: "1800 scans, over the MaxJPEGScans budget", maxAlloc: 1 << 20,
		},
		{
			name: ".jpg progressive JPEG with 1800 scans",
			data: func() []byte { return hostile.ProgressiveJPEG(64, 64, 3, 1800) },
			want: "1800 scans, over the MaxJPEGScans budget", maxAlloc: 1 << 20,
		},
		{
			name: ".jpg sequential JPEG with 500 scans",
			data: func() []byte { return hostile.SequentialJPEG(64, 64, 3, 500) },
			want: "sequential JPEG with 500 scans for 3 components", maxAlloc: 1 << 20,
		},
		{
			// The table's case: 780-870 MB before.
			name: "PNG 8192x8192 16-bit RGBA",
			data: func() []byte { return hostile.PNGHeader(8192, 8192, 16, hostile.PNGRGBA, 16<<10) },
			want: "8192x8192 PNG of 16-bit samples decoded and converted: 201326592 pixels needed, over the MaxPixels budget", maxAlloc: 1 << 20,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.data()
			var err error
			n := allocated(func() { _, err = Decode(data, nil) })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
			if n > c.maxAlloc {
				t.Errorf("allocated %d bytes, want at most %d", n, c.maxAlloc)
			}
		})
	}
}

// TestPixelBudgetIsExact checks what each decoder charges against
// MaxPixels: a budget one pixel short of the need fails with a
// *BudgetError saying so, the exact need passes.
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
			var be *BudgetError
			if !errors.As(err, &be) || be.Budget != "MaxPixels" || be.Value != c.need || be.Limit != c.need-1 {
				t.Fatalf("budget %d: got %v, want a MaxPixels *BudgetError needing %d", c.need-1, err, c.need)
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
	return blp1JPEG(16, 8, 8, header, [][]byte{scan})
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
	var be *BudgetError
	if !errors.As(err, &be) || be.File != path || be.Budget != "MaxJPEGScans" || be.Value != 1800 || be.Limit != DefaultMaxJPEGScans {
		t.Fatalf("got %v, want a MaxJPEGScans *BudgetError naming %s", err, path)
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
