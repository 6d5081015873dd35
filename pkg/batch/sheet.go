package batch

import (
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"math"
	"strconv"
	"strings"
)

// Sample is one sampled moment of a sequence: Time is absolute (ms) and
// Duration is how long the frame shows. The durations of a sequence's
// samples add up to its length exactly.
type Sample struct {
	Time     uint32
	Duration uint32
}

// MaxSheetFrames bounds the frames sampled from one sequence, so a long
// sequence at a high --fps cannot ask for an unbounded sheet.
const MaxSheetFrames = 1024

// SampleSequence picks the frames of a sequence: n frames evenly over
// [Start, End) or, with fps > 0, one every 1000/fps ms. Intervals are half
// open: the last frame's duration runs up to End, which for a looping
// sequence is the same pose as Start. A zero-length sequence gives one frame
// of duration 0.
func SampleSequence(s SequenceInfo, n int, fps float64) []Sample {
	l := uint64(s.Length())
	if l == 0 {
		return []Sample{{Time: s.Start}}
	}
	var offs []uint64
	if fps > 0 {
		step := 1000 / fps
		for i := 0; i < MaxSheetFrames; i++ {
			o := uint64(math.Round(float64(i) * step))
			if o >= l || (i > 0 && o == offs[len(offs)-1]) {
				break
			}
			offs = append(offs, o)
		}
	} else {
		if n < 1 {
			n = 1
		}
		if uint64(n) > l {
			n = int(l) // at most one frame per ms: no zero durations
		}
		if n > MaxSheetFrames {
			n = MaxSheetFrames
		}
		for i := 0; i < n; i++ {
			offs = append(offs, uint64(i)*l/uint64(n))
		}
	}
	out := make([]Sample, len(offs))
	for i, o := range offs {
		next := l
		if i+1 < len(offs) {
			next = offs[i+1]
		}
		out[i] = Sample{Time: s.Start + uint32(o), Duration: uint32(next - o)}
	}
	return out
}

// SheetSequence is one sequence laid out on a sheet.
type SheetSequence struct {
	// Index is the sequence's position in ModelInfo.Sequences.
	Index int
	Info  SequenceInfo
	// Samples are the frames of the sequence (the same for every yaw).
	Samples []Sample
}

// Cell is one frame's place on the sheet.
type Cell struct {
	Name      string // frame name in the metadata
	Animation string // animation the frame belongs to
	Seq       int    // index into SheetLayout.Sequences
	Yaw       float64
	Sample    Sample
	Rect      image.Rectangle
}

// SheetLayout places frames: one block of rows per yaw; inside it one row
// per sequence (wrapped after Cols frames), frames left to right.
type SheetLayout struct {
	FrameW, FrameH int
	Cols, Rows     int
	Yaws           []float64
	Sequences      []SheetSequence
	Cells          []Cell
}

// MaxSheetSide bounds a sheet's width and height in pixels.
const MaxSheetSide = 16384

// LayoutSheet computes the sheet layout. cols <= 0 means one row per
// sequence, as wide as the longest one.
func LayoutSheet(seqs []SheetSequence, yaws []float64, frameW, frameH, cols int) (*SheetLayout, error) {
	if len(seqs) == 0 {
		return nil, fmt.Errorf("sheet: no sequences to lay out")
	}
	if len(yaws) == 0 {
		yaws = []float64{0}
	}
	if cols <= 0 {
		for _, s := range seqs {
			cols = max(cols, len(s.Samples))
		}
	}
	l := &SheetLayout{FrameW: frameW, FrameH: frameH, Cols: cols, Yaws: yaws, Sequences: seqs}
	names := map[string]int{}
	row := 0
	for _, yaw := range yaws {
		for si, s := range seqs {
			anim := s.Info.Name
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
					Seq:       si,
					Yaw:       yaw,
					Sample:    sm,
					Rect:      image.Rect(c*frameW, r*frameH, (c+1)*frameW, (r+1)*frameH),
				})
			}
			row += (len(s.Samples) + cols - 1) / cols
		}
	}
	l.Rows = row
	if cols*frameW > MaxSheetSide || row*frameH > MaxSheetSide {
		return nil, fmt.Errorf("sheet: %dx%d frames of %dx%d make a %dx%d image, larger than %d; use fewer frames, yaws or a smaller size",
			cols, row, frameW, frameH, cols*frameW, row*frameH, MaxSheetSide)
	}
	return l, nil
}

func yawName(y float64) string {
	if y == math.Trunc(y) {
		return fmt.Sprintf("%03d", int(y))
	}
	return strconv.FormatFloat(y, 'f', -1, 64)
}

// Bounds is the sheet image's rectangle.
func (l *SheetLayout) Bounds() image.Rectangle {
	return image.Rect(0, 0, l.Cols*l.FrameW, l.Rows*l.FrameH)
}

// Frames returns the render frames in cell order, for one Request.
func (l *SheetLayout) Frames() []Frame {
	out := make([]Frame, len(l.Cells))
	for i, c := range l.Cells {
		out[i] = Frame{Sequence: l.Sequences[c.Seq].Index, Time: c.Sample.Time, Yaw: c.Yaw}
	}
	return out
}

// Assemble copies frames (in cell order) onto a transparent sheet.
func (l *SheetLayout) Assemble(frames []*image.NRGBA) (*image.NRGBA, error) {
	if len(frames) != len(l.Cells) {
		return nil, fmt.Errorf("sheet: %d frames for %d cells", len(frames), len(l.Cells))
	}
	dst := image.NewNRGBA(l.Bounds())
	for i, c := range l.Cells {
		f := frames[i]
		if f.Bounds().Dx() != l.FrameW || f.Bounds().Dy() != l.FrameH {
			return nil, fmt.Errorf("sheet: frame %s is %v, want %dx%d", c.Name, f.Bounds().Size(), l.FrameW, l.FrameH)
		}
		draw.Draw(dst, c.Rect, f, f.Bounds().Min, draw.Src)
	}
	return dst, nil
}

