package icon

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
)

// figure draws a stand-in for a rendered model, side×side on a
// transparent background: a bust (head and shoulders) in warm skin and a
// blue tunic with a gold trim, lit from the top left, its edges
// antialiased, the way a render at four times the icon's size looks.
func figure(side int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	s := float64(side)
	for y := range side {
		for x := range side {
			var r, g, b, a float64
			// Four samples a pixel for soft edges.
			for k := range 4 {
				px := (float64(x) + 0.25 + 0.5*float64(k%2)) / s
				py := (float64(y) + 0.25 + 0.5*float64(k/2)) / s
				var c [3]float64
				in := false
				// Shoulders: an ellipse cut by the picture's bottom.
				if dx, dy := (px-0.5)/0.42, (py-1.0)/0.42; dx*dx+dy*dy < 1 {
					in, c = true, [3]float64{40, 70, 170}
					if dx*dx+dy*dy > 0.8 {
						c = [3]float64{220, 180, 60}
					}
				}
				// Head: a circle over them.
				if dx, dy := (px-0.5)/0.2, (py-0.42)/0.22; dx*dx+dy*dy < 1 {
					in, c = true, [3]float64{225, 170, 130}
					if dy < -0.4 {
						c = [3]float64{90, 50, 20} // hair
					}
				}
				if !in {
					continue
				}
				light := 0.75 + 0.35*(1-px-py)
				r += c[0] * light
				g += c[1] * light
				b += c[2] * light
				a++
			}
			if a == 0 {
				continue
			}
			i := img.PixOffset(x, y)
			img.Pix[i] = uint8(min(255, r/a))
			img.Pix[i+1] = uint8(min(255, g/a))
			img.Pix[i+2] = uint8(min(255, b/a))
			img.Pix[i+3] = uint8(255 * a / 4)
		}
	}
	return img
}

// TestGoldens composes every kind at both sizes from the figure and
// compares the pixels with testdata/golden (UPDATE_GOLDEN=1 rewrites
// them).
func TestGoldens(t *testing.T) {
	pic := figure(256)
	for _, size := range []int{SD, HD} {
		for _, k := range Kinds() {
			name := fmt.Sprintf("%s_%d.png", k, size)
			t.Run(name, func(t *testing.T) {
				src := pic
				if size == HD {
					src = figure(1024)
				}
				img, err := Compose(src, k, Options{Size: size})
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", "golden", name), img, golden.Tolerance{})
			})
		}
	}
	// A gradient of the caller's, a picture background and a user's
	// frame.
	bgPic := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for i := range bgPic.Pix {
		bgPic.Pix[i] = uint8(i * 7 % 256)
		if i%4 == 3 {
			bgPic.Pix[i] = 255
		}
	}
	frame := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			if x < 6 || y < 6 || x >= 58 || y >= 58 {
				frame.SetNRGBA(x, y, color.NRGBA{200, 30, 30, 200})
			}
		}
	}
	for name, o := range map[string]Options{
		"gradient.png": {Background: Gradient(color.NRGBA{200, 220, 255, 255}, color.NRGBA{40, 0, 0, 255})},
		"picture.png":  {Background: Picture(bgPic)},
		"frame.png":    {Frame: frame},
	} {
		t.Run(name, func(t *testing.T) {
			img, err := Compose(pic, BTN, o)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", name), img, golden.Tolerance{})
		})
	}
}

// saturationAndLuma are the mean HSV saturation and the mean Rec. 601
// luma of the pixels inside r.
func saturationAndLuma(img *image.NRGBA, r image.Rectangle) (sat, luma float64) {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.NRGBAAt(x, y)
			hi := math.Max(float64(c.R), math.Max(float64(c.G), float64(c.B)))
			lo := math.Min(float64(c.R), math.Min(float64(c.G), float64(c.B)))
			if hi > 0 {
				sat += (hi - lo) / hi
			}
			luma += 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
			n++
		}
	}
	return sat / float64(n), luma / float64(n)
}

