package sheet

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// GodotSpriteFrames returns the sheet as a Godot 4 SpriteFrames resource
// (a text .tres), which an AnimatedSprite2D plays: images names every
// page's image, relative to the folder the .tres is saved in (Godot
// resolves a relative path from there). Every frame is an AtlasTexture,
// a region of its page, with a margin putting a trimmed frame back in its
// place; every animation (a sequence at one yaw) has its frames with
// their durations and its loop flag. Godot plays a frame for duration /
// speed seconds, so speed is 1000 over the animation's first frame's ms
// and each duration that frame's share of it. The pivots, which
// SpriteFrames has no field for, go in the resource's metadata
// (mdxrender_pivots: animation name to a Vector2 in pixels from the
// frame's top-left corner); an AnimatedSprite2D with centered on stands
// on it with offset = (FrameW/2, FrameH/2) − pivot.
func (l *Layout) GodotSpriteFrames(images []string) ([]byte, error) {
	if len(images) != len(l.Pages) {
		return nil, fmt.Errorf("sheet: %d image names for %d pages", len(images), len(l.Pages))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[gd_resource type=\"SpriteFrames\" load_steps=%d format=3]\n\n", len(images)+len(l.Cells)+1)
	for i, name := range images {
		fmt.Fprintf(&b, "[ext_resource type=\"Texture2D\" path=%s id=\"%d\"]\n", godotString(name), i+1)
	}
	for i := range l.Cells {
		c := &l.Cells[i]
		r, s := c.Rect, c.Source
		fmt.Fprintf(&b, "\n[sub_resource type=\"AtlasTexture\" id=\"AtlasTexture_%d\"]\n", i)
		fmt.Fprintf(&b, "atlas = ExtResource(\"%d\")\n", c.Page+1)
		fmt.Fprintf(&b, "region = Rect2(%d, %d, %d, %d)\n", r.Min.X, r.Min.Y, r.Dx(), r.Dy())
		if s.Min.X != 0 || s.Min.Y != 0 || s.Dx() != l.FrameW || s.Dy() != l.FrameH {
			fmt.Fprintf(&b, "margin = Rect2(%d, %d, %d, %d)\n", s.Min.X, s.Min.Y, l.FrameW-s.Dx(), l.FrameH-s.Dy())
		}
	}
	b.WriteString("\n[resource]\nanimations = [")
	var pivots []string
	for i := 0; i < len(l.Cells); {
		first := i
		anim := l.Cells[i].Animation
		base := float64(l.Cells[i].Sample.Duration)
		if base == 0 {
			base = 1000
		}
		if first > 0 {
			b.WriteString(", ")
		}
		b.WriteString("{\n\"frames\": [")
		for ; i < len(l.Cells) && l.Cells[i].Animation == anim; i++ {
			if i > first {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{\n\"duration\": %s,\n\"texture\": SubResource(\"AtlasTexture_%d\")\n}", godotFloat(float64(l.Cells[i].Sample.Duration)/base), i)
		}
		c := &l.Cells[first]
		fmt.Fprintf(&b, "],\n\"loop\": %t,\n\"name\": &%s,\n\"speed\": %s\n}", l.Strips[c.Strip].Sequence.Looping, godotString(anim), godotFloat(1000/base))
		pv := l.pivot(c)
		pivots = append(pivots, fmt.Sprintf("%s: Vector2(%s, %s)", godotString(anim), godotFloat(pv[0]), godotFloat(pv[1])))
	}
	b.WriteString("]\nmetadata/mdxrender_pivots = {\n")
	b.WriteString(strings.Join(pivots, ",\n"))
	b.WriteString("\n}\n")
	return []byte(b.String()), nil
}

// godotString quotes s as Godot's text resources do: backslash escapes
// for quotes, backslashes and control characters.
func godotString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// godotFloat writes a float as Godot does, always with a decimal point,
// rounded to 1e-6; a non-finite value (a pivot behind the camera) is 0.
func godotFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0.0"
	}
	s := strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
