package render

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
)

// Golden tolerance: a pixel differs when a channel is off by more than
// goldenTol; a golden fails when more than goldenMaxPct of its pixels
// differ. Renders are bit-identical on one architecture; the slack is for
// architectures where Go fuses multiply-adds.
const (
	goldenTol    = 4
	goldenMaxPct = 0.2
)

// TestGoldenFixtures renders every fixture MDL in testdata/models as
// checked in and compares decoded pixels with testdata/golden/<name>.png.
// UPDATE_GOLDEN=1 rewrites the goldens; a failure writes the actual image
// and a diff next to the test output (the path is logged).
func TestGoldenFixtures(t *testing.T) {
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for _, f := range fixtures() {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(modelsDir, f.name+".mdl")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := testmodel.Load(b)
			if err != nil {
				t.Fatal(err)
			}
			img, warns, err := renderAt(m, path, f.opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range warns {
				t.Errorf("warning: %v", w)
			}
			gpath := filepath.Join(goldenDir, f.name+".png")
			if update {
				writePNGFile(t, gpath, img)
				return
			}
			want := readPNG(t, gpath)
			diff, bad := goldenDiff(want, img)
			pct := 100 * float64(bad) / float64(img.Rect.Dx()*img.Rect.Dy())
			if pct > goldenMaxPct {
				dir := filepath.Join(os.TempDir(), "mdxrender-golden")
				os.MkdirAll(dir, 0o755)
				writePNGFile(t, filepath.Join(dir, f.name+".actual.png"), img)
				writePNGFile(t, filepath.Join(dir, f.name+".diff.png"), diff)
				t.Errorf("%s: %.2f%% of pixels differ by more than %d (actual and diff in %s)", gpath, pct, goldenTol, dir)
			}
		})
	}
}

func goldenDiff(a image.Image, b *image.NRGBA) (*image.NRGBA, int) {
	r := b.Rect
	diff := image.NewNRGBA(r)
	if a.Bounds() != r {
		return diff, r.Dx() * r.Dy()
	}
	bad := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			cb := b.NRGBAAt(x, y)
			d := max(absDiff(ca.R, cb.R), absDiff(ca.G, cb.G), absDiff(ca.B, cb.B), absDiff(ca.A, cb.A))
			if d > goldenTol {
				bad++
				diff.SetNRGBA(x, y, color.NRGBA{255, 0, 255, 255})
			} else {
				diff.SetNRGBA(x, y, color.NRGBA{cb.R / 3, cb.G / 3, cb.B / 3, 255})
			}
		}
	}
	return diff, bad
}

func writePNGFile(t testing.TB, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
