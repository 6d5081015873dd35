package anim

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"testing"

	"github.com/kettek/apng"
)

// animFrames draws a few frames with translucent and transparent parts and
// a handful of colours (so a 255-colour palette can hold them exactly).
func animFrames(n, size int) []*image.NRGBA {
	var out []*image.NRGBA
	for f := 0; f < n; f++ {
		m := image.NewNRGBA(image.Rect(0, 0, size, size))
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				switch {
				case x >= f*2 && x < f*2+size/3:
					m.SetNRGBA(x, y, color.NRGBA{200, uint8(40 * f), 30, 255})
				case y < size/4:
					m.SetNRGBA(x, y, color.NRGBA{20, 90, 250, 60}) // translucent
				case y > size*3/4:
					m.SetNRGBA(x, y, color.NRGBA{10, 200, 10, 255})
				}
			}
		}
		out = append(out, m)
	}
	return out
}

func TestGIFRoundTrip(t *testing.T) {
	frames := animFrames(5, 40)
	durs := []uint32{133, 133, 134, 100, 35}
	var a, b bytes.Buffer
	if err := EncodeGIF(&a, frames, durs); err != nil {
		t.Fatal(err)
	}
	if err := EncodeGIF(&b, frames, durs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("GIF encoding is not deterministic")
	}
	g, err := gif.DecodeAll(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 5 || g.LoopCount != 0 {
		t.Fatalf("%d frames, loop %d", len(g.Image), g.LoopCount)
	}
	total := 0
	for _, d := range g.Delay {
		total += d
	}
	if total != (133+133+134+100+35+5)/10 {
		t.Errorf("delays %v sum to %d cs, want 54", g.Delay, total)
	}
	for i, p := range g.Image {
		for y := 0; y < 40; y++ {
			for x := 0; x < 40; x++ {
				want := frames[i].NRGBAAt(x, y)
				r, gg, bb, al := p.At(x, y).RGBA()
				if want.A < 128 {
					if al != 0 {
						t.Fatalf("frame %d (%d,%d): alpha %d, want transparent", i, x, y, al>>8)
					}
					continue
				}
				// few colours: the median cut keeps them exactly
				if al>>8 != 255 || uint8(r>>8) != want.R || uint8(gg>>8) != want.G || uint8(bb>>8) != want.B {
					t.Fatalf("frame %d (%d,%d): %d,%d,%d,%d want %v", i, x, y, r>>8, gg>>8, bb>>8, al>>8, want)
				}
			}
		}
	}
}

func TestGIFDithersManyColours(t *testing.T) {
	// A smooth gradient has more than 255 colours: the result must stay
	// close on average (dithering), not collapse to a few bands.
	m := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			m.SetNRGBA(x, y, color.NRGBA{uint8(x * 4), uint8(y * 4), uint8((x + y) * 2), 255})
		}
	}
	var buf bytes.Buffer
	if err := EncodeGIF(&buf, []*image.NRGBA{m}, []uint32{100}); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var sum, n float64
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			r, _, _, _ := g.Image[0].At(x, y).RGBA()
			d := float64(int(r>>8) - x*4)
			sum += d * d
			n++
		}
	}
	if rms := sum / n; rms > 64 { // rms error below 8 levels
		t.Errorf("mean squared red error %g", rms)
	}
}

func TestAPNGRoundTrip(t *testing.T) {
	frames := animFrames(4, 33)
	durs := []uint32{100, 250, 70000, 1}
	var a, b bytes.Buffer
	if err := EncodeAPNG(&a, frames, durs); err != nil {
		t.Fatal(err)
	}
	EncodeAPNG(&b, frames, durs)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("APNG encoding is not deterministic")
	}
	// An independent decoder reads every frame back with full alpha.
	an, err := apng.DecodeAll(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Frames) != 4 || an.LoopCount != 0 {
		t.Fatalf("%d frames, loop %d", len(an.Frames), an.LoopCount)
	}
	wantDelay := []float64{0.1, 0.25, 70, 0.001}
	for i, f := range an.Frames {
		if d := f.GetDelay(); d < wantDelay[i]-1e-9 || d > wantDelay[i]+1e-9 {
			t.Errorf("frame %d delay %g, want %g", i, d, wantDelay[i])
		}
		if f.IsDefault {
			t.Errorf("frame %d marked as a separate default image", i)
		}
		for y := 0; y < 33; y++ {
			for x := 0; x < 33; x++ {
				got := color.NRGBAModel.Convert(f.Image.At(x, y)).(color.NRGBA)
				want := frames[i].NRGBAAt(x, y)
				if want.A == 0 {
					want = color.NRGBA{}
				}
				if got != want {
					t.Fatalf("frame %d (%d,%d): %v want %v", i, x, y, got, want)
				}
			}
		}
	}
	// A plain PNG decoder shows the first frame.
	first, err := png.Decode(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got := color.NRGBAModel.Convert(first.At(5, 2)).(color.NRGBA); got != frames[0].NRGBAAt(5, 2) {
		t.Errorf("default image pixel %v, want %v", got, frames[0].NRGBAAt(5, 2))
	}
}

// Opaque frames (a background colour) and empty frames (a model that drew
// nothing) encode and decode too; APNG keeps one colour type for all frames.
func TestAnimOpaqueAndEmptyFrames(t *testing.T) {
	frames := []*image.NRGBA{image.NewNRGBA(image.Rect(0, 0, 8, 8)), image.NewNRGBA(image.Rect(0, 0, 8, 8))}
	draw.Draw(frames[0], frames[0].Rect, image.NewUniform(color.NRGBA{10, 20, 30, 255}), image.Point{}, draw.Src)
	durs := []uint32{50, 50}
	var a bytes.Buffer
	if err := EncodeAPNG(&a, frames, durs); err != nil {
		t.Fatal(err)
	}
	an, err := apng.DecodeAll(bytes.NewReader(a.Bytes()))
	if err != nil || len(an.Frames) != 2 {
		t.Fatalf("APNG: %v", err)
	}
	if got := color.NRGBAModel.Convert(an.Frames[0].Image.At(3, 3)); got != (color.NRGBA{10, 20, 30, 255}) {
		t.Errorf("opaque frame pixel %v", got)
	}
	if _, _, _, al := an.Frames[1].Image.At(3, 3).RGBA(); al != 0 {
		t.Errorf("empty frame alpha %d", al)
	}
	var g bytes.Buffer
	if err := EncodeGIF(&g, frames, durs); err != nil {
		t.Fatal(err)
	}
	gg, err := gif.DecodeAll(&g)
	if err != nil || len(gg.Image) != 2 {
		t.Fatalf("GIF: %v", err)
	}
	if _, _, _, al := gg.Image[1].At(3, 3).RGBA(); al != 0 {
		t.Errorf("empty GIF frame alpha %d", al)
	}
	if err := EncodeGIF(&g, frames[:1], durs); err == nil {
		t.Error("frames and durations of different lengths accepted")
	}
}
