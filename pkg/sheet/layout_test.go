package sheet

import (
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"testing"
)

func TestSheetLayoutAndMetadata(t *testing.T) {
	seqs := []Strip{
		{Index: 0, Sequence: Sequence{Name: "Stand", Start: 0, End: 1000, Looping: true}},
		{Index: 2, Sequence: Sequence{Name: "Walk", Start: 2000, End: 2700, Looping: true}},
		{Index: 3, Sequence: Sequence{Name: "Death", Start: 3000, End: 4500}},
	}
	counts := []int{5, 8, 3}
	for i := range seqs {
		seqs[i].Samples = SampleSequence(seqs[i].Sequence, counts[i], 0)
	}
	yaws := []float64{0, 45, 90, 135, 180, 225, 270, 315}
	l, err := NewLayout(seqs, yaws, 24, 20, 4)
	if err != nil {
		t.Fatal(err)
	}
	// rows per yaw: ceil(5/4)+ceil(8/4)+ceil(3/4) = 2+2+1
	if l.Cols != 4 || l.Rows != 5*8 || len(l.Cells) != 16*8 {
		t.Fatalf("layout %dx%d with %d cells", l.Cols, l.Rows, len(l.Cells))
	}
	frames := make([]*image.NRGBA, len(l.Cells))
	for i := range frames {
		frames[i] = image.NewNRGBA(image.Rect(0, 0, 24, 20))
		draw.Draw(frames[i], frames[i].Rect, image.NewUniform(color.NRGBA{uint8(i), uint8(i * 7), 3, 255}), image.Point{}, draw.Src)
	}
	sheet, err := l.Assemble(frames)
	if err != nil {
		t.Fatal(err)
	}
	if sheet.Bounds() != image.Rect(0, 0, 96, 800) {
		t.Fatalf("sheet %v", sheet.Bounds())
	}
	seen := map[image.Point]bool{}
	for i, c := range l.Cells {
		if !c.Rect.In(sheet.Bounds()) {
			t.Errorf("cell %s %v outside the sheet", c.Name, c.Rect)
		}
		if seen[c.Rect.Min] {
			t.Errorf("cell %s overlaps another", c.Name)
		}
		seen[c.Rect.Min] = true
		if got := sheet.NRGBAAt(c.Rect.Min.X+3, c.Rect.Min.Y+5); got != frames[i].NRGBAAt(3, 5) {
			t.Errorf("cell %s holds %v, want frame %d", c.Name, got, i)
		}
	}

	b, err := l.TexturePackerJSON("unit-sheet.png", "v1")
	if err != nil {
		t.Fatal(err)
	}
	var tp struct {
		Frames map[string]struct {
			Frame            struct{ X, Y, W, H int }
			Rotated, Trimmed bool
			SpriteSourceSize struct{ X, Y, W, H int }
			SourceSize       struct{ W, H int }
			Duration         uint32
		}
		Animations map[string][]string
		Meta       struct {
			Image string
			Size  struct{ W, H int }
			Scale string
			Seqs  []struct {
				Animation  string
				Sequence   string
				Looping    bool
				DurationMS uint32
			} `json:"mdxrenderSequences"`
		}
	}
	if err := json.Unmarshal(b, &tp); err != nil {
		t.Fatal(err)
	}
	if tp.Meta.Image != "unit-sheet.png" || tp.Meta.Size.W != 96 || tp.Meta.Size.H != 800 || tp.Meta.Scale != "1" {
		t.Errorf("meta %+v", tp.Meta)
	}
	if len(tp.Frames) != len(l.Cells) || len(tp.Animations) != 3*8 || len(tp.Meta.Seqs) != 24 {
		t.Fatalf("%d frames, %d animations, %d sequences", len(tp.Frames), len(tp.Animations), len(tp.Meta.Seqs))
	}
	for _, s := range tp.Meta.Seqs {
		names := tp.Animations[s.Animation]
		var sum uint32
		for k, n := range names {
			f, ok := tp.Frames[n]
			if !ok {
				t.Fatalf("animation %s names missing frame %s", s.Animation, n)
			}
			r := image.Rect(f.Frame.X, f.Frame.Y, f.Frame.X+f.Frame.W, f.Frame.Y+f.Frame.H)
			if !r.In(image.Rect(0, 0, tp.Meta.Size.W, tp.Meta.Size.H)) || r.Dx() != 24 || r.Dy() != 20 {
				t.Errorf("frame %s rect %v", n, r)
			}
			if f.Rotated || f.Trimmed || f.SourceSize.W != 24 || f.SpriteSourceSize.H != 20 {
				t.Errorf("frame %s: %+v", n, f)
			}
			if k > 0 && n <= names[k-1] {
				t.Errorf("animation %s frames out of order", s.Animation)
			}
			sum += f.Duration
		}
		if sum != s.DurationMS {
			t.Errorf("animation %s: durations sum to %d, sequence lasts %d", s.Animation, sum, s.DurationMS)
		}
	}
	if tp.Meta.Seqs[2].Sequence != "Death" || tp.Meta.Seqs[2].Looping || !tp.Meta.Seqs[0].Looping {
		t.Errorf("looping flags: %+v", tp.Meta.Seqs[:3])
	}

	p := l.Plain("unit-sheet.png")
	if len(p.Animations) != 24 || p.Animations[1].Sequence != "Walk" || p.Animations[1].Name != "Walk_000" || len(p.Animations[1].Frames) != 8 {
		t.Fatalf("plain: %+v", p.Animations[1])
	}
	var sum uint32
	for _, f := range p.Animations[9].Frames {
		sum += f.DurationMS
	}
	if sum != p.Animations[9].DurationMS || p.Animations[9].Yaw != 135 {
		t.Errorf("plain animation 9: sum %d of %d, yaw %g", sum, p.Animations[9].DurationMS, p.Animations[9].Yaw)
	}

	if _, err := NewLayout(seqs, yaws, 2048, 2048, 0); err == nil {
		t.Error("an oversized sheet was laid out")
	}
	if _, err := l.Assemble(frames[:3]); err == nil {
		t.Error("assembled with too few frames")
	}
	frames[7] = nil
	if _, err := l.Assemble(frames); err == nil {
		t.Error("assembled with a frame missing")
	}
}
