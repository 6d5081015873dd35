package forms

import (
	"image/color"
	"slices"
	"testing"
)

// Icon background colours read as --bg writes them and write back so,
// which is how a batch configuration's icons.bg keeps its default.
func TestIconColors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []color.NRGBA
	}{
		{"", nil},
		{"#102030", []color.NRGBA{{0x10, 0x20, 0x30, 255}}},
		{" #102030:#405060 ", []color.NRGBA{{0x10, 0x20, 0x30, 255}, {0x40, 0x50, 0x60, 255}}},
	} {
		got, err := IconColors(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("IconColors(%q) = %v, %v; want %v", c.in, got, err, c.want)
			continue
		}
		back, err := IconColors(IconColorsString(got))
		if err != nil || !slices.Equal(back, got) {
			t.Errorf("%q does not read back: %v, %v", IconColorsString(got), back, err)
		}
	}
	for _, bad := range []string{"#12", "#102030:", "red", "#102030:#405060:#708090"} {
		if _, err := IconColors(bad); err == nil {
			t.Errorf("IconColors(%q) took it", bad)
		}
	}
}
