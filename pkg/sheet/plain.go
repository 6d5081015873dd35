package sheet

import "encoding/json"

// Plain is this project's own sheet metadata, for programs that want the
// timing and the sequence of every frame without TexturePacker's layout:
// one entry per animation (a sequence at one yaw), frames in play order.
type Plain struct {
	// Image, Width and Height are the (first) sheet image's.
	Image       string `json:"image"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	FrameWidth  int    `json:"frameWidth"`
	FrameHeight int    `json:"frameHeight"`
	// Trimmed says frames are cropped to their pixels: a frame's
	// rectangle on the sheet goes at (offsetX, offsetY) in its
	// frameWidth x frameHeight frame.
	Trimmed bool `json:"trimmed"`
	// Pages lists every sheet image when the sheet was split; a frame's
	// page indexes it.
	Pages      []PlainPage      `json:"pages,omitempty"`
	Animations []PlainAnimation `json:"animations"`
}

// PlainPage is one sheet image of a split sheet.
type PlainPage struct {
	Image  string `json:"image"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
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

// PlainFrame is one frame's rectangle on the sheet, where it goes in its
// frame, its pivot and its timing.
type PlainFrame struct {
	X    int `json:"x"`
	Y    int `json:"y"`
	W    int `json:"w"`
	H    int `json:"h"`
	Page int `json:"page,omitempty"`
	// OffsetX and OffsetY place the rectangle in the frame (0 unless
	// trimmed).
	OffsetX int `json:"offsetX"`
	OffsetY int `json:"offsetY"`
	// PivotX and PivotY are the pivot (the model's origin) in whole
	// pixels from the frame's top-left corner.
	PivotX     float64 `json:"pivotX"`
	PivotY     float64 `json:"pivotY"`
	TimeMS     uint32  `json:"timeMs"`
	DurationMS uint32  `json:"durationMs"`
}

// Plain returns the plain metadata of the sheet saved as images, one name
// per page.
func (l *Layout) Plain(images ...string) Plain {
	name := ""
	if len(images) > 0 {
		name = images[0]
	}
	b := l.Bounds()
	p := Plain{Image: name, Width: b.Dx(), Height: b.Dy(), FrameWidth: l.FrameW, FrameHeight: l.FrameH, Trimmed: l.Trimmed}
	if len(l.Pages) > 1 {
		for i, pg := range l.Pages {
			n := ""
			if i < len(images) {
				n = images[i]
			}
			p.Pages = append(p.Pages, PlainPage{n, pg.X, pg.Y})
		}
	}
	idx := map[string]int{}
	for _, c := range l.Cells {
		i, ok := idx[c.Animation]
		if !ok {
			s := l.Strips[c.Strip].Sequence
			i = len(p.Animations)
			idx[c.Animation] = i
			p.Animations = append(p.Animations, PlainAnimation{Name: c.Animation, Sequence: s.Name, Yaw: c.Yaw,
				Looping: s.Looping, StartMS: s.Start, EndMS: s.End, DurationMS: s.Length()})
		}
		r, pv := c.Rect, l.pivot(&c)
		p.Animations[i].Frames = append(p.Animations[i].Frames, PlainFrame{X: r.Min.X, Y: r.Min.Y, W: r.Dx(), H: r.Dy(), Page: c.Page,
			OffsetX: c.Source.Min.X, OffsetY: c.Source.Min.Y, PivotX: pv[0], PivotY: pv[1],
			TimeMS: c.Sample.Time, DurationMS: c.Sample.Duration})
	}
	return p
}

// PlainJSON returns Plain as indented JSON, ending in a newline.
func (l *Layout) PlainJSON(images ...string) ([]byte, error) {
	b, err := json.MarshalIndent(l.Plain(images...), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
