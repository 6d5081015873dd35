package main

import (
	"bytes"
	"encoding/json"
	"html"
	"image"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kettek/apng"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

var demoGolden = filepath.Join("..", "..", "testdata", "golden", "demo.png")

// TestDemoCommand runs 'mdxrender demo' as a user would and checks every
// output: the files listed, their sizes, that the model is actually in
// them, the sheet metadata, the animations' frame counts, a golden image of
// the thumbnail (UPDATE_GOLDEN=1 rewrites it) and byte-identical reruns.
func TestDemoCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo out") // a space, as users' folders have
	stdout, stderr, code := run(t, "demo", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	want := []string{
		"index.html", "shrine-Spin.apng.png", "shrine-Spin.gif", "shrine-Stand.apng.png", "shrine-Stand.gif",
		"shrine-sheet.aseprite.json", "shrine-sheet.json", "shrine-sheet.plain.json", "shrine-sheet.png", "shrine-sheet.tres", "shrine.png",
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("demo wrote %q, want %q (no cache, manifest or temporary files)", got, want)
	}
	printed := strings.Fields(strings.ReplaceAll(stdout, dir+string(filepath.Separator), ""))
	slices.Sort(printed)
	if !slices.Equal(printed, want) {
		t.Errorf("demo printed %q, want the files it wrote", printed)
	}

	// The page links every output and nothing else.
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllSubmatch(page, -1) {
		linked[html.UnescapeString(string(m[1]))] = true
	}
	for _, f := range want {
		if f != "index.html" && !linked[f] {
			t.Errorf("index.html does not link %s", f)
		}
	}
	if len(linked) != len(want)-1 {
		t.Errorf("index.html links %d files, want %d: %v", len(linked), len(want)-1, linked)
	}

	// Thumbnail: 256², the model fills a fair part of it, and it matches
	// the golden.
	thumb := decodePNG(t, filepath.Join(dir, "shrine.png"))
	if b := thumb.Bounds(); b.Dx() != 256 || b.Dy() != 256 {
		t.Fatalf("thumbnail is %v, want 256x256", b)
	}
	if c := coverage(thumb, thumb.Bounds()); c < 0.15 || c > 0.7 {
		t.Errorf("thumbnail coverage %.2f, want the model to fill 15-70%% of it", c)
	}
	checkDemoGolden(t, thumb)

	// Sheet: 2 sequences x 16 frames of 128², 8 columns -> 4 rows, each
	// frame trimmed to the model, so smaller than the 1024x512 grid; every
	// rectangle inside the image, showing the model and placed back in
	// its 128² frame by its trim; durations add up to each sequence's
	// length.
	sheet := decodePNG(t, filepath.Join(dir, "shrine-sheet.png"))
	if b := sheet.Bounds(); b.Dx() > 8*128 || b.Dy() > 4*128 || b.Dx() < 8*32 {
		t.Errorf("sheet is %v, want a trimmed 1024x512", b)
	}
	var tp struct {
		Frames map[string]struct {
			Frame            struct{ X, Y, W, H int }
			Trimmed          bool
			SpriteSourceSize struct{ X, Y, W, H int }
			SourceSize       struct{ W, H int }
			Duration         int
		}
		Animations map[string][]string
		Meta       struct {
			Image string
			Size  struct{ W, H int }
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "shrine-sheet.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tp); err != nil {
		t.Fatal(err)
	}
	if len(tp.Frames) != 32 || tp.Meta.Image != "shrine-sheet.png" || tp.Meta.Size.W != sheet.Bounds().Dx() || tp.Meta.Size.H != sheet.Bounds().Dy() {
		t.Errorf("sheet JSON: %d frames, image %q, size %+v", len(tp.Frames), tp.Meta.Image, tp.Meta.Size)
	}
	for name, length := range map[string]int{"Stand": 2000, "Spin": 1000} {
		frames := tp.Animations[name]
		if len(frames) != 16 {
			t.Errorf("animation %s has %d frames, want 16 (animations: %v)", name, len(frames), tp.Animations)
		}
		sum := 0
		for _, f := range frames {
			fr := tp.Frames[f]
			sum += fr.Duration
			r := image.Rect(fr.Frame.X, fr.Frame.Y, fr.Frame.X+fr.Frame.W, fr.Frame.Y+fr.Frame.H)
			src := fr.SpriteSourceSize
			if !fr.Trimmed || r.Dx() > 128 || r.Dy() > 128 || !r.In(sheet.Bounds()) || fr.SourceSize.W != 128 || fr.SourceSize.H != 128 ||
				src.W != r.Dx() || src.H != r.Dy() || src.X < 0 || src.Y < 0 || src.X+src.W > 128 || src.Y+src.H > 128 {
				t.Errorf("%s: rectangle %v (from %+v of its frame) is not a trimmed 128² frame inside the sheet", f, r, src)
				continue
			}
			if c := coverage(sheet, r); c < 0.1 {
				t.Errorf("%s: cell %v is nearly empty (coverage %.3f)", f, r, c)
			}
		}
		if sum != length {
			t.Errorf("%s durations sum to %d ms, want %d", name, sum, length)
		}
	}

	// Animations: 16 frames of 128² each, decodable by the standard GIF
	// decoder and an APNG decoder.
	for _, seq := range []string{"Stand", "Spin"} {
		b, err := os.ReadFile(filepath.Join(dir, "shrine-"+seq+".gif"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s.gif: %v", seq, err)
		}
		if len(g.Image) != 16 || g.Config.Width != 128 || g.Config.Height != 128 {
			t.Errorf("%s.gif: %d frames of %dx%d, want 16 of 128x128", seq, len(g.Image), g.Config.Width, g.Config.Height)
		}
		b, err = os.ReadFile(filepath.Join(dir, "shrine-"+seq+".apng.png"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := apng.DecodeAll(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s.apng.png: %v", seq, err)
		}
		n := 0
		for _, f := range a.Frames {
			if f.IsDefault {
				continue
			}
			n++
			if bb := f.Image.Bounds(); bb.Dx() != 128 || bb.Dy() != 128 {
				t.Errorf("%s.apng.png: frame %v, want 128x128", seq, bb)
			}
		}
		if n != 16 {
			t.Errorf("%s.apng.png: %d frames, want 16", seq, n)
		}
	}

	// The same bytes again.
	dir2 := filepath.Join(t.TempDir(), "again")
	if _, stderr, code := run(t, "demo", "-o", dir2); code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	for _, f := range want {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}

func decodePNG(t *testing.T, name string) *image.NRGBA {
	t.Helper()
	m, err := batch.DecodePNGFile(name)
	if err != nil {
		t.Fatal(err)
	}
	n := image.NewNRGBA(m.Bounds())
	for y := m.Bounds().Min.Y; y < m.Bounds().Max.Y; y++ {
		for x := m.Bounds().Min.X; x < m.Bounds().Max.X; x++ {
			n.Set(x, y, m.At(x, y))
		}
	}
	return n
}

// coverage is the share of pixels in r that are not fully transparent.
func coverage(m *image.NRGBA, r image.Rectangle) float64 {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if m.NRGBAAt(x, y).A > 0 {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

// checkDemoGolden compares decoded pixels with testdata/golden/demo.png:
// at most 0.2 % of pixels may differ by more than 4 in a channel, as for
// the renderer's goldens.
func checkDemoGolden(t *testing.T, got *image.NRGBA) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		b, err := encodePNGBytes(got)
		if err == nil {
			err = os.WriteFile(demoGolden, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := batch.DecodePNGFile(demoGolden)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 go test -run TestDemoCommand ./cmd/mdxrender writes it)", err)
	}
	c, diff := batch.Compare(got, want, 4)
	if c.Share() > 0.002 {
		out := filepath.Join(os.TempDir(), "mdxrender-golden")
		os.MkdirAll(out, 0o755)
		if b, err := encodePNGBytes(got); err == nil {
			os.WriteFile(filepath.Join(out, "demo.png"), b, 0o644)
		}
		if diff != nil {
			if b, err := encodePNGBytes(diff); err == nil {
				os.WriteFile(filepath.Join(out, "demo.diff.png"), b, 0o644)
			}
		}
		t.Errorf("thumbnail differs from %s: %+v (%.3f%% of pixels); actual and diff in %s", demoGolden, c, 100*c.Share(), out)
	}
}

func encodePNGBytes(m image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, m)
	return b.Bytes(), err
}
