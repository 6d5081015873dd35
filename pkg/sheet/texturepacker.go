package sheet

import "encoding/json"

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
// program version. The JSON is indented, without a final newline.
func (l *Layout) TexturePackerJSON(imageName, version string) ([]byte, error) {
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
			s := l.Strips[c.Strip].Sequence
			tp.Meta.Anims = append(tp.Meta.Anims, tpSequence{Animation: c.Animation, Sequence: s.Name,
				Yaw: c.Yaw, Looping: s.Looping, DurationMS: s.Length()})
		}
		tp.Animations[c.Animation] = append(tp.Animations[c.Animation], c.Name)
	}
	return json.MarshalIndent(tp, "", "  ")
}
