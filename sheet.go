package mdxrender

import (
	"context"
	"image"

	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// SheetOptions say which sequences a sprite sheet shows and how it
// samples, lays out and packs them. The zero SheetOptions draws every
// sequence (the bind pose of a model without any), 8 frames each, one row
// per sequence, seen from the View's yaw, trimmed and split into pages of
// at most sheet.DefaultMaxSize pixels: what mdxrender sheet does.
type SheetOptions struct {
	// Sequences are drawn in this order; nil means all of them.
	Sequences []render.Sequence
	// Frames per sequence, spread evenly over it; 0 means 8. FPS > 0
	// samples at that rate instead.
	Frames int
	FPS    float64
	// Cols wraps a sequence's frames after this many columns; 0 never
	// wraps (but at a page's width).
	Cols int
	// Yaws draws every sequence once per yaw (degrees), one block of rows
	// each: eight for the directions of an isometric game. nil means the
	// View's yaw.
	Yaws []float64
	// NoTrim keeps every frame whole, on a plain grid; by default frames
	// are cropped to their pixels and packed, and the layout says where
	// each goes back (sheet.Cell.Source).
	NoTrim bool
	// MaxSize bounds a page's width and height; 0 means
	// sheet.DefaultMaxSize. A larger sheet is split into pages, each
	// animation on one.
	MaxSize int
}

// Sheet is a sprite sheet: its pages, the frames drawn, and the layout
// its metadata describes. Each cell's Pivot is where the model's origin,
// the ground point under a unit, lands in its frame. Write the metadata
// with the layout's methods: TexturePackerPage (Phaser, PixiJS),
// AsepriteJSON (Phaser's load.aseprite), GodotSpriteFrames (Godot 4) or
// PlainJSON.
type Sheet struct {
	// Image is the first page, usually the only one; Pages are all.
	Image *image.NRGBA
	Pages []*image.NRGBA
	// Frames are the pictures drawn, whole, in cell order: the frames of
	// an animation make a GIF or APNG preview (pkg/anim).
	Frames []*image.NRGBA
	Layout *sheet.Layout
}

// Sheet draws a sprite sheet of the model: every frame with v's size,
// background, team and particles, all with one camera that fits what
// every frame and yaw draws (RenderFrames), so the model neither jumps
// nor leaves its cell.
func (m *Model) Sheet(ctx context.Context, v View, o SheetOptions) (*Sheet, []Warning, error) {
	var idx []int
	for _, s := range o.Sequences {
		i, err := s.Index(m.File.Model)
		if err != nil {
			return nil, nil, err
		}
		idx = append(idx, i)
	}
	if o.Sequences == nil {
		for i := range m.File.Model.Sequences {
			idx = append(idx, i)
		}
		if len(idx) == 0 {
			idx = []int{-1}
		}
	}
	frames := o.Frames
	if frames == 0 {
		frames = 8
	}
	strips := make([]sheet.Strip, len(idx))
	for k, i := range idx {
		seq := sheet.Sequence{Name: "bind"}
		if i >= 0 {
			s := &m.File.Model.Sequences[i]
			seq = sheet.Sequence{Name: s.Name, Start: s.Interval[0], End: s.Interval[1], Looping: !s.NonLooping()}
		}
		strips[k] = sheet.Strip{Index: i, Sequence: seq, Samples: sheet.SampleSequence(seq, frames, o.FPS)}
	}
	yaws := o.Yaws
	if len(yaws) == 0 {
		yaws = []float64{v.Yaw}
	}
	if v.Width == 0 {
		v.Width = render.DefaultSize
	}
	if v.Height == 0 {
		v.Height = v.Width
	}
	l, err := sheet.NewLayout(strips, yaws, v.Width, v.Height, o.Cols)
	if err != nil {
		return nil, nil, err
	}
	var rf []Frame
	for _, f := range l.Frames() {
		t := 0.0
		if f.Sequence >= 0 {
			t = float64(f.Time) - float64(m.File.Model.Sequences[f.Sequence].Interval[0])
		}
		rf = append(rf, Frame{Sequence: f.Sequence, Time: t, Yaw: f.Yaw})
	}
	pics, warns, err := m.animator().RenderPictures(ctx, v, rf)
	if err != nil {
		return nil, warns, err
	}
	imgs := make([]*image.NRGBA, len(pics))
	for i, p := range pics {
		imgs[i] = p.Image
		l.Cells[i].Pivot = p.Origin
	}
	maxSize := o.MaxSize
	if maxSize == 0 {
		maxSize = sheet.DefaultMaxSize
	}
	opt := sheet.PackOptions{Trim: !o.NoTrim, MaxSize: maxSize}
	if opt.Trim {
		opt.Padding = 2 // keeps an engine's filtering from bleeding frames into each other
	}
	pages, err := l.Pack(imgs, opt)
	if err != nil {
		return nil, warns, err
	}
	return &Sheet{Image: pages[0], Pages: pages, Frames: imgs, Layout: l}, warns, nil
}