type tpRect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

type tpSize struct {
	W int `json:"w"`
	H int `json:"h"`
}

type tpFrame struct {
	Frame            tpRect `json:"frame"`
	Rotated          bool   `json:"rotated"`
	Trimmed          bool   `json:"trimmed"`
	SpriteSourceSize tpRect `json:"spriteSourceSize"`
	SourceSize       tpSize `json:"sourceSize"`
	Duration         uint32 `json:"duration"`
}

type tpSequence struct {
	Animation  string  `json:"animation"`
	Sequence   string  `json:"sequence"`
	Yaw        float64 `json:"yaw"`
	Looping    bool    `json:"looping"`
	DurationMS uint32  `json:"durationMs"`
}

type tpMeta struct {
	App     string       `json:"app"`
	Version string       `json:"version"`
	Image   string       `json:"image"`
	Format  string       `json:"format"`
	Size    tpSize       `json:"size"`
	Scale   string       `json:"scale"`
	Anims   []tpSequence `json:"mdxrenderSequences"`
}

type texturePacker struct {
	Frames     map[string]tpFrame  `json:"frames"`
	Animations map[string][]string `json:"animations"`
	Meta       tpMeta              `json:"meta"`
}

// TexturePackerJSON returns the sheet metadata in TexturePacker's "JSON
// hash" layout as Phaser (load.atlas) and PixiJS (Spritesheet) read it: a
// frames object keyed by frame name, an animations map from animation name
// to frame names in play order, and meta with the image name, size and
// scale. Per-frame duration is in ms. Sequence names, yaws and looping go
// in meta.mdxrenderSequences, which both loaders ignore. version is the
// program version.
func (l *SheetLayout) TexturePackerJSON(imageName, version string) ([]byte, error) {
	tp := texturePacker{
		Frames:     map[string]tpFrame{},
		Animations: map[string][]string{},
		Meta: tpMeta{App: "mdxrender", Version: version, Image: imageName, Format: "RGBA8888",
			Size: tpSize{l.Bounds().Dx(), l.Bounds().Dy()}, Scale: "1"},
	}
	for _, c := range l.Cells {
		r := c.Rect
		tp.Frames[c.Name] = tpFrame{
			Frame:            tpRect{r.Min.X, r.Min.Y, r.Dx(), r.Dy()},
			SpriteSourceSize: tpRect{0, 0, r.Dx(), r.Dy()},
			SourceSize:       tpSize{r.Dx(), r.Dy()},
			Duration:         c.Sample.Duration,
		}
		if _, ok := tp.Animations[c.Animation]; !ok {
			s := l.Sequences[c.Seq]
			tp.Meta.Anims = append(tp.Meta.Anims, tpSequence{Animation: c.Animation, Sequence: s.Info.Name,
				Yaw: c.Yaw, Looping: s.Info.Looping, DurationMS: s.Info.Length()})
		}
		tp.Animations[c.Animation] = append(tp.Animations[c.Animation], c.Name)
	}
	return json.MarshalIndent(tp, "", "  ")
}

// PlainSheet is the project's own sheet metadata: one entry per animation,
// frames in play order.
type PlainSheet struct {
	Image       string           `json:"image"`
	Width       int              `json:"width"`
	Height      int              `json:"height"`
	FrameWidth  int              `json:"frameWidth"`
	FrameHeight int              `json:"frameHeight"`
	Animations  []PlainAnimation `json:"animations"`
}

// PlainAnimation is one sequence at one yaw.
type PlainAnimation struct {
	Name       string       `json:"name"`
	Sequence   string       `json:"sequence"`
	Yaw        float64      `json:"yaw"`
	Looping    bool         `json:"looping"`
	StartMS    uint32       `json:"startMs"`
	EndMS      uint32       `json:"endMs"`
	DurationMS uint32       `json:"durationMs"`
	Frames     []PlainFrame `json:"frames"`
}

// PlainFrame is one frame's rectangle and timing.
type PlainFrame struct {
	X          int    `json:"x"`
	Y          int    `json:"y"`
	W          int    `json:"w"`
	H          int    `json:"h"`
	TimeMS     uint32 `json:"timeMs"`
	DurationMS uint32 `json:"durationMs"`
}

// Plain returns the plain metadata.
func (l *SheetLayout) Plain(imageName string) PlainSheet {
	p := PlainSheet{Image: imageName, Width: l.Bounds().Dx(), Height: l.Bounds().Dy(), FrameWidth: l.FrameW, FrameHeight: l.FrameH}
	idx := map[string]int{}
	for _, c := range l.Cells {
		i, ok := idx[c.Animation]
		if !ok {
			s := l.Sequences[c.Seq].Info
			i = len(p.Animations)
			idx[c.Animation] = i
			p.Animations = append(p.Animations, PlainAnimation{Name: c.Animation, Sequence: s.Name, Yaw: c.Yaw,
				Looping: s.Looping, StartMS: s.Start, EndMS: s.End, DurationMS: s.Length()})
		}
		r := c.Rect
		p.Animations[i].Frames = append(p.Animations[i].Frames, PlainFrame{r.Min.X, r.Min.Y, r.Dx(), r.Dy(), c.Sample.Time, c.Sample.Duration})
	}
	return p
}

// sanitizeName makes a sequence name safe inside a file name.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
