package batch

import (
	"fmt"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	yaml "go.yaml.in/yaml/v3"
)

// Size is a picture's size in pixels. Files, flags and environment
// variables write it as N (a square, a whole number) or WxH ("96x64").
// The zero Size means "not set" where a size may be inherited (a view).
type Size struct{ W, H int }

// Square is the size N×N.
func Square(n int) Size { return Size{n, n} }

func (s Size) check() error { return forms.CheckSize(s.W, s.H) }

// IsZero reports whether the size is unset.
func (s Size) IsZero() bool { return s == Size{} }

// String writes s as files and flags write it: "256" for a square.
func (s Size) String() string { return forms.SizeString(s.W, s.H) }

// MarshalText writes s as String does (also in JSON, so cache keys and
// manifests read "96x64").
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a size as forms.Size does, without the range check
// (Validate reports it with the key's name).
func (s *Size) UnmarshalText(b []byte) error {
	w, h, err := forms.Size(string(b))
	if err != nil && w == 0 && h == 0 {
		return err
	}
	*s = Size{w, h}
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
