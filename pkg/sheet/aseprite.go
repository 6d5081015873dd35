package sheet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

type aseFrame struct {
	Frame            tpRect  `json:"frame"`
	Rotated          bool    `json:"rotated"`
	Trimmed          bool    `json:"trimmed"`
	SpriteSourceSize tpRect  `json:"spriteSourceSize"`
	SourceSize       tpSize  `json:"sourceSize"`
	Duration         uint32  `json:"duration"`
	Pivot            tpPoint `json:"pivot"`
}

type aseTag struct {
	Name      string `json:"name"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Direction string `json:"direction"`
	Color     string `json:"color"`
}

type aseLayer struct {
	Name      string `json:"name"`
	Opacity   int    `json:"opacity"`
	BlendMode string `json:"blendMode"`
}

type aseMeta struct {
	imageMeta
	FrameTags []aseTag   `json:"frameTags"`
	Layers    []aseLayer `json:"layers"`
	Slices    []struct{} `json:"slices"`
}

// asepriteFile is written with its frames in number order: a Go map
// would sort "10" before "2".
type asepriteFile struct {
	frames []aseFrame
	meta   aseMeta
}

func (a asepriteFile) MarshalJSON() ([]byte, error) {
	b := []byte(`{"frames":{`)
	for i, f := range a.frames {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, strconv.Itoa(i))
		b = append(b, ':')
		fb, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		b = append(b, fb...)
	}
	b = append(b, `},"meta":`...)
	mb, err := json.Marshal(a.meta)
	if err != nil {
		return nil, err
	}
	return append(append(b, mb...), '}'), nil
}

// AsepriteJSON returns the metadata of page page, saved as imageName, as
// Aseprite's "JSON hash" export with frames named by number, which
// Phaser reads with load.aseprite and turns into animations with
// anims.createFromAseprite: frames "0", "1", ... in cell order, each with
// its place, trim and duration in ms (and its pivot as a share of the
// frame, which Phaser's atlas reader takes and Aseprite's own format does
// not have), and one frame tag per animation (a sequence at one yaw),
// played forward. version is the program version. The JSON is indented,
// without a final newline.
func (l *Layout) AsepriteJSON(page int, imageName, version string) ([]byte, error) {
	if page < 0 || page >= len(l.Pages) {
		return nil, fmt.Errorf("sheet: page %d of %d", page, len(l.Pages))
	}
	a := asepriteFile{meta: aseMeta{imageMeta: l.imageMeta(page, imageName, version),
		FrameTags: []aseTag{}, Layers: []aseLayer{{Name: "model", Opacity: 255, BlendMode: "normal"}}, Slices: []struct{}{}}}
	for i := range l.Cells {
		c := &l.Cells[i]
		if c.Page != page {
			continue
		}
		r, s := c.Rect, c.Source
		n := len(a.frames)
		a.frames = append(a.frames, aseFrame{
			Frame:            tpRect{r.Min.X, r.Min.Y, r.Dx(), r.Dy()},
			Trimmed:          l.Trimmed,
			SpriteSourceSize: tpRect{s.Min.X, s.Min.Y, s.Dx(), s.Dy()},
			SourceSize:       tpSize{l.FrameW, l.FrameH},
			Duration:         c.Sample.Duration,
			Pivot:            l.normPivot(c),
		})
		if k := len(a.meta.FrameTags) - 1; k >= 0 && a.meta.FrameTags[k].Name == c.Animation {
			a.meta.FrameTags[k].To = n
		} else {
			a.meta.FrameTags = append(a.meta.FrameTags, aseTag{Name: c.Animation, From: n, To: n, Direction: "forward", Color: "#000000ff"})
		}
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	return indent(b)
}

func indent(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
