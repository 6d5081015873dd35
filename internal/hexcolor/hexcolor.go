// Package hexcolor reads the "#rrggbb" colours the command line, the batch
// configuration and the library all accept, in one place so that they
// accept the same spellings.
package hexcolor

import (
	"fmt"
	"github.com/mdxrender/mdxrender/internal/clip"
	"image/color"
	"strconv"
	"strings"
)

// Parse reads "#rrggbb" (any case), or "#rrggbbaa" too when alpha is true,
// into a straight-alpha colour (alpha 255 unless given).
func Parse(s string, alpha bool) (color.NRGBA, error) {
	h, ok := strings.CutPrefix(strings.TrimSpace(s), "#")
	if !ok || !(len(h) == 6 || alpha && len(h) == 8) {
		want := "#rrggbb"
		if alpha {
			want += " or #rrggbbaa"
		}
		return color.NRGBA{}, fmt.Errorf("colour %s: want %s", clip.Quote(s), want)
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.NRGBA{}, fmt.Errorf("colour %s: %s is not hexadecimal", clip.Quote(s), clip.Quote(h))
	}
	if len(h) == 6 {
		return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, nil
	}
	return color.NRGBA{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}, nil
}

// Format writes c as "#rrggbb", or "#rrggbbaa" when it is not opaque.
func Format(c color.NRGBA) string {
	if c.A == 255 {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("#%02x%02x%02x%02x", c.R, c.G, c.B, c.A)
}
