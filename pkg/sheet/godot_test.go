package sheet

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// A reader of Godot 4's text resource format (.tres), as the engine's
// documentation describes it: a [gd_resource] header, [ext_resource] and
// [sub_resource] sections with attributes, a [resource] section, and
// "key = value" properties whose values are Variants: numbers, strings,
// StringNames (&"..."), booleans, null, arrays, dictionaries and
// constructor calls such as Rect2(...) or SubResource("id"). It is strict:
// anything else is an error, so the test fails on output Godot would
// refuse.

type gdCall struct {
	name string
	args []any
}

type gdStringName string

type gdSection struct {
	tag   string
	attrs map[string]any
	props map[string]any
	order []string
}

type gdParser struct {
	s   string
	pos int
}

func (p *gdParser) errf(format string, a ...any) error {
	line := strings.Count(p.s[:p.pos], "\n") + 1
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
}

func (p *gdParser) space(newlines bool) {
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n') {
			p.pos++
			continue
		}
		if c == ';' { // comment to the end of the line
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
			continue
		}
		return
	}
}

func (p *gdParser) ident() string {
	start := p.pos
	for p.pos < len(p.s) {
		r := rune(p.s[p.pos])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '/' {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *gdParser) expect(c byte) error {
	p.space(true)
	if p.pos >= len(p.s) || p.s[p.pos] != c {
		return p.errf("want %q", c)
	}
	p.pos++
	return nil
}

func (p *gdParser) str() (string, error) {
	if p.pos >= len(p.s) || p.s[p.pos] != '"' {
		return "", p.errf("want a string")
	}
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if p.pos >= len(p.s) {
				return "", p.errf("escape at the end")
			}
			e := p.s[p.pos]
			p.pos++
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if p.pos+4 > len(p.s) {
					return "", p.errf("short \\u escape")
				}
				v, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 16)
				if err != nil {
					return "", p.errf("bad \\u escape")
				}
				b.WriteRune(rune(v))
				p.pos += 4
			default:
				return "", p.errf("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errf("unterminated string")
}

// items reads comma-separated items up to the byte end, each with item.
func (p *gdParser) items(end byte, item func() error) error {
	for n := 0; ; n++ {
		p.space(true)
		if p.pos < len(p.s) && p.s[p.pos] == end {
			p.pos++
			return nil
		}
		if n > 0 {
			if err := p.expect(','); err != nil {
				return err
			}
		}
		if err := item(); err != nil {
			return err
		}
	}
}

func (p *gdParser) value() (any, error) {
	p.space(true)
	if p.pos >= len(p.s) {
		return nil, p.errf("want a value")
	}
	switch c := p.s[p.pos]; {
	case c == '"':
		return p.str()
	case c == '&':
		p.pos++
		s, err := p.str()
		return gdStringName(s), err
	case c == '[':
		p.pos++
		var out []any
		err := p.items(']', func() error {
			v, err := p.value()
			out = append(out, v)
			return err
		})
		return out, err
	case c == '{':
		p.pos++
		out := map[string]any{}
		err := p.items('}', func() error {
			k, err := p.value()
			if err != nil {
				return err
			}
			ks, ok := k.(string)
			if !ok {
				return p.errf("dictionary key %v is not a string", k)
			}
			if err := p.expect(':'); err != nil {
				return err
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			if _, dup := out[ks]; dup {
				return p.errf("key %q twice", ks)
			}
			out[ks] = v
			return nil
		})
		return out, err
	case c == '-' || c == '.' || (c >= '0' && c <= '9'):
		start := p.pos
		for p.pos < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[p.pos]) >= 0 {
			p.pos++
		}
		f, err := strconv.ParseFloat(p.s[start:p.pos], 64)
		if err != nil {
			return nil, p.errf("bad number %q", p.s[start:p.pos])
		}
		return f, nil
	default:
		id := p.ident()
		switch id {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		case "":
			return nil, p.errf("unexpected %q", c)
		}
		if err := p.expect('('); err != nil {
			return nil, err
		}
		call := gdCall{name: id}
		for {
			p.space(true)
			if p.pos < len(p.s) && p.s[p.pos] == ')' {
				p.pos++
				return call, nil
			}
			if len(call.args) > 0 {
				if err := p.expect(','); err != nil {
					return nil, err
				}
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			call.args = append(call.args, v)
		}
	}
}

func parseTres(s string) ([]gdSection, error) {
	p := &gdParser{s: s}
	var out []gdSection
	for {
		p.space(true)
		if p.pos >= len(s) {
			return out, nil
		}
		if s[p.pos] != '[' {
			if len(out) == 0 {
				return nil, p.errf("a property before any section")
			}
			sec := &out[len(out)-1]
			key := p.ident()
			if key == "" {
				return nil, p.errf("want a property name")
			}
			if err := p.expect('='); err != nil {
				return nil, err
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if _, dup := sec.props[key]; dup {
				return nil, p.errf("property %s twice", key)
			}
			sec.props[key] = v
			sec.order = append(sec.order, key)
			p.space(false)
			if p.pos < len(s) && s[p.pos] != '\n' {
				return nil, p.errf("more after the value of %s", key)
			}
			continue
		}
		p.pos++
		sec := gdSection{tag: p.ident(), attrs: map[string]any{}, props: map[string]any{}}
		for {
			p.space(false)
			if p.pos < len(s) && s[p.pos] == ']' {
				p.pos++
				break
			}
			k := p.ident()
			if k == "" {
				return nil, p.errf("want an attribute of [%s]", sec.tag)
			}
			if err := p.expect('='); err != nil {
				return nil, err
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			sec.attrs[k] = v
		}
		out = append(out, sec)
	}
}

// TestGodotSpriteFramesGrammar reads the SpriteFrames of a trimmed,
// split sheet with the strict reader above and checks what Godot needs:
// the header's resource type, format and step count; unique ids and no
// dangling reference; regions inside their pages; every animation with
// its frames, loop flag, StringName name and speed; and, played at its
// speed, as long as its sequence.
func TestGodotSpriteFramesGrammar(t *testing.T) {
	l := goldenLayout(t)
	if _, err := l.Pack(goldenFrames(l), PackOptions{Trim: true, Padding: 2, MaxSize: 64}); err != nil {
		t.Fatal(err)
	}
	var images []string
	for p := range l.Pages {
		images = append(images, fmt.Sprintf("a \"quoted\" \\ name-%d.png", p))
	}
	b, err := l.GodotSpriteFrames(images)
	if err != nil {
		t.Fatal(err)
	}
	secs, err := parseTres(string(b))
	if err != nil {
		t.Fatal(err)
	}
	h := secs[0]
	if h.tag != "gd_resource" || h.attrs["type"] != "SpriteFrames" || h.attrs["format"] != 3.0 {
		t.Fatalf("header %+v", h)
	}
	ext, sub := map[string]int{}, map[string]bool{}
	var res *gdSection
	for i := range secs[1:] {
		s := &secs[i+1]
		id, _ := s.attrs["id"].(string)
		switch s.tag {
		case "ext_resource":
			if s.attrs["type"] != "Texture2D" || ext[id] != 0 {
				t.Errorf("ext_resource %+v", s.attrs)
			}
			page := len(ext)
			ext[id] = page + 1
			if s.attrs["path"] != images[page] {
				t.Errorf("ext_resource path %q, want %q", s.attrs["path"], images[page])
			}
		case "sub_resource":
			if s.attrs["type"] != "AtlasTexture" || sub[id] {
				t.Errorf("sub_resource %+v", s.attrs)
			}
			sub[id] = true
			atlas, ok := s.props["atlas"].(gdCall)
			if !ok || atlas.name != "ExtResource" || len(atlas.args) != 1 || ext[fmt.Sprint(atlas.args[0])] == 0 {
				t.Fatalf("AtlasTexture %s atlas %v", id, s.props["atlas"])
			}
			page := l.Pages[ext[fmt.Sprint(atlas.args[0])]-1]
			reg, ok := s.props["region"].(gdCall)
			if !ok || reg.name != "Rect2" || len(reg.args) != 4 {
				t.Fatalf("AtlasTexture %s region %v", id, s.props["region"])
			}
			x, y, w, hh := reg.args[0].(float64), reg.args[1].(float64), reg.args[2].(float64), reg.args[3].(float64)
			if x < 0 || y < 0 || w < 1 || hh < 1 || x+w > float64(page.X) || y+hh > float64(page.Y) {
				t.Errorf("AtlasTexture %s region %v outside its %v page", id, reg.args, page)
			}
			// A trimmed frame's margin puts its region back in the frame.
			if m, ok := s.props["margin"].(gdCall); ok {
				if m.name != "Rect2" || len(m.args) != 4 || m.args[2].(float64)+w != float64(l.FrameW) || m.args[3].(float64)+hh != float64(l.FrameH) ||
					m.args[0].(float64) > m.args[2].(float64) || m.args[1].(float64) > m.args[3].(float64) {
					t.Errorf("AtlasTexture %s margin %v for a %vx%v region", id, m, w, hh)
				}
			}
		case "resource":
			res = s
		default:
			t.Errorf("unexpected section [%s]", s.tag)
		}
	}
	if h.attrs["load_steps"] != float64(len(ext)+len(sub)+1) {
		t.Errorf("load_steps %v, want %d", h.attrs["load_steps"], len(ext)+len(sub)+1)
	}
	if res == nil {
		t.Fatal("no [resource]")
	}
	anims, ok := res.props["animations"].([]any)
	if !ok {
		t.Fatalf("animations %T", res.props["animations"])
	}
	names := map[string]bool{}
	frames := 0
	for _, a := range anims {
		d := a.(map[string]any)
		if len(d) != 4 {
			t.Errorf("animation keys %v", d)
		}
		name, ok := d["name"].(gdStringName)
		speed, _ := d["speed"].(float64)
		_, loopOK := d["loop"].(bool)
		fs, _ := d["frames"].([]any)
		if !ok || !loopOK || !(speed > 0) || len(fs) == 0 || names[string(name)] {
			t.Fatalf("animation %v", d)
		}
		names[string(name)] = true
		total := 0.0
		for _, f := range fs {
			fd := f.(map[string]any)
			dur, _ := fd["duration"].(float64)
			tex, ok := fd["texture"].(gdCall)
			if len(fd) != 2 || !ok || tex.name != "SubResource" || !sub[fmt.Sprint(tex.args[0])] || dur < 0 {
				t.Fatalf("frame %v", fd)
			}
			total += dur / speed
			frames++
		}
		var seq Sequence
		for _, c := range l.Cells {
			if c.Animation == string(name) {
				seq = l.Strips[c.Strip].Sequence
			}
		}
		if want := float64(seq.Length()) / 1000; math.Abs(total-want) > 1e-6 {
			t.Errorf("animation %s plays %.6f s, its sequence lasts %.6f s", name, total, want)
		}
		if d["loop"] != seq.Looping {
			t.Errorf("animation %s loop %v, sequence looping %v", name, d["loop"], seq.Looping)
		}
	}
	if frames != len(l.Cells) || len(sub) != len(l.Cells) {
		t.Errorf("%d frames and %d atlas textures for %d cells", frames, len(sub), len(l.Cells))
	}
	pv, ok := res.props["metadata/mdxrender_pivots"].(map[string]any)
	if !ok || len(pv) != len(names) {
		t.Fatalf("pivots %v", res.props["metadata/mdxrender_pivots"])
	}
	for n, v := range pv {
		if c, ok := v.(gdCall); !ok || c.name != "Vector2" || len(c.args) != 2 || !names[n] {
			t.Errorf("pivot %s = %v", n, v)
		}
	}
	// The reader is strict.
	for _, bad := range []string{"[a]\nx = 1 2\n", "[a b=]\n", "x = 1\n", "[a]\nx = \"open\n", "[a]\nx = {1: 2}\n", "[a]\nx = Foo(1,)\n"} {
		if _, err := parseTres(bad); err == nil {
			t.Errorf("read %q", bad)
		}
	}
}
