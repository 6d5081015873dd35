package sheet

import (
	"fmt"
	"image"
	"math"
	"strconv"
)

// Strip is one sequence as laid out on a sheet: its frames, left to right,
// in as many rows as the layout's columns need.
type Strip struct {
	// Index is the sequence's index in the model; Frame.Sequence carries
	// it back to the renderer, and an unnamed sequence is called "seq"
	// and Index in the metadata.
	Index    int
	Sequence Sequence
	// Samples are the frames of the sequence (the same for every yaw).
	Samples []Sample
}

// Cell is one frame's place on the sheet.
type Cell struct {
	Name      string // frame name in the metadata
	Animation string // animation the frame belongs to
	Strip     int    // index into Layout.Strips
	Yaw       float64
	Sample    Sample
	// Page is the sheet image holding the frame: 0 unless Pack split the
	// sheet into pages.
	Page int
	// Rect is where the frame's pixels are on its page.
	Rect image.Rectangle
	// Source is the part of the frame (FrameW x FrameH, origin at its top
	// left) that Rect holds: the whole frame, or, once Pack has trimmed
	// it, the bounds of its pixels. Engines put a trimmed frame back at
	// Source.Min, so every frame keeps its place.
	Source image.Rectangle
	// Pivot is the point of the frame an engine places a sprite by, in
	// pixels from the frame's top-left corner: the frame's centre unless
	// the caller sets it (a renderer sets the model's origin, the ground
	// point under a unit). It may lie outside the frame. The metadata
	// rounds it to whole pixels.
	Pivot [2]float64
}

// Layout places frames: one block of rows per yaw; inside it one row per
// strip (wrapped after Cols frames), frames left to right.
type Layout struct {
	FrameW, FrameH int
	Cols, Rows     int
	Yaws           []float64
	Strips         []Strip
	// Cells are in order: yaw, then strip, then sample.
	Cells []Cell
	// Pages are the sizes of the sheet images: one, the grid, until Pack
	// trims frames or splits the sheet.
	Pages []image.Point
	// Trimmed says Pack cropped the frames to their pixels.
	Trimmed bool
}

// MaxSide bounds a sheet's width and height in pixels.
const MaxSide = 16384

// NewLayout lays strips out with frames of frameW x frameH pixels, once
// per yaw (no yaws: once, at yaw 0). cols <= 0 means one row per strip, as
// wide as the longest one. Animations are named after their sequence, with
// the yaw added when there are several ("Walk_045") and "#2", "#3", ...
// for a name met again; frames are named after their animation and
// number ("Walk_045_003"). A sheet wider or taller than MaxSide is an
// error.
func NewLayout(strips []Strip, yaws []float64, frameW, frameH, cols int) (*Layout, error) {
	if len(strips) == 0 {
		return nil, fmt.Errorf("sheet: no sequences to lay out")
	}
	if frameW < 1 || frameH < 1 {
		return nil, fmt.Errorf("sheet: frame size %dx%d", frameW, frameH)
	}
	if len(yaws) == 0 {
		yaws = []float64{0}
	}
	if cols <= 0 {
		for _, s := range strips {
			cols = max(cols, len(s.Samples))
		}
		if cols == 0 {
			return nil, fmt.Errorf("sheet: no frames to lay out")
		}
	}
	l := &Layout{FrameW: frameW, FrameH: frameH, Cols: cols, Yaws: yaws, Strips: strips}
	names := map[string]int{}
	row := 0
	for _, yaw := range yaws {
		for si, s := range strips {
			anim := s.Sequence.Name
			if anim == "" {
				anim = "seq" + strconv.Itoa(s.Index)
			}
			if len(yaws) > 1 {
				anim += "_" + yawName(yaw)
			}
			if k := names[anim]; k > 0 { // two sequences with one name
				names[anim]++
				anim += "#" + strconv.Itoa(k+1)
			} else {
				names[anim] = 1
			}
			for i, sm := range s.Samples {
				r, c := row+i/cols, i%cols
				l.Cells = append(l.Cells, Cell{
					Name:      fmt.Sprintf("%s_%03d", anim, i),
					Animation: anim,
					Strip:     si,
					Yaw:       yaw,
					Sample:    sm,
					Rect:      image.Rect(c*frameW, r*frameH, (c+1)*frameW, (r+1)*frameH),
					Source:    image.Rect(0, 0, frameW, frameH),
					Pivot:     [2]float64{float64(frameW) / 2, float64(frameH) / 2},
				})
			}
			row += (len(s.Samples) + cols - 1) / cols
		}
	}
	l.Rows = row
	// Divided rather than multiplied, so absurd column counts cannot overflow.
	if cols > MaxSide/frameW || row > MaxSide/frameH {
		return nil, fmt.Errorf("sheet: %dx%d frames of %dx%d make a %dx%d image, larger than %d; use fewer frames, yaws or a smaller size",
			cols, row, frameW, frameH, cols*frameW, row*frameH, MaxSide)
	}
	l.Pages = []image.Point{{cols * frameW, row * frameH}}
	return l, nil
}

func yawName(y float64) string {
	if y == math.Trunc(y) {
		return fmt.Sprintf("%03d", int(y))
	}
	return strconv.FormatFloat(y, 'f', -1, 64)
}

// pivot is c's pivot as the metadata gives it: rounded to whole pixels,
// so that a sprite placed by its pivot on a whole pixel is drawn on whole
// pixels rather than resampled (blurred); one that is not finite (behind
// the camera) is the frame's centre.
func (l *Layout) pivot(c *Cell) [2]float64 {
	x, y := c.Pivot[0], c.Pivot[1]
	if math.IsNaN(x+y) || math.IsInf(x+y, 0) || math.Abs(x)+math.Abs(y) > 1e9 {
		return [2]float64{math.Round(float64(l.FrameW) / 2), math.Round(float64(l.FrameH) / 2)}
	}
	return [2]float64{math.Round(x), math.Round(y)}
}

// Bounds is the rectangle of the sheet image (of its first page, when
// Pack split it).
func (l *Layout) Bounds() image.Rectangle {
	if len(l.Pages) == 0 {
		return image.Rect(0, 0, l.Cols*l.FrameW, l.Rows*l.FrameH)
	}
	return image.Rectangle{Max: l.Pages[0]}
}

// Frame is one picture to draw for a cell.
type Frame struct {
	// Sequence is the strip's Index; Time the absolute model time in ms.
	Sequence int
	Time     uint32
	// Yaw is the camera yaw in degrees.
	Yaw float64
}

// Frames lists the pictures to draw, in cell order, which is the order
// Assemble takes them in.
func (l *Layout) Frames() []Frame {
	out := make([]Frame, len(l.Cells))
	for i, c := range l.Cells {
		out[i] = Frame{Sequence: l.Strips[c.Strip].Index, Time: c.Sample.Time, Yaw: c.Yaw}
	}
	return out
}

// Assemble copies frames (in cell order, each FrameW x FrameH) onto a
// transparent sheet laid out as the grid NewLayout made. It is Pack
// without trimming or size limit.
func (l *Layout) Assemble(frames []*image.NRGBA) (*image.NRGBA, error) {
	pages, err := l.Pack(frames, PackOptions{})
	if err != nil {
		return nil, err
	}
	return pages[0], nil
}
