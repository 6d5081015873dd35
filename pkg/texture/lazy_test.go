package texture

import "testing"

// Settled turns true once every level is decoded, and not before: a
// coarser level, or level 0 alone for an extent, leaves levels to decode.
func TestLazySettled(t *testing.T) {
	const w, h = 8, 4
	data := blp1Palette(w, h, 8, testPalette(), [][]byte{make([]byte, 2*w*h), make([]byte, 2*4*2), make([]byte, 2*2), make([]byte, 2)})
	l, err := OpenLazy(data, "t.blp", nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Levels() != 4 {
		t.Fatalf("%d levels, want 4", l.Levels())
	}
	steps := []struct {
		what string
		do   func() error
		want bool
	}{
		{"opened", func() error { return nil }, false},
		{"levels 2 and 3", func() error { _, err := l.Texture(2, nil); return err }, false},
		{"an extent (level 0)", func() error { _, err := l.Extent(ByAlpha, 1); return err }, false},
		{"every level", func() error { _, err := l.Texture(0, nil); return err }, true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		if got := l.Settled(); got != s.want {
			t.Errorf("%s: Settled = %v, want %v", s.what, got, s.want)
		}
	}
	tex, err := Decode(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !LazyOf(tex).Settled() {
		t.Error("LazyOf: not settled")
	}
}
