package sheet

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
)

// goldenLayout has what makes metadata interesting: looping and one-shot
// sequences, an unnamed one, a name used twice, frame-rate sampling, a
// fractional yaw and wrapped rows.
func goldenLayout(t *testing.T) *Layout {
	t.Helper()
	seqs := []Sequence{
		{Name: "Stand", Start: 0, End: 1000, Looping: true},
		{Name: "Walk", Start: 2000, End: 2700, Looping: true},
		{Name: "", Start: 3000, End: 3001},
		{Name: "Walk", Start: 4000, End: 4333},
		{Name: "Death", Start: 5000, End: 6500},
	}
	var strips []Strip
	for i, s := range seqs {
		smp := SampleSequence(s, 3, 0)
		if i == 3 {
			smp = SampleSequence(s, 0, 12)
		}
		strips = append(strips, Strip{Index: i * 2, Sequence: s, Samples: smp})
	}
	l, err := NewLayout(strips, []float64{0, 22.5, 90}, 16, 12, 2)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// goldenFrames draws a frame per cell of l whose pixels are a rectangle
// that moves from cell to cell (and one cell stays empty), so that
// trimming gives every frame another size and offset.
func goldenFrames(l *Layout) []*image.NRGBA {
	frames := make([]*image.NRGBA, len(l.Cells))
	for i := range frames {
		f := image.NewNRGBA(image.Rect(0, 0, l.FrameW, l.FrameH))
		if i != 5 {
			x, y := i%5, i%4
			r := image.Rect(x, y, x+4+i%7, y+3+i%5).Intersect(f.Rect)
			draw.Draw(f, r, image.NewUniform(color.NRGBA{uint8(40 * i), 200, uint8(i), 255}), image.Point{}, draw.Src)
		}
		frames[i] = f
	}
	return frames
}

// The metadata of every format, for a trimmed sheet split into two pages
// with pivots set, is what testdata holds (UPDATE_GOLDEN=1 rewrites it):
// a change in any of them shows up in review.
func TestMetadataGolden(t *testing.T) {
	l := goldenLayout(t)
	for i := range l.Cells {
		l.Cells[i].Pivot = [2]float64{8, 10.5 + float64(i%3)}
	}
	pages, err := l.Pack(goldenFrames(l), PackOptions{Trim: true, Padding: 2, MaxSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 2 {
		t.Fatalf("%d pages; the golden wants a split sheet", len(pages))
	}
	var images, jsons []string
	for p := range pages {
		images = append(images, fmt.Sprintf("unit-sheet-%d.png", p))
		jsons = append(jsons, fmt.Sprintf("unit-sheet-%d.json", p))
	}
	got := map[string][]byte{}
	for p := range pages {
		b, err := l.TexturePackerPage(p, images, jsons, "v1.2.3")
		if err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprintf("texturepacker-%d.json", p)] = b
	}
	if got["aseprite.json"], err = l.AsepriteJSON(0, images[0], "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	if got["plain.json"], err = l.PlainJSON(images...); err != nil {
		t.Fatal(err)
	}
	if got["spriteframes.tres"], err = l.GodotSpriteFrames(images); err != nil {
		t.Fatal(err)
	}
	for name, b := range got {
		golden.CheckBytes(t, filepath.Join("testdata", name), b)
	}
}

func TestLayoutRejects(t *testing.T) {
	s := []Strip{{Sequence: Sequence{Name: "Stand", End: 100}, Samples: []Sample{{0, 50}, {50, 50}}}}
	for name, f := range map[string]func() (*Layout, error){
		"no strips":      func() (*Layout, error) { return NewLayout(nil, nil, 8, 8, 0) },
		"no samples":     func() (*Layout, error) { return NewLayout([]Strip{{}}, nil, 8, 8, 0) },
		"no frame size":  func() (*Layout, error) { return NewLayout(s, nil, 0, 8, 0) },
		"absurd columns": func() (*Layout, error) { return NewLayout(s, nil, 8, 8, math.MaxInt) },
		"too tall":       func() (*Layout, error) { return NewLayout(s, make([]float64, 3000), 8, 8, 0) },
	} {
		if l, err := f(); err == nil {
			t.Errorf("%s: laid out %dx%d", name, l.Cols, l.Rows)
		}
	}
}
