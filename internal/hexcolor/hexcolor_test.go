package hexcolor

import (
	"image/color"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in    string
		alpha bool
		want  color.NRGBA
		ok    bool
	}{
		{"#102030", false, color.NRGBA{0x10, 0x20, 0x30, 255}, true},
		{"#A0b0C0", true, color.NRGBA{0xa0, 0xb0, 0xc0, 255}, true},
		{"#10203080", true, color.NRGBA{0x10, 0x20, 0x30, 0x80}, true},
		{"#10203080", false, color.NRGBA{}, false},
		{"102030", false, color.NRGBA{}, false},
		{"#10203g", false, color.NRGBA{}, false},
		{"#1020", true, color.NRGBA{}, false},
		{"", true, color.NRGBA{}, false},
	} {
		got, err := Parse(c.in, c.alpha)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("Parse(%q, %v) = %v, %v", c.in, c.alpha, got, err)
		}
		if c.ok {
			if back, err := Parse(Format(got), true); err != nil || back != got {
				t.Errorf("Format(%v) = %q does not read back", got, Format(got))
			}
		}
	}
}
