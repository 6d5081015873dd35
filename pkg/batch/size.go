package batch

import "github.com/mdxrender/mdxrender/internal/forms"

// Size is a picture's size in pixels, 8 to 8192 a side. The zero Size
// means "not set" where a size may be inherited (a view).
type Size struct{ W, H int }

// Square is the size N×N.
func Square(n int) Size { return Size{n, n} }

func (s Size) check() error { return forms.CheckSize(s.W, s.H) }

// IsZero reports whether the size is unset.
func (s Size) IsZero() bool { return s == Size{} }

// String writes s as files and flags write it: "256" for a square,
// "96x64".
func (s Size) String() string { return forms.SizeString(s.W, s.H) }

// MarshalText writes s as String does (also in JSON, so cache keys and
// manifests read "96x64").
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
