// Package golden compares rendered pictures with golden PNG files checked
// in beside the tests, on decoded pixels rather than on bytes, and rewrites
// the goldens when UPDATE_GOLDEN is set. Look at every golden you rewrite
// before committing it: the comparison only says the picture did not
// change, not that it is right.
package golden

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Tolerance says how far a picture may stray from its golden: a pixel
// differs when any channel is off by more than Channel, and the picture
// fails when more than MaxPercent of its pixels differ. The zero
// Tolerance wants every pixel exactly.
type Tolerance struct {
	Channel    int
	MaxPercent float64
}

// Update reports whether UPDATE_GOLDEN asks for the goldens to be
// rewritten instead of compared.
func Update() bool { return os.Getenv("UPDATE_GOLDEN") != "" }

// Check compares img with the golden PNG at path, or rewrites the golden
// when Update says so. On a mismatch it writes the picture and a diff
// (magenta where pixels differ, the picture darkened elsewhere) to a
// temporary folder named in the failure.
func Check(t testing.TB, path string, img *image.NRGBA, tol Tolerance) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		WritePNG(t, path, img)
		return
	}
	want, err := readPNG(path)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
	}
	if want.Bounds() != img.Bounds() {
		t.Errorf("%s: golden is %v, picture is %v (UPDATE_GOLDEN=1 rewrites it)", path, want.Bounds(), img.Bounds())
		return
	}
	diff, bad, worst := Diff(want, img, tol.Channel)
	pct := 100 * float64(bad) / float64(img.Rect.Dx()*img.Rect.Dy())
	if bad == 0 || pct <= tol.MaxPercent {
		return
	}
	dir := filepath.Join(os.TempDir(), "mdxrender-golden")
	name := filepath.Base(path[:len(path)-len(filepath.Ext(path))])
	if err := os.MkdirAll(dir, 0o755); err == nil {
		WritePNG(t, filepath.Join(dir, name+".actual.png"), img)
		WritePNG(t, filepath.Join(dir, name+".diff.png"), diff)
	}
	t.Errorf("%s: %d pixels (%.2f%%) differ by more than %d, worst by %d (picture and diff in %s; UPDATE_GOLDEN=1 rewrites the golden)",
		path, bad, pct, tol.Channel, worst, dir)
}

// Diff compares got with want pixel by pixel: it returns a diff picture
// (magenta where a channel is off by more than tol, got darkened
// elsewhere), how many pixels differ that much, and the largest channel
// difference. Pictures of different bounds differ everywhere.
func Diff(want image.Image, got *image.NRGBA, tol int) (diff *image.NRGBA, bad, worst int) {
	r := got.Rect
	diff = image.NewNRGBA(r)
	if want.Bounds() != r {
		return diff, r.Dx() * r.Dy(), 255
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			g := got.NRGBAAt(x, y)
			d := max(absDiff(w.R, g.R), absDiff(w.G, g.G), absDiff(w.B, g.B), absDiff(w.A, g.A))
			worst = max(worst, d)
			if d > tol {
				bad++
				diff.SetNRGBA(x, y, color.NRGBA{255, 0, 255, 255})
			} else {
				diff.SetNRGBA(x, y, color.NRGBA{g.R / 3, g.G / 3, g.B / 3, 255})
			}
		}
	}
	return diff, bad, worst
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// ReadPNG decodes the PNG at path, failing t when it is missing or bad.
func ReadPNG(t testing.TB, path string) image.Image {
	t.Helper()
	img, err := readPNG(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func readPNG(path string) (image.Image, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// WritePNG encodes img as PNG at path, failing t on any error.
func WritePNG(t testing.TB, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// UpdateFixtures reports whether UPDATE_FIXTURES asks for the fixture
// files that tests generate (models, textures) to be rewritten instead of
// compared.
func UpdateFixtures() bool { return os.Getenv("UPDATE_FIXTURES") != "" }

// CheckFile compares want, the bytes a test's generator makes, with the
// file checked in at path, or writes them there when UpdateFixtures says
// so: the files are what the tests describe, byte for byte.
func CheckFile(t testing.TB, path string, want []byte) {
	t.Helper()
	compareFile(t, path, want, UpdateFixtures(), "UPDATE_FIXTURES")
}

// CheckBytes compares got, a file a test makes (metadata, text), with the
// golden file at path byte for byte, or rewrites the golden when Update
// says so.
func CheckBytes(t testing.TB, path string, got []byte) {
	t.Helper()
	compareFile(t, path, got, Update(), "UPDATE_GOLDEN")
}

// compareFile compares b with the file at path, or writes it there when
// update is set; env names the variable that sets it.
func compareFile(t testing.TB, path string, b []byte, update bool, env string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s=1 writes it)", err, env)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("%s differs from what the test makes (%d bytes, want %d); rerun with %s=1", path, len(b), len(want), env)
	}
}
