package sheet

import (
	"encoding/json"
	"fmt"
	"image"
	"strings"
	"testing"
)

// Trimmed and split, every frame is still whole: cutting its rectangle
// out of its page and putting it back at its source offset gives the
// frame drawn, pixel for pixel; frames do not overlap, pages keep their
// size limit and every animation stays on one page.
func TestPackTrimsAndSplits(t *testing.T) {
	for _, o := range []PackOptions{{}, {Trim: true}, {Trim: true, Padding: 2, MaxSize: 40}, {Padding: 1, MaxSize: 50}} {
		l := goldenLayout(t)
		frames := goldenFrames(l)
		pages, err := l.Pack(frames, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		max := o.MaxSize
		if max == 0 {
			max = MaxSide
		}
		if len(pages) != len(l.Pages) {
			t.Fatalf("%+v: %d pages, layout says %d", o, len(pages), len(l.Pages))
		}
		for i, p := range pages {
			if p.Rect.Dx() > max || p.Rect.Dy() > max || p.Rect.Size() != l.Pages[i] {
				t.Errorf("%+v: page %d is %v (layout %v), limit %d", o, i, p.Rect.Size(), l.Pages[i], max)
			}
		}
		pageOf := map[string]int{}
		for i, c := range l.Cells {
			if p, ok := pageOf[c.Animation]; ok && p != c.Page {
				t.Errorf("%+v: animation %s spans pages %d and %d", o, c.Animation, p, c.Page)
			}
			pageOf[c.Animation] = c.Page
			if !c.Rect.In(pages[c.Page].Rect) || c.Rect.Size() != c.Source.Size() || !c.Source.In(image.Rect(0, 0, l.FrameW, l.FrameH)) {
				t.Fatalf("%+v: cell %s rect %v source %v", o, c.Name, c.Rect, c.Source)
			}
			for j, d := range l.Cells[:i] {
				if d.Page == c.Page && d.Rect.Overlaps(c.Rect) {
					t.Errorf("%+v: %s overlaps %s", o, c.Name, l.Cells[j].Name)
				}
			}
			for y := 0; y < l.FrameH; y++ {
				for x := 0; x < l.FrameW; x++ {
					want := frames[i].NRGBAAt(x, y)
					pt := image.Pt(x, y)
					var got = want
					got.A = 0
					if pt.In(c.Source) {
						got = pages[c.Page].NRGBAAt(c.Rect.Min.X+x-c.Source.Min.X, c.Rect.Min.Y+y-c.Source.Min.Y)
					}
					if got != want && !(got.A == 0 && want.A == 0) {
						t.Fatalf("%+v: frame %s pixel %v is %v on the sheet, drawn %v", o, c.Name, pt, got, want)
					}
				}
			}
		}
		if o == (PackOptions{}) {
			g := goldenLayout(t)
			for i := range l.Cells {
				if l.Cells[i].Rect != g.Cells[i].Rect {
					t.Errorf("untrimmed pack moved %s from the grid's %v to %v", l.Cells[i].Name, g.Cells[i].Rect, l.Cells[i].Rect)
				}
			}
		}
	}
	// An animation taller than a page cannot be split.
	l := goldenLayout(t)
	if _, err := l.Pack(goldenFrames(l), PackOptions{MaxSize: 20}); err == nil || !strings.Contains(err.Error(), "more than a page") {
		t.Errorf("an animation taller than a page: %v", err)
	}
}

// The metadata of a split sheet: each TexturePacker page names the others
// and holds only its own frames and animations; Aseprite's tags cover
// their frames in order with the durations of the sequence.
func TestPageMetadata(t *testing.T) {
	l := goldenLayout(t)
	pages, err := l.Pack(goldenFrames(l), PackOptions{Trim: true, Padding: 2, MaxSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	var images, jsons []string
	for p := range pages {
		images = append(images, fmt.Sprintf("s-%d.png", p))
		jsons = append(jsons, fmt.Sprintf("s-%d.json", p))
	}
	frames := 0
	for p := range pages {
		b, err := l.TexturePackerPage(p, images, jsons, "v")
		if err != nil {
			t.Fatal(err)
		}
		var tp texturePacker
		if err := json.Unmarshal(b, &tp); err != nil {
			t.Fatal(err)
		}
		if len(tp.Meta.Related) != len(pages)-1 || tp.Meta.Image != images[p] {
			t.Errorf("page %d meta %+v", p, tp.Meta)
		}
		for a, names := range tp.Animations {
			for _, n := range names {
				if _, ok := tp.Frames[n]; !ok {
					t.Errorf("page %d: animation %s names frame %s of another page", p, a, n)
				}
			}
		}
		for n, f := range tp.Frames {
			if !f.Trimmed || f.SourceSize.W != l.FrameW || f.Pivot != f.Anchor || f.Pivot.X != 0.5 {
				t.Errorf("page %d frame %s: %+v", p, n, f)
			}
		}
		frames += len(tp.Frames)

		ab, err := l.AsepriteJSON(p, images[p], "v")
		if err != nil {
			t.Fatal(err)
		}
		var ase struct {
			Frames map[string]aseFrame
			Meta   aseMeta
		}
		if err := json.Unmarshal(ab, &ase); err != nil {
			t.Fatal(err)
		}
		next := 0
		for _, tag := range ase.Meta.FrameTags {
			if tag.From != next || tag.To < tag.From {
				t.Errorf("page %d tag %+v after frame %d", p, tag, next-1)
			}
			var sum uint32
			for k := tag.From; k <= tag.To; k++ {
				sum += ase.Frames[fmt.Sprint(k)].Duration
			}
			if names := tp.Animations[tag.Name]; len(names) != tag.To-tag.From+1 {
				t.Errorf("tag %s has %d frames, TexturePacker %d", tag.Name, tag.To-tag.From+1, len(names))
			}
			var seq uint32
			for _, c := range l.Cells {
				if c.Animation == tag.Name {
					seq = l.Strips[c.Strip].Sequence.Length()
				}
			}
			if sum != seq && seq != 0 {
				t.Errorf("tag %s: durations sum to %d, the sequence lasts %d", tag.Name, sum, seq)
			}
			next = tag.To + 1
		}
		if next != len(ase.Frames) {
			t.Errorf("page %d: tags cover %d of %d frames", p, next, len(ase.Frames))
		}
	}
	if frames != len(l.Cells) {
		t.Errorf("pages hold %d frames of %d", frames, len(l.Cells))
	}
	if _, err := l.TexturePackerJSON("x.png", "v"); err == nil {
		t.Error("one-page metadata of a split sheet")
	}
}
