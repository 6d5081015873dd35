package golden

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"
)

func TestDiff(t *testing.T) {
	want := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	got := image.NewNRGBA(want.Rect)
	got.SetNRGBA(1, 0, color.NRGBA{3, 0, 0, 0})
	got.SetNRGBA(2, 1, color.NRGBA{0, 0, 0, 9})
	if _, bad, worst := Diff(want, got, 0); bad != 2 || worst != 9 {
		t.Errorf("tolerance 0: %d bad, worst %d; want 2, 9", bad, worst)
	}
	diff, bad, _ := Diff(want, got, 3)
	if bad != 1 || diff.NRGBAAt(2, 1) != (color.NRGBA{255, 0, 255, 255}) || diff.NRGBAAt(1, 0) == (color.NRGBA{255, 0, 255, 255}) {
		t.Errorf("tolerance 3: %d bad, diff %v %v", bad, diff.NRGBAAt(2, 1), diff.NRGBAAt(1, 0))
	}
	if _, bad, _ := Diff(want, image.NewNRGBA(image.Rect(0, 0, 2, 2)), 255); bad != 4 {
		t.Errorf("other bounds: %d bad, want every pixel", bad)
	}
}

func TestCheckReadsWhatWritePNGWrote(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 3))
	img.SetNRGBA(1, 1, color.NRGBA{10, 20, 30, 40})
	path := filepath.Join(t.TempDir(), "x.png")
	WritePNG(t, path, img)
	if _, bad, _ := Diff(ReadPNG(t, path), img, 0); bad != 0 {
		t.Errorf("%d pixels changed on the way through PNG", bad)
	}
	t.Setenv("UPDATE_GOLDEN", "")
	Check(t, path, img, Tolerance{})
}
