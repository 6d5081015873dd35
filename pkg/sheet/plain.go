package sheet

import "encoding/json"

// Plain is this project's own sheet metadata, for programs that want the
// timing and the sequence of every frame without TexturePacker's layout:
// one entry per animation (a sequence at one yaw), frames in play order.
type Plain struct {
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

// Plain returns the plain metadata of the sheet saved as imageName.
func (l *Layout) Plain(imageName string) Plain {
	p := Plain{Image: imageName, Width: l.Bounds().Dx(), Height: l.Bounds().Dy(), FrameWidth: l.FrameW, FrameHeight: l.FrameH}
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
		r := c.Rect
		p.Animations[i].Frames = append(p.Animations[i].Frames, PlainFrame{r.Min.X, r.Min.Y, r.Dx(), r.Dy(), c.Sample.Time, c.Sample.Duration})
	}
	return p
}

// PlainJSON returns Plain as indented JSON, ending in a newline.
func (l *Layout) PlainJSON(imageName string) ([]byte, error) {
	b, err := json.MarshalIndent(l.Plain(imageName), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