// TestDisabledLook measures that each disabled kind is plainly less
// saturated and darker than its enabled twin, over the picture inside the
// frames: at most half the saturation and at most 60% of the luma.
func TestDisabledLook(t *testing.T) {
	pic := figure(256)
	for _, pair := range [][2]Kind{{BTN, DISBTN}, {PAS, DISPAS}} {
		on, err := Compose(pic, pair[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		off, err := Compose(pic, pair[1], Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := Inner(pair[0], SD).Intersect(Inner(pair[1], SD)).Inset(3)
		s0, l0 := saturationAndLuma(on, r)
		s1, l1 := saturationAndLuma(off, r)
		t.Logf("%s: saturation %.3f luma %.1f; %s: saturation %.3f luma %.1f", pair[0], s0, l0, pair[1], s1, l1)
		if !(s1 <= 0.5*s0) {
			t.Errorf("%s saturation %.3f is more than half of %s's %.3f", pair[1], s1, pair[0], s0)
		}
		if !(l1 <= 0.6*l0) {
			t.Errorf("%s luma %.1f is more than 60%% of %s's %.1f", pair[1], l1, pair[0], l0)
		}
	}
}

// TestFrameRings checks the frame's geometry on a white picture: at 64
// the bevel of BTN is four pixels wide, lit on the top and left, shaded
// on the bottom and right; at 256 it is eight. Inner says where it ends.
func TestFrameRings(t *testing.T) {
	white := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range white.Pix {
		white.Pix[i] = 255
	}
	for _, size := range []int{SD, HD} {
		img, err := Compose(white, BTN, Options{Size: size, Background: Solid(color.NRGBA{255, 255, 255, 255})})
		if err != nil {
			t.Fatal(err)
		}
		in := Inner(BTN, size)
		u := frameUnit(size)
		if in.Min.X != 4*u || in.Max.X != size-4*u {
			t.Fatalf("size %d: inner %v", size, in)
		}
		mid := size / 2
		top, bottom := img.NRGBAAt(mid, 1*u), img.NRGBAAt(mid, size-1-1*u)
		left, right := img.NRGBAAt(1*u, mid), img.NRGBAAt(size-1-1*u, mid)
		if top.R < 180 || left.R < 180 || bottom.R > 140 || right.R > 140 {
			t.Errorf("size %d: metal top %v left %v bottom %v right %v", size, top, left, bottom, right)
		}
		// Inside the shade the picture is untouched white.
		if c := img.NRGBAAt(mid, in.Min.Y+3*u); c.R < 250 {
			t.Errorf("size %d: picture at the end of the shade is %v", size, c)
		}
		if c := img.NRGBAAt(mid, in.Min.Y); c.R > 160 {
			t.Errorf("size %d: first ring of the shade is %v", size, c)
		}
	}
}

func TestComposeRefuses(t *testing.T) {
	pic := figure(32)
	for _, o := range []Options{{Size: 4}, {Size: MaxSize + 1}} {
		if _, err := Compose(pic, BTN, o); err == nil {
			t.Errorf("size %d accepted", o.Size)
		}
	}
	if _, err := Compose(pic, Kind(9), Options{}); err == nil {
		t.Error("kind 9 accepted")
	}
	if _, err := Compose(image.NewNRGBA(image.Rect(0, 0, 0, 3)), BTN, Options{}); err == nil {
		t.Error("empty picture accepted")
	}
}

// TestDeterministic composes the same icon with GOMAXPROCS 1 and 8:
// imaging splits its work over that many goroutines but sums each pixel
// in a fixed order.
func TestDeterministic(t *testing.T) {
	pic := figure(256)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	a, _ := Compose(pic, DISBTN, Options{Size: HD})
	runtime.GOMAXPROCS(8)
	b, _ := Compose(pic, DISBTN, Options{Size: HD})
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Fatal("GOMAXPROCS 1 and 8 compose different icons")
	}
}
