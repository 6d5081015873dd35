package mdx

import (
	"errors"
	"fmt"
)

// FormatError reports a malformed MDX file: the chunk being read, the byte
// offset from the start of the file, and what was wrong.
type FormatError struct {
	Offset int64
	Chunk  string // four-character tag, or "" for the file header
	Reason string
}

func (e *FormatError) Error() string {
	if e.Chunk == "" {
		return fmt.Sprintf("mdx: at offset %#x: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("mdx: %s at offset %#x: %s", e.Chunk, e.Offset, e.Reason)
}

// UnsupportedError reports a valid-looking file this package cannot read,
// such as an MDX version outside 800..1100.
type UnsupportedError string

func (e UnsupportedError) Error() string { return "mdx: unsupported " + string(e) }

// ErrNotMDX is returned when the input does not start with the "MDLX" magic.
var ErrNotMDX = errors.New("mdx: not an MDX file (no MDLX magic)")
