package batchconfig

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/icon"
)

// Icons is the icons.* section: how the icons of output format "icons"
// are made, each key named and written as the `mdxrender icon` flag of
// the same meaning (docs/icons.md).
type Icons struct {
	// Kinds are btn, disbtn, pas, dispas, atc, or all.
	Kinds []string `yaml:"kinds"`
	HD    bool     `yaml:"hd"`
	// Shot is portrait, head or whole.
	Shot string `yaml:"shot"`
	// Bg is "#rrggbb", "#rrggbb:#rrggbb" (a gradient from top to bottom)
	// or "" (the default dark slate gradient).
	Bg      string `yaml:"bg"`
	BgImage string `yaml:"bg_image"`
	// Frames maps a kind (btn, ...) to a picture drawn instead of our
	// frame: --frame KIND=FILE.
	Frames    map[string]string `yaml:"frames"`
	Quality   int               `yaml:"quality"`
	Palette   bool              `yaml:"palette"`
	AlphaBits int               `yaml:"alpha_bits"`
	// DDS is dxt1, dxt5 or bgra.
	DDS   string `yaml:"dds"`
	NoPNG bool   `yaml:"no_png"`
}

// defaultIcons is the file form of the batch's default icon options.
func defaultIcons(o batch.IconOptions) Icons {
	c := Icons{HD: o.HD, Shot: o.Shot.String(), Bg: forms.IconColorsString(o.Background), BgImage: o.BackgroundImage,
		Quality: o.Files.BLP.Quality, Palette: o.Files.BLP.Palette, AlphaBits: o.Files.BLP.AlphaBits,
		DDS: o.Files.DDS.Format.String(), NoPNG: o.Files.NoPNG}
	for _, k := range o.Kinds {
		c.Kinds = append(c.Kinds, strings.ToLower(k.String()))
	}
	return c
}

// icons converts the icons section over def, reporting each value whose
// text does not read.
func icons(c Icons, def batch.IconOptions, bad func(key string, err error)) batch.IconOptions {
	o := def
	o.HD, o.BackgroundImage = c.HD, c.BgImage
	o.Files.BLP.Quality, o.Files.BLP.Palette, o.Files.BLP.AlphaBits, o.Files.NoPNG = c.Quality, c.Palette, c.AlphaBits, c.NoPNG
	read(&o.Kinds, strings.Join(c.Kinds, ","), forms.IconKinds, "icons.kinds", bad)
	read(&o.Shot, c.Shot, forms.Shot, "icons.shot", bad)
	read(&o.Background, c.Bg, forms.IconColors, "icons.bg", bad)
	read(&o.Files.DDS.Format, c.DDS, forms.DDSFormat, "icons.dds", bad)
	o.Frames = nil
	for _, name := range slices.Sorted(maps.Keys(c.Frames)) {
		k, err := forms.IconKind(name)
		if err != nil {
			bad("icons.frames."+name, err)
			continue
		}
		if o.Frames == nil {
			o.Frames = map[icon.Kind]string{}
		}
		o.Frames[k] = c.Frames[name]
	}
	if c.BgImage != "" && c.Bg != "" {
		bad("icons.bg_image", fmt.Errorf("give icons.bg or icons.bg_image, not both"))
	}
	return o
}
