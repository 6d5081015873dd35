package batch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	yaml "go.yaml.in/yaml/v3"
)

// Size is a picture's size in pixels. Files, flags and environment
// variables write it as N (a square, a whole number) or WxH ("96x64").
// The zero Size means "not set" where a size may be inherited (a view).
type Size struct{ W, H int }

// Square is the size N×N.
func Square(n int) Size { return Size{n, n} }

// Size limits: a picture smaller than MinSide shows nothing useful, and
// MaxSide bounds the memory of one picture.
const (
	MinSide = 8
	MaxSide = 8192
)

// ParseSize reads "N" or "WxH" (also "W×H", any case of x); each side must
// be a whole number from MinSide to MaxSide.
func ParseSize(s string) (Size, error) {
	t := strings.TrimSpace(s)
	w, h, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(t), "×", "x"), "x")
	if !ok {
		h = w
	}
	wi, err1 := strconv.Atoi(strings.TrimSpace(w))
	hi, err2 := strconv.Atoi(strings.TrimSpace(h))
	if err1 != nil || err2 != nil {
		return Size{}, fmt.Errorf("want N or WxH in whole pixels, got %s", clip.Quote(s))
	}
	sz := Size{wi, hi}
	return sz, sz.check()
}

func (s Size) check() error {
	if s.W < MinSide || s.W > MaxSide || s.H < MinSide || s.H > MaxSide {
		return fmt.Errorf("want %d to %d pixels a side, got %s", MinSide, MaxSide, s)
	}
	return nil
}

// IsZero reports whether the size is unset.
func (s Size) IsZero() bool { return s == Size{} }

// String writes s as ParseSize reads it: "256" for a square.
func (s Size) String() string {
	if s.W == s.H {
		return strconv.Itoa(s.W)
	}
	return fmt.Sprintf("%dx%d", s.W, s.H)
}

// MarshalText writes s as String does (also in JSON, so cache keys and
// manifests read "96x64").
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a size as ParseSize does, without the range check
// (Validate reports it with the key's name).
func (s *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	if err != nil && v.IsZero() {
		return err
	}
	*s = v
	return nil
}

// UnmarshalYAML takes a whole number or a "WxH" string; a fraction such as
// 12.5 is an error, not 12.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!float" || n.ShortTag() == "!!bool" {
		return fmt.Errorf("want N or WxH in whole pixels, got %s", clip.Quote(n.Value))
	}
	return s.UnmarshalText([]byte(n.Value))
}
