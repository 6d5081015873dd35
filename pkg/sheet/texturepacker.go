package sheet

import (
	"encoding/json"
	"fmt"
)

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

type tpPoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type tpFrame struct {
	Frame            tpRect  `json:"frame"`
	Rotated          bool    `json:"rotated"`
	Trimmed          bool    `json:"trimmed"`
	SpriteSourceSize tpRect  `json:"spriteSourceSize"`
	SourceSize       tpSize  `json:"sourceSize"`
	Pivot            tpPoint `json:"pivot"`
	Anchor           tpPoint `json:"anchor"`
	Duration         uint32  `json:"duration"`
}

type tpSequence struct {
	Animation  string  `json:"animation"`
	Sequence   string  `json:"sequence"`
	Yaw        float64 `json:"yaw"`
	Looping    bool    `json:"looping"`
	DurationMS uint32  `json:"durationMs"`
}

// imageMeta opens the "meta" object of TexturePacker's JSON and of
// Aseprite's, which follows it: who wrote the sheet and the image it
// describes.
type imageMeta struct {
	App     string `json:"app"`
	Version string `json:"version"`
	Image   string `json:"image"`
	Format  string `json:"format"`
	Size    tpSize `json:"size"`
	Scale   string `json:"scale"`
}

// imageMeta describes page of the layout, saved as image.
func (l *Layout) imageMeta(page int, image, version string) imageMeta {
	return imageMeta{App: "mdxrender", Version: version, Image: image, Format: "RGBA8888",
		Size: tpSize{l.Pages[page].X, l.Pages[page].Y}, Scale: "1"}
}

type tpMeta struct {
	imageMeta
	Related []string     `json:"related_multi_packs,omitempty"`
	Anims   []tpSequence `json:"mdxrenderSequences"`
}

type texturePacker struct {
	Frames     map[string]tpFrame  `json:"frames"`
	Animations map[string][]string `json:"animations"`
	Meta       tpMeta              `json:"meta"`
}

// normPivot is a cell's pivot (as pivot gives it) as a share of its
// frame.
func (l *Layout) normPivot(c *Cell) tpPoint {
	p := l.pivot(c)
	return tpPoint{p[0] / float64(l.FrameW), p[1] / float64(l.FrameH)}
}

// TexturePackerJSON returns the metadata of a sheet of one page, saved as
// imageName, in TexturePacker's "JSON hash" layout (TexturePackerPage).
func (l *Layout) TexturePackerJSON(imageName, version string) ([]byte, error) {
	if len(l.Pages) > 1 {
		return nil, fmt.Errorf("sheet: the sheet has %d pages; use TexturePackerPage", len(l.Pages))
	}
	return l.TexturePackerPage(0, []string{imageName}, nil, version)
}

// TexturePackerPage returns the metadata of page page in TexturePacker's
// "JSON hash" layout, as Phaser (load.atlas) and PixiJS (Assets.load)
// read it: a frames object keyed by frame name, each with its place on
// the page, its trim (trimmed, spriteSourceSize, sourceSize), its pivot
// as a share of the frame (pivot, which Phaser reads, and the same as
// anchor, which PixiJS reads) and its duration in ms; an animations map
// from animation name to frame names in play order, for the animations
// on this page; and meta with the image name, size and scale. Sequence
// names, yaws and looping go in meta.mdxrenderSequences, which both
// loaders ignore. images names every page's image; jsons, for a sheet of
// several pages, every page's metadata file, which the others list in
// meta.related_multi_packs (PixiJS loads them with the first). version is
// the program version. The JSON is indented, without a final newline.
func (l *Layout) TexturePackerPage(page int, images, jsons []string, version string) ([]byte, error) {
	if page < 0 || page >= len(l.Pages) || len(images) != len(l.Pages) || (len(l.Pages) > 1 && len(jsons) != len(l.Pages)) {
		return nil, fmt.Errorf("sheet: page %d of %d with %d image and %d metadata names", page, len(l.Pages), len(images), len(jsons))
	}
	tp := texturePacker{
		Frames:     map[string]tpFrame{},
		Animations: map[string][]string{},
		Meta:       tpMeta{imageMeta: l.imageMeta(page, images[page], version)},
	}
	if len(l.Pages) > 1 {
		for i, j := range jsons {
			if i != page {
				tp.Meta.Related = append(tp.Meta.Related, j)
			}
		}
	}
	for i := range l.Cells {
		c := &l.Cells[i]
		if c.Page != page {
			continue
		}
		r, s := c.Rect, c.Source
		pv := l.normPivot(c)
		tp.Frames[c.Name] = tpFrame{
			Frame:            tpRect{r.Min.X, r.Min.Y, r.Dx(), r.Dy()},
			Trimmed:          l.Trimmed,
			SpriteSourceSize: tpRect{s.Min.X, s.Min.Y, s.Dx(), s.Dy()},
			SourceSize:       tpSize{l.FrameW, l.FrameH},
			Pivot:            pv,
			Anchor:           pv,
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
