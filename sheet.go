package mdxrender

import (
	"context"
	"image"

	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// SheetOptions say which sequences a sprite sheet shows and how it
// samples and lays them out. The zero SheetOptions draws every sequence
// (the bind pose of a model without any), 8 frames each, one row per
// sequence, seen from the View's yaw.
type SheetOptions struct {
	// Sequences are drawn in this order; nil means all of them.
	Sequences []Sequence
	// Frames per sequence, spread evenly over it; 0 means 8. FPS > 0
	// samples at that rate instead.
	Frames int
	FPS    float64
	// Cols wraps a sequence's frames after this many columns; 0 never
	// wraps.
	Cols int
	// Yaws draws every sequence once per yaw (degrees), one block of rows
	// each: eight for the directions of an isometric game. nil means the
	// View's yaw.
	Yaws []float64
}

// Sheet is a sprite sheet: the picture, and the layout its metadata
// describes (Layout.TexturePackerJSON for Phaser and PixiJS,
// Layout.PlainJSON).
type Sheet struct {
	Image  *image.NRGBA
	Layout *sheet.Layout
}

// Sheet draws a sprite sheet of the model: every frame with v's size,
// background, team and particles, all with one camera that keeps every
// frame in its cell (RenderFrames), so the model does not jump.
func (m *Model) Sheet(ctx context.Context, v View, o SheetOptions) (*Sheet, []Warning, error) {
	var idx []int
	for _, s := range o.Sequences {
		i, err := s.Index(m.Model)
		if err != nil {
			return nil, nil, err
		}
		idx = append(idx, i)
	}
	if o.Sequences == nil {
		for i := range m.Sequences {
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
			s := &m.Sequences[i]
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
			t = float64(f.Time) - float64(m.Sequences[f.Sequence].Interval[0])
		}
		rf = append(rf, Frame{Sequence: f.Sequence, Time: t, Yaw: f.Yaw})
	}
	imgs, warns, err := m.RenderFrames(ctx, v, rf)
	if err != nil {
		return nil, warns, err
	}
	img, err := l.Assemble(imgs)
	if err != nil {
		return nil, warns, err
	}
	return &Sheet{Image: img, Layout: l}, warns, nil
}
